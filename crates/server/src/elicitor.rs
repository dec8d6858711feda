//! [`Elicitor`]: the elicitation API a tool, prompt or resource handler calls.

use std::time::Duration;

use mcp_elicit_core::lifecycle::{Event, State};
use mcp_elicit_core::message::Capability;
use mcp_elicit_core::message::{
    Action, CreateResult, FormRequest, METHOD_CREATE, Mode, URL_ELICITATION_REQUIRED_MESSAGE,
    UrlElicitationRequired, UrlRequest,
};
use mcp_elicit_core::schema::Schema;
use mcp_elicit_core::validate::{Violations, validate};
use rmcp::model::{CustomRequest, ProtocolVersion, ServerRequest};
use rmcp::service::{PeerRequestOptions, RequestContext};
use rmcp::{Peer, RoleServer, ServiceError};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use crate::checks;
use crate::error::{Error, ErrorKind};
use crate::hub::{Elicitations, PendingGuard};
use crate::id::ElicitationId;
use crate::identity::{Principal, SessionKey};
use crate::store::PendingElicitation;

/// The answer to a form: exactly the specification's three actions (`accept`,
/// `decline`, `cancel`), so a `match` needs no `_` arm.
///
/// ```
/// use mcp_elicit_server::FormOutcome;
///
/// fn say(outcome: FormOutcome<String>) -> String {
///     match outcome {
///         FormOutcome::Accepted(name) => format!("hello {name}"),
///         FormOutcome::Declined => "you said no".into(),
///         FormOutcome::Cancelled => "maybe later".into(),
///     }
/// }
/// assert_eq!(say(FormOutcome::Declined), "you said no");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum FormOutcome<T> {
    /// The user submitted content that satisfies the schema.
    Accepted(T),
    /// The user explicitly declined.
    Declined,
    /// The user dismissed the form without choosing.
    Cancelled,
}

impl<T> FormOutcome<T> {
    /// The wire action of this outcome.
    ///
    /// ```
    /// use mcp_elicit_server::{Action, FormOutcome};
    ///
    /// assert_eq!(FormOutcome::Accepted(4).action(), Action::Accept);
    /// assert_eq!(FormOutcome::<u8>::Declined.action().as_str(), "decline");
    /// assert_eq!(FormOutcome::<u8>::Cancelled.action(), Action::Cancel);
    /// ```
    pub fn action(&self) -> Action {
        match self {
            Self::Accepted(_) => Action::Accept,
            Self::Declined => Action::Decline,
            Self::Cancelled => Action::Cancel,
        }
    }

    /// The accepted content, or the user's decline / cancel as a user-driven error
    /// ([`ErrorKind::UserDeclined`], [`ErrorKind::UserCancelled`]) to return with `?`:
    /// [`respond_tool`](crate::respond_tool) answers it as a tool result telling the
    /// model what the user did.
    ///
    /// ```
    /// use mcp_elicit_server::{ErrorKind, FormOutcome};
    ///
    /// assert_eq!(FormOutcome::Accepted(3).accepted().ok(), Some(3));
    /// let declined = FormOutcome::<u8>::Declined.accepted().unwrap_err();
    /// assert_eq!(declined.kind(), ErrorKind::UserDeclined);
    /// assert!(declined.is_user_driven());
    /// ```
    pub fn accepted(self) -> Result<T, Error> {
        match self {
            Self::Accepted(content) => Ok(content),
            Self::Declined => Err(Error::new(
                ErrorKind::UserDeclined,
                "the user declined to answer",
            )),
            Self::Cancelled => Err(Error::new(
                ErrorKind::UserCancelled,
                "the user dismissed the request without answering",
            )),
        }
    }

    /// The accepted content, or `None` when the user declined or dismissed the form
    /// (like `Result::ok`), for a tool that answers both the same way.
    ///
    /// ```
    /// use mcp_elicit_server::FormOutcome;
    ///
    /// assert_eq!(FormOutcome::Accepted(3).ok(), Some(3));
    /// assert_eq!(FormOutcome::<u8>::Declined.ok(), None);
    /// assert_eq!(FormOutcome::<u8>::Cancelled.ok(), None);
    /// ```
    pub fn ok(self) -> Option<T> {
        match self {
            Self::Accepted(content) => Some(content),
            Self::Declined | Self::Cancelled => None,
        }
    }
}

/// The answer to a URL-mode elicitation.
///
/// ```
/// use mcp_elicit_server::UrlOutcome;
///
/// fn say(outcome: UrlOutcome) -> &'static str {
///     match outcome {
///         // Consent only: the page is not finished yet. Wait for the completion.
///         UrlOutcome::Accepted => "waiting for the page",
///         UrlOutcome::Completed => "connected",
///         UrlOutcome::Declined | UrlOutcome::Cancelled => "not connected",
///         _ => "not connected", // non-exhaustive
///     }
/// }
/// assert_eq!(say(UrlOutcome::Accepted), "waiting for the page");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum UrlOutcome {
    /// The user consented to open the URL. This is consent, not completion: the
    /// elicitation stays pending until [`Elicitations::complete`] (or it expires).
    Accepted,
    /// The user declined to open it.
    Declined,
    /// The user dismissed the request.
    Cancelled,
    /// 2026-07-28 only ([`Ask::url`](crate::Ask::url)): the out-of-band page was
    /// finished by the same user, and this retry is the one that learns of it.
    Completed,
}

