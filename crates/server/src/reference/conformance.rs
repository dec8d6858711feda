//! The elicitation and input-round tools the official conformance suite
//! (`@modelcontextprotocol/conformance`) calls: the 2025-11-25 elicitation fixtures
//! (which also work on 2026-07-28, through rounds) and the 0.2 line's 2026-07-28
//! `test_input_required_result_*` fixtures (which also work on 2025-11-25, through
//! server requests). Each is written once with [`Ask`].

use std::sync::Arc;

use mcp_elicit_core::message::METHOD_CREATE;
use mcp_elicit_core::schema::Schema;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ContentBlock, GetPromptRequestParams, GetPromptResult,
    JsonObject, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::{Value, json};

use super::schemas;
use crate::ask::{Ask, METHOD_ROOTS, METHOD_SAMPLING};
use crate::elicitor::FormOutcome;
use crate::error::{Error, ErrorKind};
use crate::hub::SessionScope;
use crate::respond::Stop;

/// The prompt of the `input-required-result-non-tool-request` scenario.
pub(super) const MRTR_PROMPT: &str = "test_input_required_result_prompt";

fn schema(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => Arc::new(JsonObject::new()),
    }
}

fn no_args() -> Arc<JsonObject> {
    schema(json!({"type": "object", "properties": {}}))
}

pub(super) fn definitions() -> Vec<Tool> {
    let mut tools = vec![
        Tool::new(
            "test_elicitation",
            "Requests user input (username and email) from the client through elicitation/create.",
            schema(json!({
                "type": "object",
                "properties": {"message": {"type": "string", "description": "The message to show the user"}},
                "required": ["message"]
            })),
        ),
        Tool::new(
            "test_elicitation_sep1034_defaults",
            "Requests a form whose fields all carry default values (SEP-1034).",
            no_args(),
        ),
        Tool::new(
            "test_elicitation_sep1330_enums",
            "Requests a form with the five enum shapes (SEP-1330).",
            no_args(),
        ),
    ];
    for (name, description) in [
        (
            "test_input_required_result_elicitation",
            "Asks the user's name (one input request).",
        ),
        (
            "test_input_required_result_sampling",
            "Asks the client's model a question (sampling).",
        ),
        (
            "test_input_required_result_list_roots",
            "Asks the client for its roots.",
        ),
        (
            "test_input_required_result_request_state",
            "Asks for a confirmation; the retry checks the sealed requestState.",
        ),
        (
            "test_input_required_result_multiple_inputs",
            "Asks a form, a sampling and the roots in one round.",
        ),
        (
            "test_input_required_result_multi_round",
            "Asks a name, then a colour, in two rounds.",
        ),
        (
            "test_input_required_result_tampered_state",
            "Asks for a confirmation; a tampered requestState is refused.",
        ),
        (
            "test_input_required_result_capabilities",
            "Asks only for what the request's capabilities declare.",
        ),
        (
            "test_missing_capability",
            "Needs the sampling capability: -32021 when the request does not declare it.",
        ),
        (
            "test_streaming_elicitation",
            "Asks a form: a round on 2026-07-28, never a request on the stream.",
        ),
        (
            "test_logging_tool",
            "Logs three messages, only when the request asks for a log level.",
        ),
    ] {
        tools.push(Tool::new(name, description, no_args()));
    }
    tools
}

fn parse(value: Value) -> Result<Schema, Error> {
    Schema::parse(&value).map_err(|e| Error::core(ErrorKind::InvalidSchema, "built-in schema", e))
}

fn one_string(name: &str) -> Result<Schema, Error> {
    parse(json!({"type": "object", "properties": {name: {"type": "string"}}, "required": [name]}))
}

fn confirm() -> Result<Schema, Error> {
    parse(json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}))
}

fn text(t: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(t)])
}

fn sampling(prompt: &str, max_tokens: u32) -> Value {
    json!({
        "messages": [{"role": "user", "content": {"type": "text", "text": prompt}}],
        "maxTokens": max_tokens
    })
}

