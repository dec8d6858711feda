//! The rest of the conformance suite's server fixtures (content tools, logging, progress,
//! sampling, prompts, resources, completion). Not about elicitation; cheap, and they let
//! the whole active suite run against the reference server.
#![allow(deprecated)] // Logging and sampling are deprecated in the 2026 revision; the suite still tests them.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolResult, CompleteResult, CreateMessageRequestParams, GetPromptResult, JsonObject,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    LoggingMessageNotificationParam, ProgressNotificationParam, ReadResourceResult, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// A 1x1 red PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// An empty 8 kHz mono PCM WAV.
const WAV: &str = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=";

fn from_json<T: DeserializeOwned>(value: Value) -> Result<T, ErrorData> {
    serde_json::from_value(value)
        .map_err(|e| ErrorData::internal_error(format!("built-in fixture: {e}"), None))
}

fn no_args() -> Arc<JsonObject> {
    let mut schema = JsonObject::new();
    schema.insert("type".into(), Value::String("object".into()));
    schema.insert("properties".into(), Value::Object(JsonObject::new()));
    Arc::new(schema)
}

pub(super) fn tool_definitions() -> Vec<Tool> {
    let mut sampling = JsonObject::new();
    sampling.insert("type".into(), json!("object"));
    sampling.insert(
        "properties".into(),
        json!({"prompt": {"type": "string", "description": "The prompt"}}),
    );
    sampling.insert("required".into(), json!(["prompt"]));
    vec![
        Tool::new("test_simple_text", "Returns a simple text.", no_args()),
        Tool::new("test_image_content", "Returns an image.", no_args()),
        Tool::new("test_audio_content", "Returns audio.", no_args()),
        Tool::new(
            "test_embedded_resource",
            "Returns an embedded resource.",
            no_args(),
        ),
        Tool::new(
            "test_multiple_content_types",
            "Returns text, an image and a resource.",
            no_args(),
        ),
        Tool::new(
            "test_error_handling",
            "Always fails (tool-level error).",
            no_args(),
        ),
        Tool::new(
            "test_tool_with_logging",
            "Sends three log messages while running.",
            no_args(),
        ),
        Tool::new(
            "test_tool_with_progress",
            "Reports progress while running.",
            no_args(),
        ),
        Tool::new(
            "test_sampling",
            "Asks the client's LLM through sampling/createMessage.",
            Arc::new(sampling),
        ),
        Tool::new(
            JSON_SCHEMA_2020_12_TOOL,
            "Tool with JSON Schema 2020-12 features",
            Arc::new(json_schema_2020_12()),
        ),
    ]
}

/// The suite's tool whose input schema uses JSON Schema 2020-12 (SEP-1613, SEP-2106).
const JSON_SCHEMA_2020_12_TOOL: &str = "json_schema_2020_12_tool";

