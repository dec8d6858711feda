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

use std::collections::{BTreeMap, HashSet};
use std::future::Future;
use std::marker::PhantomData;
use std::time::Duration;

use mcp_elicit_core::message::{
    Action, CreateResult, FormRequest, METHOD_CREATE, Mode, UrlRequest,
};
use mcp_elicit_core::schema::Schema;
use mcp_elicit_core::validate::validate;
use rmcp::model::{
    CallToolRequestParams, GetPromptRequestParams, InputResponses, JsonObject,
    ReadResourceRequestParams,
};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use crate::checks;
use crate::elicitor::{Elicitor, FormOutcome, UrlElicitation, UrlOutcome, reask_message};
use crate::error::{Error, ErrorKind};
use crate::identity::Principal;
use crate::respond::{InputRound, Stop};
use crate::revision::{Declared, Revision};
use crate::state::{Payload, StateBinding};

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

/// A request that can be retried with `inputResponses` and `requestState`
/// (`tools/call`, `prompts/get`, `resources/read`: the only three the 2026-07-28
/// revision allows an `InputRequiredResult` on).
///
/// What [`SessionScope::ask`](crate::SessionScope::ask) binds the sealed state to:
///
/// ```
/// use mcp_elicit_server::Retryable;
/// use mcp_elicit_server::rmcp::model::CallToolRequestParams;
///
/// let call = CallToolRequestParams::new("book");
/// assert_eq!((call.method(), call.name()), ("tools/call", "book"));
/// // A first call: no answers, no state to open.
/// assert!(call.input_responses().is_none() && call.request_state().is_none());
/// ```
pub trait Retryable: Sync {
    /// The JSON-RPC method.
    fn method(&self) -> &'static str;
    /// The tool or prompt name, or the resource URI.
    fn name(&self) -> &str;
    /// The arguments (`None` for a resource).
    fn arguments(&self) -> Option<&JsonObject>;
    /// The client's answers to the previous round.
    fn input_responses(&self) -> Option<&InputResponses>;
    /// The echoed `requestState`.
    fn request_state(&self) -> Option<&str>;
}

impl Retryable for CallToolRequestParams {
    fn method(&self) -> &'static str {
        "tools/call"
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn arguments(&self) -> Option<&JsonObject> {
        self.arguments.as_ref()
    }
    fn input_responses(&self) -> Option<&InputResponses> {
        self.input_responses.as_ref()
    }
    fn request_state(&self) -> Option<&str> {
        self.request_state.as_deref()
    }
}

impl Retryable for GetPromptRequestParams {
    fn method(&self) -> &'static str {
        "prompts/get"
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn arguments(&self) -> Option<&JsonObject> {
        self.arguments.as_ref()
    }
    fn input_responses(&self) -> Option<&InputResponses> {
        self.input_responses.as_ref()
    }
    fn request_state(&self) -> Option<&str> {
        self.request_state.as_deref()
    }
}

impl Retryable for ReadResourceRequestParams {
    fn method(&self) -> &'static str {
        "resources/read"
    }
    fn name(&self) -> &str {
        &self.uri
    }
    fn arguments(&self) -> Option<&JsonObject> {
        None
    }
    fn input_responses(&self) -> Option<&InputResponses> {
        self.input_responses.as_ref()
    }
    fn request_state(&self) -> Option<&str> {
        self.request_state.as_deref()
    }
}

/// The handle to one asked question, redeemed from [`Answers`].
#[derive(Debug)]
#[must_use = "redeem the ticket from the Answers"]
pub struct Ticket<T> {
    key: String,
    _answer: PhantomData<fn() -> T>,
}

impl<T> Ticket<T> {
    fn new(key: &str) -> Self {
        Self {
            key: key.to_owned(),
            _answer: PhantomData,
        }
    }

    /// The question's key.
    pub fn key(&self) -> &str {
        &self.key
    }
}

#[derive(Debug, Clone)]
enum Answer {
    Form(FormOutcome<Map<String, Value>>),
    Raw(Value),
}

/// The answers of one [`Questions`] round, redeemed with their tickets.
#[derive(Debug, Default)]
pub struct Answers {
    answers: BTreeMap<String, Answer>,
}

impl Answers {
    /// The outcome of a form asked with [`Questions::form`]: the validated content
    /// deserialized into `T`.
    pub fn form<T: DeserializeOwned>(
        &mut self,
        ticket: Ticket<FormOutcome<T>>,
    ) -> Result<FormOutcome<T>, Error> {
        match self.answers.remove(&ticket.key) {
            Some(Answer::Form(outcome)) => typed(outcome),
            _ => Err(missing(&ticket.key)),
        }
    }

