//! The real binary in authorized mode: `mcp-elicit serve --issuer ...` against a real
//! OpenID provider (npm oidc-provider on 127.0.0.1, installed by
//! `crates/web/tests/oidc/install.sh`).
//!
//! Checked: `/mcp` without a token is 401 with `WWW-Authenticate: ... resource_metadata`;
//! the protected resource metadata names the issuer; with the provider's access token,
//! `set_api_key` answers -32042 with the connect page on the public URL; a browser (reqwest
//! with a cookie jar) signs in at the provider as the token's user and enters the key;
//! the client is notified and the retried call succeeds; `approve_purchase` and
//! `connect_provider` (third-party OAuth at the same provider, from `--provider-config`)
//! work the same way; the key never appears in anything the MCP client received nor in
//! the server's stderr. Also: the listening rules (exit 2 with a clear message).

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

mod auth_common;
mod support;

use auth_common::start_provider;
use reqwest::Method;
use support::browser::{Browser, Page, hidden_value};
use support::{McpClient, Server, VAULT_KEY, WAIT, answer_page, free_port};

/// An MCP access token from the provider (client credentials; `sub` is the client id).
async fn access_token(issuer: &str, resource: &str) -> String {
    let resp = reqwest::Client::new()
        .post(format!("{issuer}/token"))
        .basic_auth("mcp-test-cc", Some("mcp-test-cc-secret"))
        .form(&[
            ("grant_type", "client_credentials"),
            ("resource", resource),
            ("scope", "mcp"),
        ])
        .send()
        .await
        .expect("token request");
    let status = resp.status();
    let body: Value = resp.json().await.expect("token JSON");
    assert!(status.is_success(), "token endpoint: {status} {body}");
    body["access_token"]
        .as_str()
        .expect("access_token")
        .to_owned()
}

/// The flags of an authorized server on `port` using the provider at `issuer` (for
/// sign-in and as the third-party provider), with its files in `dir`.
fn authorized_args(dir: &tempfile::TempDir, port: u16, issuer: &str) -> Vec<String> {
    let key_file = dir.path().join("vault.key");
    std::fs::write(&key_file, format!("{VAULT_KEY}\n")).expect("write key");
    let secret_file = dir.path().join("login.secret");
    std::fs::write(&secret_file, "mcp-web-secret\n").expect("write secret");
    std::fs::write(dir.path().join("tp.secret"), "third-party-secret").expect("write");
    let providers = dir.path().join("providers.json");
    std::fs::write(
        &providers,
        json!([{"name": "thirdparty", "display_name": "Third Party", "issuer": issuer,
            "client_id": "third-party-app", "client_secret_file": "tp.secret",
            "scopes": ["openid", "offline_access", "api:read"],
            "resource": "https://api.third-party.test/"}])
        .to_string(),
    )
    .expect("write providers");
    let store = format!("sqlite://{}", dir.path().join("state.db").display());
    let path = |p: &PathBuf| p.display().to_string();
    vec![
        "--listen".into(),
        format!("127.0.0.1:{port}"),
        "--issuer".into(),
        issuer.to_owned(),
        "--client-id".into(),
        "mcp-web".into(),
        "--client-secret-file".into(),
        path(&secret_file),
        "--vault-key-file".into(),
        path(&key_file),
        "--provider-config".into(),
        path(&providers),
        "--store".into(),
        store,
    ]
}

