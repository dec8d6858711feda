//! 2026-07-28 fixtures: a server whose tools ask through [`Ask`] (so the same code runs
//! on both revisions), served behind [`Edge`] over an in-memory pipe, and a raw client
//! that sends 2026-07-28 requests (`_meta` with version and capabilities, no
//! `initialize`) and sees every byte the server sends.

use std::sync::Arc;

use mcp_elicit_core::schema::Schema;
use mcp_elicit_server::{
    Ask, ElicitationConfig, Elicitations, FormOutcome, IdentityPolicy, MemoryStore, Principal,
    SessionScope, StateKeys, Stop, UrlElicitation, UrlOutcome, respond, respond_tool,
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

use super::{ManualClock, WAIT};

/// The same 32-byte key on every "node" of a test.
pub const KEY_FILE: &str = "k1 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

/// A handle schema with `pattern`, `minLength` and a default.
pub fn handle_schema() -> Value {
    json!({
        "type": "object",
        "properties": {"handle": {"type": "string", "title": "Handle", "minLength": 3,
                                  "pattern": "^[a-z]+$", "default": "ferris"}},
        "required": ["handle"]
    })
}

fn string_schema(name: &str) -> Schema {
    Schema::parse(
        &json!({"type": "object", "properties": {name: {"type": "string"}}, "required": [name]}),
    )
    .expect("schema")
}

/// A registry for local user `user`, state keys from [`KEY_FILE`], time from `clock`.
pub fn rounds_hub(user: &str, clock: Arc<ManualClock>) -> Elicitations {
    rounds_hub_with(user, clock, |c| c)
}

/// [`rounds_hub`] with its configuration changed by `edit`.
pub fn rounds_hub_with(
    user: &str,
    clock: Arc<ManualClock>,
    edit: impl FnOnce(ElicitationConfig) -> ElicitationConfig,
) -> Elicitations {
    let config = ElicitationConfig::new(IdentityPolicy::LocalUser(Principal::local_user(user)))
        .with_state_keys(StateKeys::parse(KEY_FILE).expect("keys"));
    Elicitations::with_store(edit(config), Arc::new(MemoryStore::new()), clock)
}

/// Tools written once with [`Ask`].
pub struct AskServer {
    pub scope: SessionScope,
}

fn text(t: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(t)])
}

fn outcome_text(o: &FormOutcome<serde_json::Map<String, Value>>) -> String {
    match o {
        FormOutcome::Accepted(c) => format!("accepted {}", Value::Object(c.clone())),
        FormOutcome::Declined => "declined".into(),
        FormOutcome::Cancelled => "cancelled".into(),
    }
}

impl AskServer {
    async fn run(
        &self,
        request: &CallToolRequestParams,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<CallToolResult, Stop> {
        let mut ask: Ask = self.scope.ask(ctx, request).await?;
        match request.name.as_ref() {
            "handle" => {
                let schema = Schema::parse(&handle_schema()).expect("schema");
                let o = ask
                    .form_with_schema("profile", "Pick a handle", &schema)
                    .await?;
                Ok(text(outcome_text(&o)))
            }
            "pair" => {
                let mut q = ask.questions();
                let a = q.form_with_schema("first", "First name?", &string_schema("first"))?;
                let b = q.form_with_schema("last", "Last name?", &string_schema("last"))?;
                let mut answers = q.ask().await?;
                let (a, b) = (answers.content(a)?, answers.content(b)?);
                Ok(text(format!("{} / {}", outcome_text(&a), outcome_text(&b))))
            }
            "steps" => {
                let a = ask
                    .form_with_schema("step1", "Name?", &string_schema("name"))
                    .await?;
                let b = ask
                    .form_with_schema("step2", "Colour?", &string_schema("color"))
                    .await?;
                Ok(text(format!(
                    "{} then {}",
                    outcome_text(&a),
                    outcome_text(&b)
                )))
            }
            "connect" => {
                let outcome = ask
                    .url("connect", || async {
                        Ok(UrlElicitation::new("Connect your account", |id| {
                            format!("https://mcp.example.com/connect?elicitationId={id}")
                        })?
                        .with_app_data(json!({"provider": "example"})))
                    })
                    .await?;
                Ok(text(match outcome {
                    UrlOutcome::Completed => "completed",
                    UrlOutcome::Declined => "declined",
                    UrlOutcome::Cancelled => "cancelled",
                    _ => "other",
                }))
            }
            "accepted" => {
                // The user's decline, cancel or invalid answer becomes a tool result
                // (respond_tool, below).
                let schema = Schema::parse(&handle_schema()).expect("schema");
                let content = ask
                    .form_with_schema("profile", "Pick a handle", &schema)
                    .await?
                    .accepted()?;
                Ok(text(format!("accepted {}", Value::Object(content))))
            }
            "legacy_required" => {
                // A tool written the 2025 way only: the edge must never let -32042 out.
                let e = UrlElicitation::new("x", |id| {
                    format!("https://mcp.example.com/c?elicitationId={id}")
                })?;
                Err(ask.elicitor().url_required(&[e]).await.into())
            }
            _ => Err(ErrorData::invalid_params("unknown tool", None).into()),
        }
    }
}

impl ServerHandler for AskServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    fn supported_protocol_versions(&self) -> std::borrow::Cow<'static, [ProtocolVersion]> {
        std::borrow::Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2026_07_28))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name == "accepted" {
            return respond_tool(self.run(&request, &context).await);
        }
        respond(self.run(&request, &context).await)
    }
}

