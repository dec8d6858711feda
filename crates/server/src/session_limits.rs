//! Per-session and per-user limits of `/mcp`: how many JSON-RPC requests a session and
//! a user may have in progress at once, how many sessions a user may hold, and how long
//! a session without a connection lives.
//!
//! - a JSON-RPC *request* (a POST with a `method` and an `id`) over
//!   [`SessionLimits::max_requests_per_session`] or
//!   [`SessionLimits::max_requests_per_user`] requests in progress is answered 429 with
//!   `Retry-After` and a JSON-RPC error `-32000` whose `data` names the limit.
//!   Notifications and the client's responses (answers to `elicitation/create`) are never
//!   refused: a session at its cap must still be able to answer the forms that hold it;
//! - an `initialize` that would give its user more than
//!   [`SessionLimits::max_sessions_per_user`] live sessions gets the same 429;
//! - a session with no request in progress and no stream open is closed after
//!   [`SessionLimits::unused_session_timeout`] if it never did anything but initialize,
//!   after [`SessionLimits::session_idle_timeout`] otherwise. A session waiting for a
//!   user (its tool call's stream open) or listening for notifications (`GET`) is never
//!   closed for idleness, so no limit ever closes a flow in progress.
//!
//! In local mode every client is the one local user, so the per-user limits are limits
//! on the whole server.
//!
//! [`Elicitations::router`](crate::Elicitations::router) installs this layer with
//! [`ElicitationConfig::session_limits`](crate::ElicitationConfig::session_limits), and
//! the reference server (`mcp-elicit serve`) installs the same layer with its flags.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};
use std::time::{Duration, Instant};

use crate::session_layer::SessionDirectory;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use futures::StreamExt;
use serde::Deserialize;
use tokio_util::sync::CancellationToken;

use crate::identity::Principal;

/// The session header.
const SESSION_HEADER: &str = "mcp-session-id";
/// The largest body this layer reads (the body limit in front of it is smaller).
const MAX_PROBE_BYTES: usize = 64 * 1024 * 1024;

/// Limits of sessions and of the requests in progress. [`SessionLimits::default`] gives
/// the documented defaults.
///
/// ```
/// use std::time::Duration;
/// use mcp_elicit_server::SessionLimits;
///
/// let l = SessionLimits::default();
/// assert_eq!(l.max_requests_per_session, 32);
/// assert_eq!(l.max_requests_per_user, 256);
/// assert_eq!(l.max_sessions_per_user, 256);
/// assert_eq!(l.unused_session_timeout, Duration::from_secs(30));
/// assert_eq!(l.session_idle_timeout, Duration::from_secs(5 * 60));
///
/// // `#[non_exhaustive]`: change the defaults field by field.
/// let mut strict = SessionLimits::default();
/// strict.max_sessions_per_user = 4;
/// assert_ne!(strict, l);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SessionLimits {
    /// JSON-RPC requests one session may have in progress (a tool call waiting for a
    /// form is in progress until it answers). Default 32.
    pub max_requests_per_session: usize,
    /// JSON-RPC requests one user may have in progress over all their sessions.
    /// Default 256.
    pub max_requests_per_user: usize,
    /// Live sessions one user may hold. Default 256.
    pub max_sessions_per_user: usize,
    /// How long a session that never did anything after `initialize` (no request, no
    /// stream) lives. Default 30 s.
    pub unused_session_timeout: Duration,
    /// How long a session with no request in progress and no stream open lives.
    /// Default 5 minutes.
    pub session_idle_timeout: Duration,
}

impl Default for SessionLimits {
    fn default() -> Self {
        SessionLimits {
            max_requests_per_session: 32,
            max_requests_per_user: 256,
            max_sessions_per_user: 256,
            unused_session_timeout: Duration::from_secs(30),
            session_idle_timeout: Duration::from_secs(5 * 60),
        }
    }
}

/// A limit's answer: `status`, a JSON-RPC error `-32000` (no id: the request was not
/// read) naming the limit and its value, and `Retry-After` when waiting helps.
pub(crate) fn limit_error(
    status: StatusCode,
    limit: &str,
    value: usize,
    retry_after: Option<u64>,
) -> Response {
    limit_error_for(None, status, limit, value, retry_after)
}

