//! The sign-in consent screen: before the system browser opens for an MCP server's
//! OAuth sign-in, the user sees which MCP server asks, at which authorization server
//! they will sign in, the full sign-in URL and the permissions asked, with the same
//! rules as URL-mode consent ([`crate::url`]): domains marked (bold, underlined and a
//! caret line), the host in Unicode and ASCII when they differ, every finding of
//! [`mcp_elicit_core::url_safety::analyze`] in words, nothing opened without a deliberate
//! key press (focus never starts on Open), a second press when there are warnings, and
//! a blocked URL never opened or copied.
//!
//! After Open (or Copy) the screen waits for the browser to come back to the loopback
//! redirect; the caller ends it when the code arrives ([`run`] does).
//!
//! ```
//! use mcp_elicit_tui::signin::{SignInChoice, SignInConsentState, SignInReason, SignInRequest};
//! use mcp_elicit_tui::keys::press;
//! use ratatui::crossterm::event::{KeyCode, KeyModifiers};
//!
//! let mut s = SignInConsentState::new(SignInRequest {
//!     server: "https://mcp.example.com/mcp".into(),
//!     issuer: "https://auth.example.com".into(),
//!     authorization_url: "https://auth.example.com/authorize?response_type=code".into(),
//!     redirect_uri: "http://127.0.0.1:49152/callback".into(),
//!     scopes: vec!["mcp".into()],
//!     reason: SignInReason::Required,
//!     kept: None,
//! });
//! // Enter presses the focused button, Copy: consent takes a deliberate O.
//! let enter = press(KeyCode::Enter, KeyModifiers::NONE);
//! assert_eq!(s.handle_key(enter), Some(SignInChoice::Copy));
//! let o = press(KeyCode::Char('o'), KeyModifiers::NONE);
//! assert_eq!(s.handle_key(o), Some(SignInChoice::Open));
//! ```

mod render;
mod run;
#[cfg(test)]
mod tests;

use mcp_elicit_core::url_safety::{Severity, UrlAnalysis, Verdict, analyze};
use ratatui::crossterm::event::{KeyCode, KeyEvent};

use crate::keys::{is_cancel, is_press, letter};

pub use run::{SignInAbort, run};

/// Why the sign-in is asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignInReason {
    /// The server requires sign-in and no usable sign-in is stored.
    Required,
    /// The server asks for more permissions than the current sign-in has
    /// (`insufficient_scope`).
    MoreScopes,
    /// The stored sign-in is no longer accepted (expired, and could not be refreshed).
    Expired,
}

/// What the screen shows. Every string may come from a server and is drawn through
/// [`crate::text`].
///
/// ```
/// # use mcp_elicit_tui::keys::press;
/// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
/// # let key = |code| press(code, KeyModifiers::NONE);
/// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
/// # use mcp_elicit_tui::signin::{SignInChoice, SignInConsentState, SignInReason, SignInRequest};
/// # let request = SignInRequest {
/// #     server: "https://mcp.example.com/mcp".into(),
/// #     issuer: "https://auth.example.com".into(),
/// #     authorization_url: "https://auth.example.com/authorize?response_type=code".into(),
/// #     redirect_uri: "http://127.0.0.1:49152/callback".into(),
/// #     scopes: vec!["mcp".into()],
/// #     reason: SignInReason::Required,
/// #     kept: None,
/// # };
/// // The browser must come back to this machine: any other redirect is blocked.
/// let elsewhere = SignInRequest { redirect_uri: "https://evil.example/callback".into(), ..request.clone() };
/// let mut s = SignInConsentState::new(elsewhere);
/// assert!(s.is_blocked());
/// assert_eq!(s.url(), None);
/// assert_eq!(s.handle_key(key(KeyCode::Char('o'))), None); // never opened...
/// assert_eq!(s.handle_key(key(KeyCode::Char('c'))), None); // ...nor copied
/// assert_eq!(s.handle_key(key(KeyCode::Enter)), Some(SignInChoice::Cancel)); // focus is on Cancel
/// // A loopback redirect on the authorization server's own host is fine.
/// assert!(!SignInConsentState::new(request).is_blocked());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignInRequest {
    /// The MCP server's URL (the resource the tokens are for).
    pub server: String,
    /// The authorization server's issuer.
    pub issuer: String,
    /// The sign-in page the browser opens (the authorization request).
    pub authorization_url: String,
    /// Where the browser comes back (a loopback URL of this program).
    pub redirect_uri: String,
    /// The scopes asked for (empty: none named, the server's defaults).
    pub scopes: Vec<String>,
    /// Why.
    pub reason: SignInReason,
    /// Where the sign-in is kept for later runs, in words (`None`: not kept).
    pub kept: Option<String>,
}

