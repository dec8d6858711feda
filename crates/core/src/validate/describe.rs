//! Building blocks of violation messages: quoting, truncation, JSON type names, option
//! lists. Messages echo untrusted text (content values, unknown property names), so
//! every echo is JSON-quoted (no raw control characters or quotes) and truncated.

use std::fmt::Write as _;

use serde_json::Value;

use crate::schema::EnumOption;

/// Longest echoed text, in characters, before it is cut with `…`.
const MAX_ECHO_CHARS: usize = 64;

/// Most options listed in a message before `and N more`.
const MAX_LISTED_OPTIONS: usize = 10;

/// `text` as a JSON string literal, cut to [`MAX_ECHO_CHARS`] characters.
pub(super) fn quote(text: &str) -> String {
    let cut = match text.char_indices().nth(MAX_ECHO_CHARS) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    };
    // Serializing a `str` cannot fail.
    let quoted = serde_json::to_string(&cut).unwrap_or_default();
    if quoted.chars().any(is_bidi_control) {
        // JSON escaping leaves these alone, but they can reorder the rest of the
        // message on screen: show them as escapes too.
        quoted
            .chars()
            .map(|c| {
                if is_bidi_control(c) {
                    format!("\\u{:04x}", u32::from(c))
                } else {
                    c.to_string()
                }
            })
            .collect()
    } else {
        quoted
    }
}

/// Unicode bidirectional formatting characters (embeddings, overrides, isolates, marks).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The message prefix naming a property: `"email": `.
pub(super) fn subject(property: &str) -> String {
    let mut s = quote(property);
    s.push_str(": ");
    s
}

/// The JSON type of `value`, with its article: `a string`, `an array`, `null`.
pub(super) fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `"Red", "Green", "#0000FF" (Blue)`, at most [`MAX_LISTED_OPTIONS`] then `and N more`.
pub(super) fn option_list(options: &[EnumOption]) -> String {
    let mut out = String::new();
    for (i, option) in options.iter().take(MAX_LISTED_OPTIONS).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&quote(&option.value));
        if let Some(title) = option.title.as_deref().filter(|t| *t != option.value) {
            let _ = write!(out, " ({})", cut(title));
        }
    }
    if options.len() > MAX_LISTED_OPTIONS {
        let _ = write!(out, " and {} more", options.len() - MAX_LISTED_OPTIONS);
    }
    out
}

/// `text` cut to [`MAX_ECHO_CHARS`] characters, control characters replaced, unquoted.
fn cut(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(MAX_ECHO_CHARS)
        .map(|c| {
            if c.is_control() || is_bidi_control(c) {
                ' '
            } else {
                c
            }
        })
        .collect();
    if text.chars().nth(MAX_ECHO_CHARS).is_some() {
        out.push('…');
    }
    out
}

/// `1 character` / `3 characters`.
pub(super) fn count(n: u64, singular: &str, plural: &str) -> String {
    if n == 1 {
        format!("1 {singular}")
    } else {
        format!("{n} {plural}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_escapes_and_truncates() {
        assert_eq!(quote("a\"b\n"), r#""a\"b\n""#);
        let long = "é".repeat(100);
        let q = quote(&long);
        assert_eq!(q.chars().filter(|c| *c == 'é').count(), MAX_ECHO_CHARS);
        assert!(q.ends_with("…\""));
        assert_eq!(quote("a\u{202E}b"), "\"a\\u202eb\"");
    }

    #[test]
    fn option_lists_are_capped() {
        let options: Vec<EnumOption> = (0..15)
            .map(|i| EnumOption {
                value: format!("v{i}"),
                title: None,
            })
            .collect();
        let list = option_list(&options);
        assert!(list.starts_with("\"v0\", \"v1\""));
        assert!(list.ends_with("\"v9\" and 5 more"), "{list}");
        let titled = [EnumOption {
            value: "#F00".into(),
            title: Some("Red\u{7}".into()),
        }];
        assert_eq!(option_list(&titled), "\"#F00\" (Red )");
        let spoof = [EnumOption {
            value: "a".into(),
            title: Some("x\u{202E}y".into()),
        }];
        assert_eq!(option_list(&spoof), "\"a\" (x y)");
    }
}
