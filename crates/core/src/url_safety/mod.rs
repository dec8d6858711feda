//! URL safety analysis for URL-mode elicitations.
//!
//! Two views of the same rules:
//!
//! - [`analyze`] is the **client** side: it parses any text with WHATWG semantics (the
//!   `url` crate, as browsers do), and returns a [`Verdict`] (`ok`, `warn`, `block`) with
//!   plain-English [`UrlFinding`]s, the normalized URL to show, the host in ASCII and
//!   Unicode, the registrable domain and a byte range to highlight (the spec: clients
//!   MUST show the full URL, SHOULD highlight its domain and SHOULD warn about
//!   ambiguous or suspicious URLs such as punycode).
//! - [`check_server_url`] is the **server** side, stricter: what a conforming server may
//!   put in the `url` of an elicitation (https only, plain http only for loopback in
//!   development, no userinfo, no credentials or pre-authorized parameters).
//!
//! | severity | findings |
//! |---|---|
//! | block | not http/https (`javascript:`, `data:`, `file:`, `blob:`, custom schemes, however the case, whitespace and control characters are arranged), unparsable or relative URLs, no host, over [`MAX_URL_LEN`] bytes |
//! | warn | plain http outside loopback; userinfo (`https://google.com@evil.com`); IP-literal hosts in every notation the parser accepts (dotted, hex, octal, integer, short forms, IPv6, IPv4-mapped IPv6) with the normalized address; punycode labels (both forms shown); mixed-script, unusual or confusable labels (UTS #39); credential-like query or fragment parameters and token-shaped values; over [`LONG_URL_LEN`] characters; invisible, direction-changing or control characters in the input |
//! | info | plain http to loopback; a non-default port; no registrable domain; a suffix unknown to the Public Suffix List |
//!
//! ```
//! use mcp_elicit_core::url_safety::{analyze, UrlFindingCode, Verdict};
//!
//! let a = analyze("https://accounts.google.com.evil.com/login");
//! assert_eq!(a.registrable_domain.as_deref(), Some("evil.com"));
//! let (_, domain, _) = a.highlight_parts().unwrap();
//! assert_eq!(domain, "evil.com");
//!
//! let a = analyze("https://аpple.com/"); // Cyrillic 'а'
//! assert_eq!(a.verdict, Verdict::Warn);
//! assert!(a.has(UrlFindingCode::ConfusableHost));
//! assert_eq!(a.host_ascii.as_deref(), Some("xn--pple-43d.com"));
//!
//! assert_eq!(analyze(" JaVaScRiPt:alert(1)").verdict, Verdict::Block);
//! ```

mod chars;
mod host;
mod params;
mod personal;
mod policy;
mod types;

use url::{Host, ParseError, Position, Url};

pub use policy::{ServerUrlPolicy, check_server_url};
pub use types::{ByteRange, Severity, UrlAnalysis, UrlFinding, UrlFindingCode, Verdict};

use params::{HitKind, Place};
use types::UrlFindingCode as C;

/// Inputs longer than this many bytes are blocked without being parsed. Many web servers
/// refuse request lines over 8 KiB, and no user can examine such a URL before consenting.
///
/// ```
/// use mcp_elicit_core::url_safety::{MAX_URL_LEN, UrlFindingCode, analyze};
///
/// let huge = format!("https://example.com/{}", "a".repeat(MAX_URL_LEN));
/// let a = analyze(&huge);
/// assert!(a.is_blocked() && a.has(UrlFindingCode::TooLong));
/// assert_eq!(a.url, None); // not parsed
/// ```
pub const MAX_URL_LEN: usize = 8192;