/// One URL-mode elicitation to send or to list in a `-32042` error.
///
/// Nothing is checked when it is built; the server URL policy applies when it is sent (or
/// listed in a -32042 error):
///
/// ```
/// use mcp_elicit_server::UrlElicitation;
///
/// let e = UrlElicitation::new("Connect your calendar", |id| {
///     format!("https://mcp.example.com/connect?elicitationId={id}")
/// })?;
/// assert_eq!(e.message(), "Connect your calendar");
/// assert_eq!(e.url(), format!("https://mcp.example.com/connect?elicitationId={}", e.id()));
/// assert!(e.app_data().is_none());
/// # Ok::<(), mcp_elicit_server::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct UrlElicitation {
    id: ElicitationId,
    message: String,
    url: String,
    app_data: Option<Value>,
}

impl UrlElicitation {
    /// An elicitation with a fresh id whose URL is built from it (so the page behind the
    /// URL can find the elicitation, e.g. `https://mcp.example.com/connect?elicitationId={id}`).
    ///
    /// Every elicitation gets a fresh, unguessable id:
    ///
    /// ```
    /// use mcp_elicit_server::UrlElicitation;
    ///
    /// let page = |id: &mcp_elicit_server::ElicitationId| format!("https://mcp.example.com/pay?elicitationId={id}");
    /// let a = UrlElicitation::new("Confirm the payment", page)?;
    /// let b = UrlElicitation::new("Confirm the payment", page)?;
    /// assert_ne!(a.id(), b.id());
    /// assert_ne!(a.url(), b.url());
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn new(
        message: impl Into<String>,
        url: impl FnOnce(&ElicitationId) -> String,
    ) -> Result<Self, Error> {
        let id = ElicitationId::generate()?;
        let url = url(&id);
        Ok(Self {
            id,
            message: message.into(),
            url,
            app_data: None,
        })
    }

    /// Attaches the application's own data (what the page is for, the provider to
    /// connect, the order to pay...): stored with the pending elicitation in every store
    /// ([`PendingElicitation::app_data`]), so the page and
    /// [`Elicitations::complete_with`]'s bookkeeping read it from the record instead of
    /// from the URL or the browser. Never sent to the client. Keep it small and
    /// non-secret (stores keep it as plain JSON). Default: none.
    ///
    /// ```
    /// use mcp_elicit_server::UrlElicitation;
    ///
    /// let e = UrlElicitation::new("Connect your calendar", |id| {
    ///     format!("https://mcp.example.com/connect?elicitationId={id}")
    /// })?
    /// .with_app_data(serde_json::json!({"provider": "calendar"}));
    /// assert_eq!(e.app_data().and_then(|d| d.get("provider")), Some(&"calendar".into()));
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn with_app_data(mut self, data: Value) -> Self {
        self.app_data = Some(data);
        self
    }

    /// The application's data ([`UrlElicitation::with_app_data`]).
    ///
    /// ```
    /// use mcp_elicit_server::UrlElicitation;
    ///
    /// let plain = UrlElicitation::new("Connect", |id| format!("https://mcp.example.com/c?elicitationId={id}"))?;
    /// assert_eq!(plain.app_data(), None); // none unless attached
    /// let tagged = plain.with_app_data(serde_json::json!({"provider": "github"}));
    /// assert_eq!(tagged.app_data().unwrap()["provider"], "github");
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn app_data(&self) -> Option<&Value> {
        self.app_data.as_ref()
    }

    /// The id.
    ///
    /// The `elicitationId` the client gets, and the key of the pending record:
    ///
    /// ```
    /// use mcp_elicit_server::UrlElicitation;
    ///
    /// let e = UrlElicitation::new("Connect", |id| format!("https://mcp.example.com/c?elicitationId={id}"))?;
    /// assert!(e.url().ends_with(e.id().as_str()));
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn id(&self) -> &ElicitationId {
        &self.id
    }

    /// The message.
    ///
    /// ```
    /// use mcp_elicit_server::UrlElicitation;
    ///
    /// let e = UrlElicitation::new("Link your calendar", |id| format!("https://mcp.example.com/c?elicitationId={id}"))?;
    /// assert_eq!(e.message(), "Link your calendar");
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The URL as given (checked when sent).
    ///
    /// ```
    /// use mcp_elicit_server::UrlElicitation;
    ///
    /// // Not checked here: a plain-http URL on a public host is refused only when sent.
    /// let e = UrlElicitation::new("Connect", |id| format!("http://example.com/c?elicitationId={id}"))?;
    /// assert!(e.url().starts_with("http://example.com/"));
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn url(&self) -> &str {
        &self.url
    }
}

