//! Drawing the sign-in consent screen.

use mcp_elicit_core::url_safety::{Severity, UrlAnalysis};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;

use super::{SignInButton, SignInConsentState, SignInReason};
use crate::chrome::{self, Hint, rule, viewport};
use crate::url::render::{finding_lines, identity_lines, shown_domain, url_lines};
use crate::{text, theme};

impl SignInConsentState {
    /// Draws the screen into `area`; the buttons are pinned below the scrolling body.
    ///
    /// ```
    /// use mcp_elicit_tui::signin::{SignInConsentState, SignInReason, SignInRequest};
    /// use ratatui::{buffer::Buffer, layout::Rect};
    ///
    /// let mut s = SignInConsentState::new(SignInRequest {
    ///     server: "https://mcp.example.com/mcp".into(),
    ///     issuer: "https://auth.example.com".into(),
    ///     authorization_url: "https://auth.example.com/authorize?response_type=code".into(),
    ///     redirect_uri: "http://127.0.0.1:49152/callback".into(),
    ///     scopes: vec!["mcp".into()],
    ///     reason: SignInReason::Required,
    ///     kept: None,
    /// });
    /// let mut buf = Buffer::empty(Rect::new(0, 0, 80, 24));
    /// s.render(buf.area, &mut buf);
    /// let rows: Vec<String> = (0..24u16)
    ///     .map(|y| (0..80u16).map(|x| buf[(x, y)].symbol()).collect())
    ///     .collect();
    /// let has = |t: &str| rows.iter().any(|r| r.contains(t));
    /// assert!(has("Sign-in for MCP server: https://mcp.example.com/mcp"));
    /// // Focus on Copy, never on the button that opens the browser.
    /// assert!(has("> < Copy URL (C) >"));
    /// assert!(has("< Sign in at example.com (O) >"));
    /// assert!(has("< Cancel (Esc) >"));
    /// ```
    pub fn render(&mut self, area: Rect, buf: &mut Buffer) {
        let mut header = text::wrapped_lines(
            &format!(
                "Sign-in for MCP server: {}",
                text::one_line(&self.request.server)
            ),
            area.width,
            0,
            theme::label(),
        );
        header.push(rule(area.width));
        let footer = self.footer(area.width);
        let body = chrome::frame(area, &header, &footer, buf);
        let lines = self.body_lines(body.width);
        let h = viewport(usize::from(body.height), lines.len());
        self.scroll = self.scroll.min(lines.len().saturating_sub(h));
        chrome::draw_scrolled(&lines, self.scroll, body, buf);
    }

    fn footer(&self, width: u16) -> chrome::Footer {
        let mut notes = Vec::new();
        if let Some(s) = &self.status {
            notes.extend(text::wrapped_lines(s, width, 0, theme::warning()));
        }
        let hints: Vec<Hint<'_>> =
            vec![("Tab/←/→", "choose"), ("Enter", "press"), ("↑/↓", "scroll")];
        chrome::Footer {
            notes,
            buttons: self.button_lines(width),
            help: chrome::help_lines(&hints, width),
        }
    }

