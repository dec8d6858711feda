//! Serving over Streamable HTTP with the right defaults: [`session_manager`] (sessions
//! outlive the longest wait for a user), [`Elicitations::router`] (`/mcp` with
//! everything a server of this crate needs), [`unknown_session_404`].

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use crate::config::ElicitationConfig;
use crate::hub::{Elicitations, SessionScope};
use crate::identity::IdentityPolicy;
use crate::respond::Edge;
use crate::session_limits::{SessionGuard, enforce};

/// The path [`Elicitations::router`] serves MCP on.
///
/// ```
/// assert_eq!(mcp_elicit_server::MCP_PATH, "/mcp");
/// ```
pub const MCP_PATH: &str = "/mcp";

/// The session header of Streamable HTTP.
const SESSION_HEADER: &str = "mcp-session-id";

/// rmcp's in-memory session manager, with sessions kept alive as long as
/// [`ElicitationConfig::session_keep_alive`] says (10 minutes 1 second with the
/// defaults): a session waiting for a slow user to answer a form exchanges nothing, and
/// rmcp's default idle timeout (5 minutes) would close it before the form timeout
/// (10 minutes), cutting the user off mid-form.
///
/// Pass it to `StreamableHttpService::new` when you build the service yourself;
/// [`Elicitations::router`] does it for you.
///
/// ```
/// use mcp_elicit_server::{ElicitationConfig, IdentityPolicy, Principal, session_manager};
///
/// let config = ElicitationConfig::new(IdentityPolicy::LocalUser(Principal::local_user("a")));
/// let sessions = session_manager(&config);
/// assert_eq!(sessions.session_config.keep_alive, Some(config.session_keep_alive()));
/// ```
pub fn session_manager(config: &ElicitationConfig) -> Arc<LocalSessionManager> {
    let mut manager = LocalSessionManager::default();
    manager.session_config.keep_alive = Some(config.session_keep_alive());
    Arc::new(manager)
}

impl Elicitations {
    /// [`session_manager`] for this registry's configuration.
    ///
    /// ```
    /// use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy};
    ///
    /// let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::Authenticated));
    /// let sessions = hub.session_manager();
    /// assert_eq!(sessions.session_config.keep_alive, Some(hub.config().session_keep_alive()));
    /// ```
    pub fn session_manager(&self) -> Arc<LocalSessionManager> {
        session_manager(self.config())
    }

    /// An axum router serving MCP over Streamable HTTP at [`MCP_PATH`] (`/mcp`), with
    /// everything a server of this crate needs:
    ///
    /// - each session's handler is built by `factory` (once per session: build its
    ///   [`SessionScope`](crate::SessionScope) there) and served behind [`Edge`] (do not
    ///   wrap it yourself);
    /// - sessions are kept alive for [`ElicitationConfig::session_keep_alive`]
    ///   ([`session_manager`]);
    /// - 2026-07-28 rounds go out with the exact JSON of their requests, `pattern`
    ///   included ([`wire::exact_rounds_http`](crate::wire::exact_rounds_http));
    /// - `DELETE` of an unknown or ended session answers 404 ([`unknown_session_404`]);
    /// - the session limits of [`ElicitationConfig::session_limits`] (defaults: 32
    ///   JSON-RPC requests in progress per session, 256 per user, 256 live sessions per
    ///   user, a session unused after `initialize` closed after 30 s, one with no request
    ///   or stream for 5 minutes): a request or `initialize` over a cap answers 429 with
    ///   `Retry-After` and a JSON-RPC `-32000` whose `data.limit` names it; responses to
    ///   the server's own requests (form answers) and open streams are never refused or
    ///   closed ([`SessionGuard`](crate::SessionGuard)). The user is the request's
    ///   [`Principal`](crate::Principal) (put there by your authentication layer,
    ///   layered over this router), else the local user of
    ///   [`IdentityPolicy::LocalUser`](crate::IdentityPolicy::LocalUser).
    ///
    /// `http` is rmcp's transport configuration (allowed hosts and origins, the
    /// cancellation token that ends every session; `Default::default()` allows loopback
    /// host names only). Merge your own routes (the page behind a URL elicitation) into
    /// the router and serve it with `axum::serve`.
    ///
    /// ```no_run
    /// use mcp_elicit_server::rmcp::{ServerHandler, model::ServerConfig};
    /// use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal, SessionScope};
    ///
    /// #[derive(Clone)]
    /// struct App {
    ///     scope: SessionScope,
    /// }
    /// impl ServerHandler for App {
    ///     fn get_info(&self) -> ServerConfig {
    ///         ServerConfig::default()
    ///     }
    /// }
    ///
    /// # async fn run() -> std::io::Result<()> {
    /// let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(
    ///     Principal::current_local_user(),
    /// )));
    /// let scopes = hub.clone();
    /// let app = hub.router(
    ///     move || Ok(App { scope: scopes.scope().map_err(std::io::Error::other)? }),
    ///     Default::default(),
    /// );
    /// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
    /// axum::serve(listener, app).await?;
    /// # Ok(())
    /// # }
    /// ```
    pub fn router<S, F>(&self, factory: F, http: StreamableHttpServerConfig) -> Router
    where
        S: ServerHandler,
        F: Fn() -> Result<S, std::io::Error> + Send + Sync + 'static,
    {
        let sessions = self.session_manager();
        let local_user = match &self.config().identity {
            IdentityPolicy::LocalUser(p) => Some(p.clone()),
            _ => None,
        };
        let guard = SessionGuard::new(
            self.config().session_limits.clone(),
            Arc::clone(&sessions),
            local_user,
            http.cancellation_token.clone(),
        );
        let service = StreamableHttpService::new(
            move || factory().map(Edge::new),
            Arc::clone(&sessions),
            http,
        );
        Router::new()
            .nest_service(MCP_PATH, service)
            // Requests in progress per session and user, sessions per user, idle sessions.
            .layer(axum::middleware::from_fn_with_state(guard, enforce))
            .layer(axum::middleware::from_fn_with_state(
                sessions,
                unknown_session_404,
            ))
            .layer(axum::middleware::from_fn(crate::wire::exact_rounds_http))
    }