/// URLs longer than this many bytes get a [`UrlFindingCode::LongUrl`] warning, and the
/// server policy refuses them: a user cannot check such a URL by reading it.
///
/// ```
/// use mcp_elicit_core::url_safety::{LONG_URL_LEN, ServerUrlPolicy, UrlFindingCode, Verdict};
/// use mcp_elicit_core::url_safety::{analyze, check_server_url};
///
/// let long = format!("https://example.com/{}", "a".repeat(LONG_URL_LEN));
/// let a = analyze(&long);
/// assert_eq!(a.verdict, Verdict::Warn);
/// assert!(a.has(UrlFindingCode::LongUrl));
/// let err = check_server_url(&long, &ServerUrlPolicy::default()).unwrap_err();
/// assert!(err.message().starts_with("URL rule max_length:"));
/// ```
pub const LONG_URL_LEN: usize = 2000;

/// Analyses a URL a server asked the user to open. Never panics, whatever the input.
///
/// See the [module documentation](self) for the rules.
///
/// ```
/// use mcp_elicit_core::url_safety::{analyze, UrlFindingCode, Verdict};
///
/// let a = analyze("http://0x7f.1/");
/// assert_eq!(a.verdict, Verdict::Warn);
/// assert_eq!(a.url.as_deref(), Some("http://127.0.0.1/"));
/// assert_eq!(a.ip_address.as_deref(), Some("127.0.0.1"));
/// assert!(a.has(UrlFindingCode::IpUnusualNotation));
///
/// let json = serde_json::to_value(analyze("data:text/html,hi")).unwrap();
/// assert_eq!(json["verdict"], "block");
/// assert_eq!(json["warnings"][0]["code"], "disallowed_scheme");
/// ```
pub fn analyze(input: &str) -> UrlAnalysis {
    let mut a = UrlAnalysis {
        verdict: Verdict::Ok,
        input: input.to_owned(),
        url: None,
        scheme: None,
        host_ascii: None,
        host_unicode: None,
        ip_address: None,
        port: None,
        registrable_domain: None,
        registrable_domain_unicode: None,
        host_range: None,
        highlight: None,
        warnings: Vec::new(),
    };
    let mut f = Vec::new();
    analyze_into(input, &mut a, &mut f);
    // Most serious first; a stable sort keeps discovery order within a severity.
    f.sort_by_key(|x| std::cmp::Reverse(x.severity));
    a.verdict = Verdict::from_findings(&f);
    a.warnings = f;
    a
}

fn warn(f: &mut Vec<UrlFinding>, code: UrlFindingCode, message: impl Into<String>) {
    f.push(UrlFinding::new(code, Severity::Warn, message));
}

fn block(f: &mut Vec<UrlFinding>, code: UrlFindingCode, message: impl Into<String>) {
    f.push(UrlFinding::new(code, Severity::Block, message));
}

fn info(f: &mut Vec<UrlFinding>, code: UrlFindingCode, message: impl Into<String>) {
    f.push(UrlFinding::new(code, Severity::Info, message));
}

