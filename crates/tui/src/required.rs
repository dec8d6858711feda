//! The -32042 view: a tool call needs URL-mode elicitations before it can run; this
//! lists them before the user goes through each consent screen.

use mcp_elicit_core::url_safety::UrlAnalysis;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::chrome::{self, Buttons, rule, viewport};
use crate::keys::{is_cancel, is_press};
use crate::server::ServerIdentity;
use crate::url::render::finding_lines;
use crate::{text, theme};

/// One elicitation the tool requires.
///
/// ```
/// # use mcp_elicit_tui::keys::press;
/// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
/// # let key = |code| press(code, KeyModifiers::NONE);
/// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
/// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
/// # use ratatui::{buffer::Buffer, layout::Rect};
/// # fn screen(s: &mut RequiredState, w: u16, h: u16) -> String {
/// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
/// #     let _ = s.render(buf.area, &mut buf);
/// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
/// # }
/// use mcp_elicit_core::url_safety::analyze;
/// use mcp_elicit_tui::{RequiredItem, RequiredState};
///
/// let step = RequiredItem {
///     message: "Pay the fee".into(),
///     elicitation_id: "e2".into(),
///     analysis: analyze("http://pay.example.net/checkout"),
/// };
/// let mut view = RequiredState::new(server, "book", vec![step]);
/// let s = screen(&mut view, 80, 24);
/// assert!(s.contains("1. Pay the fee"));
/// assert!(s.contains("   Domain: example.net"));
/// assert!(s.contains("Warning:")); // plain http, said in words
/// ```
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
///
/// ```
/// # use mcp_elicit_tui::keys::press;
/// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
/// # let key = |code| press(code, KeyModifiers::NONE);
/// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
/// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
/// # use mcp_elicit_core::url_safety::analyze;
/// # use mcp_elicit_tui::{RequiredChoice, RequiredItem, RequiredState};
/// # let steps = vec![
/// #     RequiredItem {
/// #         message: "Authorize Example Co files".into(),
/// #         elicitation_id: "e1".into(),
/// #         analysis: analyze("https://mcp.example.com/connect?elicitationId=e1"),
/// #     },
/// #     RequiredItem {
/// #         message: "Pay the fee".into(),
/// #         elicitation_id: "e2".into(),
/// #         analysis: analyze("http://pay.example.net/checkout"),
/// #     },
/// # ];
/// let mut view = RequiredState::new(server, "list_files", steps);
/// // Review each step has the focus; Tab moves to Cancel the call.
/// assert_eq!(view.handle_key(key(KeyCode::Enter)), Some(RequiredChoice::Continue));
/// assert_eq!(view.handle_key(key(KeyCode::Tab)), None);
/// assert_eq!(view.handle_key(key(KeyCode::Enter)), Some(RequiredChoice::Cancel));
/// assert_eq!(view.handle_key(key(KeyCode::Esc)), Some(RequiredChoice::Cancel));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequiredChoice {
    /// Go through the consent screens one by one.
    Continue,
    /// Give up on the call.
    Cancel,
}

/// A button of the -32042 view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RequiredButton {
    Continue,
    Cancel,
}

