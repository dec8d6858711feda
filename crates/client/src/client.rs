//! [`ElicitationClient`]: the rmcp `ClientHandler` that does elicitation properly.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use mcp_elicit_core::message::{Capability, CompleteNotification, METHOD_COMPLETE, METHOD_CREATE};
use rmcp::model::{
    ClientCapabilities, ClientConfig, CustomNotification, CustomRequest, CustomResult,
    ElicitRequestParams, ElicitResult, ElicitationCapability, ErrorData, FormElicitationCapability,
    NumberOrString, ProgressNotificationParam, ProtocolVersion, UrlElicitationCapability,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, NotificationContext, RequestContext, RunningService,
};
use rmcp::{ClientHandler, RoleClient};
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite};

use crate::config::{Config, ProtocolChoice};
use crate::identity::{ServerIdentity, TransportIdentity};
use crate::opener::UrlOpener;
use crate::rate_limit::{RateLimiter, TokioClock};
use crate::raw::RawRequests;
use crate::registry::{CompleteOutcome, CompletionRegistry};
use crate::target::ServerTarget;
use crate::text::PlainText;
use crate::transport::{http, stdio, watched::Watched};
use crate::ui::{ElicitationUi, Notice, ProgressUpdate};

/// How long [`ElicitationClient::connect`] waits for the standalone GET stream of a
/// Streamable HTTP server to open (2025-11-25 only: 2026-07-28 has no such stream). A
/// server that refuses the stream ends the wait at once; after the wait, the connection
/// is used either way.
///
/// ```
/// assert_eq!(mcp_elicit_client::STANDALONE_STREAM_WAIT, std::time::Duration::from_secs(3));
/// ```
pub const STANDALONE_STREAM_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// A connected client: rmcp's running service. [`peer()`](RunningService::peer) sends
/// requests (pass it to [`ElicitationClient::call_tool`]), [`cancel()`](RunningService::cancel)
/// closes the connection (and stops a server process started by
/// [`connect`](ElicitationClient::connect)).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use mcp_elicit_client::rmcp::{self, RoleServer, ServerHandler, ServiceExt};
/// # use rmcp::model::{
/// #     CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
/// #     ErrorData, Implementation, ServerCapabilities, ServerConfig, ServerRequest,
/// # };
/// # use rmcp::service::{RequestContext, ServiceError};
/// # // A server whose tool `ask` sends its `params` argument as `elicitation/create` (the
/// # // 2025-11-25 way) and returns the client's answer as JSON text.
/// # struct Asker;
/// # impl ServerHandler for Asker {
/// #     fn get_info(&self) -> ServerConfig {
/// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
/// #             .with_server_info(Implementation::new("asker", "1.0.0").with_title("The Asker"))
/// #     }
/// #     async fn call_tool(
/// #         &self,
/// #         call: CallToolRequestParams,
/// #         cx: RequestContext<RoleServer>,
/// #     ) -> Result<CallToolResponse, ErrorData> {
/// #         let params = call.arguments.unwrap_or_default().remove("params");
/// #         let ask = ServerRequest::CustomRequest(CustomRequest::new("elicitation/create", params));
/// #         let answer = match cx.peer.send_request(ask).await {
/// #             Ok(result) => serde_json::to_value(result).unwrap_or_default(),
/// #             Err(ServiceError::McpError(e)) => {
/// #                 serde_json::json!({"error": e.code.0, "message": e.message})
/// #             }
/// #             Err(e) => serde_json::json!({"failed": e.to_string()}),
/// #         };
/// #         Ok(CallToolResult::success(vec![ContentBlock::text(answer.to_string())]).into())
/// #     }
/// # }
/// # let (client_io, server_io) = tokio::io::duplex(1 << 16);
/// # tokio::spawn(async move {
/// #     if let Ok(running) = Asker.serve(server_io).await {
/// #         let _ = running.waiting().await;
/// #     }
/// # });
/// use mcp_elicit_client::{
///     Config, ElicitationClient, FormPolicy, ProtocolChoice, RecordingOpener, ScriptedUi,
///     TransportIdentity, UrlPolicy,
/// };
/// use mcp_elicit_core::message::Capability;
/// use mcp_elicit_client::Connection;
///
/// let ui = ScriptedUi::new(Capability::FORM, FormPolicy::Decline, UrlPolicy::Never);
/// let config = Config::default().with_protocol(ProtocolChoice::V2025_11_25);
/// let client = ElicitationClient::new(ui, RecordingOpener::default(), config);
/// let (r, w) = tokio::io::split(client_io);
/// let pipe = TransportIdentity::Other { description: "in-process".into() };
/// let connection: Connection<ScriptedUi, RecordingOpener> = client.connect_io(r, w, pipe).await?;
///
/// let info = connection.peer().peer_info().expect("the handshake is done");
/// assert_eq!(info.server_info.as_ref().map(|i| i.name.as_str()), Some("asker"));
/// connection.cancel().await?;
/// # Ok(())
/// # }
/// ```
pub type Connection<U, O> = RunningService<RoleClient, ElicitationClient<U, O>>;

