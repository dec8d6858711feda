//! The URL elicitations of one connection and their completion.
//!
//! Servers MAY send `notifications/elicitation/complete` when an out-of-band interaction
//! finishes. Clients MUST ignore notifications for unknown or already-completed ids.
//! The registry knows an id once the server has sent it in a URL-mode request or in a
//! -32042 error on this connection; a notification for a known, pending id resolves its
//! waiters exactly once; anything else is ignored. When the connection closes, every
//! waiter ends with [`WaitError::Disconnected`] so nothing hangs.
//!
//! Memory is bounded: at most [`CompletionRegistry::DEFAULT_CAPACITY`] ids are tracked;
//! when full, the oldest completed ids are forgotten first, then the oldest pending ones
//! (their waiters end with [`WaitError::Evicted`]).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::watch;

/// Why waiting for a completion ended without one.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use mcp_elicit_client::{CompletionRegistry, WaitError};
///
/// // A full registry forgets the oldest pending id to make room.
/// let registry = CompletionRegistry::with_capacity(1);
/// let mut first = registry.register("el-1");
/// let _second = registry.register("el-2");
/// assert_eq!(first.wait().await, Err(WaitError::Evicted));
///
/// registry.close();
/// assert_eq!(registry.register("el-3").wait().await, Err(WaitError::Disconnected));
/// assert_eq!(
///     WaitError::Disconnected.to_string(),
///     "the connection closed before the elicitation completed"
/// );
/// # }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum WaitError {
    /// The connection closed.
    #[error("the connection closed before the elicitation completed")]
    Disconnected,
    /// The registry was full and forgot this id.
    #[error("too many pending elicitations; this one is no longer tracked")]
    Evicted,
}

/// What a notification did (see [`CompletionRegistry::complete`]). Only
/// [`Completed`](Self::Completed) reaches the user, as
/// [`Notice::Completed`](crate::Notice::Completed); the rest is ignored, as the
/// specification requires.
///
/// ```
/// use mcp_elicit_client::{CompleteOutcome, CompletionRegistry};
///
/// let registry = CompletionRegistry::default();
/// assert_eq!(registry.complete("never-sent"), CompleteOutcome::UnknownId);
/// let _waiter = registry.register("el-1");
/// assert_eq!(registry.complete("el-1"), CompleteOutcome::Completed);
/// assert_eq!(registry.complete("el-1"), CompleteOutcome::AlreadyCompleted);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompleteOutcome {
    /// A pending id completed; its waiters were woken.
    Completed,
    /// The id was never sent on this connection: ignored.
    UnknownId,
    /// The id had already completed: ignored.
    AlreadyCompleted,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Pending,
    Completed,
    Failed(WaitError),
}

#[derive(Debug)]
struct Entry {
    tx: watch::Sender<Status>,
}

#[derive(Debug, Default)]
struct Inner {
    entries: HashMap<String, Entry>,
    order: VecDeque<String>,
    closed: bool,
}

/// The URL elicitations of one connection.
///
/// Register an id when the server sends it, before showing the URL; feed every
/// `notifications/elicitation/complete` to [`complete`](Self::complete):
///
/// ```
/// use mcp_elicit_client::registry::{CompleteOutcome, CompletionRegistry, WaitError};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let registry = CompletionRegistry::default();
/// let mut waiter = registry.register("el-1"); // the server sent `el-1`
///
/// // Only ids this connection was given complete, and only once.
/// assert_eq!(registry.complete("el-2"), CompleteOutcome::UnknownId);
/// assert_eq!(registry.complete("el-1"), CompleteOutcome::Completed);
/// assert_eq!(registry.complete("el-1"), CompleteOutcome::AlreadyCompleted);
/// assert_eq!(waiter.wait().await, Ok(()));
///
/// // A connection that closes ends every wait: nothing hangs.
/// let mut pending = registry.register("el-3");
/// registry.close();
/// assert_eq!(pending.wait().await, Err(WaitError::Disconnected));
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct CompletionRegistry {
    inner: Arc<Mutex<Inner>>,
    capacity: usize,
}