    /// The outcome of a form asked with [`Questions::form_with_schema`].
    pub fn content(
        &mut self,
        ticket: Ticket<FormOutcome<Map<String, Value>>>,
    ) -> Result<FormOutcome<Map<String, Value>>, Error> {
        match self.answers.remove(&ticket.key) {
            Some(Answer::Form(outcome)) => Ok(outcome),
            _ => Err(missing(&ticket.key)),
        }
    }

    /// The client's result for a request asked with [`Questions::request`] (a JSON
    /// object, as the client sent it).
    ///
    /// A `roots/list` asked in a 2026-07-28 round, answered with the retry (hidden: a raw
    /// 2026-07-28 client declaring `roots`, over an in-memory pipe):
    ///
    /// ```
    /// use mcp_elicit_server::{METHOD_ROOTS, SessionScope, Stop, text};
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
    /// # /// A raw 2026-07-28 client with form mode and roots: one JSON line out, the result back.
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
    /// #             "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}, "roots": {}},
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
    ///     let mut ask = scope.ask(ctx, request).await?;
    ///     let mut questions = ask.questions();
    ///     let roots = questions.request("roots", METHOD_ROOTS, json!({}))?;
    ///     let mut answers = questions.ask().await?;
    ///     let listed = answers.value(roots)?; // the client's result object, checked for `roots`
    ///     Ok(text(listed["roots"][0]["uri"].as_str().unwrap_or("none")))
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = mcp_elicit_server::Elicitations::local();
    /// # let mut client = raw(&hub);
    /// let round = client.call("project", json!({})).await;
    /// assert_eq!(round["inputRequests"]["roots"], json!({"method": "roots/list", "params": {}}));
    /// let answer = json!({"roots": [{"uri": "file:///home/ada/project", "name": "project"}]});
    /// let done = client
    ///     .call("project", json!({"inputResponses": {"roots": answer}, "requestState": round["requestState"]}))
    ///     .await;
    /// assert_eq!(done["content"][0]["text"], "file:///home/ada/project");
    /// # Ok(())
    /// # }
    /// ```
    pub fn value(&mut self, ticket: Ticket<Value>) -> Result<Value, Error> {
        match self.answers.remove(&ticket.key) {
            Some(Answer::Raw(v)) => Ok(v),
            _ => Err(missing(&ticket.key)),
        }
    }
}

fn missing(key: &str) -> Error {
    Error::new(
        ErrorKind::Internal,
        format!("no answer for question {key:?} in these answers (a ticket of another round?)"),
    )
}

fn typed<T: DeserializeOwned>(
    outcome: FormOutcome<Map<String, Value>>,
) -> Result<FormOutcome<T>, Error> {
    Ok(match outcome {
        FormOutcome::Accepted(content) => {
            FormOutcome::Accepted(serde_json::from_value(Value::Object(content)).map_err(|e| {
                Error::new(
                    ErrorKind::Deserialize,
                    format!(
                        "the answer does not fit {}: {e}",
                        std::any::type_name::<T>()
                    ),
                )
            })?)
        }
        FormOutcome::Declined => FormOutcome::Declined,
        FormOutcome::Cancelled => FormOutcome::Cancelled,
    })
}

#[derive(Debug)]
enum Item {
    Form {
        key: String,
        message: String,
        schema: Schema,
    },
    Raw {
        key: String,
        method: String,
        params: Value,
    },
}

impl Item {
    fn key(&self) -> &str {
        match self {
            Item::Form { key, .. } | Item::Raw { key, .. } => key,
        }
    }
}