/// An initialized client of `{base}/mcp` with the provider's access token, listening for
/// notifications; `initialize`'s messages too.
async fn authorized_client(base: &str, issuer: &str) -> (McpClient, Vec<Value>) {
    let mcp = format!("{base}/mcp");
    let token = access_token(issuer, &mcp).await;
    McpClient::connect(&mcp, token).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn authorized_serve_guards_mcp_and_completes_url_flows_through_the_pages() {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let (_provider, issuer) = start_provider(&base).await;
    let dir = tempfile::tempdir().expect("temporary directory");
    let args = authorized_args(&dir, port, &issuer);
    let server = Server::start(&args, &[], port);
    let http = reqwest::Client::new();
    let mcp = format!("{base}/mcp");

    // No token: 401 pointing at the protected resource metadata.
    let resp = http
        .post(&mcp)
        .header("accept", "application/json, text/event-stream")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
        .send()
        .await
        .expect("post");
    assert_eq!(resp.status(), 401);
    let challenge = resp
        .headers()
        .get("www-authenticate")
        .and_then(|v| v.to_str().ok())
        .expect("WWW-Authenticate")
        .to_owned();
    let prm = format!("{base}/.well-known/oauth-protected-resource/mcp");
    assert!(
        challenge.starts_with("Bearer ")
            && challenge.contains(&format!("resource_metadata=\"{prm}\"")),
        "{challenge}"
    );
    // A token that is not the issuer's is refused too.
    let forged = http
        .post(&mcp)
        .bearer_auth("eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
        .send()
        .await
        .expect("post");
    assert_eq!(forged.status(), 401);
    let meta: Value = http
        .get(&prm)
        .send()
        .await
        .expect("metadata")
        .json()
        .await
        .expect("metadata JSON");
    assert_eq!(meta["resource"], mcp);
    assert_eq!(meta["authorization_servers"], json!([issuer]));

    // With the provider's token: the demo tools are listed first.
    let (mut client, init) = authorized_client(&base, &issuer).await;
    assert!(
        init.iter().any(|m| m["id"] == 1 && m["result"].is_object()),
        "{init:?}"
    );
    let list = client
        .post(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}))
        .await;
    let names: Vec<String> = list
        .iter()
        .find(|m| m["id"] == 2)
        .and_then(|m| m["result"]["tools"].as_array())
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(
        names[..3],
        ["set_api_key", "connect_provider", "approve_purchase"]
    );
    assert!(names.iter().any(|n| n == "demo_form"), "{names:?}");

    // set_api_key: -32042 with the connect page on the public URL.
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "set_api_key", "arguments": {}}});
    let (id, url) = client.url_required(call.clone()).await;
    assert!(
        url.starts_with(&format!("{base}/connect?elicitationId=")),
        "{url}"
    );

    // Another user signing in at the page is refused.
    let mut mallory = Browser::new("mallory");
    let page = mallory.open(&url).await;
    assert_eq!(page.status, 403, "{}\n{}", page.body, server.log());

    // The token's user signs in and enters the key.
    let secret = format!("sk_serve_web_{}", std::process::id());
    let mut browser = Browser::new("mcp-test-cc");
    answer_page(
        &mut browser,
        &base,
        &url,
        &id,
        "/connect/secret",
        &[("secret", &secret)],
    )
    .await;
    client.wait_for_completion(&id).await;
    let text = client.call_text(call).await;
    assert!(text.contains("on file"), "{text}");

    // approve_purchase: confirm on the page, the retry reports it.
    let buy = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
        "params": {"name": "approve_purchase", "arguments": {"item": "Widget", "amount": "42.00 EUR"}}});
    let (buy_id, buy_url) = client.url_required(buy.clone()).await;
    answer_page(
        &mut browser,
        &base,
        &buy_url,
        &buy_id,
        "/connect/confirm",
        &[("decision", "confirm")],
    )
    .await;
    client.wait_for_completion(&buy_id).await;
    let text = client.call_text(buy).await;
    assert!(
        text.contains("Approved: Buy Widget for 42.00 EUR"),
        "{text}"
    );

    // connect_provider: third-party OAuth configured by --provider-config.
    let connect = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
        "params": {"name": "connect_provider", "arguments": {}}});
    let (oauth_id, oauth_url) = client.url_required(connect.clone()).await;
    answer_page(
        &mut browser,
        &base,
        &oauth_url,
        &oauth_id,
        "/connect/oauth",
        &[],
    )
    .await;
    client.wait_for_completion(&oauth_id).await;
    let text = client.call_text(connect).await;
    assert!(text.contains("account is connected"), "{text}");

    let received = client.received.lock().expect("lock").clone();
    assert!(
        !received.contains(&secret),
        "the key reached the MCP client"
    );
    let log = server.log();
    assert!(!log.contains(&secret), "the key was logged: {log}");
    assert!(!log.contains(VAULT_KEY), "the vault key was logged");
    assert!(
        !log.contains("mcp-web-secret"),
        "the client secret was logged"
    );
    assert!(log.contains("authorized by"), "{log}");
}