impl Default for CompletionRegistry {
    fn default() -> Self {
        Self::with_capacity(Self::DEFAULT_CAPACITY)
    }
}

/// Resolves when one elicitation completes; made by [`CompletionRegistry::register`].
/// Several waiters on one id all resolve.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use mcp_elicit_client::CompletionRegistry;
///
/// let registry = CompletionRegistry::default();
/// let mut waiter = registry.register("el-1");
/// let mut other = registry.register("el-1");
/// let task = tokio::spawn(async move { waiter.wait().await });
/// registry.complete("el-1");
/// assert_eq!(task.await.unwrap(), Ok(()));
/// assert!(other.is_completed());
/// assert_eq!(other.wait().await, Ok(())); // already completed: returns at once
/// # }
/// ```
#[derive(Debug)]
pub struct CompletionWaiter {
    id: String,
    rx: watch::Receiver<Status>,
}

impl CompletionWaiter {
    /// The elicitation id.
    ///
    /// ```
    /// let registry = mcp_elicit_client::CompletionRegistry::default();
    /// assert_eq!(registry.register("el-1").id(), "el-1");
    /// ```
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Waits for the completion notification: `Ok` once the id completed (also when it
    /// had before this call), an error when the connection closed or the registry forgot
    /// the id. Never hangs past [`CompletionRegistry::close`].
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// use mcp_elicit_client::{CompletionRegistry, WaitError};
    ///
    /// let registry = CompletionRegistry::default();
    /// let mut waiter = registry.register("el-1");
    /// let closer = registry.clone(); // what the transport does when the server goes away
    /// tokio::spawn(async move { closer.close() });
    /// assert_eq!(waiter.wait().await, Err(WaitError::Disconnected));
    /// # }
    /// ```
    pub async fn wait(&mut self) -> Result<(), WaitError> {
        loop {
            match *self.rx.borrow_and_update() {
                Status::Completed => return Ok(()),
                Status::Failed(e) => return Err(e),
                Status::Pending => {}
            }
            if self.rx.changed().await.is_err() {
                // The entry was dropped without a verdict: the registry forgot it.
                return Err(WaitError::Evicted);
            }
        }
    }

    /// Whether it completed already (without waiting).
    ///
    /// ```
    /// let registry = mcp_elicit_client::CompletionRegistry::default();
    /// let waiter = registry.register("el-1");
    /// assert!(!waiter.is_completed());
    /// registry.complete("el-1");
    /// assert!(waiter.is_completed());
    /// ```
    pub fn is_completed(&self) -> bool {
        *self.rx.borrow() == Status::Completed
    }
}

impl CompletionRegistry {
    /// Default bound on tracked ids (what [`Default`] uses).
    ///
    /// ```
    /// use mcp_elicit_client::CompletionRegistry;
    ///
    /// assert_eq!(CompletionRegistry::DEFAULT_CAPACITY, 1024);
    /// let registry = CompletionRegistry::default();
    /// let waiters: Vec<_> = (0..2000).map(|i| registry.register(&format!("el-{i}"))).collect();
    /// assert_eq!(registry.len(), CompletionRegistry::DEFAULT_CAPACITY);
    /// assert!(!registry.is_pending("el-0") && registry.is_pending("el-1999"));
    /// # drop(waiters);
    /// ```
    pub const DEFAULT_CAPACITY: usize = 1024;

