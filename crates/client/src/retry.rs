//! `tools/call` with URLElicitationRequiredError (-32042) handling: the algorithm is
//! documented on [`ElicitationClient::call_tool`] (this module is private).

use mcp_elicit_core::message::{URL_ELICITATION_REQUIRED, UrlElicitationRequired};
use rmcp::model::{CallToolRequestParams, CallToolResult, ErrorData};
use rmcp::service::ServiceError;
use rmcp::{Peer, RoleClient};
use tokio::time::Instant;

use crate::client::ElicitationClient;
use crate::opener::UrlOpener;
use crate::registry::WaitError;
use crate::text::PlainText;
use crate::ui::{
    ElicitationUi, OverviewChoice, RequiredOverview, RequiredStep, StallChoice, StalledCompletion,
    UrlOrigin,
};
use crate::url_flow::UrlOutcome;

/// Why the required URL elicitations were not carried out (in
/// [`CallError::ElicitationRequired`]).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use std::sync::Arc;
/// # use std::sync::atomic::{AtomicU32, Ordering};
/// # use mcp_elicit_client::rmcp::{self, RoleServer, ServerHandler, ServiceExt};
/// # use rmcp::model::{
/// #     CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorCode, ErrorData,
/// #     Implementation, ServerCapabilities, ServerConfig,
/// # };
/// # use rmcp::service::RequestContext;
/// # use mcp_elicit_client::{
/// #     CallError, Config, Connection, ElicitationClient, ElicitationUi, FormPolicy, NotCompleted,
/// #     ProtocolChoice, RecordingOpener, ScriptedUi, TransportIdentity, UrlPolicy,
/// # };
/// # use mcp_elicit_core::message::Capability;
/// # // A 2025-11-25 server. `connect` fails with -32042 (one URL elicitation) on its first
/// # // call and succeeds after; `bad` fails with malformed -32042 data; other tools: -32602.
/// # #[derive(Default)]
/// # struct Gate(Arc<AtomicU32>);
/// # impl ServerHandler for Gate {
/// #     fn get_info(&self) -> ServerConfig {
/// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
/// #             .with_server_info(Implementation::new("gate", "1.0.0"))
/// #     }
/// #     async fn call_tool(
/// #         &self,
/// #         call: CallToolRequestParams,
/// #         _: RequestContext<RoleServer>,
/// #     ) -> Result<CallToolResponse, ErrorData> {
/// #         let required = |data| Err(ErrorData::new(ErrorCode(-32042), "Connect first.", Some(data)));
/// #         match call.name.as_ref() {
/// #             "connect" if self.0.fetch_add(1, Ordering::SeqCst) == 0 => required(serde_json::json!({
/// #                 "elicitations": [{"mode": "url", "elicitationId": "el-1",
/// #                     "url": "https://auth.example.com/connect", "message": "Connect your account"}]
/// #             })),
/// #             "connect" => Ok(CallToolResult::success(vec![ContentBlock::text("connected")]).into()),
/// #             "bad" => required(serde_json::json!({"elicitations": "none"})),
/// #             other => Err(ErrorData::invalid_params(format!("no tool {other}"), None)),
/// #         }
/// #     }
/// # }
/// # async fn start<U: ElicitationUi>(
/// #     ui: U,
/// #     config: Config,
/// # ) -> (ElicitationClient<U, RecordingOpener>, Connection<U, RecordingOpener>) {
/// #     let (client_io, server_io) = tokio::io::duplex(1 << 16);
/// #     tokio::spawn(async move {
/// #         if let Ok(running) = Gate::default().serve(server_io).await {
/// #             let _ = running.waiting().await;
/// #         }
/// #     });
/// #     let config = config.with_protocol(ProtocolChoice::V2025_11_25);
/// #     let client = ElicitationClient::new(ui, RecordingOpener::default(), config);
/// #     let (r, w) = tokio::io::split(client_io);
/// #     let pipe = TransportIdentity::Other { description: "in-process".into() };
/// #     let connection = client.clone().connect_io(r, w, pipe).await.unwrap();
/// #     (client, connection)
/// # }
///
/// # // `start(ui, config)`: a client connected to a server whose tool `connect` first
/// # // fails with -32042, listing one URL elicitation.
/// let reason = |result: Result<_, CallError>| match result {
///     Err(CallError::ElicitationRequired { reason, .. }) => reason,
///     other => panic!("{other:?}"),
/// };
/// // A UI without URL mode cannot carry it out.
/// let forms_only = ScriptedUi::new(Capability::FORM, FormPolicy::Decline, UrlPolicy::Never);
/// let (client, connection) = start(forms_only, Config::default()).await;
/// let call = client.call_tool(connection.peer(), CallToolRequestParams::new("connect")).await;
/// assert_eq!(reason(call), NotCompleted::UrlModeNotSupported);
///
/// // The user says no.
/// let says_no = ScriptedUi::new(Capability::URL, FormPolicy::Decline, UrlPolicy::Never).with_sink(|_| {});
/// let (client, connection) = start(says_no, Config::default()).await;
/// let call = client.call_tool(connection.peer(), CallToolRequestParams::new("connect")).await;
/// assert_eq!(reason(call), NotCompleted::Declined);
/// assert!(client.registry().is_pending("el-1")); // known, never completed
///
/// // More elicitations than the limit: nothing is shown.
/// let limits = mcp_elicit_client::Limits::default().with_max_required_elicitations(0);
/// let ui = ScriptedUi::new(Capability::URL, FormPolicy::Decline, UrlPolicy::Consent);
/// let (client, connection) = start(ui, Config::default().with_limits(limits)).await;
/// let call = client.call_tool(connection.peer(), CallToolRequestParams::new("connect")).await;
/// assert_eq!(reason(call), NotCompleted::TooMany);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotCompleted {
    /// This client does not support URL mode (it was not declared).
    UrlModeNotSupported,
    /// The user declined one of them.
    Declined,
    /// One URL was unsafe and refused.
    Blocked,
    /// The user dismissed a prompt, cancelled the wait, or the browser failed.
    Cancelled,
    /// The user asked this server not to ask again.
    StopAsking,
    /// The error listed more elicitations than [`Limits::max_required_elicitations`](crate::Limits::max_required_elicitations).
    TooMany,
}

