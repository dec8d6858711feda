//! The result of a tool call: text content, structured content pretty-printed, and
//! `isError` shown as an error in words.

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::chrome::{self, rule, viewport};
use crate::keys::{is_cancel, is_press, letter};
use crate::server::ServerIdentity;
use crate::{text, theme};

/// One content block of a result.
///
/// ```
/// # use mcp_elicit_tui::keys::press;
/// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
/// # let key = |code| press(code, KeyModifiers::NONE);
/// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
/// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
/// # use ratatui::{buffer::Buffer, layout::Rect};
/// # fn screen(s: &mut ResultView, w: u16, h: u16) -> String {
/// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
/// #     let _ = s.render(buf.area, &mut buf);
/// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
/// # }
/// # use mcp_elicit_tui::{ResultBlock, ResultView};
/// let blocks = vec![
///     ResultBlock::Text("Booked for 4.".into()),
///     ResultBlock::Other("image (image/png, 10 bytes)".into()),
/// ];
/// let mut view = ResultView::new(server, "book", false, blocks, None);
/// let s = screen(&mut view, 80, 24);
/// assert!(s.contains("Booked for 4."));
/// assert!(s.contains("[image (image/png, 10 bytes)]"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResultBlock {
    /// A text block.
    Text(String),
    /// Anything else (image, audio, resource), described in words, e.g.
    /// `image (image/png, 1204 bytes)`.
    Other(String),
}

/// A tool call's result as shown.
///
/// ```
/// # use mcp_elicit_tui::keys::press;
/// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
/// # let key = |code| press(code, KeyModifiers::NONE);
/// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
/// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
/// # use ratatui::{buffer::Buffer, layout::Rect};
/// # fn screen(s: &mut ResultView, w: u16, h: u16) -> String {
/// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
/// #     let _ = s.render(buf.area, &mut buf);
/// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
/// # }
/// # use mcp_elicit_tui::{ResultBlock, ResultView};
/// use serde_json::json;
/// let text = vec![ResultBlock::Text("Booked.".into())];
/// let mut view = ResultView::new(server, "book", false, text, Some(json!({"table": 12})));
/// let s = screen(&mut view, 80, 24);
/// assert!(s.contains("Result of tool \"book\" from server: demo"));
/// assert!(s.contains("Success."));
/// assert!(s.contains("Structured content:") && s.contains("\"table\": 12"));
/// assert!(s.contains("> < Back to tools (Enter) >"));
/// ```
#[derive(Debug, Clone)]
pub struct ResultView {
    pub(crate) server: ServerIdentity,
    pub(crate) tool: String,
    pub(crate) is_error: bool,
    pub(crate) blocks: Vec<ResultBlock>,
    pub(crate) structured: Option<Value>,
    pub(crate) scroll: usize,
    /// Replaces the "Success." / "Error" headline (e.g. "The tool did not run.").
    pub(crate) headline: Option<String>,
}

impl ResultView {
    /// A result of `tool`.
    ///
    /// ```
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # fn screen(s: &mut ResultView, w: u16, h: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
    /// #     let _ = s.render(buf.area, &mut buf);
    /// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// # use mcp_elicit_tui::{ResultBlock, ResultView};
    /// let blocks = vec![ResultBlock::Text("Out of tables.".into())];
    /// let mut view = ResultView::new(server.clone(), "book", true, blocks, None);
    /// assert!(screen(&mut view, 80, 24).contains("Error: the tool reported a failure."));
    /// let mut empty = ResultView::new(server, "ping", false, vec![], None);
    /// assert!(screen(&mut empty, 80, 24).contains("(no content)"));
    /// ```
    pub fn new(
        server: ServerIdentity,
        tool: impl Into<String>,
        is_error: bool,
        blocks: Vec<ResultBlock>,
        structured: Option<Value>,
    ) -> Self {
        Self {
            server,
            tool: tool.into(),
            is_error,
            blocks,
            structured,
            scroll: 0,
            headline: None,
        }
    }

    /// A call that did not run because of the user's own choice (they declined or
    /// cancelled a step it needs): said as such, not as a failure of the tool.
    ///
    /// ```
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # fn screen(s: &mut ResultView, w: u16, h: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
    /// #     let _ = s.render(buf.area, &mut buf);
    /// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// # use mcp_elicit_tui::{ResultBlock, ResultView};
    /// let mut view = ResultView::not_run(server, "book", "You declined the browser step.");
    /// let s = screen(&mut view, 80, 24);
    /// assert!(s.contains("The tool did not run.") && s.contains("You declined the browser step."));
    /// assert!(!s.contains("Error"));
    /// ```
    pub fn not_run(
        server: ServerIdentity,
        tool: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        let mut v = Self::new(
            server,
            tool,
            false,
            vec![ResultBlock::Text(message.into())],
            None,
        );
        v.headline = Some("The tool did not run.".into());
        v
    }

