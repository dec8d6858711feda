//! URL flows: what each URL mode elicitation's page is for, and the answer given on a
//! confirmation page (table `url_flows`).
//!
//! The pending elicitation says who it is for and that it waits; the web layer also
//! needs to know what its page does (enter a secret, authorize at a provider, confirm a
//! payment) and, for a confirmation, what the user answered. Keeping that here rather
//! than in one process's memory lets any server node serve the page of an elicitation
//! another node created, and lets a flow started before a restart finish after it.
//!
//! The purpose is the web layer's own text (JSON); this store does not interpret it. An
//! outcome is written once: of two concurrent answers (a double click, two nodes) one
//! conditional `UPDATE ... WHERE outcome IS NULL` lets exactly one through.

use std::time::{Duration, SystemTime};

use futures::FutureExt;
use futures::future::BoxFuture;
use mcp_elicit_server::Principal;

use crate::db::on_pool;
use crate::error::Error;
use crate::time;
use crate::vault::{Vault, check_label};

/// The longest purpose text accepted (bytes).
///
/// ```
/// use std::time::Duration;
///
/// use mcp_elicit_server::Principal;
/// use mcp_elicit_store::{Error, FlowStore, Keyring, MAX_PURPOSE_BYTES, Store, VaultKey};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let vault = Store::connect("sqlite::memory:").await?.vault(Keyring::new(VaultKey::generate()?));
/// let alice = Principal::authenticated("https://auth.example.com", "alice");
/// let too_long = "x".repeat(MAX_PURPOSE_BYTES + 1);
/// let refused = vault.put_flow(&alice, "e1", &too_long, Duration::from_secs(60)).await;
/// assert!(matches!(refused, Err(Error::Config(_))));
/// # Ok(())
/// # }
/// ```
pub const MAX_PURPOSE_BYTES: usize = 16 * 1024;
/// The longest outcome text accepted (bytes).
const MAX_OUTCOME_BYTES: usize = 256;

/// One URL flow as stored.
///
/// ```
/// use std::time::Duration;
///
/// use mcp_elicit_server::Principal;
/// use mcp_elicit_store::{FlowStore, Keyring, Store, VaultKey};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let vault = Store::connect("sqlite::memory:").await?.vault(Keyring::new(VaultKey::generate()?));
/// let alice = Principal::authenticated("https://auth.example.com", "alice");
/// let purpose = r#"{"kind":"confirm","text":"Pay 20 EUR to ACME"}"#;
/// vault.put_flow(&alice, "e1", purpose, Duration::from_secs(600)).await?;
///
/// let flow = vault.get_flow("e1").await?.expect("live");
/// assert_eq!((flow.elicitation_id.as_str(), flow.purpose.as_str()), ("e1", purpose));
/// assert_eq!(flow.principal, alice);
/// assert_eq!(flow.outcome, None); // not answered yet
/// assert_eq!(flow.expires_at.duration_since(flow.created_at)?, Duration::from_secs(600));
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlFlow {
    /// The URL mode elicitation whose page this is.
    pub elicitation_id: String,
    /// The user the elicitation was created for.
    pub principal: Principal,
    /// What the page is for (the web layer's text).
    pub purpose: String,
    /// The recorded answer, once given.
    pub outcome: Option<String>,
    /// When it was registered.
    pub created_at: SystemTime,
    /// When it is forgotten.
    pub expires_at: SystemTime,
}

