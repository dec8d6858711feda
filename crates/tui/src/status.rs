//! Status widgets: a progress bar for `notifications/progress` and a notice bar for
//! rate-limit and other notices.

use std::collections::VecDeque;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::chrome;
use crate::{text, theme};

/// Progress of a running request, as reported by the server.
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
    pub fn push(&mut self, notice: impl Into<String>) {
        self.notices.push_back(notice.into());
        while self.notices.len() > self.capacity {
            self.notices.pop_front();
        }
    }

    /// Removes every notice.
    pub fn clear(&mut self) {
        self.notices.clear();
    }

    /// Whether there is nothing to show.
    pub fn is_empty(&self) -> bool {
        self.notices.is_empty()
    }

    /// The lines to draw, each starting with the word "Notice".
    pub fn lines(&self, width: u16) -> Vec<Line<'static>> {
        self.notices
            .iter()
            .flat_map(|n| text::wrapped_lines(&format!("Notice: {n}"), width, 0, theme::warning()))
            .collect()
    }

    /// Draws the bar into `area`.
    pub fn render(&self, area: Rect, buf: &mut Buffer) {
        chrome::draw_lines(&self.lines(area.width), 0, area, buf);
    }

    /// How many lines the bar needs at `width`.
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
