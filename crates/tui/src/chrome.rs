//! Pieces shared by every screen: the frame layout (header, scrolling body, help bar),
//! help bars, and scrolling a long list of lines.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::{text, theme};

/// One key hint: the key and what it does.
pub(crate) type Hint<'a> = (&'a str, &'a str);

/// Help bar lines for `hints`, wrapped to `width` without splitting a hint.
pub(crate) fn help_lines(hints: &[Hint<'_>], width: u16) -> Vec<Line<'static>> {
    let width = usize::from(width.max(1));
    let mut lines = Vec::new();
    let mut cur: Vec<Span<'static>> = Vec::new();
    let mut used = 0usize;
    for (key, what) in hints {
        let w = text::width(key) + 1 + text::width(what);
        let sep = if cur.is_empty() { 0 } else { 3 };
        if !cur.is_empty() && used + sep + w > width {
            lines.push(Line::from(std::mem::take(&mut cur)));
            used = 0;
        }
        if !cur.is_empty() {
            cur.push(Span::styled(" · ", theme::dim()));
            used += 3;
        }
        cur.push(Span::styled((*key).to_string(), theme::key()));
        cur.push(Span::raw(format!(" {what}")));
        used += w;
    }
    if !cur.is_empty() {
        lines.push(Line::from(cur));
    }
    lines
}

/// The three regions of a screen.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Regions {
    pub(crate) header: Rect,
    pub(crate) body: Rect,
    pub(crate) footer: Rect,
}

/// Splits `area` into a header of `header` lines, a footer of `footer` lines and the body
/// between, shrinking header then footer when the terminal is too short, so the body
/// always keeps at least a few lines.
pub(crate) fn regions(area: Rect, header: usize, footer: usize) -> Regions {
    let h = area.height;
    let min_body = 3.min(h);
    let mut head = u16::try_from(header).unwrap_or(u16::MAX);
    let mut foot = u16::try_from(footer).unwrap_or(u16::MAX);
    let room = h.saturating_sub(min_body);
    head = head.min(room / 2).min(4);
    foot = foot.min(room.saturating_sub(head));
    let body_h = h.saturating_sub(head + foot);
    Regions {
        header: Rect::new(area.x, area.y, area.width, head),
        body: Rect::new(area.x, area.y + head, area.width, body_h),
        footer: Rect::new(area.x, area.y + head + body_h, area.width, foot),
    }
}

/// Draws `lines` into `area` (no wrapping: callers wrap), starting at line `scroll`.
pub(crate) fn draw_lines(lines: &[Line<'static>], scroll: usize, area: Rect, buf: &mut Buffer) {
    let end = lines.len().min(scroll + usize::from(area.height));
    let visible: Vec<Line<'static>> = lines.get(scroll.min(end)..end).unwrap_or(&[]).to_vec();
    Paragraph::new(visible).render(area, buf);
}

/// Adjusts `scroll` so the line range `focus` (start, end exclusive) is visible in a
/// viewport of `height` lines over `total` lines. Keeps `scroll` when already visible.
pub(crate) fn follow(scroll: usize, focus: (usize, usize), height: usize, total: usize) -> usize {
    let height = height.max(1);
    let (start, end) = focus;
    let mut s = scroll;
    if end.saturating_sub(start) >= height || start < s {
        s = start;
    } else if end > s + height {
        s = end - height;
    }
    s.min(total.saturating_sub(height))
}

/// A "more above / more below" marker line when the body is scrolled.
/// `height` is the number of body lines actually showing content.
pub(crate) fn scroll_marker(scroll: usize, height: usize, total: usize) -> Option<String> {
    let above = scroll > 0;
    let below = scroll + height < total;
    match (above, below) {
        (true, true) => Some("↑ more above · ↓ more below".into()),
        (true, false) => Some("↑ more above".into()),
        (false, true) => Some("↓ more below".into()),
        (false, false) => None,
    }
}

/// Draws a body of lines with scrolling and a marker on the last line when there is
/// more to see. Returns the scroll offset used.
pub(crate) fn draw_scrolled(
    lines: &[Line<'static>],
    scroll: usize,
    area: Rect,
    buf: &mut Buffer,
) -> usize {
    let h = usize::from(area.height);
    let total = lines.len();
    // One line goes to the marker whenever everything does not fit, so the last scroll
    // position shows the last line (it used to stay hidden under the marker).
    let shown = viewport(h, total);
    let scroll = scroll.min(total.saturating_sub(shown));
    match scroll_marker(scroll, shown, total) {
        Some(marker) if h >= 2 => {
            let inner = Rect::new(area.x, area.y, area.width, area.height - 1);
            draw_lines(lines, scroll, inner, buf);
            let m = Rect::new(area.x, area.y + area.height - 1, area.width, 1);
            Paragraph::new(Line::from(Span::styled(marker, theme::dim()))).render(m, buf);
        }
        _ => draw_lines(lines, scroll, area, buf),
    }
    scroll
}

/// A horizontal rule across `width`.
pub(crate) fn rule(width: u16) -> Line<'static> {
    Line::from(Span::styled(
        "─".repeat(usize::from(width)),
        theme::border(),
    ))
}

/// Lines visible in a body of `height` lines holding `total` (one is lost to the
/// scroll marker when everything doesn't fit).
pub(crate) fn viewport(height: usize, total: usize) -> usize {
    if total > height && height >= 2 {
        height - 1
    } else {
        height.max(1)
    }
}

/// Buttons as `< Name >`, the focused one marked `>` and reversed, wrapped onto as many
/// lines as `width` needs.
pub(crate) fn button_lines(buttons: &[(&str, bool)], width: u16) -> Vec<Line<'static>> {
    let width = usize::from(width.max(1));
    let mut lines = Vec::new();
    let mut cur: Vec<Span<'static>> = Vec::new();
    let mut used = 0usize;
    for (name, focused) in buttons {
        let label = format!("< {name} >");
        let w = 2 + text::width(&label) + 1;
        if !cur.is_empty() && used + w > width {
            lines.push(Line::from(std::mem::take(&mut cur)));
            used = 0;
        }
        let (mark, style) = if *focused {
            ("> ", theme::focus())
        } else {
            ("  ", ratatui::style::Style::new())
        };
        cur.push(Span::raw(mark));
        cur.push(Span::styled(label, style));
        cur.push(Span::raw(" "));
        used += w;
    }
    if !cur.is_empty() {
        lines.push(Line::from(cur));
    }
    lines
}

/// A footer whose parts give way in order when the terminal is short: the key help
/// first, then the notes above the buttons; the action buttons go last, so they stay
/// visible and reachable on every screen that has them.
#[derive(Debug, Default)]
pub(crate) struct Footer {
    /// Status and toggles shown above the buttons.
    pub(crate) notes: Vec<Line<'static>>,
    /// The action buttons (pinned: never scrolled away with the body).
    pub(crate) buttons: Vec<Line<'static>>,
    /// Key help.
    pub(crate) help: Vec<Line<'static>>,
}

impl Footer {
    /// Every line: a rule, the notes, the buttons, the help.
    pub(crate) fn len(&self) -> usize {
        1 + self.notes.len() + self.buttons.len() + self.help.len()
    }

    /// The lines that fit in `max` rows, dropping help, then notes, then the rule.
    pub(crate) fn fit(&self, width: u16, max: usize) -> Vec<Line<'static>> {
        let mut help = self.help.clone();
        let mut notes = self.notes.clone();
        let mut with_rule = true;
        let count = |n: &Vec<Line<'static>>, h: &Vec<Line<'static>>, r: bool| {
            usize::from(r) + n.len() + self.buttons.len() + h.len()
        };
        while count(&notes, &help, with_rule) > max && !help.is_empty() {
            help.pop();
        }
        while count(&notes, &help, with_rule) > max && !notes.is_empty() {
            notes.pop();
        }
        if count(&notes, &help, with_rule) > max {
            with_rule = false;
        }
        let mut out = Vec::new();
        if with_rule {
            out.push(rule(width));
        }
        out.extend(notes);
        out.extend(self.buttons.iter().cloned());
        out.extend(help);
        out.truncate(max);
        out
    }
}

