//! The client against an rmcp test server over an in-memory pipe.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use common::*;
use mcp_elicit_client::rmcp::ClientHandler;
use mcp_elicit_client::rmcp::model::CallToolRequestParams;
use mcp_elicit_client::{
    CallError, Config, FormResponse, Limits, NotCompleted, Notice, RecordingOpener, StallChoice,
    UrlDecision, UrlOrigin,
};
use mcp_elicit_core::message::Capability;
use mcp_elicit_core::schema::PropertyKind;
use mcp_elicit_core::url_safety::Verdict;
use serde_json::{Value, json};

fn form(schema: Value) -> Value {
    json!({"mode": "form", "message": "Please fill in", "requestedSchema": schema})
}

fn error_code(v: &Value) -> Option<i64> {
    v["error"]["code"].as_i64()
}

fn action(v: &Value) -> &str {
    v["ok"]["action"].as_str().unwrap_or("")
}

#[tokio::test]
async fn capability_is_derived_from_the_ui() {
    for (modes, expected) in [
        (
            Capability {
                form: true,
                url: false,
            },
            Some(json!({"form": {}})),
        ),
        (
            Capability {
                form: false,
                url: true,
            },
            Some(json!({"url": {}})),
        ),
        (
            Capability {
                form: true,
                url: true,
            },
            Some(json!({"form": {}, "url": {}})),
        ),
        (
            Capability {
                form: false,
                url: false,
            },
            None,
        ),
    ] {
        let client = mcp_elicit_client::ElicitationClient::new(
            TestUi::with_modes(modes),
            RecordingOpener::default(),
            Config::default(),
        );
        let info = serde_json::to_value(client.get_info()).unwrap();
        assert_eq!(
            info["capabilities"].get("elicitation").cloned(),
            expected,
            "{modes:?}"
        );
        assert_eq!(info["protocolVersion"], "2025-11-25");
    }
}

#[tokio::test]
async fn undeclared_mode_gets_invalid_params() {
    let ui = TestUi::with_modes(Capability {
        form: true,
        url: false,
    });
    let h = duplex(ui.clone(), RecordingOpener::default(), Config::default()).await;
    let r = h
        .elicit(json!({"mode": "url", "message": "go", "url": "https://example.com/x", "elicitationId": "e1"}))
        .await;
    assert_eq!(error_code(&r), Some(-32602), "{r}");
    assert!(
        r["error"]["message"].as_str().unwrap().contains("url mode"),
        "{r}"
    );
    assert!(ui.urls().is_empty());

    let ui = TestUi::with_modes(Capability {
        form: false,
        url: true,
    });
    let h = duplex(ui.clone(), RecordingOpener::default(), Config::default()).await;
    let r = h
        .elicit(form(json!({"type": "object", "properties": {}})))
        .await;
    assert_eq!(error_code(&r), Some(-32602), "{r}");
    // No mode at all means form mode, which this client did not declare either.
    let r = h
        .elicit(json!({"message": "m", "requestedSchema": {"type": "object", "properties": {}}}))
        .await;
    assert_eq!(error_code(&r), Some(-32602), "{r}");
    assert!(ui.forms().is_empty());
}

