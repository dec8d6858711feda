//! The upstream's progress reaches the client before the result it preceded.
//!
//! rmcp runs each incoming notification in a task of its own and hands a response straight
//! to the request waiting on it, so a proxy built on it can pass the result on before the
//! last progress notification. The conformance suite's `tools-call-with-progress` saw that
//! through the proxy about one run in ten on a busy machine (two of three notifications).
//! Here an upstream sends a burst of progress just before each result, and the test reads
//! the proxy's SSE stream as the wire carries it.

mod proxy_common;

use std::borrow::Cow;

use proxy_common::{WAIT, start_in_process, start_proxy, tool_list};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ProtocolVersion,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler};
use serde_json::{Value, json};

/// Progress notifications the upstream sends before each result.
const BURST: usize = 25;

/// A 2025-11-25 upstream whose `burst` tool reports progress `BURST` times, then answers.
#[derive(Debug, Clone, Default)]
struct Burst;

impl ServerHandler for Burst {
    fn get_info(&self) -> ServerConfig {
        let mut info = ServerConfig::default();
        info.capabilities = ServerCapabilities::builder().enable_tools().build();
        info
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2025_11_25))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(tool_list(&["burst"]))
    }

    async fn call_tool(
        &self,
        _request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let token = context
            .meta
            .get_progress_token()
            .ok_or_else(|| ErrorData::invalid_params("no progress token", None))?;
        for step in 1..=BURST {
            let params =
                ProgressNotificationParam::new(token.clone(), step as f64).with_total(BURST as f64);
            context
                .peer
                .notify_progress(params)
                .await
                .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        }
        Ok(CallToolResponse::Complete(CallToolResult::success(vec![
            ContentBlock::text("done"),
        ])))
    }
}

/// The JSON-RPC messages of a Streamable HTTP response body, in order.
fn messages(body: &str) -> Vec<Value> {
    if let Ok(one) = serde_json::from_str::<Value>(body) {
        return vec![one];
    }
    body.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| serde_json::from_str(d).unwrap_or_else(|e| panic!("{e}: {d}")))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_progress_reaches_the_client_before_the_result() {
    let upstream = start_in_process(Burst).await;
    let (proxy, url) = start_proxy(&upstream, &[]);
    let http = reqwest::Client::builder().timeout(WAIT).build().unwrap();
    let post = |session: Option<&str>, body: Value| {
        let mut r = http
            .post(&url)
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-11-25")
            .json(&body);
        if let Some(s) = session {
            r = r.header("mcp-session-id", s);
        }
        r.send()
    };
    let init = post(
        None,
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}}),
    )
    .await
    .expect("initialize");
    let session = init.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let _ = init.text().await;
    let initialized = post(
        Some(&session),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await
    .expect("initialized");
    assert_eq!(initialized.status().as_u16(), 202);

    for call in 1..=12 {
        let token = format!("p-{call}");
        let body = post(
            Some(&session),
            json!({"jsonrpc": "2.0", "id": call, "method": "tools/call", "params": {
                "name": "burst", "arguments": {}, "_meta": {"progressToken": token}}}),
        )
        .await
        .expect("tools/call")
        .text()
        .await
        .expect("the call's body");
        let messages = messages(&body);
        let progress: Vec<f64> = messages
            .iter()
            .filter(|m| m["method"] == "notifications/progress")
            .map(|m| {
                assert_eq!(m["params"]["progressToken"], json!(token), "{m}");
                m["params"]["progress"].as_f64().expect("a number")
            })
            .collect();
        let last = messages.last().expect("a message");
        assert_eq!(
            last["id"],
            json!(call),
            "call {call}: the result comes last\n{body}\nproxy: {}",
            proxy.log()
        );
        assert_eq!(last["result"]["content"][0]["text"], "done", "{body}");
        let want: Vec<f64> = (1..=BURST).map(|s| s as f64).collect();
        assert_eq!(
            progress, want,
            "call {call}: every progress, in order, before the result\n{body}"
        );
    }
}
