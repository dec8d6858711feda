//! The secret-field lint: form mode MUST NOT ask for passwords, API keys, access tokens
//! or payment credentials; and the link lint: form requests SHOULD NOT contain URLs
//! meant to be clicked.
//!
//! [`lint_schema`] reads every property's name, title and description (and the schema's
//! own title and description) and reports [`SecretFinding`]s: passwords, passphrases,
//! PINs, API keys, access/refresh/bearer/ID tokens, client secrets, private and SSH keys,
//! recovery phrases, card numbers, CVV/CVC, card expiry, IBANs and bank account numbers,
//! one-time and 2FA codes, session cookies. Names are read in every identifier style
//! (`apiKey`, `api_key`, `APIKEY`, `x-api-key`, `passwd`, `pwd`, `pass_phrase`,
//! `authToken`), plurals too, and text in English, Chinese (密码, 密钥, 令牌, 私钥,
//! 银行卡号, 验证码, 助记词...), Japanese (パスワード, 暗証番号...), Korean (비밀번호),
//! Spanish (contraseña), German (Passwort, Kennwort), French (mot de passe), Portuguese
//! (senha), Russian (пароль) and a few more.
//!
//! It avoids the false positives a reviewer would hate: words are matched whole
//! (`keyboard`, `monkey`, `passport`, `bypass`, `compass`, `pinned`, `spinner`,
//! `tokenizer` are not secrets), and a nearby modifier turns a match into something else
//! (`token_count`, `max_tokens`, `password_hint`, `password_policy`, `api_key_id`,
//! `public_key`, `card_type`, `otp_method`). Decisions worth knowing:
//!
//! - a password **hint** is not a secret (it is shown to anyone at the login prompt);
//! - a **public** key is not a secret;
//! - a bare "token" counts only in a name or title of a *string* property (a number is
//!   a count), and a bare plural "tokens" is taken to mean LLM tokens;
//! - booleans and selects are not read for secrets: they cannot carry one (the user
//!   picks a value the server listed);
//! - national identity numbers (SSN...) are personal data, not credentials that grant
//!   access, which is what the spec forbids; they are not flagged;
//! - "PIN" in a title or description counts only in capitals or as "PIN code"/"PIN number"
//!   ("pin this chat" is a verb).
//!
//! A reviewed false positive is silenced, by property name and with a reason, through
//! [`danger::ReviewedNotSecret`](crate::danger::ReviewedNotSecret) and
//! [`lint_schema_with`].
//!
//! Links are a separate, softer lint ([`find_urls_in_schema`], [`lint_message`]) so a
//! server can refuse secrets and only warn about links.
//!
//! ```
//! use mcp_elicit_core::lint::{lint_schema, SecretCategory};
//! use mcp_elicit_core::Schema;
//! use serde_json::json;
//!
//! let schema = Schema::parse(&json!({
//!     "type": "object",
//!     "properties": {
//!         "name": {"type": "string"},
//!         "max_tokens": {"type": "integer"},
//!         "apiKey": {"type": "string", "title": "OpenAI key"},
//!         "answer": {"type": "string", "title": "支付密码"}
//!     }
//! })).unwrap();
//! let findings = lint_schema(&schema);
//! let flagged: Vec<(&str, SecretCategory)> =
//!     findings.iter().map(|f| (f.property(), f.category())).collect();
//! assert_eq!(flagged, [("apiKey", SecretCategory::ApiKey), ("answer", SecretCategory::Password)]);
//! assert_eq!(findings[1].matched(), "支付密码");
//! assert_eq!(findings[1].pointer(), "/properties/answer/title");
//! ```

mod finding;
mod links;
mod matcher;
mod rules;
mod words;

pub use finding::{LinkFinding, MessageLint, Part, SecretCategory, SecretFinding};

use std::sync::{Arc, OnceLock};

use crate::danger::ReviewedNotSecret;
use crate::error::pointer_token;
use crate::schema::{PropertyKind, Schema};
use matcher::Reading;