/// Purposes and outcomes of URL mode elicitations' pages, shared by every node using
/// the database.
///
/// A confirmation page: registered by the tool, answered once on the page, read back on
/// the client's retry, served by whichever node gets the request:
///
/// ```
/// use std::time::{Duration, SystemTime};
///
/// use mcp_elicit_server::Principal;
/// use mcp_elicit_store::{Error, FlowStore, Keyring, Store, VaultKey};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let vault = Store::connect("sqlite::memory:").await?.vault(Keyring::new(VaultKey::generate()?));
/// let alice = Principal::authenticated("https://auth.example.com", "alice");
/// let mallory = Principal::authenticated("https://auth.example.com", "mallory");
/// let ttl = Duration::from_secs(600);
/// let purpose = r#"{"confirm":"Pay 20 EUR to ACME"}"#;
///
/// vault.put_flow(&alice, "e1", purpose, ttl).await?;
/// // An id registered for alice cannot be taken over by another user.
/// assert!(matches!(vault.put_flow(&mallory, "e1", purpose, ttl).await, Err(Error::Config(_))));
///
/// // The page: the first answer wins (a double click, two nodes), others are refused.
/// assert!(!vault.set_flow_outcome(&mallory, "e1", "approved").await?);
/// assert!(vault.set_flow_outcome(&alice, "e1", "approved").await?);
/// assert!(!vault.set_flow_outcome(&alice, "e1", "rejected").await?);
///
/// // The tool, asking the same thing again, finds the earlier answer.
/// let earlier = vault.latest_flow(&alice, purpose).await?.expect("registered");
/// assert_eq!(earlier.outcome.as_deref(), Some("approved"));
///
/// // The payment failed: clear the answer so the user can be asked again.
/// assert!(vault.clear_flow_outcome(&alice, "e1").await?);
/// assert_eq!(vault.get_flow("e1").await?.and_then(|f| f.outcome), None);
///
/// assert!(vault.delete_flow(&alice, "e1").await?);
/// vault.put_flow(&alice, "e2", purpose, ttl).await?;
/// assert_eq!(vault.sweep_flows(SystemTime::now() + ttl).await?, 1);
/// # Ok(())
/// # }
/// ```
pub trait FlowStore: Send + Sync + 'static {
    /// Registers the page of elicitation `elicitation_id` of `principal`: `purpose`, kept
    /// for `ttl`. Registering an id again (the same user) replaces the purpose and clears
    /// any outcome; an id registered for another user is refused ([`Error::Config`]).
    fn put_flow<'a>(
        &'a self,
        principal: &'a Principal,
        elicitation_id: &'a str,
        purpose: &'a str,
        ttl: Duration,
    ) -> BoxFuture<'a, Result<(), Error>>;

    /// The live flow of `elicitation_id`, whoever it belongs to (the caller compares the
    /// user: the page shows a refusal to anyone else); `None` if unknown or expired.
    fn get_flow<'a>(
        &'a self,
        elicitation_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<UrlFlow>, Error>>;

    /// `principal`'s most recently registered live flow whose purpose is exactly
    /// `purpose` (for a tool that asks the same thing again, to find the earlier answer).
    fn latest_flow<'a>(
        &'a self,
        principal: &'a Principal,
        purpose: &'a str,
    ) -> BoxFuture<'a, Result<Option<UrlFlow>, Error>>;

    /// Records `outcome` for `principal`'s flow `elicitation_id` if none is recorded yet;
    /// whether it was recorded (false: unknown, another user's, expired, or answered
    /// already).
    fn set_flow_outcome<'a>(
        &'a self,
        principal: &'a Principal,
        elicitation_id: &'a str,
        outcome: &'a str,
    ) -> BoxFuture<'a, Result<bool, Error>>;

    /// Clears the outcome of `principal`'s flow `elicitation_id` (the answer could not
    /// take effect); whether there was one.
    fn clear_flow_outcome<'a>(
        &'a self,
        principal: &'a Principal,
        elicitation_id: &'a str,
    ) -> BoxFuture<'a, Result<bool, Error>>;

    /// Forgets `principal`'s flow `elicitation_id`; whether there was one.
    fn delete_flow<'a>(
        &'a self,
        principal: &'a Principal,
        elicitation_id: &'a str,
    ) -> BoxFuture<'a, Result<bool, Error>>;

    /// Deletes the flows that expired at `now`; how many.
    fn sweep_flows(&self, now: SystemTime) -> BoxFuture<'_, Result<u64, Error>>;
}

