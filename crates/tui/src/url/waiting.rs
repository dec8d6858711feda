//! The waiting view: after the user opened a URL, until the server reports completion,
//! with manual Retry now / Keep waiting / Cancel (the specification asks for manual
//! controls in case the completion notification never arrives), as buttons pinned below
//! the scrolling body.

use std::time::Duration;

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::chrome::{self, Buttons, rule, viewport};
use crate::keys::{is_cancel, is_press, letter};
use crate::server::ServerIdentity;
use crate::status::Progress;
use crate::{text, theme};

/// What the user chose while waiting.
///
/// ```
/// # use std::time::Duration;
/// # use mcp_elicit_tui::{ServerIdentity, WaitChoice, WaitingState};
/// # use mcp_elicit_tui::keys::press;
/// # use ratatui::{buffer::Buffer, layout::Rect};
/// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
/// # fn screen(w: &mut WaitingState, elapsed: Duration, width: u16, height: u16) -> String {
/// #     let mut buf = Buffer::empty(Rect::new(0, 0, width, height));
/// #     w.render(elapsed, buf.area, &mut buf);
/// #     (0..height).map(|y| (0..width).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
/// # }
/// # let key = |code| press(code, KeyModifiers::NONE);
/// # let server = ServerIdentity { name: "demo".into(), ..Default::default() };
/// let mut w = WaitingState::new(server, "sign-in", vec!["el-1".into()], None);
/// assert_eq!(w.handle_key(key(KeyCode::Char('r'))), Some(WaitChoice::RetryNow));
/// assert_eq!(w.handle_key(key(KeyCode::Char('w'))), Some(WaitChoice::KeepWaiting));
/// assert_eq!(w.handle_key(key(KeyCode::Char('q'))), Some(WaitChoice::Cancel));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitChoice {
    /// Retry the original request now (the interaction may have finished without a
    /// notification).
    RetryNow,
    /// Keep waiting (dismisses a "taking long" question).
    KeepWaiting,
    /// Give up.
    Cancel,
}

/// A button of the waiting view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WaitButton {
    RetryNow,
    KeepWaiting,
    Cancel,
}

/// State of the waiting view. Holds no clock: the host passes the elapsed time when
/// drawing.
///
/// ```
/// # use std::time::Duration;
/// # use mcp_elicit_tui::{ServerIdentity, WaitChoice, WaitingState};
/// # use mcp_elicit_tui::keys::press;
/// # use ratatui::{buffer::Buffer, layout::Rect};
/// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
/// # fn screen(w: &mut WaitingState, elapsed: Duration, width: u16, height: u16) -> String {
/// #     let mut buf = Buffer::empty(Rect::new(0, 0, width, height));
/// #     w.render(elapsed, buf.area, &mut buf);
/// #     (0..height).map(|y| (0..width).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
/// # }
/// # let key = |code| press(code, KeyModifiers::NONE);
/// # let server = ServerIdentity { name: "demo".into(), ..Default::default() };
/// let ids = vec!["el-1".to_string(), "el-2".to_string()];
/// let mut w = WaitingState::new(server, "sign-in", ids, Some("example.com".into()));
/// assert!(!w.complete("unknown")); // unknown ids are ignored
/// assert!(!w.complete("el-1"));
/// assert_eq!(w.pending(), ["el-2"]);
/// assert!(w.complete("el-2")); // all done: the host moves on
/// ```
#[derive(Debug, Clone)]
pub struct WaitingState {
    pub(crate) server: ServerIdentity,
    /// What we wait for, e.g. `the tool "book" to be retried` or `sign-in at example.com`.
    pub(crate) what: String,
    /// Elicitation ids not completed yet.
    pub(crate) pending: Vec<String>,
    /// The registrable domain (or host) of the page opened, when known.
    pub(crate) domain: Option<String>,
    /// Set when completion is overdue: the view asks explicitly what to do.
    pub(crate) stalled: bool,
    /// Whether Retry now / Keep waiting are offered (not while a tool call simply runs).
    pub(crate) retry: bool,
    /// The latest progress the server reported for the running request.
    pub(crate) progress: Option<Progress>,
    /// What each pending elicitation is, by id: the server's message and the domain.
    pub(crate) labels: std::collections::BTreeMap<String, String>,
    /// First body line shown.
    pub(crate) scroll: usize,
    /// Retry now / Keep waiting / Cancel (focus on Keep waiting), or, while a call
    /// simply runs, Stop waiting (focused only by Tab: a stray Enter stops nothing).
    pub(crate) buttons: Buttons<WaitButton>,
}