/// Secret-looking fields of a form-mode schema, in document order (the schema's title
/// and description first, then each property's name, title, description). Empty when
/// nothing looks like a secret.
///
/// ```
/// use mcp_elicit_core::lint::{lint_schema, Part, SecretCategory};
/// use mcp_elicit_core::Schema;
/// use serde_json::json;
///
/// let schema = Schema::parse(&json!({
///     "type": "object",
///     "properties": {"value": {"type": "string", "description": "Your card's CVV"}}
/// })).unwrap();
/// let findings = lint_schema(&schema);
/// assert_eq!(findings.len(), 1);
/// assert_eq!(findings[0].category(), SecretCategory::PaymentCard);
/// assert_eq!(findings[0].part(), Part::Description);
/// assert_eq!(findings[0].matched(), "CVV");
/// ```
pub fn lint_schema(schema: &Schema) -> Vec<SecretFinding> {
    lint_schema_with(schema, &ReviewedNotSecret::new())
}

/// [`lint_schema`], without the findings for properties a reviewer has allowed.
///
/// The lint runs once per schema: its findings are kept in the [`Schema`] (which cannot
/// change once built) and shared by its clones, so a server that sends the same schema
/// on every call pays for the matching once.
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::danger::ReviewedNotSecret;
/// use mcp_elicit_core::lint::{lint_schema, lint_schema_with};
/// use serde_json::json;
///
/// let schema = Schema::parse(&json!({"type": "object", "title": "API key setup",
///     "properties": {"api_key": {"type": "string"}}}))?;
/// assert_eq!(lint_schema(&schema).len(), 2);
/// let reviewed = ReviewedNotSecret::new().allow("api_key", "the key's public label, not the key");
/// let left = lint_schema_with(&schema, &reviewed);
/// assert_eq!(left.len(), 1); // the schema's own title is never covered
/// assert_eq!(left[0].property(), "");
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
pub fn lint_schema_with(schema: &Schema, reviewed: &ReviewedNotSecret) -> Vec<SecretFinding> {
    let all = &schema.lint.get(schema).secrets;
    all.iter()
        .filter(|f| {
            let of_property = matches!(f.part(), Part::Name | Part::Title | Part::Description);
            !(of_property && reviewed.is_allowed(f.property()))
        })
        .cloned()
        .collect()
}

/// The findings of a schema, kept in it (see [`lint_schema_with`] and
/// [`find_urls_in_schema`]): both kinds are found on first use of either (a sender and a
/// client want both), then shared by the schema's clones.
#[derive(Clone, Default)]
pub(crate) struct LintMemo(OnceLock<Arc<Findings>>);

/// Everything the lints found in one schema.
#[derive(Debug)]
pub(crate) struct Findings {
    secrets: Box<[SecretFinding]>,
    links: Box<[LinkFinding]>,
}

impl LintMemo {
    fn get(&self, schema: &Schema) -> &Findings {
        self.0.get_or_init(|| {
            Arc::new(Findings {
                secrets: lint_all(schema).into(),
                links: links_all(schema).into(),
            })
        })
    }
}

impl std::fmt::Debug for LintMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.get().is_some() {
            "LintMemo(done)"
        } else {
            "LintMemo(not yet)"
        })
    }
}

/// Every secret finding of `schema`, no property allowed.
fn lint_all(schema: &Schema) -> Vec<SecretFinding> {
    let mut out = Vec::new();
    let top = [
        (Part::SchemaTitle, schema.title(), "/title"),
        (
            Part::SchemaDescription,
            schema.description(),
            "/description",
        ),
    ];
    for (part, text, pointer) in top {
        if let Some(text) = text {
            push_secrets(&mut out, "", part, pointer.to_owned(), text, false);
        }
    }
    for p in schema.properties() {
        let numeric = match p.kind() {
            PropertyKind::String(_) | PropertyKind::Union(_) => false,
            PropertyKind::Number(_) => true,
            // A boolean or a select cannot carry a secret: the user picks a listed value.
            _ => continue,
        };
        let base = format!("/properties/{}", pointer_token(p.name()));
        push_secrets(
            &mut out,
            p.name(),
            Part::Name,
            base.clone(),
            p.name(),
            numeric,
        );
        if let Some(t) = p.title() {
            push_secrets(
                &mut out,
                p.name(),
                Part::Title,
                format!("{base}/title"),
                t,
                numeric,
            );
        }
        if let Some(d) = p.description() {
            push_secrets(
                &mut out,
                p.name(),
                Part::Description,
                format!("{base}/description"),
                d,
                numeric,
            );
        }
    }
    out
}