/// [`limit_error`] answering the request whose id was read (`id`): JSON-RPC gives a
/// response the request's id whenever it could be detected, so a client can match the
/// refusal to its request (a null id matches nothing, and the caller would wait).
fn limit_error_for(
    id: Option<&serde_json::Value>,
    status: StatusCode,
    limit: &str,
    value: usize,
    retry_after: Option<u64>,
) -> Response {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id.unwrap_or(&serde_json::Value::Null),
        "error": {
            "code": -32000,
            "message": format!("request refused: over the server's {limit} limit ({value})"),
            "data": {"kind": "limit", "limit": limit, "value": value},
        },
    });
    let mut response = Response::new(Body::from(body.to_string()));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    if let Some(secs) = retry_after
        && let Ok(v) = HeaderValue::from_str(&secs.to_string())
    {
        headers.insert(header::RETRY_AFTER, v);
    }
    response
}

/// One live session as this layer sees it.
struct Tracked {
    user: Principal,
    /// JSON-RPC requests in progress (capped).
    requests: usize,
    /// Other exchanges in progress: streams, notifications, responses.
    other: usize,
    /// Whether it did anything but initialize.
    used: bool,
    idle_since: Instant,
}

#[derive(Default)]
struct PerUser {
    /// Live sessions, and initializes in progress (reserved).
    sessions: usize,
    requests: usize,
}

#[derive(Default)]
struct Table {
    sessions: HashMap<Arc<str>, Tracked>,
    users: HashMap<Principal, PerUser>,
}

impl Table {
    fn user(&mut self, user: &Principal) -> &mut PerUser {
        self.users.entry(user.clone()).or_default()
    }

    fn drop_user_if_empty(&mut self, user: &Principal) {
        if self
            .users
            .get(user)
            .is_some_and(|u| u.sessions == 0 && u.requests == 0)
        {
            self.users.remove(user);
        }
    }

    /// Forgets a session (closed, deleted or reaped).
    fn forget(&mut self, id: &str) {
        if let Some(t) = self.sessions.remove(id) {
            let u = self.user(&t.user);
            u.sessions = u.sessions.saturating_sub(1);
            self.drop_user_if_empty(&t.user);
        }
    }
}

struct Shared {
    limits: SessionLimits,
    manager: Arc<dyn SessionDirectory>,
    local_user: Option<Principal>,
    table: Mutex<Table>,
    reaper: OnceLock<()>,
    ct: CancellationToken,
}

impl Shared {
    fn table(&self) -> MutexGuard<'_, Table> {
        // Every update leaves the table consistent: a poisoned one is still usable.
        self.table
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The state of the [`enforce`] middleware: the limits, the session manager whose
/// sessions it closes, and who the user is in local mode. Cheap to clone.
///
/// ```
/// use std::sync::Arc;
/// use axum::Router;
/// use mcp_elicit_server::{Principal, SessionGuard, SessionLimits, enforce_session_limits};
/// use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
/// use tokio_util::sync::CancellationToken;
///
/// let manager = Arc::new(LocalSessionManager::default());
/// let guard = SessionGuard::new(
///     SessionLimits::default(),
///     manager,
///     Some(Principal::local_user("ada")),
///     CancellationToken::new(),
/// );
/// // Layer it over the router serving `/mcp` with `manager`.
/// let app: Router =
///     Router::new().layer(axum::middleware::from_fn_with_state(guard, enforce_session_limits));
/// # let _ = app;
/// ```
#[derive(Clone)]
pub struct SessionGuard {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for SessionGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionGuard")
            .field("limits", &self.shared.limits)
            .finish_non_exhaustive()
    }
}

impl SessionGuard {
    /// A guard over the sessions of `manager`. `local_user` is the user of requests that
    /// carry no [`Principal`] (local mode); without one, such requests are not limited
    /// here (an authentication layer in front refuses them). Idle sessions are closed
    /// by a task started with the first request, until `ct` is cancelled.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mcp_elicit_server::{LeanSessionManager, SessionGuard, SessionLimits};
    /// use tokio_util::sync::CancellationToken;
    ///
    /// let guard = SessionGuard::new(
    ///     SessionLimits::default(),
    ///     Arc::new(LeanSessionManager::default()),
    ///     None, // every request carries a Principal (an authentication layer in front)
    ///     CancellationToken::new(),
    /// );
    /// assert_eq!(guard.sessions(), 0);
    /// ```
    pub fn new(
        limits: SessionLimits,
        manager: Arc<impl SessionDirectory>,
        local_user: Option<Principal>,
        ct: CancellationToken,
    ) -> Self {
        SessionGuard {
            shared: Arc::new(Shared {
                limits,
                manager,
                local_user,
                table: Mutex::new(Table::default()),
                reaper: OnceLock::new(),
                ct,
            }),
        }
    }

