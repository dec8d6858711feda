//! `mcp-elicit demo`'s offline third-party OAuth flow end to end, through the demo's own
//! wiring (`demo --serve-only`: the reference server, the local pages and the loopback
//! demo provider, without the terminal host): `connect_provider` answers -32042 with the
//! connect page; a browser (reqwest with a cookie jar) goes connect page -> demo
//! provider's consent page -> Allow -> `/oauth/callback` (code + PKCE redeemed, token
//! stored); the client is notified, the retried call succeeds, and neither the code nor
//! the token reaches the MCP client.

use std::process::Stdio;

use reqwest::Method;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader};

mod support;

use support::browser::{Browser, hidden_value};
use support::{McpClient, WAIT};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn demo_connect_provider_goes_through_the_demo_provider_and_stores_the_token() {
    let mut demo = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp-elicit"))
        .args(["demo", "--serve-only"])
        .env_remove("RUST_LOG")
        .env("USER", "demo-tester")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("start mcp-elicit demo --serve-only");
    let stdout = demo.stdout.take().expect("demo stdout");
    let mut lines = BufReader::new(stdout).lines();
    let mcp = tokio::time::timeout(WAIT, lines.next_line())
        .await
        .expect("the demo did not start within 30 s")
        .expect("reading the demo's stdout")
        .expect("the demo exited before printing its address");
    let base = mcp.strip_suffix("/mcp").expect("an /mcp URL").to_owned();

    let (mut client, _) = McpClient::connect(&mcp, String::new()).await;
    let connect = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "connect_provider", "arguments": {}}});
    let (id, url) = client.url_required(connect.clone()).await;
    assert!(
        url.starts_with(&format!("{base}/connect?elicitationId=")),
        "{url}"
    );

    // The connect page names the demo provider and posts to /connect/oauth.
    let mut browser = Browser::new("unused");
    let page = browser.open(&url).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Demo Provider"), "{}", page.body);
    let csrf = hidden_value(&page.body, "csrf").expect("csrf field");
    // Off to the provider: a redirect to its consent page (another origin).
    let consent = browser
        .submit(
            &format!("{base}/connect/oauth"),
            &[("elicitationId", &id), ("csrf", &csrf)],
            &base,
        )
        .await;
    assert_eq!(consent.status, 200, "{}", consent.body);
    assert_eq!(consent.url.path(), "/authorize", "{}", consent.url);
    assert_ne!(
        consent.url.origin().ascii_serialization(),
        base,
        "the consent page is the provider's"
    );
    assert!(consent.body.contains("Allow"), "{}", consent.body);
    let query: Vec<(String, String)> = consent.url.query_pairs().into_owned().collect();
    let param = |k: &str| {
        query
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("no {k} in {}", consent.url))
    };
    assert_eq!(param("code_challenge_method"), "S256");
    assert_eq!(param("redirect_uri"), format!("{base}/oauth/callback"));
    // Allow, with the fields the consent form carries.
    let names = [
        "response_type",
        "client_id",
        "redirect_uri",
        "state",
        "code_challenge",
        "code_challenge_method",
        "scope",
    ];
    let values: Vec<String> = names
        .iter()
        .map(|n| hidden_value(&consent.body, n).unwrap_or_else(|| panic!("no {n} field")))
        .collect();
    let mut fields: Vec<(&str, &str)> = names
        .iter()
        .copied()
        .zip(values.iter().map(String::as_str))
        .collect();
    fields.push(("decision", "allow"));
    let provider = consent.url.origin().ascii_serialization();
    let back = browser
        .request(
            Method::POST,
            consent.url.join("/authorize").expect("url").as_str(),
            Some(&fields),
            Some(&provider),
        )
        .await;
    assert_eq!(back.status, 303, "{}", back.body);
    let location = back.headers["location"]
        .to_str()
        .expect("location")
        .to_owned();
    assert!(
        location.starts_with(&format!("{base}/oauth/callback?code=")),
        "{location}"
    );
    let code = reqwest::Url::parse(&location)
        .expect("url")
        .query_pairs()
        .find(|(k, _)| k == "code")
        .map(|(_, v)| v.into_owned())
        .expect("code");
    let done = browser.follow(back).await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert_eq!(done.url.path(), "/oauth/callback", "{}", done.url);

    client.wait_for_completion(&id).await;
    let text = client.call_text(connect).await;
    assert!(text.contains("account is connected"), "{text}");

    // Replaying the callback (the code is one-time) connects nothing new and fails.
    let replay = browser.open(&location).await;
    assert_ne!(replay.status, 200, "{}", replay.body);

    let received = client.received.lock().expect("lock").clone();
    assert!(!received.contains(&code), "the code reached the MCP client");
    assert!(
        !received.contains("access_token"),
        "a token reached the MCP client: {received}"
    );
    drop(demo.stdin.take());
    let status = tokio::time::timeout(WAIT, demo.wait())
        .await
        .expect("the demo exits when stdin closes")
        .expect("wait");
    assert!(status.success(), "{status}");
}
