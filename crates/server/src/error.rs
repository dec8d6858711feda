//! The crate's one error type, and its one mapping to a JSON-RPC error.
//!
//! Every failure of the elicitation API is an [`Error`] with an [`ErrorKind`]. A tool that
//! cannot go on returns it with `?`: [`From<Error> for ErrorData`](#impl-From<Error>-for-ErrorData)
//! is the only place where a kind becomes a JSON-RPC code, and the only place where code
//! `-32042` (`URLElicitationRequiredError`) is produced.

use std::fmt;

use mcp_elicit_core::lint::SecretFinding;
use mcp_elicit_core::message::{URL_ELICITATION_REQUIRED, UrlElicitationRequired};
use mcp_elicit_core::validate::Violations;
use rmcp::ErrorData;
use rmcp::model::ErrorCode;
use serde_json::{Map, Value, json};

/// The JSON-RPC code of [`ErrorKind::TooManyPending`]: a server-defined error (the
/// `-32000..=-32099` range), not `-32603` (internal error), since an exhausted per-user
/// quota is neither a fault nor permanent. `data.kind` is `"too_many_pending"` and
/// `data.retryable` is `true`.
pub(crate) const QUOTA_EXCEEDED: i32 = -32000;

/// What went wrong.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The form schema asks for a secret (password, API key, token, payment data).
    /// Refused before anything was sent: use URL mode for secrets.
    SecretField,
    /// The form schema is outside the restricted subset (or a Rust type does not map to
    /// it). Refused before anything was sent.
    InvalidSchema,
    /// The client did not declare the elicitation mode needed. Refused before anything
    /// was sent (servers MUST NOT send modes the client does not support).
    ModeNotSupported,
    /// The session negotiated a protocol revision on which the server may not send
    /// `elicitation/create` (2026-07-28 and later).
    UnsupportedProtocol,
    /// No user identity could be established for the request (no authenticated
    /// principal and no local-user fallback configured).
    NoIdentity,
    /// The URL of a URL-mode elicitation is refused by the server URL policy.
    InvalidUrl,
    /// The client accepted a form with content that breaks the schema.
    /// [`Error::violations`] lists every violation.
    InvalidContent,
    /// The client's answer does not follow the protocol (unknown action, a form accept
    /// without content, content on a URL accept, not an object...).
    MalformedReply,
    /// The client answered `elicitation/create` with a JSON-RPC error.
    ClientError,
    /// Nobody answered within the timeout; the request was cancelled.
    Timeout,
    /// The tool call that asked was cancelled; the elicitation was abandoned.
    Cancelled,
    /// The client disconnected before answering.
    Disconnected,
    /// No pending elicitation with this id for this user (unknown, completed already,
    /// expired, or someone else's).
    UnknownElicitation,
    /// The content is valid for the schema but does not deserialize into the Rust type.
    Deserialize,
    /// The user already has the configured maximum of pending elicitations.
    TooManyPending,
    /// The pending-elicitation store failed.
    Store,
    /// The operating system's random number generator failed.
    Random,
    /// The `requestState` a client echoed is not one this server issued for this user
    /// and request (oversized, malformed, modified, truncated, another user's, tool's or
    /// arguments', sealed with a retired key) or has expired (JSON-RPC -32602).
    InvalidState,
    /// 2026-07-28: the request needs a client capability its `_meta` does not declare
    /// (JSON-RPC -32021 `MissingRequiredClientCapabilityError`, `data.requiredCapabilities`
    /// names it). On 2025-11-25 the same situation is [`ErrorKind::ModeNotSupported`].
    MissingCapability,
    /// A configuration value is unusable (a key file, a key ring).
    Config,
    /// A bug or an unexpected failure inside the server (a question key asked twice in
    /// one request, a value that cannot be serialized).
    Internal,
    /// The request cannot be processed until these URL-mode elicitations complete
    /// (JSON-RPC `-32042`). Built only by
    /// [`Elicitor::url_required`](crate::Elicitor::url_required).
    UrlElicitationRequired,
}