/// Spinner frames (ASCII so every terminal shows them).
const FRAMES: [&str; 4] = ["|", "/", "-", "\\"];

impl WaitingState {
    /// Waiting for `pending` elicitations of `server` to complete.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use mcp_elicit_tui::{ServerIdentity, WaitChoice, WaitingState};
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # fn screen(w: &mut WaitingState, elapsed: Duration, width: u16, height: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, width, height));
    /// #     w.render(elapsed, buf.area, &mut buf);
    /// #     (0..height).map(|y| (0..width).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let server = ServerIdentity { name: "demo".into(), ..Default::default() };
    /// let ids = vec!["el-1".to_string(), "el-2".to_string()];
    /// let mut w = WaitingState::new(server, "sign-in", ids, Some("example.com".into()));
    /// let s = screen(&mut w, Duration::from_secs(75), 80, 24);
    /// assert!(s.contains("Waiting for completion from server: demo"));
    /// assert!(s.contains("Elapsed: 1:15"));
    /// assert!(s.contains("Page opened at: example.com"));
    /// assert!(s.contains("Still pending: 2"));
    /// assert!(s.contains("  - elicitation el-1"));
    /// assert!(s.contains("> < Keep waiting (W) >")); // focused first
    /// assert!(s.contains("< Retry now (R) >") && s.contains("< Cancel (Esc) >"));
    /// ```
    pub fn new(
        server: ServerIdentity,
        what: impl Into<String>,
        pending: Vec<String>,
        domain: Option<String>,
    ) -> Self {
        Self {
            server,
            what: what.into(),
            pending,
            domain,
            stalled: false,
            retry: true,
            progress: None,
            labels: Default::default(),
            scroll: 0,
            buttons: Buttons::new(
                vec![
                    WaitButton::RetryNow,
                    WaitButton::KeepWaiting,
                    WaitButton::Cancel,
                ],
                WaitButton::KeepWaiting,
            ),
        }
    }

    /// Waiting for a running tool call: only Cancel is offered.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use mcp_elicit_tui::{ServerIdentity, WaitChoice, WaitingState};
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # fn screen(w: &mut WaitingState, elapsed: Duration, width: u16, height: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, width, height));
    /// #     w.render(elapsed, buf.area, &mut buf);
    /// #     (0..height).map(|y| (0..width).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let server = ServerIdentity { name: "demo".into(), ..Default::default() };
    /// let mut w = WaitingState::call(server, "book");
    /// let s = screen(&mut w, Duration::from_secs(3), 80, 24);
    /// assert!(s.contains("Waiting for tool result from server: demo"));
    /// assert!(s.contains("the tool \"book\" is running"));
    /// assert!(s.contains("< Stop waiting (Esc) >") && !s.contains("Retry now"));
    /// // A stray Enter (say, the one that started the call) stops nothing; R does nothing.
    /// assert_eq!(w.handle_key(key(KeyCode::Enter)), None);
    /// assert_eq!(w.handle_key(key(KeyCode::Char('r'))), None);
    /// // Tab focuses Stop waiting, Enter presses it.
    /// assert_eq!(w.handle_key(key(KeyCode::Tab)), None);
    /// assert_eq!(w.handle_key(key(KeyCode::Enter)), Some(WaitChoice::Cancel));
    /// ```
    pub fn call(server: ServerIdentity, tool: &str) -> Self {
        Self {
            server,
            what: format!("the tool \"{}\" is running", text::one_line(tool)),
            pending: Vec::new(),
            domain: None,
            stalled: false,
            retry: false,
            progress: None,
            labels: Default::default(),
            scroll: 0,
            buttons: Buttons::unfocused(vec![WaitButton::Cancel]),
        }
    }

