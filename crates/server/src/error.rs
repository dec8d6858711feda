//! The crate's one error type, and its one mapping to a JSON-RPC error.
//!
//! Every failure of the elicitation API is an [`Error`] with an [`ErrorKind`]. A tool that
//! cannot go on returns it with `?`: [`From<Error> for ErrorData`](#impl-From<Error>-for-ErrorData)
//! (in `error/mapping.rs`) is the only place where a kind becomes a JSON-RPC code, and the only place where code
//! `-32042` (`URLElicitationRequiredError`) is produced. The kinds, what causes each and
//! what to do, are listed on [`ErrorKind`].

mod form_details;
mod kind;
mod mapping;
mod peer_details;

use std::fmt;
use std::sync::Arc;

use mcp_elicit_core::lint::SecretFinding;
use mcp_elicit_core::message::UrlElicitationRequired;
use mcp_elicit_core::validate::Violations;
use rmcp::ErrorData;
use serde_json::Value;

pub use kind::ErrorKind;

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
    Source(Arc<dyn std::error::Error + Send + Sync>),
}

/// An elicitation failure: a kind, a sentence, and the details that go with the kind.
///
/// Displayed as the sentence followed by the kind's code; return it from a handler with
/// `?` (it converts to rmcp's `ErrorData`, and to [`Stop`](crate::Stop)):
///
/// ```
/// use mcp_elicit_server::rmcp::ErrorData;
/// use mcp_elicit_server::{Error, ErrorKind};
///
/// fn size(party: Option<u8>) -> Result<u8, Error> {
///     party.ok_or_else(|| Error::new(ErrorKind::Internal, "no party size"))
/// }
/// fn handler(party: Option<u8>) -> Result<String, ErrorData> {
///     Ok(format!("table for {}", size(party)?))
/// }
/// let e = Error::new(ErrorKind::Timeout, "no answer within 600 s");
/// assert_eq!(e.to_string(), "no answer within 600 s (timeout)");
/// assert_eq!(handler(None).unwrap_err().code.0, -32603);
/// ```
#[derive(Debug, Clone)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    detail: Box<Detail>,
}

impl Error {
    /// A new error of `kind`.
    ///
    /// For your own handlers' failures, with the same mapping as the crate's own:
    ///
    /// ```
    /// use mcp_elicit_server::{Error, ErrorKind};
    ///
    /// let e = Error::new(ErrorKind::Config, "the state key file is missing");
    /// assert_eq!((e.kind(), e.message()), (ErrorKind::Config, "the state key file is missing"));
    /// // No details: those come with the errors the crate makes.
    /// assert!(e.violations().is_none() && e.findings().is_empty() && e.problems().is_none());
    /// assert_eq!(e.to_error_data().data.unwrap(), serde_json::json!({"kind": "config"}));
    /// ```
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

    pub(crate) fn bookkeeping(id: &str, source: Box<dyn std::error::Error + Send + Sync>) -> Self {
        Self {
            kind: ErrorKind::Bookkeeping,
            message: format!(
                "elicitation {id} is completed, but the application's bookkeeping failed (no notification was sent): {source}"
            ),
            detail: Box::new(Detail::Source(Arc::from(source))),
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
    ///
    /// ```
    /// use mcp_elicit_server::{ErrorKind, FormOutcome};
    ///
    /// let e = FormOutcome::<u8>::Cancelled.accepted().unwrap_err();
    /// assert_eq!(e.kind(), ErrorKind::UserCancelled);
    /// ```
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The sentence describing it.
    ///
    /// ```
    /// use mcp_elicit_server::FormOutcome;
    ///
    /// let e = FormOutcome::<u8>::Declined.accepted().unwrap_err();
    /// assert_eq!(e.message(), "the user declined to answer");
    /// // The JSON-RPC error carries the same sentence.
    /// assert_eq!(e.to_error_data().message, "the user declined to answer");
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.kind)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self.detail.as_ref() {
            Detail::Source(e) => Some(e.as_ref() as &(dyn std::error::Error + 'static)),
            _ => None,
        }
    }
}