/// What the user chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignInChoice {
    /// Explicit consent: open the sign-in page in the system browser; report with
    /// [`SignInConsentState::set_opened`].
    Open,
    /// Copy the sign-in URL (to open it in a browser on this machine); report with
    /// [`SignInConsentState::set_copied`].
    Copy,
    /// No sign-in.
    Cancel,
}

/// A button of the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SignInButton {
    Open,
    Copy,
    Cancel,
}

/// The sign-in consent screen's state.
#[derive(Debug, Clone)]
pub struct SignInConsentState {
    pub(crate) request: SignInRequest,
    pub(crate) server: UrlAnalysis,
    pub(crate) issuer: UrlAnalysis,
    pub(crate) page: UrlAnalysis,
    /// Findings about the request as a whole (the sign-in page elsewhere than the
    /// authorization server, a redirect that is not loopback).
    pub(crate) extra: Vec<(Severity, String)>,
    pub(crate) focus: SignInButton,
    pub(crate) confirming: bool,
    /// Set once the page was opened or copied: the screen waits for the browser.
    pub(crate) waiting: bool,
    pub(crate) status: Option<String>,
    pub(crate) scroll: usize,
}

impl SignInConsentState {
    /// The screen for `request`.
    pub fn new(request: SignInRequest) -> Self {
        let server = analyze(&request.server);
        let issuer = analyze(&request.issuer);
        let page = analyze(&request.authorization_url);
        let mut extra = Vec::new();
        if !page.is_blocked()
            && !issuer.is_blocked()
            && page.host_ascii.is_some()
            && page.host_ascii != issuer.host_ascii
        {
            extra.push((
                Severity::Warn,
                format!(
                    "The sign-in page is on {}, not on the authorization server {} itself.",
                    page.host_ascii.as_deref().unwrap_or_default(),
                    issuer.host_ascii.as_deref().unwrap_or_default()
                ),
            ));
        }
        if !is_loopback_http(&request.redirect_uri) {
            extra.push((
                Severity::Block,
                format!(
                    "The sign-in would return to {}, which is not this machine.",
                    crate::text::one_line(&request.redirect_uri)
                ),
            ));
        }
        let mut s = Self {
            request,
            server,
            issuer,
            page,
            extra,
            focus: SignInButton::Copy,
            confirming: false,
            waiting: false,
            status: None,
            scroll: 0,
        };
        if s.is_blocked() {
            s.focus = SignInButton::Cancel;
        }
        s
    }

    /// What is shown.
    pub fn request(&self) -> &SignInRequest {
        &self.request
    }

    /// Whether the sign-in page may not be opened: the page or the authorization server
    /// has a blocking finding, or the redirect is not loopback.
    pub fn is_blocked(&self) -> bool {
        self.page.is_blocked()
            || self.issuer.is_blocked()
            || self.extra.iter().any(|(s, _)| *s == Severity::Block)
    }

    /// Whether the screen is waiting for the browser (after Open or Copy).
    pub fn is_waiting(&self) -> bool {
        self.waiting
    }

    /// The URL to open or copy (the normalized sign-in page), unless blocked.
    pub fn url(&self) -> Option<&str> {
        if self.is_blocked() {
            None
        } else {
            self.page.url.as_deref()
        }
    }

    fn warnings(&self) -> usize {
        let w = |a: &UrlAnalysis| {
            a.warnings
                .iter()
                .filter(|f| f.severity == Severity::Warn)
                .count()
        };
        w(&self.page)
            + w(&self.issuer)
            + self
                .extra
                .iter()
                .filter(|(s, _)| *s == Severity::Warn)
                .count()
    }

    /// Reports whether [`SignInChoice::Open`] started a browser.
    ///
    /// ```
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # use mcp_elicit_tui::signin::{SignInChoice, SignInConsentState, SignInReason, SignInRequest};
    /// # let request = SignInRequest {
    /// #     server: "https://mcp.example.com/mcp".into(),
    /// #     issuer: "https://auth.example.com".into(),
    /// #     authorization_url: "https://auth.example.com/authorize?response_type=code".into(),
    /// #     redirect_uri: "http://127.0.0.1:49152/callback".into(),
    /// #     scopes: vec!["mcp".into()],
    /// #     reason: SignInReason::Required,
    /// #     kept: None,
    /// # };
    /// let mut s = SignInConsentState::new(request);
    /// assert_eq!(s.url(), Some("https://auth.example.com/authorize?response_type=code"));
    /// assert_eq!(s.handle_key(key(KeyCode::Char('o'))), Some(SignInChoice::Open));
    /// assert!(!s.is_waiting());
    /// s.set_opened(Ok(()));
    /// assert!(s.is_waiting()); // now waiting for the browser to come back
    /// assert_eq!(s.handle_key(key(KeyCode::Char('o'))), None); // opened once is enough
    /// assert_eq!(s.handle_key(key(KeyCode::Char('c'))), Some(SignInChoice::Copy)); // still copyable
    /// assert_eq!(s.handle_key(key(KeyCode::Esc)), Some(SignInChoice::Cancel));
    /// ```
    pub fn set_opened(&mut self, result: Result<(), String>) {
        self.confirming = false;
        match result {
            Ok(()) => {
                self.waiting = true;
                self.focus = SignInButton::Cancel;
                self.status = Some(
                    "Opened the sign-in page in your browser. Waiting for you to finish \
                     signing in there..."
                        .into(),
                );
            }
            Err(e) => {
                self.focus = SignInButton::Copy;
                self.status = Some(format!(
                    "Could not start a browser: {}. Copy the URL (C) or select it above and \
                     open it in a browser on this machine; this screen waits for it.",
                    crate::text::one_line(&e)
                ));
            }
        }
    }

