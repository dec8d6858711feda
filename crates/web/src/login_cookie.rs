//! The sign-in cookie: everything a sign-in in progress needs (the `nonce`, the PKCE
//! verifier, the page to return to and the expiry), sealed into a short-lived cookie in
//! the browser that started it, instead of a row on the server. So a sign-in costs the
//! server nothing before the user has authenticated, and no number of anonymous
//! `GET /login` can keep anyone else from signing in.
//!
//! Sealing is XChaCha20-Poly1305 (the vault's AEAD, [`chacha20poly1305`]) with a fresh
//! random nonce; the additional data binds the ciphertext to the sign-in's `state`, so a
//! cookie only opens for the callback of its own `state`. Each sign-in has its own
//! cookie, named after a hash of its `state`, so several tabs can sign in at once.
//!
//! The key is 256 random bits kept in the vault as a secret of an internal owner (sealed
//! at rest like every secret, and shared by every node on the same store, so a sign-in
//! started on one node finishes on another or after a restart). A node reads it once,
//! makes it if there is none, and reads it again at most once a minute (and when a
//! cookie names another key), so two nodes that both made one at the same instant agree
//! on the stored one within a minute.

use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chacha20poly1305::aead::{Aead, Payload};
use chacha20poly1305::{Key, KeyInit, XChaCha20Poly1305, XNonce};
use mcp_elicit_server::Principal;
use secrecy::zeroize::{self, Zeroizing};
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::web::WebStore;

/// The owner of the key in the vault: an issuer no token or local user can have.
const KEY_ISSUER: &str = "urn:mcp-elicit:internal";
/// The owner's subject.
const KEY_SUBJECT: &str = "web-sign-in";
/// The key's name.
const KEY_NAME: &str = "sign-in-cookie-key/v1";
/// Domain separation of the additional data (changes with the format).
const AAD_DOMAIN: &[u8] = b"mcp-elicit/sign-in-cookie/v1";
/// Bytes of key id at the start of a cookie value.
const KEY_ID_LEN: usize = 8;
/// Bytes in a nonce.
const NONCE_LEN: usize = 24;
/// The longest cookie value opened (a sealed sign-in with the longest `return_to` is
/// about 3,100 characters).
const MAX_VALUE_CHARS: usize = 4096;
/// The longest `state` a cookie is looked up for.
const MAX_STATE_CHARS: usize = 512;
/// How often the stored key is read again.
const REFRESH: Duration = Duration::from_secs(60);
/// The most keys remembered (the stored one and ones a node used before it).
const MAX_KEYS: usize = 4;

/// What a sign-in in progress needs at its callback.
#[derive(Serialize, Deserialize)]
pub(crate) struct SignIn {
    /// The OpenID Connect `nonce` of the authorization request.
    #[serde(rename = "n")]
    pub(crate) nonce: String,
    /// The PKCE code verifier.
    #[serde(rename = "p")]
    pub(crate) verifier: String,
    /// The local path to return to.
    #[serde(rename = "r")]
    pub(crate) return_to: String,
    /// When it expires, in seconds since the Unix epoch.
    #[serde(rename = "e")]
    pub(crate) expires: u64,
}

impl Drop for SignIn {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.nonce);
        zeroize::Zeroize::zeroize(&mut self.verifier);
    }
}

/// Why a sign-in cookie was not opened.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    /// Not a cookie this server sealed for this `state` (or sealed with a key it no
    /// longer has).
    Invalid,
    /// Sealed for this `state`, but expired.
    Expired,
    /// The key could not be read from the store just now.
    Unavailable,
}

/// One key: its id and cipher.
struct CookieKey {
    id: [u8; KEY_ID_LEN],
    cipher: XChaCha20Poly1305,
}

