//! Finding links in free text (the SHOULD NOT of clickable URLs in form requests).
//!
//! What a client would turn into a link: anything with a `scheme://` (found by the
//! `linkify` crate, which gets boundaries right around punctuation and brackets),
//! `www.`-prefixed names, and the dangerous or app-opening schemes written without
//! slashes (`mailto:`, `javascript:`, `vbscript:`, `data:text/html,...`, `tel:`,
//! `sms:`). Bare names like `example.com` are not reported: file names (`setup.py`,
//! `README.md`) look the same, and common renderers do not link them either.

use linkify::{LinkFinder, LinkKind};

/// Every link in `text`, as written, in order of appearance.
pub(crate) fn find(text: &str) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut finder = LinkFinder::new();
    finder.kinds(&[LinkKind::Url]).url_must_have_scheme(false);
    for link in finder.links(text) {
        let s = link.as_str();
        let has_scheme = s.contains("://");
        let www = s.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("www."));
        if has_scheme || www {
            out.push((link.start(), s.to_owned()));
        }
    }
    out.extend(opaque_scheme_links(text));
    out.sort_by_key(|(pos, _)| *pos);
    out.dedup_by(|b, a| b.0 < a.0 + a.1.len());
    out
}

/// `mailto:x`, `javascript:x`... at a word start, followed by something that is not a
/// space. `data:` only with a media type (`data:text/html,...`), since "data:" ends many
/// labels. At most one per whitespace-delimited run, so the scan stays linear.
fn opaque_scheme_links(text: &str) -> Vec<(usize, String)> {
    const SCHEMES: &[&str] = &[
        "mailto:",
        "javascript:",
        "vbscript:",
        "data:",
        "tel:",
        "sms:",
    ];
    let is_stop = |c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>');
    let mut out = Vec::new();
    let mut run_start = 0;
    for run in text.split(is_stop) {
        let base = run_start;
        run_start += run.len()
            + text
                .get(base + run.len()..)
                .and_then(|t| t.chars().next())
                .map_or(0, char::len_utf8);
        if !run.contains(':') {
            continue;
        }
        let lower = run.to_ascii_lowercase();
        let mut best: Option<(usize, usize)> = None;
        for scheme in SCHEMES {
            for (at, _) in lower.match_indices(scheme) {
                if best.is_some_and(|(b, _)| b <= at) {
                    break;
                }
                let word_start = lower
                    .get(..at)
                    .and_then(|b| b.chars().next_back())
                    .is_none_or(|c| !c.is_alphanumeric());
                let rest = run.get(at + scheme.len()..).unwrap_or_default();
                if !word_start || rest.is_empty() {
                    continue;
                }
                if *scheme == "data:" {
                    // A media type is short: look at the first few characters only.
                    let head = rest
                        .char_indices()
                        .nth(128)
                        .map_or(rest, |(i, _)| rest.get(..i).unwrap_or(rest));
                    let media = head.split([',', ';']).next().unwrap_or_default();
                    if !media.contains('/') {
                        continue;
                    }
                }
                let body = trim_trailing(rest);
                if body.is_empty() {
                    continue;
                }
                best = Some((at, at + scheme.len() + body.len()));
                break;
            }
        }
        if let Some(link) = best.and_then(|(from, to)| Some((from, run.get(from..to)?))) {
            out.push((base + link.0, link.1.to_owned()));
        }
    }
    out
}

/// Drops trailing sentence punctuation, and a closing bracket that has no opening one
/// in the link (`(see mailto:a@b.c)`).
fn trim_trailing(s: &str) -> &str {
    let mut unmatched = [
        s.matches(')')
            .count()
            .saturating_sub(s.matches('(').count()),
        s.matches(']')
            .count()
            .saturating_sub(s.matches('[').count()),
    ];
    let mut end = s.len();
    while let Some(c) = s.get(..end).and_then(|t| t.chars().next_back()) {
        let drop = match c {
            '.' | ',' | ';' | ':' | '!' | '?' => true,
            ')' if unmatched[0] > 0 => {
                unmatched[0] -= 1;
                true
            }
            ']' if unmatched[1] > 0 => {
                unmatched[1] -= 1;
                true
            }
            _ => false,
        };
        if !drop {
            break;
        }
        end -= c.len_utf8();
    }
    s.get(..end).unwrap_or(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls(text: &str) -> Vec<String> {
        find(text).into_iter().map(|(_, u)| u).collect()
    }

    #[test]
    fn finds_what_renderers_link() {
        assert_eq!(
            urls("See https://example.com/a."),
            ["https://example.com/a"]
        );
        assert_eq!(urls("(visit www.example.com)"), ["www.example.com"]);
        assert_eq!(
            urls("mail mailto:a@b.c or javascript:alert(1)"),
            ["mailto:a@b.c", "javascript:alert(1)"]
        );
        assert_eq!(
            urls("[docs](https://docs.example.com/x)"),
            ["https://docs.example.com/x"]
        );
        assert_eq!(urls("data:text/html,<b>x</b>"), ["data:text/html"]);
        assert_eq!(urls("ftp://files.example.com"), ["ftp://files.example.com"]);
        assert_eq!(urls("(write to mailto:a@b.c)."), ["mailto:a@b.c"]);
    }

    #[test]
    fn ignores_plain_text() {
        assert!(urls("Upload setup.py and README.md, e.g. version 1.2.3").is_empty());
        assert!(urls("Your data: name and email").is_empty());
        assert!(urls("Contact: alice@example.com").is_empty());
        assert!(urls("").is_empty());
    }
}