/// Why a call failed, and what produces each kind:
///
/// - [`Service`](Self::Service): the transport failed, or the server answered with a
///   JSON-RPC error other than -32042 (a tool error result is not one: it is an `Ok`
///   with `isError`);
/// - [`ElicitationRequired`](Self::ElicitationRequired): -32042, and its elicitations were
///   not carried out ([`NotCompleted`] says why);
/// - [`InvalidRequiredData`](Self::InvalidRequiredData): -32042 whose `data` is not a list
///   of URL elicitations;
/// - [`RoundsExhausted`](Self::RoundsExhausted): still -32042 after
///   [`Config::max_retry_rounds`](crate::Config::max_retry_rounds) retries;
/// - [`Disconnected`](Self::Disconnected): the connection closed while waiting for
///   completion notifications;
/// - 2026-07-28 only: [`MalformedInputRequired`](Self::MalformedInputRequired),
///   [`InputRequestRefused`](Self::InputRequestRefused),
///   [`InputRoundsExhausted`](Self::InputRoundsExhausted) (after
///   [`Config::max_input_rounds`](crate::Config::max_input_rounds)) and
///   [`RateLimited`](Self::RateLimited);
/// - [`Abandoned`](Self::Abandoned): the user cancelled an overview or a "still waiting"
///   prompt (2026-07-28; on 2025-11-25 a cancelled overview is
///   [`NotCompleted::Cancelled`]).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use std::sync::Arc;
/// # use std::sync::atomic::{AtomicU32, Ordering};
/// # use mcp_elicit_client::rmcp::{self, RoleServer, ServerHandler, ServiceExt};
/// # use rmcp::model::{
/// #     CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorCode, ErrorData,
/// #     Implementation, ServerCapabilities, ServerConfig,
/// # };
/// # use rmcp::service::RequestContext;
/// # use mcp_elicit_client::{
/// #     CallError, Config, Connection, ElicitationClient, ElicitationUi, FormPolicy, NotCompleted,
/// #     ProtocolChoice, RecordingOpener, ScriptedUi, TransportIdentity, UrlPolicy,
/// # };
/// # use mcp_elicit_core::message::Capability;
/// # // A 2025-11-25 server. `connect` fails with -32042 (one URL elicitation) on its first
/// # // call and succeeds after; `bad` fails with malformed -32042 data; other tools: -32602.
/// # #[derive(Default)]
/// # struct Gate(Arc<AtomicU32>);
/// # impl ServerHandler for Gate {
/// #     fn get_info(&self) -> ServerConfig {
/// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
/// #             .with_server_info(Implementation::new("gate", "1.0.0"))
/// #     }
/// #     async fn call_tool(
/// #         &self,
/// #         call: CallToolRequestParams,
/// #         _: RequestContext<RoleServer>,
/// #     ) -> Result<CallToolResponse, ErrorData> {
/// #         let required = |data| Err(ErrorData::new(ErrorCode(-32042), "Connect first.", Some(data)));
/// #         match call.name.as_ref() {
/// #             "connect" if self.0.fetch_add(1, Ordering::SeqCst) == 0 => required(serde_json::json!({
/// #                 "elicitations": [{"mode": "url", "elicitationId": "el-1",
/// #                     "url": "https://auth.example.com/connect", "message": "Connect your account"}]
/// #             })),
/// #             "connect" => Ok(CallToolResult::success(vec![ContentBlock::text("connected")]).into()),
/// #             "bad" => required(serde_json::json!({"elicitations": "none"})),
/// #             other => Err(ErrorData::invalid_params(format!("no tool {other}"), None)),
/// #         }
/// #     }
/// # }
/// # async fn start<U: ElicitationUi>(
/// #     ui: U,
/// #     config: Config,
/// # ) -> (ElicitationClient<U, RecordingOpener>, Connection<U, RecordingOpener>) {
/// #     let (client_io, server_io) = tokio::io::duplex(1 << 16);
/// #     tokio::spawn(async move {
/// #         if let Ok(running) = Gate::default().serve(server_io).await {
/// #             let _ = running.waiting().await;
/// #         }
/// #     });
/// #     let config = config.with_protocol(ProtocolChoice::V2025_11_25);
/// #     let client = ElicitationClient::new(ui, RecordingOpener::default(), config);
/// #     let (r, w) = tokio::io::split(client_io);
/// #     let pipe = TransportIdentity::Other { description: "in-process".into() };
/// #     let connection = client.clone().connect_io(r, w, pipe).await.unwrap();
/// #     (client, connection)
/// # }
///
/// # // `start(ui, config)`: a client connected to a server whose tool `connect` first
/// # // fails with -32042, and `bad` with malformed -32042 data.
/// let ui = ScriptedUi::new(Capability::URL, FormPolicy::Decline, UrlPolicy::Never).with_sink(|_| {});
/// let (client, connection) = start(ui, Config::default()).await;
/// let tool = |name: &str| CallToolRequestParams::new(name.to_owned());
///
/// let call = client.call_tool(connection.peer(), tool("missing")).await;
/// let Err(CallError::Service(e)) = call else { panic!("another error") };
/// assert!(e.to_string().contains("no tool missing"), "{e}");
///
/// let call = client.call_tool(connection.peer(), tool("bad")).await;
/// let Err(CallError::InvalidRequiredData { reason, error }) = call else { panic!("another error") };
/// assert_eq!(error.code.0, -32042);
/// assert!(!reason.is_empty());
///
/// // With no retries allowed, the first -32042 ends the call without asking.
/// let ui = ScriptedUi::new(Capability::URL, FormPolicy::Decline, UrlPolicy::Consent);
/// let (client, connection) = start(ui, Config::default().with_max_retry_rounds(0)).await;
/// let call = client.call_tool(connection.peer(), tool("connect")).await;
/// let Err(CallError::RoundsExhausted { rounds, error }) = call else { panic!("another error") };
/// assert_eq!((rounds, &*error.message), (0, "Connect first."));
/// # Ok(())
/// # }
/// ```
///
/// On 2026-07-28 the server's `InputRequiredResult` is checked whole before anything is
/// shown or sent:
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use serde_json::{Value, json};
/// # use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
/// # // A 2026-07-28 server speaking JSON lines; `tools/call` answers depend on the tool.
/// # async fn serve(io: tokio::io::DuplexStream) {
/// #     let (r, mut w) = tokio::io::split(io);
/// #     let mut lines = BufReader::new(r).lines();
/// #     while let Ok(Some(line)) = lines.next_line().await {
/// #         let msg: Value = serde_json::from_str(&line).unwrap_or_default();
/// #         if msg["id"].is_null() {
/// #             continue; // a notification
/// #         }
/// #         let result = match (msg["method"].as_str(), msg["params"]["name"].as_str()) {
/// #             (Some("server/discover"), _) => json!({
/// #                 "resultType": "complete", "ttlMs": 0, "cacheScope": "private",
/// #                 "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}},
/// #                 "serverInfo": {"name": "strict", "version": "1.0.0"}
/// #             }),
/// #             (Some("tools/call"), Some("bogus")) => json!({"resultType": "bogus"}),
/// #             (Some("tools/call"), Some("sign_in")) => json!({
/// #                 "resultType": "input_required",
/// #                 "inputRequests": {"u": {"method": "elicitation/create", "params": {
/// #                     "mode": "url", "message": "Sign in", "url": "https://example.com/login"}}}
/// #             }),
/// #             (Some("tools/call"), _) => json!({"resultType": "input_required", "requestState": "again"}),
/// #             _ => json!({"resultType": "complete"}),
/// #         };
/// #         let out = json!({"jsonrpc": "2.0", "id": msg["id"], "result": result}).to_string() + "\n";
/// #         if w.write_all(out.as_bytes()).await.is_err() {
/// #             break;
/// #         }
/// #     }
/// # }
/// use mcp_elicit_client::rmcp::model::CallToolRequestParams;
/// use mcp_elicit_client::{
///     CallError, Config, ElicitationClient, FormPolicy, ProtocolChoice, RecordingOpener,
///     ScriptedUi, TransportIdentity, UrlPolicy,
/// };
/// use mcp_elicit_core::message::Capability;
///
/// # let (client_io, server_io) = tokio::io::duplex(1 << 16);
/// # tokio::spawn(serve(server_io));
/// let ui = ScriptedUi::new(Capability::FORM, FormPolicy::AcceptDefaults, UrlPolicy::Never);
/// let config = Config::default()
///     .with_protocol(ProtocolChoice::V2026_07_28)
///     .with_max_input_rounds(2);
/// let client = ElicitationClient::new(ui, RecordingOpener::default(), config);
/// # let (r, w) = tokio::io::split(client_io);
/// # let pipe = TransportIdentity::Other { description: "in-process".into() };
/// let connection = client.clone().connect_io(r, w, pipe).await?;
/// let call = |name: &str| client.call_tool(connection.peer(), CallToolRequestParams::new(name.to_owned()));
///
/// // A result this client cannot read.
/// let Err(CallError::MalformedInputRequired { reason }) = call("bogus").await else { panic!() };
/// assert!(reason.contains("unknown resultType \"bogus\""), "{reason}");
///
/// // A URL step for a client that declared forms only.
/// let Err(CallError::InputRequestRefused { key, reason }) = call("sign_in").await else { panic!() };
/// assert_eq!(key, "u");
/// assert!(reason.contains("did not declare url mode"), "{reason}");
///
/// // A server that never finishes: stopped after `max_input_rounds`.
/// let Err(CallError::InputRoundsExhausted { rounds }) = call("endless").await else { panic!() };
/// assert_eq!(rounds, 2);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CallError {
    /// Transport, protocol or server error (including JSON-RPC errors other than -32042).
    #[error(transparent)]
    Service(ServiceError),
    /// The server required URL elicitation that was not carried out.
    #[error("the server requires URL elicitation that was not completed ({reason:?}): {}", error.message)]
    ElicitationRequired {
        /// Why.
        reason: NotCompleted,
        /// The -32042 error as received.
        error: Box<ErrorData>,
    },
    /// The -32042 error data is malformed.
    #[error("malformed URLElicitationRequiredError data: {reason}")]
    InvalidRequiredData {
        /// What is wrong.
        reason: String,
        /// The error as received.
        error: Box<ErrorData>,
    },
    /// Still -32042 after the allowed number of retries.
    #[error("still requires URL elicitation after {rounds} retries")]
    RoundsExhausted {
        /// Retries made.
        rounds: u32,
        /// The last -32042 error.
        error: Box<ErrorData>,
    },
    /// The connection closed while waiting for completion.
    #[error("the connection closed while waiting for URL elicitation to complete")]
    Disconnected,
    /// 2026-07-28: the server's `InputRequiredResult` is malformed; the call ended and
    /// nothing was sent.
    #[error(
        "the server's InputRequiredResult is malformed: {reason}; the call ended and nothing was sent"
    )]
    MalformedInputRequired {
        /// What is wrong, and where.
        reason: String,
    },
    /// 2026-07-28: an input request this client cannot answer (a mode or method it did
    /// not declare, a form that cannot be shown); the call ended and nothing was sent.
    #[error(
        "the server asked for input this client cannot give ({key:?}): {reason}; the call ended and nothing was sent"
    )]
    InputRequestRefused {
        /// The server's key for the input request, cut to its first 64 characters
        /// (`...` marks a cut: the key is the server's, untrusted and unbounded).
        key: String,
        /// Why, cut to its first 512 characters.
        reason: String,
    },
    /// 2026-07-28: the server still asked for input after this many rounds.
    #[error("the server still asks for input after {rounds} rounds; the call ended")]
    InputRoundsExhausted {
        /// Rounds answered.
        rounds: u32,
    },
    /// 2026-07-28: the server asked for input faster than the rate limit allows.
    #[error("the server asks for input faster than this client allows; the call ended")]
    RateLimited,
    /// The user gave up on the call (an overview or a "still waiting" prompt cancelled).
    #[error("the call was cancelled by the user")]
    Abandoned,
}

