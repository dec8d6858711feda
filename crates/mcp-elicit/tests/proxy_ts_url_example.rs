//! `mcp-elicit proxy` in front of the TypeScript SDK's URL-elicitation example
//! (`elicitationUrlExample.js`, 2025-11-25, behind its demo OAuth provider) for 2026-07-28
//! clients (issue 18, items 2, 4 and 5):
//!
//! - the proxy reaches the example with its own credentials: the sign-in its OS user keeps
//!   for the example (made once with `mcp-elicit call --sign-in`), never a client's token;
//! - on its default rules the proxy refuses the example's page: its URL carries the MCP
//!   session id in a `session` query parameter (a pre-authenticated link); the Python SDK
//!   2.3 client on its defaults gets no round and reads why;
//! - with `--danger-no-url-check` the Python client gets the example's `payment-confirm`
//!   -32042 as a URL round (the example's page, no elicitation id) and declines it: the
//!   request ends with a message;
//! - a 2026-07-28 client that accepts has the page confirmed by the user's browser (signed
//!   in at the demo provider), the example's completion notification reaches the proxy,
//!   the proxy calls again, and the example's next -32042 (it asks after every
//!   confirmation) is a new round with a new page.

mod auth_common;
mod support;
mod ts_example_common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use auth_common::url_catcher;
use serde_json::{Value, json};
use support::browser::Browser;
use support::driver::tools_dir;
use support::{WAIT, free_port};
use ts_example_common::{Logged, confirm_payment, example_script, start_example};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-elicit");

/// `mcp-elicit` with its kept sign-ins under `state`.
fn cli(state: &std::path::Path) -> Command {
    let mut c = Command::new(BIN);
    c.env("XDG_STATE_HOME", state)
        .env_remove("RUST_LOG")
        .env_remove("BROWSER")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY");
    c
}

/// A raw 2026-07-28 `tools/call` of `payment-confirm` through the proxy at `url`.
async fn call(url: &str, cart: &str, extra: Value) -> Value {
    let mut params = json!({"name": "payment-confirm", "arguments": {"cartId": cart}, "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}, "url": {}}},
        "io.modelcontextprotocol/clientInfo": {"name": "raw-2026", "version": "0"}}});
    if let (Some(p), Value::Object(e)) = (params.as_object_mut(), extra) {
        p.extend(e);
    }
    let body = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "payment-confirm")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}))
        .send()
        .await
        .expect("POST")
        .text()
        .await
        .expect("body");
    let line = body
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .map(str::trim)
        .rfind(|d| d.contains("\"id\""))
        .map(str::to_owned)
        .unwrap_or(body);
    serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
}

/// The one URL request of a round: its key and URL.
fn url_request(reply: &Value) -> (String, String) {
    let requests = reply["result"]["inputRequests"]
        .as_object()
        .unwrap_or_else(|| panic!("a round: {reply}"));
    assert_eq!(requests.len(), 1, "{reply}");
    let (key, request) = requests.iter().next().expect("one");
    let params = &request["params"];
    assert_eq!(params["mode"], "url", "{reply}");
    assert!(params.get("elicitationId").is_none(), "{reply}");
    (
        key.clone(),
        params["url"].as_str().expect("a URL").to_owned(),
    )
}