/// State of the -32042 view.
///
/// ```
/// # use mcp_elicit_tui::keys::press;
/// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
/// # let key = |code| press(code, KeyModifiers::NONE);
/// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
/// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
/// # use mcp_elicit_core::url_safety::analyze;
/// # use mcp_elicit_tui::{RequiredChoice, RequiredItem, RequiredState};
/// # let steps = vec![
/// #     RequiredItem {
/// #         message: "Authorize Example Co files".into(),
/// #         elicitation_id: "e1".into(),
/// #         analysis: analyze("https://mcp.example.com/connect?elicitationId=e1"),
/// #     },
/// #     RequiredItem {
/// #         message: "Pay the fee".into(),
/// #         elicitation_id: "e2".into(),
/// #         analysis: analyze("http://pay.example.net/checkout"),
/// #     },
/// # ];
/// # use ratatui::{buffer::Buffer, layout::Rect};
/// # fn screen(s: &mut RequiredState, w: u16, h: u16) -> String {
/// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
/// #     let _ = s.render(buf.area, &mut buf);
/// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
/// # }
/// let mut view = RequiredState::new(server, "list_files", steps);
/// let s = screen(&mut view, 80, 30);
/// assert!(s.contains("Tool needs browser steps from server: demo"));
/// assert!(s.contains("The tool \"list_files\" cannot run until you complete 2 steps"));
/// assert!(s.contains("1. Authorize Example Co files") && s.contains("2. Pay the fee"));
/// assert!(s.contains("> < Review each step >") && s.contains("< Cancel the call (Esc) >"));
/// ```
#[derive(Debug, Clone)]
pub struct RequiredState {
    pub(crate) server: ServerIdentity,
    pub(crate) tool: String,
    pub(crate) items: Vec<RequiredItem>,
    pub(crate) scroll: usize,
    /// Review each step / Cancel the call, pinned below the scrolling list.
    pub(crate) buttons: Buttons<RequiredButton>,
}

impl RequiredState {
    /// The view for `tool`, which requires `items`.
    ///
    /// ```
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
    /// # use mcp_elicit_core::url_safety::analyze;
    /// # use mcp_elicit_tui::{RequiredChoice, RequiredItem, RequiredState};
    /// # let steps = vec![
    /// #     RequiredItem {
    /// #         message: "Authorize Example Co files".into(),
    /// #         elicitation_id: "e1".into(),
    /// #         analysis: analyze("https://mcp.example.com/connect?elicitationId=e1"),
    /// #     },
    /// #     RequiredItem {
    /// #         message: "Pay the fee".into(),
    /// #         elicitation_id: "e2".into(),
    /// #         analysis: analyze("http://pay.example.net/checkout"),
    /// #     },
    /// # ];
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # fn screen(s: &mut RequiredState, w: u16, h: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
    /// #     let _ = s.render(buf.area, &mut buf);
    /// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// let mut view = RequiredState::new(server, "list_files", steps);
    /// assert!(screen(&mut view, 80, 30).contains("   Domain: example.com"));
    /// ```
    pub fn new(server: ServerIdentity, tool: impl Into<String>, items: Vec<RequiredItem>) -> Self {
        Self {
            server,
            tool: tool.into(),
            items,
            scroll: 0,
            buttons: Buttons::new(
                vec![RequiredButton::Continue, RequiredButton::Cancel],
                RequiredButton::Continue,
            ),
        }
    }

    /// Keys: Enter/Space press the focused button (Review each step first), Tab/←/→
    /// choose, Esc / Ctrl-C cancel, ↑/↓/PgUp/PgDn scroll.
    ///
    /// ```
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
    /// # use mcp_elicit_core::url_safety::analyze;
    /// # use mcp_elicit_tui::{RequiredChoice, RequiredItem, RequiredState};
    /// # let steps = vec![
    /// #     RequiredItem {
    /// #         message: "Authorize Example Co files".into(),
    /// #         elicitation_id: "e1".into(),
    /// #         analysis: analyze("https://mcp.example.com/connect?elicitationId=e1"),
    /// #     },
    /// #     RequiredItem {
    /// #         message: "Pay the fee".into(),
    /// #         elicitation_id: "e2".into(),
    /// #         analysis: analyze("http://pay.example.net/checkout"),
    /// #     },
    /// # ];
    /// let mut view = RequiredState::new(server, "list_files", steps);
    /// assert_eq!(view.handle_key(key(KeyCode::Down)), None); // scrolls
    /// assert_eq!(view.handle_key(key(KeyCode::Right)), None); // to Cancel the call
    /// assert_eq!(view.handle_key(key(KeyCode::Left)), None); // back to Review each step
    /// assert_eq!(view.handle_key(key(KeyCode::Char(' '))), Some(RequiredChoice::Continue));
    /// assert_eq!(view.handle_key(ctrl('c')), Some(RequiredChoice::Cancel));
    /// ```
    pub fn handle_key(&mut self, key: KeyEvent) -> Option<RequiredChoice> {
        if !is_press(&key) {
            return None;
        }
        if is_cancel(&key) {
            return Some(RequiredChoice::Cancel);
        }
        match key.code {
            KeyCode::Up => self.scroll = self.scroll.saturating_sub(1),
            KeyCode::Down => self.scroll = self.scroll.saturating_add(1),
            KeyCode::PageUp => self.scroll = self.scroll.saturating_sub(10),
            KeyCode::PageDown => self.scroll = self.scroll.saturating_add(10),
            _ => {
                return self.buttons.handle(&key).map(|b| match b {
                    RequiredButton::Continue => RequiredChoice::Continue,
                    RequiredButton::Cancel => RequiredChoice::Cancel,
                });
            }
        }
        None
    }

