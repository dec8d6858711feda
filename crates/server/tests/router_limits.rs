//! The session limits of the library's router (`Elicitations::router`): one user
//! flooding it with sessions, or with requests that wait for a form, gets 429 with
//! `Retry-After` naming the limit, and another user's form flow still completes.

mod common;

use std::time::Duration;

use common::http_client::{self, connect_as};
use mcp_elicit_core::schema::Schema;
use mcp_elicit_server::{
    ElicitationConfig, Elicitations, IdentityPolicy, Principal, SessionLimits, SessionScope,
};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ServerCapabilities,
    ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// One tool, `form`: asks for a username and an e-mail address and waits for the answer.
struct FormServer {
    scope: SessionScope,
}

impl ServerHandler for FormServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        _request: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let schema = Schema::parse(&json!({"type": "object", "properties": {
            "username": {"type": "string"}, "email": {"type": "string"}}}))
        .expect("schema");
        let outcome = self
            .scope
            .elicitor(&ctx)?
            .form_with_schema("Who?", &schema)
            .await?;
        let text = format!("{:?}", outcome.action());
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
    }
}

/// Stands for a bearer-token validator: `Bearer SUB-valid-token` is user SUB.
async fn test_auth(
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let user = request
        .headers()
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .and_then(|token| token.strip_suffix("-valid-token"))
        .map(|sub| Principal::authenticated("https://issuer.test", sub));
    match user {
        Some(p) => {
            request.extensions_mut().insert(p);
            next.run(request).await
        }
        None => {
            let mut r = axum::response::Response::new(axum::body::Body::empty());
            *r.status_mut() = axum::http::StatusCode::UNAUTHORIZED;
            r
        }
    }
}

const SESSIONS: usize = 3;
const REQUESTS: usize = 2;

/// The library router (authenticated users, small caps) on a loopback port.
async fn serve() -> std::net::SocketAddr {
    let mut limits = SessionLimits::default();
    limits.max_sessions_per_user = SESSIONS;
    limits.max_requests_per_user = REQUESTS;
    let hub = Elicitations::new(
        ElicitationConfig::new(IdentityPolicy::Authenticated).with_session_limits(limits),
    );
    let scopes = hub.clone();
    let app = hub
        .router(
            move || {
                Ok(FormServer {
                    scope: scopes.scope().map_err(std::io::Error::other)?,
                })
            },
            Default::default(),
        )
        .layer(axum::middleware::from_fn(test_auth));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}

/// A raw answer: status, headers (lower-cased names), and the body read so far.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
    /// The connection, kept open (an SSE stream waiting for a form).
    _stream: TcpStream,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// POSTs `body` to `/mcp` as `user` (in `session`), reading the head and whatever body
/// arrives within a moment (a waiting SSE stream sends nothing more).
async fn post(
    addr: std::net::SocketAddr,
    user: &str,
    session: Option<&str>,
    body: &Value,
) -> Answer {
    let body = body.to_string();
    let session = session
        .map(|s| format!("mcp-session-id: {s}\r\nmcp-protocol-version: 2025-11-25\r\n"))
        .unwrap_or_default();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer {user}-valid-token\r\n\
         content-type: application/json\r\naccept: application/json, text/event-stream\r\n{session}\
         content-length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let read = tokio::time::timeout(Duration::from_millis(300), stream.read(&mut buf)).await;
        match read {
            Ok(Ok(0)) | Err(_) => break,
            Ok(Ok(n)) => raw.extend_from_slice(&buf[..n]),
            Ok(Err(e)) => panic!("read: {e}"),
        }
        if let Some(end) = find(&raw, b"\r\n\r\n") {
            // A complete head and, with a length, the complete body: done.
            let head = String::from_utf8_lossy(&raw[..end]).to_lowercase();
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok());
            if length.is_some_and(|n| raw.len() >= end + 4 + n) {
                break;
            }
        }
    }
    let end = find(&raw, b"\r\n\r\n").expect("a response head");
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("status");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_lowercase(), v.trim().to_owned()))
        .collect();
    Answer {
        status,
        headers,
        body: String::from_utf8_lossy(&raw[end + 4..]).into_owned(),
        _stream: stream,
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {"elicitation": {"form": {}}},
        "clientInfo": {"name": "flood", "version": "0"}}})
}