/// Why connecting failed.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use mcp_elicit_client::{
///     Config, ElicitationClient, FormPolicy, ProtocolChoice, RecordingOpener, ScriptedUi,
///     TransportIdentity, UrlPolicy,
/// };
/// use mcp_elicit_core::message::Capability;
/// use mcp_elicit_client::{ConnectError, ServerTarget};
///
/// let ui = ScriptedUi::new(Capability::FORM, FormPolicy::Decline, UrlPolicy::Never);
/// let client = ElicitationClient::new(ui, RecordingOpener::default(), Config::default());
/// let target: ServerTarget = "stdio:/nonexistent/mcp-server --verbose".parse()?;
/// let Err(error) = client.connect(&target).await else { panic!("connected") };
/// assert!(matches!(error, ConnectError::Spawn(_)));
/// assert!(
///     error.to_string().starts_with("cannot start the server: cannot start \"/nonexistent/mcp-server\""),
///     "{error}"
/// );
/// # Ok(())
/// # }
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConnectError {
    /// The server process could not be started.
    #[error("cannot start the server: {0}")]
    Spawn(#[from] std::io::Error),
    /// The MCP handshake failed. Displayed without rmcp's transport type name: a
    /// transport error shows as its own text and what was being sent.
    #[error("MCP initialization failed: {}", initialize_text(.0))]
    Initialize(Box<rmcp::service::ClientInitializeError>),
}

impl ConnectError {
    /// Whether the server answered `server/discover` listing only revisions that have the
    /// `initialize` handshake (2025-11-25 and earlier). Under [`ProtocolChoice::Auto`],
    /// connect again (a new process or HTTP client) with
    /// [`connect_io_with_protocol`](ElicitationClient::connect_io_with_protocol) and
    /// [`ProtocolChoice::V2025_11_25`]; [`ElicitationClient::connect`] does it by itself.
    ///
    /// ```
    /// use mcp_elicit_client::ConnectError;
    /// let e = ConnectError::Spawn(std::io::Error::other("no such program"));
    /// assert!(!e.offers_only_initialize());
    /// ```
    pub fn offers_only_initialize(&self) -> bool {
        matches!(self, ConnectError::Initialize(e) if only_legacy(e))
    }
}

impl From<rmcp::service::ClientInitializeError> for ConnectError {
    fn from(e: rmcp::service::ClientInitializeError) -> Self {
        Self::Initialize(Box::new(e))
    }
}

pub(crate) struct Shared<U, O> {
    pub(crate) ui: U,
    pub(crate) opener: O,
    pub(crate) config: Config,
    pub(crate) capability: Capability,
    pub(crate) registry: CompletionRegistry,
    pub(crate) raw: RawRequests,
    pub(crate) limiter: RateLimiter<TokioClock>,
    pub(crate) stop_asking: AtomicBool,
    /// One prompt at a time per connection.
    pub(crate) lane: tokio::sync::Mutex<()>,
    pub(crate) transport: Mutex<TransportIdentity>,
}

/// The client side of elicitation on rmcp, for one connection.
///
/// - Declares the `elicitation` capability from what the UI really supports
///   ([`ElicitationUi::modes`]).
/// - Answers `elicitation/create` for an undeclared mode, or malformed, with -32602 and
///   the reason; presents the rest exactly as sent (raw capture at the transport), with
///   defaults prefilled, validating before sending and re-presenting on errors.
/// - URL mode: analysis, blocked URLs refused, explicit consent, system browser.
/// - Tracks completion notifications ([`CompletionRegistry`]).
/// - Rate limits prompts per server and honours a "stop asking" switch.
///
/// Clone it freely: clones share the connection state. One client serves one
/// connection: make a new one per server.
///
/// ```
/// use mcp_elicit_client::{
///     Config, ElicitationClient, FormPolicy, ProtocolChoice, RecordingOpener, ScriptedUi,
///     TransportIdentity, UrlPolicy,
/// };
/// use mcp_elicit_core::message::Capability;
///
/// let ui = ScriptedUi::new(Capability::FORM, FormPolicy::AcceptDefaults, UrlPolicy::Never);
/// let client = ElicitationClient::new(ui, RecordingOpener::default(), Config::default());
/// assert_eq!(client.capability(), Capability::FORM); // declared as `"elicitation": {"form": {}}`
///
/// let same = client.clone();
/// same.set_stop_asking(true);
/// assert!(client.is_stop_asking()); // clones share the state
/// assert_eq!(
///     client.transport_identity(),
///     TransportIdentity::Other { description: "not connected".into() }
/// );
/// ```
pub struct ElicitationClient<U, O> {
    pub(crate) shared: Arc<Shared<U, O>>,
}

impl<U, O> Clone for ElicitationClient<U, O> {
    fn clone(&self) -> Self {
        Self {
            shared: self.shared.clone(),
        }
    }
}

impl<U, O> std::fmt::Debug for ElicitationClient<U, O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ElicitationClient")
            .field("capability", &self.shared.capability)
            .finish_non_exhaustive()
    }
}

impl<U: ElicitationUi, O: UrlOpener> ElicitationClient<U, O> {
    /// A client presenting through `ui` and opening consented URLs with `opener`. The
    /// declared capability is read from [`ElicitationUi::modes`] once, here.
    ///
    /// ```
    /// use mcp_elicit_client::{Config, ElicitationClient, FormPolicy, ScriptedUi, SystemBrowser, UrlPolicy};
    /// use mcp_elicit_core::message::Capability;
    ///
    /// // A UI that can show nothing: the `elicitation` capability is not declared at all, and
    /// // every request is refused with -32602.
    /// let ui = ScriptedUi::new(Capability::NONE, FormPolicy::Decline, UrlPolicy::Never);
    /// let client = ElicitationClient::new(ui, SystemBrowser, Config::default());
    /// assert!(!client.capability().any());
    /// ```
    pub fn new(ui: U, opener: O, config: Config) -> Self {
        let capability = ui.modes();
        let limiter = RateLimiter::new(config.rate_limit, TokioClock);
        Self {
            shared: Arc::new(Shared {
                ui,
                opener,
                capability,
                limiter,
                config,
                registry: CompletionRegistry::default(),
                raw: RawRequests::default(),
                stop_asking: AtomicBool::new(false),
                lane: tokio::sync::Mutex::new(()),
                transport: Mutex::new(TransportIdentity::Other {
                    description: "not connected".into(),
                }),
            }),
        }
    }

    /// The declared capability (from the UI's modes).
    ///
    /// ```
    /// use mcp_elicit_client::{Config, ElicitationClient, FormPolicy, ManualOpen, ScriptedUi, UrlPolicy};
    /// use mcp_elicit_core::message::{Capability, Mode};
    ///
    /// let ui = ScriptedUi::new(Capability::ALL, FormPolicy::Decline, UrlPolicy::Consent);
    /// let client = ElicitationClient::new(ui, ManualOpen, Config::default());
    /// assert!(client.capability().supports(Mode::Form) && client.capability().supports(Mode::Url));
    /// ```
    pub fn capability(&self) -> Capability {
        self.shared.capability
    }

    /// The UI (to read what it recorded, for one).
    ///
    /// ```
    /// use mcp_elicit_client::{Config, ElicitationClient, FormPolicy, ManualOpen, ScriptedUi, UrlPolicy};
    /// use mcp_elicit_core::message::Capability;
    ///
    /// let ui = ScriptedUi::new(Capability::FORM, FormPolicy::AcceptDefaults, UrlPolicy::Never);
    /// let client = ElicitationClient::new(ui, ManualOpen, Config::default());
    /// assert!(client.ui().failures().is_empty());
    /// ```
    pub fn ui(&self) -> &U {
        &self.shared.ui
    }

