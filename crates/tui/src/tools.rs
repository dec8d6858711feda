//! The tool list: the connected server's identity and its tools, one to pick.

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::chrome::{self, rule, viewport};
use crate::keys::{is_cancel, is_press, letter};
use crate::server::ServerIdentity;
use crate::{text, theme};

/// One tool as listed by `tools/list`.
///
/// ```
/// # use mcp_elicit_tui::keys::press;
/// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
/// # let key = |code| press(code, KeyModifiers::NONE);
/// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
/// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
/// # use mcp_elicit_tui::{ToolEntry, ToolListChoice, ToolListState};
/// # let tool = |name: &str| ToolEntry { name: name.into(), title: None, description: None };
/// # use ratatui::{buffer::Buffer, layout::Rect};
/// # fn screen(s: &mut ToolListState, w: u16, h: u16) -> String {
/// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
/// #     let _ = s.render(buf.area, &mut buf);
/// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
/// # }
/// let book = ToolEntry {
///     name: "book_table".into(),
///     title: Some("Book a table".into()),
///     description: Some("Reserves a table for tonight.".into()),
/// };
/// let mut list = ToolListState::new(server, None, vec![book]);
/// let s = screen(&mut list, 80, 24);
/// assert!(s.contains("> book_table — Book a table"));
/// assert!(s.contains("    Reserves a table for tonight."));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolEntry {
    /// `name`.
    pub name: String,
    /// `title` (or `annotations.title`), when given.
    pub title: Option<String>,
    /// `description`, when given.
    pub description: Option<String>,
}

/// What the user chose on the tool list.
///
/// ```
/// # use mcp_elicit_tui::keys::press;
/// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
/// # let key = |code| press(code, KeyModifiers::NONE);
/// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
/// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
/// # use mcp_elicit_tui::{ToolEntry, ToolListChoice, ToolListState};
/// # let tool = |name: &str| ToolEntry { name: name.into(), title: None, description: None };
/// let mut list = ToolListState::new(server, None, vec![tool("a"), tool("b")]);
/// assert_eq!(list.handle_key(key(KeyCode::Down)), None);
/// assert_eq!(list.handle_key(key(KeyCode::Enter)), Some(ToolListChoice::Call(1)));
/// assert_eq!(list.handle_key(ctrl('t')), Some(ToolListChoice::ToggleStopAsking));
/// assert_eq!(list.handle_key(key(KeyCode::Char('q'))), Some(ToolListChoice::Quit));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolListChoice {
    /// Call the tool at this index.
    Call(usize),
    /// Leave (disconnect).
    Quit,
    /// Flip "stop asking": decline every elicitation from this server (Ctrl-T).
    ToggleStopAsking,
}

/// The tool list's state.
///
/// ```
/// # use mcp_elicit_tui::keys::press;
/// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
/// # let key = |code| press(code, KeyModifiers::NONE);
/// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
/// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
/// # use mcp_elicit_tui::{ToolEntry, ToolListChoice, ToolListState};
/// # let tool = |name: &str| ToolEntry { name: name.into(), title: None, description: None };
/// let mut list = ToolListState::new(server, None, vec![tool("a"), tool("b"), tool("c")]);
/// assert_eq!(list.tools().len(), 3);
/// list.select(99); // kept inside the list
/// assert_eq!(list.handle_key(key(KeyCode::Enter)), Some(ToolListChoice::Call(2)));
/// ```
#[derive(Debug, Clone)]
pub struct ToolListState {
    pub(crate) server: ServerIdentity,
    pub(crate) instructions: Option<String>,
    pub(crate) tools: Vec<ToolEntry>,
    pub(crate) selected: usize,
    pub(crate) scroll: usize,
}