    /// A registry tracking at most `capacity` ids (at least 1). When full, the oldest
    /// completed id is forgotten first, else the oldest pending one (its waiters end with
    /// [`WaitError::Evicted`]).
    ///
    /// ```
    /// use mcp_elicit_client::{CompleteOutcome, CompletionRegistry};
    ///
    /// let registry = CompletionRegistry::with_capacity(2);
    /// let _a = registry.register("a");
    /// registry.complete("a");
    /// let _b = registry.register("b");
    /// let _c = registry.register("c"); // full: forgets completed "a", keeps pending "b"
    /// assert_eq!(registry.complete("a"), CompleteOutcome::UnknownId);
    /// assert!(registry.is_pending("b") && registry.is_pending("c"));
    ///
    /// assert_eq!(CompletionRegistry::with_capacity(0).register("x").id(), "x"); // 0 means 1
    /// ```
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            inner: Arc::default(),
            capacity: capacity.max(1),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        match self.inner.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Makes `id` known (the server sent it) and returns a waiter for it. Registering a
    /// known id returns a waiter on the existing entry (a completed id stays completed).
    /// Call this *before* presenting the elicitation, so a fast notification is not lost.
    /// After [`close`](Self::close) the waiter fails at once and the id stays unknown.
    ///
    /// ```
    /// use mcp_elicit_client::{CompleteOutcome, CompletionRegistry};
    ///
    /// let registry = CompletionRegistry::default();
    /// let _waiter = registry.register("el-1");
    /// // The notification may arrive before the user even saw the URL: it is kept.
    /// assert_eq!(registry.complete("el-1"), CompleteOutcome::Completed);
    /// assert!(registry.register("el-1").is_completed()); // the id is not reset
    /// ```
    pub fn register(&self, id: &str) -> CompletionWaiter {
        let mut inner = self.lock();
        if let Some(entry) = inner.entries.get(id) {
            return CompletionWaiter {
                id: id.to_owned(),
                rx: entry.tx.subscribe(),
            };
        }
        let initial = if inner.closed {
            Status::Failed(WaitError::Disconnected)
        } else {
            Status::Pending
        };
        let (tx, rx) = watch::channel(initial);
        if !inner.closed {
            self.make_room(&mut inner);
            inner.entries.insert(id.to_owned(), Entry { tx });
            inner.order.push_back(id.to_owned());
        }
        CompletionWaiter {
            id: id.to_owned(),
            rx,
        }
    }

    fn make_room(&self, inner: &mut Inner) {
        while inner.entries.len() >= self.capacity {
            // Oldest completed first, then oldest of any kind.
            let victim = inner
                .order
                .iter()
                .position(|id| {
                    inner
                        .entries
                        .get(id)
                        .is_some_and(|e| *e.tx.borrow() != Status::Pending)
                })
                .unwrap_or(0);
            let Some(id) = inner.order.remove(victim) else {
                return;
            };
            if let Some(entry) = inner.entries.remove(&id) {
                entry.tx.send_if_modified(|s| {
                    if *s == Status::Pending {
                        *s = Status::Failed(WaitError::Evicted);
                        true
                    } else {
                        false
                    }
                });
            }
        }
    }

    /// Handles `notifications/elicitation/complete` for `id`: wakes its waiters if it is
    /// known and pending; anything else is ignored (see [`CompleteOutcome`]).
    ///
    /// ```
    /// use mcp_elicit_client::{CompleteOutcome, CompletionRegistry};
    ///
    /// let registry = CompletionRegistry::default();
    /// let waiter = registry.register("el-1");
    /// assert_eq!(registry.complete("EL-1"), CompleteOutcome::UnknownId); // ids are exact
    /// assert_eq!(registry.complete("el-1"), CompleteOutcome::Completed);
    /// assert!(waiter.is_completed());
    /// ```
    pub fn complete(&self, id: &str) -> CompleteOutcome {
        let inner = self.lock();
        let Some(entry) = inner.entries.get(id) else {
            return CompleteOutcome::UnknownId;
        };
        let changed = entry.tx.send_if_modified(|s| {
            if *s == Status::Pending {
                *s = Status::Completed;
                true
            } else {
                false
            }
        });
        if changed {
            CompleteOutcome::Completed
        } else {
            CompleteOutcome::AlreadyCompleted
        }
    }

