//! The reference server over real Streamable HTTP on 127.0.0.1, with rmcp clients.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::WAIT;
use common::http_client::{
    Client, Running, Seen, assert_silent, call, connect, connect_as, error_data, first_text,
    next_note, required_id,
};
use mcp_elicit_server::reference::{DemoState, MemoryDemoState, Reference, ReferenceOptions, http};
use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
use rmcp::ServiceExt;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

async fn start() -> (
    String,
    std::net::SocketAddr,
    Reference,
    tokio::sync::oneshot::Sender<()>,
) {
    start_with(Arc::new(MemoryDemoState::new())).await
}

async fn start_with(
    state: Arc<dyn DemoState>,
) -> (
    String,
    std::net::SocketAddr,
    Reference,
    tokio::sync::oneshot::Sender<()>,
) {
    start_full(alice_config(), state).await
}

/// The reference server over `config` and `state` on a free loopback port; returns
/// `/mcp`'s URL, the address, the server and its stop handle.
async fn start_full(
    config: ElicitationConfig,
    state: Arc<dyn DemoState>,
) -> (
    String,
    std::net::SocketAddr,
    Reference,
    tokio::sync::oneshot::Sender<()>,
) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let base = format!("http://{addr}");
    let reference = Reference::with_state(
        Elicitations::new(config),
        ReferenceOptions::new(&base).with_conformance(true),
        state,
    );
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(http::serve(listener, reference.clone(), async move {
        let _ = stopped.await;
    }));
    (format!("{base}/mcp"), addr, reference, stop)
}

/// A bare HTTP/1.1 request; returns the status code and body.
async fn raw_http(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    extra: &str,
) -> (u16, String) {
    raw_http_body(addr, method, path, extra, "").await
}

/// [`raw_http`] with a body (give its `Content-Type` in `extra`).
async fn raw_http_body(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    extra: &str,
    body: &str,
) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut response = String::new();
    tokio::time::timeout(WAIT, stream.read_to_string(&mut response))
        .await
        .expect("response in time")
        .expect("read");
    let status = response
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, response)
}

/// The CSRF token in the form of the demo page for `id` (what the browser shows).
async fn page_token(addr: std::net::SocketAddr, id: &str) -> String {
    let (status, page) = raw_http(
        addr,
        "GET",
        &format!("/demo/complete?elicitationId={id}"),
        "",
    )
    .await;
    assert_eq!(status, 200, "{page}");
    hidden_csrf(&page).unwrap_or_else(|| panic!("no CSRF token in the page: {page}"))
}

/// The value of the page's hidden `csrf` input.
fn hidden_csrf(page: &str) -> Option<String> {
    let at = page.find("name=\"csrf\" value=\"")? + "name=\"csrf\" value=\"".len();
    let end = page[at..].find('"')?;
    Some(page[at..at + end].to_owned())
}

/// Posts the demo page's form for `id` with `token` (at `path`, the page's own address
/// by default) as the user's browser does.
async fn post_form(addr: std::net::SocketAddr, path: &str, token: &str) -> (u16, String) {
    raw_http_body(
        addr,
        "POST",
        path,
        &format!("Origin: http://{addr}\r\nContent-Type: application/x-www-form-urlencoded\r\n"),
        &format!("csrf={token}"),
    )
    .await
}

/// Opens the demo's completion page for `id` and presses Finish (what the user's
/// browser does).
async fn post_complete(addr: std::net::SocketAddr, id: &str) -> (u16, String) {
    let token = page_token(addr, id).await;
    post_form(addr, &format!("/demo/complete?elicitationId={id}"), &token).await
}

/// Calls `demo_url`, which the client accepts; returns the id in the URL it was sent.
async fn consent_to_demo_url(client: &Running, seen: &Seen) -> String {
    let result = client
        .call_tool(call("demo_url", json!({})))
        .await
        .expect("call");
    assert!(
        first_text(&result).starts_with("You agreed"),
        "{}",
        first_text(&result)
    );
    let sent = seen.lock().expect("seen").clone();
    let sent_url = sent[0]
        .strip_prefix("url: ")
        .expect("a url elicitation")
        .to_owned();
    sent_url.rsplit('=').next().expect("id").to_owned()
}

