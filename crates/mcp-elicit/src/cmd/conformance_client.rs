//! `mcp-elicit conformance-client URL`: the client the official MCP conformance harness
//! drives (`conformance client --command "mcp-elicit conformance-client"`). The harness
//! appends its server URL, names the scenario in `MCP_CONFORMANCE_SCENARIO`, the revision
//! under test in `MCP_CONFORMANCE_PROTOCOL_VERSION` (the client speaks exactly that one)
//! and, for some scenarios, the calls to make in `MCP_CONFORMANCE_CONTEXT`
//! (`{"toolCalls": [{"name", "arguments"}]}`).
//!
//! Every scenario lists the tools first. Then: `tools_call` calls `add_numbers`;
//! `elicitation-sep1034-client-defaults` calls `test_client_elicitation_defaults` and
//! accepts with the schema defaults; `sse-retry` calls `test_reconnection` (rmcp's SSE
//! reconnection); `sep-2322-client-request-state` calls its four `test_mrtr_*` tools (the
//! input rounds are driven by [`ElicitationClient::call_tool`]); `http-standard-headers`
//! calls each tool and reads the first resource and prompt; `http-invalid-tool-headers`
//! calls every tool left after the invalid ones were dropped; and
//! `json-schema-2020-12-preservation` echoes the focal tool's `inputSchema`, exactly as
//! received, to `json_schema_echo`. The context's tool calls, when given, are made too.
//!
//! `auth/*` scenarios connect with an [`Authorizer`] (see [`authorizer`]) and call every
//! tool listed: the suite's server answers 401 on the first request and 403
//! `insufficient_scope` where a scenario tests step-up.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use mcp_elicit_client::auth::{AuthConfig, Authorizer, HeadlessRedirect, MemoryTokenStore};
use mcp_elicit_client::rmcp::model::{
    CallToolRequestParams, GetPromptRequestParams, ReadResourceRequestParams, Tool,
};
use mcp_elicit_client::{
    Config, ElicitationClient, FormPolicy, ManualOpen, ProtocolChoice, ScriptedUi, ServerTarget,
    UrlPolicy,
};
use mcp_elicit_core::message::Capability;
use serde_json::{Map, Value, json};

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

/// The revision named by the harness (`MCP_CONFORMANCE_PROTOCOL_VERSION`).
fn protocol_from_env() -> ProtocolChoice {
    std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_default()
}

