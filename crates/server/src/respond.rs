//! Where results leave: [`Stop`] and [`respond`] (a handler's outcome to rmcp's
//! response types) and [`Edge`] (the service wrapper that decides the revision once per
//! request and puts the 2026-07-28 wire right).

use std::borrow::Cow;
use std::collections::BTreeMap;

#[allow(deprecated)]
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelledNotificationParam,
    CompleteRequestParams, CompleteResult, CustomNotification, CustomRequest, CustomResult,
    DiscoverResult, GetPromptRequestParams, GetPromptResponse, GetPromptResult,
    InitializeRequestParams, InitializeResult, InputRequests, InputRequiredResult,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    MetaObject, PaginatedRequestParams, ProgressNotificationParam, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, ResultType, ServerConfig,
    SetLevelRequestParams, SubscribeRequestParams, Tool, UnsubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Map, Value};

use crate::error::Error;
use crate::revision::Revision;

/// The `_meta` member in which an [`InputRound`] keeps its requests' exact JSON inside
/// rmcp's typed `InputRequiredResult`, until [`Edge`] puts it on the wire (and removes
/// this member).
pub(crate) const EXACT_REQUESTS_META: &str = "mcp-elicit/exactInputRequests";

/// One 2026-07-28 round: the input requests, by key, as the exact JSON to send, and the
/// sealed `requestState`.
///
/// What a handler on 2026-07-28 stops with when an answer is not there yet: the requests
/// by key, and the state the client echoes with its answers (hidden: a raw 2026-07-28
/// client over an in-memory pipe, to a server behind [`Edge`]):
///
/// ```
/// use mcp_elicit_server::{InputRound, SessionScope, Stop, text};
/// # use std::sync::Mutex;
/// # use mcp_elicit_server::rmcp::model::*;
/// # use mcp_elicit_server::rmcp::service::RequestContext;
/// # use mcp_elicit_server::rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
/// # use mcp_elicit_server::serde_json::{Value, json};
/// # use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf};
/// # /// The server: every tool call runs `tool` (below), answered with `respond`.
/// # struct Server(mcp_elicit_server::SessionScope);
/// # impl ServerHandler for Server {
/// #     fn get_info(&self) -> ServerConfig {
/// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
/// #             .with_protocol_version(ProtocolVersion::V_2025_11_25)
/// #     }
/// #     fn supported_protocol_versions(&self) -> std::borrow::Cow<'static, [ProtocolVersion]> {
/// #         std::borrow::Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2026_07_28))
/// #     }
/// #     async fn call_tool(&self, request: CallToolRequestParams, ctx: RequestContext<RoleServer>)
/// #         -> Result<CallToolResponse, ErrorData> {
/// #         mcp_elicit_server::respond(tool(&self.0, &request, &ctx).await)
/// #     }
/// # }
/// # /// A raw 2026-07-28 client with form mode: one JSON line out, the result back.
/// # struct Raw {
/// #     writer: WriteHalf<DuplexStream>,
/// #     lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
/// #     next: u64,
/// # }
/// # impl Raw {
/// #     async fn call(&mut self, name: &str, extra: Value) -> Value {
/// #         self.next += 1;
/// #         let mut params = json!({"name": name, "arguments": {}, "_meta": {
/// #             "io.modelcontextprotocol/protocolVersion": "2026-07-28",
/// #             "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
/// #             "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"}}});
/// #         if let (Value::Object(p), Value::Object(e)) = (&mut params, extra) {
/// #             p.extend(e);
/// #         }
/// #         let request = json!({"jsonrpc": "2.0", "id": self.next, "method": "tools/call", "params": params});
/// #         self.writer.write_all(format!("{request}\n").as_bytes()).await.unwrap();
/// #         self.writer.flush().await.unwrap();
/// #         let line = self.lines.next_line().await.unwrap().unwrap();
/// #         let reply: Value = serde_json::from_str(&line).unwrap();
/// #         reply.get("result").cloned().unwrap_or(reply)
/// #     }
/// # }
/// # fn raw(hub: &mcp_elicit_server::Elicitations) -> Raw {
/// #     let (client_io, server_io) = tokio::io::duplex(1 << 20);
/// #     let server = mcp_elicit_server::Edge::new(Server(hub.scope().unwrap()));
/// #     tokio::spawn(async move {
/// #         let (read, write) = tokio::io::split(server_io);
/// #         if let Ok(running) = server.serve(mcp_elicit_server::wire::edge_rw(read, write)).await {
/// #             let _ = running.waiting().await;
/// #         }
/// #     });
/// #     let (read, writer) = tokio::io::split(client_io);
/// #     Raw { writer, lines: BufReader::new(read).lines(), next: 0 }
/// # }
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Party {
///     size: u8,
/// }
///
/// /// The last round this handler stopped at.
/// static ROUND: Mutex<Option<InputRound>> = Mutex::new(None);
///
/// async fn tool(
///     scope: &SessionScope,
///     request: &CallToolRequestParams,
///     ctx: &RequestContext<RoleServer>,
/// ) -> Result<CallToolResult, Stop> {
///     let mut ask = scope.ask(ctx, request).await?;
///     match ask.form::<Party>("party", "Table for how many?").await {
///         Ok(outcome) => Ok(text(format!("table for {:?}", outcome.ok().map(|p| p.size)))),
///         Err(Stop::Input(round)) => {
///             *ROUND.lock().unwrap() = Some(round.clone());
///             Err(Stop::Input(round)) // `respond` sends it as the InputRequiredResult
///         }
///         Err(other) => Err(other),
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let hub = mcp_elicit_server::Elicitations::local();
/// # let mut client = raw(&hub);
/// let first = client.call("book", json!({})).await;
/// let round = ROUND.lock().unwrap().clone().expect("the handler stopped at a round");
/// assert_eq!(round.requests()["party"]["method"], "elicitation/create");
/// let state = round.request_state().expect("sealed").to_owned();
///
/// // On the wire: `to_value`, the exact JSON (`pattern` and all), with `resultType`.
/// let wire = round.to_value();
/// assert_eq!(first["resultType"], "input_required");
/// assert_eq!((&first["inputRequests"], &first["requestState"]), (&wire["inputRequests"], &wire["requestState"]));
///
/// // The client's retry, with the answer and the state echoed.
/// let answer = json!({"action": "accept", "content": {"size": 4}});
/// let done = client
///     .call("book", json!({"inputResponses": {"party": answer}, "requestState": state}))
///     .await;
/// assert_eq!(done["content"][0]["text"], "table for Some(4)");
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct InputRound {
    requests: BTreeMap<String, Value>,
    state: Option<String>,
}

impl InputRound {
    /// A round of exactly these input requests (`{"method": ..., "params": ...}` by key)
    /// and this sealed `requestState`, for a server that builds its rounds itself (a
    /// gateway passing on questions it did not write); [`Ask`](crate::Ask) builds them
    /// for handlers.
    ///
    /// ```
    /// use std::collections::BTreeMap;
    /// use mcp_elicit_server::InputRound;
    /// use mcp_elicit_server::serde_json::json;
    ///
    /// let question = json!({"method": "elicitation/create", "params": {
    ///     "mode": "form", "message": "Handle?",
    ///     "requestedSchema": {"type": "object", "properties": {
    ///         "handle": {"type": "string", "pattern": "^[a-z]+$"}}}}});
    /// let round = InputRound::new(BTreeMap::from([("q1".to_owned(), question.clone())]), Some("s".into()));
    /// let wire = round.to_value();
    /// assert_eq!(wire["resultType"], "input_required");
    /// assert_eq!(wire["inputRequests"]["q1"], question); // `pattern` and all
    /// assert_eq!(wire["requestState"], "s");
    /// ```
    pub fn new(requests: BTreeMap<String, Value>, state: Option<String>) -> Self {
        Self { requests, state }
    }

    /// The input requests by key (`{"method": ..., "params": ...}` each).
    pub fn requests(&self) -> &BTreeMap<String, Value> {
        &self.requests
    }

    /// The sealed `requestState`.
    pub fn request_state(&self) -> Option<&str> {
        self.state.as_deref()
    }

    /// The result exactly as it goes on the wire.
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("resultType".into(), Value::String("input_required".into()));
        map.insert(
            "inputRequests".into(),
            Value::Object(
                self.requests
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            ),
        );
        if let Some(state) = &self.state {
            map.insert("requestState".into(), Value::String(state.clone()));
        }
        Value::Object(map)
    }

    /// rmcp's typed result. Its typed requests lose what rmcp's model cannot hold
    /// (`pattern` in a form schema, for one); the exact JSON rides along in `_meta` for
    /// [`Edge`] to send instead. Without `Edge` the client gets the typed (lossy) form.
    ///
    /// ```
    /// use mcp_elicit_server::{InputRound, Schema, SessionScope, Stop};
    /// # use std::sync::Mutex;
    /// # use mcp_elicit_server::rmcp::model::*;
    /// # use mcp_elicit_server::rmcp::service::RequestContext;
    /// # use mcp_elicit_server::rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
    /// # use mcp_elicit_server::serde_json::{Value, json};
    /// # use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf};
    /// # /// The server: every tool call runs `tool` (below), answered with `respond`.
    /// # struct Server(mcp_elicit_server::SessionScope);
    /// # impl ServerHandler for Server {
    /// #     fn get_info(&self) -> ServerConfig {
    /// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    /// #             .with_protocol_version(ProtocolVersion::V_2025_11_25)
    /// #     }
    /// #     fn supported_protocol_versions(&self) -> std::borrow::Cow<'static, [ProtocolVersion]> {
    /// #         std::borrow::Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2026_07_28))
    /// #     }
    /// #     async fn call_tool(&self, request: CallToolRequestParams, ctx: RequestContext<RoleServer>)
    /// #         -> Result<CallToolResponse, ErrorData> {
    /// #         mcp_elicit_server::respond(tool(&self.0, &request, &ctx).await)
    /// #     }
    /// # }
    /// # /// A raw 2026-07-28 client with form mode: one JSON line out, the result back.
    /// # struct Raw {
    /// #     writer: WriteHalf<DuplexStream>,
    /// #     lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    /// #     next: u64,
    /// # }
    /// # impl Raw {
    /// #     async fn call(&mut self, name: &str, extra: Value) -> Value {
    /// #         self.next += 1;
    /// #         let mut params = json!({"name": name, "arguments": {}, "_meta": {
    /// #             "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    /// #             "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
    /// #             "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"}}});
    /// #         if let (Value::Object(p), Value::Object(e)) = (&mut params, extra) {
    /// #             p.extend(e);
    /// #         }
    /// #         let request = json!({"jsonrpc": "2.0", "id": self.next, "method": "tools/call", "params": params});
    /// #         self.writer.write_all(format!("{request}\n").as_bytes()).await.unwrap();
    /// #         self.writer.flush().await.unwrap();
    /// #         let line = self.lines.next_line().await.unwrap().unwrap();
    /// #         let reply: Value = serde_json::from_str(&line).unwrap();
    /// #         reply.get("result").cloned().unwrap_or(reply)
    /// #     }
    /// # }
    /// # fn raw(hub: &mcp_elicit_server::Elicitations) -> Raw {
    /// #     let (client_io, server_io) = tokio::io::duplex(1 << 20);
    /// #     let server = mcp_elicit_server::Edge::new(Server(hub.scope().unwrap()));
    /// #     tokio::spawn(async move {
    /// #         let (read, write) = tokio::io::split(server_io);
    /// #         if let Ok(running) = server.serve(mcp_elicit_server::wire::edge_rw(read, write)).await {
    /// #             let _ = running.waiting().await;
    /// #         }
    /// #     });
    /// #     let (read, writer) = tokio::io::split(client_io);
    /// #     Raw { writer, lines: BufReader::new(read).lines(), next: 0 }
    /// # }
    /// static ROUND: Mutex<Option<InputRound>> = Mutex::new(None);
    ///
    /// async fn tool(
    ///     scope: &SessionScope,
    ///     request: &CallToolRequestParams,
    ///     ctx: &RequestContext<RoleServer>,
    /// ) -> Result<CallToolResult, Stop> {
    ///     let schema = Schema::parse(&json!({"type": "object", "properties": {
    ///         "handle": {"type": "string", "pattern": "^[a-z]+$"}}}))
    ///     .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
    ///     let mut ask = scope.ask(ctx, request).await?;
    ///     let stopped = ask.form_with_schema("profile", "Pick a handle", &schema).await;
    ///     if let Err(Stop::Input(round)) = &stopped {
    ///         *ROUND.lock().unwrap() = Some(round.clone());
    ///     }
    ///     stopped.map(|_| mcp_elicit_server::text("answered"))
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = mcp_elicit_server::Elicitations::local();
    /// # let mut client = raw(&hub);
    /// # client.call("profile", json!({})).await;
    /// let round = ROUND.lock().unwrap().clone().expect("stopped at a round");
    /// let typed = round.to_result();
    /// assert_eq!(typed.request_state.as_deref(), round.request_state());
    /// // rmcp's typed requests have no `pattern`; the exact JSON rides in `_meta` for `Edge`.
    /// let typed_json = serde_json::to_string(&typed.input_requests)?;
    /// assert!(!typed_json.contains("pattern"));
    /// let meta = serde_json::to_value(&typed.meta)?;
    /// assert_eq!(meta["mcp-elicit/exactInputRequests"], json!(round.requests()));
    /// assert!(meta.to_string().contains("^[a-z]+$"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn to_result(&self) -> InputRequiredResult {
        self.clone().into_result()
    }

    /// [`InputRound::to_result`], taking the round: its requests move into the result
    /// rather than being copied ([`respond`] owns the round it answers).
    pub(crate) fn into_result(self) -> InputRequiredResult {
        let typed: InputRequests = self
            .requests
            .iter()
            .filter_map(|(k, v)| crate::typed_request::typed_request(v).map(|r| (k.clone(), r)))
            .collect();
        let typed = (!typed.is_empty()).then_some(typed);
        let state = self.state.or_else(|| typed.is_none().then(String::new));
        let mut meta = MetaObject::new();
        meta.0.insert(
            EXACT_REQUESTS_META.into(),
            Value::Object(self.requests.into_iter().collect()),
        );
        InputRequiredResult::new(typed, state).with_meta(meta)
    }
}