    /// Shows the latest progress reported by the server.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use mcp_elicit_tui::{ServerIdentity, WaitChoice, WaitingState};
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # fn screen(w: &mut WaitingState, elapsed: Duration, width: u16, height: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, width, height));
    /// #     w.render(elapsed, buf.area, &mut buf);
    /// #     (0..height).map(|y| (0..width).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let server = ServerIdentity { name: "demo".into(), ..Default::default() };
    /// use mcp_elicit_tui::Progress;
    /// let mut w = WaitingState::call(server, "copy_files");
    /// w.set_progress(Progress { progress: 3.0, total: Some(4.0), message: Some("Copying".into()) });
    /// let s = screen(&mut w, Duration::from_secs(9), 80, 24);
    /// assert!(s.contains("Progress: [######################--------]  75% Copying"));
    /// ```
    pub fn set_progress(&mut self, progress: Progress) {
        self.progress = Some(progress);
    }

    /// The call waits for browser steps (-32042) before it is retried: lists them as
    /// pending until their completion arrives.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use mcp_elicit_tui::{ServerIdentity, WaitChoice, WaitingState};
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # fn screen(w: &mut WaitingState, elapsed: Duration, width: u16, height: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, width, height));
    /// #     w.render(elapsed, buf.area, &mut buf);
    /// #     (0..height).map(|y| (0..width).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let server = ServerIdentity { name: "demo".into(), ..Default::default() };
    /// let mut w = WaitingState::call(server, "connect");
    /// w.waiting_for_steps("connect", vec!["el-1".into()]);
    /// assert_eq!(w.pending(), ["el-1"]);
    /// let s = screen(&mut w, Duration::from_secs(1), 200, 24);
    /// assert!(s.contains("the tool \"connect\" is retried once your browser steps are complete"));
    /// assert!(s.contains("Still pending: 1"));
    /// ```
    pub fn waiting_for_steps(&mut self, tool: &str, pending: Vec<String>) {
        self.what = format!(
            "the tool \"{}\" is retried once your browser steps are complete",
            text::one_line(tool)
        );
        self.pending = pending;
        self.progress = None;
    }

    /// What each pending elicitation is (the server's message and the domain, by id),
    /// listed instead of the raw ids.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use mcp_elicit_tui::{ServerIdentity, WaitChoice, WaitingState};
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # fn screen(w: &mut WaitingState, elapsed: Duration, width: u16, height: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, width, height));
    /// #     w.render(elapsed, buf.area, &mut buf);
    /// #     (0..height).map(|y| (0..width).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let server = ServerIdentity { name: "demo".into(), ..Default::default() };
    /// let mut w = WaitingState::new(server, "sign-in", vec!["el-1".into()], None);
    /// w.set_labels([("el-1".to_string(), "Sign in at example.com".to_string())].into());
    /// let s = screen(&mut w, Duration::ZERO, 80, 24);
    /// assert!(s.contains("  - Sign in at example.com"));
    /// assert!(!s.contains("elicitation el-1"));
    /// ```
    pub fn set_labels(&mut self, labels: std::collections::BTreeMap<String, String>) {
        self.labels = labels;
    }

    /// Marks the wait as overdue (shows a question instead of a plain spinner).
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use mcp_elicit_tui::{ServerIdentity, WaitChoice, WaitingState};
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # fn screen(w: &mut WaitingState, elapsed: Duration, width: u16, height: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, width, height));
    /// #     w.render(elapsed, buf.area, &mut buf);
    /// #     (0..height).map(|y| (0..width).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let server = ServerIdentity { name: "demo".into(), ..Default::default() };
    /// let mut w = WaitingState::new(server, "sign-in", vec!["el-1".into()], None);
    /// w.set_stalled(true);
    /// let s = screen(&mut w, Duration::from_secs(400), 80, 24);
    /// assert!(s.contains("No completion notice has arrived yet."));
    /// // Keep waiting answers the question.
    /// assert_eq!(w.handle_key(key(KeyCode::Enter)), Some(WaitChoice::KeepWaiting));
    /// let s = screen(&mut w, Duration::from_secs(401), 80, 24);
    /// assert!(!s.contains("No completion notice has arrived yet."));
    /// ```
    pub fn set_stalled(&mut self, stalled: bool) {
        self.stalled = stalled;
    }