    /// A failed call (JSON-RPC error, transport failure) shown the same way.
    ///
    /// ```
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # fn screen(s: &mut ResultView, w: u16, h: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
    /// #     let _ = s.render(buf.area, &mut buf);
    /// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// # use mcp_elicit_tui::{ResultBlock, ResultView};
    /// let mut view = ResultView::failure(server, "book", "the connection closed");
    /// let s = screen(&mut view, 80, 24);
    /// assert!(s.contains("Error: the tool reported a failure.") && s.contains("the connection closed"));
    /// ```
    pub fn failure(
        server: ServerIdentity,
        tool: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self::new(
            server,
            tool,
            true,
            vec![ResultBlock::Text(message.into())],
            None,
        )
    }

    /// Keys: ↑/↓/PageUp/PageDown scroll, Enter / Esc / Q close. Returns true to close.
    ///
    /// ```
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # fn screen(s: &mut ResultView, w: u16, h: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
    /// #     let _ = s.render(buf.area, &mut buf);
    /// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// # use mcp_elicit_tui::{ResultBlock, ResultView};
    /// let mut view = ResultView::failure(server, "book", "no");
    /// assert!(!view.handle_key(key(KeyCode::Down))); // scrolling keeps it open
    /// assert!(view.handle_key(key(KeyCode::Enter)));
    /// assert!(view.handle_key(key(KeyCode::Esc)));
    /// assert!(view.handle_key(key(KeyCode::Char('q'))));
    /// ```
    pub fn handle_key(&mut self, key: KeyEvent) -> bool {
        if !is_press(&key) {
            return false;
        }
        if is_cancel(&key) || letter(&key, 'q') || key.code == KeyCode::Enter {
            return true;
        }
        match key.code {
            KeyCode::Up => self.scroll = self.scroll.saturating_sub(1),
            KeyCode::Down => self.scroll = self.scroll.saturating_add(1),
            KeyCode::PageUp => self.scroll = self.scroll.saturating_sub(10),
            KeyCode::PageDown => self.scroll = self.scroll.saturating_add(10),
            KeyCode::Home => self.scroll = 0,
            _ => {}
        }
        false
    }