/// Why a handler stopped before its result: input is still needed (a 2026-07-28
/// round), the user ended it, or it failed. Return it with `?`; [`respond`] or
/// [`respond_tool`] finishes the handler.
///
/// What `?` makes of an [`Error`]: user-driven ends are [`Stop::User`], the rest
/// [`Stop::Fail`] with the JSON-RPC error; `respond` answers both as errors,
/// `respond_tool` answers [`Stop::User`] as a tool result the model can read:
///
/// ```
/// use mcp_elicit_server::rmcp::model::CallToolResponse;
/// use mcp_elicit_server::{Error, ErrorKind, FormOutcome, Stop, respond, respond_tool};
///
/// let declined = || Stop::from(FormOutcome::<u8>::Declined.accepted().unwrap_err());
/// assert!(matches!(declined(), Stop::User(e) if e.kind() == ErrorKind::UserDeclined));
/// assert_eq!(respond::<mcp_elicit_server::rmcp::model::CallToolResult>(Err(declined())).unwrap_err().code.0, -32602);
/// let Ok(CallToolResponse::Complete(told)) = respond_tool(Err(declined())) else {
///     panic!("a tool result");
/// };
/// assert_eq!(told.is_error, Some(true));
///
/// let broken = Stop::from(Error::new(ErrorKind::Store, "disk I/O error"));
/// assert!(matches!(&broken, Stop::Fail(e) if e.code.0 == -32603));
/// assert!(respond_tool(Err(broken)).is_err()); // still a JSON-RPC error
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Stop {
    /// Send this round; the client asks the user and retries.
    Input(InputRound),
    /// What a person did ended the handler ([`Error::is_user_driven`]: declined,
    /// dismissed, an answer still invalid after the re-ask, no answer in time).
    /// [`respond`] answers the JSON-RPC error as before; [`respond_tool`] answers a tool
    /// result saying so ([`Error::tool_result`]), which the model can act on.
    User(Error),
    /// Answer this JSON-RPC error.
    Fail(ErrorData),
}

