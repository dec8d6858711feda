//! The vault's cryptography: keys, the keyring, sealing and opening values.
//!
//! XChaCha20-Poly1305 (RFC 8439 ChaCha20-Poly1305 with a 192-bit nonce): a fresh random
//! nonce from the OS CSPRNG for every value, so nonce reuse is negligible without any
//! counter to keep in sync between nodes. The additional data binds each ciphertext to
//! what it is for (purpose, user, name or provider, key id): a row copied to another
//! user, another name or another table fails authentication instead of decrypting.

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
use chacha20poly1305::aead::{Aead, Payload};
use chacha20poly1305::{Key, KeyInit, XChaCha20Poly1305, XNonce};
use secrecy::SecretString;
use sha2::{Digest, Sha256};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::error::Error;

/// Bytes in a key.
///
/// ```
/// use mcp_elicit_store::{KEY_LEN, VaultKey};
///
/// // 32 bytes: 64 hexadecimal digits, or 44 characters of padded base64.
/// assert_eq!(KEY_LEN, 32);
/// let key = VaultKey::from_bytes([7; KEY_LEN]);
/// assert_eq!(VaultKey::parse(&"07".repeat(KEY_LEN))?.id(), key.id());
/// # Ok::<(), mcp_elicit_store::Error>(())
/// ```
pub const KEY_LEN: usize = 32;
/// Bytes in a nonce.
pub(crate) const NONCE_LEN: usize = 24;
/// Domain separation for the additional data (bump on a format change).
const AAD_DOMAIN: &[u8] = b"mcp-elicit-vault/v1";
/// Domain separation for key ids.
const KEY_ID_DOMAIN: &[u8] = b"mcp-elicit-vault-key-id/v1";

/// A 256-bit vault key.
///
/// Its bytes are zeroed when it is dropped and never printed: `Debug` shows only the key
/// id. Parse one from configuration with [`VaultKey::parse`] (64 hex digits or base64 of
/// 32 bytes); make one with [`VaultKey::generate`].
///
/// ```
/// use mcp_elicit_store::VaultKey;
/// use secrecy::ExposeSecret;
///
/// // Once, when setting up: generate a key and put it in the configuration.
/// let key = VaultKey::generate()?;
/// let configured = key.to_base64();
/// assert_eq!(configured.expose_secret().len(), 44);
///
/// // On every start: read it back. The same key has the same id.
/// let parsed = VaultKey::parse(configured.expose_secret())?;
/// assert_eq!(parsed.id(), key.id());
///
/// // `Debug` shows the id only, never the bytes.
/// let shown = format!("{parsed:?}");
/// assert!(shown.contains(&key.id()) && shown.contains("[redacted]"));
/// assert!(!shown.contains(configured.expose_secret()));
/// # Ok::<(), mcp_elicit_store::Error>(())
/// ```
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct VaultKey {
    bytes: [u8; KEY_LEN],
}

impl VaultKey {
    /// A key from raw bytes.
    ///
    /// ```
    /// use mcp_elicit_store::VaultKey;
    ///
    /// // From a key management system that hands out raw bytes.
    /// let a = VaultKey::from_bytes([0x11; 32]);
    /// let b = VaultKey::from_bytes([0x22; 32]);
    /// assert_ne!(a.id(), b.id());
    /// ```
    pub fn from_bytes(bytes: [u8; KEY_LEN]) -> Self {
        Self { bytes }
    }