fn push_secrets(
    out: &mut Vec<SecretFinding>,
    property: &str,
    part: Part,
    pointer: String,
    text: &str,
    numeric: bool,
) {
    for m in matcher::find(text, Reading { part, numeric }) {
        out.push(SecretFinding::new(
            property,
            part,
            pointer.clone(),
            &m.matched,
            m.category,
        ));
    }
}

/// Links in the texts of a form-mode schema: its title and description, every
/// property's title and description, and the titles of select choices. Values and
/// defaults are data, not text shown as a label, and are not read.
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::lint::{Part, find_urls_in_schema};
/// use serde_json::json;
///
/// let schema = Schema::parse(&json!({"type": "object", "properties": {
///     "site": {"type": "string", "default": "https://example.com"},
///     "plan": {"type": "string", "oneOf": [
///         {"const": "pro", "title": "Pro (see www.example.com/pro)"},
///         {"const": "free", "title": "Free (see example.com/free)"}]}
/// }}))?;
/// let links = find_urls_in_schema(&schema);
/// // Not the default (data), nor a bare name without `www.` or a scheme.
/// assert_eq!(links.len(), 1);
/// assert_eq!(links[0].url(), "www.example.com/pro");
/// assert_eq!(links[0].part(), Part::OptionTitle);
/// assert_eq!(links[0].pointer(), "/properties/plan/oneOf/0/title");
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
pub fn find_urls_in_schema(schema: &Schema) -> Vec<LinkFinding> {
    // Kept in the schema like the secret findings: a server that sends the same schema on
    // every call looks for links once.
    schema.lint.get(schema).links.to_vec()
}

/// Every link in the texts of `schema` (see [`find_urls_in_schema`]).
fn links_all(schema: &Schema) -> Vec<LinkFinding> {
    let mut out = Vec::new();
    let mut push = |property: &str, part: Part, pointer: String, text: &str| {
        for (_, url) in links::find(text) {
            out.push(LinkFinding::new(property, part, pointer.clone(), &url));
        }
    };
    if let Some(t) = schema.title() {
        push("", Part::SchemaTitle, "/title".to_owned(), t);
    }
    if let Some(d) = schema.description() {
        push("", Part::SchemaDescription, "/description".to_owned(), d);
    }
    for p in schema.properties() {
        let base = format!("/properties/{}", pointer_token(p.name()));
        if let Some(t) = p.title() {
            push(p.name(), Part::Title, format!("{base}/title"), t);
        }
        if let Some(d) = p.description() {
            push(
                p.name(),
                Part::Description,
                format!("{base}/description"),
                d,
            );
        }
        let (options, prefix) = match p.kind() {
            PropertyKind::SingleSelect(s) => (s.options(), option_prefix_single(s.style())),
            PropertyKind::MultiSelect(m) => (m.options(), option_prefix_multi(m.style())),
            _ => continue,
        };
        for (i, o) in options.iter().enumerate() {
            if let Some(t) = &o.title {
                push(
                    p.name(),
                    Part::OptionTitle,
                    format!("{base}{prefix}/{i}{}", title_suffix(prefix)),
                    t,
                );
            }
        }
    }
    out
}

fn option_prefix_single(style: crate::schema::SingleSelectStyle) -> &'static str {
    match style {
        crate::schema::SingleSelectStyle::TitledOneOf => "/oneOf",
        _ => "/enumNames",
    }
}

