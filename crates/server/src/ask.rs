//! [`Ask`]: one handler's questions, on both revisions.
//!
//! A handler asks each question under a stable key. On [`Revision::Requests`]
//! (2025-11-25) the question is sent as `elicitation/create` and awaited. On
//! [`Revision::Rounds`] (2026-07-28) the answer is looked up in the retry's
//! `inputResponses` (or in the sealed `requestState`, for answers of earlier rounds);
//! when it is not there yet the call ends with [`Stop::Input`], which the handler
//! returns with `?` and [`respond`] turns into an `InputRequiredResult`. The same checks
//! run on both: declared modes, the secret-field lint, the server URL policy, and
//! validation of every answer against its full schema.

mod answers;
mod questions;
mod replies;
mod requests;
mod retryable;
mod rounds;
mod url;

use std::collections::{BTreeMap, HashSet};

use mcp_elicit_core::message::{METHOD_CREATE, Mode};
use serde_json::{Value, json};

use crate::elicitor::{Elicitor, UrlOutcome};
use crate::error::{Error, ErrorKind};
use crate::identity::Principal;
use crate::revision::{Declared, Revision};
use crate::state::{Payload, StateBinding};

pub use answers::{Answers, Ticket};
pub use questions::Questions;
#[cfg(fuzzing)]
pub use replies::read_input_response;
pub use retryable::Retryable;

/// The `sampling/createMessage` method (an input request a round may carry).
///
/// ```
/// use mcp_elicit_server::METHOD_SAMPLING;
///
/// // Ask a client for an LLM completion in a round: `Questions::request(key, METHOD_SAMPLING, params)`,
/// // once `Ask::declares(METHOD_SAMPLING)` says the client can.
/// assert_eq!(METHOD_SAMPLING, "sampling/createMessage");
/// ```
pub const METHOD_SAMPLING: &str = "sampling/createMessage";
/// The `roots/list` method (an input request a round may carry).
///
/// ```
/// use mcp_elicit_server::METHOD_ROOTS;
///
/// assert_eq!(METHOD_ROOTS, "roots/list");
/// ```
pub const METHOD_ROOTS: &str = "roots/list";
/// The longest question key accepted.
///
/// A longer key (or an empty one) is a bug in the handler, refused before anything is
/// sent (hidden: an rmcp client over an in-memory pipe):
///
/// ```
/// use mcp_elicit_server::{MAX_KEY_BYTES, SessionScope, Stop, text};
/// # use std::sync::atomic::{AtomicUsize, Ordering};
/// # use std::time::Duration;
/// # use mcp_elicit_server::rmcp::model::*;
/// # use mcp_elicit_server::rmcp::service::{NotificationContext, RequestContext, RunningService};
/// # use mcp_elicit_server::rmcp::{ClientHandler, ErrorData, RoleClient, RoleServer, ServerHandler, ServiceError, ServiceExt};
/// # use mcp_elicit_server::serde_json::{Value, json};
/// # /// The server: every tool call runs `tool` (below), answered with `respond`.
/// # struct Server(mcp_elicit_server::SessionScope);
/// # impl ServerHandler for Server {
/// #     fn get_info(&self) -> ServerConfig {
/// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
/// #     }
/// #     async fn call_tool(&self, request: CallToolRequestParams, ctx: RequestContext<RoleServer>)
/// #         -> Result<CallToolResponse, ErrorData> {
/// #         mcp_elicit_server::respond(tool(&self.0, &request, &ctx).await)
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
///     request: &CallToolRequestParams,
///     ctx: &RequestContext<RoleServer>,
/// ) -> Result<CallToolResult, Stop> {
///     let mut ask = scope.ask(ctx, request).await?;
///     let key = "k".repeat(MAX_KEY_BYTES + 1);
///     match ask.form::<Party>(&key, "Table for how many?").await {
///         Err(Stop::Fail(e)) => Ok(text(format!("{} {}", e.code.0, e.message))),
///         _ => Ok(text("unexpected")),
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let hub = hub();
/// # let (client, _) = connect(&hub, json!({"elicitation": {"form": {}}}), |_| None).await?;
/// let result = client.call_tool(CallToolRequestParams::new("book")).await?;
/// assert_eq!(first_text(&result), "-32603 question keys are 1 to 128 bytes (got 129 bytes)");
/// # Ok(())
/// # }
/// ```
pub const MAX_KEY_BYTES: usize = 128;