impl<U: ElicitationUi, O: UrlOpener> ElicitationClient<U, O> {
    /// Calls a tool. On 2025-11-25, carries out URL elicitations the server requires
    /// (-32042): consent, wait for the completion notifications (retry now / keep waiting /
    /// cancel when they are late), retry. On 2026-07-28, drives the `InputRequiredResult`
    /// rounds through the same UI: checks each result whole, presents its input requests
    /// (several as one [`InputOverview`](crate::InputOverview)), retries with the answers and
    /// the `requestState` echoed exactly, asks at once when the server is "still waiting",
    /// and stops after [`Config::max_input_rounds`](crate::Config::max_input_rounds).
    ///
    /// # The -32042 retry, step by step (2025-11-25)
    ///
    /// When a call fails with `URLElicitationRequiredError` (-32042):
    /// 1. the error data is parsed ([`UrlElicitationRequired::parse_data`]);
    /// 2. a completion waiter is registered for every listed elicitation *before* any is
    ///    presented (so a notification that arrives fast is not missed);
    /// 3. the user sees the whole list ([`ElicitationUi::required_overview`]), then is asked
    ///    consent for each (the same pipeline as URL-mode requests: analysis, blocked URLs
    ///    refused, explicit consent, system browser);
    /// 4. the client waits for all completion notifications; when they are overdue
    ///    ([`Config::completion_timeout`](crate::Config::completion_timeout)) the user
    ///    chooses retry now, keep waiting or cancel;
    /// 5. the original request is retried, at most
    ///    [`Config::max_retry_rounds`](crate::Config::max_retry_rounds) times; why it stopped
    ///    otherwise is a [`CallError`] ([`NotCompleted`] says which step).
    ///
    /// Here the server never sends the completion notification: after the (shortened)
    /// completion timeout [`ScriptedUi`](crate::ScriptedUi) chooses "retry now", and the
    /// retry succeeds.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::sync::Arc;
    /// # use std::sync::atomic::{AtomicU32, Ordering};
    /// # use mcp_elicit_client::rmcp::{self, RoleServer, ServerHandler, ServiceExt};
    /// # use rmcp::model::{
    /// #     CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorCode, ErrorData,
    /// #     Implementation, ServerCapabilities, ServerConfig,
    /// # };
    /// # use rmcp::service::RequestContext;
    /// # use mcp_elicit_client::{
    /// #     CallError, Config, Connection, ElicitationClient, ElicitationUi, FormPolicy, NotCompleted,
    /// #     ProtocolChoice, RecordingOpener, ScriptedUi, TransportIdentity, UrlPolicy,
    /// # };
    /// # use mcp_elicit_core::message::Capability;
    /// # // A 2025-11-25 server. `connect` fails with -32042 (one URL elicitation) on its first
    /// # // call and succeeds after; `bad` fails with malformed -32042 data; other tools: -32602.
    /// # #[derive(Default)]
    /// # struct Gate(Arc<AtomicU32>);
    /// # impl ServerHandler for Gate {
    /// #     fn get_info(&self) -> ServerConfig {
    /// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    /// #             .with_server_info(Implementation::new("gate", "1.0.0"))
    /// #     }
    /// #     async fn call_tool(
    /// #         &self,
    /// #         call: CallToolRequestParams,
    /// #         _: RequestContext<RoleServer>,
    /// #     ) -> Result<CallToolResponse, ErrorData> {
    /// #         let required = |data| Err(ErrorData::new(ErrorCode(-32042), "Connect first.", Some(data)));
    /// #         match call.name.as_ref() {
    /// #             "connect" if self.0.fetch_add(1, Ordering::SeqCst) == 0 => required(serde_json::json!({
    /// #                 "elicitations": [{"mode": "url", "elicitationId": "el-1",
    /// #                     "url": "https://auth.example.com/connect", "message": "Connect your account"}]
    /// #             })),
    /// #             "connect" => Ok(CallToolResult::success(vec![ContentBlock::text("connected")]).into()),
    /// #             "bad" => required(serde_json::json!({"elicitations": "none"})),
    /// #             other => Err(ErrorData::invalid_params(format!("no tool {other}"), None)),
    /// #         }
    /// #     }
    /// # }
    /// # async fn start<U: ElicitationUi>(
    /// #     ui: U,
    /// #     config: Config,
    /// # ) -> (ElicitationClient<U, RecordingOpener>, Connection<U, RecordingOpener>) {
    /// #     let (client_io, server_io) = tokio::io::duplex(1 << 16);
    /// #     tokio::spawn(async move {
    /// #         if let Ok(running) = Gate::default().serve(server_io).await {
    /// #             let _ = running.waiting().await;
    /// #         }
    /// #     });
    /// #     let config = config.with_protocol(ProtocolChoice::V2025_11_25);
    /// #     let client = ElicitationClient::new(ui, RecordingOpener::default(), config);
    /// #     let (r, w) = tokio::io::split(client_io);
    /// #     let pipe = TransportIdentity::Other { description: "in-process".into() };
    /// #     let connection = client.clone().connect_io(r, w, pipe).await.unwrap();
    /// #     (client, connection)
    /// # }
    /// use std::time::Duration;
    ///
    /// # // `start(ui, config)`: a client connected to a server whose tool `connect` first
    /// # // fails with -32042 listing https://auth.example.com/connect, then succeeds.
    /// let ui = ScriptedUi::new(Capability::URL, FormPolicy::Decline, UrlPolicy::Consent).with_sink(|_| {});
    /// let config = Config::default().with_completion_timeout(Duration::from_millis(50));
    /// let (client, connection) = start(ui, config).await;
    ///
    /// let result = client.call_tool(connection.peer(), CallToolRequestParams::new("connect")).await?;
    /// assert_eq!(result.content[0].as_text().unwrap().text, "connected");
    /// assert!(client.registry().is_pending("el-1")); // no notification came
    /// assert!(client.ui().failures().is_empty());
    /// # Ok(())
    /// # }
    /// ```
    pub async fn call_tool(
        &self,
        peer: &Peer<RoleClient>,
        params: CallToolRequestParams,
    ) -> Result<CallToolResult, CallError> {
        if crate::client::is_2026(peer) {
            return self.call_tool_rounds(peer, params).await;
        }
        let tool = params.name.to_string();
        self.with_url_elicitation(peer, &tool, || peer.call_tool(params.clone()))
            .await
    }

