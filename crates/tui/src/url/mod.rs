//! The URL consent screen (URL-mode elicitation) and the waiting view shown while an
//! out-of-band interaction runs.
//!
//! The consent screen shows who asks, their message, the full URL with its registrable
//! domain emphasised (bold and underlined, and marked with a caret line so the emphasis
//! does not depend on styling), the host in Unicode and ASCII when they differ, and every
//! finding of [`mcp_elicit_core::url_safety::analyze`] in words. Blocked URLs cannot be
//! opened or copied. URLs with warnings need a second, explicit confirmation.

pub(crate) mod render;
#[cfg(test)]
mod tests;
mod waiting;

use mcp_elicit_core::url_safety::{Severity, UrlAnalysis, Verdict};
use ratatui::crossterm::event::{KeyCode, KeyEvent};

use crate::keys::{ctrl, is_cancel, is_press, letter};
use crate::server::ServerIdentity;

pub use waiting::{WaitChoice, WaitingState};

/// What the user chose on the consent screen.
///
/// ```
/// # use mcp_elicit_core::url_safety::analyze;
/// # use mcp_elicit_tui::{ServerIdentity, UrlChoice, UrlConsentState, UrlContext};
/// # use mcp_elicit_tui::keys::press;
/// # use ratatui::{buffer::Buffer, layout::Rect};
/// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
/// # fn screen(s: &mut UrlConsentState, w: u16, h: u16) -> String {
/// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
/// #     s.render(buf.area, &mut buf);
/// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
/// # }
/// # let key = |code| press(code, KeyModifiers::NONE);
/// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
/// # let server = ServerIdentity { name: "demo".into(), ..Default::default() };
/// # let consent = |url: &str| {
/// #     UrlConsentState::new(server.clone(), "Sign in to connect your calendar.", analyze(url), UrlContext::Request)
/// # };
/// let mut s = consent("https://mcp.example.com/connect");
/// assert_eq!(s.handle_key(key(KeyCode::Char('c'))), Some(UrlChoice::Copy));
/// s.set_copied(Ok(()));
/// assert_eq!(s.handle_key(key(KeyCode::Char('f'))), Some(UrlChoice::Finished));
/// assert_eq!(s.handle_key(key(KeyCode::Char('o'))), Some(UrlChoice::Open));
/// assert_eq!(s.handle_key(key(KeyCode::Char('d'))), Some(UrlChoice::Decline));
/// assert_eq!(s.handle_key(key(KeyCode::Esc)), Some(UrlChoice::Cancel));
/// s.handle_key(ctrl('t')); // "stop asking this server" on
/// assert_eq!(s.handle_key(key(KeyCode::Char('d'))), Some(UrlChoice::StopAsking));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlChoice {
    /// Explicit consent: open the URL in the system browser.
    Open,
    /// Copy the URL to the clipboard. Not final: the screen stays; call
    /// [`UrlConsentState::set_copied`] with the result.
    Copy,
    /// The user opened the URL themselves (after Copy, or when no browser could be
    /// started) and says they finished there: consent, without starting a browser.
    Finished,
    /// Explicit no.
    Decline,
    /// Explicit no, and stop asking for the rest of the session (the "stop asking this
    /// server" toggle was on when declining).
    StopAsking,
    /// Dismissed without a choice (Esc / Ctrl-C / the Cancel button).
    Cancel,
}

/// A button on the consent screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UrlButton {
    Open,
    Copy,
    Finished,
    Decline,
    Cancel,
}

