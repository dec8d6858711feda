//! The per-user cap on pending elicitations, as a client sees it: a quota error with
//! its own code (not an internal error), naming the limit, and lifted once some of the
//! user's elicitations finish.

mod common;

use common::{RawClient, alice, wait_pending};
use mcp_elicit_server::{ElicitationConfig, Elicitations, Error, ErrorKind, IdentityPolicy};
use serde_json::{Value, json};

/// The JSON-RPC code of an exhausted quota (server-defined range, not -32603).
const QUOTA_EXCEEDED: i64 = -32000;
const INTERNAL_ERROR: i64 = -32603;

fn url_caps() -> Option<Value> {
    Some(json!({"form": {}, "url": {}}))
}

fn capped_hub(max: usize) -> Elicitations {
    Elicitations::new(
        ElicitationConfig::new(IdentityPolicy::LocalUser(alice())).with_max_pending_per_user(max),
    )
}

#[tokio::test]
async fn an_exhausted_quota_is_a_retryable_server_error_naming_the_limit() {
    let hub = capped_hub(3);
    let mut a = RawClient::connect(&hub, url_caps()).await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        let call = a.call_tool("required", json!({})).await;
        let resp = a.expect_response(call).await;
        assert_eq!(resp["error"]["code"], -32042, "{resp}");
        ids.push(RawClient::required_id(&resp));
    }
    wait_pending(&hub, 3).await;

    let call = a.call_tool("required", json!({})).await;
    let resp = a.expect_response(call).await;
    let error = &resp["error"];
    assert_eq!(error["code"], QUOTA_EXCEEDED, "{resp}");
    assert_ne!(error["code"], INTERNAL_ERROR, "{resp}");
    assert_eq!(error["data"]["kind"], "too_many_pending", "{resp}");
    assert_eq!(error["data"]["retryable"], true, "{resp}");
    let message = error["message"].as_str().unwrap_or_default();
    assert!(message.contains("at most 3"), "names the limit: {message}");
    assert!(
        message.contains("pending"),
        "says what is exhausted: {message}"
    );
    // The refused call left nothing behind.
    wait_pending(&hub, 3).await;

    // Once one finishes, the same user may ask again.
    hub.complete(&alice(), &ids[0]).await.expect("complete");
    let _note = a.recv().await;
    wait_pending(&hub, 2).await;
    let call = a.call_tool("required", json!({})).await;
    assert_eq!(a.expect_response(call).await["error"]["code"], -32042);
}

#[test]
fn only_the_quota_kind_maps_to_the_quota_code() {
    let data = Error::new(ErrorKind::TooManyPending, "full").to_error_data();
    assert_eq!(i64::from(data.code.0), QUOTA_EXCEEDED);
    for kind in [ErrorKind::Store, ErrorKind::Random, ErrorKind::Timeout] {
        let data = Error::new(kind, "x").to_error_data();
        assert_ne!(i64::from(data.code.0), QUOTA_EXCEEDED, "{kind}");
        let retryable = data.data.as_ref().and_then(|d| d.get("retryable"));
        assert!(retryable.is_none(), "{kind}");
    }
}