    /// A key from configuration text: 64 hexadecimal digits, or standard or URL-safe
    /// base64 (padded or not) of exactly 32 bytes. Surrounding whitespace is ignored.
    /// The error never repeats the input.
    ///
    /// ```
    /// use mcp_elicit_store::{Error, VaultKey};
    ///
    /// let hex = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    /// let from_hex = VaultKey::parse(hex)?;
    /// // The same 32 bytes in base64, standard or URL-safe, padded or not, with whitespace.
    /// let from_b64 = VaultKey::parse("  AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\n")?;
    /// let from_url = VaultKey::parse("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")?;
    /// assert_eq!(from_hex.id(), from_b64.id());
    /// assert_eq!(from_hex.id(), from_url.id());
    ///
    /// // 20 bytes is not a key; the error says why without echoing the text.
    /// let short = VaultKey::parse("c2VjcmV0LWJ1dC10b28tc2hvcnQ=").unwrap_err();
    /// assert!(matches!(&short, Error::Config(m) if !m.contains("c2VjcmV0")));
    /// # Ok::<(), mcp_elicit_store::Error>(())
    /// ```
    pub fn parse(text: &str) -> Result<Self, Error> {
        let text = text.trim();
        let mut bytes = Zeroizing::new([0u8; KEY_LEN]);
        if text.len() == 2 * KEY_LEN && text.bytes().all(|b| b.is_ascii_hexdigit()) {
            hex::decode_to_slice(text, bytes.as_mut_slice())
                .map_err(|_| Error::Config("the vault key is not valid hexadecimal".into()))?;
            return Ok(Self::from_bytes(*bytes));
        }
        for engine in [&STANDARD, &STANDARD_NO_PAD, &URL_SAFE, &URL_SAFE_NO_PAD] {
            let mut decoded = Zeroizing::new(Vec::new());
            if engine.decode_vec(text, &mut decoded).is_ok() && decoded.len() == KEY_LEN {
                bytes.copy_from_slice(&decoded);
                return Ok(Self::from_bytes(*bytes));
            }
        }
        Err(Error::Config(format!(
            "the vault key must be {KEY_LEN} bytes written as 64 hexadecimal digits or as \
             base64 (got {} characters that are neither)",
            text.chars().count()
        )))
    }

    /// A new random key from the OS CSPRNG.
    ///
    /// ```
    /// use mcp_elicit_store::VaultKey;
    ///
    /// let (a, b) = (VaultKey::generate()?, VaultKey::generate()?);
    /// assert_ne!(a.id(), b.id());
    /// # Ok::<(), mcp_elicit_store::Error>(())
    /// ```
    pub fn generate() -> Result<Self, Error> {
        let mut bytes = Zeroizing::new([0u8; KEY_LEN]);
        fill_random(bytes.as_mut_slice())?;
        Ok(Self::from_bytes(*bytes))
    }

    /// The key as standard base64, for writing a generated key into configuration.
    ///
    /// ```
    /// use mcp_elicit_store::VaultKey;
    /// use secrecy::ExposeSecret;
    ///
    /// let key = VaultKey::from_bytes([0xff; 32]);
    /// let text = key.to_base64(); // a SecretString: its Debug is redacted too
    /// assert_eq!(text.expose_secret(), "//////////////////////////////////////////8=");
    /// assert_eq!(VaultKey::parse(text.expose_secret())?.id(), key.id());
    /// # Ok::<(), mcp_elicit_store::Error>(())
    /// ```
    pub fn to_base64(&self) -> SecretString {
        SecretString::from(STANDARD.encode(self.bytes))
    }

    /// A public identifier of the key (16 hex digits of a domain-separated SHA-256 of the
    /// key), stored with every ciphertext so the right key is found after a rotation.
    /// It reveals nothing usable about the key.
    ///
    /// ```
    /// use mcp_elicit_store::VaultKey;
    ///
    /// let key = VaultKey::from_bytes([1; 32]);
    /// let id = key.id();
    /// assert_eq!(id.len(), 16);
    /// assert!(id.bytes().all(|b| b.is_ascii_hexdigit()));
    /// assert_eq!(id, VaultKey::from_bytes([1; 32]).id()); // stable: the same on every node
    /// ```
    pub fn id(&self) -> String {
        let mut hasher = Sha256::new();
        hasher.update(KEY_ID_DOMAIN);
        hasher.update(self.bytes);
        let digest = hasher.finalize();
        hex::encode(&digest[..8])
    }

    fn cipher(&self) -> XChaCha20Poly1305 {
        XChaCha20Poly1305::new(&Key::from(self.bytes))
    }
}

impl fmt::Debug for VaultKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VaultKey")
            .field("id", &self.id())
            .field("bytes", &"[redacted]")
            .finish()
    }
}

/// The keys a vault knows: the current one (used to encrypt) and older ones (still
/// accepted for decryption until every row has been re-encrypted; see
/// [`Vault::reencrypt`](crate::Vault::reencrypt)).
///
/// ```
/// use mcp_elicit_store::{Keyring, VaultKey};
///
/// let old = VaultKey::from_bytes([1; 32]);
/// let new = VaultKey::from_bytes([2; 32]);
/// // During a rotation: encrypt with the new key, still decrypt with the old one.
/// let keys = Keyring::new(new.clone()).with_previous(old);
/// assert_eq!(keys.current_id(), new.id());
/// // Its Debug names key ids only.
/// assert!(!format!("{keys:?}").contains("[2, 2"));
/// ```
#[derive(Clone, Debug)]
pub struct Keyring {
    current: VaultKey,
    current_id: String,
    previous: Vec<(String, VaultKey)>,
}

