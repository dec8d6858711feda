//! End to end without a terminal: the reference server and the real client library
//! over an in-memory pipe, prompts reaching the host's screens through [`TuiUi`], and
//! keys answering them.

use std::time::{Duration, Instant};

use mcp_elicit_client::rmcp::model::CallToolRequestParams;
use mcp_elicit_client::{Config, ElicitationClient, RecordingOpener, TransportIdentity};
use mcp_elicit_core::message::Capability;
use mcp_elicit_server::reference::{Reference, ReferenceOptions};
use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
use ratatui::crossterm::event::KeyCode;
use rmcp::ServiceExt;
use tokio::sync::mpsc;

use super::app::App;
use super::bridge::{TuiUi, UiRequest};
use super::convert;
use crate::testutil::{assert_has, ctrl, key, screen};

/// Hang guard (never a timing assertion).
async fn guard<F: Future>(f: F) -> F::Output {
    match tokio::time::timeout(Duration::from_secs(30), f).await {
        Ok(v) => v,
        Err(_) => panic!("test hung"),
    }
}

struct Harness {
    reference: Reference,
    opener: RecordingOpener,
    client: ElicitationClient<TuiUi, RecordingOpener>,
    peer: rmcp::Peer<rmcp::RoleClient>,
    ui_rx: mpsc::UnboundedReceiver<UiRequest>,
    app: App,
    _conn: mcp_elicit_client::Connection<TuiUi, RecordingOpener>,
}

async fn harness() -> Harness {
    let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(
        Principal::local_user("tester"),
    )));
    let reference = Reference::new(hub, ReferenceOptions::new("http://127.0.0.1:9"));
    let handler = reference.handler().expect("handler");
    let kept = reference.clone();
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = handler.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let (ui, ui_rx) = TuiUi::new(Capability {
        form: true,
        url: true,
    });
    let opener = RecordingOpener::default();
    // These are the 2025-11-25 flows (server-to-client requests, -32042).
    let client = ElicitationClient::new(
        ui,
        opener.clone(),
        Config::default().with_protocol(mcp_elicit_client::ProtocolChoice::V2025_11_25),
    );
    let (r, w) = tokio::io::split(client_io);
    let conn = guard(client.clone().connect_io(
        r,
        w,
        TransportIdentity::Other {
            description: "in-memory pipe".into(),
        },
    ))
    .await
    .expect("connect");
    let peer = conn.peer().clone();
    let tools = guard(peer.list_all_tools()).await.expect("tools");
    let info = peer.peer_info();
    let id = mcp_elicit_client::ServerIdentity::new(info.as_deref(), client.transport_identity());
    let app = App::new(convert::identity(&id), None, tools);
    Harness {
        reference: kept,
        opener,
        client,
        peer,
        ui_rx,
        app,
        _conn: conn,
    }
}

fn draw(app: &mut App) -> Vec<String> {
    let now = Instant::now();
    screen(100, 60, |area, buf| {
        app.render(now, area, buf);
    })
}

#[tokio::test]
async fn reference_form_is_filled_reviewed_and_accepted_through_the_screens() {
    let mut h = harness().await;
    assert_has(&draw(&mut h.app), "demo_form");
    let client = h.client.clone();
    let peer = h.peer.clone();
    let call = tokio::spawn(async move {
        client
            .call_tool(&peer, CallToolRequestParams::new("demo_form"))
            .await
    });
    let req = guard(h.ui_rx.recv()).await.expect("a prompt");
    h.app.request(req, Instant::now());
    let s = draw(&mut h.app);
    assert_has(&s, "Form request from server: mcp-elicit reference server");
    assert_has(&s, "Tell us about yourself");
    assert_has(&s, "[octo-cat");
    assert_has(&s, "(•) Green");
    assert_has(&s, "( ) Professional");
    // Submitting now fails: e-mail and age are required.
    h.app.key(ctrl('s'), Instant::now());
    assert_has(&draw(&mut h.app), "Not sent: 2 problems to fix");
    // Focus went to the first field in error (e-mail): fill it, then age.
    for c in "octo@example.com".chars() {
        h.app.key(key(KeyCode::Char(c)), Instant::now());
    }
    // Tab: birthday, height, age.
    for _ in 0..3 {
        h.app.key(key(KeyCode::Tab), Instant::now());
    }
    for c in "42".chars() {
        h.app.key(key(KeyCode::Char(c)), Instant::now());
    }
    h.app.key(ctrl('s'), Instant::now());
    let s = draw(&mut h.app);
    assert_has(
        &s,
        "This exact JSON will be sent to mcp-elicit reference server",
    );
    assert_has(&s, "\"email\": \"octo@example.com\"");
    h.app.key(key(KeyCode::Enter), Instant::now());
    let result = guard(call).await.expect("join").expect("call ok");
    h.app.call_finished("demo_form", Ok(result));
    let s = draw(&mut h.app);
    assert_has(&s, "Thanks! The server validated your answer");
    assert_has(&s, "octo@example.com");
}

