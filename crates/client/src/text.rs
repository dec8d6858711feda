//! Server-supplied text made safe to show: [`PlainText`].
//!
//! Everything a server sends (the elicitation `message`, its name and title, schema
//! titles) is untrusted. Shown in a terminal, a control character can move the cursor,
//! rewrite earlier lines or set the window title; shown in a GUI, bidirectional
//! overrides can make `moc.elpmaxe` read as `example.com` (Trojan Source). A
//! [`PlainText`] has every such character replaced by U+FFFD, so that the trick stays
//! visible rather than silently removed.
//!
//! A `PlainText` is meant to be rendered *as plain text*: never as Markdown or HTML, and
//! URLs inside it are never made clickable (the specification: clients SHOULD NOT render
//! URLs as clickable in any field of an elicitation request except the `url` of a URL
//! mode request).

use std::fmt;

use serde::Serialize;

/// Untrusted text with terminal control and bidirectional control characters replaced
/// by U+FFFD. Render it verbatim as plain text; never linkify it.
///
/// ```
/// use mcp_elicit_client::text::PlainText;
///
/// // An escape sequence that would clear the screen, and a right-to-left override.
/// let shown = PlainText::from_untrusted("Hi\u{1b}[2J there \u{202e}moc.elpmaxe\nline 2");
/// assert_eq!(shown.as_str(), "Hi\u{fffd}[2J there \u{fffd}moc.elpmaxe\nline 2");
/// assert!(shown.was_altered()); // tell the user the server sent such characters
///
/// assert!(!PlainText::from_untrusted("Which day?\tfrom 1 to 31").was_altered());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct PlainText(String);

/// The replacement for a character that could change how the text displays.
///
/// ```
/// use mcp_elicit_client::text::{PlainText, REPLACEMENT};
///
/// let shown = PlainText::from_untrusted("ring the bell\u{7}");
/// assert!(shown.as_str().ends_with(REPLACEMENT));
/// assert_eq!(REPLACEMENT, '\u{fffd}');
/// ```
pub const REPLACEMENT: char = '\u{FFFD}';

impl PlainText {
    /// Cleans untrusted text. Newlines and tabs are kept; CR, other C0 controls, DEL,
    /// C1 controls (ESC sequences, CSI), bidirectional controls and the Unicode line and
    /// paragraph separators become U+FFFD, one for one.
    ///
    /// ```
    /// use mcp_elicit_client::PlainText;
    ///
    /// // A CR could make "approved" overwrite the start of the line in a terminal.
    /// let t = PlainText::from_untrusted("denied\rapproved\n\tnext line");
    /// assert_eq!(t.as_str(), "denied\u{fffd}approved\n\tnext line");
    /// // The 8-bit CSI and a line separator, too.
    /// assert_eq!(PlainText::from_untrusted("a\u{9b}b\u{2028}c").as_str(), "a\u{fffd}b\u{fffd}c");
    /// // Ordinary non-ASCII text is untouched.
    /// assert_eq!(PlainText::from_untrusted("Grüße, 名前").as_str(), "Grüße, 名前");
    /// ```
    pub fn from_untrusted(text: &str) -> Self {
        Self(
            text.chars()
                .map(|c| if is_unsafe(c) { REPLACEMENT } else { c })
                .collect(),
        )
    }

    /// The cleaned text (also through [`Display`](fmt::Display) and `AsRef<str>`).
    ///
    /// ```
    /// use mcp_elicit_client::PlainText;
    ///
    /// let t = PlainText::from_untrusted("Your city?");
    /// assert_eq!(t.as_str(), "Your city?");
    /// assert_eq!(t.to_string(), "Your city?");
    /// ```
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether cleaning replaced anything (the host may say so). Text that already held a
    /// U+FFFD counts as altered too.
    ///
    /// ```
    /// use mcp_elicit_client::PlainText;
    ///
    /// assert!(PlainText::from_untrusted("\u{202e}gpj.exe").was_altered());
    /// assert!(!PlainText::from_untrusted("plain\ttext\n").was_altered());
    /// assert!(PlainText::from_untrusted("already \u{fffd}").was_altered());
    /// ```
    pub fn was_altered(&self) -> bool {
        self.0.contains(REPLACEMENT)
    }

    /// Consumes it, returning the cleaned text.
    ///
    /// ```
    /// use mcp_elicit_client::PlainText;
    ///
    /// let s: String = PlainText::from_untrusted("a\u{1b}b").into_string();
    /// assert_eq!(s, "a\u{fffd}b");
    /// ```
    pub fn into_string(self) -> String {
        self.0
    }
}

impl fmt::Display for PlainText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for PlainText {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// Whether `c` may change how surrounding text displays.
fn is_unsafe(c: char) -> bool {
    match c {
        '\n' | '\t' => false,
        c if c.is_control() => true, // C0, DEL, C1 (includes ESC and the 8-bit CSI)
        // Bidirectional embeddings, overrides and isolates, and the implicit marks.
        '\u{202A}'..='\u{202E}'
        | '\u{2066}'..='\u{2069}'
        | '\u{200E}'
        | '\u{200F}'
        | '\u{061C}' => true,
        // Line and paragraph separators break layouts the same way a raw CR does.
        '\u{2028}' | '\u{2029}' => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_are_neutralised() {
        let t = PlainText::from_untrusted("ok\u{1b}[2J\u{1b}]0;owned\u{7}\r\nnext");
        assert!(!t.as_str().contains('\u{1b}'));
        assert!(!t.as_str().contains('\r'));
        assert!(!t.as_str().contains('\u{7}'));
        assert!(t.as_str().contains("\nnext"));
        assert!(t.was_altered());
    }

    #[test]
    fn bidi_overrides_are_visible() {
        let t = PlainText::from_untrusted("see \u{202E}moc.elpmaxe");
        assert_eq!(t.as_str(), "see \u{FFFD}moc.elpmaxe");
    }

    #[test]
    fn ordinary_text_is_untouched() {
        let s = "Bitte geben Sie Ihren Namen ein: 名前\tok\nhttps://example.com";
        let t = PlainText::from_untrusted(s);
        assert_eq!(t.as_str(), s);
        assert!(!t.was_altered());
    }
}
