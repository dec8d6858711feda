//! Form mode: asking a form (typed or with a schema), validating the answer, and asking
//! again with the rules it broke.

use mcp_elicit_core::lifecycle::State;
use mcp_elicit_core::message::{Action, FormRequest, Mode};
use mcp_elicit_core::schema::Schema;
use mcp_elicit_core::validate::{Violations, validate};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::checks;
use crate::error::{Error, ErrorKind};
use crate::id::ElicitationId;
use crate::store::PendingElicitation;

use super::{Elicitor, FormOutcome, deadline};

impl Elicitor {
    /// Asks for a form whose schema comes from the Rust type `T` and returns a `T`.
    ///
    /// The schema is derived with `schemars` and must fit the restricted subset; the
    /// answer is validated against it, then deserialized.
    ///
    /// The user answers, or declines (hidden: an rmcp client over an in-memory pipe whose user
    /// gives a name and declines the newsletter):
    ///
    /// ```
    /// use mcp_elicit_server::{FormOutcome, SessionScope, text};
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
    /// struct Contact {
    ///     /// Your name
    ///     name: String,
    /// }
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Newsletter {
    ///     /// Send me the newsletter
    ///     subscribe: bool,
    /// }
    ///
    /// async fn tool(
    ///     scope: &SessionScope,
    ///     _: &CallToolRequestParams,
    ///     ctx: &RequestContext<RoleServer>,
    /// ) -> Result<CallToolResult, ErrorData> {
    ///     let elicitor = scope.elicitor(ctx)?;
    ///     let name = match elicitor.form::<Contact>("Who are you?").await? {
    ///         FormOutcome::Accepted(contact) => contact.name,
    ///         FormOutcome::Declined | FormOutcome::Cancelled => return Ok(text("anonymous")),
    ///     };
    ///     // A decline is an outcome, not an error.
    ///     let subscribed = elicitor.form::<Newsletter>("Newsletter?").await?.ok().is_some_and(|n| n.subscribe);
    ///     Ok(text(format!("{name}, newsletter: {subscribed}")))
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = hub();
    /// # let (client, _) = connect(&hub, json!({"elicitation": {"form": {}}}), |request| {
    /// #     match message(request) {
    /// #         "Who are you?" => accept(json!({"name": "Ada"})),
    /// #         _ => Some(Ok(ElicitResult::new(ElicitationAction::Decline))),
    /// #     }
    /// # }).await?;
    /// let result = client.call_tool(CallToolRequestParams::new("signup")).await?;
    /// assert_eq!(first_text(&result), "Ada, newsletter: false");
    /// # Ok(())
    /// # }
    /// ```
    pub async fn form<T>(&self, message: impl Into<String>) -> Result<FormOutcome<T>, Error>
    where
        T: schemars::JsonSchema + DeserializeOwned,
    {
        let schema = checks::schema_of::<T>()?;
        match self.form_with_schema(message, &schema).await? {
            FormOutcome::Accepted(content) => {
                let value = Value::Object(content);
                serde_json::from_value(value)
                    .map(FormOutcome::Accepted)
                    .map_err(|e| {
                        Error::new(
                            ErrorKind::Deserialize,
                            format!(
                                "the answer does not fit {}: {e}",
                                std::any::type_name::<T>()
                            ),
                        )
                    })
            }
            FormOutcome::Declined => Ok(FormOutcome::Declined),
            FormOutcome::Cancelled => Ok(FormOutcome::Cancelled),
        }
    }

    /// Asks for a form with `schema` and returns the validated content.
    ///
    /// Refused before sending ([`ErrorKind::SecretField`]) when the secret-field lint flags
    /// the schema, and ([`ErrorKind::ModeNotSupported`]) when the client did not declare
    /// form mode. An answer that breaks the schema is asked up to
    /// [`ElicitationConfig::max_attempts`](crate::ElicitationConfig::max_attempts) times
    /// (default 2: one re-ask; [`with_max_attempts`](Elicitor::with_max_attempts) for this
    /// request), each re-ask with the
    /// message followed by the list of problems; after the last attempt it is an
    /// [`ErrorKind::InvalidContent`] error listing every violation.
    ///
    /// The user keeps answering outside the schema: asked once more with the rule named, then
    /// refused with -32602 listing the violations (hidden: an rmcp client over an in-memory
    /// pipe whose user always answers 20):
    ///
    /// ```
    /// use mcp_elicit_server::{Schema, SessionScope};
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
    /// static SEEN: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    ///
    /// async fn tool(
    ///     scope: &SessionScope,
    ///     _: &CallToolRequestParams,
    ///     ctx: &RequestContext<RoleServer>,
    /// ) -> Result<CallToolResult, ErrorData> {
    ///     let schema = Schema::parse(&json!({
    ///         "type": "object",
    ///         "properties": {"size": {"type": "integer", "minimum": 1, "maximum": 12}},
    ///         "required": ["size"]
    ///     }))
    ///     .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
    ///     let content = scope.elicitor(ctx)?.form_with_schema("Table for how many?", &schema).await?;
    ///     Ok(mcp_elicit_server::text(format!("{content:?}")))
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = hub();
    /// # let (client, _) = connect(&hub, json!({"elicitation": {"form": {}}}), |request| {
    /// #     SEEN.lock().unwrap().push(message(request).to_owned());
    /// #     accept(json!({"size": 20}))
    /// # }).await?;
    /// let Err(ServiceError::McpError(e)) = client.call_tool(CallToolRequestParams::new("book")).await
    /// else {
    ///     panic!("expected a JSON-RPC error");
    /// };
    /// assert_eq!(e.code.0, -32602);
    /// let data = e.data.unwrap();
    /// assert_eq!(data["kind"], "invalid_content");
    /// assert_eq!(data["violations"][0]["property"], "size");
    /// assert_eq!(data["violations"][0]["code"], "maximum");
    /// let seen = SEEN.lock().unwrap();
    /// assert_eq!(seen.len(), 2); // the default: one re-ask
    /// assert!(seen[1].starts_with("Table for how many?") && seen[1].contains("not accepted"));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn form_with_schema(
        &self,
        message: impl Into<String>,
        schema: &Schema,
    ) -> Result<FormOutcome<Map<String, Value>>, Error> {
        let message = message.into();
        self.check_protocol()?;
        self.require(Mode::Form)?;
        let findings = checks::lint(schema, &self.hub.config().reviewed_not_secret);
        if !findings.is_empty() {
            return Err(Error::secret(findings));
        }
        let id = ElicitationId::generate()?;
        let now = self.hub.inner.clock.now();
        let record = PendingElicitation {
            id: id.as_str().to_owned(),
            principal: self.principal.clone(),
            session: self.session.clone(),
            mode: Mode::Form,
            state: State::Pending,
            message: message.clone(),
            url: None,
            created_at: now,
            expires_at: deadline(now, self.form_timeout.saturating_mul(self.max_attempts)),
            app_data: None,
        };
        let guard = self
            .hub
            .register(record, self.peer.clone(), self.outlet.clone())
            .await?;
        let result = self.form_rounds(&message, schema).await;
        guard.forget().await;
        result
    }

