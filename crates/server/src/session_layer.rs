//! Which session layer serves Streamable HTTP ([`SessionLayer`]: rmcp's
//! `LocalSessionManager` or our [`LeanSessionManager`](crate::LeanSessionManager)), and
//! what the layers around `/mcp` need of it ([`SessionDirectory`]: the session limits
//! list and close sessions, the 404 for an ended session asks whether one is live).
//! With the `reference` feature, [`SharedHttpService`] mounts rmcp's HTTP service without
//! copying it on every request.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;
use futures::future::BoxFuture;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::{SessionId, SessionManager};

use crate::lean_sessions::LeanSessionManager;

/// The session layer of `/mcp`.
///
/// ```
/// use mcp_elicit_server::SessionLayer;
///
/// assert_eq!(SessionLayer::default(), SessionLayer::Rmcp);
/// assert_eq!("lean".parse::<SessionLayer>(), Ok(SessionLayer::Lean));
/// assert!("Lean".parse::<SessionLayer>().is_err());
/// for layer in [SessionLayer::Rmcp, SessionLayer::Lean] {
///     assert_eq!(layer.name().parse::<SessionLayer>(), Ok(layer));
/// }
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SessionLayer {
    /// rmcp's `LocalSessionManager` (a worker task and channels per session).
    #[default]
    Rmcp,
    /// [`LeanSessionManager`](crate::LeanSessionManager): one shared state per session,
    /// no task or channel of its own.
    Lean,
}

impl SessionLayer {
    /// Its name on the command line (`rmcp`, `lean`).
    ///
    /// ```
    /// use mcp_elicit_server::SessionLayer;
    ///
    /// assert_eq!(SessionLayer::Rmcp.name(), "rmcp");
    /// assert_eq!(SessionLayer::Lean.name(), "lean");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            SessionLayer::Rmcp => "rmcp",
            SessionLayer::Lean => "lean",
        }
    }
}

impl std::str::FromStr for SessionLayer {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "rmcp" => Ok(SessionLayer::Rmcp),
            "lean" => Ok(SessionLayer::Lean),
            other => Err(format!("unknown session layer {other:?} (rmcp, lean)")),
        }
    }
}

/// What the session limits and the 404 middleware need of a session manager.
///
/// Both session managers are one:
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use std::sync::Arc;
/// use mcp_elicit_server::{LeanSessionManager, SessionDirectory};
/// use rmcp::transport::streamable_http_server::session::SessionManager as _;
/// use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
///
/// let lean = Arc::new(LeanSessionManager::default());
/// let (id, _transport) = lean.create_session().await?;
/// let directory: Arc<dyn SessionDirectory> = lean;
/// assert_eq!(directory.live_ids().await, [id.clone()]);
/// assert!(directory.contains(&id).await);
/// directory.end(&id).await;
/// assert!(!directory.contains(&id).await);
/// assert!(directory.live_ids().await.is_empty());
///
/// let rmcp_sessions: Arc<dyn SessionDirectory> = Arc::new(LocalSessionManager::default());
/// assert!(!rmcp_sessions.contains(&id).await);
/// # Ok(())
/// # }
/// ```
pub trait SessionDirectory: Send + Sync + 'static {
    /// The ids of the live sessions.
    fn live_ids(&self) -> BoxFuture<'_, Vec<SessionId>>;
    /// Whether session `id` is live.
    fn contains<'a>(&'a self, id: &'a SessionId) -> BoxFuture<'a, bool>;
    /// Ends session `id` (nothing if it is not live).
    fn end<'a>(&'a self, id: &'a SessionId) -> BoxFuture<'a, ()>;
}

impl SessionDirectory for LocalSessionManager {
    fn live_ids(&self) -> BoxFuture<'_, Vec<SessionId>> {
        Box::pin(async move { self.sessions.read().await.keys().cloned().collect() })
    }

    fn contains<'a>(&'a self, id: &'a SessionId) -> BoxFuture<'a, bool> {
        Box::pin(async move { self.has_session(id).await.unwrap_or(false) })
    }

    fn end<'a>(&'a self, id: &'a SessionId) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            if let Err(e) = self.close_session(id).await {
                tracing::debug!("closing a session: {e}");
            }
        })
    }
}

