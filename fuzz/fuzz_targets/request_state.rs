//! The 2026-07-28 `requestState` opener (`StateKeys::open_json`, HMAC key ring with
//! rotation) fed arbitrary bytes and mutations of states it sealed itself. It must never
//! panic, and must never accept a forged or altered state: only the exact string it
//! sealed for this binding opens, to exactly the value sealed.
//!
//! The first byte chooses what the rest is:
//! - `0..=63`: the whole input (lossy UTF-8) is an echoed `requestState`; never accepted
//!   unless it is byte for byte one of the three states sealed below;
//! - `64..=127`: edit operations applied to one of the sealed states (flip, set, insert,
//!   remove, truncate, duplicate, splice a piece of another sealed state, swap two
//!   sections); the result opens only if it equals a sealed state, and then to its value;
//! - `128..=191`: the rest is a JSON payload: sealed and opened it comes back equal; it
//!   does not open for another user, tool, argument or after its expiry, nor under a ring
//!   that no longer holds its key; a one-byte change in it is refused;
//! - `192..=255`: the rest is a key file for `StateKeys::parse`: never panics, an error
//!   never repeats the key text, a ring it accepts seals and opens its own state.
#![no_main]

use std::sync::OnceLock;
use std::time::{Duration, SystemTime};

use libfuzzer_sys::fuzz_target;
use mcp_elicit_server::{ErrorKind, Principal, StateBinding, StateKeys};
use serde_json::{Value, json};

const KEY_NEW: &str = "2026-12 8a1f0c3e5b7d9f2a4c6e8b0d1f3a5c7e9b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a";
const KEY_OLD: &str = "2026-06 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
const KEY_OTHER: &str = "2026-12 ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100";

struct Fixture {
    /// Signs with `2026-12`, accepts `2026-06`.
    ring: StateKeys,
    /// Only `2026-06` (what sealed the older state).
    old: StateKeys,
    /// Only `2026-12` (the rotation finished: `2026-06` retired).
    retired: StateKeys,
    /// Another server's key under the same id `2026-12`.
    other: StateKeys,
    binding: StateBinding,
    /// `(state, value)`: sealed by the ring, by the old key, and a second value by the ring.
    sealed: Vec<(String, Value)>,
}

fn now() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(2_000_000_000)
}

fn expires() -> SystemTime {
    now() + Duration::from_secs(600)
}

fn binding(user: &str, name: &str, arguments: &Value) -> StateBinding {
    StateBinding::new(&Principal::local_user(user), "tools/call", name, arguments)
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let ring = StateKeys::parse(&format!("{KEY_NEW}\n{KEY_OLD}\n")).expect("ring");
        let old = StateKeys::parse(KEY_OLD).expect("old");
        let retired = StateKeys::parse(KEY_NEW).expect("retired");
        let other = StateKeys::parse(KEY_OTHER).expect("other");
        let binding = binding("alice", "buy", &json!({"item": "book", "n": 2}));
        let v1 = json!({"asked": ["confirm"], "answers": {"size": {"action": "accept", "content": {"size": "L"}}}});
        let v2 = json!({"asked": ["pay"], "urls": {"pay": "el-123"}, "tries": {"size": 1}});
        let sealed = vec![
            (ring.seal_json(&v1, &binding, expires()).expect("seal"), v1.clone()),
            (old.seal_json(&v1, &binding, expires()).expect("seal old"), v1),
            (ring.seal_json(&v2, &binding, expires()).expect("seal 2"), v2),
        ];
        Fixture {
            ring,
            old,
            retired,
            other,
            binding,
            sealed,
        }
    })
}

/// Opens `state` with the ring: accepted only if it is one of the sealed states, and then
/// to its value; refused with `InvalidState` and a message naming `requestState` otherwise.
fn check_open(f: &Fixture, state: &str) {
    match f.ring.open_json::<Value>(state, &f.binding, now()) {
        Ok(v) => {
            let Some((_, value)) = f.sealed.iter().find(|(s, _)| s == state) else {
                panic!("accepted a state it never sealed: {state:?} -> {v}");
            };
            assert_eq!(&v, value, "a sealed state opened to another value");
        }
        Err(e) => {
            assert_eq!(e.kind(), ErrorKind::InvalidState, "{e}");
            assert!(e.message().contains("requestState"), "{}", e.message());
            assert!(
                f.sealed.iter().all(|(s, _)| s != state),
                "refused its own state: {e}"
            );
        }
    }
}

