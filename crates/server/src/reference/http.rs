//! Streamable HTTP for the reference server: `/mcp` (stateful sessions, so a tool can
//! elicit mid-call) and the demo completion page `/demo/complete`.
//!
//! The demo page stands for the out-of-band page of a real URL elicitation (issue 6 builds
//! real pages). It is served on loopback only, and the user opening it is taken to be the
//! local user the server runs for, which is why the server refuses non-loopback addresses
//! until authorization exists: a real page MUST verify that whoever opens it is the user
//! the elicitation was made for.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::rejection::FormRejection;
use axum::extract::{Form, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::serve::ListenerExt;
use rmcp::transport::streamable_http_server::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use serde::Deserialize;
use tokio_util::sync::CancellationToken;

use super::Reference;
use crate::config::ElicitationConfig;
use crate::identity::{IdentityPolicy, Principal};

mod conn;
mod demo_token;
mod detach;
mod limits;
mod peer;
#[cfg(feature = "tls")]
mod tls;

pub use crate::session_limits::{SessionGuard, SessionLimits, enforce};
pub use limits::{HttpLimits, mcp_config};

/// The MCP endpoint path.
pub const MCP_PATH: &str = "/mcp";
/// The demo completion page.
pub const DEMO_COMPLETE_PATH: &str = "/demo/complete";

/// rmcp's in-memory session manager, with sessions kept alive as long as
/// [`ElicitationConfig::session_keep_alive`] says: a session waiting for a slow user to
/// answer a form exchanges nothing, and rmcp's default idle timeout (5 minutes) would
/// close it before the form timeout (10 minutes).
pub fn session_manager(config: &ElicitationConfig) -> Arc<LocalSessionManager> {
    let mut manager = LocalSessionManager::default();
    manager.session_config.keep_alive = Some(config.session_keep_alive());
    Arc::new(manager)
}

/// The [`SessionGuard`] of `/mcp` served with `sessions`: the limits of
/// [`ReferenceOptions::session_limits`](super::ReferenceOptions::session_limits), the
/// local user as the user of requests without a [`Principal`] (local mode).
pub fn session_guard(
    reference: &Reference,
    sessions: &Arc<impl crate::SessionDirectory>,
    ct: CancellationToken,
) -> SessionGuard {
    SessionGuard::new(
        reference.options().session_limits.clone(),
        Arc::clone(sessions),
        page_user(reference),
        ct,
    )
}

/// The router: `/mcp` (on the session layer of
/// [`ReferenceOptions::session_layer`](super::ReferenceOptions::session_layer)) and the
/// demo pages.
pub fn router(reference: Reference, ct: CancellationToken) -> Router {
    let config = reference.hub().config();
    let mcp = match reference.options().session_layer {
        crate::SessionLayer::Lean => {
            let factory = reference.clone();
            let sessions = lean_sessions(
                &reference,
                move || factory.service().map_err(std::io::Error::other),
                ct.clone(),
            );
            mcp_router(&reference, sessions, ct)
        }
        _ => mcp_router(&reference, session_manager(config), ct),
    };
    mcp.route(DEMO_COMPLETE_PATH, get(demo_page).post(demo_complete))
        // Rounds go out with the exact JSON of their requests.
        .layer(axum::middleware::from_fn(crate::wire::exact_rounds_http))
        .with_state(reference)
}

/// The lean session layer of `/mcp` for `reference`, whose handlers `factory` makes:
/// sessions idle past
/// [`ReferenceOptions::hibernate_after`](super::ReferenceOptions::hibernate_after) sleep
/// (the reference server's handlers keep no state of their own between requests) and
/// live as long as the hub's
/// [`session_keep_alive`](crate::ElicitationConfig::session_keep_alive) says.
///
/// ```
/// use std::time::Duration;
/// use mcp_elicit_server::Elicitations;
/// use mcp_elicit_server::reference::{Reference, ReferenceOptions, http};
/// use tokio_util::sync::CancellationToken;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let options = ReferenceOptions::new("http://127.0.0.1:8391")
///     .with_hibernate_after(Some(Duration::from_secs(10)));
/// let reference = Reference::new(Elicitations::local(), options);
/// let factory = reference.clone();
/// let sessions = http::lean_sessions(&reference, move || factory.service().map_err(std::io::Error::other),
///     CancellationToken::new());
/// assert_eq!(sessions.config().hibernate_after, Some(Duration::from_secs(10)));
/// # }
/// ```
pub fn lean_sessions<S, F>(
    reference: &Reference,
    factory: F,
    ct: CancellationToken,
) -> Arc<crate::LeanSessionManager>
where
    S: rmcp::ServerHandler,
    F: Fn() -> Result<S, std::io::Error> + Send + Sync + 'static,
{
    let config = crate::LeanSessionConfig::default()
        .with_keep_alive(Some(reference.hub().config().session_keep_alive()))
        .with_hibernate_after(reference.options().hibernate_after);
    let sessions = crate::LeanSessionManager::new(config);
    sessions.enable_hibernation(factory, ct);
    Arc::new(sessions)
}

/// `/mcp` served with `sessions`, within the session limits, with the 404 for ended
/// sessions.
fn mcp_router<M>(
    reference: &Reference,
    sessions: Arc<M>,
    ct: CancellationToken,
) -> Router<Reference>
where
    M: rmcp::transport::streamable_http_server::session::SessionManager + crate::SessionDirectory,
{
    let factory_ref = reference.clone();
    let factory: crate::HandlerFactory<_> =
        Arc::new(move || factory_ref.service().map_err(std::io::Error::other));
    let guard = session_guard(reference, &sessions, ct.clone());
    let rmcp_factory = Arc::clone(&factory);
    let service = StreamableHttpService::new(
        move || rmcp_factory(),
        Arc::clone(&sessions),
        // A 2026-07-28 request whose handler answers at once (every reference tool: a
        // round or a result) is answered as `application/json`, not as a one-event SSE
        // stream; one that sends a notification first still gets its stream.
        mcp_config(&reference.options().demo_base_url, ct).with_json_response(true),
    );
    let front = crate::HttpFront::new(crate::SharedHttpService::new(service), factory)
        .with_sessions(Arc::clone(&sessions));
    let directory: Arc<dyn crate::SessionDirectory> = sessions;
    Router::new()
        // Behind an `Arc`: axum clones a mounted service for every request. A stateless
        // 2026-07-28 `tools/call`, and a session's `tools/call` and answers, are taken
        // in front of rmcp's service.
        .nest_service(MCP_PATH, front)
        // Requests in progress per session and user, sessions per user, idle sessions.
        .layer(axum::middleware::from_fn_with_state(guard, enforce))
        // DELETE of an unknown or ended session: 404.
        .layer(axum::middleware::from_fn_with_state(
            directory,
            crate::unknown_session_404_in,
        ))
}

/// Serves the router on `listener` until `shutdown` resolves, sweeping expired and
/// orphaned elicitations every minute.
pub async fn serve(
    listener: tokio::net::TcpListener,
    reference: Reference,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_with(listener, reference, router, shutdown).await
}

/// [`serve`] with the application built by `app` from the reference server and the
/// cancellation token its MCP sessions must stop on (for example [`router`] merged with
/// other routes, or wrapped in an authentication layer).
pub async fn serve_with(
    listener: tokio::net::TcpListener,
    reference: Reference,
    app: impl FnOnce(Reference, CancellationToken) -> Router,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    // Small request/response exchanges (an SSE event per elicitation) must not wait for
    // Nagle's algorithm and the peer's delayed ACK (~40 ms per call otherwise).
    let listener = listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!("cannot set TCP_NODELAY: {e}");
        }
    });
    serve_on(listener, reference, app, HttpLimits::default(), shutdown).await
}

