//! [`TokenStore`]: where sign-ins are kept, keyed by the MCP server's canonical URI, and
//! [`MemoryTokenStore`], the one for a single process.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::transport::auth::{AuthError as RmcpAuthError, CredentialStore, StoredCredentials};

/// Where sign-ins (client id, tokens, granted scopes, issuer) are kept between requests or
/// runs, keyed by the canonical URI of the MCP server they are for (the `resource`).
///
/// A host that keeps them in a file makes it readable only by the user; tokens are never
/// written anywhere else. [`StoredCredentials`]' `Debug` does not show the tokens.
///
/// ```
/// use mcp_elicit_client::auth::{MemoryTokenStore, TokenStore};
/// let store = MemoryTokenStore::default();
/// assert!(store.load("https://mcp.example.com/mcp").unwrap().is_none());
/// ```
pub trait TokenStore: Send + Sync + 'static {
    /// The sign-in kept for `resource`, if any.
    fn load(&self, resource: &str) -> Result<Option<StoredCredentials>, TokenStoreError>;
    /// Keeps `credentials` for `resource`, replacing what was there.
    fn save(&self, resource: &str, credentials: &StoredCredentials) -> Result<(), TokenStoreError>;
    /// Forgets the sign-in for `resource`.
    fn remove(&self, resource: &str) -> Result<(), TokenStoreError>;
}

/// A [`TokenStore`] failure (its text must not contain a token).
///
/// ```
/// use mcp_elicit_client::auth::TokenStoreError;
///
/// let error = TokenStoreError("~/.config/my-host/tokens.json is not readable".into());
/// assert_eq!(error.to_string(), "~/.config/my-host/tokens.json is not readable");
/// ```
#[derive(Debug, Clone, thiserror::Error)]
#[error("{0}")]
pub struct TokenStoreError(pub String);

/// A [`TokenStore`] in memory: sign-ins last as long as the process. Clones share the
/// entries; `Debug` shows only how many there are.
///
/// ```
/// use mcp_elicit_client::auth::{MemoryTokenStore, StoredCredentials, TokenStore};
///
/// let store = MemoryTokenStore::default();
/// let shared = store.clone();
/// let credentials = StoredCredentials::new("client-1".into(), None, vec!["read".into()], None);
/// shared.save("https://mcp.example.com/mcp", &credentials)?;
/// let loaded = store.load("https://mcp.example.com/mcp")?.unwrap();
/// assert_eq!(loaded.client_id, "client-1");
/// assert_eq!(format!("{store:?}"), "MemoryTokenStore { sign_ins: 1 }");
/// store.remove("https://mcp.example.com/mcp")?;
/// assert!(store.load("https://mcp.example.com/mcp")?.is_none());
/// # Ok::<(), mcp_elicit_client::auth::TokenStoreError>(())
/// ```
#[derive(Clone, Default)]
pub struct MemoryTokenStore {
    entries: Arc<Mutex<HashMap<String, StoredCredentials>>>,
}

impl std::fmt::Debug for MemoryTokenStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self
            .entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len();
        f.debug_struct("MemoryTokenStore")
            .field("sign_ins", &n)
            .finish()
    }
}

impl MemoryTokenStore {
    /// The resources that have a sign-in, sorted.
    ///
    /// ```
    /// use mcp_elicit_client::auth::{MemoryTokenStore, StoredCredentials, TokenStore};
    ///
    /// let store = MemoryTokenStore::default();
    /// let credentials = StoredCredentials::new("c".into(), None, Vec::new(), None);
    /// store.save("https://b.example/mcp", &credentials)?;
    /// store.save("https://a.example/mcp", &credentials)?;
    /// assert_eq!(store.resources(), ["https://a.example/mcp", "https://b.example/mcp"]);
    /// # Ok::<(), mcp_elicit_client::auth::TokenStoreError>(())
    /// ```
    pub fn resources(&self) -> Vec<String> {
        let mut keys: Vec<String> = self
            .entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .keys()
            .cloned()
            .collect();
        keys.sort();
        keys
    }
}

impl TokenStore for MemoryTokenStore {
    fn load(&self, resource: &str) -> Result<Option<StoredCredentials>, TokenStoreError> {
        Ok(self
            .entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(resource)
            .cloned())
    }

    fn save(&self, resource: &str, credentials: &StoredCredentials) -> Result<(), TokenStoreError> {
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(resource.to_owned(), credentials.clone());
        Ok(())
    }

    fn remove(&self, resource: &str) -> Result<(), TokenStoreError> {
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(resource);
        Ok(())
    }
}

/// rmcp's credential store for one resource, backed by a [`TokenStore`].
///
/// Saves are held back until the sign-in is complete ([`Keyed::commit`]), so a failed
/// sign-in leaves nothing behind; after that they go straight through (refreshes).
#[derive(Clone)]
pub(crate) struct Keyed {
    store: Arc<dyn TokenStore>,
    resource: String,
    state: Arc<Mutex<KeyedState>>,
}

#[derive(Default)]
struct KeyedState {
    /// Until the sign-in completes: what rmcp saved, kept here only.
    pending: Option<StoredCredentials>,
    committed: bool,
}

impl Keyed {
    pub(crate) fn new(store: Arc<dyn TokenStore>, resource: String, committed: bool) -> Self {
        Self {
            store,
            resource,
            state: Arc::new(Mutex::new(KeyedState {
                pending: None,
                committed,
            })),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, KeyedState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Writes the pending sign-in to the store; later saves go straight through.
    pub(crate) fn commit(&self) -> Result<(), TokenStoreError> {
        let pending = {
            let mut state = self.lock();
            state.committed = true;
            state.pending.take()
        };
        match pending {
            Some(credentials) => self.store.save(&self.resource, &credentials),
            None => Ok(()),
        }
    }
}

fn store_error(e: TokenStoreError) -> RmcpAuthError {
    RmcpAuthError::CredentialStoreError(e.0)
}

#[async_trait::async_trait]
impl CredentialStore for Keyed {
    async fn load(&self) -> Result<Option<StoredCredentials>, RmcpAuthError> {
        if let Some(pending) = self.lock().pending.clone() {
            return Ok(Some(pending));
        }
        self.store.load(&self.resource).map_err(store_error)
    }

    async fn save(&self, credentials: StoredCredentials) -> Result<(), RmcpAuthError> {
        // Only sign-ins with a token are kept (never a bare registration).
        if credentials.token_response.is_none() {
            return Ok(());
        }
        {
            let mut state = self.lock();
            if !state.committed {
                state.pending = Some(credentials);
                return Ok(());
            }
        }
        self.store
            .save(&self.resource, &credentials)
            .map_err(store_error)
    }

    async fn clear(&self) -> Result<(), RmcpAuthError> {
        self.lock().pending = None;
        self.store.remove(&self.resource).map_err(store_error)
    }

    /// The authorization server said the refresh token is no good: forget the sign-in.
    async fn on_refresh_token_rejected(
        &self,
        _credentials: &StoredCredentials,
    ) -> Result<(), RmcpAuthError> {
        self.clear().await
    }
}