/// Draws `header`, `footer` and returns the body area between them. The footer gets the
/// room it needs before the body (but the body keeps a few lines), so pinned buttons
/// stay on screen.
pub(crate) fn frame(
    area: Rect,
    header: &[Line<'static>],
    footer: &Footer,
    buf: &mut Buffer,
) -> Rect {
    let r = regions(area, header.len(), footer.len());
    draw_lines(header, 0, r.header, buf);
    let lines = footer.fit(area.width, usize::from(r.footer.height));
    draw_lines(&lines, 0, r.footer, buf);
    r.body
}

/// `s` cut to at most `max` display columns, ending in "…" when cut.
pub(crate) fn ellipsize(s: &str, max: usize) -> String {
    if text::width(s) <= max {
        return s.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w + 1 > max {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

/// Pinned action buttons: which exist (in order) and which has the focus. Tab/→ moves
/// to the next, Shift-Tab/← to the previous, Enter/Space presses the focused one.
/// Buttons made with [`Buttons::unfocused`] take the focus only once Tab (or an arrow)
/// gives it, so a stray Enter presses nothing.
#[derive(Debug, Clone)]
pub(crate) struct Buttons<B> {
    all: Vec<B>,
    focus: Option<usize>,
}

impl<B: Copy + PartialEq> Buttons<B> {
    /// `all` in order, the focus on `focus` (the first when `focus` is not among them).
    pub(crate) fn new(all: Vec<B>, focus: B) -> Self {
        let focus = all.iter().position(|b| *b == focus).unwrap_or(0);
        Self {
            all,
            focus: Some(focus),
        }
    }

    /// `all` in order, none focused yet.
    pub(crate) fn unfocused(all: Vec<B>) -> Self {
        Self { all, focus: None }
    }

    /// The focused button, if any.
    pub(crate) fn focused(&self) -> Option<B> {
        self.focus.and_then(|i| self.all.get(i).copied())
    }

    /// Moves the focus for Tab/→/Shift-Tab/←; returns the focused button for
    /// Enter/Space (pressed), `None` for every other key.
    pub(crate) fn handle(&mut self, key: &ratatui::crossterm::event::KeyEvent) -> Option<B> {
        use ratatui::crossterm::event::KeyCode;
        let n = self.all.len();
        if n == 0 {
            return None;
        }
        match (key.code, self.focus) {
            (KeyCode::Tab | KeyCode::Right, None) => self.focus = Some(0),
            (KeyCode::BackTab | KeyCode::Left, None) => self.focus = Some(n - 1),
            (KeyCode::Tab | KeyCode::Right, Some(i)) => self.focus = Some((i + 1) % n),
            (KeyCode::BackTab | KeyCode::Left, Some(i)) => self.focus = Some((i + n - 1) % n),
            (KeyCode::Enter | KeyCode::Char(' '), _) => return self.focused(),
            _ => {}
        }
        None
    }

    /// The button lines (see [`button_lines`]), each button named by `name`.
    pub(crate) fn lines(&self, width: u16, name: impl Fn(B) -> String) -> Vec<Line<'static>> {
        let names: Vec<(String, bool)> = self
            .all
            .iter()
            .enumerate()
            .map(|(i, b)| (name(*b), self.focus == Some(i)))
            .collect();
        let shown: Vec<(&str, bool)> = names.iter().map(|(n, f)| (n.as_str(), *f)).collect();
        button_lines(&shown, width)
    }
}
