//! Drawing the URL consent screen.

use mcp_elicit_core::url_safety::{Severity, UrlAnalysis};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::{UrlButton, UrlConsentState, UrlContext};
use crate::chrome::{self, Hint, rule, viewport};
use crate::{text, theme};

impl UrlConsentState {
    /// Draws the consent screen into `area`. The buttons (Open / Copy / Decline /
    /// Cancel, and "I finished in my browser" after a copy) are pinned below the
    /// scrolling body.
    ///
    /// ```
    /// use mcp_elicit_core::url_safety::analyze;
    /// use mcp_elicit_tui::{ServerIdentity, UrlConsentState, UrlContext};
    /// use ratatui::{buffer::Buffer, layout::Rect};
    ///
    /// let server = ServerIdentity { name: "demo".into(), ..Default::default() };
    /// let url = analyze("https://accounts.google.com.evil.com/login");
    /// let mut s = UrlConsentState::new(server, "Sign in.", url, UrlContext::Request);
    /// let mut buf = Buffer::empty(Rect::new(0, 0, 80, 24));
    /// s.render(buf.area, &mut buf);
    /// let rows: Vec<String> = (0..24u16)
    ///     .map(|y| (0..80u16).map(|x| buf[(x, y)].symbol()).collect())
    ///     .collect();
    /// let has = |t: &str| rows.iter().any(|r| r.contains(t));
    /// assert!(has("URL request from server: demo"));
    /// // The registrable domain is named, and marked with carets right under the URL.
    /// assert!(has("Domain (marked ^ above): evil.com"));
    /// let at = rows.iter().position(|r| r.contains("https://accounts.google.com.evil.com/login")).unwrap();
    /// assert_eq!(rows[at + 1].trim(), "^^^^^^^^");
    /// // The buttons: focus on Copy, Open names the domain.
    /// assert!(has("> < Copy URL (C) >"));
    /// assert!(has("< Open evil.com (O) >"));
    /// ```
    pub fn render(&mut self, area: Rect, buf: &mut Buffer) {
        let what = match self.context {
            UrlContext::Request => "URL request",
            UrlContext::RequiredByTool { .. } => "Tool needs a web page",
        };
        let mut header = self.server.header_lines(what, area.width);
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
        let tick = if self.stop_asking { "[x]" } else { "[ ]" };
        notes.extend(text::wrapped_lines(
            &format!(
                "{tick} Stop asking this server: declining also refuses its later requests (Ctrl-T)"
            ),
            width,
            0,
            Style::new(),
        ));
        let mut hints: Vec<Hint<'_>> = Vec::new();
        hints.extend([("Tab/←/→", "choose"), ("Enter", "press"), ("↑/↓", "scroll")]);
        chrome::Footer {
            notes,
            buttons: self.button_lines(width),
            help: chrome::help_lines(&hints, width),
        }
    }

    fn body_lines(&self, width: u16) -> Vec<Line<'static>> {
        let a = &self.analysis;
        let mut lines = vec![Line::from(Span::styled(
            "Message from the server:",
            theme::label(),
        ))];
        lines.extend(text::wrapped_lines(&self.message, width, 2, Style::new()));
        lines.push(Line::default());
        if let UrlContext::RequiredByTool { tool, step, of } = &self.context {
            lines.extend(text::wrapped_lines(
                &format!(
                    "Step {step} of {of}: the tool \"{}\" cannot run until you complete this step in your browser.",
                    text::one_line(tool)
                ),
                width,
                0,
                Style::new(),
            ));
        }
        lines.extend(text::wrapped_lines(
            "The server asks you to open this web page in your browser:",
            width,
            0,
            theme::label(),
        ));
        lines.extend(url_lines(a, width));
        lines.extend(identity_lines(a, width));
        lines.push(Line::default());
        lines.extend(finding_lines(a, width));
        lines.push(Line::default());
        if !self.can_open() {
            lines.extend(text::wrapped_lines(
                "Open in browser: not available, this URL is blocked.",
                width,
                0,
                theme::error(),
            ));
        } else if let Some(d) = shown_domain(a) {
            lines.extend(text::wrapped_lines(
                &format!(
                    "Only open it if you trust {} with what you enter there.",
                    text::one_line(d)
                ),
                width,
                0,
                Style::new(),
            ));
        }
        lines
    }

    fn button_lines(&self, width: u16) -> Vec<Line<'static>> {
        let open = match shown_domain(&self.analysis) {
            // The site is named in the button itself (cut when very long).
            Some(d) => format!("Open {} (O)", chrome::ellipsize(&text::one_line(d), 24)),
            None => "Open in browser (O)".to_string(),
        };
        let buttons: Vec<(String, bool)> = self
            .buttons()
            .into_iter()
            .map(|b| {
                let name = match b {
                    UrlButton::Open => open.clone(),
                    UrlButton::Copy => "Copy URL (C)".into(),
                    UrlButton::Finished => "I finished in my browser (F)".into(),
                    UrlButton::Decline => "Decline (D)".into(),
                    UrlButton::Cancel => "Cancel (Esc)".into(),
                };
                (name, self.focus == b)
            })
            .collect();
        let shown: Vec<(&str, bool)> = buttons.iter().map(|(n, f)| (n.as_str(), *f)).collect();
        chrome::button_lines(&shown, width)
    }
}

