//! The in-memory [`ElicitationStore`].

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};
use std::time::SystemTime;

use futures::future::{BoxFuture, FutureExt, ready};
use mcp_elicit_core::lifecycle::Event;
use mcp_elicit_core::message::Mode;

use super::{ElicitationStore, PendingElicitation, StoreError, Transition};
use crate::identity::{Principal, SessionKey};

/// Pending elicitations in a mutex-guarded map; lost on restart.
///
/// The store of [`Elicitations::new`](crate::Elicitations::new); pass one yourself to
/// look into it (tests) or share it:
///
/// ```
/// use std::sync::Arc;
/// use mcp_elicit_server::{ElicitationConfig, ElicitationStore, Elicitations, IdentityPolicy, MemoryStore, SystemClock};
///
/// let store = Arc::new(MemoryStore::new());
/// let hub = Elicitations::with_store(
///     ElicitationConfig::new(IdentityPolicy::Authenticated),
///     store.clone(),
///     Arc::new(SystemClock),
/// );
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// assert_eq!(store.count().await.unwrap(), 0);
/// assert_eq!(hub.pending_count().await.unwrap(), 0);
/// # });
/// ```
#[derive(Debug, Default)]
pub struct MemoryStore {
    records: Mutex<HashMap<String, PendingElicitation>>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, PendingElicitation>> {
        // A panic while holding the lock cannot leave a half-written record (every
        // update is one insert or remove), so a poisoned map is still consistent.
        self.records
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn transition_now(
        &self,
        principal: &Principal,
        id: &str,
        event: Event,
    ) -> Result<Transition, StoreError> {
        let mut map = self.lock();
        let Some(record) = map.get(id).filter(|r| &r.principal == principal) else {
            return Err(StoreError::NotFound(id.to_owned()));
        };
        let state = record
            .state
            .apply(record.mode, event)
            .map_err(|e| StoreError::InvalidTransition(e.message().to_owned()))?;
        let before = record.clone();
        let removed = state.is_terminal(record.mode);
        if removed {
            map.remove(id);
        } else if let Some(r) = map.get_mut(id) {
            r.state = state;
        }
        Ok(Transition {
            before,
            state,
            removed,
        })
    }
}

impl ElicitationStore for MemoryStore {
    fn insert(&self, record: PendingElicitation) -> BoxFuture<'_, Result<(), StoreError>> {
        let mut map = self.lock();
        let result = if map.contains_key(&record.id) {
            Err(StoreError::Duplicate(record.id))
        } else {
            map.insert(record.id.clone(), record);
            Ok(())
        };
        ready(result).boxed()
    }

    fn insert_within_quota(
        &self,
        record: PendingElicitation,
        max: usize,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        // Count and insert under one lock: exact, whatever runs concurrently. Expired
        // records (swept or not) do not count.
        let mut map = self.lock();
        let now = record.created_at;
        let pending = map
            .values()
            .filter(|r| r.principal == record.principal && r.expires_at > now)
            .count();
        let result = if pending >= max {
            Err(StoreError::QuotaExceeded { pending, max })
        } else if map.contains_key(&record.id) {
            Err(StoreError::Duplicate(record.id))
        } else {
            map.insert(record.id.clone(), record);
            Ok(())
        };
        ready(result).boxed()
    }

