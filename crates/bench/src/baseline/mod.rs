//! The bare baseline: the benchmark's elicitation exchange served by a small server on
//! hyper 1.x alone (no MCP framework, no router, no session worker), so that every run
//! of the harness shows the floor the machine allows beside the real servers.
//!
//! It is driven by the same load generator (our client library) and does the same work
//! per message as a real server would at the least: every request body is parsed as
//! JSON and every answer serialised, the elicitation's answer is checked, and the result
//! text is the one the conformance tool `test_elicitation` returns. Two revisions:
//!
//! - **2025-11-25** ([`legacy`]): `initialize` answers with an `Mcp-Session-Id`; the
//!   standalone GET stream is held open; `tools/call test_elicitation` answers with an SSE
//!   stream whose first event is `elicitation/create`; the client POSTs its reply (202);
//!   the result is the stream's second event. DELETE ends the session.
//! - **2026-07-28** ([`stateless`]): no session; `server/discover`; the first
//!   `tools/call` is answered with an `InputRequiredResult`, the retry carrying
//!   `inputResponses` and the echoed `requestState` with the result (plain JSON bodies).
//!
//! What it leaves out, on purpose: authorization, limits, per-user caps, schema
//! validation beyond the two fields, request-state sealing, resumption. It is a
//! measuring stick on loopback (it refuses any other address), not a server to ship.

pub(crate) mod legacy;
pub(crate) mod stateless;

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Empty, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::net::TcpListener;

/// A response body: whole, or a stream of SSE events.
pub(crate) type Body = BoxBody<Bytes, Infallible>;

/// Largest request body read.
const MAX_BODY: usize = 1 << 20;

/// The session header (2025-11-25).
pub(crate) const SESSION_HEADER: &str = "mcp-session-id";

/// The message the tool asks, and the schema it asks for (the conformance suite's
/// `test_elicitation` form, as `mcp-elicit serve --conformance` sends it).
pub(crate) fn requested_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "username": {"type": "string", "description": "User's response"},
            "email": {"type": "string", "description": "User's email address"}
        },
        "required": ["username", "email"]
    })
}

/// One JSON-RPC message as received: a request, a notification or a response.
#[derive(Debug, Deserialize)]
pub(crate) struct Message {
    #[serde(default)]
    pub(crate) id: Option<Value>,
    #[serde(default)]
    pub(crate) method: Option<String>,
    #[serde(default)]
    pub(crate) params: Option<Value>,
    #[serde(default)]
    pub(crate) result: Option<Value>,
    #[serde(default)]
    pub(crate) error: Option<Value>,
}

/// The arguments of `tools/call test_elicitation`: its message, or why not.
pub(crate) fn tool_message(params: Option<&Value>) -> Result<&str, String> {
    let params = params.ok_or("tools/call without params")?;
    let name = params.get("name").and_then(Value::as_str);
    if name != Some("test_elicitation") {
        return Err(format!("unknown tool {name:?}"));
    }
    params
        .get("arguments")
        .and_then(|a| a.get("message"))
        .and_then(Value::as_str)
        .ok_or_else(|| "`message` (a string) is required".to_owned())
}

/// The tool's result text for an elicitation answer (`{action, content}`), checked: an
/// accepted answer must carry the two string fields and nothing else.
pub(crate) fn result_text(answer: &Value) -> Result<String, String> {
    let action = answer
        .get("action")
        .and_then(Value::as_str)
        .ok_or("the answer has no action")?;
    if action != "accept" {
        return Ok(format!("User response: action={action}"));
    }
    let content = answer
        .get("content")
        .and_then(Value::as_object)
        .ok_or("an accepted answer without content")?;
    let fields_ok = content.len() == 2
        && ["username", "email"]
            .iter()
            .all(|k| content.get(*k).is_some_and(Value::is_string));
    if !fields_ok {
        return Err("the content does not match the requested schema".into());
    }
    let content = serde_json::to_string(content).map_err(|e| e.to_string())?;
    Ok(format!("User response: action=accept, content={content}"))
}

/// A text `CallToolResult`.
pub(crate) fn tool_result(text: String, result_type: Option<&str>) -> Value {
    let mut result = json!({
        "content": [{"type": "text", "text": text}],
        "isError": false
    });
    if let (Some(t), Some(obj)) = (result_type, result.as_object_mut()) {
        obj.insert("resultType".into(), Value::from(t));
    }
    result
}

/// `{"jsonrpc":"2.0","id":ID,"result":RESULT}`, serialised.
pub(crate) fn response_bytes(id: &Value, result: Value) -> Bytes {
    message_bytes(&json!({"jsonrpc": "2.0", "id": id, "result": result}))
}