/// [`serve_with`] over HTTPS when `tls` is given (plain HTTP otherwise).
///
/// The server speaks HTTP/1.1 and HTTP/2: set the config's `alpn_protocols` to `h2` and
/// `http/1.1` to offer both. TLS handshakes never hold up the accept loop: each runs in
/// its own task and must finish within 10 seconds; a failed one is logged at debug
/// level and dropped (a client sending nothing, or plain HTTP, gets no HTTP answer).
/// Graceful shutdown and TCP_NODELAY work as in [`serve_with`].
#[cfg(feature = "tls")]
pub async fn serve_with_tls(
    listener: tokio::net::TcpListener,
    tls: Option<Arc<rustls::ServerConfig>>,
    reference: Reference,
    app: impl FnOnce(Reference, CancellationToken) -> Router,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_with_limits(
        listener,
        tls,
        HttpLimits::default(),
        reference,
        app,
        shutdown,
    )
    .await
}

/// [`serve_with_tls`] within `limits` (timeouts, connection cap, body sizes, JSON shape;
/// see [`HttpLimits`]).
#[cfg(feature = "tls")]
pub async fn serve_with_limits(
    listener: tokio::net::TcpListener,
    tls: Option<Arc<rustls::ServerConfig>>,
    limits: HttpLimits,
    reference: Reference,
    app: impl FnOnce(Reference, CancellationToken) -> Router,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    match tls {
        None => {
            let listener = listener.tap_io(|tcp| {
                if let Err(e) = tcp.set_nodelay(true) {
                    tracing::debug!("cannot set TCP_NODELAY: {e}");
                }
            });
            serve_on(listener, reference, app, limits, shutdown).await
        }
        Some(config) => {
            let listener = tls::TlsListener::new(listener, config, tls::HANDSHAKE_TIMEOUT)?;
            serve_on(listener, reference, app, limits, shutdown).await
        }
    }
}

