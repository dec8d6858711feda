//! The in-process [`CompletionBus`]: one server process, several tasks.

use futures::FutureExt;
use futures::future::{BoxFuture, ready};
use futures::stream::{self, StreamExt};
use tokio::sync::broadcast;

use super::{CompletionBus, CompletionNotice, CompletionStream};
use crate::error::Error;

/// A broadcast channel: every subscriber gets every notice published after it
/// subscribed; a subscriber more than `capacity` notices behind gets an error item
/// saying how many it missed, then continues.
///
/// ```
/// use mcp_elicit_server::Elicitations;
/// use mcp_elicit_store::MemoryBus;
/// use std::sync::Arc;
///
/// // One process, several tasks: the registry relays to it, a task delivers from it.
/// let hub = Elicitations::local();
/// let bus = MemoryBus::default(); // buffers 1024 notices per slow subscriber
/// assert!(hub.set_relay(Arc::new(bus.clone())));
/// assert!(!hub.set_relay(Arc::new(bus))); // once per registry
/// ```
#[derive(Debug, Clone)]
pub struct MemoryBus {
    sender: broadcast::Sender<CompletionNotice>,
}

impl MemoryBus {
    /// A bus buffering up to `capacity` notices per slow subscriber (at least 1).
    ///
    /// ```
    /// use futures::StreamExt;
    /// use mcp_elicit_server::SessionKey;
    /// use mcp_elicit_store::{CompletionBus, CompletionNotice, MemoryBus};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let bus = MemoryBus::new(0); // taken as 1
    /// let mut notices = bus.subscribe().await?;
    /// let notice = CompletionNotice {
    ///     elicitation_id: "e1".to_owned(),
    ///     session: SessionKey::from_stored("connection-1"),
    /// };
    /// bus.publish(&notice).await?;
    /// assert_eq!(notices.next().await.expect("a notice")?, notice);
    /// # Ok(())
    /// # }
    /// ```
    pub fn new(capacity: usize) -> Self {
        let (sender, _) = broadcast::channel(capacity.max(1));
        Self { sender }
    }
}

impl Default for MemoryBus {
    fn default() -> Self {
        Self::new(1024)
    }
}

impl CompletionBus for MemoryBus {
    fn publish<'a>(&'a self, notice: &'a CompletionNotice) -> BoxFuture<'a, Result<(), Error>> {
        // No subscriber is not an error: no node holds that session right now.
        let _ = self.sender.send(notice.clone());
        ready(Ok(())).boxed()
    }

    fn subscribe(&self) -> BoxFuture<'_, Result<CompletionStream, Error>> {
        let receiver = self.sender.subscribe();
        let stream = stream::unfold(receiver, |mut receiver| async move {
            match receiver.recv().await {
                Ok(notice) => Some((Ok(notice), receiver)),
                Err(broadcast::error::RecvError::Lagged(missed)) => Some((
                    Err(Error::Bus(format!(
                        "subscriber fell behind: {missed} notices lost"
                    ))),
                    receiver,
                )),
                Err(broadcast::error::RecvError::Closed) => None,
            }
        });
        ready(Ok(stream.boxed())).boxed()
    }
}
