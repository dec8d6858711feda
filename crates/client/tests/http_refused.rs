//! A reply the server refused before reading it (503, 429) is sent again, so the user's
//! answer reaches a busy server; a server that keeps refusing gets a bounded number of
//! attempts. A refused request is not sent again, and its caller gets the server's error
//! even when it carries no id (a limit that refused the POST unread cannot name it).
//!
//! The server here is rmcp's behind a layer that refuses the POSTs carrying the client's
//! JSON-RPC responses as a connection cap or a rate limit does: before reading them,
//! with `Retry-After`.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use common::*;
use mcp_elicit_client::rmcp::model::CallToolRequestParams;
use mcp_elicit_client::rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use mcp_elicit_client::rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use mcp_elicit_client::{Config, ElicitationClient, FormResponse, ProtocolChoice, RecordingOpener};
use serde_json::{Value, json};

/// How the layer answers the POSTs of replies: the first `refusals` are refused with
/// `status` and `Retry-After: retry_after`; `seen` counts every reply POST.
struct Refuser {
    refusals: u32,
    status: u16,
    retry_after: &'static str,
    seen: AtomicU32,
}

async fn refuse_replies(State(r): State<Arc<Refuser>>, request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    let bytes = axum::body::to_bytes(body, 1 << 20)
        .await
        .unwrap_or_default();
    let reply = serde_json::from_slice::<Value>(&bytes).is_ok_and(|v| {
        v.get("method").is_none() && (v.get("result").is_some() || v.get("error").is_some())
    });
    if reply {
        let n = r.seen.fetch_add(1, Ordering::SeqCst);
        if n < r.refusals {
            let status = axum::http::StatusCode::from_u16(r.status).unwrap();
            return (status, [("retry-after", r.retry_after)], "busy").into_response();
        }
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

async fn serve(refuser: Arc<Refuser>) -> String {
    let service = StreamableHttpService::new(
        || Ok(TestServer::default()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let app = axum::Router::new().nest_service("/mcp", service).layer(
        axum::middleware::from_fn_with_state(refuser, refuse_replies),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    format!("http://{addr}/mcp")
}

fn refuser(refusals: u32, status: u16, retry_after: &'static str) -> Arc<Refuser> {
    Arc::new(Refuser {
        refusals,
        status,
        retry_after,
        seen: AtomicU32::new(0),
    })
}

fn ask_code() -> CallToolRequestParams {
    let schema = json!({"type": "object", "properties": {"code": {"type": "string"}},
        "required": ["code"]});
    CallToolRequestParams::new("elicit").with_arguments(args(
        json!({"params": {"mode": "form", "message": "Code?", "requestedSchema": schema}}),
    ))
}

fn client_answering(code: &str) -> ElicitationClient<TestUi, RecordingOpener> {
    let ui = TestUi::default();
    ui.script_forms([FormResponse::Submit(
        json!({"code": code}).as_object().unwrap().clone(),
    )]);
    ElicitationClient::new(
        ui,
        RecordingOpener::default(),
        Config::default().with_protocol(ProtocolChoice::V2025_11_25),
    )
}

#[tokio::test]
async fn an_answer_refused_with_503_then_429_reaches_the_server() {
    for (status, retry_after) in [(503, "1"), (429, "0")] {
        let refuser = refuser(2, status, retry_after);
        let url = serve(refuser.clone()).await;
        let client = client_answering("AB12");
        let conn = guard(client.clone().connect(&url.parse().unwrap()))
            .await
            .expect("connect");
        let r = tool_json(
            &guard(conn.peer().call_tool(ask_code()))
                .await
                .expect("call"),
        );
        assert_eq!(r["ok"]["content"], json!({"code": "AB12"}), "{status}: {r}");
        assert_eq!(
            refuser.seen.load(Ordering::SeqCst),
            3,
            "{status}: two refused, the third delivered"
        );
        let _ = conn.cancel().await;
    }
}

#[tokio::test]
async fn a_server_that_keeps_refusing_gets_five_attempts() {
    let refuser = refuser(u32::MAX, 503, "0");
    let url = serve(refuser.clone()).await;
    let client = client_answering("AB12");
    let conn = guard(client.clone().connect(&url.parse().unwrap()))
        .await
        .expect("connect");
    let peer = conn.peer().clone();
    let call = tokio::spawn(async move { peer.call_tool(ask_code()).await });
    guard(async {
        while refuser.seen.load(Ordering::SeqCst) < 5 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    // The pause before a sixth would be 100 ms: ten times that passes without one.
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(refuser.seen.load(Ordering::SeqCst), 5, "one and four more");
    assert!(!call.is_finished(), "the server never got an answer");
    call.abort();
    let _ = conn.cancel().await;
}

/// Refuses every `tools/call` POST as `mcp-elicit serve`'s connection cap does: 503 with
/// `Retry-After` and a JSON-RPC error whose id is null (the body was never read).
async fn refuse_calls(
    State(seen): State<Arc<AtomicU32>>,
    request: Request,
    next: Next,
) -> Response {
    let (parts, body) = request.into_parts();
    let bytes = axum::body::to_bytes(body, 1 << 20)
        .await
        .unwrap_or_default();
    let call = serde_json::from_slice::<Value>(&bytes).is_ok_and(|v| v["method"] == "tools/call");
    if call {
        seen.fetch_add(1, Ordering::SeqCst);
        let body = json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32000,
            "message": "server overloaded: over its max_connections limit (4)",
            "data": {"kind": "limit", "limit": "max_connections", "value": 4}}});
        return (
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            [("retry-after", "1"), ("content-type", "application/json")],
            body.to_string(),
        )
            .into_response();
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

#[tokio::test]
async fn a_refused_request_ends_with_the_limit_named_not_a_wait_for_ever() {
    let service = StreamableHttpService::new(
        || Ok(TestServer::default()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let seen = Arc::new(AtomicU32::new(0));
    let app = axum::Router::new().nest_service("/mcp", service).layer(
        axum::middleware::from_fn_with_state(seen.clone(), refuse_calls),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    let client = client_answering("AB12");
    let conn = guard(client.clone().connect(&url.parse().unwrap()))
        .await
        .expect("connect");
    let error = guard(conn.peer().call_tool(ask_code()))
        .await
        .expect_err("refused");
    let text = error.to_string();
    assert!(
        text.contains("-32000") && text.contains("max_connections"),
        "the limit is named: {text}"
    );
    assert_eq!(
        seen.load(Ordering::SeqCst),
        1,
        "a request is not sent again"
    );
    let _ = conn.cancel().await;
}
