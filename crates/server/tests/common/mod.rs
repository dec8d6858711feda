//! Shared test fixtures: a raw JSON-RPC client over an in-memory pipe (so tests see and
//! send exact bytes, malformed answers included) and a server whose tools exercise the
//! elicitation API.
#![allow(dead_code, unreachable_pub)]

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use mcp_elicit_core::schema::Schema;
use mcp_elicit_server::{
    Clock, ElicitationConfig, Elicitations, FormOutcome, IdentityPolicy, MemoryStore, Principal,
    SessionScope, UrlElicitation, UrlOutcome,
};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ProtocolVersion,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};

pub mod http_client;
pub mod rounds;

/// How long a test waits for one message before failing.
pub const WAIT: Duration = Duration::from_secs(10);

/// Every field kind, with `pattern`, `format` and defaults.
pub fn all_fields_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "handle": {"type": "string", "title": "Handle", "minLength": 3, "maxLength": 20,
                       "pattern": "^[a-z0-9-]+$", "default": "octo-cat"},
            "email": {"type": "string", "format": "email"},
            "height": {"type": "number", "minimum": 0.5, "maximum": 2.5, "default": 1.75},
            "age": {"type": "integer", "minimum": 0, "maximum": 150},
            "newsletter": {"type": "boolean", "default": false},
            "size": {"type": "string", "enum": ["S", "M", "L"], "default": "M"},
            "color": {"type": "string", "oneOf": [{"const": "#FF0000", "title": "Red"},
                                                  {"const": "#00FF00", "title": "Green"}]},
            "plan": {"type": "string", "enum": ["free", "pro"], "enumNames": ["Free", "Pro"]},
            "languages": {"type": "array", "minItems": 1, "maxItems": 2,
                          "items": {"type": "string", "enum": ["en", "fr", "de"]}, "default": ["en"]},
            "topics": {"type": "array", "items": {"anyOf": [{"const": "rust", "title": "Rust"},
                                                            {"const": "mcp", "title": "MCP"}]}}
        },
        "required": ["handle", "email", "age"]
    })
}

/// A valid answer to [`all_fields_schema`].
pub fn all_fields_answer() -> Value {
    json!({
        "handle": "octo-cat", "email": "octo@example.com", "height": 1.8, "age": 30, "newsletter": true,
        "size": "L", "color": "#FF0000", "plan": "pro", "languages": ["en", "fr"], "topics": ["mcp"]
    })
}

/// A clock the test moves by hand.
#[derive(Debug)]
pub struct ManualClock(Mutex<SystemTime>);

impl ManualClock {
    pub fn new() -> Arc<Self> {
        Arc::new(Self(Mutex::new(
            SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000),
        )))
    }
    pub fn advance(&self, by: Duration) {
        let mut t = self.0.lock().expect("clock");
        *t += by;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> SystemTime {
        *self.0.lock().expect("clock")
    }
}

pub fn alice() -> Principal {
    Principal::local_user("alice")
}

pub fn hub() -> Elicitations {
    Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(alice())))
}

pub fn hub_with_clock(clock: Arc<ManualClock>) -> Elicitations {
    Elicitations::with_store(
        ElicitationConfig::new(IdentityPolicy::LocalUser(alice())),
        Arc::new(MemoryStore::new()),
        clock,
    )
}

/// A server whose tools call the elicitation API and report the outcome as text.
pub struct TestServer {
    pub scope: SessionScope,
    /// Receives "tool: ok" or "tool: <error kind>" when a call resolves.
    pub log: Option<tokio::sync::mpsc::UnboundedSender<String>>,
}

fn text(t: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(t)])
}

fn form_text(outcome: FormOutcome<serde_json::Map<String, Value>>) -> String {
    match outcome {
        FormOutcome::Accepted(c) => format!("accepted {}", Value::Object(c)),
        FormOutcome::Declined => "declined".into(),
        FormOutcome::Cancelled => "cancelled".into(),
    }
}

fn url_text(outcome: UrlOutcome) -> &'static str {
    match outcome {
        UrlOutcome::Accepted => "accepted",
        UrlOutcome::Declined => "declined",
        UrlOutcome::Cancelled => "cancelled",
        _ => "other",
    }
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct Signup {
    /// Your name
    pub name: String,
    /// Keep me posted
    pub updates: bool,
}

