//! The encrypted vault: third-party secrets, third-party OAuth tokens and one-time OAuth
//! `state` records, bound to the user they belong to.
//!
//! This is the server-side state behind URL mode elicitation (specification 2025-11-25,
//! "URL Mode Elicitation for Sensitive Data" and "... for OAuth Flows"): the user enters
//! an API key on the server's own page, or completes a third-party OAuth flow there; the
//! server keeps the result here, keyed by the authenticated user, and never sends it to
//! the MCP client.
//!
//! Every value is sealed with XChaCha20-Poly1305 under the configured [`Keyring`], with
//! additional data naming the purpose, the user (issuer and subject) and the record, so a
//! database reader sees only ciphertext and a row moved to another user does not decrypt.

mod oauth_state;
mod secrets;
mod tokens;

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use futures::FutureExt;
use futures::future::BoxFuture;
use mcp_elicit_server::{Clock, Principal, SystemClock};
use secrecy::SecretString;

use crate::crypto::{Aad, Keyring};
use crate::db::{Store, on_pool};
use crate::error::Error;

/// The longest name, provider or elicitation id accepted.
const MAX_LABEL_CHARS: usize = 256;

/// A secret as stored for a user.
///
/// Its two times tell a first entry from a replacement (here on a clock moved by hand):
///
/// ```
/// # use std::sync::{Arc, Mutex};
/// # use std::time::{Duration, SystemTime};
/// # use mcp_elicit_server::Clock;
/// # struct TestClock(Mutex<SystemTime>);
/// # impl Clock for TestClock {
/// #     fn now(&self) -> SystemTime {
/// #         *self.0.lock().unwrap()
/// #     }
/// # }
/// use mcp_elicit_server::Principal;
/// use mcp_elicit_store::{Keyring, Store, VaultKey, VaultStore};
/// use secrecy::{ExposeSecret, SecretString};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let clock = Arc::new(TestClock(Mutex::new(SystemTime::now())));
/// let store = Store::connect("sqlite::memory:").await?;
/// let vault = store.vault(Keyring::new(VaultKey::generate()?)).with_clock(clock.clone());
/// let alice = Principal::authenticated("https://auth.example.com", "alice");
///
/// vault.put_secret(&alice, "api-key", &SecretString::from("sk_old")).await?;
/// *clock.0.lock().unwrap() += Duration::from_secs(60);
/// vault.put_secret(&alice, "api-key", &SecretString::from("sk_new")).await?;
///
/// let secret = vault.get_secret(&alice, "api-key").await?.expect("stored");
/// assert_eq!(secret.value.expose_secret(), "sk_new");
/// assert_eq!(secret.updated_at.duration_since(secret.created_at)?, Duration::from_secs(60));
/// // The value stays out of logs.
/// assert!(!format!("{secret:?}").contains("sk_new"));
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct StoredSecret {
    /// The value (its `Debug` is redacted).
    pub value: SecretString,
    /// When it was first stored.
    pub created_at: SystemTime,
    /// When it was last replaced.
    pub updated_at: SystemTime,
}

/// A stored secret's name and times, without its value.
///
/// What [`VaultStore::list_secrets`] returns, sorted by name (byte order, whatever the
/// database's collation), for a "connected accounts" page:
///
/// ```
/// use mcp_elicit_server::Principal;
/// use mcp_elicit_store::{Keyring, Store, VaultKey, VaultStore};
/// use secrecy::SecretString;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let store = Store::connect("sqlite::memory:").await?;
/// let vault = store.vault(Keyring::new(VaultKey::generate()?));
/// let alice = Principal::authenticated("https://auth.example.com", "alice");
/// for name in ["stripe", "Github", "github"] {
///     vault.put_secret(&alice, name, &SecretString::from("value")).await?;
/// }
/// let names: Vec<String> = vault.list_secrets(&alice).await?.into_iter().map(|s| s.name).collect();
/// assert_eq!(names, ["Github", "github", "stripe"]);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecretInfo {
    /// The name it was stored under.
    pub name: String,
    /// When it was first stored.
    pub created_at: SystemTime,
    /// When it was last replaced.
    pub updated_at: SystemTime,
}