/// The `elicitation` query parameter of the example's page URL.
fn elicitation_of(page: &str) -> String {
    url::Url::parse(page)
        .expect("page URL")
        .query_pairs()
        .find(|(k, _)| k == "elicitation")
        .map(|(_, v)| v.into_owned())
        .expect("an elicitation parameter")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ts_url_example_reaches_2026_clients_through_the_proxy_with_its_own_sign_in() {
    let Some(script) = example_script() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let (mcp_port, auth_port) = (free_port(), free_port());
    let server = start_example(&script, dir.path(), mcp_port, auth_port);
    let upstream = format!("http://localhost:{mcp_port}/mcp");
    let state = dir.path().join("state");
    let (browser_program, opened) = url_catcher(dir.path());
    let cart = "cart-21";
    let tool_args = format!(r#"{{"cartId":"{cart}"}}"#);

    // Once, as the proxy's OS user: sign in at the example (the page step declined).
    let mut sign_in = Logged::start(
        cli(&state)
            .args(["call", &upstream, "payment-confirm", "--args", &tool_args])
            .args(["--sign-in", "--open-urls", "never", "--timeout", "60"])
            .arg("--browser")
            .arg(&browser_program),
    );
    let deadline = Instant::now() + WAIT;
    let authorize = loop {
        if let Ok(u) = std::fs::read_to_string(&opened)
            && !u.is_empty()
        {
            break u;
        }
        assert!(
            sign_in.exited().is_none() && Instant::now() < deadline,
            "no sign-in started:\n{}",
            sign_in.err()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let mut demo = Browser::new("demo");
    let done = demo.open(&authorize).await;
    assert!(done.body.contains("Signed in"), "{}", done.body);
    let deadline = Instant::now() + WAIT;
    while sign_in.exited().is_none() {
        assert!(Instant::now() < deadline, "{}", sign_in.err());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // The proxy, as the same OS user (its kept sign-in), on its default rules: the page is
    // refused. Then with the URL rule off: the page reaches the client.
    let start_proxy = |extra: &[&str]| {
        let port = free_port();
        let listen = format!("127.0.0.1:{port}");
        let proxy = Logged::start(
            cli(&state)
                .args(["proxy", "--upstream", &upstream, "--listen", &listen])
                .args(extra),
        );
        let deadline = Instant::now() + WAIT;
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "{}", proxy.err());
            std::thread::sleep(Duration::from_millis(50));
        }
        (proxy, format!("http://127.0.0.1:{port}/mcp"))
    };
    let python = |url: &str, proxy: &Logged| {
        let tools = tools_dir();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let out = Command::new(tools.join("venv/bin/python"))
            .arg(root.join("interop/py/client_2026.py"))
            .args(["--scenario", "url", "--tool", "payment-confirm"])
            .args(["--args", &tool_args, "--action", "decline", "--url", url])
            .stdin(Stdio::null())
            .output()
            .expect("run the Python client");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let summary: Value = stdout
            .lines()
            .rev()
            .find_map(|l| serde_json::from_str(l).ok())
            .unwrap_or_else(|| {
                panic!(
                    "no summary: {stdout}\n{}\nproxy: {}",
                    String::from_utf8_lossy(&out.stderr),
                    proxy.err()
                )
            });
        assert_eq!(summary["ok"], true, "{summary}\nproxy: {}", proxy.err());
        assert_eq!(summary["protocolVersion"], "2026-07-28", "{summary}");
        summary
    };
    let (strict, strict_url) = start_proxy(&[]);
    let summary = python(&strict_url, &strict);
    assert_eq!(summary["elicitations"], json!([]), "{summary}");
    assert!(
        summary["result"].to_string().contains("did not show it"),
        "{summary}"
    );
    assert!(strict.err().contains("url-policy"), "{}", strict.err());
    drop(strict);

    let (proxy, url) = start_proxy(&["--danger-no-url-check"]);
    let summary = python(&url, &proxy);
    let asked = summary["elicitations"][0]["params"]["url"]
        .as_str()
        .unwrap_or("");
    assert!(
        asked.starts_with(&format!("http://localhost:{mcp_port}/confirm-payment?")),
        "{summary}"
    );
    assert!(
        summary["result"]
            .to_string()
            .contains("declined or cancelled"),
        "{summary}"
    );

    // A client that accepts: the user's browser confirms the page, the proxy calls again.
    let first = call(&url, cart, json!({})).await;
    let (key, page) = url_request(&first);
    let id = elicitation_of(&page);
    confirm_payment(&mut demo, &page, &id, cart).await;
    let state_value = first["result"]["requestState"].clone();
    let mut reply = call(
        &url,
        cart,
        json!({"inputResponses": {key: {"action": "accept"}}, "requestState": state_value}),
    )
    .await;
    // "Still waiting" rounds carry the same page; the example's next -32042 a new one.
    let next_page = loop {
        let (key, next) = url_request(&reply);
        if next != page {
            break next;
        }
        let state_value = reply["result"]["requestState"].clone();
        reply = call(
            &url,
            cart,
            json!({"inputResponses": {key: {"action": "accept"}}, "requestState": state_value}),
        )
        .await;
    };
    assert_ne!(elicitation_of(&next_page), id);
    let log = server.out();
    assert!(
        log.contains(&format!(
            "Payment confirmed for cart {cart} by user Demo User"
        )),
        "{log}"
    );
    assert!(
        log.contains(&format!(
            "Sending notifications/elicitation/complete notification for elicitation {id}"
        )),
        "{log}"
    );
    // The proxy's log has neither the page nor a token.
    let said = proxy.err();
    assert!(!said.contains("confirm-payment"), "{said}");
    assert!(said.contains("revision=2025-11-25"), "{said}");
}