/// Why the URL is shown.
///
/// ```
/// # use mcp_elicit_core::url_safety::analyze;
/// # use mcp_elicit_tui::{ServerIdentity, UrlChoice, UrlConsentState, UrlContext};
/// # use mcp_elicit_tui::keys::press;
/// # use ratatui::{buffer::Buffer, layout::Rect};
/// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
/// # fn screen(s: &mut UrlConsentState, w: u16, h: u16) -> String {
/// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
/// #     s.render(buf.area, &mut buf);
/// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
/// # }
/// # let key = |code| press(code, KeyModifiers::NONE);
/// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
/// # let server = ServerIdentity { name: "demo".into(), ..Default::default() };
/// # let consent = |url: &str| {
/// #     UrlConsentState::new(server.clone(), "Sign in to connect your calendar.", analyze(url), UrlContext::Request)
/// # };
/// let why = UrlContext::RequiredByTool { tool: "list_files".into(), step: 2, of: 3 };
/// let mut s = UrlConsentState::new(server, "Authorize access", analyze("https://example.com/connect"), why);
/// let shown = screen(&mut s, 80, 24);
/// assert!(shown.contains("Tool needs a web page from server: demo"));
/// assert!(shown.contains("Step 2 of 3: the tool \"list_files\" cannot run"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UrlContext {
    /// A URL-mode `elicitation/create` request.
    Request,
    /// A tool call answered -32042: the tool needs this interaction before it can run.
    RequiredByTool {
        /// The tool.
        tool: String,
        /// Which step this is (1-based)...
        step: usize,
        /// ...out of how many.
        of: usize,
    },
}

/// The consent screen's state.
///
/// ```
/// # use mcp_elicit_core::url_safety::analyze;
/// # use mcp_elicit_tui::{ServerIdentity, UrlChoice, UrlConsentState, UrlContext};
/// # use mcp_elicit_tui::keys::press;
/// # use ratatui::{buffer::Buffer, layout::Rect};
/// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
/// # fn screen(s: &mut UrlConsentState, w: u16, h: u16) -> String {
/// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
/// #     s.render(buf.area, &mut buf);
/// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
/// # }
/// # let key = |code| press(code, KeyModifiers::NONE);
/// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
/// # let server = ServerIdentity { name: "demo".into(), ..Default::default() };
/// # let consent = |url: &str| {
/// #     UrlConsentState::new(server.clone(), "Sign in to connect your calendar.", analyze(url), UrlContext::Request)
/// # };
/// let mut s = consent("https://mcp.example.com/connect?elicitationId=e1");
/// s.set_elicitation_id("e1");
/// assert_eq!(s.elicitation_id(), Some("e1"));
/// assert!(s.can_open());
/// assert_eq!(s.url(), Some("https://mcp.example.com/connect?elicitationId=e1"));
/// // The focus starts on Copy, never on Open: a stray Enter opens nothing.
/// assert_eq!(s.handle_key(key(KeyCode::Enter)), Some(UrlChoice::Copy));
/// // Open takes a deliberate O.
/// assert_eq!(s.handle_key(key(KeyCode::Char('o'))), Some(UrlChoice::Open));
/// ```
#[derive(Debug, Clone)]
pub struct UrlConsentState {
    pub(crate) server: ServerIdentity,
    pub(crate) message: String,
    pub(crate) analysis: UrlAnalysis,
    pub(crate) context: UrlContext,
    pub(crate) focus: UrlButton,
    /// Set by a first Open on a URL with warnings: the next Open goes through.
    pub(crate) confirming: bool,
    pub(crate) stop_asking: bool,
    pub(crate) status: Option<String>,
    pub(crate) scroll: usize,
    /// The server's `elicitationId`, when known: its completion notice answers the screen.
    pub(crate) elicitation_id: Option<String>,
    /// Set after Copy or a failed Open: "I finished in my browser" is offered.
    pub(crate) offer_finished: bool,
}

