//! Form mode end to end over an in-memory pipe, with a raw client that sees exact bytes.

mod common;

use std::time::Duration;

use common::{RawClient, all_fields_answer, all_fields_schema, hub, wait_pending};
use serde_json::{Value, json};

fn form_caps() -> Option<Value> {
    Some(json!({"form": {}}))
}

#[tokio::test]
async fn every_field_kind_arrives_intact_and_a_valid_answer_is_accepted() {
    let hub = hub();
    let mut c = RawClient::connect(&hub, form_caps()).await;
    let call = c.call_tool("form", json!({})).await;
    let req = c.expect_elicitation().await;
    let params = &req["params"];
    assert_eq!(params["mode"], "form");
    assert_eq!(params["message"], "Tell us about yourself");
    // The exact schema reaches the client: pattern, format, enumNames, anyOf, defaults...
    assert_eq!(params["requestedSchema"], all_fields_schema());
    assert_eq!(
        params["requestedSchema"]["properties"]["handle"]["pattern"],
        "^[a-z0-9-]+$"
    );
    wait_pending(&hub, 1).await;
    c.reply(
        &req,
        json!({"action": "accept", "content": all_fields_answer()}),
    )
    .await;
    let resp = c.expect_response(call).await;
    let text = RawClient::tool_text(&resp);
    assert!(text.starts_with("accepted "), "{text}");
    let content: Value = serde_json::from_str(&text["accepted ".len()..]).expect("json");
    assert_eq!(content, all_fields_answer());
    wait_pending(&hub, 0).await;
}

#[tokio::test]
async fn empty_elicitation_capability_counts_as_form() {
    let hub = hub();
    let mut c = RawClient::connect(&hub, Some(json!({}))).await;
    assert_eq!(
        c.answer_form(json!({"action": "decline"})).await,
        "declined"
    );
}

#[tokio::test]
async fn secret_schema_is_refused_before_anything_is_sent() {
    let hub = hub();
    let mut c = RawClient::connect(&hub, form_caps()).await;
    let schema = json!({"type": "object", "properties": {"password": {"type": "string", "title": "Password"}}});
    let call = c.call_tool("form", json!({"schema": schema})).await;
    // The very next message is the tool's error: no elicitation/create was sent.
    let resp = c.expect_response(call).await;
    assert_eq!(resp["error"]["data"]["kind"], "secret_field", "{resp}");
    assert!(
        resp["error"]["data"]["findings"]
            .as_array()
            .is_some_and(|f| !f.is_empty()),
        "{resp}"
    );
    wait_pending(&hub, 0).await;
}

#[tokio::test]
async fn undeclared_mode_is_refused_before_anything_is_sent() {
    let hub = hub();
    let mut c = RawClient::connect(&hub, None).await;
    let resp = c
        .call_fails_with("form", json!({}), "mode_not_supported")
        .await;
    assert_eq!(resp["error"]["code"], -32602, "{resp}");

    // URL-only client: no form either.
    let mut c = RawClient::connect(&hub, Some(json!({"url": {}}))).await;
    c.call_fails_with("form", json!({}), "mode_not_supported")
        .await;
    wait_pending(&hub, 0).await;
}

#[tokio::test]
async fn invalid_content_is_a_typed_error_listing_every_violation() {
    let hub = hub();
    let mut c = RawClient::connect(&hub, form_caps()).await;
    let call = c.call_tool("form", json!({})).await;
    // Breaks the pattern, the integer type, and misses the required email: asked once
    // more by default (max_attempts 2), then refused.
    for _ in 0..2 {
        let req = c.expect_elicitation().await;
        c.reply(
            &req,
            json!({"action": "accept", "content": {"handle": "Not Valid!", "age": 3.5}}),
        )
        .await;
    }
    let resp = c.expect_response(call).await;
    let error = &resp["error"];
    assert_eq!(error["code"], -32602, "{resp}");
    assert_eq!(error["data"]["kind"], "invalid_content", "{resp}");
    let violations = error["data"]["violations"]
        .as_array()
        .expect("violations list");
    assert!(violations.len() >= 3, "{resp}");
    let text = violations
        .iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join(" ");
    for property in ["handle", "age", "email"] {
        assert!(
            text.contains(property),
            "no violation for {property}: {text}"
        );
    }
    wait_pending(&hub, 0).await;
}

