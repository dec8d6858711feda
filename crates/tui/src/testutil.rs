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

/// The row showing the button `name` (drawn `< name >`), asserting what a person must
/// see: the whole button on one visible row of a `height`-row screen, not cut at the
/// right edge and not wrapped.
#[track_caller]
pub(crate) fn button_row(screen: &[String], name: &str, width: u16) -> usize {
    let label = format!("< {name} >");
    let rows: Vec<usize> = screen
        .iter()
        .enumerate()
        .filter(|(_, l)| l.contains(&label))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(
        rows.len(),
        1,
        "button {label:?} should be on exactly one visible row:\n{}",
        screen.join("\n")
    );
    let row = rows[0];
    let line = &screen[row];
    let end = line[..line.find(&label).unwrap_or(0)].chars().count() + label.chars().count();
    assert!(
        end <= usize::from(width),
        "button {label:?} runs past column {width}:\n{}",
        screen.join("\n")
    );
    row
}

/// Asserts every button in `names` is fully visible (see [`button_row`]).
#[track_caller]
pub(crate) fn assert_buttons(screen: &[String], names: &[&str], width: u16) {
    for n in names {
        button_row(screen, n, width);
    }
}

/// Asserts that the focused button is `name`: its row shows the focus marker `> `
/// right before it, and no other row carries a focus marker.
#[track_caller]
pub(crate) fn assert_focused_button(screen: &[String], name: &str, width: u16) {
    let row = button_row(screen, name, width);
    assert!(
        screen[row].contains(&format!("> < {name} >")),
        "button {name:?} is not marked focused:\n{}",
        screen.join("\n")
    );
    assert_eq!(
        focus_markers(screen),
        1,
        "exactly one focus marker:\n{}",
        screen.join("\n")
    );
}

/// How many focus markers (`> ` at the start of a row, or before a button) are visible.
pub(crate) fn focus_markers(screen: &[String]) -> usize {
    screen
        .iter()
        .map(|l| {
            usize::from(l.starts_with("> ")) + l.matches("> < ").count()
                - usize::from(l.starts_with("> < "))
        })
        .sum()
}

/// Asserts a focused field row is visible: some row starts with the focus marker and
/// contains `text`.
#[track_caller]
pub(crate) fn assert_focused_row(screen: &[String], text: &str) {
    assert!(
        screen
            .iter()
            .any(|l| l.starts_with("> ") && l.contains(text)),
        "no visible focused row with {text:?}:\n{}",
        screen.join("\n")
    );
    assert_eq!(
        focus_markers(screen),
        1,
        "exactly one focus marker:\n{}",
        screen.join("\n")
    );
}

/// Asserts every row fits in `width` display columns (combining marks take none); never
/// prints a hostile row whole.
#[track_caller]
pub(crate) fn assert_rows_fit(screen: &[String], width: u16) {
    for (i, l) in screen.iter().enumerate() {
        assert!(
            crate::text::width(l) <= usize::from(width),
            "row {i} is {} columns wide, more than {width}",
            crate::text::width(l)
        );
    }
}

/// Asserts the buttons `names` are whole on screen (see [`button_row`]) and pinned
/// below the scrolling body: under the header's rule and under the body's scroll
/// marker, when there is one.
#[track_caller]
pub(crate) fn assert_pinned(screen: &[String], names: &[&str], width: u16) {
    let rule = screen
        .iter()
        .position(|l| !l.is_empty() && l.chars().all(|c| c == '─'));
    let marker = screen
        .iter()
        .rposition(|l| l.contains("more below") || l.contains("more above"));
    for n in names {
        let row = button_row(screen, n, width);
        for (what, above) in [("the header", rule), ("the scroll marker", marker)] {
            if let Some(above) = above {
                assert!(
                    row > above,
                    "button {n:?} (row {row}) is not below {what} (row {above}):\n{}",
                    screen.join("\n")
                );
            }
        }
    }
}
