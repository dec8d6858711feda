//! Two `mcp-elicit serve` nodes behind a real load balancer (Debian's haproxy, round-robin,
//! loopback only, its configuration generated here), sharing one PostgreSQL database, the
//! vault key and the `requestState` sealing keys (`--state-key-file`):
//!
//! - 2026-07-28 needs no session and no sticky routing: the rounds of one tool call go to
//!   different nodes (haproxy names the node in `X-Mcp-Node`) and the call completes, for a
//!   form, a multi-round flow and URL flows finished through the pages;
//! - a node killed with SIGKILL between two rounds loses nothing: haproxy sends the next round
//!   to the other node, which opens the state the dead node sealed and finds the out-of-band
//!   step in the database;
//! - nodes with different sealing keys refuse each other's state (-32602): the key must be
//!   shared, and nothing else needs to be;
//! - the same haproxy keeps 2025-11-25 sessions sticky (a stick table learns `Mcp-Session-Id`
//!   from the response that created the session), and the completion of a page served by the
//!   other node reaches the client through LISTEN/NOTIFY.
//!
//! PostgreSQL: `MCP_ELICIT_TEST_PG` (see `support/pg.rs`). haproxy: `scripts/install-tools`.

#[path = "support/pg.rs"]
mod pg;
mod support;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pg::PgDatabase;
use serde_json::{Value, json};
use support::browser::Browser;
use support::{McpClient, Server, VAULT_KEY, WAIT, answer_page, free_port, messages};

/// Two keys: the ring every node shares (`ID KEY` lines; the first signs).
const STATE_KEYS: &str = "k1 9d2f4a6c8e0b1d3f5a7c9e1b3d5f7a9c2e4a6c8e0b2d4f6a8c0e2b4d6f8a0c2e\n";
/// Another ring, for the node that must refuse the first ring's states.
const OTHER_STATE_KEYS: &str =
    "k9 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n";
const PROTOCOL: &str = "2026-07-28";

/// The haproxy binary (`HAPROXY` or `haproxy` on the PATH, as `scripts/install-tools` puts it).
fn haproxy_bin() -> PathBuf {
    if let Some(p) = std::env::var_os("HAPROXY") {
        return PathBuf::from(p);
    }
    for dir in ["/usr/sbin", "/usr/local/sbin", "/usr/bin"] {
        let p = Path::new(dir).join("haproxy");
        if p.exists() {
            return p;
        }
    }
    PathBuf::from("haproxy")
}

/// A haproxy in front of the nodes, round-robin per request except for requests that carry an
/// `Mcp-Session-Id` it has seen created (2025-11-25), which go to that session's node.
struct Haproxy {
    child: Child,
    stderr: Arc<Mutex<String>>,
    base: String,
}

impl Haproxy {
    fn start(dir: &Path, nodes: &[u16]) -> Haproxy {
        let port = free_port();
        let servers: String = nodes
            .iter()
            .enumerate()
            .map(|(i, p)| format!("    server node{} 127.0.0.1:{p}\n", i + 1))
            .collect();
        // No health checks (a dead node is found by the refused connection, then the request is
        // redispatched); one thread, so round-robin is a strict rotation.
        let config = format!(
            "global\n    nbthread 1\n    maxconn 256\n\
             defaults\n    mode http\n    timeout connect 2s\n    timeout client 60s\n    timeout server 60s\n\
             \x20   retries 2\n    option redispatch 1\n\
             frontend mcp\n    bind 127.0.0.1:{port}\n    default_backend nodes\n\
             backend nodes\n    balance roundrobin\n\
             \x20   stick-table type string len 128 size 10k expire 30m\n\
             \x20   stick store-response res.hdr(mcp-session-id)\n\
             \x20   stick match req.hdr(mcp-session-id)\n\
             \x20   http-response set-header X-Mcp-Node %[srv_name]\n{servers}"
        );
        let file = dir.join("haproxy.cfg");
        std::fs::write(&file, &config).expect("write haproxy.cfg");
        let check = Command::new(haproxy_bin())
            .args(["-c", "-q", "-f"])
            .arg(&file)
            .output()
            .unwrap_or_else(|e| {
                panic!("cannot run haproxy ({e}): run scripts/install-tools (Debian's haproxy)")
            });
        assert!(
            check.status.success(),
            "haproxy refused the configuration:\n{config}\n{}",
            String::from_utf8_lossy(&check.stderr)
        );
        let mut child = Command::new(haproxy_bin())
            .arg("-db")
            .arg("-f")
            .arg(&file)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start haproxy");
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
        let deadline = Instant::now() + WAIT;
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = child.try_wait() {
                panic!(
                    "haproxy exited ({status}): {}",
                    stderr.lock().expect("lock")
                );
            }
            assert!(Instant::now() < deadline, "haproxy never listened");
            std::thread::sleep(Duration::from_millis(20));
        }
        Haproxy {
            child,
            stderr,
            base: format!("http://127.0.0.1:{port}"),
        }
    }
}