impl From<Error> for Stop {
    fn from(e: Error) -> Self {
        if e.is_user_driven() {
            Stop::User(e)
        } else {
            Stop::Fail(e.into())
        }
    }
}

impl From<ErrorData> for Stop {
    fn from(e: ErrorData) -> Self {
        Stop::Fail(e)
    }
}

/// A final result type whose request may also answer an `InputRequiredResult`.
///
/// Implemented for the three results 2026-07-28 allows a round on; [`respond`] uses it:
///
/// ```
/// use mcp_elicit_server::rmcp::model::{CallToolResponse, CallToolResult};
/// use mcp_elicit_server::{Complete, text};
///
/// let response: CallToolResponse = text("done").complete();
/// assert!(matches!(response, CallToolResponse::Complete(r) if r.is_error == Some(false)));
/// # let _ = <CallToolResult as Complete>::input_required;
/// ```
pub trait Complete {
    /// rmcp's response type for the request.
    type Response;
    /// The final result as the response.
    fn complete(self) -> Self::Response;
    /// A round as the response.
    fn input_required(round: InputRequiredResult) -> Self::Response;
}

impl Complete for CallToolResult {
    type Response = CallToolResponse;
    fn complete(self) -> CallToolResponse {
        CallToolResponse::Complete(self)
    }
    fn input_required(round: InputRequiredResult) -> CallToolResponse {
        CallToolResponse::InputRequired(round)
    }
}

