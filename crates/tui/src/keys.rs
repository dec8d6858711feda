//! Small helpers for matching key events.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// Whether the event is a press or repeat (releases are ignored everywhere).
pub(crate) fn is_press(key: &KeyEvent) -> bool {
    matches!(key.kind, KeyEventKind::Press | KeyEventKind::Repeat)
}

/// Whether `key` is Ctrl + the letter `c`.
pub(crate) fn ctrl(key: &KeyEvent, c: char) -> bool {
    key.modifiers.contains(KeyModifiers::CONTROL)
        && matches!(key.code, KeyCode::Char(k) if k.eq_ignore_ascii_case(&c))
}

/// Whether `key` is the plain letter `c` (either case, no Ctrl/Alt).
pub(crate) fn letter(key: &KeyEvent, c: char) -> bool {
    !key.modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        && matches!(key.code, KeyCode::Char(k) if k.eq_ignore_ascii_case(&c))
}

/// Whether `key` means "cancel": Esc or Ctrl-C (raw mode turns Ctrl-C into a key).
pub(crate) fn is_cancel(key: &KeyEvent) -> bool {
    key.code == KeyCode::Esc || ctrl(key, 'c')
}

/// Builds a key press, for tests and for hosts replaying input.
///
/// ```
/// use mcp_elicit_tui::keys::press;
/// use ratatui::crossterm::event::{KeyCode, KeyEventKind, KeyModifiers};
///
/// let ctrl_s = press(KeyCode::Char('s'), KeyModifiers::CONTROL);
/// assert_eq!(ctrl_s.kind, KeyEventKind::Press);
/// assert_eq!(ctrl_s.code, KeyCode::Char('s'));
/// assert!(ctrl_s.modifiers.contains(KeyModifiers::CONTROL));
/// ```
pub fn press(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
    KeyEvent::new(code, modifiers)
}
