//! `mcp-elicit proxy` (issue 18): in front of our reference server (`mcp-elicit serve`)
//! and of a misbehaving rmcp upstream, used by `mcp-elicit call` and by a raw rmcp client:
//! a form forwarded and answered, an invalid answer stopped before the upstream, a
//! password form refused with its message, URL mode to a client without it turned into
//! the fallback (both `elicitation/create` and -32042), URL mode forwarded to a client
//! with it.

mod proxy_common;

use std::sync::{Arc, Mutex};

use proxy_common::{URL, call, result_text, start_misbehaving, start_proxy, start_reference};
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult,
    ElicitationAction, ElicitationCapability, ErrorData, FormElicitationCapability, Implementation,
};
use rmcp::service::RequestContext;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::json;

async fn blocking_call(
    server: String,
    tool: &'static str,
    extra: Vec<String>,
) -> std::process::Output {
    tokio::task::spawn_blocking(move || {
        let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
        call(&server, tool, &extra)
    })
    .await
    .expect("call")
}

#[test]
fn a_form_of_the_reference_server_is_forwarded_and_its_answer_reaches_it() {
    let (_server, upstream) = start_reference();
    // On the default (the clients' revision) and bridged from 2026-07-28.
    for (extra, revision) in [
        (&[][..], "revision=2025-11-25"),
        (
            &["--upstream-protocol", "2026-07-28"][..],
            "revision=2026-07-28",
        ),
    ] {
        form_through_the_proxy(&upstream, extra, revision);
    }
}

fn form_through_the_proxy(upstream: &str, extra: &[&str], revision: &str) {
    let (proxy, url) = start_proxy(upstream, extra);
    let dir = tempfile::tempdir().expect("dir");
    let answers = dir.path().join("answers.json");
    std::fs::write(
        &answers,
        json!({"name": "Ada", "age": 36, "updates": true}).to_string(),
    )
    .expect("write");
    let out = call(
        &url,
        "demo_profile",
        &[
            "--modes",
            "form",
            "--respond",
            &format!("@{}", answers.display()),
        ],
    );
    let text = result_text(&out);
    assert!(
        text.contains("Profile: Ada (36 years), e-mail updates: yes"),
        "{text}\nproxy: {}",
        proxy.log()
    );
    assert!(out.status.success(), "{out:?}");
    // Logged without content: the mode and the number of fields, not the values. On
    // 2026-07-28 the server's input round reached this 2025-11-25 client as an
    // elicitation/create (the revision bridge).
    let log = proxy.log();
    assert!(log.contains(revision), "{log}");
    assert!(log.contains("forwarding an elicitation"), "{log}");
    assert!(!log.contains("Ada"), "{log}");
}

/// A client that answers every form with `content`, unchecked.
#[derive(Clone)]
struct Answers {
    content: serde_json::Value,
    seen: Arc<Mutex<u32>>,
}

impl ClientHandler for Answers {
    async fn create_elicitation(
        &self,
        _request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        *self
            .seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) += 1;
        Ok(ElicitResult::new(ElicitationAction::Accept).with_content(self.content.clone()))
    }

    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation =
            Some(ElicitationCapability::new().with_form(FormElicitationCapability::new()));
        ClientConfig::new(capabilities, Implementation::new("raw-test-client", "0"))
    }
}

