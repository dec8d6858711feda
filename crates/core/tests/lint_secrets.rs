//! The secret-field lint: what it must flag, and the false positives it must not raise.

use mcp_elicit_core::Schema;
use mcp_elicit_core::danger::ReviewedNotSecret;
use mcp_elicit_core::lint::{Part, SecretCategory as S, lint_schema, lint_schema_with};
use serde_json::{Value, json};

fn schema(properties: Value) -> Schema {
    Schema::parse(&json!({"type": "object", "properties": properties})).unwrap()
}

/// Categories flagged for a string property named `name` with optional title/description.
fn flagged(name: &str, title: Option<&str>, description: Option<&str>) -> Vec<S> {
    let mut p = json!({"type": "string"});
    if let Some(t) = title {
        p["title"] = json!(t);
    }
    if let Some(d) = description {
        p["description"] = json!(d);
    }
    let mut props = serde_json::Map::new();
    props.insert(name.to_owned(), p);
    let mut cats: Vec<S> = lint_schema(&schema(Value::Object(props)))
        .iter()
        .map(|f| f.category())
        .collect();
    cats.dedup();
    cats
}

#[track_caller]
fn name_is(name: &str, cat: S) {
    assert_eq!(flagged(name, None, None), [cat], "property name {name:?}");
}

#[track_caller]
fn name_is_clean(name: &str) {
    assert!(
        flagged(name, None, None).is_empty(),
        "property name {name:?}: {:?}",
        flagged(name, None, None)
    );
}

#[test]
fn passwords_in_every_identifier_style() {
    for n in [
        "password",
        "Password",
        "PASSWORD",
        "passwords",
        "user_password",
        "userPassword",
        "dbpassword",
        "new-password",
        "confirmPassword",
        "passwd",
        "pwd",
        "mysqlPwd",
        "pw",
        "pass",
        "passphrase",
        "pass_phrase",
        "passPhrase",
        "passcode",
        "pin",
        "PIN",
        "pin_code",
        "pinCode",
        "login_pass",
    ] {
        name_is(n, S::Password);
    }
}

#[test]
fn api_keys_tokens_and_secrets() {
    for n in [
        "apiKey",
        "api_key",
        "APIKEY",
        "ApiKey",
        "x-api-key",
        "X_API_KEY",
        "openai_api_key",
        "api_keys",
        "access_key",
        "subscriptionKey",
    ] {
        name_is(n, S::ApiKey);
    }
    for n in [
        "accessToken",
        "access_token",
        "ACCESS_TOKEN",
        "accesstoken",
        "authToken",
        "auth_token",
        "refresh_token",
        "bearer_token",
        "bearer",
        "id_token",
        "idToken",
        "oauth_token",
        "session_token",
        "jwt",
        "github_token",
        "token",
        "personal_access_token",
        "api_token",
    ] {
        name_is(n, S::AccessToken);
    }
    for n in [
        "client_secret",
        "clientSecret",
        "CLIENTSECRET",
        "secret",
        "secrets",
        "app_secret",
        "webhook_secret",
        "secret_key",
        "credentials",
        "encryption_key",
    ] {
        name_is(n, S::Secret);
    }
    for n in [
        "private_key",
        "privateKey",
        "privkey",
        "ssh_key",
        "sshKey",
        "ssh_private_key",
        "signing_key",
    ] {
        name_is(n, S::PrivateKey);
    }
}

#[test]
fn payment_bank_one_time_recovery_and_session() {
    for n in [
        "card_number",
        "cardNumber",
        "credit_card",
        "creditCardNumber",
        "cc_number",
        "ccnum",
        "cvv",
        "CVV2",
        "cvc",
        "csc",
        "card_expiry",
        "cardExp",
        "debit_card",
    ] {
        name_is(n, S::PaymentCard);
    }
    for n in [
        "iban",
        "IBAN",
        "bank_account",
        "bankAccountNumber",
        "routing_number",
        "sort_code",
    ] {
        name_is(n, S::BankAccount);
    }
    for n in [
        "otp",
        "totp",
        "one_time_password",
        "oneTimeCode",
        "verification_code",
        "verificationCode",
        "2fa_code",
        "mfa_code",
        "2fa",
        "sms_code",
        "security_code",
    ] {
        name_is(n, S::OneTimeCode);
    }
    for n in [
        "seed_phrase",
        "seedPhrase",
        "mnemonic",
        "recovery_phrase",
        "secret_recovery_phrase",
        "recovery_codes",
        "backup_code",
    ] {
        name_is(n, S::RecoveryPhrase);
    }
    for n in [
        "session_cookie",
        "sessionId",
        "session_id",
        "SESSIONID",
        "cookie",
    ] {
        name_is(n, S::SessionCookie);
    }
}

