//! Sessions whose handler sleeps (`--session-hibernate-after`, issue 17): a session idle
//! past its time with a URL elicitation pending gives up its handler (rmcp's service
//! loop, about 36 KB), yet the completion still reaches the client on the standalone
//! stream, the next call gets a handler that knows what the client declared in
//! `initialize` (a form goes out), and DELETE still ends the session.

use std::time::{Duration, Instant};

#[path = "hostile/client.rs"]
mod client;
mod support;

use client::{Session, call, finish_url_flow, form_flow, start_url_flow};
use support::{Server, free_port};

/// Polls until `f` holds (or 20 s pass).
async fn eventually(mut f: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if f() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

const ASLEEP: &str = "session idle: its handler sleeps";
const WOKEN: &str = "session woken: a new handler";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_session_sleeps_and_still_gets_its_completion_and_its_forms() {
    let port = free_port();
    let args: Vec<String> = [
        "--listen",
        &format!("127.0.0.1:{port}"),
        "--store",
        "memory",
        "--session-hibernate-after",
        "1",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    let server = Server::start(
        &args,
        &[
            ("USER", "hibernation-tester"),
            ("RUST_LOG", "mcp_elicit_server=debug"),
        ],
        port,
    );
    let base = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::new();
    let s = Session::open(&http, &format!("{base}/mcp"), true)
        .await
        .expect("a session with its standalone stream");
    let (page, elicitation) = start_url_flow(&s, 1)
        .await
        .expect("a pending URL elicitation");
    assert!(
        eventually(|| server.log().contains(ASLEEP)).await,
        "the idle session never slept: {}",
        server.log()
    );
    // The user finishes the page while the session sleeps: the client hears of it.
    finish_url_flow(&s, &base, &page, &elicitation)
        .await
        .expect("the completion reaches a sleeping session");
    assert!(
        !server.log().contains(WOKEN),
        "a completion needs no handler: {}",
        server.log()
    );
    // The next call wakes a handler that knows the client declared form mode.
    form_flow(&s, 2).await.expect("a form after waking");
    assert!(server.log().contains(WOKEN), "{}", server.log());
    let heard = s
        .stream
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    assert!(
        !heard.contains("\"result\""),
        "the replayed initialize's answer is not the client's: {heard}"
    );
    // Asleep again, a DELETE ends the session (not taken for rmcp's own close).
    let slept = server.log().matches(ASLEEP).count();
    assert!(
        eventually(|| server.log().matches(ASLEEP).count() > slept).await,
        "{}",
        server.log()
    );
    s.delete().await.expect("DELETE of a sleeping session");
    let after = s.request(&call(3, "demo_profile")).await;
    assert_eq!(
        after.err().map(|r| r.status),
        Some(404),
        "an ended session is 404"
    );
}
