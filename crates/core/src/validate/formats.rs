//! The string formats of the elicitation subset, checked per their RFCs.
//!
//! - `email`: RFC 5321 `Mailbox` (the addr-spec subset SMTP accepts): a dot-string or
//!   quoted-string local part of at most 64 octets, `@`, then a domain name (labels of
//!   letters, digits and inner hyphens, at most 63 octets each, 255 in all) or an address
//!   literal (`[192.0.2.1]`, `[IPv6:2001:db8::1]`); at most 254 octets in all. No
//!   comments, folding white space or obsolete forms; ASCII only (non-ASCII addresses are
//!   `idn-email`, outside the subset).
//! - `uri`: an RFC 3986 `URI`: scheme required, optional fragment, ASCII only, valid
//!   percent-encoding, checked by the `iri-string` crate.
//! - `date`: RFC 3339 `full-date` (`YYYY-MM-DD`) naming a real calendar day.
//! - `date-time`: RFC 3339 `date-time`: full-date, `T`, `hh:mm:ss` with an optional
//!   fraction, then `Z` or `±hh:mm`; `T` and `Z` in either case; second 60 only for a
//!   leap second, i.e. when the time is 23:59:60 in UTC once the offset is applied.
//!
//! None of these allocate.

use crate::schema::StringFormat;

/// Whether `s` is a valid `format` string (see the module documentation for each rule).
///
/// ```
/// use mcp_elicit_core::schema::StringFormat;
/// use mcp_elicit_core::validate::formats::check_format;
///
/// assert!(check_format(StringFormat::Email, "ada@example.com"));
/// assert!(check_format(StringFormat::Uri, "urn:isbn:0451450523"));
/// assert!(!check_format(StringFormat::Date, "2024-13-01"));
/// assert!(check_format(StringFormat::DateTime, "2024-01-01T12:00:00+02:00"));
/// ```
pub fn check_format(format: StringFormat, s: &str) -> bool {
    match format {
        StringFormat::Email => is_email(s),
        StringFormat::Uri => is_uri(s),
        StringFormat::Date => is_date(s),
        StringFormat::DateTime => is_date_time(s),
    }
}

/// RFC 5321 `Mailbox`: `local-part@domain`.
///
/// ```
/// use mcp_elicit_core::validate::formats::is_email;
///
/// assert!(is_email("first.last+tag@example.co.uk"));
/// assert!(is_email("\"john doe\"@example.com")); // quoted local part
/// assert!(is_email("user@[192.0.2.1]")); // address literal
/// assert!(!is_email("first..last@example.com")); // empty atom
/// assert!(!is_email("user@-example.com")); // label starts with a hyphen
/// assert!(!is_email("josé@example.com")); // non-ASCII is idn-email
/// assert!(!is_email("Ada <ada@example.com>")); // a display name is not an addr-spec
/// ```
pub fn is_email(s: &str) -> bool {
    // RFC 5321 4.5.3.1.3: a path is at most 256 octets including the angle brackets.
    if s.len() > 254 {
        return false;
    }
    // The domain part never contains '@' (address literals are IP addresses), so the
    // last '@' separates it even when a quoted local part holds one.
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    local.len() <= 64 && is_local_part(local) && is_mail_domain(domain)
}

fn is_local_part(local: &str) -> bool {
    match local.strip_prefix('"') {
        Some(rest) => match rest.strip_suffix('"') {
            Some(inner) => is_quoted_content(inner),
            None => false,
        },
        None => is_dot_string(local),
    }
}

/// `Dot-string = Atom *("." Atom)`.
fn is_dot_string(s: &str) -> bool {
    !s.is_empty()
        && s.split('.')
            .all(|atom| !atom.is_empty() && atom.bytes().all(is_atext))
}

/// RFC 5322 `atext`.
fn is_atext(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&b)
}

/// `*QcontentSMTP` between the quotes: `qtextSMTP` or a `quoted-pairSMTP`.
fn is_quoted_content(s: &str) -> bool {
    let mut bytes = s.bytes();
    while let Some(b) = bytes.next() {
        match b {
            b'\\' => match bytes.next() {
                Some(32..=126) => {}
                _ => return false,
            },
            32 | 33 | 35..=91 | 93..=126 => {}
            _ => return false,
        }
    }
    true
}

fn is_mail_domain(domain: &str) -> bool {
    if let Some(literal) = domain.strip_prefix('[') {
        return match literal.strip_suffix(']') {
            Some(inner) => is_address_literal(inner),
            None => false,
        };
    }
    is_domain_name(domain)
}

/// `Domain = sub-domain *("." sub-domain)`, with RFC 1035 sizes.
fn is_domain_name(domain: &str) -> bool {
    !domain.is_empty() && domain.len() <= 255 && domain.split('.').all(is_label)
}

/// `sub-domain = Let-dig [Ldh-str]`, at most 63 octets.
fn is_label(label: &str) -> bool {
    let bytes = label.as_bytes();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            bytes.len() <= 63
                && first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || *b == b'-')
        }
        _ => false,
    }
}

