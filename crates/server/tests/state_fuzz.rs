//! Opening `requestState` is total: whatever a client echoes (a mutation of a real state
//! or anything at all), opening returns the original value or an `invalid_state`
//! error (-32602), never panics, and never accepts a changed state.

use std::time::{Duration, SystemTime};

use mcp_elicit_server::{ErrorKind, Principal, StateBinding, StateKeys};
use proptest::prelude::*;
use serde_json::{Value, json};

fn keys() -> StateKeys {
    StateKeys::parse("k 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef")
        .expect("keys")
}

fn binding() -> StateBinding {
    StateBinding::new(
        &Principal::local_user("alice"),
        "tools/call",
        "t",
        &json!({"a": 1}),
    )
}

fn now() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(2_000_000_000)
}

fn sealed() -> (String, Value) {
    let value =
        json!({"asked": ["q"], "answers": {"q": {"action": "accept", "content": {"n": "x"}}}});
    let s = keys()
        .seal_json(&value, &binding(), now() + Duration::from_secs(60))
        .expect("seal");
    (s, value)
}

#[derive(Debug, Clone)]
enum Mutation {
    Flip(usize, u8),
    Truncate(usize),
    Insert(usize, char),
    Append(String),
    Remove(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Flip(i, b)),
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), any::<char>()).prop_map(|(i, c)| Mutation::Insert(i, c)),
        ".{1,8}".prop_map(Mutation::Append),
        any::<usize>().prop_map(Mutation::Remove),
    ]
}

fn apply(state: &str, m: &Mutation) -> String {
    let mut chars: Vec<char> = state.chars().collect();
    let n = chars.len();
    if n == 0 {
        return match m {
            Mutation::Insert(_, c) => c.to_string(),
            Mutation::Append(s) => s.clone(),
            _ => String::new(),
        };
    }
    match m {
        Mutation::Flip(i, b) => {
            let i = i % n;
            chars[i] = char::from(*b);
        }
        Mutation::Truncate(i) => chars.truncate(i % n),
        Mutation::Insert(i, c) => chars.insert(i % (n + 1), *c),
        Mutation::Append(s) => chars.extend(s.chars()),
        Mutation::Remove(i) => {
            chars.remove(i % n);
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 512,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn a_mutated_state_opens_unchanged_or_is_refused_as_invalid_state(
        ms in proptest::collection::vec(mutation(), 1..4)
    ) {
        let (state, value) = sealed();
        let mut bad = state.clone();
        for m in &ms {
            bad = apply(&bad, m);
        }
        match keys().open_json::<Value>(&bad, &binding(), now()) {
            Ok(v) => {
                prop_assert_eq!(&bad, &state, "a changed state was accepted");
                prop_assert_eq!(v, value);
            }
            Err(e) => {
                prop_assert_eq!(e.kind(), ErrorKind::InvalidState);
                prop_assert!(e.message().contains("requestState"), "{}", e.message());
            }
        }
    }

    #[test]
    fn any_string_is_refused_without_panic(s in ".{0,600}") {
        let e = keys().open_json::<Value>(&s, &binding(), now()).expect_err("never valid");
        prop_assert_eq!(e.kind(), ErrorKind::InvalidState);
    }

    #[test]
    fn rs2_lookalikes_are_refused(kid in "[A-Za-z0-9_-]{0,12}", body in "[A-Za-z0-9_-]{0,200}", tag in "[A-Za-z0-9_-]{0,60}") {
        let s = format!("rs2.{kid}.{body}.{tag}");
        let e = keys().open_json::<Value>(&s, &binding(), now()).expect_err("never valid");
        prop_assert_eq!(e.kind(), ErrorKind::InvalidState);
    }
}

/// The `request_state` fuzz target's crash of 2026-12-02 (`fuzz/seeds/request_state/
/// payload_beyond_i64.bin`): an answer holding an integer beyond `u64`, which JSON readers
/// hold as an `f64`. Read without serde_json's `float_roundtrip` it came out one unit in
/// the last place off the nearest `f64` (`-9.223372037854745e20`); sealed, that value is
/// written in its shortest form and read back correctly rounded (`...744e20`): the
/// answer the server validated in one round was another number in the next.
#[test]
fn an_answer_beyond_i64_opens_to_the_value_sealed() {
    let text = r#"[5,-9223,true,-0.0,1e300,18446744073709551615,-922337203785474407378,"\u0000"]"#;
    let value: Value = serde_json::from_str(text).expect("json");
    let answer =
        json!({"q": {"action": "accept", "content": {"n": value[6].clone(), "all": value}}});
    let state = keys()
        .seal_json(&answer, &binding(), now() + Duration::from_secs(60))
        .expect("seal");
    let opened: Value = keys()
        .open_json(&state, &binding(), now())
        .expect("own state");
    assert_eq!(opened, answer, "a sealed answer came back changed");
    let n = opened["q"]["content"]["n"].as_f64().expect("a number");
    assert_eq!(n, -922_337_203_785_474_407_378_f64, "not the nearest f64");
}

/// The same property over many long numbers (integers past `u64`, 17-digit mantissas
/// with exponents): each is read as the nearest `f64` (what Rust's own `str::parse`
/// gives) and a state holding it opens to exactly that number.
#[test]
fn long_numbers_are_read_correctly_rounded_and_survive_the_state() {
    let mut seed = 0x2026_1202_u64;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        seed >> 33
    };
    let mut texts = vec![
        "-922337203785474407378".to_owned(),
        "-9.223372037854745e20".to_owned(),
    ];
    for i in 0..1500 {
        let digits = 17 + (next() % 9) as usize;
        let mut t: String = (0..digits)
            .map(|_| char::from(b'0' + (next() % 10) as u8))
            .collect();
        t.replace_range(0..1, &(1 + next() % 9).to_string());
        if i % 2 == 1 {
            t.insert(1, '.');
            t.push_str(&format!("e{}", (next() % 600) as i64 - 300));
        }
        if i % 3 == 0 {
            t.insert(0, '-');
        }
        texts.push(t);
    }
    let mut wrong = Vec::new();
    for t in &texts {
        let nearest: f64 = t.parse().expect("a number");
        let read: f64 = serde_json::from_str(t).expect("json");
        if read.to_bits() != nearest.to_bits() {
            wrong.push(format!("{t} read as {read:e}, nearest {nearest:e}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} numbers misread, e.g. {:?}",
        wrong.len(),
        texts.len(),
        &wrong[..wrong.len().min(3)]
    );
    let value: Value = serde_json::from_str(&format!("[{}]", texts.join(","))).expect("json array");
    let state = keys()
        .seal_json(&value, &binding(), now() + Duration::from_secs(60))
        .expect("seal");
    let opened: Value = keys()
        .open_json(&state, &binding(), now())
        .expect("own state");
    assert_eq!(opened, value, "a sealed number came back changed");
}