/// Tokens a third-party authorization server issued to this server for a user.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
///
/// use mcp_elicit_server::Principal;
/// use mcp_elicit_store::{Error, Keyring, OAuthTokens, Store, VaultKey, VaultStore};
/// use secrecy::{ExposeSecret, SecretString};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let store = Store::connect("sqlite::memory:").await?;
/// let vault = store.vault(Keyring::new(VaultKey::generate()?));
/// let alice = Principal::authenticated("https://auth.example.com", "alice");
///
/// // What a token endpoint answered (expires_in 3600, scope "repo read:user").
/// let expires = UNIX_EPOCH + Duration::from_secs(2_000_000_000);
/// let mut tokens = OAuthTokens::bearer(SecretString::from("gho_access"));
/// tokens.refresh_token = Some(SecretString::from("ghr_refresh"));
/// tokens.expires_at = Some(expires);
/// tokens.scopes = vec!["repo".into(), "read:user".into()];
/// vault.put_tokens(&alice, "github", &tokens).await?;
///
/// let back = vault.get_tokens(&alice, "github").await?.expect("stored");
/// assert_eq!(back.access_token.expose_secret(), "gho_access");
/// assert_eq!(back.refresh_token.as_ref().map(|t| t.expose_secret().to_owned()), Some("ghr_refresh".into()));
/// assert_eq!((back.expires_at, back.scopes.clone()), (Some(expires), tokens.scopes.clone()));
///
/// // Scopes are stored space-separated: one with a space in it is refused.
/// tokens.scopes = vec!["repo admin".into()];
/// assert!(matches!(vault.put_tokens(&alice, "github", &tokens).await, Err(Error::Config(_))));
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct OAuthTokens {
    /// The access token.
    pub access_token: SecretString,
    /// The refresh token, if one was issued.
    pub refresh_token: Option<SecretString>,
    /// The token type (normally `Bearer`).
    pub token_type: String,
    /// When the access token expires, if the server said.
    pub expires_at: Option<SystemTime>,
    /// The granted scopes.
    pub scopes: Vec<String>,
}

impl OAuthTokens {
    /// A bearer access token with no refresh token, expiry or scopes.
    ///
    /// ```
    /// use mcp_elicit_store::OAuthTokens;
    /// use secrecy::{ExposeSecret, SecretString};
    ///
    /// let tokens = OAuthTokens::bearer(SecretString::from("gho_access"));
    /// assert_eq!(tokens.token_type, "Bearer");
    /// assert_eq!(tokens.access_token.expose_secret(), "gho_access");
    /// assert!(tokens.refresh_token.is_none() && tokens.expires_at.is_none() && tokens.scopes.is_empty());
    /// ```
    pub fn bearer(access_token: SecretString) -> Self {
        Self {
            access_token,
            refresh_token: None,
            token_type: "Bearer".to_owned(),
            expires_at: None,
            scopes: Vec::new(),
        }
    }
}

/// A one-time OAuth `state` record, returned once by [`VaultStore::take_oauth_state`].
///
/// A `state` that comes back after its time to live is consumed and reported as expired
/// (here on a clock moved by hand):
///
/// ```
/// # use std::sync::{Arc, Mutex};
/// # use std::time::{Duration, SystemTime};
/// # use mcp_elicit_server::Clock;
/// # struct TestClock(Mutex<SystemTime>);
/// # impl Clock for TestClock {
/// #     fn now(&self) -> SystemTime {
/// #         *self.0.lock().unwrap()
/// #     }
/// # }
/// use mcp_elicit_server::Principal;
/// use mcp_elicit_store::{Error, Keyring, Store, VaultKey, VaultStore};
/// use secrecy::{ExposeSecret, SecretString};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let clock = Arc::new(TestClock(Mutex::new(SystemTime::now())));
/// let store = Store::connect("sqlite::memory:").await?;
/// let vault = store.vault(Keyring::new(VaultKey::generate()?)).with_clock(clock.clone());
/// let alice = Principal::authenticated("https://auth.example.com", "alice");
/// let verifier = SecretString::from("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
/// let ten_minutes = Duration::from_secs(600);
///
/// let state = vault.create_oauth_state(&alice, "e1", "github", &verifier, ten_minutes).await?;
/// let taken = vault.take_oauth_state(&alice, state.expose_secret()).await?;
/// assert_eq!((taken.elicitation_id.as_str(), taken.provider.as_str()), ("e1", "github"));
/// assert_eq!(taken.pkce_verifier.expose_secret(), verifier.expose_secret());
/// assert_eq!(taken.expires_at.duration_since(taken.created_at)?, ten_minutes);
///
/// let late = vault.create_oauth_state(&alice, "e2", "github", &verifier, ten_minutes).await?;
/// *clock.0.lock().unwrap() += ten_minutes;
/// assert!(matches!(vault.take_oauth_state(&alice, late.expose_secret()).await, Err(Error::Expired(_))));
/// // Consumed by that attempt: now it is unknown.
/// assert!(matches!(vault.take_oauth_state(&alice, late.expose_secret()).await, Err(Error::NotFound(_))));
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct OAuthState {
    /// The URL mode elicitation the flow completes.
    pub elicitation_id: String,
    /// The user who started it.
    pub principal: Principal,
    /// The third-party provider.
    pub provider: String,
    /// The PKCE code verifier to send with the token request.
    pub pkce_verifier: SecretString,
    /// When it was created.
    pub created_at: SystemTime,
    /// When it expires.
    pub expires_at: SystemTime,
}

