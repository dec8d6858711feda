//! `mcp-elicit proxy` for 2026-07-28 clients (issue 18, item 2): a client that speaks
//! only the new revision (`server/discover`, no session, `InputRequiredResult` rounds) in
//! front of a 2025-11-25 upstream. The upstream's `elicitation/create` and its -32042
//! pages reach the client as rounds of the proxy's own with a sealed `requestState`; the
//! answers go back as the upstream expects them; replayed, tampered or foreign state is
//! refused; a missing answer is asked again; the policy still holds (a password form is
//! never shown).

mod proxy_common;

use proxy_common::{Running, free_port, last_message, reply_texts, start_misbehaving, start_proxy};
use serde_json::{Value, json};

const V2026: &str = "2026-07-28";

/// A raw 2026-07-28 client over HTTP: every request carries the revision's `_meta` and
/// headers, no session.
struct Raw {
    http: reqwest::Client,
    url: String,
    next: u64,
    capabilities: Value,
}

impl Raw {
    fn new(url: &str, capabilities: Value) -> Self {
        Self {
            http: reqwest::Client::new(),
            url: url.to_owned(),
            next: 0,
            capabilities,
        }
    }

    /// Sends `method` with `params` (plus `_meta`); the JSON-RPC reply (`result` or `error`).
    async fn send(&mut self, method: &str, mut params: Value) -> Value {
        self.next += 1;
        let name = params
            .get("name")
            .or_else(|| params.get("uri"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": V2026,
            "io.modelcontextprotocol/clientCapabilities": self.capabilities,
            "io.modelcontextprotocol/clientInfo": {"name": "raw-2026", "version": "0"},
        });
        let body = json!({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params});
        let mut request = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", V2026)
            .header("mcp-method", method);
        if let Some(name) = name {
            request = request.header("mcp-name", name);
        }
        let response = request.json(&body).send().await.expect("POST");
        last_message(response.text().await.expect("body"))
    }

    async fn call(&mut self, tool: &str, extra: Value) -> Value {
        let mut params = json!({"name": tool, "arguments": {}});
        if let (Some(p), Value::Object(e)) = (params.as_object_mut(), extra) {
            p.extend(e);
        }
        self.send("tools/call", params).await
    }
}

fn form_and_url() -> Value {
    json!({"elicitation": {"form": {}, "url": {}}})
}

/// The input requests of a round: `(key, request)` in key order.
fn requests(reply: &Value) -> Vec<(String, Value)> {
    reply["result"]["inputRequests"]
        .as_object()
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default()
}

fn text_of(reply: &Value) -> String {
    reply_texts(reply)
}

async fn start(upstream: String, extra: &'static [&'static str]) -> (Running, String) {
    tokio::task::spawn_blocking(move || start_proxy(&upstream, extra))
        .await
        .expect("start the proxy")
}

/// `mcp-elicit serve` on a free loopback port with its state in memory (nothing of another
/// run's connections); its `/mcp` URL.
fn start_reference() -> (Running, String) {
    let port = free_port();
    let listen = format!("127.0.0.1:{port}");
    let server = Running::start(&["serve", "--listen", &listen, "--store", "memory"], port);
    (server, format!("http://127.0.0.1:{port}/mcp"))
}

/// The value of `<input ... name="NAME" value="...">`.
fn hidden(html: &str, name: &str) -> Option<String> {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html.find(&marker)? + marker.len();
    let end = html[start..].find('"')? + start;
    Some(html[start..end].replace("&amp;", "&"))
}

/// Plays the user's browser on the reference server's demo page at `url`.
async fn finish_page(base: &str, url: &str) {
    let http = reqwest::Client::new();
    let html = http
        .get(url)
        .send()
        .await
        .expect("GET the page")
        .text()
        .await
        .expect("page");
    let form: Vec<(&str, String)> = hidden(&html, "csrf")
        .map(|t| vec![("csrf", t)])
        .unwrap_or_default();
    let status = http
        .post(url)
        .header("origin", base)
        .header("sec-fetch-site", "same-origin")
        .form(&form)
        .send()
        .await
        .expect("POST the page")
        .status();
    assert!(status.is_success(), "{status}");
}

