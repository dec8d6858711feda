//! [`SessionScope`]: one client connection's view of the registry, where each request's
//! [`Elicitor`] and [`Ask`] come from.

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use crate::ask::{Ask, Retryable};
use crate::elicitor::Elicitor;
use crate::error::{Error, ErrorKind};
use crate::identity::SessionKey;
#[cfg(doc)]
use crate::identity::{IdentityPolicy, Principal};
use crate::respond::Stop;
use crate::revision::{Declared, Revision};

use super::Elicitations;

pub(super) struct ScopeInner {
    pub(super) hub: Elicitations,
    pub(super) key: SessionKey,
}

impl Drop for ScopeInner {
    fn drop(&mut self) {
        let hub = self.hub.clone();
        let key = self.key.clone();
        if let Ok(handle) = tokio::runtime::Handle::try_current() {
            handle.spawn(async move { hub.drop_session(&key).await });
        }
    }
}

/// One client connection's handle on the [`Elicitations`] registry; keep it in the
/// connection's server handler and build an [`Elicitor`] per request with
/// [`SessionScope::elicitor`].
///
/// When the connection ends (the last clone of its scope is dropped), its pending forms
/// are forgotten: nobody is left to answer them. URL elicitations stay for their user.
///
/// ```
/// # use std::sync::Arc;
/// # use std::time::{Duration, SystemTime};
/// # use mcp_elicit_server::mcp_elicit_core::lifecycle::State;
/// # use mcp_elicit_server::{ElicitationConfig, ElicitationStore, Elicitations, IdentityPolicy,
/// #     MemoryStore, Mode, PendingElicitation, Principal, SessionKey, SystemClock};
/// # fn url_record(id: &str, user: &Principal, ttl: Duration) -> PendingElicitation {
/// #     let now = SystemTime::now();
/// #     PendingElicitation {
/// #         id: id.to_owned(),
/// #         principal: user.clone(),
/// #         session: SessionKey::from_stored("connection-1"),
/// #         mode: Mode::Url,
/// #         state: State::Accepted,
/// #         message: "Connect your calendar".to_owned(),
/// #         url: Some(format!("https://example.com/connect?elicitationId={id}")),
/// #         created_at: now,
/// #         expires_at: now + ttl,
/// #         app_data: Some(mcp_elicit_server::serde_json::json!({"provider": "calendar"})),
/// #     }
/// # }
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let alice = Principal::authenticated("https://auth.example.com", "alice");
/// # let store = Arc::new(MemoryStore::new());
/// # let hub = Elicitations::with_store(
/// #     ElicitationConfig::new(IdentityPolicy::Authenticated),
/// #     store.clone(),
/// #     Arc::new(SystemClock),
/// # );
/// # // What `Ask::url` stores when a tool asks alice to connect her calendar:
/// # store.insert(url_record("e1", &alice, Duration::from_secs(3600))).await?;
/// # let now = SystemTime::now();
/// let scope = hub.scope()?;
/// let form = PendingElicitation {
///     id: "f1".to_owned(),
///     principal: alice.clone(),
///     session: scope.connection_key().clone(), // a form asked on this connection
///     mode: Mode::Form,
///     state: State::Pending,
///     message: "Table for how many?".to_owned(),
///     url: None,
///     created_at: now,
///     expires_at: now + Duration::from_secs(600),
///     app_data: None,
/// };
/// store.insert(form).await?;
/// assert_eq!(hub.pending_count().await?, 2);
///
/// drop(scope); // the connection closed
/// # for _ in 0..100 {
/// #     if hub.pending_count().await? == 1 { break; }
/// #     tokio::time::sleep(Duration::from_millis(10)).await;
/// # }
/// assert_eq!(hub.pending_count().await?, 1); // the form went; the URL elicitation e1 stays
/// assert!(hub.get(&alice, "e1").await?.is_some());
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct SessionScope {
    pub(super) inner: Arc<ScopeInner>,
}

impl fmt::Debug for SessionScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SessionScope")
            .field("key", &self.inner.key)
            .finish()
    }
}

impl SessionScope {
    /// The registry.
    ///
    /// ```
    /// let hub = mcp_elicit_server::Elicitations::local();
    /// let scope = hub.scope()?;
    /// assert_eq!(scope.hub().config().max_attempts, hub.config().max_attempts);
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn hub(&self) -> &Elicitations {
        &self.inner.hub
    }

    /// The connection's own key (used when the transport has no session id).
    ///
    /// ```
    /// let hub = mcp_elicit_server::Elicitations::local();
    /// let scope = hub.scope()?;
    /// // Clones share it: they are the same connection.
    /// assert_eq!(scope.clone().connection_key(), scope.connection_key());
    /// assert!(scope.connection_key().as_str().starts_with("connection:"));
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn connection_key(&self) -> &SessionKey {
        &self.inner.key
    }

