//! Helpers for rendering tests.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;

use crate::server::ServerIdentity;

/// A server identity for tests.
pub(crate) fn server() -> ServerIdentity {
    ServerIdentity {
        name: "demo-server".into(),
        title: Some("Demo Server".into()),
        version: Some("0.1.0".into()),
        transport: "stdio".into(),
    }
}

/// Draws with `draw` on a `w`x`h` test terminal and returns the screen as lines.
pub(crate) fn screen(w: u16, h: u16, draw: impl FnOnce(Rect, &mut Buffer)) -> Vec<String> {
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("test backend");
    term.draw(|f| {
        let area = f.area();
        draw(area, f.buffer_mut());
    })
    .expect("draw");
    lines(term.backend().buffer())
}

/// The buffer's rows as strings (trailing spaces trimmed).
pub(crate) fn lines(buf: &Buffer) -> Vec<String> {
    let area = buf.area;
    (0..area.height)
        .map(|y| {
            let mut s = String::new();
            for x in 0..area.width {
                s.push_str(buf[(x, y)].symbol());
            }
            s.trim_end().to_string()
        })
        .collect()
}

/// Whether any screen line contains `needle`.
pub(crate) fn has(screen: &[String], needle: &str) -> bool {
    screen.iter().any(|l| l.contains(needle))
}

/// Asserts that the screen contains `needle`, printing the screen otherwise.
#[track_caller]
pub(crate) fn assert_has(screen: &[String], needle: &str) {
    assert!(
        has(screen, needle),
        "{needle:?} not on screen:\n{}",
        screen.join("\n")
    );
}

/// Asserts that the screen does not contain `needle`.
#[track_caller]
pub(crate) fn assert_lacks(screen: &[String], needle: &str) {
    assert!(
        !has(screen, needle),
        "{needle:?} unexpectedly on screen:\n{}",
        screen.join("\n")
    );
}

/// A plain key press.
pub(crate) fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

/// Ctrl + letter.
pub(crate) fn ctrl(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)
}

/// Key presses typing `s`.
pub(crate) fn typing(s: &str) -> Vec<KeyEvent> {
    s.chars().map(|c| key(KeyCode::Char(c))).collect()
}