impl CookieKey {
    fn new(bytes: &[u8; 32]) -> Self {
        let digest = Sha256::new()
            .chain_update(b"mcp-elicit/sign-in-cookie-key-id/v1")
            .chain_update(bytes)
            .finalize();
        let mut id = [0u8; KEY_ID_LEN];
        id.copy_from_slice(&digest[..KEY_ID_LEN]);
        Self {
            id,
            cipher: XChaCha20Poly1305::new(&Key::from(*bytes)),
        }
    }

    fn parse(text: &SecretString) -> Option<Self> {
        let raw = Zeroizing::new(URL_SAFE_NO_PAD.decode(text.expose_secret()).ok()?);
        let bytes: Zeroizing<[u8; 32]> = Zeroizing::new(raw.as_slice().try_into().ok()?);
        Some(Self::new(&bytes))
    }
}

#[derive(Default)]
struct Cache {
    /// Known keys, the one to seal with first.
    keys: Vec<std::sync::Arc<CookieKey>>,
    /// When the store was last read.
    read_at: Option<Instant>,
}

/// The sealing keys of sign-in cookies, read from (and kept in) the store.
#[derive(Default)]
pub(crate) struct CookieKeys {
    cache: Mutex<Cache>,
}

/// The vault owner of the key.
fn owner() -> Principal {
    Principal::authenticated(KEY_ISSUER, KEY_SUBJECT)
}

/// The additional data of the cookie of `state`.
fn aad(key_id: &[u8], state: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(96 + state.len());
    for field in [AAD_DOMAIN, key_id, state.as_bytes()] {
        let len = u64::try_from(field.len()).unwrap_or(u64::MAX);
        out.extend_from_slice(&len.to_be_bytes());
        out.extend_from_slice(field);
    }
    out
}