    /// Whether `id` is known and still pending.
    ///
    /// ```
    /// let registry = mcp_elicit_client::CompletionRegistry::default();
    /// assert!(!registry.is_pending("el-1")); // unknown
    /// let _waiter = registry.register("el-1");
    /// assert!(registry.is_pending("el-1"));
    /// registry.complete("el-1");
    /// assert!(!registry.is_pending("el-1"));
    /// ```
    pub fn is_pending(&self, id: &str) -> bool {
        self.lock()
            .entries
            .get(id)
            .is_some_and(|e| *e.tx.borrow() == Status::Pending)
    }

    /// Number of tracked ids, pending and completed (dropping a waiter does not forget
    /// its id).
    ///
    /// ```
    /// let registry = mcp_elicit_client::CompletionRegistry::default();
    /// drop(registry.register("a"));
    /// registry.register("b");
    /// registry.complete("b");
    /// assert_eq!(registry.len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.lock().entries.len()
    }

    /// Whether no id is tracked.
    ///
    /// ```
    /// assert!(mcp_elicit_client::CompletionRegistry::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The connection closed: every pending waiter ends with
    /// [`WaitError::Disconnected`], and later registrations fail at once. The client's
    /// transports call it when the server goes away
    /// ([`transport::watched`](crate::transport::watched)).
    ///
    /// ```
    /// use mcp_elicit_client::{CompleteOutcome, CompletionRegistry};
    ///
    /// let registry = CompletionRegistry::default();
    /// let pending = registry.register("el-1");
    /// registry.close();
    /// assert!(registry.is_closed());
    /// assert!(!pending.is_completed());
    /// assert!(!registry.is_pending("el-1")); // ended, not pending
    /// assert_eq!(registry.complete("late"), CompleteOutcome::UnknownId);
    /// ```
    pub fn close(&self) {
        let mut inner = self.lock();
        inner.closed = true;
        for entry in inner.entries.values() {
            entry.tx.send_if_modified(|s| {
                if *s == Status::Pending {
                    *s = Status::Failed(WaitError::Disconnected);
                    true
                } else {
                    false
                }
            });
        }
    }

    /// Whether [`close`](Self::close) was called.
    ///
    /// ```
    /// let registry = mcp_elicit_client::CompletionRegistry::default();
    /// assert!(!registry.is_closed());
    /// registry.clone().close(); // clones share the state
    /// assert!(registry.is_closed());
    /// ```
    pub fn is_closed(&self) -> bool {
        self.lock().closed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn unknown_ids_are_ignored_and_known_ids_resolve_once() {
        let reg = CompletionRegistry::default();
        assert_eq!(reg.complete("nope"), CompleteOutcome::UnknownId);
        let mut w1 = reg.register("a");
        let mut w2 = reg.register("a");
        assert_eq!(reg.complete("a"), CompleteOutcome::Completed);
        assert_eq!(reg.complete("a"), CompleteOutcome::AlreadyCompleted);
        assert_eq!(w1.wait().await, Ok(()));
        assert_eq!(w2.wait().await, Ok(()));
        // Registering after completion sees it completed.
        assert!(reg.register("a").is_completed());
    }

    #[tokio::test]
    async fn close_ends_waiters() {
        let reg = CompletionRegistry::default();
        let mut w = reg.register("x");
        let task = tokio::spawn(async move { w.wait().await });
        reg.close();
        assert_eq!(task.await.ok(), Some(Err(WaitError::Disconnected)));
        let mut late = reg.register("y");
        assert_eq!(late.wait().await, Err(WaitError::Disconnected));
        assert_eq!(reg.complete("y"), CompleteOutcome::UnknownId);
    }

    #[tokio::test]
    async fn capacity_is_bounded_and_evicts_completed_first() {
        let reg = CompletionRegistry::with_capacity(2);
        let _a = reg.register("a");
        reg.complete("a");
        let mut b = reg.register("b");
        let _c = reg.register("c"); // evicts completed "a", not pending "b"
        assert_eq!(reg.len(), 2);
        assert_eq!(reg.complete("a"), CompleteOutcome::UnknownId);
        let _d = reg.register("d"); // evicts pending "b"
        assert_eq!(b.wait().await, Err(WaitError::Evicted));
    }
}