#[test]
fn titles_and_descriptions_are_read() {
    assert_eq!(flagged("value", Some("API Key"), None), [S::ApiKey]);
    assert_eq!(flagged("value", Some("Your PIN"), None), [S::Password]);
    assert_eq!(
        flagged(
            "value",
            None,
            Some("Paste your GitHub personal access token here")
        ),
        [S::AccessToken]
    );
    assert_eq!(
        flagged(
            "value",
            None,
            Some("The 3-digit CVC on the back of your card")
        ),
        [S::PaymentCard]
    );
    assert_eq!(
        flagged("value", None, Some("Enter the one-time code we texted you")),
        [S::OneTimeCode]
    );
    // Digits then capitals are one word: "2FA" as people write it (it was split into
    // "2" and "fa" like the camelCase of `oauth2Token`, and slipped through).
    assert_eq!(
        flagged("value", Some("Your 2FA code"), None),
        [S::OneTimeCode]
    );
    assert_eq!(
        flagged("value", None, Some("Enter your MFA code")),
        [S::OneTimeCode]
    );
    assert_eq!(flagged("2FACode", None, None), [S::OneTimeCode]);
    assert_eq!(
        flagged("value", None, Some("Enter the PIN code")),
        [S::Password]
    );
    assert_eq!(flagged("value", Some("Secret"), None), [S::Secret]);
}

#[test]
fn chinese_and_other_languages() {
    for (title, cat) in [
        ("密码", S::Password),
        ("口令", S::Password),
        ("支付密码", S::Password),
        ("密钥", S::Secret),
        ("秘钥", S::Secret),
        ("API 密钥", S::ApiKey),
        ("令牌", S::AccessToken),
        ("访问令牌", S::AccessToken),
        ("私钥", S::PrivateKey),
        ("银行卡号", S::PaymentCard),
        ("信用卡号", S::PaymentCard),
        ("卡号", S::PaymentCard),
        ("安全码", S::PaymentCard),
        ("验证码", S::OneTimeCode),
        ("动态码", S::OneTimeCode),
        ("助记词", S::RecoveryPhrase),
        ("密碼", S::Password),
        ("パスワード", S::Password),
        ("暗証番号", S::Password),
        ("秘密鍵", S::PrivateKey),
        ("비밀번호", S::Password),
        ("Contraseña", S::Password),
        ("Passwort", S::Password),
        ("Kennwort", S::Password),
        ("Mot de passe", S::Password),
        ("Senha", S::Password),
        ("Пароль", S::Password),
        ("Número de tarjeta", S::PaymentCard),
        ("Clé d'API", S::ApiKey),
    ] {
        assert_eq!(
            flagged("field", Some(title), None),
            [cat],
            "title {title:?}"
        );
    }
    assert_eq!(
        flagged("field", None, Some("请输入您的银行卡号和密码")),
        [S::PaymentCard, S::Password]
    );
    assert_eq!(
        flagged("密码", None, None),
        [S::Password],
        "CJK property names too"
    );
}

