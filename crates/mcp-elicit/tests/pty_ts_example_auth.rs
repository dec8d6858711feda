//! `mcp-elicit connect` in a real pseudo-terminal (a private tmux server) against the
//! TypeScript SDK's URL-elicitation example server (`elicitationUrlExample.js`) with its
//! demo OAuth provider, end to end (issue 13 item 5).
//!
//! The sign-in consent screen names the MCP server and the authorization server before
//! anything opens; O (twice if a warning asks) starts the "browser" (a program handing
//! the URL to the test's reqwest browser, which the demo provider signs in at once); the
//! host lists the example's tools; `payment-confirm`, run with a cart id, fails with
//! -32042 and its URL elicitation is reviewed on screen (the link's `session` query
//! parameter flagged as a credential), consented to by Copy and completed on the
//! server's page (GET, then the form POSTed with "Confirm Payment"). What a person then
//! sees: the server's completion notice, and the host calling the tool again, which
//! (the example asks after every confirmation) brings a new step with a new
//! elicitation; Esc cancels the call, which the result screen says. No token on any
//! screen.

use std::time::Instant;

mod auth_common;
mod pty_common;
mod support;
mod ts_example_common;

use auth_common::url_catcher;
use pty_common::{GUARD, Pty, sh_quote, wait_file};
use support::browser::Browser;
use support::free_port;
use ts_example_common::{confirm_payment, example_script, start_example, uuids};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-elicit");

/// The value of query parameter `name` in `url`.
fn query(url: &str, name: &str) -> String {
    let url = reqwest::Url::parse(url).expect("a URL");
    url.query_pairs()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
        .unwrap_or_else(|| panic!("no {name} in {url}"))
}

