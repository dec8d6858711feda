//! `mcp-elicit serve` on PostgreSQL while the database is unavailable for 10 s (issue 14,
//! faults): a TCP forwarder between the server and the machine's PostgreSQL is stopped
//! (every connection closed, new ones refused) and started again; the machine's
//! PostgreSQL itself stays up for the other tests.
//!
//! During the outage a tool call fails with the retryable `-32000` (`data.kind`
//! `store_unavailable`, `data.retryable`), the pages answer 503 with `Retry-After`, each
//! within the store's acquire timeout (5 s) instead of hanging; nothing is stored. When
//! the database is back the same process (no restart) serves again by itself: the URL
//! flow that was pending before the outage is finished on its page, its completion
//! notification reaches the client, the retried call succeeds, and a second completion is
//! refused (completed once).
//!
//! PostgreSQL: `MCP_ELICIT_TEST_PG` (see `support/pg.rs`).

#[path = "support/pg.rs"]
mod pg;
#[path = "support/proxy.rs"]
mod proxy;
mod support;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use pg::PgDatabase;
use proxy::Proxy;
use serde_json::{Value, json};
use support::browser::{Browser, hidden_value};
use support::{McpClient, Server, VAULT_KEY, answer_page, free_port, messages};

/// How long the database is away.
const OUTAGE: Duration = Duration::from_secs(10);
/// The server's acquire timeout (`STORE_ACQUIRE_TIMEOUT`) plus slack for a loaded machine.
const FAIL_WITHIN: Duration = Duration::from_secs(9);

fn set_api_key(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "set_api_key", "arguments": {}}})
}

fn approve(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "approve_purchase", "arguments": {"item": "Tea", "amount": "3 EUR"}}})
}

/// One POST in `client`'s session that may fail: HTTP status, `Retry-After`, the
/// response to `body`'s id (`Null` when none), and how long it took.
async fn try_call(client: &McpClient, body: Value) -> (u16, Option<String>, Value, Duration) {
    let id = body["id"].clone();
    let started = Instant::now();
    let resp = client
        .http
        .post(&client.url)
        .header("accept", "application/json, text/event-stream")
        .header(
            "mcp-session-id",
            client.session.as_deref().expect("session"),
        )
        .json(&body)
        .send()
        .await
        .expect("post");
    let status = resp.status().as_u16();
    let retry = resp
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let text = resp.text().await.expect("body");
    let answer = messages(&text)
        .into_iter()
        .find(|m| m["id"] == id)
        .unwrap_or(Value::Null);
    (status, retry, answer, started.elapsed())
}