/// Calls `connect_demo`, which must now succeed: the user is connected.
async fn assert_connected(client: &Running) {
    let ok = client
        .call_tool(call("connect_demo", json!({})))
        .await
        .expect("connected now");
    assert!(
        first_text(&ok).starts_with("Connected"),
        "{}",
        first_text(&ok)
    );
}

#[tokio::test]
async fn a_form_elicited_mid_call_over_http() {
    let (url, _addr, reference, _stop) = start().await;
    let (client, _rx, seen) = connect(&url, json!({"elicitation": {}})).await;
    let result = client
        .call_tool(call("test_elicitation", json!({"message": "Who are you?"})))
        .await
        .expect("call");
    let text = first_text(&result);
    assert!(text.starts_with("User response: action=accept"), "{text}");
    assert!(text.contains("octocat"), "{text}");
    assert_eq!(
        seen.lock().expect("seen").as_slice(),
        ["form: Who are you?"]
    );
    assert_eq!(reference.hub().pending_count().await.expect("count"), 0);
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn connect_demo_answers_32042_until_completed_and_notifies_only_the_originator() {
    let (url, addr, reference, _stop) = start().await;
    let caps = json!({"elicitation": {"form": {}, "url": {}}});
    let (a, mut a_notes, _) = connect(&url, caps.clone()).await;
    let (b, mut b_notes, _) = connect(&url, caps).await;

    let err = a
        .call_tool(call("connect_demo", json!({})))
        .await
        .expect_err("-32042");
    let (code, body) = error_data(err);
    assert_eq!(code, -32042);
    let item = &body["elicitations"][0];
    assert_eq!(item["mode"], "url");
    let id = item["elicitationId"].as_str().expect("id").to_owned();
    assert_eq!(
        item["url"],
        format!("http://{addr}/demo/complete?purpose=connect&elicitationId={id}")
    );

    // The page shows the pending elicitation; a cross-site post is refused.
    let (status, page) = raw_http(
        addr,
        "GET",
        &format!("/demo/complete?elicitationId={id}"),
        "",
    )
    .await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("Authorization is required"), "{page}");
    let (status, _) = raw_http(
        addr,
        "POST",
        &format!("/demo/complete?elicitationId={id}"),
        "Origin: http://evil.example\r\n",
    )
    .await;
    assert_eq!(status, 403);

    let token = page_token(addr, &id).await;
    let path = format!("/demo/complete?elicitationId={id}");
    let (status, page) = post_form(addr, &path, &token).await;
    assert_eq!(status, 200, "{page}");
    let note = next_note(&mut a_notes).await;
    assert_eq!(note, json!({"elicitationId": id}));
    // Only the client that got the elicitation hears about it, once.
    assert_silent(&mut b_notes, 500).await;
    let (status, _) = post_form(addr, &path, &token).await;
    assert_eq!(status, 404);
    assert_silent(&mut a_notes, 300).await;

    assert_connected(&a).await;
    assert_eq!(reference.hub().pending_count().await.expect("count"), 0);
    a.cancel().await.expect("close");
    b.cancel().await.expect("close");
}

#[tokio::test]
async fn url_mode_consent_over_http_then_completion() {
    let (url, addr, reference, _stop) = start().await;
    let (a, mut notes, seen) = connect(&url, json!({"elicitation": {"url": {}}})).await;
    let id = consent_to_demo_url(&a, &seen).await;
    assert_eq!(reference.hub().pending_count().await.expect("count"), 1);
    let (status, _) = post_complete(addr, &id).await;
    assert_eq!(status, 200);
    let note = next_note(&mut notes).await;
    assert_eq!(note["elicitationId"], id);
    assert_eq!(reference.hub().pending_count().await.expect("count"), 0);
    a.cancel().await.expect("close");
}

