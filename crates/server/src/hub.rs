//! [`Elicitations`]: the server-wide registry of pending elicitations, its configuration,
//! and completion; [`SessionScope`]: one client connection's view of it.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::SystemTime;

use mcp_elicit_core::lifecycle::Event;
use mcp_elicit_core::message::{CompleteNotification, METHOD_COMPLETE, Mode};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CustomNotification, ServerNotification,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, Peer, RoleServer};

use crate::lean_sessions::SessionOutlet;

use crate::ask::{Ask, Retryable};
use crate::config::ElicitationConfig;
use crate::elicitor::Elicitor;
use crate::error::{Error, ErrorKind};
use crate::id::ElicitationId;
use crate::identity::{IdentityPolicy, Principal, SessionKey};
use crate::relay::CompletionRelay;
use crate::respond::Stop;
use crate::revision::{Declared, Revision};
use crate::state::StateKeys;
use crate::store::{
    Clock, ElicitationStore, MemoryStore, PendingElicitation, StoreError, SystemClock,
};

/// What [`Elicitations::complete`] did.
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
/// let done = hub.complete(&alice, "e1").await?;
/// // Sent on connection-1, which this node does not hold (no client in this example):
/// // with several nodes, that session is where a relayed notice is addressed.
/// assert_eq!(done.session, SessionKey::from_stored("connection-1"));
/// assert!(!done.notified);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Completion {
    /// Whether `notifications/elicitation/complete` was sent to the originating client's
    /// connection *by this node*. False when that connection is not held here (another
    /// node holds it: publish a completion notice for [`Completion::session`] so that node
    /// can call [`Elicitations::deliver_completion`]) or has gone away (the completion
    /// still counts: the client's retry of its request is the recovery path).
    pub notified: bool,
    /// The client session the elicitation was sent on.
    pub session: SessionKey,
}

