//! The demo tools.

use std::sync::Arc;

use mcp_elicit_core::message::Mode;
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::{Value, json};

use super::http::DEMO_COMPLETE_PATH;
use super::state::PURPOSE_PARAM;
use super::{DemoPurpose, Reference, schemas};
use crate::elicitor::{FormOutcome, UrlElicitation, UrlOutcome};
use crate::error::ErrorKind;
use crate::hub::SessionScope;

/// A typed form: the schema comes from this type.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct Profile {
    /// Your display name
    name: String,
    /// Your age in years
    age: u8,
    /// Whether you want e-mail updates
    #[serde(default)]
    updates: bool,
}

fn no_args() -> Arc<JsonObject> {
    let mut schema = JsonObject::new();
    schema.insert("type".into(), Value::String("object".into()));
    schema.insert("properties".into(), Value::Object(JsonObject::new()));
    Arc::new(schema)
}

pub(super) fn definitions() -> Vec<Tool> {
    vec![
        Tool::new(
            "demo_form",
            "Asks for a form with every field kind (string with pattern and format, number, integer, boolean, \
             single-select untitled/titled/legacy, multi-select untitled/titled, defaults) and returns the \
             validated answer.",
            no_args(),
        ),
        Tool::new(
            "demo_profile",
            "Asks for a form whose schema is derived from a Rust type.",
            no_args(),
        ),
        Tool::new(
            "demo_secret",
            "Tries to ask for a password through a form: the server refuses before sending anything.",
            no_args(),
        ),
        Tool::new(
            "demo_url",
            "Sends a URL-mode elicitation to a local demo page; finishing the page sends a completion notification.",
            no_args(),
        ),
        Tool::new(
            "connect_demo",
            "Answers -32042 (URL elicitation required) until you finish the connect page, then succeeds.",
            no_args(),
        ),
    ]
}

fn text(t: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(t)])
}

fn content_text(content: &serde_json::Map<String, Value>) -> String {
    serde_json::to_string_pretty(&Value::Object(content.clone())).unwrap_or_default()
}

/// A URL elicitation to the demo completion page. The purpose goes into the URL the
/// server stores with the pending elicitation (before the id, so the id stays last).
fn demo_url(
    reference: &Reference,
    message: &str,
    purpose: DemoPurpose,
) -> Result<UrlElicitation, ErrorData> {
    let base = reference
        .options()
        .demo_base_url
        .trim_end_matches('/')
        .to_owned();
    let purpose = purpose
        .param()
        .map(|p| format!("{PURPOSE_PARAM}={p}&"))
        .unwrap_or_default();
    Ok(UrlElicitation::new(message, |id| {
        format!("{base}{DEMO_COMPLETE_PATH}?{purpose}elicitationId={id}")
    })?)
}

/// Runs the demo tool `name`; `None` when it is not one.
pub(super) async fn call(
    scope: &SessionScope,
    reference: &Reference,
    name: &str,
    _args: &JsonObject,
    ctx: &RequestContext<RoleServer>,
) -> Option<Result<CallToolResult, ErrorData>> {
    let result = match name {
        "demo_form" => demo_form(scope, ctx).await,
        "demo_profile" => demo_profile(scope, ctx).await,
        "demo_secret" => demo_secret(scope, ctx).await,
        "demo_url" => demo_url_tool(scope, reference, ctx).await,
        "connect_demo" => connect_demo(scope, reference, ctx).await,
        _ => return None,
    };
    Some(result)
}

async fn demo_form(
    scope: &SessionScope,
    ctx: &RequestContext<RoleServer>,
) -> Result<CallToolResult, ErrorData> {
    let schema = schemas::all_fields()?;
    let elicitor = scope.elicitor(ctx)?;
    Ok(
        match elicitor
            .form_with_schema(
                "Tell us about yourself (every field kind of MCP forms).",
                &schema,
            )
            .await?
        {
            FormOutcome::Accepted(content) => text(format!(
                "Thanks! The server validated your answer:\n{}",
                content_text(&content)
            )),
            FormOutcome::Declined => text("You declined: nothing was recorded."),
            FormOutcome::Cancelled => text("You dismissed the form: ask again whenever you like."),
        },
    )
}

