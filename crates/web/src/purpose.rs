//! What a URL mode elicitation's page is for, and the recorded outcome of confirmations.
//!
//! The pending record in the store does not say what its page should do, so the tool
//! that creates a URL elicitation registers the purpose here (with the user it is for)
//! before sending it. The map lives in this process: with several server nodes, route a
//! user's page requests to the node that created the elicitation, or keep the purpose in
//! the store once it has a field for it.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use mcp_elicit_server::Principal;

/// Purposes older than this are forgotten when the map is large (an elicitation lives
/// an hour by default).
const MAX_AGE: Duration = Duration::from_secs(24 * 60 * 60);
/// Entries above which old ones are pruned.
const PRUNE_ABOVE: usize = 10_000;

/// What the connect page leads to.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Confirmed => "confirmed",
            Self::Cancelled => "cancelled",
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub(crate) principal: Principal,
    pub(crate) purpose: Purpose,
    registered: Instant,
}

/// Purposes of pending elicitations and outcomes of finished confirmations.
#[derive(Debug, Default)]
pub(crate) struct Purposes {
    entries: Mutex<HashMap<String, Entry>>,
    outcomes: Mutex<HashMap<(Principal, String), (ConfirmOutcome, Instant)>>,
}

impl Purposes {
    fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
        m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub(crate) fn register(&self, principal: Principal, id: String, purpose: Purpose) {
        let mut map = Self::lock(&self.entries);
        if map.len() >= PRUNE_ABOVE {
            map.retain(|_, e| e.registered.elapsed() < MAX_AGE);
        }
        map.insert(
            id,
            Entry {
                principal,
                purpose,
                registered: Instant::now(),
            },
        );
    }

    pub(crate) fn get(&self, id: &str) -> Option<Entry> {
        Self::lock(&self.entries).get(id).cloned()
    }

    pub(crate) fn remove(&self, id: &str) {
        Self::lock(&self.entries).remove(id);
    }

    /// Records the first answer; `false` (and nothing changes) if one is recorded.
    pub(crate) fn record(&self, principal: Principal, id: String, outcome: ConfirmOutcome) -> bool {
        let mut map = Self::lock(&self.outcomes);
        if map.len() >= PRUNE_ABOVE {
            map.retain(|_, (_, at)| at.elapsed() < MAX_AGE);
        }
        match map.entry((principal, id)) {
            std::collections::hash_map::Entry::Occupied(_) => false,
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert((outcome, Instant::now()));
                true
            }
        }
    }

    pub(crate) fn forget_outcome(&self, principal: &Principal, id: &str) {
        Self::lock(&self.outcomes).remove(&(principal.clone(), id.to_owned()));
    }

    pub(crate) fn outcome(&self, principal: &Principal, id: &str) -> Option<ConfirmOutcome> {
        Self::lock(&self.outcomes)
            .get(&(principal.clone(), id.to_owned()))
            .map(|(o, _)| *o)
    }
}
