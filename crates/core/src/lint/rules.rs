//! The word lists of the secret-field lint.
//!
//! Everything here is data; `matcher.rs` is the engine. Words are lowercase, as
//! produced by `words::split`. The last word of a phrase also matches with a plural `s`
//! (`api keys`, `passwords`).

use super::finding::SecretCategory::{self, *};

/// Where a rule applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ctx {
    /// Names, titles and prose.
    Any,
    /// Only short labels (property names and titles): words too ambiguous in
    /// sentences ("pass the value", "pin this tab", "keep it secret").
    Label,
}

/// A sequence of words.
pub(crate) struct Phrase {
    pub(crate) words: &'static [&'static str],
    pub(crate) category: SecretCategory,
    pub(crate) ctx: Ctx,
}

const fn any(words: &'static [&'static str], category: SecretCategory) -> Phrase {
    Phrase {
        words,
        category,
        ctx: Ctx::Any,
    }
}

const fn label(words: &'static [&'static str], category: SecretCategory) -> Phrase {
    Phrase {
        words,
        category,
        ctx: Ctx::Label,
    }
}

/// Word phrases. Longer phrases win over the shorter ones they contain ("one time
/// password" is a one-time code, not a password); the engine sorts them.
pub(crate) const PHRASES: &[Phrase] = &[
    // Passwords.
    any(&["password"], Password),
    any(&["passwd"], Password),
    any(&["pwd"], Password),
    any(&["passphrase"], Password),
    any(&["pass", "phrase"], Password),
    any(&["passcode"], Password),
    any(&["pass", "code"], Password),
    any(&["pass", "word"], Password),
    any(&["pin", "code"], Password),
    any(&["pin", "number"], Password),
    label(&["pin"], Password),
    label(&["pass"], Password),
    label(&["pw"], Password),
    // ... in other languages.
    any(&["contraseña"], Password),
    any(&["contrasena"], Password),
    any(&["clave", "de", "acceso"], Password),
    any(&["passwort"], Password),
    any(&["kennwort"], Password),
    any(&["mot", "de", "passe"], Password),
    any(&["senha"], Password),
    any(&["wachtwoord"], Password),
    any(&["lösenord"], Password),
    any(&["salasana"], Password),
    any(&["hasło"], Password),
    any(&["haslo"], Password),
    any(&["şifre"], Password),
    any(&["пароль"], Password),
    any(&["пароля"], Password),
    // API keys.
    any(&["api", "key"], ApiKey),
    any(&["access", "key"], ApiKey),
    any(&["subscription", "key"], ApiKey),
    any(&["developer", "key"], ApiKey),
    any(&["clave", "api"], ApiKey),
    any(&["clave", "de", "api"], ApiKey),
    any(&["clé", "api"], ApiKey),
    any(&["clé", "d", "api"], ApiKey),
    any(&["cle", "api"], ApiKey),
    any(&["api", "schlüssel"], ApiKey),
    any(&["api", "schluessel"], ApiKey),
    // Tokens.
    any(&["access", "token"], AccessToken),
    any(&["refresh", "token"], AccessToken),
    any(&["bearer", "token"], AccessToken),
    any(&["auth", "token"], AccessToken),
    any(&["authentication", "token"], AccessToken),
    any(&["authorization", "token"], AccessToken),
    any(&["id", "token"], AccessToken),
    any(&["oauth", "token"], AccessToken),
    any(&["oauth2", "token"], AccessToken),
    any(&["session", "token"], AccessToken),
    any(&["security", "token"], AccessToken),
    any(&["api", "token"], AccessToken),
    any(&["personal", "access", "token"], AccessToken),
    any(&["jwt"], AccessToken),
    any(&["token", "de", "acceso"], AccessToken),
    any(&["jeton", "d", "accès"], AccessToken),
    any(&["jeton", "d", "acces"], AccessToken),
    any(&["zugriffstoken"], AccessToken),
    label(&["token"], AccessToken),
    label(&["bearer"], AccessToken),
    // Secrets.
    any(&["client", "secret"], Secret),
    any(&["app", "secret"], Secret),
    any(&["application", "secret"], Secret),
    any(&["api", "secret"], Secret),
    any(&["consumer", "secret"], Secret),
    any(&["shared", "secret"], Secret),
    any(&["webhook", "secret"], Secret),
    any(&["signing", "secret"], Secret),
    any(&["secret", "key"], Secret),
    any(&["master", "key"], Secret),
    any(&["encryption", "key"], Secret),
    any(&["decryption", "key"], Secret),
    label(&["secret"], Secret),
    label(&["credential"], Secret),
    // Private keys.
    any(&["private", "key"], PrivateKey),
    any(&["privkey"], PrivateKey),
    any(&["ssh", "key"], PrivateKey),
    any(&["signing", "key"], PrivateKey),
    any(&["pgp", "key"], PrivateKey),
    any(&["gpg", "key"], PrivateKey),
    // Payment cards.
    any(&["credit", "card"], PaymentCard),
    any(&["debit", "card"], PaymentCard),
    any(&["card", "number"], PaymentCard),
    any(&["card", "num"], PaymentCard),
    any(&["card", "no"], PaymentCard),
    any(&["cc", "number"], PaymentCard),
    any(&["cc", "num"], PaymentCard),
    any(&["cc", "exp"], PaymentCard),
    any(&["cvv"], PaymentCard),
    any(&["cvv2"], PaymentCard),
    any(&["cvc"], PaymentCard),
    any(&["cvc2"], PaymentCard),
    any(&["csc"], PaymentCard),
    any(&["card", "security", "code"], PaymentCard),
    any(&["card", "verification", "code"], PaymentCard),
    any(&["card", "verification", "value"], PaymentCard),
    any(&["card", "expiry"], PaymentCard),
    any(&["card", "expiration"], PaymentCard),
    any(&["card", "exp"], PaymentCard),
    any(&["card", "pin"], PaymentCard),
    any(&["número", "de", "tarjeta"], PaymentCard),
    any(&["numero", "de", "tarjeta"], PaymentCard),
    any(&["tarjeta", "de", "crédito"], PaymentCard),
    any(&["tarjeta", "de", "credito"], PaymentCard),
    any(&["kartennummer"], PaymentCard),
    any(&["kreditkarte"], PaymentCard),
    any(&["kreditkartennummer"], PaymentCard),
    any(&["numéro", "de", "carte"], PaymentCard),
    any(&["numero", "de", "carte"], PaymentCard),
    any(&["carte", "bancaire"], PaymentCard),
    any(&["carte", "de", "crédit"], PaymentCard),
    // Bank accounts.
    any(&["iban"], BankAccount),
    any(&["bank", "account"], BankAccount),
    any(&["bank", "account", "number"], BankAccount),
    any(&["routing", "number"], BankAccount),
    any(&["sort", "code"], BankAccount),
    any(&["aba", "number"], BankAccount),
    any(&["kontonummer"], BankAccount),
    // One-time codes.
    any(&["otp"], OneTimeCode),
    any(&["totp"], OneTimeCode),
    any(&["hotp"], OneTimeCode),
    any(&["one", "time", "code"], OneTimeCode),
    any(&["one", "time", "password"], OneTimeCode),
    any(&["one", "time", "passcode"], OneTimeCode),
    any(&["one", "time", "pin"], OneTimeCode),
    any(&["onetime", "code"], OneTimeCode),
    any(&["verification", "code"], OneTimeCode),
    any(&["authentication", "code"], OneTimeCode),
    any(&["authenticator", "code"], OneTimeCode),
    any(&["auth", "code"], OneTimeCode),
    any(&["security", "code"], OneTimeCode),
    any(&["sms", "code"], OneTimeCode),
    any(&["login", "code"], OneTimeCode),
    any(&["2fa", "code"], OneTimeCode),
    any(&["mfa", "code"], OneTimeCode),
    any(&["two", "factor", "code"], OneTimeCode),
    any(&["código", "de", "verificación"], OneTimeCode),
    any(&["codigo", "de", "verificacion"], OneTimeCode),
    any(&["code", "de", "vérification"], OneTimeCode),
    any(&["bestätigungscode"], OneTimeCode),
    any(&["verifizierungscode"], OneTimeCode),
    label(&["2fa"], OneTimeCode),
    label(&["mfa"], OneTimeCode),
    // Recovery phrases.
    any(&["seed", "phrase"], RecoveryPhrase),
    any(&["seedphrase"], RecoveryPhrase),
    any(&["recovery", "phrase"], RecoveryPhrase),
    any(&["secret", "recovery", "phrase"], RecoveryPhrase),
    any(&["mnemonic"], RecoveryPhrase),
    any(&["recovery", "code"], RecoveryPhrase),
    any(&["recovery", "key"], RecoveryPhrase),
    any(&["backup", "code"], RecoveryPhrase),
    any(&["wallet", "seed"], RecoveryPhrase),
    any(&["seed", "words"], RecoveryPhrase),
    any(&["recovery", "words"], RecoveryPhrase),
    // Session credentials.
    any(&["session", "cookie"], SessionCookie),
    any(&["auth", "cookie"], SessionCookie),
    any(&["login", "cookie"], SessionCookie),
    any(&["session", "id"], SessionCookie),
    any(&["session", "key"], SessionCookie),
    any(&["sessionid"], SessionCookie),
    label(&["cookie"], SessionCookie),
];