impl UrlConsentState {
    /// A consent screen for `analysis` (from [`mcp_elicit_core::url_safety::analyze`]).
    ///
    /// ```
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
    /// # use mcp_elicit_core::url_safety::analyze;
    /// # use mcp_elicit_tui::{UrlChoice, UrlConsentState, UrlContext};
    /// // On a blocked URL the focus starts on Decline, and only Decline / Cancel exist.
    /// let mut s = UrlConsentState::new(server, "Open this", analyze("data:text/html,hi"), UrlContext::Request);
    /// assert!(!s.can_open());
    /// assert_eq!(s.handle_key(key(KeyCode::Enter)), Some(UrlChoice::Decline));
    /// s.handle_key(key(KeyCode::Tab));
    /// assert_eq!(s.handle_key(key(KeyCode::Enter)), Some(UrlChoice::Cancel));
    /// ```
    pub fn new(
        server: ServerIdentity,
        message: impl Into<String>,
        analysis: UrlAnalysis,
        context: UrlContext,
    ) -> Self {
        let blocked = analysis.is_blocked();
        Self {
            server,
            message: message.into(),
            analysis,
            context,
            // Never start on Open: consent takes a deliberate move.
            focus: if blocked {
                UrlButton::Decline
            } else {
                UrlButton::Copy
            },
            confirming: false,
            stop_asking: false,
            status: None,
            scroll: 0,
            elicitation_id: None,
            offer_finished: false,
        }
    }

    /// Remembers the server's `elicitationId`, so its completion notice can answer the
    /// screen ([`Self::elicitation_id`]).
    pub fn set_elicitation_id(&mut self, id: impl Into<String>) {
        self.elicitation_id = Some(id.into());
    }

    /// The server's `elicitationId`, when known.
    pub fn elicitation_id(&self) -> Option<&str> {
        self.elicitation_id.as_deref()
    }

    /// Whether "I finished in my browser" is offered (after Copy or a failed Open).
    pub fn offers_finished(&self) -> bool {
        self.offer_finished
    }

    /// Reports that [`UrlChoice::Open`] could not start a browser: the screen stays (no
    /// answer is sent), says why, and offers Copy and "I finished in my browser".
    ///
    /// ```
    /// # use mcp_elicit_core::url_safety::analyze;
    /// # use mcp_elicit_tui::{ServerIdentity, UrlChoice, UrlConsentState, UrlContext};
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # fn screen(s: &mut UrlConsentState, w: u16, h: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
    /// #     s.render(buf.area, &mut buf);
    /// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # let server = ServerIdentity { name: "demo".into(), ..Default::default() };
    /// # let consent = |url: &str| {
    /// #     UrlConsentState::new(server.clone(), "Sign in to connect your calendar.", analyze(url), UrlContext::Request)
    /// # };
    /// let mut s = consent("https://mcp.example.com/connect");
    /// assert!(!s.offers_finished());
    /// s.set_open_failed("no browser is configured (--browser none)");
    /// assert!(s.offers_finished());
    /// assert!(screen(&mut s, 80, 24).contains("Could not start a browser: no browser is configured"));
    /// // The user opened the URL elsewhere and says so.
    /// assert_eq!(s.handle_key(key(KeyCode::Char('f'))), Some(UrlChoice::Finished));
    /// ```
    pub fn set_open_failed(&mut self, error: &str) {
        self.offer_finished = true;
        self.confirming = false;
        self.focus = UrlButton::Copy;
        self.status = Some(format!(
            "Could not start a browser: {}. Nothing was sent to the server. Copy the URL (C) \
             or select it above, open it yourself, then choose \"I finished in my browser\" (F).",
            crate::text::one_line(error)
        ));
    }

    /// Whether the URL may be opened (not blocked).
    pub fn can_open(&self) -> bool {
        !self.analysis.is_blocked()
    }

    /// The URL to open or copy: the normalized form the browser will load.
    pub fn url(&self) -> Option<&str> {
        if self.can_open() {
            self.analysis.url.as_deref()
        } else {
            None
        }
    }

    /// Whether the "stop asking this server" toggle is on.
    pub fn stop_asking(&self) -> bool {
        self.stop_asking
    }

