//! `mcp-elicit proxy` as the revision bridge (issue 18, item 2): a 2025-11-25 client in
//! front of a 2026-07-28 upstream. The upstream's `InputRequiredResult` rounds reach the
//! client as `elicitation/create` requests on the call's stream, its answers go back in
//! `inputResponses` with `requestState` echoed, a URL step gets an elicitation id of the
//! proxy's own and a completion notification when the upstream's result comes, and a
//! hostile upstream (a password form, endless rounds, state-only rounds) ends the call
//! with a message instead of reaching the user or looping.
#![allow(deprecated)] // sampling is legacy in rmcp; both revisions still have it

mod proxy_common;

use std::sync::{Arc, Mutex};

use proxy_common::{ROUND_URL, Rounds2026, count, start_in_process, start_proxy, start_reference};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig,
    CreateMessageRequestParams, CreateMessageResult, CustomNotification, ElicitRequestParams,
    ElicitResult, ElicitationAction, ElicitationCapability, ErrorData, FormElicitationCapability,
    Implementation, SamplingMessage, UrlElicitationCapability,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};

/// What the test client was asked and told.
#[derive(Debug, Default)]
struct Seen {
    /// `(mode, elicitationId)` of each request, in order.
    asked: Vec<(String, String)>,
    /// The elicitation ids of the completion notifications, in order.
    completed: Vec<String>,
}

/// A 2025-11-25 client: answers forms with `content`, consents to every URL (and, with
/// `finish_pages`, finishes the reference server's demo page as a browser does).
#[derive(Clone)]
struct TestClient {
    content: Value,
    url_mode: bool,
    finish_pages: Option<String>,
    seen: Arc<Mutex<Seen>>,
}

fn seen(s: &Arc<Mutex<Seen>>) -> std::sync::MutexGuard<'_, Seen> {
    s.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The value of `<input ... name="NAME" value="...">`.
fn hidden(html: &str, name: &str) -> Option<String> {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html.find(&marker)? + marker.len();
    let end = html[start..].find('"')? + start;
    Some(html[start..end].replace("&amp;", "&"))
}

/// Opens and finishes the demo page at `url` (the reference server at `base`).
async fn finish_page(base: String, url: String) {
    let http = reqwest::Client::new();
    let Ok(page) = http.get(&url).send().await else {
        return;
    };
    let html = page.text().await.unwrap_or_default();
    let form: Vec<(&str, String)> = hidden(&html, "csrf")
        .map(|t| vec![("csrf", t)])
        .unwrap_or_default();
    let _ = http
        .post(&url)
        .header("origin", base)
        .header("sec-fetch-site", "same-origin")
        .form(&form)
        .send()
        .await;
}

impl ClientHandler for TestClient {
    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        match request {
            ElicitRequestParams::UrlElicitationParams {
                url,
                elicitation_id,
                ..
            } => {
                seen(&self.seen)
                    .asked
                    .push(("url".into(), elicitation_id.clone()));
                if let Some(base) = &self.finish_pages {
                    tokio::spawn(finish_page(base.clone(), url));
                }
                Ok(ElicitResult::new(ElicitationAction::Accept))
            }
            _ => {
                seen(&self.seen).asked.push(("form".into(), String::new()));
                Ok(ElicitResult::new(ElicitationAction::Accept).with_content(self.content.clone()))
            }
        }
    }

    async fn create_message(
        &self,
        _params: CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        seen(&self.seen)
            .asked
            .push(("sampling".into(), String::new()));
        Ok(CreateMessageResult::new(
            SamplingMessage::assistant_text("Paris"),
            "bridge-test-model".into(),
        ))
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        _context: NotificationContext<RoleClient>,
    ) {
        if notification.method == "notifications/elicitation/complete" {
            let id = notification
                .params
                .as_ref()
                .and_then(|p| p["elicitationId"].as_str())
                .unwrap_or_default()
                .to_owned();
            seen(&self.seen).completed.push(id);
        }
    }

    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        let mut elicitation =
            ElicitationCapability::new().with_form(FormElicitationCapability::new());
        if self.url_mode {
            elicitation.url = Some(UrlElicitationCapability::new());
        }
        capabilities.elicitation = Some(elicitation);
        capabilities.sampling = Some(Default::default());
        ClientConfig::new(capabilities, Implementation::new("bridge-test-client", "0"))
            .with_protocol_version(rmcp::model::ProtocolVersion::V_2025_11_25)
    }
}

