//! A lean session layer for rmcp's Streamable HTTP service: [`LeanSessionManager`], an
//! implementation of rmcp's `SessionManager` trait to use in place of its
//! `LocalSessionManager`.
//!
//! **Why.** `LocalSessionManager` runs a worker task per session between the HTTP side
//! and the session's handler: every message goes HTTP → bounded channel → worker →
//! bounded channel → handler, and back through the worker into a per-request bounded
//! channel, each hop moving the message (and a oneshot per operation) by value. Per
//! idle session that is a task, four channels and their blocks, and the worker's large
//! future: about 85 KB of the 93 KB an idle session with a pending URL elicitation cost
//! in our benchmark (BENCHMARKS.md), and most of the instructions per round trip above
//! the bare-hyper baseline besides JSON.
//!
//! **How.** One map of sessions; each session is one mutex-guarded state
//! (`session.rs`) that the HTTP side and the handler's task both work on directly:
//!
//! - a POSTed request opens its stream (a buffer of events) and is queued for the
//!   handler, whose transport (`transport.rs`) takes it out with no channel in between;
//! - the handler's `send` routes each message onto its stream at once (rmcp's routing:
//!   an answer on its request's stream, which it ends; our `elicitation/create` on the
//!   stream of the tool call it belongs to; the rest on the standalone GET stream);
//! - a stream's reader (`stream.rs`) reads straight out of that buffer, which is also
//!   the replay a `Last-Event-ID` resumes from (ids in rmcp's format, `event_id.rs`),
//!   bounded to [`LeanSessionConfig::replay_capacity`] events per stream. After its
//!   answer a request's stream stays replayable for
//!   [`LeanSessionConfig::completed_replay_ttl`], for the
//!   [`LeanSessionConfig::completed_replay_max`] most recent answers of the session
//!   (older ones go once a reader has taken them). Kept for every call, those events
//!   cost about 5.5 KB a call for the whole replay time (208 MB after 16 s at 2,000
//!   calls/s in our benchmark). rmcp's `LocalSessionManager` drops a request's stream
//!   at its answer; keeping the last few lets a client that resumes a POST stream
//!   broken just before the answer (SEP-1699) still find it.
//!
//! **Sleep.** rmcp's HTTP service still runs a service loop per session (a task, two
//! channels whose first blocks tokio allocates up front, the handler: about 36 KB), which
//! an idle session (a user away on a URL elicitation's page for minutes) does not need.
//! With [`LeanSessionManager::enable_hibernation`], a session idle for
//! [`LeanSessionConfig::hibernate_after`] with nothing in progress (no request
//! unanswered either way, nothing queued) is put to sleep: its handler's next receive
//! ends its loop; the session stays, with the standalone GET stream and its replay (the
//! answered calls' replay goes: a client resumes within seconds, not after this long),
//! and a URL elicitation's completion still reaches it (the hub sends it
//! through the session, `outlet.rs`, not through the handler). The client's next
//! message starts a new handler, given the client's `initialize` and
//! `notifications/initialized` first (their answers go nowhere), so it knows what the
//! client declared. A message that arrives while the old handler is leaving waits for
//! the new one; one that arrives before the old handler has left keeps it.
//!
//! What rmcp's HTTP service checks stays as it is (it calls this trait): the session id
//! on `initialize`, 404 for an unknown or ended session, the standalone GET stream
//! (a second GET while one is open gets a keep-alive-only shadow, as with rmcp),
//! `Last-Event-ID` resumption of a request's stream or of the standalone one, `DELETE`.
//! What differs: a reader too slow for [`LeanSessionConfig::replay_capacity`] events
//! loses the oldest (rmcp's bounded channels would instead hold the handler up), and
//! there is no restore from an external session store (`restore_session` is rmcp's
//! default: not supported, the caller answers 404).
//!
//! ```
//! use std::sync::Arc;
//! use mcp_elicit_server::{LeanSessionConfig, LeanSessionManager};
//!
//! let sessions = Arc::new(LeanSessionManager::new(LeanSessionConfig::default()));
//! assert_eq!(sessions.len(), 0);
//! // StreamableHttpService::new(factory, Arc::clone(&sessions), http_config)
//! ```

use std::collections::HashMap;
use std::sync::{Arc, OnceLock, RwLock, Weak};
use std::time::Duration;