/// A 2025-11-25 upstream's form reaches a 2026-07-28 client as a round of the proxy's own;
/// the answer reaches the upstream; the state is single-use, bound to the call and
/// tamper-evident; discovery describes the upstream.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2025_upstreams_form_is_a_round_for_a_2026_client() {
    let (server, upstream) = tokio::task::spawn_blocking(start_reference)
        .await
        .expect("start");
    let (proxy, url) = start(upstream, &["--upstream-protocol", "2025-11-25"]).await;
    let mut client = Raw::new(&url, json!({"elicitation": {"form": {}}}));

    let discovered = client.send("server/discover", json!({})).await;
    let versions = discovered["result"]["supportedVersions"].to_string();
    assert!(versions.contains(V2026), "{discovered}");
    assert!(
        discovered["result"]["capabilities"]["tools"].is_object(),
        "{discovered}"
    );
    let listed = client.send("tools/list", json!({})).await;
    assert!(listed.to_string().contains("demo_profile"), "{listed}");

    let first = client.call("demo_profile", json!({})).await;
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    let asked = requests(&first);
    assert_eq!(asked.len(), 1, "{first}");
    let (key, request) = &asked[0];
    assert_eq!(request["method"], "elicitation/create");
    assert!(
        request["params"]["requestedSchema"]["properties"]["name"].is_object(),
        "{request}"
    );
    assert!(
        request["params"].get("elicitationId").is_none(),
        "{request}"
    );
    let state = first["result"]["requestState"]
        .as_str()
        .expect("a requestState")
        .to_owned();

    // Tampered, or presented on another tool: refused, nothing delivered.
    let mut chars: Vec<char> = state.chars().collect();
    let mid = chars.len() / 2;
    chars[mid] = if chars[mid] == 'A' { 'B' } else { 'A' };
    let tampered: String = chars.into_iter().collect();
    let answer =
        json!({"action": "accept", "content": {"name": "Ada", "age": 36, "updates": true}});
    let refused = client
        .call(
            "demo_profile",
            json!({"inputResponses": {key: answer}, "requestState": tampered}),
        )
        .await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert!(refused.to_string().contains("requestState"), "{refused}");
    let refused = client
        .call(
            "demo_form",
            json!({"inputResponses": {key: answer}, "requestState": state}),
        )
        .await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");

    // A retry without the answer is asked again, then answered.
    let again = client
        .call(
            "demo_profile",
            json!({"inputResponses": {"unrelated": 1}, "requestState": state}),
        )
        .await;
    assert_eq!(again["result"]["resultType"], "input_required", "{again}");
    let (key2, _) = requests(&again).into_iter().next().expect("asked again");
    let state2 = again["result"]["requestState"]
        .as_str()
        .expect("state")
        .to_owned();
    let done = client
        .call(
            "demo_profile",
            json!({"inputResponses": {key2.clone(): answer}, "requestState": state2}),
        )
        .await;
    assert!(
        text_of(&done).contains("Profile: Ada (36 years), e-mail updates: yes"),
        "{done}\nproxy: {}\nserver: {}",
        proxy.log(),
        server.log()
    );
    assert_eq!(done["result"]["resultType"], "complete", "{done}");
    // The same state once more: the request is over.
    let replay = client
        .call(
            "demo_profile",
            json!({"inputResponses": {key2: answer}, "requestState": state2}),
        )
        .await;
    assert_eq!(replay["error"]["code"], -32602, "{replay}");
    let log = proxy.log();
    assert!(log.contains("revision=2025-11-25"), "{log}");
    assert!(!log.contains("Ada"), "{log}");
}

