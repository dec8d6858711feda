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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompletionNotice {
    /// The `elicitationId` to put in `notifications/elicitation/complete`.
    pub elicitation_id: String,
    /// The session whose connection must receive it.
    pub session: SessionKey,
}

/// The notices a subscriber receives, in publication order per publisher. An `Err` item
/// reports a gap or a broken connection; the stream ends when the bus closes.
pub type CompletionStream = BoxStream<'static, Result<CompletionNotice, Error>>;

/// Carries completion notices from the node that completed an elicitation to the node
/// holding the client's connection.
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