/// Issue 14: `/demo/complete` took any same-origin post. A form post must carry the
/// CSRF token of the page that shows the button: a forged post without it, with a made
/// up one, or with the token of another elicitation's page is refused with 403 and
/// finishes nothing; the real page's form works.
#[tokio::test]
async fn the_demo_page_post_needs_the_csrf_token_of_its_own_page() {
    let (url, addr, reference, _stop) = start().await;
    let (a, mut notes, seen) = connect(&url, json!({"elicitation": {"url": {}}})).await;
    let id = consent_to_demo_url(&a, &seen).await;
    let other = required_id(&a).await;
    let path = format!("/demo/complete?elicitationId={id}");
    let form =
        format!("Origin: http://{addr}\r\nContent-Type: application/x-www-form-urlencoded\r\n");
    let refused = |what: &'static str, extra: String, body: String| {
        let path = path.clone();
        async move {
            let (status, page) = raw_http_body(addr, "POST", &path, &extra, &body).await;
            assert_eq!(status, 403, "{what}: {page}");
            assert!(
                page.contains("security token is missing or wrong"),
                "{what}: {page}"
            );
        }
    };
    refused("no Origin, no token", String::new(), String::new()).await;
    refused("right Origin, no token", form.clone(), String::new()).await;
    refused(
        "right Origin, a made-up token",
        form.clone(),
        "csrf=rs2.random.AAAA".into(),
    )
    .await;
    let other_token = page_token(addr, &other).await;
    refused(
        "right Origin, another page's token",
        form.clone(),
        format!("csrf={other_token}"),
    )
    .await;
    assert_silent(&mut notes, 300).await;
    assert_eq!(reference.hub().pending_count().await.expect("count"), 2);
    // The page's own form: token from the page, posted back.
    let (status, page) = post_complete(addr, &id).await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(next_note(&mut notes).await["elicitationId"], id);
    assert_eq!(reference.hub().pending_count().await.expect("count"), 1);
    a.cancel().await.expect("close");
}

#[tokio::test]
async fn the_secret_demo_is_refused_and_no_request_is_sent() {
    let (url, _addr, _reference, _stop) = start().await;
    let (a, _notes, seen) = connect(&url, json!({"elicitation": {"form": {}}})).await;
    let result = a
        .call_tool(call("demo_secret", json!({})))
        .await
        .expect("call");
    assert_eq!(result.is_error, Some(true));
    assert!(
        first_text(&result).contains("refused"),
        "{}",
        first_text(&result)
    );
    assert!(seen.lock().expect("seen").is_empty());
    a.cancel().await.expect("close");
}

/// Stands for a bearer-token validator (built in a later issue): only server-side code
/// decides who the user is, and puts a `Principal` into the HTTP request's extensions.
async fn test_auth(
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let user = request
        .headers()
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .and_then(|token| token.strip_suffix("-valid-token"))
        .map(|sub| Principal::authenticated("https://issuer.test", sub));
    match user {
        Some(p) => {
            request.extensions_mut().insert(p);
            next.run(request).await
        }
        None => axum::http::StatusCode::UNAUTHORIZED.into_response(),
    }
}

use axum::response::IntoResponse;

#[tokio::test]
async fn elicitations_are_bound_to_the_authenticated_principal_not_to_what_the_client_says() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::Authenticated));
    let reference = Reference::new(hub.clone(), ReferenceOptions::new(format!("http://{addr}")));
    let ct = tokio_util::sync::CancellationToken::new();
    let app = http::router(reference, ct.clone()).layer(axum::middleware::from_fn(test_auth));
    tokio::spawn(async move { axum::serve(listener, app).await });
    let url = format!("http://{addr}/mcp");

    let (alice, mut alice_notes) = connect_as(&url, "alice-valid-token").await;
    let (bob, mut bob_notes) = connect_as(&url, "bob-valid-token").await;
    let id = required_id(&alice).await;

    let alice_p = Principal::authenticated("https://issuer.test", "alice");
    let bob_p = Principal::authenticated("https://issuer.test", "bob");
    let pending = hub.pending(&alice_p).await.expect("pending");
    assert_eq!(pending.len(), 1);
    assert!(
        pending[0].session.as_str().starts_with("mcp-session:"),
        "{:?}",
        pending[0].session
    );
    assert!(hub.pending(&bob_p).await.expect("pending").is_empty());
    // Same subject name, other issuer (e.g. a local user called alice): not the same user.
    assert!(
        hub.pending(&Principal::local_user("alice"))
            .await
            .expect("pending")
            .is_empty()
    );

    // Bob (the phishing victim or the attacker) cannot complete Alice's elicitation.
    assert!(hub.complete(&bob_p, &id).await.is_err());
    assert_silent(&mut alice_notes, 300).await;
    hub.complete(&alice_p, &id).await.expect("alice completes");
    let note = next_note(&mut alice_notes).await;
    assert_eq!(note["elicitationId"], id);
    assert_silent(&mut bob_notes, 300).await;
    alice.cancel().await.expect("close");
    bob.cancel().await.expect("close");
    ct.cancel();
}