impl Drop for Haproxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if std::thread::panicking() {
            eprintln!(
                "--- haproxy ---\n{}",
                self.stderr
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
            );
        }
    }
}

/// A node: `mcp-elicit serve` in local mode on the shared store and keys.
fn node(port: u16, store: &str, dir: &Path, state_keys: &str, extra: &[&str]) -> Server {
    let vault = dir.join("vault.key");
    std::fs::write(&vault, VAULT_KEY).expect("vault key file");
    let keys = dir.join(format!("state-{port}.keys"));
    std::fs::write(&keys, state_keys).expect("state key file");
    let mut args: Vec<String> = vec![
        "--listen".into(),
        format!("127.0.0.1:{port}"),
        "--store".into(),
        store.into(),
        "--vault-key-file".into(),
        vault.display().to_string(),
        "--state-key-file".into(),
        keys.display().to_string(),
    ];
    args.extend(extra.iter().map(|a| (*a).to_owned()));
    Server::start(&args, &[("USER", "stateless-tester")], port)
}

/// A 2026-07-28 client: every request its own POST with `_meta`, no session.
struct Stateless {
    http: reqwest::Client,
    url: String,
    next_id: u64,
}

/// One answer: the node haproxy sent the request to, and the JSON-RPC response.
struct Answer {
    node: String,
    message: Value,
}

impl Answer {
    fn result(&self) -> &Value {
        assert!(self.message["error"].is_null(), "{}", self.message);
        &self.message["result"]
    }

    fn input_required(&self) -> (&Value, String) {
        let r = self.result();
        assert_eq!(r["resultType"], "input_required", "{r}");
        let state = r["requestState"]
            .as_str()
            .expect("a requestState")
            .to_owned();
        (&r["inputRequests"], state)
    }

    fn text(&self) -> String {
        let r = self.result();
        assert_eq!(r["resultType"], "complete", "{r}");
        assert_eq!(r["isError"], false, "{r}");
        r["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }
}

impl Stateless {
    fn new(base: &str) -> Stateless {
        Stateless {
            http: reqwest::Client::new(),
            url: format!("{base}/mcp"),
            next_id: 1,
        }
    }

    async fn call(
        &mut self,
        tool: &str,
        args: Value,
        responses: Option<Value>,
        state: Option<&str>,
    ) -> Answer {
        let id = self.next_id;
        self.next_id += 1;
        let mut params = json!({"name": tool, "arguments": args, "_meta": {
            "io.modelcontextprotocol/protocolVersion": PROTOCOL,
            "io.modelcontextprotocol/clientInfo": {"name": "stateless-nodes-test", "version": "0"},
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}, "url": {}}}
        }});
        if let Some(r) = responses {
            params["inputResponses"] = r;
        }
        if let Some(s) = state {
            params["requestState"] = json!(s);
        }
        let resp = self
            .http
            .post(&self.url)
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", PROTOCOL)
            .header("mcp-method", "tools/call")
            .header("mcp-name", tool)
            .json(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}))
            .send()
            .await
            .expect("post through haproxy");
        assert!(
            resp.headers().get("mcp-session-id").is_none(),
            "a 2026-07-28 answer created a session"
        );
        let node = resp
            .headers()
            .get("x-mcp-node")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("?")
            .to_owned();
        let status = resp.status();
        let body = resp.text().await.expect("body");
        assert!(status.is_success(), "{status}: {body}");
        let message = messages(&body)
            .into_iter()
            .find(|m| m["id"] == id)
            .unwrap_or_else(|| panic!("no answer to {id}: {body}"));
        Answer { node, message }
    }
}

