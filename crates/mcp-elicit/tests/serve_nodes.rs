//! Durable URL flows of the web pages, with the real binary:
//!
//! - two `mcp-elicit serve` processes sharing one PostgreSQL database (two nodes behind a
//!   load balancer): the client is connected to node A, the browser reaches node B; B
//!   finds the page's purpose in the database, completes the elicitation there, and the
//!   completion notification reaches the client on A (LISTEN/NOTIFY); the client's retry
//!   on A finds the key B stored, and the answer B recorded;
//! - the same two nodes, node A killed with SIGKILL mid URL flow (the client's call
//!   answered with -32042 by A, the confirmation page open in the browser, served by A):
//!   B takes over, the form posted on A's page is accepted by B, the other link is opened
//!   and answered on B, and the client, reconnected to B, gets both answers on its retry;
//!   each elicitation completed once;
//! - one process on a SQLite file killed with SIGKILL between the tool's -32042 and the
//!   user's visit to the page: after the restart the page still knows what it is for, and
//!   the client's retried call gets the key and the answer given after the restart.
//!
//! PostgreSQL: `MCP_ELICIT_TEST_PG` (default `postgres://postgres@127.0.0.1:5432/test`)
//! names a database to create a fresh one from; it is dropped afterwards.

mod support;

use pg::PgDatabase;
use serde_json::{Value, json};
use support::browser::{Browser, hidden_value};
use support::{McpClient, Server, VAULT_KEY, answer_page, free_port};

#[path = "support/pg.rs"]
mod pg;

/// `mcp-elicit serve` in local mode on `port` with `store`, the vault key in `key_file`.
fn serve(port: u16, store: &str, key_file: &std::path::Path) -> Server {
    let args: Vec<String> = vec![
        "--listen".into(),
        format!("127.0.0.1:{port}"),
        "--store".into(),
        store.into(),
        "--vault-key-file".into(),
        key_file.display().to_string(),
    ];
    Server::start(&args, &[("USER", "nodes-tester")], port)
}

/// An initialized client with URL mode, listening for notifications.
async fn client(base: &str) -> McpClient {
    McpClient::connect(&format!("{base}/mcp"), String::new())
        .await
        .0
}

fn set_api_key(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "set_api_key", "arguments": {}}})
}

