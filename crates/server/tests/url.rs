//! URL mode, completion notifications and -32042 over in-memory pipes.

mod common;

use std::time::Duration;

use common::{ManualClock, RawClient, alice, hub, hub_with_clock, wait_pending};
use mcp_elicit_server::{ErrorKind, Principal};
use serde_json::{Value, json};

fn url_caps() -> Option<Value> {
    Some(json!({"form": {}, "url": {}}))
}

fn is_id(id: &str) -> bool {
    id.len() == 32
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[tokio::test]
async fn completion_reaches_only_the_originating_client_and_only_once() {
    let hub = hub();
    let mut a = RawClient::connect(&hub, url_caps()).await;
    let mut b = RawClient::connect(&hub, url_caps()).await;

    let call = a.call_tool("url", json!({})).await;
    let req = a.expect_elicitation().await;
    let params = &req["params"];
    assert_eq!(params["mode"], "url");
    let id = params["elicitationId"]
        .as_str()
        .expect("elicitationId")
        .to_owned();
    assert!(is_id(&id), "{id}");
    assert_eq!(
        params["url"],
        format!("https://mcp.example.com/connect?elicitationId={id}")
    );
    a.reply(&req, json!({"action": "accept"})).await;
    assert_eq!(
        RawClient::tool_text(&a.expect_response(call).await),
        format!("accepted {id}")
    );
    // Accept is consent, not completion: still pending.
    wait_pending(&hub, 1).await;
    let pending = hub.pending(&alice()).await.expect("pending");
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].state.as_str(), "accepted");

    let done = hub.complete(&alice(), &id).await.expect("complete");
    assert!(done.notified);
    let note = a.recv().await;
    assert_eq!(
        note,
        json!({"jsonrpc": "2.0", "method": "notifications/elicitation/complete", "params": {"elicitationId": id}})
    );
    b.ping_is_next().await;

    let again = hub
        .complete(&alice(), &id)
        .await
        .expect_err("second completion");
    assert_eq!(again.kind(), ErrorKind::UnknownElicitation);
    a.ping_is_next().await;
    wait_pending(&hub, 0).await;
}

#[tokio::test]
async fn unknown_ids_and_other_users_cannot_complete() {
    let hub = hub();
    let mut a = RawClient::connect(&hub, url_caps()).await;
    let e = hub
        .complete(&alice(), "0123456789abcdef0123456789abcdef")
        .await
        .expect_err("unknown");
    assert_eq!(e.kind(), ErrorKind::UnknownElicitation);

    let call = a.call_tool("url", json!({})).await;
    let req = a.expect_elicitation().await;
    let id = req["params"]["elicitationId"]
        .as_str()
        .expect("id")
        .to_owned();
    a.reply(&req, json!({"action": "accept"})).await;
    a.expect_response(call).await;
    let mallory = Principal::local_user("mallory");
    let e = hub.complete(&mallory, &id).await.expect_err("another user");
    assert_eq!(e.kind(), ErrorKind::UnknownElicitation);
    let e = hub
        .complete(&Principal::authenticated("https://idp", "alice"), &id)
        .await
        .expect_err("same name, other issuer");
    assert_eq!(e.kind(), ErrorKind::UnknownElicitation);
    a.ping_is_next().await;
    // The rightful user still can.
    hub.complete(&alice(), &id).await.expect("complete");
    let note = a.recv().await;
    assert_eq!(note["params"]["elicitationId"], id);
}

#[tokio::test]
async fn decline_and_cancel_leave_nothing_to_complete() {
    let hub = hub();
    let mut a = RawClient::connect(&hub, url_caps()).await;
    for action in ["decline", "cancel"] {
        let call = a.call_tool("url", json!({})).await;
        let req = a.expect_elicitation().await;
        let id = req["params"]["elicitationId"]
            .as_str()
            .expect("id")
            .to_owned();
        a.reply(&req, json!({"action": action})).await;
        let text = RawClient::tool_text(&a.expect_response(call).await);
        assert!(
            text.starts_with(&format!("{action}d")) || text.starts_with("cancelled"),
            "{text}"
        );
        wait_pending(&hub, 0).await;
        assert!(hub.complete(&alice(), &id).await.is_err());
    }
    a.ping_is_next().await;
}

#[tokio::test]
async fn url_accept_with_content_is_malformed() {
    let hub = hub();
    let mut a = RawClient::connect(&hub, url_caps()).await;
    let call = a.call_tool("url", json!({})).await;
    let req = a.expect_elicitation().await;
    a.reply(
        &req,
        json!({"action": "accept", "content": {"apiKey": "sk-123"}}),
    )
    .await;
    let resp = a.expect_response(call).await;
    assert_eq!(resp["error"]["data"]["kind"], "malformed_reply", "{resp}");
    wait_pending(&hub, 0).await;
}