    /// Draws the result.
    ///
    /// ```
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # fn screen(s: &mut ResultView, w: u16, h: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
    /// #     let _ = s.render(buf.area, &mut buf);
    /// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// # use mcp_elicit_tui::{ResultBlock, ResultView};
    /// use serde_json::json;
    /// let long = json!({"items": (0..40).collect::<Vec<_>>()});
    /// let mut view = ResultView::new(server, "list", false, vec![], Some(long));
    /// assert!(screen(&mut view, 80, 24).contains("↓ more below"));
    /// for _ in 0..100 {
    ///     view.handle_key(key(KeyCode::PageDown));
    /// }
    /// let s = screen(&mut view, 80, 24);
    /// assert!(s.contains("↑ more above") && !s.contains("more below"));
    /// assert!(s.contains("< Back to tools (Enter) >")); // pinned below the result
    /// ```
    pub fn render(&mut self, area: Rect, buf: &mut Buffer) {
        let mut header = self.server.header_lines(
            &format!("Result of tool \"{}\"", text::one_line(&self.tool)),
            area.width,
        );
        header.push(rule(area.width));
        // The one action, pinned below the scrolling result and focused.
        let footer = chrome::Footer {
            notes: Vec::new(),
            buttons: chrome::button_lines(&[("Back to tools (Enter)", true)], area.width),
            help: chrome::help_lines(
                &[("↑/↓ PgUp/PgDn", "scroll"), ("Enter/Esc", "back to tools")],
                area.width,
            ),
        };
        let body = chrome::frame(area, &header, &footer, buf);
        let w = body.width;
        let mut lines = Vec::new();
        if let Some(h) = &self.headline {
            lines.push(Line::from(Span::styled(h.clone(), theme::label())));
        } else if self.is_error {
            lines.push(Line::from(Span::styled(
                "Error: the tool reported a failure.",
                theme::error(),
            )));
        } else {
            lines.push(Line::from(Span::styled("Success.", theme::label())));
        }
        lines.push(Line::default());
        for b in &self.blocks {
            match b {
                ResultBlock::Text(t) => lines.extend(text::wrapped_lines(t, w, 0, Style::new())),
                ResultBlock::Other(d) => {
                    lines.extend(text::wrapped_lines(&format!("[{d}]"), w, 0, theme::dim()))
                }
            }
        }
        if self.blocks.is_empty() {
            lines.push(Line::from(Span::styled("(no content)", theme::dim())));
        }
        if let Some(s) = &self.structured {
            lines.push(Line::default());
            lines.push(Line::from(Span::styled(
                "Structured content:",
                theme::label(),
            )));
            let pretty = serde_json::to_string_pretty(s).unwrap_or_default();
            lines.extend(text::wrapped_lines(&pretty, w, 2, Style::new()));
        }
        let h = viewport(usize::from(body.height), lines.len());
        self.scroll = self.scroll.min(lines.len().saturating_sub(h));
        chrome::draw_scrolled(&lines, self.scroll, body, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{assert_has, assert_lacks, key, screen, server};

    #[test]
    fn text_and_structured_content_are_shown() {
        let mut v = ResultView::new(
            server(),
            "book",
            false,
            vec![
                ResultBlock::Text("Booked for 4.".into()),
                ResultBlock::Other("image (image/png, 10 bytes)".into()),
            ],
            Some(serde_json::json!({"table": 12, "ok": true})),
        );
        let s = screen(80, 24, |a, b| v.render(a, b));
        assert_has(&s, "Result of tool \"book\" from server: Demo Server");
        assert_has(&s, "Booked for 4.");
        assert_has(&s, "[image (image/png, 10 bytes)]");
        assert_has(&s, "Structured content:");
        assert_has(&s, "\"table\": 12,");
        assert_lacks(&s, "Error");
        assert!(v.handle_key(key(KeyCode::Enter)));
    }

    #[test]
    fn a_call_the_user_stopped_is_not_called_a_failure() {
        let mut v = ResultView::not_run(server(), "book", "You declined the browser step.");
        let s = screen(80, 24, |a, b| v.render(a, b));
        assert_has(&s, "The tool did not run.");
        assert_has(&s, "You declined the browser step.");
        assert_lacks(&s, "Error");
    }

    #[test]
    fn the_last_line_of_a_long_result_can_be_scrolled_to() {
        let json = serde_json::json!({"items": (0..40).collect::<Vec<_>>()});
        let mut v = ResultView::new(server(), "list", false, vec![], Some(json));
        for _ in 0..100 {
            v.handle_key(key(KeyCode::Down));
        }
        let s = screen(80, 24, |a, b| v.render(a, b));
        // The closing brace of the structured content is on screen, above the key help.
        let close = s.iter().rposition(|l| l.trim() == "}");
        assert!(close.is_some(), "{}", s.join("\n"));
        assert_has(&s, "↑ more above");
    }

    /// Issue 15: the result had a key hint only; Back to tools is a pinned, focused
    /// button, on screen at the top and at the end of a long, hostile result.
    #[test]
    fn back_to_tools_is_pinned_and_focused_over_a_long_hostile_result() {
        let zalgo: String = std::iter::once('Z')
            .chain(std::iter::repeat_n('\u{0301}', 2000))
            .collect();
        let blocks: Vec<ResultBlock> = (0..200)
            .map(|i| ResultBlock::Text(format!("{i}: {}", "Read me. ".repeat(1112))))
            .chain([ResultBlock::Text(zalgo.clone())])
            .collect();
        for (w, h) in [(80, 24), (40, 12)] {
            let mut v = ResultView::new(server(), zalgo.clone(), false, blocks.clone(), None);
            let s = screen(w, h, |a, b| v.render(a, b));
            crate::testutil::assert_rows_fit(&s, w);
            crate::testutil::assert_pinned(&s, &["Back to tools (Enter)"], w);
            crate::testutil::assert_focused_button(&s, "Back to tools (Enter)", w);
            for _ in 0..100_000 {
                v.handle_key(key(KeyCode::PageDown));
            }
            let s = screen(w, h, |a, b| v.render(a, b));
            crate::testutil::assert_rows_fit(&s, w);
            crate::testutil::assert_pinned(&s, &["Back to tools (Enter)"], w);
            crate::testutil::assert_focused_button(&s, "Back to tools (Enter)", w);
            assert_lacks(&s, "more below");
            assert!(v.handle_key(key(KeyCode::Enter)));
        }
    }

    #[test]
    fn is_error_is_said_in_words() {
        let mut v = ResultView::failure(server(), "book", "No tables left");
        let s = screen(80, 24, |a, b| v.render(a, b));
        assert_has(&s, "Error: the tool reported a failure.");
        assert_has(&s, "No tables left");
    }
}
