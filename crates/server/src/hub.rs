//! [`Elicitations`]: the server-wide registry of pending elicitations, its configuration,
//! and completion; [`SessionScope`]: one client connection's view of it.

mod completion;
mod delivery;
mod records;
mod rounds;
mod scope;

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::SystemTime;

use mcp_elicit_core::message::Mode;
use rmcp::{Peer, RoleServer};

use crate::lean_sessions::SessionOutlet;

use crate::config::ElicitationConfig;
use crate::error::{Error, ErrorKind};
use crate::id::ElicitationId;
use crate::identity::{IdentityPolicy, Principal, SessionKey};
use crate::relay::CompletionRelay;
use crate::state::StateKeys;
use crate::store::{Clock, ElicitationStore, MemoryStore, StoreError, SystemClock};

pub use completion::{Completed, Completion};
pub(crate) use delivery::PendingGuard;
use scope::ScopeInner;
pub use scope::SessionScope;

/// A live connection an elicitation was sent on, and the session it belongs to.
struct LocalPeer {
    session: SessionKey,
    mode: Mode,
    line: Line,
}

/// How a completion reaches the client.
enum Line {
    /// Through the session's handler.
    Peer(Peer<RoleServer>),
    /// The lean session layer's own way, which outlives the handler (a session whose
    /// handler sleeps still gets its completions) and holds none of it: a `Peer` kept
    /// here would keep the handler's channel allocated after it ended.
    Outlet(SessionOutlet),
}

impl LocalPeer {
    fn is_closed(&self) -> bool {
        match &self.line {
            Line::Outlet(outlet) => outlet.is_closed(),
            Line::Peer(peer) => peer.is_transport_closed(),
        }
    }
}

pub(crate) struct Inner {
    pub(crate) config: ElicitationConfig,
    pub(crate) store: Arc<dyn ElicitationStore>,
    pub(crate) clock: Arc<dyn Clock>,
    /// The connection each pending elicitation was sent on (live objects, not data).
    peers: Mutex<HashMap<String, LocalPeer>>,
    /// Where completions this node cannot deliver go (several nodes).
    relay: OnceLock<Arc<dyn CompletionRelay>>,
    /// The keys sealing 2026-07-28 request state (configured, or random on first use).
    state_keys: OnceLock<StateKeys>,
    /// When the last automatic sweep started (see `ElicitationConfig::sweep_interval`).
    last_sweep: Mutex<Option<SystemTime>>,
}

/// The server-wide elicitation registry. Cheap to clone; share one per server.
///
/// Holds the pending elicitations (in an [`ElicitationStore`]), the connection each was
/// sent on, and the configuration. Tool handlers reach it through a [`SessionScope`];
/// out-of-band code (the page behind a URL elicitation) calls
/// [`Elicitations::complete`].
///
/// A URL elicitation as the page behind it sees the registry: pending for its user only,
/// completed once, gone afterwards (the store is filled by hand here, as
/// [`Ask::url`](crate::Ask::url) fills it when a tool asks):
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
/// #         app_data: None,
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
/// let bob = Principal::authenticated("https://auth.example.com", "bob");
/// assert_eq!(hub.pending(&alice).await?.len(), 1);
/// assert!(hub.get(&bob, "e1").await?.is_none()); // another user's: not found
///
/// let done = hub.complete(&alice, "e1").await?;
/// assert!(!done.notified); // no client connection is registered in this example
/// assert_eq!(done.session.as_str(), "connection-1");
///
/// // Used up: a replay of the same id is refused and changes nothing.
/// let again = hub.complete(&alice, "e1").await.unwrap_err();
/// assert_eq!(again.kind(), mcp_elicit_server::ErrorKind::UnknownElicitation);
/// assert_eq!(hub.pending_count().await?, 0);
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct Elicitations {
    pub(crate) inner: Arc<Inner>,
}

impl fmt::Debug for Elicitations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Elicitations")
            .field("config", &self.inner.config)
            .finish_non_exhaustive()
    }
}

pub(crate) fn store_error(e: StoreError) -> Error {
    match e {
        StoreError::NotFound(id) => Error::new(
            ErrorKind::UnknownElicitation,
            format!(
                "no pending elicitation {id} for this user (unknown, finished already, or expired)"
            ),
        ),
        StoreError::InvalidTransition(m) => Error::new(ErrorKind::UnknownElicitation, m),
        StoreError::QuotaExceeded { pending, max } => Error::new(
            ErrorKind::TooManyPending,
            format!(
                "{pending} elicitations are already pending for this user (at most {max}); finish or wait for those first"
            ),
        ),
        StoreError::Unavailable(m) => Error::new(
            ErrorKind::StoreUnavailable,
            format!("the store is unavailable ({m}); nothing was changed, try again shortly"),
        ),
        other => Error::new(ErrorKind::Store, other.to_string()),
    }
}

impl Elicitations {
    /// A registry with an in-memory store and the system clock.
    ///
    /// ```
    /// use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy};
    ///
    /// // A remote server: every request must carry a verified `Principal`.
    /// let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::Authenticated));
    /// assert_eq!(hub.config().max_pending_per_user, 32);
    /// ```
    pub fn new(config: ElicitationConfig) -> Self {
        Self::with_store(config, Arc::new(MemoryStore::new()), Arc::new(SystemClock))
    }