/// Encrypted per-user secrets, OAuth tokens and one-time OAuth `state` records.
///
/// Every lookup names the user; another user's record is reported as absent. Designed
/// for the web layer of URL mode elicitation: the secret page calls
/// [`put_secret`](VaultStore::put_secret); the connect page calls
/// [`create_oauth_state`](VaultStore::create_oauth_state) before redirecting to the
/// provider; the OAuth callback calls [`take_oauth_state`](VaultStore::take_oauth_state)
/// with the user of the browser session, then [`put_tokens`](VaultStore::put_tokens).
///
/// A third-party OAuth flow behind a URL mode elicitation, end to end:
///
/// ```
/// use std::time::Duration;
///
/// use mcp_elicit_server::Principal;
/// use mcp_elicit_store::{Error, Keyring, OAuthTokens, Store, VaultKey, VaultStore};
/// use secrecy::{ExposeSecret, SecretString};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let store = Store::connect("sqlite::memory:").await?;
/// let vault = store.vault(Keyring::new(VaultKey::generate()?));
/// let alice = Principal::authenticated("https://auth.example.com", "alice");
/// let mallory = Principal::authenticated("https://auth.example.com", "mallory");
///
/// // The connect page of elicitation e1, before redirecting alice to the provider.
/// let verifier = SecretString::from("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
/// let state = vault
///     .create_oauth_state(&alice, "e1", "github", &verifier, Duration::from_secs(600))
///     .await?;
///
/// // The callback, reached with another user's browser session: refused, not consumed.
/// let phished = vault.take_oauth_state(&mallory, state.expose_secret()).await;
/// assert!(matches!(phished, Err(Error::NotFound(_))));
///
/// // Alice's browser: the record, exactly once.
/// let taken = vault.take_oauth_state(&alice, state.expose_secret()).await?;
/// assert_eq!(taken.elicitation_id, "e1");
/// assert!(vault.take_oauth_state(&alice, state.expose_secret()).await.is_err());
///
/// // The provider's tokens (from the token request with `taken.pkce_verifier`).
/// vault
///     .put_tokens(&alice, "github", &OAuthTokens::bearer(SecretString::from("gho_abc")))
///     .await?;
/// assert!(vault.get_tokens(&alice, "github").await?.is_some());
/// assert!(vault.get_tokens(&mallory, "github").await?.is_none());
/// assert!(vault.delete_tokens(&alice, "github").await?);
/// assert!(!vault.delete_tokens(&alice, "github").await?);
/// # Ok(())
/// # }
/// ```
pub trait VaultStore: Send + Sync + 'static {
    /// Stores (or replaces) the secret `name` of `principal`.
    fn put_secret<'a>(
        &'a self,
        principal: &'a Principal,
        name: &'a str,
        secret: &'a SecretString,
    ) -> BoxFuture<'a, Result<(), Error>>;

    /// The secret `name` of `principal`, decrypted.
    fn get_secret<'a>(
        &'a self,
        principal: &'a Principal,
        name: &'a str,
    ) -> BoxFuture<'a, Result<Option<StoredSecret>, Error>>;

    /// The names of `principal`'s secrets, sorted.
    fn list_secrets<'a>(
        &'a self,
        principal: &'a Principal,
    ) -> BoxFuture<'a, Result<Vec<SecretInfo>, Error>>;

    /// Deletes the secret `name` of `principal`; whether there was one.
    fn delete_secret<'a>(
        &'a self,
        principal: &'a Principal,
        name: &'a str,
    ) -> BoxFuture<'a, Result<bool, Error>>;

    /// Stores (or replaces) `principal`'s tokens for `provider`.
    fn put_tokens<'a>(
        &'a self,
        principal: &'a Principal,
        provider: &'a str,
        tokens: &'a OAuthTokens,
    ) -> BoxFuture<'a, Result<(), Error>>;

    /// `principal`'s tokens for `provider`, decrypted.
    fn get_tokens<'a>(
        &'a self,
        principal: &'a Principal,
        provider: &'a str,
    ) -> BoxFuture<'a, Result<Option<OAuthTokens>, Error>>;

    /// Deletes `principal`'s tokens for `provider`; whether there were any.
    fn delete_tokens<'a>(
        &'a self,
        principal: &'a Principal,
        provider: &'a str,
    ) -> BoxFuture<'a, Result<bool, Error>>;

    /// Records a one-time OAuth `state` for an authorization request and returns the raw
    /// value to put in the authorization URL (256 random bits, URL-safe). Only its SHA-256
    /// is stored; the PKCE verifier is stored encrypted.
    fn create_oauth_state<'a>(
        &'a self,
        principal: &'a Principal,
        elicitation_id: &'a str,
        provider: &'a str,
        pkce_verifier: &'a SecretString,
        ttl: Duration,
    ) -> BoxFuture<'a, Result<SecretString, Error>>;

    /// Consumes the `state` returned to the OAuth callback, exactly once: of concurrent
    /// callers only one gets it. [`Error::NotFound`] if it is unknown, already used, or
    /// belongs to another user than `principal` (the user of the browser session that
    /// reached the callback; another user's attempt does not consume it);
    /// [`Error::Expired`] (and consumed) if it expired.
    fn take_oauth_state<'a>(
        &'a self,
        principal: &'a Principal,
        state: &'a str,
    ) -> BoxFuture<'a, Result<OAuthState, Error>>;

    /// Deletes the OAuth `state` records that expired at `now`; how many.
    fn sweep_oauth_states(&self, now: SystemTime) -> BoxFuture<'_, Result<u64, Error>>;
}