/// Its input schema, listed exactly as written: `$schema`, `$defs` with an `$anchor`, a
/// `$ref`, `allOf`/`anyOf`, `if`/`then`/`else` and `additionalProperties: false` (a tool's
/// input schema is full JSON Schema; only elicitation's `requestedSchema` is restricted).
fn json_schema_2020_12() -> JsonObject {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {"address": {"$anchor": "addressDef", "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
        "properties": {
            "name": {"type": "string"},
            "address": {"$ref": "#/$defs/address"},
            "contactMethod": {"type": "string", "enum": ["phone", "email"]},
            "phone": {"type": "string"},
            "email": {"type": "string"}
        },
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false
    });
    match schema {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

fn result(content: Value) -> Result<CallToolResult, ErrorData> {
    from_json(json!({"content": content}))
}

/// Runs the suite tool `name`; `None` when it is not one.
pub(super) async fn call(
    name: &str,
    args: &JsonObject,
    ctx: &RequestContext<RoleServer>,
) -> Option<Result<CallToolResult, ErrorData>> {
    Some(match name {
        "test_simple_text" => {
            result(json!([{"type": "text", "text": "This is a simple text response for testing."}]))
        }
        "test_image_content" => {
            result(json!([{"type": "image", "data": PNG, "mimeType": "image/png"}]))
        }
        "test_audio_content" => {
            result(json!([{"type": "audio", "data": WAV, "mimeType": "audio/wav"}]))
        }
        "test_embedded_resource" => result(json!([{"type": "resource", "resource": {
            "uri": "test://embedded-resource", "mimeType": "text/plain", "text": "This is an embedded resource content."
        }}])),
        "test_multiple_content_types" => result(json!([
            {"type": "text", "text": "Multiple content types test:"},
            {"type": "image", "data": PNG, "mimeType": "image/png"},
            {"type": "resource", "resource": {
                "uri": "test://mixed-content-resource", "mimeType": "application/json",
                "text": "{\"test\":\"data\",\"value\":123}"
            }}
        ])),
        "test_error_handling" => from_json(json!({
            "isError": true,
            "content": [{"type": "text", "text": "This tool intentionally returns an error for testing"}]
        })),
        "test_tool_with_logging" => logging(ctx).await,
        "test_tool_with_progress" => progress(ctx).await,
        "test_sampling" => sampling(args, ctx).await,
        JSON_SCHEMA_2020_12_TOOL => result(json!([{"type": "text", "text": "ok"}])),
        _ => return None,
    })
}

async fn logging(ctx: &RequestContext<RoleServer>) -> Result<CallToolResult, ErrorData> {
    for (i, text) in [
        "Tool execution started",
        "Tool processing data",
        "Tool execution completed",
    ]
    .iter()
    .enumerate()
    {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let param: LoggingMessageNotificationParam =
            from_json(json!({"level": "info", "data": text}))?;
        let _ = ctx.peer.notify_logging_message(param).await;
    }
    result(json!([{"type": "text", "text": "Tool with logging executed successfully"}]))
}

async fn progress(ctx: &RequestContext<RoleServer>) -> Result<CallToolResult, ErrorData> {
    let token = ctx.meta.get_progress_token();
    for (i, step) in [0.0, 50.0, 100.0].into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        if let Some(token) = &token {
            let param: ProgressNotificationParam =
                from_json(json!({"progressToken": token, "progress": step, "total": 100.0}))?;
            let _ = ctx.peer.notify_progress(param).await;
        }
    }
    result(json!([{"type": "text", "text": "Tool with progress executed successfully"}]))
}

async fn sampling(
    args: &JsonObject,
    ctx: &RequestContext<RoleServer>,
) -> Result<CallToolResult, ErrorData> {
    let Some(Value::String(prompt)) = args.get("prompt") else {
        return Err(ErrorData::invalid_params(
            "`prompt` (a string) is required",
            None,
        ));
    };
    let params: CreateMessageRequestParams = from_json(json!({
        "messages": [{"role": "user", "content": {"type": "text", "text": prompt}}],
        "maxTokens": 100
    }))?;
    let answer = ctx
        .peer
        .create_message(params)
        .await
        .map_err(|e| ErrorData::internal_error(format!("sampling failed: {e}"), None))?;
    let answer = serde_json::to_value(&answer).unwrap_or(Value::Null);
    let text = answer["content"]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    result(json!([{"type": "text", "text": format!("LLM response: {text}")}]))
}

pub(super) fn list_prompts() -> Result<ListPromptsResult, ErrorData> {
    from_json(json!({"prompts": [
        {"name": "test_simple_prompt", "description": "A simple prompt without arguments"},
        {"name": "test_prompt_with_arguments", "description": "A prompt with two required arguments", "arguments": [
            {"name": "arg1", "description": "First test argument", "required": true},
            {"name": "arg2", "description": "Second test argument", "required": true}
        ]},
        {"name": "test_prompt_with_embedded_resource", "description": "A prompt embedding a resource", "arguments": [
            {"name": "resourceUri", "description": "URI of the resource to embed", "required": true}
        ]},
        {"name": "test_prompt_with_image", "description": "A prompt with an image"}
    ]}))
}

pub(super) fn get_prompt(name: &str, args: &JsonObject) -> Result<GetPromptResult, ErrorData> {
    let arg = |k: &str| {
        args.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let messages = match name {
        "test_simple_prompt" => {
            json!([{"role": "user", "content": {"type": "text", "text": "This is a simple prompt for testing."}}])
        }
        "test_prompt_with_arguments" => json!([{"role": "user", "content": {"type": "text",
            "text": format!("Prompt with arguments: arg1='{}', arg2='{}'", arg("arg1"), arg("arg2"))}}]),
        "test_prompt_with_embedded_resource" => json!([
            {"role": "user", "content": {"type": "resource", "resource": {
                "uri": arg("resourceUri"), "mimeType": "text/plain", "text": "Embedded resource content for testing."}}},
            {"role": "user", "content": {"type": "text", "text": "Please process the embedded resource above."}}
        ]),
        "test_prompt_with_image" => json!([
            {"role": "user", "content": {"type": "image", "data": PNG, "mimeType": "image/png"}},
            {"role": "user", "content": {"type": "text", "text": "Please analyze the image above."}}
        ]),
        _ => {
            return Err(ErrorData::invalid_params(
                format!("unknown prompt {name:?}"),
                None,
            ));
        }
    };
    from_json(json!({"messages": messages}))
}

pub(super) fn list_resources() -> Result<ListResourcesResult, ErrorData> {
    from_json(json!({"resources": [
        {"uri": "test://static-text", "name": "static-text", "description": "A static text resource", "mimeType": "text/plain"},
        {"uri": "test://static-binary", "name": "static-binary", "description": "A static binary resource", "mimeType": "image/png"},
        {"uri": "test://watched-resource", "name": "watched-resource", "description": "A resource to subscribe to", "mimeType": "text/plain"}
    ]}))
}

pub(super) fn list_resource_templates() -> Result<ListResourceTemplatesResult, ErrorData> {
    from_json(json!({"resourceTemplates": [
        {"uriTemplate": "test://template/{id}/data", "name": "template", "description": "Data by id", "mimeType": "application/json"}
    ]}))
}

pub(super) fn read_resource(uri: &str) -> Result<ReadResourceResult, ErrorData> {
    let contents = match uri {
        "test://static-text" => {
            json!([{"uri": uri, "mimeType": "text/plain", "text": "This is the content of the static text resource."}])
        }
        "test://static-binary" => json!([{"uri": uri, "mimeType": "image/png", "blob": PNG}]),
        "test://watched-resource" => {
            json!([{"uri": uri, "mimeType": "text/plain", "text": "Watched."}])
        }
        _ => match uri
            .strip_prefix("test://template/")
            .and_then(|rest| rest.strip_suffix("/data"))
        {
            Some(id) if !id.is_empty() && !id.contains('/') => {
                json!([{"uri": uri, "mimeType": "application/json",
                "text": json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")}).to_string()}])
            }
            _ => {
                return Err(ErrorData::resource_not_found(
                    format!("no resource {uri:?}"),
                    None,
                ));
            }
        },
    };
    from_json(json!({"contents": contents}))
}

pub(super) fn complete() -> Result<CompleteResult, ErrorData> {
    from_json(json!({"completion": {"values": [], "total": 0, "hasMore": false}}))
}
