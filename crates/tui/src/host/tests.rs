//! Host state tests: client prompts arrive through the bridge's messages, keys answer
//! them, and the answers reach the client library's one-shot channels.

use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_elicit_client::rmcp::model::Tool;
use mcp_elicit_client::{
    FormPrompt, FormResponse, Notice, OverviewChoice, PlainText, ProgressUpdate, RateLimit,
    RequiredOverview, RequiredStep, StallChoice, StalledCompletion, TransportIdentity, UrlDecision,
    UrlOrigin, UrlPrompt,
};
use mcp_elicit_core::Schema;
use mcp_elicit_core::url_safety::analyze;
use ratatui::crossterm::event::KeyCode;
use serde_json::{Map, Value, json};
use tokio::sync::oneshot;

use super::app::{App, Base, Effect};
use super::bridge::UiRequest;
use crate::testutil::{
    assert_buttons, assert_focused_button, assert_has, assert_lacks, ctrl, key, screen, typing,
};

fn client_identity() -> mcp_elicit_client::ServerIdentity {
    mcp_elicit_client::ServerIdentity::new(
        None,
        TransportIdentity::Other {
            description: "test pipe".into(),
        },
    )
}

fn app() -> App {
    let schema =
        json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]});
    let Value::Object(schema) = schema else {
        unreachable!()
    };
    let tool = Tool::new("weather", "Tells the weather", Arc::new(schema));
    App::new(
        super::convert::identity(&client_identity()),
        None,
        vec![tool],
    )
}

fn draw(app: &mut App) -> Vec<String> {
    let now = Instant::now();
    screen(80, 24, |area, buf| {
        app.render(now, area, buf);
    })
}

fn form_prompt() -> FormPrompt {
    let raw =
        json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]});
    FormPrompt {
        server: client_identity(),
        request_id: "1".into(),
        message: PlainText::from_untrusted("What is your name?"),
        schema: Arc::new(Schema::parse(&raw).expect("schema")),
        raw_schema: raw,
        values: Map::new(),
        prefilled: vec![],
        errors: vec![],
        attempt: 1,
        secret_findings: vec![],
        link_findings: vec![],
    }
}

fn url_prompt(url: &str) -> UrlPrompt {
    UrlPrompt {
        server: client_identity(),
        origin: UrlOrigin::Request {
            request_id: "2".into(),
        },
        elicitation_id: "el-1".into(),
        message: PlainText::from_untrusted("Connect your account"),
        url: url.into(),
        analysis: analyze(url),
    }
}

fn press(app: &mut App, keys: Vec<ratatui::crossterm::event::KeyEvent>) -> Option<Effect> {
    let mut last = None;
    for k in keys {
        last = app.key(k, Instant::now());
    }
    last
}

#[test]
fn a_form_request_is_shown_over_the_tool_list_and_answered() {
    let mut a = app();
    let (tx, mut rx) = oneshot::channel();
    a.request(UiRequest::Form(Box::new(form_prompt()), tx), Instant::now());
    let s = draw(&mut a);
    assert_has(&s, "Form request from server: (unnamed server)");
    assert_has(&s, "What is your name?");
    press(&mut a, typing("Ada"));
    press(&mut a, vec![ctrl('s'), key(KeyCode::Enter)]);
    let mut expected = Map::new();
    expected.insert("name".into(), json!("Ada"));
    assert_eq!(rx.try_recv().ok(), Some(FormResponse::Submit(expected)));
    assert_has(&draw(&mut a), "Tools from server");
}

#[test]
fn prompts_queue_one_at_a_time_and_esc_cancels() {
    let mut a = app();
    let (tx1, mut rx1) = oneshot::channel();
    let (tx2, mut rx2) = oneshot::channel();
    a.request(
        UiRequest::Form(Box::new(form_prompt()), tx1),
        Instant::now(),
    );
    a.request(
        UiRequest::Url(Box::new(url_prompt("https://example.com/x")), tx2),
        Instant::now(),
    );
    assert_has(&draw(&mut a), "Form request");
    press(&mut a, vec![ctrl('d')]);
    assert_eq!(rx1.try_recv().ok(), Some(FormResponse::Decline));
    assert_has(&draw(&mut a), "URL request");
    press(&mut a, vec![key(KeyCode::Esc)]);
    assert_eq!(rx2.try_recv().ok(), Some(UrlDecision::Cancel));
}

