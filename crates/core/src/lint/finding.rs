//! What the lints report.

use std::fmt;

use serde::Serialize;

/// What kind of secret a field seems to ask for.
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::lint::{SecretCategory as C, lint_schema};
/// use serde_json::json;
///
/// let schema = Schema::parse(&json!({"type": "object", "properties": {
///     "password": {"type": "string"},
///     "refresh_token": {"type": "string"},
///     "iban": {"type": "string"},
///     "otp": {"type": "string"},
///     "private_key": {"type": "string"}
/// }}))?;
/// let categories: Vec<C> = lint_schema(&schema).iter().map(|f| f.category()).collect();
/// assert_eq!(categories, [C::Password, C::AccessToken, C::BankAccount, C::OneTimeCode, C::PrivateKey]);
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum SecretCategory {
    /// Password, passphrase, passcode, PIN.
    Password,
    /// API key, access key, subscription key.
    ApiKey,
    /// Access, refresh, bearer, ID or session token; JWT.
    AccessToken,
    /// Client secret, shared secret, secret key, credentials.
    Secret,
    /// Private key, SSH key, signing key.
    PrivateKey,
    /// Credit or debit card number, CVV/CVC/CSC, card expiry.
    PaymentCard,
    /// IBAN, bank account number, routing number, sort code.
    BankAccount,
    /// One-time password, verification code, 2FA/MFA code.
    OneTimeCode,
    /// Seed, mnemonic or recovery phrase, recovery or backup codes.
    RecoveryPhrase,
    /// Session cookie or session id.
    SessionCookie,
}

impl SecretCategory {
    /// The stable `snake_case` name, as serialized; also its `Display`.
    ///
    /// ```
    /// # use mcp_elicit_core::lint::SecretCategory;
    /// assert_eq!(SecretCategory::ApiKey.as_str(), "api_key");
    /// assert_eq!(serde_json::to_value(SecretCategory::PaymentCard).unwrap(), "payment_card");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Password => "password",
            Self::ApiKey => "api_key",
            Self::AccessToken => "access_token",
            Self::Secret => "secret",
            Self::PrivateKey => "private_key",
            Self::PaymentCard => "payment_card",
            Self::BankAccount => "bank_account",
            Self::OneTimeCode => "one_time_code",
            Self::RecoveryPhrase => "recovery_phrase",
            Self::SessionCookie => "session_cookie",
        }
    }

    /// What is asked for, in plain English ("a password or PIN"), as used in
    /// [`SecretFinding::message`].
    ///
    /// ```
    /// # use mcp_elicit_core::lint::SecretCategory;
    /// assert_eq!(SecretCategory::Password.describe(), "a password or PIN");
    /// assert_eq!(SecretCategory::OneTimeCode.describe(), "a one-time or verification code");
    /// ```
    pub fn describe(self) -> &'static str {
        match self {
            Self::Password => "a password or PIN",
            Self::ApiKey => "an API key",
            Self::AccessToken => "an access token",
            Self::Secret => "a secret or credential",
            Self::PrivateKey => "a private key",
            Self::PaymentCard => "payment card details",
            Self::BankAccount => "bank account details",
            Self::OneTimeCode => "a one-time or verification code",
            Self::RecoveryPhrase => "a recovery phrase or backup code",
            Self::SessionCookie => "a session cookie or session id",
        }
    }
}

impl fmt::Display for SecretCategory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which text of the request a finding was made in.
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::lint::{Part, lint_schema};
/// use serde_json::json;
///
/// let schema = Schema::parse(&json!({"type": "object", "title": "Reset your password",
///     "properties": {"value": {"type": "string", "title": "API key"}}}))?;
/// let findings = lint_schema(&schema);
/// let parts: Vec<(Part, &str)> = findings.iter().map(|f| (f.part(), f.pointer())).collect();
/// assert_eq!(parts, [(Part::SchemaTitle, "/title"), (Part::Title, "/properties/value/title")]);
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Part {
    /// A property's name (its key in `properties`).
    Name,
    /// A property's `title`.
    Title,
    /// A property's `description`.
    Description,
    /// The title of one choice of a select (URL lint only).
    OptionTitle,
    /// The schema's top-level `title`.
    SchemaTitle,
    /// The schema's top-level `description`.
    SchemaDescription,
    /// The request's free-text `message`.
    Message,
}