/// One request's questions, on either revision. Build it with
/// [`SessionScope::ask`](crate::SessionScope::ask).
///
/// # What a handler must do to be correct on both revisions
///
/// - **Ask every question under a stable key**, the same key for the same question on
///   every run, and each key once per request. On 2026-07-28 the answer is found by its
///   key; a changed key is a new question.
/// - **Everything before the last question runs again on every retry** on 2026-07-28:
///   the handler starts from the top each time the client comes back with answers. Do
///   side effects (writes, payments, messages) only after the last question, or make
///   them idempotent; read-only work before a question is fine.
/// - **Ask the same questions for the same request**: the answers of earlier rounds
///   are carried (sealed) in `requestState`, bound to the user, the method, the name
///   and the arguments, and are only used for the questions that are asked again.
/// - **Return the `Stop` with `?`** and finish the handler with
///   [`respond`](crate::respond): input still needed becomes the `InputRequiredResult`, a failure
///   the JSON-RPC error.
/// - **URL mode: check your own outcome first.** What the page stored (a token, a key,
///   an answer) is the truth on both revisions; call [`Ask::url`] only when it is not
///   there yet. On 2025-11-25 `url` ends the call with -32042 (the client retries after
///   the completion notification); on 2026-07-28 it answers rounds until the page is
///   finished, then returns [`UrlOutcome::Completed`].
/// - **Serve through [`Edge`](crate::Edge)**: it decides the revision once per
///   request, sends every round with the exact JSON of the request (`pattern`
///   included) and adds `resultType` to every 2026-07-28 result.
///
/// A whole round trip, run against an rmcp client over an in-memory pipe (hidden): the
/// user first answers 20, outside the schema's 1-12, is asked once more with the rule
/// named, and answers 4:
///
/// ```
/// # use std::sync::{Arc, Mutex};
/// # use mcp_elicit_server::rmcp::model::*;
/// # use mcp_elicit_server::rmcp::service::RequestContext;
/// # use mcp_elicit_server::rmcp::{ClientHandler, ErrorData, RoleClient, RoleServer, ServerHandler, ServiceExt};
/// # use mcp_elicit_server::serde_json::json;
/// use mcp_elicit_server::{Edge, Elicitations, FormOutcome, SessionScope, Stop, respond, text};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Party {
///     /// How many people?
///     #[schemars(range(min = 1, max = 12))]
///     size: u8,
/// }
///
/// # struct Server(SessionScope);
///
/// # impl ServerHandler for Server {
/// #     fn get_info(&self) -> ServerConfig {
/// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
/// #     }
/// #     async fn call_tool(
/// #         &self,
/// #         request: CallToolRequestParams,
/// #         ctx: RequestContext<RoleServer>,
/// #     ) -> Result<CallToolResponse, ErrorData> {
/// #         respond(book(&self.0, &request, &ctx).await)
/// #     }
/// # }
///
/// async fn book(
///     scope: &SessionScope,
///     request: &CallToolRequestParams,
///     ctx: &RequestContext<RoleServer>,
/// ) -> Result<CallToolResult, Stop> {
///     let mut ask = scope.ask(ctx, request).await?;
///     Ok(match ask.form::<Party>("party", "Table for how many?").await? {
///         FormOutcome::Accepted(party) => text(format!("Table for {}", party.size)),
///         FormOutcome::Declined | FormOutcome::Cancelled => text("No table booked"),
///     })
/// }
///
/// # /// A client whose user first types 20, then 4 when told the rule.
/// # #[derive(Default)]
/// # struct User(Arc<Mutex<Vec<String>>>);
///
/// # impl ClientHandler for User {
/// #     fn get_info(&self) -> ClientConfig {
/// #         let caps: ClientCapabilities = serde_json::from_value(json!({"elicitation": {"form": {}}})).unwrap();
/// #         ClientConfig::new(caps, Implementation::new("user", "0"))
/// #     }
/// #     async fn create_elicitation(
/// #         &self,
/// #         request: ElicitRequestParams,
/// #         _: RequestContext<RoleClient>,
/// #     ) -> Result<ElicitResult, ErrorData> {
/// #         let ElicitRequestParams::FormElicitationParams { message, .. } = request else {
/// #             return Ok(ElicitResult::new(ElicitationAction::Decline));
/// #         };
/// #         let mut seen = self.0.lock().unwrap();
/// #         seen.push(message);
/// #         let size = if seen.len() == 1 { 20 } else { 4 };
/// #         Ok(ElicitResult::new(ElicitationAction::Accept).with_content(json!({"size": size})))
/// #     }
/// # }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// #     let hub = Elicitations::local();
/// #     let (client_io, server_io) = tokio::io::duplex(1 << 16);
/// #     let server = Edge::new(Server(hub.scope()?));
/// #     tokio::spawn(async move {
/// #         if let Ok(running) = server.serve(server_io).await {
/// #             let _ = running.waiting().await;
/// #         }
/// #     });
/// #     let user = User::default();
/// #     let seen = user.0.clone();
/// #     let client = user.serve(client_io).await?;
///
/// # // The tool called by a client whose user types 20 first, then 4:
///     let result = client.call_tool(CallToolRequestParams::new("book")).await?;
///     assert_eq!(result.content[0].as_text().unwrap().text, "Table for 4");
///     let seen = seen.lock().unwrap();
///     assert_eq!(seen.len(), 2, "{seen:?}"); // asked once more, naming the rule
///     assert!(seen[1].starts_with("Table for how many?") && seen[1].contains("12"), "{seen:?}");
/// #     Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct Ask {
    pub(crate) elicitor: Elicitor,
    revision: Revision,
    declared: Declared,
    binding: StateBinding,
    responses: BTreeMap<String, Value>,
    /// Answers of earlier rounds (from the state).
    carried: BTreeMap<String, Value>,
    /// Attempts so far per form key (from the state), for re-asking.
    tries: BTreeMap<String, u32>,
    /// URL questions in progress (from the state): key to elicitation id.
    urls_in: BTreeMap<String, String>,
    /// URL questions already decided on this retry.
    url_done: BTreeMap<String, UrlOutcome>,
    /// Answers used by this run, carried into the next round's state.
    used: BTreeMap<String, Value>,
    /// Keys asked by this run.
    keys: HashSet<String>,
    /// Whether this request's rounds need rmcp's typed copy of their requests (not when
    /// a front writes the answer with the exact ones).
    pub(crate) typed_rounds: bool,
}