/// Single words that are compounds of the phrases above (`APIKEY`, `accesstoken`).
pub(crate) const COMPOUNDS: &[(&str, SecretCategory)] = &[
    ("apikey", ApiKey),
    ("accesskey", ApiKey),
    ("accesstoken", AccessToken),
    ("authtoken", AccessToken),
    ("refreshtoken", AccessToken),
    ("bearertoken", AccessToken),
    ("idtoken", AccessToken),
    ("apitoken", AccessToken),
    ("sessiontoken", AccessToken),
    ("clientsecret", Secret),
    ("appsecret", Secret),
    ("secretkey", Secret),
    ("privatekey", PrivateKey),
    ("sshkey", PrivateKey),
    ("cardnumber", PaymentCard),
    ("cardno", PaymentCard),
    ("ccnumber", PaymentCard),
    ("ccnum", PaymentCard),
    ("creditcard", PaymentCard),
    ("bankaccount", BankAccount),
    ("routingnumber", BankAccount),
    ("seedphrase", RecoveryPhrase),
    ("recoveryphrase", RecoveryPhrase),
    ("pincode", Password),
    ("userpass", Password),
    ("passcode", Password),
];

/// Substrings that make any single word a match (`dbPassword` is one word only when
/// written `dbpassword`; `newpasswd`, `myapikey`).
pub(crate) const SUBSTRINGS: &[(&str, SecretCategory)] = &[
    ("password", Password),
    ("passwd", Password),
    ("passphrase", Password),
    ("apikey", ApiKey),
    ("accesstoken", AccessToken),
    ("authtoken", AccessToken),
    ("refreshtoken", AccessToken),
    ("bearertoken", AccessToken),
    ("clientsecret", Secret),
    ("privatekey", PrivateKey),
    ("creditcard", PaymentCard),
    ("cardnumber", PaymentCard),
    ("seedphrase", RecoveryPhrase),
];

