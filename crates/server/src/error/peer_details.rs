//! The details exchanged with the client: its own JSON-RPC error, and the URL
//! elicitations of a -32042 error.

use mcp_elicit_core::message::UrlElicitationRequired;
use rmcp::ErrorData;

#[cfg(doc)]
use super::ErrorKind;
use super::{Detail, Error};

impl Error {
    /// The client's JSON-RPC error, for [`ErrorKind::ClientError`].
    ///
    /// The client refused `elicitation/create` with an error of its own (hidden: an rmcp
    /// client over an in-memory pipe answering -32600):
    ///
    /// ```
    /// use mcp_elicit_server::{ErrorKind, SessionScope, text};
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
    /// struct Party {
    ///     size: u8,
    /// }
    ///
    /// async fn tool(
    ///     scope: &SessionScope,
    ///     _: &CallToolRequestParams,
    ///     ctx: &RequestContext<RoleServer>,
    /// ) -> Result<CallToolResult, ErrorData> {
    ///     match scope.elicitor(ctx)?.form::<Party>("Table for how many?").await {
    ///         Err(e) if e.kind() == ErrorKind::ClientError => {
    ///             let theirs = e.client_error().expect("ClientError carries it");
    ///             Ok(text(format!("{} {}", theirs.code.0, theirs.message)))
    ///         }
    ///         _ => Ok(text("unexpected")),
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = hub();
    /// # let (client, _) = connect(&hub, json!({"elicitation": {"form": {}}}), |_| {
    /// #     Some(Err(ErrorData::invalid_request("no screen to show a form on", None)))
    /// # }).await?;
    /// let result = client.call_tool(CallToolRequestParams::new("book")).await?;
    /// assert_eq!(first_text(&result), "-32600 no screen to show a form on");
    /// # Ok(())
    /// # }
    /// ```
    pub fn client_error(&self) -> Option<&ErrorData> {
        match self.detail.as_ref() {
            Detail::Client(e) => Some(e),
            _ => None,
        }
    }

    /// The required URL elicitations, for [`ErrorKind::UrlElicitationRequired`].
    ///
    /// What [`Elicitor::url_required`](crate::Elicitor::url_required) recorded and the client
    /// will be sent (hidden: an rmcp client over an in-memory pipe with URL mode):
    ///
    /// ```
    /// use mcp_elicit_server::{SessionScope, UrlElicitation, text};
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
    /// async fn tool(
    ///     scope: &SessionScope,
    ///     _: &CallToolRequestParams,
    ///     ctx: &RequestContext<RoleServer>,
    /// ) -> Result<CallToolResult, ErrorData> {
    ///     let page = |id: &mcp_elicit_server::ElicitationId| {
    ///         format!("https://mcp.example.com/connect?elicitationId={id}")
    ///     };
    ///     let github = UrlElicitation::new("Connect GitHub", page)?;
    ///     let drive = UrlElicitation::new("Connect Drive", page)?;
    ///     let e = scope.elicitor(ctx)?.url_required(&[github, drive]).await;
    ///     let listed: Vec<&str> = match e.url_elicitation_required() {
    ///         Some(required) => required.elicitations().iter().map(|r| r.message.as_str()).collect(),
    ///         None => vec![e.message()],
    ///     };
    ///     Ok(text(listed.join(", ")))
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = hub();
    /// # let (client, _) = connect(&hub, json!({"elicitation": {"url": {}}}), |_| None).await?;
    /// let result = client.call_tool(CallToolRequestParams::new("connect")).await?;
    /// assert_eq!(first_text(&result), "Connect GitHub, Connect Drive");
    /// assert_eq!(hub.pending_count().await?, 2);
    /// # Ok(())
    /// # }
    /// ```
    pub fn url_elicitation_required(&self) -> Option<&UrlElicitationRequired> {
        match self.detail.as_ref() {
            Detail::Required(r) => Some(r),
            _ => None,
        }
    }
}