#[tokio::test]
async fn url_mode_needs_the_declared_capability() {
    let hub = hub();
    let mut a = RawClient::connect(&hub, Some(json!({}))).await;
    a.call_fails_with("url", json!({}), "mode_not_supported")
        .await;
    a.call_fails_with("required", json!({}), "mode_not_supported")
        .await;
    wait_pending(&hub, 0).await;
}

#[tokio::test]
async fn refused_urls_are_never_sent() {
    let hub = hub();
    let mut a = RawClient::connect(&hub, url_caps()).await;
    for base in [
        "http://mcp.example.com/connect",
        "https://user:pw@mcp.example.com/connect",
        "javascript:alert(1)",
    ] {
        let call = a.call_tool("url", json!({"base": base})).await;
        let resp = a.expect_response(call).await;
        assert_eq!(
            resp["error"]["data"]["kind"], "invalid_url",
            "{base}: {resp}"
        );
    }
    // Plain http is fine on loopback (development).
    let call = a
        .call_tool(
            "url",
            json!({"base": "http://127.0.0.1:8391/demo/complete"}),
        )
        .await;
    let req = a.expect_elicitation().await;
    a.reply(&req, json!({"action": "decline"})).await;
    a.expect_response(call).await;
    wait_pending(&hub, 0).await;
}

#[tokio::test]
async fn url_elicitation_required_has_the_spec_shape_and_can_be_completed() {
    let hub = hub();
    let mut a = RawClient::connect(&hub, url_caps()).await;
    let call = a.call_tool("required", json!({})).await;
    let resp = a.expect_response(call).await;
    let error = &resp["error"];
    assert_eq!(error["code"], -32042, "{resp}");
    assert_eq!(error["message"], "This request requires more information.");
    let list = error["data"]["elicitations"]
        .as_array()
        .expect("elicitations");
    assert_eq!(list.len(), 1);
    let id = list[0]["elicitationId"].as_str().expect("id").to_owned();
    assert!(is_id(&id));
    // Exactly the members of the specification's example, nothing else.
    assert_eq!(
        error["data"],
        json!({"elicitations": [{
            "mode": "url",
            "elicitationId": id,
            "url": format!("https://mcp.example.com/connect?elicitationId={id}"),
            "message": "Authorization is required to access your Example Co files."
        }]})
    );
    wait_pending(&hub, 1).await;
    hub.complete(&alice(), &id).await.expect("complete");
    let note = a.recv().await;
    assert_eq!(note["method"], "notifications/elicitation/complete");
    assert_eq!(note["params"], json!({"elicitationId": id}));
    wait_pending(&hub, 0).await;
}

#[tokio::test]
async fn clients_without_url_mode_get_instructions_without_the_url_not_a_form() {
    let hub = hub();
    let mut a = RawClient::connect(&hub, Some(json!({"form": {}}))).await;
    let call = a.call_tool("fallback", json!({})).await;
    // No elicitation/create (form or url) is sent: the next message is the result.
    let resp = a.expect_response(call).await;
    let text = RawClient::tool_text(&resp);
    // The tool result reaches the model: the capability URL (and its id) must not be
    // in it, nor anywhere else in the response (issue 14).
    let raw = resp.to_string();
    for leak in ["https://", "mcp.example.com", "elicitationId"] {
        assert!(!raw.contains(leak), "{leak} in {raw}");
    }
    assert!(text.contains("Set your API key"), "{text}");
    assert!(text.contains("supports URL-mode elicitation"), "{text}");
    // Nothing is stored: nobody could ever reach a page whose link was not given.
    assert_eq!(hub.pending_count().await.expect("count"), 0);
    a.ping_is_next().await;
}

#[tokio::test]
async fn pending_url_elicitations_expire_and_are_swept() {
    let clock = ManualClock::new();
    let hub = hub_with_clock(clock.clone());
    let mut a = RawClient::connect(&hub, url_caps()).await;
    let call = a.call_tool("required", json!({})).await;
    let resp = a.expect_response(call).await;
    let id = RawClient::required_id(&resp);
    assert_eq!(hub.sweep().await.expect("sweep"), 0);
    clock.advance(hub.config().url_ttl + Duration::from_secs(1));
    assert_eq!(hub.sweep().await.expect("sweep"), 1);
    wait_pending(&hub, 0).await;
    assert_eq!(
        hub.complete(&alice(), &id)
            .await
            .expect_err("expired")
            .kind(),
        ErrorKind::UnknownElicitation
    );
    a.ping_is_next().await;
}