impl ToolListState {
    /// A list of `tools` offered by `server`, with the server's `instructions` if any.
    ///
    /// ```
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
    /// # use mcp_elicit_tui::{ToolEntry, ToolListChoice, ToolListState};
    /// # let tool = |name: &str| ToolEntry { name: name.into(), title: None, description: None };
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # fn screen(s: &mut ToolListState, w: u16, h: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
    /// #     let _ = s.render(buf.area, &mut buf);
    /// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// let mut list = ToolListState::new(server.clone(), Some("Use a first.".into()), vec![tool("a")]);
    /// let s = screen(&mut list, 80, 24);
    /// assert!(s.contains("Tools from server: demo"));
    /// assert!(s.contains("Server instructions:") && s.contains("  Use a first."));
    /// let mut empty = ToolListState::new(server, None, vec![]);
    /// assert!(screen(&mut empty, 80, 24).contains("This server offers no tools."));
    /// assert_eq!(empty.handle_key(key(KeyCode::Enter)), None); // nothing to call
    /// ```
    pub fn new(
        server: ServerIdentity,
        instructions: Option<String>,
        tools: Vec<ToolEntry>,
    ) -> Self {
        Self {
            server,
            instructions,
            tools,
            selected: 0,
            scroll: 0,
        }
    }

    /// Selects the tool at `index` (kept inside the list).
    ///
    /// ```
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
    /// # use mcp_elicit_tui::{ToolEntry, ToolListChoice, ToolListState};
    /// # let tool = |name: &str| ToolEntry { name: name.into(), title: None, description: None };
    /// let mut list = ToolListState::new(server, None, vec![tool("a"), tool("b")]);
    /// list.select(1);
    /// assert_eq!(list.handle_key(key(KeyCode::Enter)), Some(ToolListChoice::Call(1)));
    /// ```
    pub fn select(&mut self, index: usize) {
        self.selected = index.min(self.tools.len().saturating_sub(1));
    }

    /// The tools.
    ///
    /// ```
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
    /// # use mcp_elicit_tui::{ToolEntry, ToolListChoice, ToolListState};
    /// # let tool = |name: &str| ToolEntry { name: name.into(), title: None, description: None };
    /// let list = ToolListState::new(server, None, vec![tool("a")]);
    /// assert_eq!(list.tools()[0].name, "a");
    /// ```
    pub fn tools(&self) -> &[ToolEntry] {
        &self.tools
    }

    /// Keys: ↑/↓ select, Enter call, Q / Esc / Ctrl-C quit.
    ///
    /// ```
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
    /// # use mcp_elicit_tui::{ToolEntry, ToolListChoice, ToolListState};
    /// # let tool = |name: &str| ToolEntry { name: name.into(), title: None, description: None };
    /// let mut list = ToolListState::new(server, None, vec![tool("a"), tool("b"), tool("c")]);
    /// // Up from the first tool wraps to the last; Home and End jump.
    /// list.handle_key(key(KeyCode::Up));
    /// assert_eq!(list.handle_key(key(KeyCode::Enter)), Some(ToolListChoice::Call(2)));
    /// list.handle_key(key(KeyCode::Home));
    /// assert_eq!(list.handle_key(key(KeyCode::Enter)), Some(ToolListChoice::Call(0)));
    /// assert_eq!(list.handle_key(key(KeyCode::Esc)), Some(ToolListChoice::Quit));
    /// assert_eq!(list.handle_key(ctrl('c')), Some(ToolListChoice::Quit));
    /// ```
    pub fn handle_key(&mut self, key: KeyEvent) -> Option<ToolListChoice> {
        if !is_press(&key) {
            return None;
        }
        if is_cancel(&key) || letter(&key, 'q') {
            return Some(ToolListChoice::Quit);
        }
        if crate::keys::ctrl(&key, 't') {
            return Some(ToolListChoice::ToggleStopAsking);
        }
        let n = self.tools.len();
        match key.code {
            KeyCode::Up | KeyCode::BackTab if n > 0 => self.selected = (self.selected + n - 1) % n,
            KeyCode::Down | KeyCode::Tab if n > 0 => self.selected = (self.selected + 1) % n,
            KeyCode::Home => self.selected = 0,
            KeyCode::End => self.selected = n.saturating_sub(1),
            KeyCode::Enter if n > 0 => return Some(ToolListChoice::Call(self.selected)),
            _ => {}
        }
        None
    }