/// Issue 14: in authorized mode the reference server's demo page (`/demo/complete`,
/// which signs the browser in as the local user) is not served, yet `connect_demo` and
/// `demo_url` handed out links to it, which answered 404. Authorized mode hands out no
/// such link: the two tools are not listed, and calling them is refused (-32602, naming
/// local mode and the tools whose pages sign the user in). Every URL a tool hands out
/// must be a page the server serves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn authorized_mode_hands_out_no_link_to_the_local_demo_page() {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let (_provider, issuer) = start_provider(&base).await;
    let dir = tempfile::tempdir().expect("temporary directory");
    let args = authorized_args(&dir, port, &issuer);
    let server = Server::start(&args, &[], port);
    let http = reqwest::Client::new();
    let (mut client, _) = authorized_client(&base, &issuer).await;

    for (n, tool) in [(10, "connect_demo"), (11, "demo_url")] {
        let answer = client
            .post(json!({"jsonrpc": "2.0", "id": n, "method": "tools/call",
                "params": {"name": tool, "arguments": {}}}))
            .await;
        let response = answer
            .iter()
            .find(|m| m["id"] == n)
            .cloned()
            .unwrap_or_else(|| panic!("no response to {tool}: {answer:?}"));
        // What it used to do: -32042 with a link that is not served.
        if let Some(url) = response["error"]["data"]["elicitations"][0]["url"].as_str() {
            let status = http.get(url).send().await.expect("GET the link").status();
            panic!("{tool} handed out {url}, which answers {status}");
        }
        assert_eq!(response["error"]["code"], -32602, "{tool}: {response}");
        let message = response["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("local mode") && message.contains("approve_purchase"),
            "{tool}: {message}"
        );
    }
    let list = client
        .post(json!({"jsonrpc": "2.0", "id": 12, "method": "tools/list"}))
        .await;
    let names: Vec<String> = list
        .iter()
        .find(|m| m["id"] == 12)
        .and_then(|m| m["result"]["tools"].as_array())
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str().map(str::to_owned))
        .collect();
    assert!(
        !names.iter().any(|n| n == "connect_demo" || n == "demo_url"),
        "{names:?}"
    );
    assert!(names.iter().any(|n| n == "demo_form"), "{names:?}");
    let received = client.received.lock().expect("lock").clone();
    assert!(!received.contains("/demo/complete"), "{received}");
    drop(server);
}

/// `--scopes-supported` and `--required-scopes`: the metadata advertises the scopes, and
/// a valid token without a required scope is refused with 403 `insufficient_scope`
/// naming the scope needed (MCP authorization, "Scope Challenge Handling").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn required_scopes_are_advertised_and_enforced_with_a_403_challenge() {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let (_provider, issuer) = start_provider(&base).await;
    let dir = tempfile::tempdir().expect("temporary directory");
    let mut args = authorized_args(&dir, port, &issuer);
    args.extend(["--scopes-supported".into(), "mcp, admin".into()]);
    args.extend(["--required-scopes".into(), "admin".into()]);
    let server = Server::start(&args, &[], port);
    let http = reqwest::Client::new();
    let mcp = format!("{base}/mcp");
    let prm = format!("{base}/.well-known/oauth-protected-resource/mcp");
    let meta: Value = http
        .get(&prm)
        .send()
        .await
        .expect("metadata")
        .json()
        .await
        .expect("JSON");
    assert_eq!(meta["scopes_supported"], json!(["mcp", "admin"]), "{meta}");
    // The provider's token carries `mcp` only.
    let token = access_token(&issuer, &mcp).await;
    let refused = http
        .post(&mcp)
        .bearer_auth(&token)
        .header("accept", "application/json, text/event-stream")
        .json(
            &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "scopes", "version": "0"}}}),
        )
        .send()
        .await
        .expect("post");
    assert_eq!(refused.status(), 403);
    let challenge = refused.headers()["www-authenticate"]
        .to_str()
        .expect("ascii")
        .to_owned();
    for part in [
        "Bearer ",
        "error=\"insufficient_scope\"",
        "scope=\"admin\"",
        &format!("resource_metadata=\"{prm}\""),
    ] {
        assert!(challenge.contains(part), "{part} in {challenge}");
    }
    assert!(
        !server.log().contains(&token),
        "the bearer token was logged"
    );
}

/// Follows `page` until the browser is at the provider (the sign-in or the third-party
/// authorization has left this server).
async fn until_at_provider(browser: &mut Browser, mut page: Page, issuer: &str) -> Page {
    while !page.url.as_str().starts_with(issuer) {
        page = browser
            .step(&page)
            .await
            .expect("on the way to the provider");
    }
    page
}

