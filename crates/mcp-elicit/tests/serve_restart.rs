//! `mcp-elicit serve --store sqlite://...` survives a crash: a URL elicitation announced
//! with -32042 before SIGKILL is completed on the demo page after a restart, and the
//! client's retried call then succeeds. The completion notification itself cannot reach a
//! session that died with the process: the retry is the recovery path.

use std::io::Read;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rmcp::model::{CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation};
use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, RoleClient, ServiceError, ServiceExt};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const WAIT: Duration = Duration::from_secs(30);

/// A running `mcp-elicit serve`, killed with SIGKILL when dropped.
struct Server {
    child: Child,
}

impl Server {
    fn start(port: u16, store: &str) -> Server {
        let child = Command::new(env!("CARGO_BIN_EXE_mcp-elicit"))
            .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
            .args(["--store", store])
            .env_remove("RUST_LOG")
            .env("USER", "restart-tester")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start mcp-elicit serve");
        let server = Server { child };
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let deadline = Instant::now() + WAIT;
        while TcpStream::connect(addr).is_err() {
            assert!(Instant::now() < deadline, "the server never listened");
            std::thread::sleep(Duration::from_millis(50));
        }
        server
    }

    /// SIGKILL: no shutdown code runs, nothing is flushed or cleaned up. Returns stderr.
    fn kill(mut self) -> String {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reaped");
        let mut log = String::new();
        if let Some(mut err) = self.child.stderr.take() {
            let _ = err.read_to_string(&mut log);
        }
        log
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Client;

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        let caps: ClientCapabilities =
            serde_json::from_value(json!({"elicitation": {"url": {}}})).expect("capabilities");
        ClientConfig::new(caps, Implementation::new("restart-test-client", "0"))
    }
}

async fn connect(port: u16) -> RunningService<RoleClient, Client> {
    Client
        .serve(StreamableHttpClientTransport::from_uri(format!(
            "http://127.0.0.1:{port}/mcp"
        )))
        .await
        .expect("connect")
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// One HTTP/1.1 exchange with the server; returns status and the whole response.
async fn exchange(port: u16, method: &str, path: &str, extra: &str, body: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connect");
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
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

/// Opens the demo page at `path` and posts its form with the page's CSRF token (what
/// the user's browser does); returns status and body. A page that is gone (404) is
/// posted without a token, and answers 404 again.
async fn post(port: u16, path: &str) -> (u16, String) {
    let (_, page) = exchange(port, "GET", path, "", "").await;
    let token = page
        .split_once("name=\"csrf\" value=\"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .map(|(t, _)| t.to_owned())
        .unwrap_or_default();
    exchange(
        port,
        "POST",
        path,
        "Content-Type: application/x-www-form-urlencoded\r\n",
        &format!("csrf={token}"),
    )
    .await
}

fn text(result: &rmcp::model::CallToolResult) -> String {
    result
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_url_elicitation_survives_sigkill_and_the_retry_succeeds_after_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = format!("sqlite://{}", dir.path().join("state.db").display());
    let port = free_port();

    let first = Server::start(port, &store);
    let client = connect(port).await;
    let err = client
        .call_tool(CallToolRequestParams::new("connect_demo"))
        .await
        .expect_err("-32042 before connecting");
    let ServiceError::McpError(data) = err else {
        panic!("expected a JSON-RPC error, got {err}")
    };
    assert_eq!(data.code.0, -32042);
    let item: Value = data.data.expect("data")["elicitations"][0].clone();
    let url = item["url"].as_str().expect("url").to_owned();
    let path = url
        .strip_prefix(&format!("http://127.0.0.1:{port}"))
        .expect("the demo page is on the server")
        .to_owned();
    let log = first.kill();
    drop(client);

    // Logging: plain text on a pipe, our start-up line, no rmcp request chatter.
    assert!(log.contains("mcp-elicit serve: state:"), "{log}");
    assert!(log.contains("state.db"), "{log}");
    assert!(!log.contains('\u{1b}'), "ANSI colours on a pipe: {log:?}");
    assert!(!log.contains("INFO rmcp"), "{log}");
    assert!(!log.contains("capabilities"), "{log}");

    let second = Server::start(port, &store);
    // The page finds the elicitation created before the crash and completes it; no
    // connection holds its session any more, so nobody can be notified.
    let (status, page) = post(port, &path).await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("try again"), "{page}");
    // A second completion is refused: the store decided once.
    let (status, _) = post(port, &path).await;
    assert_eq!(status, 404);

    // The client reconnects (its session died with the old process) and retries.
    let client = connect(port).await;
    let ok = client
        .call_tool(CallToolRequestParams::new("connect_demo"))
        .await
        .expect("connected after the restart");
    assert!(text(&ok).starts_with("Connected"), "{}", text(&ok));
    client.cancel().await.expect("close");

    // The connected state itself is durable: one more crash and restart.
    second.kill();
    let _third = Server::start(port, &store);
    let client = connect(port).await;
    let ok = client
        .call_tool(CallToolRequestParams::new("connect_demo"))
        .await
        .expect("still connected");
    assert!(text(&ok).starts_with("Connected"), "{}", text(&ok));
    client.cancel().await.expect("close");
}