async fn demo_profile(
    scope: &SessionScope,
    ctx: &RequestContext<RoleServer>,
) -> Result<CallToolResult, ErrorData> {
    let elicitor = scope.elicitor(ctx)?;
    Ok(
        match elicitor.form::<Profile>("Create your profile.").await? {
            FormOutcome::Accepted(p) => text(format!(
                "Profile: {} ({} years), e-mail updates: {}",
                p.name,
                p.age,
                if p.updates { "yes" } else { "no" }
            )),
            FormOutcome::Declined => text("You declined: no profile created."),
            FormOutcome::Cancelled => text("You dismissed the form."),
        },
    )
}

async fn demo_secret(
    scope: &SessionScope,
    ctx: &RequestContext<RoleServer>,
) -> Result<CallToolResult, ErrorData> {
    let schema = schemas::secret()?;
    let elicitor = scope.elicitor(ctx)?;
    match elicitor
        .form_with_schema("Log in to Example Co.", &schema)
        .await
    {
        Err(e) if e.kind() == ErrorKind::SecretField => {
            Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                "The server refused to send this form, as the MCP specification requires: {}. Secrets go through URL \
             mode (try demo_url).",
                e.message()
            ))]))
        }
        Err(e) => Err(e.into()),
        Ok(_) => Err(ErrorData::internal_error(
            "the secret-field lint let a password field through",
            None,
        )),
    }
}

async fn demo_url_tool(
    scope: &SessionScope,
    reference: &Reference,
    ctx: &RequestContext<RoleServer>,
) -> Result<CallToolResult, ErrorData> {
    let elicitor = scope.elicitor(ctx)?;
    let elicitation = demo_url(
        reference,
        "Open the demo page to finish a (pretend) sign-in with Example Co.",
        DemoPurpose::SignIn,
    )?;
    if !elicitor.supports(Mode::Url) {
        return Ok(CallToolResult::error(vec![ContentBlock::text(
            elicitor.url_fallback(&elicitation).await?,
        )]));
    }
    Ok(match elicitor.url(&elicitation).await? {
        UrlOutcome::Accepted => text(format!(
            "You agreed to open the page (elicitation {}). Finish it there; the server will send \
             notifications/elicitation/complete when you do.",
            elicitation.id()
        )),
        UrlOutcome::Declined => text("You declined to open the page."),
        UrlOutcome::Cancelled => text("You dismissed the request."),
    })
}

async fn connect_demo(
    scope: &SessionScope,
    reference: &Reference,
    ctx: &RequestContext<RoleServer>,
) -> Result<CallToolResult, ErrorData> {
    let elicitor = scope.elicitor(ctx)?;
    if reference.is_connected(elicitor.principal()).await? {
        return Ok(CallToolResult::success(vec![
            ContentBlock::text(
                "Connected to Example Co. Your files: report.pdf, notes.md, budget.xlsx",
            ),
            ContentBlock::text(
                json!({"files": ["report.pdf", "notes.md", "budget.xlsx"]}).to_string(),
            ),
        ]));
    }
    let elicitation = demo_url(
        reference,
        "Authorization is required to access your Example Co files.",
        DemoPurpose::Connect,
    )?;
    if !elicitor.supports(Mode::Url) {
        return Ok(CallToolResult::error(vec![ContentBlock::text(
            elicitor.url_fallback(&elicitation).await?,
        )]));
    }
    Err(elicitor.url_required(&[elicitation]).await.into())
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_demo_schema_fits_the_subset_and_only_the_secret_one_is_flagged() {
        let profile = crate::checks::schema_of::<super::Profile>().expect("typed profile schema");
        assert_eq!(profile.properties().len(), 3);
        let reviewed = mcp_elicit_core::danger::ReviewedNotSecret::new();
        for schema in [
            super::schemas::all_fields(),
            super::schemas::conformance_basic(),
            super::schemas::conformance_defaults(),
            super::schemas::conformance_enums(),
            Ok(profile),
        ] {
            let schema = schema.expect("built-in schema parses");
            assert!(
                crate::checks::lint(&schema, &reviewed).is_empty(),
                "{:?}",
                schema.to_value()
            );
        }
        let secret = super::schemas::secret().expect("parses");
        assert!(!crate::checks::lint(&secret, &reviewed).is_empty());
    }
}