    /// Reports the result of a [`SignInChoice::Copy`] (OSC 52: the terminal cannot say
    /// whether it copied).
    ///
    /// ```
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # use mcp_elicit_tui::signin::{SignInChoice, SignInConsentState, SignInReason, SignInRequest};
    /// # let request = SignInRequest {
    /// #     server: "https://mcp.example.com/mcp".into(),
    /// #     issuer: "https://auth.example.com".into(),
    /// #     authorization_url: "https://auth.example.com/authorize?response_type=code".into(),
    /// #     redirect_uri: "http://127.0.0.1:49152/callback".into(),
    /// #     scopes: vec!["mcp".into()],
    /// #     reason: SignInReason::Required,
    /// #     kept: None,
    /// # };
    /// let mut s = SignInConsentState::new(request);
    /// assert_eq!(s.handle_key(key(KeyCode::Enter)), Some(SignInChoice::Copy)); // focus starts on Copy
    /// s.set_copied(Err("no terminal".into()));
    /// assert!(s.is_waiting()); // the user may still open it by hand
    /// ```
    pub fn set_copied(&mut self, result: Result<(), String>) {
        self.waiting = true;
        self.status = Some(match result {
            Ok(()) => "Asked your terminal to copy the URL (OSC 52; some terminals ignore \
                       this: if pasting gives nothing, select the URL above). Open it in a \
                       browser on this machine; this screen waits for the sign-in."
                .into(),
            Err(e) => format!(
                "Could not copy the URL: {}. Select it above and open it in a browser on \
                 this machine; this screen waits for the sign-in.",
                crate::text::one_line(&e)
            ),
        });
    }

    pub(crate) fn buttons(&self) -> Vec<SignInButton> {
        if self.is_blocked() {
            vec![SignInButton::Cancel]
        } else if self.waiting {
            vec![SignInButton::Copy, SignInButton::Cancel]
        } else {
            vec![SignInButton::Open, SignInButton::Copy, SignInButton::Cancel]
        }
    }

    /// Handles one key: O opens (twice when there are warnings), C copies, Esc / Ctrl-C /
    /// D cancel, Tab/←/→ move, Enter/Space press the focused button, ↑/↓ scroll.
    pub fn handle_key(&mut self, key: KeyEvent) -> Option<SignInChoice> {
        if !is_press(&key) {
            return None;
        }
        if is_cancel(&key) || letter(&key, 'd') {
            return Some(SignInChoice::Cancel);
        }
        if letter(&key, 'o') {
            return self.press(SignInButton::Open);
        }
        if letter(&key, 'c') {
            return self.press(SignInButton::Copy);
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

    fn press(&mut self, b: SignInButton) -> Option<SignInChoice> {
        match b {
            SignInButton::Cancel => Some(SignInChoice::Cancel),
            SignInButton::Open | SignInButton::Copy if self.is_blocked() => {
                self.status = Some(
                    "This sign-in is blocked and cannot be opened or copied (see the \
                     findings above)."
                        .into(),
                );
                None
            }
            SignInButton::Open if self.waiting => None,
            SignInButton::Open => {
                let n = self.warnings();
                let warned = n > 0
                    || self.page.verdict == Verdict::Warn
                    || self.issuer.verdict == Verdict::Warn;
                if warned && !self.confirming {
                    self.confirming = true;
                    self.focus = SignInButton::Open;
                    self.status = Some(format!(
                        "This sign-in has {n} warning{}. Read them, then press O again to open \
                         it anyway.",
                        if n == 1 { "" } else { "s" }
                    ));
                    return None;
                }
                Some(SignInChoice::Open)
            }
            SignInButton::Copy => Some(SignInChoice::Copy),
        }
    }
}

/// Whether `uri` is a plain-http URL to a loopback address (RFC 8252 §7.3).
fn is_loopback_http(uri: &str) -> bool {
    let a = analyze(uri);
    !a.is_blocked()
        && a.scheme.as_deref() == Some("http")
        && a.ip_address
            .as_deref()
            .and_then(|ip| ip.trim_matches(['[', ']']).parse::<std::net::IpAddr>().ok())
            .is_some_and(|ip| ip.is_loopback())
}