#[test]
fn url_open_and_copy() {
    let mut a = app();
    let (tx, mut rx) = oneshot::channel();
    a.request(
        UiRequest::Url(Box::new(url_prompt("https://mcp.example.com/connect")), tx),
        Instant::now(),
    );
    let s = draw(&mut a);
    assert_has(&s, "Domain (marked ^ above): example.com");
    assert_eq!(
        press(&mut a, vec![key(KeyCode::Char('c'))]),
        Some(Effect::Copy("https://mcp.example.com/connect".into()))
    );
    a.copied(Ok(()));
    let s = draw(&mut a);
    // Only what was done is claimed: the terminal may have dropped OSC 52.
    assert_has(&s, "Asked your terminal to copy the URL (OSC 52)");
    assert_lacks(&s, "Copied");
    assert_focused_button(&s, "I finished in my browser (F)", 80);
    // Open starts the browser first; the answer waits for it.
    assert_eq!(
        press(&mut a, vec![key(KeyCode::Char('o'))]),
        Some(Effect::Open("https://mcp.example.com/connect".into()))
    );
    assert!(rx.try_recv().is_err());
    a.opened(Ok(()), Instant::now());
    assert_eq!(rx.try_recv().ok(), Some(UrlDecision::Open));
}

#[test]
fn with_no_browser_open_keeps_the_screen_and_copy_stays_possible() {
    let mut a = app();
    let (tx, mut rx) = oneshot::channel();
    a.request(
        UiRequest::Url(Box::new(url_prompt("https://mcp.example.com/connect")), tx),
        Instant::now(),
    );
    press(&mut a, vec![key(KeyCode::Char('o'))]);
    a.opened(
        Err("no browser is configured (--browser none)".into()),
        Instant::now(),
    );
    // Nothing was answered: no cancel for a user who can still copy the URL.
    assert!(rx.try_recv().is_err());
    let s = draw(&mut a);
    assert_has(&s, "Could not start a browser: no browser is configured");
    assert_buttons(
        &s,
        &[
            "Copy URL (C)",
            "I finished in my browser (F)",
            "Decline (D)",
            "Cancel (Esc)",
        ],
        80,
    );
    assert_focused_button(&s, "Copy URL (C)", 80);
    assert_eq!(
        press(&mut a, vec![key(KeyCode::Char('c'))]),
        Some(Effect::Copy("https://mcp.example.com/connect".into()))
    );
    // "I finished in my browser" consents without starting anything.
    assert_eq!(press(&mut a, vec![key(KeyCode::Char('f'))]), None);
    assert_eq!(rx.try_recv().ok(), Some(UrlDecision::Open));
}

#[test]
fn a_completion_notice_for_the_url_on_screen_moves_on_by_itself() {
    let mut a = app();
    let (tx, mut rx) = oneshot::channel();
    a.request(
        UiRequest::Url(Box::new(url_prompt("https://mcp.example.com/connect")), tx),
        Instant::now(),
    );
    press(&mut a, vec![key(KeyCode::Char('c'))]);
    a.copied(Ok(()));
    // Another elicitation's completion changes nothing.
    a.request(
        UiRequest::Notify(Notice::Completed {
            server: client_identity(),
            elicitation_id: "someone-else".into(),
        }),
        Instant::now(),
    );
    assert!(rx.try_recv().is_err());
    assert!(a.prompt.is_some());
    // The user finished in another browser: the screen goes, consent is sent, never cancel.
    a.request(
        UiRequest::Notify(Notice::Completed {
            server: client_identity(),
            elicitation_id: "el-1".into(),
        }),
        Instant::now(),
    );
    assert_eq!(rx.try_recv().ok(), Some(UrlDecision::Open));
    assert!(a.prompt.is_none());
}

#[test]
fn withdrawn_prompts_disappear_with_a_notice() {
    let mut a = app();
    let (tx, rx) = oneshot::channel::<FormResponse>();
    a.request(UiRequest::Form(Box::new(form_prompt()), tx), Instant::now());
    drop(rx);
    a.tick(Instant::now());
    let s = draw(&mut a);
    assert_has(&s, "Notice: The server withdrew its request.");
    assert_has(&s, "Tools from server");
}

#[test]
fn notices_show_then_expire() {
    let mut a = app();
    let t0 = Instant::now();
    a.request(
        UiRequest::Notify(Notice::RateLimited {
            server: client_identity(),
            policy: RateLimit::default(),
        }),
        t0,
    );
    assert_has(&draw(&mut a), "sent more elicitation requests than allowed");
    a.tick(t0 + Duration::from_secs(60));
    assert!(a.notices.is_empty());
}

