//! Where pending elicitations live: the [`ElicitationStore`] trait and a [`Clock`].
//!
//! The store holds plain data ([`PendingElicitation`]), so a durable SQLite or Postgres
//! store (`mcp-elicit-store`) fits behind the same trait. The live connection a
//! completion notification must reach is not data; [`Elicitations`](crate::Elicitations)
//! keeps it in memory beside the store (with several server nodes, route a session's
//! requests to one node and relay completions to it with
//! [`Elicitations::deliver_completion`](crate::Elicitations::deliver_completion)).
//!
//! Records are keyed by the elicitation id and owned by a (user, session) pair: every
//! lookup names the user, and a record of another user is reported as not found.

mod memory;

use std::time::SystemTime;

use futures::future::BoxFuture;
use mcp_elicit_core::lifecycle::{Event, State};
use mcp_elicit_core::message::Mode;

pub use memory::MemoryStore;

use crate::identity::{Principal, SessionKey};

/// A source of the current time, passed in so tests and sweeps control it.
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use mcp_elicit_server::{Clock, SystemClock};
///
/// /// A clock fixed at one instant (tests, or replaying a log).
/// struct Fixed(SystemTime);
/// impl Clock for Fixed {
///     fn now(&self) -> SystemTime {
///         self.0
///     }
/// }
///
/// let at = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
/// assert_eq!(Fixed(at).now(), at);
/// assert!(SystemClock.now() > at - Duration::from_secs(1_000_000_000));
/// ```
pub trait Clock: Send + Sync + 'static {
    /// Now.
    fn now(&self) -> SystemTime;
}

/// The system clock.
///
/// ```
/// use std::sync::Arc;
/// use std::time::SystemTime;
/// use mcp_elicit_server::{Clock, SystemClock};
///
/// let before = SystemTime::now();
/// let clock: Arc<dyn Clock> = Arc::new(SystemClock);
/// let now = clock.now();
/// assert!(now >= before && now <= SystemTime::now());
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }
}

/// One elicitation the server is waiting on.
///
/// What [`Elicitations::get`](crate::Elicitations::get) and
/// [`Elicitations::complete_with`](crate::Elicitations::complete_with) hand the page:
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use mcp_elicit_server::mcp_elicit_core::lifecycle::State;
/// use mcp_elicit_server::serde_json::json;
/// use mcp_elicit_server::{Mode, PendingElicitation, Principal, SessionKey};
///
/// let now = SystemTime::now();
/// let record = PendingElicitation {
///     id: "4f1c0a9e2b7d4e8f9a0b1c2d3e4f5a6b".to_owned(),
///     principal: Principal::authenticated("https://auth.example.com", "alice"),
///     session: SessionKey::from_stored("connection-1"),
///     mode: Mode::Url,
///     state: State::Pending,
///     message: "Connect your calendar".to_owned(),
///     url: Some("https://example.com/connect?elicitationId=4f1c0a9e2b7d4e8f9a0b1c2d3e4f5a6b".to_owned()),
///     created_at: now,
///     expires_at: now + Duration::from_secs(3600),
///     app_data: Some(json!({"calendar": "work"})),
/// };
/// // What the page reads back: the purpose you attached, never sent to the client.
/// assert_eq!(record.app_data.as_ref().unwrap()["calendar"], "work");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingElicitation {
    /// The id (for URL mode, the `elicitationId` sent to the client).
    pub id: String,
    /// The user it is bound to.
    pub principal: Principal,
    /// The client session it was sent on.
    pub session: SessionKey,
    /// Form or URL.
    pub mode: Mode,
    /// Where it stands (never terminal while stored).
    pub state: State,
    /// The message shown to the user.
    pub message: String,
    /// The URL (URL mode).
    pub url: Option<String>,
    /// When it was created.
    pub created_at: SystemTime,
    /// When it expires.
    pub expires_at: SystemTime,
    /// The application's own data, attached when asking
    /// ([`UrlElicitation::with_app_data`](crate::UrlElicitation::with_app_data); none by
    /// default), stored with the record by every store (as JSON text in
    /// `mcp-elicit-store`). Never sent to the client.
    pub app_data: Option<serde_json::Value>,
}