fn analyze_into(input: &str, a: &mut UrlAnalysis, f: &mut Vec<UrlFinding>) {
    if input.len() > MAX_URL_LEN {
        block(
            f,
            C::TooLong,
            format!(
                "This link is {} bytes long, more than the {MAX_URL_LEN} allowed; it cannot be checked and will not be opened.",
                input.len()
            ),
        );
        return;
    }
    let scan = chars::scan(input);
    if !scan.invisible.is_empty() {
        let names: Vec<String> = scan.invisible.iter().map(|&c| chars::describe(c)).collect();
        warn(
            f,
            C::InvisibleCharacters,
            format!(
                "The link text contains invisible or direction-changing characters ({}), which can make it look like it goes somewhere other than where it does.",
                names.join(", ")
            ),
        );
    }
    if scan.control {
        warn(
            f,
            C::ControlCharacters,
            "The link text contains tabs, line breaks or other control characters, which were removed; check the cleaned-up address.",
        );
    }

    let url = match Url::parse(input) {
        Ok(u) => u,
        Err(ParseError::RelativeUrlWithoutBase) => {
            block(
                f,
                C::RelativeUrl,
                "This is not a complete web address (it has no http:// or https:// part), so it cannot be opened.",
            );
            return;
        }
        Err(ParseError::EmptyHost) => {
            block(
                f,
                C::EmptyHost,
                "This web address has no site name, so it cannot be opened.",
            );
            return;
        }
        Err(e) => {
            block(
                f,
                C::Unparsable,
                format!("This is not a valid web address ({e}), so it cannot be opened."),
            );
            return;
        }
    };
    a.url = Some(url.as_str().to_owned());
    a.scheme = Some(url.scheme().to_owned());

    let scheme = url.scheme();
    if scheme != "http" && scheme != "https" {
        block(
            f,
            C::DisallowedScheme,
            format!(
                "This is a \"{scheme}:\" link, not a web page: it could run code, read local files or open another program. Only http and https links can be opened."
            ),
        );
        return;
    }

    let Some(host) = url.host() else {
        block(
            f,
            C::EmptyHost,
            "This web address has no site name, so it cannot be opened.",
        );
        return;
    };
    let host_start = url[..Position::BeforeHost].len();
    let host_end = url[..Position::AfterHost].len();
    a.host_range = Some(ByteRange {
        start: host_start,
        end: host_end,
    });
    a.port = url.port();

    match host {
        Host::Domain(d) => analyze_domain(d, host_end, a, f),
        Host::Ipv4(ip) => analyze_ip(input, ip.into(), &url, a, f),
        Host::Ipv6(ip) => analyze_ip(input, ip.into(), &url, a, f),
    }

    let host_shown = a.host_ascii.clone().unwrap_or_default();
    if scheme == "http" {
        if host::is_loopback(&url) {
            info(
                f,
                C::LoopbackHttp,
                "This link uses unencrypted http to a service on this computer.",
            );
        } else {
            warn(
                f,
                C::InsecureHttp,
                format!(
                    "This link uses unencrypted http: anyone on the network could read or change what you send to {host_shown}."
                ),
            );
        }
    }

    if !url.username().is_empty() || url.password().is_some() {
        let mut msg = if url.username().is_empty() {
            format!(
                "The link contains a password before an @ sign; it really goes to {host_shown}."
            )
        } else {
            format!(
                "The link starts with \"{}@\", which can look like a site name but is not: it really goes to {host_shown}.",
                url.username()
            )
        };
        if url.password().is_some() {
            msg.push_str(" It also carries a password, which links must never do.");
        }
        warn(f, C::Userinfo, msg);
    }

    credential_findings(&url, f);
    if let Some((place, what)) = personal::personal_data(&url) {
        warn(
            f,
            C::PersonalData,
            format!(
                "The link's {place} contains {what}: personal information about you that servers must not put in a link (links end up in browser history and server logs)."
            ),
        );
    }

    if url.as_str().len() > LONG_URL_LEN {
        warn(
            f,
            C::LongUrl,
            format!(
                "This link is very long ({} characters), which makes it hard to check where it goes.",
                url.as_str().len()
            ),
        );
    }
    if let Some(port) = url.port() {
        info(
            f,
            C::NonDefaultPort,
            format!("This link uses port {port} instead of the usual port for {scheme}."),
        );
    }
}