impl TestClient {
    fn new(content: Value, url_mode: bool) -> Self {
        Self {
            content,
            url_mode,
            finish_pages: None,
            seen: Arc::new(Mutex::new(Seen::default())),
        }
    }

    /// Calls `tool` through the proxy at `url`; the result and its joined texts.
    async fn call(&self, url: &str, tool: &'static str) -> (CallToolResult, String) {
        let client = self
            .clone()
            .serve(StreamableHttpClientTransport::from_uri(url.to_owned()))
            .await
            .expect("connect to the proxy");
        let result = client
            .peer()
            .call_tool(CallToolRequestParams::new(tool))
            .await
            .unwrap_or_else(|e| panic!("{tool}: {e}"));
        let text = proxy_common::texts(&result);
        // The completion notification rides the standalone stream and the result the
        // call's: either may arrive first. Wait for the proxy's own ids (at most 10 s).
        for _ in 0..200 {
            let done = {
                let seen = seen(&self.seen);
                seen.asked
                    .iter()
                    .filter(|(mode, id)| mode == "url" && id.starts_with("proxy-"))
                    .all(|(_, id)| seen.completed.contains(id))
            };
            if done {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        let _ = client.cancel().await;
        (result, text)
    }
}

async fn proxy_in_front_of(
    upstream: String,
    extra: &'static [&'static str],
) -> (proxy_common::Running, String) {
    tokio::task::spawn_blocking(move || start_proxy(&upstream, extra))
        .await
        .expect("start the proxy")
}

/// The reference server's `demo_url` through the proxy: told to speak 2026-07-28 upstream,
/// the URL round becomes a URL `elicitation/create` with the proxy's own id, the call
/// stays open until the page is finished, and the client gets the completion notification
/// for that id; on its default (2025-11-25 with a server that accepts `initialize`) the
/// reference server's own id and flow reach the client.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_url_round_of_a_2026_upstream_reaches_a_2025_client_with_its_completion() {
    let (server, upstream) = tokio::task::spawn_blocking(start_reference)
        .await
        .expect("start");
    let base = upstream.trim_end_matches("/mcp").to_owned();
    // The reference server speaks both revisions: the proxy speaks the client's unless
    // told otherwise.
    let (proxy, url) =
        proxy_in_front_of(upstream.clone(), &["--upstream-protocol", "2026-07-28"]).await;
    let mut client = TestClient::new(json!({}), true);
    client.finish_pages = Some(base.clone());
    let (result, text) = client.call(&url, "demo_url").await;
    assert!(
        text.contains("You finished the demo page"),
        "{text}\nproxy: {}\nserver: {}",
        proxy.log(),
        server.log()
    );
    assert_ne!(result.is_error, Some(true));
    let log = proxy.log();
    assert!(log.contains("revision=2026-07-28"), "{log}");
    {
        let seen = seen(&client.seen);
        assert_eq!(seen.asked.len(), 1, "{seen:?}");
        let (mode, id) = &seen.asked[0];
        assert_eq!(mode, "url");
        assert!(id.starts_with("proxy-"), "{id}");
        assert_eq!(seen.completed, vec![id.clone()], "{seen:?}");
    }
    // Logged without content: no URL, no message.
    assert!(!log.contains("demo/complete"), "{log}");
    assert!(!log.contains("Example Co"), "{log}");
    drop(proxy);

    // The same server through a proxy on its default (the clients' revision, 2025-11-25,
    // since the server accepts initialize): the server's own flow, nothing translated.
    let (proxy, url) = proxy_in_front_of(upstream, &[]).await;
    let client = TestClient::new(json!({}), true);
    let (_, text) = client.call(&url, "demo_url").await;
    assert!(text.contains("You agreed to open the page"), "{text}");
    assert!(
        proxy.log().contains("revision=2025-11-25"),
        "{}",
        proxy.log()
    );
    let seen = seen(&client.seen);
    assert_eq!(seen.asked.len(), 1, "{seen:?}");
    assert!(!seen.asked[0].1.starts_with("proxy-"), "{seen:?}");
}

