//! The wire messages of elicitation (MCP 2025-11-25).
//!
//! - [`CreateRequest`]: the params of an `elicitation/create` request, either a
//!   [`FormRequest`] (with a checked [`Schema`](crate::Schema)) or a [`UrlRequest`].
//! - [`CreateResult`]: the client's answer ([`Action`] plus optional `content`).
//! - [`CompleteNotification`]: the params of `notifications/elicitation/complete`.
//! - [`UrlElicitationRequired`]: the `data` of a `-32042` JSON-RPC error.
//! - [`Capability`]: the client's `elicitation` capability.
//!
//! Every parser takes a [`serde_json::Value`] (the `params`, `result` or error `data`
//! member of the JSON-RPC message), never panics, and reports problems as
//! [`Errors`](crate::error::Errors) whose JSON pointers are relative to that value. All
//! types also implement `serde::Serialize` / `serde::Deserialize` with the exact wire
//! shape (`camelCase` member names, explicit `mode`); deserializing runs the same checks
//! as `parse`.
//!
//! ```
//! use mcp_elicit_core::lifecycle::{Event, State};
//! use mcp_elicit_core::message::{Capability, CreateRequest, CreateResult, Mode};
//! use serde_json::json;
//!
//! // What a client receives (the specification's URL mode example).
//! let params = json!({
//!     "mode": "url",
//!     "elicitationId": "550e8400-e29b-41d4-a716-446655440000",
//!     "url": "https://mcp.example.com/ui/set_api_key",
//!     "message": "Please provide your API key to continue."
//! });
//! let request = CreateRequest::parse(&params).unwrap();
//! assert_eq!(request.mode(), Mode::Url);
//!
//! // The client declared `"elicitation": {}`: form mode only, so it must answer -32602.
//! let declared = json!({});
//! let err = Capability::from_value(Some(&declared)).unwrap().require(request.mode()).unwrap_err();
//! assert_eq!(err.pointer(), "/mode");
//!
//! // A URL mode accept is consent, not completion.
//! let result = CreateResult::parse(&json!({"action": "accept"})).unwrap();
//! result.check_for(Mode::Url).unwrap();
//! let state = State::Pending.apply(Mode::Url, result.action.into()).unwrap();
//! assert!(!state.is_terminal(Mode::Url));
//! assert_eq!(state.apply(Mode::Url, Event::Complete).unwrap(), State::Completed);
//!
//! // Every problem, with a JSON pointer.
//! let errors = CreateRequest::parse(&json!({"mode": "url", "message": "hi"})).unwrap_err();
//! let pointers: Vec<&str> = errors.as_slice().iter().map(|e| e.pointer()).collect();
//! assert_eq!(pointers, ["/elicitationId", "/url"]);
//! ```
//!
//! ## Choices where the specification leaves room
//!
//! - A request without `mode` is a form request (the specification's backwards
//!   compatibility rule); [`CreateRequest::to_value`] always writes `mode`.
//! - A form request that also carries `url` or `elicitationId`, and a URL request that
//!   carries `requestedSchema`, are rejected ([`ErrorKind::InvalidMessage`]): the two
//!   parameter sets form a discriminated union in `schema.ts`, and a form request with a
//!   `url` is either a confused server or an attempt to get a link shown next to a form
//!   (servers SHOULD NOT put clickable URLs in form requests).
//! - Other unknown members of `params` (including `task`, the task-augmentation
//!   request, which this crate does not model) are ignored; `_meta` is kept verbatim.
//! - The `url` of a URL request must parse as an absolute URL (the specification says
//!   it MUST contain a valid URL). Whether it is *safe* to show or open is a separate
//!   question answered by [`crate::url_safety`].
//! - `"content": null` in a result is read as an absent `content`.
//!
//! ## Error kinds
//!
//! Structural problems (wrong JSON type, missing member, unknown `mode` or `action`,
//! mixed form/URL members) are [`ErrorKind::InvalidMessage`]; inputs over the limits
//! below are [`ErrorKind::TooLarge`]; an unparsable `url` is [`ErrorKind::InvalidUrl`];
//! schema problems keep the kind [`Schema::parse`](crate::Schema::parse) gave them,
//! with their pointer moved under `/requestedSchema`.
//!
//! [`ErrorKind::InvalidMessage`]: crate::ErrorKind::InvalidMessage
//! [`ErrorKind::TooLarge`]: crate::ErrorKind::TooLarge
//! [`ErrorKind::InvalidUrl`]: crate::ErrorKind::InvalidUrl

mod capability;
mod complete;
mod fields;
mod request;
mod required;
mod result;

pub use capability::{Capability, Mode};
pub use complete::CompleteNotification;
pub use request::{CreateRequest, FormRequest, UrlRequest};
pub use required::UrlElicitationRequired;
pub use result::{Action, CreateResult};