/// The single request of a round (its key and its params).
fn only_request(requests: &Value) -> (String, Value) {
    let map = requests.as_object().expect("inputRequests");
    assert_eq!(map.len(), 1, "{requests}");
    let (k, v) = map.iter().next().expect("one request");
    assert_eq!(v["method"], "elicitation/create", "{requests}");
    (k.clone(), v["params"].clone())
}

/// The `elicitationId` query parameter of a page URL.
fn page_id(url: &str) -> String {
    url::Url::parse(url)
        .expect("page URL")
        .query_pairs()
        .find(|(k, _)| k == "elicitationId")
        .map(|(_, v)| v.into_owned())
        .expect("elicitationId in the page URL")
}

/// The port of an `http://127.0.0.1:PORT/...` URL.
fn port_of(url: &str) -> u16 {
    url::Url::parse(url).expect("URL").port().expect("a port")
}

/// Points `url` (a page of the node on `from`) at the node on `to`: the browser reaching
/// another node, as a load balancer in front of the pages would send it.
fn on_node(url: &str, from: u16, to: u16) -> String {
    url.replacen(
        &format!("127.0.0.1:{from}/"),
        &format!("127.0.0.1:{to}/"),
        1,
    )
}

const FORM_ANSWER: &str = r#"{"handle":"octo-cat","email":"ada@example.com","age":36}"#;

/// The demo form's two rounds, the answer to the first one carried by the second.
async fn demo_form_round_one(client: &mut Stateless) -> (Answer, String, String) {
    let first = client.call("demo_form", json!({}), None, None).await;
    let (requests, state) = first.input_required();
    let (key, params) = only_request(requests);
    assert_eq!(
        params["requestedSchema"]["properties"]["handle"]["pattern"],
        "^[a-z0-9-]+$"
    );
    (first, key, state)
}