/// Expiry holds the moment it passes, not at the next sweep: the page cannot read it,
/// nobody can complete or cancel it, and no notification goes out.
#[tokio::test]
async fn an_expired_url_elicitation_is_gone_before_the_sweep_runs() {
    let clock = ManualClock::new();
    let hub = hub_with_clock(clock.clone());
    let mut a = RawClient::connect(&hub, url_caps()).await;
    let call = a.call_tool("required", json!({})).await;
    let resp = a.expect_response(call).await;
    let id = RawClient::required_id(&resp);
    clock.advance(hub.config().url_ttl - Duration::from_secs(1));
    assert!(hub.get(&alice(), &id).await.expect("get").is_some());
    clock.advance(Duration::from_secs(1));
    assert_eq!(hub.get(&alice(), &id).await.expect("get"), None);
    assert!(hub.pending(&alice()).await.expect("pending").is_empty());
    for result in [
        hub.complete(&alice(), &id).await.map(drop),
        hub.cancel(&alice(), &id).await,
    ] {
        assert_eq!(
            result.expect_err("expired").kind(),
            ErrorKind::UnknownElicitation
        );
    }
    assert_eq!(
        hub.sweep().await.expect("sweep"),
        0,
        "removed on access already"
    );
    a.ping_is_next().await;
}

/// A connection that closes takes its unanswered forms with it (nobody can answer them)
/// but not its URL elicitations: those belong to the user, who may still finish the
/// page after the client went away (an editor restarted, say). Completing one then
/// notifies nobody, and the sweep leaves it alone until it completes or expires.
#[tokio::test]
async fn a_closed_connection_drops_its_forms_and_leaves_its_url_elicitations_to_the_user() {
    let hub = hub();
    let mut a = RawClient::connect(&hub, url_caps()).await;
    let call = a.call_tool("required", json!({})).await;
    let id = RawClient::required_id(&a.expect_response(call).await);
    let _form = a.call_tool("form", json!({})).await;
    a.expect_elicitation().await;
    wait_pending(&hub, 2).await;
    let server = std::mem::replace(&mut a.server, tokio::spawn(async {}));
    drop(a);
    tokio::time::timeout(common::WAIT, server)
        .await
        .expect("server stops")
        .expect("no panic");
    // The unanswered form goes; the URL elicitation stays, through a sweep too.
    wait_pending(&hub, 1).await;
    assert_eq!(hub.sweep().await.expect("sweep"), 0);
    let left = hub.pending(&alice()).await.expect("pending");
    assert_eq!(
        left.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
        [id.as_str()]
    );
    let done = hub
        .complete(&alice(), &id)
        .await
        .expect("the user finishes the page");
    assert!(!done.notified, "the connection is gone: nobody to notify");
    wait_pending(&hub, 0).await;
}

#[tokio::test]
async fn pending_elicitations_per_user_are_bounded() {
    let hub = mcp_elicit_server::Elicitations::new(
        mcp_elicit_server::ElicitationConfig::new(mcp_elicit_server::IdentityPolicy::LocalUser(
            alice(),
        ))
        .with_max_pending_per_user(2),
    );
    let mut a = RawClient::connect(&hub, url_caps()).await;
    let mut ids = Vec::new();
    for _ in 0..2 {
        let call = a.call_tool("required", json!({})).await;
        let resp = a.expect_response(call).await;
        assert_eq!(resp["error"]["code"], -32042, "{resp}");
        ids.push(RawClient::required_id(&resp));
    }
    let call = a.call_tool("required", json!({})).await;
    let resp = a.expect_response(call).await;
    assert_eq!(resp["error"]["data"]["kind"], "too_many_pending", "{resp}");
    wait_pending(&hub, 2).await;
    hub.complete(&alice(), &ids[0]).await.expect("complete");
    let _note = a.recv().await;
    let call = a.call_tool("required", json!({})).await;
    assert_eq!(a.expect_response(call).await["error"]["code"], -32042);
}

#[tokio::test]
async fn an_out_of_band_cancel_ends_an_accepted_elicitation_without_notifying() {
    let hub = hub();
    let mut a = RawClient::connect(&hub, url_caps()).await;
    let call = a.call_tool("url", json!({})).await;
    let req = a.expect_elicitation().await;
    let id = req["params"]["elicitationId"]
        .as_str()
        .expect("id")
        .to_owned();
    a.reply(&req, json!({"action": "accept"})).await;
    a.expect_response(call).await;
    assert!(
        hub.cancel(&Principal::local_user("mallory"), &id)
            .await
            .is_err()
    );
    hub.cancel(&alice(), &id).await.expect("cancel");
    wait_pending(&hub, 0).await;
    assert_eq!(
        hub.complete(&alice(), &id)
            .await
            .expect_err("cancelled")
            .kind(),
        ErrorKind::UnknownElicitation
    );
    a.ping_is_next().await;
}