use futures::Stream;
use rmcp::model::{ClientJsonRpcMessage, GetExtensions, JsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::common::server_side_http::session_id;
use rmcp::transport::streamable_http_server::session::{
    ServerSseMessage, SessionId, SessionManager,
};

mod event_id;
mod outlet;
mod session;
mod stream;
mod transport;

use event_id::EventId;
pub(crate) use outlet::SessionOutlet;
use session::{Handler, Session, SessionRef};
pub use stream::LeanEventStream;
pub use transport::LeanTransport;

/// Settings of a [`LeanSessionManager`]. [`LeanSessionConfig::default`] gives rmcp's
/// defaults.
///
/// ```
/// use std::time::Duration;
/// use mcp_elicit_server::LeanSessionConfig;
///
/// let c = LeanSessionConfig::default();
/// assert_eq!(c.keep_alive, Some(Duration::from_secs(300)));
/// assert_eq!(c.sse_retry, Some(Duration::from_secs(3)));
/// assert_eq!(c.completed_replay_ttl, Duration::from_secs(60));
/// assert_eq!(c.completed_replay_max, 8);
/// assert_eq!(c.replay_capacity, 16);
/// assert_eq!(c.hibernate_after, Some(Duration::from_secs(30)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct LeanSessionConfig {
    /// A session in which nothing happened (no message either way, no stream opened)
    /// for this long is closed; None: never. Default 5 minutes (rmcp's `keep_alive`).
    pub keep_alive: Option<Duration>,
    /// The `retry` of the priming event each request's stream starts with (SEP-1699);
    /// None: no priming event. Default 3 s.
    pub sse_retry: Option<Duration>,
    /// How long a request's events stay replayable after its answer (less when the
    /// session goes to sleep first, see `hibernate_after`). Default 60 s.
    pub completed_replay_ttl: Duration,
    /// How many answered requests' streams a session keeps replayable (the most recent;
    /// an answer no reader has taken yet is kept beyond this, for the replay time).
    /// Default 8.
    pub completed_replay_max: usize,
    /// The most events a stream keeps for its reader and for resumption. Default 16.
    pub replay_capacity: usize,
    /// A session idle this long with nothing in progress (no request unanswered either
    /// way) is put to sleep: its handler ends and its answered calls' replay goes, the
    /// session stays (the standalone GET stream and its replay) and the client's next
    /// message starts a new handler. Only once [`LeanSessionManager::enable_hibernation`] says how to start
    /// one. None: never. Default 30 s.
    pub hibernate_after: Option<Duration>,
}

impl Default for LeanSessionConfig {
    fn default() -> Self {
        LeanSessionConfig {
            keep_alive: Some(Duration::from_secs(300)),
            sse_retry: Some(Duration::from_secs(3)),
            completed_replay_ttl: Duration::from_secs(60),
            completed_replay_max: 8,
            replay_capacity: 16,
            hibernate_after: Some(Duration::from_secs(30)),
        }
    }
}

impl LeanSessionConfig {
    /// The same with `keep_alive`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_elicit_server::LeanSessionConfig;
    ///
    /// let never = LeanSessionConfig::default().with_keep_alive(None);
    /// assert_eq!(never.keep_alive, None);
    /// assert_eq!(never.replay_capacity, LeanSessionConfig::default().replay_capacity);
    /// let short = LeanSessionConfig::default().with_keep_alive(Some(Duration::from_secs(10)));
    /// assert_eq!(short.keep_alive, Some(Duration::from_secs(10)));
    /// ```
    pub fn with_keep_alive(mut self, keep_alive: Option<Duration>) -> Self {
        self.keep_alive = keep_alive;
        self
    }

    /// The same with `hibernate_after`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_elicit_server::LeanSessionConfig;
    ///
    /// let c = LeanSessionConfig::default().with_hibernate_after(Some(Duration::from_secs(5)));
    /// assert_eq!(c.hibernate_after, Some(Duration::from_secs(5)));
    /// assert_eq!(LeanSessionConfig::default().with_hibernate_after(None).hibernate_after, None);
    /// ```
    pub fn with_hibernate_after(mut self, hibernate_after: Option<Duration>) -> Self {
        self.hibernate_after = hibernate_after;
        self
    }
}

/// Starts a handler on a woken session's transport.
type Respawn = Arc<dyn Fn(LeanTransport) + Send + Sync>;
/// Shared by the manager and its sessions; set by
/// [`LeanSessionManager::enable_hibernation`].
type RespawnCell = Arc<OnceLock<Respawn>>;

