//! Checks on the raw input characters, before the parser normalizes them away.
//!
//! The WHATWG parser silently removes tabs and newlines, trims control characters,
//! drops zero-width characters from host names (IDNA mapping) and percent-encodes
//! direction overrides in paths. The parsed URL is then harmless, but the *input* a
//! careless UI might show could say something else, and a server that sends such
//! characters is either broken or trying to trick someone.

use unicode_security::skeleton;

/// What the character scan found.
#[derive(Debug, Default)]
pub(crate) struct CharScan {
    /// Invisible or direction-changing code points, first few, deduplicated.
    pub(crate) invisible: Vec<char>,
    /// Whether an ASCII/C1 control character appears (other than surrounding
    /// whitespace that every parser trims).
    pub(crate) control: bool,
    /// Whether any whitespace or control character appears anywhere, surrounding ones
    /// included.
    pub(crate) any_space_or_control: bool,
}

/// How many distinct invisible characters to name in a message.
const MAX_NAMED: usize = 5;

pub(crate) fn scan(input: &str) -> CharScan {
    let mut scan = CharScan::default();
    let trimmed = input.trim_matches(|c: char| matches!(c, ' ' | '\t' | '\n' | '\r'));
    for c in input.chars() {
        if c.is_whitespace() || c.is_control() {
            scan.any_space_or_control = true;
        }
        if is_invisible(c) && !scan.invisible.contains(&c) && scan.invisible.len() < MAX_NAMED {
            scan.invisible.push(c);
        }
    }
    scan.control = trimmed.chars().any(|c| c.is_control());
    scan
}

/// Invisible or direction-changing: Unicode default-ignorable code points (zero-width
/// space and joiners, bidi controls such as U+202E, word joiner, BOM, soft hyphen,
/// variation selectors, tags...), line/paragraph separators, and whitespace other than
/// the ASCII space.
pub(crate) fn is_invisible(c: char) -> bool {
    if c.is_ascii() {
        return false;
    }
    if c.is_whitespace() || matches!(c, '\u{2028}' | '\u{2029}') {
        return true;
    }
    // UTS #39 skeletons drop exactly the default-ignorable code points, and every
    // other character maps to at least one character.
    let mut buf = [0u8; 4];
    skeleton(c.encode_utf8(&mut buf)).next().is_none()
}

/// `U+202E RIGHT-TO-LEFT OVERRIDE`, or `U+XXXX` for characters without a known name.
pub(crate) fn describe(c: char) -> String {
    let name = match c {
        '\u{200B}' => Some("ZERO WIDTH SPACE"),
        '\u{200C}' => Some("ZERO WIDTH NON-JOINER"),
        '\u{200D}' => Some("ZERO WIDTH JOINER"),
        '\u{200E}' => Some("LEFT-TO-RIGHT MARK"),
        '\u{200F}' => Some("RIGHT-TO-LEFT MARK"),
        '\u{202A}' => Some("LEFT-TO-RIGHT EMBEDDING"),
        '\u{202B}' => Some("RIGHT-TO-LEFT EMBEDDING"),
        '\u{202C}' => Some("POP DIRECTIONAL FORMATTING"),
        '\u{202D}' => Some("LEFT-TO-RIGHT OVERRIDE"),
        '\u{202E}' => Some("RIGHT-TO-LEFT OVERRIDE"),
        '\u{2060}' => Some("WORD JOINER"),
        '\u{2066}' => Some("LEFT-TO-RIGHT ISOLATE"),
        '\u{2067}' => Some("RIGHT-TO-LEFT ISOLATE"),
        '\u{2068}' => Some("FIRST STRONG ISOLATE"),
        '\u{2069}' => Some("POP DIRECTIONAL ISOLATE"),
        '\u{FEFF}' => Some("ZERO WIDTH NO-BREAK SPACE"),
        '\u{00AD}' => Some("SOFT HYPHEN"),
        '\u{00A0}' => Some("NO-BREAK SPACE"),
        '\u{061C}' => Some("ARABIC LETTER MARK"),
        _ => None,
    };
    match name {
        Some(n) => format!("U+{:04X} {n}", u32::from(c)),
        None => format!("U+{:04X}", u32::from(c)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_characters_are_recognised() {
        for c in [
            '\u{200B}',
            '\u{202E}',
            '\u{2066}',
            '\u{FEFF}',
            '\u{00AD}',
            '\u{3000}',
            '\u{E0041}',
        ] {
            assert!(is_invisible(c), "{c:?}");
        }
        for c in ['a', '-', '/', 'é', 'а', '例', ' '] {
            assert!(!is_invisible(c), "{c:?}");
        }
    }

    #[test]
    fn scan_distinguishes_surrounding_whitespace_from_embedded_controls() {
        let s = scan("  https://example.com/\n");
        assert!(!s.control);
        assert!(s.any_space_or_control);
        assert!(scan("https://exa\tmple.com/").control);
        assert!(scan("java\nscript:alert(1)").control);
        assert!(!scan("https://example.com/").any_space_or_control);
        assert_eq!(
            scan("https://a.com/\u{202E}\u{202E}\u{200B}").invisible,
            vec!['\u{202E}', '\u{200B}']
        );
    }
}
