//! The client against a raw Streamable HTTP server (axum, no MCP library) whose tool call
//! streams requests rmcp cannot parse: each must be answered with a JSON-RPC error POSTed
//! back on the same session, or the server's call would wait forever.

mod common;

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use common::*;
use futures::StreamExt;
use mcp_elicit_client::rmcp::model::CallToolRequestParams;
use mcp_elicit_client::{Config, ElicitationClient, ProtocolChoice, RecordingOpener, ServerTarget};
use serde_json::{Value, json};
use tokio::sync::watch;

const SESSION: &str = "raw-session-1";
const END_ID: &str = "probe-end";

/// A response POSTed by the client, with the session header it came with.
type Reply = (Option<String>, Value);

/// What the raw server received: responses POSTed by the client.
#[derive(Clone)]
struct Raw {
    replies: Arc<Mutex<Vec<Reply>>>,
    count: watch::Sender<usize>,
}

/// Events of the `probe` call's SSE stream before the ping that ends it.
fn broken_events() -> Vec<String> {
    vec![
        json!({"jsonrpc": "2.0", "id": "params-array", "method": "elicitation/create",
               "params": ["not", "an", "object"]})
        .to_string(),
        json!({"jsonrpc": "1.0", "id": "old-version", "method": "elicitation/create",
               "params": {"mode": "form", "message": "m",
                          "requestedSchema": {"type": "object", "properties": {}}}})
        .to_string(),
        json!({"jsonrpc": "2.0", "id": "method-number", "method": 42}).to_string(),
        json!({"jsonrpc": "2.0", "id": {"not": "an id"}, "method": "elicitation/create",
               "params": {}})
        .to_string(),
        json!([{"jsonrpc": "2.0", "id": "batch-1", "method": "ping"}]).to_string(),
        json!({"jsonrpc": "2.0", "method": "notifications/elicitation/complete",
               "params": "not an object"})
        .to_string(),
        "this event is not JSON".to_owned(),
    ]
}

/// Error replies expected, by id (`null`: the id could not be read).
const EXPECTED_ERRORS: usize = 5;

fn json_response(headers: &[(&str, &str)], body: Value) -> Response {
    let mut r = (StatusCode::OK, axum::Json(body)).into_response();
    for (k, v) in headers {
        if let (Ok(k), Ok(v)) = (
            k.parse::<header::HeaderName>(),
            v.parse::<header::HeaderValue>(),
        ) {
            r.headers_mut().insert(k, v);
        }
    }
    r
}

fn sse_event(data: &str) -> Result<String, Infallible> {
    Ok(format!("data: {data}\n\n"))
}