struct Inner {
    config: LeanSessionConfig,
    sessions: RwLock<HashMap<SessionId, SessionRef>>,
    sweeper: OnceLock<()>,
    respawn: RespawnCell,
}

impl std::fmt::Debug for Inner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Inner")
            .field("config", &self.config)
            .field("hibernation", &self.respawn.get().is_some())
            .finish_non_exhaustive()
    }
}

impl Inner {
    /// `hibernate_after`, once sleeping sessions can be woken.
    fn hibernate_after(&self) -> Option<Duration> {
        self.config
            .hibernate_after
            .filter(|_| self.respawn.get().is_some())
    }

    /// How often the sweeper looks: a quarter of `keep_alive`, half of
    /// `hibernate_after`; None when it has nothing to do.
    fn sweep_tick(&self) -> Option<Duration> {
        let tick = match (self.config.keep_alive, self.hibernate_after()) {
            (None, None) => return None,
            (Some(k), None) => k / 4,
            (None, Some(h)) => h / 2,
            (Some(k), Some(h)) => (k / 4).min(h / 2),
        };
        Some(tick.clamp(Duration::from_millis(50), Duration::from_secs(30)))
    }

    fn get(&self, id: &SessionId) -> Option<SessionRef> {
        self.sessions
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(id)
            .filter(|s| !s.is_closed())
            .cloned()
    }

    fn remove(&self, id: &SessionId) -> Option<SessionRef> {
        self.sessions
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(id)
    }
}

/// rmcp's `SessionManager` without a task or channels per session (the module docs
/// of `lean_sessions` say why). Cheap to share behind an `Arc`.
///
/// Sessions are made and ended through rmcp's `SessionManager` trait (as rmcp's HTTP
/// service does on `initialize` and `DELETE`):
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use mcp_elicit_server::{LeanSessionConfig, LeanSessionManager};
/// use rmcp::transport::streamable_http_server::session::SessionManager as _;
///
/// let sessions = LeanSessionManager::new(LeanSessionConfig::default());
/// assert!(sessions.is_empty());
/// let (id, _transport) = sessions.create_session().await?;
/// assert_eq!(sessions.len(), 1);
/// assert_eq!(sessions.session_ids(), [id.clone()]);
/// assert!(sessions.has_session(&id).await?);
///
/// sessions.close_session(&id).await?;
/// assert!(sessions.is_empty());
/// assert!(!sessions.has_session(&id).await?);
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct LeanSessionManager {
    inner: Arc<Inner>,
}

impl Default for LeanSessionManager {
    fn default() -> Self {
        LeanSessionManager::new(LeanSessionConfig::default())
    }
}

impl LeanSessionManager {
    /// A manager with no session yet.
    ///
    /// ```
    /// use mcp_elicit_server::{LeanSessionConfig, LeanSessionManager};
    ///
    /// let sessions = LeanSessionManager::new(LeanSessionConfig::default().with_keep_alive(None));
    /// assert!(sessions.is_empty());
    /// assert_eq!(sessions.config().keep_alive, None);
    /// ```
    pub fn new(config: LeanSessionConfig) -> Self {
        LeanSessionManager {
            inner: Arc::new(Inner {
                config,
                sessions: RwLock::new(HashMap::new()),
                sweeper: OnceLock::new(),
                respawn: Arc::new(OnceLock::new()),
            }),
        }
    }

    /// Its settings.
    ///
    /// ```
    /// use mcp_elicit_server::{LeanSessionConfig, LeanSessionManager};
    ///
    /// assert_eq!(LeanSessionManager::default().config(), &LeanSessionConfig::default());
    /// ```
    pub fn config(&self) -> &LeanSessionConfig {
        &self.inner.config
    }

    /// How many sessions are open.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use mcp_elicit_server::LeanSessionManager;
    /// use rmcp::transport::streamable_http_server::session::SessionManager as _;
    ///
    /// let sessions = LeanSessionManager::default();
    /// assert_eq!(sessions.len(), 0);
    /// let (_a, _ta) = sessions.create_session().await?;
    /// let (_b, _tb) = sessions.create_session().await?;
    /// assert_eq!(sessions.len(), 2);
    /// # Ok(())
    /// # }
    /// ```
    pub fn len(&self) -> usize {
        self.inner
            .sessions
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .len()
    }