    /// Runs any request (`prompts/get`, `resources/read`, a custom one...) with the same
    /// -32042 handling as [`call_tool`](Self::call_tool): `request` is called again after
    /// the required URL elicitations complete. `label` names the request in prompts
    /// ([`UrlOrigin::RequiredByCall`]).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::sync::Arc;
    /// # use std::sync::atomic::{AtomicU32, Ordering};
    /// # use mcp_elicit_client::rmcp::{self, RoleServer, ServerHandler, ServiceExt};
    /// # use rmcp::model::{
    /// #     CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorCode, ErrorData,
    /// #     Implementation, ServerCapabilities, ServerConfig,
    /// # };
    /// # use rmcp::service::RequestContext;
    /// # use mcp_elicit_client::{
    /// #     CallError, Config, Connection, ElicitationClient, ElicitationUi, FormPolicy, NotCompleted,
    /// #     ProtocolChoice, RecordingOpener, ScriptedUi, TransportIdentity, UrlPolicy,
    /// # };
    /// # use mcp_elicit_core::message::Capability;
    /// # // A 2025-11-25 server. `connect` fails with -32042 (one URL elicitation) on its first
    /// # // call and succeeds after; `bad` fails with malformed -32042 data; other tools: -32602.
    /// # #[derive(Default)]
    /// # struct Gate(Arc<AtomicU32>);
    /// # impl ServerHandler for Gate {
    /// #     fn get_info(&self) -> ServerConfig {
    /// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    /// #             .with_server_info(Implementation::new("gate", "1.0.0"))
    /// #     }
    /// #     async fn call_tool(
    /// #         &self,
    /// #         call: CallToolRequestParams,
    /// #         _: RequestContext<RoleServer>,
    /// #     ) -> Result<CallToolResponse, ErrorData> {
    /// #         let required = |data| Err(ErrorData::new(ErrorCode(-32042), "Connect first.", Some(data)));
    /// #         match call.name.as_ref() {
    /// #             "connect" if self.0.fetch_add(1, Ordering::SeqCst) == 0 => required(serde_json::json!({
    /// #                 "elicitations": [{"mode": "url", "elicitationId": "el-1",
    /// #                     "url": "https://auth.example.com/connect", "message": "Connect your account"}]
    /// #             })),
    /// #             "connect" => Ok(CallToolResult::success(vec![ContentBlock::text("connected")]).into()),
    /// #             "bad" => required(serde_json::json!({"elicitations": "none"})),
    /// #             other => Err(ErrorData::invalid_params(format!("no tool {other}"), None)),
    /// #         }
    /// #     }
    /// # }
    /// # async fn start<U: ElicitationUi>(
    /// #     ui: U,
    /// #     config: Config,
    /// # ) -> (ElicitationClient<U, RecordingOpener>, Connection<U, RecordingOpener>) {
    /// #     let (client_io, server_io) = tokio::io::duplex(1 << 16);
    /// #     tokio::spawn(async move {
    /// #         if let Ok(running) = Gate::default().serve(server_io).await {
    /// #             let _ = running.waiting().await;
    /// #         }
    /// #     });
    /// #     let config = config.with_protocol(ProtocolChoice::V2025_11_25);
    /// #     let client = ElicitationClient::new(ui, RecordingOpener::default(), config);
    /// #     let (r, w) = tokio::io::split(client_io);
    /// #     let pipe = TransportIdentity::Other { description: "in-process".into() };
    /// #     let connection = client.clone().connect_io(r, w, pipe).await.unwrap();
    /// #     (client, connection)
    /// # }
    /// use std::time::Duration;
    ///
    /// # // `start(ui, config)`: a client connected to a server whose tool `connect` first
    /// # // fails with -32042, then succeeds.
    /// let ui = ScriptedUi::new(Capability::URL, FormPolicy::Decline, UrlPolicy::Consent).with_sink(|_| {});
    /// let config = Config::default().with_completion_timeout(Duration::from_millis(50));
    /// let (client, connection) = start(ui, config).await;
    /// let peer = connection.peer();
    ///
    /// // Any request: here a `tools/call` sent by hand, its result read as JSON.
    /// let mut attempts = 0;
    /// let result = client
    ///     .with_url_elicitation(peer, "connect my account", || {
    ///         attempts += 1;
    ///         peer.call_tool(CallToolRequestParams::new("connect"))
    ///     })
    ///     .await?;
    /// assert_eq!(attempts, 2);
    /// assert_eq!(result.content[0].as_text().unwrap().text, "connected");
    /// # Ok(())
    /// # }
    /// ```
    pub async fn with_url_elicitation<T, F, Fut>(
        &self,
        peer: &Peer<RoleClient>,
        label: &str,
        mut request: F,
    ) -> Result<T, CallError>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, ServiceError>>,
    {
        let max_rounds = self.config().max_retry_rounds;
        let mut rounds = 0u32;
        loop {
            let error = match request().await {
                Ok(result) => return Ok(result),
                Err(ServiceError::McpError(e)) if e.code.0 == URL_ELICITATION_REQUIRED => e,
                Err(e) => return Err(CallError::Service(e)),
            };
            if rounds >= max_rounds {
                return Err(CallError::RoundsExhausted {
                    rounds,
                    error: Box::new(error),
                });
            }
            rounds += 1;
            self.fulfil_required(peer, label, rounds, error).await?;
        }
    }