type FlowTuple = (String, String, String, String, Option<String>, i64, i64);

fn flow(
    (elicitation_id, issuer, subject, purpose, outcome, created, expires): FlowTuple,
) -> UrlFlow {
    UrlFlow {
        elicitation_id,
        principal: Principal::authenticated(issuer, subject),
        purpose,
        outcome,
        created_at: time::from_db(created),
        expires_at: time::from_db(expires),
    }
}

fn check_text(kind: &str, text: &str, max: usize) -> Result<(), Error> {
    if text.len() > max {
        return Err(Error::Config(format!(
            "the {kind} has {} bytes, at most {max} are stored",
            text.len()
        )));
    }
    Ok(())
}

impl Vault {
    async fn put_flow_now(
        &self,
        principal: &Principal,
        id: &str,
        purpose: &str,
        ttl: Duration,
    ) -> Result<(), Error> {
        check_label("elicitation id", id)?;
        check_text("purpose", purpose, MAX_PURPOSE_BYTES)?;
        let now = self.now();
        let expires = time::expiry(now, ttl, "a URL flow")?;
        let (now, expires) = (
            time::to_db(now, "now")?,
            time::to_db(expires, "the flow expiry")?,
        );
        // Insert, or replace the same user's row; another user's row stays as it is.
        let n = on_pool!(self.store().pool(), pool => sqlx::query(
            "INSERT INTO url_flows (elicitation_id, principal_issuer, principal_subject, purpose, \
             outcome, created_at, expires_at) VALUES ($1, $2, $3, $4, NULL, $5, $6) \
             ON CONFLICT (elicitation_id) DO UPDATE SET purpose = excluded.purpose, \
             outcome = NULL, created_at = excluded.created_at, expires_at = excluded.expires_at \
             WHERE url_flows.principal_issuer = excluded.principal_issuer \
             AND url_flows.principal_subject = excluded.principal_subject",
        )
        .bind(id)
        .bind(principal.issuer())
        .bind(principal.subject())
        .bind(purpose)
        .bind(now)
        .bind(expires)
        .execute(pool)
        .await
        .map(|done| done.rows_affected()))
        .map_err(|e| Error::db("registering a URL flow", &e))?;
        if n == 0 {
            return Err(Error::Config(format!(
                "elicitation {id} is registered for another user"
            )));
        }
        Ok(())
    }

    async fn get_flow_now(&self, id: &str) -> Result<Option<UrlFlow>, Error> {
        if check_label("elicitation id", id).is_err() {
            return Ok(None);
        }
        let row = on_pool!(self.store().pool(), pool => sqlx::query_as::<_, FlowTuple>(
            "SELECT elicitation_id, principal_issuer, principal_subject, purpose, outcome, \
             created_at, expires_at FROM url_flows WHERE elicitation_id = $1",
        )
        .bind(id)
        .fetch_optional(pool)
        .await)
        .map_err(|e| Error::db("reading a URL flow", &e))?;
        Ok(row.map(flow).filter(|f| f.expires_at > self.now()))
    }

    async fn latest_flow_now(
        &self,
        principal: &Principal,
        purpose: &str,
    ) -> Result<Option<UrlFlow>, Error> {
        let now = time::to_db(self.now(), "now")?;
        let row = on_pool!(self.store().pool(), pool => sqlx::query_as::<_, FlowTuple>(
            "SELECT elicitation_id, principal_issuer, principal_subject, purpose, outcome, \
             created_at, expires_at FROM url_flows WHERE principal_issuer = $1 \
             AND principal_subject = $2 AND purpose = $3 AND expires_at > $4 \
             ORDER BY created_at DESC, elicitation_id DESC LIMIT 1",
        )
        .bind(principal.issuer())
        .bind(principal.subject())
        .bind(purpose)
        .bind(now)
        .fetch_optional(pool)
        .await)
        .map_err(|e| Error::db("finding a URL flow", &e))?;
        Ok(row.map(flow))
    }