#[tokio::test]
async fn malformed_requests_get_invalid_params_with_the_reason() {
    let ui = TestUi::default();
    let h = duplex(ui.clone(), RecordingOpener::default(), Config::default()).await;
    let cases = [
        (json!({"mode": "bogus", "message": "m"}), "mode"),
        (
            form(
                json!({"type": "object", "properties": {"a": {"type": "object", "properties": {}}}}),
            ),
            "/requestedSchema/properties/a",
        ),
        (
            json!({"mode": "url", "message": "m", "elicitationId": "e1"}),
            "url",
        ),
        (
            json!({"mode": "url", "message": "m", "url": "https://example.com/"}),
            "elicitationId",
        ),
        (
            json!({"mode": "form", "requestedSchema": {"type": "object", "properties": {}}}),
            "message",
        ),
        (json!("not an object"), ""),
        // A pattern regress 0.12 would never finish matching against its own default is
        // no longer refused: it is shown unchecked (tests/received.rs).
    ];
    for (params, needle) in cases {
        let r = h.elicit(params.clone()).await;
        assert_eq!(error_code(&r), Some(-32602), "{params} -> {r}");
        let msg = r["error"]["message"].as_str().unwrap();
        assert!(msg.contains(needle), "{params} -> {msg}");
        // Structured too: every problem with its JSON pointer, kind and message.
        let errors = r["error"]["data"]["errors"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert!(!errors.is_empty(), "{params} -> {r}");
        for e in &errors {
            assert!(
                e["pointer"].is_string() && e["kind"].is_string() && e["message"].is_string(),
                "{params} -> {r}"
            );
        }
    }
    assert!(ui.forms().is_empty() && ui.urls().is_empty());
    // Each refusal is told to the user.
    assert!(
        ui.notices()
            .iter()
            .any(|n| matches!(n, Notice::Refused { .. }))
    );
}

#[tokio::test]
async fn pattern_reaches_the_ui_intact_and_the_identity_is_shown() {
    let ui = TestUi::default();
    ui.script_forms([FormResponse::Submit(
        json!({"user": "octocat"}).as_object().unwrap().clone(),
    )]);
    let h = duplex(ui.clone(), RecordingOpener::default(), Config::default()).await;
    let schema = json!({"type": "object", "properties": {"user": {"type": "string", "pattern": "^[a-z]+$", "title": "User"}}, "required": ["user"]});
    let r = h.elicit(form(schema.clone())).await;
    assert_eq!(action(&r), "accept", "{r}");
    assert_eq!(r["ok"]["content"], json!({"user": "octocat"}));
    let forms = ui.forms();
    assert_eq!(forms.len(), 1);
    let p = &forms[0];
    assert_eq!(
        p.raw_schema, schema,
        "the host sees requestedSchema exactly as sent"
    );
    let PropertyKind::String(spec) = p.schema.property("user").unwrap().kind() else {
        panic!("string")
    };
    assert_eq!(spec.pattern().map(|p| p.source()), Some("^[a-z]+$"));
    assert_eq!(p.server.name.as_str(), "test-server");
    assert_eq!(
        p.server.title.as_ref().map(|t| t.as_str()),
        Some("Test Server")
    );
    assert_eq!(p.server.version.as_str(), "9.9.9");
    assert_eq!(p.message.as_str(), "Please fill in");
    assert!(p.secret_findings.is_empty());
}

#[tokio::test]
async fn forms_asking_for_secrets_or_carrying_links_are_flagged_to_the_host() {
    let ui = TestUi::default();
    let h = duplex(ui.clone(), RecordingOpener::default(), Config::default()).await;
    let schema = json!({"type": "object", "properties": {
        "apiKey": {"type": "string", "title": "API key", "description": "Find it at https://example.com/keys"}
    }});
    let _ = h.elicit(form(schema)).await;
    let p = &ui.forms()[0];
    assert!(
        p.secret_findings.iter().any(|f| f.property() == "apiKey"),
        "{:?}",
        p.secret_findings
    );
    assert!(
        p.link_findings
            .iter()
            .any(|f| f.url().contains("example.com/keys")),
        "{:?}",
        p.link_findings
    );
}

#[tokio::test]
async fn invalid_answers_are_re_presented_and_never_sent() {
    let ui = TestUi::default();
    ui.script_forms([
        FormResponse::Submit(json!({"user": "NOT-LOWER"}).as_object().unwrap().clone()),
        FormResponse::Submit(json!({"user": "fine"}).as_object().unwrap().clone()),
    ]);
    let h = duplex(ui.clone(), RecordingOpener::default(), Config::default()).await;
    let schema = json!({"type": "object", "properties": {"user": {"type": "string", "pattern": "^[a-z]+$"}}, "required": ["user"]});
    let r = h.elicit(form(schema)).await;
    assert_eq!(r["ok"]["content"], json!({"user": "fine"}), "{r}");
    let forms = ui.forms();
    assert_eq!(forms.len(), 2);
    assert!(forms[0].errors.is_empty());
    assert_eq!(forms[1].attempt, 2);
    assert_eq!(
        forms[1].values,
        *json!({"user": "NOT-LOWER"}).as_object().unwrap(),
        "the user's input is kept"
    );
    assert!(
        forms[1]
            .errors
            .iter()
            .any(|e| e.property.as_deref() == Some("user")),
        "{:?}",
        forms[1].errors
    );
}

#[tokio::test]
async fn answers_that_never_validate_end_in_cancel() {
    let ui = TestUi::default();
    let bad = json!({"age": "old"}).as_object().unwrap().clone();
    ui.script_forms([
        FormResponse::Submit(bad.clone()),
        FormResponse::Submit(bad.clone()),
        FormResponse::Submit(bad),
    ]);
    let config = Config::default().with_limits(Limits::default().with_max_form_attempts(3));
    let h = duplex(ui.clone(), RecordingOpener::default(), config).await;
    let r = h
        .elicit(form(
            json!({"type": "object", "properties": {"age": {"type": "integer"}}}),
        ))
        .await;
    assert_eq!(action(&r), "cancel", "{r}");
    assert!(
        r["ok"].get("content").is_none_or(Value::is_null),
        "nothing invalid is sent: {r}"
    );
    assert_eq!(ui.forms().len(), 3);
    assert!(
        ui.notices()
            .iter()
            .any(|n| matches!(n, Notice::GaveUp { .. }))
    );
}

#[tokio::test]
async fn defaults_are_prefilled() {
    let ui = TestUi::default();
    *ui.0.submit_values.lock().unwrap() = true;
    let h = duplex(ui.clone(), RecordingOpener::default(), Config::default()).await;
    let schema = json!({"type": "object", "properties": {
        "name": {"type": "string", "default": "John Doe"},
        "age": {"type": "integer", "default": 30},
        "score": {"type": "number", "default": 95.5},
        "status": {"type": "string", "enum": ["active", "inactive"], "default": "active"},
        "verified": {"type": "boolean", "default": true},
        "nickname": {"type": "string"}
    }});
    let r = h.elicit(form(schema)).await;
    assert_eq!(action(&r), "accept", "{r}");
    assert_eq!(
        r["ok"]["content"],
        json!({"name": "John Doe", "age": 30, "score": 95.5, "status": "active", "verified": true})
    );
    let forms = ui.forms();
    let mut prefilled = forms[0].prefilled.clone();
    prefilled.sort();
    assert_eq!(prefilled, ["age", "name", "score", "status", "verified"]);
}

#[tokio::test]
async fn decline_cancel_and_stop_asking_are_answered_faithfully() {
    let ui = TestUi::default();
    ui.script_forms([
        FormResponse::Decline,
        FormResponse::Cancel,
        FormResponse::StopAsking,
    ]);
    let h = duplex(ui.clone(), RecordingOpener::default(), Config::default()).await;
    let f = form(json!({"type": "object", "properties": {"a": {"type": "string"}}}));
    let r = h.elicit(f.clone()).await;
    assert_eq!(action(&r), "decline");
    assert!(r["ok"].get("content").is_none_or(Value::is_null));
    assert_eq!(action(&h.elicit(f.clone()).await), "cancel");
    assert_eq!(action(&h.elicit(f.clone()).await), "decline");
    assert!(h.client.is_stop_asking());
    // From now on this server is not asked again.
    assert_eq!(action(&h.elicit(f.clone()).await), "decline");
    assert_eq!(ui.forms().len(), 3);
    h.client.set_stop_asking(false);
    assert_eq!(action(&h.elicit(f).await), "cancel");
    assert_eq!(ui.forms().len(), 4);
}

#[tokio::test]
async fn dangerous_urls_are_refused_and_never_opened() {
    let ui = TestUi::default();
    ui.script_urls([UrlDecision::Open, UrlDecision::Open, UrlDecision::Open]);
    let opener = RecordingOpener::default();
    let h = duplex(ui.clone(), opener.clone(), Config::default()).await;
    for (i, url) in [
        "javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "file:///etc/passwd",
    ]
    .iter()
    .enumerate()
    {
        let r = h.elicit(json!({"mode": "url", "message": "m", "url": url, "elicitationId": format!("b{i}")})).await;
        // Either refused outright as not a valid elicitation URL, or analysed and blocked.
        if error_code(&r).is_none() {
            assert_eq!(action(&r), "decline", "{url}: {r}");
        }
    }
    assert!(opener.opened().is_empty(), "{:?}", opener.opened());
    assert!(
        ui.urls().is_empty(),
        "a blocked URL is never offered for opening"
    );
    assert!(
        ui.notices()
            .iter()
            .any(|n| matches!(n, Notice::UrlBlocked { .. }))
    );
}

#[tokio::test]
async fn url_consent_shows_everything_and_opens_only_after_consent() {
    let ui = TestUi::default();
    ui.script_urls([UrlDecision::Decline, UrlDecision::Open]);
    let opener = RecordingOpener::default();
    let h = duplex(ui.clone(), opener.clone(), Config::default()).await;
    let url = "https://accounts.example.co.uk/connect?elicitationId=e1";
    let msg = "Connect at https://evil.example.net now \u{1b}[2J";
    let r = h
        .elicit(json!({"mode": "url", "message": msg, "url": url, "elicitationId": "e1"}))
        .await;
    assert_eq!(action(&r), "decline");
    assert!(opener.opened().is_empty(), "declined: nothing opened");
    let r = h
        .elicit(json!({"mode": "url", "message": msg, "url": url, "elicitationId": "e2"}))
        .await;
    assert_eq!(action(&r), "accept", "{r}");
    assert!(
        r["ok"].get("content").is_none_or(Value::is_null),
        "URL accept carries no content"
    );
    assert_eq!(opener.opened(), vec![url.to_owned()]);
    let p = &ui.urls()[1];
    assert_eq!(p.url, url, "the full URL as sent");
    assert_eq!(p.elicitation_id, "e2");
    assert_eq!(
        p.analysis.registrable_domain.as_deref(),
        Some("example.co.uk")
    );
    assert!(
        !p.message.as_str().contains('\u{1b}'),
        "control characters neutralised"
    );
    assert!(
        p.message.as_str().contains("https://evil.example.net"),
        "message kept as plain text"
    );
    assert_eq!(p.server.name.as_str(), "test-server");
    assert!(matches!(p.origin, UrlOrigin::Request { .. }));
}

#[tokio::test]
async fn punycode_is_shown_in_both_forms() {
    let ui = TestUi::default();
    let h = duplex(ui.clone(), RecordingOpener::default(), Config::default()).await;
    let r = h.elicit(json!({"mode": "url", "message": "m", "url": "https://xn--80ak6aa92e.com/login", "elicitationId": "p1"})).await;
    assert_eq!(action(&r), "decline", "{r}");
    if let Some(p) = ui.urls().first() {
        assert_eq!(p.analysis.host_ascii.as_deref(), Some("xn--80ak6aa92e.com"));
        assert_ne!(p.analysis.host_unicode, p.analysis.host_ascii);
        assert!(!p.analysis.warnings.is_empty());
        assert_ne!(p.analysis.verdict, Verdict::Ok);
    } else {
        assert!(
            ui.notices()
                .iter()
                .any(|n| matches!(n, Notice::UrlBlocked { .. }))
        );
    }
}

#[tokio::test]
async fn the_url_is_never_fetched_before_consent() {
    // A loopback HTTP server that counts connections.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    tokio::spawn(async move {
        while let Ok((_s, _)) = listener.accept().await {
            counter.fetch_add(1, Ordering::SeqCst);
        }
    });
    let ui = TestUi::default();
    let seen_at_prompt = Arc::new(AtomicUsize::new(usize::MAX));
    let seen = seen_at_prompt.clone();
    let hits_at_prompt = hits.clone();
    *ui.0.on_url.lock().unwrap() = Some(Box::new(move |_| {
        seen.store(hits_at_prompt.load(Ordering::SeqCst), Ordering::SeqCst)
    }));
    ui.script_urls([UrlDecision::Decline, UrlDecision::Open]);
    let opener = RecordingOpener::default();
    let h = duplex(ui.clone(), opener.clone(), Config::default()).await;
    let url = format!("http://127.0.0.1:{port}/connect");
    for id in ["f1", "f2"] {
        let _ = h
            .elicit(json!({"mode": "url", "message": "m", "url": url, "elicitationId": id}))
            .await;
    }
    assert_eq!(
        ui.urls().len(),
        2,
        "loopback http is offered (with warnings), not blocked"
    );
    assert_eq!(
        seen_at_prompt.load(Ordering::SeqCst),
        0,
        "no hit before the consent prompt"
    );
    assert_eq!(
        hits.load(Ordering::SeqCst),
        0,
        "the client itself never fetches the URL"
    );
    assert_eq!(opener.opened(), vec![url]);
}