    /// Marks one elicitation as completed; returns whether all are done. Unknown ids are
    /// ignored, as the specification requires.
    ///
    /// ```
    /// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
    /// # use mcp_elicit_tui::WaitingState;
    /// let mut w = WaitingState::new(server, "sign-in", vec!["a".into(), "b".into()], None);
    /// assert!(!w.complete("a"));
    /// assert!(!w.complete("a")); // twice is the same as once
    /// assert!(!w.complete("zzz")); // not ours: ignored
    /// assert!(w.complete("b"));
    /// ```
    pub fn complete(&mut self, elicitation_id: &str) -> bool {
        self.pending.retain(|p| p != elicitation_id);
        self.pending.is_empty()
    }

    /// Elicitations still pending.
    ///
    /// ```
    /// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
    /// # use mcp_elicit_tui::WaitingState;
    /// let mut w = WaitingState::new(server, "sign-in", vec!["a".into(), "b".into()], None);
    /// w.complete("a");
    /// assert_eq!(w.pending(), ["b"]);
    /// ```
    pub fn pending(&self) -> &[String] {
        &self.pending
    }

    /// Keys: R retry now, W keep waiting, Esc / Ctrl-C / Q cancel, Tab/←/→ choose a
    /// button, Enter/Space press it (Keep waiting has the focus first), ↑/↓/PgUp/PgDn
    /// scroll. While a call simply runs only Cancel (Stop waiting) exists.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use mcp_elicit_tui::{ServerIdentity, WaitChoice, WaitingState};
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # fn screen(w: &mut WaitingState, elapsed: Duration, width: u16, height: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, width, height));
    /// #     w.render(elapsed, buf.area, &mut buf);
    /// #     (0..height).map(|y| (0..width).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let server = ServerIdentity { name: "demo".into(), ..Default::default() };
    /// let mut w = WaitingState::new(server, "sign-in", vec!["el-1".into()], None);
    /// // Keep waiting has the focus, so Enter keeps its meaning.
    /// assert_eq!(w.handle_key(key(KeyCode::Enter)), Some(WaitChoice::KeepWaiting));
    /// assert_eq!(w.handle_key(key(KeyCode::Char('r'))), Some(WaitChoice::RetryNow));
    /// // Tab moves to Cancel, then round to Retry now.
    /// assert_eq!(w.handle_key(key(KeyCode::Tab)), None);
    /// assert_eq!(w.handle_key(key(KeyCode::Enter)), Some(WaitChoice::Cancel));
    /// assert_eq!(w.handle_key(key(KeyCode::Tab)), None);
    /// assert_eq!(w.handle_key(key(KeyCode::Char(' '))), Some(WaitChoice::RetryNow));
    /// assert_eq!(w.handle_key(key(KeyCode::Esc)), Some(WaitChoice::Cancel));
    /// ```
    pub fn handle_key(&mut self, key: KeyEvent) -> Option<WaitChoice> {
        if !is_press(&key) {
            return None;
        }
        if is_cancel(&key) || letter(&key, 'q') {
            return Some(WaitChoice::Cancel);
        }
        let pressed = match key.code {
            KeyCode::Up => {
                self.scroll = self.scroll.saturating_sub(1);
                None
            }
            KeyCode::Down => {
                self.scroll = self.scroll.saturating_add(1);
                None
            }
            KeyCode::PageUp => {
                self.scroll = self.scroll.saturating_sub(10);
                None
            }
            KeyCode::PageDown => {
                self.scroll = self.scroll.saturating_add(10);
                None
            }
            _ if self.retry && letter(&key, 'r') => Some(WaitButton::RetryNow),
            _ if self.retry && letter(&key, 'w') => Some(WaitButton::KeepWaiting),
            _ => self.buttons.handle(&key),
        };
        match pressed? {
            WaitButton::RetryNow => Some(WaitChoice::RetryNow),
            WaitButton::KeepWaiting => {
                self.stalled = false;
                Some(WaitChoice::KeepWaiting)
            }
            WaitButton::Cancel => Some(WaitChoice::Cancel),
        }
    }

