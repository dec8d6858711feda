//! The connection loop behind [`super::serve_with_limits`]: hyper with a header read
//! timeout, an idle timeout and a connection cap, for plain TCP and TLS alike.
//!
//! - at most [`HttpLimits::max_connections`] connections are served; one more is
//!   answered `503` with `Retry-After` naming the limit and closed at once, so a flood of
//!   sockets holds no more than the cap's descriptors;
//! - HTTP/1.1 headers must arrive within [`HttpLimits::header_read_timeout`] (hyper's
//!   own timer), and a watchdog closes a connection that has no request in progress for
//!   longer than the header read timeout (before its first request: a silent socket, a
//!   slow-loris trickle, an idle TLS session after its handshake) or the idle timeout
//!   (between requests). A connection carrying a request, such as an SSE stream waiting
//!   for a user, is never closed by the watchdog;
//! - with [`HttpLimits::only_own_os_user`] (local mode), a connection whose client
//!   socket belongs to another OS user than the server's (see [`super::peer`]) is
//!   served, but every request on it is answered `403` naming the rule, and it is not
//!   kept alive; the owner is looked up once per connection, before its first request;
//! - every request carries its connection's peer address as
//!   `axum::extract::ConnectInfo<SocketAddr>` in its extensions (the pages limit
//!   anonymous sign-ins per client with it);
//! - an HTTP/1.1 event stream answering a GET (a client's standalone stream) leaves
//!   hyper once its head is written and goes on in a small task of its own, which frees
//!   hyper's connection buffers (see [`super::detach`]; [`HttpLimits::detach_held_streams`]);
//! - on shutdown every connection is told to finish gracefully, and the loop waits for
//!   them for at most [`SHUTDOWN_GRACE`].

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use futures::StreamExt;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::service::TowerToHyperService;
use tokio::io::AsyncWriteExt;
use tokio::sync::{Semaphore, watch};
use tower::ServiceExt;

use super::detach::{self, DetachableIo, Handoff};
use super::limits::HttpLimits;
use super::peer::{Checker, OwnUser};

/// How long graceful shutdown waits for open connections.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// Activity of one connection: requests in progress, and since when there are none.
struct Activity {
    active: AtomicUsize,
    served: AtomicBool,
    idle_since: std::sync::Mutex<Instant>,
}

impl Activity {
    fn begin(self: &Arc<Self>) -> RequestGuard {
        self.served.store(true, Ordering::Relaxed);
        self.active.fetch_add(1, Ordering::AcqRel);
        RequestGuard(Arc::clone(self))
    }

    /// How long the connection has had no request in progress (None: one is).
    fn idle_for(&self) -> Option<Duration> {
        if self.active.load(Ordering::Acquire) > 0 {
            return None;
        }
        let since = *self
            .idle_since
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        Some(since.elapsed())
    }
}

/// Held by a request until its response body is finished or dropped.
struct RequestGuard(Arc<Activity>);

impl Drop for RequestGuard {
    fn drop(&mut self) {
        *self
            .0
            .idle_since
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Instant::now();
        self.0.active.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Serves `app` on `listener` within `limits` until `shutdown` resolves.
pub(super) async fn serve_connections<L>(
    mut listener: L,
    app: Router,
    limits: HttpLimits,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) where
    L: axum::serve::Listener<Addr = std::net::SocketAddr>,
{
    let max = limits.max_connections.max(1);
    // Local mode: the user this server serves, and the address clients connect to.
    let owner_check = limits.only_own_os_user.then(|| {
        let addr = listener.local_addr();
        if let Err(e) = &addr {
            tracing::warn!("cannot tell the listening address ({e}): every connection is refused");
        }
        Arc::new(Checker::new(OwnUser::current(), addr.ok()))
    });
    let slots = Arc::new(Semaphore::new(max));
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (io, peer) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted,
        };
        let accepted = Instant::now();
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            tracing::debug!(?peer, "{max} connections open: answered 503 and closed");
            tokio::spawn(refuse(io, max));
            continue;
        };
        let app = app.clone();
        let limits = limits.clone();
        let mut stop = stop_rx.clone();
        let owner_check = owner_check.clone();
        tokio::spawn(async move {
            let refusal = match owner_check {
                None => None,
                Some(check) => check.admit(peer, accepted).await.err(),
            };
            if let Some(why) = &refusal {
                tracing::info!(?peer, "refused every request of a connection: {why}");
            }
            let held = serve_one(io, peer, app, &limits, refusal.map(Arc::from), &mut stop).await;
            match held {
                // The held stream goes on in a task of its own, this one (hyper's
                // connection future and all) ends.
                Some((io, body)) => drop(tokio::spawn(detach::stream(io, body, stop, slot))),
                None => drop(slot),
            }
        });
    }
    drop(listener);
    let _ = stop_tx.send(true);
    // Every connection holds a slot until it ends.
    let all = u32::try_from(max).unwrap_or(u32::MAX);
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, slots.acquire_many(all)).await;
}

