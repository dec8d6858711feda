//! The demo tools.

use std::sync::Arc;

use mcp_elicit_core::message::Mode;
use rmcp::model::{CallToolRequestParams, CallToolResult, ContentBlock, JsonObject, Tool};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::{Value, json};

use super::http::DEMO_COMPLETE_PATH;
use super::state::PURPOSE_PARAM;
use super::{DemoPurpose, Reference, schemas};
use crate::elicitor::{FormOutcome, UrlElicitation, UrlOutcome};
use crate::error::ErrorKind;
use crate::hub::SessionScope;
use crate::respond::Stop;
use crate::revision::Revision;

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

/// A URL elicitation to the demo completion page. The purpose is stored with the
/// pending elicitation as its application data (what the completion reads), and also
/// goes into the URL (before the id, so the id stays last) for records stored before
/// application data existed.
fn demo_url(
    reference: &Reference,
    message: &str,
    purpose: DemoPurpose,
) -> Result<UrlElicitation, crate::Error> {
    let base = reference
        .options()
        .demo_base_url
        .trim_end_matches('/')
        .to_owned();
    let data = purpose.app_data();
    let purpose = purpose
        .param()
        .map(|p| format!("{PURPOSE_PARAM}={p}&"))
        .unwrap_or_default();
    Ok(UrlElicitation::new(message, |id| {
        format!("{base}{DEMO_COMPLETE_PATH}?{purpose}elicitationId={id}")
    })?
    .with_app_data(data))
}

/// Runs the demo tool `name`; `None` when it is not one. Every tool works on both
/// revisions through [`Ask`](crate::Ask).
pub(super) async fn call(
    scope: &SessionScope,
    reference: &Reference,
    request: &CallToolRequestParams,
    ctx: &RequestContext<RoleServer>,
) -> Option<Result<CallToolResult, Stop>> {
    let result = match request.name.as_ref() {
        "demo_form" => demo_form(scope, request, ctx).await,
        "demo_profile" => demo_profile(scope, request, ctx).await,
        "demo_secret" => demo_secret(scope, request, ctx).await,
        "demo_url" => demo_url_tool(scope, reference, request, ctx).await,
        "connect_demo" => connect_demo(scope, reference, request, ctx).await,
        _ => return None,
    };
    Some(result)
}

async fn demo_form(
    scope: &SessionScope,
    request: &CallToolRequestParams,
    ctx: &RequestContext<RoleServer>,
) -> Result<CallToolResult, Stop> {
    let schema = schemas::all_fields()?;
    let mut ask = scope.ask(ctx, request).await?;
    let outcome = ask
        .form_with_schema(
            "about_you",
            "Tell us about yourself (every field kind of MCP forms).",
            &schema,
        )
        .await?;
    Ok(match outcome {
        FormOutcome::Accepted(content) => text(format!(
            "Thanks! The server validated your answer:\n{}",
            content_text(&content)
        )),
        FormOutcome::Declined => text("You declined: nothing was recorded."),
        FormOutcome::Cancelled => text("You dismissed the form: ask again whenever you like."),
    })
}

async fn demo_profile(
    scope: &SessionScope,
    request: &CallToolRequestParams,
    ctx: &RequestContext<RoleServer>,
) -> Result<CallToolResult, Stop> {
    let mut ask = scope.ask(ctx, request).await?;
    Ok(
        match ask
            .form::<Profile>("profile", "Create your profile.")
            .await?
        {
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
    request: &CallToolRequestParams,
    ctx: &RequestContext<RoleServer>,
) -> Result<CallToolResult, Stop> {
    let schema = schemas::secret()?;
    let mut ask = scope.ask(ctx, request).await?;
    let mut questions = ask.questions();
    match questions.form_with_schema("login", "Log in to Example Co.", &schema) {
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
        )
        .into()),
    }
}

/// The tool result for a client without URL mode: no URL in it (see
/// [`Elicitor::url_unsupported`](crate::Elicitor::url_unsupported)).
fn url_unsupported(ask: &crate::Ask, message: &str) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(
        ask.elicitor().url_unsupported(message),
    )])
}

async fn demo_url_tool(
    scope: &SessionScope,
    reference: &Reference,
    request: &CallToolRequestParams,
    ctx: &RequestContext<RoleServer>,
) -> Result<CallToolResult, Stop> {
    const MESSAGE: &str = "Open the demo page to finish a (pretend) sign-in with Example Co.";
    let mut ask = scope.ask(ctx, request).await?;
    if !ask.supports(Mode::Url) {
        return Ok(url_unsupported(&ask, MESSAGE));
    }
    if ask.revision() == Revision::Requests {
        // 2025-11-25: consent now, a completion notification when the page is done.
        let elicitation = demo_url(reference, MESSAGE, DemoPurpose::SignIn)?;
        return Ok(match ask.elicitor().url(&elicitation).await? {
            UrlOutcome::Accepted => text(format!(
                "You agreed to open the page (elicitation {}). Finish it there; the server will send \
                 notifications/elicitation/complete when you do.",
                elicitation.id()
            )),
            UrlOutcome::Declined => text("You declined to open the page."),
            _ => text("You dismissed the request."),
        });
    }
    // 2026-07-28: rounds until the page is finished, then the result.
    let outcome = ask
        .url("sign_in", || async {
            demo_url(reference, MESSAGE, DemoPurpose::SignIn)
        })
        .await?;
    Ok(match outcome {
        UrlOutcome::Completed => text("You finished the demo page: the (pretend) sign-in is done."),
        UrlOutcome::Declined => text("You declined to open the page."),
        _ => text("You dismissed the request."),
    })
}

async fn connect_demo(
    scope: &SessionScope,
    reference: &Reference,
    request: &CallToolRequestParams,
    ctx: &RequestContext<RoleServer>,
) -> Result<CallToolResult, Stop> {
    const MESSAGE: &str = "Authorization is required to access your Example Co files.";
    let mut ask = scope.ask(ctx, request).await?;
    // The outcome of the page is the truth on both revisions: check it first.
    if reference.is_connected(ask.elicitor().principal()).await? {
        return Ok(CallToolResult::success(vec![
            ContentBlock::text(
                "Connected to Example Co. Your files: report.pdf, notes.md, budget.xlsx",
            ),
            ContentBlock::text(
                json!({"files": ["report.pdf", "notes.md", "budget.xlsx"]}).to_string(),
            ),
        ]));
    }
    if !ask.supports(Mode::Url) {
        return Ok(url_unsupported(&ask, MESSAGE));
    }
    // 2025-11-25: -32042 until the page is done; 2026-07-28: rounds.
    let outcome = ask
        .url("connect", || async {
            demo_url(reference, MESSAGE, DemoPurpose::Connect)
        })
        .await?;
    Ok(match outcome {
        UrlOutcome::Declined => text("You declined to connect Example Co."),
        UrlOutcome::Cancelled => text("You dismissed the request."),
        // The page connected the user before this retry learned of it; a lost race
        // (the flag not readable yet) says so rather than pretending.
        _ if reference.is_connected(ask.elicitor().principal()).await? => {
            text("Connected to Example Co. Your files: report.pdf, notes.md, budget.xlsx")
        }
        _ => text("The page was finished, but the connection is not recorded: call again."),
    })
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
