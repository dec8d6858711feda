//! Drawing the form screen.

use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::field::{Field, FieldInput, option_label};
use super::{Button, Focus, FormPurpose, FormState, FormStep, Problems, ReviewButton};
use crate::chrome::{self, Hint, rule, viewport};
use crate::{text, theme};

/// The edit step laid out as lines, with where the focus is.
struct Built {
    lines: Vec<Line<'static>>,
    /// Lines of the focused field, start..end (`None` when a pinned button has focus).
    focus_block: Option<(usize, usize)>,
    /// The focused control's own line.
    focus_line: usize,
    /// Cursor of the focused text input: (line, column).
    cursor: Option<(usize, u16)>,
}

const MARK: &str = "> ";
const NO_MARK: &str = "  ";

impl FormState {
    /// Draws the form into `area`. Returns where the terminal cursor belongs (inside the
    /// focused text input), for `Frame::set_cursor_position`.
    ///
    /// The action buttons (Submit / Decline / Cancel while editing, Send / Back on the
    /// review) are pinned below the scrolling body, so they are on screen whatever the
    /// length of the form.
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// use mcp_elicit_tui::{FormPurpose, FormState, ServerIdentity};
    /// use mcp_elicit_tui::keys::press;
    /// use ratatui::{buffer::Buffer, layout::Rect};
    /// use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// use serde_json::json;
    ///
    /// let schema = Schema::parse(&json!({"type": "object", "properties": {"name": {"type": "string"}}}))
    ///     .expect("a flat form schema");
    /// let purpose = FormPurpose::Elicitation { message: "Your name?".into() };
    /// let mut form = FormState::new(ServerIdentity::default(), purpose, schema);
    /// for c in "Ada".chars() {
    ///     form.handle_key(press(KeyCode::Char(c), KeyModifiers::NONE));
    /// }
    /// let mut buf = Buffer::empty(Rect::new(0, 0, 80, 24));
    /// let cursor = form.render(buf.area, &mut buf).expect("a text input has the focus");
    /// let row: String = (0..80u16).map(|x| buf[(x, cursor.y)].symbol()).collect();
    /// assert!(row.starts_with("> [Ada"), "{row}");
    /// assert_eq!(cursor.x, 6); // right after "Ada"
    /// let rows: Vec<String> = (0..24u16)
    ///     .map(|y| (0..80u16).map(|x| buf[(x, y)].symbol()).collect())
    ///     .collect();
    /// assert!(rows.iter().any(|r| r.contains("> [Ada")));
    /// // The buttons are pinned below the fields.
    /// assert!(rows.iter().any(|r| r.contains("< Review & submit (Ctrl-S) >")));
    /// ```
    pub fn render(&mut self, area: Rect, buf: &mut Buffer) -> Option<Position> {
        let what = match (&self.purpose, self.step) {
            (FormPurpose::Elicitation { .. }, FormStep::Edit) => "Form request",
            (FormPurpose::Elicitation { .. }, FormStep::Review) => "Review form response",
            (FormPurpose::ToolArguments { .. }, FormStep::Edit) => "Tool arguments",
            (FormPurpose::ToolArguments { .. }, FormStep::Review) => "Review tool arguments",
        };
        let mut header = self.server.header_lines(what, area.width);
        header.push(rule(area.width));
        let footer = self.footer(area.width);
        let body = chrome::frame(area, &header, &footer, buf);
        match self.step {
            FormStep::Edit => self.render_edit(body, buf),
            FormStep::Review => {
                let lines = self.review_lines(body.width);
                let h = usize::from(body.height);
                let max = lines.len().saturating_sub(viewport(h, lines.len()));
                self.review_scroll = self.review_scroll.min(max);
                chrome::draw_scrolled(&lines, self.review_scroll, body, buf);
                None
            }
        }
    }

