//! The session limits of `mcp-elicit serve`, each tried by the attack it stops (issue
//! 14): a client opening session after session (each lived ten minutes with no
//! connection), and one session or one user piling up requests in progress. Each limit
//! answers 429 with `Retry-After` and a JSON-RPC error `-32000` naming it, and none
//! closes a flow in progress: the calls waiting for a form still finish.
//!
//! Each test runs once per session layer (`--session-layer lean`, the default, and
//! `rmcp`): the limits sit in front of either.

use std::time::{Duration, Instant};

use serde_json::json;

#[path = "hostile/client.rs"]
mod client;
mod support;

use client::{Refused, Session, call};
use support::{Server, free_port};

/// Each test once per session layer of `/mcp`.
macro_rules! on_each_layer {
    ($($test:ident),* $(,)?) => {
        mod lean {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $test() {
                super::$test("lean").await;
            })*
        }
        mod rmcp {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $test() {
                super::$test("rmcp").await;
            })*
        }
    };
}

on_each_layer!(
    sessions_per_user_are_capped_and_sessions_without_a_connection_expire,
    requests_in_progress_are_capped_per_session_and_per_user_and_answers_always_pass,
);

fn start(port: u16, layer: &str, extra: &[&str]) -> Server {
    let mut args: Vec<String> = vec![
        "--listen".into(),
        format!("127.0.0.1:{port}"),
        "--store".into(),
        "memory".into(),
        "--session-layer".into(),
        layer.into(),
    ];
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    Server::start(&args, &[("USER", "sessions-tester")], port)
}

fn assert_limit(refused: &Refused, limit: &str) {
    assert_eq!(refused.status, 429, "{refused:?}");
    assert_eq!(refused.limit().as_deref(), Some(limit), "{refused:?}");
    let secs: u64 = refused
        .retry_after
        .as_deref()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    assert!(secs >= 1, "no Retry-After: {refused:?}");
}

/// Polls until `f` holds (or 20 s pass).
async fn eventually(mut f: impl AsyncFnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if f().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    false
}

async fn sessions_per_user_are_capped_and_sessions_without_a_connection_expire(layer: &str) {
    let port = free_port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let server = start(
        port,
        layer,
        &[
            "--max-sessions-per-user",
            "5",
            "--unused-session-timeout",
            "1",
            "--session-idle-timeout",
            "3",
        ],
    );
    let http = reqwest::Client::new();
    // One session listening for notifications, one used and then left idle, three
    // never used after initialize.
    let listening = Session::open(&http, &url, true).await.expect("session");
    let idle = Session::open(&http, &url, false).await.expect("session");
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let mut m = idle.request(&list).await.expect("tools/list");
    assert!(m.until_response(&json!(2)).await.is_some());
    let mut unused = Vec::new();
    for _ in 0..3 {
        unused.push(Session::initialize(&http, &url).await.expect("session"));
    }
    // The sixth session of the same user: refused, naming the limit.
    let refused = match Session::initialize(&http, &url).await {
        Err(r) => r,
        Ok(_) => panic!("a sixth session was accepted: {}", server.log()),
    };
    assert_limit(&refused, "max_sessions_per_user");
    // The unused sessions are closed after a second (room for a new one again); the
    // idle one after three. (Probing a session uses it, so each is probed once.)
    assert!(
        eventually(async || Session::initialize(&http, &url).await.is_ok()).await,
        "no room for a session 20 s after: {}",
        server.log()
    );
    let probe = unused.pop().expect("an unused session");
    let gone = probe
        .request(&list)
        .await
        .err()
        .expect("an unused session still open");
    assert_eq!(gone.status, 404, "{gone:?}");
    tokio::time::sleep(Duration::from_millis(4500)).await;
    let gone = idle
        .request(&list)
        .await
        .err()
        .expect("an idle session still open");
    assert_eq!(gone.status, 404, "{gone:?}");
    // The session with its stream open is never closed for idleness, and new sessions
    // fit again.
    let mut m = listening
        .request(&list)
        .await
        .expect("the listening session");
    assert!(m.until_response(&json!(2)).await.is_some());
    for _ in 0..4 {
        Session::initialize(&http, &url)
            .await
            .expect("room for new sessions");
    }
}

async fn requests_in_progress_are_capped_per_session_and_per_user_and_answers_always_pass(
    layer: &str,
) {
    let port = free_port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let _server = start(
        port,
        layer,
        &[
            "--max-requests-per-session",
            "2",
            "--max-requests-per-user",
            "3",
        ],
    );
    let http = reqwest::Client::new();
    let one = Session::open(&http, &url, true).await.expect("session");
    let two = Session::open(&http, &url, true).await.expect("session");
    // Two calls in session one, each waiting for its form.
    let mut waiting = Vec::new();
    for id in [10, 11] {
        let mut m = one.request(&call(id, "demo_profile")).await.expect("call");
        let ask = m.until_method("elicitation/create").await.expect("a form");
        waiting.push((id, m, ask));
    }
    // A third in the same session: over the session's limit.
    let refused = one
        .request(&call(12, "demo_profile"))
        .await
        .err()
        .expect("a third call in one session was accepted");
    assert_limit(&refused, "max_requests_per_session");
    // Session two may start one (the user's third), not a fourth.
    let mut m3 = two.request(&call(20, "demo_profile")).await.expect("call");
    let ask3 = m3.until_method("elicitation/create").await.expect("a form");
    let refused = two
        .request(&json!({"jsonrpc": "2.0", "id": 21, "method": "tools/list"}))
        .await
        .err()
        .expect("the user's fourth request was accepted");
    assert_limit(&refused, "max_requests_per_user");
    // At the cap, the answers to the forms still go through and every call finishes.
    waiting.push((20, m3, ask3));
    for (id, mut m, ask) in waiting {
        let s = if id == 20 { &two } else { &one };
        s.answer(
            &ask,
            json!({"action": "accept", "content": {"name": "Ada", "age": 36}}),
        )
        .await
        .expect("an answer at the cap");
        let done = m.until_response(&json!(id)).await.expect("the result");
        assert!(
            done["result"]["content"][0]["text"]
                .as_str()
                .is_some_and(|t| t.starts_with("Profile: Ada")),
            "{done}"
        );
    }
    // Room again.
    let mut m = one
        .request(&json!({"jsonrpc": "2.0", "id": 30, "method": "tools/list"}))
        .await
        .expect("room after the calls finished");
    assert!(m.until_response(&json!(30)).await.is_some());
}