/// `IPv4-address-literal / IPv6-address-literal` (the only standardized tags; a
/// `General-address-literal` needs an IANA-registered tag, and none but `IPv6` exists).
fn is_address_literal(inner: &str) -> bool {
    match inner.get(..5) {
        // ABNF literal strings are case-insensitive (RFC 5234 2.3).
        Some(tag) if tag.eq_ignore_ascii_case("IPv6:") => inner
            .get(5..)
            .is_some_and(|addr| addr.parse::<std::net::Ipv6Addr>().is_ok()),
        _ => is_ipv4_snum(inner),
    }
}

/// `IPv4-address-literal = Snum 3("." Snum)`, `Snum = 1*3DIGIT` valued 0 to 255.
fn is_ipv4_snum(s: &str) -> bool {
    let mut parts = 0;
    for part in s.split('.') {
        parts += 1;
        if parts > 4
            || part.is_empty()
            || part.len() > 3
            || !part.bytes().all(|b| b.is_ascii_digit())
            || part.parse::<u16>().map_or(true, |n| n > 255)
        {
            return false;
        }
    }
    parts == 4
}

/// RFC 3986 `URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]`.
///
/// ```
/// use mcp_elicit_core::validate::formats::is_uri;
///
/// assert!(is_uri("https://example.com/a?b=c#d"));
/// assert!(is_uri("mailto:ada@example.com"));
/// assert!(!is_uri("/relative/path")); // no scheme
/// assert!(!is_uri("https://example.com/ä")); // ASCII only (that is an IRI)
/// assert!(!is_uri("https://example.com/%zz")); // bad percent-encoding
/// ```
pub fn is_uri(s: &str) -> bool {
    iri_string::validate::iri::<iri_string::spec::UriSpec>(s).is_ok()
}

/// RFC 3339 `full-date` naming a real day of the proleptic Gregorian calendar.
///
/// ```
/// use mcp_elicit_core::validate::formats::is_date;
///
/// assert!(is_date("2000-02-29")); // 2000 is a leap year
/// assert!(!is_date("1900-02-29")); // 1900 is not
/// assert!(!is_date("2024-4-01")); // two-digit month required
/// assert!(!is_date("2024-04-01T00:00:00Z")); // a date-time, not a date
/// ```
pub fn is_date(s: &str) -> bool {
    parse_date(s.as_bytes()).is_some()
}

/// RFC 3339 `date-time` (offset required).
///
/// ```
/// use mcp_elicit_core::validate::formats::is_date_time;
///
/// assert!(is_date_time("2024-05-01T09:30:00Z"));
/// assert!(is_date_time("2024-05-01t09:30:00.123-05:00")); // lowercase t, fraction
/// assert!(!is_date_time("2024-05-01T09:30:00")); // no offset
/// assert!(!is_date_time("2024-05-01 09:30:00Z")); // a space instead of T
/// assert!(is_date_time("2016-12-31T23:59:60Z")); // a leap second
/// assert!(!is_date_time("2016-12-31T12:59:60Z")); // not 23:59 UTC
/// ```
pub fn is_date_time(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 20 || parse_date(&b[..10]).is_none() || !matches!(b[10], b'T' | b't') {
        return false;
    }
    is_full_time(&b[11..])
}

/// `YYYY-MM-DD` → (year, month, day), checked against the calendar.
fn parse_date(b: &[u8]) -> Option<(u32, u32, u32)> {
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let year = digits(&b[0..4])?;
    let month = digits(&b[5..7])?;
    let day = digits(&b[8..10])?;
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    Some((year, month, day))
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if is_leap_year(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

fn is_leap_year(year: u32) -> bool {
    (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400)
}

/// `full-time = partial-time time-offset`.
fn is_full_time(b: &[u8]) -> bool {
    // partial-time: hh:mm:ss [.fraction]
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) =
        (digits(&b[0..2]), digits(&b[3..5]), digits(&b[6..8]))
    else {
        return false;
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let mut rest = &b[8..];
    if let Some(after_dot) = rest.strip_prefix(b".") {
        let n = after_dot.iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return false;
        }
        rest = &after_dot[n..];
    }
    // time-offset: Z / ("+" / "-") hh:mm, as minutes east of UTC.
    let offset_minutes: i32 = match rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let (Some(oh), Some(om)) = (digits(&[*h1, *h2]), digits(&[*m1, *m2])) else {
                return false;
            };
            if oh > 23 || om > 59 {
                return false;
            }
            let magnitude = (oh * 60 + om) as i32;
            if *sign == b'-' { -magnitude } else { magnitude }
        }
        _ => return false,
    };
    if second == 60 {
        // A leap second is inserted at 23:59:60 UTC: local time minus the offset.
        let utc_minute = ((hour * 60 + minute) as i32 - offset_minutes).rem_euclid(24 * 60);
        return utc_minute == 23 * 60 + 59;
    }
    true
}

/// The value of a run of ASCII digits (at most 4 here), `None` for anything else.
fn digits(b: &[u8]) -> Option<u32> {
    let mut value = 0u32;
    for &c in b {
        if !c.is_ascii_digit() {
            return None;
        }
        value = value * 10 + u32::from(c - b'0');
    }
    Some(value)
}
