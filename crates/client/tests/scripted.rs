//! The non-interactive UI behind `mcp-elicit call`, against the rmcp test server.

mod common;

use std::sync::{Arc, Mutex};

use common::*;
use mcp_elicit_client::rmcp::model::CallToolRequestParams;
use mcp_elicit_client::{
    CallError, Config, FormPolicy, ManualOpen, RecordingOpener, ScriptedUi, UrlPolicy,
};
use mcp_elicit_core::message::Capability;
use serde_json::{Value, json};

const BOTH: Capability = Capability {
    form: true,
    url: true,
};

fn schema() -> Value {
    json!({"mode": "form", "message": "Profile", "requestedSchema": {"type": "object", "properties": {
        "name": {"type": "string", "default": "Ada"},
        "age": {"type": "integer", "minimum": 0, "default": 36},
        "email": {"type": "string", "format": "email"}
    }, "required": ["name", "email"]}})
}

fn collecting(ui: ScriptedUi) -> (ScriptedUi, Arc<Mutex<Vec<String>>>) {
    let lines: Arc<Mutex<Vec<String>>> = Arc::default();
    let sink = lines.clone();
    (
        ui.with_sink(move |l| sink.lock().unwrap().push(l.to_owned())),
        lines,
    )
}

#[tokio::test]
async fn answers_fill_in_over_the_defaults() {
    let answers = FormPolicy::answers_from_json(&json!({"email": "ada@example.org"})).unwrap();
    let h = duplex(
        ScriptedUi::new(BOTH, answers, UrlPolicy::Never),
        RecordingOpener::default(),
        Config::default(),
    )
    .await;
    let r = h.elicit(schema()).await;
    assert_eq!(r["ok"]["action"], "accept", "{r}");
    assert_eq!(
        r["ok"]["content"],
        json!({"name": "Ada", "age": 36, "email": "ada@example.org"})
    );
    assert!(h.client.ui().failures().is_empty());
}

#[tokio::test]
async fn invalid_answers_are_never_sent_and_count_as_failure() {
    let answers =
        FormPolicy::answers_from_json(&json!({"email": "not an email", "age": -1})).unwrap();
    let (ui, lines) = collecting(ScriptedUi::new(BOTH, answers, UrlPolicy::Never));
    let h = duplex(ui, RecordingOpener::default(), Config::default()).await;
    let r = h.elicit(schema()).await;
    assert_eq!(r["ok"]["action"], "cancel", "{r}");
    assert!(r["ok"].get("content").is_none_or(Value::is_null));
    let failures = h.client.ui().failures();
    assert_eq!(failures.len(), 1, "{failures:?}");
    let report = lines.lock().unwrap().join("\n");
    assert!(
        report.contains("email") && report.contains("age"),
        "{report}"
    );
}

#[tokio::test]
async fn accept_defaults_without_a_required_value_is_a_failure() {
    let (ui, _lines) = collecting(ScriptedUi::new(
        BOTH,
        FormPolicy::AcceptDefaults,
        UrlPolicy::Never,
    ));
    let h = duplex(ui, RecordingOpener::default(), Config::default()).await;
    let r = h.elicit(schema()).await;
    assert_eq!(
        r["ok"]["action"], "cancel",
        "email is required and has no default: {r}"
    );
    assert_eq!(h.client.ui().failures().len(), 1);
}

#[tokio::test]
async fn decline_and_cancel_policies() {
    for (policy, action) in [
        (FormPolicy::Decline, "decline"),
        (FormPolicy::Cancel, "cancel"),
    ] {
        let h = duplex(
            ScriptedUi::new(BOTH, policy, UrlPolicy::Never),
            RecordingOpener::default(),
            Config::default(),
        )
        .await;
        let r = h.elicit(schema()).await;
        assert_eq!(r["ok"]["action"], action);
        assert!(h.client.ui().failures().is_empty());
    }
}

#[tokio::test]
async fn a_list_of_answers_answers_successive_forms() {
    let answers = FormPolicy::answers_from_json(
        &json!([{"email": "a@example.org"}, {"email": "b@example.org", "name": "Bo"}]),
    )
    .unwrap();
    let h = duplex(
        ScriptedUi::new(BOTH, answers, UrlPolicy::Never),
        RecordingOpener::default(),
        Config::default(),
    )
    .await;
    assert_eq!(
        h.elicit(schema()).await["ok"]["content"]["email"],
        "a@example.org"
    );
    let second = h.elicit(schema()).await;
    assert_eq!(
        second["ok"]["content"],
        json!({"name": "Bo", "age": 36, "email": "b@example.org"})
    );
    assert!(FormPolicy::answers_from_json(&json!([1])).is_err());
    assert!(FormPolicy::answers_from_json(&json!("x")).is_err());
}