    /// The connection's URL elicitations: the ids the server sent, and their completion.
    ///
    /// ```
    /// use mcp_elicit_client::{Config, ElicitationClient, FormPolicy, ManualOpen, ScriptedUi, UrlPolicy};
    /// use mcp_elicit_core::message::Capability;
    ///
    /// let ui = ScriptedUi::new(Capability::URL, FormPolicy::Decline, UrlPolicy::Never);
    /// let client = ElicitationClient::new(ui, ManualOpen, Config::default());
    /// assert!(client.registry().is_empty() && !client.registry().is_closed());
    /// ```
    pub fn registry(&self) -> &CompletionRegistry {
        &self.shared.registry
    }

    /// Where transports deposit raw `elicitation/create` params: give a clone to a
    /// transport of [`crate::transport`] used with [`serve_transport`](Self::serve_transport).
    ///
    /// ```
    /// use mcp_elicit_client::{Config, ElicitationClient, FormPolicy, ManualOpen, ScriptedUi, UrlPolicy};
    /// use mcp_elicit_core::message::Capability;
    ///
    /// let ui = ScriptedUi::new(Capability::FORM, FormPolicy::Decline, UrlPolicy::Never);
    /// let client = ElicitationClient::new(ui, ManualOpen, Config::default());
    /// let for_the_transport = client.raw_requests().clone();
    /// for_the_transport.observe_str(r#"{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{}}"#);
    /// assert_eq!(client.raw_requests().len(), 1); // the same store
    /// ```
    pub fn raw_requests(&self) -> &RawRequests {
        &self.shared.raw
    }

    /// The settings.
    ///
    /// ```
    /// use mcp_elicit_client::{Config, ElicitationClient, FormPolicy, ManualOpen, ScriptedUi, UrlPolicy};
    /// use mcp_elicit_core::message::Capability;
    ///
    /// let ui = ScriptedUi::new(Capability::FORM, FormPolicy::Decline, UrlPolicy::Never);
    /// let client = ElicitationClient::new(ui, ManualOpen, Config::default().with_max_retry_rounds(1));
    /// assert_eq!(client.config().max_retry_rounds, 1);
    /// ```
    pub fn config(&self) -> &Config {
        &self.shared.config
    }

    /// The per-server "stop asking" switch: while on, every elicitation request from this
    /// server is answered `decline` without being shown (and nothing is announced), and
    /// URL elicitations a call requires (-32042) are not carried out
    /// ([`NotCompleted::StopAsking`](crate::NotCompleted::StopAsking)). The user turns it
    /// on with [`FormResponse::StopAsking`](crate::FormResponse::StopAsking) or
    /// [`UrlDecision::StopAsking`](crate::UrlDecision::StopAsking); a host may offer it
    /// elsewhere too.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use mcp_elicit_client::rmcp::{self, RoleServer, ServerHandler, ServiceExt};
    /// # use rmcp::model::{
    /// #     CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    /// #     ErrorData, Implementation, ServerCapabilities, ServerConfig, ServerRequest,
    /// # };
    /// # use rmcp::service::{RequestContext, ServiceError};
    /// # // A server whose tool `ask` sends its `params` argument as `elicitation/create` (the
    /// # // 2025-11-25 way) and returns the client's answer as JSON text.
    /// # struct Asker;
    /// # impl ServerHandler for Asker {
    /// #     fn get_info(&self) -> ServerConfig {
    /// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    /// #             .with_server_info(Implementation::new("asker", "1.0.0").with_title("The Asker"))
    /// #     }
    /// #     async fn call_tool(
    /// #         &self,
    /// #         call: CallToolRequestParams,
    /// #         cx: RequestContext<RoleServer>,
    /// #     ) -> Result<CallToolResponse, ErrorData> {
    /// #         let params = call.arguments.unwrap_or_default().remove("params");
    /// #         let ask = ServerRequest::CustomRequest(CustomRequest::new("elicitation/create", params));
    /// #         let answer = match cx.peer.send_request(ask).await {
    /// #             Ok(result) => serde_json::to_value(result).unwrap_or_default(),
    /// #             Err(ServiceError::McpError(e)) => {
    /// #                 serde_json::json!({"error": e.code.0, "message": e.message})
    /// #             }
    /// #             Err(e) => serde_json::json!({"failed": e.to_string()}),
    /// #         };
    /// #         Ok(CallToolResult::success(vec![ContentBlock::text(answer.to_string())]).into())
    /// #     }
    /// # }
    /// # let (client_io, server_io) = tokio::io::duplex(1 << 16);
    /// # tokio::spawn(async move {
    /// #     if let Ok(running) = Asker.serve(server_io).await {
    /// #         let _ = running.waiting().await;
    /// #     }
    /// # });
    /// # let ask = |params: serde_json::Value| {
    /// #     let arguments = serde_json::json!({"params": params});
    /// #     CallToolRequestParams::new("ask").with_arguments(arguments.as_object().cloned().unwrap())
    /// # };
    /// # let text = |result: &CallToolResult| -> serde_json::Value {
    /// #     serde_json::from_str(&result.content[0].as_text().unwrap().text).unwrap()
    /// # };
    /// use mcp_elicit_client::{
    ///     Config, ElicitationClient, FormPolicy, ProtocolChoice, RecordingOpener, ScriptedUi,
    ///     TransportIdentity, UrlPolicy,
    /// };
    /// use mcp_elicit_core::message::Capability;
    /// use serde_json::json;
    ///
    /// let ui = ScriptedUi::new(Capability::FORM, FormPolicy::AcceptDefaults, UrlPolicy::Never);
    /// let config = Config::default().with_protocol(ProtocolChoice::V2025_11_25);
    /// let client = ElicitationClient::new(ui, RecordingOpener::default(), config);
    /// let (r, w) = tokio::io::split(client_io);
    /// let pipe = TransportIdentity::Other { description: "in-process".into() };
    /// let connection = client.clone().connect_io(r, w, pipe).await?;
    /// let form = json!({"message": "Rate us?", "requestedSchema": {"type": "object",
    ///     "properties": {"stars": {"type": "integer", "default": 5}}}});
    ///
    /// let result = connection.peer().call_tool(ask(form.clone())).await?;
    /// assert_eq!(text(&result)["action"], "accept"); // AcceptDefaults
    ///
    /// client.set_stop_asking(true);
    /// let result = connection.peer().call_tool(ask(form)).await?;
    /// assert_eq!(text(&result)["action"], "decline"); // not shown
    /// # Ok(())
    /// # }
    /// ```
    pub fn set_stop_asking(&self, on: bool) {
        self.shared.stop_asking.store(on, Ordering::SeqCst);
    }

