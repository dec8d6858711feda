//! One handler, 2026-07-28 wire: rounds with exact requests, multi-question rounds,
//! multi-round flows, URL mode with sealed state, and every kind of bad input (-32602,
//! no side effect).

mod common;

use std::time::Duration;

use common::rounds::{Rounds, handle_schema, rounds_hub, rounds_hub_with};
use common::{ManualClock, alice};
use serde_json::{Value, json};

fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

fn state(round: &Value) -> String {
    round["requestState"]
        .as_str()
        .expect("requestState")
        .to_owned()
}

#[tokio::test]
async fn a_form_round_carries_the_exact_request_and_the_retry_completes() {
    let hub = rounds_hub("alice", ManualClock::new());
    let mut c = Rounds::connect(&hub);
    let first = c.call("handle", json!({})).await;
    let round = Rounds::round(&first);
    // Exactly the core's request: `pattern`, `minLength`, `default`, `title` intact
    // (rmcp's typed model would drop `pattern`), and no private `_meta` left behind.
    assert_eq!(
        round["inputRequests"]["profile"],
        json!({"method": "elicitation/create", "params": {
            "mode": "form", "message": "Pick a handle", "requestedSchema": handle_schema()}})
    );
    assert!(round.get("_meta").is_none(), "{first}");
    let done = c
        .call(
            "handle",
            json!({"inputResponses": {"profile": accept(json!({"handle": "ferris"}))},
                                "requestState": state(round)}),
        )
        .await;
    assert_eq!(Rounds::done(&done), r#"accepted {"handle":"ferris"}"#);
    // Decline and cancel are outcomes, not errors.
    for action in ["decline", "cancel"] {
        let r = c
            .call("handle", json!({"inputResponses": {"profile": {"action": action}}, "requestState": state(round)}))
            .await;
        assert_eq!(
            Rounds::done(&r),
            if action == "decline" {
                "declined"
            } else {
                "cancelled"
            }
        );
    }
}

#[tokio::test]
async fn several_questions_go_in_one_round_and_a_missing_answer_is_asked_again_alone() {
    let hub = rounds_hub("alice", ManualClock::new());
    let mut c = Rounds::connect(&hub);
    let first = c.call("pair", json!({})).await;
    let round = Rounds::round(&first);
    let keys: Vec<&String> = round["inputRequests"]
        .as_object()
        .expect("map")
        .keys()
        .collect();
    assert_eq!(keys, ["first", "last"]);
    // Only `first` answered (plus a key never asked, which is ignored): a new round
    // asks for `last` only, and the state carries `first`.
    let second = c
        .call(
            "pair",
            json!({"inputResponses": {"first": accept(json!({"first": "Ada"})),
                                                 "never_asked": accept(json!({"x": 1}))},
                              "requestState": state(round)}),
        )
        .await;
    let round2 = Rounds::round(&second);
    let keys: Vec<&String> = round2["inputRequests"]
        .as_object()
        .expect("map")
        .keys()
        .collect();
    assert_eq!(keys, ["last"]);
    let done = c
        .call(
            "pair",
            json!({"inputResponses": {"last": accept(json!({"last": "Lovelace"}))},
                              "requestState": state(round2)}),
        )
        .await;
    assert_eq!(
        Rounds::done(&done),
        r#"accepted {"first":"Ada"} / accepted {"last":"Lovelace"}"#
    );
}

#[tokio::test]
async fn a_multi_round_flow_asks_one_step_per_round_with_a_new_state_each_time() {
    let hub = rounds_hub("alice", ManualClock::new());
    let mut c = Rounds::connect(&hub);
    let r1 = c.call("steps", json!({})).await;
    let s1 = state(Rounds::round(&r1));
    assert!(Rounds::round(&r1)["inputRequests"].get("step1").is_some());
    let r2 = c
        .call("steps", json!({"inputResponses": {"step1": accept(json!({"name": "Ada"}))}, "requestState": s1}))
        .await;
    let s2 = state(Rounds::round(&r2));
    assert_ne!(s1, s2);
    assert!(Rounds::round(&r2)["inputRequests"].get("step2").is_some());
    let r3 = c
        .call("steps", json!({"inputResponses": {"step2": accept(json!({"color": "blue"}))}, "requestState": s2}))
        .await;
    assert_eq!(
        Rounds::done(&r3),
        r#"accepted {"name":"Ada"} then accepted {"color":"blue"}"#
    );
}

#[tokio::test]
async fn a_bad_request_state_is_refused_with_32602_naming_it_and_changes_nothing() {
    let clock = ManualClock::new();
    let hub = rounds_hub("alice", clock.clone());
    let mut c = Rounds::connect(&hub);
    let r1 = c.call("steps", json!({})).await;
    let good = state(Rounds::round(&r1));
    let answer = json!({"step1": accept(json!({"name": "Ada"}))});
    let mut flipped = good.clone().into_bytes();
    let last = flipped.len() - 2;
    flipped[last] = if flipped[last] == b'A' { b'B' } else { b'A' };
    let flipped = String::from_utf8(flipped).expect("ascii");
    let cases = [
        (flipped, "integrity"),
        (good[..good.len() / 2].to_owned(), "requestState"),
        (format!("{good}-TAMPERED"), "requestState"),
        ("not even close".to_owned(), "requestState"),
        ("x".repeat(mcp_elicit_server::MAX_STATE_BYTES + 1), "bytes"),
    ];
    for (bad, part) in cases {
        let r = c
            .call(
                "steps",
                json!({"inputResponses": answer, "requestState": bad}),
            )
            .await;
        let (code, message) = Rounds::error(&r);
        assert_eq!(code, -32602, "{r}");
        assert!(
            message.contains(part) && message.contains("requestState"),
            "{message}"
        );
    }
    // Other arguments, another tool: refused too.
    for extra in [json!({"arguments": {"n": 1}})] {
        let mut params = json!({"inputResponses": answer, "requestState": good});
        params
            .as_object_mut()
            .expect("obj")
            .extend(extra.as_object().expect("obj").clone());
        let (code, _) = Rounds::error(&c.call("steps", params).await);
        assert_eq!(code, -32602);
    }
    let (code, _) = Rounds::error(
        &c.call(
            "pair",
            json!({"inputResponses": answer, "requestState": good}),
        )
        .await,
    );
    assert_eq!(code, -32602);
    // Expired: the state lives as long as the form timeout.
    clock.advance(Duration::from_secs(11 * 60));
    let (code, message) = Rounds::error(
        &c.call(
            "steps",
            json!({"inputResponses": answer, "requestState": good}),
        )
        .await,
    );
    assert_eq!(code, -32602);
    assert!(message.contains("expired"), "{message}");
    assert_eq!(
        hub.pending_count().await.expect("count"),
        0,
        "no side effect"
    );
}

#[tokio::test]
async fn another_users_state_is_refused_even_with_the_same_keys() {
    let clock = ManualClock::new();
    let alice_hub = rounds_hub("alice", clock.clone());
    let bob_hub = rounds_hub("bob", clock);
    let mut a = Rounds::connect(&alice_hub);
    let mut b = Rounds::connect(&bob_hub);
    let r1 = a.call("steps", json!({})).await;
    let s = state(Rounds::round(&r1));
    let answer = json!({"step1": accept(json!({"name": "Ada"}))});
    let (code, message) = Rounds::error(
        &b.call(
            "steps",
            json!({"inputResponses": answer, "requestState": s}),
        )
        .await,
    );
    assert_eq!(code, -32602);
    assert!(message.contains("another user"), "{message}");
    // The same state still works for its own user (another node with the same keys).
    let mut a2 = Rounds::connect(&rounds_hub("alice", ManualClock::new()));
    let r2 = a2
        .call(
            "steps",
            json!({"inputResponses": answer, "requestState": s}),
        )
        .await;
    assert!(
        Rounds::round(&r2)["inputRequests"].get("step2").is_some(),
        "{r2}"
    );
}

#[tokio::test]
async fn invalid_or_malformed_answers_are_32602_naming_the_key_and_what_is_wrong() {
    // Re-asking off: the first invalid answer is final.
    let hub = rounds_hub_with("alice", ManualClock::new(), |c| c.with_max_attempts(1));
    let mut c = Rounds::connect(&hub);
    let r1 = c.call("handle", json!({})).await;
    let s = state(Rounds::round(&r1));
    for (answer, parts) in [
        (
            accept(json!({"handle": "NOT lower"})),
            vec!["inputResponses.profile", "pattern"],
        ),
        (
            accept(json!({"handle": "ab"})),
            vec!["inputResponses.profile"],
        ),
        (json!(12345), vec!["inputResponses.profile"]),
        (json!({"action": "maybe"}), vec!["inputResponses.profile"]),
        (json!({"action": "accept"}), vec!["inputResponses.profile"]),
    ] {
        let r = c
            .call(
                "handle",
                json!({"inputResponses": {"profile": answer}, "requestState": s}),
            )
            .await;
        let (code, message) = Rounds::error(&r);
        assert_eq!(code, -32602, "{r}");
        for part in parts {
            assert!(message.contains(part), "{part} in {message}");
        }
    }
}

#[tokio::test]
async fn an_invalid_answer_is_re_asked_once_by_default_in_a_new_round_naming_the_rule() {
    let hub = rounds_hub("alice", ManualClock::new());
    let mut c = Rounds::connect(&hub);
    let r1 = c.call("handle", json!({})).await;
    let s1 = state(Rounds::round(&r1));
    // A client that stripped `pattern` let the user type capitals.
    let r2 = c
        .call(
            "handle",
            json!({"inputResponses": {"profile": accept(json!({"handle": "NOTlower"}))}, "requestState": s1}),
        )
        .await;
    let round = Rounds::round(&r2);
    let message = round["inputRequests"]["profile"]["params"]["message"]
        .as_str()
        .expect("message");
    assert!(message.starts_with("Pick a handle"), "{message}");
    assert!(
        message.contains("must match the pattern \"^[a-z]+$\""),
        "names the rule: {message}"
    );
    // `pattern` is still in the re-asked schema.
    assert_eq!(
        round["inputRequests"]["profile"]["params"]["requestedSchema"]["properties"]["handle"]["pattern"],
        "^[a-z]+$"
    );
    let s2 = state(round);
    // Corrected: done.
    let done = c
        .call(
            "handle",
            json!({"inputResponses": {"profile": accept(json!({"handle": "ferris"}))}, "requestState": s2.clone()}),
        )
        .await;
    assert_eq!(Rounds::done(&done), "accepted {\"handle\":\"ferris\"}");
    // Wrong again on the re-ask: that was the one re-ask, -32602 naming the rule.
    let again = c
        .call(
            "handle",
            json!({"inputResponses": {"profile": accept(json!({"handle": "STILL"}))}, "requestState": s2}),
        )
        .await;
    let (code, message) = Rounds::error(&again);
    assert_eq!(code, -32602, "{again}");
    assert!(
        message.contains("inputResponses.profile") && message.contains("pattern"),
        "{message}"
    );
}

#[tokio::test]
async fn url_mode_rounds_until_the_page_is_done_then_completes_once() {
    let hub = rounds_hub("alice", ManualClock::new());
    let mut c = Rounds::connect(&hub);
    let r1 = c.call("connect", json!({})).await;
    let round = Rounds::round(&r1).clone();
    let request = &round["inputRequests"]["connect"];
    assert_eq!(request["params"]["mode"], "url");
    assert!(
        request["params"].get("elicitationId").is_none(),
        "removed in 2026-07-28: {request}"
    );
    let url = request["params"]["url"].as_str().expect("url").to_owned();
    let pending = hub.pending(&alice()).await.expect("pending");
    assert_eq!(pending.len(), 1);
    let id = pending[0].id.clone();
    assert!(url.ends_with(&id));
    let accepted =
        json!({"inputResponses": {"connect": {"action": "accept"}}, "requestState": state(&round)});

    // Before the page is finished: the same round again (same URL), nothing new stored.
    let r2 = c.call("connect", accepted.clone()).await;
    assert_eq!(
        Rounds::round(&r2)["inputRequests"]["connect"]["params"]["url"],
        url
    );
    assert_eq!(hub.pending_count().await.expect("count"), 1);

    // The page (same user) finishes it; the retry learns of it, once.
    hub.complete(&alice(), &id).await.expect("complete");
    assert!(
        hub.pending(&alice()).await.expect("pending").is_empty(),
        "not pending any more"
    );
    let r3 = c.call("connect", accepted.clone()).await;
    assert_eq!(Rounds::done(&r3), "completed");
    let (code, message) = Rounds::error(&c.call("connect", accepted).await);
    assert_eq!(code, -32602);
    assert!(
        message.contains("used already") || message.contains("no longer pending"),
        "{message}"
    );
    assert_eq!(hub.pending_count().await.expect("count"), 0);

    // Another user cannot finish it (the phishing rule): bob's completion is refused.
    let r4 = c.call("connect", json!({})).await;
    let round4 = Rounds::round(&r4).clone();
    let id4 = hub.pending(&alice()).await.expect("pending")[0].id.clone();
    assert!(
        hub.complete(&mcp_elicit_server::Principal::local_user("bob"), &id4)
            .await
            .is_err()
    );
    // A decline forgets it.
    let r5 = c
        .call("connect", json!({"inputResponses": {"connect": {"action": "decline"}}, "requestState": state(&round4)}))
        .await;
    assert_eq!(Rounds::done(&r5), "declined");
    assert_eq!(hub.pending_count().await.expect("count"), 0);
}

#[tokio::test]
async fn modes_come_from_this_request_and_32042_never_leaves_on_2026() {
    let hub = rounds_hub("alice", ManualClock::new());
    let mut c = Rounds::connect(&hub);
    // Undeclared in this request: -32021 naming what is missing, nothing stored.
    c.caps = json!({"elicitation": {"form": {}}});
    let r = c.call("connect", json!({})).await;
    let (code, message) = Rounds::error(&r);
    assert_eq!(code, -32021);
    assert!(message.contains("elicitation.url"), "{message}");
    assert_eq!(
        r["error"]["data"]["requiredCapabilities"],
        json!({"elicitation": {"url": {}}})
    );
    c.caps = json!({});
    let r = c.call("handle", json!({})).await;
    assert_eq!(Rounds::error(&r).0, -32021);
    assert_eq!(
        r["error"]["data"]["requiredCapabilities"],
        json!({"elicitation": {"form": {}}})
    );
    assert_eq!(hub.pending_count().await.expect("count"), 0);
    c.caps = json!({"elicitation": {"url": {}}});
    let r = c.call("legacy_required", json!({})).await;
    let (code, _) = Rounds::error(&r);
    assert_ne!(code, -32042, "{r}");
    assert!(!r.to_string().contains("mcp.example.com"), "no URL in {r}");
}
