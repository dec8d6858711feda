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
    pub fn set_progress(&mut self, progress: Progress) {
        self.progress = Some(progress);
    }

    /// The call waits for browser steps (-32042) before it is retried: lists them as
    /// pending until their completion arrives.
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
    pub fn set_labels(&mut self, labels: std::collections::BTreeMap<String, String>) {
        self.labels = labels;
    }

    /// Marks the wait as overdue (shows a question instead of a plain spinner).
    pub fn set_stalled(&mut self, stalled: bool) {
        self.stalled = stalled;
    }

    /// Marks one elicitation as completed; returns whether all are done. Unknown ids are
    /// ignored, as the specification requires.
    pub fn complete(&mut self, elicitation_id: &str) -> bool {
        self.pending.retain(|p| p != elicitation_id);
        self.pending.is_empty()
    }

    /// Elicitations still pending.
    pub fn pending(&self) -> &[String] {
        &self.pending
    }

    /// Keys: R retry now, W keep waiting, Esc / Ctrl-C / Q cancel, Tab/←/→ choose a
    /// button, Enter/Space press it (Keep waiting has the focus first), ↑/↓/PgUp/PgDn
    /// scroll. While a call simply runs only Cancel (Stop waiting) exists.
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