/// A JSON-RPC error response, serialised.
pub(crate) fn error_bytes(id: Option<&Value>, code: i64, message: &str) -> Bytes {
    message_bytes(&json!({
        "jsonrpc": "2.0",
        "id": id.cloned().unwrap_or(Value::Null),
        "error": {"code": code, "message": message}
    }))
}

fn message_bytes(message: &Value) -> Bytes {
    Bytes::from(serde_json::to_vec(message).unwrap_or_default())
}

/// One SSE event carrying `json`.
pub(crate) fn sse_event(json: &[u8]) -> Bytes {
    let mut event = Vec::with_capacity(json.len() + 8);
    event.extend_from_slice(b"data: ");
    event.extend_from_slice(json);
    event.extend_from_slice(b"\n\n");
    Bytes::from(event)
}

/// A response with `status` and no body.
pub(crate) fn status(status: StatusCode) -> Response<Body> {
    let mut response = Response::new(Empty::new().boxed());
    *response.status_mut() = status;
    response
}

/// A JSON response.
pub(crate) fn json_response(status: StatusCode, body: Bytes) -> Response<Body> {
    let mut response = Response::new(Full::new(body).boxed());
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// An SSE response with `body`.
pub(crate) fn sse_response(body: Body) -> Response<Body> {
    let mut response = Response::new(body);
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    headers.insert(
        hyper::header::CACHE_CONTROL,
        HeaderValue::from_static("no-cache"),
    );
    response
}

/// Serves on `listen` (a loopback address) until the process is killed.
pub(crate) async fn serve(listen: SocketAddr) -> Result<(), String> {
    if !listen.ip().is_loopback() {
        return Err(format!(
            "the baseline listens on loopback only, not {listen}"
        ));
    }
    let listener = TcpListener::bind(listen)
        .await
        .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
    let sessions = Arc::new(legacy::Sessions::default());
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of descriptors and the like: wait, do not spin.
                eprintln!("baseline: accept: {e}");
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let sessions = sessions.clone();
        tokio::spawn(async move {
            let service = service_fn(move |request| {
                let sessions = sessions.clone();
                async move { Ok::<_, Infallible>(handle(&sessions, request).await) }
            });
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

async fn handle(sessions: &Arc<legacy::Sessions>, request: Request<Incoming>) -> Response<Body> {
    if request.uri().path() != "/mcp" {
        return status(StatusCode::NOT_FOUND);
    }
    let session = request
        .headers()
        .get(SESSION_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    match *request.method() {
        Method::POST => {}
        Method::GET => return legacy::standalone(sessions, session.as_deref()),
        Method::DELETE => return legacy::end(sessions, session.as_deref()),
        _ => return status(StatusCode::METHOD_NOT_ALLOWED),
    }
    let body = match Limited::new(request.into_body(), MAX_BODY).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(_) => return status(StatusCode::PAYLOAD_TOO_LARGE),
    };
    let message: Message = match serde_json::from_slice(&body) {
        Ok(m) => m,
        Err(e) => {
            return json_response(
                StatusCode::BAD_REQUEST,
                error_bytes(None, -32700, &format!("parse error: {e}")),
            );
        }
    };
    match session {
        Some(id) => legacy::post(sessions, &id, message),
        None if message.method.as_deref() == Some("initialize") => {
            legacy::initialize(sessions, &message)
        }
        None => stateless::post(&message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_accepted_answer_with_the_two_fields_becomes_the_conformance_text() {
        let answer =
            json!({"action": "accept", "content": {"username": "u1", "email": "u1@example.com"}});
        assert_eq!(
            result_text(&answer).as_deref(),
            Ok(
                r#"User response: action=accept, content={"username":"u1","email":"u1@example.com"}"#
            )
        );
        assert_eq!(
            result_text(&json!({"action": "decline"})).as_deref(),
            Ok("User response: action=decline")
        );
    }

    #[test]
    fn answers_that_do_not_match_the_schema_are_refused() {
        for answer in [
            json!({"action": "accept"}),
            json!({"action": "accept", "content": {"username": "u1"}}),
            json!({"action": "accept", "content": {"username": "u1", "email": 3}}),
            json!({"action": "accept", "content": {"username": "u1", "email": "e", "x": 1}}),
            json!({"content": {}}),
        ] {
            assert!(result_text(&answer).is_err(), "{answer}");
        }
    }

    #[test]
    fn only_test_elicitation_with_a_string_message_is_served() {
        let ok = json!({"name": "test_elicitation", "arguments": {"message": "hi"}});
        assert_eq!(tool_message(Some(&ok)), Ok("hi"));
        let other = json!({"name": "demo_form", "arguments": {"message": "hi"}});
        assert!(tool_message(Some(&other)).is_err());
        let no_message = json!({"name": "test_elicitation", "arguments": {}});
        assert!(tool_message(Some(&no_message)).is_err());
        assert!(tool_message(None).is_err());
    }
}