    /// Whether no session is open.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use mcp_elicit_server::LeanSessionManager;
    /// use rmcp::transport::streamable_http_server::session::SessionManager as _;
    ///
    /// let sessions = LeanSessionManager::default();
    /// assert!(sessions.is_empty());
    /// let (_id, _transport) = sessions.create_session().await?;
    /// assert!(!sessions.is_empty());
    /// # Ok(())
    /// # }
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The ids of the open sessions.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use mcp_elicit_server::LeanSessionManager;
    /// use rmcp::transport::streamable_http_server::session::SessionManager as _;
    ///
    /// let sessions = LeanSessionManager::default();
    /// let (a, _ta) = sessions.create_session().await?;
    /// let (b, _tb) = sessions.create_session().await?;
    /// let mut ids = sessions.session_ids();
    /// ids.sort();
    /// let mut expected = vec![a, b];
    /// expected.sort();
    /// assert_eq!(ids, expected);
    /// # Ok(())
    /// # }
    /// ```
    pub fn session_ids(&self) -> Vec<SessionId> {
        self.inner
            .sessions
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .keys()
            .cloned()
            .collect()
    }

    /// How many sessions are asleep (see [`LeanSessionConfig::hibernate_after`]).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use mcp_elicit_server::LeanSessionManager;
    /// use rmcp::transport::streamable_http_server::session::SessionManager as _;
    ///
    /// let sessions = LeanSessionManager::default();
    /// let (_id, _transport) = sessions.create_session().await?;
    /// assert_eq!(sessions.asleep(), 0); // its handler runs (or never answered `initialize`)
    /// # Ok(())
    /// # }
    /// ```
    pub fn asleep(&self) -> usize {
        self.inner
            .sessions
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .values()
            .filter(|s| s.handler() == Handler::Hibernated)
            .count()
    }

    /// Lets idle sessions sleep ([`LeanSessionConfig::hibernate_after`]): a sleeping
    /// session's handler (rmcp's service loop, its task and channels, and the handler
    /// itself: about 36 KB) is ended, and the client's next message gets a new one from
    /// `factory`, with the client's `initialize` replayed to it first (its answer is not
    /// sent). The session itself stays: its id, the standalone GET stream and its replay
    /// (its answered calls' replay goes), and what [`Elicitations`](crate::Elicitations)
    /// delivers on it (a URL elicitation's completion reaches a sleeping session).
    ///
    /// For handlers whose state lives outside them (the reference server's and any
    /// handler built on [`SessionScope`](crate::SessionScope)): a handler that keeps
    /// state of its own between requests (a log level, subscriptions, a task holding its
    /// `Peer`) would lose it. `factory` should be the one given to rmcp's
    /// `StreamableHttpService`; `ct` ends the woken handlers (give the service's token).
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_elicit_server::{LeanSessionConfig, LeanSessionManager};
    /// use rmcp::ServerHandler;
    /// use tokio_util::sync::CancellationToken;
    ///
    /// #[derive(Clone)]
    /// struct MyServer; // its state lives in a store
    /// impl ServerHandler for MyServer {}
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let config = LeanSessionConfig::default().with_hibernate_after(Some(Duration::from_secs(60)));
    /// let sessions = LeanSessionManager::new(config);
    /// sessions.enable_hibernation(|| Ok(MyServer), CancellationToken::new());
    /// // StreamableHttpService::new(|| Ok(MyServer), Arc::new(sessions), http_config)
    /// # }
    /// ```
    pub fn enable_hibernation<S, F>(&self, factory: F, ct: tokio_util::sync::CancellationToken)
    where
        S: rmcp::ServerHandler,
        F: Fn() -> Result<S, std::io::Error> + Send + Sync + 'static,
    {
        if self.inner.config.hibernate_after.is_none() {
            return;
        }
        let respawn: Respawn = Arc::new(move |transport: LeanTransport| {
            let service = match factory() {
                Ok(s) => s,
                Err(e) => {
                    // Dropping the transport ends the session: nobody can answer it.
                    tracing::warn!(error = %e, "cannot wake a session: no handler");
                    return;
                }
            };
            let ct = ct.child_token();
            tokio::spawn(async move {
                match rmcp::service::serve_server_with_ct::<
                    S,
                    LeanTransport,
                    _,
                    rmcp::transport::TransportAdapterIdentity,
                >(service, transport, ct)
                .await
                {
                    Ok(running) => {
                        let _ = running.waiting().await;
                    }
                    Err(e) => tracing::warn!(error = %e, "a woken session's handler failed"),
                }
            });
        });
        let _ = self.inner.respawn.set(respawn);
        self.start_sweeper();
    }

