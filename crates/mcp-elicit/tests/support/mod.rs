//! What the tests of `mcp-elicit serve` share: the running binary, a raw Streamable HTTP
//! client that records what it receives, and the browser of the web crate's tests.
#![allow(dead_code, unreachable_pub)]

use std::io::Read;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use self::browser::{Browser, hidden_value};

#[path = "../../../web/tests/web/browser.rs"]
pub mod browser;
#[path = "../../../web/tests/web/driver.rs"]
pub mod driver;

pub const WAIT: Duration = Duration::from_secs(30);
pub const VAULT_KEY: &str = "3f1c0a9b7d2e4f6a8b0c1d2e3f405162738495a6b7c8d9e0f1a2b3c4d5e6f708";

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A running `mcp-elicit serve`; stderr collected in the background.
pub struct Server {
    child: Child,
    stderr: Arc<Mutex<String>>,
}

impl Server {
    pub fn start(args: &[String], env: &[(&str, &str)], port: u16) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-elicit"))
            .arg("serve")
            .args(args)
            .env_remove("RUST_LOG")
            .env_remove("MCP_ELICIT_VAULT_KEY")
            .env_remove("MCP_ELICIT_CLIENT_SECRET")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start mcp-elicit serve");
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut pipe = child.stderr.take().expect("stderr");
        let sink = stderr.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        let mut server = Server { child, stderr };
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let deadline = Instant::now() + WAIT;
        while TcpStream::connect(addr).is_err() {
            if let Ok(Some(status)) = server.child.try_wait() {
                panic!("the server exited ({status}): {}", server.log());
            }
            assert!(Instant::now() < deadline, "the server never listened");
            std::thread::sleep(Duration::from_millis(50));
        }
        server
    }

    pub fn log(&self) -> String {
        self.stderr
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The JSON-RPC messages in a JSON or SSE response body.
pub fn messages(body: &str) -> Vec<Value> {
    if let Ok(v) = serde_json::from_str::<Value>(body) {
        return vec![v];
    }
    body.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str(d.trim()).ok())
        .collect()
}

/// A raw Streamable HTTP client that records everything it receives.
pub struct McpClient {
    pub http: reqwest::Client,
    pub url: String,
    pub token: String,
    pub session: Option<String>,
    pub received: Arc<Mutex<String>>,
}

impl McpClient {
    /// A client of `url` (with `token` as bearer token when not empty) that has
    /// initialized with form and URL mode and listens for notifications; also returns
    /// what `initialize` answered.
    pub async fn connect(url: &str, token: String) -> (McpClient, Vec<Value>) {
        Self::connect_with(reqwest::Client::new(), url, token).await
    }

    /// [`McpClient::connect`] over `http` (e.g. a client trusting a test CA).
    pub async fn connect_with(
        http: reqwest::Client,
        url: &str,
        token: String,
    ) -> (McpClient, Vec<Value>) {
        let mut client = McpClient {
            http,
            url: url.to_owned(),
            token,
            session: None,
            received: Arc::new(Mutex::new(String::new())),
        };
        let init = client
            .post(
                json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {"elicitation": {"form": {}, "url": {}}},
                "clientInfo": {"name": "mcp-elicit-serve-tests", "version": "0"}}}),
            )
            .await;
        client
            .post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        client.open_stream().await;
        (client, init)
    }

    pub async fn post(&mut self, body: Value) -> Vec<Value> {
        let mut req = self
            .http
            .post(&self.url)
            .header("accept", "application/json, text/event-stream")
            .json(&body);
        if !self.token.is_empty() {
            req = req.bearer_auth(&self.token);
        }
        if let Some(s) = &self.session {
            req = req.header("mcp-session-id", s);
        }
        let resp = req.send().await.expect("post");
        assert!(resp.status().is_success(), "{}", resp.status());
        if let Some(s) = resp.headers().get("mcp-session-id") {
            self.session = Some(s.to_str().expect("session id").to_owned());
        }
        let text = resp.text().await.expect("body");
        self.received.lock().expect("lock").push_str(&text);
        messages(&text)
    }

    pub async fn open_stream(&self) {
        let mut req = self
            .http
            .get(&self.url)
            .header("accept", "text/event-stream")
            .header("mcp-session-id", self.session.as_deref().expect("session"));
        if !self.token.is_empty() {
            req = req.bearer_auth(&self.token);
        }
        let mut resp = req.send().await.expect("GET stream");
        assert_eq!(resp.status(), 200);
        let received = self.received.clone();
        tokio::spawn(async move {
            while let Ok(Some(chunk)) = resp.chunk().await {
                received
                    .lock()
                    .expect("lock")
                    .push_str(&String::from_utf8_lossy(&chunk));
            }
        });
    }

    /// Calls a tool that must answer -32042; returns the elicitation's id and URL.
    pub async fn url_required(&mut self, call: Value) -> (String, String) {
        let request_id = call["id"].clone();
        let answer = self.post(call).await;
        let error = answer
            .iter()
            .find(|m| m["id"] == request_id)
            .map(|m| m["error"].clone())
            .expect("a response to the call");
        assert_eq!(error["code"], -32042, "{error}");
        let e = &error["data"]["elicitations"][0];
        assert_eq!(e["mode"], "url");
        (
            e["elicitationId"].as_str().expect("id").to_owned(),
            e["url"].as_str().expect("url").to_owned(),
        )
    }

    /// Sends `call` (a `tools/call` request) and returns the text of its successful
    /// result.
    pub async fn call_text(&mut self, call: Value) -> String {
        let id = call["id"].clone();
        let messages = self.post(call).await;
        result_text(&messages, &id)
    }

    pub async fn wait_for_completion(&self, id: &str) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let seen = self.received.lock().expect("lock").clone();
            if messages(&seen).iter().any(|m| {
                m["method"] == "notifications/elicitation/complete"
                    && m["params"] == json!({"elicitationId": id})
            }) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "no completion notification for {id}; received: {seen}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// Opens the page at `url` and posts its form to `action` with `fields` (plus the id and
/// CSRF token the page carries), as a browser on `base` does.
pub async fn answer_page(
    browser: &mut Browser,
    base: &str,
    url: &str,
    id: &str,
    action: &str,
    fields: &[(&str, &str)],
) -> String {
    let page = browser.open(url).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let csrf = hidden_value(&page.body, "csrf").expect("csrf field");
    let mut all = vec![("elicitationId", id), ("csrf", csrf.as_str())];
    all.extend_from_slice(fields);
    let done = browser.submit(&format!("{base}{action}"), &all, base).await;
    assert_eq!(done.status, 200, "{}", done.body);
    done.body
}

/// The text of the successful result of call `id` among `messages` (panics, showing
/// them, on an error or no answer).
pub fn result_text(messages: &[Value], id: &Value) -> String {
    let m = messages
        .iter()
        .find(|m| &m["id"] == id)
        .unwrap_or_else(|| panic!("no response to {id}: {messages:?}"));
    assert_eq!(m["result"]["isError"], false, "{m}");
    m["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}