fn analyze_domain(d: &str, host_end: usize, a: &mut UrlAnalysis, f: &mut Vec<UrlFinding>) {
    let (unicode, ok) = idna::domain_to_unicode(d);
    let unicode = if ok.is_ok() { unicode } else { d.to_owned() };
    a.host_ascii = Some(d.to_owned());
    a.host_unicode = Some(unicode.clone());

    if d.split('.')
        .any(|l| l.len() >= 4 && l.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("xn--")))
    {
        warn(
            f,
            C::Punycode,
            format!(
                "This site name uses international characters: it displays as \"{unicode}\" but its real form is \"{d}\". Make sure it is the site you expect."
            ),
        );
    }
    for issue in host::label_issues(&unicode) {
        match issue {
            host::LabelIssue::MixedScript { label, .. } => warn(
                f,
                C::MixedScript,
                format!(
                    "The site name part \"{label}\" mixes letters from different alphabets, a common trick to imitate another site."
                ),
            ),
            host::LabelIssue::UnusualCharacters { label } => warn(
                f,
                C::MixedScript,
                format!(
                    "The site name part \"{label}\" contains symbols that are not normally used in names."
                ),
            ),
        }
    }
    if let Some(lookalike) = host::ascii_lookalike(&unicode) {
        warn(
            f,
            C::ConfusableHost,
            format!(
                "The site name \"{unicode}\" looks like \"{lookalike}\" but is a different site ({d}): some of its letters only look like Latin letters."
            ),
        );
    }

    let (rd, known) = host::registrable_domain(d);
    let trailing_dot = usize::from(d.ends_with('.'));
    let end = host_end.saturating_sub(trailing_dot);
    match rd {
        Some(rd) => {
            a.registrable_domain = Some(rd.to_owned());
            let (rd_unicode, ok) = idna::domain_to_unicode(rd);
            a.registrable_domain_unicode = Some(if ok.is_ok() {
                rd_unicode
            } else {
                rd.to_owned()
            });
            a.highlight = Some(ByteRange {
                start: end.saturating_sub(rd.len()),
                end,
            });
            if !known {
                info(
                    f,
                    C::UnknownSuffix,
                    format!(
                        "The site name ends in a suffix that is not a known top-level domain ({d})."
                    ),
                );
            }
        }
        None => {
            a.highlight = a.host_range;
            if !d.eq_ignore_ascii_case("localhost") {
                info(
                    f,
                    C::NoRegistrableDomain,
                    format!(
                        "\"{d}\" is not a registered internet domain; it may point to a local or internal network."
                    ),
                );
            }
        }
    }
}

fn analyze_ip(
    input: &str,
    ip: std::net::IpAddr,
    url: &Url,
    a: &mut UrlAnalysis,
    f: &mut Vec<UrlFinding>,
) {
    let shown = url.host_str().unwrap_or_default().to_owned();
    a.host_ascii = Some(shown.clone());
    a.host_unicode = Some(shown.clone());
    a.ip_address = Some(ip.to_string());
    a.highlight = a.host_range;
    warn(
        f,
        C::IpAddress,
        format!(
            "This link goes to the bare IP address {ip} ({}) rather than a named site, so you cannot tell who runs it.",
            host::describe_ip(ip)
        ),
    );
    if host::ip_written_unusually(input, &shown) {
        let raw = host::raw_host(input).unwrap_or("?");
        warn(
            f,
            C::IpUnusualNotation,
            format!(
                "The address is written in an unusual form (\"{raw}\") that hides where it goes; it really is {shown}."
            ),
        );
    }
}

fn credential_findings(url: &Url, f: &mut Vec<UrlFinding>) {
    let mut seen: Vec<(Place, String)> = Vec::new();
    for hit in params::scan(url) {
        let place = hit.place.as_str();
        match hit.kind {
            HitKind::CredentialName(name) => {
                if seen.iter().any(|(p, n)| *p == hit.place && *n == name) {
                    continue;
                }
                warn(
                    f,
                    C::CredentialParameter,
                    format!(
                        "The link carries what looks like a credential in its {place} parameter \"{name}\". Anyone who sees such a link could act as you; servers must not send pre-authenticated links."
                    ),
                );
                seen.push((hit.place, name));
            }
            HitKind::AuthorizationCode => warn(
                f,
                C::AuthorizationCode,
                format!(
                    "The link's {place} holds an authorization code and state, like the end of a sign-in flow; opening it could connect your account to someone else's session."
                ),
            ),
            HitKind::TokenValue(what) => warn(
                f,
                C::TokenLikeValue,
                format!(
                    "The link's {place} contains what looks like {what}. Anyone who sees such a link could use it; servers must not send pre-authenticated links."
                ),
            ),
        }
    }
}