    /// [`Elicitations::router`] with the session's [`SessionScope`] built for you:
    /// `factory` gets it (a new one per session) and returns the handler. The same
    /// router otherwise; a session whose scope cannot be built (no system randomness)
    /// is refused, as with `router`.
    ///
    /// ```no_run
    /// use mcp_elicit_server::rmcp::{ServerHandler, model::ServerConfig};
    /// use mcp_elicit_server::{Elicitations, SessionScope};
    ///
    /// #[derive(Clone)]
    /// struct App {
    ///     scope: SessionScope,
    /// }
    /// impl ServerHandler for App {
    ///     fn get_info(&self) -> ServerConfig {
    ///         ServerConfig::default()
    ///     }
    /// }
    ///
    /// # async fn run() -> std::io::Result<()> {
    /// let app = Elicitations::local().scoped_router(|scope| App { scope }, Default::default());
    /// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
    /// axum::serve(listener, app).await?;
    /// # Ok(())
    /// # }
    /// ```
    pub fn scoped_router<S, F>(&self, factory: F, http: StreamableHttpServerConfig) -> Router
    where
        S: ServerHandler,
        F: Fn(SessionScope) -> S + Send + Sync + 'static,
    {
        let hub = self.clone();
        self.router(
            move || Ok(factory(hub.scope().map_err(std::io::Error::other)?)),
            http,
        )
    }
}

/// Axum middleware for the MCP endpoint
/// (`axum::middleware::from_fn_with_state(manager, unknown_session_404)`): `DELETE` of
/// a session this server does not hold (unknown, or ended already) answers 404 Not
/// Found, as the Streamable HTTP transport requires of requests naming a session that
/// does not exist (rmcp 3.11 answers 202 and does nothing). [`Elicitations::router`]
/// installs it.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use axum::body::Body;
/// use axum::http::{Request, StatusCode};
/// use axum::routing::delete;
/// use mcp_elicit_server::{ElicitationConfig, IdentityPolicy, session_manager, unknown_session_404};
/// use tower::ServiceExt as _;
///
/// let manager = session_manager(&ElicitationConfig::new(IdentityPolicy::Authenticated));
/// let app = axum::Router::new()
///     .route("/mcp", delete(|| async { StatusCode::ACCEPTED }))
///     .layer(axum::middleware::from_fn_with_state(manager, unknown_session_404));
///
/// let request = Request::delete("/mcp").header("mcp-session-id", "no-such").body(Body::empty())?;
/// let response = app.clone().oneshot(request).await?;
/// assert_eq!(response.status(), StatusCode::NOT_FOUND);
/// let body = axum::body::to_bytes(response.into_body(), usize::MAX).await?;
/// assert_eq!(serde_json::from_slice::<serde_json::Value>(&body)?["error"]["code"], -32600);
/// // Without a session header it is none of this layer's business.
/// let request = Request::delete("/mcp").body(Body::empty())?;
/// assert_eq!(app.oneshot(request).await?.status(), StatusCode::ACCEPTED);
/// # Ok(())
/// # }
/// ```
pub async fn unknown_session_404(
    State(manager): State<Arc<LocalSessionManager>>,
    request: Request,
    next: Next,
) -> Response {
    if request.method() == Method::DELETE
        && let Some(id) = request
            .headers()
            .get(SESSION_HEADER)
            .and_then(|v| v.to_str().ok())
        && !id.is_empty()
    {
        let id: Arc<str> = Arc::from(id);
        if !manager.has_session(&id).await.unwrap_or(false) {
            return not_found();
        }
    }
    next.run(request).await
}

pub(crate) fn not_found() -> Response {
    let mut response = Response::new(Body::from(
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"no such session: unknown, or ended already\"}}",
    ));
    *response.status_mut() = StatusCode::NOT_FOUND;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    response
}
