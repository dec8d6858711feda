//! Host checks: IP literals in every notation, internationalized names, mixed scripts
//! and confusables (UTS #39), and the registrable domain (Public Suffix List).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use unicode_security::{RestrictionLevel, RestrictionLevelDetection, skeleton};
use url::{Host, Url};

/// Whether the host is this computer in the strict sense of the server policy:
/// `localhost`, `127.0.0.0/8` or `::1`.
pub(crate) fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(Host::Ipv4(a)) => a.is_loopback(),
        Some(Host::Ipv6(a)) => a.is_loopback(),
        None => false,
    }
}

/// A plain-English description of where an address points.
pub(crate) fn describe_ip(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(a) => describe_v4(a).to_owned(),
        IpAddr::V6(a) => {
            if let Some(v4) = a.to_ipv4_mapped() {
                format!(
                    "an IPv4 address written as IPv6 ({v4}, {})",
                    describe_v4(v4)
                )
            } else {
                describe_v6(a).to_owned()
            }
        }
    }
}

fn describe_v4(a: Ipv4Addr) -> &'static str {
    let o = a.octets();
    if a.is_loopback() {
        "this computer (loopback)"
    } else if a.is_unspecified() {
        "the unspecified address"
    } else if a.is_private() {
        "a private network address"
    } else if a.is_link_local() {
        "a link-local address (such as a cloud metadata service)"
    } else if o[0] == 100 && (o[1] & 0xC0) == 64 {
        "a carrier-grade NAT address"
    } else if a.is_broadcast() || a.is_multicast() {
        "a broadcast or multicast address"
    } else {
        "a public internet address"
    }
}

fn describe_v6(a: Ipv6Addr) -> &'static str {
    if a.is_loopback() {
        "this computer (loopback)"
    } else if a.is_unspecified() {
        "the unspecified address"
    } else if a.is_unique_local() {
        "a private network address"
    } else if a.is_unicast_link_local() {
        "a link-local address"
    } else if a.is_multicast() {
        "a multicast address"
    } else {
        "a public internet address"
    }
}

/// The host as written in `input`, by the same splitting rules the WHATWG parser uses
/// for special schemes (any run of `/` or `\` after the scheme, the authority ends at
/// `/`, `\`, `?` or `#`, userinfo ends at the last `@`). Used only to tell whether an IP
/// address was written in its normal form; `None` when it cannot be found.
pub(crate) fn raw_host(input: &str) -> Option<&str> {
    let trimmed = input.trim_matches(|c: char| c <= ' ');
    let (_, rest) = trimmed.split_once(':')?;
    let rest = rest.trim_start_matches(['/', '\\']);
    let end = rest.find(['/', '\\', '?', '#']).unwrap_or(rest.len());
    let authority = rest.get(..end)?;
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if host_port.starts_with('[') {
        let close = host_port.find(']')?;
        host_port.get(..=close)
    } else {
        Some(host_port.split_once(':').map_or(host_port, |(h, _)| h))
    }
}

/// Whether the IP host was written differently from its normalized form (hex, octal,
/// integer, short forms, percent-encoding, full-width digits, expanded IPv6...).
pub(crate) fn ip_written_unusually(input: &str, normalized: &str) -> bool {
    match raw_host(input) {
        Some(raw) => !raw.trim_end_matches('.').eq_ignore_ascii_case(normalized),
        None => true,
    }
}

/// One label of a host that looks suspicious.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LabelIssue {
    /// The label mixes scripts beyond what UTS #39 calls highly restrictive.
    MixedScript {
        label: String,
        level: RestrictionLevel,
    },
    /// The label holds characters that are not allowed in identifiers (symbols, emoji).
    UnusualCharacters { label: String },
}

/// Script checks on every non-ASCII label of the Unicode host.
pub(crate) fn label_issues(host_unicode: &str) -> Vec<LabelIssue> {
    let mut issues = Vec::new();
    for label in host_unicode.split('.').filter(|l| !l.is_ascii()) {
        match label.detect_restriction_level() {
            RestrictionLevel::Unrestricted => issues.push(LabelIssue::UnusualCharacters {
                label: label.to_owned(),
            }),
            level @ (RestrictionLevel::ModeratelyRestrictive
            | RestrictionLevel::MinimallyRestrictive) => issues.push(LabelIssue::MixedScript {
                label: label.to_owned(),
                level,
            }),
            RestrictionLevel::ASCIIOnly
            | RestrictionLevel::SingleScript
            | RestrictionLevel::HighlyRestrictive => {}
        }
    }
    issues
}

