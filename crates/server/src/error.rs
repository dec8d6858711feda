//! The crate's one error type, and its one mapping to a JSON-RPC error.
//!
//! Every failure of the elicitation API is an [`Error`] with an [`ErrorKind`]. A tool that
//! cannot go on returns it with `?`: [`From<Error> for ErrorData`](#impl-From<Error>-for-ErrorData)
//! is the only place where a kind becomes a JSON-RPC code, and the only place where code
//! `-32042` (`URLElicitationRequiredError`) is produced. The kinds, what causes each and
//! what to do, are listed on [`ErrorKind`].

use std::fmt;
use std::sync::Arc;

use mcp_elicit_core::lint::SecretFinding;
use mcp_elicit_core::message::{URL_ELICITATION_REQUIRED, UrlElicitationRequired};
use mcp_elicit_core::validate::Violations;
use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ContentBlock, ErrorCode};
use serde_json::{Map, Value, json};

/// The JSON-RPC code of [`ErrorKind::TooManyPending`]: a server-defined error (the
/// `-32000..=-32099` range), not `-32603` (internal error), since an exhausted per-user
/// quota is neither a fault nor permanent. `data.kind` is `"too_many_pending"` and
/// `data.retryable` is `true`.
pub(crate) const QUOTA_EXCEEDED: i32 = -32000;

/// The JSON-RPC code of [`ErrorKind::StoreUnavailable`]: the same server-defined code as
/// the quota (`data.kind` tells them apart: `"store_unavailable"`), `data.retryable` is
/// `true`.
pub(crate) const STORE_UNAVAILABLE: i32 = -32000;