async fn post(State(raw): State<Raw>, headers: HeaderMap, body: Bytes) -> Response {
    let Ok(message) = serde_json::from_slice::<Value>(&body) else {
        return StatusCode::BAD_REQUEST.into_response();
    };
    let id = message.get("id").cloned();
    match (message["method"].as_str(), id) {
        (Some("initialize"), Some(id)) => json_response(
            &[("mcp-session-id", SESSION)],
            json!({"jsonrpc": "2.0", "id": id, "result": {
                "protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                "serverInfo": {"name": "raw-http", "version": "1.0.0"}}}),
        ),
        (Some("tools/call"), Some(id)) => probe(raw, id),
        (Some(other), Some(id)) => json_response(
            &[],
            json!({"jsonrpc": "2.0", "id": id,
                   "error": {"code": -32601, "message": format!("no method {other}")}}),
        ),
        (Some(_), None) => StatusCode::ACCEPTED.into_response(),
        (None, _) => {
            let session = headers
                .get("mcp-session-id")
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
            raw.replies.lock().unwrap().push((session, message));
            raw.count.send_modify(|n| *n += 1);
            StatusCode::ACCEPTED.into_response()
        }
    }
}

/// Streams the broken events and a ping, waits for the replies, then answers the call
/// with them (sorted by id).
fn probe(raw: Raw, call_id: Value) -> Response {
    let (tx, rx) = futures::channel::mpsc::unbounded::<Result<String, Infallible>>();
    for event in broken_events() {
        let _ = tx.unbounded_send(sse_event(&event));
    }
    let ping = json!({"jsonrpc": "2.0", "id": END_ID, "method": "ping"}).to_string();
    let _ = tx.unbounded_send(sse_event(&ping));
    let mut count = raw.count.subscribe();
    tokio::spawn(async move {
        let replies = raw.replies.clone();
        let all_in = move |_: &usize| {
            let got = replies.lock().unwrap();
            let pinged = got.iter().any(|(_, m)| m["id"] == END_ID);
            pinged && got.len() > EXPECTED_ERRORS
        };
        // Bounded: a client that drops the broken requests gets what arrived, and fails.
        let _ = tokio::time::timeout(Duration::from_secs(10), count.wait_for(all_in)).await;
        let mut got: Vec<Value> = raw
            .replies
            .lock()
            .unwrap()
            .iter()
            .filter(|(_, m)| m["id"] != END_ID)
            .map(|(session, m)| json!({"session": session, "message": m}))
            .collect();
        got.sort_by_key(|r| r["message"]["id"].to_string());
        let text = json!({ "replies": got }).to_string();
        let result = json!({"jsonrpc": "2.0", "id": call_id,
                            "result": {"content": [{"type": "text", "text": text}]}});
        let _ = tx.unbounded_send(sse_event(&result.to_string()));
    });
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "text/event-stream")
        .body(Body::from_stream(rx.map(|e| e.map(Bytes::from))))
        .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
}

async fn serve_raw() -> String {
    let (count, _) = watch::channel(0);
    let raw = Raw {
        replies: Arc::default(),
        count,
    };
    let app = axum::Router::new()
        .route(
            "/mcp",
            axum::routing::post(post)
                .get(|| async { StatusCode::METHOD_NOT_ALLOWED })
                .delete(|| async { StatusCode::OK }),
        )
        .with_state(raw);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    format!("http://{addr}/mcp")
}

#[tokio::test]
async fn over_http_unparseable_requests_are_answered_on_their_session() {
    let url = serve_raw().await;
    let ui = TestUi::default();
    let client = ElicitationClient::new(
        ui.clone(),
        RecordingOpener::default(),
        Config::default().with_protocol(ProtocolChoice::V2025_11_25),
    );
    let target: ServerTarget = url.parse().unwrap();
    let conn = guard(client.clone().connect(&target))
        .await
        .expect("connect");
    let r = guard(client.call_tool(conn.peer(), CallToolRequestParams::new("probe")))
        .await
        .expect("call");
    let replies = tool_json(&r)["replies"].clone();
    let by_id: BTreeMap<String, Value> = replies
        .as_array()
        .expect("replies")
        .iter()
        .map(|r| {
            (
                r["message"]["id"].to_string(),
                r["message"]["error"]["code"].clone(),
            )
        })
        .collect();
    let expected: BTreeMap<String, Value> = [
        ("\"params-array\"", -32602),
        ("\"old-version\"", -32600),
        ("\"method-number\"", -32600),
        ("\"batch-1\"", -32600),
        ("null", -32600),
    ]
    .into_iter()
    .map(|(id, code)| (id.to_owned(), json!(code)))
    .collect();
    assert_eq!(by_id, expected, "{replies}");
    assert_eq!(
        replies.as_array().map(Vec::len),
        Some(EXPECTED_ERRORS),
        "one reply per broken request, none for the notification: {replies}"
    );
    for reply in replies.as_array().into_iter().flatten() {
        assert_eq!(reply["session"], SESSION, "{reply}");
    }
    assert!(ui.forms().is_empty() && ui.urls().is_empty());
    let _ = conn.cancel().await;
}