/// The elicitation API for one request, bound to its user, its session and the client
/// connection. Build it with [`SessionScope::elicitor`](crate::SessionScope::elicitor).
///
/// Every method checks before sending anything: the protocol revision, the client's
/// declared modes, the schema (subset and secret-field lint) or the URL (server policy).
/// Every wait ends: on the answer, on the timeout, when the tool call is cancelled, or
/// when the client disconnects; no pending state is left behind except an accepted
/// URL-mode elicitation waiting for its completion.
///
/// A tool asking a typed form, run against an rmcp client over an in-memory pipe (hidden)
/// whose user answers 4:
///
/// ```
/// use mcp_elicit_server::{FormOutcome, Mode, SessionScope, text};
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
///     /// How many people?
///     size: u8,
/// }
///
/// async fn tool(
///     scope: &SessionScope,
///     _: &CallToolRequestParams,
///     ctx: &RequestContext<RoleServer>,
/// ) -> Result<CallToolResult, ErrorData> {
///     let elicitor = scope.elicitor(ctx)?;
///     // Who asks, on which session, and what the client can do: known before sending.
///     let who = format!(
///         "{} on {} (form {}, url {})",
///         elicitor.principal().subject(),
///         if elicitor.session().as_str().starts_with("connection:") { "this connection" } else { "?" },
///         elicitor.supports(Mode::Form),
///         elicitor.capability().supports(Mode::Url),
///     );
///     Ok(match elicitor.form::<Party>("Table for how many?").await? {
///         FormOutcome::Accepted(party) => text(format!("{who}: table for {}", party.size)),
///         FormOutcome::Declined | FormOutcome::Cancelled => text(format!("{who}: no table")),
///     })
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let hub = hub();
/// # let (client, _) = connect(&hub, json!({"elicitation": {"form": {}}}), |_| accept(json!({"size": 4}))).await?;
/// let result = client.call_tool(CallToolRequestParams::new("book")).await?;
/// assert_eq!(
///     first_text(&result),
///     "alice on this connection (form true, url false): table for 4"
/// );
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct Elicitor {
    hub: Elicitations,
    peer: Peer<RoleServer>,
    /// The lean session layer's way to the client past this handler, if served on it.
    outlet: Option<crate::lean_sessions::SessionOutlet>,
    ct: CancellationToken,
    principal: Principal,
    session: SessionKey,
    capability: Capability,
    protocol: Option<ProtocolVersion>,
    form_timeout: Duration,
    url_consent_timeout: Duration,
    max_attempts: u32,
}

impl Elicitor {
    pub(crate) fn new(
        hub: Elicitations,
        ctx: &RequestContext<RoleServer>,
        principal: Principal,
        session: SessionKey,
        capability: Capability,
    ) -> Self {
        let config = hub.config().clone();
        Self {
            hub,
            peer: ctx.peer.clone(),
            outlet: ctx
                .extensions
                .get::<crate::lean_sessions::SessionOutlet>()
                .cloned(),
            ct: ctx.ct.clone(),
            principal,
            session,
            capability,
            protocol: ctx.protocol_version(),
            form_timeout: config.form_timeout,
            url_consent_timeout: config.url_consent_timeout,
            max_attempts: config.max_attempts.max(1),
        }
    }

    pub(crate) fn hub(&self) -> &Elicitations {
        &self.hub
    }

    pub(crate) fn form_timeout(&self) -> Duration {
        self.form_timeout
    }

    /// Stores a 2026-07-28 URL elicitation (checked by the server URL policy first),
    /// bound to the user; it waits for its page, then for the client's retry.
    pub(crate) async fn register_round_url(
        &self,
        elicitation: &UrlElicitation,
    ) -> Result<(), Error> {
        let request = self.checked_request(elicitation)?;
        let mut record = self.url_record(&request, elicitation.app_data.clone());
        record.session = SessionKey::rounds();
        self.hub.insert_round(record).await
    }

    /// What to tell the user (in a tool result) when the client cannot do URL mode:
    /// the step needs a page the client cannot open, so they need a client that
    /// supports URL-mode elicitation. The text carries **no URL**: a tool result goes
    /// to the model, and a capability URL there could be read, repeated or sent
    /// elsewhere by it (the specification keeps URL-mode URLs away from the model: the
    /// client shows them to the user only, after consent). Nothing is stored.
    pub fn url_unsupported(&self, message: &str) -> String {
        url_unsupported_text(message)
    }

    /// The user this request belongs to.
    pub fn principal(&self) -> &Principal {
        &self.principal
    }

    /// The session this request came on.
    pub fn session(&self) -> &SessionKey {
        &self.session
    }

    /// The modes the client declared.
    pub fn capability(&self) -> Capability {
        self.capability
    }

    /// Whether the client declared `mode`.
    pub fn supports(&self, mode: Mode) -> bool {
        self.capability.supports(mode)
    }

