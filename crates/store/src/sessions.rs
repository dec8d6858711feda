//! Browser sessions of the server's own web pages (connect page, secret page, OAuth
//! callback): table `browser_sessions`.
//!
//! The specification requires the server to verify that the user who opens a URL mode
//! elicitation's URL is the user the elicitation was created for ("Phishing"): the web
//! layer signs the user in against the MCP authorization server, creates a browser
//! session for that [`Principal`], and compares it with the elicitation's principal.
//!
//! The raw session id (the cookie value, 256 random bits) is returned once and stored
//! only as its SHA-256, so a database reader cannot take over sessions. Each session has
//! a CSRF token for the pages' forms, stored encrypted and bound to the session.

use std::time::{Duration, SystemTime};

use futures::FutureExt;
use futures::future::BoxFuture;
use mcp_elicit_server::Principal;
use secrecy::{ExposeSecret, SecretString};
use subtle::ConstantTimeEq;

use crate::crypto::{Aad, random_token, token_hash};
use crate::db::on_pool;
use crate::error::Error;
use crate::time;
use crate::vault::{Vault, user_aad};

/// Random bytes in a session id and in a CSRF token (256 bits).
const TOKEN_BYTES: usize = 32;
/// A session id longer than this is not one of ours (no lookup is made).
const MAX_ID_CHARS: usize = 512;

/// A browser session just created: give `id` to the browser in a `Secure; HttpOnly;
/// SameSite=Lax` cookie and put `csrf_token` in the pages' forms.
///
/// ```
/// use std::time::{Duration, SystemTime};
///
/// use mcp_elicit_server::Principal;
/// use mcp_elicit_store::{Keyring, SessionStore, Store, VaultKey};
/// use secrecy::ExposeSecret;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let vault = Store::connect("sqlite::memory:").await?.vault(Keyring::new(VaultKey::generate()?));
/// let alice = Principal::authenticated("https://auth.example.com", "alice");
/// let new = vault.create_browser_session(&alice, Duration::from_secs(3600)).await?;
///
/// // 256 random bits each, as unpadded URL-safe base64: ready for a cookie and a form.
/// assert_eq!(new.id.expose_secret().len(), 43);
/// assert_ne!(new.id.expose_secret(), new.csrf_token.expose_secret());
/// assert!(new.expires_at > SystemTime::now());
/// let cookie = format!(
///     "session={}; Secure; HttpOnly; SameSite=Lax; Path=/",
///     new.id.expose_secret()
/// );
/// # let _ = cookie;
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct NewBrowserSession {
    /// The raw session id (only its hash is stored).
    pub id: SecretString,
    /// The session's CSRF token.
    pub csrf_token: SecretString,
    /// When the session expires.
    pub expires_at: SystemTime,
}

/// A live browser session.
///
/// ```
/// use std::time::Duration;
///
/// use mcp_elicit_server::Principal;
/// use mcp_elicit_store::{Keyring, SessionStore, Store, VaultKey};
/// use secrecy::ExposeSecret;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let vault = Store::connect("sqlite::memory:").await?.vault(Keyring::new(VaultKey::generate()?));
/// let alice = Principal::authenticated("https://auth.example.com", "alice");
/// let new = vault.create_browser_session(&alice, Duration::from_secs(3600)).await?;
///
/// // A request to the secret page, with the cookie:
/// let session = vault.get_browser_session(new.id.expose_secret()).await?.expect("live");
/// assert_eq!(session.principal, alice);
/// assert_eq!(session.csrf_token.expose_secret(), new.csrf_token.expose_secret());
/// assert_eq!(session.expires_at, new.expires_at);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct BrowserSession {
    /// The signed-in user.
    pub principal: Principal,
    /// The session's CSRF token.
    pub csrf_token: SecretString,
    /// When it was created.
    pub created_at: SystemTime,
    /// When it expires.
    pub expires_at: SystemTime,
}

impl BrowserSession {
    /// Whether `presented` (from a submitted form) is this session's CSRF token; compared
    /// in constant time.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// use mcp_elicit_server::Principal;
    /// use mcp_elicit_store::{Keyring, SessionStore, Store, VaultKey};
    /// use secrecy::ExposeSecret;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let vault = Store::connect("sqlite::memory:").await?.vault(Keyring::new(VaultKey::generate()?));
    /// let alice = Principal::authenticated("https://auth.example.com", "alice");
    /// let new = vault.create_browser_session(&alice, Duration::from_secs(3600)).await?;
    /// let session = vault.get_browser_session(new.id.expose_secret()).await?.expect("live");
    ///
    /// // The form posted back the token the page was rendered with: accept it.
    /// assert!(session.verify_csrf(new.csrf_token.expose_secret()));
    /// // A cross-site form cannot know it.
    /// assert!(!session.verify_csrf("forged"));
    /// assert!(!session.verify_csrf(""));
    /// # Ok(())
    /// # }
    /// ```
    pub fn verify_csrf(&self, presented: &str) -> bool {
        let expected = self.csrf_token.expose_secret().as_bytes();
        expected.ct_eq(presented.as_bytes()).into()
    }
}

