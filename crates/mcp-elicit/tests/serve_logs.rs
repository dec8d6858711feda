//! Nothing that reaches the log of `mcp-elicit serve`, at any level, carries a capability
//! URL, an elicitation or session id, a secret or a token.
//!
//! The attack: rmcp logs every error response at WARN (each -32042 with its `data`, so
//! the connect URL), every request and result at DEBUG and every message at TRACE; in
//! local mode the connect page signs its visitor in as the local user, so reading the log
//! was enough to finish someone else's flow. This runs the real binary at `RUST_LOG=trace`
//! through a whole URL flow (-32042, the page, the secret, the completion, the retry) and
//! searches the captured stderr for every sensitive value.

use serde_json::json;

mod support;

use support::browser::{Browser, hidden_value};
use support::{McpClient, Server, free_port};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_url_flow_at_trace_level_logs_no_url_id_session_or_secret() {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let dir = tempfile::tempdir().expect("temporary directory");
    let data = dir.path().display().to_string();
    let args: Vec<String> = vec!["--listen".into(), format!("127.0.0.1:{port}")];
    let server = Server::start(
        &args,
        &[
            ("XDG_DATA_HOME", &data),
            ("USER", "log-tester"),
            ("RUST_LOG", "trace"),
        ],
        port,
    );
    let (mut client, _) = McpClient::connect(&format!("{base}/mcp"), String::new()).await;
    let session = client.session.clone().expect("a session id");
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "set_api_key", "arguments": {}}});
    let (id, url) = client.url_required(call.clone()).await;
    let mut browser = Browser::new("unused");
    let page = browser.open(&url).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let csrf = hidden_value(&page.body, "csrf").expect("csrf field");
    let secret = format!("sk_logged_{}", std::process::id());
    let done = browser
        .submit(
            &format!("{base}/connect/secret"),
            &[("elicitationId", &id), ("csrf", &csrf), ("secret", &secret)],
            &base,
        )
        .await;
    assert_eq!(done.status, 200, "{}", done.body);
    client.wait_for_completion(&id).await;
    let text = client.call_text(call).await;
    assert!(text.contains("on file"), "{text}");

    let log = server.log();
    assert!(log.contains("TRACE"), "trace logging is on: {log}");
    assert!(log.contains("rmcp"), "rmcp's own lines are there: {log}");
    for (what, value) in [
        ("the capability URL", url.as_str()),
        ("the elicitation id", id.as_str()),
        ("the MCP session id", session.as_str()),
        ("the secret", secret.as_str()),
        ("the CSRF token", csrf.as_str()),
    ] {
        assert!(!log.contains(value), "{what} ({value}) was logged:\n{log}");
    }
    assert!(
        !log.contains("elicitationId="),
        "a connect URL was logged:\n{log}"
    );
}
