//! Status widgets: a progress bar for `notifications/progress` and a notice bar for
//! rate-limit and other notices.

use std::collections::VecDeque;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::chrome;
use crate::{text, theme};

/// Progress of a running request, as reported by the server.
///
/// ```
/// use mcp_elicit_tui::Progress;
///
/// let known = Progress { progress: 3.0, total: Some(4.0), message: Some("Copying".into()) };
/// assert_eq!(known.line(80).to_string(), "[######################--------]  75% Copying");
/// let unknown = Progress { progress: 7.0, total: None, message: None };
/// assert_eq!(unknown.line(80).to_string(), "Working: 7 done (total unknown)");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// `progress` (increases over time).
    pub progress: f64,
    /// `total`, when known.
    pub total: Option<f64>,
    /// `message`, when given.
    pub message: Option<String>,
}

impl Progress {
    /// The progress line: a text bar with a percentage when the total is known (no colour
    /// needed to read it), else the count.
    ///
    /// ```
    /// use mcp_elicit_tui::Progress;
    ///
    /// // The bar is at most 30 columns, fewer on a narrow screen; 100% only when done.
    /// let almost = Progress { progress: 99.9, total: Some(100.0), message: None };
    /// assert_eq!(almost.line(20).to_string(), "[###########-]  99%");
    /// // Nonsense from a server (NaN, a zero total) draws without panicking.
    /// let nan = Progress { progress: f64::NAN, total: Some(1.0), message: None };
    /// assert_eq!(nan.line(20).to_string(), "[------------]   0%");
    /// let zero = Progress { progress: 5.0, total: Some(0.0), message: None };
    /// assert_eq!(zero.line(20).to_string(), "Working: 5 done (total unknown)");
    /// ```
    pub fn line(&self, width: u16) -> Line<'static> {
        let msg = self
            .message
            .as_deref()
            .map(|m| format!(" {}", text::one_line(m)))
            .unwrap_or_default();
        let s = match self.total.filter(|t| t.is_finite() && *t > 0.0) {
            Some(total) => {
                let ratio = (self.progress / total).clamp(0.0, 1.0);
                let ratio = if ratio.is_finite() { ratio } else { 0.0 };
                let bar_w = usize::from(width).saturating_sub(8).clamp(1, 30);
                // Rounded down so 100% shows only when done.
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                let filled = ((ratio * bar_w as f64).floor() as usize).min(bar_w);
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                let pct = (ratio * 100.0).floor() as u32;
                format!(
                    "[{}{}] {pct:>3}%{msg}",
                    "#".repeat(filled),
                    "-".repeat(bar_w - filled)
                )
            }
            None => format!("Working: {} done (total unknown){msg}", self.progress),
        };
        Line::from(Span::styled(s, theme::label()))
    }
}

/// Recent notices (rate limits, refused URLs, completions), newest last, at most
/// `capacity` kept.
///
/// ```
/// use mcp_elicit_tui::NoticeBar;
///
/// // The default keeps the three latest notices.
/// let mut bar = NoticeBar::default();
/// assert!(bar.is_empty());
/// for i in 1..=5 {
///     bar.push(format!("request {i} was rate limited"));
/// }
/// let shown: Vec<String> = bar.lines(80).iter().map(|l| l.to_string()).collect();
/// assert_eq!(
///     shown,
///     [
///         "Notice: request 3 was rate limited",
///         "Notice: request 4 was rate limited",
///         "Notice: request 5 was rate limited",
///     ]
/// );
/// assert_eq!(bar.height(80), 3);
/// bar.clear();
/// assert!(bar.is_empty());
/// assert_eq!(bar.height(80), 0);
/// ```
#[derive(Debug, Clone)]
pub struct NoticeBar {
    notices: VecDeque<String>,
    capacity: usize,
}

impl Default for NoticeBar {
    fn default() -> Self {
        Self {
            notices: VecDeque::new(),
            capacity: 3,
        }
    }
}

impl NoticeBar {
    /// Adds a notice (untrusted parts are escaped when drawn).
    ///
    /// ```
    /// use mcp_elicit_tui::NoticeBar;
    ///
    /// let mut bar = NoticeBar::default();
    /// bar.push("from \u{1b}[31mevil");
    /// assert!(!bar.is_empty());
    /// assert_eq!(bar.lines(80)[0].to_string(), "Notice: from \\u{1B}[31mevil");
    /// ```
    pub fn push(&mut self, notice: impl Into<String>) {
        self.notices.push_back(notice.into());
        while self.notices.len() > self.capacity {
            self.notices.pop_front();
        }
    }