    /// How many sessions this guard tracks (live and not yet closed).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mcp_elicit_server::{LeanSessionManager, SessionGuard, SessionLimits};
    /// use tokio_util::sync::CancellationToken;
    ///
    /// let guard = SessionGuard::new(
    ///     SessionLimits::default(),
    ///     Arc::new(LeanSessionManager::default()),
    ///     None,
    ///     CancellationToken::new(),
    /// );
    /// // Only sessions whose `initialize` went through the guard are tracked.
    /// assert_eq!(guard.sessions(), 0);
    /// ```
    pub fn sessions(&self) -> usize {
        self.shared.table().sessions.len()
    }

    fn start_reaper(&self) {
        self.shared.reaper.get_or_init(|| {
            let weak = Arc::downgrade(&self.shared);
            let ct = self.shared.ct.clone();
            let l = &self.shared.limits;
            let tick = (l.unused_session_timeout.min(l.session_idle_timeout) / 4)
                .clamp(Duration::from_millis(50), Duration::from_secs(5));
            tokio::spawn(async move {
                loop {
                    tokio::select! {
                        () = ct.cancelled() => return,
                        () = tokio::time::sleep(tick) => {}
                    }
                    if !reap(&weak).await {
                        return;
                    }
                }
            });
        });
    }
}

/// Closes the sessions idle for too long and forgets those the manager closed itself;
/// false once the guard is gone.
async fn reap(weak: &Weak<Shared>) -> bool {
    let Some(shared) = weak.upgrade() else {
        return false;
    };
    let live: std::collections::HashSet<Arc<str>> =
        shared.manager.live_ids().await.into_iter().collect();
    let expired: Vec<Arc<str>> = {
        let mut table = shared.table();
        let gone: Vec<Arc<str>> = table
            .sessions
            .keys()
            .filter(|id| !live.contains(*id))
            .cloned()
            .collect();
        for id in &gone {
            table.forget(id);
        }
        let l = &shared.limits;
        let expired: Vec<Arc<str>> = table
            .sessions
            .iter()
            .filter(|(_, t)| {
                let limit = if t.used {
                    l.session_idle_timeout
                } else {
                    l.unused_session_timeout
                };
                t.requests == 0 && t.other == 0 && t.idle_since.elapsed() >= limit
            })
            .map(|(id, _)| Arc::clone(id))
            .collect();
        for id in &expired {
            table.forget(id);
        }
        expired
    };
    for id in expired {
        tracing::debug!("session idle past its limit: closed");
        shared.manager.end(&id).await;
    }
    true
}

/// What a POST body is, as far as the limits care.
#[derive(Debug, PartialEq, Eq)]
struct Probe {
    /// It carries at least one JSON-RPC request (a method and an id).
    request: bool,
    /// The id of the request when the body is that one request (not a batch).
    id: Option<serde_json::Value>,
    /// It carries `initialize`.
    initialize: bool,
    /// It carries something besides `initialize` and `notifications/initialized`.
    uses: bool,
}

#[derive(Deserialize)]
struct Message {
    method: Option<String>,
    id: Option<serde_json::Value>,
}

