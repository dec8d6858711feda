//! `DELETE /mcp` of a session this server does not hold (unknown, or ended already)
//! answers 404 Not Found, as the Streamable HTTP transport requires of requests naming
//! a session that does not exist (rmcp 3.11 answers 202 and does nothing).

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

/// The session header.
const SESSION_HEADER: &str = "mcp-session-id";

/// Axum middleware for the MCP endpoint
/// (`axum::middleware::from_fn_with_state(manager, unknown_session_404)`).
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

fn not_found() -> Response {
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
