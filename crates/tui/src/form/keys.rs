//! Key handling of the form screen.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use tui_input::InputRequest;

use super::field::FieldInput;
use super::{Button, Focus, FormOutcome, FormState, FormStep, ReviewButton};
use crate::keys::{ctrl, is_cancel, is_press};

impl FormState {
    /// Handles one key. Returns the outcome when the form is finished.
    ///
    /// Everywhere: Ctrl-C cancels; Ctrl-D declines (elicitations only).
    /// Edit step: Esc cancels (goes back, for tool arguments), Tab/Shift-Tab move between
    /// fields and buttons, Up/Down between every control, typing edits text, Space/Enter
    /// toggle and select, Backspace/Delete clear a choice, Ctrl-S (or the Submit button)
    /// validates and opens the review step.
    /// Review step (the same keys on every review screen): Esc, Backspace or E goes back
    /// to editing; Enter presses the marked button (Send first), Ctrl-S sends,
    /// Tab/←/→ move between the buttons, Up/Down/PageUp/PageDown scroll.
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_tui::{FormOutcome, FormPurpose, FormState, FormStep, ServerIdentity};
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # use serde_json::json;
    /// # fn screen(form: &mut FormState, w: u16, h: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
    /// #     let _ = form.render(buf.area, &mut buf);
    /// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # let server = ServerIdentity { name: "demo".into(), ..Default::default() };
    /// # use ratatui::crossterm::event::KeyEventKind;
    /// let schema = Schema::parse(&json!({
    ///     "type": "object",
    ///     "properties": {
    ///         "subscribe": {"type": "boolean", "default": true},
    ///         "colour": {"type": "string", "oneOf": [
    ///             {"const": "#FF0000", "title": "Red"},
    ///             {"const": "#00FF00", "title": "Green"}
    ///         ]}
    ///     }
    /// }))
    /// .expect("a flat form schema");
    /// let purpose = FormPurpose::Elicitation { message: "Preferences".into() };
    /// let mut form = FormState::new(server, purpose, schema);
    /// // The checkbox has the focus: Space toggles it, Y / N set it, Delete clears it.
    /// assert_eq!(form.content().get("subscribe"), Some(&json!(true)));
    /// form.handle_key(key(KeyCode::Char(' ')));
    /// assert_eq!(form.content().get("subscribe"), Some(&json!(false)));
    /// form.handle_key(key(KeyCode::Char('y')));
    /// assert_eq!(form.content().get("subscribe"), Some(&json!(true)));
    /// // Down steps through every option (Red, then Green); Space selects. The screen shows
    /// // the title, the content holds the value.
    /// form.handle_key(key(KeyCode::Down));
    /// form.handle_key(key(KeyCode::Down));
    /// form.handle_key(key(KeyCode::Char(' ')));
    /// assert_eq!(form.content().get("colour"), Some(&json!("#00FF00")));
    /// let s = screen(&mut form, 80, 24);
    /// assert!(s.contains("> (•) Green") && !s.contains("#00FF00"));
    /// // Key releases are ignored.
    /// let mut release = key(KeyCode::Char(' '));
    /// release.kind = KeyEventKind::Release;
    /// assert_eq!(form.handle_key(release), None);
    /// assert_eq!(form.content().get("colour"), Some(&json!("#00FF00")));
    /// ```
    pub fn handle_key(&mut self, key: KeyEvent) -> Option<FormOutcome> {
        if !is_press(&key) {
            return None;
        }
        if self.step == FormStep::Review && key.code == KeyCode::Esc {
            self.step = FormStep::Edit;
            return None;
        }
        if is_cancel(&key) {
            return Some(FormOutcome::Cancel);
        }
        if ctrl(&key, 'd') && self.can_decline() {
            return Some(self.decline());
        }
        if ctrl(&key, 't') && self.can_decline() {
            self.stop_asking = !self.stop_asking;
            return None;
        }
        match self.step {
            FormStep::Edit => self.edit_key(key),
            FormStep::Review => self.review_key(key),
        }
    }