/// The server is killed (SIGKILL) while the user is at the provider, once during the
/// sign-in and once during the third-party authorization; each flow finishes on the
/// restarted process, and the client's retried calls find the key and the tokens.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn authorized_flows_survive_sigkill_while_the_user_is_at_the_provider() {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let (_provider, issuer) = start_provider(&base).await;
    let dir = tempfile::tempdir().expect("temporary directory");
    let args = authorized_args(&dir, port, &issuer);
    let server = Server::start(&args, &[], port);
    let (mut client, _) = authorized_client(&base, &issuer).await;
    let key_call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "set_api_key", "arguments": {}}});
    let (id, url) = client.url_required(key_call.clone()).await;

    // Sign-in started by the first process; the user is at the provider when it dies.
    let mut browser = Browser::new("mcp-test-cc");
    let first = browser.request(Method::GET, &url, None, None).await;
    let at_provider = until_at_provider(&mut browser, first, &issuer).await;
    drop(server);
    let server = Server::start(&args, &[], port);
    let page = browser.follow(at_provider).await;
    assert_eq!(page.status, 200, "{}\n{}", page.body, server.log());
    let csrf = hidden_value(&page.body, "csrf").expect("csrf field");
    let secret = format!("sk_sigkill_{}", std::process::id());
    let done = browser
        .submit(
            &format!("{base}/connect/secret"),
            &[("elicitationId", &id), ("csrf", &csrf), ("secret", &secret)],
            &base,
        )
        .await;
    assert_eq!(done.status, 200, "{}", done.body);
    // The old MCP session died with the process: reconnect and retry.
    let (mut client, _) = authorized_client(&base, &issuer).await;
    let text = client.call_text(key_call).await;
    assert!(text.contains("on file"), "{text}");

    // Third-party authorization started by the second process, finished by a third.
    let connect = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
        "params": {"name": "connect_provider", "arguments": {}}});
    let (oauth_id, oauth_url) = client.url_required(connect.clone()).await;
    let page = browser.open(&oauth_url).await;
    let csrf = hidden_value(&page.body, "csrf").expect("csrf");
    let started = browser
        .request(
            Method::POST,
            &format!("{base}/connect/oauth"),
            Some(&[("elicitationId", &oauth_id), ("csrf", &csrf)]),
            Some(&base),
        )
        .await;
    let at_provider = until_at_provider(&mut browser, started, &issuer).await;
    drop(server);
    let server = Server::start(&args, &[], port);
    let done = browser.follow(at_provider).await;
    assert_eq!(done.status, 200, "{}\n{}", done.body, server.log());
    let (mut client, _) = authorized_client(&base, &issuer).await;
    let text = client.call_text(connect).await;
    assert!(text.contains("account is connected"), "{text}");
    assert!(!server.log().contains(&secret));
}