#[tokio::test]
async fn an_invalid_answer_is_re_asked_once_by_default_naming_the_rule_it_broke() {
    let hub = hub();
    let mut c = RawClient::connect(&hub, form_caps()).await;
    // No `attempts`: the default. A client that strips `pattern` (the TypeScript SDK
    // does) lets the user send "UPPER"; the re-ask tells them the rule.
    let call = c.call_tool("form", json!({})).await;
    let first = c.expect_elicitation().await;
    c.reply(&first, json!({"action": "accept", "content": {"handle": "UPPER", "email": "a@example.com", "age": 3}})).await;
    let second = c.expect_elicitation().await;
    let message = second["params"]["message"].as_str().expect("message");
    assert!(message.starts_with("Tell us about yourself"), "{message}");
    assert!(message.contains("not accepted"), "{message}");
    assert!(
        message.contains("must match the pattern \"^[a-z0-9-]+$\""),
        "names the rule: {message}"
    );
    assert_ne!(first["id"], second["id"]);
    c.reply(&second, json!({"action": "accept", "content": {"handle": "lower", "email": "a@example.com", "age": 3}})).await;
    let text = RawClient::tool_text(&c.expect_response(call).await);
    assert!(text.contains("\"handle\":\"lower\""), "{text}");
    wait_pending(&hub, 0).await;
}

#[tokio::test]
async fn re_asking_can_be_turned_off() {
    let hub = hub();
    let mut c = RawClient::connect(&hub, form_caps()).await;
    let call = c.call_tool("form", json!({"attempts": 1})).await;
    let first = c.expect_elicitation().await;
    c.reply(&first, json!({"action": "accept", "content": {"handle": "UPPER", "email": "a@example.com", "age": 3}})).await;
    let resp = c.expect_response(call).await;
    assert_eq!(resp["error"]["data"]["kind"], "invalid_content", "{resp}");
    wait_pending(&hub, 0).await;
}

