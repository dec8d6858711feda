//! Browser sign-ins in progress (OpenID Connect authorization code with PKCE): table
//! `login_states`.
//!
//! The sign-in `state` and the browser-binding cookie are random values the web layer
//! makes; only their SHA-256 is stored. The `nonce`, the PKCE verifier and the page to
//! return to are sealed together, with additional data naming the `state`. Taking a
//! sign-in is one `DELETE ... RETURNING`, so a `state` is used at most once, on whichever
//! node the authorization server redirects the browser to, and a sign-in started before
//! a restart can finish after it.

use std::time::{Duration, SystemTime};

use futures::FutureExt;
use futures::future::BoxFuture;
use secrecy::{ExposeSecret, SecretString};
use serde_json::json;
use subtle::ConstantTimeEq;

use crate::crypto::{Aad, token_hash};
use crate::db::on_pool;
use crate::error::Error;
use crate::time;
use crate::vault::Vault;

/// A `state` or binding longer than this is not one of ours (no lookup is made).
const MAX_TOKEN_CHARS: usize = 512;
/// What the errors call a sign-in.
const WHAT: &str = "sign-in state";

/// A sign-in in progress: what the callback needs to finish it.
///
/// ```
/// use mcp_elicit_store::LoginState;
/// use secrecy::SecretString;
///
/// // Made by the sign-in page along with the authorization request it redirects to.
/// let login = LoginState {
///     nonce: SecretString::from("n-0S6_WzA2Mj"),
///     pkce_verifier: SecretString::from("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
///     return_to: "/connect?elicitationId=e1".to_owned(),
/// };
/// // Debug never shows the nonce or the verifier.
/// assert!(!format!("{login:?}").contains("dBjftJeZ"));
/// ```
#[derive(Debug, Clone)]
pub struct LoginState {
    /// The OpenID Connect `nonce` sent in the authorization request.
    pub nonce: SecretString,
    /// The PKCE code verifier.
    pub pkce_verifier: SecretString,
    /// The local path to return the browser to.
    pub return_to: String,
}

/// A sign-in taken by [`LoginStore::take_login_state`].
///
/// ```
/// use std::time::{Duration, SystemTime};
///
/// use mcp_elicit_store::{Keyring, LoginState, LoginStore, Store, VaultKey};
/// use secrecy::{ExposeSecret, SecretString};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let vault = Store::connect("sqlite::memory:").await?.vault(Keyring::new(VaultKey::generate()?));
/// let login = LoginState {
///     nonce: SecretString::from("n-0S6_WzA2Mj"),
///     pkce_verifier: SecretString::from("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
///     return_to: "/connect?elicitationId=e1".to_owned(),
/// };
/// vault.create_login_state("state-1", "binding-1", &login, Duration::from_secs(300), 1000).await?;
///
/// let taken = vault.take_login_state("state-1").await?;
/// assert_eq!(taken.login.return_to, "/connect?elicitationId=e1");
/// assert_eq!(taken.login.nonce.expose_secret(), "n-0S6_WzA2Mj");
/// assert!(taken.expires_at > SystemTime::now());
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct TakenLogin {
    /// The sign-in.
    pub login: LoginState,
    /// When it expires (a taken sign-in is never expired: that is an error).
    pub expires_at: SystemTime,
    binding_hash: Vec<u8>,
}

impl TakenLogin {
    /// Whether `binding` (the browser's binding cookie) is the one the sign-in was
    /// started with; compared in constant time.
    ///
    /// Only the hash of the binding cookie is stored; a callback arriving in another browser
    /// (a sign-in link sent to a victim) does not match:
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// use mcp_elicit_store::{Keyring, LoginState, LoginStore, Store, VaultKey};
    /// use secrecy::SecretString;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let vault = Store::connect("sqlite::memory:").await?.vault(Keyring::new(VaultKey::generate()?));
    /// let login = LoginState {
    ///     nonce: SecretString::from("nonce"),
    ///     pkce_verifier: SecretString::from("verifier"),
    ///     return_to: "/".to_owned(),
    /// };
    /// vault.create_login_state("state-1", "binding-1", &login, Duration::from_secs(300), 1000).await?;
    /// let taken = vault.take_login_state("state-1").await?;
    /// assert!(taken.verify_binding("binding-1"));
    /// assert!(!taken.verify_binding("another-browser"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn verify_binding(&self, binding: &str) -> bool {
        token_hash(binding).ct_eq(&self.binding_hash).into()
    }
}