/// The first whitespace-free word of `screen` starting with `prefix`.
fn word_at(screen: &str, prefix: &str) -> String {
    let at = screen
        .find(prefix)
        .unwrap_or_else(|| panic!("no {prefix} on screen:\n{screen}"));
    screen[at..]
        .chars()
        .take_while(|c| !c.is_whitespace())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connect_signs_in_at_the_ts_example_and_confirms_a_payment_on_screen() {
    let Some(script) = example_script() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let (mcp_port, auth_port) = (free_port(), free_port());
    let server = start_example(&script, dir.path(), mcp_port, auth_port);
    let mcp = format!("http://localhost:{mcp_port}/mcp");
    let issuer = format!("http://localhost:{auth_port}/");
    let (browser, opened) = url_catcher(dir.path());
    let state = dir.path().join("state");
    let command = format!(
        "env -u DISPLAY -u WAYLAND_DISPLAY -u BROWSER -u RUST_LOG XDG_STATE_HOME={} {} connect {} --browser {}",
        sh_quote(&state.display().to_string()),
        sh_quote(BIN),
        sh_quote(&mcp),
        sh_quote(&browser.display().to_string()),
    );
    let pty = Pty::start(&command, 160, 50);
    let mut screens = Vec::new();

    // The consent screen first: both servers named, nothing opened yet.
    let screen = pty
        .wait_for(&[
            &format!("Sign-in for MCP server: {mcp}"),
            "You sign in at this authorization server:",
            &format!("  {issuer}\n"),
            &format!("Your browser will open this sign-in page:\n  {issuer}authorize?"),
            "< Sign in at localhost (O) >",
            "> < Copy URL (C) >",
        ])
        .await;
    assert!(!opened.exists(), "opened before consent:\n{screen}");
    screens.push(screen);
    pty.keys(&["o"]);
    if !opened.exists() && pty.screen().contains("press O again") {
        pty.keys(&["o"]);
    }
    let url = wait_file(&opened, &pty).await;
    assert!(url.starts_with(&format!("{issuer}authorize?")), "{url}");
    screens.push(
        pty.wait_for(&["Waiting for you to finish signing in"])
            .await,
    );
    let mut demo = Browser::new("demo");
    let done = demo.open(&url).await;
    assert!(
        done.url.as_str().starts_with("http://127.0.0.1:") && done.body.contains("Signed in"),
        "{:?}\n{}\n{}",
        demo.visited,
        done.body,
        pty.screen()
    );

    // Signed in: the host lists the example's tools; payment-confirm with a cart id.
    screens.push(
        pty.wait_for(&[
            "Tools from server: url-elicitation-http-server",
            "payment-confirm",
            "third-party-auth",
        ])
        .await,
    );
    pty.keys(&["Home"]);
    pty.wait_for(&["> payment-confirm"]).await;
    pty.keys(&["Enter"]);
    pty.wait_for(&["Tool: payment-confirm", "cartId *", "Review & run (Ctrl-S)"])
        .await;
    let cart = "cart-13";
    pty.type_text(cart);
    pty.wait_for(&[&format!("[{cart} ")]).await;
    pty.keys(&["C-s"]);
    pty.wait_for(&[
        "Review tool arguments from server",
        &format!("\"cartId\": \"{cart}\""),
    ])
    .await;
    pty.keys(&["Enter"]);

    // -32042: the steps, then the URL consent screen (nothing opened without consent).
    let page_prefix = format!("http://localhost:{mcp_port}/confirm-payment?");
    let steps = pty
        .wait_for(&[
            "Tool needs browser steps from server: url-elicitation-http-server",
            "cannot run until you complete 1 step in your browser (error -32042)",
            &page_prefix,
            "> < Review each step >",
        ])
        .await;
    screens.push(steps);
    pty.keys(&["Enter"]);
    let screen = pty
        .wait_for(&[
            "Tool needs a web page from server: url-elicitation-http-server",
            "This tool requires a payment confirmation. Open the link to confirm payment!",
            "The link carries what looks like a credential in its query parameter \"session\"",
            "< Open localhost (O) >",
            "> < Copy URL (C) >",
            "< Decline (D) >",
        ])
        .await;
    let page_url = word_at(&screen, &page_prefix);
    let first = query(&page_url, "elicitation");
    assert_eq!(query(&page_url, "cartId"), cart, "{screen}");
    screens.push(screen);
    // Consent by copy; the test's browser opens the URL and confirms the payment.
    pty.keys(&["c"]);
    screens.push(pty.wait_for(&["I finished in my browser (F)"]).await);
    confirm_payment(&mut demo, &page_url, &first, cart).await;

    // What a person sees after one confirmation: the server's completion notice, and
    // the host calling the tool again, which asks for the next step: a new elicitation.
    let start = Instant::now();
    let (screen, next) = loop {
        let s = pty.screen();
        if s.contains(
            "Notice: url-elicitation-http-server reports this step complete: This tool requires a payment confirmation.",
        ) && s.contains("Tool needs browser steps from server")
            && s.contains(&page_prefix)
        {
            let next = query(&word_at(&s, &page_prefix), "elicitation");
            if next != first {
                break (s, next);
            }
        }
        assert!(
            start.elapsed() < GUARD,
            "no completion and next step on screen:\n{s}\n{}",
            server.out()
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    assert!(screen.contains("> < Review each step >"), "{screen}");
    screens.push(screen);
    let log = server.out();
    assert_eq!(
        log.matches(&format!(
            "Payment confirmed for cart {cart} by user Demo User"
        ))
        .count(),
        1,
        "{log}"
    );

    // Cancel the call: the result says so; back to the tools, quit.
    pty.keys(&["Escape"]);
    screens.push(
        pty.wait_for(&[
            "Result of tool \"payment-confirm\" from server: url-elicitation-http-server",
            "The tool did not run.",
            "You cancelled a browser step this tool needs (cancel), so it was not run.",
        ])
        .await,
    );
    pty.keys(&["Enter"]);
    screens.push(pty.wait_for(&["Tools from server"]).await);
    pty.keys(&["q"]);
    pty.wait_for(&["EXIT=0"]).await;

    // No token on screen: every UUID shown is the client id of the authorization URL,
    // the session or an elicitation (the demo provider's tokens are UUIDs too).
    let mut known = uuids(&url);
    known.extend([query(&page_url, "session"), first, next]);
    for s in &screens {
        for u in uuids(s) {
            assert!(
                known.contains(&u),
                "{u} is neither the client, the session nor an elicitation: a token?\n{s}"
            );
        }
    }
}
