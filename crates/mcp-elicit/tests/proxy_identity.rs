//! `mcp-elicit proxy` and identity (issue 18, item 4): in front of an authorized upstream
//! the proxy uses its own configured credentials, and a client's token never reaches the
//! upstream; with `--issuer` the proxy is the resource server for its clients (the real
//! OpenID provider issues their tokens), each client is its token's user, and one user's
//! session or held request is not another's.

mod auth_common;
#[cfg(target_os = "linux")]
mod os_user_common;
mod proxy_common;
mod support;

use std::sync::{Arc, Mutex};

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::IntoResponse;
use proxy_common::{Misbehaving, Running, last_message, start_proxy};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::{Value, json};

const PROXY_TOKEN: &str = "proxy-token-7f3a";
const CLIENT_TOKEN: &str = "client-token-91bc";

/// The test upstream, recording every `Authorization` header it was sent, behind a bearer
/// check that accepts only `required` (when given); its `/mcp` URL.
async fn recording_upstream(
    seen: Arc<Mutex<Vec<String>>>,
    required: Option<&'static str>,
) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let service = StreamableHttpService::new(
        || Ok(Misbehaving),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let check = move |request: Request, next: Next| {
        let seen = seen.clone();
        async move {
            let auth = request
                .headers()
                .get("authorization")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_owned();
            seen.lock().expect("lock").push(auth.clone());
            if let Some(token) = required
                && auth != format!("Bearer {token}")
            {
                return (
                    axum::http::StatusCode::UNAUTHORIZED,
                    [("www-authenticate", "Bearer")],
                    "",
                )
                    .into_response();
            }
            next.run(request).await
        }
    };
    let app = axum::Router::new()
        .nest_service("/mcp", service)
        .layer(axum::middleware::from_fn(check));
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    format!("http://{addr}/mcp")
}

/// A 2025-11-25 call through the proxy with the client's own bearer token; the reply.
async fn call_with_token(url: &str, tool: &str) -> Value {
    call_as(url, tool, CLIENT_TOKEN).await.0
}

/// A 2025-11-25 session through the proxy with bearer `token`: the `tools/call` reply (or
/// the first error) and the session id.
async fn call_as(url: &str, tool: &str, token: &str) -> (Value, Option<String>) {
    let http = reqwest::Client::new();
    let post = |body: Value, session: Option<String>| {
        let mut r = http
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("authorization", format!("Bearer {token}"))
            .json(&body);
        if let Some(s) = session {
            r = r
                .header("mcp-session-id", s)
                .header("mcp-protocol-version", "2025-11-25");
        }
        r.send()
    };
    let init = post(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "token-client", "version": "0"}}}),
        None,
    )
    .await
    .expect("initialize");
    let session = init
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let init = last_message(init.text().await.expect("body"));
    if init.get("error").is_some() {
        return (init, session);
    }
    let _ = post(
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        session.clone(),
    )
    .await;
    let reply = post(
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
               "params": {"name": tool, "arguments": {}}}),
        session.clone(),
    )
    .await
    .expect("tools/call")
    .text()
    .await
    .expect("body");
    (last_message(reply), session)
}

async fn proxy(upstream: String, extra: Vec<String>) -> (Running, String) {
    tokio::task::spawn_blocking(move || {
        let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
        start_proxy(&upstream, &extra)
    })
    .await
    .expect("start")
}