#[tokio::test]
async fn without_an_authenticated_principal_nothing_is_elicited() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::Authenticated));
    let reference = Reference::new(
        hub.clone(),
        ReferenceOptions::new(format!("http://{addr}")).with_conformance(true),
    );
    tokio::spawn(http::serve(listener, reference, std::future::pending()));
    let (client, _notes, seen) =
        connect(&format!("http://{addr}/mcp"), json!({"elicitation": {}})).await;
    let err = client
        .call_tool(call("test_elicitation", json!({"message": "hi"})))
        .await
        .expect_err("no identity");
    assert_eq!(error_data(err).1["kind"], "no_identity");
    assert!(seen.lock().expect("seen").is_empty());
    assert_eq!(hub.pending_count().await.expect("count"), 0);
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn a_client_that_goes_away_mid_form_leaves_nothing_pending() {
    let (url, _addr, reference, _stop) = start().await;
    let (mut client, _rx, seen) = Client::new(json!({"elicitation": {}}));
    client.hang = true;
    let running = client
        .serve(StreamableHttpClientTransport::from_uri(url))
        .await
        .expect("connect");
    let peer = running.peer().clone();
    let call = tokio::spawn(async move {
        peer.call_tool(call("test_elicitation", json!({"message": "Still there?"})))
            .await
    });
    let deadline = tokio::time::Instant::now() + WAIT;
    while seen.lock().expect("seen").is_empty() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the form never arrived"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(reference.hub().pending_count().await.expect("count"), 1);
    // The client goes away (its session is closed); the server's wait must end and
    // forget the form.
    running.cancel().await.expect("close");
    call.abort();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let n = reference.hub().pending_count().await.expect("count");
        if n == 0 {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{n} elicitations still pending"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Records connections slowly (a remote database, a token exchange): whatever the client
/// is told must already be true when it acts on it.
#[derive(Default)]
struct SlowState(MemoryDemoState);

impl DemoState for SlowState {
    fn mark_connected<'a>(
        &'a self,
        principal: &'a Principal,
    ) -> futures::future::BoxFuture<'a, Result<(), mcp_elicit_server::StoreError>> {
        Box::pin(async move {
            tokio::time::sleep(Duration::from_millis(400)).await;
            self.0.mark_connected(principal).await
        })
    }

    fn is_connected<'a>(
        &'a self,
        principal: &'a Principal,
    ) -> futures::future::BoxFuture<'a, Result<bool, mcp_elicit_server::StoreError>> {
        self.0.is_connected(principal)
    }
}

#[tokio::test]
async fn a_retry_the_moment_the_completion_arrives_finds_the_user_connected() {
    let (url, addr, _reference, _stop) = start_with(Arc::new(SlowState::default())).await;
    let (a, mut notes, _) = connect(&url, json!({"elicitation": {"url": {}}})).await;
    let id = required_id(&a).await;
    let path = format!("/demo/complete?elicitationId={id}");
    let token = page_token(addr, &id).await;
    let page = tokio::spawn(async move { post_form(addr, &path, &token).await });
    let note = next_note(&mut notes).await;
    assert_eq!(note, json!({"elicitationId": id}));
    // The client retries as soon as it is told: the outcome must already be recorded.
    assert_connected(&a).await;
    let (status, body) = page.await.expect("page");
    assert_eq!(status, 200, "{body}");
    a.cancel().await.expect("close");
}

