//! `mcp-elicit call` against the TypeScript SDK's URL-elicitation example server
//! (`examples/server/elicitationUrlExample.js` of @modelcontextprotocol/sdk, installed in
//! `.tools` by scripts/install-tools) with its demo OAuth provider, end to end.
//!
//! The example needs a sign-in for everything (`requireBearerAuth`, the authorization
//! server on a second port, dynamic client registration, `resource` checked strictly).
//! Checked: without `--sign-in` the call fails with a message naming the server and
//! saying to run with `--sign-in`, with no Rust type path in it and no browser started;
//! with `--sign-in` the "browser" (a program handing the URL to the test, played by
//! reqwest with a cookie jar) is signed in, the sign-in is kept (`auth list`), and each
//! `payment-confirm` URL elicitation (-32042) is completed on the server's own page
//! (GET, then its form POSTed with "Confirm Payment", as a browser would, with the demo
//! provider's session cookie). The example's tool asks again after every confirmation
//! (it never returns a result), so the call ends after its three retries with the
//! retry-limit error; the server logs each confirmation. A second run uses the kept
//! sign-in without a browser. No access token reaches stdout, stderr or `auth list`.
//!
//! Node servers bind every interface by default: a preload script makes them listen on
//! 127.0.0.1 only. The example names itself `localhost` in its URLs, so the test does too.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod auth_common;
mod support;

use auth_common::url_catcher;
use reqwest::Method;
use support::browser::{Browser, hidden_value};
use support::driver::{node, tools_dir};
use support::{WAIT, free_port};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-elicit");

const EXAMPLE: &str =
    "node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/elicitationUrlExample.js";