/// Browser sessions of the server's web pages, keyed by the hash of their id.
///
/// ```
/// use std::time::{Duration, SystemTime};
///
/// use mcp_elicit_server::Principal;
/// use mcp_elicit_store::{Keyring, SessionStore, Store, VaultKey};
/// use secrecy::ExposeSecret;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let vault = Store::connect("sqlite::memory:").await?.vault(Keyring::new(VaultKey::generate()?));
/// let alice = Principal::authenticated("https://auth.example.com", "alice");
/// let hour = Duration::from_secs(3600);
///
/// let laptop = vault.create_browser_session(&alice, hour).await?;
/// let phone = vault.create_browser_session(&alice, hour).await?;
/// assert!(vault.get_browser_session(laptop.id.expose_secret()).await?.is_some());
/// // An unknown or made-up cookie finds nothing.
/// assert!(vault.get_browser_session("not-a-session").await?.is_none());
///
/// // Sign out on the laptop, then everywhere.
/// assert!(vault.delete_browser_session(laptop.id.expose_secret()).await?);
/// assert!(vault.get_browser_session(laptop.id.expose_secret()).await?.is_none());
/// assert_eq!(vault.delete_browser_sessions_of(&alice).await?, 1);
/// assert!(vault.get_browser_session(phone.id.expose_secret()).await?.is_none());
///
/// // The periodic sweep removes expired sessions nobody asked for again.
/// vault.create_browser_session(&alice, hour).await?;
/// assert_eq!(vault.sweep_browser_sessions(SystemTime::now()).await?, 0);
/// assert_eq!(vault.sweep_browser_sessions(SystemTime::now() + hour).await?, 1);
/// # Ok(())
/// # }
/// ```
pub trait SessionStore: Send + Sync + 'static {
    /// Starts a session for `principal` lasting `ttl`.
    fn create_browser_session<'a>(
        &'a self,
        principal: &'a Principal,
        ttl: Duration,
    ) -> BoxFuture<'a, Result<NewBrowserSession, Error>>;

    /// The live session with this raw id (the cookie value); `None` if unknown or
    /// expired (an expired one is deleted).
    fn get_browser_session<'a>(
        &'a self,
        raw_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<BrowserSession>, Error>>;

    /// Ends the session with this raw id; whether there was one.
    fn delete_browser_session<'a>(&'a self, raw_id: &'a str) -> BoxFuture<'a, Result<bool, Error>>;

    /// Ends every session of `principal` ("sign out everywhere"); how many.
    fn delete_browser_sessions_of<'a>(
        &'a self,
        principal: &'a Principal,
    ) -> BoxFuture<'a, Result<u64, Error>>;

    /// Deletes the sessions that expired at `now`; how many.
    fn sweep_browser_sessions(&self, now: SystemTime) -> BoxFuture<'_, Result<u64, Error>>;
}

fn csrf_aad(id_hash: &[u8], principal: &Principal) -> Aad {
    user_aad(
        "browser-csrf",
        principal,
        &[id_hash],
        format!("CSRF token of a browser session of {principal}"),
    )
}

/// The columns of one row, in query order (tuples decode on both backends without
/// sqlx's derive macros).
type SessionTuple = (String, String, String, Vec<u8>, Vec<u8>, i64, i64);

struct SessionRow {
    principal_issuer: String,
    principal_subject: String,
    key_id: String,
    csrf_nonce: Vec<u8>,
    csrf_ciphertext: Vec<u8>,
    created_at: i64,
    expires_at: i64,
}

impl From<SessionTuple> for SessionRow {
    fn from(
        (
            principal_issuer,
            principal_subject,
            key_id,
            csrf_nonce,
            csrf_ciphertext,
            created_at,
            expires_at,
        ): SessionTuple,
    ) -> Self {
        Self {
            principal_issuer,
            principal_subject,
            key_id,
            csrf_nonce,
            csrf_ciphertext,
            created_at,
            expires_at,
        }
    }
}

fn usable_id(raw_id: &str) -> bool {
    !raw_id.is_empty() && raw_id.len() <= MAX_ID_CHARS
}

