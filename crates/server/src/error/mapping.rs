//! What an [`Error`] becomes for the client: the one mapping to a JSON-RPC error (the only
//! place -32042 is produced), or, for a user-driven end, a tool result the model reads.

use mcp_elicit_core::message::URL_ELICITATION_REQUIRED;
use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ContentBlock, ErrorCode};
use serde_json::{Map, Value, json};

use super::{Detail, Error, ErrorKind};

/// The JSON-RPC code of [`ErrorKind::TooManyPending`]: a server-defined error (the
/// `-32000..=-32099` range), not `-32603` (internal error), since an exhausted per-user
/// quota is neither a fault nor permanent. `data.kind` is `"too_many_pending"` and
/// `data.retryable` is `true`.
pub(crate) const QUOTA_EXCEEDED: i32 = -32000;

/// The JSON-RPC code of [`ErrorKind::StoreUnavailable`]: the same server-defined code as
/// the quota (`data.kind` tells them apart: `"store_unavailable"`), `data.retryable` is
/// `true`.
pub(crate) const STORE_UNAVAILABLE: i32 = -32000;

impl Error {
    /// Whether a person caused this rather than a fault ([`ErrorKind::is_user_driven`]).
    ///
    /// User-driven errors become [`Stop::User`](crate::Stop::User), the others
    /// [`Stop::Fail`](crate::Stop::Fail):
    ///
    /// ```
    /// use mcp_elicit_server::{Error, ErrorKind, FormOutcome, Stop};
    ///
    /// let declined = FormOutcome::<u8>::Declined.accepted().unwrap_err();
    /// assert!(declined.is_user_driven());
    /// assert!(matches!(Stop::from(declined), Stop::User(_)));
    /// let gone = Error::new(ErrorKind::Disconnected, "the client disconnected before answering");
    /// assert!(matches!(Stop::from(gone), Stop::Fail(e) if e.code.0 == -32603));
    /// ```
    pub fn is_user_driven(&self) -> bool {
        self.kind.is_user_driven()
    }

    /// For a user-driven error ([`Error::is_user_driven`]), a tool result saying what
    /// happened in words the model can act on (`isError: true`, one text block; the
    /// violations listed for [`ErrorKind::InvalidContent`]); `None` for every other kind.
    /// [`respond_tool`](crate::respond_tool) uses it.
    ///
    /// ```
    /// use mcp_elicit_server::{Error, ErrorKind};
    ///
    /// let timeout = Error::new(ErrorKind::Timeout, "no answer within 600 s");
    /// let result = timeout.tool_result().expect("user-driven");
    /// assert_eq!(result.is_error, Some(true));
    /// assert!(Error::new(ErrorKind::InvalidUrl, "x").tool_result().is_none());
    /// ```
    pub fn tool_result(&self) -> Option<CallToolResult> {
        let text = match self.kind {
            ErrorKind::InvalidContent => {
                let mut text = "The user's answer was not accepted".to_owned();
                match self.violations() {
                    Some(violations) => {
                        text.push(':');
                        for v in violations.iter() {
                            text.push_str("\n- ");
                            text.push_str(v.message());
                        }
                        text.push('\n');
                    }
                    None => text.push_str(". "),
                }
                text.push_str("Nothing was done. You may ask the user whether to try again.");
                text
            }
            ErrorKind::Timeout => "The user did not answer in time. Nothing was done; you may ask again later.".to_owned(),
            ErrorKind::UserDeclined => "The user declined to provide this information. Nothing was done.".to_owned(),
            ErrorKind::UserCancelled => "The user dismissed the request without answering. Nothing was done; you may ask again.".to_owned(),
            _ => return None,
        };
        Some(CallToolResult::error(vec![ContentBlock::text(text)]))
    }