    /// A registry for a local server (stdio, or HTTP on loopback for one person): every
    /// request is the user running the process
    /// ([`IdentityPolicy::LocalUser`]`(`[`Principal::current_local_user`]`())`), with
    /// the default configuration and an in-memory store. A server with sign-in builds
    /// its [`ElicitationConfig`] and uses [`Elicitations::new`].
    ///
    /// ```
    /// let hub = mcp_elicit_server::Elicitations::local();
    /// assert!(hub.scope().is_ok());
    /// ```
    pub fn local() -> Self {
        Self::new(ElicitationConfig::new(IdentityPolicy::LocalUser(
            Principal::current_local_user(),
        )))
    }

    /// A registry over `store`, reading time from `clock`.
    ///
    /// A durable store (`mcp-elicit-store`), your own [`ElicitationStore`], or a clock a test
    /// moves by hand:
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use std::time::{Duration, SystemTime};
    /// use mcp_elicit_server::{Clock, ElicitationConfig, Elicitations, IdentityPolicy, MemoryStore};
    ///
    /// struct TestClock(Mutex<SystemTime>);
    /// impl Clock for TestClock {
    ///     fn now(&self) -> SystemTime {
    ///         *self.0.lock().unwrap()
    ///     }
    /// }
    ///
    /// let clock = Arc::new(TestClock(Mutex::new(SystemTime::UNIX_EPOCH)));
    /// let hub = Elicitations::with_store(
    ///     ElicitationConfig::new(IdentityPolicy::Authenticated),
    ///     Arc::new(MemoryStore::new()),
    ///     clock.clone(),
    /// );
    /// *clock.0.lock().unwrap() += Duration::from_secs(3600); // the registry's clock: an hour later
    /// # let _ = hub;
    /// ```
    pub fn with_store(
        config: ElicitationConfig,
        store: Arc<dyn ElicitationStore>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self {
            inner: Arc::new(Inner {
                config,
                store,
                clock,
                peers: Mutex::new(HashMap::new()),
                relay: OnceLock::new(),
                state_keys: OnceLock::new(),
                last_sweep: Mutex::new(None),
            }),
        }
    }

    /// The configuration.
    ///
    /// ```
    /// let hub = mcp_elicit_server::Elicitations::local();
    /// assert_eq!(hub.config().form_timeout, std::time::Duration::from_secs(600));
    /// ```
    pub fn config(&self) -> &ElicitationConfig {
        &self.inner.config
    }

    /// Sets the relay that carries completions this node cannot deliver to the other
    /// nodes sharing the store (see [`CompletionRelay`]). Once per registry: `false` (and
    /// nothing changes) if one is set already.
    ///
    /// A relay of your own (here a channel standing for a message bus): a completion whose
    /// connection this node does not hold is handed to it, addressed to its session:
    ///
    /// ```
    /// # use futures::future::{BoxFuture, FutureExt};
    /// use mcp_elicit_server::CompletionRelay;
    /// use tokio::sync::mpsc;
    ///
    /// struct Bus(mpsc::UnboundedSender<(String, String)>);
    ///
    /// impl CompletionRelay for Bus {
    ///     fn relay<'a>(&'a self, id: &'a str, session: &'a SessionKey) -> BoxFuture<'a, Result<(), String>> {
    ///         let sent = self.0.send((id.to_owned(), session.to_string())).map_err(|e| e.to_string());
    ///         async move { sent }.boxed()
    ///     }
    /// }
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
    /// let (tx, mut rx) = mpsc::unbounded_channel();
    /// assert!(hub.set_relay(Arc::new(Bus(tx.clone()))));
    /// assert!(!hub.set_relay(Arc::new(Bus(tx)))); // once per registry
    ///
    /// let done = hub.complete(&alice, "e1").await?;
    /// assert!(!done.notified); // not sent by this node...
    /// assert_eq!(rx.recv().await, Some(("e1".into(), "connection-1".into()))); // ...but relayed
    /// # Ok(())
    /// # }
    /// ```
    pub fn set_relay(&self, relay: Arc<dyn CompletionRelay>) -> bool {
        self.inner.relay.set(relay).is_ok()
    }

    /// A scope for one client connection: build it when the connection's handler is
    /// built (rmcp calls the Streamable HTTP service factory once per session). When the
    /// last clone is dropped, the connection's pending elicitations are forgotten.
    ///
    /// ```
    /// let hub = mcp_elicit_server::Elicitations::local();
    /// // One scope per connection (per call of rmcp's service factory), each its own session.
    /// let first = hub.scope()?;
    /// let second = hub.scope()?;
    /// assert_ne!(first.connection_key(), second.connection_key());
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn scope(&self) -> Result<SessionScope, Error> {
        let key = ElicitationId::generate()?;
        Ok(SessionScope {
            inner: Arc::new(ScopeInner {
                hub: self.clone(),
                key: SessionKey::connection(key.as_str()),
            }),
        })
    }

    fn peers(&self) -> MutexGuard<'_, HashMap<String, LocalPeer>> {
        self.inner
            .peers
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
