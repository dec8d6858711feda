//! `mcp-elicit conformance-client URL`: the client the official MCP conformance harness
//! drives (`conformance client --command "mcp-elicit conformance-client"`). The harness
//! appends its server URL and names the scenario in `MCP_CONFORMANCE_SCENARIO`.
//!
//! Scenarios: `initialize` (handshake and `tools/list`), `tools_call` (calls
//! `add_numbers`), `elicitation-sep1034-client-defaults` (calls
//! `test_client_elicitation_defaults` and accepts with the schema defaults filled in),
//! `sse-retry` (calls `test_reconnection`, relying on rmcp's SSE reconnection). Any other
//! scenario: handshake and `tools/list` only.

use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use mcp_elicit_client::rmcp::model::CallToolRequestParams;
use mcp_elicit_client::{
    Config, ElicitationClient, FormPolicy, ManualOpen, ScriptedUi, ServerTarget, UrlPolicy,
};
use mcp_elicit_core::message::Capability;
use serde_json::json;

use crate::cmd::call::{init_tracing, report_call_error};

/// `mcp-elicit conformance-client`.
#[derive(Debug, Args)]
pub(crate) struct ConformanceClientArgs {
    /// The server URL (appended by the harness).
    pub(crate) url: String,
}

/// Runs the scenario named by `MCP_CONFORMANCE_SCENARIO`.
pub(crate) fn run(args: ConformanceClientArgs) -> ExitCode {
    init_tracing();
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("conformance-client: cannot start the async runtime: {e}");
            return ExitCode::from(2);
        }
    };
    match runtime.block_on(async {
        tokio::time::timeout(Duration::from_secs(60), scenario_run(&scenario, &args.url)).await
    }) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(message)) => {
            eprintln!("conformance-client [{scenario}]: {message}");
            ExitCode::FAILURE
        }
        Err(_) => {
            eprintln!("conformance-client [{scenario}]: timed out");
            ExitCode::FAILURE
        }
    }
}

async fn scenario_run(scenario: &str, url: &str) -> Result<(), String> {
    let target: ServerTarget = url.parse().map_err(|e| format!("{e}"))?;
    let ui = ScriptedUi::new(
        Capability {
            form: true,
            url: true,
        },
        FormPolicy::AcceptDefaults,
        UrlPolicy::Never,
    );
    let client = ElicitationClient::new(ui, ManualOpen, Config::default());
    let connection = client
        .clone()
        .connect(&target)
        .await
        .map_err(|e| e.to_string())?;
    let peer = connection.peer().clone();
    let tools = peer
        .list_all_tools()
        .await
        .map_err(|e| format!("tools/list failed: {e}"))?;
    let call = |name: &str, arguments: serde_json::Value| {
        let mut params = CallToolRequestParams::new(name.to_owned());
        if let Some(map) = arguments.as_object() {
            params = params.with_arguments(map.clone());
        }
        params
    };
    let has = |name: &str| tools.iter().any(|t| t.name == name);
    let params = match scenario {
        "tools_call" if has("add_numbers") => Some(call("add_numbers", json!({"a": 5, "b": 3}))),
        "elicitation-sep1034-client-defaults" => {
            Some(call("test_client_elicitation_defaults", json!({})))
        }
        "sse-retry" => Some(call("test_reconnection", json!({}))),
        _ => None,
    };
    let mut outcome = Ok(());
    if let Some(params) = params {
        match client.call_tool(&peer, params).await {
            Ok(result) => println!("{}", serde_json::to_string(&result).unwrap_or_default()),
            Err(e) => {
                report_call_error(&e);
                outcome = Err(format!("tools/call failed: {e}"));
            }
        }
    }
    let _ = connection.cancel().await;
    let failures = client.ui().failures();
    if outcome.is_ok() && !failures.is_empty() {
        outcome = Err(failures.join("; "));
    }
    outcome
}
