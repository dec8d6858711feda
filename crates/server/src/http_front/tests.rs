//! The front answers what it takes exactly as rmcp's service answers it, and passes
//! everything else: each request goes to a service with the front and to one without,
//! and the two answers are compared.

// Logging is deprecated in rmcp (SEP-2577), but a handler may still notify before it answers.
#![allow(deprecated)]

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorCode, ErrorData,
    JsonObject, LoggingLevel, LoggingMessageNotificationParam, ProtocolVersion, ServerCapabilities,
    ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::{RoleServer, ServerHandler};
use serde_json::{Value, json};
use tower::ServiceExt;

use super::{HandlerFactory, HttpFront};
use crate::respond::EXACT_REQUESTS_META;
use crate::wire::WritesRoundsExactly;
use crate::{InputRound, SharedHttpService, Stop};

/// A handler whose tools answer at once, fail, or notify before answering.
#[derive(Clone)]
struct Tools;

fn schema(v: Value) -> Arc<JsonObject> {
    Arc::new(v.as_object().cloned().unwrap_or_default())
}

fn tool(name: &'static str) -> Option<Tool> {
    let plain = || schema(json!({"type": "object", "properties": {"text": {"type": "string"}}}));
    match name {
        "echo" | "fail" | "version" | "notify" | "round" | "ask" => {
            Some(Tool::new(name, "test", plain()))
        }
        "routed" => Some(Tool::new(
            name,
            "test",
            schema(json!({"type": "object", "properties": {
                "region": {"type": "string", "x-mcp-header": "Region"}}})),
        )),
        _ => None,
    }
}

impl ServerHandler for Tools {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_logging()
                .build(),
        )
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2026_07_28))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        [
            "echo", "fail", "version", "notify", "routed", "round", "ask",
        ]
        .into_iter()
        .find(|n| *n == name)
        .and_then(tool)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let text = |t: String| {
            CallToolResponse::Complete(CallToolResult::success(vec![ContentBlock::text(t)]))
        };
        match request.name.as_ref() {
            "echo" | "routed" => Ok(text(format!(
                "{} {:?}",
                serde_json::to_string(&request.arguments).unwrap_or_default(),
                ctx.protocol_version()
            ))),
            "fail" => Err(ErrorData::invalid_params("no such text", None)),
            "version" => Err(ErrorData::new(
                ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
                "needs elicitation",
                None,
            )),
            "notify" => {
                let _ = ctx
                    .peer
                    .notify_logging_message(LoggingMessageNotificationParam::new(
                        LoggingLevel::Info,
                        json!("working"),
                    ))
                    .await;
                Ok(text("done".into()))
            }
            "ask" => {
                let params: rmcp::model::ElicitRequestParams = serde_json::from_value(json!({
                    "mode": "form", "message": "Handle?",
                    "requestedSchema": {"type": "object", "properties": {"h": {"type": "string"}}}}))
                .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
                let answer = ctx
                    .peer
                    .create_elicitation(params)
                    .await
                    .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
                Ok(text(serde_json::to_string(&answer).unwrap_or_default()))
            }
            "round" => {
                if request
                    .arguments
                    .as_ref()
                    .is_some_and(|a| a.contains_key("notify"))
                {
                    let _ = ctx
                        .peer
                        .notify_logging_message(LoggingMessageNotificationParam::new(
                            LoggingLevel::Info,
                            json!("asking"),
                        ))
                        .await;
                }
                // As `Ask` builds a round: without rmcp's typed copy when a front writes
                // the answer with the exact requests.
                let round = InputRound::new(
                    BTreeMap::from([("q".to_owned(), exact_request())]),
                    Some("s.t".into()),
                );
                let round = if ctx.extensions.get::<WritesRoundsExactly>().is_some() {
                    round.exact_only()
                } else {
                    round
                };
                crate::respond::<CallToolResult>(Err(Stop::Input(round)))
            }
            _ => Err(ErrorData::invalid_params("unknown tool", None)),
        }
    }
}