    async fn form_rounds(
        &self,
        message: &str,
        schema: &Schema,
    ) -> Result<FormOutcome<Map<String, Value>>, Error> {
        let mut text = message.to_owned();
        let mut attempt = 1;
        loop {
            let params = FormRequest::params(&text, schema, None);
            let reply = self.send(params, self.form_timeout).await?;
            reply.check_for(Mode::Form).map_err(|e| {
                Error::new(
                    ErrorKind::MalformedReply,
                    format!("the client's answer is malformed: {e}"),
                )
            })?;
            match reply.action {
                Action::Decline => return Ok(FormOutcome::Declined),
                Action::Cancel => return Ok(FormOutcome::Cancelled),
                Action::Accept => {
                    let content = reply.content.unwrap_or_default();
                    match validate(schema, &Value::Object(content.clone())) {
                        Ok(()) => return Ok(FormOutcome::Accepted(content)),
                        Err(violations) if attempt < self.max_attempts => {
                            attempt += 1;
                            text = reask_message(message, &violations);
                        }
                        Err(violations) => return Err(Error::invalid_content(violations)),
                    }
                }
            }
        }
    }
}

pub(crate) fn reask_message(message: &str, violations: &Violations) -> String {
    let mut text = format!("{message}\n\nYour previous answer was not accepted:");
    for v in violations.iter() {
        text.push_str("\n- ");
        text.push_str(v.message());
    }
    text
}