    /// Whether the switch is on (off for a new client).
    ///
    /// ```
    /// use mcp_elicit_client::{Config, ElicitationClient, FormPolicy, ManualOpen, ScriptedUi, UrlPolicy};
    /// use mcp_elicit_core::message::Capability;
    ///
    /// let ui = ScriptedUi::new(Capability::FORM, FormPolicy::Decline, UrlPolicy::Never);
    /// let client = ElicitationClient::new(ui, ManualOpen, Config::default());
    /// assert!(!client.is_stop_asking());
    /// client.set_stop_asking(true);
    /// assert!(client.is_stop_asking());
    /// ```
    pub fn is_stop_asking(&self) -> bool {
        self.shared.stop_asking.load(Ordering::SeqCst)
    }

    /// How the server was reached: what [`connect`](Self::connect) derived from the target,
    /// or the identity given to [`connect_io`](Self::connect_io) and
    /// [`serve_transport`](Self::serve_transport); `Other { description: "not connected" }`
    /// before. Every prompt's [`ServerIdentity::transport`] is this.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use mcp_elicit_client::rmcp::{self, RoleServer, ServerHandler, ServiceExt};
    /// # use rmcp::model::{
    /// #     CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    /// #     ErrorData, Implementation, ServerCapabilities, ServerConfig, ServerRequest,
    /// # };
    /// # use rmcp::service::{RequestContext, ServiceError};
    /// # // A server whose tool `ask` sends its `params` argument as `elicitation/create` (the
    /// # // 2025-11-25 way) and returns the client's answer as JSON text.
    /// # struct Asker;
    /// # impl ServerHandler for Asker {
    /// #     fn get_info(&self) -> ServerConfig {
    /// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    /// #             .with_server_info(Implementation::new("asker", "1.0.0").with_title("The Asker"))
    /// #     }
    /// #     async fn call_tool(
    /// #         &self,
    /// #         call: CallToolRequestParams,
    /// #         cx: RequestContext<RoleServer>,
    /// #     ) -> Result<CallToolResponse, ErrorData> {
    /// #         let params = call.arguments.unwrap_or_default().remove("params");
    /// #         let ask = ServerRequest::CustomRequest(CustomRequest::new("elicitation/create", params));
    /// #         let answer = match cx.peer.send_request(ask).await {
    /// #             Ok(result) => serde_json::to_value(result).unwrap_or_default(),
    /// #             Err(ServiceError::McpError(e)) => {
    /// #                 serde_json::json!({"error": e.code.0, "message": e.message})
    /// #             }
    /// #             Err(e) => serde_json::json!({"failed": e.to_string()}),
    /// #         };
    /// #         Ok(CallToolResult::success(vec![ContentBlock::text(answer.to_string())]).into())
    /// #     }
    /// # }
    /// # let (client_io, server_io) = tokio::io::duplex(1 << 16);
    /// # tokio::spawn(async move {
    /// #     if let Ok(running) = Asker.serve(server_io).await {
    /// #         let _ = running.waiting().await;
    /// #     }
    /// # });
    /// use mcp_elicit_client::{
    ///     Config, ElicitationClient, FormPolicy, ProtocolChoice, RecordingOpener, ScriptedUi,
    ///     TransportIdentity, UrlPolicy,
    /// };
    /// use mcp_elicit_core::message::Capability;
    ///
    /// let ui = ScriptedUi::new(Capability::FORM, FormPolicy::Decline, UrlPolicy::Never);
    /// let config = Config::default().with_protocol(ProtocolChoice::V2025_11_25);
    /// let client = ElicitationClient::new(ui, RecordingOpener::default(), config);
    /// let (r, w) = tokio::io::split(client_io);
    /// let pipe = TransportIdentity::Other { description: "in-process pipe".into() };
    /// let _connection = client.clone().connect_io(r, w, pipe.clone()).await?;
    /// assert_eq!(client.transport_identity(), pipe);
    /// # Ok(())
    /// # }
    /// ```
    pub fn transport_identity(&self) -> TransportIdentity {
        match self.shared.transport.lock() {
            Ok(t) => t.clone(),
            Err(p) => p.into_inner().clone(),
        }
    }

    pub(crate) fn identity(&self, peer: &rmcp::Peer<RoleClient>) -> ServerIdentity {
        ServerIdentity::new(peer.peer_info().as_deref(), self.transport_identity())
    }

    fn set_transport(&self, identity: TransportIdentity) {
        match self.shared.transport.lock() {
            Ok(mut t) => *t = identity,
            Err(p) => *p.into_inner() = identity,
        }
    }