/// Words containing a substring above that are not secrets.
pub(crate) const SUBSTRING_EXCEPTIONS: &[&str] = &["passwordless"];

/// Han, kana and hangul phrases, matched as substrings of the lowercased text with
/// whitespace removed. Longer entries win over the shorter ones they contain.
pub(crate) const CJK: &[(&str, SecretCategory)] = &[
    // Chinese (simplified and traditional).
    ("支付密码", Password),
    ("密码", Password),
    ("密碼", Password),
    ("口令", Password),
    ("api密钥", ApiKey),
    ("api密鑰", ApiKey),
    ("api金鑰", ApiKey),
    ("密钥", Secret),
    ("秘钥", Secret),
    ("密鑰", Secret),
    ("金鑰", Secret),
    ("访问令牌", AccessToken),
    ("訪問令牌", AccessToken),
    ("存取權杖", AccessToken),
    ("令牌", AccessToken),
    ("私钥", PrivateKey),
    ("私鑰", PrivateKey),
    ("银行卡号", PaymentCard),
    ("銀行卡號", PaymentCard),
    ("信用卡号", PaymentCard),
    ("信用卡號", PaymentCard),
    ("卡号", PaymentCard),
    ("卡號", PaymentCard),
    ("安全码", PaymentCard),
    ("安全碼", PaymentCard),
    ("银行账号", BankAccount),
    ("銀行帳號", BankAccount),
    ("验证码", OneTimeCode),
    ("驗證碼", OneTimeCode),
    ("动态码", OneTimeCode),
    ("動態碼", OneTimeCode),
    ("助记词", RecoveryPhrase),
    ("助記詞", RecoveryPhrase),
    // Japanese.
    ("ワンタイムパスワード", OneTimeCode),
    ("パスワード", Password),
    ("暗証番号", Password),
    ("apiキー", ApiKey),
    ("アクセストークン", AccessToken),
    ("秘密鍵", PrivateKey),
    ("クレジットカード番号", PaymentCard),
    ("カード番号", PaymentCard),
    ("セキュリティコード", PaymentCard),
    ("口座番号", BankAccount),
    ("認証コード", OneTimeCode),
    ("確認コード", OneTimeCode),
    // Korean.
    ("비밀번호", Password),
    ("카드번호", PaymentCard),
    ("인증번호", OneTimeCode),
    ("인증코드", OneTimeCode),
];

