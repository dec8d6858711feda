//! A small rmcp server for trying `mcp-elicit call` and the client by hand, over stdio.
//!
//! ```text
//! cargo build -p mcp-elicit-client --example demo_server
//! mcp-elicit call stdio:target/debug/examples/demo_server profile --respond accept-defaults
//! ```
//!
//! Tools:
//! - `profile`: asks a form (name default "Ada", age default 36, email required, pattern
//!   on `handle`); returns what it got, `isError: true` unless accepted.
//! - `raw`: sends `arguments.params` as `elicitation/create` params verbatim and returns
//!   the client's answer or error.
//! - `connect`: fails with -32042 until its URL elicitation completes; the completion is
//!   sent two seconds after the client accepts (simulating the out-of-band page).
//! - `copy`: reports progress (`notifications/progress`) twice a second for ten seconds,
//!   then succeeds; stops early when the client cancels the request.
//! - `fail`: returns `isError: true`.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_elicit_client::rmcp;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomNotification,
    CustomRequest, ErrorCode, ErrorData, Implementation, ListToolsResult, PaginatedRequestParams,
    ProgressNotificationParam, ProtocolVersion, ServerCapabilities, ServerConfig,
    ServerNotification, ServerRequest, Tool,
};
use rmcp::service::{RequestContext, ServiceError};
use rmcp::{RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};

#[derive(Clone, Default)]
struct Demo {
    done: Arc<Mutex<HashSet<String>>>,
}

async fn elicit(context: &RequestContext<RoleServer>, params: Value) -> Value {
    let request =
        ServerRequest::CustomRequest(CustomRequest::new("elicitation/create", Some(params)));
    match context.peer.send_request(request).await {
        Ok(r) => json!({"result": r}),
        Err(ServiceError::McpError(e)) => {
            json!({"error": {"code": e.code.0, "message": e.message, "data": e.data}})
        }
        Err(e) => json!({"failed": e.to_string()}),
    }
}

fn text(v: &Value, is_error: bool) -> CallToolResult {
    let content = vec![ContentBlock::text(v.to_string())];
    if is_error {
        CallToolResult::error(content)
    } else {
        CallToolResult::success(content)
    }
}

impl ServerHandler for Demo {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_server_info(
            Implementation::new("demo-server", "1.0.0").with_title("mcp-elicit demo"),
        )
    }

    /// It elicits the 2025-11-25 way (server-to-client requests), which 2026-07-28 does not
    /// allow: say so in `server/discover`, and clients fall back to `initialize`.
    fn supported_protocol_versions(&self) -> std::borrow::Cow<'static, [ProtocolVersion]> {
        std::borrow::Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2025_11_25))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let no_args = Arc::new(
            json!({"type": "object", "properties": {}})
                .as_object()
                .cloned()
                .unwrap_or_default(),
        );
        let tool = |name: &'static str, description: &'static str| {
            Tool::new(name, description, no_args.clone())
        };
        Ok(ListToolsResult::with_all_items(vec![
            tool("profile", "Asks for your profile through a form."),
            tool(
                "connect",
                "Fails with -32042 until its URL elicitation completes.",
            ),
            tool("copy", "Copies 20 files, reporting progress as it goes."),
            tool("fail", "Always fails."),
        ]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = Value::Object(request.arguments.clone().unwrap_or_default());
        let result = match request.name.as_ref() {
            "profile" => {
                let params = json!({"mode": "form", "message": "Tell us about you", "requestedSchema": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "default": "Ada"},
                        "age": {"type": "integer", "minimum": 0, "default": 36},
                        "email": {"type": "string", "format": "email"},
                        "handle": {"type": "string", "pattern": "^[a-z0-9_]{3,15}$"}
                    },
                    "required": ["name", "email"]
                }});
                let answer = elicit(&context, params).await;
                let accepted = answer["result"]["action"] == "accept";
                text(&answer, !accepted)
            }
            "raw" => text(&elicit(&context, args["params"].clone()).await, false),
            "connect" => {
                let id = args["id"].as_str().unwrap_or("demo-1").to_owned();
                if self.done.lock().map(|d| d.contains(&id)).unwrap_or(false) {
                    text(&json!({"connected": id}), false)
                } else {
                    // Pretend the user finishes the page two seconds from now.
                    let done = self.done.clone();
                    let peer = context.peer.clone();
                    let done_id = id.clone();
                    tokio::spawn(async move {
                        tokio::time::sleep(Duration::from_secs(2)).await;
                        if let Ok(mut d) = done.lock() {
                            d.insert(done_id.clone());
                        }
                        let n = CustomNotification::new(
                            "notifications/elicitation/complete",
                            Some(json!({"elicitationId": done_id})),
                        );
                        let _ = peer
                            .send_notification(ServerNotification::CustomNotification(n))
                            .await;
                    });
                    return Err(ErrorData::new(
                        ErrorCode(-32042),
                        "This request requires more information.",
                        Some(json!({"elicitations": [{
                            "mode": "url",
                            "elicitationId": id,
                            "url": format!("https://auth.example.com/connect?elicitationId={id}"),
                            "message": "Connect your Example account."
                        }]})),
                    ));
                }
            }
            "copy" => {
                let Some(token) = context.meta.get_progress_token() else {
                    return Err(ErrorData::invalid_params("no progress token", None));
                };
                for i in 1..=20u32 {
                    tokio::select! {
                        () = context.ct.cancelled() => return Ok(text(&json!("cancelled"), true).into()),
                        () = tokio::time::sleep(Duration::from_millis(500)) => {}
                    }
                    let mut p = ProgressNotificationParam::new(token.clone(), f64::from(i));
                    p.total = Some(20.0);
                    p.message = Some(format!("Copying file {i} of 20"));
                    let _ = context.peer.notify_progress(p).await;
                }
                text(&json!("copied 20 files"), false)
            }
            "fail" => text(&json!("this tool always fails"), true),
            other => {
                return Err(ErrorData::invalid_params(
                    format!("unknown tool {other}"),
                    None,
                ));
            }
        };
        Ok(result.into())
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let running = Demo::default()
        .serve((tokio::io::stdin(), tokio::io::stdout()))
        .await?;
    running.waiting().await?;
    Ok(())
}