#[tokio::test]
async fn malformed_answers_are_clear_errors() {
    let hub = hub();
    let mut c = RawClient::connect(&hub, form_caps()).await;
    for (answer, needle) in [
        (json!({"action": "accept"}), "content"),
        (json!({"action": "bogus"}), "unknown action"),
        (json!({"action": "accept", "content": "text"}), "content"),
        (json!({}), "action"),
    ] {
        let call = c.call_tool("form", json!({})).await;
        let req = c.expect_elicitation().await;
        c.reply(&req, answer.clone()).await;
        let resp = c.expect_response(call).await;
        assert_eq!(
            resp["error"]["data"]["kind"], "malformed_reply",
            "{answer} -> {resp}"
        );
        let message = resp["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(needle), "{answer} -> {message}");
    }
    wait_pending(&hub, 0).await;
    c.ping_is_next().await;
}

#[tokio::test]
async fn a_client_error_answer_is_reported() {
    let hub = hub();
    let mut c = RawClient::connect(&hub, form_caps()).await;
    let call = c.call_tool("form", json!({})).await;
    let req = c.expect_elicitation().await;
    c.send(json!({"jsonrpc": "2.0", "id": req["id"].clone(), "error": {"code": -32602, "message": "mode not declared"}}))
        .await;
    let resp = c.expect_response(call).await;
    assert_eq!(resp["error"]["data"]["kind"], "client_error", "{resp}");
    assert_eq!(
        resp["error"]["data"]["clientError"]["code"], -32602,
        "{resp}"
    );
    wait_pending(&hub, 0).await;
}

#[tokio::test]
async fn decline_and_cancel_are_outcomes() {
    let hub = hub();
    let mut c = RawClient::connect(&hub, form_caps()).await;
    for (action, expected) in [("decline", "declined"), ("cancel", "cancelled")] {
        assert_eq!(c.answer_form(json!({"action": action})).await, expected);
    }
    wait_pending(&hub, 0).await;
}

#[tokio::test]
async fn a_timeout_cancels_the_request_and_resolves_the_call() {
    let hub = hub();
    let (mut c, mut log) = RawClient::connect_logged(&hub, form_caps()).await;
    let call = c.call_tool("form", json!({"timeout_ms": 200})).await;
    let req = c.expect_elicitation().await;
    let cancel = c.recv().await;
    assert_eq!(cancel["method"], "notifications/cancelled", "{cancel}");
    assert_eq!(cancel["params"]["requestId"], req["id"], "{cancel}");
    let resp = c.expect_response(call).await;
    assert_eq!(resp["error"]["data"]["kind"], "timeout", "{resp}");
    assert_eq!(log.recv().await.as_deref(), Some("form: timeout"));
    wait_pending(&hub, 0).await;
    // A late answer to the abandoned request is ignored.
    c.reply(&req, json!({"action": "decline"})).await;
    c.ping_is_next().await;
}

#[tokio::test]
async fn cancelling_the_tool_call_abandons_the_elicitation() {
    let hub = hub();
    let (mut c, mut log) = RawClient::connect_logged(&hub, form_caps()).await;
    let call = c.call_tool("form", json!({})).await;
    let req = c.expect_elicitation().await;
    c.send(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": call, "reason": "user"}}))
        .await;
    let outcome = tokio::time::timeout(common::WAIT, log.recv())
        .await
        .expect("the call resolves");
    assert_eq!(outcome.as_deref(), Some("form: cancelled"));
    let cancel = c.recv().await;
    assert_eq!(cancel["method"], "notifications/cancelled", "{cancel}");
    assert_eq!(cancel["params"]["requestId"], req["id"], "{cancel}");
    wait_pending(&hub, 0).await;
    c.ping_is_next().await;
}

#[tokio::test]
async fn a_disconnect_mid_elicitation_resolves_the_call_and_leaks_nothing() {
    let hub = hub();
    let (mut c, mut log) = RawClient::connect_logged(&hub, form_caps()).await;
    let _call = c.call_tool("form", json!({})).await;
    let _req = c.expect_elicitation().await;
    wait_pending(&hub, 1).await;
    let server = std::mem::replace(&mut c.server, tokio::spawn(async {}));
    drop(c);
    // The tool call itself resolves (it does not hang waiting for an answer)...
    let outcome = tokio::time::timeout(common::WAIT, log.recv())
        .await
        .expect("the call resolves")
        .expect("logged");
    assert!(
        outcome == "form: disconnected" || outcome == "form: cancelled",
        "{outcome}"
    );
    tokio::time::timeout(common::WAIT, server)
        .await
        .expect("the server stops")
        .expect("no panic");
    // ...and no pending state is left.
    wait_pending(&hub, 0).await;
}

#[tokio::test]
async fn answers_to_requests_never_sent_are_ignored() {
    let hub = hub();
    let mut c = RawClient::connect(&hub, form_caps()).await;
    c.send(
        json!({"jsonrpc": "2.0", "id": 4242, "result": {"action": "accept", "content": {"x": 1}}}),
    )
    .await;
    c.send(json!({"jsonrpc": "2.0", "id": "nope", "error": {"code": 1, "message": "x"}}))
        .await;
    c.ping_is_next().await;
    // And a real elicitation still works afterwards.
    assert_eq!(
        c.answer_form(json!({"action": "cancel"})).await,
        "cancelled"
    );
}

#[tokio::test]
async fn a_typed_form_round_trips_into_the_rust_type() {
    let hub = hub();
    let mut c = RawClient::connect(&hub, form_caps()).await;
    let call = c.call_tool("typed", json!({})).await;
    let req = c.expect_elicitation().await;
    let props = &req["params"]["requestedSchema"]["properties"];
    assert_eq!(props["name"]["type"], "string", "{req}");
    assert_eq!(props["updates"]["type"], "boolean", "{req}");
    c.reply(
        &req,
        json!({"action": "accept", "content": {"name": "Ada", "updates": true}}),
    )
    .await;
    assert_eq!(
        RawClient::tool_text(&c.expect_response(call).await),
        "typed Ada true"
    );
}

#[tokio::test]
async fn many_concurrent_forms_on_one_connection_each_get_their_answer() {
    let hub = hub();
    let mut c = RawClient::connect(&hub, form_caps()).await;
    let mut calls = Vec::new();
    for _ in 0..5 {
        calls.push(c.call_tool("form", json!({})).await);
    }
    let mut reqs = Vec::new();
    for _ in 0..5 {
        reqs.push(c.expect_elicitation().await);
    }
    wait_pending(&hub, 5).await;
    for req in reqs.iter().rev() {
        c.reply(req, json!({"action": "decline"})).await;
    }
    let mut done = 0;
    while done < 5 {
        let m = c.recv().await;
        assert!(calls.iter().any(|id| m["id"] == json!(id)), "{m}");
        assert_eq!(RawClient::tool_text(&m), "declined");
        done += 1;
    }
    wait_pending(&hub, 0).await;
    tokio::time::sleep(Duration::from_millis(10)).await;
}