/// Texts containing a CJK match that are not secrets: a password hint, strength or
/// rules, a token count.
pub(crate) const CJK_EXCEPTIONS: &[&str] = &[
    "密码提示",
    "密码强度",
    "密码规则",
    "密码要求",
    "密码长度",
    "密碼提示",
    "密碼強度",
    "令牌数",
    "令牌數",
    "トークン数",
    "パスワードのヒント",
];

/// Where a word stands relative to a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// Before it: qualifiers (`max_tokens`, `public_key`, `boarding_pass`).
    Before,
    /// After it: head nouns (`password_hint`, `token_count`, `api_key_id`, `otp_email`).
    After,
}

/// Qualifiers that, before a match, make it something other than the secret.
#[rustfmt::skip]
const BEFORE: &[&str] = &[
    "min", "max", "minimum", "maximum", "public", "pub", "publishable", "forgot", "forgotten",
    "last", "count", "num", "total",
];

/// Head nouns that, after a match, make it something other than the secret itself.
#[rustfmt::skip]
const AFTER: &[&str] = &[
    "hint", "hints", "policy", "policies", "rule", "rules", "requirement", "requirements",
    "strength", "length", "label", "placeholder", "format", "expiry", "expires", "expiration",
    "expired", "age", "changed", "updated", "created", "rotated", "rotation", "count", "counts",
    "id", "ids", "name", "names", "type", "kind", "status", "last4", "fingerprint", "manager",
    "reset", "prefix", "hash", "hashed", "salt", "algorithm", "url", "uri", "link", "endpoint",
    "location", "path", "file", "filename", "consent", "field", "example",
];

/// Per category: (qualifiers before, head nouns after).
#[rustfmt::skip]
fn category_words(category: SecretCategory) -> (&'static [&'static str], &'static [&'static str]) {
    match category {
        // "pass" alone: a boarding pass, a pass rate, a pass/fail threshold.
        Password => (&["boarding", "season", "bus"], &["rate", "fail", "failed", "threshold", "score", "percentage", "mark", "grade"]),
        // LLM and crypto tokens: max_tokens, prompt_tokens, token_budget, token_symbol.
        AccessToken => (
            &["number", "prompt", "completion", "input", "output", "cached", "reasoning", "remaining", "used"],
            &["limit", "limits", "budget", "usage", "used", "per", "estimate", "cost", "price", "amount", "balance", "supply", "symbol", "address", "decimals", "contract", "standard"],
        ),
        PaymentCard => (&[], &["brand", "holder", "network", "country", "issuer", "digits"]),
        BankAccount => (&[], &["holder", "country", "currency"]),
        // otp_method, otp_email (where to send the code), mfa_enabled.
        OneTimeCode => (&[], &["method", "methods", "channel", "phone", "email", "provider", "app", "digits", "sent", "delivery", "enabled"]),
        SessionCookie => (&[], &["banner", "preferences", "preference", "settings", "duration", "timeout"]),
        _ => (&[], &[]),
    }
}

/// Whether `word`, on `side` of a match of `category`, turns the match into something
/// other than the secret: a password *hint* or *policy*, a token *count*, *max* tokens,
/// an API key *id* or *name*, a card *type*, a *public* key, an OTP *method*.
pub(crate) fn is_modifier(category: SecretCategory, word: &str, side: Side) -> bool {
    let (before, after) = category_words(category);
    match side {
        Side::Before => BEFORE.contains(&word) || before.contains(&word),
        Side::After => AFTER.contains(&word) || after.contains(&word),
    }
}