#[tokio::test]
async fn finishing_the_sign_in_demo_does_not_connect_the_user() {
    let (url, addr, reference, _stop) = start().await;
    let (a, mut notes, seen) = connect(&url, json!({"elicitation": {"url": {}}})).await;
    let id = consent_to_demo_url(&a, &seen).await;
    let (status, _) = post_complete(addr, &id).await;
    assert_eq!(status, 200);
    next_note(&mut notes).await;
    let alice = Principal::local_user("alice");
    assert!(!reference.is_connected(&alice).await.expect("state"));
    // The connect demo still needs its own page, and a `purpose` the browser adds to the
    // page's address changes nothing: the purpose is read from the stored elicitation.
    let id = required_id(&a).await;
    let token = page_token(addr, &id).await;
    let (status, _) = post_form(
        addr,
        &format!("/demo/complete?elicitationId={id}&purpose=sign-in"),
        &token,
    )
    .await;
    assert_eq!(status, 200);
    assert!(reference.is_connected(&alice).await.expect("state"));
    a.cancel().await.expect("close");
}

fn alice_config() -> ElicitationConfig {
    ElicitationConfig::new(IdentityPolicy::LocalUser(Principal::local_user("alice")))
}

/// A user who takes longer than the session idle timeout to fill in a form, within the
/// form timeout: the session is kept alive for as long as a form may wait, so the answer
/// counts (rmcp closes sessions idle for 5 minutes by default, while forms wait 10).
#[tokio::test]
async fn a_slow_user_within_the_form_timeout_is_not_cut_off_by_the_session_idle_timeout() {
    let config = alice_config()
        .with_session_idle_timeout(Duration::from_millis(300))
        .with_timeout(Duration::from_secs(5));
    let (url, _addr, _reference, _stop) =
        start_full(config, Arc::new(MemoryDemoState::new())).await;
    let (mut client, _rx, seen) = Client::new(json!({"elicitation": {}}));
    client.think = Duration::from_millis(1200);
    let running = client
        .serve(StreamableHttpClientTransport::from_uri(url))
        .await
        .expect("connect");
    let result = tokio::time::timeout(
        WAIT,
        running.call_tool(call(
            "test_elicitation",
            json!({"message": "Take your time"}),
        )),
    )
    .await
    .expect("the call was cut off with its session")
    .expect("call");
    let text = first_text(&result);
    assert!(text.starts_with("User response: action=accept"), "{text}");
    assert_eq!(
        seen.lock().expect("seen").as_slice(),
        ["form: Take your time"]
    );
}

/// A raw POST of `body` to `/mcp`; returns the status and the whole response.
async fn raw_post(addr: std::net::SocketAddr, body: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut response = String::new();
    // The SSE stream of an initialize answer ends with the response.
    let _ =
        tokio::time::timeout(Duration::from_secs(2), stream.read_to_string(&mut response)).await;
    let status = response
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, response)
}

#[tokio::test]
async fn deleting_an_unknown_or_ended_session_answers_404() {
    let (_url, addr, _reference, _stop) = start().await;
    let delete = |id: String| async move {
        raw_http(
            addr,
            "DELETE",
            "/mcp",
            &format!("Mcp-Session-Id: {id}\r\nMCP-Protocol-Version: 2025-11-25\r\n"),
        )
        .await
        .0
    };
    assert_eq!(delete("never-issued".into()).await, 404);
    let (status, response) = raw_post(
        addr,
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#,
    )
    .await;
    assert_eq!(status, 200, "{response}");
    let id = response
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .starts_with("mcp-session-id:")
                .then(|| l["mcp-session-id:".len()..].trim().to_owned())
        })
        .expect("a session id");
    let ended = delete(id.clone()).await;
    assert!(ended == 200 || ended == 202 || ended == 204, "{ended}");
    assert_eq!(delete(id).await, 404, "ended already");
}