/// Applies edit operations (3 bytes each) to `base`, splicing pieces of `donor`.
fn edit(base: &str, donor: &str, ops: &[u8]) -> Vec<u8> {
    let mut s = base.as_bytes().to_vec();
    let donor = donor.as_bytes();
    for op in ops.chunks(3) {
        let [kind, a, b] = [op[0], *op.get(1).unwrap_or(&0), *op.get(2).unwrap_or(&0)];
        let at = |len: usize| {
            if len == 0 {
                0
            } else {
                (usize::from(a) << 8 | usize::from(b)) % len
            }
        };
        match kind % 9 {
            0 => {
                let i = at(s.len());
                if let Some(c) = s.get_mut(i) {
                    *c ^= 1 << (b % 8);
                }
            }
            1 => {
                let i = at(s.len());
                if let Some(c) = s.get_mut(i) {
                    *c = b;
                }
            }
            2 => {
                let i = usize::from(a) % (s.len() + 1);
                s.insert(i, b);
            }
            3 => {
                if !s.is_empty() {
                    let i = at(s.len());
                    s.remove(i);
                }
            }
            4 => {
                let i = at(s.len());
                s.truncate(i);
            }
            5 => {
                // Duplicate a piece in place (repeated sections, doubled dots).
                let i = at(s.len());
                let end = (i + usize::from(b % 16) + 1).min(s.len());
                let piece = s[i..end].to_vec();
                s.splice(i..i, piece);
            }
            6 => {
                // A piece of another sealed state over the same offset.
                let i = at(s.len().min(donor.len()));
                let end = (i + usize::from(a % 64) + 1).min(s.len()).min(donor.len());
                if i < end {
                    s[i..end].copy_from_slice(&donor[i..end]);
                }
            }
            7 => {
                // Swap two dot-separated sections (kid, body, tag).
                let text = String::from_utf8_lossy(&s).into_owned();
                let mut parts: Vec<&str> = text.split('.').collect();
                let n = parts.len();
                if n > 1 {
                    parts.swap(usize::from(a) % n, usize::from(b) % n);
                }
                s = parts.join(".").into_bytes();
            }
            _ => {
                // Replace one section with the same section of the donor.
                let text = String::from_utf8_lossy(&s).into_owned();
                let other = String::from_utf8_lossy(donor).into_owned();
                let mut parts: Vec<&str> = text.split('.').collect();
                let theirs: Vec<&str> = other.split('.').collect();
                let i = usize::from(a) % parts.len();
                if let Some(p) = theirs.get(i) {
                    parts[i] = p;
                }
                s = parts.join(".").into_bytes();
            }
        }
    }
    s
}

fn roundtrip(f: &Fixture, data: &[u8]) {
    let value: Value = serde_json::from_slice(data)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(data).into_owned()));
    let args = json!({"item": "book", "n": 2});
    let state = f
        .ring
        .seal_json(&value, &f.binding, expires())
        .expect("seal");
    let opened: Value = f
        .ring
        .open_json(&state, &f.binding, now())
        .expect("own state");
    assert_eq!(opened, value, "a sealed value came back changed");
    // Same binding built again (argument members in another order) opens too.
    let same = binding("alice", "buy", &json!({"n": 2, "item": "book"}));
    assert_eq!(
        f.ring
            .open_json::<Value>(&state, &same, now())
            .expect("same"),
        value
    );
    let refused = |keys: &StateKeys, b: &StateBinding, at: SystemTime, what: &str| {
        let e = keys.open_json::<Value>(&state, b, at).expect_err(what);
        assert_eq!(e.kind(), ErrorKind::InvalidState, "{what}: {e}");
    };
    refused(
        &f.ring,
        &binding("bob", "buy", &args),
        now(),
        "another user",
    );
    refused(
        &f.ring,
        &binding("alice", "sell", &args),
        now(),
        "another tool",
    );
    refused(
        &f.ring,
        &binding("alice", "buy", &json!({"item": "book", "n": 3})),
        now(),
        "other arguments",
    );
    refused(&f.ring, &f.binding, expires(), "expired");
    refused(&f.old, &f.binding, now(), "key not in the ring");
    refused(&f.other, &f.binding, now(), "same id, another key");
    // A state sealed with the old key opens with the ring but not once it is retired.
    let old_state = f
        .old
        .seal_json(&value, &f.binding, expires())
        .expect("seal");
    assert_eq!(
        f.ring
            .open_json::<Value>(&old_state, &f.binding, now())
            .expect("rotation"),
        value
    );
    assert!(
        f.retired
            .open_json::<Value>(&old_state, &f.binding, now())
            .is_err()
    );
    // Any one-byte change (position and value from the payload) is refused.
    if let Some(&b) = data.first() {
        let mut bytes = state.clone().into_bytes();
        let i = data.len().wrapping_mul(31) % bytes.len();
        let new = if bytes[i] == b { b.wrapping_add(1) } else { b };
        bytes[i] = new;
        let changed = String::from_utf8_lossy(&bytes).into_owned();
        if changed != state {
            assert!(
                f.ring
                    .open_json::<Value>(&changed, &f.binding, now())
                    .is_err(),
                "a changed state was accepted: {changed:?}"
            );
        }
    }
}

fn key_file(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match StateKeys::parse(&text) {
        Ok(keys) => {
            assert!(keys.ids().iter().any(|id| id == keys.signing_id()));
            let b = binding("alice", "t", &Value::Null);
            let state = keys.seal_json(&1, &b, expires()).expect("seal");
            assert_eq!(keys.open_json::<u32>(&state, &b, now()).expect("open"), 1);
        }
        Err(e) => {
            // Errors name the line, never the key: no key text (the second word of a
            // line, 8 characters or more, that is not also some line's id) is echoed.
            let lines: Vec<Vec<&str>> = text
                .lines()
                .map(|l| l.split_whitespace().collect())
                .collect();
            let ids: Vec<&str> = lines.iter().filter_map(|w| w.first().copied()).collect();
            for key in lines.iter().filter_map(|w| w.get(1).copied()) {
                if key.len() >= 8 && !ids.iter().any(|id| id.contains(key)) {
                    assert!(!e.message().contains(key), "key echoed: {}", e.message());
                }
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let f = fixture();
    match selector {
        0..=63 => check_open(f, &String::from_utf8_lossy(rest)),
        64..=127 => {
            let (base, _) = &f.sealed[usize::from(selector) % 3];
            let (donor, _) = &f.sealed[(usize::from(selector) / 3 + 1) % 3];
            let edited = edit(base, donor, rest);
            check_open(f, &String::from_utf8_lossy(&edited));
        }
        128..=191 => roundtrip(f, rest),
        _ => key_file(rest),
    }
});