/// The registrable domain (Unicode form first), else the host.
pub(crate) fn shown_domain(a: &UrlAnalysis) -> Option<&str> {
    a.registrable_domain_unicode
        .as_deref()
        .or(a.registrable_domain.as_deref())
        .or(a.host_unicode.as_deref())
        .or(a.host_ascii.as_deref())
}

/// The full URL, hard-wrapped, with the highlighted part (the registrable domain, or the
/// host when there is none) in bold and underline and a caret line under it.
pub(crate) fn url_lines(a: &UrlAnalysis, width: u16) -> Vec<Line<'static>> {
    let indent = 2usize;
    let avail = usize::from(width).saturating_sub(indent).max(1);
    let (shown, highlight) = match a.url.as_deref() {
        Some(u) => (u.to_string(), a.highlight.map(|h| h.range())),
        None => (text::one_line(&a.input).into_owned(), None),
    };
    // Chunks of at most `avail` columns: (byte start, text).
    let mut chunks: Vec<(usize, String)> = Vec::new();
    let mut cur = String::new();
    let mut cur_start = 0usize;
    let mut cols = 0usize;
    for (i, c) in shown.char_indices() {
        let safe = text::one_line(c.encode_utf8(&mut [0; 4])).into_owned();
        let w = text::width(&safe);
        if cols + w > avail && !cur.is_empty() {
            chunks.push((cur_start, std::mem::take(&mut cur)));
            cols = 0;
        }
        if cur.is_empty() {
            cur_start = i;
        }
        cur.push_str(&safe);
        cols += w;
    }
    if !cur.is_empty() || chunks.is_empty() {
        chunks.push((cur_start, cur));
    }
    let pad = " ".repeat(indent);
    let mut out = Vec::new();
    for (start, chunk) in chunks {
        let end = start + chunk.len();
        let Some(h) = highlight.clone().filter(|h| h.start < end && h.end > start) else {
            out.push(Line::from(vec![Span::raw(pad.clone()), Span::raw(chunk)]));
            continue;
        };
        let a0 = h.start.max(start) - start;
        let b0 = h.end.min(end) - start;
        let (Some(before), Some(mid), Some(after)) =
            (chunk.get(..a0), chunk.get(a0..b0), chunk.get(b0..))
        else {
            out.push(Line::from(vec![Span::raw(pad.clone()), Span::raw(chunk)]));
            continue;
        };
        out.push(Line::from(vec![
            Span::raw(pad.clone()),
            Span::raw(before.to_string()),
            Span::styled(mid.to_string(), theme::domain()),
            Span::raw(after.to_string()),
        ]));
        out.push(Line::from(vec![
            Span::raw(pad.clone()),
            Span::raw(" ".repeat(text::width(before))),
            Span::styled("^".repeat(text::width(mid).max(1)), theme::label()),
        ]));
    }
    out
}

/// Domain and host lines: the registrable domain in words, and the host in Unicode and
/// ASCII when they differ (the ASCII form is what the browser contacts).
pub(crate) fn identity_lines(a: &UrlAnalysis, width: u16) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    let domain_label = if a.registrable_domain.is_some() {
        "Domain (marked ^ above): "
    } else {
        "Host (marked ^ above): "
    };
    let domain = shown_domain(a);
    if let Some(d) = domain {
        let mut spans = vec![
            Span::styled(domain_label, theme::label()),
            Span::styled(text::one_line(d).into_owned(), theme::domain()),
        ];
        if let (Some(u), Some(ascii)) = (
            a.registrable_domain_unicode.as_deref(),
            a.registrable_domain.as_deref(),
        ) && u != ascii
        {
            spans.push(Span::raw(format!(" (in ASCII: {})", text::one_line(ascii))));
        }
        out.push(Line::from(spans));
    }
    match (a.host_unicode.as_deref(), a.host_ascii.as_deref()) {
        (Some(u), Some(ascii)) if u != ascii => {
            out.extend(text::wrapped_lines(
                &format!("Host as shown: {u}"),
                width,
                0,
                Style::new(),
            ));
            out.extend(text::wrapped_lines(
                &format!("Host in ASCII (what the browser contacts): {ascii}"),
                width,
                0,
                Style::new(),
            ));
        }
        // Named once: skip the host line when the line above already shows it.
        (_, Some(h)) | (Some(h), None)
            if Some(h) != domain && a.host_unicode.as_deref() != domain =>
        {
            out.extend(text::wrapped_lines(
                &format!("Host: {h}"),
                width,
                0,
                Style::new(),
            ));
        }
        _ => {}
    }
    out
}

/// Every finding, in words, most serious first.
pub(crate) fn finding_lines(a: &UrlAnalysis, width: u16) -> Vec<Line<'static>> {
    if a.warnings.is_empty() {
        return vec![Line::from("No warnings about this URL.")];
    }
    let mut out = Vec::new();
    for f in &a.warnings {
        let (word, style) = match f.severity {
            Severity::Block => ("Blocked", theme::error()),
            Severity::Warn => ("Warning", theme::warning()),
            _ => ("Note", theme::dim()),
        };
        out.extend(text::wrapped_lines(
            &format!("{word}: {}", f.message),
            width,
            0,
            style,
        ));
    }
    out
}