/// A -32042 of a 2025-11-25 upstream becomes a URL round (no elicitation id: the revision
/// has none); declining ends the request with a message; once the user consented and
/// finished the page, the proxy calls again and the client gets the result.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2025_upstreams_url_required_is_a_url_round_for_a_2026_client() {
    let (server, upstream) = tokio::task::spawn_blocking(start_reference)
        .await
        .expect("start");
    let base = upstream.trim_end_matches("/mcp").to_owned();
    let (proxy, url) = start(upstream, &["--upstream-protocol", "2025-11-25"]).await;

    // Declining first ends the request with a message and nothing connected.
    let mut client = Raw::new(&url, form_and_url());
    let first = client.call("connect_demo", json!({})).await;
    let (key, _) = requests(&first)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("a URL round: {first}\n{}", proxy.log()));
    let state = first["result"]["requestState"].clone();
    let declined = client
        .call(
            "connect_demo",
            json!({"inputResponses": {key: {"action": "decline"}}, "requestState": state}),
        )
        .await;
    assert_eq!(declined["result"]["isError"], true, "{declined}");
    assert!(
        text_of(&declined).contains("declined or cancelled"),
        "{declined}"
    );

    // Then the user consents and finishes the page.
    let first = client.call("connect_demo", json!({})).await;
    let asked = requests(&first);
    assert_eq!(asked.len(), 1, "{first}\n{}", proxy.log());
    let (key, request) = &asked[0];
    let params = &request["params"];
    assert_eq!(params["mode"], "url", "{first}");
    assert!(params.get("elicitationId").is_none(), "{first}");
    let page = params["url"].as_str().expect("a URL").to_owned();
    assert!(page.starts_with(&base), "{page}");
    let state = first["result"]["requestState"]
        .as_str()
        .expect("state")
        .to_owned();
    // The user consents and finishes the page, then the client retries.
    finish_page(&base, &page).await;
    let mut reply = client
        .call(
            "connect_demo",
            json!({"inputResponses": {key: {"action": "accept"}}, "requestState": state}),
        )
        .await;
    // "Still waiting" rounds (the same URL) until the proxy has called again.
    for _ in 0..5 {
        if reply["result"]["resultType"] != "input_required" {
            break;
        }
        let (key, request) = requests(&reply).into_iter().next().expect("a request");
        assert_eq!(request["params"]["url"], page.as_str(), "{reply}");
        let state = reply["result"]["requestState"].clone();
        reply = client
            .call(
                "connect_demo",
                json!({"inputResponses": {key: {"action": "accept"}}, "requestState": state}),
            )
            .await;
    }
    assert!(
        text_of(&reply).contains("Connected to Example Co."),
        "{reply}\nproxy: {}\nserver: {}",
        proxy.log(),
        server.log()
    );
    assert!(!proxy.log().contains("/connect?"), "{}", proxy.log());
}

/// The rules hold for 2026-07-28 clients: a password form is never shown (the upstream
/// gets -32602, the user reads why), and a client that declared no URL mode gets the
/// fallback without the URL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_policy_holds_for_2026_clients() {
    let upstream = start_misbehaving().await;
    let (proxy, url) = start(upstream, &[]).await;
    let mut client = Raw::new(&url, form_and_url());
    let reply = client.call("ask_password", json!({})).await;
    assert_eq!(
        reply["result"]["resultType"],
        "complete",
        "{reply}\n{}",
        proxy.log()
    );
    let text = text_of(&reply);
    assert!(text.contains("upstream got an error"), "{text}");
    assert!(text.contains("did not show it"), "{text}");
    assert!(proxy.log().contains("secret-form"), "{}", proxy.log());

    let mut formless = Raw::new(&url, json!({"elicitation": {"form": {}}}));
    for tool in ["ask_url", "need_url"] {
        let reply = formless.call(tool, json!({})).await;
        let text = text_of(&reply);
        assert_eq!(reply["result"]["resultType"], "complete", "{reply}");
        assert!(
            text.contains("does not support URL-mode elicitation"),
            "{tool}: {text}"
        );
        assert!(!text.contains("example.com"), "{tool}: {text}");
    }
}