/// Runs `mcp-elicit serve ARGS` expecting it to refuse; returns its stderr.
fn refused(args: &[&str], env: &[(&str, &str)]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-elicit"))
        .arg("serve")
        .args(args)
        .env_remove("MCP_ELICIT_VAULT_KEY")
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .expect("run mcp-elicit serve");
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn unsafe_listening_configurations_are_refused_with_exit_2() {
    let e = refused(&["--listen", "0.0.0.0:0", "--store", "memory"], &[]);
    assert!(
        e.contains("refusing to listen on 0.0.0.0:0") && e.contains("--issuer"),
        "{e}"
    );
    // The same options from the environment (MCP_ELICIT_<OPTION>) get the same checks.
    let e = refused(
        &[],
        &[
            ("MCP_ELICIT_LISTEN", "0.0.0.0:0"),
            ("MCP_ELICIT_STORE", "memory"),
        ],
    );
    assert!(e.contains("refusing to listen on 0.0.0.0:0"), "{e}");
    let e = refused(&[], &[("MCP_ELICIT_AUDIENCE", "x")]);
    assert!(e.contains("--issuer"), "an audience needs an issuer: {e}");
    // With an issuer but plain HTTP outside loopback (no TLS-terminating proxy named).
    let key = [("MCP_ELICIT_VAULT_KEY", VAULT_KEY)];
    let e = refused(
        &["--listen", "0.0.0.0:0", "--issuer", "https://idp.example"],
        &key,
    );
    assert!(e.contains("--public-url https://"), "{e}");
    // An issuer needs a vault key, and a database for it.
    let e = refused(
        &["--listen", "127.0.0.1:0", "--issuer", "http://127.0.0.1:9"],
        &[],
    );
    assert!(e.contains("vault key"), "{e}");
    let e = refused(
        &[
            "--listen",
            "127.0.0.1:0",
            "--issuer",
            "http://127.0.0.1:9",
            "--store",
            "memory",
        ],
        &key,
    );
    assert!(e.contains("database store"), "{e}");
    let e = refused(&["--stdio", "--issuer", "http://127.0.0.1:9"], &key);
    assert!(e.contains("--stdio cannot be combined"), "{e}");
    // A vault key that is not a key is refused without being echoed.
    let e = refused(
        &["--listen", "127.0.0.1:0", "--issuer", "http://127.0.0.1:9"],
        &[("MCP_ELICIT_VAULT_KEY", "hunter2-hunter2")],
    );
    assert!(!e.contains("hunter2"), "{e}");
}

/// Local mode (no issuer, loopback): the same demo tools work for the local OS user, the
/// connect page signing the browser in as that user without any authorization server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_mode_serves_the_url_flows_for_the_local_user() {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let dir = tempfile::tempdir().expect("temporary directory");
    let data = dir.path().join("data");
    // The default store: state.db and vault.key in the data directory.
    let args: Vec<String> = vec!["--listen".into(), format!("127.0.0.1:{port}")];
    let data_env = data.display().to_string();
    let server = Server::start(
        &args,
        &[("XDG_DATA_HOME", &data_env), ("USER", "local-tester")],
        port,
    );
    let key_file = data.join("mcp-elicit").join("vault.key");
    // The listener is bound (connections queue) before the start-up writes the key file.
    let deadline = Instant::now() + WAIT;
    while !key_file.is_file() {
        assert!(
            Instant::now() < deadline,
            "no vault key file: {}",
            server.log()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&key_file)
            .expect("key file")
            .permissions()
            .mode();
        assert_eq!(mode & 0o077, 0, "the vault key file is private: {mode:o}");
    }
    let http = reqwest::Client::new();
    // No authorization server to advertise in local mode.
    let prm = http
        .get(format!("{base}/.well-known/oauth-protected-resource/mcp"))
        .send()
        .await
        .expect("get");
    assert_eq!(prm.status(), 404);

    let (mut client, _) = McpClient::connect(&format!("{base}/mcp"), String::new()).await;

    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "set_api_key", "arguments": {}}});
    let (id, url) = client.url_required(call.clone()).await;
    assert!(
        url.starts_with(&format!("{base}/connect?elicitationId=")),
        "{url}"
    );
    // A made-up id shows nothing (the id in the URL is the capability).
    let mut browser = Browser::new("unused");
    let guess = browser
        .open(&format!("{base}/connect?elicitationId=0123456789abcdef"))
        .await;
    assert_eq!(guess.status, 404, "{}", guess.body);
    let page = browser.open(&url).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("local-tester"), "{}", page.body);
    let csrf = hidden_value(&page.body, "csrf").expect("csrf field");
    let secret = format!("sk_local_{}", std::process::id());
    // Another web site cannot post the form (Origin check), even with the token.
    let evil = browser
        .submit(
            &format!("{base}/connect/secret"),
            &[("elicitationId", &id), ("csrf", &csrf), ("secret", "evil")],
            "http://evil.example",
        )
        .await;
    assert_eq!(evil.status, 403, "{}", evil.body);
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

    let buy = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "approve_purchase", "arguments": {"item": "Tea", "amount": "3 EUR"}}});
    let (buy_id, buy_url) = client.url_required(buy.clone()).await;
    answer_page(
        &mut browser,
        &base,
        &buy_url,
        &buy_id,
        "/connect/confirm",
        &[("decision", "cancel")],
    )
    .await;
    client.wait_for_completion(&buy_id).await;
    let text = client.call_text(buy).await;
    assert!(text.contains("You cancelled: Buy Tea for 3 EUR"), "{text}");
    // No provider is configured in local mode: a clear error, not a page.
    let connect = client
        .post(json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
            "params": {"name": "connect_provider", "arguments": {}}}))
        .await;
    let answer = connect.iter().find(|m| m["id"] == 4).expect("response");
    assert!(
        answer.to_string().contains("no third-party provider"),
        "{answer}"
    );

    let received = client.received.lock().expect("lock").clone();
    assert!(
        !received.contains(&secret),
        "the key reached the MCP client"
    );
    assert!(!server.log().contains(&secret), "the key was logged");
}
