//! What the user did (declined, dismissed, an answer still invalid after the re-ask)
//! reaches the model as a tool result through `respond_tool`, on both revisions, while
//! a 2026-07-28 round is still an `InputRequiredResult`.

mod common;

use common::rounds::{AskServer, Rounds, rounds_hub};
use common::{ManualClock, RawClient};
use serde_json::{Value, json};

fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

fn state(round: &Value) -> String {
    round["requestState"].as_str().expect("state").to_owned()
}

/// A complete tool result's `(isError, text)` (panics on anything else).
fn tool_result(reply: &Value) -> (bool, String) {
    let r = &reply["result"];
    assert!(reply.get("error").is_none(), "a JSON-RPC error: {reply}");
    (
        r["isError"].as_bool().unwrap_or(false),
        r["content"][0]["text"].as_str().expect("text").to_owned(),
    )
}

#[tokio::test]
async fn on_2026_the_round_is_still_a_round_and_user_ends_are_tool_results() {
    let hub = rounds_hub("alice", ManualClock::new());
    let mut c = Rounds::connect(&hub);
    // The question: a round, not a tool result.
    let r1 = c.call("accepted", json!({})).await;
    let s1 = state(Rounds::round(&r1));
    for (answer, needle) in [
        (json!({"action": "decline"}), "declined"),
        (json!({"action": "cancel"}), "dismissed"),
    ] {
        let r = c
            .call(
                "accepted",
                json!({"inputResponses": {"profile": answer}, "requestState": s1}),
            )
            .await;
        assert_eq!(r["result"]["resultType"], "complete", "{r}");
        let (is_error, text) = tool_result(&r);
        assert!(is_error, "{r}");
        assert!(text.contains(needle), "{needle} in {text}");
    }
    // Invalid, re-asked once (a new round), invalid again: a tool result naming the rule.
    let bad = accept(json!({"handle": "UPPER"}));
    let r2 = c
        .call(
            "accepted",
            json!({"inputResponses": {"profile": bad}, "requestState": s1}),
        )
        .await;
    let s2 = state(Rounds::round(&r2));
    let r3 = c
        .call(
            "accepted",
            json!({"inputResponses": {"profile": bad}, "requestState": s2}),
        )
        .await;
    let (is_error, text) = tool_result(&r3);
    assert!(is_error, "{r3}");
    assert!(
        text.contains("not accepted") && text.contains("pattern"),
        "{text}"
    );
    // Accepted: the ordinary result.
    let ok = c
        .call(
            "accepted",
            json!({"inputResponses": {"profile": accept(json!({"handle": "ferris"}))}, "requestState": s1}),
        )
        .await;
    assert_eq!(
        tool_result(&ok),
        (false, "accepted {\"handle\":\"ferris\"}".into())
    );
}

#[tokio::test]
async fn on_2025_user_ends_are_tool_results_not_json_rpc_errors() {
    let hub = rounds_hub("alice", ManualClock::new());
    let server = mcp_elicit_server::Edge::new(AskServer {
        scope: hub.scope().expect("scope"),
    });
    let mut c = RawClient::connect_handler(server, Some(json!({"form": {}}))).await;
    for (answer, needle) in [
        (json!({"action": "decline"}), "declined"),
        (json!({"action": "cancel"}), "dismissed"),
    ] {
        let call = c.call_tool("accepted", json!({})).await;
        let req = c.expect_elicitation().await;
        c.reply(&req, answer).await;
        let (is_error, text) = tool_result(&c.expect_response(call).await);
        assert!(is_error);
        assert!(text.contains(needle), "{needle} in {text}");
    }
    // Invalid twice (the default re-ask): a tool result, where `respond` gave -32602.
    let call = c.call_tool("accepted", json!({})).await;
    for _ in 0..2 {
        let req = c.expect_elicitation().await;
        c.reply(&req, accept(json!({"handle": "UPPER"}))).await;
    }
    let (is_error, text) = tool_result(&c.expect_response(call).await);
    assert!(is_error);
    assert!(text.contains("must match the pattern"), "{text}");
}