    fn render_edit(&mut self, body: Rect, buf: &mut Buffer) -> Option<Position> {
        let built = self.build_edit(body.width);
        let total = built.lines.len();
        let h = viewport(usize::from(body.height), total);
        if let Some(block) = built.focus_block {
            let block_fits = block.1 - block.0 <= h;
            let target = if block_fits {
                block
            } else {
                (built.focus_line, built.focus_line + 1)
            };
            // Keep the message at the top in view while the first field is focused.
            let target = if matches!(
                self.focus,
                Focus::Field {
                    field: 0,
                    option: 0
                }
            ) && target.1 <= h
            {
                (0, target.1)
            } else {
                target
            };
            self.scroll = chrome::follow(self.scroll, target, h, total);
        } else {
            self.scroll = self.scroll.min(total.saturating_sub(h));
        }
        let used = chrome::draw_scrolled(&built.lines, self.scroll, body, buf);
        let (line, col) = built.cursor?;
        let row = line.checked_sub(used)?;
        if row >= h {
            return None;
        }
        let y = body.y + u16::try_from(row).ok()?;
        Some(Position::new(
            body.x + col.min(body.width.saturating_sub(1)),
            y,
        ))
    }

    fn footer(&self, width: u16) -> chrome::Footer {
        let mut notes = Vec::new();
        if let Some(s) = &self.status {
            for l in text::wrap(s, width) {
                notes.push(Line::from(Span::styled(l, theme::error())));
            }
        }
        if self.can_decline() {
            let tick = if self.stop_asking { "[x]" } else { "[ ]" };
            notes.extend(text::wrapped_lines(
                &format!("{tick} Stop asking this server: declining also refuses its later requests (Ctrl-T)"),
                width,
                0,
                Style::new(),
            ));
        }
        let decline: Option<Hint<'_>> = self.can_decline().then_some(("Ctrl-D", "decline"));
        let hints: Vec<Hint<'_>> = match self.step {
            FormStep::Edit => [
                Some(("Tab/↓", "next")),
                Some(("Shift-Tab/↑", "previous")),
                Some(("Space", "toggle/select")),
                Some(("Ctrl-S", "review & submit")),
                decline,
                Some(("Esc", if self.can_decline() { "cancel" } else { "back" })),
                Some(("*", "required")),
            ]
            .into_iter()
            .flatten()
            .collect(),
            FormStep::Review => [
                Some(("Enter", "press the marked button")),
                Some(("Esc/E", "back to edit")),
                Some(("↑/↓", "scroll")),
                decline,
                self.can_decline().then_some(("Ctrl-C", "cancel")),
            ]
            .into_iter()
            .flatten()
            .collect(),
        };
        let buttons = match self.step {
            FormStep::Edit => self.button_lines(width),
            FormStep::Review => self.review_button_lines(width),
        };
        chrome::Footer {
            notes,
            buttons,
            help: chrome::help_lines(&hints, width),
        }
    }

    /// The review step's buttons, in order.
    pub(crate) fn review_buttons(&self) -> Vec<ReviewButton> {
        let mut v = vec![ReviewButton::Send, ReviewButton::Back];
        if self.can_decline() {
            v.push(ReviewButton::Decline);
            v.push(ReviewButton::Cancel);
        }
        v
    }

    fn review_button_lines(&self, width: u16) -> Vec<Line<'static>> {
        let focused = self.review_buttons().get(self.review_focus).copied();
        let shown: Vec<(&str, bool)> = self
            .review_buttons()
            .into_iter()
            .map(|b| {
                let name = match b {
                    ReviewButton::Send if self.can_decline() => "Send (Enter)",
                    ReviewButton::Send => "Run tool (Enter)",
                    ReviewButton::Back => "Back (Esc)",
                    ReviewButton::Decline => "Decline (Ctrl-D)",
                    ReviewButton::Cancel => "Cancel (Ctrl-C)",
                };
                (name, focused == Some(b))
            })
            .collect();
        chrome::button_lines(&shown, width)
    }

    fn review_lines(&self, width: u16) -> Vec<Line<'static>> {
        let content = serde_json::Value::Object(self.content());
        let json = serde_json::to_string_pretty(&content).unwrap_or_else(|_| "{}".to_string());
        let intro = match &self.purpose {
            FormPurpose::Elicitation { .. } => format!(
                "This exact JSON will be sent to {} as your answer:",
                self.server.display_name()
            ),
            FormPurpose::ToolArguments { tool, .. } => format!(
                "Tool \"{}\" will be called on {} with these exact arguments:",
                text::one_line(tool),
                self.server.display_name()
            ),
        };
        let mut lines = text::wrapped_lines(&intro, width, 0, theme::label());
        lines.push(Line::default());
        for l in json.lines() {
            // serde_json escapes C0 controls; escape the rest (bidi, C1) visibly too.
            for w in text::wrap(l, width.saturating_sub(2)) {
                lines.push(Line::from(format!("  {w}")));
            }
        }
        if self.content().is_empty() {
            lines.push(Line::from(Span::styled(
                "  (no fields filled in)",
                theme::dim(),
            )));
        }
        lines
    }

    fn build_edit(&self, width: u16) -> Built {
        let problems = self.problems();
        let mut lines: Vec<Line<'static>> = Vec::new();
        match &self.purpose {
            FormPurpose::Elicitation { message } => {
                lines.push(Line::from(Span::styled(
                    "Message from the server:",
                    theme::label(),
                )));
                lines.extend(text::wrapped_lines(message, width, 2, Style::new()));
            }
            FormPurpose::ToolArguments { tool, description } => {
                lines.push(Line::from(vec![
                    Span::styled("Tool: ", theme::label()),
                    Span::raw(text::one_line(tool).into_owned()),
                ]));
                if let Some(d) = description {
                    lines.extend(text::wrapped_lines(d, width, 2, theme::dim()));
                }
            }
        }
        // One short warning here, the details after the fields: long findings must not
        // push the server's message and the first field off the first screen.
        if !self.warnings.is_empty() {
            lines.extend(text::wrapped_lines(
                &format!(
                    "Warning: this form looks like it asks for a secret ({} finding{}, listed \
                     after the fields). Servers must not ask for passwords, API keys, tokens or \
                     payment details in a form; decline unless you are sure.",
                    self.warnings.len(),
                    if self.warnings.len() == 1 { "" } else { "s" }
                ),
                width,
                0,
                theme::warning(),
            ));
        }
        for n in &self.notes {
            lines.extend(text::wrapped_lines(
                &format!("Note: {n}"),
                width,
                0,
                theme::dim(),
            ));
        }
        if let Some(t) = self.schema.title() {
            lines.push(Line::default());
            lines.extend(text::wrapped_lines(t, width, 0, theme::label()));
        }
        if let Some(d) = self.schema.description() {
            lines.extend(text::wrapped_lines(d, width, 0, theme::dim()));
        }
        if !problems.general.is_empty() && self.submit_attempted {
            for g in &problems.general {
                lines.extend(text::wrapped_lines(
                    &format!("Error: {g}"),
                    width,
                    0,
                    theme::error(),
                ));
            }
        }
        if self.fields.is_empty() {
            lines.push(Line::default());
            lines.push(Line::from(Span::styled(
                "This form has no fields.",
                theme::dim(),
            )));
        }
        let mut built = Built {
            lines,
            focus_block: None,
            focus_line: 0,
            cursor: None,
        };
        for (i, f) in self.fields.iter().enumerate() {
            built.lines.push(Line::default());
            self.field_lines(i, f, &problems, width, &mut built);
        }
        if !self.warnings.is_empty() {
            built.lines.push(Line::default());
            for w in &self.warnings {
                built.lines.extend(text::wrapped_lines(
                    &format!("Warning: {w}"),
                    width,
                    0,
                    theme::warning(),
                ));
            }
        }
        built
    }

    fn field_lines(&self, i: usize, f: &Field, problems: &Problems, width: u16, built: &mut Built) {
        let start = built.lines.len();
        let focused_option = match self.focus {
            Focus::Field { field, option } if field == i => Some(option),
            _ => None,
        };
        let mut label = vec![Span::styled(
            text::one_line(f.prop.label()).into_owned(),
            theme::label(),
        )];
        if f.prop.is_required() {
            label.push(Span::styled(" *", theme::label()));
        }
        if f.prop.title().is_some() {
            label.push(Span::styled(
                format!("  ({})", text::one_line(f.prop.name())),
                theme::dim(),
            ));
        }
        built.lines.push(Line::from(label));
        if let Some(d) = f.prop.description() {
            built
                .lines
                .extend(text::wrapped_lines(d, width, 2, theme::dim()));
        }
        let hints = f.hints();
        if !hints.is_empty() {
            built.lines.extend(text::wrapped_lines(
                &hints.join(" · "),
                width,
                2,
                theme::dim(),
            ));
        }
        match &f.input {
            FieldInput::Text(input) | FieldInput::Number { input, .. } => {
                let line = built.lines.len();
                let inner = usize::from(width.saturating_sub(4)).max(1);
                let scroll = input.visual_scroll(inner);
                let shown = visible_slice(input.value(), scroll, inner);
                let pad = inner.saturating_sub(text::width(&shown));
                let mark = if focused_option.is_some() {
                    MARK
                } else {
                    NO_MARK
                };
                built.lines.push(Line::from(vec![
                    Span::raw(mark),
                    Span::raw("["),
                    Span::styled(format!("{shown}{}", " ".repeat(pad)), theme::domain()),
                    Span::raw("]"),
                ]));
                if focused_option.is_some() {
                    built.focus_line = line;
                    let col = input.visual_cursor().saturating_sub(scroll);
                    let col = u16::try_from(3 + col.min(inner)).unwrap_or(u16::MAX);
                    built.cursor = Some((line, col));
                }
            }
            FieldInput::Boolean(b) => {
                let (mark, style) = mark_style(focused_option.is_some());
                if focused_option.is_some() {
                    built.focus_line = built.lines.len();
                }
                let shown = match b {
                    Some(true) => "[x] yes",
                    Some(false) => "[ ] no",
                    None => "[ ] not set",
                };
                built.lines.push(Line::from(vec![
                    Span::raw(mark),
                    Span::styled(shown, style),
                ]));
            }
            FieldInput::Single { options, selected } => {
                for (o, opt) in options.iter().enumerate() {
                    let focused = focused_option == Some(o);
                    let (mark, style) = mark_style(focused);
                    if focused {
                        built.focus_line = built.lines.len();
                    }
                    let radio = if *selected == Some(o) { "(•)" } else { "( )" };
                    built.lines.push(Line::from(vec![
                        Span::raw(mark),
                        Span::styled(format!("{radio} {}", option_label(opt)), style),
                    ]));
                }
            }
            FieldInput::Multi { options, checked } => {
                for (o, opt) in options.iter().enumerate() {
                    let focused = focused_option == Some(o);
                    let (mark, style) = mark_style(focused);
                    if focused {
                        built.focus_line = built.lines.len();
                    }
                    let tick = if checked.get(o).copied().unwrap_or(false) {
                        "[x]"
                    } else {
                        "[ ]"
                    };
                    built.lines.push(Line::from(vec![
                        Span::raw(mark),
                        Span::styled(format!("{tick} {}", option_label(opt)), style),
                    ]));
                }
            }
        }
        for e in self.visible_errors(problems, i) {
            built.lines.extend(text::wrapped_lines(
                &format!("Error: {e}"),
                width,
                2,
                theme::error(),
            ));
        }
        if focused_option.is_some() {
            built.focus_block = Some((start, built.lines.len()));
        }
    }

    fn button_lines(&self, width: u16) -> Vec<Line<'static>> {
        let mut buttons = vec![(
            Button::Submit,
            if self.can_decline() {
                "Review & submit (Ctrl-S)"
            } else {
                "Review & run (Ctrl-S)"
            },
        )];
        if self.can_decline() {
            buttons.push((Button::Decline, "Decline (Ctrl-D)"));
        }
        buttons.push((
            Button::Cancel,
            if self.can_decline() {
                "Cancel (Esc)"
            } else {
                "Back (Esc)"
            },
        ));
        let shown: Vec<(&str, bool)> = buttons
            .iter()
            .map(|(b, name)| (*name, self.focus == Focus::Button(*b)))
            .collect();
        chrome::button_lines(&shown, width)
    }
}

/// The focus marker and style for a control.
fn mark_style(focused: bool) -> (&'static str, Style) {
    if focused {
        (MARK, theme::focus())
    } else {
        (NO_MARK, Style::new())
    }
}

/// The part of `value` from display column `skip`, at most `width` columns, made safe.
fn visible_slice(value: &str, skip: usize, width: usize) -> String {
    let mut col = 0usize;
    let mut out = String::new();
    let mut used = 0usize;
    for c in value.chars() {
        let safe = text::one_line(c.encode_utf8(&mut [0; 4])).into_owned();
        let w = text::width(&safe);
        if col >= skip {
            if used + w > width {
                break;
            }
            out.push_str(&safe);
            used += w;
        }
        col += unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
    }
    out
}