impl Ask {
    pub(crate) async fn new(
        elicitor: Elicitor,
        revision: Revision,
        declared: Declared,
        request: &dyn Retryable,
    ) -> Result<Self, Error> {
        let arguments = request
            .arguments()
            .map(|a| Value::Object(a.clone()))
            .unwrap_or(Value::Null);
        let binding = StateBinding::new(
            elicitor.principal(),
            request.method(),
            request.name(),
            &arguments,
        );
        let mut ask = Self {
            elicitor,
            revision,
            declared,
            binding,
            responses: BTreeMap::new(),
            carried: BTreeMap::new(),
            tries: BTreeMap::new(),
            urls_in: BTreeMap::new(),
            url_done: BTreeMap::new(),
            used: BTreeMap::new(),
            keys: HashSet::new(),
            typed_rounds: true,
        };
        if revision == Revision::Requests {
            return Ok(ask);
        }
        if let Some(responses) = request.input_responses() {
            ask.responses = responses.clone();
        }
        if let Some(state) = request.request_state() {
            let hub = ask.elicitor.hub();
            let payload: Payload =
                hub.state_keys()?
                    .open_json(state, &ask.binding, hub.inner.clock.now())?;
            ask.carried = payload.answers;
            ask.tries = payload.tries;
            ask.urls_in = payload.urls;
            ask.settle_urls().await?;
        }
        Ok(ask)
    }