/// A form request with a `pattern`, which rmcp's typed model drops.
fn exact_request() -> Value {
    json!({"method": "elicitation/create", "params": {"mode": "form", "message": "Handle?",
        "requestedSchema": {"type": "object", "properties": {
            "h": {"type": "string", "pattern": "^[a-z]+$"}}}}})
}

fn config() -> StreamableHttpServerConfig {
    StreamableHttpServerConfig::default()
        .with_allowed_hosts(["localhost", "127.0.0.1", "::1"])
        .with_json_response(true)
}

fn rmcp_only() -> SharedHttpService<Tools, LocalSessionManager> {
    SharedHttpService::new(StreamableHttpService::new(
        || Ok(Tools),
        Arc::new(LocalSessionManager::default()),
        config(),
    ))
}

fn front() -> HttpFront<Tools, LocalSessionManager> {
    let factory: HandlerFactory<Tools> = Arc::new(|| Ok(Tools));
    let rmcp_factory = Arc::clone(&factory);
    HttpFront::new(
        SharedHttpService::new(StreamableHttpService::new(
            move || rmcp_factory(),
            Arc::new(LocalSessionManager::default()),
            config(),
        )),
        factory,
    )
}

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"}
    })
}

fn call(name: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": name, "arguments": {"text": "hi"}, "_meta": meta()}})
}

/// A request as a 2026-07-28 client sends it; `edit` changes it.
fn request(body: &Value, edit: impl Fn(&mut axum::http::request::Builder)) -> Request<Body> {
    let name = body["params"]["name"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let mut b = Request::post("/")
        .header("host", "127.0.0.1:8080")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", name);
    edit(&mut b);
    b.body(Body::from(body.to_string())).expect("request")
}

/// What a client sees of an answer: status, content type, and the body (JSON, or the
/// `data` of each SSE event, keep-alives left out).
async fn seen(response: axum::response::Response) -> (StatusCode, String, Value) {
    let status = response.status();
    let kind = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .expect("body");
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let body = if kind.starts_with("text/event-stream") {
        Value::Array(
            text.lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .map(|d| d.trim())
                .filter(|d| !d.is_empty())
                .map(|d| serde_json::from_str(d).unwrap_or(Value::String(d.into())))
                .collect(),
        )
    } else {
        serde_json::from_str(&text).unwrap_or(Value::String(text))
    };
    (status, kind, body)
}

/// Sends `make()` to both services; the answers must be the same, and the front must have
/// taken it (answered it itself) or not, as `taken` says.
async fn same(make: impl Fn() -> Request<Body>, taken: bool) -> (StatusCode, Value) {
    let front = front();
    let counter = Arc::clone(&front.taken);
    let with = seen(front.oneshot(make()).await.expect("infallible")).await;
    let without = seen(rmcp_only().oneshot(make()).await.expect("infallible")).await;
    assert_eq!(with, without, "the same answer with and without the front");
    assert_eq!(
        counter.load(Ordering::Relaxed),
        usize::from(taken),
        "taken by the front: {taken} ({with:?})"
    );
    (with.0, with.2)
}

#[tokio::test]
async fn what_the_front_takes_is_answered_as_rmcp_answers_it() {
    // The common request: a result, as JSON, with the handler seeing 2026-07-28.
    let (status, body) = same(|| request(&call("echo"), |_| {}), true).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        body["result"]["content"][0]["text"]
            .as_str()
            .is_some_and(|t| t.contains("2026-07-28") && t.contains("\"hi\"")),
        "{body}"
    );
    // A handler's error: 200 with the JSON-RPC error; a missing capability: 400.
    let (status, body) = same(|| request(&call("fail"), |_| {}), true).await;
    assert_eq!(
        (status, body["error"]["code"].clone()),
        (StatusCode::OK, json!(-32602))
    );
    let (status, _) = same(|| request(&call("version"), |_| {}), true).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // A handler that notifies first: an SSE stream, the notification then the result.
    let (_, events) = same(|| request(&call("notify"), |_| {}), true).await;
    assert_eq!(events[0]["method"], "notifications/message", "{events}");
    assert_eq!(
        events[1]["result"]["content"][0]["text"], "done",
        "{events}"
    );
    // A body of unknown length (the session limits hand bodies on as streams).
    same(
        || {
            let mut r = request(&call("echo"), |_| {});
            let bytes = call("echo").to_string();
            *r.body_mut() = Body::from_stream(futures::stream::iter([
                Ok::<_, std::io::Error>(bytes[..10].to_owned()),
                Ok(bytes[10..].to_owned()),
            ]));
            r
        },
        true,
    )
    .await;
    // Any port, and a host name in capitals, as rmcp allows them.
    same(
        || {
            request(&call("echo"), |b| {
                b.headers_mut()
                    .map(|h| h.insert("host", "LOCALHOST".parse().expect("value")));
            })
        },
        true,
    )
    .await;
}