    fn button_lines(&self, width: u16) -> Vec<Line<'static>> {
        let open = match shown_domain(&self.issuer) {
            Some(d) => format!(
                "Sign in at {} (O)",
                chrome::ellipsize(&text::one_line(d), 24)
            ),
            None => "Sign in (O)".to_string(),
        };
        let buttons: Vec<(String, bool)> = self
            .buttons()
            .into_iter()
            .map(|b| {
                let name = match b {
                    SignInButton::Open => open.clone(),
                    SignInButton::Copy => "Copy URL (C)".into(),
                    SignInButton::Cancel => "Cancel (Esc)".into(),
                };
                (name, self.focus == b)
            })
            .collect();
        let shown: Vec<(&str, bool)> = buttons.iter().map(|(n, f)| (n.as_str(), *f)).collect();
        chrome::button_lines(&shown, width)
    }

    fn body_lines(&self, width: u16) -> Vec<Line<'static>> {
        let mut lines = Vec::new();
        let why = match self.request.reason {
            SignInReason::Required => "This MCP server requires you to sign in:",
            SignInReason::MoreScopes => {
                "This MCP server asks for more permissions than your current sign-in gives:"
            }
            SignInReason::Expired => {
                "Your sign-in to this MCP server is no longer accepted; sign in again:"
            }
        };
        lines.extend(text::wrapped_lines(why, width, 0, theme::label()));
        lines.extend(site_lines(&self.server, width));
        lines.push(Line::default());
        lines.extend(text::wrapped_lines(
            "You sign in at this authorization server:",
            width,
            0,
            theme::label(),
        ));
        lines.extend(site_lines(&self.issuer, width));
        if let (Some(s), Some(i)) = (
            self.server.registrable_domain.as_deref(),
            self.issuer.registrable_domain.as_deref(),
        ) && s != i
        {
            lines.extend(text::wrapped_lines(
                &format!(
                    "Note: the sign-in is at a different site ({}) than the MCP server ({}). \
                     Many servers use another site for sign-in; continue only if you expect \
                     this one.",
                    text::one_line(shown_domain(&self.issuer).unwrap_or(i)),
                    text::one_line(shown_domain(&self.server).unwrap_or(s)),
                ),
                width,
                0,
                Style::new(),
            ));
        }
        lines.push(Line::default());
        lines.extend(text::wrapped_lines(
            "Your browser will open this sign-in page:",
            width,
            0,
            theme::label(),
        ));
        lines.extend(url_lines(&self.page, width));
        lines.extend(identity_lines(&self.page, width));
        lines.extend(finding_lines(&self.page, width));
        for (severity, message) in &self.extra {
            let (word, style) = match severity {
                Severity::Block => ("Blocked", theme::error()),
                Severity::Warn => ("Warning", theme::warning()),
                _ => ("Note", theme::dim()),
            };
            lines.extend(text::wrapped_lines(
                &format!("{word}: {message}"),
                width,
                0,
                style,
            ));
        }
        lines.push(Line::default());
        let scopes = if self.request.scopes.is_empty() {
            "Permissions asked: none named (the server's defaults).".to_string()
        } else {
            format!(
                "Permissions asked (scopes): {}",
                text::one_line(&self.request.scopes.join(" "))
            )
        };
        lines.extend(text::wrapped_lines(&scopes, width, 0, Style::new()));
        lines.extend(text::wrapped_lines(
            &format!(
                "After you sign in, your browser comes back to this program at {} (this \
                 machine only).",
                text::one_line(&self.request.redirect_uri)
            ),
            width,
            0,
            Style::new(),
        ));
        let kept = match &self.request.kept {
            Some(where_) => format!(
                "The sign-in is kept for later runs: {}.",
                text::one_line(where_)
            ),
            None => "The sign-in is not kept after this run.".to_string(),
        };
        lines.extend(text::wrapped_lines(&kept, width, 0, Style::new()));
        if self.is_blocked() {
            lines.extend(text::wrapped_lines(
                "Sign in: not available, this sign-in is blocked.",
                width,
                0,
                theme::error(),
            ));
        }
        lines
    }
}

/// A site: its URL with the domain marked, the domain and host lines, and the findings
/// that are not notes (those about the sign-in page itself are shown there).
fn site_lines(a: &UrlAnalysis, width: u16) -> Vec<Line<'static>> {
    let mut out = url_lines(a, width);
    out.extend(identity_lines(a, width));
    let serious: Vec<_> = a
        .warnings
        .iter()
        .filter(|f| f.severity != Severity::Info)
        .cloned()
        .collect();
    if !serious.is_empty() {
        let only = UrlAnalysis {
            warnings: serious,
            ..a.clone()
        };
        out.extend(finding_lines(&only, width));
    }
    out
}