    /// Connects to `target` (a child process over stdio or a Streamable HTTP endpoint).
    /// HTTP targets sign in with [`Config::authorizer`] when set; on 2025-11-25 the call
    /// returns once the standalone GET stream is open (at most [`STANDALONE_STREAM_WAIT`]).
    /// Starting a program that does not exist is [`ConnectError::Spawn`].
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::sync::Arc;
    /// # use mcp_elicit_client::rmcp::{self, RoleServer, ServerHandler};
    /// # use rmcp::model::{
    /// #     CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    /// #     Implementation, ServerCapabilities, ServerConfig,
    /// # };
    /// # use rmcp::service::RequestContext;
    /// # use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    /// # use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
    /// # struct Hello;
    /// # impl ServerHandler for Hello {
    /// #     fn get_info(&self) -> ServerConfig {
    /// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    /// #             .with_server_info(Implementation::new("hello", "1.0.0"))
    /// #     }
    /// #     async fn call_tool(
    /// #         &self,
    /// #         _: CallToolRequestParams,
    /// #         _: RequestContext<RoleServer>,
    /// #     ) -> Result<CallToolResponse, ErrorData> {
    /// #         Ok(CallToolResult::success(vec![ContentBlock::text("hello")]).into())
    /// #     }
    /// # }
    /// # let service = StreamableHttpService::new(
    /// #     || Ok(Hello),
    /// #     Arc::new(LocalSessionManager::default()),
    /// #     StreamableHttpServerConfig::default(),
    /// # );
    /// # let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    /// # let url = format!("http://{}/mcp", listener.local_addr()?);
    /// # let app = axum::Router::new().nest_service("/mcp", service);
    /// # tokio::spawn(async move { axum::serve(listener, app).await });
    /// use mcp_elicit_client::{
    ///     Config, ElicitationClient, FormPolicy, ProtocolChoice, RecordingOpener, ScriptedUi,
    ///     TransportIdentity, UrlPolicy,
    /// };
    /// use mcp_elicit_core::message::Capability;
    /// use mcp_elicit_client::{ServerTarget, negotiated_protocol};
    /// use mcp_elicit_client::rmcp::model::ProtocolVersion;
    ///
    /// # // `url` is an rmcp Streamable HTTP server on 127.0.0.1 (port chosen by the OS).
    /// let target: ServerTarget = url.parse()?; // or "stdio:python3 server.py"
    /// let ui = ScriptedUi::new(Capability::FORM, FormPolicy::AcceptDefaults, UrlPolicy::Never);
    /// let config = Config::default().with_protocol(ProtocolChoice::V2025_11_25);
    /// let client = ElicitationClient::new(ui, RecordingOpener::default(), config);
    /// let connection = client.clone().connect(&target).await?;
    ///
    /// assert_eq!(negotiated_protocol(connection.peer()), ProtocolVersion::V_2025_11_25);
    /// let TransportIdentity::Http { origin, .. } = client.transport_identity() else { panic!() };
    /// assert!(origin.starts_with("http://127.0.0.1:"));
    /// let result = client.call_tool(connection.peer(), CallToolRequestParams::new("greet")).await?;
    /// assert_eq!(result.content[0].as_text().unwrap().text, "hello");
    /// connection.cancel().await?;
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// With [`ProtocolChoice::Auto`], a server whose `server/discover` lists only revisions
    /// that have the `initialize` handshake is connected to again (a new process or HTTP
    /// client) with `initialize`.
    pub async fn connect(self, target: &ServerTarget) -> Result<Connection<U, O>, ConnectError> {
        let auto = self.shared.config.protocol == ProtocolChoice::Auto;
        match self.clone().connect_with(target, None).await {
            Err(ConnectError::Initialize(e)) if auto && only_legacy(&e) => {
                tracing::info!("the server offers only revisions with initialize; reconnecting");
                self.connect_with(target, Some(ClientLifecycleMode::Initialize))
                    .await
            }
            other => other,
        }
    }

    async fn connect_with(
        self,
        target: &ServerTarget,
        lifecycle: Option<ClientLifecycleMode>,
    ) -> Result<Connection<U, O>, ConnectError> {
        let lifecycle = lifecycle.unwrap_or_else(|| lifecycle_mode(self.shared.config.protocol));
        match target {
            ServerTarget::Stdio { command } => {
                let transport = stdio::spawn(command, self.shared.raw.clone())?;
                self.serve_with(
                    transport,
                    TransportIdentity::Stdio {
                        command: command.clone(),
                    },
                    lifecycle,
                )
                .await
            }
            ServerTarget::Http { url } => {
                let (transport, mut standalone) = http::transport_with_auth(
                    url.as_str(),
                    self.shared.raw.clone(),
                    self.shared.config.authorizer.clone(),
                );
                let connection = self
                    .serve_with(transport, TransportIdentity::http(url.as_str()), lifecycle)
                    .await?;
                // 2025-11-25: let the standalone GET stream open first: servers may send
                // elicitation requests only there, and a request sent before it exists
                // is lost. 2026-07-28 has no such stream (and no server requests).
                if !is_2026(connection.peer()) {
                    let opened = standalone.wait_for(|s| *s != http::StandaloneStream::Pending);
                    let _ = tokio::time::timeout(STANDALONE_STREAM_WAIT, opened).await;
                }
                Ok(connection)
            }
        }
    }

    /// Runs over newline-delimited JSON on `reader`/`writer` (tests use `tokio::io::duplex`),
    /// speaking [`Config::protocol`], with raw capture ([`stdio::LineTransport`]).
    ///
    /// A form is presented with its defaults prefilled and the answer validated (the
    /// `pattern` included) before it is sent; a request for a mode the UI does not have is
    /// refused with -32602:
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use mcp_elicit_client::rmcp::{self, RoleServer, ServerHandler, ServiceExt};
    /// # use rmcp::model::{
    /// #     CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    /// #     ErrorData, Implementation, ServerCapabilities, ServerConfig, ServerRequest,
    /// # };
    /// # use rmcp::service::{RequestContext, ServiceError};
    /// # // A server whose tool `ask` sends its `params` argument as `elicitation/create` (the
    /// # // 2025-11-25 way) and returns the client's answer as JSON text.
    /// # struct Asker;
    /// # impl ServerHandler for Asker {
    /// #     fn get_info(&self) -> ServerConfig {
    /// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    /// #             .with_server_info(Implementation::new("asker", "1.0.0").with_title("The Asker"))
    /// #     }
    /// #     async fn call_tool(
    /// #         &self,
    /// #         call: CallToolRequestParams,
    /// #         cx: RequestContext<RoleServer>,
    /// #     ) -> Result<CallToolResponse, ErrorData> {
    /// #         let params = call.arguments.unwrap_or_default().remove("params");
    /// #         let ask = ServerRequest::CustomRequest(CustomRequest::new("elicitation/create", params));
    /// #         let answer = match cx.peer.send_request(ask).await {
    /// #             Ok(result) => serde_json::to_value(result).unwrap_or_default(),
    /// #             Err(ServiceError::McpError(e)) => {
    /// #                 serde_json::json!({"error": e.code.0, "message": e.message})
    /// #             }
    /// #             Err(e) => serde_json::json!({"failed": e.to_string()}),
    /// #         };
    /// #         Ok(CallToolResult::success(vec![ContentBlock::text(answer.to_string())]).into())
    /// #     }
    /// # }
    /// # let (client_io, server_io) = tokio::io::duplex(1 << 16);
    /// # tokio::spawn(async move {
    /// #     if let Ok(running) = Asker.serve(server_io).await {
    /// #         let _ = running.waiting().await;
    /// #     }
    /// # });
    /// # let ask = |params: serde_json::Value| {
    /// #     let arguments = serde_json::json!({"params": params});
    /// #     CallToolRequestParams::new("ask").with_arguments(arguments.as_object().cloned().unwrap())
    /// # };
    /// # let text = |result: &CallToolResult| -> serde_json::Value {
    /// #     serde_json::from_str(&result.content[0].as_text().unwrap().text).unwrap()
    /// # };
    /// use mcp_elicit_client::{
    ///     Config, ElicitationClient, FormPolicy, ProtocolChoice, RecordingOpener, ScriptedUi,
    ///     TransportIdentity, UrlPolicy,
    /// };
    /// use mcp_elicit_core::message::Capability;
    /// use serde_json::json;
    ///
    /// let answers = FormPolicy::answers_from_json(&json!({"handle": "ada"}))?;
    /// let ui = ScriptedUi::new(Capability::FORM, answers, UrlPolicy::Never);
    /// let config = Config::default().with_protocol(ProtocolChoice::V2025_11_25);
    /// let client = ElicitationClient::new(ui, RecordingOpener::default(), config);
    /// let (r, w) = tokio::io::split(client_io);
    /// let pipe = TransportIdentity::Other { description: "in-process".into() };
    /// let connection = client.clone().connect_io(r, w, pipe).await?;
    ///
    /// # // `ask(params)`: a call of the server's tool that sends `params` as `elicitation/create`
    /// # // and returns the client's answer; `text` reads it back.
    /// let result = connection.peer().call_tool(ask(json!({
    ///     "mode": "form",
    ///     "message": "Pick a handle",
    ///     "requestedSchema": {"type": "object", "properties": {
    ///         "handle": {"type": "string", "pattern": "^[a-z]+$"},
    ///         "lang": {"type": "string", "default": "en"}
    ///     }, "required": ["handle"]}
    /// }))).await?;
    /// let answer = text(&result);
    /// assert_eq!(answer["action"], "accept");
    /// assert_eq!(answer["content"], json!({"handle": "ada", "lang": "en"}));
    ///
    /// let result = connection.peer().call_tool(ask(json!({
    ///     "mode": "url", "message": "Sign in", "elicitationId": "e1",
    ///     "url": "https://auth.example.com/login"
    /// }))).await?;
    /// let refused = text(&result);
    /// assert_eq!(refused["error"], -32602);
    /// assert_eq!(refused["message"], "this client did not declare url mode elicitation");
    /// # Ok(())
    /// # }
    /// ```
    pub async fn connect_io<R, W>(
        self,
        reader: R,
        writer: W,
        identity: TransportIdentity,
    ) -> Result<Connection<U, O>, ConnectError>
    where
        R: AsyncRead + Send + Unpin + 'static,
        W: AsyncWrite + Send + Unpin + 'static,
    {
        let protocol = self.shared.config.protocol;
        self.connect_io_with_protocol(reader, writer, identity, protocol)
            .await
    }

