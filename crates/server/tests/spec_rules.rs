//! Specification rules (client/elicitation.mdx, 2025-11-25) that other test files did not
//! yet try to break: each test names its rule.

mod common;

use common::{RawClient, alice, hub, wait_pending};
use mcp_elicit_server::{ElicitationConfig, Elicitations, ErrorKind, IdentityPolicy, Principal};
use serde_json::{Value, json};

fn url_caps() -> Option<Value> {
    Some(json!({"form": {}, "url": {}}))
}

/// "State MUST NOT be associated with session IDs alone" / "Servers MUST bind elicitation
/// requests to the client and user identity": another user, even one with the same
/// subject at another issuer, can neither read, cancel nor list a pending elicitation; the
/// owner still can complete it and the client is notified.
#[tokio::test]
async fn other_users_cannot_read_cancel_or_list_a_pending_elicitation() {
    let hub = hub();
    let mut a = RawClient::connect(&hub, url_caps()).await;
    let call = a.call_tool("url", json!({})).await;
    let req = a.expect_elicitation().await;
    let id = req["params"]["elicitationId"]
        .as_str()
        .expect("elicitationId")
        .to_owned();
    a.reply(&req, json!({"action": "accept"})).await;
    a.expect_response(call).await;
    wait_pending(&hub, 1).await;

    for stranger in [
        Principal::local_user("mallory"),
        Principal::authenticated("https://idp.example", "alice"),
    ] {
        assert_eq!(
            hub.get(&stranger, &id).await.expect("get"),
            None,
            "{stranger:?}"
        );
        assert!(
            hub.pending(&stranger).await.expect("pending").is_empty(),
            "{stranger:?}"
        );
        let e = hub
            .cancel(&stranger, &id)
            .await
            .expect_err("cancel by a stranger");
        assert_eq!(e.kind(), ErrorKind::UnknownElicitation, "{stranger:?}");
    }
    // The failed attempts changed nothing: still pending (accepted) for its owner.
    let mine = hub
        .get(&alice(), &id)
        .await
        .expect("get")
        .expect("still there");
    assert_eq!(mine.state.as_str(), "accepted");
    a.ping_is_next().await;
    hub.complete(&alice(), &id).await.expect("complete");
    let note = a.recv().await;
    assert_eq!(note["method"], "notifications/elicitation/complete");
    assert_eq!(note["params"], json!({"elicitationId": id}));
}

/// "Servers SHOULD use HTTPS URLs for non-development environments": with loopback http
/// switched off (production), even `http://127.0.0.1` is refused before anything is sent,
/// for `elicitation/create` and for the -32042 error alike; with the development default
/// the same URL goes out.
#[tokio::test]
async fn production_policy_refuses_plain_http_even_on_loopback() {
    let mut config = ElicitationConfig::new(IdentityPolicy::LocalUser(alice()));
    config.allow_loopback_http = false;
    let strict = Elicitations::new(config);
    let mut a = RawClient::connect(&strict, url_caps()).await;
    let base = "http://127.0.0.1:8080/connect";
    let call = a.call_tool("url", json!({"base": base})).await;
    // The next message is the tool's error: no elicitation/create was sent.
    let resp = a.expect_response(call).await;
    assert_eq!(resp["error"]["data"]["kind"], "invalid_url", "{resp}");
    wait_pending(&strict, 0).await;
    let call = a
        .call_tool("url", json!({"base": "https://127.0.0.1:8443/connect"}))
        .await;
    let req = a.expect_elicitation().await;
    a.reply(&req, json!({"action": "decline"})).await;
    a.expect_response(call).await;

    let dev = hub();
    let mut b = RawClient::connect(&dev, url_caps()).await;
    let call = b.call_tool("url", json!({"base": base})).await;
    let req = b.expect_elicitation().await;
    assert!(
        req["params"]["url"]
            .as_str()
            .is_some_and(|u| u.starts_with(base)),
        "{req}"
    );
    b.reply(&req, json!({"action": "decline"})).await;
    b.expect_response(call).await;
}

/// "Any elicitations returned in the error MUST be URL mode elicitations and have an
/// `elicitationId` property", and "The server MUST NOT return this error except when URL
/// mode elicitation is required": the -32042 error carries only URL-mode entries with ids,
/// each recorded as pending for this user, and a client without URL mode never gets it.
#[tokio::test]
async fn url_required_lists_only_pending_url_elicitations_and_never_reaches_form_only_clients() {
    let hub = hub();
    let mut a = RawClient::connect(&hub, url_caps()).await;
    let call = a.call_tool("required", json!({})).await;
    let resp = a.expect_response(call).await;
    assert_eq!(resp["error"]["code"], -32042, "{resp}");
    let list = resp["error"]["data"]["elicitations"]
        .as_array()
        .expect("elicitations");
    assert!(!list.is_empty());
    let pending = hub.pending(&alice()).await.expect("pending");
    for e in list {
        assert_eq!(e["mode"], "url", "{e}");
        let id = e["elicitationId"].as_str().expect("elicitationId");
        assert!(pending.iter().any(|p| p.id == id), "{id} is pending");
        assert!(e.get("requestedSchema").is_none(), "{e}");
    }

    let form_only = hub.clone();
    let mut b = RawClient::connect(&form_only, Some(json!({"form": {}}))).await;
    let call = b.call_tool("required", json!({})).await;
    let resp = b.expect_response(call).await;
    assert_ne!(resp["error"]["code"], -32042, "{resp}");
    assert_eq!(
        resp["error"]["data"]["kind"], "mode_not_supported",
        "{resp}"
    );
}

/// "Servers MUST NOT include sensitive information about the end-user, including
/// credentials, personal identifiable information, etc., in the URL": an e-mail address
/// or a token in the URL is refused before anything is sent, and nothing stays pending.
#[tokio::test]
async fn urls_carrying_personal_data_or_credentials_are_never_sent() {
    let hub = hub();
    let mut a = RawClient::connect(&hub, url_caps()).await;
    for base in [
        "https://mcp.example.com/connect?email=alice%40example.com&x=1",
        "https://mcp.example.com/u/alice@example.com/connect",
        "https://mcp.example.com/connect?access_token=abc&x=1",
        "https://mcp.example.com/pay?card=4111111111111111",
        "https://mcp.example.com/connect?phone=%2B14155552671",
        "https://mcp.example.com/connect?last_name=alice",
    ] {
        let call = a.call_tool("url", json!({"base": base})).await;
        let resp = a.expect_response(call).await;
        assert_eq!(
            resp["error"]["data"]["kind"], "invalid_url",
            "{base}: {resp}"
        );
        for value in ["alice", "4111", "4155552671"] {
            assert!(
                !resp.to_string().contains(value),
                "the value is not echoed: {resp}"
            );
        }
    }
    wait_pending(&hub, 0).await;
    a.ping_is_next().await;
}