impl Complete for GetPromptResult {
    type Response = GetPromptResponse;
    fn complete(self) -> GetPromptResponse {
        GetPromptResponse::Complete(self)
    }
    fn input_required(round: InputRequiredResult) -> GetPromptResponse {
        GetPromptResponse::InputRequired(round)
    }
}

impl Complete for ReadResourceResult {
    type Response = ReadResourceResponse;
    fn complete(self) -> ReadResourceResponse {
        ReadResourceResponse::Complete(self)
    }
    fn input_required(round: InputRequiredResult) -> ReadResourceResponse {
        ReadResourceResponse::InputRequired(round)
    }
}

/// Finishes a handler: its result, the round it stopped at, or its error, as what
/// rmcp's `call_tool` / `get_prompt` / `read_resource` return.
///
/// ```no_run
/// # use mcp_elicit_server::{respond, SessionScope, Stop};
/// # use rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock};
/// # use rmcp::{ErrorData, RoleServer, service::RequestContext};
/// # #[derive(serde::Deserialize, schemars::JsonSchema)] struct Contact { name: String }
/// async fn call_tool(scope: &SessionScope, request: CallToolRequestParams, ctx: RequestContext<RoleServer>)
///     -> Result<CallToolResponse, ErrorData> {
///     respond(add_contact(scope, &request, &ctx).await)
/// }
/// async fn add_contact(scope: &SessionScope, request: &CallToolRequestParams, ctx: &RequestContext<RoleServer>)
///     -> Result<CallToolResult, Stop> {
///     let mut ask = scope.ask(ctx, request).await?;
///     let contact = ask.form::<Contact>("contact", "Who should be added?").await?;
///     # let _ = contact;
///     Ok(CallToolResult::success(vec![ContentBlock::text("added")]))
/// }
/// ```
pub fn respond<T: Complete>(result: Result<T, Stop>) -> Result<T::Response, ErrorData> {
    match result {
        Ok(done) => Ok(done.complete()),
        Err(Stop::Input(round)) => Ok(T::input_required(round.into_result())),
        Err(Stop::User(e)) => Err(e.into()),
        Err(Stop::Fail(e)) => Err(e),
    }
}

