//! Conversions from the client library's types to what the screens show.

use mcp_elicit_client::rmcp::model::{CallToolResult, Tool};
use mcp_elicit_client::{
    FormResponse, NotCompleted, Notice, ProgressUpdate, RequiredOverview, UrlDecision, UrlOrigin,
};
use mcp_elicit_core::url_safety::Severity;
use serde_json::Value;

use crate::form::FormOutcome;
use crate::required::{RequiredItem, RequiredState};
use crate::result::ResultBlock;
use crate::server::ServerIdentity;
use crate::status::Progress;
use crate::tools::ToolEntry;
use crate::url::{UrlChoice, UrlContext};

/// The screens' identity from the client's (already cleaned) identity.
pub(crate) fn identity(id: &mcp_elicit_client::ServerIdentity) -> ServerIdentity {
    ServerIdentity {
        name: id.name.as_str().to_string(),
        title: id.title.as_ref().map(|t| t.as_str().to_string()),
        version: Some(id.version.as_str().to_string()).filter(|v| !v.is_empty()),
        transport: id.transport.to_string(),
    }
}

/// A progress notification as the progress bar shows it.
pub(crate) fn progress(u: &ProgressUpdate) -> Progress {
    Progress {
        progress: u.progress,
        total: u.total,
        message: u.message.as_ref().map(|m| m.as_str().to_string()),
    }
}

/// The -32042 overview screen for what the client hands over.
pub(crate) fn required(o: &RequiredOverview) -> RequiredState {
    let items = o
        .steps
        .iter()
        .map(|s| RequiredItem {
            message: s.message.as_str().to_string(),
            elicitation_id: s.elicitation_id.clone(),
            analysis: s.analysis.clone(),
        })
        .collect();
    RequiredState::new(identity(&o.server), o.tool.clone(), items)
}

/// What each step of a -32042 overview is, by elicitation id: the server's message
/// and the site, for the waiting view and the completion notices.
pub(crate) fn step_labels(o: &RequiredOverview) -> Vec<(String, String)> {
    o.steps
        .iter()
        .map(|s| {
            let a = &s.analysis;
            let domain = a
                .registrable_domain_unicode
                .as_deref()
                .or(a.host_unicode.as_deref())
                .or(a.host_ascii.as_deref());
            let label = match domain {
                Some(d) => format!("{} (at {d})", s.message.as_str()),
                None => s.message.as_str().to_string(),
            };
            (s.elicitation_id.clone(), label)
        })
        .collect()
}

/// Whether a tool's input schema has no properties: nothing to fill in or review.
pub(crate) fn takes_no_arguments(schema: &Value) -> bool {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .is_none_or(serde_json::Map::is_empty)
}

/// Whether a call stopped at a -32042 step because of the user's own choice.
pub(crate) fn users_choice(reason: NotCompleted) -> bool {
    matches!(
        reason,
        NotCompleted::Declined | NotCompleted::Cancelled | NotCompleted::StopAsking
    )
}

/// The result text of a call the user stopped at a -32042 step.
pub(crate) fn not_run_text(reason: NotCompleted) -> &'static str {
    match reason {
        NotCompleted::Declined => {
            "You declined a browser step this tool needs (decline), so it was not run."
        }
        NotCompleted::StopAsking => {
            "You asked this server to stop asking, so the browser step was declined and the tool was not run."
        }
        _ => "You cancelled a browser step this tool needs (cancel), so it was not run.",
    }
}

/// The form's outcome as the client's response.
pub(crate) fn form_response(o: FormOutcome) -> FormResponse {
    match o {
        FormOutcome::Accept(m) => FormResponse::Submit(m),
        FormOutcome::Decline => FormResponse::Decline,
        FormOutcome::Cancel => FormResponse::Cancel,
        FormOutcome::StopAsking => FormResponse::StopAsking,
    }
}

/// The consent choice as the client's decision (`None` for Copy, which is not final).
pub(crate) fn url_decision(c: UrlChoice) -> Option<UrlDecision> {
    Some(match c {
        UrlChoice::Open | UrlChoice::Finished => UrlDecision::Open,
        UrlChoice::Decline => UrlDecision::Decline,
        UrlChoice::StopAsking => UrlDecision::StopAsking,
        UrlChoice::Cancel => UrlDecision::Cancel,
        UrlChoice::Copy => return None,
    })
}

/// Why the URL is shown.
pub(crate) fn url_context(o: &UrlOrigin) -> UrlContext {
    match o {
        UrlOrigin::RequiredByCall { tool, step, of } => UrlContext::RequiredByTool {
            tool: tool.clone(),
            step: *step,
            of: *of,
        },
        _ => UrlContext::Request,
    }
}