/// A store failure.
///
/// The registry turns these into [`Error`](crate::Error)s: `NotFound` and
/// `InvalidTransition` into [`ErrorKind::UnknownElicitation`](crate::ErrorKind::UnknownElicitation),
/// `QuotaExceeded` into [`ErrorKind::TooManyPending`](crate::ErrorKind::TooManyPending), the
/// others into [`ErrorKind::Store`](crate::ErrorKind::Store).
///
/// ```
/// # use std::time::{Duration, SystemTime};
/// # use mcp_elicit_server::mcp_elicit_core::lifecycle::State;
/// # use mcp_elicit_server::{Mode, PendingElicitation, Principal, SessionKey};
/// # fn record(id: &str, user: &Principal, mode: Mode, expires_in: Duration) -> PendingElicitation {
/// #     let now = SystemTime::now();
/// #     PendingElicitation {
/// #         id: id.to_owned(),
/// #         principal: user.clone(),
/// #         session: SessionKey::from_stored("connection-1"),
/// #         mode,
/// #         state: State::Pending,
/// #         message: "Connect your calendar".to_owned(),
/// #         url: (mode == Mode::Url).then(|| format!("https://example.com/connect?elicitationId={id}")),
/// #         created_at: now,
/// #         expires_at: now + expires_in,
/// #         app_data: None,
/// #     }
/// # }
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), mcp_elicit_server::StoreError> {
/// use mcp_elicit_server::{ElicitationStore, MemoryStore, StoreError};
///
/// let store = MemoryStore::new();
/// let alice = Principal::local_user("alice");
/// let hour = Duration::from_secs(3600);
/// store.insert(record("e1", &alice, Mode::Url, hour)).await?;
/// assert_eq!(
///     store.insert(record("e1", &alice, Mode::Url, hour)).await,
///     Err(StoreError::Duplicate("e1".into()))
/// );
/// let bob = Principal::local_user("bob");
/// let refused = store.transition(&bob, "e1", mcp_elicit_server::mcp_elicit_core::lifecycle::Event::Complete).await;
/// assert_eq!(refused.unwrap_err(), StoreError::NotFound("e1".into()));
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// An elicitation with this id already exists.
    #[error("an elicitation with id {0} already exists")]
    Duplicate(String),
    /// No elicitation with this id for this user.
    #[error("no pending elicitation {0} for this user")]
    NotFound(String),
    /// The lifecycle forbids the event in the current state.
    #[error("{0}")]
    InvalidTransition(String),
    /// The user already has `max` pending elicitations (see
    /// [`ElicitationStore::insert_within_quota`]).
    #[error("{pending} elicitations are already pending for this user (at most {max})")]
    QuotaExceeded {
        /// How many the user has pending.
        pending: usize,
        /// The configured maximum.
        max: usize,
    },
    /// The backend failed.
    #[error("store backend failure: {0}")]
    Backend(String),
    /// The backend cannot be reached or cannot write just now (connection refused or
    /// lost, no free connection in time, disk full, database locked): nothing was
    /// changed, and the same call can succeed later. Mapped to
    /// [`ErrorKind::StoreUnavailable`](crate::ErrorKind::StoreUnavailable).
    #[error("store unavailable: {0}")]
    Unavailable(String),
}