#[tokio::test]
async fn url_policy_never_declines_and_print_consents_without_opening() {
    let (ui, lines) = collecting(ScriptedUi::new(BOTH, FormPolicy::Cancel, UrlPolicy::Never));
    let opener = RecordingOpener::default();
    let h = duplex(ui, opener.clone(), Config::default()).await;
    let url = json!({"mode": "url", "message": "m", "url": "https://example.com/connect", "elicitationId": "u1"});
    assert_eq!(h.elicit(url.clone()).await["ok"]["action"], "decline");
    assert!(opener.opened().is_empty());
    assert!(
        lines
            .lock()
            .unwrap()
            .iter()
            .any(|l| l.contains("--open-urls never"))
    );

    let (ui, lines) = collecting(ScriptedUi::new(
        BOTH,
        FormPolicy::Cancel,
        UrlPolicy::Consent,
    ));
    let h = duplex(ui, ManualOpen, Config::default()).await;
    assert_eq!(h.elicit(url).await["ok"]["action"], "accept");
    let report = lines.lock().unwrap().join("\n");
    assert!(
        report.contains("\"registrable_domain\":\"example.com\""),
        "{report}"
    );
    // Blocked URLs stay refused even with consent on.
    let bad =
        json!({"mode": "url", "message": "m", "url": "javascript:alert(1)", "elicitationId": "u2"});
    let r = h.elicit(bad).await;
    assert_eq!(r["ok"]["action"], "decline", "{r}");
    let failures = h.client.ui().failures();
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(failures[0].contains("javascript:alert(1)"), "{failures:?}");
}

#[tokio::test]
async fn required_url_elicitation_is_consented_then_retried() {
    let (ui, _lines) = collecting(ScriptedUi::new(
        BOTH,
        FormPolicy::Cancel,
        UrlPolicy::Consent,
    ));
    let (opener, mut opened) = ChannelOpener::new();
    let h = duplex(ui, opener, Config::default()).await;
    let server = h.server.clone();
    tokio::spawn(async move {
        if opened.recv().await.is_some() {
            server.complete("s1").await;
        }
    });
    let p = CallToolRequestParams::new("needs_url").with_arguments(args(json!({"id": "s1"})));
    let r = guard(h.client.call_tool(h.conn.peer(), p))
        .await
        .expect("retried");
    assert_eq!(tool_json(&r), json!({"done": "s1"}));

    // With --open-urls never the error comes back to the caller.
    let (ui, _lines) = collecting(ScriptedUi::new(BOTH, FormPolicy::Cancel, UrlPolicy::Never));
    let h = duplex(ui, RecordingOpener::default(), Config::default()).await;
    let p = CallToolRequestParams::new("needs_url").with_arguments(args(json!({"id": "s2"})));
    let e = guard(h.client.call_tool(h.conn.peer(), p))
        .await
        .unwrap_err();
    assert!(matches!(e, CallError::ElicitationRequired { .. }), "{e:?}");
}

/// Refusing a request for an undeclared mode, or a malformed one, is what the
/// specification asks of the client: it is reported, but it is not an elicitation failure
/// (so `mcp-elicit call` exits by the tool's own outcome).
#[tokio::test]
async fn refused_requests_are_reported_but_are_not_failures() {
    let (ui, lines) = collecting(ScriptedUi::new(
        Capability::FORM,
        FormPolicy::AcceptDefaults,
        UrlPolicy::Consent,
    ));
    let h = duplex(ui, RecordingOpener::default(), Config::default()).await;
    let r = h
        .elicit(json!({"mode": "url", "message": "go", "url": "https://example.com/x", "elicitationId": "e1"}))
        .await;
    assert_eq!(r["error"]["code"], -32602, "{r}");
    let r = h.elicit(json!({"mode": "bogus", "message": "m"})).await;
    assert_eq!(r["error"]["code"], -32602, "{r}");
    let failures = h.client.ui().failures();
    assert!(failures.is_empty(), "{failures:?}");
    let lines = lines.lock().unwrap().clone();
    let refusals: Vec<&String> = lines.iter().filter(|l| l.contains("refused")).collect();
    assert_eq!(refusals.len(), 2, "{lines:?}");
    assert!(
        refusals[0].contains("did not declare url mode") && refusals[0].contains("-32602"),
        "{lines:?}"
    );
    assert!(refusals[1].contains("mode"), "{lines:?}");
}
