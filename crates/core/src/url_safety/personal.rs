//! Personal data in a URL. Servers MUST NOT put personal identifiable information about
//! the end-user in a URL-mode elicitation URL (client/elicitation.mdx, "Safe URL
//! Handling"). E-mail addresses are the kind that can be recognised without false alarms
//! (`@handle` paths and `pkg@1.2.3` versions are not addresses); names, phone or card
//! numbers cannot be told apart from ordinary ids, so they are not looked for.

use url::Url;

/// Where in `url` (`"path"`, `"query"` or `"fragment"`, percent-decoded) an e-mail
/// address appears, if anywhere.
pub(crate) fn email_place(url: &Url) -> Option<&'static str> {
    let parts = [
        ("path", Some(url.path())),
        ("query", url.query()),
        ("fragment", url.fragment()),
    ];
    parts.into_iter().find_map(|(place, part)| {
        let decoded = percent_encoding::percent_decode_str(part?).decode_utf8_lossy();
        contains_email(&decoded).then_some(place)
    })
}

/// Whether `text` contains `local@domain.tld`: a non-empty local part of the usual
/// characters, and a domain of at least two labels whose last is alphabetic.
pub(crate) fn contains_email(text: &str) -> bool {
    text.match_indices('@').any(|(at, _)| {
        // `@` is one byte, so `at` and `at + 1` are character boundaries.
        let before = text.get(..at).unwrap_or_default();
        let after = text.get(at + 1..).unwrap_or_default();
        let local = before
            .chars()
            .rev()
            .take_while(|&c| is_local_char(c))
            .count();
        let domain_len = after
            .char_indices()
            .find(|&(_, c)| !(c.is_alphanumeric() || c == '-' || c == '.'))
            .map_or(after.len(), |(i, _)| i);
        let domain = after.get(..domain_len).unwrap_or_default();
        local > 0 && is_mail_domain(domain.trim_end_matches('.'))
    })
}

fn is_local_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '.' | '_' | '%' | '+' | '-')
}

fn is_mail_domain(domain: &str) -> bool {
    let labels: Vec<&str> = domain.split('.').collect();
    let Some(tld) = labels.last() else {
        return false;
    };
    labels.len() >= 2
        && labels
            .iter()
            .all(|l| !l.is_empty() && !l.starts_with('-') && !l.ends_with('-'))
        && tld.chars().count() >= 2
        && tld.chars().all(char::is_alphabetic)
}

#[cfg(test)]
mod tests {
    use super::contains_email;

    #[test]
    fn addresses_are_found_and_look_alikes_are_not() {
        for text in [
            "alice@example.com",
            "/u/alice.smith+tag@mail.example.co.uk/x",
            "email=bob@example.org&x=1",
            "李@例子.中国",
        ] {
            assert!(contains_email(text), "{text}");
        }
        for text in [
            "/@alice/post",
            "/npm/react@18.2.0/index.js",
            "/npm/pkg@latest/x",
            "a@b",
            "x@-bad-.com",
            "x@.com",
            "@example.com",
            "",
        ] {
            assert!(!contains_email(text), "{text}");
        }
    }
}