/// Makes `server.listen(port)` listen on 127.0.0.1 instead of every interface.
const LOOPBACK_ONLY: &str = r#"
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
struct Logged {
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
    fn start(cmd: &mut Command) -> Logged {
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

    fn out(&self) -> String {
        text(&self.out)
    }

    fn err(&self) -> String {
        text(&self.err)
    }

    fn exited(&mut self) -> Option<i32> {
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
fn start_example(script: &Path, dir: &Path, mcp_port: u16, auth_port: u16) -> Logged {
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

fn cli(state: &Path) -> Command {
    let mut c = Command::new(BIN);
    c.env("XDG_STATE_HOME", state)
        .env_remove("RUST_LOG")
        .env_remove("BROWSER")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY");
    c
}

/// Every UUID-shaped word of `text` (the demo provider's tokens are UUIDs).
fn uuids(text: &str) -> Vec<String> {
    let re = regex::Regex::new(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
        .expect("regex");
    re.find_iter(text).map(|m| m.as_str().to_owned()).collect()
}

/// The URL elicitations `call --open-urls print` consented to so far: (id, url).
fn consented(stderr: &str) -> Vec<(String, String)> {
    const MARK: &str = "consenting to URL elicitation: ";
    stderr
        .lines()
        .filter_map(|l| l.split_once(MARK).map(|(_, json)| json))
        .map(|json| {
            let v: serde_json::Value = serde_json::from_str(json).expect("the analysis JSON");
            (
                v["elicitationId"]
                    .as_str()
                    .expect("elicitationId")
                    .to_owned(),
                v["url"].as_str().expect("url").to_owned(),
            )
        })
        .collect()
}

fn example_script() -> Option<PathBuf> {
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn call_signs_in_at_the_ts_example_and_confirms_its_payment_pages() {
    let Some(script) = example_script() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let (mcp_port, auth_port) = (free_port(), free_port());
    let server = start_example(&script, dir.path(), mcp_port, auth_port);
    let mcp = format!("http://localhost:{mcp_port}/mcp");
    let issuer = format!("http://localhost:{auth_port}/");
    let state = dir.path().join("state");
    let (browser, opened) = url_catcher(dir.path());
    let cart = "cart-13";
    let tool_args = format!(r#"{{"cartId":"{cart}"}}"#);

    // Without --sign-in: a plain message naming the server, no browser, nothing kept.
    let out = cli(&state)
        .args(["call", &mcp, "payment-confirm", "--args", &tool_args])
        .arg("--browser")
        .arg(&browser)
        .stdin(Stdio::null())
        .output()
        .expect("run mcp-elicit");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("{mcp} requires sign-in")) && err.contains("--sign-in"),
        "{err}"
    );
    assert!(
        !err.contains("::"),
        "a Rust type path in the message:\n{err}"
    );
    assert!(!opened.exists(), "a browser was started without --sign-in");

    // With --sign-in: dynamic registration, the demo provider signs the browser in at
    // once (and sets its session cookie), the loopback redirect takes the code.
    let mut call = Logged::start(
        cli(&state)
            .args(["call", &mcp, "payment-confirm", "--args", &tool_args])
            .args(["--sign-in", "--open-urls", "print", "--timeout", "120"])
            .arg("--browser")
            .arg(&browser),
    );
    let deadline = Instant::now() + WAIT;
    let url = loop {
        if let Ok(u) = std::fs::read_to_string(&opened)
            && !u.is_empty()
        {
            break u;
        }
        assert!(
            call.exited().is_none() && Instant::now() < deadline,
            "the browser was never started:\n{}",
            call.err()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(url.starts_with(&format!("{issuer}authorize?")), "{url}");
    let said = call.err();
    assert!(
        said.contains(&format!("sign-in for MCP server {mcp}")),
        "{said}"
    );
    assert!(
        said.contains(&format!("authorization server: {issuer}")),
        "{said}"
    );
    let mut demo = Browser::new("demo");
    let done = demo.open(&url).await;
    assert!(
        done.url.as_str().starts_with("http://127.0.0.1:") && done.body.contains("Signed in"),
        "{:?}\n{}\n{}",
        demo.visited,
        done.body,
        call.err()
    );

    // Each payment-confirm URL elicitation: open the page, press "Confirm Payment".
    let mut confirmed: Vec<String> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(90);
    let code = loop {
        let pending: Vec<(String, String)> = consented(&call.err())
            .into_iter()
            .filter(|(id, _)| !confirmed.contains(id))
            .collect();
        for (id, page_url) in pending {
            assert!(
                page_url.starts_with(&format!("http://localhost:{mcp_port}/confirm-payment?")),
                "{page_url}"
            );
            let page = demo.request(Method::GET, &page_url, None, None).await;
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
                ("elicitation", id.as_str()),
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
            confirmed.push(id);
        }
        if let Some(code) = call.exited() {
            break code;
        }
        assert!(
            Instant::now() < deadline,
            "the call did not end:\n{}",
            call.err()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    std::thread::sleep(Duration::from_millis(200));
    let (out, err) = (call.out(), call.err());
    assert_eq!(code, 2, "stdout:\n{out}\nstderr:\n{err}");
    assert_eq!(confirmed.len(), 3, "{err}");
    assert!(
        err.contains("still requires URL elicitation after 3 retries"),
        "{err}"
    );
    for id in &confirmed {
        assert!(
            err.contains(&format!(
                "url-elicitation-http-server completed elicitation {id}"
            )),
            "{err}"
        );
    }
    let log = server.out();
    assert_eq!(
        log.matches(&format!(
            "Payment confirmed for cart {cart} by user Demo User"
        ))
        .count(),
        3,
        "{log}"
    );

    // The sign-in is kept.
    let list = cli(&state)
        .args(["auth", "list"])
        .output()
        .expect("auth list");
    let listed = String::from_utf8_lossy(&list.stdout).into_owned();
    assert!(list.status.success(), "{listed}");
    assert!(listed.contains(&format!("server:   {mcp}")), "{listed}");
    // Listed as the issuer identifier the metadata gives, without the trailing "/".
    assert!(
        listed.contains(&format!("issuer:   http://localhost:{auth_port}\n")),
        "{listed}"
    );

    // The next run uses it: no browser, no sign-in message, the tool's elicitation again
    // (declined this time).
    std::fs::remove_file(&opened).expect("rm");
    let again = cli(&state)
        .args(["call", &mcp, "payment-confirm", "--args", &tool_args])
        .args(["--open-urls", "never"])
        .arg("--browser")
        .arg(&browser)
        .stdin(Stdio::null())
        .output()
        .expect("run mcp-elicit");
    let again_err = String::from_utf8_lossy(&again.stderr).into_owned();
    assert_eq!(again.status.code(), Some(2), "{again_err}");
    assert!(
        again_err.contains("requires URL elicitation that was not completed (Declined)"),
        "{again_err}"
    );
    assert!(!again_err.contains("sign-in"), "{again_err}");
    assert!(
        !opened.exists(),
        "a browser was started with a kept sign-in"
    );

    // No token anywhere: every UUID printed is a session, elicitation or client id the
    // server or the authorization URL shows (the demo provider's tokens are UUIDs too).
    let again_out = String::from_utf8_lossy(&again.stdout).into_owned();
    let printed = [out, err, listed, again_err, again_out];
    let named = regex::Regex::new(r#"(?:elicitation=|"elicitationId":"|ID: )([0-9a-f-]{36})"#)
        .expect("regex");
    let mut known: Vec<String> = uuids(&url);
    for t in printed.iter().chain([&server.out()]) {
        known.extend(named.captures_iter(t).map(|c| c[1].to_owned()));
    }
    for p in &printed {
        for u in uuids(p) {
            assert!(
                known.contains(&u),
                "{u} is neither a session, an elicitation nor the client: a token?\n{p}"
            );
        }
    }
}
