//! Sealed `requestState` for 2026-07-28 input rounds: [`StateKeys`] (an HMAC key ring
//! with rotation) and the payload the server puts in it.
//!
//! The state is **authenticated, not encrypted** (HMAC-SHA256 through rmcp's
//! `RequestStateCodec`, format `rs2` with a key id): a client can read it but not change
//! it. It holds only what the client sent or saw already (the answers of earlier rounds,
//! the id of the URL elicitation whose URL it was given) and never a secret.
//!
//! Bound to the request that got it, as associated data mixed into the tag but not
//! stored: the user (issuer and subject), the method, the tool / prompt / resource name
//! and the canonical JSON of its arguments. The payload itself carries the question keys
//! of the round, the answers carried forward and an expiry checked against the
//! registry's clock. Opening refuses (with -32602, [`ErrorKind::InvalidState`]) a value
//! that is oversized, malformed, modified, truncated, sealed with a key no longer in the
//! ring, issued for another user, tool or arguments, or expired; nothing is read from a
//! state that fails.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use std::time::SystemTime;

use rmcp::model::{RequestStateCodec, RequestStateError};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{Error, ErrorKind};
use crate::identity::Principal;

/// The largest `requestState` opened at all (bigger ones are refused before any work).
///
/// ```
/// use std::time::SystemTime;
/// use mcp_elicit_server::serde_json::json;
/// use mcp_elicit_server::{ErrorKind, MAX_STATE_BYTES, Principal, StateBinding, StateKeys};
///
/// let keys = StateKeys::random()?;
/// let call = StateBinding::new(&Principal::local_user("alice"), "tools/call", "book", &json!({}));
/// // A client echoing a huge value is refused before any decoding or MAC work.
/// let huge = "A".repeat(MAX_STATE_BYTES + 1);
/// let e = keys.open_json::<serde_json::Value>(&huge, &call, SystemTime::now()).unwrap_err();
/// assert_eq!(e.kind(), ErrorKind::InvalidState);
/// assert!(e.message().contains("bytes"));
/// # Ok::<(), mcp_elicit_server::Error>(())
/// ```
pub const MAX_STATE_BYTES: usize = 64 * 1024;

/// The payload format version.
const VERSION: u32 = 1;

/// The domain of the associated data (changes with its layout).
const DOMAIN: &str = "mcp-elicit/request-state/v1";

/// The keys that seal and open `requestState`: one signing key and any number of older
/// keys still accepted, each with an id (rotation without a flag day).
///
/// Every node serving the same clients must hold the same ring: a state sealed on one
/// node is opened on whichever node gets the retry. Rotate in two steps: add the new
/// key as an accepted key everywhere, then make it the signing key (keeping the old one
/// until the states it sealed have expired, at most the longest round timeout).
///
/// ```
/// use mcp_elicit_server::{ElicitationConfig, IdentityPolicy, StateKeys};
///
/// // A key file during a rotation: `2026-12` signs, `2026-06` is still accepted.
/// // (Generate real keys with e.g. `openssl rand -hex 32`; keep the file secret.)
/// let file = "\
/// ## state keys
/// 2026-12 8a1f0c3e5b7d9f2a4c6e8b0d1f3a5c7e9b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a
/// 2026-06 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff
/// ";
/// let keys = StateKeys::parse(file)?;
/// assert_eq!(keys.signing_id(), "2026-12");
/// assert_eq!(keys.ids(), ["2026-12", "2026-06"]);
///
/// // Errors name the line, never the key.
/// let short = StateKeys::parse("k1 abcd").unwrap_err();
/// assert!(short.to_string().contains("line 1"));
/// assert!(!short.to_string().contains("abcd"));
///
/// // The same ring on every node:
/// let config = ElicitationConfig::new(IdentityPolicy::Authenticated).with_state_keys(keys);
/// # let _ = config;
/// # Ok::<(), mcp_elicit_server::Error>(())
/// ```
#[derive(Clone)]
pub struct StateKeys {
    codec: Arc<RequestStateCodec>,
    signing: String,
    ids: Vec<String>,
}

