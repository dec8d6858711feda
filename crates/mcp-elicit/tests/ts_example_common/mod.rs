//! What the tests against the TypeScript SDK's URL-elicitation example server share:
//! the example (`elicitationUrlExample.js` of @modelcontextprotocol/sdk in `.tools`) on
//! two loopback ports with its demo OAuth provider, and a child process whose output is
//! collected.
//!
//! Node servers bind every interface by default: a preload script makes them listen on
//! 127.0.0.1 only. The example names itself `localhost` in its URLs, so the tests do too.
#![allow(dead_code, unreachable_pub)]

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use reqwest::Method;

use crate::support::WAIT;
use crate::support::browser::{Browser, hidden_value};
use crate::support::driver::{node, tools_dir};

pub const EXAMPLE: &str =
    "node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/elicitationUrlExample.js";

/// Makes `server.listen(port)` listen on 127.0.0.1 instead of every interface.
pub const LOOPBACK_ONLY: &str = r#"
const net = require('net');
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if ((typeof args[0] === 'number' || typeof args[0] === 'string') && typeof args[1] !== 'string') {
    args.splice(1, 0, '127.0.0.1');
  }
  return listen.apply(this, args);
};
"#;

/// A child process with stdout and stderr collected; killed on drop.
pub struct Logged {
    child: Child,
    out: Arc<Mutex<String>>,
    err: Arc<Mutex<String>>,
}

fn collect(pipe: impl Read + Send + 'static) -> Arc<Mutex<String>> {
    let sink = Arc::new(Mutex::new(String::new()));
    let s = sink.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines().map_while(Result::ok) {
            let mut t = s.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            t.push_str(&line);
            t.push('\n');
        }
    });
    sink
}

fn text(s: &Arc<Mutex<String>>) -> String {
    s.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone()
}

impl Logged {
    pub fn start(cmd: &mut Command) -> Logged {
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start a child process");
        let out = collect(child.stdout.take().expect("stdout"));
        let err = collect(child.stderr.take().expect("stderr"));
        Logged { child, out, err }
    }

    pub fn out(&self) -> String {
        text(&self.out)
    }

    pub fn err(&self) -> String {
        text(&self.err)
    }

    pub fn exited(&mut self) -> Option<i32> {
        self.child
            .try_wait()
            .expect("try_wait")
            .map(|s| s.code().unwrap_or(-1))
    }
}

impl Drop for Logged {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The example server on `mcp_port` with its authorization server on `auth_port`.
pub fn start_example(script: &Path, dir: &Path, mcp_port: u16, auth_port: u16) -> Logged {
    let preload = dir.join("loopback-only.cjs");
    std::fs::write(&preload, LOOPBACK_ONLY).expect("write the preload script");
    let mut server = Logged::start(
        Command::new(node())
            .arg("--require")
            .arg(&preload)
            .arg(script)
            .env("MCP_PORT", mcp_port.to_string())
            .env("MCP_AUTH_PORT", auth_port.to_string()),
    );
    let deadline = Instant::now() + WAIT;
    loop {
        let log = server.out();
        if log.contains(&format!(
            "MCP Streamable HTTP Server listening on port {mcp_port}"
        )) && log.contains(&format!(
            "OAuth Authorization Server listening on port {auth_port}"
        )) {
            return server;
        }
        if let Some(code) = server.exited() {
            panic!(
                "the TS example server exited ({code}):\n{log}\n{}",
                server.err()
            );
        }
        assert!(
            Instant::now() < deadline,
            "the TS example server never listened:\n{log}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Every UUID-shaped word of `text` (the demo provider's tokens are UUIDs).
pub fn uuids(text: &str) -> Vec<String> {
    let re = regex::Regex::new(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
        .expect("regex");
    re.find_iter(text).map(|m| m.as_str().to_owned()).collect()
}

/// The example script, or `None` (saying SKIPPED) when `.tools` is missing.
pub fn example_script() -> Option<PathBuf> {
    let tools = tools_dir();
    if !tools.is_dir() {
        eprintln!(
            "SKIPPED: the TS SDK example is not installed ({} is missing; run scripts/install-tools)",
            tools.display()
        );
        return None;
    }
    let script = tools.join(EXAMPLE);
    assert!(
        script.is_file(),
        "{} has no {EXAMPLE}: run scripts/install-tools",
        tools.display()
    );
    Some(script)
}

/// Completes a `payment-confirm` URL elicitation `id` for cart `cart` as a browser
/// signed in at the demo provider does: opens its page, checks it, posts its form with
/// "Confirm Payment" (same origin), checks the confirmation page.
pub async fn confirm_payment(demo: &mut Browser, page_url: &str, id: &str, cart: &str) {
    let page = demo.request(Method::GET, page_url, None, None).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body
            .contains("Logged in as: <strong>Demo User</strong>")
            && page.body.contains(cart),
        "{}",
        page.body
    );
    let field = |name: &str| hidden_value(&page.body, name).expect(name);
    assert_eq!(field("elicitation"), id);
    let (session, cart_id) = (field("session"), field("cartId"));
    let fields = [
        ("session", session.as_str()),
        ("elicitation", id),
        ("cartId", cart_id.as_str()),
        ("action", "confirm"),
    ];
    let form_target = page.url.join("/confirm-payment").expect("form action");
    let origin = page.url.origin().ascii_serialization();
    let answer = demo
        .request(
            Method::POST,
            form_target.as_str(),
            Some(&fields),
            Some(&origin),
        )
        .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert!(answer.body.contains("Payment Confirmed"), "{}", answer.body);
}