    /// Draws the list.
    ///
    /// ```
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
    /// # use mcp_elicit_tui::{ToolEntry, ToolListChoice, ToolListState};
    /// # let tool = |name: &str| ToolEntry { name: name.into(), title: None, description: None };
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # fn screen(s: &mut ToolListState, w: u16, h: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
    /// #     let _ = s.render(buf.area, &mut buf);
    /// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// let tools = (0..30).map(|i| tool(&format!("tool_{i}"))).collect();
    /// let mut list = ToolListState::new(server, None, tools);
    /// list.select(29);
    /// // The selection is scrolled into view, and marked with `>`.
    /// let s = screen(&mut list, 80, 24);
    /// assert!(s.contains("> tool_29") && !s.contains("tool_0"));
    /// ```
    pub fn render(&mut self, area: Rect, buf: &mut Buffer) {
        let mut header = self.server.header_lines("Tools", area.width);
        header.push(rule(area.width));
        let mut footer = vec![rule(area.width)];
        footer.extend(chrome::help_lines(
            &[
                ("↑/↓", "select"),
                ("Enter", "call tool"),
                ("Ctrl-T", "stop/allow requests from this server"),
                ("Q/Esc", "quit"),
            ],
            area.width,
        ));
        let r = chrome::regions(area, header.len(), footer.len());
        chrome::draw_lines(&header, 0, r.header, buf);
        chrome::draw_lines(&footer, 0, r.footer, buf);
        let width = r.body.width;
        let mut lines = Vec::new();
        if let Some(i) = &self.instructions {
            lines.push(Line::from(Span::styled(
                "Server instructions:",
                theme::label(),
            )));
            lines.extend(text::wrapped_lines(i, width, 2, theme::dim()));
            lines.push(Line::default());
        }
        if self.tools.is_empty() {
            lines.push(Line::from("This server offers no tools."));
        }
        let mut focus = (0, 0);
        for (i, t) in self.tools.iter().enumerate() {
            let start = lines.len();
            let focused = i == self.selected;
            let (mark, style) = if focused {
                ("> ", theme::focus())
            } else {
                ("  ", theme::label())
            };
            let mut spans = vec![
                Span::raw(mark),
                Span::styled(text::one_line(&t.name).into_owned(), style),
            ];
            if let Some(title) = &t.title {
                spans.push(Span::raw(format!(" — {}", text::one_line(title))));
            }
            lines.push(Line::from(spans));
            if let Some(d) = &t.description {
                lines.extend(text::wrapped_lines(d, width, 4, Style::new()));
            }
            if focused {
                focus = (start, lines.len());
            }
        }
        let h = viewport(usize::from(r.body.height), lines.len());
        self.scroll = chrome::follow(self.scroll, focus, h, lines.len());
        chrome::draw_scrolled(&lines, self.scroll, r.body, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{assert_has, key, screen, server};

    fn list(n: usize) -> ToolListState {
        let tools = (0..n)
            .map(|i| ToolEntry {
                name: format!("tool_{i}"),
                title: (i == 0).then(|| "The first tool".into()),
                description: Some(format!("Does thing number {i}.")),
            })
            .collect();
        ToolListState::new(server(), Some("Use tool_0 first.".into()), tools)
    }

    #[test]
    fn lists_server_identity_tools_and_descriptions() {
        let mut s = list(3);
        let sc = screen(80, 24, |a, b| s.render(a, b));
        assert_has(&sc, "Tools from server: Demo Server");
        assert_has(&sc, "Use tool_0 first.");
        assert_has(&sc, "> tool_0 — The first tool");
        assert_has(&sc, "Does thing number 2.");
    }

    #[test]
    fn selection_moves_wraps_and_scrolls() {
        let mut s = list(30);
        assert_eq!(s.handle_key(key(KeyCode::Up)), None);
        assert_eq!(s.selected, 29);
        let sc = screen(80, 24, |a, b| s.render(a, b));
        assert_has(&sc, "> tool_29");
        assert_eq!(
            s.handle_key(key(KeyCode::Enter)),
            Some(ToolListChoice::Call(29))
        );
        assert_eq!(
            s.handle_key(key(KeyCode::Char('q'))),
            Some(ToolListChoice::Quit)
        );
        assert_eq!(s.handle_key(key(KeyCode::Esc)), Some(ToolListChoice::Quit));
        assert_eq!(
            s.handle_key(crate::testutil::ctrl('t')),
            Some(ToolListChoice::ToggleStopAsking)
        );
    }

    #[test]
    fn empty_list_says_so_and_enter_does_nothing() {
        let mut s = ToolListState::new(server(), None, vec![]);
        assert_eq!(s.handle_key(key(KeyCode::Enter)), None);
        assert_has(
            &screen(80, 24, |a, b| s.render(a, b)),
            "This server offers no tools.",
        );
    }
}
