//! URL mode: sending a URL elicitation, the -32042 error listing them, the text for
//! clients without URL mode, and the records stored for them (both revisions).

use mcp_elicit_core::lifecycle::{Event, State};
use mcp_elicit_core::message::{
    Action, Mode, URL_ELICITATION_REQUIRED_MESSAGE, UrlElicitationRequired, UrlRequest,
};
use serde_json::Value;

use crate::checks;
use crate::error::{Error, ErrorKind};
#[cfg(doc)]
use crate::hub::Elicitations;
use crate::hub::PendingGuard;
use crate::identity::SessionKey;
use crate::store::PendingElicitation;

use super::{Elicitor, UrlElicitation, UrlOutcome, deadline, url_unsupported_text};

impl Elicitor {
    /// Stores a 2026-07-28 URL elicitation (checked by the server URL policy first),
    /// bound to the user; it waits for its page, then for the client's retry.
    pub(crate) async fn register_round_url(
        &self,
        elicitation: &UrlElicitation,
    ) -> Result<(), Error> {
        let request = self.checked_request(elicitation)?;
        let mut record = self.url_record(&request, elicitation.app_data.clone());
        record.session = SessionKey::rounds();
        self.hub.insert_round(record).await
    }

    /// Sends a URL-mode elicitation and returns the user's consent answer.
    ///
    /// Refused before sending when the client did not declare URL mode (see
    /// [`Elicitor::url_fallback`] for what to do then) or when the server URL policy
    /// refuses the URL (https only outside loopback, no userinfo, no credential-like
    /// parameters). The elicitation is recorded as pending, bound to the user and the
    /// session, before the request is sent; an accept leaves it pending until
    /// [`Elicitations::complete`]; a decline, a cancel, a timeout, a cancelled call or a
    /// disconnect removes it.
    ///
    /// Consent is not completion: an accepted URL stays pending for its page; a declined one is
    /// gone (hidden: an rmcp client over an in-memory pipe with URL mode, whose user accepts
    /// the calendar and declines the payment):
    ///
    /// ```
    /// use mcp_elicit_server::{SessionScope, UrlElicitation, UrlOutcome, text};
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
    ///     request: &CallToolRequestParams,
    ///     ctx: &RequestContext<RoleServer>,
    /// ) -> Result<CallToolResult, ErrorData> {
    ///     let message = if request.name == "calendar" { "Link your calendar" } else { "Confirm the payment" };
    ///     let elicitation = UrlElicitation::new(message, |id| {
    ///         format!("https://mcp.example.com/page?elicitationId={id}")
    ///     })?;
    ///     Ok(match scope.elicitor(ctx)?.url(&elicitation).await? {
    ///         UrlOutcome::Accepted => text(format!("open the page; waiting for {}", elicitation.id())),
    ///         UrlOutcome::Declined => text("declined"),
    ///         _ => text("dismissed"),
    ///     })
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = hub();
    /// # let alice = mcp_elicit_server::Principal::local_user("alice");
    /// # let (client, _) = connect(&hub, json!({"elicitation": {"url": {}}}), |request| {
    /// #     let action = if message(request) == "Link your calendar" {
    /// #         ElicitationAction::Accept
    /// #     } else {
    /// #         ElicitationAction::Decline
    /// #     };
    /// #     Some(Ok(ElicitResult::new(action)))
    /// # }).await?;
    /// let linked = client.call_tool(CallToolRequestParams::new("calendar")).await?;
    /// assert!(first_text(&linked).starts_with("open the page; waiting for "));
    /// let pay = client.call_tool(CallToolRequestParams::new("pay")).await?;
    /// assert_eq!(first_text(&pay), "declined");
    ///
    /// // Only the accepted one waits for its page, bound to alice.
    /// let pending = hub.pending(&alice).await?;
    /// assert_eq!(pending.len(), 1);
    /// assert_eq!(pending[0].message, "Link your calendar");
    /// assert!(first_text(&linked).ends_with(&pending[0].id));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn url(&self, elicitation: &UrlElicitation) -> Result<UrlOutcome, Error> {
        self.check_protocol()?;
        self.require(Mode::Url)?;
        let request = self.checked_request(elicitation)?;
        let guard = self
            .hub
            .register(
                self.url_record(&request, elicitation.app_data.clone()),
                self.peer.clone(),
                self.outlet.clone(),
            )
            .await?;
        let id = request.elicitation_id.clone();
        let reply = match self
            .send(request.to_value(), self.url_consent_timeout)
            .await
        {
            Ok(reply) => reply,
            Err(e) => {
                guard.forget().await;
                return Err(e);
            }
        };
        if let Err(e) = reply.check_for(Mode::Url) {
            guard.forget().await;
            return Err(Error::new(
                ErrorKind::MalformedReply,
                format!("the client's answer is malformed: {e}"),
            ));
        }
        match reply.action {
            Action::Accept => {
                guard.keep();
                // The page may already have completed it (a fast user): that is fine.
                if let Err(e) = self
                    .hub
                    .transition(&self.principal, &id, Event::Accept)
                    .await
                {
                    tracing::debug!(elicitation_id = %id, error = %e, "accept after the elicitation finished");
                }
                Ok(UrlOutcome::Accepted)
            }
            Action::Decline => {
                guard.forget().await;
                Ok(UrlOutcome::Declined)
            }
            Action::Cancel => {
                guard.forget().await;
                Ok(UrlOutcome::Cancelled)
            }
        }
    }

    /// Builds the `-32042` `URLElicitationRequiredError` for `elicitations` (the only way
    /// this crate makes one) and records each as pending, bound to the user and session,
    /// so that [`Elicitations::complete`] later notifies this client.
    ///
    /// Always returns an [`Error`]: of kind [`ErrorKind::UrlElicitationRequired`] when
    /// everything checked out (return it from the tool: it maps to code -32042 with
    /// `data: {"elicitations": [...]}`), or the reason it could not be built (client
    /// without URL mode, refused URL, empty list...).
    ///
    /// A client with URL mode gets -32042 listing the page; one without gets the reason
    /// instead, and nothing is stored (hidden: rmcp clients over in-memory pipes):
    ///
    /// ```
    /// use mcp_elicit_server::{SessionScope, UrlElicitation};
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
    ///     let elicitation = UrlElicitation::new("Authorize access to your files", |id| {
    ///         format!("https://mcp.example.com/connect?elicitationId={id}")
    ///     })?;
    ///     // Always an error: -32042 when it could be built, else the reason.
    ///     Err(scope.elicitor(ctx)?.url_required(&[elicitation]).await.into())
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = hub();
    /// # let (with_url, _) = connect(&hub, json!({"elicitation": {"url": {}}}), |_| None).await?;
    /// # let (forms_only, _) = connect(&hub, json!({"elicitation": {"form": {}}}), |_| None).await?;
    /// let call = || CallToolRequestParams::new("files");
    /// let Err(ServiceError::McpError(e)) = with_url.call_tool(call()).await else { panic!() };
    /// assert_eq!(e.code.0, -32042);
    /// let listed = &e.data.as_ref().unwrap()["elicitations"][0];
    /// let id = listed["elicitationId"].as_str().unwrap();
    /// assert_eq!(listed["url"], format!("https://mcp.example.com/connect?elicitationId={id}"));
    /// assert_eq!(listed["mode"], "url");
    /// assert_eq!(hub.pending_count().await?, 1); // recorded, bound to the user and session
    ///
    /// let Err(ServiceError::McpError(e)) = forms_only.call_tool(call()).await else { panic!() };
    /// assert_eq!((e.code.0, e.data.unwrap()["kind"].clone()), (-32602, json!("mode_not_supported")));
    /// assert_eq!(hub.pending_count().await?, 1);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn url_required(&self, elicitations: &[UrlElicitation]) -> Error {
        match self.try_url_required(elicitations).await {
            Ok(e) | Err(e) => e,
        }
    }

    async fn try_url_required(&self, elicitations: &[UrlElicitation]) -> Result<Error, Error> {
        self.require(Mode::Url)?;
        let requests = elicitations
            .iter()
            .map(|e| self.checked_request(e))
            .collect::<Result<Vec<_>, _>>()?;
        let required = UrlElicitationRequired::new(requests.clone()).map_err(|e| {
            Error::new(
                ErrorKind::InvalidUrl,
                format!("cannot build the -32042 error: {e}"),
            )
        })?;
        let mut guards = Vec::with_capacity(requests.len());
        for (request, elicitation) in requests.iter().zip(elicitations) {
            match self
                .hub
                .register(
                    self.url_record(request, elicitation.app_data.clone()),
                    self.peer.clone(),
                    self.outlet.clone(),
                )
                .await
            {
                Ok(guard) => guards.push(guard),
                Err(e) => {
                    for guard in guards {
                        guard.forget().await;
                    }
                    return Err(e);
                }
            }
        }
        guards.into_iter().for_each(PendingGuard::keep);
        Ok(Error::required(
            required,
            URL_ELICITATION_REQUIRED_MESSAGE.to_owned(),
        ))
    }

    /// What to tell the user when the client cannot do URL mode, for `elicitation`
    /// (checked like [`Elicitor::url`]): [`Elicitor::url_unsupported`] for its message.
    /// The URL is **not** in the text and nothing is stored (nobody could reach it).
    /// Never fall back to a form for secrets: form mode MUST NOT carry them.
    ///
    /// For a client without URL mode (hidden: an rmcp client over an in-memory pipe declaring
    /// form mode only):
    ///
    /// ```
    /// use mcp_elicit_server::{Mode, SessionScope, UrlElicitation, text};
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
    ///     let elicitor = scope.elicitor(ctx)?;
    ///     let elicitation = UrlElicitation::new("Enter your Stripe API key", |id| {
    ///         format!("https://mcp.example.com/secret?elicitationId={id}")
    ///     })?;
    ///     if !elicitor.supports(Mode::Url) {
    ///         // The same text as `url_unsupported`, once the elicitation passed its checks.
    ///         return Ok(text(elicitor.url_fallback(&elicitation).await?));
    ///     }
    ///     Ok(text(format!("{:?}", elicitor.url(&elicitation).await?)))
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = hub();
    /// # let (client, _) = connect(&hub, json!({"elicitation": {"form": {}}}), |_| None).await?;
    /// let result = client.call_tool(CallToolRequestParams::new("stripe")).await?;
    /// let told = first_text(&result);
    /// assert!(told.starts_with("Enter your Stripe API key"));
    /// assert!(told.contains("does not support URL-mode elicitation"));
    /// assert!(!told.contains("https://")); // the model never sees the URL
    /// assert_eq!(hub.pending_count().await?, 0);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn url_fallback(&self, elicitation: &UrlElicitation) -> Result<String, Error> {
        self.checked_request(elicitation)?;
        Ok(url_unsupported_text(elicitation.message()))
    }

    fn checked_request(&self, elicitation: &UrlElicitation) -> Result<UrlRequest, Error> {
        let url = checks::server_url(&elicitation.url, self.hub.config().allow_loopback_http)?;
        UrlRequest::new(elicitation.message.clone(), url, elicitation.id.as_str())
            .map_err(|e| Error::core(ErrorKind::InvalidUrl, "the URL elicitation is invalid", e))
    }

    fn url_record(&self, request: &UrlRequest, app_data: Option<Value>) -> PendingElicitation {
        let now = self.hub.inner.clock.now();
        PendingElicitation {
            id: request.elicitation_id.clone(),
            principal: self.principal.clone(),
            session: self.session.clone(),
            mode: Mode::Url,
            state: State::Pending,
            message: request.message.clone(),
            url: Some(request.url.clone()),
            created_at: now,
            expires_at: deadline(now, self.hub.config().url_ttl),
            app_data,
        }
    }
}