#[tokio::test]
async fn what_the_front_does_not_take_reaches_rmcp_as_it_came() {
    let header = |name: &'static str, value: &'static str| {
        move |b: &mut axum::http::request::Builder| {
            if let Some(h) = b.headers_mut() {
                h.insert(name, value.parse().expect("value"));
            }
        }
    };
    // Refused by rmcp: a host not allowed (403), a name that differs from the body's
    // (400), an `Accept` without SSE (406).
    let (status, _) = same(
        || request(&call("echo"), header("host", "evil.example")),
        false,
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = same(|| request(&call("echo"), header("mcp-name", "fail")), false).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = same(
        || request(&call("echo"), header("accept", "application/json")),
        false,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_ACCEPTABLE);
    // Left to rmcp's reading, whatever it answers: an `Origin`, a weighted `Accept`, an
    // encoded name, a header parameter, a tool declaring one, an unknown tool.
    same(
        || request(&call("echo"), header("origin", "http://127.0.0.1:8080")),
        false,
    )
    .await;
    same(
        || {
            request(
                &call("echo"),
                header("accept", "application/json;q=1, text/event-stream"),
            )
        },
        false,
    )
    .await;
    same(
        || request(&call("echo"), header("mcp-name", "=?base64?ZWNobw==?=")),
        false,
    )
    .await;
    same(
        || request(&call("echo"), header("mcp-param-region", "eu")),
        false,
    )
    .await;
    same(|| request(&call("routed"), |_| {}), false).await;
    same(|| request(&call("nothing"), |_| {}), false).await;
    // A body over rmcp's limit, of unknown length: rmcp's 413, whatever the front read.
    let (status, _) = same(
        || {
            let mut r = request(&call("echo"), |_| {});
            let big = format!("{{\"pad\": \"{}\"}}", "x".repeat(5 << 20));
            *r.body_mut() = Body::from_stream(futures::stream::iter(
                big.into_bytes()
                    .chunks(1 << 16)
                    .map(|c| Ok::<_, std::io::Error>(c.to_vec()))
                    .collect::<Vec<_>>(),
            ));
            r
        },
        false,
    )
    .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    // Bodies that are not exactly a complete 2026-07-28 `tools/call`.
    let mut stray = call("echo");
    stray["result"] = json!({});
    same(|| request(&stray, |_| {}), false).await;
    let mut partial = call("echo");
    partial["params"]["_meta"]
        .as_object_mut()
        .expect("meta")
        .remove("io.modelcontextprotocol/protocolVersion");
    let (status, _) = same(|| request(&partial, |_| {}), false).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // What rmcp's own check of the `_meta` lets through (it does not ask for
    // `clientInfo`), the front takes, with the same answer.
    let mut no_info = call("echo");
    no_info["params"]["_meta"]
        .as_object_mut()
        .expect("meta")
        .remove("io.modelcontextprotocol/clientInfo");
    same(|| request(&no_info, |_| {}), true).await;
    let mut other_version = call("echo");
    other_version["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] =
        json!("2025-11-25");
    same(|| request(&other_version, |_| {}), false).await;
    same(
        || request(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta()}}), header("mcp-method", "tools/list")),
        false,
    )
    .await;
    same(
        || request(&call("echo"), header("mcp-protocol-version", "2025-11-25")),
        false,
    )
    .await;
}

