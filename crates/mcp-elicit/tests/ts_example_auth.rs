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
//! The example's start (loopback only) and the payment page are in `ts_example_common`.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod auth_common;
mod support;
mod ts_example_common;

use auth_common::url_catcher;
use support::browser::Browser;
use support::{WAIT, free_port};
use ts_example_common::{Logged, confirm_payment, example_script, start_example, uuids};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-elicit");

fn cli(state: &Path) -> Command {
    let mut c = Command::new(BIN);
    c.env("XDG_STATE_HOME", state)
        .env_remove("RUST_LOG")
        .env_remove("BROWSER")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY");
    c
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
            confirm_payment(&mut demo, &page_url, &id, cart).await;
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