fn approve(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "approve_purchase", "arguments": {"item": "Tea", "amount": "3 EUR"}}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_on_one_postgres_database_share_url_flows_and_completions() {
    let db = PgDatabase::create("mcp_elicit_nodes").await;
    let dir = tempfile::tempdir().expect("tempdir");
    let key_file = dir.path().join("vault.key");
    std::fs::write(&key_file, VAULT_KEY).expect("key file");
    let (port_a, port_b) = (free_port(), free_port());
    let node_a = serve(port_a, &db.url, &key_file);
    let node_b = serve(port_b, &db.url, &key_file);
    let (base_a, base_b) = (
        format!("http://127.0.0.1:{port_a}"),
        format!("http://127.0.0.1:{port_b}"),
    );

    let mut client = client(&base_a).await;
    let (key_id, key_url) = client.url_required(set_api_key(2)).await;
    assert!(key_url.starts_with(&base_a), "{key_url}");
    // The load balancer sends the browser to node B.
    let mut browser = Browser::new("unused");
    let secret = format!("sk_nodes_{}", std::process::id());
    let body = answer_page(
        &mut browser,
        &base_b,
        &key_url.replace(&base_a, &base_b),
        &key_id,
        "/connect/secret",
        &[("secret", &secret)],
    )
    .await;
    assert!(!body.contains(&secret));
    // B completed it; the notification reaches the client on A.
    client.wait_for_completion(&key_id).await;
    let text = client.call_text(set_api_key(3)).await;
    assert!(text.contains("on file"), "{text}");

    let (buy_id, buy_url) = client.url_required(approve(4)).await;
    answer_page(
        &mut browser,
        &base_b,
        &buy_url.replace(&base_a, &base_b),
        &buy_id,
        "/connect/confirm",
        &[("decision", "confirm")],
    )
    .await;
    client.wait_for_completion(&buy_id).await;
    assert_eq!(
        client.call_text(approve(5)).await,
        "Approved: Buy Tea for 3 EUR."
    );
    // The answer is used once: the next identical purchase asks again.
    let (again, _) = client.url_required(approve(6)).await;
    assert_ne!(again, buy_id);

    for log in [node_a.log(), node_b.log()] {
        assert!(log.contains("nodes: several nodes"), "{log}");
        assert!(!log.contains(&secret), "the key in a log line: {log}");
    }
    let seen = client.received.lock().expect("lock").clone();
    assert!(!seen.contains(&secret), "the key reached the MCP client");
    drop((node_a, node_b));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn when_a_node_is_killed_mid_url_flow_the_other_node_on_postgres_finishes_it() {
    let db = PgDatabase::create("mcp_elicit_takeover").await;
    let dir = tempfile::tempdir().expect("tempdir");
    let key_file = dir.path().join("vault.key");
    std::fs::write(&key_file, VAULT_KEY).expect("key file");
    let (port_a, port_b) = (free_port(), free_port());
    let node_a = serve(port_a, &db.url, &key_file);
    let node_b = serve(port_b, &db.url, &key_file);
    let (base_a, base_b) = (
        format!("http://127.0.0.1:{port_a}"),
        format!("http://127.0.0.1:{port_b}"),
    );

    let mut on_a = client(&base_a).await;
    let (key_id, key_url) = on_a.url_required(set_api_key(2)).await;
    let (buy_id, buy_url) = on_a.url_required(approve(3)).await;
    assert!(buy_url.starts_with(&base_a), "{buy_url}");
    // The user has the confirmation page open, served by A, when A dies.
    let mut browser = Browser::new("unused");
    let page = browser.open(&buy_url).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let csrf = hidden_value(&page.body, "csrf").expect("csrf field");
    drop(node_a); // SIGKILL: nothing is flushed, no session is closed.
    drop(on_a);

    // The load balancer sends everything to B now: the form of A's page is posted to B
    // (the browser session and the CSRF token are in the database, not in A) ...
    let confirm = [
        ("elicitationId", buy_id.as_str()),
        ("csrf", csrf.as_str()),
        ("decision", "confirm"),
    ];
    let done = browser
        .submit(&format!("{base_b}/connect/confirm"), &confirm, &base_b)
        .await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(done.body.contains("Confirmed"), "{}", done.body);
    // ... and the other link, opened for the first time, is served and answered by B.
    let secret = format!("sk_takeover_{}", std::process::id());
    answer_page(
        &mut browser,
        &base_b,
        &key_url.replace(&base_a, &base_b),
        &key_id,
        "/connect/secret",
        &[("secret", &secret)],
    )
    .await;

    // The client's session died with A: it reconnects (to B) and retries.
    let mut on_b = client(&base_b).await;
    assert_eq!(
        on_b.call_text(approve(2)).await,
        "Approved: Buy Tea for 3 EUR."
    );
    let text = on_b.call_text(set_api_key(3)).await;
    assert!(text.contains("on file"), "{text}");
    // Completed once: both pages are gone, a replay of the form changes nothing, and the
    // answer was used once (the next identical purchase asks again).
    let again = browser.open(&buy_url.replace(&base_a, &base_b)).await;
    assert_eq!(again.status, 404, "{}", again.body);
    let again = browser.open(&key_url.replace(&base_a, &base_b)).await;
    assert_eq!(again.status, 404, "{}", again.body);
    let replay = browser
        .submit(&format!("{base_b}/connect/confirm"), &confirm, &base_b)
        .await;
    assert_eq!(replay.status, 404, "{}", replay.body);
    let (next, _) = on_b.url_required(approve(4)).await;
    assert_ne!(next, buy_id);

    let log = node_b.log();
    assert!(!log.contains("panicked"), "{log}");
    assert!(!log.contains(&secret), "the key in a log line: {log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn web_url_flows_started_before_sigkill_finish_after_the_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let key_file = dir.path().join("vault.key");
    std::fs::write(&key_file, VAULT_KEY).expect("key file");
    let store = format!("sqlite://{}", dir.path().join("state.db").display());
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");

    let first = serve(port, &store, &key_file);
    let mut client_before = client(&base).await;
    let (buy_id, buy_url) = client_before.url_required(approve(2)).await;
    let (key_id, key_url) = client_before.url_required(set_api_key(3)).await;
    drop(first); // SIGKILL: nothing is flushed or cleaned up.

    let second = serve(port, &store, &key_file);
    let mut browser = Browser::new("unused");
    let body = answer_page(
        &mut browser,
        &base,
        &buy_url,
        &buy_id,
        "/connect/confirm",
        &[("decision", "cancel")],
    )
    .await;
    assert!(body.contains("Cancelled"), "{body}");
    let secret = format!("sk_restart_{}", std::process::id());
    answer_page(
        &mut browser,
        &base,
        &key_url,
        &key_id,
        "/connect/secret",
        &[("secret", &secret)],
    )
    .await;
    // The old session died with the process: the client reconnects and retries.
    let mut client_after = client(&base).await;
    assert_eq!(
        client_after.call_text(approve(4)).await,
        "You cancelled: Buy Tea for 3 EUR. Nothing was bought."
    );
    let text = client_after.call_text(set_api_key(5)).await;
    assert!(text.contains("on file"), "{text}");
    // Answered pages stay answered after the restart: a second visit changes nothing.
    let page = browser.open(&buy_url).await;
    assert_eq!(page.status, 404, "{}", page.body);
    assert!(!second.log().contains(&secret));
}