impl Keyring {
    /// A keyring with one key.
    ///
    /// ```
    /// use mcp_elicit_store::{Keyring, VaultKey};
    ///
    /// let key = VaultKey::from_bytes([9; 32]);
    /// let keys = Keyring::new(key.clone());
    /// assert_eq!(keys.current_id(), key.id());
    /// ```
    pub fn new(current: VaultKey) -> Self {
        Self {
            current_id: current.id(),
            current,
            previous: Vec::new(),
        }
    }

    /// Also accepts `key` for decryption (a key being rotated out).
    ///
    /// Adding the current key, or a key twice, changes nothing. A whole rotation, on a
    /// [`Vault`](crate::Vault):
    ///
    /// ```
    /// use mcp_elicit_server::Principal;
    /// use mcp_elicit_store::{Keyring, Store, VaultKey, VaultStore};
    /// use secrecy::{ExposeSecret, SecretString};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let store = Store::connect("sqlite::memory:").await?;
    /// let alice = Principal::authenticated("https://auth.example.com", "alice");
    /// let (old, new) = (VaultKey::from_bytes([1; 32]), VaultKey::from_bytes([2; 32]));
    /// store
    ///     .vault(Keyring::new(old.clone()))
    ///     .put_secret(&alice, "api-key", &SecretString::from("sk_123"))
    ///     .await?;
    ///
    /// // Without the old key the row cannot be read.
    /// let only_new = store.vault(Keyring::new(new.clone()));
    /// assert!(only_new.get_secret(&alice, "api-key").await.is_err());
    ///
    /// // New key first, old one kept: reads work, and re-encryption moves the rows over.
    /// let rotating = store.vault(Keyring::new(new.clone()).with_previous(old));
    /// assert_eq!(rotating.reencrypt().await?, 1);
    /// // Now the old key can go.
    /// let secret = only_new.get_secret(&alice, "api-key").await?.expect("stored");
    /// assert_eq!(secret.value.expose_secret(), "sk_123");
    /// # Ok(())
    /// # }
    /// ```
    #[must_use]
    pub fn with_previous(mut self, key: VaultKey) -> Self {
        let id = key.id();
        if id != self.current_id && !self.previous.iter().any(|(known, _)| *known == id) {
            self.previous.push((id, key));
        }
        self
    }

    /// The id of the key new values are encrypted with.
    ///
    /// ```
    /// use mcp_elicit_store::{Keyring, VaultKey};
    ///
    /// let current = VaultKey::from_bytes([2; 32]);
    /// let keys = Keyring::new(current.clone()).with_previous(VaultKey::from_bytes([1; 32]));
    /// assert_eq!(keys.current_id(), current.id());
    /// ```
    pub fn current_id(&self) -> &str {
        &self.current_id
    }

    fn find(&self, key_id: &str) -> Option<&VaultKey> {
        if key_id == self.current_id {
            return Some(&self.current);
        }
        self.previous
            .iter()
            .find(|(id, _)| id == key_id)
            .map(|(_, key)| key)
    }

    /// Encrypts `plaintext` for `aad` under the current key.
    pub(crate) fn seal(&self, plaintext: &[u8], aad: &Aad) -> Result<Sealed, Error> {
        let mut nonce = [0u8; NONCE_LEN];
        fill_random(&mut nonce)?;
        let ciphertext = self
            .current
            .cipher()
            .encrypt(
                &XNonce::from(nonce),
                Payload {
                    msg: plaintext,
                    aad: &aad.bytes(&self.current_id),
                },
            )
            .map_err(|_| Error::Encrypt(aad.what()))?;
        Ok(Sealed {
            key_id: self.current_id.clone(),
            nonce: nonce.to_vec(),
            ciphertext,
        })
    }

    /// Decrypts a sealed value stored for `aad`.
    pub(crate) fn open(
        &self,
        key_id: &str,
        nonce: &[u8],
        ciphertext: &[u8],
        aad: &Aad,
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        let key = self.find(key_id).ok_or_else(|| Error::UnknownKey {
            what: aad.what(),
            key_id: key_id.chars().take(64).collect(),
        })?;
        let nonce: [u8; NONCE_LEN] = nonce.try_into().map_err(|_| {
            Error::Corrupt(format!(
                "{}: nonce of {} bytes, expected {NONCE_LEN}",
                aad.what(),
                nonce.len()
            ))
        })?;
        key.cipher()
            .decrypt(
                &XNonce::from(nonce),
                Payload {
                    msg: ciphertext,
                    aad: &aad.bytes(key_id),
                },
            )
            .map(Zeroizing::new)
            .map_err(|_| Error::Decrypt(aad.what()))
    }