impl fmt::Debug for StateKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StateKeys")
            .field("signing", &self.signing)
            .field("ids", &self.ids)
            .finish_non_exhaustive()
    }
}

impl StateKeys {
    /// The shortest key accepted, in bytes.
    ///
    /// ```
    /// use mcp_elicit_server::StateKeys;
    ///
    /// let min = StateKeys::MIN_KEY_BYTES;
    /// assert!(StateKeys::new("k", [("k", vec![0u8; min])]).is_ok());
    /// assert!(StateKeys::new("k", [("k", vec![0u8; min - 1])]).is_err());
    /// ```
    pub const MIN_KEY_BYTES: usize = RequestStateCodec::MIN_KEY_LENGTH;

    /// A ring that signs with `signing` and opens states sealed by any key of `keys`
    /// (which must contain `signing`). Key ids are 1 to 255 bytes; keys at least
    /// [`StateKeys::MIN_KEY_BYTES`] bytes.
    ///
    /// ```
    /// use mcp_elicit_server::StateKeys;
    ///
    /// // Signs with "new", still opens what "old" sealed.
    /// let keys = StateKeys::new("new", [("new", [1u8; 32]), ("old", [2u8; 32])])?;
    /// assert_eq!(keys.signing_id(), "new");
    /// // Too short a key, or a signing id not in the ring: refused.
    /// assert!(StateKeys::new("k", [("k", [0u8; 8])]).is_err());
    /// assert!(StateKeys::new("missing", [("k", [0u8; 32])]).is_err());
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn new<I, K, V>(signing: &str, keys: I) -> Result<Self, Error>
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<Vec<u8>>,
    {
        let keys: Vec<(String, Vec<u8>)> = keys
            .into_iter()
            .map(|(k, v)| (k.into(), v.into()))
            .collect();
        let ids = keys.iter().map(|(k, _)| k.clone()).collect();
        let codec = RequestStateCodec::new_with_keyring(signing, keys)
            .map_err(|e| Error::new(ErrorKind::Config, format!("the state keys: {e}")))?;
        Ok(Self {
            codec: Arc::new(codec),
            signing: signing.to_owned(),
            ids,
        })
    }

    /// One random 256-bit key from the OS (id `random`): fine for one process, wrong for
    /// several nodes (each would refuse the others' states) and lost on restart (a
    /// round in progress then fails with -32602 and the client starts over).
    ///
    /// ```
    /// let keys = mcp_elicit_server::StateKeys::random()?;
    /// assert_eq!(keys.signing_id(), "random");
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn random() -> Result<Self, Error> {
        let mut key = vec![0u8; 32];
        rand::TryRngCore::try_fill_bytes(&mut rand::rngs::OsRng, &mut key).map_err(|e| {
            Error::new(
                ErrorKind::Random,
                format!("the OS random generator failed: {e}"),
            )
        })?;
        Self::new("random", [("random", key)])
    }