impl ErrorKind {
    /// A short, stable, `snake_case` name (also sent as `data.kind`).
    pub fn code(self) -> &'static str {
        match self {
            Self::SecretField => "secret_field",
            Self::InvalidSchema => "invalid_schema",
            Self::ModeNotSupported => "mode_not_supported",
            Self::UnsupportedProtocol => "unsupported_protocol",
            Self::NoIdentity => "no_identity",
            Self::InvalidUrl => "invalid_url",
            Self::InvalidContent => "invalid_content",
            Self::MalformedReply => "malformed_reply",
            Self::ClientError => "client_error",
            Self::Timeout => "timeout",
            Self::Cancelled => "cancelled",
            Self::Disconnected => "disconnected",
            Self::UnknownElicitation => "unknown_elicitation",
            Self::Deserialize => "deserialize",
            Self::TooManyPending => "too_many_pending",
            Self::Store => "store",
            Self::Random => "random",
            Self::UrlElicitationRequired => "url_elicitation_required",
            Self::InvalidState => "invalid_state",
            Self::MissingCapability => "missing_capability",
            Self::Config => "config",
            Self::Internal => "internal",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Extra, structured detail carried by some kinds.
#[derive(Debug, Clone)]
enum Detail {
    None,
    Findings(Vec<SecretFinding>),
    Violations(Violations),
    Core(mcp_elicit_core::error::Errors),
    Client(ErrorData),
    Required(UrlElicitationRequired),
    Capabilities(Value),
}

/// An elicitation failure: a kind, a sentence, and the details that go with the kind.
#[derive(Debug, Clone)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    detail: Box<Detail>,
}

impl Error {
    /// A new error of `kind`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
            detail: Box::new(Detail::None),
        }
    }

    pub(crate) fn secret(findings: Vec<SecretFinding>) -> Self {
        let names: Vec<String> = findings.iter().map(|f| f.message().to_owned()).collect();
        Self {
            kind: ErrorKind::SecretField,
            message: format!(
                "refusing to send a form that asks for secrets (use URL mode instead): {}",
                names.join("; ")
            ),
            detail: Box::new(Detail::Findings(findings)),
        }
    }

    pub(crate) fn invalid_content(violations: Violations) -> Self {
        Self {
            kind: ErrorKind::InvalidContent,
            message: format!("the client's answer breaks the requested schema: {violations}"),
            detail: Box::new(Detail::Violations(violations)),
        }
    }

    pub(crate) fn core(
        kind: ErrorKind,
        context: &str,
        errors: mcp_elicit_core::error::Errors,
    ) -> Self {
        Self {
            kind,
            message: format!("{context}: {errors}"),
            detail: Box::new(Detail::Core(errors)),
        }
    }

    pub(crate) fn client(error: ErrorData) -> Self {
        Self {
            kind: ErrorKind::ClientError,
            message: format!(
                "the client answered elicitation/create with error {}: {}",
                error.code.0, error.message
            ),
            detail: Box::new(Detail::Client(error)),
        }
    }

    /// -32021 for a request whose `_meta` lacks `required` (a `ClientCapabilities`
    /// object such as `{"sampling": {}}`).
    pub(crate) fn missing_capability(required: Value, what: &str) -> Self {
        Self {
            kind: ErrorKind::MissingCapability,
            message: format!(
                "this request needs the client capability {what}, which its _meta does not declare; nothing was sent"
            ),
            detail: Box::new(Detail::Capabilities(required)),
        }
    }

    pub(crate) fn required(required: UrlElicitationRequired, message: String) -> Self {
        Self {
            kind: ErrorKind::UrlElicitationRequired,
            message,
            detail: Box::new(Detail::Required(required)),
        }
    }

    /// The same error, its message prefixed with where in the request the problem is
    /// (`inputResponses.KEY`).
    pub(crate) fn in_answer(mut self, key: &str) -> Self {
        self.message = format!("inputResponses.{key}: {}", self.message);
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The sentence describing it.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Every schema violation, for [`ErrorKind::InvalidContent`].
    pub fn violations(&self) -> Option<&Violations> {
        match self.detail.as_ref() {
            Detail::Violations(v) => Some(v),
            _ => None,
        }
    }

    /// The secret-field findings, for [`ErrorKind::SecretField`].
    pub fn findings(&self) -> &[SecretFinding] {
        match self.detail.as_ref() {
            Detail::Findings(f) => f,
            _ => &[],
        }
    }

    /// The core's problems (schema, URL or reply checks), when the error came from one.
    pub fn problems(&self) -> Option<&mcp_elicit_core::error::Errors> {
        match self.detail.as_ref() {
            Detail::Core(e) => Some(e),
            _ => None,
        }
    }

    /// The client's JSON-RPC error, for [`ErrorKind::ClientError`].
    pub fn client_error(&self) -> Option<&ErrorData> {
        match self.detail.as_ref() {
            Detail::Client(e) => Some(e),
            _ => None,
        }
    }

    /// The required URL elicitations, for [`ErrorKind::UrlElicitationRequired`].
    pub fn url_elicitation_required(&self) -> Option<&UrlElicitationRequired> {
        match self.detail.as_ref() {
            Detail::Required(r) => Some(r),
            _ => None,
        }
    }

    /// The JSON-RPC error for this failure (the same as `ErrorData::from(error)`).
    pub fn to_error_data(&self) -> ErrorData {
        let code = match self.kind {
            ErrorKind::UrlElicitationRequired => ErrorCode(URL_ELICITATION_REQUIRED),
            // What the client sent (or did not declare) makes the call impossible.
            ErrorKind::InvalidContent
            | ErrorKind::MalformedReply
            | ErrorKind::ModeNotSupported
            | ErrorKind::ClientError
            | ErrorKind::UnknownElicitation
            | ErrorKind::InvalidState
            | ErrorKind::Deserialize => ErrorCode::INVALID_PARAMS,
            ErrorKind::UnsupportedProtocol => ErrorCode::INVALID_REQUEST,
            ErrorKind::MissingCapability => ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
            // A quota, not a fault: the server is fine and a later call can succeed.
            ErrorKind::TooManyPending => ErrorCode(QUOTA_EXCEEDED),
            _ => ErrorCode::INTERNAL_ERROR,
        };
        let data = match self.detail.as_ref() {
            // Exactly the specification's shape: {"elicitations": [...]}.
            Detail::Required(r) => r.data(),
            detail => {
                let mut map = Map::new();
                map.insert("kind".into(), Value::String(self.kind.code().into()));
                if self.kind == ErrorKind::TooManyPending {
                    // Retrying once some of the user's elicitations finish can succeed.
                    map.insert("retryable".into(), Value::Bool(true));
                }
                match detail {
                    Detail::Violations(v) => {
                        map.insert(
                            "violations".into(),
                            serde_json::to_value(v).unwrap_or(Value::Null),
                        );
                    }
                    Detail::Findings(f) => {
                        map.insert(
                            "findings".into(),
                            serde_json::to_value(f).unwrap_or(Value::Null),
                        );
                    }
                    Detail::Core(errors) => {
                        let list: Vec<Value> = errors
                            .as_slice()
                            .iter()
                            .map(|e| json!({"pointer": e.pointer(), "kind": e.kind().code(), "message": e.message()}))
                            .collect();
                        map.insert("problems".into(), Value::Array(list));
                    }
                    Detail::Client(e) => {
                        map.insert(
                            "clientError".into(),
                            json!({"code": e.code.0, "message": e.message}),
                        );
                    }
                    Detail::Capabilities(required) => {
                        map.insert("requiredCapabilities".into(), required.clone());
                    }
                    Detail::None | Detail::Required(_) => {}
                }
                Value::Object(map)
            }
        };
        ErrorData::new(code, self.message.clone(), Some(data))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.kind)
    }
}