/// The outcome of [`ElicitationStore::transition`].
///
/// ```
/// # use std::time::{Duration, SystemTime};
/// # use mcp_elicit_server::mcp_elicit_core::lifecycle::State;
/// # use mcp_elicit_server::{Mode, PendingElicitation, Principal, SessionKey};
/// # fn record(id: &str, user: &Principal, mode: Mode, expires_in: Duration) -> PendingElicitation {
/// #     let now = SystemTime::now();
/// #     PendingElicitation {
/// #         id: id.to_owned(),
/// #         principal: user.clone(),
/// #         session: SessionKey::from_stored("connection-1"),
/// #         mode,
/// #         state: State::Pending,
/// #         message: "Connect your calendar".to_owned(),
/// #         url: (mode == Mode::Url).then(|| format!("https://example.com/connect?elicitationId={id}")),
/// #         created_at: now,
/// #         expires_at: now + expires_in,
/// #         app_data: None,
/// #     }
/// # }
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), mcp_elicit_server::StoreError> {
/// use mcp_elicit_server::mcp_elicit_core::lifecycle::Event;
/// use mcp_elicit_server::{ElicitationStore, MemoryStore};
///
/// let store = MemoryStore::new();
/// let alice = Principal::local_user("alice");
/// store.insert(record("e1", &alice, Mode::Url, Duration::from_secs(3600))).await?;
///
/// // Consent given: URL mode waits for its page, so the record stays.
/// let t = store.transition(&alice, "e1", Event::Accept).await?;
/// assert_eq!((t.before.state, t.state, t.removed), (State::Pending, State::Accepted, false));
/// // The page finished: terminal, removed.
/// let t = store.transition(&alice, "e1", Event::Complete).await?;
/// assert_eq!((t.state, t.removed), (State::Completed, true));
/// assert_eq!(store.count().await?, 0);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transition {
    /// The record as it was before the event.
    pub before: PendingElicitation,
    /// The state after the event.
    pub state: State,
    /// Whether the record was removed (the new state is terminal).
    pub removed: bool,
}

