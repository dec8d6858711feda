//! What a server may send as the `url` of a URL-mode elicitation.

use url::{Host, Url};

use super::{LONG_URL_LEN, chars, host, params, personal};
use crate::error::{Error, ErrorKind};

/// The rules [`check_server_url`] applies. The default is the strict policy; the only
/// knob is whether plain http to loopback (`localhost`, `127.0.0.0/8`, `[::1]`) is
/// allowed for local development (the spec: servers SHOULD use HTTPS URLs for
/// non-development environments).
///
/// ```
/// use mcp_elicit_core::url_safety::{ServerUrlPolicy, check_server_url};
///
/// let dev = ServerUrlPolicy::default();
/// assert!(dev.allow_loopback_http);
/// assert!(check_server_url("http://127.0.0.1:3000/cb", &dev).is_ok());
/// let prod = ServerUrlPolicy { allow_loopback_http: false };
/// assert_eq!(prod, ServerUrlPolicy::https_only());
/// assert!(check_server_url("http://127.0.0.1:3000/cb", &prod).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ServerUrlPolicy {
    /// Allow `http://` when the host is `localhost`, in `127.0.0.0/8` or `[::1]`.
    /// Default: `true`.
    pub allow_loopback_http: bool,
}

impl Default for ServerUrlPolicy {
    fn default() -> Self {
        Self {
            allow_loopback_http: true,
        }
    }
}

impl ServerUrlPolicy {
    /// https everywhere, loopback included.
    ///
    /// ```
    /// # use mcp_elicit_core::url_safety::{ServerUrlPolicy, check_server_url};
    /// let err = check_server_url("http://localhost/", &ServerUrlPolicy::https_only()).unwrap_err();
    /// assert!(err.message().starts_with("URL rule https_only:"));
    /// assert!(check_server_url("https://localhost/", &ServerUrlPolicy::https_only()).is_ok());
    /// ```
    pub fn https_only() -> Self {
        Self {
            allow_loopback_http: false,
        }
    }
}

fn refuse(rule: &str, detail: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorKind::InvalidUrl,
        "/url",
        format!("URL rule {rule}: {detail}"),
    )
}