#[test]
fn stalled_completion_offers_retry_now() {
    let mut a = app();
    let (tx, mut rx) = oneshot::channel();
    let stalled = StalledCompletion {
        server: client_identity(),
        tool: "files".into(),
        pending: vec!["el-9".into()],
        waited: Duration::from_secs(90),
    };
    a.request(UiRequest::Stalled(stalled, tx), Instant::now());
    let s = draw(&mut a);
    assert_has(&s, "No completion notice has arrived yet.");
    assert_has(&s, "Elapsed: 1:30");
    press(&mut a, vec![key(KeyCode::Char('r'))]);
    assert_eq!(rx.try_recv().ok(), Some(StallChoice::RetryNow));
}

#[test]
fn tool_flow_from_list_to_arguments_to_call_to_result() {
    let mut a = app();
    assert_has(&draw(&mut a), "> weather");
    press(&mut a, vec![key(KeyCode::Enter)]);
    assert_has(&draw(&mut a), "Tool: weather");
    press(&mut a, typing("Paris"));
    let effect = press(&mut a, vec![ctrl('s'), key(KeyCode::Enter)]);
    let mut args = Map::new();
    args.insert("city".into(), json!("Paris"));
    assert_eq!(effect, Some(Effect::CallTool("weather".into(), args)));
    assert!(matches!(a.base, Base::Calling(..)));
    assert_has(&draw(&mut a), "the tool \"weather\" is running");
    let result = mcp_elicit_client::rmcp::model::CallToolResult::error(vec![
        mcp_elicit_client::rmcp::model::ContentBlock::text("No such city"),
    ]);
    a.call_finished("weather", Ok(result));
    let s = draw(&mut a);
    assert_has(&s, "Error: the tool reported a failure.");
    assert_has(&s, "No such city");
    press(&mut a, vec![key(KeyCode::Enter)]);
    assert_eq!(
        press(&mut a, vec![key(KeyCode::Char('q'))]),
        Some(Effect::Quit)
    );
}

#[test]
fn ctrl_t_on_the_tool_list_toggles_stop_asking() {
    let mut a = app();
    assert_eq!(
        press(&mut a, vec![ctrl('t')]),
        Some(Effect::ToggleStopAsking)
    );
    a.stop_asking = true;
    assert_has(&draw(&mut a), "Stop asking is on");
}

#[test]
fn secret_looking_forms_are_warned_about_and_links_noted() {
    let raw = json!({"type": "object", "properties": {
        "api_key": {"type": "string", "title": "API key", "description": "See https://evil.example/help"}
    }});
    let schema = Schema::parse(&raw).expect("schema");
    let mut p = form_prompt();
    p.secret_findings = mcp_elicit_core::lint::lint_schema(&schema);
    p.link_findings = mcp_elicit_core::lint::find_urls_in_schema(&schema);
    assert!(!p.secret_findings.is_empty() && !p.link_findings.is_empty());
    p.schema = Arc::new(schema);
    p.raw_schema = raw;
    let mut a = app();
    let (tx, _rx) = oneshot::channel();
    a.request(UiRequest::Form(Box::new(p), tx), Instant::now());
    let s = draw(&mut a);
    assert_has(
        &s,
        "Warning: this form looks like it asks for a secret (2 findings",
    );
    assert_has(&s, "Note: ");
}

/// Starts the `weather` call from the tool list.
fn start_call(a: &mut App) {
    press(a, vec![key(KeyCode::Enter)]);
    press(a, typing("Paris"));
    let effect = press(a, vec![ctrl('s'), key(KeyCode::Enter)]);
    assert!(matches!(effect, Some(Effect::CallTool(..))), "{effect:?}");
}

fn progress(progress: f64, total: Option<f64>, message: &str) -> UiRequest {
    UiRequest::Progress(ProgressUpdate {
        server: client_identity(),
        token: "0".into(),
        progress,
        total,
        message: Some(PlainText::from_untrusted(message)),
    })
}

#[test]
fn progress_of_the_running_call_is_drawn_in_words_and_esc_cancels() {
    let mut a = app();
    // Progress with no call running is ignored.
    a.request(progress(1.0, Some(4.0), "early"), Instant::now());
    assert!(!draw(&mut a).iter().any(|l| l.contains("early")));
    start_call(&mut a);
    a.request(progress(3.0, Some(4.0), "Copying files"), Instant::now());
    let s = draw(&mut a);
    assert_has(&s, "Progress: [");
    assert_has(&s, " 75% Copying files");
    a.request(progress(7.0, None, "still going\u{1b}[2J"), Instant::now());
    let s = draw(&mut a);
    assert_has(&s, "Working: 7 done (total unknown) still going");
    assert!(!s.iter().any(|l| l.contains('\u{1b}')));
    crate::testutil::assert_pinned(&s, &["Stop waiting (Esc)"], 80);
    assert_eq!(
        press(&mut a, vec![key(KeyCode::Esc)]),
        Some(Effect::CancelCall)
    );
    assert!(matches!(a.base, Base::Tools(..)));
}