    /// Reports the result of a [`UrlChoice::Copy`]. The terminal is only asked to copy
    /// (OSC 52) and cannot say whether it did, so the screen says what was done, where
    /// else to find the URL, and offers "I finished in my browser".
    ///
    /// ```
    /// # use mcp_elicit_core::url_safety::analyze;
    /// # use mcp_elicit_tui::{ServerIdentity, UrlChoice, UrlConsentState, UrlContext};
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # fn screen(s: &mut UrlConsentState, w: u16, h: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
    /// #     s.render(buf.area, &mut buf);
    /// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # let server = ServerIdentity { name: "demo".into(), ..Default::default() };
    /// # let consent = |url: &str| {
    /// #     UrlConsentState::new(server.clone(), "Sign in to connect your calendar.", analyze(url), UrlContext::Request)
    /// # };
    /// let mut s = consent("https://example.com/");
    /// assert_eq!(s.handle_key(key(KeyCode::Char('c'))), Some(UrlChoice::Copy));
    /// s.set_copied(Ok(()));
    /// assert!(screen(&mut s, 80, 24).contains("Asked your terminal to copy the URL (OSC 52)."));
    /// // The focus moves to "I finished in my browser".
    /// assert_eq!(s.handle_key(key(KeyCode::Enter)), Some(UrlChoice::Finished));
    /// s.set_copied(Err("no terminal".into()));
    /// assert!(screen(&mut s, 80, 24).contains("Could not copy the URL: no terminal"));
    /// ```
    pub fn set_copied(&mut self, result: Result<(), String>) {
        self.offer_finished = true;
        self.status = Some(match result {
            Ok(()) => {
                self.focus = UrlButton::Finished;
                "Asked your terminal to copy the URL (OSC 52). Some terminals ignore this (tmux \
                 by default): if pasting gives nothing, select the URL above instead. Open it \
                 in any browser, then choose \"I finished in my browser\" (F)."
                    .into()
            }
            Err(e) => format!(
                "Could not copy the URL: {}. Select it above instead, open it in any browser, \
                 then choose \"I finished in my browser\" (F).",
                crate::text::one_line(&e)
            ),
        });
    }

    /// The reasons this URL is blocked (findings of severity block).
    pub(crate) fn block_reasons(&self) -> Vec<&str> {
        self.analysis
            .warnings
            .iter()
            .filter(|f| f.severity == Severity::Block)
            .map(|f| f.message.as_str())
            .collect()
    }

    pub(crate) fn buttons(&self) -> Vec<UrlButton> {
        if self.can_open() {
            let mut v = vec![UrlButton::Open, UrlButton::Copy];
            if self.offer_finished {
                v.push(UrlButton::Finished);
            }
            v.extend([UrlButton::Decline, UrlButton::Cancel]);
            v
        } else {
            vec![UrlButton::Decline, UrlButton::Cancel]
        }
    }