    async fn set_outcome_now(
        &self,
        principal: &Principal,
        id: &str,
        outcome: Option<&str>,
    ) -> Result<bool, Error> {
        let now = time::to_db(self.now(), "now")?;
        let n = match outcome {
            Some(outcome) => {
                check_text("outcome", outcome, MAX_OUTCOME_BYTES)?;
                on_pool!(self.store().pool(), pool => sqlx::query(
                    "UPDATE url_flows SET outcome = $4 WHERE elicitation_id = $1 \
                     AND principal_issuer = $2 AND principal_subject = $3 AND outcome IS NULL \
                     AND expires_at > $5",
                )
                .bind(id)
                .bind(principal.issuer())
                .bind(principal.subject())
                .bind(outcome)
                .bind(now)
                .execute(pool)
                .await
                .map(|done| done.rows_affected()))
            }
            None => on_pool!(self.store().pool(), pool => sqlx::query(
                "UPDATE url_flows SET outcome = NULL WHERE elicitation_id = $1 \
                 AND principal_issuer = $2 AND principal_subject = $3 AND outcome IS NOT NULL",
            )
            .bind(id)
            .bind(principal.issuer())
            .bind(principal.subject())
            .execute(pool)
            .await
            .map(|done| done.rows_affected())),
        }
        .map_err(|e| Error::db("recording a URL flow's outcome", &e))?;
        Ok(n > 0)
    }

    async fn sweep_flows_now(&self, now: SystemTime) -> Result<u64, Error> {
        let now = time::to_db(now, "the sweep time")?;
        on_pool!(self.store().pool(), pool => sqlx::query(
            "DELETE FROM url_flows WHERE expires_at <= $1",
        )
        .bind(now)
        .execute(pool)
        .await
        .map(|done| done.rows_affected()))
        .map_err(|e| Error::db("sweeping URL flows", &e))
    }
}

impl FlowStore for Vault {
    fn put_flow<'a>(
        &'a self,
        principal: &'a Principal,
        elicitation_id: &'a str,
        purpose: &'a str,
        ttl: Duration,
    ) -> BoxFuture<'a, Result<(), Error>> {
        self.put_flow_now(principal, elicitation_id, purpose, ttl)
            .boxed()
    }

    fn get_flow<'a>(
        &'a self,
        elicitation_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<UrlFlow>, Error>> {
        self.get_flow_now(elicitation_id).boxed()
    }

    fn latest_flow<'a>(
        &'a self,
        principal: &'a Principal,
        purpose: &'a str,
    ) -> BoxFuture<'a, Result<Option<UrlFlow>, Error>> {
        self.latest_flow_now(principal, purpose).boxed()
    }

    fn set_flow_outcome<'a>(
        &'a self,
        principal: &'a Principal,
        elicitation_id: &'a str,
        outcome: &'a str,
    ) -> BoxFuture<'a, Result<bool, Error>> {
        self.set_outcome_now(principal, elicitation_id, Some(outcome))
            .boxed()
    }

    fn clear_flow_outcome<'a>(
        &'a self,
        principal: &'a Principal,
        elicitation_id: &'a str,
    ) -> BoxFuture<'a, Result<bool, Error>> {
        self.set_outcome_now(principal, elicitation_id, None)
            .boxed()
    }

    fn delete_flow<'a>(
        &'a self,
        principal: &'a Principal,
        elicitation_id: &'a str,
    ) -> BoxFuture<'a, Result<bool, Error>> {
        self.delete_named(
            "DELETE FROM url_flows WHERE principal_issuer = $1 AND principal_subject = $2 \
             AND elicitation_id = $3",
            principal,
            elicitation_id,
            "deleting a URL flow",
        )
        .boxed()
    }

    fn sweep_flows(&self, now: SystemTime) -> BoxFuture<'_, Result<u64, Error>> {
        self.sweep_flows_now(now).boxed()
    }
}