/// Sign-ins in progress, keyed by the hash of their `state`.
///
/// ```
/// use std::time::{Duration, SystemTime};
///
/// use mcp_elicit_store::{Error, Keyring, LoginState, LoginStore, Store, VaultKey};
/// use secrecy::SecretString;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let vault = Store::connect("sqlite::memory:").await?.vault(Keyring::new(VaultKey::generate()?));
/// let login = LoginState {
///     nonce: SecretString::from("nonce"),
///     pkce_verifier: SecretString::from("verifier"),
///     return_to: "/".to_owned(),
/// };
/// let five_minutes = Duration::from_secs(300);
///
/// // At most 2 live sign-ins: a third is not recorded (anonymous requests cannot grow state).
/// assert!(vault.create_login_state("s1", "b1", &login, five_minutes, 2).await?);
/// assert!(vault.create_login_state("s2", "b2", &login, five_minutes, 2).await?);
/// assert!(!vault.create_login_state("s3", "b3", &login, five_minutes, 2).await?);
///
/// // A `state` is used at most once.
/// vault.take_login_state("s1").await?;
/// assert!(matches!(vault.take_login_state("s1").await, Err(Error::NotFound(_))));
/// assert!(matches!(vault.take_login_state("s3").await, Err(Error::NotFound(_))));
///
/// // Abandoned sign-ins go with the sweep.
/// assert_eq!(vault.sweep_login_states(SystemTime::now() + five_minutes).await?, 1);
/// # Ok(())
/// # }
/// ```
pub trait LoginStore: Send + Sync + 'static {
    /// Records a sign-in for `state` (from the authorization request) bound to the
    /// browser holding `binding`, lasting `ttl`. Returns `false` (and records nothing)
    /// when `max_live` unexpired sign-ins exist already: a bound on what anonymous
    /// requests can make the server keep.
    fn create_login_state<'a>(
        &'a self,
        state: &'a str,
        binding: &'a str,
        login: &'a LoginState,
        ttl: Duration,
        max_live: u64,
    ) -> BoxFuture<'a, Result<bool, Error>>;

    /// Consumes the sign-in of `state`, exactly once: of concurrent callers only one gets
    /// it. [`Error::NotFound`] if unknown or used; [`Error::Expired`] (and consumed) if
    /// expired.
    fn take_login_state<'a>(&'a self, state: &'a str) -> BoxFuture<'a, Result<TakenLogin, Error>>;

    /// Deletes the sign-ins that expired at `now`; how many.
    fn sweep_login_states(&self, now: SystemTime) -> BoxFuture<'_, Result<u64, Error>>;
}

fn login_aad(state_hash: &[u8]) -> Aad {
    Aad::new(
        "login-state",
        &[state_hash],
        "a sign-in in progress".to_owned(),
    )
}

fn usable(token: &str) -> bool {
    !token.is_empty() && token.len() <= MAX_TOKEN_CHARS
}

type LoginTuple = (Vec<u8>, String, Vec<u8>, Vec<u8>, i64);