    /// Draws the view; `elapsed` is how long we have waited (drives the spinner too).
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use mcp_elicit_tui::{ServerIdentity, WaitChoice, WaitingState};
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # fn screen(w: &mut WaitingState, elapsed: Duration, width: u16, height: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, width, height));
    /// #     w.render(elapsed, buf.area, &mut buf);
    /// #     (0..height).map(|y| (0..width).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let server = ServerIdentity { name: "demo".into(), ..Default::default() };
    /// let mut w = WaitingState::new(server, "sign-in", vec!["el-1".into()], None);
    /// let spinner = |s: &str| s.lines().find(|l| l.contains("Waiting for demo")).map(str::to_string);
    /// let a = screen(&mut w, Duration::from_millis(1_000), 80, 24);
    /// let b = screen(&mut w, Duration::from_millis(1_250), 80, 24);
    /// assert!(a.contains("Elapsed: 0:01"));
    /// assert_ne!(spinner(&a), spinner(&b)); // the spinner moves every 250 ms
    /// ```
    pub fn render(&mut self, elapsed: Duration, area: Rect, buf: &mut Buffer) {
        let what = if self.retry {
            "Waiting for completion"
        } else {
            "Waiting for tool result"
        };
        let mut header = self.server.header_lines(what, area.width);
        header.push(rule(area.width));
        let retry = self.retry;
        let footer = chrome::Footer {
            notes: Vec::new(),
            buttons: self.buttons.lines(area.width, |b| {
                match b {
                    WaitButton::RetryNow => "Retry now (R)",
                    WaitButton::KeepWaiting => "Keep waiting (W)",
                    WaitButton::Cancel if retry => "Cancel (Esc)",
                    WaitButton::Cancel => "Stop waiting (Esc)",
                }
                .to_string()
            }),
            help: chrome::help_lines(
                &[("Tab/←/→", "choose"), ("Enter", "press"), ("↑/↓", "scroll")],
                area.width,
            ),
        };
        let body = chrome::frame(area, &header, &footer, buf);
        let frame = FRAMES[usize::try_from(elapsed.as_millis() / 250).unwrap_or(0) % FRAMES.len()];
        let secs = elapsed.as_secs();
        let mut lines = vec![Line::from(vec![
            Span::styled(format!("{frame} "), theme::label()),
            Span::raw(format!(
                "Waiting for {}{}: {}",
                self.server.display_name(),
                if self.retry {
                    " to report completion"
                } else {
                    ""
                },
                text::one_line(&self.what)
            )),
        ])];
        lines.push(Line::from(format!(
            "Elapsed: {}:{:02}",
            secs / 60,
            secs % 60
        )));
        if let Some(p) = &self.progress {
            let mut line = p.line(body.width.saturating_sub(10));
            line.spans.insert(0, Span::raw("Progress: "));
            lines.push(line);
        }
        if let Some(d) = &self.domain {
            lines.push(Line::from(vec![
                Span::raw("Page opened at: "),
                Span::styled(text::one_line(d).into_owned(), theme::domain()),
            ]));
        }
        if !self.pending.is_empty() {
            lines.push(Line::from(format!("Still pending: {}", self.pending.len())));
            for p in &self.pending {
                let shown = match self.labels.get(p) {
                    Some(l) => format!("  - {}", text::one_line(l)),
                    None => format!("  - elicitation {}", text::one_line(p)),
                };
                lines.push(Line::from(Span::styled(shown, theme::dim())));
            }
        }
        lines.push(Line::default());
        let note = if !self.retry {
            "Requests from the server appear here. Esc stops waiting (a late result is dropped)."
        } else if self.stalled {
            "No completion notice has arrived yet. If you finished in the browser, press R to retry now; \
             W to keep waiting; Esc to cancel."
        } else {
            "Finish in your browser. This continues by itself when the server reports completion; \
             press R to retry now if it does not."
        };
        let style = if self.stalled {
            theme::warning()
        } else {
            Style::new()
        };
        lines.extend(text::wrapped_lines(note, body.width, 0, style));
        let lines: Vec<Line<'static>> = lines
            .into_iter()
            .flat_map(|l| {
                // Keep long single lines inside the width.
                let s: String = l.spans.iter().map(|s| s.content.as_ref()).collect();
                if text::width(&s) <= usize::from(body.width) {
                    vec![l]
                } else {
                    text::wrapped_lines(&s, body.width, 0, Style::new())
                }
            })
            .collect();
        let h = viewport(usize::from(body.height), lines.len());
        self.scroll = self.scroll.min(lines.len().saturating_sub(h));
        chrome::draw_scrolled(&lines, self.scroll, body, buf);
    }
}