    /// Reads a key file: one key per line, `ID KEY`, where `KEY` is at least 32 bytes
    /// written as hexadecimal or base64 (standard or URL-safe, padded or not). The first
    /// key signs; the others are accepted for opening (older keys during a rotation).
    /// Blank lines and lines starting with `#` are skipped. Errors name the line, never
    /// the key.
    ///
    /// ```
    /// use mcp_elicit_server::{ErrorKind, StateKeys};
    ///
    /// // Hexadecimal or base64 (here URL-safe, unpadded); comments and blank lines skipped.
    /// let keys = StateKeys::parse(
    ///     "# rotated 2026-12\n\
    ///      new AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8\n\
    ///      \n\
    ///      old 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n",
    /// )?;
    /// assert_eq!(keys.signing_id(), "new");
    ///
    /// // Every problem is a configuration error naming the line.
    /// for bad in ["", "# only a comment", "k1", "k1 not-a-key!", "k1 00ff"] {
    ///     let e = StateKeys::parse(bad).unwrap_err();
    ///     assert_eq!(e.kind(), ErrorKind::Config, "{bad}");
    /// }
    /// assert!(StateKeys::parse("k1 00ff").unwrap_err().message().contains("line 1"));
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn parse(text: &str) -> Result<Self, Error> {
        let mut keys = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |why: &str| {
                Error::new(
                    ErrorKind::Config,
                    format!("the state key file, line {}: {why}", n + 1),
                )
            };
            let mut parts = line.split_whitespace();
            let (Some(id), Some(key), None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(bad("expected `ID KEY` (two words)"));
            };
            let bytes =
                decode_key(key).ok_or_else(|| bad("the key is neither hexadecimal nor base64"))?;
            if bytes.len() < Self::MIN_KEY_BYTES {
                return Err(bad(&format!(
                    "the key is {} bytes, at least {} are needed",
                    bytes.len(),
                    Self::MIN_KEY_BYTES
                )));
            }
            keys.push((id.to_owned(), bytes));
        }
        let Some(signing) = keys.first().map(|(id, _)| id.clone()) else {
            return Err(Error::new(
                ErrorKind::Config,
                "the state key file holds no key (one `ID KEY` line at least)",
            ));
        };
        Self::new(&signing, keys)
    }

    /// The id of the signing key.
    ///
    /// ```
    /// use mcp_elicit_server::StateKeys;
    ///
    /// let keys = StateKeys::new("b", [("a", [1u8; 32]), ("b", [2u8; 32])])?;
    /// assert_eq!(keys.signing_id(), "b");
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn signing_id(&self) -> &str {
        &self.signing
    }

    /// The ids of every key accepted for opening.
    ///
    /// ```
    /// use mcp_elicit_server::StateKeys;
    ///
    /// // In the order given, the signing key included.
    /// let keys = StateKeys::new("b", [("a", [1u8; 32]), ("b", [2u8; 32])])?;
    /// assert_eq!(keys.ids(), ["a", "b"]);
    /// // Its Debug shows the ids, never a key.
    /// assert!(format!("{keys:?}").contains("\"a\""));
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn ids(&self) -> &[String] {
        &self.ids
    }

    /// Seals `value` for the request `binding` describes, valid until `expires`: an
    /// envelope `{v, exp, data}` authenticated with the signing key, the binding mixed
    /// into the tag. What input rounds use; public for handlers that keep state of
    /// their own in `requestState`, and for measuring.
    ///
    /// ```
    /// use std::time::{Duration, SystemTime};
    /// use mcp_elicit_server::{Principal, StateBinding, StateKeys};
    /// use mcp_elicit_server::serde_json::json;
    ///
    /// let keys = StateKeys::new("k1", [("k1", [7u8; 32])])?;
    /// let alice = Principal::authenticated("https://auth.example.com", "alice");
    /// let call = StateBinding::new(&alice, "tools/call", "book", &json!({"party": 4}));
    /// let now = SystemTime::now();
    /// let state = keys.seal_json(&json!({"step": 2}), &call, now + Duration::from_secs(600))?;
    ///
    /// let opened: serde_json::Value = keys.open_json(&state, &call, now)?;
    /// assert_eq!(opened, json!({"step": 2}));
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn seal_json<T: Serialize>(
        &self,
        value: &T,
        binding: &StateBinding,
        expires: SystemTime,
    ) -> Result<String, Error> {
        let envelope = Envelope {
            v: VERSION,
            exp: unix_ms(expires),
            data: value,
        };
        self.codec
            .seal_json_with(
                &envelope,
                &rmcp::model::SealOptions::new().associated_data(binding.bytes()),
            )
            .map_err(|e| Error::new(ErrorKind::Internal, format!("cannot seal the state: {e}")))
    }

    /// Opens `state` for `binding` at `now`, refusing (with [`ErrorKind::InvalidState`],
    /// -32602, naming what is wrong) anything this server did not issue for this user
    /// and request, or that has expired. Nothing is read from a state that fails.
    ///
    /// ```
    /// use std::time::{Duration, SystemTime};
    /// use mcp_elicit_server::{Principal, StateBinding, StateKeys};
    /// use mcp_elicit_server::serde_json::json;
    ///
    /// let keys = StateKeys::new("k1", [("k1", [7u8; 32])])?;
    /// let alice = Principal::authenticated("https://auth.example.com", "alice");
    /// let call = StateBinding::new(&alice, "tools/call", "book", &json!({"party": 4}));
    /// let now = SystemTime::now();
    /// let state = keys.seal_json(&json!({"step": 2}), &call, now + Duration::from_secs(600))?;
    ///
    /// let opened: serde_json::Value = keys.open_json(&state, &call, now)?;
    /// assert_eq!(opened, json!({"step": 2}));
    ///
    /// // Another user, other arguments, an expired or modified state: refused, -32602.
    /// let bob = Principal::authenticated("https://auth.example.com", "bob");
    /// let bobs = StateBinding::new(&bob, "tools/call", "book", &json!({"party": 4}));
    /// let e = keys.open_json::<serde_json::Value>(&state, &bobs, now).unwrap_err();
    /// assert_eq!(e.kind(), mcp_elicit_server::ErrorKind::InvalidState);
    /// let other = StateBinding::new(&alice, "tools/call", "book", &json!({"party": 5}));
    /// assert!(keys.open_json::<serde_json::Value>(&state, &other, now).is_err());
    /// let later = now + Duration::from_secs(601);
    /// assert!(keys.open_json::<serde_json::Value>(&state, &call, later).is_err());
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn open_json<T: DeserializeOwned>(
        &self,
        state: &str,
        binding: &StateBinding,
        now: SystemTime,
    ) -> Result<T, Error> {
        if state.len() > MAX_STATE_BYTES {
            return Err(invalid(format!(
                "requestState is {} bytes, more than the {MAX_STATE_BYTES} this server ever issues",
                state.len()
            )));
        }
        let envelope: Envelope<T> = self
            .codec
            .open_json_with(state, binding.bytes())
            .map_err(|e| {
                tracing::info!(error = %e, "refused an echoed requestState");
                invalid(match e {
                    RequestStateError::MalformedFormat | RequestStateError::InvalidEncoding => {
                        "requestState is malformed: not a value this server issued (echo it unchanged)"
                            .to_owned()
                    }
                    RequestStateError::UnknownKeyId | RequestStateError::InvalidKeyId => {
                        "requestState was sealed with a key this server no longer holds: call again without it"
                            .to_owned()
                    }
                    _ => "requestState failed its integrity check: it was modified or truncated, or issued \
                          for another user, method, name or arguments"
                        .to_owned(),
                })
            })?;
        if envelope.v != VERSION {
            return Err(invalid(format!(
                "requestState has format version {}, this server reads {VERSION}",
                envelope.v
            )));
        }
        if envelope.exp <= unix_ms(now) {
            return Err(invalid(
                "requestState has expired: call again without it to start over",
            ));
        }
        Ok(envelope.data)
    }
}