    fn review_key(&mut self, key: KeyEvent) -> Option<FormOutcome> {
        let buttons = self.review_buttons();
        let n = buttons.len();
        match key.code {
            KeyCode::Enter | KeyCode::Char(' ') => {
                return match buttons.get(self.review_focus).copied() {
                    Some(ReviewButton::Back) => {
                        self.step = FormStep::Edit;
                        None
                    }
                    Some(ReviewButton::Decline) => Some(self.decline()),
                    Some(ReviewButton::Cancel) => Some(FormOutcome::Cancel),
                    Some(ReviewButton::Send) | None => self.accept(),
                };
            }
            _ if ctrl(&key, 's') => return self.accept(),
            KeyCode::Tab | KeyCode::Right => self.review_focus = (self.review_focus + 1) % n,
            KeyCode::BackTab | KeyCode::Left => self.review_focus = (self.review_focus + n - 1) % n,
            KeyCode::Backspace => self.step = FormStep::Edit,
            KeyCode::Char('e' | 'E') if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                self.step = FormStep::Edit;
            }
            KeyCode::Up => self.review_scroll = self.review_scroll.saturating_sub(1),
            KeyCode::Down => self.review_scroll = self.review_scroll.saturating_add(1),
            KeyCode::PageUp => self.review_scroll = self.review_scroll.saturating_sub(10),
            KeyCode::PageDown => self.review_scroll = self.review_scroll.saturating_add(10),
            KeyCode::Home => self.review_scroll = 0,
            _ => {}
        }
        None
    }

    fn edit_key(&mut self, key: KeyEvent) -> Option<FormOutcome> {
        if ctrl(&key, 's') {
            self.try_review();
            return None;
        }
        match key.code {
            KeyCode::Tab => self.move_field(true),
            KeyCode::BackTab => self.move_field(false),
            KeyCode::Down => self.move_stop(true),
            KeyCode::Up => self.move_stop(false),
            KeyCode::PageDown => (0..5).for_each(|_| self.move_stop(true)),
            KeyCode::PageUp => (0..5).for_each(|_| self.move_stop(false)),
            _ => return self.control_key(key),
        }
        None
    }

    /// A key for the focused control.
    fn control_key(&mut self, key: KeyEvent) -> Option<FormOutcome> {
        let (index, option) = match self.focus {
            Focus::Button(b) => {
                if matches!(key.code, KeyCode::Enter | KeyCode::Char(' ')) {
                    return self.press_button(b);
                }
                if matches!(key.code, KeyCode::Left | KeyCode::Right) {
                    self.move_stop(key.code == KeyCode::Right);
                }
                return None;
            }
            Focus::Field { field, option } => (field, option),
        };
        let field = self.fields.get_mut(index)?;
        let plain = !key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        match &field.input {
            FieldInput::Text(_) | FieldInput::Number { .. } => {
                if key.code == KeyCode::Enter {
                    self.move_field(true);
                } else if let Some(req) = input_request(&key) {
                    field.edit(req);
                }
            }
            FieldInput::Boolean(_) => match key.code {
                KeyCode::Char(' ') | KeyCode::Enter => {
                    field.activate(0);
                }
                KeyCode::Char('y' | 'Y') if plain => {
                    field.set_bool(true);
                }
                KeyCode::Char('n' | 'N') if plain => {
                    field.set_bool(false);
                }
                KeyCode::Backspace | KeyCode::Delete => {
                    field.clear_choice();
                }
                _ => {}
            },
            FieldInput::Single { .. } | FieldInput::Multi { .. } => match key.code {
                KeyCode::Char(' ') | KeyCode::Enter => {
                    field.activate(option);
                }
                KeyCode::Backspace | KeyCode::Delete => {
                    field.clear_choice();
                }
                _ => {}
            },
        }
        None
    }

    fn press_button(&mut self, b: Button) -> Option<FormOutcome> {
        match b {
            Button::Submit => {
                self.try_review();
                None
            }
            Button::Decline => Some(self.decline()),
            Button::Cancel => Some(FormOutcome::Cancel),
        }
    }

    /// Decline, or stop asking when the toggle is on.
    fn decline(&self) -> FormOutcome {
        if self.stop_asking {
            FormOutcome::StopAsking
        } else {
            FormOutcome::Decline
        }
    }

    /// Moves to the next/previous focus stop (every option and button), wrapping.
    fn move_stop(&mut self, forward: bool) {
        let stops = self.stops();
        let at = stops.iter().position(|s| *s == self.focus).unwrap_or(0);
        let n = stops.len();
        let next = if forward {
            (at + 1) % n
        } else {
            (at + n - 1) % n
        };
        self.set_focus(stops[next]);
    }

    /// Moves to the first stop of the next/previous field or button, wrapping.
    fn move_field(&mut self, forward: bool) {
        let stops: Vec<_> = self
            .stops()
            .into_iter()
            .filter(|s| matches!(s, Focus::Button(_) | Focus::Field { option: 0, .. }))
            .collect();
        let current = match self.focus {
            Focus::Field { field, .. } => Focus::Field { field, option: 0 },
            b => b,
        };
        let at = stops.iter().position(|s| *s == current).unwrap_or(0);
        let n = stops.len();
        let next = if forward {
            (at + 1) % n
        } else {
            (at + n - 1) % n
        };
        self.set_focus(stops[next]);
    }

    /// Moves focus, marking the field being left as touched so its errors show.
    fn set_focus(&mut self, to: Focus) {
        if let Some(i) = self.focused_field()
            && Some(i)
                != match to {
                    Focus::Field { field, .. } => Some(field),
                    Focus::Button(_) => None,
                }
            && let Some(f) = self.fields.get_mut(i)
        {
            f.touched = true;
        }
        self.focus = to;
    }
}

/// The text-editing request for a key in a text or number input.
fn input_request(key: &KeyEvent) -> Option<InputRequest> {
    use InputRequest::*;
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let alt = key.modifiers.contains(KeyModifiers::ALT);
    Some(match key.code {
        KeyCode::Char(c) if !ctrl && !alt => InsertChar(c),
        KeyCode::Char('a') if ctrl => GoToStart,
        KeyCode::Char('e') if ctrl => GoToEnd,
        KeyCode::Char('u') if ctrl => DeleteLine,
        KeyCode::Char('k') if ctrl => DeleteTillEnd,
        KeyCode::Char('w') if ctrl => DeletePrevWord,
        KeyCode::Backspace if ctrl || alt => DeletePrevWord,
        KeyCode::Backspace => DeletePrevChar,
        KeyCode::Delete => DeleteNextChar,
        KeyCode::Left if ctrl => GoToPrevWord,
        KeyCode::Right if ctrl => GoToNextWord,
        KeyCode::Left => GoToPrevChar,
        KeyCode::Right => GoToNextChar,
        KeyCode::Home => GoToStart,
        KeyCode::End => GoToEnd,
        _ => return None,
    })
}