    /// Overrides the timeouts for this request.
    ///
    /// Here against a client whose user never answers (hidden: an rmcp client over an
    /// in-memory pipe):
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_elicit_server::{ErrorKind, SessionScope, text};
    /// # use std::sync::atomic::{AtomicUsize, Ordering};
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
    ///     let elicitor = scope.elicitor(ctx)?.with_timeout(Duration::from_millis(50));
    ///     match elicitor.form::<Party>("Table for how many?").await {
    ///         Err(e) if e.kind() == ErrorKind::Timeout && e.is_user_driven() => {
    ///             Ok(text("no answer in time; the request was cancelled"))
    ///         }
    ///         other => Ok(text(format!("unexpected: {:?}", other.map(|o| o.ok().map(|p| p.size))))),
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = hub();
    /// # let (client, _) = connect(&hub, json!({"elicitation": {"form": {}}}), |_| None).await?;
    /// let result = client.call_tool(CallToolRequestParams::new("book")).await?;
    /// assert_eq!(first_text(&result), "no answer in time; the request was cancelled");
    /// assert_eq!(hub.pending_count().await?, 0); // nothing left behind
    /// # Ok(())
    /// # }
    /// ```
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.form_timeout = timeout;
        self.url_consent_timeout = timeout;
        self
    }

    /// Overrides how many times a form is asked when the answer breaks the schema
    /// (1 = no re-ask).
    ///
    /// With one attempt, an answer breaking the schema is an error at once, without asking
    /// again (hidden: an rmcp client over an in-memory pipe whose user answers 20):
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
    /// struct Party {
    ///     #[schemars(range(min = 1, max = 12))]
    ///     size: u8,
    /// }
    ///
    /// async fn tool(
    ///     scope: &SessionScope,
    ///     _: &CallToolRequestParams,
    ///     ctx: &RequestContext<RoleServer>,
    /// ) -> Result<CallToolResult, ErrorData> {
    ///     let elicitor = scope.elicitor(ctx)?.with_max_attempts(1);
    ///     match elicitor.form::<Party>("Table for how many?").await {
    ///         Err(e) if e.kind() == ErrorKind::InvalidContent => Ok(text("refused, not asked again")),
    ///         _ => Ok(text("unexpected")),
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = hub();
    /// # let (client, _) = connect(&hub, json!({"elicitation": {"form": {}}}), |_| {
    /// #     ASKED.fetch_add(1, Ordering::SeqCst);
    /// #     accept(json!({"size": 20}))
    /// # }).await?;
    /// let result = client.call_tool(CallToolRequestParams::new("book")).await?;
    /// assert_eq!(first_text(&result), "refused, not asked again");
    /// assert_eq!(ASKED.load(Ordering::SeqCst), 1);
    /// # Ok(())
    /// # }
    /// ```
    pub fn with_max_attempts(mut self, attempts: u32) -> Self {
        self.max_attempts = attempts.max(1);
        self
    }

    /// Asks for a form whose schema comes from the Rust type `T` and returns a `T`.
    ///
    /// The schema is derived with `schemars` and must fit the restricted subset; the
    /// answer is validated against it, then deserialized.
    ///
    /// The user answers, or declines (hidden: an rmcp client over an in-memory pipe whose user
    /// gives a name and declines the newsletter):
    ///
    /// ```
    /// use mcp_elicit_server::{FormOutcome, SessionScope, text};
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
    ///     /// Your name
    ///     name: String,
    /// }
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Newsletter {
    ///     /// Send me the newsletter
    ///     subscribe: bool,
    /// }
    ///
    /// async fn tool(
    ///     scope: &SessionScope,
    ///     _: &CallToolRequestParams,
    ///     ctx: &RequestContext<RoleServer>,
    /// ) -> Result<CallToolResult, ErrorData> {
    ///     let elicitor = scope.elicitor(ctx)?;
    ///     let name = match elicitor.form::<Contact>("Who are you?").await? {
    ///         FormOutcome::Accepted(contact) => contact.name,
    ///         FormOutcome::Declined | FormOutcome::Cancelled => return Ok(text("anonymous")),
    ///     };
    ///     // A decline is an outcome, not an error.
    ///     let subscribed = elicitor.form::<Newsletter>("Newsletter?").await?.ok().is_some_and(|n| n.subscribe);
    ///     Ok(text(format!("{name}, newsletter: {subscribed}")))
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = hub();
    /// # let (client, _) = connect(&hub, json!({"elicitation": {"form": {}}}), |request| {
    /// #     match message(request) {
    /// #         "Who are you?" => accept(json!({"name": "Ada"})),
    /// #         _ => Some(Ok(ElicitResult::new(ElicitationAction::Decline))),
    /// #     }
    /// # }).await?;
    /// let result = client.call_tool(CallToolRequestParams::new("signup")).await?;
    /// assert_eq!(first_text(&result), "Ada, newsletter: false");
    /// # Ok(())
    /// # }
    /// ```
    pub async fn form<T>(&self, message: impl Into<String>) -> Result<FormOutcome<T>, Error>
    where
        T: schemars::JsonSchema + DeserializeOwned,
    {
        let schema = checks::schema_of::<T>()?;
        match self.form_with_schema(message, &schema).await? {
            FormOutcome::Accepted(content) => {
                let value = Value::Object(content);
                serde_json::from_value(value)
                    .map(FormOutcome::Accepted)
                    .map_err(|e| {
                        Error::new(
                            ErrorKind::Deserialize,
                            format!(
                                "the answer does not fit {}: {e}",
                                std::any::type_name::<T>()
                            ),
                        )
                    })
            }
            FormOutcome::Declined => Ok(FormOutcome::Declined),
            FormOutcome::Cancelled => Ok(FormOutcome::Cancelled),
        }
    }

    /// Asks for a form with `schema` and returns the validated content.
    ///
    /// Refused before sending ([`ErrorKind::SecretField`]) when the secret-field lint flags
    /// the schema, and ([`ErrorKind::ModeNotSupported`]) when the client did not declare
    /// form mode. An answer that breaks the schema is asked up to
    /// [`ElicitationConfig::max_attempts`](crate::ElicitationConfig::max_attempts) times
    /// (default 2: one re-ask; [`with_max_attempts`](Elicitor::with_max_attempts) for this
    /// request), each re-ask with the
    /// message followed by the list of problems; after the last attempt it is an
    /// [`ErrorKind::InvalidContent`] error listing every violation.
    ///
    /// The user keeps answering outside the schema: asked once more with the rule named, then
    /// refused with -32602 listing the violations (hidden: an rmcp client over an in-memory
    /// pipe whose user always answers 20):
    ///
    /// ```
    /// use mcp_elicit_server::{Schema, SessionScope};
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
    /// static SEEN: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    ///
    /// async fn tool(
    ///     scope: &SessionScope,
    ///     _: &CallToolRequestParams,
    ///     ctx: &RequestContext<RoleServer>,
    /// ) -> Result<CallToolResult, ErrorData> {
    ///     let schema = Schema::parse(&json!({
    ///         "type": "object",
    ///         "properties": {"size": {"type": "integer", "minimum": 1, "maximum": 12}},
    ///         "required": ["size"]
    ///     }))
    ///     .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
    ///     let content = scope.elicitor(ctx)?.form_with_schema("Table for how many?", &schema).await?;
    ///     Ok(mcp_elicit_server::text(format!("{content:?}")))
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = hub();
    /// # let (client, _) = connect(&hub, json!({"elicitation": {"form": {}}}), |request| {
    /// #     SEEN.lock().unwrap().push(message(request).to_owned());
    /// #     accept(json!({"size": 20}))
    /// # }).await?;
    /// let Err(ServiceError::McpError(e)) = client.call_tool(CallToolRequestParams::new("book")).await
    /// else {
    ///     panic!("expected a JSON-RPC error");
    /// };
    /// assert_eq!(e.code.0, -32602);
    /// let data = e.data.unwrap();
    /// assert_eq!(data["kind"], "invalid_content");
    /// assert_eq!(data["violations"][0]["property"], "size");
    /// assert_eq!(data["violations"][0]["code"], "maximum");
    /// let seen = SEEN.lock().unwrap();
    /// assert_eq!(seen.len(), 2); // the default: one re-ask
    /// assert!(seen[1].starts_with("Table for how many?") && seen[1].contains("not accepted"));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn form_with_schema(
        &self,
        message: impl Into<String>,
        schema: &Schema,
    ) -> Result<FormOutcome<Map<String, Value>>, Error> {
        let message = message.into();
        self.check_protocol()?;
        self.require(Mode::Form)?;
        let findings = checks::lint(schema, &self.hub.config().reviewed_not_secret);
        if !findings.is_empty() {
            return Err(Error::secret(findings));
        }
        let id = ElicitationId::generate()?;
        let now = self.hub.inner.clock.now();
        let record = PendingElicitation {
            id: id.as_str().to_owned(),
            principal: self.principal.clone(),
            session: self.session.clone(),
            mode: Mode::Form,
            state: State::Pending,
            message: message.clone(),
            url: None,
            created_at: now,
            expires_at: deadline(now, self.form_timeout.saturating_mul(self.max_attempts)),
            app_data: None,
        };
        let guard = self
            .hub
            .register(record, self.peer.clone(), self.outlet.clone())
            .await?;
        let result = self.form_rounds(&message, schema).await;
        guard.forget().await;
        result
    }

    async fn form_rounds(
        &self,
        message: &str,
        schema: &Schema,
    ) -> Result<FormOutcome<Map<String, Value>>, Error> {
        let mut text = message.to_owned();
        let mut attempt = 1;
        loop {
            let params = FormRequest::new(text.clone(), schema.clone()).to_value();
            let reply = self.send(params, self.form_timeout).await?;
            reply.check_for(Mode::Form).map_err(|e| {
                Error::new(
                    ErrorKind::MalformedReply,
                    format!("the client's answer is malformed: {e}"),
                )
            })?;
            match reply.action {
                Action::Decline => return Ok(FormOutcome::Declined),
                Action::Cancel => return Ok(FormOutcome::Cancelled),
                Action::Accept => {
                    let content = reply.content.unwrap_or_default();
                    match validate(schema, &Value::Object(content.clone())) {
                        Ok(()) => return Ok(FormOutcome::Accepted(content)),
                        Err(violations) if attempt < self.max_attempts => {
                            attempt += 1;
                            text = reask_message(message, &violations);
                        }
                        Err(violations) => return Err(Error::invalid_content(violations)),
                    }
                }
            }
        }
    }

    /// Sends a URL-mode elicitation and returns the user's consent answer.
    ///
    /// Refused before sending when the client did not declare URL mode (see
    /// [`Elicitor::url_fallback`] for what to do then) or when the server URL policy
    /// refuses the URL (https only outside loopback, no userinfo, no credential-like
    /// parameters). The elicitation is recorded as pending, bound to the user and the
    /// session, before the request is sent; an accept leaves it pending until
    /// [`Elicitations::complete`]; a decline, a cancel, a timeout, a cancelled call or a
    /// disconnect removes it.
    ///
    /// Consent is not completion: an accepted URL stays pending for its page; a declined one is
    /// gone (hidden: an rmcp client over an in-memory pipe with URL mode, whose user accepts
    /// the calendar and declines the payment):
    ///
    /// ```
    /// use mcp_elicit_server::{SessionScope, UrlElicitation, UrlOutcome, text};
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
    ///     request: &CallToolRequestParams,
    ///     ctx: &RequestContext<RoleServer>,
    /// ) -> Result<CallToolResult, ErrorData> {
    ///     let message = if request.name == "calendar" { "Link your calendar" } else { "Confirm the payment" };
    ///     let elicitation = UrlElicitation::new(message, |id| {
    ///         format!("https://mcp.example.com/page?elicitationId={id}")
    ///     })?;
    ///     Ok(match scope.elicitor(ctx)?.url(&elicitation).await? {
    ///         UrlOutcome::Accepted => text(format!("open the page; waiting for {}", elicitation.id())),
    ///         UrlOutcome::Declined => text("declined"),
    ///         _ => text("dismissed"),
    ///     })
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = hub();
    /// # let alice = mcp_elicit_server::Principal::local_user("alice");
    /// # let (client, _) = connect(&hub, json!({"elicitation": {"url": {}}}), |request| {
    /// #     let action = if message(request) == "Link your calendar" {
    /// #         ElicitationAction::Accept
    /// #     } else {
    /// #         ElicitationAction::Decline
    /// #     };
    /// #     Some(Ok(ElicitResult::new(action)))
    /// # }).await?;
    /// let linked = client.call_tool(CallToolRequestParams::new("calendar")).await?;
    /// assert!(first_text(&linked).starts_with("open the page; waiting for "));
    /// let pay = client.call_tool(CallToolRequestParams::new("pay")).await?;
    /// assert_eq!(first_text(&pay), "declined");
    ///
    /// // Only the accepted one waits for its page, bound to alice.
    /// let pending = hub.pending(&alice).await?;
    /// assert_eq!(pending.len(), 1);
    /// assert_eq!(pending[0].message, "Link your calendar");
    /// assert!(first_text(&linked).ends_with(&pending[0].id));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn url(&self, elicitation: &UrlElicitation) -> Result<UrlOutcome, Error> {
        self.check_protocol()?;
        self.require(Mode::Url)?;
        let request = self.checked_request(elicitation)?;
        let guard = self
            .hub
            .register(
                self.url_record(&request, elicitation.app_data.clone()),
                self.peer.clone(),
                self.outlet.clone(),
            )
            .await?;
        let id = request.elicitation_id.clone();
        let reply = match self
            .send(request.to_value(), self.url_consent_timeout)
            .await
        {
            Ok(reply) => reply,
            Err(e) => {
                guard.forget().await;
                return Err(e);
            }
        };
        if let Err(e) = reply.check_for(Mode::Url) {
            guard.forget().await;
            return Err(Error::new(
                ErrorKind::MalformedReply,
                format!("the client's answer is malformed: {e}"),
            ));
        }
        match reply.action {
            Action::Accept => {
                guard.keep();
                // The page may already have completed it (a fast user): that is fine.
                if let Err(e) = self
                    .hub
                    .transition(&self.principal, &id, Event::Accept)
                    .await
                {
                    tracing::debug!(elicitation_id = %id, error = %e, "accept after the elicitation finished");
                }
                Ok(UrlOutcome::Accepted)
            }
            Action::Decline => {
                guard.forget().await;
                Ok(UrlOutcome::Declined)
            }
            Action::Cancel => {
                guard.forget().await;
                Ok(UrlOutcome::Cancelled)
            }
        }
    }

    /// Builds the `-32042` `URLElicitationRequiredError` for `elicitations` (the only way
    /// this crate makes one) and records each as pending, bound to the user and session,
    /// so that [`Elicitations::complete`] later notifies this client.
    ///
    /// Always returns an [`Error`]: of kind [`ErrorKind::UrlElicitationRequired`] when
    /// everything checked out (return it from the tool: it maps to code -32042 with
    /// `data: {"elicitations": [...]}`), or the reason it could not be built (client
    /// without URL mode, refused URL, empty list...).
    ///
    /// A client with URL mode gets -32042 listing the page; one without gets the reason
    /// instead, and nothing is stored (hidden: rmcp clients over in-memory pipes):
    ///
    /// ```
    /// use mcp_elicit_server::{SessionScope, UrlElicitation};
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
    ///     let elicitation = UrlElicitation::new("Authorize access to your files", |id| {
    ///         format!("https://mcp.example.com/connect?elicitationId={id}")
    ///     })?;
    ///     // Always an error: -32042 when it could be built, else the reason.
    ///     Err(scope.elicitor(ctx)?.url_required(&[elicitation]).await.into())
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = hub();
    /// # let (with_url, _) = connect(&hub, json!({"elicitation": {"url": {}}}), |_| None).await?;
    /// # let (forms_only, _) = connect(&hub, json!({"elicitation": {"form": {}}}), |_| None).await?;
    /// let call = || CallToolRequestParams::new("files");
    /// let Err(ServiceError::McpError(e)) = with_url.call_tool(call()).await else { panic!() };
    /// assert_eq!(e.code.0, -32042);
    /// let listed = &e.data.as_ref().unwrap()["elicitations"][0];
    /// let id = listed["elicitationId"].as_str().unwrap();
    /// assert_eq!(listed["url"], format!("https://mcp.example.com/connect?elicitationId={id}"));
    /// assert_eq!(listed["mode"], "url");
    /// assert_eq!(hub.pending_count().await?, 1); // recorded, bound to the user and session
    ///
    /// let Err(ServiceError::McpError(e)) = forms_only.call_tool(call()).await else { panic!() };
    /// assert_eq!((e.code.0, e.data.unwrap()["kind"].clone()), (-32602, json!("mode_not_supported")));
    /// assert_eq!(hub.pending_count().await?, 1);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn url_required(&self, elicitations: &[UrlElicitation]) -> Error {
        match self.try_url_required(elicitations).await {
            Ok(e) | Err(e) => e,
        }
    }

    async fn try_url_required(&self, elicitations: &[UrlElicitation]) -> Result<Error, Error> {
        self.require(Mode::Url)?;
        let requests = elicitations
            .iter()
            .map(|e| self.checked_request(e))
            .collect::<Result<Vec<_>, _>>()?;
        let required = UrlElicitationRequired::new(requests.clone()).map_err(|e| {
            Error::new(
                ErrorKind::InvalidUrl,
                format!("cannot build the -32042 error: {e}"),
            )
        })?;
        let mut guards = Vec::with_capacity(requests.len());
        for (request, elicitation) in requests.iter().zip(elicitations) {
            match self
                .hub
                .register(
                    self.url_record(request, elicitation.app_data.clone()),
                    self.peer.clone(),
                    self.outlet.clone(),
                )
                .await
            {
                Ok(guard) => guards.push(guard),
                Err(e) => {
                    for guard in guards {
                        guard.forget().await;
                    }
                    return Err(e);
                }
            }
        }
        guards.into_iter().for_each(PendingGuard::keep);
        Ok(Error::required(
            required,
            URL_ELICITATION_REQUIRED_MESSAGE.to_owned(),
        ))
    }

    /// What to tell the user when the client cannot do URL mode, for `elicitation`
    /// (checked like [`Elicitor::url`]): [`Elicitor::url_unsupported`] for its message.
    /// The URL is **not** in the text and nothing is stored (nobody could reach it).
    /// Never fall back to a form for secrets: form mode MUST NOT carry them.
    ///
    /// For a client without URL mode (hidden: an rmcp client over an in-memory pipe declaring
    /// form mode only):
    ///
    /// ```
    /// use mcp_elicit_server::{Mode, SessionScope, UrlElicitation, text};
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
    ///     let elicitor = scope.elicitor(ctx)?;
    ///     let elicitation = UrlElicitation::new("Enter your Stripe API key", |id| {
    ///         format!("https://mcp.example.com/secret?elicitationId={id}")
    ///     })?;
    ///     if !elicitor.supports(Mode::Url) {
    ///         // The same text as `url_unsupported`, once the elicitation passed its checks.
    ///         return Ok(text(elicitor.url_fallback(&elicitation).await?));
    ///     }
    ///     Ok(text(format!("{:?}", elicitor.url(&elicitation).await?)))
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = hub();
    /// # let (client, _) = connect(&hub, json!({"elicitation": {"form": {}}}), |_| None).await?;
    /// let result = client.call_tool(CallToolRequestParams::new("stripe")).await?;
    /// let told = first_text(&result);
    /// assert!(told.starts_with("Enter your Stripe API key"));
    /// assert!(told.contains("does not support URL-mode elicitation"));
    /// assert!(!told.contains("https://")); // the model never sees the URL
    /// assert_eq!(hub.pending_count().await?, 0);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn url_fallback(&self, elicitation: &UrlElicitation) -> Result<String, Error> {
        self.checked_request(elicitation)?;
        Ok(url_unsupported_text(elicitation.message()))
    }

    fn checked_request(&self, elicitation: &UrlElicitation) -> Result<UrlRequest, Error> {
        let url = checks::server_url(&elicitation.url, self.hub.config().allow_loopback_http)?;
        UrlRequest::new(elicitation.message.clone(), url, elicitation.id.as_str())
            .map_err(|e| Error::core(ErrorKind::InvalidUrl, "the URL elicitation is invalid", e))
    }

    fn url_record(&self, request: &UrlRequest, app_data: Option<Value>) -> PendingElicitation {
        let now = self.hub.inner.clock.now();
        PendingElicitation {
            id: request.elicitation_id.clone(),
            principal: self.principal.clone(),
            session: self.session.clone(),
            mode: Mode::Url,
            state: State::Pending,
            message: request.message.clone(),
            url: Some(request.url.clone()),
            created_at: now,
            expires_at: deadline(now, self.hub.config().url_ttl),
            app_data,
        }
    }

    fn check_protocol(&self) -> Result<(), Error> {
        match &self.protocol {
            Some(v) if v.as_str() >= ProtocolVersion::V_2026_07_28.as_str() => Err(Error::new(
                ErrorKind::UnsupportedProtocol,
                format!(
                    "protocol {} does not allow elicitation/create requests from the server",
                    v.as_str()
                ),
            )),
            _ => Ok(()),
        }
    }

    pub(crate) fn require(&self, mode: Mode) -> Result<(), Error> {
        if self.capability.supports(mode) {
            Ok(())
        } else {
            Err(Error::new(
                ErrorKind::ModeNotSupported,
                format!("the client did not declare {mode} mode elicitation; nothing was sent"),
            ))
        }
    }

    /// Sends `elicitation/create` with exactly `params` (as a custom request, so every
    /// schema keyword, `pattern` included, reaches the client) and waits for the answer,
    /// the timeout, the call's cancellation or the client's disconnection.
    async fn send(&self, params: Value, timeout: Duration) -> Result<CreateResult, Error> {
        let result = self.send_request(METHOD_CREATE, params, timeout).await?;
        parse_result(&result)
    }

    /// Sends the 2025-11-25 server request `method` with exactly `params` (sampling,
    /// roots) and returns the client's result as JSON.
    pub(crate) async fn send_raw(
        &self,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> Result<Value, Error> {
        let result = self.send_request(method, params, timeout).await?;
        serde_json::to_value(&result).map_err(|e| {
            Error::new(
                ErrorKind::MalformedReply,
                format!("the client's answer is not JSON: {e}"),
            )
        })
    }

    async fn send_request(
        &self,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> Result<rmcp::model::ClientResult, Error> {
        self.check_protocol()?;
        let request =
            ServerRequest::CustomRequest(CustomRequest::new(method.to_owned(), Some(params)));
        let mut handle = self
            .peer
            .send_request_with_option(request, PeerRequestOptions::no_options())
            .await
            .map_err(service_error)?;
        enum Ended {
            Answer(
                Result<
                    Result<rmcp::model::ClientResult, ServiceError>,
                    tokio::sync::oneshot::error::RecvError,
                >,
            ),
            Cancelled,
            Timeout,
        }
        let ended = tokio::select! {
            answer = &mut handle.rx => Ended::Answer(answer),
            () = self.ct.cancelled() => Ended::Cancelled,
            () = tokio::time::sleep(timeout) => Ended::Timeout,
        };
        match ended {
            Ended::Answer(Ok(Ok(result))) => Ok(result),
            Ended::Answer(Ok(Err(e))) => Err(service_error(e)),
            Ended::Answer(Err(_)) => Err(disconnected()),
            Ended::Cancelled => {
                let _ = handle
                    .cancel(Some("the tool call was cancelled".to_owned()))
                    .await;
                Err(Error::new(
                    ErrorKind::Cancelled,
                    "the tool call was cancelled; the elicitation was abandoned",
                ))
            }
            Ended::Timeout => {
                let _ = handle
                    .cancel(Some("elicitation timed out".to_owned()))
                    .await;
                Err(Error::new(
                    ErrorKind::Timeout,
                    format!(
                        "no answer within {} s; the request was cancelled",
                        timeout.as_secs()
                    ),
                ))
            }
        }
    }
}

/// `now + ttl`, saturating instead of panicking on absurd configured durations.
fn deadline(now: std::time::SystemTime, ttl: Duration) -> std::time::SystemTime {
    now.checked_add(ttl)
        .or_else(|| now.checked_add(Duration::from_secs(100 * 365 * 24 * 3600)))
        .unwrap_or(now)
}

fn disconnected() -> Error {
    Error::new(
        ErrorKind::Disconnected,
        "the client disconnected before answering",
    )
}

fn service_error(e: ServiceError) -> Error {
    match e {
        ServiceError::McpError(data) => Error::client(data),
        ServiceError::TransportClosed | ServiceError::TransportSend(_) => disconnected(),
        ServiceError::Timeout { timeout } => Error::new(
            ErrorKind::Timeout,
            format!("no answer within {} s", timeout.as_secs()),
        ),
        ServiceError::Cancelled { reason } => Error::new(
            ErrorKind::Cancelled,
            format!(
                "the request was cancelled: {}",
                reason.unwrap_or_else(|| "no reason given".into())
            ),
        ),
        other => Error::new(
            ErrorKind::MalformedReply,
            format!("unexpected answer: {other}"),
        ),
    }
}

fn parse_result(result: &rmcp::model::ClientResult) -> Result<CreateResult, Error> {
    let value = serde_json::to_value(result).map_err(|e| {
        Error::new(
            ErrorKind::MalformedReply,
            format!("the client's answer is not JSON: {e}"),
        )
    })?;
    CreateResult::parse(&value).map_err(|e| {
        Error::core(
            ErrorKind::MalformedReply,
            "the client's answer is malformed",
            e,
        )
    })
}

pub(crate) fn reask_message(message: &str, violations: &Violations) -> String {
    let mut text = format!("{message}\n\nYour previous answer was not accepted:");
    for v in violations.iter() {
        text.push_str("\n- ");
        text.push_str(v.message());
    }
    text
}

fn url_unsupported_text(message: &str) -> String {
    format!(
        "{message}\n\nThis step happens on a web page of this server, and this MCP client cannot open such \
         pages for you (it does not support URL-mode elicitation). The link is not shown here on purpose: it \
         must reach you directly, never through the conversation. To continue, connect to this server with an \
         MCP client that supports URL-mode elicitation, then run this request again. Never paste passwords, \
         API keys or card numbers into the chat."
    )
}
