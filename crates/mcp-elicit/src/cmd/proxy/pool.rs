//! Upstream connections for 2026-07-28 clients, which have no session to give one to:
//! a request borrows a connection of its user's for as long as it runs (a held request
//! until its final result), so every question the upstream asks on that connection
//! belongs to that one request; the connection goes back to the pool afterwards.
//!
//! Connections are kept per user and per what the client declared (elicitation modes,
//! sampling, roots: a 2025-11-25 upstream learns a client's capabilities once, at
//! `initialize`, and a server must not ask what the client did not declare), at most [`MAX_IDLE`] idle ones each, none idle longer than
//! [`IDLE_FOR`] (the upstream may end idle sessions). A connection whose request was
//! cancelled or failed is closed, not reused.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use mcp_elicit_client::{ProtocolChoice, ServerTarget};
use rmcp::model::{ProtocolVersion, ServerConfig};
use rmcp::service::ClientLifecycleMode;
use rmcp::{Peer, RoleClient};
use tokio::time::Instant;

use mcp_elicit_server::Principal;

use super::link::{Declared, Link, Proxy};
use super::upstream::{self, UpstreamService};

/// Most idle connections kept per user and kind (as many as a user can hold requests at
/// once would keep a burst's connections; half of that keeps most of them).
pub(crate) const MAX_IDLE: usize = 32;

/// The longest a connection stays idle in the pool.
pub(crate) const IDLE_FOR: Duration = Duration::from_secs(60);

/// Which connections can serve a request: the user's, declaring what the client declared
/// (URL mode whenever it declared any elicitation: a URL request for a client without it
/// becomes the documented fallback, never a form).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    pub(crate) user: Principal,
    pub(crate) declared: Declared,
}

struct Conn {
    link: Arc<Link>,
    service: UpstreamService,
}

/// The pool of one proxy.
pub(crate) struct Pool {
    target: Arc<ServerTarget>,
    idle: Mutex<HashMap<Key, Vec<(Conn, Instant)>>>,
    /// The lifecycle the upstream accepted first (later connections go straight to it).
    lifecycle: Mutex<Option<ClientLifecycleMode>>,
    /// The upstream's capabilities, name and instructions, as the proxy presents them.
    info: Mutex<Option<ServerConfig>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let idle: usize = lock(&self.idle).values().map(Vec::len).sum();
        f.debug_struct("Pool")
            .field("idle", &idle)
            .finish_non_exhaustive()
    }
}

impl Pool {
    pub(crate) fn new(target: Arc<ServerTarget>) -> Self {
        Self {
            target,
            idle: Mutex::new(HashMap::new()),
            lifecycle: Mutex::new(None),
            info: Mutex::new(None),
        }
    }

    /// What the upstream said of itself on the first connection (`None` before one).
    pub(crate) fn info(&self) -> Option<ServerConfig> {
        lock(&self.info).clone()
    }

    fn take_idle(&self, key: &Key) -> Option<Conn> {
        let mut idle = lock(&self.idle);
        let list = idle.get_mut(key)?;
        while let Some((conn, since)) = list.pop() {
            if since.elapsed() < IDLE_FOR && !conn.service.peer().is_transport_closed() {
                return Some(conn);
            }
        }
        None
    }
}

/// A connection lent to one request; back to the pool when dropped (unless discarded).
pub(crate) struct Lease {
    conn: Option<Conn>,
    key: Key,
    proxy: Arc<Proxy>,
    keep: bool,
}

impl Lease {
    /// Borrows a connection for `key` (a new one when none is idle).
    pub(crate) async fn take(proxy: &Arc<Proxy>, key: Key) -> Result<Lease, String> {
        let pool = &proxy.pool;
        let conn = match pool.take_idle(&key) {
            Some(conn) => conn,
            None => connect(proxy, &key).await?,
        };
        Ok(Lease {
            conn: Some(conn),
            key,
            proxy: Arc::clone(proxy),
            keep: true,
        })
    }

    /// The connection's link (what both halves share while it serves this request).
    pub(crate) fn link(&self) -> &Arc<Link> {
        &self
            .conn
            .as_ref()
            .expect("a lease holds its connection")
            .link
    }

    /// The upstream peer.
    pub(crate) fn peer(&self) -> &Peer<RoleClient> {
        self.conn
            .as_ref()
            .expect("a lease holds its connection")
            .service
            .peer()
    }

    /// Closes the connection instead of returning it (its request was cancelled or
    /// failed: the upstream may still be busy with it).
    pub(crate) fn discard(&mut self) {
        self.keep = false;
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let Some(conn) = self.conn.take() else {
            return;
        };
        conn.link.detach();
        if !self.keep || conn.service.peer().is_transport_closed() {
            return;
        }
        let mut idle = lock(&self.proxy.pool.idle);
        let list = idle.entry(self.key.clone()).or_default();
        list.retain(|(_, since)| since.elapsed() < IDLE_FOR);
        if list.len() < MAX_IDLE {
            list.push((conn, Instant::now()));
        }
    }
}

/// A new connection for `key`: the clients' revision (2026-07-28) first when the proxy
/// may choose, then the one the upstream accepted, remembered for the next ones.
async fn connect(proxy: &Arc<Proxy>, key: &Key) -> Result<Conn, String> {
    let pool = &proxy.pool;
    let link = Arc::new(Link::new(Arc::clone(proxy), key.user.clone()));
    link.set_pooled(key.declared);
    // Once known, the lifecycle the upstream accepted; before that the clients' revision
    // first (`auto`: `server/discover`, then `initialize`, each on a new connection).
    let known = lock(&pool.lifecycle).clone();
    let service = match (known, proxy.upstream_protocol) {
        (Some(lifecycle), _) => upstream::connect_with_lifecycle(&pool.target, &link, lifecycle)
            .await
            .map_err(|e| format!("cannot connect to the upstream: {e}"))?,
        (None, ProtocolChoice::Auto) => {
            let modern = ProtocolChoice::V2026_07_28.lifecycle();
            match upstream::connect_with_lifecycle(&pool.target, &link, modern).await {
                Ok(service) => service,
                Err(first) => {
                    tracing::info!(
                        "the upstream does not speak 2026-07-28; trying initialize (2025-11-25)"
                    );
                    upstream::connect_with_lifecycle(
                        &pool.target,
                        &link,
                        ClientLifecycleMode::Initialize,
                    )
                    .await
                    .map_err(|second| {
                        format!(
                            "cannot connect to the upstream: {first}; with initialize: {second}"
                        )
                    })?
                }
            }
        }
        (None, choice) => upstream::connect_with_lifecycle(&pool.target, &link, choice.lifecycle())
            .await
            .map_err(|e| format!("cannot connect to the upstream: {e}"))?,
    };
    let revision = mcp_elicit_client::negotiated_protocol(service.peer());
    tracing::info!(%revision, "connected to the upstream (pooled)");
    *lock(&pool.lifecycle) = Some(if revision.has_initialize() {
        ClientLifecycleMode::Initialize
    } else {
        ProtocolChoice::V2026_07_28.lifecycle()
    });
    if let Some(info) = service.peer().peer_info() {
        let mut ours = ServerConfig::default();
        ours.protocol_version = ProtocolVersion::V_2026_07_28;
        ours.capabilities = info.capabilities.clone();
        if let Some(server) = &info.server_info {
            ours.server_info = server.clone();
        }
        ours.instructions = info.instructions.clone();
        *lock(&pool.info) = Some(ours);
    }
    Ok(Conn { link, service })
}