async fn call_with_answer(url: &str, content: serde_json::Value) -> (String, u32) {
    let seen = Arc::new(Mutex::new(0));
    let client = Answers {
        content,
        seen: seen.clone(),
    }
    .serve(StreamableHttpClientTransport::from_uri(url.to_owned()))
    .await
    .expect("connect to the proxy");
    let result = client
        .peer()
        .call_tool(CallToolRequestParams::new("demo_profile"))
        .await
        .expect("call");
    let text = proxy_common::texts(&result);
    let _ = client.cancel().await;
    let n = *seen
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    (text, n)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_answer_is_stopped_before_the_upstream() {
    let (_server, upstream) = tokio::task::spawn_blocking(start_reference)
        .await
        .expect("start");
    let (proxy, url) = tokio::task::spawn_blocking(move || start_proxy(&upstream, &[]))
        .await
        .expect("start");
    // age is a u8: 300 is out of range. The reference server would re-ask on an invalid
    // answer; through the proxy it gets `cancel` and never sees 300.
    let (text, asked) = call_with_answer(&url, json!({"name": "Ada", "age": 300})).await;
    assert_eq!(asked, 1, "{text}");
    assert!(
        text.contains("You dismissed the form."),
        "{text}\n{}",
        proxy.log()
    );
    assert!(text.contains("was not valid (field(s): age)"), "{text}");
    assert!(!text.contains("300"), "{text}");
    assert!(proxy.log().contains("answer-invalid"), "{}", proxy.log());
    // A valid answer goes through the same way.
    let (text, _) = call_with_answer(&url, json!({"name": "Ada", "age": 30})).await;
    assert!(text.contains("Profile: Ada (30 years)"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_form_asking_for_a_password_is_refused_with_the_message() {
    let upstream = start_misbehaving().await;
    let up = upstream.clone();
    let (proxy, url) = tokio::task::spawn_blocking(move || start_proxy(&up, &[]))
        .await
        .expect("start");
    let out = blocking_call(url, "ask_password", vec!["--modes".into(), "form".into()]).await;
    let text = result_text(&out);
    // The user is told, the server author gets the reason, the form was never shown.
    assert!(text.contains("mcp-elicit proxy did not show it"), "{text}");
    assert!(text.contains("URL-mode elicitation"), "{text}");
    assert!(text.contains("upstream got an error"), "{text}");
    assert!(text.contains("password look like secrets"), "{text}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("Sign in to your bank"), "{stderr}");
    let log = proxy.log();
    assert!(log.contains("secret-form"), "{log}");
    assert!(!log.contains("Sign in to your bank"), "{log}");
    drop(proxy);
    // The rule can be switched off (a `danger-` flag; the old name still works): the
    // client then gets the form (and cancels it).
    for flag in ["--danger-allow-secret-forms", "--allow-secret-forms"] {
        let up = upstream.clone();
        let (_proxy, url) = tokio::task::spawn_blocking(move || start_proxy(&up, &[flag]))
            .await
            .expect("start");
        let out = blocking_call(url, "ask_password", vec!["--modes".into(), "form".into()]).await;
        let text = result_text(&out);
        assert!(
            text.contains(r#"upstream got: {"action":"cancel"}"#),
            "{flag}: {text}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn url_mode_to_a_client_without_it_becomes_the_fallback() {
    let upstream = start_misbehaving().await;
    let (proxy, url) = tokio::task::spawn_blocking(move || start_proxy(&upstream, &[]))
        .await
        .expect("start");
    let form_only = || vec!["--modes".to_owned(), "form".to_owned()];
    // elicitation/create in URL mode: the upstream gets decline, the user the fallback.
    let out = blocking_call(url.clone(), "ask_url", form_only()).await;
    let text = result_text(&out);
    assert!(text.contains("Connect your Example account."), "{text}");
    assert!(
        text.contains("does not support URL-mode elicitation"),
        "{text}"
    );
    assert!(
        !text.contains(URL) && !text.contains("example.com"),
        "{text}"
    );
    assert!(
        text.contains(r#"upstream got: {"action":"decline"}"#),
        "{text}"
    );
    // -32042: an error result with the fallback, no URL.
    let out = blocking_call(url.clone(), "need_url", form_only()).await;
    let text = result_text(&out);
    assert!(
        text.contains("does not support URL-mode elicitation"),
        "{text}"
    );
    assert!(!text.contains("example.com"), "{text}");
    assert_eq!(out.status.code(), Some(1), "isError: {out:?}");
    assert!(proxy.log().contains("url-fallback"), "{}", proxy.log());
    // A client with URL mode gets the request itself (and consents: print opens nothing).
    let out = blocking_call(
        url,
        "ask_url",
        vec![
            "--modes".into(),
            "form,url".into(),
            "--open-urls".into(),
            "print".into(),
        ],
    )
    .await;
    let text = result_text(&out);
    assert!(
        text.contains(r#"upstream got: {"action":"accept"}"#),
        "{text}\n{out:?}"
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("example.com"),
        "{out:?}"
    );
}

/// The transport rules on the proxy's own `/mcp`: a foreign or `null` Origin (a web page
/// the user visits, DNS rebinding) and a non-loopback Host get 403 and no session; no
/// Origin (a native client) and the proxy's own origin are served.
#[tokio::test]
async fn the_proxy_refuses_foreign_origins_and_hosts() {
    let (_server, upstream) = start_reference();
    let (proxy, url) = start_proxy(&upstream, &[]);
    let http = reqwest::Client::new();
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}});
    let post = |origin: Option<&str>, host: Option<&str>| {
        let mut r = http
            .post(&url)
            .header("accept", "application/json, text/event-stream")
            .json(&initialize);
        if let Some(o) = origin {
            r = r.header("origin", o);
        }
        if let Some(h) = host {
            r = r.header("host", h);
        }
        r.send()
    };
    let own = url.trim_end_matches("/mcp").to_owned();
    for (origin, host, want) in [
        (Some("https://evil.example"), None, 403),
        (Some("null"), None, 403),
        (None, Some("evil.example"), 403),
        (None, None, 200),
        (Some(own.as_str()), None, 200),
    ] {
        let response = post(origin, host).await.expect("post");
        let status = response.status().as_u16();
        let session = response.headers().get("mcp-session-id").is_some();
        assert_eq!(
            (status, session),
            (want, want == 200),
            "Origin {origin:?}, Host {host:?}\nproxy: {}",
            proxy.log()
        );
    }
}