fn probe(body: &[u8]) -> Probe {
    let batch = body.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[');
    let messages: Vec<Message> = if batch {
        serde_json::from_slice(body).unwrap_or_default()
    } else {
        serde_json::from_slice(body)
            .map(|m| vec![m])
            .unwrap_or_default()
    };
    let mut p = Probe {
        request: false,
        id: None,
        initialize: false,
        uses: false,
    };
    if !batch && let Some(m) = messages.first().filter(|m| m.method.is_some()) {
        // Only an id JSON-RPC allows (a string or a number) is repeated back.
        p.id = m.id.clone().filter(|id| id.is_string() || id.is_number());
    }
    for m in &messages {
        let method = m.method.as_deref();
        p.request |= method.is_some() && m.id.is_some();
        p.initialize |= method == Some("initialize");
        p.uses |= !matches!(method, Some("initialize" | "notifications/initialized"));
    }
    p
}

/// An exchange in progress: released when its response body ends or is dropped.
struct InFlight {
    shared: Arc<Shared>,
    user: Principal,
    session: Option<Arc<str>>,
    /// Counted in the capped request counts.
    request: bool,
    /// A reserved session slot, to be released unless the response made a session.
    reserved: bool,
}

impl InFlight {
    /// The response created session `id`: the reservation becomes that session.
    fn created(&mut self, id: Arc<str>) {
        if !self.reserved {
            return;
        }
        self.reserved = false;
        let mut table = self.shared.table();
        table.sessions.insert(
            id,
            Tracked {
                user: self.user.clone(),
                requests: 0,
                other: 0,
                used: false,
                idle_since: Instant::now(),
            },
        );
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut table = self.shared.table();
        if let Some(id) = &self.session
            && let Some(t) = table.sessions.get_mut(id)
        {
            if self.request {
                t.requests = t.requests.saturating_sub(1);
            } else {
                t.other = t.other.saturating_sub(1);
            }
            t.idle_since = Instant::now();
        }
        let u = table.user(&self.user);
        if self.request {
            u.requests = u.requests.saturating_sub(1);
        }
        if self.reserved {
            u.sessions = u.sessions.saturating_sub(1);
        }
        table.drop_user_if_empty(&self.user);
    }
}

/// A refusal of the request `id` (if the body was one): 429 naming `limit`, retry after
/// `secs`.
fn refuse(id: Option<&serde_json::Value>, limit: &str, value: usize, secs: u64) -> Response {
    limit_error_for(
        id,
        StatusCode::TOO_MANY_REQUESTS,
        limit,
        value,
        Some(secs.max(1)),
    )
}

/// Axum middleware for the MCP endpoint
/// (`axum::middleware::from_fn_with_state(guard, enforce)`; at the crate root as
/// `enforce_session_limits`), inside any authentication layer (it reads the request's
/// [`Principal`]). [`Elicitations::router`](crate::Elicitations::router) installs it.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use std::sync::Arc;
/// use axum::body::Body;
/// use axum::http::{Request, StatusCode};
/// use axum::routing::post;
/// use mcp_elicit_server::{
///     LeanSessionManager, Principal, SessionGuard, SessionLimits, enforce_session_limits,
/// };
/// use tokio_util::sync::CancellationToken;
/// use tower::ServiceExt as _;
///
/// let mut limits = SessionLimits::default();
/// limits.max_requests_per_user = 0;
/// let guard = SessionGuard::new(
///     limits,
///     Arc::new(LeanSessionManager::default()),
///     Some(Principal::local_user("ada")),
///     CancellationToken::new(),
/// );
/// let app = axum::Router::new()
///     .route("/mcp", post(|| async { StatusCode::ACCEPTED }))
///     .layer(axum::middleware::from_fn_with_state(guard, enforce_session_limits));
/// let rpc = |body: &'static str| Request::post("/mcp").body(Body::from(body));
///
/// // A JSON-RPC request over the cap: 429, Retry-After, a -32000 naming the limit.
/// let response = app.clone().oneshot(rpc(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#)?).await?;
/// assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
/// assert_eq!(response.headers()["retry-after"], "1");
/// let body = axum::body::to_bytes(response.into_body(), usize::MAX).await?;
/// let error: serde_json::Value = serde_json::from_slice(&body)?;
/// assert_eq!(error["error"]["code"], -32000);
/// assert_eq!(error["error"]["data"]["limit"], "max_requests_per_user");
///
/// // Notifications (and responses to the server's requests) are never refused.
/// let note = rpc(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)?;
/// assert_eq!(app.oneshot(note).await?.status(), StatusCode::ACCEPTED);
/// # Ok(())
/// # }
/// ```
pub async fn enforce(State(guard): State<SessionGuard>, request: Request, next: Next) -> Response {
    guard.start_reaper();
    let shared = &guard.shared;
    let Some(user) = request
        .extensions()
        .get::<Principal>()
        .cloned()
        .or_else(|| shared.local_user.clone())
    else {
        return next.run(request).await;
    };
    let session: Option<Arc<str>> = request
        .headers()
        .get(SESSION_HEADER)
        .and_then(|v| v.to_str().ok())
        .filter(|s| !s.is_empty())
        .map(Arc::from);
    let method = request.method().clone();
    let (request, probe) = if method == Method::POST {
        let (parts, body) = request.into_parts();
        let Ok(bytes) = axum::body::to_bytes(body, MAX_PROBE_BYTES).await else {
            return limit_error(
                StatusCode::PAYLOAD_TOO_LARGE,
                "max_body_bytes",
                MAX_PROBE_BYTES,
                None,
            );
        };
        let p = probe(&bytes);
        (Request::from_parts(parts, Body::from(bytes)), p)
    } else {
        let get = method == Method::GET;
        (
            request,
            Probe {
                request: false,
                id: None,
                initialize: false,
                uses: get,
            },
        )
    };
    let mut in_flight = {
        let l = &shared.limits;
        let mut table = shared.table();
        let tracked = session
            .as_ref()
            .filter(|id| table.sessions.contains_key(*id));
        if probe.request {
            if let Some(id) = tracked
                && table.sessions[id].requests >= l.max_requests_per_session
            {
                return refuse(
                    probe.id.as_ref(),
                    "max_requests_per_session",
                    l.max_requests_per_session,
                    1,
                );
            }
            if table.user(&user).requests >= l.max_requests_per_user {
                return refuse(
                    probe.id.as_ref(),
                    "max_requests_per_user",
                    l.max_requests_per_user,
                    1,
                );
            }
        }
        let reserved = probe.initialize && session.is_none();
        if reserved && table.user(&user).sessions >= l.max_sessions_per_user {
            let wait = l
                .unused_session_timeout
                .min(l.session_idle_timeout)
                .as_secs();
            return refuse(
                probe.id.as_ref(),
                "max_sessions_per_user",
                l.max_sessions_per_user,
                wait.min(60),
            );
        }
        let tracked = tracked.cloned();
        if let Some(id) = &tracked
            && let Some(t) = table.sessions.get_mut(id)
        {
            if probe.request {
                t.requests += 1;
            } else {
                t.other += 1;
            }
            t.used |= probe.uses;
        }
        let u = table.user(&user);
        if probe.request {
            u.requests += 1;
        }
        if reserved {
            u.sessions += 1;
        }
        InFlight {
            shared: Arc::clone(shared),
            user,
            session: tracked,
            request: probe.request,
            reserved,
        }
    };
    let response = next.run(request).await;
    if in_flight.reserved
        && response.status().is_success()
        && let Some(id) = response
            .headers()
            .get(SESSION_HEADER)
            .and_then(|v| v.to_str().ok())
    {
        in_flight.created(Arc::from(id));
    }
    if method == Method::DELETE
        && response.status().is_success()
        && let Some(id) = &session
    {
        shared.table().forget(id);
    }
    // The exchange is in progress as long as its response body (an SSE stream waiting
    // for the user included).
    response.map(|body| {
        Body::from_stream(body.into_data_stream().map(move |chunk| {
            let _ = &in_flight;
            chunk
        }))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_told_from_notifications_and_responses() {
        let p = probe(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}"#);
        assert_eq!(
            p,
            Probe {
                request: true,
                id: Some(serde_json::json!(1)),
                initialize: false,
                uses: true
            }
        );
        // The id is repeated in a refusal only when it is one JSON-RPC allows, and only
        // for a body that is one request.
        let named = probe(br#"{"jsonrpc":"2.0","id":"call-7","method":"tools/call"}"#);
        assert_eq!(named.id, Some(serde_json::json!("call-7")));
        let odd = probe(br#"{"jsonrpc":"2.0","id":{"x":1},"method":"tools/call"}"#);
        assert_eq!(odd.id, None);
        let reply = probe(br#"{"jsonrpc":"2.0","id":3,"result":{}}"#);
        assert_eq!(reply.id, None);
        let init = probe(br#"{"jsonrpc":"2.0","id":0,"method":"initialize"}"#);
        assert!(init.request && init.initialize && !init.uses);
        let note = probe(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        assert!(!note.request && !note.uses);
        // The client's answer to elicitation/create is a response: never capped.
        let answer = probe(br#"{"jsonrpc":"2.0","id":7,"result":{"action":"cancel"}}"#);
        assert!(!answer.request);
        let null_id = probe(br#"{"jsonrpc":"2.0","id":null,"method":"x"}"#);
        assert!(!null_id.request);
        let batch =
            probe(br#" [{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#);
        assert!(batch.request && batch.uses);
        assert_eq!(batch.id, None, "a batch's refusal names no single id");
        assert!(!probe(b"not json").request);
    }
}
