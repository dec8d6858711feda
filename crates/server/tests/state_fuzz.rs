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
