//! The tools the official conformance suite (`@modelcontextprotocol/conformance`) calls.

use std::sync::Arc;

use mcp_elicit_core::schema::Schema;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, JsonObject, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::{Value, json};

use super::{Reference, schemas};
use crate::elicitor::FormOutcome;
use crate::hub::SessionScope;
use crate::mrtr::Round;

fn schema(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => Arc::new(JsonObject::new()),
    }
}

pub(super) fn definitions() -> Vec<Tool> {
    vec![
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
            schema(json!({"type": "object", "properties": {}})),
        ),
        Tool::new(
            "test_elicitation_sep1330_enums",
            "Requests a form with the five enum shapes (SEP-1330).",
            schema(json!({"type": "object", "properties": {}})),
        ),
    ]
}

/// Runs the conformance tool `name`; `None` when it is not one.
pub(super) async fn call(
    scope: &SessionScope,
    reference: &Reference,
    request: &CallToolRequestParams,
    args: &JsonObject,
    ctx: &RequestContext<RoleServer>,
) -> Option<Result<CallToolResponse, ErrorData>> {
    let on = On {
        scope,
        reference,
        request,
        ctx,
    };
    let result = match request.name.as_ref() {
        "test_elicitation" => {
            let message = match args.get("message") {
                Some(Value::String(m)) => m.clone(),
                _ => {
                    return Some(Err(ErrorData::invalid_params(
                        "`message` (a string) is required",
                        None,
                    )));
                }
            };
            ask(&on, &message, schemas::conformance_basic(), "User response").await
        }
        "test_elicitation_sep1034_defaults" => {
            ask(
                &on,
                "Please review and update the form fields with defaults",
                schemas::conformance_defaults(),
                "Elicitation completed",
            )
            .await
        }
        "test_elicitation_sep1330_enums" => {
            ask(
                &on,
                "Please select options from the enum fields",
                schemas::conformance_enums(),
                "Elicitation completed",
            )
            .await
        }
        _ => return None,
    };
    Some(result)
}

/// The request being served.
struct On<'a> {
    scope: &'a SessionScope,
    reference: &'a Reference,
    request: &'a CallToolRequestParams,
    ctx: &'a RequestContext<RoleServer>,
}

/// Asks the form the way the session's protocol allows: `elicitation/create` mid-call
/// (2025-11-25), or an input-required round with a sealed state (2026-07-28).
async fn ask(
    on: &On<'_>,
    message: &str,
    schema: Result<Schema, crate::Error>,
    prefix: &str,
) -> Result<CallToolResponse, ErrorData> {
    let schema = schema?;
    let elicitor = on.scope.elicitor(on.ctx)?;
    let outcome = if elicitor.uses_input_required() {
        match elicitor.form_input(on.reference.codec(), on.request, "form", message, &schema)? {
            Round::Done(outcome) => outcome,
            Round::InputRequired(r) => return Ok(CallToolResponse::InputRequired(r)),
        }
    } else {
        elicitor.form_with_schema(message, &schema).await?
    };
    let line = match outcome {
        FormOutcome::Accepted(content) => format!(
            "{prefix}: action=accept, content={}",
            Value::Object(content)
        ),
        FormOutcome::Declined => format!("{prefix}: action=decline"),
        FormOutcome::Cancelled => format!("{prefix}: action=cancel"),
    };
    Ok(CallToolResult::success(vec![ContentBlock::text(line)]).into())
}
