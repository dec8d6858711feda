//! The stored records: inserts within the per-user quota (with the automatic sweep),
//! lookups that treat an expired record as gone, transitions, and the sweep.

use mcp_elicit_core::lifecycle::Event;
use mcp_elicit_core::message::Mode;

#[cfg(doc)]
use crate::config::ElicitationConfig;
use crate::error::{Error, ErrorKind};
use crate::identity::{Principal, SessionKey};
#[cfg(doc)]
use crate::store::ElicitationStore;
use crate::store::PendingElicitation;

use super::{Elicitations, store_error};

impl Elicitations {
    /// Stores a new elicitation, refused when the user already has the configured
    /// maximum pending (bounded state per user, whatever a client keeps calling). The
    /// check and the insert are one store operation
    /// ([`ElicitationStore::insert_within_quota`]).
    ///
    /// Also the automatic sweep: at most once per
    /// [`ElicitationConfig::sweep_interval`], expired records are removed first.
    pub(super) async fn insert(&self, record: PendingElicitation) -> Result<(), Error> {
        self.sweep_if_due().await?;
        let max = self.inner.config.max_pending_per_user;
        self.inner
            .store
            .insert_within_quota(record, max)
            .await
            .map_err(store_error)
    }

    /// Runs [`Elicitations::sweep`] when the configured interval has passed since the
    /// last automatic one (one caller at a time; failures are logged, not returned:
    /// expired records are refused on access and not counted in quotas anyway). Except
    /// a store that is unavailable: the insert would wait for it a second time, so the
    /// caller gets the retryable error at once, and the next insert sweeps again.
    async fn sweep_if_due(&self) -> Result<(), Error> {
        let Some(interval) = self.inner.config.sweep_interval else {
            return Ok(());
        };
        let now = self.inner.clock.now();
        {
            let mut last = self
                .inner
                .last_sweep
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            let due = last.is_none_or(|at| {
                now.duration_since(at).is_ok_and(|since| since >= interval) || now < at
            });
            if !due {
                return Ok(());
            }
            *last = Some(now);
        }
        match self.sweep().await {
            Ok(0) => {}
            Ok(n) => tracing::debug!(removed = n, "swept pending elicitations"),
            Err(e) if e.kind() == ErrorKind::StoreUnavailable => {
                *self
                    .inner
                    .last_sweep
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner()) = None;
                return Err(e);
            }
            Err(e) => tracing::warn!(error = %e, "automatic sweep failed"),
        }
        Ok(())
    }

    /// Forgets an elicitation (the server's own bookkeeping after a final answer).
    pub(crate) async fn forget(&self, id: &str) {
        self.peers().remove(id);
        if let Err(e) = self.inner.store.remove(id).await {
            tracing::warn!(elicitation_id = id, error = %e, "could not remove a finished elicitation");
        }
    }

    pub(crate) async fn transition(
        &self,
        principal: &Principal,
        id: &str,
        event: Event,
    ) -> Result<(), Error> {
        self.refuse_expired(principal, id).await?;
        let t = self
            .inner
            .store
            .transition(principal, id, event)
            .await
            .map_err(store_error)?;
        if t.removed {
            self.peers().remove(id);
        }
        Ok(())
    }

    /// The pending elicitation `id` of `principal`, if any (what a connect page shows).
    ///
    /// An elicitation past its expiry is gone even before the sweep removes it: `None`
    /// here, and every transition of it fails as unknown.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use std::time::{Duration, SystemTime};
    /// # use mcp_elicit_server::mcp_elicit_core::lifecycle::State;
    /// # use mcp_elicit_server::{ElicitationConfig, ElicitationStore, Elicitations, IdentityPolicy,
    /// #     MemoryStore, Mode, PendingElicitation, Principal, SessionKey, SystemClock};
    /// # fn url_record(id: &str, user: &Principal, ttl: Duration) -> PendingElicitation {
    /// #     let now = SystemTime::now();
    /// #     PendingElicitation {
    /// #         id: id.to_owned(),
    /// #         principal: user.clone(),
    /// #         session: SessionKey::from_stored("connection-1"),
    /// #         mode: Mode::Url,
    /// #         state: State::Accepted,
    /// #         message: "Connect your calendar".to_owned(),
    /// #         url: Some(format!("https://example.com/connect?elicitationId={id}")),
    /// #         created_at: now,
    /// #         expires_at: now + ttl,
    /// #         app_data: None,
    /// #     }
    /// # }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let alice = Principal::authenticated("https://auth.example.com", "alice");
    /// # let store = Arc::new(MemoryStore::new());
    /// # let hub = Elicitations::with_store(
    /// #     ElicitationConfig::new(IdentityPolicy::Authenticated),
    /// #     store.clone(),
    /// #     Arc::new(SystemClock),
    /// # );
    /// # // What `Ask::url` stores when a tool asks alice to connect her calendar:
    /// # store.insert(url_record("e1", &alice, Duration::from_secs(3600))).await?;
    /// let record = hub.get(&alice, "e1").await?.expect("pending");
    /// assert_eq!(record.message, "Connect your calendar");
    /// assert_eq!(record.mode, Mode::Url);
    /// assert!(hub.get(&alice, "unknown").await?.is_none());
    ///
    /// // Past its expiry it is gone, swept or not:
    /// store.insert(url_record("e2", &alice, Duration::ZERO)).await?;
    /// assert!(hub.get(&alice, "e2").await?.is_none());
    /// # Ok(())
    /// # }
    /// ```
    pub async fn get(
        &self,
        principal: &Principal,
        id: &str,
    ) -> Result<Option<PendingElicitation>, Error> {
        let record = self
            .inner
            .store
            .get(principal, id)
            .await
            .map_err(store_error)?;
        match record {
            Some(r) if r.expires_at <= self.inner.clock.now() => {
                self.drop_expired(id).await;
                Ok(None)
            }
            // Finished on its page, waiting for the client's retry: no longer pending.
            Some(r) if is_finished_round(&r) => Ok(None),
            other => Ok(other),
        }
    }

    /// The pending elicitations of `principal` (none past its expiry).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use std::time::{Duration, SystemTime};
    /// # use mcp_elicit_server::mcp_elicit_core::lifecycle::State;
    /// # use mcp_elicit_server::{ElicitationConfig, ElicitationStore, Elicitations, IdentityPolicy,
    /// #     MemoryStore, Mode, PendingElicitation, Principal, SessionKey, SystemClock};
    /// # fn url_record(id: &str, user: &Principal, ttl: Duration) -> PendingElicitation {
    /// #     let now = SystemTime::now();
    /// #     PendingElicitation {
    /// #         id: id.to_owned(),
    /// #         principal: user.clone(),
    /// #         session: SessionKey::from_stored("connection-1"),
    /// #         mode: Mode::Url,
    /// #         state: State::Accepted,
    /// #         message: "Connect your calendar".to_owned(),
    /// #         url: Some(format!("https://example.com/connect?elicitationId={id}")),
    /// #         created_at: now,
    /// #         expires_at: now + ttl,
    /// #         app_data: None,
    /// #     }
    /// # }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let alice = Principal::authenticated("https://auth.example.com", "alice");
    /// # let store = Arc::new(MemoryStore::new());
    /// # let hub = Elicitations::with_store(
    /// #     ElicitationConfig::new(IdentityPolicy::Authenticated),
    /// #     store.clone(),
    /// #     Arc::new(SystemClock),
    /// # );
    /// # // What `Ask::url` stores when a tool asks alice to connect her calendar:
    /// # store.insert(url_record("e1", &alice, Duration::from_secs(3600))).await?;
    /// store.insert(url_record("e2", &alice, Duration::ZERO)).await?; // expired already
    /// let ids: Vec<String> = hub.pending(&alice).await?.into_iter().map(|r| r.id).collect();
    /// assert_eq!(ids, ["e1"]);
    /// let bob = Principal::authenticated("https://auth.example.com", "bob");
    /// assert!(hub.pending(&bob).await?.is_empty());
    /// # Ok(())
    /// # }
    /// ```
    pub async fn pending(&self, principal: &Principal) -> Result<Vec<PendingElicitation>, Error> {
        let now = self.inner.clock.now();
        let mut list = self
            .inner
            .store
            .list(principal)
            .await
            .map_err(store_error)?;
        list.retain(|r| r.expires_at > now && !is_finished_round(r));
        Ok(list)
    }

    /// Removes `principal`'s elicitation `id` if it has expired, so that the transition
    /// that follows fails as "unknown" (the store's answer for an absent record).
    pub(super) async fn refuse_expired(
        &self,
        principal: &Principal,
        id: &str,
    ) -> Result<(), Error> {
        self.get(principal, id).await.map(drop)
    }

    /// Removes an expired elicitation now rather than at the next sweep.
    async fn drop_expired(&self, id: &str) {
        tracing::debug!(elicitation_id = id, "expired elicitation removed on access");
        self.forget(id).await;
    }

    /// How many elicitations are stored, all users together (records past their expiry
    /// count until a sweep removes them).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use std::time::{Duration, SystemTime};
    /// # use mcp_elicit_server::mcp_elicit_core::lifecycle::State;
    /// # use mcp_elicit_server::{ElicitationConfig, ElicitationStore, Elicitations, IdentityPolicy,
    /// #     MemoryStore, Mode, PendingElicitation, Principal, SessionKey, SystemClock};
    /// # fn url_record(id: &str, user: &Principal, ttl: Duration) -> PendingElicitation {
    /// #     let now = SystemTime::now();
    /// #     PendingElicitation {
    /// #         id: id.to_owned(),
    /// #         principal: user.clone(),
    /// #         session: SessionKey::from_stored("connection-1"),
    /// #         mode: Mode::Url,
    /// #         state: State::Accepted,
    /// #         message: "Connect your calendar".to_owned(),
    /// #         url: Some(format!("https://example.com/connect?elicitationId={id}")),
    /// #         created_at: now,
    /// #         expires_at: now + ttl,
    /// #         app_data: None,
    /// #     }
    /// # }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let alice = Principal::authenticated("https://auth.example.com", "alice");
    /// # let store = Arc::new(MemoryStore::new());
    /// # let hub = Elicitations::with_store(
    /// #     ElicitationConfig::new(IdentityPolicy::Authenticated),
    /// #     store.clone(),
    /// #     Arc::new(SystemClock),
    /// # );
    /// # // What `Ask::url` stores when a tool asks alice to connect her calendar:
    /// # store.insert(url_record("e1", &alice, Duration::from_secs(3600))).await?;
    /// assert_eq!(hub.pending_count().await?, 1);
    /// hub.complete(&alice, "e1").await?;
    /// assert_eq!(hub.pending_count().await?, 0);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn pending_count(&self) -> Result<usize, Error> {
        self.inner.store.count().await.map_err(store_error)
    }

    /// Removes expired elicitations and the forms whose connection has closed, and
    /// forgets closed connections. Returns how many elicitations were removed. The
    /// registry runs it by itself when an elicitation is stored, at most once per
    /// [`ElicitationConfig::sweep_interval`] (default 60 seconds); call it yourself only
    /// with the automatic sweep turned off, or to free memory sooner.
    ///
    /// A URL-mode elicitation outlives its connection: it belongs to the user, who may
    /// still finish the page (the completion then notifies nobody, and the client's retry
    /// finds the outcome), until it completes or expires.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use std::time::{Duration, SystemTime};
    /// # use mcp_elicit_server::mcp_elicit_core::lifecycle::State;
    /// # use mcp_elicit_server::{ElicitationConfig, ElicitationStore, Elicitations, IdentityPolicy,
    /// #     MemoryStore, Mode, PendingElicitation, Principal, SessionKey, SystemClock};
    /// # fn url_record(id: &str, user: &Principal, ttl: Duration) -> PendingElicitation {
    /// #     let now = SystemTime::now();
    /// #     PendingElicitation {
    /// #         id: id.to_owned(),
    /// #         principal: user.clone(),
    /// #         session: SessionKey::from_stored("connection-1"),
    /// #         mode: Mode::Url,
    /// #         state: State::Accepted,
    /// #         message: "Connect your calendar".to_owned(),
    /// #         url: Some(format!("https://example.com/connect?elicitationId={id}")),
    /// #         created_at: now,
    /// #         expires_at: now + ttl,
    /// #         app_data: None,
    /// #     }
    /// # }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let alice = Principal::authenticated("https://auth.example.com", "alice");
    /// # let store = Arc::new(MemoryStore::new());
    /// # let hub = Elicitations::with_store(
    /// #     ElicitationConfig::new(IdentityPolicy::Authenticated),
    /// #     store.clone(),
    /// #     Arc::new(SystemClock),
    /// # );
    /// # // What `Ask::url` stores when a tool asks alice to connect her calendar:
    /// # store.insert(url_record("e1", &alice, Duration::from_secs(3600))).await?;
    /// store.insert(url_record("e2", &alice, Duration::ZERO)).await?; // expired already
    /// assert_eq!(hub.pending_count().await?, 2);
    /// assert_eq!(hub.sweep().await?, 1); // e2 removed, e1 still pending
    /// assert_eq!(hub.pending_count().await?, 1);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn sweep(&self) -> Result<usize, Error> {
        let now = self.inner.clock.now();
        let expired = self
            .inner
            .store
            .sweep_expired(now)
            .await
            .map_err(store_error)?;
        let mut removed = expired.len();
        let closed_forms: Vec<String> = {
            let mut peers = self.peers();
            for r in &expired {
                peers.remove(&r.id);
            }
            let closed: Vec<(String, Mode)> = peers
                .iter()
                .filter(|(_, p)| p.is_closed())
                .map(|(id, p)| (id.clone(), p.mode))
                .collect();
            for (id, _) in &closed {
                peers.remove(id);
            }
            closed
                .into_iter()
                .filter(|(_, mode)| *mode == Mode::Form)
                .map(|(id, _)| id)
                .collect()
        };
        for id in closed_forms {
            if matches!(self.inner.store.remove(&id).await, Ok(Some(_))) {
                removed += 1;
            }
        }
        Ok(removed)
    }

    /// The session ended: its forms are removed (nobody can answer them) and its
    /// connection forgotten; its URL elicitations stay for the user (see
    /// [`Elicitations::sweep`]).
    pub(super) async fn drop_session(&self, session: &SessionKey) {
        match self.inner.store.remove_session_forms(session).await {
            Ok(_) => {
                self.peers().retain(|_, local| &local.session != session);
            }
            Err(e) => {
                tracing::warn!(session = %session, error = %e, "could not forget a closed session")
            }
        }
    }
}

/// A 2026-07-28 URL elicitation finished on its page, waiting for the retry.
pub(super) fn is_finished_round(record: &PendingElicitation) -> bool {
    record.session.is_rounds() && record.state == mcp_elicit_core::lifecycle::State::Accepted
}