/// The answer to a connection over the cap.
async fn refuse<Io: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin>(mut io: Io, max: usize) {
    let body = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{{\"code\":-32000,\"message\":\"server overloaded: \
         over its max_connections limit ({max})\",\"data\":{{\"kind\":\"limit\",\"limit\":\"max_connections\",\
         \"value\":{max}}}}}}}"
    );
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 1\r\n\
         connection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let _ = io.write_all(response.as_bytes()).await;
        let _ = io.shutdown().await;
    })
    .await;
}

/// The answer to every request of a connection from another OS user (`why` names the
/// rule): on `/mcp` a JSON-RPC error, elsewhere plain text.
fn refused(path: &str, why: &str) -> axum::response::Response {
    use axum::http::{HeaderValue, StatusCode, header};
    let (body, kind) = if path == super::MCP_PATH {
        let body = serde_json::json!({
            "jsonrpc": "2.0",
            "id": null,
            "error": {
                "code": -32000,
                "message": why,
                "data": {"kind": "forbidden", "rule": "only_own_os_user"},
            },
        });
        (body.to_string(), "application/json")
    } else {
        (
            format!("403 Forbidden: {why}\n"),
            "text/plain; charset=utf-8",
        )
    };
    let mut response = axum::response::Response::new(Body::from(body));
    *response.status_mut() = StatusCode::FORBIDDEN;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Serves one connection with hyper until it ends; the socket and the body of a held
/// event stream when hyper handed them over (see [`detach`]).
async fn serve_one<Io>(
    io: Io,
    peer: std::net::SocketAddr,
    app: Router,
    limits: &HttpLimits,
    refusal: Option<Arc<str>>,
    stop: &mut watch::Receiver<bool>,
) -> Option<(Io, Body)>
where
    Io: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let activity = Arc::new(Activity {
        active: AtomicUsize::new(0),
        served: AtomicBool::new(false),
        idle_since: std::sync::Mutex::new(Instant::now()),
    });
    let tracked = Arc::clone(&activity);
    let keep_alive = refusal.is_none();
    let handoff = Handoff::new();
    let detaching = limits.detach_held_streams.then(|| Arc::clone(&handoff));
    let service = tower::service_fn(move |mut request: Request<hyper::body::Incoming>| {
        let guard = tracked.begin();
        request
            .extensions_mut()
            .insert(axum::extract::ConnectInfo(peer));
        let app = app.clone();
        let refusal = refusal.clone();
        let detaching = detaching.clone();
        async move {
            let (method, version) = (request.method().clone(), request.version());
            let response = match refusal {
                Some(why) => refused(request.uri().path(), &why),
                None => app.oneshot(request.map(Body::new)).await?,
            };
            // The guard lives as long as the response body (an SSE stream included).
            let response = response.map(|body| {
                Body::from_stream(body.into_data_stream().map(move |chunk| {
                    let _ = &guard;
                    chunk
                }))
            });
            Ok::<_, std::convert::Infallible>(match detaching {
                Some(handoff) => handoff.offer(&method, version, response),
                None => response,
            })
        }
    });
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .keep_alive(keep_alive);
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_concurrent_streams(64)
        .max_header_list_size(64 * 1024);
    let conn = builder.serve_connection_with_upgrades(
        TokioIo::new(DetachableIo::new(io, Arc::clone(&handoff))),
        TowerToHyperService::new(service),
    );
    let mut conn = std::pin::pin!(conn);
    let tick =
        (limits.header_read_timeout.min(limits.idle_timeout) / 4).max(Duration::from_millis(50));
    let mut draining = false;
    loop {
        tokio::select! {
            result = conn.as_mut() => {
                if let Err(e) = result {
                    tracing::trace!("connection ended: {e}");
                }
                return handoff.take();
            }
            changed = stop.changed(), if !draining => {
                if changed.is_err() || *stop.borrow() {
                    draining = true;
                    conn.as_mut().graceful_shutdown();
                }
            }
            () = tokio::time::sleep(tick) => {
                let limit = if activity.served.load(Ordering::Relaxed) {
                    limits.idle_timeout
                } else {
                    limits.header_read_timeout
                };
                if activity.idle_for().is_some_and(|idle| idle >= limit) {
                    tracing::debug!("connection idle for {limit:?}: closed");
                    return None;
                }
            }
        }
    }
}
