//! Making untrusted text safe and readable on a terminal.
//!
//! Everything a server sends (its name, message, titles, descriptions, option labels,
//! tool output) is untrusted. Control characters could move the cursor or recolour the
//! screen, and bidirectional overrides could make text read differently from what it
//! is, so both are replaced by visible escapes before anything is drawn.

use std::borrow::Cow;

use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// Whether `c` must not reach the terminal as is: C0/C1 controls, DEL, bidirectional
/// formatting characters and other invisible format characters that can hide or
/// reorder text.
fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{200B}'..='\u{200F}' // zero-width space/joiners, LRM, RLM
            | '\u{2028}' | '\u{2029}' // line/paragraph separators
            | '\u{202A}'..='\u{202E}' // bidi embeddings and overrides
            | '\u{2060}'..='\u{2064}' // word joiner, invisible operators
            | '\u{2066}'..='\u{2069}' // bidi isolates
            | '\u{FEFF}' // byte order mark / zero-width no-break space
            | '\u{FFF9}'..='\u{FFFB}' // interlinear annotations
        )
}

/// One line of untrusted text made safe to draw: every unsafe character (including
/// newlines and tabs) becomes a visible `\u{…}` escape, except that tabs and newlines
/// become a single space.
///
/// ```
/// use std::borrow::Cow;
/// use mcp_elicit_tui::text::one_line;
///
/// assert!(matches!(one_line("plain text"), Cow::Borrowed("plain text")));
/// assert_eq!(one_line("red\u{1b}[31m"), "red\\u{1B}[31m");
/// assert_eq!(one_line("txt\u{202E}exe.pdf"), "txt\\u{202E}exe.pdf");
/// assert_eq!(one_line("two\nlines\tand a tab"), "two lines and a tab");
/// ```
pub fn one_line(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_unsafe) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' | '\r' | '\t' => out.push(' '),
            c if is_unsafe(c) => out.push_str(&format!("\\u{{{:X}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Untrusted multi-line text split into safe lines (`\r\n`, `\n` and `\r` end lines; tabs
/// become four spaces; other unsafe characters become visible escapes).
///
/// ```
/// use mcp_elicit_tui::text::safe_lines;
///
/// assert_eq!(safe_lines("a\r\nb\nc\rd"), ["a", "b", "c", "d"]);
/// assert_eq!(safe_lines("\tx\u{7}"), ["    x\\u{7}"]);
/// ```
pub fn safe_lines(s: &str) -> Vec<String> {
    s.replace("\r\n", "\n")
        .split(['\n', '\r'])
        .map(|l| one_line(&l.replace('\t', "    ")).into_owned())
        .collect()
}

/// Wraps untrusted multi-line text to `width` columns (at least 1), safe to draw.
///
/// ```
/// use mcp_elicit_tui::text::wrap;
///
/// assert_eq!(wrap("the quick brown fox", 10), ["the quick", "brown fox"]);
/// assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]); // long words are broken
/// assert_eq!(wrap("a\n\nb", 10), ["a", "", "b"]);
/// ```
pub fn wrap(s: &str, width: u16) -> Vec<String> {
    let width = usize::from(width.max(1));
    let mut out = Vec::new();
    for line in safe_lines(s) {
        if line.is_empty() {
            out.push(String::new());
            continue;
        }
        let opts = textwrap::Options::new(width).break_words(true);
        out.extend(textwrap::wrap(&line, opts).into_iter().map(Cow::into_owned));
    }
    out
}

/// Wraps untrusted text to `width` and styles every line the same, each line prefixed
/// by `indent` spaces (counted inside `width`).
///
/// ```
/// use mcp_elicit_tui::text::wrapped_lines;
/// use ratatui::style::Style;
///
/// let lines = wrapped_lines("one two three", 9, 2, Style::new());
/// let shown: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
/// assert_eq!(shown, ["  one two", "  three"]);
/// ```
pub fn wrapped_lines(s: &str, width: u16, indent: u16, style: Style) -> Vec<Line<'static>> {
    let pad = " ".repeat(usize::from(indent));
    wrap(s, width.saturating_sub(indent).max(1))
        .into_iter()
        .map(|l| Line::from(vec![Span::raw(pad.clone()), Span::styled(l, style)]))
        .collect()
}

/// Display width of `s` in terminal columns.
///
/// ```
/// use mcp_elicit_tui::text::width;
///
/// assert_eq!(width("abc"), 3);
/// assert_eq!(width("日本"), 4); // wide characters take two columns
/// assert_eq!(width("e\u{301}"), 1); // a combining mark takes none
/// ```
pub fn width(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_and_bidi_overrides_become_visible() {
        let s = one_line("red\u{1b}[31m text\u{202E}cod.exe\u{7}");
        assert!(!s.contains('\u{1b}'));
        assert!(!s.contains('\u{202E}'));
        assert!(!s.contains('\u{7}'));
        assert!(s.contains("\\u{1B}[31m"));
        assert!(s.contains("\\u{202E}"));
    }

    #[test]
    fn plain_text_is_borrowed_untouched() {
        assert!(matches!(one_line("Hello, wörld"), Cow::Borrowed(_)));
    }

    #[test]
    fn newlines_split_lines_and_wrap_respects_width() {
        assert_eq!(safe_lines("a\r\nb\nc"), vec!["a", "b", "c"]);
        for l in wrap("the quick brown fox jumps over the lazy dog", 10) {
            assert!(width(&l) <= 10, "{l:?}");
        }
        // A single word longer than the width is broken, never overflowing.
        for l in wrap(&"x".repeat(25), 10) {
            assert!(width(&l) <= 10);
        }
    }
}