#[test]
fn false_positives_a_reviewer_would_hate() {
    for n in [
        "token_count",
        "tokenCount",
        "max_tokens",
        "maxTokens",
        "num_tokens",
        "tokens",
        "tokenizer",
        "token_type",
        "token_id",
        "password_hint",
        "passwordHint",
        "password_policy",
        "min_password_length",
        "passwordless",
        "keyboard",
        "monkey",
        "keynote",
        "key",
        "public_key",
        "publicKey",
        "ssh_public_key",
        "passport",
        "passport_number",
        "bypass",
        "compass",
        "pinned",
        "spinner",
        "pinterest_handle",
        "secretary",
        "username",
        "email",
        "name",
        "code",
        "country_code",
        "zip_code",
        "promo_code",
        "discount_code",
        "card_type",
        "card_brand",
        "cardholder_name",
        "otp_method",
        "api_key_id",
        "api_key_name",
        "ssn",
        "author",
        "authority",
        "session_timeout",
        "cookie_consent",
        "description",
        "tokenomics",
    ] {
        name_is_clean(n);
    }
    assert!(flagged("value", Some("Pin this chat"), None).is_empty());
    assert!(flagged("value", None, Some("Maximum number of tokens to generate")).is_empty());
    assert!(flagged("value", None, Some("Keep your answer short")).is_empty());
    assert!(
        flagged(
            "value",
            None,
            Some("Your password hint, shown at the login prompt")
        )
        .is_empty()
    );
    assert!(flagged("value", Some("Password hint"), None).is_empty());
    assert!(flagged("value", Some("Minimum password length"), None).is_empty());
    // A qualifier only counts before the match, a head noun only after it.
    assert_eq!(
        flagged("value", Some("Reset password"), None),
        [S::Password]
    );
    assert_eq!(
        flagged("value", Some("Hint: type your password"), None),
        [S::Password]
    );
    assert!(flagged("value", Some("密码提示"), None).is_empty());
    assert!(flagged("value", Some("Bypass cache"), None).is_empty());
}

#[test]
fn numeric_token_is_a_count_but_numeric_pin_is_a_secret() {
    let s = schema(
        json!({"token": {"type": "integer"}, "pin": {"type": "integer"}, "card_number": {"type": "number"}}),
    );
    let findings = lint_schema(&s);
    let props: Vec<&str> = findings.iter().map(|f| f.property()).collect();
    assert_eq!(props, ["pin", "card_number"]);
}

#[test]
fn booleans_and_selects_cannot_carry_secrets() {
    let s = schema(json!({
        "remember_password": {"type": "boolean"},
        "auth_method": {"type": "string", "enum": ["password", "api_key"]},
        "password_type": {"type": "string", "oneOf": [{"const": "a", "title": "Password"}]}
    }));
    assert!(lint_schema(&s).is_empty());
}

#[test]
fn schema_level_text_is_read_too() {
    let s = Schema::parse(&json!({
        "type": "object",
        "title": "Sign in",
        "description": "Enter your password below",
        "properties": {"value": {"type": "string"}}
    }))
    .unwrap();
    let f = lint_schema(&s);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].part(), Part::SchemaDescription);
    assert_eq!(f[0].property(), "");
    assert_eq!(f[0].pointer(), "/description");
}

#[test]
fn finding_fields_and_serialization() {
    let s = schema(json!({"a/b": {"type": "string", "title": "Your x-API-Key"}}));
    let f = lint_schema(&s);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].property(), "a/b");
    assert_eq!(f[0].part(), Part::Title);
    assert_eq!(f[0].matched(), "API-Key");
    assert_eq!(f[0].pointer(), "/properties/a~1b/title");
    assert!(
        f[0].message().contains("an API key") && f[0].message().contains("URL-mode"),
        "{}",
        f[0].message()
    );
    let v = serde_json::to_value(&f[0]).unwrap();
    assert_eq!(v["property"], "a/b");
    assert_eq!(v["part"], "title");
    assert_eq!(v["category"], "api_key");
    assert_eq!(v["matched"], "API-Key");
}

#[test]
fn one_finding_per_part_and_category() {
    let s = schema(
        json!({"password": {"type": "string", "title": "Password", "description": "Your password (not your old password)"}}),
    );
    let parts: Vec<Part> = lint_schema(&s).iter().map(|f| f.part()).collect();
    assert_eq!(parts, [Part::Name, Part::Title, Part::Description]);
}

#[test]
fn reviewed_properties_are_suppressed_only_with_a_reason() {
    let s = schema(json!({
        "token": {"type": "string", "description": "A word of the input sentence"},
        "api_key": {"type": "string"}
    }));
    assert_eq!(lint_schema(&s).len(), 2);
    let reviewed = ReviewedNotSecret::new().allow("token", "NLP token, not a credential");
    let f = lint_schema_with(&s, &reviewed);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].property(), "api_key");
    let blank = ReviewedNotSecret::new().allow("token", "");
    assert_eq!(lint_schema_with(&s, &blank).len(), 2);
}

#[test]
fn the_specs_own_examples_are_clean() {
    let s = schema(json!({
        "name": {"type": "string", "description": "Your full name"},
        "email": {"type": "string", "format": "email", "description": "Your email address"},
        "age": {"type": "number", "minimum": 18, "description": "Your age"}
    }));
    assert!(lint_schema(&s).is_empty());
}
