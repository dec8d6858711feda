//! Which session layer serves Streamable HTTP ([`SessionLayer`]: rmcp's
//! `LocalSessionManager` or our [`LeanSessionManager`](crate::LeanSessionManager)), and
//! what the layers around `/mcp` need of it ([`SessionDirectory`]: the session limits
//! list and close sessions, the 404 for an ended session asks whether one is live).

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
pub fn lean_session_manager(config: &crate::ElicitationConfig) -> Arc<LeanSessionManager> {
    Arc::new(LeanSessionManager::new(
        crate::LeanSessionConfig::default().with_keep_alive(Some(config.session_keep_alive())),
    ))
}