    /// Removes every notice.
    ///
    /// ```
    /// use mcp_elicit_tui::NoticeBar;
    ///
    /// let mut bar = NoticeBar::default();
    /// bar.push("rate limited");
    /// bar.clear();
    /// assert!(bar.is_empty() && bar.lines(80).is_empty());
    /// ```
    pub fn clear(&mut self) {
        self.notices.clear();
    }

    /// Whether there is nothing to show.
    ///
    /// ```
    /// use mcp_elicit_tui::NoticeBar;
    ///
    /// let mut bar = NoticeBar::default();
    /// assert!(bar.is_empty());
    /// bar.push("a completion arrived");
    /// assert!(!bar.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.notices.is_empty()
    }

    /// The lines to draw, each starting with the word "Notice".
    ///
    /// ```
    /// use mcp_elicit_tui::NoticeBar;
    ///
    /// let mut bar = NoticeBar::default();
    /// bar.push("the server's request was cancelled after 10 minutes");
    /// let lines: Vec<String> = bar.lines(30).iter().map(|l| l.to_string()).collect();
    /// assert_eq!(lines[0], "Notice: the server's request");
    /// assert!(lines.len() > 1 && lines.iter().all(|l| l.chars().count() <= 30));
    /// ```
    pub fn lines(&self, width: u16) -> Vec<Line<'static>> {
        self.notices
            .iter()
            .flat_map(|n| text::wrapped_lines(&format!("Notice: {n}"), width, 0, theme::warning()))
            .collect()
    }

    /// Draws the bar into `area`.
    ///
    /// ```
    /// use mcp_elicit_tui::NoticeBar;
    /// use ratatui::{buffer::Buffer, layout::Rect};
    ///
    /// let mut bar = NoticeBar::default();
    /// bar.push("the server cancelled a request");
    /// let area = Rect::new(0, 0, 40, bar.height(40));
    /// let mut buf = Buffer::empty(area);
    /// bar.render(area, &mut buf);
    /// let row: String = (0..40u16).map(|x| buf[(x, 0)].symbol()).collect();
    /// assert_eq!(row.trim_end(), "Notice: the server cancelled a request");
    /// ```
    pub fn render(&self, area: Rect, buf: &mut Buffer) {
        chrome::draw_lines(&self.lines(area.width), 0, area, buf);
    }

    /// How many lines the bar needs at `width`.
    ///
    /// ```
    /// use mcp_elicit_tui::NoticeBar;
    ///
    /// let mut bar = NoticeBar::default();
    /// bar.push("the server asked for a URL that was refused");
    /// assert_eq!(bar.height(80), 1);
    /// assert!(bar.height(20) > 1); // wrapped on a narrow screen
    /// ```
    pub fn height(&self, width: u16) -> u16 {
        u16::try_from(self.lines(width).len()).unwrap_or(u16::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{assert_has, screen};

    #[test]
    fn progress_shows_percentage_and_message_in_text() {
        let p = Progress {
            progress: 3.0,
            total: Some(4.0),
            message: Some("Copying".into()),
        };
        let l = p.line(80).to_string();
        assert!(l.contains(" 75% Copying"), "{l}");
        assert!(l.contains("[######################--------]"), "{l}");
        let p = Progress {
            progress: 7.0,
            total: None,
            message: None,
        };
        assert_eq!(p.line(80).to_string(), "Working: 7 done (total unknown)");
        // Hostile numbers do not panic or overflow.
        for (a, t) in [
            (f64::NAN, Some(1.0)),
            (5.0, Some(0.0)),
            (f64::INFINITY, Some(f64::INFINITY)),
            (-1.0, Some(2.0)),
        ] {
            let _ = Progress {
                progress: a,
                total: t,
                message: None,
            }
            .line(3);
        }
    }

    #[test]
    fn notices_keep_the_latest_three_and_say_notice() {
        let mut n = NoticeBar::default();
        for i in 0..5 {
            n.push(format!(
                "Rate limit: request {i} from Demo Server was cancelled"
            ));
        }
        let s = screen(80, 4, |a, b| n.render(a, b));
        assert_has(&s, "Notice: Rate limit: request 4");
        assert!(!s.iter().any(|l| l.contains("request 1 ")));
        n.clear();
        assert!(n.is_empty());
    }
}
