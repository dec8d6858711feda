//! [`Elicitor`]: the elicitation API a tool, prompt or resource handler calls.

mod form;
mod outcome;
mod send;
mod url;
mod url_elicitation;

use std::time::Duration;

use mcp_elicit_core::message::{Capability, Mode};
use rmcp::model::ProtocolVersion;
use rmcp::service::RequestContext;
use rmcp::{Peer, RoleServer};
use tokio_util::sync::CancellationToken;

use crate::hub::Elicitations;
use crate::identity::{Principal, SessionKey};

pub(crate) use form::reask_message;
pub use outcome::{FormOutcome, UrlOutcome};
pub use url_elicitation::UrlElicitation;

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
}

/// `now + ttl`, saturating instead of panicking on absurd configured durations.
fn deadline(now: std::time::SystemTime, ttl: Duration) -> std::time::SystemTime {
    now.checked_add(ttl)
        .or_else(|| now.checked_add(Duration::from_secs(100 * 365 * 24 * 3600)))
        .unwrap_or(now)
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
