//! A small multi-line editor for raw JSON tool arguments, used when a tool's
//! `inputSchema` is outside the flat form subset.

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Position, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use serde_json::{Map, Value};

use crate::chrome::{self, rule, viewport};
use crate::keys::{ctrl, is_cancel, is_press};
use crate::{text, theme};

/// What the editor produced.
///
/// ```
/// # use mcp_elicit_tui::keys::press;
/// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
/// # let key = |code| press(code, KeyModifiers::NONE);
/// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
/// # use mcp_elicit_tui::json_editor::{JsonEditor, JsonOutcome};
/// # use serde_json::json;
/// let mut e = JsonEditor::new(r#"{"limit": 5}"#);
/// let Some(JsonOutcome::Submit(args)) = e.handle_key(ctrl('s')) else { panic!("not sent") };
/// assert_eq!(args, *json!({"limit": 5}).as_object().unwrap());
/// assert_eq!(e.handle_key(key(KeyCode::Esc)), Some(JsonOutcome::Back));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum JsonOutcome {
    /// A JSON object to send.
    Submit(Map<String, Value>),
    /// The user left without sending.
    Back,
}

/// Editor state: lines of text and a cursor (line, character index).
///
/// ```
/// # use mcp_elicit_tui::keys::press;
/// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
/// # let key = |code| press(code, KeyModifiers::NONE);
/// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
/// # use mcp_elicit_tui::json_editor::{JsonEditor, JsonOutcome};
/// # use serde_json::json;
/// // The cursor starts at the very beginning; → moves past "{", then typing inserts.
/// let mut e = JsonEditor::new("{}");
/// e.handle_key(key(KeyCode::Right));
/// for c in r#""a": 1"#.chars() {
///     e.handle_key(key(KeyCode::Char(c)));
/// }
/// e.handle_key(key(KeyCode::Enter)); // splits the line at the cursor
/// assert_eq!(e.text(), "{\"a\": 1\n}");
/// ```
#[derive(Debug, Clone)]
pub struct JsonEditor {
    pub(crate) lines: Vec<String>,
    pub(crate) row: usize,
    pub(crate) col: usize,
    pub(crate) error: Option<String>,
    pub(crate) scroll: usize,
}

impl JsonEditor {
    /// An editor holding `initial`.
    ///
    /// ```
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # use mcp_elicit_tui::json_editor::{JsonEditor, JsonOutcome};
    /// # use serde_json::json;
    /// assert_eq!(JsonEditor::new("{\n  \"a\": 1\n}").text(), "{\n  \"a\": 1\n}");
    /// assert_eq!(JsonEditor::new("").text(), ""); // one empty line
    /// ```
    pub fn new(initial: &str) -> Self {
        let lines: Vec<String> = initial.lines().map(str::to_string).collect();
        let lines = if lines.is_empty() {
            vec![String::new()]
        } else {
            lines
        };
        Self {
            lines,
            row: 0,
            col: 0,
            error: None,
            scroll: 0,
        }
    }

    /// The text.
    ///
    /// ```
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # use mcp_elicit_tui::json_editor::{JsonEditor, JsonOutcome};
    /// # use serde_json::json;
    /// let mut e = JsonEditor::new("[1]");
    /// e.handle_key(key(KeyCode::End));
    /// e.handle_key(key(KeyCode::Backspace));
    /// assert_eq!(e.text(), "[1");
    /// ```
    pub fn text(&self) -> String {
        self.lines.join("\n")
    }

    fn line_len(&self, row: usize) -> usize {
        self.lines.get(row).map_or(0, |l| l.chars().count())
    }

    fn byte_at(&self, row: usize, col: usize) -> usize {
        self.lines
            .get(row)
            .map_or(0, |l| l.char_indices().nth(col).map_or(l.len(), |(b, _)| b))
    }