/// Sends `request` to both services and returns what the client sees of each.
async fn both(
    make: impl Fn() -> Request<Body>,
) -> ((StatusCode, String, Value), (StatusCode, String, Value)) {
    let with = seen(front().oneshot(make()).await.expect("infallible")).await;
    let without = seen(rmcp_only().oneshot(make()).await.expect("infallible")).await;
    (with, without)
}

use proptest::strategy::Strategy as _;

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]

    /// Whatever the `Host`, `Accept`, `Content-Type` and `Mcp-Name`, a client gets the same
    /// answer with the front as without it: the front's own reading of those headers never
    /// lets through what rmcp refuses, nor refuses what rmcp lets through.
    #[test]
    fn any_headers_get_the_answer_rmcp_gives(
        host in proptest::prop_oneof![
            proptest::sample::select(vec!["127.0.0.1", "localhost", "LocalHost", "[::1]", "::1",
                "127.0.0.1.", "evil.example", "127.0.0.1@evil", "", "localhost:", "localhost:0",
                "localhost:65535", "localhost:65536", "localhost:08080", "localhost:80:80",
                "localhost:+80", "localhost:-1", "localhost: 80"])
                .prop_map(str::to_owned),
            "[a-zL0-9.:+\\[\\]@-]{0,14}",
        ],
        accept in proptest::sample::select(vec!["application/json, text/event-stream",
            "text/event-stream,application/json", "APPLICATION/JSON, Text/Event-Stream",
            "application/json", "*/*", "application/json;q=0, text/event-stream",
            "application/json, text/event-stream;q=0", "application/json , , text/event-stream",
            "application/json, text/event-stream, \"x\"", ""]),
        content_type in proptest::sample::select(vec!["application/json",
            "application/json; charset=utf-8", "Application/JSON", "text/plain",
            "application/json-seq", ""]),
        name in proptest::sample::select(vec!["echo", "Echo", "echo ", "=?base64?ZWNobw==?=",
            "fail", "nothing", ""]),
    ) {
        use proptest::{prop_assert_eq, prop_assume};
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        let values_ok = [host.as_str(), accept, content_type, name]
            .iter()
            .all(|v| axum::http::HeaderValue::from_str(v).is_ok());
        prop_assume!(values_ok);
        let (with, without) = runtime.block_on(both(|| {
            request(&call("echo"), |b| {
                if let Some(h) = b.headers_mut() {
                    for (k, v) in [("host", host.as_str()), ("accept", accept),
                        ("content-type", content_type), ("mcp-name", name)] {
                        h.insert(k, v.parse().expect("checked"));
                    }
                }
            })
        }));
        prop_assert_eq!(with, without);
    }
}

