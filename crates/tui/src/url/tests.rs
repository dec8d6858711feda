//! URL consent and waiting views: state-machine and rendering tests.

use std::time::Duration;

use mcp_elicit_core::url_safety::analyze;
use ratatui::crossterm::event::KeyCode;

use super::{UrlChoice, UrlConsentState, UrlContext, WaitChoice, WaitingState};
use crate::testutil::{assert_has, assert_lacks, ctrl, key, screen, server};

fn consent(url: &str) -> UrlConsentState {
    UrlConsentState::new(
        server(),
        "Sign in to connect your calendar.",
        analyze(url),
        UrlContext::Request,
    )
}

fn draw(s: &mut UrlConsentState, w: u16, h: u16) -> Vec<String> {
    screen(w, h, |area, buf| s.render(area, buf))
}

/// The column range of `needle` in `line`, in characters.
fn cols(line: &str, needle: &str) -> (usize, usize) {
    let byte = line.find(needle).expect("needle on line");
    let start = line[..byte].chars().count();
    (start, start + needle.chars().count())
}

#[test]
fn shows_server_message_full_url_and_marks_the_registrable_domain() {
    let mut s = consent("https://accounts.google.com.evil.com/login?next=%2Fhome");
    let screen = draw(&mut s, 80, 24);
    assert_has(&screen, "URL request from server: Demo Server");
    assert_has(&screen, "Sign in to connect your calendar.");
    assert_has(
        &screen,
        "https://accounts.google.com.evil.com/login?next=%2Fhome",
    );
    assert_has(&screen, "Domain (marked ^ above): evil.com");
    // The caret line sits exactly under "evil.com" in the URL line.
    let i = screen
        .iter()
        .position(|l| l.contains("https://accounts"))
        .expect("url line");
    let (a, b) = cols(&screen[i], "evil.com");
    let carets = &screen[i + 1];
    assert_eq!(
        cols(carets, "^^^^^^^^"),
        (a, b),
        "\n{}\n{}",
        screen[i],
        carets
    );
    assert_eq!(carets.trim(), "^".repeat(8));
}