    /// Keys: typing edits, Enter new line, arrows/Home/End move, Ctrl-S checks and sends
    /// (must be a JSON object), Esc / Ctrl-C goes back.
    ///
    /// ```
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # use mcp_elicit_tui::json_editor::{JsonEditor, JsonOutcome};
    /// # use serde_json::json;
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # fn screen(s: &mut JsonEditor, w: u16, h: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
    /// #     let _ = s.render("Arguments for tool \"x\"", buf.area, &mut buf);
    /// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// // Not JSON: nothing is sent, and the error says where.
    /// let mut e = JsonEditor::new("{\n  \"a\": \n}");
    /// assert_eq!(e.handle_key(ctrl('s')), None);
    /// assert!(screen(&mut e, 80, 24).contains("Error: Not valid JSON: line 3"));
    /// // JSON, but not an object: refused too.
    /// let mut e = JsonEditor::new("[1, 2]");
    /// assert_eq!(e.handle_key(ctrl('s')), None);
    /// assert!(screen(&mut e, 80, 24).contains("Tool arguments must be a JSON object"));
    /// // Tab indents (two spaces) rather than moving the focus.
    /// let mut e = JsonEditor::new("");
    /// e.handle_key(key(KeyCode::Tab));
    /// assert_eq!(e.text(), "  ");
    /// ```
    pub fn handle_key(&mut self, key: KeyEvent) -> Option<JsonOutcome> {
        if !is_press(&key) {
            return None;
        }
        if is_cancel(&key) {
            return Some(JsonOutcome::Back);
        }
        if ctrl(&key, 's') {
            return match serde_json::from_str::<Value>(&self.text()) {
                Ok(Value::Object(m)) => Some(JsonOutcome::Submit(m)),
                Ok(_) => {
                    self.error =
                        Some("Tool arguments must be a JSON object, like {\"key\": 1}.".into());
                    None
                }
                Err(e) => {
                    self.error = Some(format!(
                        "Not valid JSON: line {}, column {}: {e}",
                        e.line(),
                        e.column()
                    ));
                    None
                }
            };
        }
        let ctrl_or_alt = key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        match key.code {
            KeyCode::Char(c) if !ctrl_or_alt => {
                let b = self.byte_at(self.row, self.col);
                if let Some(l) = self.lines.get_mut(self.row) {
                    l.insert(b, c);
                    self.col += 1;
                }
            }
            KeyCode::Tab => {
                let b = self.byte_at(self.row, self.col);
                if let Some(l) = self.lines.get_mut(self.row) {
                    l.insert_str(b, "  ");
                    self.col += 2;
                }
            }
            KeyCode::Enter => {
                let b = self.byte_at(self.row, self.col);
                if let Some(l) = self.lines.get_mut(self.row) {
                    let rest = l.split_off(b);
                    self.lines.insert(self.row + 1, rest);
                    self.row += 1;
                    self.col = 0;
                }
            }
            KeyCode::Backspace => {
                if self.col > 0 {
                    let b = self.byte_at(self.row, self.col - 1);
                    if let Some(l) = self.lines.get_mut(self.row) {
                        l.remove(b);
                        self.col -= 1;
                    }
                } else if self.row > 0 {
                    let cur = self.lines.remove(self.row);
                    self.row -= 1;
                    self.col = self.line_len(self.row);
                    if let Some(l) = self.lines.get_mut(self.row) {
                        l.push_str(&cur);
                    }
                }
            }
            KeyCode::Delete => {
                if self.col < self.line_len(self.row) {
                    let b = self.byte_at(self.row, self.col);
                    if let Some(l) = self.lines.get_mut(self.row) {
                        l.remove(b);
                    }
                } else if self.row + 1 < self.lines.len() {
                    let next = self.lines.remove(self.row + 1);
                    if let Some(l) = self.lines.get_mut(self.row) {
                        l.push_str(&next);
                    }
                }
            }
            KeyCode::Left => {
                if self.col > 0 {
                    self.col -= 1;
                } else if self.row > 0 {
                    self.row -= 1;
                    self.col = self.line_len(self.row);
                }
            }
            KeyCode::Right => {
                if self.col < self.line_len(self.row) {
                    self.col += 1;
                } else if self.row + 1 < self.lines.len() {
                    self.row += 1;
                    self.col = 0;
                }
            }
            KeyCode::Up if self.row > 0 => {
                self.row -= 1;
                self.col = self.col.min(self.line_len(self.row));
            }
            KeyCode::Down if self.row + 1 < self.lines.len() => {
                self.row += 1;
                self.col = self.col.min(self.line_len(self.row));
            }
            KeyCode::Home => self.col = 0,
            KeyCode::End => self.col = self.line_len(self.row),
            _ => return None,
        }
        self.error = None;
        None
    }

