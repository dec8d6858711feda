//! `notifications/elicitation/complete` params.

use mcp_elicit_core::ErrorKind;
use mcp_elicit_core::message::{CompleteNotification, METHOD_COMPLETE, METHOD_CREATE};
use serde_json::json;

#[test]
fn spec_example_round_trips() {
    let message = json!({
        "jsonrpc": "2.0",
        "method": "notifications/elicitation/complete",
        "params": {"elicitationId": "550e8400-e29b-41d4-a716-446655440000"}
    });
    assert_eq!(message["method"], METHOD_COMPLETE);
    let n = CompleteNotification::parse(&message["params"]).unwrap();
    assert_eq!(n.elicitation_id, "550e8400-e29b-41d4-a716-446655440000");
    assert_eq!(n.to_value(), message["params"]);
    assert_eq!(serde_json::to_value(&n).unwrap(), message["params"]);
    assert_eq!(
        serde_json::from_value::<CompleteNotification>(message["params"].clone()).unwrap(),
        n
    );
    assert_eq!(
        CompleteNotification::new("x").to_value(),
        json!({"elicitationId": "x"})
    );
    assert_eq!(METHOD_CREATE, "elicitation/create");
}

#[test]
fn meta_and_unknown_members_are_ignored() {
    let n = CompleteNotification::parse(&json!({"elicitationId": "a", "_meta": {}, "extra": 1}))
        .unwrap();
    assert_eq!(n.to_value(), json!({"elicitationId": "a"}));
}

#[test]
fn rejections() {
    for (params, kind, pointer) in [
        (json!(null), ErrorKind::InvalidMessage, ""),
        (json!("id"), ErrorKind::InvalidMessage, ""),
        (json!({}), ErrorKind::InvalidMessage, "/elicitationId"),
        (
            json!({"elicitationId": 5}),
            ErrorKind::InvalidMessage,
            "/elicitationId",
        ),
        (
            json!({"elicitationId": ""}),
            ErrorKind::InvalidMessage,
            "/elicitationId",
        ),
        (
            json!({"elicitationId": "a\rb"}),
            ErrorKind::InvalidMessage,
            "/elicitationId",
        ),
        (
            json!({"elicitationId": "x".repeat(257)}),
            ErrorKind::TooLarge,
            "/elicitationId",
        ),
    ] {
        let err = CompleteNotification::parse(&params).unwrap_err();
        assert_eq!(
            (err.first().kind(), err.first().pointer()),
            (kind, pointer),
            "{params}"
        );
    }
}