fn sampled_text(answer: &Value) -> String {
    answer["content"]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

fn root_uris(answer: &Value) -> Vec<String> {
    answer["roots"]
        .as_array()
        .map(|roots| {
            roots
                .iter()
                .filter_map(|r| r["uri"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// `accept` content as a string field, or the action's name.
fn field(outcome: &FormOutcome<serde_json::Map<String, Value>>, name: &str) -> String {
    match outcome {
        FormOutcome::Accepted(c) => match c.get(name) {
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
            None => String::new(),
        },
        FormOutcome::Declined => "(declined)".into(),
        FormOutcome::Cancelled => "(cancelled)".into(),
    }
}

/// Runs the conformance tool of `request`; `None` when it is not one.
pub(super) async fn call(
    scope: &SessionScope,
    request: &CallToolRequestParams,
    args: &JsonObject,
    ctx: &RequestContext<RoleServer>,
) -> Option<Result<CallToolResult, Stop>> {
    // The names, listed once per process (not the whole definitions on every call).
    static NAMES: std::sync::LazyLock<Vec<std::borrow::Cow<'static, str>>> =
        std::sync::LazyLock::new(|| definitions().into_iter().map(|t| t.name).collect());
    let name = request.name.as_ref();
    if !NAMES.iter().any(|n| n == name) {
        return None;
    }
    Some(run(scope, request, name, args, ctx).await)
}

async fn run(
    scope: &SessionScope,
    request: &CallToolRequestParams,
    name: &str,
    args: &JsonObject,
    ctx: &RequestContext<RoleServer>,
) -> Result<CallToolResult, Stop> {
    let had_state = request.request_state.is_some();
    let mut ask = scope.ask(ctx, request).await?;
    match name {
        "test_elicitation" => {
            let Some(Value::String(message)) = args.get("message") else {
                return Err(
                    ErrorData::invalid_params("`message` (a string) is required", None).into(),
                );
            };
            let schema = schemas::conformance_basic()?;
            legacy_line(&mut ask, message, &schema, "User response").await
        }
        "test_elicitation_sep1034_defaults" => {
            let schema = schemas::conformance_defaults()?;
            legacy_line(
                &mut ask,
                "Please review and update the form fields with defaults",
                &schema,
                "Elicitation completed",
            )
            .await
        }
        "test_elicitation_sep1330_enums" => {
            let schema = schemas::conformance_enums()?;
            legacy_line(
                &mut ask,
                "Please select options from the enum fields",
                &schema,
                "Elicitation completed",
            )
            .await
        }
        "test_input_required_result_elicitation" => {
            let outcome = ask
                .form_with_schema("user_name", "What is your name?", &one_string("name")?)
                .await?;
            Ok(text(format!("Hello, {}!", field(&outcome, "name"))))
        }
        "test_input_required_result_sampling" => {
            let mut q = ask.questions();
            let t = q.request(
                "capital_question",
                METHOD_SAMPLING,
                sampling("What is the capital of France?", 100),
            )?;
            let answer = q.ask().await?.value(t)?;
            Ok(text(format!("LLM response: {}", sampled_text(&answer))))
        }
        "test_input_required_result_list_roots" => {
            let mut q = ask.questions();
            let t = q.request("client_roots", METHOD_ROOTS, json!({}))?;
            let answer = q.ask().await?.value(t)?;
            Ok(text(format!("Roots: {}", root_uris(&answer).join(", "))))
        }
        "test_input_required_result_request_state"
        | "test_input_required_result_tampered_state" => {
            let outcome = ask
                .form_with_schema("confirm", "Please confirm", &confirm()?)
                .await?;
            // Reaching here on a retry means the echoed state opened: sealed by this
            // server, for this user, tool and arguments, and not expired.
            let state = if had_state { "state-ok" } else { "no state" };
            Ok(text(format!(
                "Confirmed: {} ({state})",
                field(&outcome, "ok")
            )))
        }
        "test_input_required_result_multiple_inputs" => {
            let mut q = ask.questions();
            let name =
                q.form_with_schema("user_name", "What is your name?", &one_string("name")?)?;
            let greeting = q.request(
                "greeting",
                METHOD_SAMPLING,
                sampling("Generate a greeting", 50),
            )?;
            let roots = q.request("client_roots", METHOD_ROOTS, json!({}))?;
            let mut answers = q.ask().await?;
            let name = answers.content(name)?;
            let greeting = answers.value(greeting)?;
            let roots = answers.value(roots)?;
            Ok(text(format!(
                "{} Hello, {}! Roots: {}",
                sampled_text(&greeting),
                field(&name, "name"),
                root_uris(&roots).join(", ")
            )))
        }
        "test_input_required_result_multi_round" => {
            let name = ask
                .form_with_schema("step1", "Step 1: What is your name?", &one_string("name")?)
                .await?;
            let color = ask
                .form_with_schema(
                    "step2",
                    "Step 2: What is your favorite color?",
                    &one_string("color")?,
                )
                .await?;
            Ok(text(format!(
                "{} likes {}.",
                field(&name, "name"),
                field(&color, "color")
            )))
        }
        "test_input_required_result_capabilities" => {
            // Only what this very request declares.
            let mut q = ask.questions();
            let mut asked = Vec::new();
            if q_declares(&q, METHOD_SAMPLING) {
                let _ticket = q.request(
                    "greeting",
                    METHOD_SAMPLING,
                    sampling("Generate a greeting", 50),
                )?;
                asked.push(METHOD_SAMPLING);
            }
            if q_declares(&q, METHOD_CREATE) {
                let _ticket =
                    q.form_with_schema("user_name", "What is your name?", &one_string("name")?)?;
                asked.push(METHOD_CREATE);
            }
            if q_declares(&q, METHOD_ROOTS) {
                let _ticket = q.request("client_roots", METHOD_ROOTS, json!({}))?;
                asked.push(METHOD_ROOTS);
            }
            q.ask().await?;
            Ok(text(format!("Asked for: {}", asked.join(", "))))
        }
        "test_missing_capability" => {
            let mut q = ask.questions();
            let t = q.request(
                "greeting",
                METHOD_SAMPLING,
                sampling("Generate a greeting", 50),
            )?;
            let answer = q.ask().await?.value(t)?;
            Ok(text(format!("LLM response: {}", sampled_text(&answer))))
        }
        "test_streaming_elicitation" => {
            let outcome = ask
                .form_with_schema("user_name", "What is your name?", &one_string("name")?)
                .await?;
            Ok(text(format!("Hello, {}!", field(&outcome, "name"))))
        }
        "test_logging_tool" => log_three(&ask, ctx).await,
        _ => Err(ErrorData::invalid_params(format!("unknown tool {name:?}"), None).into()),
    }
}

/// Three log messages: on 2026-07-28 only when the request's `_meta` sets a log level
/// (servers MUST NOT log otherwise), on 2025-11-25 always (the session's level rules).
#[allow(deprecated)] // Logging is deprecated in 2026-07-28, and still specified.
async fn log_three(ask: &Ask, ctx: &RequestContext<RoleServer>) -> Result<CallToolResult, Stop> {
    let allowed = ask.revision() == crate::revision::Revision::Requests
        || ctx.meta.get("io.modelcontextprotocol/logLevel").is_some();
    if allowed {
        for data in [
            "Tool execution started",
            "Tool processing data",
            "Tool execution completed",
        ] {
            let param: rmcp::model::LoggingMessageNotificationParam =
                serde_json::from_value(json!({"level": "info", "data": data})).map_err(|e| {
                    ErrorData::internal_error(format!("built-in log line: {e}"), None)
                })?;
            let _ = ctx.peer.notify_logging_message(param).await;
        }
    }
    Ok(text(if allowed {
        "Logged three messages"
    } else {
        "Nothing logged: no log level was asked for"
    }))
}

fn q_declares(q: &crate::ask::Questions<'_>, method: &str) -> bool {
    q.declares(method)
}

/// The 2025-11-25 fixtures' answer line, from a form asked under key `form`.
async fn legacy_line(
    ask: &mut Ask,
    message: &str,
    schema: &Schema,
    prefix: &str,
) -> Result<CallToolResult, Stop> {
    let line = match ask.form_with_schema("form", message, schema).await? {
        FormOutcome::Accepted(content) => format!(
            "{prefix}: action=accept, content={}",
            Value::Object(content)
        ),
        FormOutcome::Declined => format!("{prefix}: action=decline"),
        FormOutcome::Cancelled => format!("{prefix}: action=cancel"),
    };
    Ok(text(line))
}

/// The prompt of the `input-required-result-non-tool-request` scenario; `None` for
/// another prompt.
pub(super) async fn prompt(
    scope: &SessionScope,
    request: &GetPromptRequestParams,
    ctx: &RequestContext<RoleServer>,
) -> Option<Result<GetPromptResult, Stop>> {
    if request.name != MRTR_PROMPT {
        return None;
    }
    Some(
        async {
            let mut ask = scope.ask(ctx, request).await?;
            let outcome = ask
                .form_with_schema(
                    "user_context",
                    "What context should the prompt use?",
                    &one_string("context")?,
                )
                .await?;
            let result: GetPromptResult = serde_json::from_value(json!({"messages": [
                {"role": "user", "content": {"type": "text",
                 "text": format!("Use this context: {}", field(&outcome, "context"))}}
            ]}))
            .map_err(|e| ErrorData::internal_error(format!("built-in prompt: {e}"), None))?;
            Ok(result)
        }
        .await,
    )
}