/// `--upstream-token-file`: the upstream gets the proxy's token on every request and never
/// the client's; without it (and no kept sign-in) the client reads how to give the proxy
/// credentials.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_upstream_gets_the_proxys_credentials_never_the_clients() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let upstream = recording_upstream(seen.clone(), Some(PROXY_TOKEN)).await;
    let dir = tempfile::tempdir().expect("dir");
    let token_file = dir.path().join("token");
    std::fs::write(&token_file, format!("{PROXY_TOKEN}\n")).expect("write");
    let (running, url) = proxy(
        upstream.clone(),
        vec![
            "--upstream-token-file".into(),
            token_file.display().to_string(),
        ],
    )
    .await;
    let reply = call_with_token(&url, "ask_url").await;
    assert!(
        reply["result"]["content"].is_array(),
        "{reply}\n{}",
        running.log()
    );
    {
        let seen = seen.lock().expect("lock");
        assert!(!seen.is_empty());
        assert!(
            seen.iter().all(|a| a == &format!("Bearer {PROXY_TOKEN}")),
            "{seen:?}"
        );
    }
    drop(running);

    // No credentials configured (and none kept for this user): the client is told.
    let state = tempfile::tempdir().expect("dir");
    let (running, url) = tokio::task::spawn_blocking({
        let upstream = upstream.clone();
        let state = state.path().to_owned();
        move || {
            let port = proxy_common::free_port();
            let listen = format!("127.0.0.1:{port}");
            let running = Running::start_with_env(
                &["proxy", "--upstream", &upstream, "--listen", &listen],
                port,
                &[("XDG_STATE_HOME", state.as_os_str())],
            );
            (running, format!("http://127.0.0.1:{port}/mcp"))
        }
    })
    .await
    .expect("start");
    let reply = call_with_token(&url, "ask_url").await;
    let text = reply.to_string();
    assert!(
        text.contains("upstream needs a sign-in"),
        "{text}\n{}",
        running.log()
    );
    assert!(
        !seen
            .lock()
            .expect("lock")
            .iter()
            .any(|a| a.contains(CLIENT_TOKEN))
    );
}

/// An MCP access token from the provider (client credentials: `sub` is the client id) for
/// `resource`, as `client` with `secret`.
async fn access_token(issuer: &str, resource: &str, client: &str, secret: &str) -> String {
    let resp = reqwest::Client::new()
        .post(format!("{issuer}/token"))
        .form(&[
            ("grant_type", "client_credentials"),
            ("client_id", client),
            ("client_secret", secret),
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

/// A raw 2026-07-28 `tools/call` through the proxy with bearer `token` and `extra` params.
async fn call_2026(url: &str, token: &str, tool: &str, extra: Value) -> Value {
    let mut params = json!({"name": tool, "arguments": {}, "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}, "url": {}}},
        "io.modelcontextprotocol/clientInfo": {"name": "raw-2026", "version": "0"}}});
    if let (Some(p), Value::Object(e)) = (params.as_object_mut(), extra) {
        p.extend(e);
    }
    let body = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", tool)
        .header("authorization", format!("Bearer {token}"))
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}))
        .send()
        .await
        .expect("POST")
        .text()
        .await
        .expect("body");
    last_message(body)
}

