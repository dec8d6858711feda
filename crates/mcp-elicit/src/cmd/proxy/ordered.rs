//! The upstream's progress passed on in order, and before the result it preceded.
//!
//! rmcp hands each incoming notification to a task of its own and each response to the
//! request waiting on it, so a proxy that passed progress on from its handler could reorder
//! the upstream's progress (2 before 1, which a client reads as progress going back) and
//! pass the result on before the last of it (the conformance suite's
//! `tools-call-with-progress` counts three of three; through the proxy it saw two, about
//! one run in ten on a busy machine). [`Ordered`] takes the progress notifications out of
//! the upstream's stream as the transport reads them and hands them, in that order, to one
//! forwarder per connection; [`ProgressOrder`] counts them in and out, and a forwarded
//! request waits, before its result goes downstream, until every progress received before
//! it was passed on ([`ProgressOrder::settled`], bounded by [`SETTLE_LIMIT`] so a stuck
//! client does not hold a result for ever).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::RoleClient;
use rmcp::model::{
    ProgressNotificationParam, ProgressToken, ServerJsonRpcMessage, ServerNotification,
};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::sync::{Notify, mpsc};

use super::link::Link;
use super::upstream::forward_progress;

/// The longest a result waits for the progress that came before it.
pub(crate) const SETTLE_LIMIT: Duration = Duration::from_secs(2);

/// Progress notifications received and passed on, per upstream progress token.
#[derive(Debug, Default)]
pub(crate) struct ProgressOrder {
    /// Token -> (received, passed on); an entry goes when the two agree.
    counts: Mutex<HashMap<ProgressToken, (u64, u64)>>,
    changed: Notify,
}

impl ProgressOrder {
    /// A progress notification for `token` was handed to rmcp.
    pub(crate) fn received(&self, token: &ProgressToken) {
        let mut counts = lock(&self.counts);
        counts.entry(token.clone()).or_default().0 += 1;
    }

    /// A progress notification for `token` was passed on (or dropped): its handling ended.
    pub(crate) fn handled(&self, token: &ProgressToken) {
        {
            let mut counts = lock(&self.counts);
            let Some(entry) = counts.get_mut(token) else {
                return;
            };
            entry.1 += 1;
            if entry.1 >= entry.0 {
                counts.remove(token);
            }
        }
        self.changed.notify_waiters();
    }

    /// Forgets every count (a new upstream connection numbers its tokens afresh).
    pub(crate) fn reset(&self) {
        lock(&self.counts).clear();
        self.changed.notify_waiters();
    }

    fn pending(&self, token: &ProgressToken) -> bool {
        lock(&self.counts).contains_key(token)
    }

    /// Waits until every progress notification received so far for `token` was handled,
    /// at most [`SETTLE_LIMIT`].
    pub(crate) async fn settled(&self, token: &ProgressToken) {
        let wait = async {
            loop {
                let changed = self.changed.notified();
                tokio::pin!(changed);
                changed.as_mut().enable();
                if !self.pending(token) {
                    return;
                }
                changed.await;
            }
        };
        if tokio::time::timeout(SETTLE_LIMIT, wait).await.is_err() {
            tracing::debug!("the upstream's progress was not passed on in time");
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Progress notifications waiting for the forwarder: reading the upstream waits when it
/// is this far behind.
const QUEUE: usize = 64;

/// A client transport that takes the upstream's progress notifications out of its stream
/// and passes them on in order (see the [module docs](self)).
#[derive(Debug)]
pub(crate) struct Ordered<T> {
    inner: T,
    order: Arc<ProgressOrder>,
    progress: mpsc::Sender<ProgressNotificationParam>,
}

impl<T> Ordered<T> {
    /// Wraps `inner`, the transport of `link`'s upstream connection, and starts its
    /// forwarder (it ends with the transport).
    pub(crate) fn new(inner: T, link: &Arc<Link>) -> Self {
        let (progress, mut queue) = mpsc::channel::<ProgressNotificationParam>(QUEUE);
        let order = link.progress_order.clone();
        let link = Arc::downgrade(link);
        let counted = order.clone();
        tokio::spawn(async move {
            while let Some(params) = queue.recv().await {
                let token = params.progress_token.clone();
                if let Some(link) = link.upgrade() {
                    forward_progress(&link, params).await;
                }
                counted.handled(&token);
            }
        });
        Self {
            inner,
            order,
            progress,
        }
    }
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Ordered<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        loop {
            let message = self.inner.receive().await?;
            let ServerJsonRpcMessage::Notification(n) = message else {
                return Some(message);
            };
            let ServerNotification::ProgressNotification(p) = n.notification else {
                return Some(ServerJsonRpcMessage::Notification(n));
            };
            self.order.received(&p.params.progress_token);
            if let Err(lost) = self.progress.send(p.params).await {
                // The forwarder is gone (the runtime is shutting down): not waited for.
                self.order.handled(&lost.0.progress_token);
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.inner.close().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::NumberOrString;

    fn token(n: i64) -> ProgressToken {
        ProgressToken(NumberOrString::Number(n))
    }

    #[tokio::test(start_paused = true)]
    async fn a_result_waits_for_the_progress_received_before_it() {
        let order = Arc::new(ProgressOrder::default());
        order.received(&token(1));
        order.received(&token(1));
        order.received(&token(2));
        let waiting = tokio::spawn({
            let order = order.clone();
            async move { order.settled(&token(1)).await }
        });
        tokio::task::yield_now().await;
        order.handled(&token(1));
        tokio::task::yield_now().await;
        assert!(
            !waiting.is_finished(),
            "one of two is still being passed on"
        );
        order.handled(&token(1));
        tokio::time::timeout(Duration::from_millis(1), waiting)
            .await
            .expect("settled once both were passed on")
            .unwrap();
        // Another token's progress does not hold this one, and is still counted.
        tokio::time::timeout(Duration::from_millis(1), order.settled(&token(3)))
            .await
            .expect("nothing received for token 3");
        assert!(order.pending(&token(2)));
    }

    #[tokio::test(start_paused = true)]
    async fn a_progress_never_passed_on_holds_the_result_only_for_the_limit() {
        let order = ProgressOrder::default();
        order.received(&token(1));
        let start = tokio::time::Instant::now();
        order.settled(&token(1)).await;
        assert_eq!(start.elapsed(), SETTLE_LIMIT);
        order.reset();
        assert!(!order.pending(&token(1)));
    }
}