#[tokio::test]
async fn rounds_leave_the_front_with_their_exact_requests_and_no_typed_copy() {
    let plain = || request(&call("round"), |_| {});
    let mut notifying = call("round");
    notifying["params"]["arguments"] = json!({"notify": true});
    let streamed = || request(&notifying, |_| {});
    // JSON, and SSE (the handler notifies first): the exact request, `pattern` and all,
    // with nothing of the private member left, whatever middleware is (not) around.
    let (status, kind, json_body) = seen(front().oneshot(plain()).await.expect("infallible")).await;
    assert_eq!(
        (status, kind.as_str()),
        (StatusCode::OK, "application/json")
    );
    let (_, kind, events) = seen(front().oneshot(streamed()).await.expect("infallible")).await;
    assert!(kind.starts_with("text/event-stream"), "{kind}");
    let last = events
        .as_array()
        .and_then(|e| e.last())
        .cloned()
        .unwrap_or_default();
    for body in [&json_body, &last] {
        let result = &body["result"];
        assert_eq!(result["inputRequests"]["q"], exact_request(), "{body}");
        assert_eq!(result["resultType"], "input_required", "{body}");
        assert_eq!(result["requestState"], "s.t", "{body}");
        assert!(result.get("_meta").is_none(), "{body}");
    }
    // rmcp alone (no front, no marker): the typed copy, without `pattern`, and the exact
    // requests still in the private member for the wire middleware.
    let (_, _, typed) = seen(rmcp_only().oneshot(plain()).await.expect("infallible")).await;
    let schema = &typed["result"]["inputRequests"]["q"]["params"]["requestedSchema"];
    assert_eq!(schema["properties"]["h"]["type"], "string", "{typed}");
    assert!(
        schema["properties"]["h"].get("pattern").is_none(),
        "{typed}"
    );
    assert_eq!(
        typed["result"]["_meta"][EXACT_REQUESTS_META]["q"],
        exact_request()
    );
}

/// The data of the next SSE event that carries a message, from a response body read
/// as it arrives.
async fn next_message(
    stream: &mut (impl futures::Stream<Item = Result<axum::body::Bytes, axum::Error>> + Unpin),
    buf: &mut String,
) -> Value {
    use futures::StreamExt;
    loop {
        while let Some(end) = buf.find("\n\n") {
            let event: String = buf.drain(..end + 2).collect();
            for line in event.lines() {
                if let Some(data) = line.strip_prefix("data:").map(str::trim)
                    && !data.is_empty()
                {
                    return serde_json::from_str(data).expect("JSON data");
                }
            }
        }
        let chunk = tokio::time::timeout(std::time::Duration::from_secs(5), stream.next())
            .await
            .expect("in time")
            .expect("more of the stream")
            .expect("a chunk");
        buf.push_str(std::str::from_utf8(&chunk).expect("text"));
    }
}

/// The front with the session manager of its rmcp service.
fn front_in_sessions() -> HttpFront<Tools, LocalSessionManager> {
    let sessions = Arc::new(LocalSessionManager::default());
    let factory: HandlerFactory<Tools> = Arc::new(|| Ok(Tools));
    let rmcp_factory = Arc::clone(&factory);
    HttpFront::new(
        SharedHttpService::new(StreamableHttpService::new(
            move || rmcp_factory(),
            Arc::clone(&sessions),
            config(),
        )),
        factory,
    )
    .with_sessions(sessions)
}

/// A 2025-11-25 request in session `session` (none: the `initialize`).
fn session_post(body: Value, session: Option<&str>) -> Request<Body> {
    let mut b = Request::post("/")
        .header("host", "127.0.0.1:8080")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-11-25");
    if let Some(s) = session {
        b = b.header("mcp-session-id", s);
    }
    b.body(Body::from(body.to_string())).expect("request")
}