impl SessionDirectory for LeanSessionManager {
    fn live_ids(&self) -> BoxFuture<'_, Vec<SessionId>> {
        Box::pin(std::future::ready(self.session_ids()))
    }

    fn contains<'a>(&'a self, id: &'a SessionId) -> BoxFuture<'a, bool> {
        Box::pin(async move { self.has_session(id).await.unwrap_or(false) })
    }

    fn end<'a>(&'a self, id: &'a SessionId) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            let _ = self.close_session(id).await;
        })
    }
}

/// [`unknown_session_404`](crate::unknown_session_404) over any [`SessionDirectory`]
/// (`axum::middleware::from_fn_with_state(directory, unknown_session_404_in)`).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use std::sync::Arc;
/// use axum::body::Body;
/// use axum::http::{Request, StatusCode};
/// use axum::routing::delete;
/// use mcp_elicit_server::{LeanSessionManager, SessionDirectory, unknown_session_404_in};
/// use rmcp::transport::streamable_http_server::session::SessionManager as _;
/// use tower::ServiceExt as _;
///
/// let lean = Arc::new(LeanSessionManager::default());
/// let (id, _transport) = lean.create_session().await?;
/// let directory: Arc<dyn SessionDirectory> = lean;
/// let app = axum::Router::new()
///     .route("/mcp", delete(|| async { StatusCode::ACCEPTED }))
///     .layer(axum::middleware::from_fn_with_state(directory, unknown_session_404_in));
///
/// let unknown = Request::delete("/mcp").header("mcp-session-id", "no-such").body(Body::empty())?;
/// assert_eq!(app.clone().oneshot(unknown).await?.status(), StatusCode::NOT_FOUND);
/// let live = Request::delete("/mcp").header("mcp-session-id", &*id).body(Body::empty())?;
/// assert_eq!(app.oneshot(live).await?.status(), StatusCode::ACCEPTED);
/// # Ok(())
/// # }
/// ```
pub async fn unknown_session_404_in(
    State(directory): State<Arc<dyn SessionDirectory>>,
    request: Request,
    next: Next,
) -> Response {
    if request.method() == Method::DELETE
        && let Some(id) = request
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
        && !id.is_empty()
    {
        let id: SessionId = Arc::from(id);
        if !directory.contains(&id).await {
            return crate::streamable::not_found();
        }
    }
    next.run(request).await
}

/// [`LeanSessionManager`](crate::LeanSessionManager) with sessions kept alive as long as
/// [`ElicitationConfig::session_keep_alive`](crate::ElicitationConfig::session_keep_alive)
/// says, as [`session_manager`](crate::session_manager) does for rmcp's.
///
/// ```
/// use mcp_elicit_server::{ElicitationConfig, IdentityPolicy, Principal, lean_session_manager};
///
/// let config = ElicitationConfig::new(IdentityPolicy::LocalUser(Principal::local_user("a")));
/// let sessions = lean_session_manager(&config);
/// assert_eq!(sessions.config().keep_alive, Some(config.session_keep_alive()));
/// assert!(sessions.is_empty());
/// ```
pub fn lean_session_manager(config: &crate::ElicitationConfig) -> Arc<LeanSessionManager> {
    Arc::new(LeanSessionManager::new(
        crate::LeanSessionConfig::default().with_keep_alive(Some(config.session_keep_alive())),
    ))
}

