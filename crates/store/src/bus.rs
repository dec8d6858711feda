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

use futures::future::BoxFuture;
use futures::stream::BoxStream;
use mcp_elicit_server::SessionKey;

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
