//! [`Questions`]: several questions asked together (one round on 2026-07-28), and the
//! one-form shortcuts [`Ask::form`] / [`Ask::form_with_schema`] built on them.

use mcp_elicit_core::message::Mode;
use mcp_elicit_core::schema::Schema;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use super::{Answers, Ask, METHOD_ROOTS, METHOD_SAMPLING, Ticket};
use crate::checks;
use crate::elicitor::FormOutcome;
use crate::error::{Error, ErrorKind};
use crate::respond::Stop;
use crate::revision::Revision;

#[derive(Debug)]
pub(super) enum Item {
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
    pub(super) fn key(&self) -> &str {
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

impl Ask {
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
}