/// rmcp's `StreamableHttpService` behind an `Arc`, to mount with axum's `nest_service`.
///
/// axum clones a mounted service for every request, and rmcp's service clones itself
/// again in `call`: each clone copies its whole `StreamableHttpServerConfig` (the allowed
/// hosts and origins, a cancellation token) and drops it after the request. Behind an
/// `Arc` a request costs one reference count instead; what the service does is the same
/// (`call` runs rmcp's `StreamableHttpService::handle`).
///
/// ```
/// use std::sync::Arc;
///
/// use mcp_elicit_server::{Edge, LeanSessionManager, SharedHttpService};
/// use rmcp::ServerHandler;
/// use rmcp::transport::StreamableHttpService;
///
/// #[derive(Clone)]
/// struct MyServer; // your handler, with its tools
/// impl ServerHandler for MyServer {}
///
/// let mcp = StreamableHttpService::new(
///     || Ok(Edge::new(MyServer)),
///     Arc::new(LeanSessionManager::default()),
///     Default::default(),
/// );
/// let shared = SharedHttpService::new(mcp);
/// assert!(shared.inner().config.legacy_session_mode);
/// let app: axum::Router = axum::Router::new().nest_service("/mcp", shared);
/// # let _ = app;
/// ```
#[cfg(feature = "reference")]
pub struct SharedHttpService<S, M> {
    inner: Arc<rmcp::transport::StreamableHttpService<S, M>>,
}

#[cfg(feature = "reference")]
impl<S, M> SharedHttpService<S, M> {
    /// `service`, shared.
    ///
    /// ```
    /// use std::sync::Arc;
    ///
    /// use mcp_elicit_server::SharedHttpService;
    /// use rmcp::ServerHandler;
    /// use rmcp::transport::StreamableHttpService;
    /// use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    ///
    /// struct MyServer;
    /// impl ServerHandler for MyServer {}
    ///
    /// let mcp = StreamableHttpService::new(
    ///     || Ok(MyServer),
    ///     Arc::new(LocalSessionManager::default()),
    ///     Default::default(),
    /// );
    /// let a = SharedHttpService::new(mcp);
    /// let b = a.clone();
    /// assert!(std::ptr::eq(a.inner(), b.inner()));
    /// ```
    pub fn new(service: rmcp::transport::StreamableHttpService<S, M>) -> Self {
        SharedHttpService {
            inner: Arc::new(service),
        }
    }

    /// The service.
    ///
    /// ```
    /// use std::sync::Arc;
    ///
    /// use mcp_elicit_server::SharedHttpService;
    /// use rmcp::ServerHandler;
    /// use rmcp::transport::StreamableHttpService;
    /// use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    ///
    /// struct MyServer;
    /// impl ServerHandler for MyServer {}
    ///
    /// let config = rmcp::transport::StreamableHttpServerConfig::default().with_json_response(true);
    /// let mcp = StreamableHttpService::new(
    ///     || Ok(MyServer),
    ///     Arc::new(LocalSessionManager::default()),
    ///     config,
    /// );
    /// assert!(SharedHttpService::new(mcp).inner().config.json_response);
    /// ```
    pub fn inner(&self) -> &rmcp::transport::StreamableHttpService<S, M> {
        &self.inner
    }
}

#[cfg(feature = "reference")]
impl<S, M> Clone for SharedHttpService<S, M> {
    fn clone(&self) -> Self {
        SharedHttpService {
            inner: Arc::clone(&self.inner),
        }
    }
}

#[cfg(feature = "reference")]
impl<S, M> std::fmt::Debug for SharedHttpService<S, M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedHttpService").finish_non_exhaustive()
    }
}

#[cfg(feature = "reference")]
impl<S, M> tower::Service<Request> for SharedHttpService<S, M>
where
    S: rmcp::ServerHandler + Send + 'static,
    M: SessionManager,
{
    type Response = Response;
    type Error = std::convert::Infallible;
    type Future = BoxFuture<'static, Result<Response, std::convert::Infallible>>;

    fn poll_ready(
        &mut self,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Self::Error>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let service = Arc::clone(&self.inner);
        Box::pin(async move { Ok(service.handle(request).await.map(axum::body::Body::new)) })
    }
}