/// Persistent pending-elicitation state.
///
/// Implementations must make [`ElicitationStore::transition`] atomic: two concurrent
/// `Complete` events for one id must give one success and one error (that is what
/// makes completion notifications at-most-once).
///
/// A whole store of your own, wired into a server, is `examples/custom_store.rs`. The
/// contract, on [`MemoryStore`]:
///
/// ```
/// # use std::time::{Duration, SystemTime};
/// # use mcp_elicit_server::mcp_elicit_core::lifecycle::State;
/// # use mcp_elicit_server::{Mode, PendingElicitation, Principal, SessionKey};
/// # fn record(id: &str, user: &Principal, mode: Mode, expires_in: Duration) -> PendingElicitation {
/// #     let now = SystemTime::now();
/// #     PendingElicitation {
/// #         id: id.to_owned(),
/// #         principal: user.clone(),
/// #         session: SessionKey::from_stored("connection-1"),
/// #         mode,
/// #         state: State::Pending,
/// #         message: "Connect your calendar".to_owned(),
/// #         url: (mode == Mode::Url).then(|| format!("https://example.com/connect?elicitationId={id}")),
/// #         created_at: now,
/// #         expires_at: now + expires_in,
/// #         app_data: None,
/// #     }
/// # }
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), mcp_elicit_server::StoreError> {
/// use mcp_elicit_server::mcp_elicit_core::lifecycle::Event;
/// use mcp_elicit_server::{ElicitationStore, MemoryStore, StoreError};
///
/// let store = MemoryStore::new();
/// let alice = Principal::local_user("alice");
/// let hour = Duration::from_secs(3600);
///
/// // A quota of 2: records past their expiry never count, swept or not.
/// store.insert_within_quota(record("old", &alice, Mode::Url, Duration::ZERO), 2).await?;
/// store.insert_within_quota(record("e1", &alice, Mode::Url, hour), 2).await?;
/// store.insert_within_quota(record("e2", &alice, Mode::Form, hour), 2).await?;
/// assert_eq!(
///     store.insert_within_quota(record("e3", &alice, Mode::Url, hour), 2).await,
///     Err(StoreError::QuotaExceeded { pending: 2, max: 2 })
/// );
///
/// // Every lookup names the user: another user's record is not found.
/// assert!(store.get(&Principal::local_user("bob"), "e1").await?.is_none());
/// assert_eq!(store.list(&alice).await?.len(), 3);
///
/// // Two completions of one id: one success, one error (at-most-once notifications).
/// assert!(store.transition(&alice, "e1", Event::Complete).await?.removed);
/// assert!(store.transition(&alice, "e1", Event::Complete).await.is_err());
///
/// // The session ended: its forms go, its URL elicitations stay for the user.
/// let gone = store.remove_session_forms(&SessionKey::from_stored("connection-1")).await?;
/// assert_eq!(gone.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["e2"]);
/// let swept = store.sweep_expired(SystemTime::now()).await?;
/// assert_eq!(swept.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["old"]);
/// assert_eq!(store.count().await?, 0);
/// # Ok(())
/// # }
/// ```
pub trait ElicitationStore: Send + Sync + 'static {
    /// Adds a record; [`StoreError::Duplicate`] if the id exists.
    fn insert(&self, record: PendingElicitation) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Adds a record unless its user already has `max` records that have not expired
    /// ([`StoreError::QuotaExceeded`]); [`StoreError::Duplicate`] if the id exists.
    ///
    /// A record whose `expires_at` is at or before the new record's `created_at` (the
    /// time of the insert) is never counted, whether or not it was swept yet: a user
    /// whose elicitations expired can always start new ones.
    ///
    /// The default counts with [`list`](ElicitationStore::list) and then inserts: two
    /// concurrent inserts for one user can both pass the check, so a user can end up with
    /// up to `max + (concurrent inserts - 1)` records. That keeps state bounded per user
    /// (the purpose of the cap) but is not exact. [`MemoryStore`] overrides it with a
    /// check and insert under one lock (exact); a SQL store can override it with one
    /// conditional `INSERT ... SELECT ... WHERE (SELECT COUNT(*) ...) < max` (exact on
    /// SQLite, whose writers are serialized; on PostgreSQL only under `SERIALIZABLE` or
    /// a per-user advisory lock).
    fn insert_within_quota(
        &self,
        record: PendingElicitation,
        max: usize,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            let now = record.created_at;
            let pending = self
                .list(&record.principal)
                .await?
                .iter()
                .filter(|r| r.expires_at > now)
                .count();
            if pending >= max {
                return Err(StoreError::QuotaExceeded { pending, max });
            }
            self.insert(record).await
        })
    }

    /// The record with `id` owned by `principal`.
    fn get<'a>(
        &'a self,
        principal: &'a Principal,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<PendingElicitation>, StoreError>>;

    /// Applies a lifecycle event to the record with `id` owned by `principal`, atomically;
    /// removes it when the new state is terminal for its mode.
    fn transition<'a>(
        &'a self,
        principal: &'a Principal,
        id: &'a str,
        event: Event,
    ) -> BoxFuture<'a, Result<Transition, StoreError>>;

    /// Removes the record with `id`, whoever owns it (the server's own bookkeeping).
    fn remove<'a>(
        &'a self,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<PendingElicitation>, StoreError>>;

    /// Removes the form-mode records of a session (the session ended: nobody is left to
    /// answer those forms) and returns them. URL-mode records stay until they complete
    /// or expire: they belong to the user, who may still finish the page (after the
    /// client restarted, say), and the client's retry then finds the outcome.
    fn remove_session_forms<'a>(
        &'a self,
        session: &'a SessionKey,
    ) -> BoxFuture<'a, Result<Vec<PendingElicitation>, StoreError>>;

    /// Removes and returns the records that expired at `now`.
    fn sweep_expired(
        &self,
        now: SystemTime,
    ) -> BoxFuture<'_, Result<Vec<PendingElicitation>, StoreError>>;

    /// The records of one user (for a "pending connections" page, and for tests).
    fn list<'a>(
        &'a self,
        principal: &'a Principal,
    ) -> BoxFuture<'a, Result<Vec<PendingElicitation>, StoreError>>;

    /// How many records are stored.
    fn count(&self) -> BoxFuture<'_, Result<usize, StoreError>>;
}