    /// Handles one key. Keys: O open (twice when there are warnings), C copy, F "I
    /// finished in my browser" (after a copy or a failed open), D or Ctrl-D decline, Esc or Ctrl-C cancel, Ctrl-T toggles "stop asking this server",
    /// Tab/←/→ move between buttons, Enter/Space press the focused one, ↑/↓ scroll.
    ///
    /// ```
    /// # use mcp_elicit_core::url_safety::analyze;
    /// # use mcp_elicit_tui::{ServerIdentity, UrlChoice, UrlConsentState, UrlContext};
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # fn screen(s: &mut UrlConsentState, w: u16, h: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
    /// #     s.render(buf.area, &mut buf);
    /// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # let server = ServerIdentity { name: "demo".into(), ..Default::default() };
    /// # let consent = |url: &str| {
    /// #     UrlConsentState::new(server.clone(), "Sign in to connect your calendar.", analyze(url), UrlContext::Request)
    /// # };
    /// // A URL with warnings (plain http) needs O twice: the first shows how many there are.
    /// let mut s = consent("http://example.com/");
    /// assert_eq!(s.handle_key(key(KeyCode::Char('o'))), None);
    /// assert!(screen(&mut s, 80, 24).contains("press O again to open it anyway"));
    /// assert_eq!(s.handle_key(key(KeyCode::Char('o'))), Some(UrlChoice::Open));
    ///
    /// // A blocked URL is neither opened nor copied; declining still works.
    /// let mut s = consent("javascript:alert(1)");
    /// assert!(!s.can_open());
    /// assert_eq!(s.url(), None);
    /// assert_eq!(s.handle_key(key(KeyCode::Char('o'))), None);
    /// assert_eq!(s.handle_key(key(KeyCode::Char('c'))), None);
    /// assert!(screen(&mut s, 80, 24).contains("cannot be opened or copied"));
    /// assert_eq!(s.handle_key(key(KeyCode::Char('d'))), Some(UrlChoice::Decline));
    ///
    /// // Tab moves between the buttons (Copy, then Decline), Enter presses.
    /// let mut s = consent("https://example.com/");
    /// s.handle_key(key(KeyCode::Tab));
    /// assert!(screen(&mut s, 80, 30).contains("> < Decline (D) >"));
    /// assert_eq!(s.handle_key(key(KeyCode::Enter)), Some(UrlChoice::Decline));
    /// ```
    pub fn handle_key(&mut self, key: KeyEvent) -> Option<UrlChoice> {
        if !is_press(&key) {
            return None;
        }
        if is_cancel(&key) {
            return Some(UrlChoice::Cancel);
        }
        if ctrl(&key, 't') {
            self.stop_asking = !self.stop_asking;
            return None;
        }
        if ctrl(&key, 'd') || letter(&key, 'd') {
            return Some(self.decline());
        }
        if letter(&key, 'o') {
            return self.press(UrlButton::Open);
        }
        if letter(&key, 'c') {
            return self.press(UrlButton::Copy);
        }
        if letter(&key, 'f') && self.offer_finished {
            return self.press(UrlButton::Finished);
        }
        let buttons = self.buttons();
        let at = buttons.iter().position(|b| *b == self.focus).unwrap_or(0);
        let n = buttons.len();
        match key.code {
            KeyCode::Tab | KeyCode::Right => self.focus = buttons[(at + 1) % n],
            KeyCode::BackTab | KeyCode::Left => self.focus = buttons[(at + n - 1) % n],
            KeyCode::Enter | KeyCode::Char(' ') => return self.press(self.focus),
            KeyCode::Up => self.scroll = self.scroll.saturating_sub(1),
            KeyCode::Down => self.scroll = self.scroll.saturating_add(1),
            KeyCode::PageUp => self.scroll = self.scroll.saturating_sub(10),
            KeyCode::PageDown => self.scroll = self.scroll.saturating_add(10),
            _ => {}
        }
        None
    }

    fn decline(&self) -> UrlChoice {
        if self.stop_asking {
            UrlChoice::StopAsking
        } else {
            UrlChoice::Decline
        }
    }

    fn press(&mut self, b: UrlButton) -> Option<UrlChoice> {
        match b {
            UrlButton::Open | UrlButton::Copy | UrlButton::Finished if !self.can_open() => {
                self.status = Some(format!(
                    "This URL is blocked and cannot be opened or copied: {}",
                    self.block_reasons().join("; ")
                ));
                None
            }
            UrlButton::Open => {
                if self.analysis.verdict == Verdict::Warn && !self.confirming {
                    self.confirming = true;
                    self.focus = UrlButton::Open;
                    let n = self
                        .analysis
                        .warnings
                        .iter()
                        .filter(|f| f.severity == Severity::Warn)
                        .count();
                    self.status = Some(format!(
                        "This URL has {n} warning{}. Read them, then press O again to open it anyway.",
                        if n == 1 { "" } else { "s" }
                    ));
                    return None;
                }
                Some(UrlChoice::Open)
            }
            UrlButton::Copy => Some(UrlChoice::Copy),
            UrlButton::Finished => Some(UrlChoice::Finished),
            UrlButton::Decline => Some(self.decline()),
            UrlButton::Cancel => Some(UrlChoice::Cancel),
        }
    }
}