    /// The elicitation API for the request `ctx` (a tool call, prompt or resource read):
    /// resolves the user (never from anything the client sent), the session, and the
    /// client's declared modes.
    ///
    /// The user comes from the registry's [`IdentityPolicy`] and the request's verified
    /// [`Principal`], never from the client: a remote server without authentication refuses
    /// (hidden: an rmcp client over an in-memory pipe, no authentication layer):
    ///
    /// ```
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
    ///     scope: &mcp_elicit_server::SessionScope,
    ///     _: &CallToolRequestParams,
    ///     ctx: &RequestContext<RoleServer>,
    /// ) -> Result<CallToolResult, ErrorData> {
    ///     let elicitor = scope.elicitor(ctx)?; // -32603 `no_identity` here
    ///     Ok(mcp_elicit_server::text(elicitor.principal().subject()))
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy};
    ///
    /// let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::Authenticated));
    /// # let (client, _) = connect(&hub, json!({"elicitation": {"form": {}}}), |_| None).await?;
    /// let Err(ServiceError::McpError(e)) = client.call_tool(CallToolRequestParams::new("whoami")).await
    /// else {
    ///     panic!("expected an error");
    /// };
    /// assert_eq!((e.code.0, e.data.unwrap()["kind"].clone()), (-32603, json!("no_identity")));
    /// # Ok(())
    /// # }
    /// ```
    pub fn elicitor(&self, ctx: &RequestContext<RoleServer>) -> Result<Elicitor, Error> {
        let hub = &self.inner.hub;
        let principal = hub
            .inner
            .config
            .identity
            .resolve(&ctx.extensions)
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::NoIdentity,
                    "the request carries no authenticated user, and no local user is configured",
                )
            })?;
        let session =
            SessionKey::from_http(&ctx.extensions).unwrap_or_else(|| self.inner.key.clone());
        let declared = Declared::of(ctx, Revision::of(ctx));
        Ok(Elicitor::new(
            hub.clone(),
            ctx,
            principal,
            session,
            declared.elicitation,
        ))
    }

    /// The questions of the request `ctx` / `request` (a tool call, prompt or resource
    /// read), on its [`Revision`]: on 2026-07-28 the echoed `requestState` is opened
    /// (and refused with -32602, [`ErrorKind::InvalidState`], when it is not one this
    /// server issued for this user and request, or has expired), and URL interactions
    /// answered in this retry are settled. See [`Ask`] for what a handler must do.
    pub async fn ask<R: Retryable>(
        &self,
        ctx: &RequestContext<RoleServer>,
        request: &R,
    ) -> Result<Ask, Error> {
        let elicitor = self.elicitor(ctx)?;
        let revision = Revision::of(ctx);
        let mut ask = Ask::new(elicitor, revision, Declared::of(ctx, revision), request).await?;
        ask.typed_rounds = ctx
            .extensions
            .get::<crate::wire::WritesRoundsExactly>()
            .is_none();
        Ok(ask)
    }

    /// [`SessionScope::ask`] for the tool call `ctx` belongs to, with the call's
    /// parameters taken from `ctx`'s extensions, where [`Edge`](crate::Edge) puts them:
    /// for the tool functions of rmcp's `#[tool_router]`, which do not get the request.
    /// [`ErrorKind::Internal`] when they are not there (the handler is not served
    /// through `Edge`).
    ///
    /// ```no_run
    /// # use mcp_elicit_server::{SessionScope, Stop};
    /// # use mcp_elicit_server::rmcp::{RoleServer, service::RequestContext};
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Name {
    ///     name: String,
    /// }
    ///
    /// async fn tool(scope: &SessionScope, ctx: RequestContext<RoleServer>) -> Result<String, Stop> {
    ///     let mut ask = scope.ask_tool(&ctx).await?;
    ///     Ok(ask.form::<Name>("name", "Your name?").await?.accepted()?.name)
    /// }
    /// ```
    pub async fn ask_tool(&self, ctx: &RequestContext<RoleServer>) -> Result<Ask, Error> {
        let call = ctx.extensions.get::<CallToolRequestParams>().ok_or_else(|| {
            Error::new(
                ErrorKind::Internal,
                "the tool call's parameters are not in the request's extensions: serve the handler through Edge",
            )
        })?;
        self.ask(ctx, call).await
    }

    /// A whole `#[tool]` function in one call: builds the [`Ask`] of the tool call `ctx`
    /// belongs to ([`SessionScope::ask_tool`]), runs `run` with it, and answers its
    /// outcome with [`respond`](crate::respond) (a result, a 2026-07-28 round, or the
    /// JSON-RPC error). For the user's decline or a timeout as a tool result instead,
    /// use `ask_tool` and [`respond_tool`](crate::respond_tool).
    ///
    /// ```no_run
    /// use mcp_elicit_server::rmcp::model::CallToolResponse;
    /// use mcp_elicit_server::rmcp::{ErrorData, RoleServer, service::RequestContext};
    /// use mcp_elicit_server::{SessionScope, text};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Name {
    ///     name: String,
    /// }
    ///
    /// async fn greet(scope: &SessionScope, ctx: RequestContext<RoleServer>)
    ///     -> Result<CallToolResponse, ErrorData> {
    ///     scope.tool(&ctx, |mut ask| async move {
    ///         Ok(match ask.form::<Name>("name", "Your name?").await?.ok() {
    ///             Some(n) => text(format!("Hello, {}", n.name)),
    ///             None => text("Hello"),
    ///         })
    ///     })
    ///     .await
    /// }
    /// ```
    pub async fn tool<F, Fut>(
        &self,
        ctx: &RequestContext<RoleServer>,
        run: F,
    ) -> Result<CallToolResponse, ErrorData>
    where
        F: FnOnce(Ask) -> Fut,
        Fut: Future<Output = Result<CallToolResult, Stop>>,
    {
        let outcome = match self.ask_tool(ctx).await {
            Ok(ask) => run(ask).await,
            Err(e) => Err(e.into()),
        };
        crate::respond::respond(outcome)
    }
}