    fn get<'a>(
        &'a self,
        principal: &'a Principal,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<PendingElicitation>, StoreError>> {
        let found = self
            .lock()
            .get(id)
            .filter(|r| &r.principal == principal)
            .cloned();
        ready(Ok(found)).boxed()
    }

    fn transition<'a>(
        &'a self,
        principal: &'a Principal,
        id: &'a str,
        event: Event,
    ) -> BoxFuture<'a, Result<Transition, StoreError>> {
        ready(self.transition_now(principal, id, event)).boxed()
    }

    fn remove<'a>(
        &'a self,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<PendingElicitation>, StoreError>> {
        ready(Ok(self.lock().remove(id))).boxed()
    }

    fn remove_session_forms<'a>(
        &'a self,
        session: &'a SessionKey,
    ) -> BoxFuture<'a, Result<Vec<PendingElicitation>, StoreError>> {
        let mut map = self.lock();
        let ids: Vec<String> = map
            .values()
            .filter(|r| &r.session == session && r.mode == Mode::Form)
            .map(|r| r.id.clone())
            .collect();
        let removed = ids.iter().filter_map(|id| map.remove(id)).collect();
        ready(Ok(removed)).boxed()
    }

    fn sweep_expired(
        &self,
        now: SystemTime,
    ) -> BoxFuture<'_, Result<Vec<PendingElicitation>, StoreError>> {
        let mut map = self.lock();
        let ids: Vec<String> = map
            .values()
            .filter(|r| r.expires_at <= now)
            .map(|r| r.id.clone())
            .collect();
        let removed = ids.iter().filter_map(|id| map.remove(id)).collect();
        ready(Ok(removed)).boxed()
    }

    fn list<'a>(
        &'a self,
        principal: &'a Principal,
    ) -> BoxFuture<'a, Result<Vec<PendingElicitation>, StoreError>> {
        let mut list: Vec<PendingElicitation> = self
            .lock()
            .values()
            .filter(|r| &r.principal == principal)
            .cloned()
            .collect();
        list.sort_by(|a, b| {
            a.created_at
                .cmp(&b.created_at)
                .then_with(|| a.id.cmp(&b.id))
        });
        ready(Ok(list)).boxed()
    }

    fn count(&self) -> BoxFuture<'_, Result<usize, StoreError>> {
        ready(Ok(self.lock().len())).boxed()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use mcp_elicit_core::lifecycle::State;

    use super::*;

    fn record(id: &str, who: &str, expires_in: u64) -> PendingElicitation {
        let t0 = SystemTime::UNIX_EPOCH;
        PendingElicitation {
            id: id.into(),
            principal: Principal::local_user(who),
            session: SessionKey::from_stored("s1"),
            mode: Mode::Url,
            state: State::Pending,
            message: "m".into(),
            url: Some("https://example.com".into()),
            created_at: t0,
            expires_at: t0 + Duration::from_secs(expires_in),
            app_data: None,
        }
    }

    #[tokio::test]
    async fn expired_records_never_count_toward_the_quota() {
        // Quota 2, lifetime 1 s: two pending, a third refused; once they expired (not
        // swept: still stored), a new one is accepted.
        let store = MemoryStore::new();
        for id in ["a", "b"] {
            store
                .insert_within_quota(record(id, "alice", 1), 2)
                .await
                .expect("within quota");
        }
        assert!(matches!(
            store.insert_within_quota(record("c", "alice", 1), 2).await,
            Err(StoreError::QuotaExceeded { pending: 2, max: 2 })
        ));
        let mut later = record("d", "alice", 3);
        later.created_at = SystemTime::UNIX_EPOCH + Duration::from_secs(2);
        store
            .insert_within_quota(later, 2)
            .await
            .expect("expired records are not counted");
        assert_eq!(store.count().await, Ok(3), "nothing was swept");
    }

    #[tokio::test]
    async fn completion_is_at_most_once_and_owner_bound() {
        let store = MemoryStore::new();
        store
            .insert(record("a", "alice", 10))
            .await
            .expect("insert");
        assert!(matches!(
            store.insert(record("a", "alice", 10)).await,
            Err(StoreError::Duplicate(_))
        ));
        let bob = Principal::local_user("bob");
        let alice = Principal::local_user("alice");
        assert!(matches!(
            store.transition(&bob, "a", Event::Complete).await,
            Err(StoreError::NotFound(_))
        ));
        let accepted = store
            .transition(&alice, "a", Event::Accept)
            .await
            .expect("accept");
        assert_eq!((accepted.state, accepted.removed), (State::Accepted, false));
        let done = store
            .transition(&alice, "a", Event::Complete)
            .await
            .expect("complete");
        assert_eq!((done.state, done.removed), (State::Completed, true));
        assert!(
            store
                .transition(&alice, "a", Event::Complete)
                .await
                .is_err()
        );
        assert_eq!(store.count().await, Ok(0));
    }

    #[tokio::test]
    async fn sweep_removes_only_expired_records() {
        let store = MemoryStore::new();
        store
            .insert(record("old", "alice", 5))
            .await
            .expect("insert");
        store
            .insert(record("new", "alice", 50))
            .await
            .expect("insert");
        let swept = store
            .sweep_expired(SystemTime::UNIX_EPOCH + Duration::from_secs(10))
            .await
            .expect("sweep");
        assert_eq!(
            swept.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
            vec!["old"]
        );
        assert_eq!(store.count().await, Ok(1));
        // The session ends: its URL elicitation stays (the user's page may still
        // complete it), its form goes.
        let mut form = record("form", "alice", 50);
        form.mode = Mode::Form;
        store.insert(form).await.expect("insert");
        let removed = store
            .remove_session_forms(&SessionKey::from_stored("s1"))
            .await
            .expect("remove");
        assert_eq!(
            removed.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
            ["form"]
        );
        assert_eq!(store.count().await, Ok(1));
    }

    #[test]
    fn the_per_user_cap_is_exact_under_concurrent_inserts() {
        const MAX: usize = 4;
        const THREADS: usize = 8;
        for round in 0..100 {
            let store = std::sync::Arc::new(MemoryStore::new());
            let barrier = std::sync::Arc::new(std::sync::Barrier::new(THREADS));
            let handles: Vec<_> = (0..THREADS)
                .map(|i| {
                    let (store, barrier) = (store.clone(), barrier.clone());
                    std::thread::spawn(move || {
                        barrier.wait();
                        let r = record(&format!("r{round}-{i}"), "alice", 10);
                        futures::executor::block_on(store.insert_within_quota(r, MAX))
                    })
                })
                .collect();
            let results: Vec<_> = handles
                .into_iter()
                .map(|h| h.join().expect("thread"))
                .collect();
            let ok = results.iter().filter(|r| r.is_ok()).count();
            assert_eq!(ok, MAX, "round {round}: {results:?}");
            assert!(
                results
                    .iter()
                    .filter_map(|r| r.as_ref().err())
                    .all(|e| matches!(e, StoreError::QuotaExceeded { max: MAX, .. }))
            );
            // Another user is not affected by alice's cap.
            let bob = record(&format!("b{round}"), "bob", 10);
            assert_eq!(
                futures::executor::block_on(store.insert_within_quota(bob, MAX)),
                Ok(())
            );
        }
    }
}
