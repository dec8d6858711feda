//! Cross-node delivery of completion notifications.
//!
//! With several server nodes behind a load balancer, the durable [`Store`](crate::Store)
//! holds the pending elicitations, but the client's live connection (the only way to send
//! `notifications/elicitation/complete` to it) exists on exactly one node. The out-of-band
//! page that finishes a URL elicitation may be served by any node. So the node that
//! completes the elicitation in the store publishes a [`CompletionNotice`] on a
//! [`CompletionBus`]; every node subscribes and delivers the notices for the sessions it
//! holds, ignoring the rest.
//!
//! The store transition (`Accepted -> Completed`, a single conditional statement) is what
//! makes completion at-most-once; the bus only carries the already-decided outcome. A
//! notice that arrives while no node holds the session (the client reconnected
//! elsewhere, or a listener was reconnecting) is lost: the notification is optional in
//! the specification, and the client may retry its request. See `docs/deployment.md`.

mod memory;
mod postgres;

use std::time::Duration;

use futures::FutureExt;
use futures::future::BoxFuture;
use futures::stream::{BoxStream, StreamExt};
use mcp_elicit_server::{CompletionRelay, Elicitations, SessionKey};

pub use memory::MemoryBus;
pub use postgres::{DEFAULT_NOTIFY_CHANNEL, PgCompletionBus};

use crate::error::Error;

/// One completed URL elicitation, addressed to the client session it was sent on.
///
/// ```
/// use mcp_elicit_server::SessionKey;
/// use mcp_elicit_store::CompletionNotice;
///
/// // What a node publishes after completing elicitation e1 in the shared store.
/// let notice = CompletionNotice {
///     elicitation_id: "e1".to_owned(),
///     session: SessionKey::from_stored("connection-1"),
/// };
/// assert_eq!(notice.session.as_str(), "connection-1");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompletionNotice {
    /// The `elicitationId` to put in `notifications/elicitation/complete`.
    pub elicitation_id: String,
    /// The session whose connection must receive it.
    pub session: SessionKey,
}

/// The notices a subscriber receives, in publication order per publisher. An `Err` item
/// reports a gap or a broken connection; the stream ends when the bus closes.
///
/// ```
/// use futures::StreamExt;
/// use mcp_elicit_server::SessionKey;
/// use mcp_elicit_store::{CompletionBus, CompletionNotice, Error, MemoryBus};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let bus = MemoryBus::new(1); // room for one notice per slow subscriber
/// let mut notices = bus.subscribe().await?;
/// for id in ["e1", "e2", "e3"] {
///     let notice = CompletionNotice {
///         elicitation_id: id.to_owned(),
///         session: SessionKey::from_stored("connection-1"),
///     };
///     bus.publish(&notice).await?;
/// }
/// // Fell behind: an error item says how many were lost, then the stream goes on.
/// let gap = notices.next().await.expect("an item");
/// assert!(matches!(gap, Err(Error::Bus(m)) if m.contains("2 notices lost")));
/// assert_eq!(notices.next().await.expect("an item")?.elicitation_id, "e3");
/// # Ok(())
/// # }
/// ```
pub type CompletionStream = BoxStream<'static, Result<CompletionNotice, Error>>;

/// Carries completion notices from the node that completed an elicitation to the node
/// holding the client's connection.
///
/// ```
/// use futures::StreamExt;
/// use mcp_elicit_server::SessionKey;
/// use mcp_elicit_store::{CompletionBus, CompletionNotice, MemoryBus};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let bus = MemoryBus::default();
/// let notice = CompletionNotice {
///     elicitation_id: "e1".to_owned(),
///     session: SessionKey::from_stored("connection-1"),
/// };
/// // Nobody subscribed: not an error, and nothing is kept for later subscribers.
/// bus.publish(&notice).await?;
///
/// let mut node_a = bus.subscribe().await?;
/// let mut node_b = bus.subscribe().await?;
/// bus.publish(&notice).await?;
/// // Every subscriber (every node) gets it; only the one holding the session acts on it.
/// assert_eq!(node_a.next().await.expect("a notice")?, notice);
/// assert_eq!(node_b.next().await.expect("a notice")?, notice);
/// # Ok(())
/// # }
/// ```
pub trait CompletionBus: Send + Sync + 'static {
    /// Sends `notice` to every current subscriber (on every node).
    fn publish<'a>(&'a self, notice: &'a CompletionNotice) -> BoxFuture<'a, Result<(), Error>>;

    /// Starts receiving notices published from now on.
    fn subscribe(&self) -> BoxFuture<'_, Result<CompletionStream, Error>>;
}

/// Publishes on `bus` (what [`CompletionRelay`] asks of the buses below).
async fn relay_on(
    bus: &dyn CompletionBus,
    elicitation_id: &str,
    session: &SessionKey,
) -> Result<(), String> {
    let notice = CompletionNotice {
        elicitation_id: elicitation_id.to_owned(),
        session: session.clone(),
    };
    bus.publish(&notice).await.map_err(|e| e.to_string())
}