    /// Draws the editor (no header: the caller draws it) and returns the cursor position.
    ///
    /// ```
    /// use mcp_elicit_tui::json_editor::JsonEditor;
    /// use ratatui::{buffer::Buffer, layout::Rect};
    ///
    /// let mut e = JsonEditor::new("{}");
    /// let mut buf = Buffer::empty(Rect::new(0, 0, 80, 24));
    /// let cursor = e.render("Arguments for tool \"x\"", buf.area, &mut buf).expect("cursor on screen");
    /// let row = |y: u16| (0..80u16).map(|x| buf[(x, y)].symbol()).collect::<String>();
    /// assert!(row(0).starts_with("Arguments for tool \"x\""));
    /// // Line numbers in a gutter; the cursor sits on the first character of line 1.
    /// assert!(row(cursor.y).starts_with("  1  {}"));
    /// assert_eq!(cursor.x, 5);
    /// assert!((0..24).any(|y| row(y).contains("< Check & run (Ctrl-S) >")));
    /// ```
    pub fn render(&mut self, title: &str, area: Rect, buf: &mut Buffer) -> Option<Position> {
        let mut header = text::wrapped_lines(title, area.width, 0, theme::label());
        header.push(rule(area.width));
        let notes = match &self.error {
            Some(e) => text::wrapped_lines(&format!("Error: {e}"), area.width, 0, theme::error()),
            None => Vec::new(),
        };
        // Pinned below the text, pressed by their keys: the text keeps the focus (Tab
        // indents), so neither is marked focused.
        let footer = chrome::Footer {
            notes,
            buttons: chrome::button_lines(
                &[("Check & run (Ctrl-S)", false), ("Back (Esc)", false)],
                area.width,
            ),
            help: chrome::help_lines(&[("Ctrl-S", "check & run"), ("Esc", "back")], area.width),
        };
        let body = chrome::frame(area, &header, &footer, buf);
        let gutter = 5usize;
        let avail = usize::from(body.width).saturating_sub(gutter).max(1);
        // Horizontal scroll so the cursor column stays visible.
        let cursor_w = self.lines.get(self.row).map_or(0, |l| {
            text::width(&l.chars().take(self.col).collect::<String>())
        });
        let hscroll = cursor_w.saturating_sub(avail.saturating_sub(1));
        let lines: Vec<Line<'static>> = self
            .lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let safe = text::one_line(l).into_owned();
                let shown: String = safe.chars().skip(hscroll).take(avail).collect();
                Line::from(vec![
                    Span::styled(format!("{:>3}  ", i + 1), theme::dim()),
                    Span::styled(shown, Style::new()),
                ])
            })
            .collect();
        let h = viewport(usize::from(body.height), lines.len());
        self.scroll = chrome::follow(self.scroll, (self.row, self.row + 1), h, lines.len());
        let used = chrome::draw_scrolled(&lines, self.scroll, body, buf);
        let y = self.row.checked_sub(used).filter(|y| *y < h)?;
        let x = gutter + cursor_w - hscroll;
        Some(Position::new(
            body.x + u16::try_from(x).ok()?.min(body.width.saturating_sub(1)),
            body.y + u16::try_from(y).ok()?,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{assert_has, ctrl as ctrl_key, key, screen, typing};

    #[test]
    fn typing_editing_and_submitting_an_object() {
        let mut e = JsonEditor::new("{}");
        e.handle_key(key(KeyCode::Right));
        for k in typing("\"a\": 1") {
            e.handle_key(k);
        }
        e.handle_key(key(KeyCode::Enter));
        assert_eq!(e.text(), "{\"a\": 1\n}");
        e.handle_key(key(KeyCode::Backspace));
        e.handle_key(key(KeyCode::Backspace));
        assert_eq!(e.text(), "{\"a\": }");
        for k in typing("[1,2]") {
            e.handle_key(k);
        }
        let Some(JsonOutcome::Submit(m)) = e.handle_key(ctrl_key('s')) else {
            panic!("expected submit")
        };
        assert_eq!(Value::Object(m), serde_json::json!({"a": [1, 2]}));
    }

    #[test]
    fn invalid_json_and_non_objects_show_an_error_and_are_not_sent() {
        let mut e = JsonEditor::new("{\n  \"a\": \n}");
        assert_eq!(e.handle_key(ctrl_key('s')), None);
        let s = screen(80, 24, |a, b| {
            e.render("Arguments for tool \"x\"", a, b);
        });
        assert_has(&s, "Error: Not valid JSON: line 3");
        let mut e = JsonEditor::new("[1]");
        assert_eq!(e.handle_key(ctrl_key('s')), None);
        assert!(
            e.error
                .as_deref()
                .is_some_and(|m| m.contains("must be a JSON object"))
        );
        assert_eq!(e.handle_key(key(KeyCode::Esc)), Some(JsonOutcome::Back));
    }

    /// Issue 15: the JSON editor had key hints only; its two actions are pinned below
    /// the text, and the cursor line stays on screen, for 200 long lines too.
    #[test]
    fn the_actions_are_pinned_below_a_long_text_at_80x24_and_40x12() {
        let long: String = (0..200)
            .map(|i| format!("  \"k{i}\": \"{}\",\n", "v".repeat(10_000)))
            .collect();
        for (w, h) in [(80, 24), (40, 12)] {
            let mut e = JsonEditor::new(&format!("{{\n{long}  \"end\": 1\n}}"));
            for _ in 0..300 {
                e.handle_key(key(KeyCode::Down));
            }
            let mut cursor = None;
            let s = screen(w, h, |a, b| {
                cursor = e.render("Arguments for tool \"x\"", a, b);
            });
            crate::testutil::assert_rows_fit(&s, w);
            crate::testutil::assert_pinned(&s, &["Check & run (Ctrl-S)", "Back (Esc)"], w);
            assert_has(&s, "}");
            let at = cursor.expect("the cursor is on screen");
            let first_button = s
                .iter()
                .position(|l| l.contains("< Check & run (Ctrl-S) >"))
                .expect("button row");
            assert!(usize::from(at.y) < first_button, "{}", s.join("\n"));
        }
    }

    #[test]
    fn multibyte_text_edits_by_character() {
        let mut e = JsonEditor::new("");
        for k in typing("é😀x") {
            e.handle_key(k);
        }
        e.handle_key(key(KeyCode::Left));
        e.handle_key(key(KeyCode::Backspace));
        assert_eq!(e.text(), "éx");
        let _ = screen(10, 4, |a, b| {
            e.render("t", a, b);
        });
    }
}
