//! `mcp-elicit connect` to a server that requires sign-in, in a real pseudo-terminal
//! (a private tmux server; keys with `send-keys`, the screen with `capture-pane`):
//! `serve --issuer` with the real OpenID provider. The sign-in consent screen names the
//! MCP server and the authorization server before anything opens; O (twice: the
//! authorization server is an IP address, a warning) starts the "browser" (a program
//! handing the URL to the test's reqwest browser, which signs in as alice); the host then
//! lists the tools, and `set_api_key`'s URL elicitation is consented to on screen and
//! answered on the connect page; the result shows on screen.

use std::time::{Duration, Instant};

mod auth_common;
mod pty_common;
mod support;

use auth_common::{serve, start_provider, url_catcher};
use pty_common::{GUARD, Pty, sh_quote, wait_file};
use support::browser::Browser;
use support::{answer_page, free_port};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-elicit");

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connect_signs_in_through_the_consent_screen_then_answers_a_url_elicitation() {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let mcp = format!("{base}/mcp");
    let (_provider, issuer) = start_provider(&base).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let _server = serve(dir.path(), port, &issuer);
    let (script, opened) = url_catcher(dir.path());
    let state = dir.path().join("state");
    let command = format!(
        "env -u DISPLAY -u WAYLAND_DISPLAY -u BROWSER XDG_STATE_HOME={} {} connect {} --client-id mcp-cli --browser {}",
        sh_quote(&state.display().to_string()),
        sh_quote(BIN),
        sh_quote(&mcp),
        sh_quote(&script.display().to_string()),
    );
    let pty = Pty::start(&command, 160, 50);

    // The consent screen first: both servers named, nothing opened yet.
    let screen = pty
        .wait_for(&[
            &format!("Sign-in for MCP server: {mcp}"),
            "You sign in at this authorization server:",
            &issuer,
            "< Sign in at 127.0.0.1 (O) >",
            "> < Copy URL (C) >",
        ])
        .await;
    assert!(!opened.exists(), "opened before consent:\n{screen}");
    pty.keys(&["o"]);
    let screen = pty.screen();
    if screen.contains("press O again") || !opened.exists() {
        pty.wait_for(&["press O again"]).await;
        pty.keys(&["o"]);
    }
    let url = wait_file(&opened, &pty).await;
    assert!(url.starts_with(&issuer), "{url}");
    pty.wait_for(&["Waiting for you to finish signing in"])
        .await;
    let mut alice = Browser::new("alice");
    let done = alice.open(&url).await;
    assert!(
        done.body.contains("Signed in"),
        "{}\n{}",
        done.url,
        done.body
    );

    // Signed in: the host lists the tools; set_api_key asks for a web page.
    pty.wait_for(&["Tools from server", "set_api_key"]).await;
    pty.keys(&["Home"]);
    pty.wait_for(&["> set_api_key"]).await;
    pty.keys(&["Enter"]);
    pty.wait_for(&["Tool: set_api_key", "Review & run (Ctrl-S)"])
        .await;
    pty.keys(&["C-s"]);
    pty.wait_for(&["Review tool arguments from server"]).await;
    pty.keys(&["Enter"]);
    let start = Instant::now();
    let screen = loop {
        let s = pty.screen();
        if s.contains("Tool needs browser steps from server") {
            pty.keys(&["Enter"]);
        } else if s.contains("elicitationId=") && s.contains("Copy URL (C)") {
            break s;
        }
        assert!(start.elapsed() < GUARD, "no URL consent screen:\n{s}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let at = screen
        .find(&format!("{base}/connect?elicitationId="))
        .expect("connect URL on screen");
    let connect: String = screen[at..]
        .chars()
        .take_while(|c| !c.is_whitespace())
        .collect();
    let id = connect
        .split("elicitationId=")
        .nth(1)
        .expect("id")
        .to_owned();
    // Consent by copy (the URL is opened by the test's browser), then answer the page.
    pty.keys(&["c"]);
    let secret = format!("sk_pty_auth_{}", std::process::id());
    answer_page(
        &mut alice,
        &base,
        &connect,
        &id,
        "/connect/secret",
        &[("secret", &secret)],
    )
    .await;
    // Done in the browser: say so (F), unless a completion notice already closed the
    // screen.
    if pty.screen().contains("I finished in my browser (F)") {
        pty.keys(&["f"]);
    }
    let screen = pty.wait_for(&["on file"]).await;
    assert!(!screen.contains(&secret), "{screen}");
    assert!(!screen.contains("eyJ"), "a token on screen:\n{screen}");
}