/// A tool as listed.
pub(crate) fn tool_entry(t: &Tool) -> ToolEntry {
    ToolEntry {
        name: t.name.to_string(),
        title: t
            .title
            .clone()
            .or_else(|| t.annotations.as_ref().and_then(|a| a.title.clone())),
        description: t.description.as_ref().map(|d| d.to_string()),
    }
}

/// A call result's content blocks: text as text, everything else described in words.
pub(crate) fn result_blocks(r: &CallToolResult) -> Vec<ResultBlock> {
    r.content
        .iter()
        .map(|c| {
            let v = serde_json::to_value(c).unwrap_or(Value::Null);
            let kind = v.get("type").and_then(Value::as_str).unwrap_or("content");
            match (kind, v.get("text").and_then(Value::as_str)) {
                ("text", Some(t)) => ResultBlock::Text(t.to_string()),
                _ => {
                    let mime = v
                        .get("mimeType")
                        .or_else(|| v.get("resource").and_then(|r| r.get("mimeType")))
                        .and_then(Value::as_str);
                    let size = v.get("data").and_then(Value::as_str).map(str::len);
                    let uri = v
                        .get("uri")
                        .or_else(|| v.get("resource").and_then(|r| r.get("uri")))
                        .and_then(Value::as_str);
                    let mut parts = Vec::new();
                    if let Some(m) = mime {
                        parts.push(m.to_string());
                    }
                    if let Some(n) = size {
                        parts.push(format!("{n} bytes of base64"));
                    }
                    if let Some(u) = uri {
                        parts.push(u.to_string());
                    }
                    if parts.is_empty() {
                        ResultBlock::Other(kind.to_string())
                    } else {
                        ResultBlock::Other(format!("{kind} ({})", parts.join(", ")))
                    }
                }
            }
        })
        .collect()
}

/// A notice in one sentence.
pub(crate) fn notice_text(n: &Notice) -> String {
    match n {
        Notice::RateLimited { server, policy } => format!(
            "{} sent more elicitation requests than allowed (burst {}, then one per {} s); extra requests are cancelled.",
            server.label(),
            policy.burst,
            policy.refill_every.as_secs()
        ),
        Notice::UrlBlocked {
            server,
            url,
            analysis,
        } => {
            let reasons: Vec<&str> = analysis
                .warnings
                .iter()
                .filter(|w| w.severity == Severity::Block)
                .map(|w| w.message.as_str())
                .collect();
            format!(
                "Refused an unsafe URL from {} without opening it: {url} ({})",
                server.label(),
                reasons.join("; ")
            )
        }
        Notice::OpenFailed { server, url, error } => format!(
            "Could not start the browser for {url} from {}: {error}. The server was told \"cancel\".",
            server.label()
        ),
        Notice::Refused { server, reason } => {
            format!(
                "Refused a malformed request from {}: {reason}",
                server.label()
            )
        }
        Notice::GaveUp { server, errors } => format!(
            "Gave up on a form from {} after {} problem(s) kept failing validation; the server was told \"cancel\".",
            server.label(),
            errors.len()
        ),
        Notice::Completed {
            server,
            elicitation_id,
        } => format!(
            "{} reports that elicitation {elicitation_id} is complete.",
            server.label()
        ),
        _ => "The client library reported an event.".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_elicit_client::rmcp::model::ContentBlock;

    #[test]
    fn result_blocks_keep_text_and_describe_the_rest() {
        let r = CallToolResult::success(vec![
            ContentBlock::text("hello"),
            ContentBlock::image("aGVsbG8=", "image/png"),
        ]);
        let b = result_blocks(&r);
        assert_eq!(b[0], ResultBlock::Text("hello".into()));
        assert_eq!(
            b[1],
            ResultBlock::Other("image (image/png, 8 bytes of base64)".into())
        );
    }

    #[test]
    fn copy_is_not_a_decision() {
        assert_eq!(url_decision(UrlChoice::Copy), None);
        assert_eq!(url_decision(UrlChoice::Open), Some(UrlDecision::Open));
        assert_eq!(
            url_decision(UrlChoice::StopAsking),
            Some(UrlDecision::StopAsking)
        );
        assert_eq!(form_response(FormOutcome::Cancel), FormResponse::Cancel);
        assert_eq!(
            form_response(FormOutcome::StopAsking),
            FormResponse::StopAsking
        );
    }
}