#[test]
fn domain_is_bold_and_underlined_in_the_buffer() {
    let mut s = consent("https://mcp.example.com/connect");
    let mut styled = false;
    screen(80, 24, |area, buf| {
        s.render(area, buf);
        for y in 0..area.height {
            let row: String = (0..area.width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect();
            if let Some(i) = row.find("https://mcp.") {
                let x = u16::try_from(i + "https://mcp.".len()).unwrap();
                let m = buf[(x, y)].modifier;
                styled = m.contains(ratatui::style::Modifier::BOLD)
                    && m.contains(ratatui::style::Modifier::UNDERLINED);
            }
        }
    });
    assert!(styled, "the registrable domain is not bold+underlined");
}

#[test]
fn punycode_host_is_shown_in_unicode_and_ascii_with_a_warning() {
    let mut s = consent("https://аpple.com/"); // Cyrillic 'а'
    let screen = draw(&mut s, 80, 30);
    assert_has(&screen, "xn--pple-43d.com");
    assert_has(&screen, "Host as shown: аpple.com");
    assert_has(
        &screen,
        "Host in ASCII (what the browser contacts): xn--pple-43d.com",
    );
    assert_has(&screen, "Warning:");
}

#[test]
fn every_warning_is_listed_in_words() {
    let a = analyze("http://user@198.51.100.7:8080/pay?access_token=abc");
    let n = a.warnings.len();
    assert!(n >= 3);
    let mut s = UrlConsentState::new(server(), "m", a.clone(), UrlContext::Request);
    let screen = draw(&mut s, 100, 60);
    for f in &a.warnings {
        let first_words: String = f.message.chars().take(30).collect();
        assert_has(&screen, &first_words);
    }
    assert!(
        screen
            .iter()
            .filter(|l| l.starts_with("Warning: ") || l.starts_with("Note: "))
            .count()
            >= n.min(3)
    );
}

#[test]
fn blocked_urls_cannot_be_opened_or_copied() {
    let mut s = consent("javascript:alert(1)");
    assert!(!s.can_open());
    let screen = draw(&mut s, 80, 24);
    assert_has(&screen, "Blocked:");
    assert_has(
        &screen,
        "Open in browser: not available, this URL is blocked.",
    );
    assert_lacks(&screen, "< Open in browser");
    assert_lacks(&screen, "< Copy URL");
    assert_eq!(s.handle_key(key(KeyCode::Char('o'))), None);
    assert_eq!(s.handle_key(key(KeyCode::Char('c'))), None);
    assert_has(&draw(&mut s, 80, 24), "cannot be opened or copied");
    assert_eq!(s.url(), None);
    assert_eq!(
        s.handle_key(key(KeyCode::Char('d'))),
        Some(UrlChoice::Decline)
    );
}

#[test]
fn clean_url_opens_on_o_and_focus_never_starts_on_open() {
    let mut s = consent("https://mcp.example.com/connect?elicitationId=1");
    // Enter on the initial focus does not open.
    assert_eq!(s.handle_key(key(KeyCode::Enter)), Some(UrlChoice::Copy));
    assert_eq!(s.handle_key(key(KeyCode::Char('o'))), Some(UrlChoice::Open));
    assert_eq!(
        s.url(),
        Some("https://mcp.example.com/connect?elicitationId=1")
    );
}

#[test]
fn urls_with_warnings_need_a_second_confirmation() {
    let mut s = consent("http://example.com/");
    assert_eq!(s.handle_key(key(KeyCode::Char('o'))), None);
    assert_has(&draw(&mut s, 80, 24), "press O again to open it anyway");
    assert_eq!(s.handle_key(key(KeyCode::Char('o'))), Some(UrlChoice::Open));
}

#[test]
fn decline_cancel_and_stop_asking_are_distinct() {
    let mut s = consent("https://example.com/");
    assert_eq!(s.handle_key(key(KeyCode::Esc)), Some(UrlChoice::Cancel));
    assert_eq!(s.handle_key(ctrl('c')), Some(UrlChoice::Cancel));
    assert_eq!(s.handle_key(ctrl('d')), Some(UrlChoice::Decline));
    assert_has(&draw(&mut s, 80, 30), "[ ] Stop asking");
    s.handle_key(ctrl('t'));
    assert!(s.stop_asking());
    assert_has(&draw(&mut s, 80, 30), "[x] Stop asking");
    assert_eq!(
        s.handle_key(key(KeyCode::Char('d'))),
        Some(UrlChoice::StopAsking)
    );
    // Buttons: Tab to Decline, Enter.
    let mut s = consent("https://example.com/");
    s.handle_key(key(KeyCode::Tab));
    assert_has(&draw(&mut s, 80, 30), "> < Decline (D) >");
    assert_eq!(s.handle_key(key(KeyCode::Enter)), Some(UrlChoice::Decline));
}

#[test]
fn copy_result_is_reported() {
    let mut s = consent("https://example.com/");
    assert_eq!(s.handle_key(key(KeyCode::Char('c'))), Some(UrlChoice::Copy));
    s.set_copied(Ok(()));
    let sc = draw(&mut s, 80, 24);
    assert_has(&sc, "Asked your terminal to copy the URL (OSC 52).");
    assert_has(&sc, "select the URL above instead");
    assert_eq!(
        s.handle_key(key(KeyCode::Char('f'))),
        Some(UrlChoice::Finished)
    );
    s.set_copied(Err("no terminal".into()));
    assert_has(&draw(&mut s, 80, 24), "Could not copy the URL: no terminal");
}

#[test]
fn long_urls_wrap_completely_and_keep_their_domain_marked() {
    let long = format!("https://login.example.org/{}", "a".repeat(300));
    let mut s = consent(&long);
    let screen = draw(&mut s, 80, 40);
    let joined: String = screen
        .iter()
        .filter(|l| l.starts_with("  ") && !l.trim_start().starts_with('^'))
        .map(|l| l.trim())
        .collect();
    assert!(joined.contains(&long), "the full URL is not all on screen");
    assert_has(&screen, "^^^^^^^^^^^");
}

#[test]
fn required_by_tool_context_names_the_tool() {
    let mut s = UrlConsentState::new(
        server(),
        "Authorize access",
        analyze("https://example.com/connect"),
        UrlContext::RequiredByTool {
            tool: "list_files".into(),
            step: 2,
            of: 3,
        },
    );
    let screen = draw(&mut s, 80, 24);
    assert_has(&screen, "Tool needs a web page from server");
    assert_has(&screen, "Step 2 of 3: the tool \"list_files\" cannot run");
}

#[test]
fn small_terminals_do_not_panic() {
    for (w, h) in [(1, 1), (12, 4), (40, 10), (80, 24)] {
        let mut s = consent("https://xn--80ak6aa92e.com/");
        let _ = draw(&mut s, w, h);
        for _ in 0..50 {
            s.handle_key(key(KeyCode::Down));
        }
        let _ = draw(&mut s, w, h);
    }
}

#[test]
fn waiting_view_shows_spinner_elapsed_time_and_controls() {
    let mut w = WaitingState::new(
        server(),
        "sign-in",
        vec!["el-1".into(), "el-2".into()],
        Some("example.com".into()),
    );
    let s = screen(80, 24, |area, buf| {
        w.render(Duration::from_secs(75), area, buf)
    });
    assert_has(&s, "Waiting for completion from server: Demo Server");
    assert_has(&s, "Elapsed: 1:15");
    assert_has(&s, "Page opened at: example.com");
    assert_has(&s, "Still pending: 2");
    crate::testutil::assert_buttons(&s, &WAIT_BUTTONS, 80);
    let s2 = screen(80, 24, |area, buf| {
        w.render(Duration::from_millis(75_250), area, buf)
    });
    let spin = |s: &[String]| {
        s.iter()
            .find(|l| l.contains("Waiting for Demo Server"))
            .cloned()
    };
    assert_ne!(spin(&s), spin(&s2), "spinner should advance");
    assert!(!w.complete("unknown"));
    assert!(!w.complete("el-1"));
    assert!(w.complete("el-2"));
    w.set_stalled(true);
    let s = screen(80, 24, |area, buf| {
        w.render(Duration::from_secs(400), area, buf)
    });
    assert_has(&s, "No completion notice has arrived yet.");
    assert_eq!(
        w.handle_key(key(KeyCode::Char('r'))),
        Some(WaitChoice::RetryNow)
    );
    assert_eq!(
        w.handle_key(key(KeyCode::Enter)),
        Some(WaitChoice::KeepWaiting)
    );
    assert_eq!(w.handle_key(key(KeyCode::Esc)), Some(WaitChoice::Cancel));
}

#[test]
fn waiting_for_a_call_only_offers_cancel() {
    let mut w = WaitingState::call(server(), "book");
    let s = screen(80, 24, |area, buf| {
        w.render(Duration::from_secs(3), area, buf)
    });
    assert_has(&s, "Waiting for tool result from server: Demo Server");
    assert_has(&s, "the tool \"book\" is running");
    assert_has(&s, "Elapsed: 0:03");
    assert_lacks(&s, "Retry now");
    assert_eq!(w.handle_key(key(KeyCode::Char('r'))), None);
    assert_eq!(w.handle_key(key(KeyCode::Esc)), Some(WaitChoice::Cancel));
}

const WAIT_BUTTONS: [&str; 3] = ["Retry now (R)", "Keep waiting (W)", "Cancel (Esc)"];

fn stalled_wait(pending: usize) -> WaitingState {
    let mut w = WaitingState::new(
        server(),
        "the tool \"connect\" waits for your browser steps",
        (0..pending).map(|i| format!("el-{i}")).collect(),
        None,
    );
    w.set_labels(
        (0..pending)
            .map(|i| (format!("el-{i}"), format!("Step {i} at example.com")))
            .collect(),
    );
    w.set_stalled(true);
    w
}

fn draw_wait(w: &mut WaitingState, width: u16, height: u16) -> Vec<String> {
    screen(width, height, |area, buf| {
        w.render(Duration::from_secs(90), area, buf)
    })
}

/// Issue 15: the waiting view had key hints only; Retry now / Keep waiting / Cancel are
/// buttons pinned below the body, focused (Keep waiting first, so Enter keeps its
/// meaning) and reachable with Tab, at 80x24 and on a tiny terminal.
#[test]
fn waiting_buttons_are_pinned_focused_and_reachable_at_80x24_and_40x12() {
    for (width, height) in [(80, 24), (40, 12)] {
        let mut w = stalled_wait(2);
        let s = draw_wait(&mut w, width, height);
        crate::testutil::assert_pinned(&s, &WAIT_BUTTONS, width);
        crate::testutil::assert_focused_button(&s, "Keep waiting (W)", width);
        assert_eq!(w.handle_key(key(KeyCode::Tab)), None);
        let s = draw_wait(&mut w, width, height);
        crate::testutil::assert_focused_button(&s, "Cancel (Esc)", width);
        assert_eq!(w.handle_key(key(KeyCode::Enter)), Some(WaitChoice::Cancel));
        assert_eq!(w.handle_key(key(KeyCode::Tab)), None);
        let s = draw_wait(&mut w, width, height);
        crate::testutil::assert_focused_button(&s, "Retry now (R)", width);
        assert_eq!(
            w.handle_key(key(KeyCode::Char(' '))),
            Some(WaitChoice::RetryNow)
        );
        assert_eq!(w.handle_key(key(KeyCode::Right)), None);
        assert_eq!(
            w.handle_key(key(KeyCode::Enter)),
            Some(WaitChoice::KeepWaiting)
        );
    }
}

/// While a call runs, Stop waiting is a pinned button too; it takes the focus only
/// from Tab, so a stray Enter (say, the one that started the call) stops nothing.
#[test]
fn a_running_call_pins_stop_waiting_and_enter_alone_does_not_press_it() {
    for (width, height) in [(80, 24), (40, 12)] {
        let mut w = WaitingState::call(server(), "book");
        let s = draw_wait(&mut w, width, height);
        crate::testutil::assert_pinned(&s, &["Stop waiting (Esc)"], width);
        assert_eq!(crate::testutil::focus_markers(&s), 0, "{}", s.join("\n"));
        assert_eq!(w.handle_key(key(KeyCode::Enter)), None);
        assert_eq!(w.handle_key(key(KeyCode::Tab)), None);
        let s = draw_wait(&mut w, width, height);
        crate::testutil::assert_focused_button(&s, "Stop waiting (Esc)", width);
        assert_eq!(w.handle_key(key(KeyCode::Enter)), Some(WaitChoice::Cancel));
    }
}

/// Bad input: 200 pending steps with 10,000-character labels, a 2,000-character page
/// domain, a server named with combining marks: rows fit, the buttons stay pinned and
/// focused, and the body scrolls to its last line.
#[test]
fn a_hostile_wait_scrolls_under_pinned_buttons() {
    let zalgo: String = std::iter::once('Z')
        .chain(std::iter::repeat_n('\u{0301}', 2000))
        .collect();
    for (width, height) in [(80, 24), (40, 12)] {
        let mut w = WaitingState::new(
            crate::server::ServerIdentity {
                name: zalgo.clone(),
                title: Some(zalgo.clone()),
                version: Some(zalgo.clone()),
                transport: "stdio".into(),
            },
            zalgo.clone(),
            (0..200).map(|i| format!("el-{i}")).collect(),
            Some(format!("{}.example.com", "d".repeat(2000))),
        );
        w.set_labels(
            (0..200)
                .map(|i| {
                    (
                        format!("el-{i}"),
                        format!("{i}: {}", "Read me. ".repeat(1112)),
                    )
                })
                .collect(),
        );
        w.set_stalled(true);
        let s = draw_wait(&mut w, width, height);
        crate::testutil::assert_rows_fit(&s, width);
        crate::testutil::assert_pinned(&s, &WAIT_BUTTONS, width);
        crate::testutil::assert_focused_button(&s, "Keep waiting (W)", width);
        assert_has(&s, "↓ more below");
        for _ in 0..100_000 {
            w.handle_key(key(KeyCode::PageDown));
        }
        let s = draw_wait(&mut w, width, height);
        crate::testutil::assert_rows_fit(&s, width);
        crate::testutil::assert_pinned(&s, &WAIT_BUTTONS, width);
        crate::testutil::assert_focused_button(&s, "Keep waiting (W)", width);
        // The very end: more above, nothing more below.
        assert_has(&s, "↑ more above");
        assert_lacks(&s, "more below");
    }
}

const CONSENT_BUTTONS: [&str; 3] = ["Copy URL (C)", "Decline (D)", "Cancel (Esc)"];

#[test]
fn every_consent_button_is_on_the_first_screen_at_80x24_and_120x40() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut s =
            consent("https://accounts.google.com.evil.com/login?next=%2Fhome&access_token=x");
        let sc = draw(&mut s, w, h);
        crate::testutil::assert_buttons(&sc, &CONSENT_BUTTONS, w);
        crate::testutil::assert_buttons(&sc, &["Open evil.com (O)"], w);
        // Focus starts on Copy, never on Open, and is visible.
        crate::testutil::assert_focused_button(&sc, "Copy URL (C)", w);
        for _ in 0..3 {
            s.handle_key(key(KeyCode::Tab));
            let sc = draw(&mut s, w, h);
            assert_eq!(crate::testutil::focus_markers(&sc), 1, "{}", sc.join("\n"));
        }
    }
}