/// Seconds since the Unix epoch.
fn unix(at: SystemTime) -> u64 {
    at.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// The cookie name of the sign-in of `state`: a hash of it (a `state` is 256 random
/// bits, so names do not collide), `__Host-` prefixed on https.
pub(crate) fn cookie_name(state: &str, secure: bool) -> String {
    let digest = Sha256::new()
        .chain_update(b"mcp-elicit/sign-in-cookie-name/v1\0")
        .chain_update(state.as_bytes())
        .finalize();
    let tag = URL_SAFE_NO_PAD.encode(&digest[..12]);
    if secure {
        format!("__Host-mcp-elicit-login-{tag}")
    } else {
        format!("mcp-elicit-login-{tag}")
    }
}

impl CookieKeys {
    fn cached(&self) -> (Vec<std::sync::Arc<CookieKey>>, bool) {
        let cache = self
            .cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let fresh = cache.read_at.is_some_and(|at| at.elapsed() < REFRESH);
        (cache.keys.clone(), fresh)
    }

    /// Reads the stored key (making and storing one if there is none and `create`),
    /// puts it first among the known keys, and returns them.
    async fn read(
        &self,
        store: &dyn WebStore,
        create: bool,
    ) -> Result<Vec<std::sync::Arc<CookieKey>>, Refused> {
        let owner = owner();
        let unavailable = |e: mcp_elicit_store::Error| {
            tracing::warn!(error = %e, "reading the sign-in cookie key failed");
            Refused::Unavailable
        };
        let mut stored = store
            .get_secret(&owner, KEY_NAME)
            .await
            .map_err(unavailable)?;
        if stored.is_none() && create {
            let mut bytes = Zeroizing::new([0u8; 32]);
            getrandom::fill(bytes.as_mut_slice()).map_err(|e| {
                tracing::warn!(error = %e, "the OS random generator failed");
                Refused::Unavailable
            })?;
            let text = SecretString::from(URL_SAFE_NO_PAD.encode(*bytes));
            store
                .put_secret(&owner, KEY_NAME, &text)
                .await
                .map_err(unavailable)?;
            // Another node may have stored its own key at the same time: use whichever
            // is stored now.
            stored = store
                .get_secret(&owner, KEY_NAME)
                .await
                .map_err(unavailable)?;
        }
        let key = stored.as_ref().and_then(|s| CookieKey::parse(&s.value));
        let mut cache = self
            .cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        cache.read_at = Some(Instant::now());
        if let Some(key) = key {
            cache.keys.retain(|k| k.id != key.id);
            cache.keys.insert(0, std::sync::Arc::new(key));
            cache.keys.truncate(MAX_KEYS);
        } else if stored.is_some() {
            tracing::warn!("the stored sign-in cookie key is malformed");
        }
        if cache.keys.is_empty() {
            return Err(Refused::Unavailable);
        }
        Ok(cache.keys.clone())
    }

    /// The key to seal with.
    async fn sealing(&self, store: &dyn WebStore) -> Result<std::sync::Arc<CookieKey>, Refused> {
        let (keys, fresh) = self.cached();
        let keys = if fresh && !keys.is_empty() {
            keys
        } else {
            match self.read(store, true).await {
                Ok(k) => k,
                // The store is down but a key is known: keep using it.
                Err(_) if !keys.is_empty() => keys,
                Err(e) => return Err(e),
            }
        };
        keys.into_iter().next().ok_or(Refused::Unavailable)
    }

    /// The known key with id `id`, reading the store again (at most once a minute) if
    /// none is.
    async fn opening(&self, store: &dyn WebStore, id: &[u8]) -> Option<std::sync::Arc<CookieKey>> {
        let (keys, fresh) = self.cached();
        if let Some(k) = keys.iter().find(|k| k.id == id) {
            return Some(k.clone());
        }
        if fresh {
            return None;
        }
        let keys = self.read(store, false).await.ok()?;
        keys.into_iter().find(|k| k.id == id)
    }

    /// Seals `sign_in` for the callback of `state`: the cookie value.
    pub(crate) async fn seal(
        &self,
        store: &dyn WebStore,
        state: &str,
        sign_in: &SignIn,
    ) -> Result<String, Refused> {
        let key = self.sealing(store).await?;
        let plain = Zeroizing::new(serde_json::to_vec(sign_in).map_err(|_| Refused::Invalid)?);
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::fill(&mut nonce).map_err(|_| Refused::Unavailable)?;
        let sealed = key
            .cipher
            .encrypt(
                &XNonce::from(nonce),
                Payload {
                    msg: &plain,
                    aad: &aad(&key.id, state),
                },
            )
            .map_err(|_| Refused::Invalid)?;
        let mut out = Vec::with_capacity(KEY_ID_LEN + NONCE_LEN + sealed.len());
        out.extend_from_slice(&key.id);
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&sealed);
        Ok(URL_SAFE_NO_PAD.encode(out))
    }

    /// Opens the cookie `value` of the callback of `state` at `now`.
    pub(crate) async fn open(
        &self,
        store: &dyn WebStore,
        state: &str,
        value: &str,
        now: SystemTime,
    ) -> Result<SignIn, Refused> {
        if value.len() > MAX_VALUE_CHARS || state.is_empty() || state.len() > MAX_STATE_CHARS {
            return Err(Refused::Invalid);
        }
        let raw = URL_SAFE_NO_PAD
            .decode(value)
            .map_err(|_| Refused::Invalid)?;
        if raw.len() < KEY_ID_LEN + NONCE_LEN {
            return Err(Refused::Invalid);
        }
        let (id, rest) = raw.split_at(KEY_ID_LEN);
        let (nonce, sealed) = rest.split_at(NONCE_LEN);
        let key = self.opening(store, id).await.ok_or(Refused::Invalid)?;
        let nonce: [u8; NONCE_LEN] = nonce.try_into().map_err(|_| Refused::Invalid)?;
        let plain = Zeroizing::new(
            key.cipher
                .decrypt(
                    &XNonce::from(nonce),
                    Payload {
                        msg: sealed,
                        aad: &aad(id, state),
                    },
                )
                .map_err(|_| Refused::Invalid)?,
        );
        let sign_in: SignIn = serde_json::from_slice(&plain).map_err(|_| Refused::Invalid)?;
        if sign_in.expires <= unix(now) {
            return Err(Refused::Expired);
        }
        Ok(sign_in)
    }
}