    /// The JSON-RPC error for this failure (the same as `ErrorData::from(error)`).
    ///
    /// Every kind's code (the table on [`ErrorKind`] says what produces each); `data.kind`
    /// names the kind, except for -32042, whose `data` is exactly the specification's
    /// `{"elicitations": [...]}`:
    ///
    /// ```
    /// use mcp_elicit_server::{Error, ErrorKind::*};
    ///
    /// let code = |kind| Error::new(kind, "x").to_error_data().code.0;
    /// // The request cannot be carried out as sent (Invalid params).
    /// for kind in [InvalidContent, MalformedReply, ModeNotSupported, ClientError,
    ///              UnknownElicitation, InvalidState, UserDeclined, UserCancelled, Deserialize] {
    ///     assert_eq!(code(kind), -32602, "{kind}");
    /// }
    /// assert_eq!(code(UnsupportedProtocol), -32600); // Invalid request
    /// assert_eq!(code(MissingCapability), -32021); // MissingRequiredClientCapabilityError
    /// // Retryable: the server is fine, try again later (`data.retryable: true`).
    /// for kind in [TooManyPending, StoreUnavailable] {
    ///     assert_eq!(code(kind), -32000, "{kind}");
    ///     let data = Error::new(kind, "x").to_error_data().data.unwrap();
    ///     assert_eq!(data["retryable"], true);
    /// }
    /// // Faults of the server, its configuration or its environment (Internal error).
    /// for kind in [SecretField, InvalidSchema, InvalidUrl, NoIdentity, Config, Internal,
    ///              Bookkeeping, Timeout, Cancelled, Disconnected, Store, Random] {
    ///     assert_eq!(code(kind), -32603, "{kind}");
    /// }
    /// // Only `Elicitor::url_required` builds the -32042 error, with its URLs: one of this
    /// // kind made by hand has none, and a -32042 without `elicitations` would break the
    /// // specification's shape, so it goes out as an internal error.
    /// assert_eq!(code(UrlElicitationRequired), -32603);
    /// ```
    pub fn to_error_data(&self) -> ErrorData {
        let code = match self.kind {
            ErrorKind::UrlElicitationRequired if matches!(*self.detail, Detail::Required(_)) => {
                ErrorCode(URL_ELICITATION_REQUIRED)
            }
            // What the client sent (or did not declare) makes the call impossible.
            ErrorKind::InvalidContent
            | ErrorKind::MalformedReply
            | ErrorKind::ModeNotSupported
            | ErrorKind::ClientError
            | ErrorKind::UnknownElicitation
            | ErrorKind::InvalidState
            | ErrorKind::UserDeclined
            | ErrorKind::UserCancelled
            | ErrorKind::Deserialize => ErrorCode::INVALID_PARAMS,
            ErrorKind::UnsupportedProtocol => ErrorCode::INVALID_REQUEST,
            ErrorKind::MissingCapability => ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
            // A quota, not a fault: the server is fine and a later call can succeed.
            ErrorKind::TooManyPending => ErrorCode(QUOTA_EXCEEDED),
            // Not a fault of the request: the same call can succeed once the store is back.
            ErrorKind::StoreUnavailable => ErrorCode(STORE_UNAVAILABLE),
            _ => ErrorCode::INTERNAL_ERROR,
        };
        let data = match self.detail.as_ref() {
            // Exactly the specification's shape: {"elicitations": [...]}.
            Detail::Required(r) => r.data(),
            detail => {
                let mut map = Map::new();
                map.insert("kind".into(), Value::String(self.kind.code().into()));
                if matches!(
                    self.kind,
                    ErrorKind::TooManyPending | ErrorKind::StoreUnavailable
                ) {
                    // Retrying once some of the user's elicitations finish, or once the
                    // store is back, can succeed.
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
                    Detail::None | Detail::Required(_) | Detail::Source(_) => {}
                }
                Value::Object(map)
            }
        };
        ErrorData::new(code, self.message.clone(), Some(data))
    }
}

impl From<Error> for ErrorData {
    fn from(error: Error) -> Self {
        error.to_error_data()
    }
}

#[cfg(test)]
mod tests {
    use mcp_elicit_core::message::{URL_ELICITATION_REQUIRED_MESSAGE, UrlElicitationRequired};

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
    fn a_32042_always_lists_its_elicitations() {
        // Made by hand, without the URLs only `Elicitor::url_required` adds: a -32042
        // whose data is not `{"elicitations": [...]}` breaks the specification, so it
        // goes out as an internal error naming its kind.
        let data = Error::new(ErrorKind::UrlElicitationRequired, "x").to_error_data();
        assert_eq!(data.code, ErrorCode::INTERNAL_ERROR);
        assert_eq!(
            data.data.as_ref().and_then(|d| d.get("kind")),
            Some(&Value::String("url_elicitation_required".into()))
        );
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