impl Vault {
    async fn create_session_now(
        &self,
        principal: &Principal,
        ttl: Duration,
    ) -> Result<NewBrowserSession, Error> {
        let now = self.now();
        let expires_at = time::expiry(now, ttl, "a browser session")?;
        let id = random_token(TOKEN_BYTES)?;
        let csrf_token = random_token(TOKEN_BYTES)?;
        let hash = token_hash(id.expose_secret());
        let sealed = self.keys().seal(
            csrf_token.expose_secret().as_bytes(),
            &csrf_aad(&hash, principal),
        )?;
        on_pool!(self.store().pool(), pool => sqlx::query(
            "INSERT INTO browser_sessions (id_hash, principal_issuer, principal_subject, \
             key_id, csrf_nonce, csrf_ciphertext, created_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(&hash)
        .bind(principal.issuer())
        .bind(principal.subject())
        .bind(&sealed.key_id)
        .bind(&sealed.nonce)
        .bind(&sealed.ciphertext)
        .bind(time::to_db(now, "now")?)
        .bind(time::to_db(expires_at, "the session expiry")?)
        .execute(pool)
        .await
        .map(|_| ()))
        .map_err(|e| Error::db("creating a browser session", &e))?;
        Ok(NewBrowserSession {
            id,
            csrf_token,
            expires_at,
        })
    }

    async fn get_session_now(&self, raw_id: &str) -> Result<Option<BrowserSession>, Error> {
        if !usable_id(raw_id) {
            return Ok(None);
        }
        let hash = token_hash(raw_id);
        let row = on_pool!(self.store().pool(), pool => sqlx::query_as::<_, SessionTuple>(
            "SELECT principal_issuer, principal_subject, key_id, csrf_nonce, csrf_ciphertext, \
             created_at, expires_at FROM browser_sessions WHERE id_hash = $1",
        )
        .bind(&hash)
        .fetch_optional(pool)
        .await
        .map(|row| row.map(SessionRow::from)))
        .map_err(|e| Error::db("reading a browser session", &e))?;
        let Some(row) = row else {
            return Ok(None);
        };
        let expires_at = time::from_db(row.expires_at);
        if expires_at <= self.now() {
            self.delete_session_by_hash(&hash).await?;
            return Ok(None);
        }
        let principal = Principal::authenticated(row.principal_issuer, row.principal_subject);
        let csrf_token = self.keys().open_text(
            &row.key_id,
            &row.csrf_nonce,
            &row.csrf_ciphertext,
            &csrf_aad(&hash, &principal),
        )?;
        Ok(Some(BrowserSession {
            principal,
            csrf_token,
            created_at: time::from_db(row.created_at),
            expires_at,
        }))
    }

    async fn delete_session_by_hash(&self, hash: &[u8]) -> Result<bool, Error> {
        let n = on_pool!(self.store().pool(), pool => sqlx::query(
            "DELETE FROM browser_sessions WHERE id_hash = $1",
        )
        .bind(hash)
        .execute(pool)
        .await
        .map(|done| done.rows_affected()))
        .map_err(|e| Error::db("deleting a browser session", &e))?;
        Ok(n > 0)
    }

    async fn delete_sessions_of_now(&self, principal: &Principal) -> Result<u64, Error> {
        on_pool!(self.store().pool(), pool => sqlx::query(
            "DELETE FROM browser_sessions WHERE principal_issuer = $1 AND principal_subject = $2",
        )
        .bind(principal.issuer())
        .bind(principal.subject())
        .execute(pool)
        .await
        .map(|done| done.rows_affected()))
        .map_err(|e| Error::db("deleting a user's browser sessions", &e))
    }

    async fn sweep_sessions_now(&self, now: SystemTime) -> Result<u64, Error> {
        let now = time::to_db(now, "the sweep time")?;
        on_pool!(self.store().pool(), pool => sqlx::query(
            "DELETE FROM browser_sessions WHERE expires_at <= $1",
        )
        .bind(now)
        .execute(pool)
        .await
        .map(|done| done.rows_affected()))
        .map_err(|e| Error::db("sweeping browser sessions", &e))
    }
}

impl SessionStore for Vault {
    fn create_browser_session<'a>(
        &'a self,
        principal: &'a Principal,
        ttl: Duration,
    ) -> BoxFuture<'a, Result<NewBrowserSession, Error>> {
        self.create_session_now(principal, ttl).boxed()
    }

    fn get_browser_session<'a>(
        &'a self,
        raw_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<BrowserSession>, Error>> {
        self.get_session_now(raw_id).boxed()
    }

    fn delete_browser_session<'a>(&'a self, raw_id: &'a str) -> BoxFuture<'a, Result<bool, Error>> {
        async move {
            if !usable_id(raw_id) {
                return Ok(false);
            }
            self.delete_session_by_hash(&token_hash(raw_id)).await
        }
        .boxed()
    }

    fn delete_browser_sessions_of<'a>(
        &'a self,
        principal: &'a Principal,
    ) -> BoxFuture<'a, Result<u64, Error>> {
        self.delete_sessions_of_now(principal).boxed()
    }

    fn sweep_browser_sessions(&self, now: SystemTime) -> BoxFuture<'_, Result<u64, Error>> {
        self.sweep_sessions_now(now).boxed()
    }
}
