//! The examples in `examples/`, each started as the program a reader would run and driven
//! by our client library (`mcp-elicit-client`) over its real transport, on both revisions
//! where the example serves both. The simulated user answers forms, consents to URLs and
//! finishes the page behind them with a plain HTTP request, like a browser.

#[allow(unreachable_pub)]
#[path = "../../client/tests/common/examples.rs"]
mod examples;

use std::collections::VecDeque;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_elicit_client::rmcp::model::{CallToolRequestParams, CallToolResult};
use mcp_elicit_client::{
    Config, ElicitationClient, ElicitationUi, FormPrompt, FormResponse, Notice, OpenError,
    ProtocolChoice, ServerTarget, StallChoice, StalledCompletion, UrlDecision, UrlOpener,
    UrlOrigin, UrlPrompt,
};
use mcp_elicit_core::message::Capability;
use serde_json::{Map, Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Hang guard of one client step.
const WAIT: Duration = Duration::from_secs(60);

async fn guard<F: Future>(f: F) -> F::Output {
    tokio::time::timeout(WAIT, f).await.expect("in time")
}

/// The user: forms answered from a script, every URL consented to; what was shown is kept.
#[derive(Clone, Default)]
struct User(Arc<Mutex<Seen>>);

#[derive(Default)]
struct Seen {
    answers: VecDeque<FormResponse>,
    forms: Vec<FormPrompt>,
    urls: Vec<UrlPrompt>,
}

impl User {
    fn answering(answers: impl IntoIterator<Item = FormResponse>) -> Self {
        let user = User::default();
        user.lock().answers.extend(answers);
        user
    }
    fn lock(&self) -> std::sync::MutexGuard<'_, Seen> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
    fn forms(&self) -> Vec<FormPrompt> {
        self.lock().forms.clone()
    }
    fn urls(&self) -> Vec<UrlPrompt> {
        self.lock().urls.clone()
    }
}

impl ElicitationUi for User {
    fn modes(&self) -> Capability {
        Capability::ALL
    }
    async fn present_form(&self, prompt: FormPrompt) -> FormResponse {
        let mut seen = self.lock();
        seen.forms.push(prompt);
        seen.answers.pop_front().unwrap_or(FormResponse::Cancel)
    }
    async fn present_url(&self, prompt: UrlPrompt) -> UrlDecision {
        self.lock().urls.push(prompt);
        UrlDecision::Open
    }
    async fn notify(&self, _notice: Notice) {}
    async fn completion_stalled(&self, _stalled: StalledCompletion) -> StallChoice {
        StallChoice::KeepWaiting
    }
}

/// The user's browser: opening a URL loads the page and submits its form (a POST to the
/// same URL), in the background, as a person would after consenting.
struct Browser;

impl UrlOpener for Browser {
    fn open(&self, url: &str) -> Result<(), OpenError> {
        let url = url.to_owned();
        tokio::spawn(async move {
            let (status, page) = http(&url, "GET").await;
            assert_eq!(status, 200, "{page}");
            assert!(page.contains("<form method=post>"), "{page}");
            let (status, done) = http(&url, "POST").await;
            assert_eq!(status, 200, "{done}");
        });
        Ok(())
    }
}

/// One HTTP/1.1 exchange with a loopback `http://` URL: status and body.
async fn http(url: &str, method: &str) -> (u16, String) {
    let rest = url.strip_prefix("http://").expect("http URL");
    let (host, path) = rest.split_once('/').expect("a path");
    let mut stream = tokio::net::TcpStream::connect(host).await.expect("connect");
    let request = format!(
        "{method} /{path} HTTP/1.1\r\nHost: {host}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut response = String::new();
    stream.read_to_string(&mut response).await.expect("read");
    let status = response.split(' ').nth(1).and_then(|s| s.parse().ok());
    let body = response.split_once("\r\n\r\n").map(|(_, b)| b.to_owned());
    (status.unwrap_or(0), body.unwrap_or_default())
}

/// An example program, killed when dropped.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the quickstart on a free loopback port; returns it and its `/mcp` URL.
fn start_quickstart() -> (Running, String) {
    start_http_example("quickstart")
}

/// Starts the HTTP example `name` on a free loopback port; returns it and its `/mcp` URL
/// (the first line it prints).
fn start_http_example(name: &str) -> (Running, String) {
    let mut child = Command::new(examples::example(name))
        .arg("127.0.0.1:0")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start the example");
    let stdout = child.stdout.take().expect("stdout");
    let running = Running(child);
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line)
        .expect("the example prints its URL");
    let url = line.trim().to_owned();
    assert!(
        url.starts_with("http://127.0.0.1:") && url.ends_with("/mcp"),
        "{url:?}"
    );
    (running, url)
}

fn text(result: &CallToolResult) -> String {
    let value = serde_json::to_value(result).expect("json");
    value["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

fn submit(value: Value) -> FormResponse {
    FormResponse::Submit(value.as_object().cloned().unwrap_or_else(Map::new))
}

fn client(user: &User, protocol: ProtocolChoice) -> ElicitationClient<User, Browser> {
    let config = Config::default()
        .with_protocol(protocol)
        .with_poll_interval(Duration::from_millis(100))
        .with_completion_timeout(Duration::from_secs(30));
    ElicitationClient::new(user.clone(), Browser, config)
}

/// Both quickstart tools on one revision, through the one connection.
async fn quickstart_on(protocol: ProtocolChoice) {
    let (_server, url) = start_quickstart();
    let user = User::answering([
        submit(json!({"party_size": 4, "date": "2026-12-24", "seating": "Terrace"})),
        FormResponse::Decline,
    ]);
    let client = client(&user, protocol);
    let target: ServerTarget = url.parse().expect("target");
    let conn = guard(client.clone().connect(&target))
        .await
        .expect("connect");

    // The typed form, exactly as the Rust type says (range, format, enum), and its answer.
    let book = || CallToolRequestParams::new("book_table");
    let booked = guard(client.call_tool(conn.peer(), book()))
        .await
        .expect("book");
    assert_eq!(text(&booked), "Table for 4 on 2026-12-24, Terrace");
    let schema = &user.forms()[0].raw_schema;
    assert_eq!(schema["properties"]["party_size"]["minimum"], 1, "{schema}");
    assert_eq!(
        schema["properties"]["party_size"]["maximum"], 12,
        "{schema}"
    );
    assert_eq!(schema["properties"]["date"]["format"], "date", "{schema}");
    assert_eq!(
        schema["properties"]["seating"]["enum"],
        json!(["Indoor", "Terrace"]),
        "{schema}"
    );
    let declined = guard(client.call_tool(conn.peer(), book()))
        .await
        .expect("decline");
    assert_eq!(text(&declined), "Nothing booked");

    // URL mode: the page is finished by the browser, then the call succeeds; the user is
    // linked afterwards, so a second call asks nothing.
    let link = || CallToolRequestParams::new("link_calendar");
    let linked = guard(client.call_tool(conn.peer(), link()))
        .await
        .expect("link");
    assert_eq!(text(&linked), "Your calendar is linked");
    let urls = user.urls();
    assert_eq!(urls.len(), 1, "one URL consent");
    let callback = url.replace("/mcp", "/callback?elicitationId=");
    assert!(urls[0].url.starts_with(&callback), "{}", urls[0].url);
    match (&urls[0].origin, protocol) {
        (UrlOrigin::RequiredByCall { .. }, ProtocolChoice::V2025_11_25) => {}
        (UrlOrigin::InputRequired { .. }, ProtocolChoice::V2026_07_28) => {}
        (origin, _) => panic!("unexpected origin {origin:?} on {protocol:?}"),
    }
    let again = guard(client.call_tool(conn.peer(), link()))
        .await
        .expect("again");
    assert_eq!(text(&again), "Your calendar is linked");
    assert_eq!(user.urls().len(), 1, "linked: nothing asked again");
    // The page's link replayed (the browser's history, a forwarded link): used up.
    let replayed = http(&urls[0].url, "POST").await;
    assert_eq!(replayed, (404, mcp_elicit_server::REFUSED_TEXT.to_owned()));
    let _ = guard(conn.cancel()).await;
}

#[tokio::test]
async fn quickstart_on_2025_11_25() {
    quickstart_on(ProtocolChoice::V2025_11_25).await;
}

#[tokio::test]
async fn quickstart_on_2026_07_28() {
    quickstart_on(ProtocolChoice::V2026_07_28).await;
}

/// A made-up or missing id on the callback page links nobody and is told so (404), and
/// the user is still asked afterwards (a replayed one: `quickstart_on`).
#[tokio::test]
async fn quickstart_callback_refuses_unknown_ids() {
    let (_server, url) = start_quickstart();
    let refused = (404, mcp_elicit_server::REFUSED_TEXT.to_owned());
    let made_up = url.replace(
        "/mcp",
        "/callback?elicitationId=00112233445566778899aabbccddeeff",
    );
    assert_eq!(http(&made_up, "POST").await, refused);
    assert_eq!(
        http(&url.replace("/mcp", "/callback"), "POST").await,
        refused
    );

    let user = User::default();
    let client = client(&user, ProtocolChoice::V2025_11_25);
    let target: ServerTarget = url.parse().expect("target");
    let conn = guard(client.clone().connect(&target))
        .await
        .expect("connect");
    let link = CallToolRequestParams::new("link_calendar");
    let linked = guard(client.call_tool(conn.peer(), link))
        .await
        .expect("link");
    assert_eq!(text(&linked), "Your calendar is linked");
    assert_eq!(user.urls().len(), 1, "not linked by the refused presses");
    let _ = guard(conn.cancel()).await;
}

/// The stdio example as a child process of our client, on both revisions.
#[tokio::test]
async fn stdio_server_on_both_revisions() {
    for protocol in [ProtocolChoice::V2025_11_25, ProtocolChoice::V2026_07_28] {
        let user = User::answering([submit(json!({"name": "Ada", "coming": true, "guests": 2}))]);
        let client = client(&user, protocol);
        let command = vec![examples::example("stdio").display().to_string()];
        let conn = guard(client.clone().connect(&ServerTarget::Stdio { command }))
            .await
            .expect("spawn and connect");
        let r = guard(client.call_tool(conn.peer(), CallToolRequestParams::new("rsvp")))
            .await
            .expect("call");
        assert_eq!(text(&r), "Ada is coming with 2 guests", "{protocol:?}");
        let schema = &user.forms()[0].raw_schema;
        assert_eq!(schema["required"], json!(["name"]), "{schema}");
        assert_eq!(schema["properties"]["guests"]["maximum"], 3, "{schema}");
        let _ = guard(conn.cancel()).await;
    }
}

/// The README opens with the quickstart, verbatim: the code a reader copies is the code
/// built and run above.
#[test]
fn the_readme_opens_with_the_quickstart() {
    let readme = include_str!("../README.md");
    let first_block = readme
        .split_once("```rust,ignore\n")
        .and_then(|(before, rest)| (!before.contains("```")).then_some(rest))
        .and_then(|rest| rest.split_once("```\n"))
        .map(|(block, _)| block);
    assert_eq!(
        first_block,
        Some(include_str!("../examples/quickstart.rs")),
        "the first code block of crates/server/README.md must be examples/quickstart.rs"
    );
}

/// The auth example: no valid bearer token, no MCP; with one, the form is bound to the
/// user the middleware authenticated, on both revisions.
#[tokio::test]
async fn auth_middleware_puts_the_principal_into_the_request() {
    use mcp_elicit_client::TransportIdentity;
    use mcp_elicit_client::rmcp::transport::StreamableHttpClientTransport;
    use mcp_elicit_client::rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;

    let (_server, url) = start_http_example("auth");
    assert_eq!(http(&url, "POST").await.0, 401, "no token");
    let cases = [
        (
            "alice-token",
            ProtocolChoice::V2025_11_25,
            "report of alice sent",
        ),
        (
            "bob-token",
            ProtocolChoice::V2026_07_28,
            "report of bob sent",
        ),
    ];
    for (token, protocol, expected) in cases {
        let user = User::answering([submit(json!({"send": true}))]);
        let config = StreamableHttpClientTransportConfig::with_uri(url.clone()).auth_header(token);
        let transport = StreamableHttpClientTransport::from_config(config);
        let identity = TransportIdentity::Http {
            origin: url.trim_end_matches("/mcp").to_owned(),
            endpoint: url.clone(),
        };
        let client = client(&user, protocol);
        let conn = guard(client.clone().serve_transport(transport, identity))
            .await
            .expect("connect with a token");
        let r = guard(client.call_tool(conn.peer(), CallToolRequestParams::new("confirm")))
            .await
            .expect("call");
        assert_eq!(text(&r), expected, "{protocol:?}");
        let _ = guard(conn.cancel()).await;
    }
}

/// The custom store example: the form of a 2025-11-25 call goes through the store (its
/// audit file names the elicitation stored, then finished), and the answer comes back.
#[tokio::test]
async fn custom_store_sees_every_operation() {
    let dir = tempfile::tempdir().expect("temp dir");
    let audit = dir.path().join("audit.log");
    let user = User::answering([submit(json!({"color": "teal"}))]);
    let client = client(&user, ProtocolChoice::V2025_11_25);
    let command = vec![
        examples::example("custom_store").display().to_string(),
        audit.display().to_string(),
    ];
    let conn = guard(client.clone().connect(&ServerTarget::Stdio { command }))
        .await
        .expect("spawn and connect");
    let r = guard(client.call_tool(conn.peer(), CallToolRequestParams::new("ask")))
        .await
        .expect("call");
    assert_eq!(text(&r), "you like teal");
    let _ = guard(conn.cancel()).await;
    let log = std::fs::read_to_string(&audit).expect("audit log");
    let first = log.lines().next().unwrap_or_default();
    let id = first
        .strip_prefix("insert ")
        .and_then(|rest| rest.strip_suffix(" ok"))
        .unwrap_or_else(|| panic!("first line is the insert: {log}"));
    assert!(
        log.lines()
            .skip(1)
            .any(|l| l.contains(id) && l.ends_with(" ok")),
        "the answered form left the store: {log}"
    );
}