/// The sealed envelope: format version, expiry (Unix ms, checked with the registry's
/// clock), the data.
#[derive(Serialize, Deserialize)]
struct Envelope<T> {
    v: u32,
    exp: u64,
    data: T,
}

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidState, message)
}

fn decode_key(text: &str) -> Option<Vec<u8>> {
    use base64::Engine;
    use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
    if text.len().is_multiple_of(2) && text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return hex::decode(text).ok();
    }
    [&STANDARD, &STANDARD_NO_PAD, &URL_SAFE, &URL_SAFE_NO_PAD]
        .iter()
        .find_map(|engine| engine.decode(text).ok())
}

/// Milliseconds since the Unix epoch (0 before it).
fn unix_ms(t: SystemTime) -> u64 {
    t.duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

/// What the sealed state of an input round holds.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub(crate) struct Payload {
    /// The keys asked in the round this state came with.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) asked: Vec<String>,
    /// Answers of earlier rounds, already checked, by question key (the client's
    /// response object as it sent it).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) answers: BTreeMap<String, Value>,
    /// URL questions in progress: key to the id of the stored URL elicitation.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) urls: BTreeMap<String, String>,
    /// Attempts so far of forms asked again after an invalid answer.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) tries: BTreeMap<String, u32>,
}

/// The request a state is bound to (mixed into the tag as associated data, not
/// stored): the user, the method, the tool / prompt name or resource URI, and the
/// canonical JSON of the arguments (member order does not matter).
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use mcp_elicit_server::{Principal, StateBinding, StateKeys};
/// use mcp_elicit_server::serde_json::json;
///
/// let keys = StateKeys::random()?;
/// let user = Principal::local_user("alice");
/// let now = SystemTime::now();
/// // Member order of the arguments does not matter; their values do.
/// let a = StateBinding::new(&user, "tools/call", "book", &json!({"a": 1, "b": 2}));
/// let b = StateBinding::new(&user, "tools/call", "book", &json!({"b": 2, "a": 1}));
/// let state = keys.seal_json(&"x", &a, now + Duration::from_secs(60))?;
/// assert_eq!(keys.open_json::<String>(&state, &b, now)?, "x");
/// let prompt = StateBinding::new(&user, "prompts/get", "book", &json!({"a": 1, "b": 2}));
/// assert!(keys.open_json::<String>(&state, &prompt, now).is_err());
/// # Ok::<(), mcp_elicit_server::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct StateBinding(Vec<u8>);