    /// Like [`connect_io`](Self::connect_io), speaking `protocol` rather than the configured
    /// choice: the second attempt after [`ConnectError::offers_only_initialize`].
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use mcp_elicit_client::rmcp::{self, RoleServer, ServerHandler, ServiceExt};
    /// # use rmcp::model::{
    /// #     CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    /// #     ErrorData, Implementation, ServerCapabilities, ServerConfig, ServerRequest,
    /// # };
    /// # use rmcp::service::{RequestContext, ServiceError};
    /// # // A server whose tool `ask` sends its `params` argument as `elicitation/create` (the
    /// # // 2025-11-25 way) and returns the client's answer as JSON text.
    /// # struct Asker;
    /// # impl ServerHandler for Asker {
    /// #     fn get_info(&self) -> ServerConfig {
    /// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    /// #             .with_server_info(Implementation::new("asker", "1.0.0").with_title("The Asker"))
    /// #     }
    /// #     async fn call_tool(
    /// #         &self,
    /// #         call: CallToolRequestParams,
    /// #         cx: RequestContext<RoleServer>,
    /// #     ) -> Result<CallToolResponse, ErrorData> {
    /// #         let params = call.arguments.unwrap_or_default().remove("params");
    /// #         let ask = ServerRequest::CustomRequest(CustomRequest::new("elicitation/create", params));
    /// #         let answer = match cx.peer.send_request(ask).await {
    /// #             Ok(result) => serde_json::to_value(result).unwrap_or_default(),
    /// #             Err(ServiceError::McpError(e)) => {
    /// #                 serde_json::json!({"error": e.code.0, "message": e.message})
    /// #             }
    /// #             Err(e) => serde_json::json!({"failed": e.to_string()}),
    /// #         };
    /// #         Ok(CallToolResult::success(vec![ContentBlock::text(answer.to_string())]).into())
    /// #     }
    /// # }
    /// # let (client_io, server_io) = tokio::io::duplex(1 << 16);
    /// # tokio::spawn(async move {
    /// #     if let Ok(running) = Asker.serve(server_io).await {
    /// #         let _ = running.waiting().await;
    /// #     }
    /// # });
    /// use mcp_elicit_client::{
    ///     Config, ElicitationClient, FormPolicy, ProtocolChoice, RecordingOpener, ScriptedUi,
    ///     TransportIdentity, UrlPolicy,
    /// };
    /// use mcp_elicit_core::message::Capability;
    /// use mcp_elicit_client::negotiated_protocol;
    /// use mcp_elicit_client::rmcp::model::ProtocolVersion;
    ///
    /// let ui = ScriptedUi::new(Capability::FORM, FormPolicy::Decline, UrlPolicy::Never);
    /// let client = ElicitationClient::new(ui, RecordingOpener::default(), Config::default());
    /// assert_eq!(client.config().protocol, ProtocolChoice::Auto);
    /// let (r, w) = tokio::io::split(client_io);
    /// let pipe = TransportIdentity::Other { description: "in-process".into() };
    /// let connection = client
    ///     .connect_io_with_protocol(r, w, pipe, ProtocolChoice::V2025_11_25)
    ///     .await?;
    /// assert_eq!(negotiated_protocol(connection.peer()), ProtocolVersion::V_2025_11_25);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn connect_io_with_protocol<R, W>(
        self,
        reader: R,
        writer: W,
        identity: TransportIdentity,
        protocol: ProtocolChoice,
    ) -> Result<Connection<U, O>, ConnectError>
    where
        R: AsyncRead + Send + Unpin + 'static,
        W: AsyncWrite + Send + Unpin + 'static,
    {
        let transport = stdio::LineTransport::new(reader, writer, self.shared.raw.clone());
        self.serve_with(transport, identity, lifecycle_mode(protocol))
            .await
    }

    /// Runs over any rmcp transport. Raw capture only happens if the transport feeds
    /// [`raw_requests`](Self::raw_requests) (the ones in [`crate::transport`] do); without it,
    /// requests are presented from rmcp's typed parse, which drops `pattern`.
    ///
    /// Here the answer breaks the server's `pattern`: with the client's own
    /// [`RawRequests`] given to the transport, the pattern is seen, the answer is not sent
    /// (the server gets `cancel`) and the UI records the failure.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use mcp_elicit_client::rmcp::{self, RoleServer, ServerHandler, ServiceExt};
    /// # use rmcp::model::{
    /// #     CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    /// #     ErrorData, Implementation, ServerCapabilities, ServerConfig, ServerRequest,
    /// # };
    /// # use rmcp::service::{RequestContext, ServiceError};
    /// # // A server whose tool `ask` sends its `params` argument as `elicitation/create` (the
    /// # // 2025-11-25 way) and returns the client's answer as JSON text.
    /// # struct Asker;
    /// # impl ServerHandler for Asker {
    /// #     fn get_info(&self) -> ServerConfig {
    /// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    /// #             .with_server_info(Implementation::new("asker", "1.0.0").with_title("The Asker"))
    /// #     }
    /// #     async fn call_tool(
    /// #         &self,
    /// #         call: CallToolRequestParams,
    /// #         cx: RequestContext<RoleServer>,
    /// #     ) -> Result<CallToolResponse, ErrorData> {
    /// #         let params = call.arguments.unwrap_or_default().remove("params");
    /// #         let ask = ServerRequest::CustomRequest(CustomRequest::new("elicitation/create", params));
    /// #         let answer = match cx.peer.send_request(ask).await {
    /// #             Ok(result) => serde_json::to_value(result).unwrap_or_default(),
    /// #             Err(ServiceError::McpError(e)) => {
    /// #                 serde_json::json!({"error": e.code.0, "message": e.message})
    /// #             }
    /// #             Err(e) => serde_json::json!({"failed": e.to_string()}),
    /// #         };
    /// #         Ok(CallToolResult::success(vec![ContentBlock::text(answer.to_string())]).into())
    /// #     }
    /// # }
    /// # let (client_io, server_io) = tokio::io::duplex(1 << 16);
    /// # tokio::spawn(async move {
    /// #     if let Ok(running) = Asker.serve(server_io).await {
    /// #         let _ = running.waiting().await;
    /// #     }
    /// # });
    /// # let ask = |params: serde_json::Value| {
    /// #     let arguments = serde_json::json!({"params": params});
    /// #     CallToolRequestParams::new("ask").with_arguments(arguments.as_object().cloned().unwrap())
    /// # };
    /// # let text = |result: &CallToolResult| -> serde_json::Value {
    /// #     serde_json::from_str(&result.content[0].as_text().unwrap().text).unwrap()
    /// # };
    /// use mcp_elicit_client::{
    ///     Config, ElicitationClient, FormPolicy, ProtocolChoice, RecordingOpener, ScriptedUi,
    ///     TransportIdentity, UrlPolicy,
    /// };
    /// use mcp_elicit_core::message::Capability;
    /// use mcp_elicit_client::transport::stdio::LineTransport;
    /// use serde_json::json;
    ///
    /// let answers = FormPolicy::answers_from_json(&json!({"handle": "Not A Handle"}))?;
    /// let ui = ScriptedUi::new(Capability::FORM, answers, UrlPolicy::Never).with_sink(|_| {});
    /// let config = Config::default().with_protocol(ProtocolChoice::V2025_11_25);
    /// let client = ElicitationClient::new(ui, RecordingOpener::default(), config);
    /// let (r, w) = tokio::io::split(client_io);
    /// let transport = LineTransport::new(r, w, client.raw_requests().clone());
    /// let pipe = TransportIdentity::Other { description: "in-process".into() };
    /// let connection = client.clone().serve_transport(transport, pipe).await?;
    ///
    /// let result = connection.peer().call_tool(ask(json!({
    ///     "message": "Pick a handle",
    ///     "requestedSchema": {"type": "object", "properties": {
    ///         "handle": {"type": "string", "pattern": "^[a-z]+$"}
    ///     }}
    /// }))).await?;
    /// assert_eq!(text(&result)["action"], "cancel");
    /// assert!(client.ui().failures()[0].contains("failed validation"));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn serve_transport<T>(
        self,
        transport: T,
        identity: TransportIdentity,
    ) -> Result<Connection<U, O>, ConnectError>
    where
        T: rmcp::transport::Transport<RoleClient> + 'static,
    {
        let lifecycle = lifecycle_mode(self.shared.config.protocol);
        self.serve_with(transport, identity, lifecycle).await
    }

    async fn serve_with<T>(
        self,
        transport: T,
        identity: TransportIdentity,
        lifecycle: ClientLifecycleMode,
    ) -> Result<Connection<U, O>, ConnectError>
    where
        T: rmcp::transport::Transport<RoleClient> + 'static,
    {
        self.set_transport(identity);
        let watched = Watched::new(transport, self.shared.registry.clone());
        Ok(self.serve_with_lifecycle(watched, lifecycle).await?)
    }

    async fn on_complete(&self, params: Option<Value>, peer: &rmcp::Peer<RoleClient>) {
        let parsed = CompleteNotification::parse(params.as_ref().unwrap_or(&Value::Null));
        let Ok(notification) = parsed else {
            tracing::debug!("ignoring a malformed elicitation completion notification");
            return;
        };
        match self.shared.registry.complete(&notification.elicitation_id) {
            CompleteOutcome::Completed => {
                self.shared
                    .ui
                    .notify(Notice::Completed {
                        server: self.identity(peer),
                        elicitation_id: notification.elicitation_id,
                    })
                    .await;
            }
            outcome => {
                tracing::debug!(?outcome, id = %notification.elicitation_id, "ignoring completion notification")
            }
        }
    }
}