/// `--issuer`: no token or a bad one gets 401 with the resource metadata's URL, which
/// names the issuer; a token of the issuer for the proxy reaches the upstream without
/// itself (the upstream sees no Authorization at all); another user can use neither the
/// first user's session nor its held request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_need_a_token_of_the_issuer_and_it_never_goes_upstream() {
    let port = proxy_common::free_port();
    let base = format!("http://127.0.0.1:{port}");
    let (_provider, issuer) = auth_common::start_provider(&base).await;
    let seen = Arc::new(Mutex::new(Vec::new()));
    let upstream = recording_upstream(seen.clone(), None).await;
    let running = tokio::task::spawn_blocking({
        let issuer = issuer.clone();
        move || {
            let listen = format!("127.0.0.1:{port}");
            Running::start(
                &[
                    "proxy",
                    "--upstream",
                    &upstream,
                    "--listen",
                    &listen,
                    "--issuer",
                    &issuer,
                ],
                port,
            )
        }
    })
    .await
    .expect("start");
    let url = format!("{base}/mcp");
    let http = reqwest::Client::new();

    // No token, then a token that is not the issuer's: 401, pointing at the metadata.
    for auth in [None, Some("Bearer not.a.jwt")] {
        let mut request = http
            .post(&url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
        if let Some(a) = auth {
            request = request.header("authorization", a);
        }
        let response = request.send().await.expect("POST");
        assert_eq!(response.status(), 401, "{auth:?}\n{}", running.log());
        let challenge = response.headers()["www-authenticate"]
            .to_str()
            .expect("ascii")
            .to_owned();
        assert!(
            challenge.contains(&format!(
                "resource_metadata=\"{base}/.well-known/oauth-protected-resource/mcp\""
            )),
            "{challenge}"
        );
    }
    let metadata: Value = http
        .get(format!("{base}/.well-known/oauth-protected-resource/mcp"))
        .send()
        .await
        .expect("GET")
        .json()
        .await
        .expect("JSON");
    assert_eq!(metadata["resource"], url.as_str(), "{metadata}");
    assert_eq!(
        metadata["authorization_servers"],
        json!([issuer]),
        "{metadata}"
    );

    let alice = access_token(&issuer, &url, "mcp-cli-cc", "mcp-cli-cc-secret").await;
    let bob = access_token(&issuer, &url, "mcp-test-cc", "mcp-test-cc-secret").await;
    let (reply, session) = call_as(&url, "ask_url", &alice).await;
    assert!(
        reply["result"]["content"].is_array(),
        "{reply}\n{}",
        running.log()
    );
    assert!(
        seen.lock().expect("lock").iter().all(String::is_empty),
        "the upstream saw an Authorization header: {:?}",
        seen.lock().expect("lock")
    );

    // Bob on Alice's session: not found.
    let response = http
        .post(&url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("authorization", format!("Bearer {bob}"))
        .header("mcp-session-id", session.expect("a session"))
        .header("mcp-protocol-version", "2025-11-25")
        .body(r#"{"jsonrpc":"2.0","id":9,"method":"tools/list"}"#)
        .send()
        .await
        .expect("POST");
    assert_eq!(response.status(), 404);

    // A 2026-07-28 round of Alice's, retried by Bob: refused, naming requestState.
    let round = call_2026(&url, &alice, "ask_url", json!({})).await;
    let state = round["result"]["requestState"]
        .as_str()
        .unwrap_or_else(|| panic!("a round for Alice: {round}\n{}", running.log()));
    let key = round["result"]["inputRequests"]
        .as_object()
        .and_then(|m| m.keys().next().cloned())
        .expect("a key");
    let stolen = call_2026(
        &url,
        &bob,
        "ask_url",
        json!({"inputResponses": {key.clone(): {"action": "accept"}}, "requestState": state}),
    )
    .await;
    assert_eq!(stolen["error"]["code"], -32602, "{stolen}");
    assert!(stolen.to_string().contains("requestState"), "{stolen}");
    // Alice's own retry goes through.
    let done = call_2026(
        &url,
        &alice,
        "ask_url",
        json!({"inputResponses": {key: {"action": "decline"}}, "requestState": state}),
    )
    .await;
    assert!(done.to_string().contains("upstream got"), "{done}");
    assert!(seen.lock().expect("lock").iter().all(String::is_empty));
}

/// Without `--issuer` every client is the local user, so the proxy serves only its own OS
/// user: another account (uid 65534 through `setpriv`) gets 403 naming the rule;
/// `--danger-allow-other-os-users` lets it in.
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_an_issuer_only_the_proxys_own_os_user_is_served() {
    use os_user_common::{INITIALIZE, OTHER_UID, curl, unavailable};
    if let Some(why) = unavailable() {
        eprintln!("skipped: {why}");
        return;
    }
    let upstream = recording_upstream(Arc::new(Mutex::new(Vec::new())), None).await;
    for (extra, other_status) in [
        (vec![], 403),
        (vec!["--danger-allow-other-os-users".to_owned()], 200),
    ] {
        let (running, url) = proxy(upstream.clone(), extra).await;
        let (own, other) = tokio::task::spawn_blocking({
            let url = url.clone();
            move || {
                (
                    curl(None, &url, Some(INITIALIZE)),
                    curl(Some(OTHER_UID), &url, Some(INITIALIZE)),
                )
            }
        })
        .await
        .expect("curl");
        assert_eq!(own.0, 200, "own user: {}\n{}", own.1, running.log());
        assert_eq!(other.0, other_status, "uid {OTHER_UID}: {}", other.1);
        if other_status == 403 {
            assert!(other.1.contains("only serves OS user"), "{}", other.1);
        }
    }
}