/// The rustls version [`serve_with_tls`] takes its configuration from.
#[cfg(feature = "tls")]
pub use tokio_rustls::rustls;

/// Serves `app` on any listener until `shutdown`, with the reference server's sweeper.
async fn serve_on<L>(
    listener: L,
    reference: Reference,
    app: impl FnOnce(Reference, CancellationToken) -> Router,
    limits: HttpLimits,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()>
where
    L: axum::serve::Listener<Addr = SocketAddr>,
{
    let ct = CancellationToken::new();
    let sweeper = reference.spawn_sweeper(std::time::Duration::from_secs(60), ct.clone());
    let app = app(reference, ct.child_token()).layer(axum::middleware::from_fn_with_state(
        limits.clone(),
        limits::check_body,
    ));
    let stop = ct.clone();
    conn::serve_connections(listener, app, limits, async move {
        shutdown.await;
        stop.cancel();
    })
    .await;
    ct.cancel();
    sweeper.abort();
    Ok(())
}

/// Serves any `app` on `listener` within `limits` until `shutdown` resolves: what
/// `serve_with_limits` (feature `tls`) does for the reference server (header and idle timeouts, the
/// connection cap, body sizes and JSON shape checked before anything is parsed, the
/// OS-user check, TCP_NODELAY), for another server on this crate, such as a gateway.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use mcp_elicit_server::reference::http::{HttpLimits, serve_router};
/// use tokio::io::{AsyncReadExt, AsyncWriteExt};
///
/// let app = axum::Router::new().route("/mcp", axum::routing::post(|| async { "ok" }));
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
/// let addr = listener.local_addr()?;
/// let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
/// let mut limits = HttpLimits::default();
/// limits.max_body_bytes = 16;
/// let server = tokio::spawn(serve_router(listener, app, limits, async move {
///     let _ = stopped.await;
/// }));
/// // One POST on its own connection; the status line of the answer.
/// let post = |body: String| async move {
///     let mut tcp = tokio::net::TcpStream::connect(addr).await?;
///     let request = format!(
///         "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
///          Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
///         body.len()
///     );
///     tcp.write_all(request.as_bytes()).await?;
///     let mut answer = String::new();
///     tcp.read_to_string(&mut answer).await?;
///     Ok::<_, std::io::Error>(answer.lines().next().unwrap_or_default().to_owned())
/// };
/// assert_eq!(post("{}".into()).await?, "HTTP/1.1 200 OK");
/// // Over the body limit: refused before the handler.
/// assert_eq!(post(format!("[{}]", "0,".repeat(20))).await?, "HTTP/1.1 413 Payload Too Large");
/// let _ = stop.send(());
/// server.await??;
/// # Ok(())
/// # }
/// ```
pub async fn serve_router(
    listener: tokio::net::TcpListener,
    app: Router,
    limits: HttpLimits,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let listener = listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!("cannot set TCP_NODELAY: {e}");
        }
    });
    let app = app.layer(axum::middleware::from_fn_with_state(
        limits.clone(),
        limits::check_body,
    ));
    conn::serve_connections(listener, app, limits, shutdown).await;
    Ok(())
}

/// Whether `addr` is a loopback address (the only kind the reference server binds for now).
pub fn is_loopback(addr: &SocketAddr) -> bool {
    addr.ip().is_loopback()
}

#[derive(Debug, Deserialize)]
struct CompleteQuery {
    #[serde(rename = "elicitationId")]
    elicitation_id: Option<String>,
}

/// The local user the demo page acts for.
fn page_user(reference: &Reference) -> Option<Principal> {
    match &reference.hub().config().identity {
        IdentityPolicy::LocalUser(p) => Some(p.clone()),
        _ => None,
    }
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn page(status: StatusCode, title: &str, body: &str) -> Response {
    let html = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{t}</title></head>\
         <body style=\"font-family:sans-serif;max-width:40em;margin:3em auto\"><h1>{t}</h1>{body}</body></html>",
        t = escape(title)
    );
    let mut response = (status, Html(html)).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        header::HeaderValue::from_static(
            "default-src 'none'; form-action 'self'; frame-ancestors 'none'",
        ),
    );
    headers.insert(
        header::X_FRAME_OPTIONS,
        header::HeaderValue::from_static("DENY"),
    );
    response
}