    /// Carries out the elicitations of one -32042 error; `Ok` means "retry now".
    async fn fulfil_required(
        &self,
        peer: &Peer<RoleClient>,
        tool: &str,
        round: u32,
        error: ErrorData,
    ) -> Result<(), CallError> {
        let not_completed = |reason, error| {
            Err(CallError::ElicitationRequired {
                reason,
                error: Box::new(error),
            })
        };
        if !self.capability().url {
            return not_completed(NotCompleted::UrlModeNotSupported, error);
        }
        if self.is_stop_asking() {
            return not_completed(NotCompleted::StopAsking, error);
        }
        let parsed = match error.data.as_ref() {
            None => Err("the error has no data".to_owned()),
            Some(data) => UrlElicitationRequired::parse_data(data).map_err(|e| e.to_string()),
        };
        let required = match parsed {
            Ok(r) => r,
            Err(reason) => {
                return Err(CallError::InvalidRequiredData {
                    reason,
                    error: Box::new(error),
                });
            }
        };
        if required.elicitations().len() > self.config().limits.max_required_elicitations {
            return not_completed(NotCompleted::TooMany, error);
        }
        let server = self.identity(peer);
        // Waiters first: a notification racing the consent prompt must not be lost.
        let mut waiters: Vec<_> = required
            .elicitations()
            .iter()
            .map(|e| self.registry().register(&e.elicitation_id))
            .collect();
        {
            let _turn = self.shared.lane.lock().await;
            let overview = RequiredOverview {
                server: server.clone(),
                tool: tool.to_owned(),
                steps: required
                    .elicitations()
                    .iter()
                    .map(|e| RequiredStep {
                        elicitation_id: e.elicitation_id.clone(),
                        message: PlainText::from_untrusted(&e.message),
                        url: e.url.clone(),
                        analysis: mcp_elicit_core::url_safety::analyze(&e.url),
                    })
                    .collect(),
                round,
            };
            if self.shared.ui.required_overview(overview).await == OverviewChoice::Cancel {
                return not_completed(NotCompleted::Cancelled, error);
            }
            let of = required.elicitations().len();
            for (i, (request, waiter)) in required.elicitations().iter().zip(&waiters).enumerate() {
                if waiter.is_completed() {
                    continue;
                }
                let origin = UrlOrigin::RequiredByCall {
                    tool: tool.to_owned(),
                    step: i + 1,
                    of,
                };
                match self.consent_url(&server, origin, request).await {
                    UrlOutcome::Opened => {}
                    UrlOutcome::Declined if self.is_stop_asking() => {
                        return not_completed(NotCompleted::StopAsking, error);
                    }
                    UrlOutcome::Declined => return not_completed(NotCompleted::Declined, error),
                    UrlOutcome::Blocked => return not_completed(NotCompleted::Blocked, error),
                    UrlOutcome::Cancelled => return not_completed(NotCompleted::Cancelled, error),
                }
            }
        }
        let ids: Vec<String> = waiters.iter().map(|w| w.id().to_owned()).collect();
        let start = Instant::now();
        let all = futures::future::try_join_all(waiters.iter_mut().map(|w| w.wait()));
        tokio::pin!(all);
        loop {
            tokio::select! {
                r = &mut all => return match r {
                    Ok(_) | Err(WaitError::Evicted) => Ok(()),
                    Err(WaitError::Disconnected) => Err(CallError::Disconnected),
                },
                () = tokio::time::sleep(self.config().completion_timeout) => {}
            }
            let stalled = StalledCompletion {
                server: server.clone(),
                tool: tool.to_owned(),
                pending: ids
                    .iter()
                    .filter(|id| self.registry().is_pending(id))
                    .cloned()
                    .collect(),
                waited: start.elapsed(),
            };
            tokio::select! {
                r = &mut all => return match r {
                    Ok(_) | Err(WaitError::Evicted) => Ok(()),
                    Err(WaitError::Disconnected) => Err(CallError::Disconnected),
                },
                choice = self.shared.ui.completion_stalled(stalled) => match choice {
                    StallChoice::RetryNow => return Ok(()),
                    StallChoice::KeepWaiting => {}
                    StallChoice::Cancel => return not_completed(NotCompleted::Cancelled, error),
                },
            }
        }
    }
}