    /// Starts (once) the task closing sessions idle past `keep_alive` and putting those
    /// idle past `hibernate_after` to sleep; it ends with the manager.
    fn start_sweeper(&self) {
        if self.inner.sweep_tick().is_none() {
            return;
        }
        self.inner.sweeper.get_or_init(|| {
            let weak: Weak<Inner> = Arc::downgrade(&self.inner);
            tokio::spawn(async move {
                loop {
                    // Decided again each time: sleep may be enabled after the first session (it
                    // counts from the next tick).
                    let tick = match weak.upgrade().map(|inner| inner.sweep_tick()) {
                        Some(Some(tick)) => tick,
                        _ => return,
                    };
                    tokio::time::sleep(tick).await;
                    let Some(inner) = weak.upgrade() else { return };
                    let keep_alive = inner.config.keep_alive;
                    let hibernate_after = inner.hibernate_after();
                    let idle: Vec<SessionRef> = inner
                        .sessions
                        .read()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .values()
                        .filter(|s| {
                            // Replays past their time go even in sessions that stay.
                            s.evict_expired();
                            let ended =
                                s.is_closed() || keep_alive.is_some_and(|k| s.idle_for() >= k);
                            if !ended
                                && let Some(after) = hibernate_after
                                && s.try_hibernate(after)
                            {
                                tracing::debug!("session idle: its handler sleeps");
                            }
                            ended
                        })
                        .cloned()
                        .collect();
                    for session in idle {
                        tracing::debug!(id = %session.id(), "session idle past keep_alive: closed");
                        inner.remove(session.id());
                        session.close();
                    }
                }
            });
        });
    }

    fn session(&self, id: &SessionId) -> Result<SessionRef, std::io::Error> {
        self.inner.get(id).ok_or_else(|| not_found(id))
    }
}

fn not_found(id: &SessionId) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::NotFound,
        format!("session not found: {id}"),
    )
}

fn closed(id: &SessionId) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::BrokenPipe,
        format!("session closed: {id}"),
    )
}

impl SessionManager for LeanSessionManager {
    type Error = std::io::Error;
    type Transport = LeanTransport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        self.start_sweeper();
        let id = session_id();
        let session = Arc::new(Session::new(
            id.clone(),
            self.inner.config.clone(),
            Arc::clone(&self.inner.respawn),
        ));
        self.inner
            .sessions
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(id.clone(), Arc::clone(&session));
        Ok((id, LeanTransport::new(session, 1)))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        let session = self.session(id)?;
        let JsonRpcMessage::Request(request) = &message else {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "the first message of a session must be the initialize request",
            ));
        };
        let answer = session
            .initialize(request.id.clone(), message)
            .ok_or_else(|| closed(id))?;
        answer.await.map_err(|_| closed(id))
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        Ok(self.inner.get(id).is_some())
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        if let Some(session) = self.inner.get(id)
            && session.take_ignored_close()
        {
            // rmcp's worker, after the session's first handler went to sleep.
            return Ok(());
        }
        if let Some(session) = self.inner.remove(id) {
            session.close();
        }
        Ok(())
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        mut message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let session = self.session(id)?;
        if let JsonRpcMessage::Request(r) = &mut message {
            // The hub's way to the client that outlives this handler.
            r.request
                .extensions_mut()
                .insert(SessionOutlet::new(&session));
        }
        let cursor = session.open_request(message).ok_or_else(|| closed(id))?;
        Ok(LeanEventStream::reader(session, cursor))
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        let session = self.session(id)?;
        if session.accept(message) {
            Ok(())
        } else {
            Err(closed(id))
        }
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let session = self.session(id)?;
        match session.open_common(None).ok_or_else(|| closed(id))? {
            Ok(cursor) => Ok(LeanEventStream::reader(session, cursor)),
            Err(shadow) => Ok(LeanEventStream::shadow(session, shadow)),
        }
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let session = self.session(id)?;
        let invalid = || {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "Last-Event-ID names no stream of this session",
            )
        };
        match EventId::parse(&last_event_id).ok_or_else(invalid)? {
            EventId::Request { stream, index } => match session.resume_request(stream, index) {
                Some(cursor) => Ok(LeanEventStream::reader(session, cursor)),
                None => Err(invalid()),
            },
            EventId::Common { index } => {
                match session.open_common(Some(index)).ok_or_else(|| closed(id))? {
                    Ok(cursor) => Ok(LeanEventStream::reader(session, cursor)),
                    Err(shadow) => Ok(LeanEventStream::shadow(session, shadow)),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
