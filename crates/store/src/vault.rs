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
    #[must_use]
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = clock;
        self
    }

    /// The store underneath.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The keyring.
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