/// An upstream that answers -32042 on every call, however often its page is completed:
/// the proxy shows the page as a URL round three times, then ends the request with a
/// message instead of looping.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_that_always_wants_another_page_is_stopped() {
    let upstream = start_misbehaving().await;
    let (proxy, url) = start(upstream, &[]).await;
    let mut client = Raw::new(&url, form_and_url());
    let mut reply = client.call("need_url_forever", json!({})).await;
    let mut rounds = 0;
    while reply["result"]["resultType"] == "input_required" {
        rounds += 1;
        assert!(rounds <= 10, "{reply}\n{}", proxy.log());
        let answers: serde_json::Map<String, Value> = requests(&reply)
            .into_iter()
            .map(|(k, _)| (k, json!({"action": "accept"})))
            .collect();
        let state = reply["result"]["requestState"].clone();
        reply = client
            .call(
                "need_url_forever",
                json!({"inputResponses": answers, "requestState": state}),
            )
            .await;
    }
    assert_eq!(rounds, 3, "{reply}\n{}", proxy.log());
    assert_eq!(reply["result"]["isError"], true, "{reply}");
    assert!(
        text_of(&reply).contains("web page steps 3 times"),
        "{reply}"
    );
}

/// The upstream goes away while a 2026-07-28 client's request is held: the client's retry
/// gets a clear error (no hang), and the proxy goes on serving (a new request gets a clear
/// error too, and a new upstream on the same address is used again).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_that_disappears_mid_request_ends_it_cleanly() {
    // The upstream on a runtime of its own, so that all of it (connections included) can
    // be dropped at once.
    let (stop, stopped) = std::sync::mpsc::channel::<()>();
    let (addr_tx, addr_rx) = std::sync::mpsc::channel();
    let upstream_thread = std::thread::spawn(move || {
        let runtime = tokio::runtime::Runtime::new().expect("runtime");
        let url = runtime.block_on(start_misbehaving());
        addr_tx.send(url).expect("send");
        let _ = stopped.recv();
        drop(runtime);
    });
    let upstream = addr_rx.recv().expect("upstream URL");
    let (proxy, url) = start(upstream, &[]).await;
    let mut client = Raw::new(&url, form_and_url());
    let first = client.call("ask_url", json!({})).await;
    let (key, _) = requests(&first)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("a round: {first}\n{}", proxy.log()));
    let state = first["result"]["requestState"].clone();

    stop.send(()).expect("stop");
    upstream_thread.join().expect("joined");
    // The client retries (through "still waiting" rounds while the proxy tries to resume
    // the upstream's stream) until the request ends with an error: within a minute.
    let started = std::time::Instant::now();
    let (mut key, mut state) = (key, state);
    let retried = loop {
        let reply = tokio::time::timeout(
            std::time::Duration::from_secs(60),
            client.call(
                "ask_url",
                json!({"inputResponses": {key: {"action": "accept"}}, "requestState": state}),
            ),
        )
        .await
        .expect("the retry must not hang");
        if reply["result"]["resultType"] != "input_required" {
            break reply;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(60),
            "still held after a minute: {reply}\n{}",
            proxy.log()
        );
        (key, _) = requests(&reply).into_iter().next().expect("a round");
        state = reply["result"]["requestState"].clone();
    };
    let text = retried.to_string();
    assert!(
        retried.get("error").is_some() || retried["result"]["isError"] == true,
        "{text}"
    );
    // A new request: a clear error, and the proxy still answers.
    let again = tokio::time::timeout(
        std::time::Duration::from_secs(30),
        client.call("ask_url", json!({})),
    )
    .await
    .expect("no hang");
    assert!(
        again["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("upstream")),
        "{again}\n{}",
        proxy.log()
    );
}