    /// Decrypts a sealed UTF-8 text.
    pub(crate) fn open_text(
        &self,
        key_id: &str,
        nonce: &[u8],
        ciphertext: &[u8],
        aad: &Aad,
    ) -> Result<SecretString, Error> {
        let plain = self.open(key_id, nonce, ciphertext, aad)?;
        let text = std::str::from_utf8(&plain)
            .map_err(|_| Error::Corrupt(format!("{}: not UTF-8 text", aad.what())))?;
        Ok(SecretString::from(text))
    }
}

/// An encrypted value as stored.
#[derive(Debug, Clone)]
pub(crate) struct Sealed {
    pub(crate) key_id: String,
    pub(crate) nonce: Vec<u8>,
    pub(crate) ciphertext: Vec<u8>,
}

/// What a ciphertext is bound to: a purpose and the fields naming its record.
#[derive(Debug, Clone)]
pub(crate) struct Aad {
    purpose: &'static str,
    parts: Vec<Vec<u8>>,
    label: String,
}

impl Aad {
    /// Additional data for `purpose` (e.g. `"secret"`) and the record's key fields.
    /// `label` names the record in errors (never a secret).
    pub(crate) fn new(purpose: &'static str, parts: &[&[u8]], label: String) -> Self {
        Self {
            purpose,
            parts: parts.iter().map(|p| p.to_vec()).collect(),
            label,
        }
    }

    fn what(&self) -> String {
        self.label.clone()
    }

    /// Length-prefixed encoding: no two different field lists give the same bytes.
    fn bytes(&self, key_id: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(64);
        let fields = [AAD_DOMAIN, self.purpose.as_bytes(), key_id.as_bytes()];
        for field in fields
            .iter()
            .copied()
            .chain(self.parts.iter().map(Vec::as_slice))
        {
            let len = u64::try_from(field.len()).unwrap_or(u64::MAX);
            out.extend_from_slice(&len.to_be_bytes());
            out.extend_from_slice(field);
        }
        out
    }
}

/// Fills `buf` from the OS CSPRNG.
pub(crate) fn fill_random(buf: &mut [u8]) -> Result<(), Error> {
    getrandom::fill(buf).map_err(|e| Error::Random(e.to_string()))
}

/// `bytes` random bytes from the OS CSPRNG as unpadded URL-safe base64 (a token for a
/// cookie or a URL parameter).
pub(crate) fn random_token(bytes: usize) -> Result<SecretString, Error> {
    let mut raw = Zeroizing::new(vec![0u8; bytes]);
    fill_random(&mut raw)?;
    Ok(SecretString::from(URL_SAFE_NO_PAD.encode(&*raw)))
}

/// SHA-256 of a bearer value (session id, OAuth state): what is stored instead of it.
pub(crate) fn token_hash(raw: &str) -> Vec<u8> {
    Sha256::digest(raw.as_bytes()).to_vec()
}

#[cfg(test)]
mod tests {
    use secrecy::ExposeSecret;

    use super::*;

    fn aad(user: &str) -> Aad {
        Aad::new(
            "secret",
            &[user.as_bytes(), b"github"],
            format!("secret github of {user}"),
        )
    }

    #[test]
    fn seal_open_round_trip_and_binding() {
        let ring = Keyring::new(VaultKey::from_bytes([7; KEY_LEN]));
        let sealed = ring.seal(b"ghp_plaintext", &aad("alice")).expect("seal");
        assert_eq!(sealed.nonce.len(), NONCE_LEN);
        assert!(
            !sealed
                .ciphertext
                .windows(b"ghp_plaintext".len())
                .any(|w| w == b"ghp_plaintext")
        );
        let plain = ring
            .open(
                &sealed.key_id,
                &sealed.nonce,
                &sealed.ciphertext,
                &aad("alice"),
            )
            .expect("open");
        assert_eq!(plain.as_slice(), b"ghp_plaintext");
        // Another user: authentication fails.
        assert!(matches!(
            ring.open(
                &sealed.key_id,
                &sealed.nonce,
                &sealed.ciphertext,
                &aad("bob")
            ),
            Err(Error::Decrypt(_))
        ));
        // A flipped bit: authentication fails.
        let mut tampered = sealed.ciphertext.clone();
        tampered[0] ^= 1;
        assert!(matches!(
            ring.open(&sealed.key_id, &sealed.nonce, &tampered, &aad("alice")),
            Err(Error::Decrypt(_))
        ));
        // A short nonce is corrupt data, not a panic.
        assert!(matches!(
            ring.open(&sealed.key_id, &[1, 2], &sealed.ciphertext, &aad("alice")),
            Err(Error::Corrupt(_))
        ));
    }

