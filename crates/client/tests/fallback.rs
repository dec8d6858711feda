//! Protocol choice: a server whose `server/discover` lists only revisions with `initialize`
//! is reached on 2025-11-25 by default (a second connection with `initialize`); forcing
//! 2026-07-28 on it fails clearly.

mod common;

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use common::{TestUi, guard};
use mcp_elicit_client::rmcp::model::{CallToolRequestParams, ProtocolVersion};
use mcp_elicit_client::{
    Config, ElicitationClient, ProtocolChoice, RecordingOpener, ServerTarget, negotiated_protocol,
};
use serde_json::{Value, json};

type Seen = Arc<Mutex<Vec<String>>>;

async fn legacy_only(seen: Seen, body: String) -> Response {
    let msg: Value = serde_json::from_str(&body).unwrap_or_default();
    let method = msg["method"].as_str().unwrap_or("").to_owned();
    seen.lock().unwrap().push(method.clone());
    let id = msg["id"].clone();
    let result = match method.as_str() {
        "server/discover" => json!({
            "resultType": "complete", "ttlMs": 0, "cacheScope": "private",
            "supportedVersions": ["2025-06-18", "2025-11-25"], "capabilities": {"tools": {}},
            "serverInfo": {"name": "old", "version": "1"}
        }),
        "initialize" => json!({
            "protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
            "serverInfo": {"name": "old", "version": "1"}
        }),
        "tools/call" => json!({"content": [{"type": "text", "text": "legacy"}]}),
        _ if id.is_null() => return StatusCode::ACCEPTED.into_response(),
        _ => json!({}),
    };
    let mut headers = HeaderMap::new();
    headers.insert(header::CONTENT_TYPE, "application/json".parse().unwrap());
    headers.insert("mcp-session-id", "s1".parse().unwrap());
    let body = json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string();
    (headers, body).into_response()
}

async fn start(seen: Seen) -> String {
    let app = Router::new().route(
        "/mcp",
        post(move |body: String| legacy_only(seen.clone(), body))
            .get(|| async { StatusCode::METHOD_NOT_ALLOWED }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    format!("http://{addr}/mcp")
}

#[tokio::test]
async fn auto_reconnects_with_initialize_when_discover_lists_only_older_revisions() {
    let seen: Seen = Arc::default();
    let url = start(seen.clone()).await;
    let target: ServerTarget = url.parse().unwrap();
    let client = ElicitationClient::new(
        TestUi::default(),
        RecordingOpener::default(),
        Config::default(),
    );
    let conn = guard(client.clone().connect(&target))
        .await
        .expect("connect");
    assert_eq!(
        negotiated_protocol(conn.peer()),
        ProtocolVersion::V_2025_11_25
    );
    let result = guard(client.call_tool(conn.peer(), CallToolRequestParams::new("t")))
        .await
        .expect("call");
    assert_eq!(
        serde_json::to_value(&result).unwrap()["content"][0]["text"],
        "legacy"
    );
    let methods = seen.lock().unwrap().clone();
    assert_eq!(methods.first().map(String::as_str), Some("server/discover"));
    assert!(methods.iter().any(|m| m == "initialize"), "{methods:?}");
}

#[tokio::test]
async fn forcing_2026_on_an_older_server_fails_clearly() {
    let seen: Seen = Arc::default();
    let url = start(seen.clone()).await;
    let target: ServerTarget = url.parse().unwrap();
    let client = ElicitationClient::new(
        TestUi::default(),
        RecordingOpener::default(),
        Config::default().with_protocol(ProtocolChoice::V2026_07_28),
    );
    let err = guard(client.clone().connect(&target))
        .await
        .expect_err("no common revision");
    assert!(err.to_string().contains("initialization failed"), "{err}");
    assert!(!seen.lock().unwrap().iter().any(|m| m == "initialize"));
}
