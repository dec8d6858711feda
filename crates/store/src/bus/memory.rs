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
#[derive(Debug, Clone)]
pub struct MemoryBus {
    sender: broadcast::Sender<CompletionNotice>,
}

impl MemoryBus {
    /// A bus buffering up to `capacity` notices per slow subscriber (at least 1).
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