/// A raw 2026-07-28 client over an in-memory pipe to an [`AskServer`] behind the edge.
pub struct Rounds {
    writer: WriteHalf<DuplexStream>,
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    next_id: u64,
    /// The `clientCapabilities` sent with every request.
    pub caps: Value,
}

impl Rounds {
    pub fn connect(hub: &Elicitations) -> Rounds {
        let (client_io, server_io) = tokio::io::duplex(1 << 20);
        let server = mcp_elicit_server::Edge::new(AskServer {
            scope: hub.scope().expect("scope"),
        });
        tokio::spawn(async move {
            let (read, write) = tokio::io::split(server_io);
            if let Ok(running) = server
                .serve(mcp_elicit_server::wire::edge_rw(read, write))
                .await
            {
                let _ = running.waiting().await;
            }
        });
        let (read, writer) = tokio::io::split(client_io);
        Rounds {
            writer,
            lines: BufReader::new(read).lines(),
            next_id: 1,
            caps: json!({"elicitation": {"form": {}, "url": {}}}),
        }
    }

    /// Calls `tool` with `extra` params (`inputResponses`, `requestState`, `arguments`)
    /// and returns the JSON-RPC response.
    pub async fn call(&mut self, tool: &str, extra: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let mut params = json!({
            "name": tool,
            "arguments": {},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": self.caps,
                "io.modelcontextprotocol/clientInfo": {"name": "rounds-test", "version": "0"}
            }
        });
        if let (Value::Object(p), Value::Object(e)) = (&mut params, extra) {
            p.extend(e);
        }
        let line = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
            .to_string()
            + "\n";
        self.writer.write_all(line.as_bytes()).await.expect("write");
        self.writer.flush().await.expect("flush");
        let line = tokio::time::timeout(WAIT, self.lines.next_line())
            .await
            .expect("timed out waiting for the server")
            .expect("read")
            .expect("the server closed the connection");
        let reply: Value = serde_json::from_str(&line).expect("json");
        assert_eq!(reply["id"], json!(id), "{reply}");
        reply
    }

    /// A round's result (panics on anything else).
    pub fn round(reply: &Value) -> &Value {
        let r = &reply["result"];
        assert_eq!(r["resultType"], "input_required", "{reply}");
        r
    }

    /// The text of a complete tool result (panics on anything else).
    pub fn done(reply: &Value) -> String {
        let r = &reply["result"];
        assert_eq!(r["resultType"], "complete", "{reply}");
        r["content"][0]["text"].as_str().expect("text").to_owned()
    }

    /// The JSON-RPC error `(code, message)` (panics on a result).
    pub fn error(reply: &Value) -> (i64, String) {
        let e = &reply["error"];
        assert!(e.is_object(), "expected an error: {reply}");
        (
            e["code"].as_i64().expect("code"),
            e["message"].as_str().unwrap_or_default().to_owned(),
        )
    }
}