fn overview() -> RequiredOverview {
    let step = |id: &str, msg: &str, url: &str| RequiredStep {
        elicitation_id: id.into(),
        message: PlainText::from_untrusted(msg),
        url: url.into(),
        analysis: analyze(url),
    };
    RequiredOverview {
        server: client_identity(),
        tool: "weather".into(),
        steps: vec![
            step(
                "a1",
                "Connect your account",
                "https://auth.example.com/connect",
            ),
            step("a2", "Pay the fee", "https://pay.example.org/fee"),
        ],
        round: 1,
    }
}

#[test]
fn required_overview_lists_the_steps_then_waits_for_their_completion() {
    let mut a = app();
    start_call(&mut a);
    let (tx, mut rx) = oneshot::channel();
    a.request(
        UiRequest::Overview(Box::new(overview()), tx),
        Instant::now(),
    );
    let s = draw(&mut a);
    assert_has(&s, "Tool needs browser steps");
    assert_has(&s, "cannot run until you complete 2 steps");
    assert_has(&s, "1. Connect your account");
    assert_has(&s, "2. Pay the fee");
    assert_has(&s, "Domain: example.org");
    press(&mut a, vec![key(KeyCode::Enter)]);
    assert_eq!(rx.try_recv(), Ok(OverviewChoice::Continue));
    // Under the consent screens, the call now waits for both steps.
    let s = draw(&mut a);
    assert_has(&s, "the tool \"weather\" is retried once your browser");
    assert_has(&s, "Still pending: 2");
    a.request(
        UiRequest::Notify(Notice::Completed {
            server: client_identity(),
            elicitation_id: "a1".into(),
        }),
        Instant::now(),
    );
    let s = draw(&mut a);
    assert_has(&s, "Still pending: 1");
    assert!(!s.iter().any(|l| l.trim() == "elicitation a1"), "{s:#?}");
    assert_has(&s, "elicitation a2");
}

#[test]
fn esc_on_the_required_overview_cancels_the_call() {
    let mut a = app();
    start_call(&mut a);
    let (tx, mut rx) = oneshot::channel();
    a.request(
        UiRequest::Overview(Box::new(overview()), tx),
        Instant::now(),
    );
    press(&mut a, vec![key(KeyCode::Esc)]);
    assert_eq!(rx.try_recv(), Ok(OverviewChoice::Cancel));
    assert!(a.prompt.is_none());
}

#[test]
fn the_tool_list_keeps_the_last_tool_and_tools_without_arguments_run_on_one_enter() {
    let Value::Object(empty) = json!({"type": "object", "properties": {}}) else {
        unreachable!()
    };
    let tools = vec![
        Tool::new("first", "One", Arc::new(empty.clone())),
        Tool::new("second", "Two", Arc::new(empty)),
    ];
    let mut a = App::new(super::convert::identity(&client_identity()), None, tools);
    press(&mut a, vec![key(KeyCode::Down)]);
    // One Enter: no form, no review, the call starts.
    assert_eq!(
        press(&mut a, vec![key(KeyCode::Enter)]),
        Some(Effect::CallTool("second".into(), Map::new()))
    );
    a.call_finished(
        "second",
        Ok(mcp_elicit_client::rmcp::model::CallToolResult::success(
            vec![],
        )),
    );
    press(&mut a, vec![key(KeyCode::Enter)]);
    assert_has(&draw(&mut a), "> second");
}

#[test]
fn the_stop_asking_notice_is_whole_at_80_columns() {
    let mut a = app();
    a.stop_asking = true;
    let s = draw(&mut a);
    assert_has(
        &s,
        "Stop asking is on: requests from this server are declined",
    );
    assert!(s.iter().any(|l| l.contains("list).")), "{}", s.join("\n"));
}

#[test]
fn a_declined_required_step_is_not_reported_as_a_failure() {
    let mut a = app();
    start_call(&mut a);
    let error = mcp_elicit_client::rmcp::model::ErrorData::new(
        mcp_elicit_client::rmcp::model::ErrorCode(-32042),
        "needs a URL",
        None,
    );
    a.call_finished(
        "weather",
        Err(mcp_elicit_client::CallError::ElicitationRequired {
            reason: mcp_elicit_client::NotCompleted::Declined,
            error: Box::new(error),
        }),
    );
    let s = draw(&mut a);
    assert_has(&s, "The tool did not run.");
    assert_has(&s, "You declined a browser step");
    assert_lacks(&s, "Error");
}
