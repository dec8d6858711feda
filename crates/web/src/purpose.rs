//! What a URL mode elicitation's page is for, and the recorded outcome of confirmations.
//!
//! The pending record in the store does not say what its page should do, so the tool
//! that creates a URL elicitation registers the purpose (with the user it is for) before
//! sending it. Purposes and answers live in the store ([`FlowStore`]), as JSON, so any
//! server node can serve the page of an elicitation another node created, and a flow
//! started before a restart finishes after it.

use std::time::Duration;

use mcp_elicit_server::Principal;
use mcp_elicit_store::FlowStore;
use serde::{Deserialize, Serialize};

use crate::error::WebError;

/// How long a flow outlives its elicitation's URL lifetime: the tool reads a
/// confirmation's answer when the client retries, which may be a while after.
const KEEP_ANSWERS: Duration = Duration::from_secs(24 * 60 * 60);

/// What the connect page leads to.
///
/// Stored as tagged JSON (`kind`), so a node that does not know a kind refuses the page
/// rather than misreading it:
///
/// ```
/// use mcp_elicit_web::Purpose;
///
/// let secret = Purpose::Secret { name: "example-api-key".into(), label: "Example Co API key".into() };
/// assert_eq!(
///     serde_json::to_string(&secret)?,
///     r#"{"kind":"secret","name":"example-api-key","label":"Example Co API key"}"#
/// );
/// let oauth: Purpose = serde_json::from_str(r#"{"kind":"oauth","provider":"github"}"#)?;
/// assert_eq!(oauth, Purpose::OAuth { provider: "github".into() });
/// assert!(serde_json::from_str::<Purpose>(r#"{"kind":"pay"}"#).is_err());
/// assert!(serde_json::from_str::<Purpose>(r#"{"kind":"confirm","summary":"x","amount":1}"#).is_err());
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[non_exhaustive]
pub enum Purpose {
    /// Enter a secret (API key and the like), stored encrypted in the vault as `name`.
    Secret {
        /// The vault name the secret is stored under for the user.
        name: String,
        /// What the user is asked for (e.g. "Example Co API key").
        label: String,
    },
    /// Authorize this server at a configured third-party provider.
    #[serde(rename = "oauth")]
    OAuth {
        /// The provider name ([`ProviderConfig::name`](crate::ProviderConfig::name)).
        provider: String,
    },
    /// Confirm or cancel an action (a payment, an approval).
    Confirm {
        /// What is being confirmed, shown to the user.
        summary: String,
    },
}

/// The user's answer on a confirmation page.
///
/// Read back with [`Web::confirmation`](crate::Web::confirmation); `None` until the user
/// has answered:
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use std::sync::Arc;
/// # use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
/// # use mcp_elicit_store::{Keyring, Store, VaultKey};
/// # use mcp_elicit_web::Web;
/// # let user = Principal::local_user("ada");
/// # let db = Store::connect("sqlite::memory:").await?;
/// # let store = Arc::new(db.vault(Keyring::new(VaultKey::generate()?)));
/// # let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(user.clone())));
/// # let web = Web::local(url::Url::parse("http://127.0.0.1:8391")?, user.clone(), Vec::new(), hub, store).await?;
/// use mcp_elicit_web::{ConfirmOutcome, Purpose};
///
/// web.register(&user, "e-1", Purpose::Confirm { summary: "Pay 5 EUR".into() }).await?;
/// assert_eq!(web.confirmation(&user, "e-1").await?, None);
/// assert_eq!(ConfirmOutcome::Confirmed.as_str(), "confirmed");
/// assert_eq!(ConfirmOutcome::Cancelled.as_str(), "cancelled");
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfirmOutcome {
    /// The user pressed Confirm.
    Confirmed,
    /// The user pressed Cancel.
    Cancelled,
}

impl ConfirmOutcome {
    /// `"confirmed"` or `"cancelled"`.
    ///
    /// ```
    /// use mcp_elicit_web::ConfirmOutcome;
    ///
    /// assert_eq!(ConfirmOutcome::Confirmed.as_str(), "confirmed");
    /// assert_eq!(ConfirmOutcome::Cancelled.as_str(), "cancelled");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Confirmed => "confirmed",
            Self::Cancelled => "cancelled",
        }
    }
}

impl ConfirmOutcome {
    fn parse(text: &str) -> Option<Self> {
        match text {
            "confirmed" => Some(Self::Confirmed),
            "cancelled" => Some(Self::Cancelled),
            _ => None,
        }
    }
}

/// A registered page: who it is for and what it does.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub(crate) principal: Principal,
    pub(crate) purpose: Purpose,
}

/// The registered pages and answers, over the store.
pub(crate) struct Purposes<'a> {
    pub(crate) store: &'a dyn FlowStore,
    /// How long an elicitation's URL stays usable.
    pub(crate) url_ttl: Duration,
}

