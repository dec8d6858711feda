//! Connecting an [`ElicitationClient`] to a server: [`Connection`], the `connect*` and
//! `serve_transport` entry points, and [`STANDALONE_STREAM_WAIT`].

use rmcp::RoleClient;
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RunningService};
use tokio::io::{AsyncRead, AsyncWrite};

use super::protocol::{is_2026, lifecycle_mode, only_legacy};
use super::{ConnectError, ElicitationClient};
#[cfg(doc)]
use crate::config::Config;
use crate::config::ProtocolChoice;
use crate::identity::TransportIdentity;
use crate::opener::UrlOpener;
#[cfg(doc)]
use crate::raw::RawRequests;
use crate::target::ServerTarget;
use crate::transport::{http, stdio, watched::Watched};
use crate::ui::ElicitationUi;

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

impl<U: ElicitationUi, O: UrlOpener> ElicitationClient<U, O> {
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
}