/// A [`VaultStore`] and [`SessionStore`](crate::SessionStore) on a [`Store`].
///
/// Cloning is cheap.
///
/// Secrets of the server's own secret page, per user:
///
/// ```
/// use mcp_elicit_server::Principal;
/// use mcp_elicit_store::{Error, Keyring, Store, VaultKey, VaultStore};
/// use secrecy::{ExposeSecret, SecretString};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let store = Store::connect("sqlite::memory:").await?;
/// let vault = store.vault(Keyring::new(VaultKey::generate()?));
/// let alice = Principal::authenticated("https://auth.example.com", "alice");
/// let bob = Principal::authenticated("https://auth.example.com", "bob");
///
/// vault.put_secret(&alice, "stripe", &SecretString::from("sk_live_123")).await?;
/// let secret = vault.get_secret(&alice, "stripe").await?.expect("stored");
/// assert_eq!(secret.value.expose_secret(), "sk_live_123");
///
/// // Another user's lookup finds nothing, and lists nothing.
/// assert!(vault.get_secret(&bob, "stripe").await?.is_none());
/// assert!(vault.list_secrets(&bob).await?.is_empty());
///
/// // Names are 1 to 256 characters without control characters.
/// let refused = vault.put_secret(&alice, "", &SecretString::from("x")).await;
/// assert!(matches!(refused, Err(Error::Config(_))));
///
/// assert!(vault.delete_secret(&alice, "stripe").await?);
/// assert!(vault.get_secret(&alice, "stripe").await?.is_none());
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct Vault {
    store: Store,
    keys: Arc<Keyring>,
    clock: Arc<dyn Clock>,
}

impl fmt::Debug for Vault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Vault")
            .field("backend", &self.store.backend())
            .field("current_key", &self.keys.current_id())
            .finish_non_exhaustive()
    }
}

impl Store {
    /// The vault and browser sessions on this store, encrypting with `keys`.
    ///
    /// ```
    /// use mcp_elicit_store::{Keyring, Store, VaultKey};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let store = Store::connect("sqlite::memory:").await?;
    /// let key = VaultKey::generate()?;
    /// let vault = store.vault(Keyring::new(key.clone()));
    /// // Its Debug names the backend and the key id, nothing secret.
    /// assert!(format!("{vault:?}").contains(&key.id()));
    /// # Ok(())
    /// # }
    /// ```
    pub fn vault(&self, keys: Keyring) -> Vault {
        Vault {
            store: self.clone(),
            keys: Arc::new(keys),
            clock: Arc::new(SystemClock),
        }
    }
}