/// The JSON-RPC error code of `URLElicitationRequiredError`.
///
/// ```
/// use mcp_elicit_core::message::{
///     URL_ELICITATION_REQUIRED, URL_ELICITATION_REQUIRED_MESSAGE, UrlElicitationRequired, UrlRequest,
/// };
/// use serde_json::json;
///
/// let page = UrlRequest::new("Connect your account", "https://mcp.example.com/connect", "e1")?;
/// let required = UrlElicitationRequired::single(page).unwrap();
/// let error = json!({
///     "code": URL_ELICITATION_REQUIRED,
///     "message": URL_ELICITATION_REQUIRED_MESSAGE,
///     "data": required.data(),
/// });
/// assert_eq!(error["code"], -32042);
/// assert_eq!(error["data"]["elicitations"][0]["elicitationId"], "e1");
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
pub const URL_ELICITATION_REQUIRED: i32 = -32042;

/// The JSON-RPC error code a client returns for an `elicitation/create` whose mode it did
/// not declare (and for malformed params): Invalid params.
///
/// ```
/// use mcp_elicit_core::message::{Capability, CreateRequest, INVALID_PARAMS};
/// use serde_json::json;
///
/// let request = CreateRequest::parse(&json!({"mode": "url", "message": "Sign in",
///     "url": "https://example.com/login", "elicitationId": "e1"}))?;
/// // A client that declared form mode only answers with a JSON-RPC error:
/// let e = Capability::FORM.require(request.mode()).unwrap_err();
/// let error = json!({"code": INVALID_PARAMS, "message": e.message()});
/// assert_eq!(error["code"], -32602);
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
pub const INVALID_PARAMS: i32 = -32602;

/// A default `message` for a `-32042` error (the specification's example wording).
pub const URL_ELICITATION_REQUIRED_MESSAGE: &str = "This request requires more information.";

/// The method of the elicitation request (server to client).
///
/// ```
/// use mcp_elicit_core::message::{METHOD_CREATE, UrlRequest};
/// use serde_json::json;
///
/// let params = UrlRequest::new("Sign in", "https://example.com/login", "e1")?.to_value();
/// let rpc = json!({"jsonrpc": "2.0", "id": 1, "method": METHOD_CREATE, "params": params});
/// assert_eq!(rpc["method"], "elicitation/create");
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
pub const METHOD_CREATE: &str = "elicitation/create";

/// The method of the completion notification (server to client, URL mode).
///
/// ```
/// use mcp_elicit_core::message::{CompleteNotification, METHOD_COMPLETE};
/// use serde_json::json;
///
/// let params = CompleteNotification::new("e1").to_value();
/// let rpc = json!({"jsonrpc": "2.0", "method": METHOD_COMPLETE, "params": params});
/// assert_eq!(rpc["method"], "notifications/elicitation/complete");
/// ```
pub const METHOD_COMPLETE: &str = "notifications/elicitation/complete";

/// Longest `message` accepted, in bytes (64 KiB).
///
/// ```
/// use mcp_elicit_core::ErrorKind;
/// use mcp_elicit_core::message::{CreateRequest, MAX_MESSAGE_BYTES};
/// use serde_json::json;
///
/// let params = json!({"message": "x".repeat(MAX_MESSAGE_BYTES + 1),
///     "requestedSchema": {"type": "object", "properties": {}}});
/// let err = CreateRequest::parse(&params).unwrap_err();
/// assert_eq!((err.first().kind(), err.first().pointer()), (ErrorKind::TooLarge, "/message"));
/// ```
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// Longest `url` accepted, in bytes (8 KiB), as a message field. Whether a URL is safe
/// to show or send is [`url_safety`](crate::url_safety)'s question, with its own limits
/// (a server may not send more than [`LONG_URL_LEN`](crate::url_safety::LONG_URL_LEN)).
///
/// ```
/// use mcp_elicit_core::ErrorKind;
/// use mcp_elicit_core::message::{MAX_URL_BYTES, UrlRequest};
///
/// let url = format!("https://example.com/{}", "a".repeat(MAX_URL_BYTES));
/// let err = UrlRequest::new("Sign in", url, "e1").unwrap_err();
/// assert_eq!((err.first().kind(), err.first().pointer()), (ErrorKind::TooLarge, "/url"));
/// ```
pub const MAX_URL_BYTES: usize = 8 * 1024;

/// Longest `elicitationId` accepted, in bytes.
///
/// ```
/// use mcp_elicit_core::ErrorKind;
/// use mcp_elicit_core::message::{MAX_ELICITATION_ID_BYTES, UrlRequest};
///
/// let id = "x".repeat(MAX_ELICITATION_ID_BYTES + 1);
/// let err = UrlRequest::new("Sign in", "https://example.com/", id).unwrap_err();
/// assert_eq!((err.first().kind(), err.first().pointer()), (ErrorKind::TooLarge, "/elicitationId"));
/// ```
pub const MAX_ELICITATION_ID_BYTES: usize = 256;

/// Most elicitations one `-32042` error may list.
///
/// ```
/// use mcp_elicit_core::ErrorKind;
/// use mcp_elicit_core::message::{MAX_REQUIRED_ELICITATIONS, UrlElicitationRequired, UrlRequest};
///
/// let many: Vec<UrlRequest> = (0..=MAX_REQUIRED_ELICITATIONS)
///     .map(|i| UrlRequest::new("Sign in", "https://example.com/", format!("e{i}")).unwrap())
///     .collect();
/// assert_eq!(UrlElicitationRequired::new(many).unwrap_err().kind(), ErrorKind::TooLarge);
/// ```
pub const MAX_REQUIRED_ELICITATIONS: usize = 64;