/// Checks a URL a server is about to send in a URL-mode elicitation, and returns it
/// parsed. Never panics.
///
/// Refused, each with an [`ErrorKind::InvalidUrl`] error at pointer `/url` whose message
/// names the rule:
///
/// - `max_length`: longer than [`LONG_URL_LEN`] bytes, as written or once normalized
///   (percent-encoding can make it longer);
/// - `no_whitespace_or_control`: whitespace, control, invisible or direction-changing
///   characters anywhere (the parser would silently drop or re-encode them, so the URL
///   sent would not be the URL written);
/// - `absolute_url`: not an absolute URL the WHATWG parser accepts;
/// - `https_only`: a scheme other than https, except http to loopback when
///   [`ServerUrlPolicy::allow_loopback_http`] is set;
/// - `no_userinfo`: a user name or password before the host;
/// - `canonical_ip`: an IP address in an unusual notation (hex, octal, integer...);
/// - `no_confusable_host`: a host label that mixes scripts, holds symbols or imitates
///   an ASCII name with look-alike characters;
/// - `no_credentials`: a credential-like query or fragment parameter (`access_token`,
///   `api_key`, `sig`, `password`...), an authorization response (`code` with `state`),
///   or a token-shaped value (a JWT, a well-known API key prefix): servers MUST NOT send
///   pre-authenticated URLs or credentials in URLs;
/// - `no_personal_data`: an e-mail address or a payment card number in the path, query
///   or fragment, or a query or fragment parameter named for personal data (`phone`,
///   `ssn`, `date_of_birth`, `last_name`...): servers MUST NOT put personal identifiable
///   information about the user in the URL (identify the user on the page instead).
///
/// ```
/// use mcp_elicit_core::url_safety::{check_server_url, ServerUrlPolicy};
///
/// let policy = ServerUrlPolicy::default();
/// assert!(check_server_url("https://mcp.example.com/connect?elicitationId=42", &policy).is_ok());
/// assert!(check_server_url("http://localhost:8080/connect", &policy).is_ok());
/// let err = check_server_url("http://mcp.example.com/", &policy).unwrap_err();
/// assert!(err.message().contains("https_only"));
/// assert!(check_server_url("https://mcp.example.com/?access_token=x", &policy).is_err());
///
/// // Each refusal names its rule; the URL is returned parsed (and normalized).
/// let rule = |url: &str| check_server_url(url, &policy).unwrap_err().message().to_owned();
/// assert!(rule("https://google.com@evil.com/").starts_with("URL rule no_userinfo:"));
/// assert!(rule("https://0x7f000001/").starts_with("URL rule canonical_ip:"));
/// assert!(rule("https://example.com/?email=ada@example.com").starts_with("URL rule no_personal_data:"));
/// assert!(rule("https://example.com/a b").starts_with("URL rule no_whitespace_or_control:"));
/// assert_eq!(check_server_url("https://EXAMPLE.com/a", &policy)?.as_str(), "https://example.com/a");
/// # Ok::<(), mcp_elicit_core::Error>(())
/// ```
pub fn check_server_url(input: &str, policy: &ServerUrlPolicy) -> Result<Url, Error> {
    if input.len() > LONG_URL_LEN {
        return Err(refuse(
            "max_length",
            format!(
                "the URL is {} bytes long; the limit is {LONG_URL_LEN}",
                input.len()
            ),
        ));
    }
    let scan = chars::scan(input);
    if scan.any_space_or_control || !scan.invisible.is_empty() {
        return Err(refuse(
            "no_whitespace_or_control",
            "the URL contains whitespace, control, invisible or direction-changing characters",
        ));
    }
    let url = Url::parse(input)
        .map_err(|e| refuse("absolute_url", format!("not an absolute http(s) URL ({e})")))?;
    // The parser percent-encodes non-ASCII characters, so the URL the user sees can be
    // up to nine times longer than the text that was sent.
    if url.as_str().len() > LONG_URL_LEN {
        return Err(refuse(
            "max_length",
            format!(
                "the URL is {} bytes long once normalized; the limit is {LONG_URL_LEN}",
                url.as_str().len()
            ),
        ));
    }
    let loopback = host::is_loopback(&url);
    match url.scheme() {
        "https" => {}
        "http" if loopback && policy.allow_loopback_http => {}
        "http" if loopback => {
            return Err(refuse(
                "https_only",
                "plain http to loopback is disabled by this policy; use https",
            ));
        }
        "http" => {
            return Err(refuse(
                "https_only",
                "plain http is only allowed for loopback hosts (localhost, 127.0.0.0/8, [::1]); use https",
            ));
        }
        other => {
            return Err(refuse(
                "https_only",
                format!("the scheme \"{other}\" is not allowed; use https"),
            ));
        }
    }
    let Some(h) = url.host() else {
        return Err(refuse("absolute_url", "the URL has no host"));
    };
    if !url.username().is_empty() || url.password().is_some() {
        return Err(refuse(
            "no_userinfo",
            "the URL contains a user name or password before the host",
        ));
    }
    match h {
        Host::Ipv4(_) | Host::Ipv6(_) => {
            let shown = url.host_str().unwrap_or_default();
            if host::ip_written_unusually(input, shown) {
                return Err(refuse(
                    "canonical_ip",
                    format!("the IP address must be written in its normal form ({shown})"),
                ));
            }
        }
        Host::Domain(d) => {
            let (unicode, _) = idna::domain_to_unicode(d);
            if !host::label_issues(&unicode).is_empty() || host::ascii_lookalike(&unicode).is_some()
            {
                return Err(refuse(
                    "no_confusable_host",
                    format!(
                        "the host \"{unicode}\" ({d}) mixes scripts or imitates another name with look-alike characters"
                    ),
                ));
            }
        }
    }
    if let Some(hit) = params::scan(&url).into_iter().next() {
        let what = match hit.kind {
            params::HitKind::CredentialName(name) => format!(
                "the {} parameter \"{name}\" looks like a credential",
                hit.place.as_str()
            ),
            params::HitKind::AuthorizationCode => format!(
                "the {} holds an authorization response (code with state)",
                hit.place.as_str()
            ),
            params::HitKind::TokenValue(what) => {
                format!("the {} contains what looks like {what}", hit.place.as_str())
            }
        };
        return Err(refuse(
            "no_credentials",
            format!("{what}; servers must not send credentials or pre-authenticated URLs"),
        ));
    }
    if let Some((place, what)) = personal::personal_data(&url) {
        return Err(refuse(
            "no_personal_data",
            format!(
                "the {place} contains {what}; servers must not put personal information \
                 about the user in the URL (identify the user on the page instead)"
            ),
        ));
    }
    Ok(url)
}
