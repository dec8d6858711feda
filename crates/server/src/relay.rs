//! [`CompletionRelay`]: how a node hands a completion it cannot deliver itself to the
//! node that holds the client's connection.
//!
//! With several server nodes behind a load balancer, the out-of-band page that finishes a
//! URL elicitation may be served by one node while the client's connection (the only way
//! to send `notifications/elicitation/complete`) lives on another. Give every node's
//! [`Elicitations`](crate::Elicitations) the same relay
//! ([`Elicitations::set_relay`](crate::Elicitations::set_relay)), for example
//! `mcp-elicit-store`'s PostgreSQL bus, and on every node feed what the relay carries to
//! [`Elicitations::deliver_completion`](crate::Elicitations::deliver_completion).
//!
//! The relay only carries an outcome the shared store already decided (at most once);
//! losing a notice costs the notification, never the completion: the client's retry of
//! its request is the recovery path, as the specification intends.

use futures::future::BoxFuture;

use crate::identity::SessionKey;

/// Carries a completion notice (elicitation id and client session) to the other nodes.
pub trait CompletionRelay: Send + Sync + 'static {
    /// Sends the notice; an error is logged by the caller (the completion stands).
    fn relay<'a>(
        &'a self,
        elicitation_id: &'a str,
        session: &'a SessionKey,
    ) -> BoxFuture<'a, Result<(), String>>;
}