/// The revision negotiated with the server behind `peer` (2025-11-25 before the handshake).
///
/// [`ProtocolChoice::Auto`] takes 2026-07-28 from a server that offers it (rmcp's servers
/// do):
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use mcp_elicit_client::rmcp::{self, RoleServer, ServerHandler, ServiceExt};
/// # use rmcp::model::{
/// #     CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
/// #     ErrorData, Implementation, ServerCapabilities, ServerConfig, ServerRequest,
/// # };
/// # use rmcp::service::{RequestContext, ServiceError};
/// # // A server whose tool `ask` sends its `params` argument as `elicitation/create` (the
/// # // 2025-11-25 way) and returns the client's answer as JSON text.
/// # struct Asker;
/// # impl ServerHandler for Asker {
/// #     fn get_info(&self) -> ServerConfig {
/// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
/// #             .with_server_info(Implementation::new("asker", "1.0.0").with_title("The Asker"))
/// #     }
/// #     async fn call_tool(
/// #         &self,
/// #         call: CallToolRequestParams,
/// #         cx: RequestContext<RoleServer>,
/// #     ) -> Result<CallToolResponse, ErrorData> {
/// #         let params = call.arguments.unwrap_or_default().remove("params");
/// #         let ask = ServerRequest::CustomRequest(CustomRequest::new("elicitation/create", params));
/// #         let answer = match cx.peer.send_request(ask).await {
/// #             Ok(result) => serde_json::to_value(result).unwrap_or_default(),
/// #             Err(ServiceError::McpError(e)) => {
/// #                 serde_json::json!({"error": e.code.0, "message": e.message})
/// #             }
/// #             Err(e) => serde_json::json!({"failed": e.to_string()}),
/// #         };
/// #         Ok(CallToolResult::success(vec![ContentBlock::text(answer.to_string())]).into())
/// #     }
/// # }
/// # let (client_io, server_io) = tokio::io::duplex(1 << 16);
/// # tokio::spawn(async move {
/// #     if let Ok(running) = Asker.serve(server_io).await {
/// #         let _ = running.waiting().await;
/// #     }
/// # });
/// use mcp_elicit_client::{
///     Config, ElicitationClient, FormPolicy, ProtocolChoice, RecordingOpener, ScriptedUi,
///     TransportIdentity, UrlPolicy,
/// };
/// use mcp_elicit_core::message::Capability;
/// use mcp_elicit_client::negotiated_protocol;
/// use mcp_elicit_client::rmcp::model::ProtocolVersion;
///
/// let ui = ScriptedUi::new(Capability::FORM, FormPolicy::Decline, UrlPolicy::Never);
/// let client = ElicitationClient::new(ui, RecordingOpener::default(), Config::default());
/// let (r, w) = tokio::io::split(client_io);
/// let pipe = TransportIdentity::Other { description: "in-process".into() };
/// let connection = client.connect_io(r, w, pipe).await?;
/// let revision = negotiated_protocol(connection.peer());
/// assert_eq!(revision, ProtocolVersion::V_2026_07_28);
/// assert!(!revision.has_initialize()); // no `initialize`, `InputRequiredResult` rounds
/// # Ok(())
/// # }
/// ```
pub fn negotiated_protocol(peer: &rmcp::Peer<RoleClient>) -> ProtocolVersion {
    peer.peer_info()
        .map(|info| info.protocol_version.clone())
        .unwrap_or(ProtocolVersion::V_2025_11_25)
}