impl StateBinding {
    /// The binding for `principal` calling `method` on `name` with `arguments`.
    ///
    /// ```
    /// use std::time::{Duration, SystemTime};
    /// use mcp_elicit_server::serde_json::json;
    /// use mcp_elicit_server::{Principal, StateBinding, StateKeys};
    ///
    /// let keys = StateKeys::random()?;
    /// let now = SystemTime::now();
    /// let alice = Principal::authenticated("https://auth.example.com", "alice");
    /// let mine = StateBinding::new(&alice, "tools/call", "transfer", &json!({"amount": 20}));
    /// let state = keys.seal_json(&json!({"confirmed": true}), &mine, now + Duration::from_secs(60))?;
    ///
    /// // The same user from another issuer, or the same call on another tool: not opened.
    /// let elsewhere = Principal::authenticated("https://other.example.com", "alice");
    /// for other in [
    ///     StateBinding::new(&elsewhere, "tools/call", "transfer", &json!({"amount": 20})),
    ///     StateBinding::new(&alice, "tools/call", "refund", &json!({"amount": 20})),
    /// ] {
    ///     assert!(keys.open_json::<serde_json::Value>(&state, &other, now).is_err());
    /// }
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn new(principal: &Principal, method: &str, name: &str, arguments: &Value) -> Self {
        let mut text = String::with_capacity(128);
        for part in [
            DOMAIN,
            principal.issuer(),
            principal.subject(),
            method,
            name,
        ] {
            // Length-prefixed, so no choice of parts can collide with another.
            text.push_str(&part.len().to_string());
            text.push(':');
            text.push_str(part);
            text.push('\n');
        }
        canonical_into(arguments, &mut text);
        Self(text.into_bytes())
    }

    fn bytes(&self) -> &[u8] {
        &self.0
    }
}

