//! 2026-07-28 over Streamable HTTP against a scripted server: an `InputRequiredResult` sent as
//! a plain JSON body reaches the host exactly as sent (`pattern` included, which rmcp's typed
//! parse drops), and a server that streams an endless SSE event cannot make the client
//! buffer without end: the call fails.

mod common;

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Body;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use common::{TestUi, guard};
use mcp_elicit_client::rmcp::model::CallToolRequestParams;
use mcp_elicit_client::{Config, ElicitationClient, FormResponse, RecordingOpener, ServerTarget};
use serde_json::{Value, json};

type Seen = Arc<Mutex<Vec<Value>>>;

fn json_response(id: &Value, result: Value) -> Response {
    let body = json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string();
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

async fn scripted(seen: Seen, body: String) -> Response {
    let msg: Value = serde_json::from_str(&body).unwrap_or_default();
    let id = msg["id"].clone();
    match msg["method"].as_str() {
        Some("server/discover") => json_response(
            &id,
            json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private",
                "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}},
                "serverInfo": {"name": "scripted", "version": "1"}}),
        ),
        Some("tools/call") => {
            seen.lock().unwrap().push(msg.clone());
            match msg["params"]["name"].as_str() {
                Some("flood") => {
                    // One event that never ends.
                    let chunks = futures::stream::repeat_with(|| {
                        Ok::<_, std::io::Error>(axum::body::Bytes::from(vec![b'x'; 64 * 1024]))
                    });
                    let head = futures::stream::once(async {
                        Ok::<_, std::io::Error>(axum::body::Bytes::from_static(b"data: "))
                    });
                    Response::builder()
                        .header(header::CONTENT_TYPE, "text/event-stream")
                        .body(Body::from_stream(futures::StreamExt::chain(head, chunks)))
                        .unwrap()
                }
                _ if msg["params"].get("inputResponses").is_none() => json_response(
                    &id,
                    json!({"resultType": "input_required", "requestState": "s1", "inputRequests": {
                        "code": {"method": "elicitation/create", "params": {
                            "mode": "form", "message": "Code?",
                            "requestedSchema": {"$schema": "https://json-schema.org/draft/2020-12/schema",
                                "type": "object", "properties": {
                                "code": {"type": "string", "pattern": "^[A-Z]{2}[0-9]+$"}},
                                "required": ["code"]}}}}}),
                ),
                _ => json_response(
                    &id,
                    json!({"resultType": "complete", "content": [{"type": "text", "text": "ok"}]}),
                ),
            }
        }
        _ if id.is_null() => StatusCode::ACCEPTED.into_response(),
        _ => json_response(&id, json!({"resultType": "complete"})),
    }
}

async fn start(seen: Seen) -> ServerTarget {
    let app = Router::new().route(
        "/mcp",
        post(move |body: String| scripted(seen.clone(), body)),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    format!("http://{addr}/mcp").parse().unwrap()
}

#[tokio::test]
async fn a_json_input_required_result_reaches_the_host_exactly_as_sent() {
    let seen: Seen = Arc::default();
    let target = start(seen.clone()).await;
    let ui = TestUi::default();
    // The first answer breaks the pattern: re-presented, never sent.
    ui.script_forms([
        FormResponse::Submit(json!({"code": "ab1"}).as_object().unwrap().clone()),
        FormResponse::Submit(json!({"code": "AB12"}).as_object().unwrap().clone()),
    ]);
    let client = ElicitationClient::new(ui.clone(), RecordingOpener::default(), Config::default());
    let conn = guard(client.clone().connect(&target))
        .await
        .expect("connect");
    guard(client.call_tool(conn.peer(), CallToolRequestParams::new("pattern")))
        .await
        .expect("call");
    let forms = ui.forms();
    assert_eq!(forms.len(), 2);
    assert_eq!(
        forms[0].raw_schema["properties"]["code"]["pattern"],
        "^[A-Z]{2}[0-9]+$"
    );
    assert!(
        forms[0]
            .schema
            .property("code")
            .is_some_and(|p| format!("{:?}", p.kind()).contains("[A-Z]{2}[0-9]+")),
        "the checked schema keeps the pattern"
    );
    assert!(
        !forms[1].errors.is_empty(),
        "the first answer broke the pattern"
    );
    let calls = seen.lock().unwrap().clone();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[1]["params"]["requestState"], "s1");
    assert_eq!(
        calls[1]["params"]["inputResponses"]["code"],
        json!({"action": "accept", "content": {"code": "AB12"}})
    );
    assert_eq!(
        calls[1]["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
}

#[tokio::test]
async fn an_endless_sse_event_fails_the_call() {
    let seen: Seen = Arc::default();
    let target = start(seen.clone()).await;
    let client = ElicitationClient::new(
        TestUi::default(),
        RecordingOpener::default(),
        Config::default(),
    );
    let conn = guard(client.clone().connect(&target))
        .await
        .expect("connect");
    let outcome = guard(client.call_tool(conn.peer(), CallToolRequestParams::new("flood"))).await;
    assert!(outcome.is_err(), "{outcome:?}");
}