/// Whether `peer` speaks 2026-07-28 or later (no `initialize`, `InputRequiredResult`s).
pub(crate) fn is_2026(peer: &rmcp::Peer<RoleClient>) -> bool {
    !negotiated_protocol(peer).has_initialize()
}

/// `e` for people: rmcp's `TransportError` names the transport's Rust type (a long
/// generic path); show the transport's own error and what was being sent instead.
fn initialize_text(e: &rmcp::service::ClientInitializeError) -> String {
    match e {
        rmcp::service::ClientInitializeError::TransportError { error, context } => {
            format!("{} (when {context})", error.error)
        }
        other => other.to_string(),
    }
}

/// `server/discover` worked but lists only revisions that have `initialize`.
fn only_legacy(e: &rmcp::service::ClientInitializeError) -> bool {
    matches!(
        e,
        rmcp::service::ClientInitializeError::NoCompatibleProtocolVersion { server_supported, .. }
            if !server_supported.is_empty() && server_supported.iter().all(ProtocolVersion::has_initialize)
    )
}

fn lifecycle_mode(choice: ProtocolChoice) -> ClientLifecycleMode {
    choice.lifecycle()
}

fn elicitation_capability(cap: Capability) -> Option<ElicitationCapability> {
    if !cap.any() {
        return None;
    }
    let mut ec = ElicitationCapability::new();
    if cap.form {
        ec = ec.with_form(FormElicitationCapability::new());
    }
    if cap.url {
        ec.url = Some(UrlElicitationCapability::new());
    }
    Some(ec)
}

impl<U: ElicitationUi, O: UrlOpener> ClientHandler for ElicitationClient<U, O> {
    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        // Prefer the raw params captured at the transport; rmcp's typed params drop `pattern`.
        let raw = match self.shared.raw.take(&context.id) {
            Some(raw) => raw,
            None => serde_json::to_value(&request)
                .map_err(|e| ErrorData::internal_error(e.to_string(), None))?,
        };
        let result = self.handle_create(raw, &context).await?;
        serde_json::from_value(result).map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleClient>,
    ) -> Result<CustomResult, ErrorData> {
        if request.method != METHOD_CREATE {
            return Err(ErrorData::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                request.method,
                None,
            ));
        }
        // rmcp could not type it: it is malformed; the core says how, for the -32602.
        let raw = self
            .shared
            .raw
            .take(&context.id)
            .or(request.params)
            .unwrap_or(Value::Null);
        self.handle_create(raw, &context)
            .await
            .map(CustomResult::new)
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        context: NotificationContext<RoleClient>,
    ) {
        if notification.method == METHOD_COMPLETE {
            self.on_complete(notification.params, &context.peer).await;
        }
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        context: NotificationContext<RoleClient>,
    ) {
        let token = match &params.progress_token.0 {
            NumberOrString::Number(n) => n.to_string(),
            NumberOrString::String(s) => s.to_string(),
        };
        let update = ProgressUpdate {
            server: self.identity(&context.peer),
            token,
            progress: params.progress,
            total: params.total,
            message: params.message.as_deref().map(PlainText::from_untrusted),
        };
        self.shared.ui.progress(update).await;
    }

    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation = elicitation_capability(self.shared.capability);
        ClientConfig::new(capabilities, self.shared.config.client_info.clone())
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transport_failure_reads_without_the_transport_type() {
        let e = ConnectError::from(rmcp::service::ClientInitializeError::TransportError {
            error: rmcp::transport::DynamicTransportError::from_parts(
                "mcp_elicit_client::transport::watched::Watched<X>",
                std::any::TypeId::of::<()>(),
                Box::new(std::io::Error::other("sign-in needed for http://h/mcp")),
            ),
            context: "send discover request".into(),
        });
        assert_eq!(
            e.to_string(),
            "MCP initialization failed: sign-in needed for http://h/mcp \
             (when send discover request)"
        );
    }
}