impl TestServer {
    async fn run(
        &self,
        name: &str,
        args: &serde_json::Map<String, Value>,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let elicitor = self.scope.elicitor(ctx)?;
        let arg = |k: &str| {
            args.get(k)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        match name {
            "form" => {
                let schema = Schema::parse(args.get("schema").unwrap_or(&all_fields_schema()))
                    .map_err(|e| ErrorData::invalid_params(e.to_string(), None))?;
                let mut elicitor = elicitor;
                if let Some(ms) = args.get("timeout_ms").and_then(Value::as_u64) {
                    elicitor = elicitor.with_timeout(Duration::from_millis(ms));
                }
                if let Some(n) = args.get("attempts").and_then(Value::as_u64) {
                    elicitor = elicitor.with_max_attempts(u32::try_from(n).unwrap_or(1));
                }
                Ok(text(form_text(
                    elicitor
                        .form_with_schema("Tell us about yourself", &schema)
                        .await?,
                )))
            }
            "typed" => match elicitor.form::<Signup>("Sign up").await? {
                FormOutcome::Accepted(s) => Ok(text(format!("typed {} {}", s.name, s.updates))),
                other => Ok(text(format!("{:?}", other.action()))),
            },
            "url" => {
                let base = match arg("base") {
                    b if b.is_empty() => "https://mcp.example.com/connect".to_owned(),
                    b => b,
                };
                let e = UrlElicitation::new("Connect your account", |id| {
                    format!("{base}?elicitationId={id}")
                })?;
                let outcome = elicitor.url(&e).await?;
                Ok(text(format!("{} {}", url_text(outcome), e.id())))
            }
            "required" => {
                let e = UrlElicitation::new(
                    "Authorization is required to access your Example Co files.",
                    |id| format!("https://mcp.example.com/connect?elicitationId={id}"),
                )?;
                Err(elicitor.url_required(&[e]).await.into())
            }
            "fallback" => {
                let e = UrlElicitation::new("Set your API key", |id| {
                    format!("https://mcp.example.com/key?elicitationId={id}")
                })?;
                Ok(text(elicitor.url_fallback(&e).await?))
            }
            _ => Err(ErrorData::invalid_params("unknown tool", None)),
        }
    }
}

impl ServerHandler for TestServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.clone().unwrap_or_default();
        let result = self.run(&request.name, &args, &context).await;
        if let Some(log) = &self.log {
            let kind = match &result {
                Ok(_) => "ok".to_owned(),
                Err(e) => e
                    .data
                    .as_ref()
                    .and_then(|d| d.get("kind"))
                    .and_then(Value::as_str)
                    .unwrap_or("error")
                    .to_owned(),
            };
            let _ = log.send(format!("{}: {kind}", request.name));
        }
        result.map(CallToolResponse::from)
    }
}

/// A raw JSON-RPC client (one JSON message per line) on an in-memory pipe.
pub struct RawClient {
    writer: WriteHalf<DuplexStream>,
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    next_id: u64,
    pub server: tokio::task::JoinHandle<()>,
}

impl RawClient {
    /// Connects a fresh [`TestServer`] on `hub` and initializes with `elicitation`
    /// as the declared capability (`None`: not declared).
    pub async fn connect(hub: &Elicitations, elicitation: Option<Value>) -> RawClient {
        let server = TestServer {
            scope: hub.scope().expect("scope"),
            log: None,
        };
        Self::connect_handler(server, elicitation).await
    }

    /// [`RawClient::connect`], plus a log of how each tool call resolved.
    pub async fn connect_logged(
        hub: &Elicitations,
        elicitation: Option<Value>,
    ) -> (RawClient, tokio::sync::mpsc::UnboundedReceiver<String>) {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let server = TestServer {
            scope: hub.scope().expect("scope"),
            log: Some(tx),
        };
        (Self::connect_handler(server, elicitation).await, rx)
    }