/// Several questions asked together: one `InputRequiredResult` round on 2026-07-28
/// (the client shows them at once), one `elicitation/create` after the other on
/// 2025-11-25. Build it with [`Ask::questions`], add questions, then [`Questions::ask`].
///
/// Two forms, each redeemed with its [`Ticket`] from the [`Answers`] (hidden: an rmcp
/// client over an in-memory pipe on 2025-11-25, whose user answers each in turn):
///
/// ```
/// use mcp_elicit_server::{FormOutcome, Revision, SessionScope, Stop, text};
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
/// struct Name {
///     name: String,
/// }
///
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
///     let on_2025 = ask.revision() == Revision::Requests;
///     let mut questions = ask.questions();
///     let name = questions.form::<Name>("name", "Booking name?")?;
///     let party = questions.form::<Party>("party", "Table for how many?")?;
///     let keys = format!("{}+{}", name.key(), party.key());
///     // 2025-11-25: asked one after the other; 2026-07-28: one round with both.
///     let mut answers = questions.ask().await?;
///     let (name, party) = (answers.form(name)?, answers.form(party)?);
///     Ok(match (name, party) {
///         (FormOutcome::Accepted(n), FormOutcome::Accepted(p)) => {
///             text(format!("{keys} on 2025: {on_2025}: {} for {}", n.name, p.size))
///         }
///         _ => text("no booking"),
///     })
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let hub = hub();
/// # let (client, _) = connect(&hub, json!({"elicitation": {"form": {}}}), |request| {
/// #     match message(request) {
/// #         "Booking name?" => accept(json!({"name": "Ada"})),
/// #         _ => accept(json!({"size": 4})),
/// #     }
/// # }).await?;
/// let result = client.call_tool(CallToolRequestParams::new("book")).await?;
/// assert_eq!(first_text(&result), "name+party on 2025: true: Ada for 4");
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
#[must_use = "nothing is asked until Questions::ask"]
pub struct Questions<'a> {
    ask: &'a mut Ask,
    items: Vec<Item>,
}