/// A form round: the answer goes back with the state echoed; an invalid one is stopped
/// (the upstream gets `cancel` and the user is told which field was wrong).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_form_round_is_answered_and_an_invalid_answer_never_reaches_the_upstream() {
    let upstream = start_in_process(Rounds2026::default()).await;
    let (proxy, url) = proxy_in_front_of(upstream, &[]).await;
    let (_, text) = TestClient::new(json!({"party": 4}), true)
        .call(&url, "form_round")
        .await;
    assert!(
        text.contains(
            "upstream got: {\"action\":\"accept\",\"content\":{\"party\":4}} with state form-1"
        ),
        "{text}\nproxy: {}",
        proxy.log()
    );
    let (_, text) = TestClient::new(json!({"party": 30}), true)
        .call(&url, "form_round")
        .await;
    assert!(
        text.contains("upstream got: {\"action\":\"cancel\"}"),
        "{text}"
    );
    assert!(text.contains("party"), "{text}");
    assert!(!text.contains("30"), "{text}");
    assert!(proxy.log().contains("answer-invalid"), "{}", proxy.log());
}

/// The rules on 2026-07-28 rounds: a password form is never shown and nothing goes back
/// to the upstream; endless and state-only rounds end with a message, bounded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_rounds_end_the_call_with_a_message() {
    let server = Rounds2026::default();
    let retries = server.retries.clone();
    let upstream = start_in_process(server).await;
    let (proxy, url) = proxy_in_front_of(upstream, &[]).await;

    let client = TestClient::new(json!({"username": "a", "password": "b"}), true);
    let (result, text) = client.call(&url, "password_round").await;
    assert_eq!(result.is_error, Some(true), "{text}");
    assert!(
        text.contains("mcp-elicit proxy ended this request"),
        "{text}"
    );
    assert!(text.contains("did not show it"), "{text}");
    assert!(seen(&client.seen).asked.is_empty());
    assert_eq!(count(&retries), 0, "an answer reached the upstream");
    assert!(proxy.log().contains("secret-form"), "{}", proxy.log());

    let client = TestClient::new(json!({"party": 2}), true);
    let (result, text) = client.call(&url, "endless").await;
    assert_eq!(result.is_error, Some(true), "{text}");
    assert!(text.contains("more than 10 times"), "{text}");
    assert_eq!(seen(&client.seen).asked.len(), 10);

    let client = TestClient::new(json!({}), true);
    let (result, text) = client.call(&url, "state_only").await;
    assert_eq!(result.is_error, Some(true), "{text}");
    assert!(text.contains("10 times in a row"), "{text}");
    assert!(seen(&client.seen).asked.is_empty());
}

/// A URL round that is "still waiting" for two retries: the client is asked once, the
/// call stays open, the completion notification comes with the result; a client without
/// URL mode gets the fallback (no URL) and the upstream `decline`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_still_waiting_url_round_is_polled_and_the_fallback_has_no_url() {
    let upstream = start_in_process(Rounds2026::default()).await;
    let (proxy, url) = proxy_in_front_of(upstream, &[]).await;
    let client = TestClient::new(json!({}), true);
    let (_, text) = client.call(&url, "url_round").await;
    assert!(
        text.contains("connected after 3 attempts"),
        "{text}\n{}",
        proxy.log()
    );
    {
        let seen = seen(&client.seen);
        assert_eq!(seen.asked.len(), 1, "{seen:?}");
        assert_eq!(seen.completed, vec![seen.asked[0].1.clone()], "{seen:?}");
    }

    let client = TestClient::new(json!({}), false);
    let (_, text) = client.call(&url, "url_round").await;
    assert!(
        text.contains("upstream got: {\"action\":\"decline\"}"),
        "{text}"
    );
    assert!(
        text.contains("does not support URL-mode elicitation"),
        "{text}"
    );
    assert!(
        !text.contains(ROUND_URL) && !text.contains("example.com"),
        "{text}"
    );
    assert!(seen(&client.seen).asked.is_empty());
}

/// A sampling round of a 2026-07-28 upstream reaches a 2025-11-25 client that declared
/// sampling as a `sampling/createMessage` request on the call's stream; its answer goes
/// back in `inputResponses` with the state echoed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sampling_round_is_relayed_to_a_2025_client_that_declared_sampling() {
    let upstream = start_in_process(Rounds2026::default()).await;
    let (proxy, url) = proxy_in_front_of(upstream, &[]).await;
    let client = TestClient::new(json!({}), true);
    let (result, text) = client.call(&url, "sampling_round").await;
    assert_ne!(result.is_error, Some(true), "{text}\n{}", proxy.log());
    assert!(
        text.contains("Paris") && text.contains("with state sample-1"),
        "{text}"
    );
    assert_eq!(
        seen(&client.seen).asked,
        vec![("sampling".to_owned(), String::new())]
    );
}