/// The expiry of a sign-in started at `now` lasting `ttl`, as [`SignIn::expires`].
pub(crate) fn expiry(now: SystemTime, ttl: Duration) -> u64 {
    unix(now).saturating_add(ttl.as_secs().max(1))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use mcp_elicit_store::{Keyring, Store, VaultKey};

    use super::*;

    async fn vault() -> Arc<dyn WebStore> {
        let store = Store::connect("sqlite::memory:").await.expect("store");
        Arc::new(store.vault(Keyring::new(VaultKey::generate().expect("key"))))
    }

    fn sign_in(expires: u64) -> SignIn {
        SignIn {
            nonce: "n".into(),
            verifier: "v".into(),
            return_to: "/connect?elicitationId=a".into(),
            expires,
        }
    }

    #[tokio::test]
    async fn a_cookie_opens_only_for_its_state_unmodified_and_before_it_expires() {
        let store = vault().await;
        let keys = CookieKeys::default();
        let now = SystemTime::now();
        let exp = expiry(now, Duration::from_secs(600));
        let value = keys.seal(&*store, "s1", &sign_in(exp)).await.expect("seal");
        assert!(!value.contains("connect"), "encrypted: {value}");
        let opened = keys.open(&*store, "s1", &value, now).await.expect("open");
        assert_eq!(opened.return_to, "/connect?elicitationId=a");
        assert_eq!(opened.verifier, "v");
        let refused = |r: Result<SignIn, Refused>| r.err();
        assert_eq!(
            refused(keys.open(&*store, "s2", &value, now).await),
            Some(Refused::Invalid),
            "another state"
        );
        let mut raw = URL_SAFE_NO_PAD.decode(&value).expect("b64");
        let last = raw.len() - 1;
        raw[last] ^= 1;
        let tampered = URL_SAFE_NO_PAD.encode(&raw);
        assert_eq!(
            refused(keys.open(&*store, "s1", &tampered, now).await),
            Some(Refused::Invalid)
        );
        for junk in ["", "x", "%%%", &"A".repeat(5000)] {
            assert_eq!(
                refused(keys.open(&*store, "s1", junk, now).await),
                Some(Refused::Invalid),
                "{junk:.8}"
            );
        }
        let later = now + Duration::from_secs(601);
        assert_eq!(
            refused(keys.open(&*store, "s1", &value, later).await),
            Some(Refused::Expired)
        );
    }

    #[tokio::test]
    async fn every_node_on_the_store_shares_the_key() {
        let store = vault().await;
        let (a, b) = (CookieKeys::default(), CookieKeys::default());
        let now = SystemTime::now();
        let exp = expiry(now, Duration::from_secs(600));
        let value = a.seal(&*store, "s", &sign_in(exp)).await.expect("seal");
        assert!(b.open(&*store, "s", &value, now).await.is_ok());
        let back = b.seal(&*store, "t", &sign_in(exp)).await.expect("seal");
        assert!(a.open(&*store, "t", &back, now).await.is_ok());
        // Another store (another deployment): its key does not open ours.
        let other = vault().await;
        let c = CookieKeys::default();
        let _ = c.seal(&*other, "u", &sign_in(exp)).await.expect("seal");
        assert_eq!(
            c.open(&*other, "s", &value, now).await.err(),
            Some(Refused::Invalid)
        );
    }

    #[test]
    fn cookie_names_differ_per_state_and_are_host_prefixed_on_https() {
        let (a, b) = (cookie_name("s1", false), cookie_name("s2", false));
        assert_ne!(a, b);
        assert!(a.starts_with("mcp-elicit-login-"), "{a}");
        assert!(cookie_name("s1", true).starts_with("__Host-mcp-elicit-login-"));
        assert!(
            a.bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
        );
    }
}
