//! 2026-07-28 URL elicitations in the registry (stored without a connection, finished on
//! their page, used up by the client's retry), and the keys sealing `requestState`.

use mcp_elicit_core::lifecycle::Event;

use crate::error::{Error, ErrorKind};
use crate::identity::Principal;
use crate::state::StateKeys;
use crate::store::PendingElicitation;

use super::records::is_finished_round;
use super::{Elicitations, store_error};

impl Elicitations {
    /// The keys sealing 2026-07-28 `requestState`: the configured ring, else one
    /// random key for this process, made on first use.
    pub(crate) fn state_keys(&self) -> Result<&StateKeys, Error> {
        if let Some(keys) = self.inner.state_keys.get() {
            return Ok(keys);
        }
        let keys = match &self.inner.config.state_keys {
            Some(k) => k.clone(),
            None => StateKeys::random()?,
        };
        Ok(self.inner.state_keys.get_or_init(|| keys))
    }

    /// Stores a 2026-07-28 URL elicitation (no connection to notify; quota applies).
    pub(crate) async fn insert_round(&self, record: PendingElicitation) -> Result<(), Error> {
        self.insert(record).await
    }

    /// The 2026-07-28 URL elicitation `id` of `principal` while it waits for its page
    /// (`None` when finished, gone or expired).
    pub(crate) async fn round_pending(
        &self,
        principal: &Principal,
        id: &str,
    ) -> Result<Option<PendingElicitation>, Error> {
        Ok(self
            .get(principal, id)
            .await?
            .filter(|r| r.session.is_rounds()))
    }

    /// Whether the 2026-07-28 URL elicitation `id` of `principal` was finished on its
    /// page and not used yet.
    pub(crate) async fn round_finished(
        &self,
        principal: &Principal,
        id: &str,
    ) -> Result<bool, Error> {
        let record = self
            .inner
            .store
            .get(principal, id)
            .await
            .map_err(store_error)?;
        Ok(record.is_some_and(|r| is_finished_round(&r) && r.expires_at > self.inner.clock.now()))
    }

    /// Uses up a finished 2026-07-28 URL elicitation: at most once, across nodes (the
    /// store's transition is atomic); a second use is refused.
    pub(crate) async fn round_consume(&self, principal: &Principal, id: &str) -> Result<(), Error> {
        self.inner
            .store
            .transition(principal, id, Event::Complete)
            .await
            .map(drop)
            .map_err(|_| {
                Error::new(
                    ErrorKind::InvalidState,
                    "the URL interaction of this requestState was used already",
                )
            })
    }

    /// Forgets `principal`'s 2026-07-28 URL elicitation `id` (declined or cancelled).
    pub(crate) async fn round_forget(&self, principal: &Principal, id: &str) -> Result<(), Error> {
        let record = self
            .inner
            .store
            .get(principal, id)
            .await
            .map_err(store_error)?;
        if record.is_some_and(|r| r.session.is_rounds()) {
            self.forget(id).await;
        }
        Ok(())
    }
}