fn form_answer(key: &str) -> Value {
    let content: Value = serde_json::from_str(FORM_ANSWER).expect("answer");
    json!({key: {"action": "accept", "content": content}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rounds_of_one_call_land_on_different_nodes_and_complete() {
    let db = PgDatabase::create("mcp_elicit_stateless").await;
    let dir = tempfile::tempdir().expect("tempdir");
    let (port_a, port_b) = (free_port(), free_port());
    let _a = node(port_a, &db.url, dir.path(), STATE_KEYS, &["--conformance"]);
    let _b = node(port_b, &db.url, dir.path(), STATE_KEYS, &["--conformance"]);
    let lb = Haproxy::start(dir.path(), &[port_a, port_b]);
    let mut client = Stateless::new(&lb.base);

    // A form: round one on one node, the answer on the other.
    let (first, key, state) = demo_form_round_one(&mut client).await;
    let second = client
        .call(
            "demo_form",
            json!({}),
            Some(form_answer(&key)),
            Some(&state),
        )
        .await;
    assert_ne!(
        first.node, second.node,
        "round-robin sends each round elsewhere"
    );
    let text = second.text();
    assert!(
        text.contains("ada@example.com") && text.contains("octo-cat"),
        "{text}"
    );

    // A multi-round flow (three legs, two questions, a fresh state each round), alternating.
    let tool = "test_input_required_result_multi_round";
    let r1 = client.call(tool, json!({}), None, None).await;
    let (req1, s1) = r1.input_required();
    let (k1, _) = only_request(req1);
    let r2 = client
        .call(
            tool,
            json!({}),
            Some(json!({k1: {"action": "accept", "content": {"name": "Alice"}}})),
            Some(&s1),
        )
        .await;
    let (req2, s2) = r2.input_required();
    assert_ne!(s1, s2);
    let (k2, _) = only_request(req2);
    let r3 = client
        .call(
            tool,
            json!({}),
            Some(json!({k2: {"action": "accept", "content": {"color": "blue"}}})),
            Some(&s2),
        )
        .await;
    assert_eq!(r3.result()["resultType"], "complete", "{}", r3.message);
    assert_ne!(r1.node, r2.node);
    assert_ne!(r2.node, r3.node);

    // URL flows: the tool's node makes the URL, the browser finishes the page on the other
    // node, the retry (on the other node again) finds what the page stored.
    let mut browser = Browser::new("unused");
    let secret = format!("sk_stateless_{}", std::process::id());
    let ask = client.call("set_api_key", json!({}), None, None).await;
    let (requests, state) = ask.input_required();
    let (key, params) = only_request(requests);
    assert_eq!(params["mode"], "url", "{params}");
    assert!(params.get("elicitationId").is_none(), "{params}");
    let url = params["url"].as_str().expect("url").to_owned();
    let (from, to) = if port_of(&url) == port_a {
        (port_a, port_b)
    } else {
        (port_b, port_a)
    };
    let other = format!("http://127.0.0.1:{to}");
    answer_page(
        &mut browser,
        &other,
        &on_node(&url, from, to),
        &page_id(&url),
        "/connect/secret",
        &[("secret", &secret)],
    )
    .await;
    let done = client
        .call(
            "set_api_key",
            json!({}),
            Some(json!({key: {"action": "accept"}})),
            Some(&state),
        )
        .await;
    assert_ne!(ask.node, done.node);
    assert!(done.text().contains("on file"), "{}", done.message);
    assert!(!done.message.to_string().contains(&secret));

    let args = json!({"item": "Tea", "amount": "3 EUR"});
    let ask = client
        .call("approve_purchase", args.clone(), None, None)
        .await;
    let (requests, state) = ask.input_required();
    let (key, params) = only_request(requests);
    let url = params["url"].as_str().expect("url").to_owned();
    let (from, to) = if port_of(&url) == port_a {
        (port_a, port_b)
    } else {
        (port_b, port_a)
    };
    answer_page(
        &mut browser,
        &format!("http://127.0.0.1:{to}"),
        &on_node(&url, from, to),
        &page_id(&url),
        "/connect/confirm",
        &[("decision", "confirm")],
    )
    .await;
    let done = client
        .call(
            "approve_purchase",
            args,
            Some(json!({key: {"action": "accept"}})),
            Some(&state),
        )
        .await;
    assert_ne!(ask.node, done.node);
    assert_eq!(done.text(), "Approved: Buy Tea for 3 EUR.");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_killed_between_rounds_loses_nothing() {
    let db = PgDatabase::create("mcp_elicit_stateless_kill").await;
    let dir = tempfile::tempdir().expect("tempdir");
    let (port_a, port_b) = (free_port(), free_port());
    let mut nodes = [
        Some(node(port_a, &db.url, dir.path(), STATE_KEYS, &[])),
        Some(node(port_b, &db.url, dir.path(), STATE_KEYS, &[])),
    ];
    let lb = Haproxy::start(dir.path(), &[port_a, port_b]);
    let mut client = Stateless::new(&lb.base);

    // Round one of a URL flow and of a form, both on the same node (round-robin: the URL
    // flow, another request, the form).
    let ask = client.call("set_api_key", json!({}), None, None).await;
    let (requests, key_state) = ask.input_required();
    let (key_key, params) = only_request(requests);
    let key_url = params["url"].as_str().expect("url").to_owned();
    let between = client.call("demo_profile", json!({}), None, None).await;
    assert_ne!(between.node, ask.node);
    let (form, form_key, form_state) = demo_form_round_one(&mut client).await;
    assert_eq!(form.node, ask.node);

    // SIGKILL the node that answered both first rounds: nothing flushed, nothing cleaned up.
    let (dead, alive) = if port_of(&key_url) == port_a {
        (0, port_b)
    } else {
        (1, port_a)
    };
    drop(nodes[dead].take());

    let secret = format!("sk_killed_{}", std::process::id());
    let mut browser = Browser::new("unused");
    let dead_port = port_of(&key_url);
    answer_page(
        &mut browser,
        &format!("http://127.0.0.1:{alive}"),
        &on_node(&key_url, dead_port, alive),
        &page_id(&key_url),
        "/connect/secret",
        &[("secret", &secret)],
    )
    .await;
    let form_done = client
        .call(
            "demo_form",
            json!({}),
            Some(form_answer(&form_key)),
            Some(&form_state),
        )
        .await;
    assert!(
        form_done.text().contains("ada@example.com"),
        "{}",
        form_done.message
    );
    let key_done = client
        .call(
            "set_api_key",
            json!({}),
            Some(json!({key_key: {"action": "accept"}})),
            Some(&key_state),
        )
        .await;
    assert!(key_done.text().contains("on file"), "{}", key_done.message);
    assert_eq!(form_done.node, key_done.node, "only one node is left");
    assert_ne!(form_done.node, ask.node);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_with_different_sealing_keys_refuse_each_others_state() {
    let db = PgDatabase::create("mcp_elicit_stateless_keys").await;
    let dir = tempfile::tempdir().expect("tempdir");
    let (port_a, port_b) = (free_port(), free_port());
    let _a = node(port_a, &db.url, dir.path(), STATE_KEYS, &[]);
    let _b = node(port_b, &db.url, dir.path(), OTHER_STATE_KEYS, &[]);
    let lb = Haproxy::start(dir.path(), &[port_a, port_b]);
    let mut client = Stateless::new(&lb.base);
    let (first, key, state) = demo_form_round_one(&mut client).await;
    let second = client
        .call(
            "demo_form",
            json!({}),
            Some(form_answer(&key)),
            Some(&state),
        )
        .await;
    assert_ne!(first.node, second.node);
    assert_eq!(
        second.message["error"]["code"], -32602,
        "{}",
        second.message
    );
    // The node that sealed it still takes it: the state is only bound to the key ring.
    let third = client
        .call(
            "demo_form",
            json!({}),
            Some(form_answer(&key)),
            Some(&state),
        )
        .await;
    assert_eq!(third.node, first.node);
    assert!(
        third.text().contains("ada@example.com"),
        "{}",
        third.message
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_of_2025_stay_sticky_behind_the_same_balancer() {
    let db = PgDatabase::create("mcp_elicit_stateless_sticky").await;
    let dir = tempfile::tempdir().expect("tempdir");
    let (port_a, port_b) = (free_port(), free_port());
    let _a = node(port_a, &db.url, dir.path(), STATE_KEYS, &[]);
    let _b = node(port_b, &db.url, dir.path(), STATE_KEYS, &[]);
    let lb = Haproxy::start(dir.path(), &[port_a, port_b]);

    // initialize, notifications/initialized, the GET stream and every call go through
    // haproxy: a request routed to the wrong node would get 404 (unknown session).
    let (mut client, _) = McpClient::connect(&format!("{}/mcp", lb.base), String::new()).await;
    let (id, url) = client
        .url_required(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "set_api_key", "arguments": {}}}))
        .await;
    // The browser reaches the node that does not hold the session.
    let from = port_of(&url);
    let to = if from == port_a { port_b } else { port_a };
    let mut browser = Browser::new("unused");
    let secret = format!("sk_sticky_{}", std::process::id());
    answer_page(
        &mut browser,
        &format!("http://127.0.0.1:{to}"),
        &on_node(&url, from, to),
        &id,
        "/connect/secret",
        &[("secret", &secret)],
    )
    .await;
    // LISTEN/NOTIFY carries the completion to the session's node, then to the client.
    client.wait_for_completion(&id).await;
    let text = client
        .call_text(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": {"name": "set_api_key", "arguments": {}}}))
        .await;
    assert!(text.contains("on file"), "{text}");
}