/// Asserts a clean, retryable store failure: HTTP 503 with `Retry-After`, or JSON-RPC
/// `-32000` naming the store, retryable.
fn assert_retryable(what: &str, status: u16, retry: Option<&str>, answer: &Value, took: Duration) {
    assert!(took < FAIL_WITHIN, "{what} took {took:?} during the outage");
    if status == 503 {
        assert!(retry.is_some(), "{what}: 503 without Retry-After");
        return;
    }
    assert_eq!(status, 200, "{what}: {answer}");
    let error = &answer["error"];
    assert_eq!(error["code"], -32000, "{what}: {answer}");
    assert_eq!(
        error["data"]["kind"], "store_unavailable",
        "{what}: {answer}"
    );
    assert_eq!(error["data"]["retryable"], true, "{what}: {answer}");
    let message = error["message"].as_str().unwrap_or_default();
    assert!(message.contains("store"), "{what}: {message}");
    assert!(!message.contains("password"), "{what}: {message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_seconds_without_the_database_fail_cleanly_and_the_server_recovers_by_itself() {
    let db = PgDatabase::create("mcp_elicit_outage").await;
    let mut url = url::Url::parse(&db.url).expect("db url");
    let upstream = SocketAddr::from(([127, 0, 0, 1], url.port().unwrap_or(5432)));
    let mut proxy = Proxy::start(upstream).await;
    url.set_port(Some(proxy.port)).expect("port");
    let dir = tempfile::tempdir().expect("tempdir");
    let key_file = dir.path().join("vault.key");
    std::fs::write(&key_file, VAULT_KEY).expect("key file");
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let args: Vec<String> = vec![
        "--listen".into(),
        format!("127.0.0.1:{port}"),
        "--store".into(),
        url.to_string(),
        "--vault-key-file".into(),
        key_file.display().to_string(),
    ];
    let server = Server::start(&args, &[("USER", "outage-tester")], port);

    // Before the outage: a URL flow pending, its page open in the browser.
    let (mut client, _) = McpClient::connect(&format!("{base}/mcp"), String::new()).await;
    let (key_id, key_url) = client.url_required(set_api_key(2)).await;
    let mut browser = Browser::new("unused");
    let page = browser.open(&key_url).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let csrf = hidden_value(&page.body, "csrf").expect("csrf");

    proxy.stop().await;
    let down = Instant::now();
    let lost_secret = format!("sk_during_outage_{}", std::process::id());
    let submit_fields = [
        ("elicitationId", key_id.as_str()),
        ("csrf", csrf.as_str()),
        ("secret", lost_secret.as_str()),
    ];
    let (call, post, get) = tokio::join!(
        try_call(&client, approve(3)),
        async {
            let t = Instant::now();
            let p = browser
                .submit(&format!("{base}/connect/secret"), &submit_fields, &base)
                .await;
            (p, t.elapsed())
        },
        async {
            let t = Instant::now();
            let p = Browser::new("unused").open(&key_url).await;
            (p, t.elapsed())
        },
    );
    let (status, retry, answer, took) = call;
    assert_retryable("tools/call", status, retry.as_deref(), &answer, took);
    let call_took = took;
    let (post, post_took) = post;
    let post_retry = post
        .headers
        .get("retry-after")
        .and_then(|v| v.to_str().ok());
    assert_eq!(
        post.status, 503,
        "page POST during the outage: {}",
        post.body
    );
    assert_retryable("page POST", 503, post_retry, &Value::Null, post_took);
    let (get, get_took) = get;
    let get_retry = get.headers.get("retry-after").and_then(|v| v.to_str().ok());
    assert_eq!(get.status, 503, "page GET during the outage: {}", get.body);
    assert_retryable("page GET", 503, get_retry, &Value::Null, get_took);
    // A second call later in the outage (the pool's connections all gone by now).
    let (status, retry, answer, second_took) = try_call(&client, approve(4)).await;
    assert_retryable(
        "second tools/call",
        status,
        retry.as_deref(),
        &answer,
        second_took,
    );
    // The third-party OAuth callback, with the browser's session: 503 as well, not "not
    // signed in" (which would send the user to sign in again, which needs the store too).
    let callback = browser
        .open(&format!("{base}/oauth/callback?state=demo~x&code=y"))
        .await;
    assert_eq!(
        callback.status, 503,
        "OAuth callback during the outage: {}",
        callback.body
    );
    // At least 10 s in all (the checks above take about two acquire timeouts).
    tokio::time::sleep(OUTAGE.saturating_sub(down.elapsed())).await;

    proxy.resume().await;
    let outage = down.elapsed();
    let up = Instant::now();
    // The same process serves again by itself: a new URL flow is stored.
    let mut next_id = 5;
    let recovered = loop {
        let (status, _, answer, _) = try_call(&client, approve(next_id)).await;
        next_id += 1;
        if status == 200 && answer["error"]["code"] == -32042 {
            break up.elapsed();
        }
        assert!(
            up.elapsed() < Duration::from_secs(30),
            "not recovered 30 s after the database came back: {status} {answer}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };

    // The flow pending before the outage was not lost: its page finishes it now.
    let secret = format!("sk_after_outage_{}", std::process::id());
    answer_page(
        &mut browser,
        &base,
        &key_url,
        &key_id,
        "/connect/secret",
        &[("secret", &secret)],
    )
    .await;
    client.wait_for_completion(&key_id).await;
    let text = client.call_text(set_api_key(next_id)).await;
    assert!(text.contains("on file"), "{text}");
    // Completed once: the page is gone, a replay of the form changes nothing.
    let again = browser.open(&key_url).await;
    assert_eq!(again.status, 404, "{}", again.body);
    let replay = browser
        .submit(&format!("{base}/connect/secret"), &submit_fields, &base)
        .await;
    assert_eq!(replay.status, 404, "{}", replay.body);

    let log = server.log();
    assert!(!log.contains("panicked"), "{log}");
    assert!(
        !log.contains(&secret) && !log.contains(&lost_secret),
        "{log}"
    );
    eprintln!(
        "outage figures: database away {outage:?}; tools/call failed after {call_took:?}, \
         page POST after {post_took:?}, page GET after {get_took:?}, a later tools/call after \
         {second_took:?}; serving again {recovered:?} after the database came back"
    );
}