impl CompletionRelay for MemoryBus {
    fn relay<'a>(
        &'a self,
        elicitation_id: &'a str,
        session: &'a SessionKey,
    ) -> BoxFuture<'a, Result<(), String>> {
        relay_on(self, elicitation_id, session).boxed()
    }
}

impl CompletionRelay for PgCompletionBus {
    fn relay<'a>(
        &'a self,
        elicitation_id: &'a str,
        session: &'a SessionKey,
    ) -> BoxFuture<'a, Result<(), String>> {
        relay_on(self, elicitation_id, session).boxed()
    }
}

/// How long [`deliver_notices`] waits before subscribing again after a failure.
const RESUBSCRIBE_AFTER: Duration = Duration::from_secs(1);

/// Runs one node's side of the bus: every notice published (by any node, this one
/// included) goes to `hub`'s [`Elicitations::deliver_completion`], which sends it only to
/// a connection this node holds for that elicitation and session. A broken subscription
/// is logged and subscribed again after a second (notices published meanwhile are lost;
/// see the module documentation). Runs until the task is dropped or aborted.
///
/// Pair it with `hub.set_relay(bus)` so that completions this node cannot deliver are
/// published.
///
/// Two nodes sharing one store and one bus (here in one process): node 2 completes an
/// elicitation whose client connection node 1 holds, so it publishes the notice, and node
/// 1's `deliver_notices` hands it to its registry:
///
/// ```
/// # use std::time::{Duration, SystemTime};
/// # use mcp_elicit_server::mcp_elicit_core::lifecycle::State;
/// # use mcp_elicit_server::{Mode, PendingElicitation, SessionKey};
/// use std::sync::Arc;
///
/// use futures::StreamExt;
/// use mcp_elicit_server::{
///     ElicitationConfig, ElicitationStore, Elicitations, IdentityPolicy, Principal, SystemClock,
/// };
/// use mcp_elicit_store::{CompletionBus, MemoryBus, Store, deliver_notices};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let store = Store::connect("sqlite::memory:").await?;
/// let config = ElicitationConfig::new(IdentityPolicy::Authenticated);
/// let node = || {
///     Elicitations::with_store(
///         config.clone(),
///         Arc::new(store.clone()) as Arc<dyn ElicitationStore>,
///         Arc::new(SystemClock),
///     )
/// };
/// let (node1, node2) = (node(), node());
/// let bus = MemoryBus::default();
/// for hub in [&node1, &node2] {
///     hub.set_relay(Arc::new(bus.clone()));
/// }
/// let runner = {
///     let (bus, node1) = (bus.clone(), node1.clone());
///     tokio::spawn(async move { deliver_notices(&bus, &node1).await })
/// };
/// # let alice = Principal::authenticated("https://auth.example.com", "alice");
/// # let now = SystemTime::now();
/// # // What `Ask::url` on node 1 stored for alice's request on connection-1:
/// # store.insert(PendingElicitation {
/// #     id: "e1".to_owned(),
/// #     principal: alice.clone(),
/// #     session: SessionKey::from_stored("connection-1"),
/// #     mode: Mode::Url,
/// #     state: State::Accepted,
/// #     message: "Connect your calendar".to_owned(),
/// #     url: Some("https://mcp.example.com/connect?elicitationId=e1".to_owned()),
/// #     created_at: now,
/// #     expires_at: now + Duration::from_secs(3600),
/// #     app_data: None,
/// # }).await?;
/// let mut watch = bus.subscribe().await?;
///
/// // The page, served by node 2: not its connection, so the notice goes on the bus.
/// let done = node2.complete(&alice, "e1").await?;
/// assert!(!done.notified);
/// let notice = watch.next().await.expect("published")?;
/// assert_eq!((notice.elicitation_id.as_str(), &notice.session), ("e1", &done.session));
/// runner.abort();
/// # Ok(())
/// # }
/// ```
pub async fn deliver_notices(bus: &dyn CompletionBus, hub: &Elicitations) {
    loop {
        match bus.subscribe().await {
            Ok(mut notices) => {
                while let Some(item) = notices.next().await {
                    match item {
                        Ok(notice) => {
                            let sent = hub
                                .deliver_completion(&notice.elicitation_id, &notice.session)
                                .await;
                            tracing::debug!(elicitation_id = %notice.elicitation_id, sent, "completion notice");
                        }
                        Err(e) => tracing::warn!(error = %e, "completion bus"),
                    }
                }
                tracing::warn!("the completion bus subscription ended; subscribing again");
            }
            Err(e) => tracing::warn!(error = %e, "cannot subscribe to the completion bus"),
        }
        tokio::time::sleep(RESUBSCRIBE_AFTER).await;
    }
}