    /// The revision this request is on.
    ///
    /// ```
    /// use mcp_elicit_server::{Revision, SessionScope, Stop, text};
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
    /// async fn tool(
    ///     scope: &SessionScope,
    ///     request: &CallToolRequestParams,
    ///     ctx: &RequestContext<RoleServer>,
    /// ) -> Result<CallToolResult, Stop> {
    ///     let ask = scope.ask(ctx, request).await?;
    ///     // 2026-07-28: no `elicitation/create` from the server; answers come with retries.
    ///     Ok(text(if ask.revision() == Revision::Rounds { "rounds" } else { "requests" }))
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = mcp_elicit_server::Elicitations::local();
    /// // A request with `_meta` protocol version 2026-07-28 (hidden: a raw client):
    /// # let mut client = raw(&hub);
    /// let result = client.call("which", json!({})).await;
    /// assert_eq!(result["content"][0]["text"], "rounds");
    /// # Ok(())
    /// # }
    /// ```
    pub fn revision(&self) -> Revision {
        self.revision
    }

    /// The elicitation API underneath (user, declared modes, 2025-only calls).
    pub fn elicitor(&self) -> &Elicitor {
        &self.elicitor
    }

    /// Whether the client declared `mode` (on 2026-07-28, in this very request).
    pub fn supports(&self, mode: Mode) -> bool {
        self.elicitor.supports(mode)
    }

    /// Whether the client declared what an input request of `method` needs
    /// (`elicitation/create`: any elicitation mode; `sampling/createMessage`: sampling;
    /// `roots/list`: roots); on 2026-07-28 read from this very request.
    pub fn declares(&self, method: &str) -> bool {
        match method {
            METHOD_CREATE => self.declared.elicitation.any(),
            METHOD_SAMPLING => self.declared.sampling,
            METHOD_ROOTS => self.declared.roots,
            _ => false,
        }
    }

    /// The user this request is for ([`Elicitor::principal`]).
    ///
    /// ```no_run
    /// # fn run(ask: &mcp_elicit_server::Ask) {
    /// let user = ask.user().clone();
    /// # let _ = user; }
    /// ```
    pub fn user(&self) -> &Principal {
        self.elicitor.principal()
    }

    /// Refuses an undeclared elicitation mode: -32021 naming the capability on
    /// 2026-07-28 (capabilities travel with the request), [`ErrorKind::ModeNotSupported`]
    /// (-32602) on 2025-11-25.
    fn require(&self, mode: Mode) -> Result<(), Error> {
        match self.revision {
            Revision::Rounds if !self.declared.elicitation.supports(mode) => {
                Err(Error::missing_capability(
                    json!({"elicitation": {mode.as_str(): {}}}),
                    &format!("elicitation.{mode}"),
                ))
            }
            _ => self.elicitor.require(mode),
        }
    }

    /// Records `key` as asked by this run; a key asked twice is a bug in the handler.
    fn claim(&mut self, key: &str) -> Result<(), Error> {
        if key.is_empty() || key.len() > MAX_KEY_BYTES {
            return Err(Error::new(
                ErrorKind::Internal,
                format!(
                    "question keys are 1 to {MAX_KEY_BYTES} bytes (got {} bytes)",
                    key.len()
                ),
            ));
        }
        if !self.keys.insert(key.to_owned()) {
            return Err(Error::new(
                ErrorKind::Internal,
                format!(
                    "question key {key:?} is asked twice in one request: give each question its own key"
                ),
            ));
        }
        Ok(())
    }
}