    /// Draws the view. The buttons are pinned below the scrolling list of steps.
    ///
    /// ```
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
    /// # use mcp_elicit_core::url_safety::analyze;
    /// # use mcp_elicit_tui::{RequiredChoice, RequiredItem, RequiredState};
    /// # let steps = vec![
    /// #     RequiredItem {
    /// #         message: "Authorize Example Co files".into(),
    /// #         elicitation_id: "e1".into(),
    /// #         analysis: analyze("https://mcp.example.com/connect?elicitationId=e1"),
    /// #     },
    /// #     RequiredItem {
    /// #         message: "Pay the fee".into(),
    /// #         elicitation_id: "e2".into(),
    /// #         analysis: analyze("http://pay.example.net/checkout"),
    /// #     },
    /// # ];
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # fn screen(s: &mut RequiredState, w: u16, h: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
    /// #     let _ = s.render(buf.area, &mut buf);
    /// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// let many: Vec<RequiredItem> = (0..40).map(|i| RequiredItem { message: format!("Step {i}"), ..steps[0].clone() }).collect();
    /// let mut view = RequiredState::new(server, "list_files", many);
    /// let s = screen(&mut view, 80, 24);
    /// assert!(s.contains("↓ more below") && s.contains("< Review each step >"));
    /// for _ in 0..1_000 {
    ///     view.handle_key(key(KeyCode::PageDown));
    /// }
    /// let s = screen(&mut view, 80, 24);
    /// assert!(s.contains("40. Step 39") && s.contains("< Review each step >"));
    /// ```
    pub fn render(&mut self, area: Rect, buf: &mut Buffer) {
        let mut header = self
            .server
            .header_lines("Tool needs browser steps", area.width);
        header.push(rule(area.width));
        let footer = chrome::Footer {
            notes: Vec::new(),
            buttons: self.buttons.lines(area.width, |b| {
                match b {
                    RequiredButton::Continue => "Review each step",
                    RequiredButton::Cancel => "Cancel the call (Esc)",
                }
                .to_string()
            }),
            help: chrome::help_lines(
                &[("Tab/←/→", "choose"), ("Enter", "press"), ("↑/↓", "scroll")],
                area.width,
            ),
        };
        let body = chrome::frame(area, &header, &footer, buf);
        let w = body.width;
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
        let h = viewport(usize::from(body.height), lines.len());
        self.scroll = self.scroll.min(lines.len().saturating_sub(h));
        chrome::draw_scrolled(&lines, self.scroll, body, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{
        assert_buttons, assert_focused_button, assert_has, assert_pinned, assert_rows_fit, key,
        screen, server,
    };
    use mcp_elicit_core::url_safety::analyze;

    const BUTTONS: [&str; 2] = ["Review each step", "Cancel the call (Esc)"];

    fn two_steps() -> Vec<RequiredItem> {
        vec![
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
        ]
    }

    #[test]
    fn lists_every_required_elicitation_with_domain_and_warnings() {
        let mut s = RequiredState::new(server(), "list_files", two_steps());
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

    /// Issue 15: the overview had key hints only; its buttons are pinned below the list,
    /// focused, and reachable with Tab at 80x24 and on a tiny terminal.
    #[test]
    fn the_buttons_are_pinned_focused_and_reachable_at_80x24_and_40x12() {
        for (w, h) in [(80, 24), (40, 12)] {
            let mut s = RequiredState::new(server(), "list_files", two_steps());
            let sc = screen(w, h, |a, b| s.render(a, b));
            assert_pinned(&sc, &BUTTONS, w);
            assert_focused_button(&sc, "Review each step", w);
            // Tab moves the focus to Cancel (on screen), and Enter presses it.
            assert_eq!(s.handle_key(key(KeyCode::Tab)), None);
            let sc = screen(w, h, |a, b| s.render(a, b));
            assert_focused_button(&sc, "Cancel the call (Esc)", w);
            assert_eq!(
                s.handle_key(key(KeyCode::Enter)),
                Some(RequiredChoice::Cancel)
            );
            // ← goes back; Space presses too.
            assert_eq!(s.handle_key(key(KeyCode::Left)), None);
            let sc = screen(w, h, |a, b| s.render(a, b));
            assert_focused_button(&sc, "Review each step", w);
            assert_eq!(
                s.handle_key(key(KeyCode::Char(' '))),
                Some(RequiredChoice::Continue)
            );
        }
    }

    /// Bad input from the issue: 200 steps with 10,000-character messages, a
    /// 2,000-character URL, a tool and server named with combining marks. The screen
    /// stays usable: rows fit, the buttons stay pinned and focused while scrolling to
    /// the very end, which shows the last step.
    #[test]
    fn hostile_steps_scroll_under_pinned_buttons() {
        let zalgo: String = std::iter::once('Z')
            .chain(std::iter::repeat_n('\u{0301}', 2000))
            .collect();
        let long_url = format!("https://login.example.org/{}?q=end", "p".repeat(2000));
        let items: Vec<RequiredItem> = (0..200)
            .map(|i| RequiredItem {
                message: if i == 199 {
                    "The last step".into()
                } else {
                    format!("Step {i}. {}", "Read me. ".repeat(1112))
                },
                elicitation_id: format!("e{i}"),
                analysis: analyze(if i == 199 {
                    "https://example.com/last"
                } else if i % 2 == 0 {
                    &long_url
                } else {
                    "https://xn--pple-43d.com/login?access_token=x"
                }),
            })
            .collect();
        let identity = crate::server::ServerIdentity {
            name: zalgo.clone(),
            title: Some(zalgo.clone()),
            version: Some(zalgo.clone()),
            transport: "stdio".into(),
        };
        for (w, h) in [(80, 24), (40, 12)] {
            let mut s = RequiredState::new(identity.clone(), zalgo.clone(), items.clone());
            let sc = screen(w, h, |a, b| s.render(a, b));
            assert_rows_fit(&sc, w);
            assert_pinned(&sc, &BUTTONS, w);
            assert_focused_button(&sc, "Review each step", w);
            assert_has(&sc, "↓ more below");
            for _ in 0..20_000 {
                s.handle_key(key(KeyCode::PageDown));
            }
            let sc = screen(w, h, |a, b| s.render(a, b));
            assert_rows_fit(&sc, w);
            assert_pinned(&sc, &BUTTONS, w);
            assert_focused_button(&sc, "Review each step", w);
            assert_has(&sc, "↑ more above");
            assert_has(&sc, "No warnings about this URL.");
            // Scrolling back up starts at once (the offset was kept in range).
            s.handle_key(key(KeyCode::Up));
            let up = screen(w, h, |a, b| s.render(a, b));
            assert_ne!(sc, up);
            assert_buttons(&up, &BUTTONS, w);
        }
    }
}