/// When every non-ASCII character of the host has a plain ASCII look-alike (UTS #39
/// confusable prototype), the all-ASCII name the host imitates: `аpple.com` (Cyrillic
/// `а`) → `apple.com`. `None` for ASCII hosts and for hosts with genuinely non-Latin
/// characters.
pub(crate) fn ascii_lookalike(host_unicode: &str) -> Option<String> {
    if host_unicode.is_ascii() {
        return None;
    }
    let mut out = String::with_capacity(host_unicode.len());
    let mut buf = [0u8; 4];
    for c in host_unicode.chars() {
        if c.is_ascii() {
            out.push(c);
            continue;
        }
        let proto: String = skeleton(c.encode_utf8(&mut buf)).collect();
        if proto.is_empty() || !proto.is_ascii() {
            return None;
        }
        out.push_str(&proto);
    }
    Some(out.to_ascii_lowercase())
}

/// The registrable domain (eTLD+1) of an ASCII host, and whether its suffix is on the
/// Public Suffix List. A trailing dot is ignored.
pub(crate) fn registrable_domain(host_ascii: &str) -> (Option<&str>, bool) {
    let host = host_ascii.strip_suffix('.').unwrap_or(host_ascii);
    if host.is_empty() || host.starts_with('.') || host.contains("..") {
        return (None, false);
    }
    let known = psl::suffix(host.as_bytes()).is_some_and(|s| s.is_known());
    let domain = psl::domain(host.as_bytes())
        .and_then(|d| std::str::from_utf8(d.as_bytes()).ok())
        .filter(|d| d.len() <= host.len() && host.ends_with(d));
    (domain, known)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_host_follows_whatwg_splitting() {
        assert_eq!(raw_host("http://0x7f.1/"), Some("0x7f.1"));
        assert_eq!(raw_host("http://u:p@0x7f.1:8080/x"), Some("0x7f.1"));
        assert_eq!(raw_host("http:\\\\2130706433\\x"), Some("2130706433"));
        assert_eq!(
            raw_host("  http://[::ffff:127.0.0.1]:80/"),
            Some("[::ffff:127.0.0.1]")
        );
        assert_eq!(raw_host("http://a.com?x"), Some("a.com"));
        assert_eq!(raw_host("nothing"), None);
    }

    #[test]
    fn lookalikes() {
        assert_eq!(ascii_lookalike("аpple.com").as_deref(), Some("apple.com"));
        assert_eq!(ascii_lookalike("gооgle.com").as_deref(), Some("google.com"));
        assert_eq!(ascii_lookalike("münchen.de"), None);
        assert_eq!(ascii_lookalike("例え.jp"), None);
        assert_eq!(ascii_lookalike("example.com"), None);
    }

    #[test]
    fn registrable_domains() {
        assert_eq!(
            registrable_domain("accounts.google.com.evil.com"),
            (Some("evil.com"), true)
        );
        assert_eq!(
            registrable_domain("www.evil.co.uk"),
            (Some("evil.co.uk"), true)
        );
        assert_eq!(registrable_domain("co.uk"), (None, true));
        assert_eq!(registrable_domain("localhost"), (None, false));
        assert_eq!(
            registrable_domain("example.com."),
            (Some("example.com"), true)
        );
        assert_eq!(registrable_domain("a..b"), (None, false));
        assert_eq!(registrable_domain(""), (None, false));
    }

    #[test]
    fn mixed_script_labels() {
        assert!(matches!(
            label_issues("аpple.com")[..],
            [LabelIssue::MixedScript { .. }]
        ));
        assert!(label_issues("münchen.de").is_empty());
        assert!(label_issues("例え.jp").is_empty());
        assert!(
            label_issues("ドメインabc.jp").is_empty(),
            "Latin with Japanese is highly restrictive"
        );
        assert!(matches!(
            label_issues("a❤.ws")[..],
            [LabelIssue::UnusualCharacters { .. }]
        ));
    }
}
