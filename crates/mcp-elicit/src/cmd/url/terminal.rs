//! Making untrusted text safe to print on a terminal.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{ErrorKind, Write as _};

/// Writes `text` on standard output. Never panics: a reader that went away (`| head`)
/// ends the output silently; any other failure is reported on standard error.
pub(crate) fn out(text: &str) {
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        && e.kind() != ErrorKind::BrokenPipe
    {
        err(&format!(
            "mcp-elicit: cannot write to standard output: {e}\n"
        ));
    }
}

/// Writes `text` on standard error, ignoring failures (there is nowhere left to report
/// them), never panicking.
pub(crate) fn err(text: &str) {
    let mut stderr = std::io::stderr().lock();
    let _ = stderr
        .write_all(text.as_bytes())
        .and_then(|()| stderr.flush());
}

/// `text` with every control character and every invisible or direction-changing
/// formatting character (RTL overrides, zero-width spaces, BOM...) replaced by a visible
/// `\u{XXXX}` escape, so that a schema, a URL or a message from a server can neither
/// move the cursor, recolour the terminal nor reorder what the user reads.
pub(crate) fn terminal_safe(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if needs_escape(c) {
            let _ = write!(out, "\\u{{{:04X}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{061C}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{206F}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{E0000}'..='\u{E007F}'
        )
}

#[cfg(test)]
mod tests {
    use super::terminal_safe;

    #[test]
    fn escapes_controls_and_bidi() {
        assert_eq!(terminal_safe("plain ünïcode"), "plain ünïcode");
        assert_eq!(terminal_safe("a\u{1b}[31mb"), "a\\u{001B}[31mb");
        assert_eq!(terminal_safe("x\u{202E}y\nz"), "x\\u{202E}y\\u{000A}z");
        assert_eq!(terminal_safe("\u{200B}"), "\\u{200B}");
    }
}