impl std::error::Error for Error {}

impl From<Error> for ErrorData {
    fn from(error: Error) -> Self {
        error.to_error_data()
    }
}

#[cfg(test)]
mod tests {
    use mcp_elicit_core::message::URL_ELICITATION_REQUIRED_MESSAGE;

    use super::*;

    /// The error of the specification's "URL Elicitation Required Error" example.
    fn spec_example() -> Value {
        json!({
            "code": -32042,
            "message": "This request requires more information.",
            "data": {
                "elicitations": [
                    {
                        "mode": "url",
                        "elicitationId": "550e8400-e29b-41d4-a716-446655440000",
                        "url": "https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000",
                        "message": "Authorization is required to access your Example Co files."
                    }
                ]
            }
        })
    }

    #[test]
    fn url_elicitation_required_round_trips_the_spec_example() {
        let example = spec_example();
        let required =
            UrlElicitationRequired::parse_data(&example["data"]).expect("spec data parses");
        let error = Error::required(required, URL_ELICITATION_REQUIRED_MESSAGE.to_owned());
        let data: ErrorData = error.into();
        assert_eq!(data.code, ErrorCode(-32042));
        assert_eq!(serde_json::to_value(&data).expect("serialize"), example);
    }

    #[test]
    fn other_kinds_never_use_32042_and_name_their_kind() {
        for kind in [
            ErrorKind::InvalidContent,
            ErrorKind::Timeout,
            ErrorKind::SecretField,
            ErrorKind::UnknownElicitation,
        ] {
            let data = Error::new(kind, "x").to_error_data();
            assert_ne!(data.code.0, URL_ELICITATION_REQUIRED);
            assert_eq!(
                data.data.as_ref().and_then(|d| d.get("kind")),
                Some(&Value::String(kind.code().into()))
            );
        }
    }
}