impl Vault {
    /// Uses `clock` for "now" (creation and expiry checks) instead of the system clock.
    ///
    /// Browser sessions expiring on a test's clock:
    ///
    /// ```
    /// # use std::sync::{Arc, Mutex};
    /// # use std::time::{Duration, SystemTime};
    /// use mcp_elicit_server::{Clock, Principal};
    /// use mcp_elicit_store::{Keyring, SessionStore, Store, VaultKey};
    /// use secrecy::ExposeSecret;
    ///
    /// struct TestClock(Mutex<SystemTime>);
    /// impl Clock for TestClock {
    ///     fn now(&self) -> SystemTime {
    ///         *self.0.lock().unwrap()
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let clock = Arc::new(TestClock(Mutex::new(SystemTime::now())));
    /// let store = Store::connect("sqlite::memory:").await?;
    /// let vault = store.vault(Keyring::new(VaultKey::generate()?)).with_clock(clock.clone());
    /// let alice = Principal::authenticated("https://auth.example.com", "alice");
    ///
    /// let session = vault.create_browser_session(&alice, Duration::from_secs(3600)).await?;
    /// assert!(vault.get_browser_session(session.id.expose_secret()).await?.is_some());
    /// *clock.0.lock().unwrap() += Duration::from_secs(3600);
    /// assert!(vault.get_browser_session(session.id.expose_secret()).await?.is_none());
    /// # Ok(())
    /// # }
    /// ```
    #[must_use]
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = clock;
        self
    }

    /// The store underneath.
    ///
    /// ```
    /// use mcp_elicit_store::{Backend, Keyring, Store, VaultKey};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let vault = Store::connect("sqlite::memory:").await?.vault(Keyring::new(VaultKey::generate()?));
    /// assert_eq!(vault.store().backend(), Backend::Sqlite);
    /// # Ok(())
    /// # }
    /// ```
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The keyring.
    ///
    /// ```
    /// use mcp_elicit_store::{Keyring, Store, VaultKey};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let key = VaultKey::generate()?;
    /// let vault = Store::connect("sqlite::memory:").await?.vault(Keyring::new(key.clone()));
    /// assert_eq!(vault.keys().current_id(), key.id());
    /// # Ok(())
    /// # }
    /// ```
    pub fn keys(&self) -> &Keyring {
        &self.keys
    }

    pub(crate) fn now(&self) -> SystemTime {
        self.clock.now()
    }

    /// Re-encrypts every secret and token set stored under an older key with the current
    /// key; returns how many rows were rewritten. Run it after putting a new key first in
    /// the [`Keyring`] (keeping the old one with [`Keyring::with_previous`]); once it
    /// returns and the longest OAuth `state` / browser session lifetime has passed, the
    /// old key can be dropped from configuration.
    ///
    /// Secrets and token sets count; rows already under the current key are left alone:
    ///
    /// ```
    /// use mcp_elicit_server::Principal;
    /// use mcp_elicit_store::{Keyring, OAuthTokens, Store, VaultKey, VaultStore};
    /// use secrecy::SecretString;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let store = Store::connect("sqlite::memory:").await?;
    /// let alice = Principal::authenticated("https://auth.example.com", "alice");
    /// let old = VaultKey::from_bytes([1; 32]);
    /// let before = store.vault(Keyring::new(old.clone()));
    /// before.put_secret(&alice, "stripe", &SecretString::from("sk_123")).await?;
    /// before.put_tokens(&alice, "github", &OAuthTokens::bearer(SecretString::from("gho_1"))).await?;
    ///
    /// let after = store.vault(Keyring::new(VaultKey::from_bytes([2; 32])).with_previous(old));
    /// assert_eq!(after.reencrypt().await?, 2);
    /// assert_eq!(after.reencrypt().await?, 0); // nothing left under the old key
    /// # Ok(())
    /// # }
    /// ```
    pub async fn reencrypt(&self) -> Result<u64, Error> {
        Ok(self.reencrypt_secrets().await? + self.reencrypt_tokens().await?)
    }

    /// Runs `sql`, a `DELETE` of `principal`'s row named `name` (bound as `$1` issuer, `$2`
    /// subject, `$3` name); returns whether a row went. `doing` names the work in errors.
    pub(crate) async fn delete_named(
        &self,
        sql: &'static str,
        principal: &Principal,
        name: &str,
        doing: &'static str,
    ) -> Result<bool, Error> {
        let n = on_pool!(self.store.pool(), pool => sqlx::query(sql)
        .bind(principal.issuer())
        .bind(principal.subject())
        .bind(name)
        .execute(pool)
        .await
        .map(|done| done.rows_affected()))
        .map_err(|e| Error::db(doing, &e))?;
        Ok(n > 0)
    }
}