fn option_prefix_multi(_style: crate::schema::MultiSelectStyle) -> &'static str {
    "/items/anyOf"
}

fn title_suffix(prefix: &str) -> &'static str {
    if prefix == "/enumNames" { "" } else { "/title" }
}

/// Secret wording and links in the free-text `message` of a form-mode request.
///
/// Secret findings here are weaker evidence than a field's (a message can mention a
/// password without asking for one), and URL-mode messages legitimately say what the
/// page will ask for ("Please provide your API key to continue."), so run this on
/// form-mode messages only.
///
/// ```
/// use mcp_elicit_core::lint::{Part, SecretCategory, lint_message};
///
/// let found = lint_message("To continue, enter the verification code we sent you.");
/// assert_eq!(found.secrets[0].category(), SecretCategory::OneTimeCode);
/// assert_eq!((found.secrets[0].part(), found.secrets[0].pointer()), (Part::Message, ""));
/// assert!(found.links.is_empty());
/// ```
pub fn lint_message(message: &str) -> MessageLint {
    let mut secrets = Vec::new();
    push_secrets(
        &mut secrets,
        "",
        Part::Message,
        String::new(),
        message,
        false,
    );
    let links = links::find(message)
        .into_iter()
        .map(|(_, url)| LinkFinding::new("", Part::Message, String::new(), &url))
        .collect();
    MessageLint { secrets, links }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn flagged(findings: &[SecretFinding]) -> Vec<(&str, Part)> {
        findings.iter().map(|f| (f.property(), f.part())).collect()
    }

    #[test]
    fn findings_are_kept_in_the_schema_shared_by_clones_and_reviews_apply_on_every_call() {
        let schema = Schema::parse(&json!({
            "type": "object",
            "title": "Your password",
            "properties": {
                "apiKey": {"type": "string"},
                "code": {"type": "string", "title": "Card CVV"}
            }
        }))
        .expect("schema");
        assert!(
            schema.lint.0.get().is_none(),
            "nothing is matched before use"
        );
        let all = lint_schema(&schema);
        assert_eq!(
            flagged(&all),
            [
                ("", Part::SchemaTitle),
                ("apiKey", Part::Name),
                ("code", Part::Title)
            ]
        );
        let kept = schema
            .lint
            .0
            .get()
            .expect("kept after the first lint")
            .clone();
        let copy = schema.clone();
        let shared = copy.lint.0.get().expect("a clone has them too");
        assert!(Arc::ptr_eq(&kept, shared));
        // A reviewer's allowance removes that property's findings, not the schema's own.
        let reviewed = ReviewedNotSecret::new().allow("apiKey", "a key id, not a key");
        assert_eq!(
            flagged(&lint_schema_with(&copy, &reviewed)),
            [("", Part::SchemaTitle), ("code", Part::Title)]
        );
        let empty_name = ReviewedNotSecret::new().allow("", "no such property");
        assert_eq!(lint_schema_with(&schema, &empty_name), all);
        assert_eq!(lint_schema(&copy), all, "the same answer every time");
    }

    #[test]
    fn links_are_found_once_per_schema_and_shared_by_clones() {
        let schema = Schema::parse(&json!({
            "type": "object",
            "description": "Terms at https://example.com/terms",
            "properties": {"ok": {"type": "boolean", "title": "I read www.example.com/terms"}}
        }))
        .expect("schema");
        assert!(schema.lint.0.get().is_none(), "nothing read before use");
        let first = find_urls_in_schema(&schema);
        let pointers: Vec<_> = first.iter().map(LinkFinding::pointer).collect();
        assert_eq!(pointers, ["/description", "/properties/ok/title"]);
        let copy = schema.clone();
        let kept = schema.lint.0.get().expect("kept after the first search");
        assert!(Arc::ptr_eq(kept, copy.lint.0.get().expect("shared")));
        assert_eq!(
            find_urls_in_schema(&copy),
            first,
            "the same answer every time"
        );
        assert!(lint_schema(&copy).is_empty(), "no secret asked");
    }
}