/// What [`Elicitations::complete_with`] did: the [`Completion`] and what the
/// application's bookkeeping returned.
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
/// // The bookkeeping gets the completed record, with what the tool attached when asking.
/// let done = hub
///     .complete_with(&alice, "e1", |record| async move {
///         let provider = record.app_data.as_ref().and_then(|d| d["provider"].as_str()).map(str::to_owned);
///         Ok::<_, std::io::Error>(provider)
///     })
///     .await?;
/// assert_eq!(done.value.as_deref(), Some("calendar"));
/// assert_eq!(done.completion.session.as_str(), "connection-1");
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Completed<T> {
    /// The completion (whether this node notified the client, and the session).
    pub completion: Completion,
    /// What the bookkeeping returned.
    pub value: T,
}

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

    /// Records a pending elicitation and the connection it is sent on. The returned guard
    /// forgets it again unless [`PendingGuard::keep`] is called, even when the tool's
    /// future is dropped half-way (no pending state leaks).
    pub(crate) async fn register(
        &self,
        record: PendingElicitation,
        peer: Peer<RoleServer>,
        outlet: Option<SessionOutlet>,
    ) -> Result<PendingGuard, Error> {
        let id = record.id.clone();
        let session = record.session.clone();
        let mode = record.mode;
        self.insert(record).await?;
        self.peers().insert(
            id.clone(),
            LocalPeer {
                session,
                mode,
                line: match outlet {
                    Some(outlet) => Line::Outlet(outlet),
                    None => Line::Peer(peer),
                },
            },
        );
        Ok(PendingGuard {
            hub: self.clone(),
            id,
            armed: true,
        })
    }

    /// Stores a new elicitation, refused when the user already has the configured
    /// maximum pending (bounded state per user, whatever a client keeps calling). The
    /// check and the insert are one store operation
    /// ([`ElicitationStore::insert_within_quota`]).
    ///
    /// Also the automatic sweep: at most once per
    /// [`ElicitationConfig::sweep_interval`], expired records are removed first.
    async fn insert(&self, record: PendingElicitation) -> Result<(), Error> {
        self.sweep_if_due().await?;
        let max = self.inner.config.max_pending_per_user;
        self.inner
            .store
            .insert_within_quota(record, max)
            .await
            .map_err(store_error)
    }

    /// Runs [`Elicitations::sweep`] when the configured interval has passed since the
    /// last automatic one (one caller at a time; failures are logged, not returned:
    /// expired records are refused on access and not counted in quotas anyway). Except
    /// a store that is unavailable: the insert would wait for it a second time, so the
    /// caller gets the retryable error at once, and the next insert sweeps again.
    async fn sweep_if_due(&self) -> Result<(), Error> {
        let Some(interval) = self.inner.config.sweep_interval else {
            return Ok(());
        };
        let now = self.inner.clock.now();
        {
            let mut last = self
                .inner
                .last_sweep
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            let due = last.is_none_or(|at| {
                now.duration_since(at).is_ok_and(|since| since >= interval) || now < at
            });
            if !due {
                return Ok(());
            }
            *last = Some(now);
        }
        match self.sweep().await {
            Ok(0) => {}
            Ok(n) => tracing::debug!(removed = n, "swept pending elicitations"),
            Err(e) if e.kind() == ErrorKind::StoreUnavailable => {
                *self
                    .inner
                    .last_sweep
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner()) = None;
                return Err(e);
            }
            Err(e) => tracing::warn!(error = %e, "automatic sweep failed"),
        }
        Ok(())
    }

    /// Forgets an elicitation (the server's own bookkeeping after a final answer).
    pub(crate) async fn forget(&self, id: &str) {
        self.peers().remove(id);
        if let Err(e) = self.inner.store.remove(id).await {
            tracing::warn!(elicitation_id = id, error = %e, "could not remove a finished elicitation");
        }
    }

    pub(crate) async fn transition(
        &self,
        principal: &Principal,
        id: &str,
        event: Event,
    ) -> Result<(), Error> {
        self.refuse_expired(principal, id).await?;
        let t = self
            .inner
            .store
            .transition(principal, id, event)
            .await
            .map_err(store_error)?;
        if t.removed {
            self.peers().remove(id);
        }
        Ok(())
    }

    /// Marks the URL-mode elicitation `id` of `principal` completed and sends
    /// `notifications/elicitation/complete` with exactly `{"elicitationId": id}` to the
    /// client connection that received the elicitation, and to no other:
    /// [`Elicitations::complete_with`] with no bookkeeping.
    ///
    /// At most once: completing an unknown, already-completed, expired or declined id, or
    /// someone else's, is an [`ErrorKind::UnknownElicitation`] error and sends nothing.
    /// `principal` must be the user verified by the out-of-band page (the phishing rule:
    /// the user who completes must be the user who started).
    ///
    /// Use it when the page itself is the whole outcome. When the page obtained
    /// something to record (a token, a key, a "connected" flag), use
    /// [`Elicitations::complete_with`] and record it in its bookkeeping: recording it
    /// *before* this call acts on an id nobody has verified yet (a replayed, stale or
    /// another user's id would change your state although the completion is then
    /// refused), and recording it *after* lets the client retry before it is there.
    ///
    /// [`Completion::notified`] is false when this node does not hold the connection:
    /// with several nodes, the notice then goes to the relay ([`Elicitations::set_relay`]),
    /// and every node hands what the relay carries to
    /// [`Elicitations::deliver_completion`].
    ///
    /// The client that asked is notified at once (hidden: an rmcp client with URL mode over an
    /// in-memory pipe, whose tool call got -32042):
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
    ///     let page = mcp_elicit_server::UrlElicitation::new("Connect your calendar", |id| {
    ///         format!("https://mcp.example.com/connect?elicitationId={id}")
    ///     })?;
    ///     Err(scope.elicitor(ctx)?.url_required(&[page]).await.into())
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = hub();
    /// # let alice = mcp_elicit_server::Principal::local_user("alice");
    /// # let (client, mut notes) = connect(&hub, json!({"elicitation": {"url": {}}}), |_| None).await?;
    /// # let Err(ServiceError::McpError(e)) = client.call_tool(CallToolRequestParams::new("calendar")).await
    /// # else { panic!("expected -32042") };
    /// # let id = e.data.unwrap()["elicitations"][0]["elicitationId"].as_str().unwrap().to_owned();
    /// // The page, once alice is signed in there and has linked her calendar:
    /// let done = hub.complete(&alice, &id).await?;
    /// assert!(done.notified);
    /// assert_eq!(notes.recv().await, Some(json!({"elicitationId": id})));
    ///
    /// // At most once: a replay is refused and sends nothing.
    /// let again = hub.complete(&alice, &id).await.unwrap_err();
    /// assert_eq!(again.kind(), mcp_elicit_server::ErrorKind::UnknownElicitation);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn complete(&self, principal: &Principal, id: &str) -> Result<Completion, Error> {
        self.complete_with(principal, id, |_| async { Ok::<(), Error>(()) })
            .await
            .map(|done| done.completion)
    }

    /// Completes the URL-mode elicitation `id` of `principal` with the application's
    /// bookkeeping in the one safe order:
    ///
    /// 1. the id and its owner are verified and the completion is recorded in the store,
    ///    at most once, even across nodes ([`Elicitations::record_completion`]); an
    ///    unknown, finished, expired, declined, replayed or another user's id stops here
    ///    with [`ErrorKind::UnknownElicitation`], and `bookkeeping` never runs;
    /// 2. `bookkeeping` runs with the completed record (store what the page obtained;
    ///    [`PendingElicitation::app_data`] holds what you attached when asking);
    /// 3. only then is the client notified ([`Elicitations::notify_completion`]): a
    ///    client retries the moment it hears of the completion, and finds your outcome.
    ///
    /// When `bookkeeping` fails, the elicitation stays completed (it is used up), no
    /// notification is sent, and the error is [`ErrorKind::Bookkeeping`] with yours as
    /// its [`source`](std::error::Error::source): the client's retry of its request (after
    /// its own timeout, or on the next call) finds no outcome and asks again.
    ///
    /// ```no_run
    /// use std::sync::{Arc, Mutex};
    /// use mcp_elicit_server::{Elicitations, Error, Principal};
    ///
    /// async fn page_done(
    ///     hub: &Elicitations,
    ///     user: &Principal,
    ///     id: &str,
    ///     linked: Arc<Mutex<Vec<Principal>>>,
    /// ) -> Result<bool, Error> {
    ///     let done = hub
    ///         .complete_with(user, id, |record| async move {
    ///             // Runs only for a verified id of this very user.
    ///             linked.lock().unwrap().push(record.principal);
    ///             Ok::<_, std::io::Error>(())
    ///         })
    ///         .await?;
    ///     Ok(done.completion.notified)
    /// }
    /// # let _ = page_done;
    /// ```
    pub async fn complete_with<F, Fut, T, E>(
        &self,
        principal: &Principal,
        id: &str,
        bookkeeping: F,
    ) -> Result<Completed<T>, Error>
    where
        F: FnOnce(PendingElicitation) -> Fut,
        Fut: Future<Output = Result<T, E>>,
        E: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let record = self.record_completion(principal, id).await?;
        let session = record.session.clone();
        let value = bookkeeping(record)
            .await
            .map_err(|e| Error::bookkeeping(id, e.into()))?;
        let notified = self.notify_completion(id, &session).await;
        Ok(Completed {
            completion: Completion { notified, session },
            value,
        })
    }

    /// The second half of [`Elicitations::complete`]: sends the completion notification
    /// for `id` to the connection this node holds for `session`
    /// ([`Elicitations::deliver_completion`]) or, when this node holds none, hands it to
    /// the relay (if one is set) for the node that does. Returns whether this node sent
    /// it.
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
    /// let record = hub.record_completion(&alice, "e1").await?;
    /// // No connection for connection-1 on this node and no relay: nobody is told, and the
    /// // client's retry of its request is how it learns of the completion.
    /// assert!(!hub.notify_completion("e1", &record.session).await);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn notify_completion(&self, id: &str, session: &SessionKey) -> bool {
        if session.is_rounds() {
            // 2026-07-28: no notification exists; the retry finds the outcome.
            return false;
        }
        if self.deliver_completion(id, session).await {
            return true;
        }
        if let Some(relay) = self.inner.relay.get()
            && let Err(e) = relay.relay(id, session).await
        {
            tracing::warn!(elicitation_id = id, error = %e, "completion notice not relayed to the other nodes");
        }
        false
    }

    /// The first half of [`Elicitations::complete`]: marks the URL-mode elicitation `id`
    /// of `principal` completed in the store (at most once, across nodes sharing the
    /// store) and returns the record as it was, without notifying anyone yet. Follow with
    /// [`Elicitations::notify_completion`] once the outcome is recorded
    /// ([`Elicitations::complete_with`] does the three steps in order).
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
    /// let record = hub.record_completion(&alice, "e1").await?;
    /// // ... record what the page obtained for `record.principal` here ...
    /// let notified = hub.notify_completion("e1", &record.session).await;
    /// assert!(!notified); // this example holds no client connection
    /// assert!(hub.record_completion(&alice, "e1").await.is_err()); // at most once
    /// # Ok(())
    /// # }
    /// ```
    pub async fn record_completion(
        &self,
        principal: &Principal,
        id: &str,
    ) -> Result<PendingElicitation, Error> {
        self.refuse_expired(principal, id).await?;
        let rounds = self
            .inner
            .store
            .get(principal, id)
            .await
            .map_err(store_error)?
            .is_some_and(|r| r.session.is_rounds());
        // A 2026-07-28 elicitation stays stored, marked finished (`Accepted`), until the
        // client's retry uses it up: that retry is how the client learns of it.
        let event = if rounds {
            Event::Accept
        } else {
            Event::Complete
        };
        let t = self
            .inner
            .store
            .transition(principal, id, event)
            .await
            .map_err(store_error)?;
        tracing::debug!(elicitation_id = id, session = %t.before.session, "elicitation completed");
        Ok(t.before)
    }

    /// Sends `notifications/elicitation/complete` for `id` to the connection on this node
    /// that received the elicitation, if this node holds one *and* it belongs to
    /// `session`; returns whether it was sent. Reads and changes no stored state: this is
    /// what a node runs for each completion notice arriving from another node (the
    /// completion was decided there, in the shared store).
    ///
    /// At most once per elicitation on this node: the connection is forgotten once
    /// notified, so a repeated notice sends nothing. A notice naming another session (a
    /// forged or stale one) sends nothing and leaves the connection registered.
    ///
    /// Two nodes sharing one store: the client's connection is on node 1, the page on node 2
    /// completes the elicitation, and node 1 delivers the notice it gets from node 2 (hidden:
    /// an rmcp client with URL mode over an in-memory pipe, whose tool call got -32042):
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
    ///     let page = mcp_elicit_server::UrlElicitation::new("Connect your calendar", |id| {
    ///         format!("https://mcp.example.com/connect?elicitationId={id}")
    ///     })?;
    ///     Err(scope.elicitor(ctx)?.url_required(&[page]).await.into())
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use std::sync::Arc;
    /// use mcp_elicit_server::{
    ///     ElicitationConfig, Elicitations, IdentityPolicy, MemoryStore, Principal, SessionKey,
    ///     SystemClock,
    /// };
    ///
    /// let alice = Principal::local_user("alice");
    /// let store = Arc::new(MemoryStore::new());
    /// let node = || {
    ///     Elicitations::with_store(
    ///         ElicitationConfig::new(IdentityPolicy::LocalUser(alice.clone())),
    ///         store.clone(),
    ///         Arc::new(SystemClock),
    ///     )
    /// };
    /// let (node1, node2) = (node(), node());
    /// # let (client, mut notes) = connect(&node1, json!({"elicitation": {"url": {}}}), |_| None).await?;
    /// # let Err(ServiceError::McpError(e)) = client.call_tool(CallToolRequestParams::new("calendar")).await
    /// # else { panic!("expected -32042") };
    /// # let id = e.data.unwrap()["elicitations"][0]["elicitationId"].as_str().unwrap().to_owned();
    ///
    /// // Node 2 serves the page: the store decides, once; it holds no connection.
    /// let done = node2.complete(&alice, &id).await?;
    /// assert!(!done.notified);
    ///
    /// // Node 1, given the notice (over the bus): a notice naming another session does nothing...
    /// assert!(!node1.deliver_completion(&id, &SessionKey::from_stored("forged")).await);
    /// // ...the real one reaches the client, once.
    /// assert!(node1.deliver_completion(&id, &done.session).await);
    /// assert_eq!(notes.recv().await, Some(json!({"elicitationId": id})));
    /// assert!(!node1.deliver_completion(&id, &done.session).await);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn deliver_completion(&self, id: &str, session: &SessionKey) -> bool {
        let local = {
            let mut peers = self.peers();
            match peers.get(id) {
                Some(local) if &local.session == session => peers.remove(id),
                _ => None,
            }
        };
        let Some(local) = local else {
            return false;
        };
        if local.is_closed() {
            return false;
        }
        let params = CompleteNotification::new(id).to_value();
        let note = ServerNotification::CustomNotification(CustomNotification::new(
            METHOD_COMPLETE,
            Some(params),
        ));
        let peer = match local.line {
            Line::Outlet(outlet) => return outlet.notify(note),
            Line::Peer(peer) => peer,
        };
        match peer.send_notification(note).await {
            Ok(()) => true,
            Err(e) => {
                tracing::info!(elicitation_id = id, error = %e, "completion notification not delivered");
                false
            }
        }
    }

    /// Cancels the URL-mode elicitation `id` of `principal` (the user gave up or refused
    /// on the out-of-band page). No notification is sent (the protocol has none).
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
    /// hub.cancel(&alice, "e1").await?;
    /// assert!(hub.get(&alice, "e1").await?.is_none());
    /// assert!(hub.complete(&alice, "e1").await.is_err()); // nothing left to complete
    /// # Ok(())
    /// # }
    /// ```
    pub async fn cancel(&self, principal: &Principal, id: &str) -> Result<(), Error> {
        self.transition(principal, id, Event::Cancel).await
    }

    /// The pending elicitation `id` of `principal`, if any (what a connect page shows).
    ///
    /// An elicitation past its expiry is gone even before the sweep removes it: `None`
    /// here, and every transition of it fails as unknown.
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
    /// let record = hub.get(&alice, "e1").await?.expect("pending");
    /// assert_eq!(record.message, "Connect your calendar");
    /// assert_eq!(record.mode, Mode::Url);
    /// assert!(hub.get(&alice, "unknown").await?.is_none());
    ///
    /// // Past its expiry it is gone, swept or not:
    /// store.insert(url_record("e2", &alice, Duration::ZERO)).await?;
    /// assert!(hub.get(&alice, "e2").await?.is_none());
    /// # Ok(())
    /// # }
    /// ```
    pub async fn get(
        &self,
        principal: &Principal,
        id: &str,
    ) -> Result<Option<PendingElicitation>, Error> {
        let record = self
            .inner
            .store
            .get(principal, id)
            .await
            .map_err(store_error)?;
        match record {
            Some(r) if r.expires_at <= self.inner.clock.now() => {
                self.drop_expired(id).await;
                Ok(None)
            }
            // Finished on its page, waiting for the client's retry: no longer pending.
            Some(r) if is_finished_round(&r) => Ok(None),
            other => Ok(other),
        }
    }

    /// The keys sealing 2026-07-28 `requestState`: the configured ring, else one
    /// random key for this process, made on first use.
    pub(crate) fn state_keys(&self) -> Result<&StateKeys, Error> {
        if let Some(keys) = self.inner.state_keys.get() {
            return Ok(keys);
        }
        let keys = match &self.inner.config.state_keys {
            Some(k) => k.clone(),
            None => StateKeys::random()?,
        };
        Ok(self.inner.state_keys.get_or_init(|| keys))
    }

    /// Stores a 2026-07-28 URL elicitation (no connection to notify; quota applies).
    pub(crate) async fn insert_round(&self, record: PendingElicitation) -> Result<(), Error> {
        self.insert(record).await
    }

    /// The 2026-07-28 URL elicitation `id` of `principal` while it waits for its page
    /// (`None` when finished, gone or expired).
    pub(crate) async fn round_pending(
        &self,
        principal: &Principal,
        id: &str,
    ) -> Result<Option<PendingElicitation>, Error> {
        Ok(self
            .get(principal, id)
            .await?
            .filter(|r| r.session.is_rounds()))
    }

    /// Whether the 2026-07-28 URL elicitation `id` of `principal` was finished on its
    /// page and not used yet.
    pub(crate) async fn round_finished(
        &self,
        principal: &Principal,
        id: &str,
    ) -> Result<bool, Error> {
        let record = self
            .inner
            .store
            .get(principal, id)
            .await
            .map_err(store_error)?;
        Ok(record.is_some_and(|r| is_finished_round(&r) && r.expires_at > self.inner.clock.now()))
    }

    /// Uses up a finished 2026-07-28 URL elicitation: at most once, across nodes (the
    /// store's transition is atomic); a second use is refused.
    pub(crate) async fn round_consume(&self, principal: &Principal, id: &str) -> Result<(), Error> {
        self.inner
            .store
            .transition(principal, id, Event::Complete)
            .await
            .map(drop)
            .map_err(|_| {
                Error::new(
                    ErrorKind::InvalidState,
                    "the URL interaction of this requestState was used already",
                )
            })
    }

    /// Forgets `principal`'s 2026-07-28 URL elicitation `id` (declined or cancelled).
    pub(crate) async fn round_forget(&self, principal: &Principal, id: &str) -> Result<(), Error> {
        let record = self
            .inner
            .store
            .get(principal, id)
            .await
            .map_err(store_error)?;
        if record.is_some_and(|r| r.session.is_rounds()) {
            self.forget(id).await;
        }
        Ok(())
    }

    /// The pending elicitations of `principal` (none past its expiry).
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
    /// store.insert(url_record("e2", &alice, Duration::ZERO)).await?; // expired already
    /// let ids: Vec<String> = hub.pending(&alice).await?.into_iter().map(|r| r.id).collect();
    /// assert_eq!(ids, ["e1"]);
    /// let bob = Principal::authenticated("https://auth.example.com", "bob");
    /// assert!(hub.pending(&bob).await?.is_empty());
    /// # Ok(())
    /// # }
    /// ```
    pub async fn pending(&self, principal: &Principal) -> Result<Vec<PendingElicitation>, Error> {
        let now = self.inner.clock.now();
        let mut list = self
            .inner
            .store
            .list(principal)
            .await
            .map_err(store_error)?;
        list.retain(|r| r.expires_at > now && !is_finished_round(r));
        Ok(list)
    }

    /// Removes `principal`'s elicitation `id` if it has expired, so that the transition
    /// that follows fails as "unknown" (the store's answer for an absent record).
    async fn refuse_expired(&self, principal: &Principal, id: &str) -> Result<(), Error> {
        self.get(principal, id).await.map(drop)
    }

    /// Removes an expired elicitation now rather than at the next sweep.
    async fn drop_expired(&self, id: &str) {
        tracing::debug!(elicitation_id = id, "expired elicitation removed on access");
        self.forget(id).await;
    }

    /// How many elicitations are stored, all users together (records past their expiry
    /// count until a sweep removes them).
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
    /// assert_eq!(hub.pending_count().await?, 1);
    /// hub.complete(&alice, "e1").await?;
    /// assert_eq!(hub.pending_count().await?, 0);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn pending_count(&self) -> Result<usize, Error> {
        self.inner.store.count().await.map_err(store_error)
    }

    /// Removes expired elicitations and the forms whose connection has closed, and
    /// forgets closed connections. Returns how many elicitations were removed. The
    /// registry runs it by itself when an elicitation is stored, at most once per
    /// [`ElicitationConfig::sweep_interval`] (default 60 seconds); call it yourself only
    /// with the automatic sweep turned off, or to free memory sooner.
    ///
    /// A URL-mode elicitation outlives its connection: it belongs to the user, who may
    /// still finish the page (the completion then notifies nobody, and the client's retry
    /// finds the outcome), until it completes or expires.
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
    /// store.insert(url_record("e2", &alice, Duration::ZERO)).await?; // expired already
    /// assert_eq!(hub.pending_count().await?, 2);
    /// assert_eq!(hub.sweep().await?, 1); // e2 removed, e1 still pending
    /// assert_eq!(hub.pending_count().await?, 1);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn sweep(&self) -> Result<usize, Error> {
        let now = self.inner.clock.now();
        let expired = self
            .inner
            .store
            .sweep_expired(now)
            .await
            .map_err(store_error)?;
        let mut removed = expired.len();
        let closed_forms: Vec<String> = {
            let mut peers = self.peers();
            for r in &expired {
                peers.remove(&r.id);
            }
            let closed: Vec<(String, Mode)> = peers
                .iter()
                .filter(|(_, p)| p.is_closed())
                .map(|(id, p)| (id.clone(), p.mode))
                .collect();
            for (id, _) in &closed {
                peers.remove(id);
            }
            closed
                .into_iter()
                .filter(|(_, mode)| *mode == Mode::Form)
                .map(|(id, _)| id)
                .collect()
        };
        for id in closed_forms {
            if matches!(self.inner.store.remove(&id).await, Ok(Some(_))) {
                removed += 1;
            }
        }
        Ok(removed)
    }

    /// The session ended: its forms are removed (nobody can answer them) and its
    /// connection forgotten; its URL elicitations stay for the user (see
    /// [`Elicitations::sweep`]).
    async fn drop_session(&self, session: &SessionKey) {
        match self.inner.store.remove_session_forms(session).await {
            Ok(_) => {
                self.peers().retain(|_, local| &local.session != session);
            }
            Err(e) => {
                tracing::warn!(session = %session, error = %e, "could not forget a closed session")
            }
        }
    }
}

/// A 2026-07-28 URL elicitation finished on its page, waiting for the retry.
fn is_finished_round(record: &PendingElicitation) -> bool {
    record.session.is_rounds() && record.state == mcp_elicit_core::lifecycle::State::Accepted
}

/// Forgets a registered elicitation when dropped, unless kept.
pub(crate) struct PendingGuard {
    hub: Elicitations,
    id: String,
    armed: bool,
}

impl PendingGuard {
    /// Leaves the elicitation pending (an accepted or announced URL elicitation).
    pub(crate) fn keep(mut self) {
        self.armed = false;
    }

    /// Forgets the elicitation now.
    pub(crate) async fn forget(mut self) {
        self.armed = false;
        self.hub.forget(&self.id).await;
    }
}

impl Drop for PendingGuard {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        let hub = self.hub.clone();
        let id = std::mem::take(&mut self.id);
        hub.peers().remove(&id);
        if let Ok(handle) = tokio::runtime::Handle::try_current() {
            handle.spawn(async move { hub.forget(&id).await });
        }
    }
}

struct ScopeInner {
    hub: Elicitations,
    key: SessionKey,
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
    inner: Arc<ScopeInner>,
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
        Ask::new(elicitor, revision, Declared::of(ctx, revision), request).await
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