/// What went wrong: every kind, in one place.
///
/// Three groups. **Misuse** is a bug in the calling code, caught before anything was sent
/// or changed: fix the call. **User-driven** ends are what a person did (declined,
/// dismissed, an answer that still breaks the schema after the re-ask, no answer in
/// time): [`Error::is_user_driven`]; [`respond_tool`](crate::respond_tool) turns them into
/// a tool result the model can read ([`Error::tool_result`]) instead of a JSON-RPC error.
/// **Peer and environment** failures come from the client, the store or the system.
///
/// | kind ([`ErrorKind::code`]) | group | cause | what to do | JSON-RPC |
/// |---|---|---|---|---|
/// | [`SecretField`](ErrorKind::SecretField) `secret_field` | misuse | a form field looks like a secret (password, API key, token, card) | ask for it through URL mode; or, when it is not a secret, list it in [`ElicitationConfig::reviewed_not_secret`](crate::ElicitationConfig::reviewed_not_secret); [`Error::findings`] names each field | -32603 |
/// | [`InvalidSchema`](ErrorKind::InvalidSchema) `invalid_schema` | misuse | the schema (or Rust type) is outside the form subset: nested objects, arrays of objects, maps... | flatten the type; [`Error::problems`] points at each field | -32603 |
/// | [`InvalidUrl`](ErrorKind::InvalidUrl) `invalid_url` | misuse | the URL breaks the server URL policy: not `https` (plain `http` only on loopback with [`allow_loopback_http`](crate::ElicitationConfig::allow_loopback_http)), userinfo, a credential-like query parameter | serve the page over https; put nothing secret in the URL (the elicitation id finds the record) | -32603 |
/// | [`UnknownElicitation`](ErrorKind::UnknownElicitation) `unknown_elicitation` | misuse (or a replay) | completing or cancelling an id that is unknown, finished already, expired, declined, or another user's | nothing changed: show "link not valid"; never act on the id ([`Elicitations::complete_with`](crate::Elicitations::complete_with) runs your bookkeeping only after the check) | -32602 |
/// | [`Bookkeeping`](ErrorKind::Bookkeeping) `bookkeeping` | yours | the bookkeeping of [`complete_with`](crate::Elicitations::complete_with) failed; the elicitation is completed, the client not notified | see [`source`](std::error::Error::source); the client's retry asks again | -32603 |
/// | [`Internal`](ErrorKind::Internal) `internal` | misuse | a question key asked twice or longer than [`MAX_KEY_BYTES`](crate::MAX_KEY_BYTES), a ticket of another round, an unserializable value | fix the handler | -32603 |
/// | [`NoIdentity`](ErrorKind::NoIdentity) `no_identity` | misuse | no authenticated principal on the request and no local user configured | attach a [`Principal`](crate::Principal) in your auth middleware, or use [`IdentityPolicy::LocalUser`](crate::IdentityPolicy::LocalUser) | -32603 |
/// | [`Config`](ErrorKind::Config) `config` | misuse | an unusable configuration value (key file, key ring) | fix the configuration | -32603 |
/// | [`UnsupportedProtocol`](ErrorKind::UnsupportedProtocol) `unsupported_protocol` | misuse | an [`Elicitor`](crate::Elicitor) call on 2026-07-28, which has no `elicitation/create` | use [`Ask`](crate::Ask) | -32600 |
/// | [`InvalidContent`](ErrorKind::InvalidContent) `invalid_content` | user-driven | the answer still breaks the schema after [`max_attempts`](crate::ElicitationConfig::max_attempts) (default 2: one re-ask naming the rules) | [`Error::violations`] lists each; [`respond_tool`](crate::respond_tool) tells the model | -32602 |
/// | [`Timeout`](ErrorKind::Timeout) `timeout` | user-driven | no answer within [`form_timeout`](crate::ElicitationConfig::form_timeout) / [`url_consent_timeout`](crate::ElicitationConfig::url_consent_timeout) (10 minutes) | the request was cancelled; ask again later | -32603 |
/// | [`UserDeclined`](ErrorKind::UserDeclined) `user_declined` | user-driven | the user declined, through [`FormOutcome::accepted`](crate::FormOutcome::accepted) | do nothing the user refused | -32602 |
/// | [`UserCancelled`](ErrorKind::UserCancelled) `user_cancelled` | user-driven | the user dismissed the form, through [`FormOutcome::accepted`](crate::FormOutcome::accepted) | ask again later | -32602 |
/// | [`ModeNotSupported`](ErrorKind::ModeNotSupported) `mode_not_supported` | peer | the client did not declare the mode (2025-11-25) | check [`Ask::supports`](crate::Ask::supports) first; for URL mode tell the user ([`Elicitor::url_unsupported`](crate::Elicitor::url_unsupported)) | -32602 |
/// | [`MissingCapability`](ErrorKind::MissingCapability) `missing_capability` | peer | the same on 2026-07-28 | as above | -32021 |
/// | [`MalformedReply`](ErrorKind::MalformedReply) `malformed_reply` | peer | the client's answer breaks the protocol | nothing to do: the client is wrong | -32602 |
/// | [`ClientError`](ErrorKind::ClientError) `client_error` | peer | the client answered with a JSON-RPC error | [`Error::client_error`] | -32602 |
/// | [`Deserialize`](ErrorKind::Deserialize) `deserialize` | misuse | valid content that does not deserialize into your type (a serde attribute the schema does not show) | make the type and its schema agree | -32602 |
/// | [`InvalidState`](ErrorKind::InvalidState) `invalid_state` | peer | a 2026-07-28 `requestState` that is not ours for this user and request, or expired | the client calls again without it | -32602 |
/// | [`Cancelled`](ErrorKind::Cancelled) `cancelled` | peer | the tool call itself was cancelled | nothing: nobody waits for the result | -32603 |
/// | [`Disconnected`](ErrorKind::Disconnected) `disconnected` | peer | the client went away before answering | nothing | -32603 |
/// | [`TooManyPending`](ErrorKind::TooManyPending) `too_many_pending` | environment | the user has [`max_pending_per_user`](crate::ElicitationConfig::max_pending_per_user) (32) unexpired elicitations | retry later (`data.retryable`) | -32000 |
/// | [`StoreUnavailable`](ErrorKind::StoreUnavailable) `store_unavailable` | environment | the store cannot be reached or written just now (database down or unreachable, no free connection in time, disk full); nothing was changed | retry later (`data.retryable`) | -32000 |
/// | [`Store`](ErrorKind::Store) `store` | environment | the pending-elicitation store failed | see the message | -32603 |
/// | [`Random`](ErrorKind::Random) `random` | environment | the OS random number generator failed | see the message | -32603 |
/// | [`UrlElicitationRequired`](ErrorKind::UrlElicitationRequired) `url_elicitation_required` | not a failure | built by [`Elicitor::url_required`](crate::Elicitor::url_required) (2025-11-25) | return it: the client opens the URLs and retries | -32042 (one made with [`Error::new`] has no URLs and is sent as -32603: a -32042 must list them) |
///
/// ```
/// use mcp_elicit_server::{Error, ErrorKind};
///
/// let e = Error::new(ErrorKind::UnknownElicitation, "no pending elicitation x for this user");
/// assert_eq!(e.kind().code(), "unknown_elicitation");
/// assert!(!e.is_user_driven());
/// assert_eq!(e.to_error_data().code.0, -32602);
/// ```
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
    /// The store cannot be reached or cannot write just now (see
    /// [`StoreError::Unavailable`](crate::StoreError::Unavailable)); nothing was changed
    /// and a later call can succeed (JSON-RPC -32000, `data.retryable: true`).
    StoreUnavailable,
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
    /// The application's bookkeeping in
    /// [`Elicitations::complete_with`](crate::Elicitations::complete_with) failed, after
    /// the completion was recorded; no notification was sent. The application's error
    /// is the [`source`](std::error::Error::source).
    Bookkeeping,
    /// The user declined (a [`FormOutcome::Declined`](crate::FormOutcome::Declined)
    /// turned into an error by [`FormOutcome::accepted`](crate::FormOutcome::accepted)).
    UserDeclined,
    /// The user dismissed the request without choosing (a
    /// [`FormOutcome::Cancelled`](crate::FormOutcome::Cancelled) turned into an error by
    /// [`FormOutcome::accepted`](crate::FormOutcome::accepted)).
    UserCancelled,
    /// The request cannot be processed until these URL-mode elicitations complete
    /// (JSON-RPC `-32042`). Built only by
    /// [`Elicitor::url_required`](crate::Elicitor::url_required).
    UrlElicitationRequired,
}