/// What a tool answers rmcp with: what [`respond`] (for a tool), [`respond_tool`] and
/// [`SessionScope::tool`](crate::SessionScope::tool) return, and a `#[tool]` function
/// can return as is.
///
/// ```
/// use mcp_elicit_server::{ToolReply, respond, text};
///
/// let reply: ToolReply = respond(Ok(text("done")));
/// assert!(reply.is_ok());
/// ```
pub type ToolReply = Result<CallToolResponse, ErrorData>;

/// A successful tool result of one text block: `CallToolResult::success` with
/// `ContentBlock::text(text)`.
///
/// ```
/// let result = mcp_elicit_server::text("Table for 4");
/// assert_eq!(result.is_error, Some(false));
/// assert_eq!(result.content[0].as_text().map(|t| t.text.as_str()), Some("Table for 4"));
/// ```
pub fn text(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![rmcp::model::ContentBlock::text(text)])
}

/// [`respond`] for a tool, where what the user did is a result, not a failure: a
/// [`Stop::User`] (the user declined or dismissed through
/// [`FormOutcome::accepted`](crate::FormOutcome::accepted), an answer still invalid after
/// the re-ask, no answer in time) becomes a tool result with `isError: true` saying so
/// ([`Error::tool_result`]), which reaches the model, instead of JSON-RPC -32602 / -32603,
/// which it never sees. On 2026-07-28 a [`Stop::Input`] is still the
/// `InputRequiredResult` round, and every other failure is still a JSON-RPC error.
///
/// ```no_run
/// # use mcp_elicit_server::{respond_tool, SessionScope, Stop};
/// # use rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock};
/// # use rmcp::{ErrorData, RoleServer, service::RequestContext};
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Contact {
///     name: String,
/// }
/// async fn call_tool(scope: &SessionScope, request: CallToolRequestParams, ctx: RequestContext<RoleServer>)
///     -> Result<CallToolResponse, ErrorData> {
///     respond_tool(add_contact(scope, &request, &ctx).await)
/// }
/// async fn add_contact(scope: &SessionScope, request: &CallToolRequestParams, ctx: &RequestContext<RoleServer>)
///     -> Result<CallToolResult, Stop> {
///     let mut ask = scope.ask(ctx, request).await?;
///     // Declined, dismissed, invalid twice or too slow: the model reads why.
///     let contact = ask.form::<Contact>("contact", "Who should be added?").await?.accepted()?;
///     Ok(CallToolResult::success(vec![ContentBlock::text(format!("added {}", contact.name))]))
/// }
/// ```
pub fn respond_tool(result: Result<CallToolResult, Stop>) -> Result<CallToolResponse, ErrorData> {
    match result {
        Err(Stop::User(e)) => match e.tool_result() {
            Some(r) => Ok(CallToolResponse::Complete(r)),
            None => Err(e.into()),
        },
        other => respond(other),
    }
}

/// The handler wrapper every handler using [`Ask`](crate::Ask) is served through (over
/// Streamable HTTP, stdio, or anything else rmcp serves): `Edge::new(handler)`.
///
/// Per request it decides the [`Revision`] once (from the request's protocol version)
/// and records it in the request's extensions for [`Revision::of`]. On 2026-07-28:
///
/// - every result carries `resultType` (`"complete"` unless it says otherwise): rmcp
///   3.11 leaves it out of results built by deserializing (its ordinary results model
///   the field as optional and only its constructors set it; an upstream gap);
/// - -32042 is never sent (the revision removed it): a handler returning it is a bug,
///   answered as an internal error, without logging the error's URLs.
///
/// The exact JSON of a round's requests (rmcp's typed `ElicitRequest` drops `pattern`)
/// is put on the wire below rmcp's typed model: by
/// [`exact_rounds_http`](crate::wire::exact_rounds_http) on Streamable HTTP (the
/// reference router installs it) and [`EdgeTransport`](crate::wire::EdgeTransport) on
/// stdio and other transports. 2025-11-25 requests pass through untouched.
///
/// It also puts a clone of the request's parameters (`CallToolRequestParams`,
/// `GetPromptRequestParams`, `ReadResourceRequestParams`) in the request's extensions,
/// so a handler built with rmcp's `#[tool_router]` / `#[tool_handler]` (whose tool
/// functions do not get the request) can still build its [`Ask`](crate::Ask) with
/// [`SessionScope::ask_tool`](crate::SessionScope::ask_tool), or take the parameters
/// with rmcp's `Extension<CallToolRequestParams>` extractor:
///
/// ```
/// use mcp_elicit_server::rmcp::handler::server::tool::Extension;
/// use mcp_elicit_server::rmcp::model::CallToolRequestParams;
///
/// // In a `#[tool]` function of a `#[tool_router]` impl served through `Edge`:
/// fn tool_name(Extension(call): Extension<CallToolRequestParams>) -> String {
///     call.name.to_string()
/// }
/// # let _ = tool_name;
/// ```
#[derive(Debug, Clone)]
pub struct Edge<S> {
    inner: S,
}

impl<S> Edge<S> {
    /// `inner` behind the edge.
    ///
    /// ```
    /// use mcp_elicit_server::Edge;
    /// use mcp_elicit_server::rmcp::model::{ServerCapabilities, ServerConfig};
    /// use mcp_elicit_server::rmcp::ServerHandler;
    ///
    /// struct Tools;
    /// impl ServerHandler for Tools {
    ///     fn get_info(&self) -> ServerConfig {
    ///         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    ///     }
    /// }
    /// // Serve `Edge::new(Tools)` instead of `Tools`: it is a ServerHandler too.
    /// let edge = Edge::new(Tools);
    /// assert!(edge.get_info().capabilities.tools.is_some());
    /// ```
    pub fn new(inner: S) -> Self {
        Self { inner }
    }

    /// The wrapped handler.
    ///
    /// ```
    /// use mcp_elicit_server::{Edge, Elicitations};
    ///
    /// struct Tools {
    ///     hub: Elicitations,
    /// }
    /// let edge = Edge::new(Tools { hub: Elicitations::local() });
    /// assert_eq!(edge.inner().hub.config().max_attempts, 2);
    /// ```
    pub fn inner(&self) -> &S {
        &self.inner
    }
}

/// Records the revision of `ctx` in its extensions; returns it.
fn decide(ctx: &mut RequestContext<RoleServer>) -> Revision {
    let revision = Revision::of_version(ctx.protocol_version().as_ref());
    ctx.extensions.insert(revision);
    revision
}

fn complete_type(result_type: &mut Option<ResultType>) {
    if result_type.is_none() {
        *result_type = Some(ResultType::COMPLETE);
    }
}

fn guard_32042(revision: Revision, e: ErrorData) -> ErrorData {
    if revision == Revision::Rounds
        && e.code.0 == mcp_elicit_core::message::URL_ELICITATION_REQUIRED
    {
        // The data holds capability URLs: never logged.
        tracing::error!(
            "a handler answered -32042 on a 2026-07-28 request; sent as an internal error"
        );
        return ErrorData::internal_error(
            "the tool needs a URL interaction but answered it the 2025-11-25 way (-32042), which this \
             revision does not have",
            None,
        );
    }
    e
}

macro_rules! listed {
    ($name:ident, $params:ty, $result:ty) => {
        async fn $name(
            &self,
            request: $params,
            mut context: RequestContext<RoleServer>,
        ) -> Result<$result, ErrorData> {
            let revision = decide(&mut context);
            // Boxed, as every handler future below: rmcp runs each request in a task
            // whose future holds the largest of these arms by value, and tokio moves
            // that future (spawn, output); a box keeps it a pointer wide whatever the
            // wrapped handler's futures weigh (the reference server's are boxed already:
            // no change measured there, see BENCHMARKS.md).
            let mut result = Box::pin(self.inner.$name(request, context)).await?;
            if revision == Revision::Rounds {
                complete_type(&mut result.result_type);
            }
            Ok(result)
        }
    };
}

macro_rules! answered {
    ($name:ident, $params:ty, $response:ident) => {
        async fn $name(
            &self,
            request: $params,
            mut context: RequestContext<RoleServer>,
        ) -> Result<$response, ErrorData> {
            let revision = decide(&mut context);
            context.extensions.insert(request.clone());
            match Box::pin(self.inner.$name(request, context)).await {
                Ok($response::Complete(mut r)) if revision == Revision::Rounds => {
                    complete_type(&mut r.result_type);
                    Ok($response::Complete(r))
                }
                Ok(other) => Ok(other),
                Err(e) => Err(guard_32042(revision, e)),
            }
        }
    };
}

#[allow(deprecated)]
impl<S: ServerHandler> ServerHandler for Edge<S> {
    fn get_info(&self) -> ServerConfig {
        self.inner.get_info()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        self.inner.supported_protocol_versions()
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        Box::pin(self.inner.initialize(request, context)).await
    }

    async fn discover(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        self.inner.discover(context).await
    }

    async fn ping(&self, context: RequestContext<RoleServer>) -> Result<(), ErrorData> {
        self.inner.ping(context).await
    }

    listed!(complete, CompleteRequestParams, CompleteResult);
    listed!(list_tools, Option<PaginatedRequestParams>, ListToolsResult);
    listed!(
        list_prompts,
        Option<PaginatedRequestParams>,
        ListPromptsResult
    );
    listed!(
        list_resources,
        Option<PaginatedRequestParams>,
        ListResourcesResult
    );
    listed!(
        list_resource_templates,
        Option<PaginatedRequestParams>,
        ListResourceTemplatesResult
    );
    answered!(call_tool, CallToolRequestParams, CallToolResponse);
    answered!(get_prompt, GetPromptRequestParams, GetPromptResponse);
    answered!(
        read_resource,
        ReadResourceRequestParams,
        ReadResourceResponse
    );

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.inner.get_tool(name)
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.subscribe(request, context).await
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.unsubscribe(request, context).await
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.set_level(request, context).await
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        self.inner.on_custom_request(request, context).await
    }

    async fn on_cancelled(
        &self,
        notification: CancelledNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        self.inner.on_cancelled(notification, context).await
    }

    async fn on_progress(
        &self,
        notification: ProgressNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        self.inner.on_progress(notification, context).await
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.inner.on_initialized(context).await
    }

    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        self.inner.on_roots_list_changed(context).await
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        context: NotificationContext<RoleServer>,
    ) {
        self.inner
            .on_custom_notification(notification, context)
            .await
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn text_of(result: &CallToolResult) -> String {
        result
            .content
            .first()
            .and_then(|c| c.as_text())
            .map(|t| t.text.clone())
            .unwrap_or_default()
    }

    #[test]
    fn respond_tool_answers_user_ends_as_results_and_faults_as_errors() {
        use crate::error::ErrorKind;
        let timeout = || Err(Error::new(ErrorKind::Timeout, "no answer within 600 s").into());
        // `respond`: the JSON-RPC error, as before (-32603 for a timeout).
        let plain: Result<CallToolResponse, ErrorData> = respond::<CallToolResult>(timeout());
        assert_eq!(plain.expect_err("error").code.0, -32603);
        // `respond_tool`: a result the model reads.
        match respond_tool(timeout()) {
            Ok(CallToolResponse::Complete(r)) => {
                assert_eq!(r.is_error, Some(true));
                assert!(text_of(&r).contains("did not answer in time"), "{r:?}");
            }
            other => panic!("expected a tool result: {other:?}"),
        }
        // A fault stays a JSON-RPC error.
        let url = respond_tool(Err(Error::new(ErrorKind::InvalidUrl, "http://x").into()));
        assert_eq!(url.expect_err("error").code.0, -32603);
        // A round stays a round.
        let round = InputRound::new(BTreeMap::new(), Some("s".into()));
        assert!(matches!(
            respond_tool(Err(Stop::Input(round))),
            Ok(CallToolResponse::InputRequired(_))
        ));
    }
    use crate::wire::exact_result;
    use rmcp::model::ServerResult;

    #[test]
    fn rounds_leave_with_their_exact_requests() {
        let exact = json!({"method": "elicitation/create", "params": {"mode": "form", "message": "m",
            "requestedSchema": {"type": "object", "properties": {"h": {"type": "string", "pattern": "^a+$"}}}}});
        let round = InputRound::new(
            BTreeMap::from([("q".to_owned(), exact.clone())]),
            Some("s".into()),
        );
        let out = serde_json::to_value(exact_result(ServerResult::InputRequiredResult(
            round.to_result(),
        )))
        .expect("json");
        assert_eq!(out, round.to_value());
        assert_eq!(out["inputRequests"]["q"], exact);
        assert!(out.get("_meta").is_none(), "{out}");
    }
}