impl Purposes<'_> {
    pub(crate) async fn register(
        &self,
        principal: &Principal,
        id: &str,
        purpose: &Purpose,
    ) -> Result<(), WebError> {
        let text = serde_json::to_string(purpose)
            .map_err(|e| WebError::Config(format!("purpose of elicitation {id}: {e}")))?;
        let ttl = self.url_ttl.saturating_add(KEEP_ANSWERS);
        self.store.put_flow(principal, id, &text, ttl).await?;
        Ok(())
    }

    /// The page of `id`, if registered and live. A purpose this version cannot read
    /// (written by a newer node) is treated as unknown, and logged.
    pub(crate) async fn get(&self, id: &str) -> Result<Option<Entry>, WebError> {
        let Some(flow) = self.store.get_flow(id).await? else {
            return Ok(None);
        };
        match serde_json::from_str(&flow.purpose) {
            Ok(purpose) => Ok(Some(Entry {
                principal: flow.principal,
                purpose,
            })),
            Err(e) => {
                tracing::warn!(elicitation_id = id, error = %e, "unreadable stored purpose; page refused");
                Ok(None)
            }
        }
    }

    /// Records the first answer; `false` (and nothing changes) if one is recorded.
    pub(crate) async fn record(
        &self,
        principal: &Principal,
        id: &str,
        outcome: ConfirmOutcome,
    ) -> Result<bool, WebError> {
        Ok(self
            .store
            .set_flow_outcome(principal, id, outcome.as_str())
            .await?)
    }

    pub(crate) async fn forget_outcome(
        &self,
        principal: &Principal,
        id: &str,
    ) -> Result<(), WebError> {
        self.store.clear_flow_outcome(principal, id).await?;
        Ok(())
    }

    /// The answer to `principal`'s latest flow with exactly `purpose`, if it has one;
    /// the flow is forgotten as the answer is handed out (one answer, one use).
    pub(crate) async fn answered(
        &self,
        principal: &Principal,
        purpose: &Purpose,
    ) -> Result<Option<ConfirmOutcome>, WebError> {
        let text = serde_json::to_string(purpose)
            .map_err(|e| WebError::Config(format!("purpose: {e}")))?;
        let Some(flow) = self.store.latest_flow(principal, &text).await? else {
            return Ok(None);
        };
        let Some(outcome) = flow.outcome.as_deref().and_then(ConfirmOutcome::parse) else {
            return Ok(None);
        };
        // Whoever deletes the row uses the answer: two concurrent retries cannot both.
        if !self
            .store
            .delete_flow(principal, &flow.elicitation_id)
            .await?
        {
            return Ok(None);
        }
        Ok(Some(outcome))
    }

    pub(crate) async fn outcome(
        &self,
        principal: &Principal,
        id: &str,
    ) -> Result<Option<ConfirmOutcome>, WebError> {
        let Some(flow) = self.store.get_flow(id).await? else {
            return Ok(None);
        };
        if &flow.principal != principal {
            return Ok(None);
        }
        Ok(flow.outcome.as_deref().and_then(ConfirmOutcome::parse))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn purposes_are_stored_as_tagged_json_and_read_back() {
        for (purpose, json) in [
            (
                Purpose::Secret {
                    name: "example-api-key".into(),
                    label: "Example Co API key".into(),
                },
                r#"{"kind":"secret","name":"example-api-key","label":"Example Co API key"}"#,
            ),
            (
                Purpose::OAuth {
                    provider: "example".into(),
                },
                r#"{"kind":"oauth","provider":"example"}"#,
            ),
            (
                Purpose::Confirm {
                    summary: "Buy a <b> for 5 €".into(),
                },
                r#"{"kind":"confirm","summary":"Buy a <b> for 5 €"}"#,
            ),
        ] {
            assert_eq!(serde_json::to_string(&purpose).expect("json"), json);
            assert_eq!(
                serde_json::from_str::<Purpose>(json).expect("parse"),
                purpose
            );
        }
        for bad in [
            r#"{"kind":"pay"}"#,
            r#"{"kind":"oauth"}"#,
            r#"{"kind":"oauth","provider":"a","x":1}"#,
            "[]",
        ] {
            assert!(serde_json::from_str::<Purpose>(bad).is_err(), "{bad}");
        }
        assert_eq!(
            ConfirmOutcome::parse("confirmed"),
            Some(ConfirmOutcome::Confirmed)
        );
        assert_eq!(
            ConfirmOutcome::parse("cancelled"),
            Some(ConfirmOutcome::Cancelled)
        );
        assert_eq!(ConfirmOutcome::parse("maybe"), None);
    }
}
