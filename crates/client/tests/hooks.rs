//! The host hooks beyond prompts: progress of a running call (and cancelling it), and
//! the -32042 overview before the consent screens.

mod common;

use common::*;
use mcp_elicit_client::rmcp::model::CallToolRequestParams;
use mcp_elicit_client::{
    CallError, Config, NotCompleted, OverviewChoice, RecordingOpener, UrlDecision, UrlOrigin,
};
use mcp_elicit_core::url_safety::Verdict;
use serde_json::json;

#[tokio::test]
async fn progress_reaches_the_ui_and_cancelling_sends_notifications_cancelled() {
    let ui = TestUi::default();
    let h = duplex(ui.clone(), RecordingOpener::default(), Config::default()).await;
    let client = h.client.clone();
    let peer = h.conn.peer().clone();
    let call = tokio::spawn(async move {
        client
            .call_tool(&peer, CallToolRequestParams::new("slow_progress"))
            .await
    });
    guard(async {
        while ui.0.progress.lock().unwrap().len() < 2 {
            ui.0.progress_seen.notified().await;
        }
    })
    .await;
    let updates = ui.0.progress.lock().unwrap().clone();
    assert_eq!(updates[0].progress, 1.0);
    assert_eq!(updates[0].total, Some(4.0));
    assert_eq!(
        updates[0].message.as_ref().map(|m| m.as_str()),
        Some("Copying")
    );
    assert_eq!(updates[1].progress, 2.0);
    assert_eq!(updates[0].token, updates[1].token, "one request, one token");
    assert!(!updates[0].token.is_empty());
    assert_eq!(updates[0].server.name.as_str(), "test-server");
    // The host abandons the call (the TUI aborts its task): rmcp sends
    // notifications/cancelled, which cancels the request on the server.
    call.abort();
    guard(h.server.slow_cancelled.notified()).await;
    assert!(call.await.unwrap_err().is_cancelled());
}

#[tokio::test]
async fn required_overview_lists_every_step_before_the_consent_screens() {
    let ui = TestUi::default();
    ui.script_urls([UrlDecision::Open, UrlDecision::Open]);
    let (opener, mut opened) = ChannelOpener::new();
    let h = duplex(ui.clone(), opener.clone(), Config::default()).await;
    let server = h.server.clone();
    tokio::spawn(async move {
        while let Some(url) = opened.recv().await {
            let id = if url.contains("a1") { "a1" } else { "a2" };
            server.complete(id).await;
        }
    });
    let r = guard(
        h.client
            .call_tool(h.conn.peer(), CallToolRequestParams::new("needs_two")),
    )
    .await
    .expect("retried once both steps completed");
    assert_eq!(tool_json(&r), json!("both done"));
    let overviews = ui.0.overviews.lock().unwrap().clone();
    assert_eq!(overviews.len(), 1, "one overview per -32042");
    let o = &overviews[0];
    assert_eq!(o.tool, "needs_two");
    assert_eq!(o.round, 1);
    let ids: Vec<&str> = o.steps.iter().map(|s| s.elicitation_id.as_str()).collect();
    assert_eq!(ids, ["a1", "a2"]);
    assert_eq!(o.steps[1].message.as_str(), "Pay the fee");
    assert_eq!(
        o.steps[0].analysis.registrable_domain.as_deref(),
        Some("example.com")
    );
    assert_ne!(o.steps[1].analysis.verdict, Verdict::Block);
    // Then each URL is still asked about on its own, numbered.
    let origins: Vec<UrlOrigin> = ui.urls().into_iter().map(|u| u.origin).collect();
    assert_eq!(
        origins,
        [
            UrlOrigin::RequiredByCall {
                tool: "needs_two".into(),
                step: 1,
                of: 2
            },
            UrlOrigin::RequiredByCall {
                tool: "needs_two".into(),
                step: 2,
                of: 2
            }
        ]
    );
    assert_eq!(opener.opened().len(), 2);
}

#[tokio::test]
async fn cancelling_the_overview_opens_nothing_and_does_not_retry() {
    let ui = TestUi::default();
    ui.0.overview_script
        .lock()
        .unwrap()
        .push_back(OverviewChoice::Cancel);
    let opener = RecordingOpener::default();
    let h = duplex(ui.clone(), opener.clone(), Config::default()).await;
    let e = guard(
        h.client
            .call_tool(h.conn.peer(), CallToolRequestParams::new("needs_two")),
    )
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
    assert!(ui.urls().is_empty(), "no consent screen after cancel");
    assert!(opener.opened().is_empty());
}
