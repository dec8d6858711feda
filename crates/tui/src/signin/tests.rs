//! Sign-in consent screen: state machine, layout and the screen loop.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{Event, KeyCode};
use tokio::sync::mpsc;

use super::run::run_on;
use super::{SignInAbort, SignInChoice, SignInConsentState, SignInReason, SignInRequest};
use crate::host::BrowserChoice;
use crate::testutil::{
    assert_buttons, assert_focused_button, assert_has, assert_lacks, key, lines, screen,
};

/// A realistic authorization request: long, with PKCE, state and resource.
fn auth_url(host: &str) -> String {
    format!(
        "https://{host}/authorize?response_type=code&client_id=mcp-elicit-cli\
         &redirect_uri=http%3A%2F%2F127.0.0.1%3A49152%2Fcallback&scope=mcp%20offline_access\
         &state=q8Yf1m3LrVqk0cP2sW9xZ4tNbH6uJ7aE&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM\
         &code_challenge_method=S256&resource=https%3A%2F%2Fmcp.example.com%2Fmcp"
    )
}

fn request(issuer: &str, page: &str) -> SignInRequest {
    SignInRequest {
        server: "https://mcp.example.com/mcp".into(),
        issuer: issuer.into(),
        authorization_url: page.into(),
        redirect_uri: "http://127.0.0.1:49152/callback".into(),
        scopes: vec!["mcp".into(), "offline_access".into()],
        reason: SignInReason::Required,
        kept: Some("~/.local/state/mcp-elicit/auth (readable by you only)".into()),
    }
}

fn state() -> SignInConsentState {
    SignInConsentState::new(request(
        "https://auth.example.com",
        &auth_url("auth.example.com"),
    ))
}

fn draw(s: &mut SignInConsentState, w: u16, h: u16) -> Vec<String> {
    screen(w, h, |area, buf| s.render(area, buf))
}

#[test]
fn names_both_servers_and_keeps_every_button_and_the_focus_on_screen_at_80x24() {
    let mut s = state();
    let sc = draw(&mut s, 80, 24);
    assert_has(&sc, "Sign-in for MCP server: https://mcp.example.com/mcp");
    // Focus starts on Copy, never on the button that opens the browser.
    assert_focused_button(&sc, "Copy URL (C)", 80);
    assert_buttons(
        &sc,
        &["Sign in at example.com (O)", "Copy URL (C)", "Cancel (Esc)"],
        80,
    );
    // Scrolling down shows the rest: the authorization server, the page, the scopes.
    let mut all = sc.join("\n");
    for _ in 0..40 {
        s.handle_key(key(KeyCode::Down));
        all.push_str(&draw(&mut s, 80, 24).join("\n"));
    }
    for needle in [
        "You sign in at this authorization server:",
        "https://auth.example.com",
        "Your browser will open this sign-in page:",
        "Permissions asked (scopes): mcp offline_access",
        "http://127.0.0.1:49152/callback (this",
        "kept for later runs",
    ] {
        assert!(all.contains(needle), "{needle:?} never shown:\n{all}");
    }
    let sc = draw(&mut s, 80, 24);
    assert_focused_button(&sc, "Copy URL (C)", 80);
}

#[test]
fn the_authorization_servers_domain_is_marked_under_its_url() {
    let mut s = SignInConsentState::new(request(
        "https://login.accounts.example.net",
        &auth_url("login.accounts.example.net"),
    ));
    let sc = draw(&mut s, 120, 60);
    let i = sc
        .iter()
        .position(|l| {
            l.trim().starts_with("https://login.accounts.example.net/") && !l.contains("authorize")
        })
        .expect("issuer line");
    let col = sc[i].find("example.net").expect("domain");
    assert_eq!(sc[i + 1].find('^'), Some(col), "{}\n{}", sc[i], sc[i + 1]);
    assert_eq!(sc[i + 1].trim(), "^".repeat("example.net".len()));
    // Another site than the MCP server's: said in words.
    assert_has(
        &sc,
        "different site (example.net) than the MCP server (example.com)",
    );
}

#[test]
fn a_punycode_authorization_server_needs_a_second_open_and_is_shown_in_both_forms() {
    let mut s =
        SignInConsentState::new(request("https://аpple.com", &auth_url("xn--pple-43d.com")));
    let sc = draw(&mut s, 120, 60);
    assert_has(&sc, "xn--pple-43d.com");
    assert_has(&sc, "аpple.com");
    assert_eq!(s.handle_key(key(KeyCode::Char('o'))), None);
    assert_has(&draw(&mut s, 120, 60), "press O again to open it anyway");
    assert_eq!(
        s.handle_key(key(KeyCode::Char('o'))),
        Some(SignInChoice::Open)
    );
}