#[test]
fn the_host_is_named_once_when_it_is_the_highlighted_part() {
    let mut s = consent("http://127.0.0.1:8080/demo");
    let sc = draw(&mut s, 80, 24);
    assert_has(&sc, "Host (marked ^ above): 127.0.0.1");
    assert_lacks(&sc, "Host: 127.0.0.1");
    // A host below the registrable domain is still shown.
    let mut s = consent("https://mcp.example.com/x");
    assert_has(&draw(&mut s, 80, 40), "Host: mcp.example.com");
}

#[test]
fn a_two_thousand_character_url_scrolls_with_the_buttons_pinned() {
    let url = format!("https://login.example.org/{}?q=end", "p".repeat(2000));
    let mut s = consent(&url);
    let sc = draw(&mut s, 80, 24);
    crate::testutil::assert_buttons(&sc, &CONSENT_BUTTONS, 80);
    assert_has(&sc, "↓ more below");
    // Scrolling reaches the end of the URL and the warnings; the buttons stay.
    for _ in 0..200 {
        s.handle_key(key(KeyCode::Down));
    }
    let sc = draw(&mut s, 80, 24);
    assert_has(&sc, "Only open it if you trust example.org");
    crate::testutil::assert_buttons(&sc, &CONSENT_BUTTONS, 80);
}

#[test]
fn a_ten_thousand_character_message_and_a_combining_title_keep_the_buttons() {
    let zalgo: String = std::iter::once('Z')
        .chain(std::iter::repeat_n('\u{0301}', 2000))
        .collect();
    let mut s = UrlConsentState::new(
        crate::server::ServerIdentity {
            name: zalgo.clone(),
            title: Some(zalgo.clone()),
            version: Some(zalgo),
            transport: "stdio".into(),
        },
        "Read me. ".repeat(1200),
        analyze("https://example.com/"),
        UrlContext::Request,
    );
    let sc = draw(&mut s, 80, 24);
    crate::testutil::assert_buttons(&sc, &CONSENT_BUTTONS, 80);
    for l in &sc {
        assert!(
            crate::text::width(l) <= 80,
            "a row is wider than the screen"
        );
    }
}