#[tokio::test]
async fn completions_for_unknown_ids_are_ignored_and_known_ids_resolve_once() {
    let ui = TestUi::default();
    let h = duplex(ui.clone(), RecordingOpener::default(), Config::default()).await;
    // Any call, so the server has a peer handle; then a completion before any request.
    let _ = h.elicit(json!({"mode": "bogus", "message": "m"})).await;
    h.server.notify_complete("ghost").await;
    assert_eq!(
        h.client.registry().complete("ghost"),
        mcp_elicit_client::CompleteOutcome::UnknownId
    );
    // A URL request makes e7 known.
    let _ = h.elicit(json!({"mode": "url", "message": "m", "url": "https://example.com/", "elicitationId": "e7"})).await;
    let mut waiter = h.client.registry().register("e7");
    h.server.notify_complete("e7").await;
    guard(waiter.wait()).await.unwrap();
    h.server.notify_complete("e7").await;
    // A later known completion, to know the second e7 was processed (same ordered pipe).
    let _ = h.elicit(json!({"mode": "url", "message": "m", "url": "https://example.com/", "elicitationId": "e9"})).await;
    let mut w9 = h.client.registry().register("e9");
    h.server.notify_complete("e9").await;
    guard(w9.wait()).await.unwrap();
    let completed: Vec<String> = ui
        .notices()
        .iter()
        .filter_map(|n| match n {
            Notice::Completed { elicitation_id, .. } => Some(elicitation_id.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(completed, ["e7", "e9"], "ghost ignored, e7 once");
}

fn needs_url(id: &str) -> CallToolRequestParams {
    CallToolRequestParams::new("needs_url").with_arguments(args(json!({"id": id})))
}

#[tokio::test]
async fn url_elicitation_required_consent_completion_retry() {
    let ui = TestUi::default();
    ui.script_urls([UrlDecision::Open]);
    let (opener, mut opened) = ChannelOpener::new();
    let h = duplex(ui.clone(), opener.clone(), Config::default()).await;
    let server = h.server.clone();
    tokio::spawn(async move {
        if opened.recv().await.is_some() {
            server.complete("e1").await;
        }
    });
    let r = guard(h.client.call_tool(h.conn.peer(), needs_url("e1")))
        .await
        .expect("retried call succeeds");
    assert_eq!(tool_json(&r), json!({"done": "e1"}));
    assert_eq!(*h.server.needs_url_calls.lock().unwrap(), 2);
    assert_eq!(
        opener.opened(),
        vec!["https://auth.example.com/connect".to_owned()]
    );
    let p = &ui.urls()[0];
    assert_eq!(
        p.origin,
        UrlOrigin::RequiredByCall {
            tool: "needs_url".into(),
            step: 1,
            of: 1
        }
    );
    assert_eq!(p.server.name.as_str(), "test-server");
}

#[tokio::test]
async fn url_elicitation_required_declined_is_not_retried() {
    let ui = TestUi::default();
    ui.script_urls([UrlDecision::Decline]);
    let opener = RecordingOpener::default();
    let h = duplex(ui.clone(), opener.clone(), Config::default()).await;
    let e = guard(h.client.call_tool(h.conn.peer(), needs_url("e1")))
        .await
        .unwrap_err();
    assert!(
        matches!(
            e,
            CallError::ElicitationRequired {
                reason: NotCompleted::Declined,
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(*h.server.needs_url_calls.lock().unwrap(), 1);
    assert!(opener.opened().is_empty());
}

#[tokio::test]
async fn url_elicitation_required_with_bad_data_is_an_error() {
    let ui = TestUi::default();
    let h = duplex(ui.clone(), RecordingOpener::default(), Config::default()).await;
    for data in [
        json!({"elicitations": []}),
        json!({"elicitations": [{"mode": "form", "message": "m", "requestedSchema": {"type": "object", "properties": {}}}]}),
        json!(null),
    ] {
        let p = CallToolRequestParams::new("raw_error").with_arguments(args(json!({"data": data})));
        let e = guard(h.client.call_tool(h.conn.peer(), p))
            .await
            .unwrap_err();
        assert!(
            matches!(e, CallError::InvalidRequiredData { .. }),
            "{data}: {e:?}"
        );
    }
    assert!(ui.urls().is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_missing_notification_offers_retry_now_and_cancel() {
    let ui = TestUi::default();
    ui.script_urls([UrlDecision::Open, UrlDecision::Open]);
    ui.script_stalls([StallChoice::RetryNow]);
    let (opener, mut opened) = ChannelOpener::new();
    let config = Config::default().with_completion_timeout(Duration::from_secs(5));
    let h = duplex(ui.clone(), opener, config).await;
    let server = h.server.clone();
    tokio::spawn(async move {
        // The interaction finishes, but the server never notifies.
        if opened.recv().await.is_some() {
            server.completed.lock().unwrap().insert("e2".into());
        }
    });
    let r = guard(h.client.call_tool(h.conn.peer(), needs_url("e2")))
        .await
        .expect("retry now works");
    assert_eq!(tool_json(&r), json!({"done": "e2"}));
    let stalls = ui.0.stalls.lock().unwrap().clone();
    assert_eq!(stalls.len(), 1);
    assert_eq!(stalls[0].pending, ["e2"]);
    assert_eq!(stalls[0].tool, "needs_url");

    // Cancel gives up.
    let e = guard(h.client.call_tool(h.conn.peer(), needs_url("e3")))
        .await
        .unwrap_err();
    assert!(
        matches!(
            e,
            CallError::ElicitationRequired {
                reason: NotCompleted::Cancelled,
                ..
            }
        ),
        "{e:?}"
    );
}

#[tokio::test]
async fn retries_are_bounded() {
    let ui = TestUi::default();
    ui.script_urls([UrlDecision::Open; 10]);
    let (opener, mut opened) = ChannelOpener::new();
    let h = duplex(
        ui.clone(),
        opener,
        Config::default().with_max_retry_rounds(2),
    )
    .await;
    let server = h.server.clone();
    tokio::spawn(async move {
        // Notifies completion but never records it: the server keeps answering -32042.
        while opened.recv().await.is_some() {
            server.notify_complete("loop").await;
        }
    });
    let e = guard(h.client.call_tool(h.conn.peer(), needs_url("loop")))
        .await
        .unwrap_err();
    assert!(
        matches!(e, CallError::RoundsExhausted { rounds: 2, .. }),
        "{e:?}"
    );
    assert_eq!(*h.server.needs_url_calls.lock().unwrap(), 3);
}

#[tokio::test]
async fn a_flood_of_elicitations_is_rate_limited_with_a_single_notice() {
    let ui = TestUi::default();
    let h = duplex(ui.clone(), RecordingOpener::default(), Config::default()).await;
    let p = CallToolRequestParams::new("elicit_flood")
        .with_arguments(args(json!({"count": 40, "params": form(json!({"type": "object", "properties": {"a": {"type": "string"}}}))})));
    let r = guard(h.conn.peer().call_tool(p)).await.unwrap();
    let outcomes = tool_json(&r);
    let outcomes = outcomes.as_array().unwrap();
    assert_eq!(outcomes.len(), 40);
    assert!(
        outcomes.iter().all(|o| action(o) == "cancel"),
        "{outcomes:?}"
    );
    assert_eq!(ui.forms().len(), 5, "only the burst is shown");
    let notices = ui
        .notices()
        .iter()
        .filter(|n| matches!(n, Notice::RateLimited { .. }))
        .count();
    assert_eq!(notices, 1);
}

#[tokio::test]
async fn huge_messages_and_schemas_are_refused_with_a_clear_error() {
    let ui = TestUi::default();
    let h = duplex(ui.clone(), RecordingOpener::default(), Config::default()).await;
    let huge = "x".repeat(300 * 1024);
    let r = h.elicit(json!({"mode": "form", "message": huge, "requestedSchema": {"type": "object", "properties": {}}})).await;
    assert_eq!(error_code(&r), Some(-32602));
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("larger than this client accepts"),
        "{}",
        r["error"]["message"]
    );

    let long = "y".repeat(100 * 1024);
    let r = h.elicit(json!({"mode": "form", "message": long, "requestedSchema": {"type": "object", "properties": {}}})).await;
    assert_eq!(error_code(&r), Some(-32602));
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("too_large"),
        "{}",
        r["error"]["message"]
    );

    let mut props = serde_json::Map::new();
    for i in 0..2000 {
        props.insert(format!("p{i}"), json!({"type": "boolean"}));
    }
    let r = h
        .elicit(form(json!({"type": "object", "properties": props})))
        .await;
    assert_eq!(error_code(&r), Some(-32602));
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("too_large"),
        "{}",
        r["error"]["message"]
    );
    assert!(ui.forms().is_empty());
}

#[tokio::test]
async fn a_disconnect_while_waiting_ends_the_wait() {
    let ui = TestUi::default();
    ui.script_urls([UrlDecision::Open]);
    let (opener, mut opened) = ChannelOpener::new();
    let h = duplex(ui.clone(), opener, Config::default()).await;
    let task = h.server_task.abort_handle();
    let peer = h.server.clone();
    tokio::spawn(async move {
        if opened.recv().await.is_some() {
            // The server goes away instead of completing.
            let _ = peer.peer.lock().unwrap().take();
            task.abort();
        }
    });
    let e = guard(h.client.call_tool(h.conn.peer(), needs_url("gone")))
        .await
        .unwrap_err();
    assert!(
        matches!(e, CallError::Disconnected | CallError::Service(_)),
        "{e:?}"
    );
    assert!(h.client.registry().is_closed());
    let mut late = h.client.registry().register("later");
    assert!(guard(late.wait()).await.is_err());
}

/// A UI whose URL consent only returns once the server's completion notification has
/// already been processed: the notification arrives *before* the wait starts.
struct FastCompletionUi {
    server: std::sync::OnceLock<Arc<ServerState>>,
    registry: std::sync::OnceLock<mcp_elicit_client::CompletionRegistry>,
}

impl mcp_elicit_client::ElicitationUi for FastCompletionUi {
    fn modes(&self) -> Capability {
        Capability {
            form: true,
            url: true,
        }
    }
    async fn present_form(&self, _: mcp_elicit_client::FormPrompt) -> FormResponse {
        FormResponse::Cancel
    }
    async fn present_url(&self, prompt: mcp_elicit_client::UrlPrompt) -> UrlDecision {
        let (Some(server), Some(registry)) = (self.server.get(), self.registry.get()) else {
            return UrlDecision::Cancel;
        };
        server.complete(&prompt.elicitation_id).await;
        while registry.is_pending(&prompt.elicitation_id) {
            tokio::task::yield_now().await;
        }
        UrlDecision::Open
    }
    async fn notify(&self, _: Notice) {}
    async fn completion_stalled(&self, _: mcp_elicit_client::StalledCompletion) -> StallChoice {
        StallChoice::Cancel
    }
}

#[tokio::test]
async fn a_completion_that_arrives_during_consent_is_not_missed() {
    let ui = Arc::new(FastCompletionUi {
        server: Default::default(),
        registry: Default::default(),
    });
    let h = duplex(
        SharedUi(ui.clone()),
        RecordingOpener::default(),
        Config::default(),
    )
    .await;
    let _ = ui.registry.set(h.client.registry().clone());
    // A first call so the server has a peer handle to notify with.
    let _ = h.elicit(json!({"mode": "bogus", "message": "m"})).await;
    let _ = ui.server.set(h.server.clone());
    let r = guard(h.client.call_tool(h.conn.peer(), needs_url("fast")))
        .await
        .expect("no stall, no hang");
    assert_eq!(tool_json(&r), json!({"done": "fast"}));
}

/// Shares one UI between the test and the client.
struct SharedUi(Arc<FastCompletionUi>);

impl mcp_elicit_client::ElicitationUi for SharedUi {
    fn modes(&self) -> Capability {
        self.0.modes()
    }
    async fn present_form(&self, p: mcp_elicit_client::FormPrompt) -> FormResponse {
        self.0.present_form(p).await
    }
    async fn present_url(&self, p: mcp_elicit_client::UrlPrompt) -> UrlDecision {
        self.0.present_url(p).await
    }
    async fn notify(&self, n: Notice) {
        self.0.notify(n).await
    }
    async fn completion_stalled(&self, s: mcp_elicit_client::StalledCompletion) -> StallChoice {
        self.0.completion_stalled(s).await
    }
}

#[tokio::test(start_paused = true)]
async fn an_unanswered_prompt_times_out_as_cancel() {
    let ui = TestUi::default();
    *ui.0.hold_forms.lock().unwrap() = Some(Arc::new(tokio::sync::Notify::new()));
    let config = Config::default().with_prompt_timeout(Some(Duration::from_secs(5)));
    let h = duplex(ui.clone(), RecordingOpener::default(), config).await;
    let r = h
        .elicit(form(
            json!({"type": "object", "properties": {"a": {"type": "string"}}}),
        ))
        .await;
    assert_eq!(action(&r), "cancel", "{r}");
    assert_eq!(ui.forms().len(), 1);
}

#[tokio::test]
async fn a_request_the_server_cancels_releases_its_prompt() {
    let ui = TestUi::default();
    *ui.0.hold_forms.lock().unwrap() = Some(Arc::new(tokio::sync::Notify::new()));
    let h = duplex(ui.clone(), RecordingOpener::default(), Config::default()).await;
    let f = form(json!({"type": "object", "properties": {"a": {"type": "string"}}}));
    let peer = h.conn.peer().clone();
    let params = CallToolRequestParams::new("elicit_then_cancel")
        .with_arguments(args(json!({"params": f.clone()})));
    let call = tokio::spawn(async move { peer.call_tool(params).await });
    guard(async {
        while ui.forms().is_empty() {
            tokio::task::yield_now().await;
        }
    })
    .await;
    h.server.cancel_now.notify_one();
    guard(call)
        .await
        .unwrap()
        .expect("tool returns after cancelling");
    // The cancelled prompt no longer holds the prompt lane: the next request is shown.
    *ui.0.hold_forms.lock().unwrap() = None;
    ui.script_forms([FormResponse::Decline]);
    assert_eq!(action(&h.elicit(f).await), "decline");
    assert_eq!(ui.forms().len(), 2);
}