impl Part {
    /// The stable `snake_case` name, as serialized; also its `Display`.
    ///
    /// ```
    /// # use mcp_elicit_core::lint::Part;
    /// assert_eq!(Part::SchemaDescription.as_str(), "schema_description");
    /// assert_eq!(Part::OptionTitle.to_string(), "option_title");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Name => "name",
            Self::Title => "title",
            Self::Description => "description",
            Self::OptionTitle => "option_title",
            Self::SchemaTitle => "schema_title",
            Self::SchemaDescription => "schema_description",
            Self::Message => "message",
        }
    }

    /// Labels are short (names, titles); prose is sentences (descriptions, the message).
    pub(crate) fn is_label(self) -> bool {
        matches!(
            self,
            Self::Name | Self::Title | Self::OptionTitle | Self::SchemaTitle
        )
    }

    fn where_(self, property: &str) -> String {
        match self {
            Self::Name => format!("Property \"{property}\""),
            Self::Title => format!("The title of property \"{property}\""),
            Self::Description => format!("The description of property \"{property}\""),
            Self::OptionTitle => format!("A choice of property \"{property}\""),
            Self::SchemaTitle => "The form's title".to_owned(),
            Self::SchemaDescription => "The form's description".to_owned(),
            Self::Message => "The message".to_owned(),
        }
    }
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A form field (or the text around it) that seems to ask for a secret. Servers MUST NOT
/// request passwords, API keys, access tokens or payment credentials through form mode.
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::lint::{Part, SecretCategory, lint_schema};
/// use serde_json::json;
///
/// let schema = Schema::parse(&json!({"type": "object", "properties": {
///     "login": {"type": "string", "description": "Your Passwort, please"}}}))?;
/// let f = &lint_schema(&schema)[0];
/// assert_eq!((f.property(), f.part()), ("login", Part::Description));
/// assert_eq!(f.pointer(), "/properties/login/description");
/// assert_eq!((f.matched(), f.category()), ("Passwort", SecretCategory::Password));
/// assert!(f.message().starts_with(
///     "The description of property \"login\" seems to ask for a password or PIN"));
/// assert_eq!(f.to_string(), f.message());
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SecretFinding {
    property: String,
    part: Part,
    pointer: String,
    matched: String,
    category: SecretCategory,
    message: String,
}

impl SecretFinding {
    pub(crate) fn new(
        property: &str,
        part: Part,
        pointer: String,
        matched: &str,
        category: SecretCategory,
    ) -> Self {
        let message = format!(
            "{} seems to ask for {} (it says \"{matched}\"). Servers must not request passwords, API keys, access tokens or payment credentials in a form; use a URL-mode elicitation instead.",
            part.where_(property),
            category.describe(),
        );
        Self {
            property: property.to_owned(),
            part,
            pointer,
            matched: matched.to_owned(),
            category,
            message,
        }
    }

    /// The property's name; empty for findings in the schema's own title or
    /// description, or in the message.
    pub fn property(&self) -> &str {
        &self.property
    }
    /// Which text the finding was made in.
    pub fn part(&self) -> Part {
        self.part
    }
    /// RFC 6901 pointer to that text within the schema (`/properties/api_key/title`);
    /// `""` for [`lint_message`](super::lint_message) findings.
    pub fn pointer(&self) -> &str {
        &self.pointer
    }
    /// The words that matched, as written (`apiKey`, `Mot de passe`, `密码`).
    pub fn matched(&self) -> &str {
        &self.matched
    }
    /// What kind of secret.
    pub fn category(&self) -> SecretCategory {
        self.category
    }
    /// A plain-English sentence for a log or an error.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for SecretFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// A URL in a text of a form-mode request. Servers SHOULD NOT include URLs intended to
/// be clickable in any field of a form-mode elicitation (and clients SHOULD NOT render
/// them clickable): a warning, not a refusal.
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::lint::{Part, find_urls_in_schema};
/// use serde_json::json;
///
/// let schema = Schema::parse(&json!({"type": "object", "properties": {
///     "plan": {"type": "string", "description": "Prices at https://example.com/pricing"}}}))?;
/// let link = &find_urls_in_schema(&schema)[0];
/// assert_eq!((link.property(), link.part()), ("plan", Part::Description));
/// assert_eq!(link.pointer(), "/properties/plan/description");
/// assert_eq!(link.url(), "https://example.com/pricing");
/// assert!(link.message().contains("(https://example.com/pricing)"));
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LinkFinding {
    property: String,
    part: Part,
    pointer: String,
    url: String,
    message: String,
}

impl LinkFinding {
    pub(crate) fn new(property: &str, part: Part, pointer: String, url: &str) -> Self {
        let message = format!(
            "{} contains a link ({url}). Form requests should not contain clickable links; send a URL-mode elicitation to send the user somewhere.",
            part.where_(property)
        );
        Self {
            property: property.to_owned(),
            part,
            pointer,
            url: url.to_owned(),
            message,
        }
    }

    /// The property's name; empty outside properties.
    pub fn property(&self) -> &str {
        &self.property
    }
    /// Which text the link is in.
    pub fn part(&self) -> Part {
        self.part
    }
    /// RFC 6901 pointer to that text within the schema; `""` for the message.
    pub fn pointer(&self) -> &str {
        &self.pointer
    }
    /// The link as written in the text.
    pub fn url(&self) -> &str {
        &self.url
    }
    /// A plain-English sentence for a log or an error.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for LinkFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// What [`lint_message`](super::lint_message) found in a request's message.
///
/// ```
/// use mcp_elicit_core::lint::lint_message;
///
/// let found = lint_message("Please type your password, or see https://example.com/help");
/// assert_eq!(found.secrets.len(), 1);
/// assert_eq!(found.links[0].url(), "https://example.com/help");
/// assert!(!found.is_empty());
/// assert!(lint_message("Which colour do you prefer?").is_empty());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct MessageLint {
    /// Wording that asks for a secret (weaker evidence than a field: a message may
    /// mention a password without asking for one; the server decides).
    pub secrets: Vec<SecretFinding>,
    /// Links in the message (SHOULD NOT in form mode).
    pub links: Vec<LinkFinding>,
}

impl MessageLint {
    /// Whether nothing was found.
    pub fn is_empty(&self) -> bool {
        self.secrets.is_empty() && self.links.is_empty()
    }
}