/// The tool calls in `MCP_CONFORMANCE_CONTEXT`.
fn context_calls() -> Vec<(String, Value)> {
    let Some(context) = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|c| serde_json::from_str::<Value>(&c).ok())
    else {
        return Vec::new();
    };
    context["toolCalls"]
        .as_array()
        .map(|calls| {
            calls
                .iter()
                .filter_map(|c| {
                    let name = c["name"].as_str()?.to_owned();
                    Some((name, c["arguments"].clone()))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Arguments that satisfy a tool's `required` properties by type (for tools the harness
/// only wants to see called).
fn sample_arguments(tool: &Tool) -> Value {
    let schema = &tool.input_schema;
    let mut args = Map::new();
    let properties = schema.get("properties").and_then(Value::as_object);
    for name in schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        let kind = properties
            .and_then(|p| p.get(name))
            .and_then(|p| p.get("type"))
            .and_then(Value::as_str);
        let value = match kind {
            Some("integer") => json!(1),
            Some("number") => json!(1.5),
            Some("boolean") => json!(true),
            Some("object") => json!({}),
            Some("array") => json!([]),
            _ => json!("us-west1"),
        };
        args.insert(name.to_owned(), value);
    }
    Value::Object(args)
}

/// The Client ID Metadata Document URL the `auth/basic-cimd` scenario expects.
const CONFORMANCE_CIMD_URL: &str = "https://conformance-test.local/client-metadata.json";

/// The authorization of the `auth/*` scenarios: headless (the suite's authorization
/// endpoint redirects at once; the code is read from `Location`, nothing listens on the
/// redirect URI), the suite's Client ID Metadata Document URL, and the pre-registered
/// client from `MCP_CONFORMANCE_CONTEXT` (`client_id`, `client_secret`) when given.
fn authorizer(url: &str) -> Result<Authorizer, String> {
    let mut config = AuthConfig::new("mcp-elicit conformance client")
        .with_client_metadata_url(CONFORMANCE_CIMD_URL);
    let context = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|c| serde_json::from_str::<Value>(&c).ok())
        .unwrap_or(Value::Null);
    if let Some(id) = context["client_id"].as_str() {
        let secret = context["client_secret"].as_str().map(str::to_owned);
        config = config.with_preregistered(id, secret);
    }
    Authorizer::new(
        url,
        config,
        Arc::new(MemoryTokenStore::default()),
        Arc::new(HeadlessRedirect::new("http://localhost:3000/callback")),
    )
    .map_err(|e| e.to_string())
}

fn call_params(name: &str, arguments: &Value) -> CallToolRequestParams {
    let mut params = CallToolRequestParams::new(name.to_owned());
    if let Some(map) = arguments.as_object() {
        params = params.with_arguments(map.clone());
    }
    params
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
    let mut config = Config::default().with_protocol(protocol_from_env());
    let auth = if scenario.starts_with("auth/") {
        Some(Arc::new(authorizer(url)?))
    } else {
        None
    };
    if let Some(auth) = &auth {
        config = config.with_authorizer(auth.clone());
    }
    let client = ElicitationClient::new(ui, ManualOpen, config);
    let connection = client.clone().connect(&target).await.map_err(|e| {
        // A failed sign-in: its own error (server and problem), not the transport's.
        match auth.as_ref().and_then(|a| a.last_error()) {
            Some(auth_error) => auth_error.to_string(),
            None => e.to_string(),
        }
    })?;
    let peer = connection.peer().clone();
    let tools = peer
        .list_all_tools()
        .await
        .map_err(|e| format!("tools/list failed: {e}"))?;
    let has = |name: &str| tools.iter().any(|t| t.name == name);
    let mut calls: Vec<(String, Value)> = match scenario {
        "tools_call" if has("add_numbers") => vec![("add_numbers".into(), json!({"a": 5, "b": 3}))],
        "elicitation-sep1034-client-defaults" => {
            vec![("test_client_elicitation_defaults".into(), json!({}))]
        }
        "sse-retry" => vec![("test_reconnection".into(), json!({}))],
        "sep-2322-client-request-state" => [
            "test_mrtr_echo_state",
            "test_mrtr_unrelated",
            "test_mrtr_no_state",
            "test_mrtr_no_result_type",
        ]
        .iter()
        .filter(|n| has(n))
        .map(|n| ((*n).to_owned(), json!({})))
        .collect(),
        s if s.starts_with("auth/") => tools
            .iter()
            .map(|t| (t.name.to_string(), sample_arguments(t)))
            .collect(),
        "http-standard-headers" | "http-invalid-tool-headers" => tools
            .iter()
            .map(|t| (t.name.to_string(), sample_arguments(t)))
            .collect(),
        "json-schema-2020-12-preservation" => {
            match tools.iter().find(|t| t.name != "json_schema_echo") {
                Some(focal) if has("json_schema_echo") => vec![(
                    "json_schema_echo".into(),
                    json!({"schema": Value::Object((*focal.input_schema).clone())}),
                )],
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    };
    for call in context_calls() {
        if !calls.iter().any(|(n, _)| *n == call.0) {
            calls.push(call);
        }
    }
    let mut outcome = Ok(());
    for (name, arguments) in &calls {
        match client.call_tool(&peer, call_params(name, arguments)).await {
            Ok(result) => println!("{}", serde_json::to_string(&result).unwrap_or_default()),
            Err(e) => {
                report_call_error(&e);
                outcome = Err(format!("tools/call {name} failed: {e}"));
            }
        }
    }
    if scenario == "http-standard-headers" {
        // Mcp-Name on resources/read and prompts/get too.
        if let Ok(resources) = peer.list_all_resources().await
            && let Some(first) = resources.first()
        {
            let _ = peer
                .read_resource(ReadResourceRequestParams::new(first.uri.clone()))
                .await;
        }
        if let Ok(prompts) = peer.list_all_prompts().await
            && let Some(first) = prompts.first()
        {
            let _ = peer
                .get_prompt(GetPromptRequestParams::new(first.name.clone()))
                .await;
        }
    }
    let _ = connection.cancel().await;
    let failures = client.ui().failures();
    if outcome.is_ok() && !failures.is_empty() {
        outcome = Err(failures.join("; "));
    }
    outcome
}