async fn demo_page(State(reference): State<Reference>, Query(q): Query<CompleteQuery>) -> Response {
    let (Some(user), Some(id)) = (page_user(&reference), q.elicitation_id) else {
        return page(
            StatusCode::BAD_REQUEST,
            "Nothing to do",
            "<p>This page needs an elicitationId.</p>",
        );
    };
    match reference.hub().get(&user, &id).await {
        Ok(Some(pending)) => {
            // The form carries this page's CSRF token: a post without it is refused.
            let Some(token) = demo_token::issue(&reference, &user, &id) else {
                return page(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "Try again",
                    "<p>The page could not be prepared. Reload it.</p>",
                );
            };
            page(
                StatusCode::OK,
                "Finish the demo",
                &format!(
                    "<p>{}</p><p>This stands for a real page (sign-in, payment, API key entry) that the MCP \
                     client never sees.</p><form method=\"post\" action=\"{DEMO_COMPLETE_PATH}?elicitationId={}\">\
                     <input type=\"hidden\" name=\"{}\" value=\"{}\">\
                     <button type=\"submit\">Finish</button></form>",
                    escape(&pending.message),
                    escape(&id),
                    demo_token::FIELD,
                    escape(&token),
                ),
            )
        }
        _ => page(
            StatusCode::NOT_FOUND,
            "Nothing to finish",
            "<p>No pending elicitation with this id for you.</p>",
        ),
    }
}

/// Refuses cross-site and DNS-rebinding form posts: `Host` must be a loopback name or
/// the public URL's host, and `Origin` must be the public URL's origin (compared with
/// the configured origin, never with `Host`, which a rebinding attacker controls). A
/// post without `Origin` is accepted only without `Sec-Fetch-Site` too: browsers send
/// both, so that is not a browser, which no cross-site page can drive.
fn same_origin(public_base: &str, headers: &HeaderMap) -> bool {
    let Ok(public) = url::Url::parse(public_base) else {
        return false;
    };
    let public_origin = public.origin().ascii_serialization();
    let host_ok = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .and_then(|h| url::Url::parse(&format!("http://{h}")).ok())
        .and_then(|u| u.host_str().map(str::to_owned))
        .is_some_and(|h| {
            let h = h.trim_start_matches('[').trim_end_matches(']');
            matches!(h, "localhost" | "127.0.0.1" | "::1")
                || public
                    .host_str()
                    .is_some_and(|p| p.trim_start_matches('[').trim_end_matches(']') == h)
        });
    if !host_ok {
        return false;
    }
    match headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) {
        Some(origin) => origin == public_origin,
        None => headers.get("sec-fetch-site").is_none(),
    }
}

/// The demo page's form post.
#[derive(Debug, Deserialize)]
struct CompleteForm {
    #[serde(default)]
    csrf: String,
}

async fn demo_complete(
    State(reference): State<Reference>,
    headers: HeaderMap,
    Query(q): Query<CompleteQuery>,
    form: Result<Form<CompleteForm>, FormRejection>,
) -> Response {
    if !same_origin(&reference.options().demo_base_url, &headers) {
        return page(
            StatusCode::FORBIDDEN,
            "Refused",
            "<p>Cross-site request refused.</p>",
        );
    }
    let (Some(user), Some(id)) = (page_user(&reference), q.elicitation_id) else {
        return page(
            StatusCode::BAD_REQUEST,
            "Nothing to do",
            "<p>This page needs an elicitationId.</p>",
        );
    };
    // An unknown id says so (as its page does) before the token is looked at.
    if !matches!(reference.hub().get(&user, &id).await, Ok(Some(_))) {
        return page(
            StatusCode::NOT_FOUND,
            "Nothing to finish",
            "<p>No pending elicitation with this id for you.</p>",
        );
    }
    let token = form.map(|Form(f)| f.csrf).unwrap_or_default();
    if !demo_token::verify(&reference, &user, &id, &token) {
        return page(
            StatusCode::FORBIDDEN,
            "Refused",
            "<p>This request did not come from the demo page: its security token is missing or \
             wrong. Nothing was finished. Open the link again and press Finish on the page.</p>",
        );
    }
    match reference.complete_demo(&user, &id).await {
        Ok(notified) => page(
            StatusCode::OK,
            "Done",
            if notified {
                "<p>Done. Your MCP client has been told; you can go back to it.</p>"
            } else {
                "<p>Done. Go back to your MCP client and try again.</p>"
            },
        ),
        Err(e) => page(
            StatusCode::NOT_FOUND,
            "Nothing to finish",
            &format!("<p>{}</p>", escape(e.message())),
        ),
    }
}
