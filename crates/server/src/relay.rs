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
///
/// An implementation over your own message bus (here a channel standing for it); every
/// node gives what it receives to [`Elicitations::deliver_completion`](crate::Elicitations::deliver_completion):
///
/// ```
/// use futures::future::{BoxFuture, FutureExt};
/// use mcp_elicit_server::{CompletionRelay, SessionKey};
/// use tokio::sync::mpsc;
///
/// struct Bus(mpsc::UnboundedSender<(String, String)>);
///
/// impl CompletionRelay for Bus {
///     fn relay<'a>(
///         &'a self,
///         elicitation_id: &'a str,
///         session: &'a SessionKey,
///     ) -> BoxFuture<'a, Result<(), String>> {
///         let notice = (elicitation_id.to_owned(), session.as_str().to_owned());
///         let sent = self.0.send(notice).map_err(|_| "the bus is closed".to_owned());
///         async move { sent }.boxed()
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let (tx, mut rx) = mpsc::unbounded_channel();
/// let bus = Bus(tx);
/// let session = SessionKey::from_stored("session-1");
/// bus.relay("elicitation-1", &session).await.unwrap();
/// // On every node: hub.deliver_completion(&id, &SessionKey::from_stored(session)).await
/// assert_eq!(rx.recv().await, Some(("elicitation-1".into(), "session-1".into())));
/// # }
/// ```
pub trait CompletionRelay: Send + Sync + 'static {
    /// Sends the notice; an error is logged by the caller (the completion stands).
    fn relay<'a>(
        &'a self,
        elicitation_id: &'a str,
        session: &'a SessionKey,
    ) -> BoxFuture<'a, Result<(), String>>;
}