    #[test]
    fn nonces_are_fresh() {
        let ring = Keyring::new(VaultKey::from_bytes([1; KEY_LEN]));
        let a = ring.seal(b"x", &aad("alice")).expect("seal");
        let b = ring.seal(b"x", &aad("alice")).expect("seal");
        assert_ne!(a.nonce, b.nonce);
        assert_ne!(a.ciphertext, b.ciphertext);
    }

    #[test]
    fn wrong_key_with_the_same_id_fails_authentication() {
        let ring = Keyring::new(VaultKey::from_bytes([1; KEY_LEN]));
        let other = Keyring::new(VaultKey::from_bytes([2; KEY_LEN]));
        let sealed = ring.seal(b"x", &aad("alice")).expect("seal");
        // Unknown id: reported as such.
        assert!(matches!(
            other.open(
                &sealed.key_id,
                &sealed.nonce,
                &sealed.ciphertext,
                &aad("alice")
            ),
            Err(Error::UnknownKey { .. })
        ));
        // Forged id (claiming the other key's id): authentication fails.
        assert!(matches!(
            other.open(
                other.current_id(),
                &sealed.nonce,
                &sealed.ciphertext,
                &aad("alice")
            ),
            Err(Error::Decrypt(_))
        ));
    }

    #[test]
    fn previous_keys_still_decrypt() {
        let old = VaultKey::from_bytes([3; KEY_LEN]);
        let sealed = Keyring::new(old.clone())
            .seal(b"x", &aad("alice"))
            .expect("seal");
        let ring = Keyring::new(VaultKey::from_bytes([4; KEY_LEN])).with_previous(old);
        let plain = ring
            .open(
                &sealed.key_id,
                &sealed.nonce,
                &sealed.ciphertext,
                &aad("alice"),
            )
            .expect("old key still known");
        assert_eq!(plain.as_slice(), b"x");
    }

    #[test]
    fn key_parsing_accepts_hex_and_base64_and_never_echoes() {
        let key = VaultKey::from_bytes([0xab; KEY_LEN]);
        let b64 = key.to_base64();
        let from_b64 = VaultKey::parse(b64.expose_secret()).expect("base64");
        let from_hex = VaultKey::parse(&"ab".repeat(KEY_LEN)).expect("hex");
        let from_url = VaultKey::parse(&URL_SAFE_NO_PAD.encode([0xab; KEY_LEN])).expect("url");
        assert_eq!(from_b64.id(), key.id());
        assert_eq!(from_hex.id(), key.id());
        assert_eq!(from_url.id(), key.id());
        let err = VaultKey::parse("c2VjcmV0LWJ1dC10b28tc2hvcnQ=").expect_err("16 bytes");
        assert!(!err.to_string().contains("c2VjcmV0"), "{err}");
        assert!(VaultKey::parse("").is_err());
        assert!(VaultKey::parse(&"zz".repeat(KEY_LEN)).is_err());
    }

    #[test]
    fn debug_never_prints_key_bytes() {
        let key = VaultKey::from_bytes([0x5a; KEY_LEN]);
        let shown = format!("{key:?} {:?}", Keyring::new(key.clone()));
        assert!(!shown.contains(&"5a".repeat(4)), "{shown}");
        assert!(!shown.contains("90, 90"), "{shown}");
        assert!(
            !shown.contains(&STANDARD.encode([0x5a; KEY_LEN])[..10]),
            "{shown}"
        );
        assert!(shown.contains("[redacted]"), "{shown}");
    }

    #[test]
    fn aad_encoding_is_unambiguous() {
        let a = Aad::new("secret", &[b"ab", b"c"], String::new());
        let b = Aad::new("secret", &[b"a", b"bc"], String::new());
        assert_ne!(a.bytes("k"), b.bytes("k"));
    }
}
