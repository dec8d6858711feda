//! The -32042 view: a tool call needs URL-mode elicitations before it can run; this
//! lists them before the user goes through each consent screen.

use mcp_elicit_core::url_safety::UrlAnalysis;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::chrome::{self, rule, viewport};
use crate::keys::{is_cancel, is_press};
use crate::server::ServerIdentity;
use crate::url::render::finding_lines;
use crate::{text, theme};

/// One elicitation the tool requires.
#[derive(Debug, Clone)]
pub struct RequiredItem {
    /// The server's message.
    pub message: String,
    /// The `elicitationId`.
    pub elicitation_id: String,
    /// The URL's analysis.
    pub analysis: UrlAnalysis,
}

/// What the user chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequiredChoice {
    /// Go through the consent screens one by one.
    Continue,
    /// Give up on the call.
    Cancel,
}

/// State of the -32042 view.
#[derive(Debug, Clone)]
pub struct RequiredState {
    pub(crate) server: ServerIdentity,
    pub(crate) tool: String,
    pub(crate) items: Vec<RequiredItem>,
    pub(crate) scroll: usize,
}

impl RequiredState {
    /// The view for `tool`, which requires `items`.
    pub fn new(server: ServerIdentity, tool: impl Into<String>, items: Vec<RequiredItem>) -> Self {
        Self {
            server,
            tool: tool.into(),
            items,
            scroll: 0,
        }
    }

    /// Keys: Enter continue, Esc / Ctrl-C cancel, ↑/↓ scroll.
    pub fn handle_key(&mut self, key: KeyEvent) -> Option<RequiredChoice> {
        if !is_press(&key) {
            return None;
        }
        if is_cancel(&key) {
            return Some(RequiredChoice::Cancel);
        }
        match key.code {
            KeyCode::Enter => return Some(RequiredChoice::Continue),
            KeyCode::Up => self.scroll = self.scroll.saturating_sub(1),
            KeyCode::Down => self.scroll = self.scroll.saturating_add(1),
            _ => {}
        }
        None
    }

    /// Draws the view.
    pub fn render(&mut self, area: Rect, buf: &mut Buffer) {
        let mut header = self
            .server
            .header_lines("Tool needs browser steps", area.width);
        header.push(rule(area.width));
        let mut footer = vec![rule(area.width)];
        footer.extend(chrome::help_lines(
            &[
                ("Enter", "review each one"),
                ("Esc", "cancel the call"),
                ("↑/↓", "scroll"),
            ],
            area.width,
        ));
        let r = chrome::regions(area, header.len(), footer.len());
        chrome::draw_lines(&header, 0, r.header, buf);
        chrome::draw_lines(&footer, 0, r.footer, buf);
        let w = r.body.width;
        let n = self.items.len();
        let mut lines = text::wrapped_lines(
            &format!(
                "The tool \"{}\" cannot run until you complete {n} step{} in your browser (error -32042). \
                 You will be asked about each URL separately; nothing is opened without your consent.",
                text::one_line(&self.tool),
                if n == 1 { "" } else { "s" }
            ),
            w,
            0,
            Style::new(),
        );
        for (i, item) in self.items.iter().enumerate() {
            lines.push(Line::default());
            lines.extend(text::wrapped_lines(
                &format!("{}. {}", i + 1, item.message),
                w,
                0,
                theme::label(),
            ));
            let a = &item.analysis;
            if let Some(d) = a
                .registrable_domain_unicode
                .as_deref()
                .or(a.host_unicode.as_deref())
            {
                lines.push(Line::from(vec![
                    Span::raw("   Domain: "),
                    Span::styled(text::one_line(d).into_owned(), theme::domain()),
                ]));
            }
            let url = a
                .url
                .as_deref()
                .map_or_else(|| text::one_line(&a.input).into_owned(), str::to_string);
            // The label on its own line: a long URL then wraps as one block.
            lines.push(Line::from("   URL:"));
            lines.extend(text::wrapped_lines(&url, w, 5, Style::new()));
            lines.extend(
                finding_lines(a, w.saturating_sub(3))
                    .into_iter()
                    .map(|mut l| {
                        l.spans.insert(0, Span::raw("   "));
                        l
                    }),
            );
        }
        let h = viewport(usize::from(r.body.height), lines.len());
        self.scroll = self.scroll.min(lines.len().saturating_sub(h));
        chrome::draw_scrolled(&lines, self.scroll, r.body, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{assert_has, key, screen, server};
    use mcp_elicit_core::url_safety::analyze;

    #[test]
    fn lists_every_required_elicitation_with_domain_and_warnings() {
        let items = vec![
            RequiredItem {
                message: "Authorize Example Co files".into(),
                elicitation_id: "e1".into(),
                analysis: analyze("https://mcp.example.com/connect?elicitationId=e1"),
            },
            RequiredItem {
                message: "Pay the fee".into(),
                elicitation_id: "e2".into(),
                analysis: analyze("http://pay.example.net/checkout"),
            },
        ];
        let mut s = RequiredState::new(server(), "list_files", items);
        let sc = screen(80, 30, |a, b| s.render(a, b));
        assert_has(&sc, "Tool needs browser steps from server: Demo Server");
        assert_has(
            &sc,
            "The tool \"list_files\" cannot run until you complete 2 steps",
        );
        assert_has(&sc, "1. Authorize Example Co files");
        assert_has(&sc, "Domain: example.com");
        assert_has(&sc, "2. Pay the fee");
        assert_has(&sc, "Domain: example.net");
        assert_has(&sc, "Warning:");
        assert_eq!(
            s.handle_key(key(KeyCode::Enter)),
            Some(RequiredChoice::Continue)
        );
        assert_eq!(
            s.handle_key(key(KeyCode::Esc)),
            Some(RequiredChoice::Cancel)
        );
    }
}