#[tokio::test]
async fn reference_url_request_shows_consent_and_open_reaches_the_opener() {
    let mut h = harness().await;
    let client = h.client.clone();
    let peer = h.peer.clone();
    let call = tokio::spawn(async move {
        client
            .call_tool(&peer, CallToolRequestParams::new("demo_url"))
            .await
    });
    let req = guard(h.ui_rx.recv()).await.expect("a prompt");
    h.app.request(req, Instant::now());
    let s = draw(&mut h.app);
    assert_has(&s, "URL request from server: mcp-elicit reference server");
    assert_has(&s, "http://127.0.0.1:9/demo/complete?elicitationId=");
    assert_has(&s, "Host (marked ^ above): 127.0.0.1");
    // An IP-address host is a warning: the first O asks to confirm, nothing opens yet.
    h.app.key(key(KeyCode::Char('o')), Instant::now());
    assert_has(&draw(&mut h.app), "press O again to open it anyway");
    assert!(h.opener.opened().is_empty());
    let effect = h.app.key(key(KeyCode::Char('o')), Instant::now());
    assert!(
        matches!(effect, Some(super::app::Effect::Open(_))),
        "{effect:?}"
    );
    // The browser started (the driver reports it): consent goes to the client.
    h.app.opened(Ok(()), Instant::now());
    let result = guard(call).await.expect("join").expect("call ok");
    h.app.call_finished("demo_url", Ok(result));
    assert_has(&draw(&mut h.app), "You agreed to open the page");
    let opened = h.opener.opened();
    assert_eq!(opened.len(), 1);
    assert!(opened[0].starts_with("http://127.0.0.1:9/demo/complete?elicitationId="));
}

#[tokio::test]
async fn declining_the_reference_form_is_reported_by_the_server() {
    let mut h = harness().await;
    let client = h.client.clone();
    let peer = h.peer.clone();
    let call = tokio::spawn(async move {
        client
            .call_tool(&peer, CallToolRequestParams::new("demo_form"))
            .await
    });
    let req = guard(h.ui_rx.recv()).await.expect("a prompt");
    h.app.request(req, Instant::now());
    h.app.key(ctrl('d'), Instant::now());
    let result = guard(call).await.expect("join").expect("call ok");
    h.app.call_finished("demo_form", Ok(result));
    assert_has(&draw(&mut h.app), "You declined: nothing was recorded.");
}

#[tokio::test]
async fn url_elicitation_required_is_consented_completed_and_retried() {
    let mut h = harness().await;
    let client = h.client.clone();
    let peer = h.peer.clone();
    let mut call = tokio::spawn(async move {
        client
            .call_tool(&peer, CallToolRequestParams::new("connect_demo"))
            .await
    });
    // First the overview of everything the tool requires.
    let req = guard(h.ui_rx.recv()).await.expect("a prompt");
    assert!(matches!(req, UiRequest::Overview(..)), "{req:?}");
    h.app.request(req, Instant::now());
    let s = draw(&mut h.app);
    assert_has(
        &s,
        "Tool needs browser steps from server: mcp-elicit reference server",
    );
    assert_has(
        &s,
        "The tool \"connect_demo\" cannot run until you complete 1 step in your browser",
    );
    h.app.key(key(KeyCode::Enter), Instant::now());
    // Then the consent screen for the step.
    let req = guard(h.ui_rx.recv()).await.expect("a prompt");
    h.app.request(req, Instant::now());
    let s = draw(&mut h.app);
    assert_has(
        &s,
        "Tool needs a web page from server: mcp-elicit reference server",
    );
    assert_has(
        &s,
        "Step 1 of 1: the tool \"connect_demo\" cannot run until you complete this step",
    );
    assert_has(
        &s,
        "Authorization is required to access your Example Co files.",
    );
    let mut rounds = 0;
    let result = loop {
        // Consent (an IP host needs the second O), then the user "finishes" the page:
        // the server sends the completion notification and the client retries.
        h.app.key(key(KeyCode::Char('o')), Instant::now());
        h.app.key(key(KeyCode::Char('o')), Instant::now());
        // The driver started the browser: consent goes to the client.
        h.app.opened(Ok(()), Instant::now());
        let id = guard(async {
            loop {
                if let Some(url) = h.opener.opened().get(rounds) {
                    break url
                        .rsplit("elicitationId=")
                        .next()
                        .expect("id in url")
                        .to_string();
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
        .await;
        rounds += 1;
        let principal = Principal::local_user("tester");
        assert!(
            guard(h.reference.complete_demo(&principal, &id))
                .await
                .expect("complete")
        );
        // The reference server marks the user connected just after notifying, so a
        // fast retry may be asked to connect once more; answer that round the same way.
        let (app, ui_rx) = (&mut h.app, &mut h.ui_rx);
        let next = guard(async {
            loop {
                tokio::select! {
                    done = &mut call => break Ok(done),
                    req = ui_rx.recv() => match req {
                        Some(UiRequest::Notify(n)) => app.request(UiRequest::Notify(n), Instant::now()),
                        Some(other) => break Err(other),
                        None => panic!("client gone"),
                    },
                }
            }
        })
        .await;
        match next {
            Ok(done) => break done.expect("join").expect("call ok"),
            Err(req) => {
                assert!(rounds < 3, "the call keeps asking to connect");
                let overview = matches!(req, UiRequest::Overview(..));
                h.app.request(req, Instant::now());
                if overview {
                    h.app.key(key(KeyCode::Enter), Instant::now());
                    let req = guard(h.ui_rx.recv()).await.expect("a prompt");
                    h.app.request(req, Instant::now());
                }
            }
        }
    };
    h.app.call_finished("connect_demo", Ok(result));
    assert_has(&draw(&mut h.app), "Connected to Example Co.");
}
