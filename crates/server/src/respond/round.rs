//! [`InputRound`]: one 2026-07-28 round, its requests' exact JSON and sealed state, as
//! rmcp's typed `InputRequiredResult` or as the JSON for the wire.

use std::collections::BTreeMap;

use rmcp::model::{InputRequests, InputRequiredResult, MetaObject};
use serde_json::{Map, Value};

#[cfg(doc)]
use super::{Edge, respond};

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
    /// Whether [`InputRound::into_result`] builds rmcp's typed copy of the requests
    /// (not when the request's answer is written by a front that sends the exact ones).
    typed: bool,
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
        Self {
            requests,
            state,
            typed: true,
        }
    }

    /// This round for a request whose answer a front writes with the exact requests
    /// ([`WritesRoundsExactly`](crate::wire::WritesRoundsExactly)): its result carries
    /// them only in the `_meta` member, not also as rmcp's typed (lossy) copy, whose
    /// building is most of a round's cost.
    pub(crate) fn exact_only(mut self) -> Self {
        self.typed = false;
        self
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
        let typed = if self.typed {
            let typed: InputRequests = self
                .requests
                .iter()
                .filter_map(|(k, v)| crate::typed_request::typed_request(v).map(|r| (k.clone(), r)))
                .collect();
            (!typed.is_empty()).then_some(typed)
        } else {
            None
        };
        let state = self.state.or_else(|| typed.is_none().then(String::new));
        let mut meta = MetaObject::new();
        meta.0.insert(
            EXACT_REQUESTS_META.into(),
            Value::Object(self.requests.into_iter().collect()),
        );
        InputRequiredResult::new(typed, state).with_meta(meta)
    }
}