impl Questions<'_> {
    /// [`Ask::declares`].
    pub fn declares(&self, method: &str) -> bool {
        self.ask.declares(method)
    }

    /// A form whose schema comes from the Rust type `T` (checked against the subset and
    /// the secret-field lint now, before anything is sent).
    pub fn form<T: schemars::JsonSchema + DeserializeOwned>(
        &mut self,
        key: &str,
        message: impl Into<String>,
    ) -> Result<Ticket<FormOutcome<T>>, Error> {
        let schema = checks::schema_of::<T>()?;
        self.push_form(key, message.into(), schema)?;
        Ok(Ticket::new(key))
    }

    /// A form with `schema` (checked now against the secret-field lint).
    pub fn form_with_schema(
        &mut self,
        key: &str,
        message: impl Into<String>,
        schema: &Schema,
    ) -> Result<Ticket<FormOutcome<Map<String, Value>>>, Error> {
        self.push_form(key, message.into(), schema.clone())?;
        Ok(Ticket::new(key))
    }

    /// Any other input request the revision allows (`sampling/createMessage`,
    /// `roots/list`) with exactly `params`; the client must have declared the matching
    /// capability. The answer is the client's result object.
    ///
    /// Only what the client declared can be asked; on 2025-11-25 an undeclared capability
    /// is [`ErrorKind::ModeNotSupported`], on 2026-07-28 -32021 naming it (hidden: an rmcp
    /// client over an in-memory pipe declaring form mode only):
    ///
    /// ```
    /// use mcp_elicit_server::{METHOD_SAMPLING, SessionScope, Stop, text};
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
    /// async fn tool(
    ///     scope: &SessionScope,
    ///     request: &CallToolRequestParams,
    ///     ctx: &RequestContext<RoleServer>,
    /// ) -> Result<CallToolResult, Stop> {
    ///     let mut ask = scope.ask(ctx, request).await?;
    ///     let can_sample = ask.declares(METHOD_SAMPLING);
    ///     let mut questions = ask.questions();
    ///     let params = json!({"messages": [], "maxTokens": 100});
    ///     match questions.request("summary", METHOD_SAMPLING, params) {
    ///         Err(e) => Ok(text(format!("declared: {can_sample}; {}", e.kind()))),
    ///         Ok(_) => Ok(text("unexpected")),
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = hub();
    /// # let (client, _) = connect(&hub, json!({"elicitation": {"form": {}}}), |_| None).await?;
    /// let result = client.call_tool(CallToolRequestParams::new("summarize")).await?;
    /// assert_eq!(first_text(&result), "declared: false; mode_not_supported");
    /// # Ok(())
    /// # }
    /// ```
    pub fn request(
        &mut self,
        key: &str,
        method: &str,
        params: Value,
    ) -> Result<Ticket<Value>, Error> {
        self.ask.claim(key)?;
        let declared = match method {
            METHOD_SAMPLING => self.ask.declared.sampling,
            METHOD_ROOTS => self.ask.declared.roots,
            other => {
                return Err(Error::new(
                    ErrorKind::Internal,
                    format!(
                        "only {METHOD_SAMPLING} and {METHOD_ROOTS} go through Questions::request (got {other:?}); \
                         forms go through Questions::form"
                    ),
                ));
            }
        };
        if !declared {
            let capability = if method == METHOD_SAMPLING {
                "sampling"
            } else {
                "roots"
            };
            return Err(match self.ask.revision {
                Revision::Rounds => Error::missing_capability(json!({capability: {}}), capability),
                Revision::Requests => Error::new(
                    ErrorKind::ModeNotSupported,
                    format!(
                        "the client did not declare the {capability} capability {method} needs; nothing was sent"
                    ),
                ),
            });
        }
        self.items.push(Item::Raw {
            key: key.to_owned(),
            method: method.to_owned(),
            params,
        });
        Ok(Ticket::new(key))
    }

    fn push_form(&mut self, key: &str, message: String, schema: Schema) -> Result<(), Error> {
        self.ask.claim(key)?;
        self.ask.require(Mode::Form)?;
        let findings = checks::lint(
            &schema,
            &self.ask.elicitor.hub().config().reviewed_not_secret,
        );
        if !findings.is_empty() {
            return Err(Error::secret(findings));
        }
        self.items.push(Item::Form {
            key: key.to_owned(),
            message,
            schema,
        });
        Ok(())
    }

    /// Asks every question added. On 2025-11-25 each is sent and awaited in order; on
    /// 2026-07-28 the answers come from the retry, and if any is missing the call ends
    /// with [`Stop::Input`] asking all the missing ones in one round (answers already
    /// given are carried in the sealed state, so the client is not asked twice).
    pub async fn ask(self) -> Result<Answers, Stop> {
        let Questions { ask, items } = self;
        match ask.revision {
            Revision::Requests => ask.ask_now(items).await.map_err(Stop::from),
            Revision::Rounds => ask.ask_round(items),
        }
    }
}

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

    /// Several questions asked together (one round on 2026-07-28).
    pub fn questions(&mut self) -> Questions<'_> {
        Questions {
            ask: self,
            items: Vec::new(),
        }
    }

    /// One form whose schema comes from the Rust type `T`, under `key`.
    pub async fn form<T: schemars::JsonSchema + DeserializeOwned>(
        &mut self,
        key: &str,
        message: impl Into<String>,
    ) -> Result<FormOutcome<T>, Stop> {
        let mut q = self.questions();
        let ticket = q.form::<T>(key, message)?;
        Ok(q.ask().await?.form(ticket)?)
    }

    /// One form with `schema`, under `key`.
    ///
    /// On 2026-07-28 the round carries the schema exactly as given, `pattern` included (which
    /// rmcp's typed model would drop), and the retry's answer is validated against all of it
    /// (hidden: a raw 2026-07-28 client over an in-memory pipe, to a server behind `Edge`):
    ///
    /// ```
    /// use mcp_elicit_server::{FormOutcome, Schema, SessionScope, Stop, text};
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
    /// fn handle() -> Value {
    ///     json!({
    ///         "type": "object",
    ///         "properties": {"handle": {"type": "string", "minLength": 3, "pattern": "^[a-z]+$"}},
    ///         "required": ["handle"]
    ///     })
    /// }
    ///
    /// async fn tool(
    ///     scope: &SessionScope,
    ///     request: &CallToolRequestParams,
    ///     ctx: &RequestContext<RoleServer>,
    /// ) -> Result<CallToolResult, Stop> {
    ///     let schema = Schema::parse(&handle()).map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
    ///     let mut ask = scope.ask(ctx, request).await?;
    ///     Ok(match ask.form_with_schema("profile", "Pick a handle", &schema).await? {
    ///         FormOutcome::Accepted(content) => text(format!("handle {}", content["handle"])),
    ///         FormOutcome::Declined | FormOutcome::Cancelled => text("no handle"),
    ///     })
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = mcp_elicit_server::Elicitations::local();
    /// # let mut client = raw(&hub);
    /// let round = client.call("profile", json!({})).await;
    /// assert_eq!(round["inputRequests"]["profile"]["params"]["requestedSchema"], handle());
    /// let state = round["requestState"].clone();
    ///
    /// // "Ferris" breaks the pattern: asked again in a new round, the rule named.
    /// let retry = |answer: &str, state: &Value| json!({
    ///     "inputResponses": {"profile": {"action": "accept", "content": {"handle": answer}}},
    ///     "requestState": state,
    /// });
    /// let again = client.call("profile", retry("Ferris", &state)).await;
    /// assert_eq!(again["resultType"], "input_required");
    /// let message = again["inputRequests"]["profile"]["params"]["message"].as_str().unwrap();
    /// assert!(message.starts_with("Pick a handle") && message.contains("not accepted"));
    ///
    /// let done = client.call("profile", retry("ferris", &again["requestState"])).await;
    /// assert_eq!(done["content"][0]["text"], r#"handle "ferris""#);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn form_with_schema(
        &mut self,
        key: &str,
        message: impl Into<String>,
        schema: &Schema,
    ) -> Result<FormOutcome<Map<String, Value>>, Stop> {
        let mut q = self.questions();
        let ticket = q.form_with_schema(key, message, schema)?;
        Ok(q.ask().await?.content(ticket)?)
    }

    /// [`Ask::url`] for a page of your own at `page`: the elicitation (made only when
    /// a new one is needed) is [`UrlElicitation::to_page`]`(message, page)`, its id in
    /// the page's `elicitationId` query parameter ([`PageQuery`](crate::PageQuery)).
    ///
    /// ```no_run
    /// # async fn run(mut ask: mcp_elicit_server::Ask) -> Result<(), mcp_elicit_server::Stop> {
    /// ask.url_page("calendar", "Link your calendar", "https://mcp.example.com/link").await?;
    /// # Ok(()) }
    /// ```
    pub async fn url_page(
        &mut self,
        key: &str,
        message: &str,
        page: &str,
    ) -> Result<UrlOutcome, Stop> {
        self.url(key, || async { UrlElicitation::to_page(message, page) })
            .await
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

    /// A URL-mode interaction under `key`; `make` builds the elicitation (and registers
    /// whatever the page needs) only when a new one is needed.
    ///
    /// - 2025-11-25: ends the call with -32042 for it ([`Elicitor::url_required`]); the
    ///   client retries once the page is finished, and the handler finds its own
    ///   outcome (check it before calling this).
    /// - 2026-07-28: the first call ends with a round carrying the URL (no
    ///   `elicitationId`) and a state holding the stored elicitation's id; a retry
    ///   before the page is finished ends with the same round again (same URL: a client
    ///   may skip asking the user to consent twice) instead of blocking the request; a
    ///   retry after it returns [`UrlOutcome::Completed`], once (the stored elicitation
    ///   is used up); a decline or cancel returns [`UrlOutcome::Declined`] /
    ///   [`UrlOutcome::Cancelled`] and forgets it.
    ///
    /// Refused when the client did not declare URL mode
    /// ([`ErrorKind::ModeNotSupported`] on 2025-11-25, -32021
    /// [`ErrorKind::MissingCapability`] on 2026-07-28): tell the user instead ([`Elicitor::url_unsupported`]), never fall back
    /// to a form for secrets.
    ///
    /// A calendar link on 2025-11-25, run against an rmcp client over an in-memory pipe
    /// (hidden): -32042, the page completes it, the client is notified and its retry finds the
    /// link:
    ///
    /// ```
    /// # use std::collections::HashSet;
    /// # use std::sync::{Arc, Mutex};
    /// # use mcp_elicit_server::rmcp::model::*;
    /// # use mcp_elicit_server::rmcp::service::RequestContext;
    /// # use mcp_elicit_server::rmcp::{ClientHandler, ErrorData, RoleClient, RoleServer, ServerHandler, ServiceError, ServiceExt};
    /// # use mcp_elicit_server::serde_json::json;
    /// use mcp_elicit_server::{Elicitations, Principal, SessionScope, Stop, UrlElicitation, text};
    ///
    /// /// Who linked their calendar: what the page records, the truth on every retry.
    /// type Linked = Arc<Mutex<HashSet<Principal>>>;
    ///
    /// async fn calendar(
    ///     scope: &SessionScope,
    ///     linked: &Linked,
    ///     request: &CallToolRequestParams,
    ///     ctx: &RequestContext<RoleServer>,
    /// ) -> Result<CallToolResult, Stop> {
    ///     let mut ask = scope.ask(ctx, request).await?;
    ///     // Your own outcome first; ask for the page only while it is not there.
    ///     if linked.lock().unwrap().contains(ask.user()) {
    ///         return Ok(text("calendar linked"));
    ///     }
    ///     ask.url("calendar", || async {
    ///         UrlElicitation::to_page("Link your calendar", "https://mcp.example.com/link")
    ///     })
    ///     .await?;
    ///     Ok(text("open the page, then call again"))
    /// }
    /// # struct Server(SessionScope, Linked);
    /// # impl ServerHandler for Server {
    /// #     fn get_info(&self) -> ServerConfig {
    /// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    /// #     }
    /// #     async fn call_tool(&self, request: CallToolRequestParams, ctx: RequestContext<RoleServer>)
    /// #         -> Result<CallToolResponse, ErrorData> {
    /// #         mcp_elicit_server::respond(calendar(&self.0, &self.1, &request, &ctx).await)
    /// #     }
    /// # }
    /// # /// A client with URL mode that reports completion notifications.
    /// # struct Host(tokio::sync::mpsc::UnboundedSender<serde_json::Value>);
    /// # impl ClientHandler for Host {
    /// #     fn get_info(&self) -> ClientConfig {
    /// #         let caps = serde_json::from_value(json!({"elicitation": {"url": {}}})).unwrap();
    /// #         ClientConfig::new(caps, Implementation::new("host", "0"))
    /// #     }
    /// #     async fn on_custom_notification(&self, note: CustomNotification,
    /// #         _: mcp_elicit_server::rmcp::service::NotificationContext<RoleClient>) {
    /// #         let _ = self.0.send(note.params.unwrap_or_default());
    /// #     }
    /// # }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = Elicitations::local();
    /// # let linked = Linked::default();
    /// # let (client_io, server_io) = tokio::io::duplex(1 << 16);
    /// # let server = mcp_elicit_server::Edge::new(Server(hub.scope()?, linked.clone()));
    /// # tokio::spawn(async move {
    /// #     if let Ok(running) = server.serve(server_io).await {
    /// #         let _ = running.waiting().await;
    /// #     }
    /// # });
    /// # let (notes_tx, mut notes) = tokio::sync::mpsc::unbounded_channel();
    /// # let client = Host(notes_tx).serve(client_io).await?;
    /// // 2025-11-25: the first call ends with -32042 listing the page.
    /// let Err(ServiceError::McpError(e)) = client.call_tool(CallToolRequestParams::new("calendar")).await
    /// else { panic!("expected -32042") };
    /// assert_eq!(e.code.0, -32042);
    /// let page = &e.data.as_ref().unwrap()["elicitations"][0];
    /// let id = page["elicitationId"].as_str().unwrap().to_owned();
    /// assert_eq!(page["url"], format!("https://mcp.example.com/link?elicitationId={id}"));
    ///
    /// // The page, once the user is signed in there (here: the local user), records the
    /// // link in the bookkeeping, after the id was verified for that very user.
    /// let user = Principal::current_local_user();
    /// let done = hub
    ///     .complete_with(&user, &id, |record| {
    ///         let linked = linked.clone();
    ///         async move {
    ///             linked.lock().unwrap().insert(record.principal);
    ///             Ok::<_, std::io::Error>(())
    ///         }
    ///     })
    ///     .await?;
    /// assert!(done.completion.notified);
    /// assert_eq!(notes.recv().await, Some(json!({"elicitationId": id})));
    ///
    /// // The client's retry finds the outcome.
    /// let result = client.call_tool(CallToolRequestParams::new("calendar")).await?;
    /// assert_eq!(result.content[0].as_text().unwrap().text, "calendar linked");
    /// # Ok(())
    /// # }
    /// ```
    pub async fn url<F, Fut>(&mut self, key: &str, make: F) -> Result<UrlOutcome, Stop>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<UrlElicitation, Error>>,
    {
        self.claim(key)?;
        if self.revision == Revision::Requests {
            self.require(Mode::Url)?;
            let elicitation = make().await?;
            return Err(Stop::from(self.elicitor.url_required(&[elicitation]).await));
        }
        if let Some(outcome) = self.url_done.get(key) {
            return Ok(*outcome);
        }
        let id = match self.urls_in.get(key) {
            Some(id) => id.clone(),
            None => {
                self.require(Mode::Url)?;
                let elicitation = make().await?;
                self.elicitor.register_round_url(&elicitation).await?;
                elicitation.id().as_str().to_owned()
            }
        };
        let Some(record) = self
            .elicitor
            .hub()
            .round_pending(self.elicitor.principal(), &id)
            .await?
        else {
            return Err(Error::new(
                ErrorKind::InvalidState,
                format!(
                    "the URL interaction {key:?} of this requestState is no longer pending (finished and \
                     used already, cancelled, or expired): call again without requestState"
                ),
            )
            .into());
        };
        let request = url_request(
            &record.message,
            record.url.as_deref().unwrap_or_default(),
            &id,
        )?;
        let mut urls = BTreeMap::new();
        urls.insert(key.to_owned(), id);
        let ttl = self.elicitor.hub().config().url_ttl;
        Err(Stop::Input(self.round(
            BTreeMap::from([(key.to_owned(), request)]),
            urls,
            ttl,
        )?))
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

    /// Decides the URL questions of the state whose answer came with this retry: a
    /// finished page is used up now (so it counts once, even if the handler then finds
    /// its own outcome and never asks again), a decline or cancel forgets it.
    async fn settle_urls(&mut self) -> Result<(), Error> {
        let urls: Vec<(String, String)> = self
            .urls_in
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        for (key, id) in urls {
            let Some(response) = self.responses.get(&key) else {
                continue;
            };
            let reply = parse_reply(&key, response, Mode::Url)?;
            let hub = self.elicitor.hub().clone();
            let user = self.elicitor.principal().clone();
            let outcome = match reply.action {
                Action::Accept => match hub.round_finished(&user, &id).await? {
                    true => {
                        hub.round_consume(&user, &id).await?;
                        UrlOutcome::Completed
                    }
                    false => continue,
                },
                Action::Decline => {
                    hub.round_forget(&user, &id).await?;
                    UrlOutcome::Declined
                }
                Action::Cancel => {
                    hub.round_forget(&user, &id).await?;
                    UrlOutcome::Cancelled
                }
            };
            self.urls_in.remove(&key);
            self.url_done.insert(key, outcome);
        }
        Ok(())
    }

    /// 2025-11-25: each question sent and awaited in order.
    async fn ask_now(&mut self, items: Vec<Item>) -> Result<Answers, Error> {
        let mut answers = Answers::default();
        for item in items {
            let (key, answer) = match item {
                Item::Form {
                    key,
                    message,
                    schema,
                } => {
                    let outcome = self.elicitor.form_with_schema(message, &schema).await?;
                    (key, Answer::Form(outcome))
                }
                Item::Raw {
                    key,
                    method,
                    params,
                } => {
                    let timeout = self.elicitor.form_timeout();
                    let value = self.elicitor.send_raw(&method, params, timeout).await?;
                    let value = check_raw(&key, &method, &value)?;
                    (key, Answer::Raw(value))
                }
            };
            answers.answers.insert(key, answer);
        }
        Ok(answers)
    }

    /// 2026-07-28: answers from the retry or the state; a round for the missing ones.
    fn ask_round(&mut self, items: Vec<Item>) -> Result<Answers, Stop> {
        let mut answers = Answers::default();
        let mut wanted = BTreeMap::new();
        let max_attempts = self.elicitor.hub().config().max_attempts.max(1);
        for item in items {
            let key = item.key().to_owned();
            let given = self
                .carried
                .get(&key)
                .or_else(|| self.responses.get(&key))
                .cloned();
            match (item, given) {
                (
                    Item::Form {
                        message, schema, ..
                    },
                    Some(given),
                ) => match form_answer(&key, &given, &schema)? {
                    Ok(outcome) => {
                        self.used.insert(key.clone(), given);
                        answers.answers.insert(key, Answer::Form(outcome));
                    }
                    Err(violations) => {
                        let tries = self.tries.get(&key).copied().unwrap_or(1);
                        if tries >= max_attempts {
                            return Err(Error::invalid_content(violations).in_answer(&key).into());
                        }
                        self.tries.insert(key.clone(), tries + 1);
                        let text = reask_message(&message, &violations);
                        wanted.insert(key, form_request(&text, &schema));
                    }
                },
                (
                    Item::Form {
                        message, schema, ..
                    },
                    None,
                ) => {
                    wanted.insert(key, form_request(&message, &schema));
                }
                (Item::Raw { method, .. }, Some(given)) => {
                    let value = check_raw(&key, &method, &given)?;
                    self.used.insert(key.clone(), given);
                    answers.answers.insert(key, Answer::Raw(value));
                }
                (Item::Raw { method, params, .. }, None) => {
                    wanted.insert(key, json!({"method": method, "params": params}));
                }
            }
        }
        if wanted.is_empty() {
            return Ok(answers);
        }
        let ttl = self.elicitor.form_timeout();
        Err(Stop::Input(self.round(wanted, BTreeMap::new(), ttl)?))
    }

    /// The round asking `requests`, with a state carrying every answer this run used,
    /// the URL questions in progress and the attempts so far.
    fn round(
        &self,
        requests: BTreeMap<String, Value>,
        urls: BTreeMap<String, String>,
        ttl: Duration,
    ) -> Result<InputRound, Error> {
        let hub = self.elicitor.hub();
        let now = hub.inner.clock.now();
        let expires = now.checked_add(ttl).unwrap_or(now);
        let payload = Payload {
            asked: requests.keys().cloned().collect(),
            answers: self.used.clone(),
            urls,
            tries: self
                .tries
                .iter()
                .filter(|(k, _)| requests.contains_key(*k))
                .map(|(k, v)| (k.clone(), *v))
                .collect(),
        };
        let state = hub
            .state_keys()?
            .seal_json(&payload, &self.binding, expires)?;
        Ok(InputRound::new(requests, Some(state)))
    }
}

fn form_request(message: &str, schema: &Schema) -> Value {
    json!({
        "method": METHOD_CREATE,
        "params": FormRequest::new(message, schema.clone()).to_value(),
    })
}

/// The 2026-07-28 URL request: the checked 2025 one without `elicitationId` (the
/// revision removed it; the state carries the id instead).
fn url_request(message: &str, url: &str, id: &str) -> Result<Value, Error> {
    let request = UrlRequest::new(message, url, id)
        .map_err(|e| Error::core(ErrorKind::InvalidUrl, "the URL elicitation is invalid", e))?;
    let mut params = request.to_value();
    if let Value::Object(map) = &mut params {
        map.remove("elicitationId");
    }
    Ok(json!({"method": METHOD_CREATE, "params": params}))
}

fn parse_reply(key: &str, value: &Value, mode: Mode) -> Result<CreateResult, Error> {
    let reply = CreateResult::parse(value).map_err(|e| {
        Error::core(
            ErrorKind::MalformedReply,
            &format!("inputResponses.{key} is not an elicitation result"),
            e,
        )
    })?;
    reply.check_for(mode).map_err(|e| {
        Error::new(
            ErrorKind::MalformedReply,
            format!("inputResponses.{key} is malformed: {e}"),
        )
    })?;
    Ok(reply)
}

/// A form answer: the outcome, or the violations of accepted content.
fn form_answer(
    key: &str,
    value: &Value,
    schema: &Schema,
) -> Result<Result<FormOutcome<Map<String, Value>>, mcp_elicit_core::validate::Violations>, Error> {
    let reply = parse_reply(key, value, Mode::Form)?;
    Ok(match reply.action {
        Action::Decline => Ok(FormOutcome::Declined),
        Action::Cancel => Ok(FormOutcome::Cancelled),
        Action::Accept => {
            let content = reply.content.unwrap_or_default();
            match validate(schema, &Value::Object(content.clone())) {
                Ok(()) => Ok(FormOutcome::Accepted(content)),
                Err(v) => Err(v),
            }
        }
    })
}

/// A sampling or roots answer: a JSON object of the right shape.
fn check_raw(key: &str, method: &str, value: &Value) -> Result<Value, Error> {
    let bad = |what: &str| {
        Error::new(
            ErrorKind::MalformedReply,
            format!("inputResponses.{key} is not a {method} result: {what}"),
        )
    };
    let Value::Object(map) = value else {
        return Err(bad("not a JSON object"));
    };
    match method {
        METHOD_ROOTS if !map.get("roots").is_some_and(Value::is_array) => {
            Err(bad("no `roots` array"))
        }
        METHOD_SAMPLING if !(map.contains_key("role") && map.contains_key("content")) => {
            Err(bad("no `role` and `content`"))
        }
        _ => Ok(value.clone()),
    }
}

/// One `inputResponses` entry read as a retried request's round reads it: the answer to a
/// form (`schema` given: accepted content is validated against it), to a URL question
/// (`elicitation/create` without a schema) or to a sampling / roots request. `Some` holds
/// what the handler would get (accepted valid content, an accepted URL's `{}`, the raw
/// sampling / roots result); `None` a decline, a cancel or content that fails the schema
/// (asked again). For the fuzz targets.
#[cfg(fuzzing)]
pub fn read_input_response(
    key: &str,
    method: &str,
    value: &Value,
    schema: Option<&Schema>,
) -> Result<Option<Value>, Error> {
    match (method, schema) {
        (METHOD_CREATE, Some(schema)) => Ok(match form_answer(key, value, schema)? {
            Ok(FormOutcome::Accepted(content)) => Some(Value::Object(content)),
            _ => None,
        }),
        (METHOD_CREATE, None) => {
            let reply = parse_reply(key, value, Mode::Url)?;
            Ok((reply.action == Action::Accept).then(|| json!({})))
        }
        _ => check_raw(key, method, value).map(Some),
    }
}