/// Checks a name, provider or elicitation id: 1 to 256 characters, no control characters.
pub(crate) fn check_label(kind: &str, value: &str) -> Result<(), Error> {
    let count = value.chars().count();
    if count == 0 || count > MAX_LABEL_CHARS {
        return Err(Error::Config(format!(
            "the {kind} must have 1 to {MAX_LABEL_CHARS} characters (got {count})"
        )));
    }
    if value.chars().any(char::is_control) {
        return Err(Error::Config(format!(
            "the {kind} contains control characters"
        )));
    }
    Ok(())
}

/// Additional data for a value of `principal`.
pub(crate) fn user_aad(
    purpose: &'static str,
    principal: &Principal,
    extra: &[&[u8]],
    label: String,
) -> Aad {
    let mut parts: Vec<&[u8]> = vec![
        principal.issuer().as_bytes(),
        principal.subject().as_bytes(),
    ];
    parts.extend_from_slice(extra);
    Aad::new(purpose, &parts, label)
}

impl VaultStore for Vault {
    fn put_secret<'a>(
        &'a self,
        principal: &'a Principal,
        name: &'a str,
        secret: &'a SecretString,
    ) -> BoxFuture<'a, Result<(), Error>> {
        self.put_secret_now(principal, name, secret).boxed()
    }

    fn get_secret<'a>(
        &'a self,
        principal: &'a Principal,
        name: &'a str,
    ) -> BoxFuture<'a, Result<Option<StoredSecret>, Error>> {
        self.get_secret_now(principal, name).boxed()
    }

    fn list_secrets<'a>(
        &'a self,
        principal: &'a Principal,
    ) -> BoxFuture<'a, Result<Vec<SecretInfo>, Error>> {
        self.list_secrets_now(principal).boxed()
    }

    fn delete_secret<'a>(
        &'a self,
        principal: &'a Principal,
        name: &'a str,
    ) -> BoxFuture<'a, Result<bool, Error>> {
        self.delete_secret_now(principal, name).boxed()
    }

    fn put_tokens<'a>(
        &'a self,
        principal: &'a Principal,
        provider: &'a str,
        tokens: &'a OAuthTokens,
    ) -> BoxFuture<'a, Result<(), Error>> {
        self.put_tokens_now(principal, provider, tokens).boxed()
    }

    fn get_tokens<'a>(
        &'a self,
        principal: &'a Principal,
        provider: &'a str,
    ) -> BoxFuture<'a, Result<Option<OAuthTokens>, Error>> {
        self.get_tokens_now(principal, provider).boxed()
    }

    fn delete_tokens<'a>(
        &'a self,
        principal: &'a Principal,
        provider: &'a str,
    ) -> BoxFuture<'a, Result<bool, Error>> {
        self.delete_tokens_now(principal, provider).boxed()
    }

    fn create_oauth_state<'a>(
        &'a self,
        principal: &'a Principal,
        elicitation_id: &'a str,
        provider: &'a str,
        pkce_verifier: &'a SecretString,
        ttl: Duration,
    ) -> BoxFuture<'a, Result<SecretString, Error>> {
        self.create_oauth_state_now(principal, elicitation_id, provider, pkce_verifier, ttl)
            .boxed()
    }

    fn take_oauth_state<'a>(
        &'a self,
        principal: &'a Principal,
        state: &'a str,
    ) -> BoxFuture<'a, Result<OAuthState, Error>> {
        self.take_oauth_state_now(principal, state).boxed()
    }

    fn sweep_oauth_states(&self, now: SystemTime) -> BoxFuture<'_, Result<u64, Error>> {
        self.sweep_oauth_states_now(now).boxed()
    }
}