impl Vault {
    async fn create_login_now(
        &self,
        state: &str,
        binding: &str,
        login: &LoginState,
        ttl: Duration,
        max_live: u64,
    ) -> Result<bool, Error> {
        if !usable(state) || !usable(binding) {
            return Err(Error::Config(format!(
                "a sign-in state and binding must have 1 to {MAX_TOKEN_CHARS} characters"
            )));
        }
        let now = self.now();
        let expires = time::expiry(now, ttl, "a sign-in")?;
        let hash = token_hash(state);
        let plain = zeroize::Zeroizing::new(
            json!({
                "nonce": login.nonce.expose_secret(),
                "verifier": login.pkce_verifier.expose_secret(),
                "return_to": login.return_to,
            })
            .to_string(),
        );
        let sealed = self.keys().seal(plain.as_bytes(), &login_aad(&hash))?;
        let now = time::to_db(now, "now")?;
        let max = i64::try_from(max_live).unwrap_or(i64::MAX);
        // One statement: the bound and the insert cannot be separated by another insert
        // on SQLite; on PostgreSQL concurrent sign-ins may overshoot it slightly, which
        // keeps what it is for (bounded state).
        let n = on_pool!(self.store().pool(), pool => sqlx::query(
            "INSERT INTO login_states (state_hash, binding_hash, key_id, nonce, ciphertext, \
             created_at, expires_at) SELECT $1, $2, $3, $4, $5, $6, $7 \
             WHERE (SELECT COUNT(*) FROM login_states WHERE expires_at > $6) < $8",
        )
        .bind(&hash)
        .bind(token_hash(binding))
        .bind(&sealed.key_id)
        .bind(&sealed.nonce)
        .bind(&sealed.ciphertext)
        .bind(now)
        .bind(time::to_db(expires, "the sign-in expiry")?)
        .bind(max)
        .execute(pool)
        .await
        .map(|done| done.rows_affected()))
        .map_err(|e| Error::db("storing a sign-in", &e))?;
        Ok(n > 0)
    }

    async fn take_login_now(&self, state: &str) -> Result<TakenLogin, Error> {
        if !usable(state) {
            return Err(Error::NotFound(WHAT.into()));
        }
        let hash = token_hash(state);
        let row = on_pool!(self.store().pool(), pool => sqlx::query_as::<_, LoginTuple>(
            "DELETE FROM login_states WHERE state_hash = $1 \
             RETURNING binding_hash, key_id, nonce, ciphertext, expires_at",
        )
        .bind(&hash)
        .fetch_optional(pool)
        .await)
        .map_err(|e| Error::db("taking a sign-in", &e))?;
        let Some((binding_hash, key_id, nonce, ciphertext, expires)) = row else {
            return Err(Error::NotFound(WHAT.into()));
        };
        let expires_at = time::from_db(expires);
        if expires_at <= self.now() {
            return Err(Error::Expired(WHAT.into()));
        }
        let plain = self
            .keys()
            .open_text(&key_id, &nonce, &ciphertext, &login_aad(&hash))?;
        let corrupt = || Error::Corrupt(format!("{WHAT}: malformed sealed fields"));
        let value: serde_json::Value =
            serde_json::from_str(plain.expose_secret()).map_err(|_| corrupt())?;
        let field = |name: &str| value.get(name).and_then(|v| v.as_str()).ok_or_else(corrupt);
        Ok(TakenLogin {
            login: LoginState {
                nonce: SecretString::from(field("nonce")?),
                pkce_verifier: SecretString::from(field("verifier")?),
                return_to: field("return_to")?.to_owned(),
            },
            expires_at,
            binding_hash,
        })
    }

    async fn sweep_logins_now(&self, now: SystemTime) -> Result<u64, Error> {
        let now = time::to_db(now, "the sweep time")?;
        on_pool!(self.store().pool(), pool => sqlx::query(
            "DELETE FROM login_states WHERE expires_at <= $1",
        )
        .bind(now)
        .execute(pool)
        .await
        .map(|done| done.rows_affected()))
        .map_err(|e| Error::db("sweeping sign-ins", &e))
    }
}

impl LoginStore for Vault {
    fn create_login_state<'a>(
        &'a self,
        state: &'a str,
        binding: &'a str,
        login: &'a LoginState,
        ttl: Duration,
        max_live: u64,
    ) -> BoxFuture<'a, Result<bool, Error>> {
        self.create_login_now(state, binding, login, ttl, max_live)
            .boxed()
    }

    fn take_login_state<'a>(&'a self, state: &'a str) -> BoxFuture<'a, Result<TakenLogin, Error>> {
        self.take_login_now(state).boxed()
    }

    fn sweep_login_states(&self, now: SystemTime) -> BoxFuture<'_, Result<u64, Error>> {
        self.sweep_logins_now(now).boxed()
    }
}