    pub async fn connect_handler<H: ServerHandler>(
        handler: H,
        elicitation: Option<Value>,
    ) -> RawClient {
        let (client_io, server_io) = tokio::io::duplex(1 << 20);
        let server = tokio::spawn(async move {
            if let Ok(running) = handler.serve(server_io).await {
                let _ = running.waiting().await;
            }
        });
        let (read, writer) = tokio::io::split(client_io);
        let mut client = RawClient {
            writer,
            lines: BufReader::new(read).lines(),
            next_id: 1,
            server,
        };
        let mut caps = serde_json::Map::new();
        if let Some(e) = elicitation {
            caps.insert("elicitation".into(), e);
        }
        let id = client
            .request(
                "initialize",
                json!({
                    "protocolVersion": "2025-11-25",
                    "capabilities": Value::Object(caps),
                    "clientInfo": {"name": "raw-test-client", "version": "0"}
                }),
            )
            .await;
        let reply = client.recv().await;
        assert_eq!(reply["id"], json!(id), "initialize reply: {reply}");
        assert!(reply.get("result").is_some(), "initialize failed: {reply}");
        client
            .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        client
    }

    pub async fn send(&mut self, message: Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.writer.write_all(line.as_bytes()).await.expect("write");
        self.writer.flush().await.expect("flush");
    }

    /// Sends a request; returns its id.
    pub async fn request(&mut self, method: &str, params: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        id
    }

    pub async fn call_tool(&mut self, name: &str, args: Value) -> u64 {
        self.request("tools/call", json!({"name": name, "arguments": args}))
            .await
    }

    /// The next message from the server.
    pub async fn recv(&mut self) -> Value {
        let line = tokio::time::timeout(WAIT, self.lines.next_line())
            .await
            .expect("timed out waiting for the server")
            .expect("read")
            .expect("the server closed the connection");
        serde_json::from_str(&line).expect("server sent invalid JSON")
    }

    /// The next message, or `None` if nothing arrives within `wait`.
    pub async fn try_recv(&mut self, wait: Duration) -> Option<Value> {
        match tokio::time::timeout(wait, self.lines.next_line()).await {
            Ok(Ok(Some(line))) => {
                Some(serde_json::from_str(&line).expect("server sent invalid JSON"))
            }
            _ => None,
        }
    }

    /// The next message, which must be an `elicitation/create` request.
    pub async fn expect_elicitation(&mut self) -> Value {
        let m = self.recv().await;
        assert_eq!(
            m["method"], "elicitation/create",
            "expected elicitation/create, got {m}"
        );
        m
    }

    /// Answers a server request.
    pub async fn reply(&mut self, request: &Value, result: Value) {
        self.send(json!({"jsonrpc": "2.0", "id": request["id"].clone(), "result": result}))
            .await;
    }

    /// The next message, which must be the response to request `id`.
    pub async fn expect_response(&mut self, id: u64) -> Value {
        let m = self.recv().await;
        assert_eq!(m["id"], json!(id), "expected the response to {id}, got {m}");
        m
    }

    /// Checks the connection is alive and nothing was queued before the ping answer.
    pub async fn ping_is_next(&mut self) {
        let id = self.request("ping", json!({})).await;
        let m = self.recv().await;
        assert_eq!(m["id"], json!(id), "expected only the ping answer, got {m}");
    }
    /// Calls `tool` with `args`; the call must fail with `data.kind == kind`. Returns the
    /// response.
    pub async fn call_fails_with(&mut self, tool: &str, args: Value, kind: &str) -> Value {
        let call = self.call_tool(tool, args).await;
        let resp = self.expect_response(call).await;
        assert_eq!(resp["error"]["data"]["kind"], kind, "{resp}");
        resp
    }

    /// Calls the `form` tool, answers its form with `reply`, and returns the tool's text.
    pub async fn answer_form(&mut self, reply: Value) -> String {
        let call = self.call_tool("form", json!({})).await;
        let req = self.expect_elicitation().await;
        self.reply(&req, reply).await;
        Self::tool_text(&self.expect_response(call).await)
    }

    /// The id of the first elicitation listed in a -32042 error response.
    pub fn required_id(response: &Value) -> String {
        response["error"]["data"]["elicitations"][0]["elicitationId"]
            .as_str()
            .expect("id")
            .to_owned()
    }

    /// The text of a successful tool result.
    pub fn tool_text(response: &Value) -> String {
        response["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("no tool text in {response}"))
            .to_owned()
    }
}

/// Waits until `hub` has `n` pending elicitations.
pub async fn wait_pending(hub: &Elicitations, n: usize) {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let count = hub.pending_count().await.expect("count");
        if count == n {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "pending count stayed {count}, expected {n}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}