/// JSON with object members sorted by key, so the same arguments bind the same way
/// whatever order a client sends them in.
pub(crate) fn canonical_into(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (i, (k, v)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                canonical_into(v, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical_into(v, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use std::time::Duration;

    use super::*;

    const KEY_A: &str = "0000000000000000000000000000000000000000000000000000000000000001";
    const KEY_B: &str = "0000000000000000000000000000000000000000000000000000000000000002";

    fn binding(user: &str, args: Value) -> StateBinding {
        StateBinding::new(&Principal::local_user(user), "tools/call", "t", &args)
    }

    fn now() -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(2_000_000_000)
    }

    fn later(secs: u64) -> SystemTime {
        now() + Duration::from_secs(secs)
    }

    #[test]
    fn canonical_json_ignores_member_order() {
        let mut a = String::new();
        let mut b = String::new();
        canonical_into(
            &json!({"b": 1, "a": {"y": [1, {"q": 2, "p": 3}], "x": null}}),
            &mut a,
        );
        canonical_into(
            &json!({"a": {"x": null, "y": [1, {"p": 3, "q": 2}]}, "b": 1}),
            &mut b,
        );
        assert_eq!(a, b);
        assert_eq!(a, r#"{"a":{"x":null,"y":[1,{"p":3,"q":2}]},"b":1}"#);
    }

    #[test]
    fn a_rotated_ring_opens_old_states_and_a_retired_key_is_refused_by_name() {
        let old = StateKeys::parse(&format!("old {KEY_A}\n")).expect("old");
        let rotated =
            StateKeys::parse(&format!("# new first\nnew {KEY_B}\nold {KEY_A}\n")).expect("rotated");
        assert_eq!(rotated.signing_id(), "new");
        assert_eq!(rotated.ids(), ["new", "old"]);
        let b = binding("alice", json!({}));
        let mut payload = Payload::default();
        payload.asked.push("q".into());
        let sealed = old.seal_json(&payload, &b, later(60)).expect("seal");
        assert_eq!(
            rotated
                .open_json::<Payload>(&sealed, &b, now())
                .expect("opens"),
            payload
        );
        let retired = StateKeys::parse(&format!("new {KEY_B}")).expect("retired");
        let e = retired
            .open_json::<Payload>(&sealed, &b, now())
            .expect_err("retired key");
        assert_eq!(e.kind(), ErrorKind::InvalidState);
        assert!(e.message().contains("no longer holds"), "{}", e.message());
    }

    #[test]
    fn other_users_arguments_expiry_and_size_are_each_refused_with_a_reason() {
        let keys = StateKeys::parse(&format!("k {KEY_A}")).expect("keys");
        let b = binding("alice", json!({"n": 1}));
        let sealed = keys
            .seal_json(&Payload::default(), &b, later(60))
            .expect("seal");
        for (other, what) in [
            (binding("bob", json!({"n": 1})), "another user"),
            (binding("alice", json!({"n": 2})), "other arguments"),
        ] {
            let e = keys
                .open_json::<Payload>(&sealed, &other, now())
                .expect_err(what);
            assert!(e.message().contains("integrity"), "{what}: {}", e.message());
        }
        assert!(
            keys.open_json::<Payload>(&sealed, &b, later(61))
                .expect_err("expired")
                .message()
                .contains("expired")
        );
        let huge = "a".repeat(MAX_STATE_BYTES + 1);
        assert!(
            keys.open_json::<Payload>(&huge, &b, now())
                .expect_err("big")
                .message()
                .contains("bytes")
        );
        assert!(keys.open_json::<Payload>("rs2.%%%", &b, now()).is_err());
    }

    #[test]
    fn key_files_are_checked_line_by_line_without_echoing_keys() {
        for (text, part) in [
            ("", "holds no key"),
            ("just-one-word", "line 1"),
            ("k zz!!", "neither hexadecimal nor base64"),
            ("k 0011", "at least 32"),
            (&format!("k {KEY_A}\nk {KEY_B}") as &str, "duplicate"),
        ] {
            let e = StateKeys::parse(text).expect_err(text);
            assert!(e.message().contains(part), "{text}: {}", e.message());
            assert!(!e.message().contains(KEY_A), "key echoed");
        }
        let b64 = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAE";
        StateKeys::parse(&format!("k {b64}")).expect("base64 without padding");
    }
}
