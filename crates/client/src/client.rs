//! [`ElicitationClient`]: the rmcp `ClientHandler` that does elicitation properly.

mod connect;
mod error;
mod handler;
mod protocol;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use mcp_elicit_core::message::Capability;
use rmcp::RoleClient;

use crate::config::Config;
use crate::identity::{ServerIdentity, TransportIdentity};
use crate::opener::UrlOpener;
use crate::rate_limit::{RateLimiter, TokioClock};
use crate::raw::RawRequests;
use crate::registry::CompletionRegistry;
use crate::ui::ElicitationUi;

pub use connect::{Connection, STANDALONE_STREAM_WAIT};
pub use error::ConnectError;
pub(crate) use protocol::is_2026;
pub use protocol::negotiated_protocol;

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
}