#[test]
fn a_sign_in_page_on_another_host_is_a_warning() {
    let mut s = SignInConsentState::new(request(
        "https://auth.example.com",
        &auth_url("evil.example.org"),
    ));
    assert_has(
        &draw(&mut s, 120, 60),
        "The sign-in page is on evil.example.org, not on the authorization server auth.example.com",
    );
    assert_eq!(s.handle_key(key(KeyCode::Char('o'))), None);
    assert_eq!(
        s.handle_key(key(KeyCode::Char('o'))),
        Some(SignInChoice::Open)
    );
}

#[test]
fn blocked_pages_and_non_loopback_redirects_cannot_be_opened_or_copied() {
    let mut s = SignInConsentState::new(request("https://auth.example.com", "javascript:alert(1)"));
    assert!(s.is_blocked());
    assert_eq!(s.url(), None);
    let sc = draw(&mut s, 80, 24);
    assert_focused_button(&sc, "Cancel (Esc)", 80);
    assert_lacks(&sc, "Copy URL (C)");
    assert_eq!(s.handle_key(key(KeyCode::Char('o'))), None);
    assert_eq!(s.handle_key(key(KeyCode::Char('c'))), None);

    let mut r = request("https://auth.example.com", &auth_url("auth.example.com"));
    r.redirect_uri = "https://attacker.example/callback".into();
    let mut s = SignInConsentState::new(r);
    assert!(s.is_blocked());
    assert_has(&draw(&mut s, 120, 60), "which is not this machine");
    assert_eq!(s.handle_key(key(KeyCode::Char('o'))), None);
}

#[test]
fn after_opening_the_screen_waits_with_copy_and_cancel() {
    let mut s = state();
    assert_eq!(
        s.handle_key(key(KeyCode::Char('o'))),
        Some(SignInChoice::Open)
    );
    s.set_opened(Ok(()));
    assert!(s.is_waiting());
    let sc = draw(&mut s, 80, 24);
    assert_has(&sc, "Waiting for you to finish");
    assert_focused_button(&sc, "Cancel (Esc)", 80);
    assert_buttons(&sc, &["Copy URL (C)"], 80);
    assert_eq!(s.handle_key(key(KeyCode::Char('o'))), None);
    assert_eq!(s.handle_key(key(KeyCode::Esc)), Some(SignInChoice::Cancel));
}

#[test]
fn a_missing_browser_keeps_the_screen_and_offers_copy() {
    let mut s = state();
    s.handle_key(key(KeyCode::Char('o')));
    s.set_opened(Err("no browser is configured (--browser none)".into()));
    assert!(!s.is_waiting());
    let sc = draw(&mut s, 80, 24);
    assert_has(&sc, "Could not start a browser");
    assert_focused_button(&sc, "Copy URL (C)", 80);
}

#[test]
fn hostile_text_is_neutralised() {
    let mut r = request("https://auth.example.com", &auth_url("auth.example.com"));
    r.scopes = vec!["mcp\u{1b}]0;pwned\u{7}".into()];
    let mut s = SignInConsentState::new(r);
    let all = draw(&mut s, 120, 60).join("\n");
    assert!(!all.contains('\u{1b}'), "{all}");
}

fn terminal() -> Terminal<TestBackend> {
    Terminal::new(TestBackend::new(80, 24)).expect("test backend")
}

#[tokio::test]
async fn the_loop_ends_when_the_redirect_arrives() {
    let mut t = terminal();
    let (_tx, rx) = mpsc::unbounded_channel::<Event>();
    let r = run_on(
        &mut t,
        state(),
        rx,
        |_: &str| Ok(()),
        BrowserChoice::None,
        async { 42 },
    )
    .await;
    assert_eq!(r, Ok(42));
}

#[tokio::test]
async fn cancel_ends_the_loop_without_waiting_for_the_redirect() {
    let mut t = terminal();
    let (tx, rx) = mpsc::unbounded_channel::<Event>();
    tx.send(Event::Key(key(KeyCode::Char('c')))).expect("send");
    tx.send(Event::Key(key(KeyCode::Esc))).expect("send");
    let copied = std::sync::Mutex::new(Vec::new());
    let r = run_on(
        &mut t,
        state(),
        rx,
        |u: &str| {
            copied.lock().expect("lock").push(u.to_owned());
            Ok(())
        },
        BrowserChoice::None,
        std::future::pending::<()>(),
    )
    .await;
    assert_eq!(r, Err(SignInAbort::Cancelled));
    // Copy handed over the normalized sign-in page, exactly once.
    let copied = copied.into_inner().expect("lock");
    assert_eq!(copied.len(), 1);
    assert!(copied[0].starts_with("https://auth.example.com/authorize?"));
    let shown = lines(t.backend().buffer()).join("\n");
    assert!(
        shown.contains("this screen waits for the sign-in"),
        "{shown}"
    );
}