impl ErrorKind {
    /// A short, stable, `snake_case` name (also sent as `data.kind`).
    ///
    /// A client (or a log query) can rely on it: the name does not change between versions.
    ///
    /// ```
    /// use mcp_elicit_server::{Error, ErrorKind};
    ///
    /// assert_eq!(ErrorKind::TooManyPending.code(), "too_many_pending");
    /// assert_eq!(ErrorKind::TooManyPending.to_string(), "too_many_pending"); // Display is the code
    /// let data = Error::new(ErrorKind::TooManyPending, "32 pending").to_error_data();
    /// assert_eq!(data.data.unwrap()["kind"], "too_many_pending");
    /// ```
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
            Self::StoreUnavailable => "store_unavailable",
            Self::Store => "store",
            Self::Random => "random",
            Self::UrlElicitationRequired => "url_elicitation_required",
            Self::InvalidState => "invalid_state",
            Self::MissingCapability => "missing_capability",
            Self::Config => "config",
            Self::Internal => "internal",
            Self::Bookkeeping => "bookkeeping",
            Self::UserDeclined => "user_declined",
            Self::UserCancelled => "user_cancelled",
        }
    }

    /// Whether this kind is what a person did rather than a fault: [`ErrorKind::InvalidContent`],
    /// [`ErrorKind::Timeout`], [`ErrorKind::UserDeclined`], [`ErrorKind::UserCancelled`].
    ///
    /// ```
    /// use mcp_elicit_server::ErrorKind;
    ///
    /// assert!(ErrorKind::UserDeclined.is_user_driven());
    /// assert!(ErrorKind::Timeout.is_user_driven());
    /// // What the client or the environment did is not.
    /// assert!(!ErrorKind::Disconnected.is_user_driven());
    /// assert!(!ErrorKind::StoreUnavailable.is_user_driven());
    /// ```
    pub fn is_user_driven(self) -> bool {
        matches!(
            self,
            Self::InvalidContent | Self::Timeout | Self::UserDeclined | Self::UserCancelled
        )
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

    /// Every schema violation, for [`ErrorKind::InvalidContent`].
    ///
    /// Each names the property, the rule and a sentence the user can act on (hidden: an rmcp
    /// client over an in-memory pipe whose user answers an email address without `@`):
    ///
    /// ```
    /// use mcp_elicit_server::{ErrorKind, SessionScope, text};
    /// # use std::sync::atomic::{AtomicUsize, Ordering};
    /// # use std::time::Duration;
    /// # use mcp_elicit_server::rmcp::model::*;
    /// # use mcp_elicit_server::rmcp::service::{NotificationContext, RequestContext, RunningService};
    /// # use mcp_elicit_server::rmcp::{ClientHandler, ErrorData, RoleClient, RoleServer, ServerHandler, ServiceError, ServiceExt};
    /// # use mcp_elicit_server::serde_json::{Value, json};
    /// # /// The server: every tool call runs `tool` (below).
    /// # struct Server(mcp_elicit_server::SessionScope);
    /// # impl ServerHandler for Server {
    /// #     fn get_info(&self) -> ServerConfig {
    /// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    /// #     }
    /// #     async fn call_tool(&self, request: CallToolRequestParams, ctx: RequestContext<RoleServer>)
    /// #         -> Result<CallToolResponse, ErrorData> {
    /// #         tool(&self.0, &request, &ctx).await.map(CallToolResponse::Complete)
    /// #     }
    /// # }
    /// # /// A client declaring `caps`, whose user answers with `answer` (`None`: never answers);
    /// # /// custom notifications go to the receiver `connect` returns.
    /// # struct User {
    /// #     caps: Value,
    /// #     answer: fn(&ElicitRequestParams) -> Option<Result<ElicitResult, ErrorData>>,
    /// #     notes: tokio::sync::mpsc::UnboundedSender<Value>,
    /// # }
    /// # impl ClientHandler for User {
    /// #     fn get_info(&self) -> ClientConfig {
    /// #         let caps = serde_json::from_value(self.caps.clone()).unwrap();
    /// #         ClientConfig::new(caps, Implementation::new("user", "0"))
    /// #     }
    /// #     async fn create_elicitation(&self, request: ElicitRequestParams, _: RequestContext<RoleClient>)
    /// #         -> Result<ElicitResult, ErrorData> {
    /// #         match (self.answer)(&request) {
    /// #             Some(answer) => answer,
    /// #             None => std::future::pending().await,
    /// #         }
    /// #     }
    /// #     async fn on_custom_notification(&self, note: CustomNotification, _: NotificationContext<RoleClient>) {
    /// #         let _ = self.notes.send(note.params.unwrap_or_default());
    /// #     }
    /// # }
    /// # /// A client over an in-memory pipe to a server on `hub` (behind `Edge`).
    /// # async fn connect(
    /// #     hub: &mcp_elicit_server::Elicitations,
    /// #     caps: Value,
    /// #     answer: fn(&ElicitRequestParams) -> Option<Result<ElicitResult, ErrorData>>,
    /// # ) -> Result<(RunningService<RoleClient, User>, tokio::sync::mpsc::UnboundedReceiver<Value>), Box<dyn std::error::Error>> {
    /// #     let (client_io, server_io) = tokio::io::duplex(1 << 16);
    /// #     let server = mcp_elicit_server::Edge::new(Server(hub.scope()?));
    /// #     tokio::spawn(async move {
    /// #         if let Ok(running) = server.serve(server_io).await {
    /// #             let _ = running.waiting().await;
    /// #         }
    /// #     });
    /// #     let (notes, rx) = tokio::sync::mpsc::unbounded_channel();
    /// #     Ok((User { caps, answer, notes }.serve(client_io).await?, rx))
    /// # }
    /// # fn accept(content: Value) -> Option<Result<ElicitResult, ErrorData>> {
    /// #     Some(Ok(ElicitResult::new(ElicitationAction::Accept).with_content(content)))
    /// # }
    /// # fn message(request: &ElicitRequestParams) -> &str {
    /// #     match request {
    /// #         ElicitRequestParams::FormElicitationParams { message, .. }
    /// #         | ElicitRequestParams::UrlElicitationParams { message, .. } => message,
    /// #         _ => "",
    /// #     }
    /// # }
    /// # /// A hub whose local user is alice.
    /// # fn hub() -> mcp_elicit_server::Elicitations {
    /// #     mcp_elicit_server::Elicitations::new(mcp_elicit_server::ElicitationConfig::new(
    /// #         mcp_elicit_server::IdentityPolicy::LocalUser(mcp_elicit_server::Principal::local_user("alice")),
    /// #     ))
    /// # }
    /// # fn first_text(result: &CallToolResult) -> String {
    /// #     result.content[0].as_text().map(|t| t.text.clone()).unwrap_or_default()
    /// # }
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Contact {
    ///     #[schemars(email)]
    ///     email: String,
    /// }
    ///
    /// async fn tool(
    ///     scope: &SessionScope,
    ///     _: &CallToolRequestParams,
    ///     ctx: &RequestContext<RoleServer>,
    /// ) -> Result<CallToolResult, ErrorData> {
    ///     let elicitor = scope.elicitor(ctx)?.with_max_attempts(1);
    ///     match elicitor.form::<Contact>("Your email?").await {
    ///         Err(e) if e.kind() == ErrorKind::InvalidContent => {
    ///             let v = e.violations().expect("InvalidContent carries them").first();
    ///             Ok(text(format!("{:?} {}: {}", v.property(), v.code().as_str(), v.message())))
    ///         }
    ///         other => Ok(text(format!("unexpected: {:?}", other.map(|o| o.ok().map(|c| c.email))))),
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = hub();
    /// # let (client, _) = connect(&hub, json!({"elicitation": {"form": {}}}), |_| accept(json!({"email": "ada"}))).await?;
    /// let result = client.call_tool(CallToolRequestParams::new("contact")).await?;
    /// assert_eq!(
    ///     first_text(&result),
    ///     r#"Some("email") format: "email": must be an email address like name@example.com"#
    /// );
    /// # Ok(())
    /// # }
    /// ```
    pub fn violations(&self) -> Option<&Violations> {
        match self.detail.as_ref() {
            Detail::Violations(v) => Some(v),
            _ => None,
        }
    }

    /// The secret-field findings, for [`ErrorKind::SecretField`].
    ///
    /// A form asking for a password is refused before anything is sent (hidden: an rmcp
    /// client over an in-memory pipe that counts what it is asked):
    ///
    /// ```
    /// use mcp_elicit_server::{ErrorKind, SessionScope, text};
    /// # use std::sync::atomic::{AtomicUsize, Ordering};
    /// # use std::time::Duration;
    /// # use mcp_elicit_server::rmcp::model::*;
    /// # use mcp_elicit_server::rmcp::service::{NotificationContext, RequestContext, RunningService};
    /// # use mcp_elicit_server::rmcp::{ClientHandler, ErrorData, RoleClient, RoleServer, ServerHandler, ServiceError, ServiceExt};
    /// # use mcp_elicit_server::serde_json::{Value, json};
    /// # /// The server: every tool call runs `tool` (below).
    /// # struct Server(mcp_elicit_server::SessionScope);
    /// # impl ServerHandler for Server {
    /// #     fn get_info(&self) -> ServerConfig {
    /// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    /// #     }
    /// #     async fn call_tool(&self, request: CallToolRequestParams, ctx: RequestContext<RoleServer>)
    /// #         -> Result<CallToolResponse, ErrorData> {
    /// #         tool(&self.0, &request, &ctx).await.map(CallToolResponse::Complete)
    /// #     }
    /// # }
    /// # /// A client declaring `caps`, whose user answers with `answer` (`None`: never answers);
    /// # /// custom notifications go to the receiver `connect` returns.
    /// # struct User {
    /// #     caps: Value,
    /// #     answer: fn(&ElicitRequestParams) -> Option<Result<ElicitResult, ErrorData>>,
    /// #     notes: tokio::sync::mpsc::UnboundedSender<Value>,
    /// # }
    /// # impl ClientHandler for User {
    /// #     fn get_info(&self) -> ClientConfig {
    /// #         let caps = serde_json::from_value(self.caps.clone()).unwrap();
    /// #         ClientConfig::new(caps, Implementation::new("user", "0"))
    /// #     }
    /// #     async fn create_elicitation(&self, request: ElicitRequestParams, _: RequestContext<RoleClient>)
    /// #         -> Result<ElicitResult, ErrorData> {
    /// #         match (self.answer)(&request) {
    /// #             Some(answer) => answer,
    /// #             None => std::future::pending().await,
    /// #         }
    /// #     }
    /// #     async fn on_custom_notification(&self, note: CustomNotification, _: NotificationContext<RoleClient>) {
    /// #         let _ = self.notes.send(note.params.unwrap_or_default());
    /// #     }
    /// # }
    /// # /// A client over an in-memory pipe to a server on `hub` (behind `Edge`).
    /// # async fn connect(
    /// #     hub: &mcp_elicit_server::Elicitations,
    /// #     caps: Value,
    /// #     answer: fn(&ElicitRequestParams) -> Option<Result<ElicitResult, ErrorData>>,
    /// # ) -> Result<(RunningService<RoleClient, User>, tokio::sync::mpsc::UnboundedReceiver<Value>), Box<dyn std::error::Error>> {
    /// #     let (client_io, server_io) = tokio::io::duplex(1 << 16);
    /// #     let server = mcp_elicit_server::Edge::new(Server(hub.scope()?));
    /// #     tokio::spawn(async move {
    /// #         if let Ok(running) = server.serve(server_io).await {
    /// #             let _ = running.waiting().await;
    /// #         }
    /// #     });
    /// #     let (notes, rx) = tokio::sync::mpsc::unbounded_channel();
    /// #     Ok((User { caps, answer, notes }.serve(client_io).await?, rx))
    /// # }
    /// # fn accept(content: Value) -> Option<Result<ElicitResult, ErrorData>> {
    /// #     Some(Ok(ElicitResult::new(ElicitationAction::Accept).with_content(content)))
    /// # }
    /// # fn message(request: &ElicitRequestParams) -> &str {
    /// #     match request {
    /// #         ElicitRequestParams::FormElicitationParams { message, .. }
    /// #         | ElicitRequestParams::UrlElicitationParams { message, .. } => message,
    /// #         _ => "",
    /// #     }
    /// # }
    /// # /// A hub whose local user is alice.
    /// # fn hub() -> mcp_elicit_server::Elicitations {
    /// #     mcp_elicit_server::Elicitations::new(mcp_elicit_server::ElicitationConfig::new(
    /// #         mcp_elicit_server::IdentityPolicy::LocalUser(mcp_elicit_server::Principal::local_user("alice")),
    /// #     ))
    /// # }
    /// # fn first_text(result: &CallToolResult) -> String {
    /// #     result.content[0].as_text().map(|t| t.text.clone()).unwrap_or_default()
    /// # }
    /// static ASKED: AtomicUsize = AtomicUsize::new(0);
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Login {
    ///     username: String,
    ///     password: String,
    /// }
    ///
    /// async fn tool(
    ///     scope: &SessionScope,
    ///     _: &CallToolRequestParams,
    ///     ctx: &RequestContext<RoleServer>,
    /// ) -> Result<CallToolResult, ErrorData> {
    ///     match scope.elicitor(ctx)?.form::<Login>("Sign in to ACME").await {
    ///         Err(e) if e.kind() == ErrorKind::SecretField => {
    ///             let flagged: Vec<&str> = e.findings().iter().map(|f| f.property()).collect();
    ///             Ok(text(format!("refused: {flagged:?}, -> {}", e.to_error_data().code.0)))
    ///         }
    ///         _ => Ok(text("unexpected")),
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = hub();
    /// # let (client, _) = connect(&hub, json!({"elicitation": {"form": {}}}), |_| {
    /// #     ASKED.fetch_add(1, Ordering::SeqCst);
    /// #     None
    /// # }).await?;
    /// let result = client.call_tool(CallToolRequestParams::new("sign_in")).await?;
    /// assert_eq!(first_text(&result), r#"refused: ["password"], -> -32603"#);
    /// assert_eq!(ASKED.load(Ordering::SeqCst), 0); // nothing was sent
    /// # Ok(())
    /// # }
    /// ```
    pub fn findings(&self) -> &[SecretFinding] {
        match self.detail.as_ref() {
            Detail::Findings(f) => f,
            _ => &[],
        }
    }

    /// The core's problems (schema, URL or reply checks), when the error came from one.
    ///
    /// A Rust type outside the form subset (a nested object) is refused, each problem with a
    /// JSON pointer into the derived schema (hidden: an rmcp client over an in-memory pipe):
    ///
    /// ```
    /// use mcp_elicit_server::{ErrorKind, SessionScope, text};
    /// # use std::sync::atomic::{AtomicUsize, Ordering};
    /// # use std::time::Duration;
    /// # use mcp_elicit_server::rmcp::model::*;
    /// # use mcp_elicit_server::rmcp::service::{NotificationContext, RequestContext, RunningService};
    /// # use mcp_elicit_server::rmcp::{ClientHandler, ErrorData, RoleClient, RoleServer, ServerHandler, ServiceError, ServiceExt};
    /// # use mcp_elicit_server::serde_json::{Value, json};
    /// # /// The server: every tool call runs `tool` (below).
    /// # struct Server(mcp_elicit_server::SessionScope);
    /// # impl ServerHandler for Server {
    /// #     fn get_info(&self) -> ServerConfig {
    /// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    /// #     }
    /// #     async fn call_tool(&self, request: CallToolRequestParams, ctx: RequestContext<RoleServer>)
    /// #         -> Result<CallToolResponse, ErrorData> {
    /// #         tool(&self.0, &request, &ctx).await.map(CallToolResponse::Complete)
    /// #     }
    /// # }
    /// # /// A client declaring `caps`, whose user answers with `answer` (`None`: never answers);
    /// # /// custom notifications go to the receiver `connect` returns.
    /// # struct User {
    /// #     caps: Value,
    /// #     answer: fn(&ElicitRequestParams) -> Option<Result<ElicitResult, ErrorData>>,
    /// #     notes: tokio::sync::mpsc::UnboundedSender<Value>,
    /// # }
    /// # impl ClientHandler for User {
    /// #     fn get_info(&self) -> ClientConfig {
    /// #         let caps = serde_json::from_value(self.caps.clone()).unwrap();
    /// #         ClientConfig::new(caps, Implementation::new("user", "0"))
    /// #     }
    /// #     async fn create_elicitation(&self, request: ElicitRequestParams, _: RequestContext<RoleClient>)
    /// #         -> Result<ElicitResult, ErrorData> {
    /// #         match (self.answer)(&request) {
    /// #             Some(answer) => answer,
    /// #             None => std::future::pending().await,
    /// #         }
    /// #     }
    /// #     async fn on_custom_notification(&self, note: CustomNotification, _: NotificationContext<RoleClient>) {
    /// #         let _ = self.notes.send(note.params.unwrap_or_default());
    /// #     }
    /// # }
    /// # /// A client over an in-memory pipe to a server on `hub` (behind `Edge`).
    /// # async fn connect(
    /// #     hub: &mcp_elicit_server::Elicitations,
    /// #     caps: Value,
    /// #     answer: fn(&ElicitRequestParams) -> Option<Result<ElicitResult, ErrorData>>,
    /// # ) -> Result<(RunningService<RoleClient, User>, tokio::sync::mpsc::UnboundedReceiver<Value>), Box<dyn std::error::Error>> {
    /// #     let (client_io, server_io) = tokio::io::duplex(1 << 16);
    /// #     let server = mcp_elicit_server::Edge::new(Server(hub.scope()?));
    /// #     tokio::spawn(async move {
    /// #         if let Ok(running) = server.serve(server_io).await {
    /// #             let _ = running.waiting().await;
    /// #         }
    /// #     });
    /// #     let (notes, rx) = tokio::sync::mpsc::unbounded_channel();
    /// #     Ok((User { caps, answer, notes }.serve(client_io).await?, rx))
    /// # }
    /// # fn accept(content: Value) -> Option<Result<ElicitResult, ErrorData>> {
    /// #     Some(Ok(ElicitResult::new(ElicitationAction::Accept).with_content(content)))
    /// # }
    /// # fn message(request: &ElicitRequestParams) -> &str {
    /// #     match request {
    /// #         ElicitRequestParams::FormElicitationParams { message, .. }
    /// #         | ElicitRequestParams::UrlElicitationParams { message, .. } => message,
    /// #         _ => "",
    /// #     }
    /// # }
    /// # /// A hub whose local user is alice.
    /// # fn hub() -> mcp_elicit_server::Elicitations {
    /// #     mcp_elicit_server::Elicitations::new(mcp_elicit_server::ElicitationConfig::new(
    /// #         mcp_elicit_server::IdentityPolicy::LocalUser(mcp_elicit_server::Principal::local_user("alice")),
    /// #     ))
    /// # }
    /// # fn first_text(result: &CallToolResult) -> String {
    /// #     result.content[0].as_text().map(|t| t.text.clone()).unwrap_or_default()
    /// # }
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Address {
    ///     street: String,
    /// }
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Order {
    ///     address: Address,
    /// }
    ///
    /// async fn tool(
    ///     scope: &SessionScope,
    ///     _: &CallToolRequestParams,
    ///     ctx: &RequestContext<RoleServer>,
    /// ) -> Result<CallToolResult, ErrorData> {
    ///     match scope.elicitor(ctx)?.form::<Order>("Where to?").await {
    ///         Err(e) if e.kind() == ErrorKind::InvalidSchema => {
    ///             let problems = e.problems().expect("from the schema check");
    ///             let pointers: Vec<&str> = problems.as_slice().iter().map(|p| p.pointer()).collect();
    ///             Ok(text(pointers.join(" ")))
    ///         }
    ///         _ => Ok(text("unexpected")),
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = hub();
    /// # let (client, _) = connect(&hub, json!({"elicitation": {"form": {}}}), |_| None).await?;
    /// let result = client.call_tool(CallToolRequestParams::new("order")).await?;
    /// assert!(first_text(&result).contains("address"), "{}", first_text(&result));
    /// # Ok(())
    /// # }
    /// ```
    pub fn problems(&self) -> Option<&mcp_elicit_core::error::Errors> {
        match self.detail.as_ref() {
            Detail::Core(e) => Some(e),
            _ => None,
        }
    }

    /// The client's JSON-RPC error, for [`ErrorKind::ClientError`].
    ///
    /// The client refused `elicitation/create` with an error of its own (hidden: an rmcp
    /// client over an in-memory pipe answering -32600):
    ///
    /// ```
    /// use mcp_elicit_server::{ErrorKind, SessionScope, text};
    /// # use std::sync::atomic::{AtomicUsize, Ordering};
    /// # use std::time::Duration;
    /// # use mcp_elicit_server::rmcp::model::*;
    /// # use mcp_elicit_server::rmcp::service::{NotificationContext, RequestContext, RunningService};
    /// # use mcp_elicit_server::rmcp::{ClientHandler, ErrorData, RoleClient, RoleServer, ServerHandler, ServiceError, ServiceExt};
    /// # use mcp_elicit_server::serde_json::{Value, json};
    /// # /// The server: every tool call runs `tool` (below).
    /// # struct Server(mcp_elicit_server::SessionScope);
    /// # impl ServerHandler for Server {
    /// #     fn get_info(&self) -> ServerConfig {
    /// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    /// #     }
    /// #     async fn call_tool(&self, request: CallToolRequestParams, ctx: RequestContext<RoleServer>)
    /// #         -> Result<CallToolResponse, ErrorData> {
    /// #         tool(&self.0, &request, &ctx).await.map(CallToolResponse::Complete)
    /// #     }
    /// # }
    /// # /// A client declaring `caps`, whose user answers with `answer` (`None`: never answers);
    /// # /// custom notifications go to the receiver `connect` returns.
    /// # struct User {
    /// #     caps: Value,
    /// #     answer: fn(&ElicitRequestParams) -> Option<Result<ElicitResult, ErrorData>>,
    /// #     notes: tokio::sync::mpsc::UnboundedSender<Value>,
    /// # }
    /// # impl ClientHandler for User {
    /// #     fn get_info(&self) -> ClientConfig {
    /// #         let caps = serde_json::from_value(self.caps.clone()).unwrap();
    /// #         ClientConfig::new(caps, Implementation::new("user", "0"))
    /// #     }
    /// #     async fn create_elicitation(&self, request: ElicitRequestParams, _: RequestContext<RoleClient>)
    /// #         -> Result<ElicitResult, ErrorData> {
    /// #         match (self.answer)(&request) {
    /// #             Some(answer) => answer,
    /// #             None => std::future::pending().await,
    /// #         }
    /// #     }
    /// #     async fn on_custom_notification(&self, note: CustomNotification, _: NotificationContext<RoleClient>) {
    /// #         let _ = self.notes.send(note.params.unwrap_or_default());
    /// #     }
    /// # }
    /// # /// A client over an in-memory pipe to a server on `hub` (behind `Edge`).
    /// # async fn connect(
    /// #     hub: &mcp_elicit_server::Elicitations,
    /// #     caps: Value,
    /// #     answer: fn(&ElicitRequestParams) -> Option<Result<ElicitResult, ErrorData>>,
    /// # ) -> Result<(RunningService<RoleClient, User>, tokio::sync::mpsc::UnboundedReceiver<Value>), Box<dyn std::error::Error>> {
    /// #     let (client_io, server_io) = tokio::io::duplex(1 << 16);
    /// #     let server = mcp_elicit_server::Edge::new(Server(hub.scope()?));
    /// #     tokio::spawn(async move {
    /// #         if let Ok(running) = server.serve(server_io).await {
    /// #             let _ = running.waiting().await;
    /// #         }
    /// #     });
    /// #     let (notes, rx) = tokio::sync::mpsc::unbounded_channel();
    /// #     Ok((User { caps, answer, notes }.serve(client_io).await?, rx))
    /// # }
    /// # fn accept(content: Value) -> Option<Result<ElicitResult, ErrorData>> {
    /// #     Some(Ok(ElicitResult::new(ElicitationAction::Accept).with_content(content)))
    /// # }
    /// # fn message(request: &ElicitRequestParams) -> &str {
    /// #     match request {
    /// #         ElicitRequestParams::FormElicitationParams { message, .. }
    /// #         | ElicitRequestParams::UrlElicitationParams { message, .. } => message,
    /// #         _ => "",
    /// #     }
    /// # }
    /// # /// A hub whose local user is alice.
    /// # fn hub() -> mcp_elicit_server::Elicitations {
    /// #     mcp_elicit_server::Elicitations::new(mcp_elicit_server::ElicitationConfig::new(
    /// #         mcp_elicit_server::IdentityPolicy::LocalUser(mcp_elicit_server::Principal::local_user("alice")),
    /// #     ))
    /// # }
    /// # fn first_text(result: &CallToolResult) -> String {
    /// #     result.content[0].as_text().map(|t| t.text.clone()).unwrap_or_default()
    /// # }
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Party {
    ///     size: u8,
    /// }
    ///
    /// async fn tool(
    ///     scope: &SessionScope,
    ///     _: &CallToolRequestParams,
    ///     ctx: &RequestContext<RoleServer>,
    /// ) -> Result<CallToolResult, ErrorData> {
    ///     match scope.elicitor(ctx)?.form::<Party>("Table for how many?").await {
    ///         Err(e) if e.kind() == ErrorKind::ClientError => {
    ///             let theirs = e.client_error().expect("ClientError carries it");
    ///             Ok(text(format!("{} {}", theirs.code.0, theirs.message)))
    ///         }
    ///         _ => Ok(text("unexpected")),
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = hub();
    /// # let (client, _) = connect(&hub, json!({"elicitation": {"form": {}}}), |_| {
    /// #     Some(Err(ErrorData::invalid_request("no screen to show a form on", None)))
    /// # }).await?;
    /// let result = client.call_tool(CallToolRequestParams::new("book")).await?;
    /// assert_eq!(first_text(&result), "-32600 no screen to show a form on");
    /// # Ok(())
    /// # }
    /// ```
    pub fn client_error(&self) -> Option<&ErrorData> {
        match self.detail.as_ref() {
            Detail::Client(e) => Some(e),
            _ => None,
        }
    }

    /// The required URL elicitations, for [`ErrorKind::UrlElicitationRequired`].
    ///
    /// What [`Elicitor::url_required`](crate::Elicitor::url_required) recorded and the client
    /// will be sent (hidden: an rmcp client over an in-memory pipe with URL mode):
    ///
    /// ```
    /// use mcp_elicit_server::{SessionScope, UrlElicitation, text};
    /// # use std::sync::atomic::{AtomicUsize, Ordering};
    /// # use std::time::Duration;
    /// # use mcp_elicit_server::rmcp::model::*;
    /// # use mcp_elicit_server::rmcp::service::{NotificationContext, RequestContext, RunningService};
    /// # use mcp_elicit_server::rmcp::{ClientHandler, ErrorData, RoleClient, RoleServer, ServerHandler, ServiceError, ServiceExt};
    /// # use mcp_elicit_server::serde_json::{Value, json};
    /// # /// The server: every tool call runs `tool` (below).
    /// # struct Server(mcp_elicit_server::SessionScope);
    /// # impl ServerHandler for Server {
    /// #     fn get_info(&self) -> ServerConfig {
    /// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    /// #     }
    /// #     async fn call_tool(&self, request: CallToolRequestParams, ctx: RequestContext<RoleServer>)
    /// #         -> Result<CallToolResponse, ErrorData> {
    /// #         tool(&self.0, &request, &ctx).await.map(CallToolResponse::Complete)
    /// #     }
    /// # }
    /// # /// A client declaring `caps`, whose user answers with `answer` (`None`: never answers);
    /// # /// custom notifications go to the receiver `connect` returns.
    /// # struct User {
    /// #     caps: Value,
    /// #     answer: fn(&ElicitRequestParams) -> Option<Result<ElicitResult, ErrorData>>,
    /// #     notes: tokio::sync::mpsc::UnboundedSender<Value>,
    /// # }
    /// # impl ClientHandler for User {
    /// #     fn get_info(&self) -> ClientConfig {
    /// #         let caps = serde_json::from_value(self.caps.clone()).unwrap();
    /// #         ClientConfig::new(caps, Implementation::new("user", "0"))
    /// #     }
    /// #     async fn create_elicitation(&self, request: ElicitRequestParams, _: RequestContext<RoleClient>)
    /// #         -> Result<ElicitResult, ErrorData> {
    /// #         match (self.answer)(&request) {
    /// #             Some(answer) => answer,
    /// #             None => std::future::pending().await,
    /// #         }
    /// #     }
    /// #     async fn on_custom_notification(&self, note: CustomNotification, _: NotificationContext<RoleClient>) {
    /// #         let _ = self.notes.send(note.params.unwrap_or_default());
    /// #     }
    /// # }
    /// # /// A client over an in-memory pipe to a server on `hub` (behind `Edge`).
    /// # async fn connect(
    /// #     hub: &mcp_elicit_server::Elicitations,
    /// #     caps: Value,
    /// #     answer: fn(&ElicitRequestParams) -> Option<Result<ElicitResult, ErrorData>>,
    /// # ) -> Result<(RunningService<RoleClient, User>, tokio::sync::mpsc::UnboundedReceiver<Value>), Box<dyn std::error::Error>> {
    /// #     let (client_io, server_io) = tokio::io::duplex(1 << 16);
    /// #     let server = mcp_elicit_server::Edge::new(Server(hub.scope()?));
    /// #     tokio::spawn(async move {
    /// #         if let Ok(running) = server.serve(server_io).await {
    /// #             let _ = running.waiting().await;
    /// #         }
    /// #     });
    /// #     let (notes, rx) = tokio::sync::mpsc::unbounded_channel();
    /// #     Ok((User { caps, answer, notes }.serve(client_io).await?, rx))
    /// # }
    /// # fn accept(content: Value) -> Option<Result<ElicitResult, ErrorData>> {
    /// #     Some(Ok(ElicitResult::new(ElicitationAction::Accept).with_content(content)))
    /// # }
    /// # fn message(request: &ElicitRequestParams) -> &str {
    /// #     match request {
    /// #         ElicitRequestParams::FormElicitationParams { message, .. }
    /// #         | ElicitRequestParams::UrlElicitationParams { message, .. } => message,
    /// #         _ => "",
    /// #     }
    /// # }
    /// # /// A hub whose local user is alice.
    /// # fn hub() -> mcp_elicit_server::Elicitations {
    /// #     mcp_elicit_server::Elicitations::new(mcp_elicit_server::ElicitationConfig::new(
    /// #         mcp_elicit_server::IdentityPolicy::LocalUser(mcp_elicit_server::Principal::local_user("alice")),
    /// #     ))
    /// # }
    /// # fn first_text(result: &CallToolResult) -> String {
    /// #     result.content[0].as_text().map(|t| t.text.clone()).unwrap_or_default()
    /// # }
    /// async fn tool(
    ///     scope: &SessionScope,
    ///     _: &CallToolRequestParams,
    ///     ctx: &RequestContext<RoleServer>,
    /// ) -> Result<CallToolResult, ErrorData> {
    ///     let page = |id: &mcp_elicit_server::ElicitationId| {
    ///         format!("https://mcp.example.com/connect?elicitationId={id}")
    ///     };
    ///     let github = UrlElicitation::new("Connect GitHub", page)?;
    ///     let drive = UrlElicitation::new("Connect Drive", page)?;
    ///     let e = scope.elicitor(ctx)?.url_required(&[github, drive]).await;
    ///     let listed: Vec<&str> = match e.url_elicitation_required() {
    ///         Some(required) => required.elicitations().iter().map(|r| r.message.as_str()).collect(),
    ///         None => vec![e.message()],
    ///     };
    ///     Ok(text(listed.join(", ")))
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = hub();
    /// # let (client, _) = connect(&hub, json!({"elicitation": {"url": {}}}), |_| None).await?;
    /// let result = client.call_tool(CallToolRequestParams::new("connect")).await?;
    /// assert_eq!(first_text(&result), "Connect GitHub, Connect Drive");
    /// assert_eq!(hub.pending_count().await?, 2);
    /// # Ok(())
    /// # }
    /// ```
    pub fn url_elicitation_required(&self) -> Option<&UrlElicitationRequired> {
        match self.detail.as_ref() {
            Detail::Required(r) => Some(r),
            _ => None,
        }
    }

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