/// Opens a session as `user`: its id (initialize and `notifications/initialized`).
async fn open_session(addr: std::net::SocketAddr, user: &str) -> Answer {
    post(addr, user, None, &initialize()).await
}

fn assert_refused(answer: &Answer, limit: &str, value: usize) {
    assert_eq!(answer.status, 429, "{}", answer.body);
    assert!(
        answer
            .header("retry-after")
            .and_then(|v| v.parse::<u64>().ok())
            .is_some_and(|s| s >= 1),
        "Retry-After: {:?}",
        answer.headers
    );
    let body: Value = serde_json::from_str(answer.body.trim()).expect("a JSON body");
    assert_eq!(body["error"]["code"], -32000, "{body}");
    assert_eq!(body["error"]["data"]["limit"], limit, "{body}");
    assert_eq!(body["error"]["data"]["value"], value, "{body}");
}

/// Alice's whole form flow through rmcp's client: connect, call, answer, result.
async fn alice_completes_a_form(addr: std::net::SocketAddr) {
    let url = format!("http://{addr}/mcp");
    let (alice, _notes) = connect_as(&url, "alice-valid-token").await;
    let result = tokio::time::timeout(
        Duration::from_secs(20),
        alice.call_tool(http_client::call("form", json!({}))),
    )
    .await
    .expect("in time")
    .expect("answered");
    assert_eq!(http_client::first_text(&result), "Accept");
    alice.cancel().await.expect("close");
}

#[tokio::test]
async fn a_session_flood_gets_429_and_another_users_flow_still_works() {
    let addr = serve().await;
    let mut held = Vec::new();
    for _ in 0..SESSIONS {
        let a = open_session(addr, "mallory").await;
        assert_eq!(a.status, 200, "{}", a.body);
        assert!(a.header("mcp-session-id").is_some());
        held.push(a);
    }
    let over = open_session(addr, "mallory").await;
    assert_refused(&over, "max_sessions_per_user", SESSIONS);
    assert!(over.header("mcp-session-id").is_none());
    alice_completes_a_form(addr).await;
    // Still refused for mallory: the cap is per user, alice's session did not lift it.
    assert_refused(
        &open_session(addr, "mallory").await,
        "max_sessions_per_user",
        SESSIONS,
    );
}

#[tokio::test]
async fn a_request_flood_gets_429_and_another_users_flow_still_works() {
    let addr = serve().await;
    let init = open_session(addr, "mallory").await;
    assert_eq!(init.status, 200, "{}", init.body);
    let session = init.header("mcp-session-id").expect("a session").to_owned();
    let initialized = post(
        addr,
        "mallory",
        Some(&session),
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;
    assert_eq!(initialized.status, 202, "{}", initialized.body);
    // Tool calls whose forms nobody answers: each stays in progress.
    let call = |id: u64| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
               "params": {"name": "form", "arguments": {}}})
    };
    let mut waiting = Vec::new();
    for id in 1..=REQUESTS as u64 {
        let a = post(addr, "mallory", Some(&session), &call(id)).await;
        assert_eq!(a.status, 200, "{}", a.body);
        assert!(a.body.contains("elicitation/create"), "{}", a.body);
        waiting.push(a);
    }
    let over = post(addr, "mallory", Some(&session), &call(99)).await;
    assert_refused(&over, "max_requests_per_user", REQUESTS);
    // The refusal answers that request: its id was read, so it is named (a null id would
    // match nothing in the client, whose call would wait for ever).
    let body: Value = serde_json::from_str(over.body.trim()).expect("a JSON body");
    assert_eq!(body["id"], 99, "{body}");
    alice_completes_a_form(addr).await;
}