/// A 2025-11-25 session on `service`: initialize, a `tools/call` of `ask` whose handler
/// asks the client a form, the client's answer, the result, then an answer for a session
/// that is not there. Returns what the client saw: statuses, content types, messages.
async fn session_round_trip<T>(service: T) -> Vec<Value>
where
    T: tower::Service<
            Request<Body>,
            Response = axum::response::Response,
            Error = std::convert::Infallible,
        > + Clone,
{
    let mut seen = Vec::new();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {"elicitation": {"form": {}}},
        "clientInfo": {"name": "t", "version": "1"}}});
    let response = service
        .clone()
        .oneshot(session_post(init, None))
        .await
        .expect("infallible");
    let session = response
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .expect("a session id")
        .to_owned();
    seen.push(json!(response.status().as_u16()));
    let mut body = response.into_body().into_data_stream();
    let mut buf = String::new();
    seen.push(next_message(&mut body, &mut buf).await);
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let r = service
        .clone()
        .oneshot(session_post(initialized, Some(&session)))
        .await;
    seen.push(json!(r.expect("infallible").status().as_u16()));
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "ask", "arguments": {}}});
    let r = service
        .clone()
        .oneshot(session_post(call, Some(&session)))
        .await
        .expect("infallible");
    seen.push(json!(r.status().as_u16()));
    seen.push(json!(
        r.headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
    ));
    let mut stream = r.into_body().into_data_stream();
    let mut buf = String::new();
    let ask = next_message(&mut stream, &mut buf).await;
    seen.push(ask.clone());
    let answer = json!({"jsonrpc": "2.0", "id": ask["id"],
        "result": {"action": "accept", "content": {"h": "octo"}}});
    let r = service
        .clone()
        .oneshot(session_post(answer, Some(&session)))
        .await
        .expect("infallible");
    seen.push(json!(r.status().as_u16()));
    let body = axum::body::to_bytes(r.into_body(), 1 << 16)
        .await
        .expect("body");
    seen.push(json!(String::from_utf8_lossy(&body)));
    seen.push(next_message(&mut stream, &mut buf).await);
    let stray = json!({"jsonrpc": "2.0", "id": 9, "result": {"action": "decline"}});
    let r = service
        .clone()
        .oneshot(session_post(stray, Some("no-such-session")))
        .await;
    seen.push(json!(r.expect("infallible").status().as_u16()));
    seen
}

#[tokio::test]
async fn a_sessions_call_and_answer_are_taken_and_seen_as_rmcp_serves_them() {
    let front = front_in_sessions();
    let counter = Arc::clone(&front.taken);
    let with = session_round_trip(front).await;
    let without = session_round_trip(rmcp_only()).await;
    assert_eq!(with, without);
    // The call and the answer; not the initialize, the notification or the stray answer.
    assert_eq!(counter.load(Ordering::Relaxed), 2);
    assert_eq!(with[5]["method"], "elicitation/create", "{with:?}");
    assert!(
        with[8]["result"]["content"][0]["text"]
            .as_str()
            .is_some_and(|t| t.contains("octo")),
        "{with:?}"
    );
    assert_eq!(with[9], 404);
}

#[tokio::test]
async fn a_sessions_post_from_another_host_or_with_an_origin_is_left_to_rmcp() {
    // DNS rebinding: a session's call or answer with a Host the server does not allow
    // (refused), or with an Origin (rmcp's origin policy decides), is left to rmcp's
    // checks, whatever the session and the body: answered as the same service's rmcp
    // answers it.
    let front = front_in_sessions();
    let counter = Arc::clone(&front.taken);
    let session = {
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {"elicitation": {"form": {}}},
            "clientInfo": {"name": "t", "version": "1"}}});
        let r = front
            .clone()
            .oneshot(session_post(init, None))
            .await
            .expect("infallible");
        r.headers()["mcp-session-id"]
            .to_str()
            .expect("text")
            .to_owned()
    };
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "echo", "arguments": {}}});
    let answer = json!({"jsonrpc": "2.0", "id": 0, "result": {"action": "decline"}});
    for body in [call, answer] {
        for (name, value) in [
            ("host", "evil.example:8080"),
            ("host", "127.0.0.1.evil.example"),
            ("origin", "http://evil.example"),
        ] {
            let make = || {
                let mut r = session_post(body.clone(), Some(&session));
                r.headers_mut()
                    .insert(name, axum::http::HeaderValue::from_static(value));
                r
            };
            let with = seen(front.clone().oneshot(make()).await.expect("infallible")).await;
            let rmcp = seen(
                front
                    .rmcp
                    .clone()
                    .oneshot(make())
                    .await
                    .expect("infallible"),
            )
            .await;
            assert_eq!(with, rmcp, "{name}: {value}: {body}");
            if name == "host" {
                assert_eq!(with.0, StatusCode::FORBIDDEN, "{value}: {with:?}");
            }
        }
    }
    assert_eq!(counter.load(Ordering::Relaxed), 0, "none was taken");
}
