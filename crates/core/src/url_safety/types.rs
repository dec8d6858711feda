//! The result types of [`analyze`](super::analyze): verdict, severity, findings.

use std::fmt;

use serde::Serialize;

/// How serious one finding is. Ordered: `Info < Warn < Block`.
///
/// ```
/// use mcp_elicit_core::url_safety::{Severity, UrlFindingCode, Verdict, analyze};
///
/// let a = analyze("http://intranet/");
/// let found: Vec<(UrlFindingCode, Severity)> = a.warnings.iter().map(|f| (f.code, f.severity)).collect();
/// assert_eq!(found, [
///     (UrlFindingCode::InsecureHttp, Severity::Warn),
///     (UrlFindingCode::NoRegistrableDomain, Severity::Info),
/// ]);
/// assert_eq!(a.verdict, Verdict::Warn);
/// assert!(Severity::Info < Severity::Warn && Severity::Warn < Severity::Block);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth showing, not a reason for concern (a non-default port, plain http to this
    /// computer). Does not change the verdict.
    Info,
    /// Show the user a warning before asking for consent.
    Warn,
    /// Never open this URL.
    Block,
}

impl Severity {
    /// `"info"`, `"warn"` or `"block"`, as serialized; also its `Display`.
    ///
    /// ```
    /// # use mcp_elicit_core::url_safety::Severity;
    /// assert_eq!(Severity::Info.as_str(), "info");
    /// assert_eq!(serde_json::to_value(Severity::Block).unwrap(), "block");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Info => "info",
            Self::Warn => "warn",
            Self::Block => "block",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The overall verdict on a URL: the highest severity among its findings.
///
/// ```
/// use mcp_elicit_core::url_safety::{Verdict, analyze};
///
/// assert_eq!(analyze("https://example.com:8443/").verdict, Verdict::Ok); // an info finding only
/// assert_eq!(analyze("https://google.com@evil.com/").verdict, Verdict::Warn);
/// assert_eq!(analyze("file:///etc/passwd").verdict, Verdict::Block);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Nothing suspicious (there may be info-level findings).
    Ok,
    /// The URL may be opened after the user has seen the warnings and consented.
    Warn,
    /// The URL must not be opened.
    Block,
}

impl Verdict {
    /// `"ok"`, `"warn"` or `"block"`, as serialized; also its `Display`.
    ///
    /// ```
    /// # use mcp_elicit_core::url_safety::Verdict;
    /// assert_eq!(Verdict::Ok.as_str(), "ok");
    /// assert_eq!(Verdict::Warn.to_string(), "warn");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Ok => "ok",
            Self::Warn => "warn",
            Self::Block => "block",
        }
    }

    /// The verdict for a set of findings: the highest severity, info counting as ok.
    ///
    /// ```
    /// # use mcp_elicit_core::url_safety::{Verdict, analyze};
    /// let a = analyze("http://localhost:8080/");
    /// assert!(!a.warnings.is_empty()); // loopback http and the port: info only
    /// assert_eq!(Verdict::from_findings(&a.warnings), Verdict::Ok);
    /// assert_eq!(Verdict::from_findings(&[]), Verdict::Ok);
    /// let blocked = analyze("javascript:alert(1)");
    /// assert_eq!(Verdict::from_findings(&blocked.warnings), Verdict::Block);
    /// ```
    pub fn from_findings(findings: &[UrlFinding]) -> Self {
        match findings.iter().map(|f| f.severity).max() {
            Some(Severity::Block) => Self::Block,
            Some(Severity::Warn) => Self::Warn,
            Some(Severity::Info) | None => Self::Ok,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

macro_rules! finding_codes {
    ($( $(#[$doc:meta])* $variant:ident => $code:literal, )*) => {
        /// What a [`UrlFinding`] is about. Serialized as a stable `snake_case` string.
        ///
        /// Each variant says its usual severity. A code also compares equal to its name.
        ///
        /// ```
        /// use mcp_elicit_core::url_safety::{UrlFindingCode, analyze};
        ///
        /// let a = analyze("https://example.com/cb?code=abc&state=xyz");
        /// assert!(a.has(UrlFindingCode::AuthorizationCode));
        /// assert_eq!(a.warnings[0].code, "authorization_code");
        /// assert_eq!(UrlFindingCode::IpAddress.to_string(), "ip_address");
        /// ```
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
        #[serde(rename_all = "snake_case")]
        #[non_exhaustive]
        pub enum UrlFindingCode {
            $( $(#[$doc])* $variant, )*
        }

        impl UrlFindingCode {
            /// Every code, in declaration order.
            ///
            /// ```
            /// # use mcp_elicit_core::url_safety::UrlFindingCode;
            /// assert_eq!(UrlFindingCode::ALL[0], UrlFindingCode::Unparsable);
            /// assert!(UrlFindingCode::ALL.iter().all(|c| !c.as_str().is_empty()));
            /// ```
            pub const ALL: &'static [UrlFindingCode] = &[ $( Self::$variant, )* ];

            /// The stable `snake_case` name of this code.
            ///
            /// ```
            /// # use mcp_elicit_core::url_safety::UrlFindingCode;
            /// assert_eq!(UrlFindingCode::ConfusableHost.as_str(), "confusable_host");
            /// ```
            pub fn as_str(self) -> &'static str {
                match self {
                    $( Self::$variant => $code, )*
                }
            }
        }
    };
}

finding_codes! {
    /// The text is not a URL the WHATWG parser accepts. (block)
    Unparsable => "unparsable",
    /// A relative reference (no scheme), which has no meaning on its own. (block)
    RelativeUrl => "relative_url",
    /// A scheme other than http and https: `javascript:`, `data:`, `file:`, custom
    /// schemes... (block)
    DisallowedScheme => "disallowed_scheme",
    /// An http(s) URL without a host. (block)
    EmptyHost => "empty_host",
    /// Longer than [`MAX_URL_LEN`](super::MAX_URL_LEN); not analysed further. (block)
    TooLong => "too_long",
    /// Plain http to a host other than this computer. (warn)
    InsecureHttp => "insecure_http",
    /// Plain http to this computer (`localhost`, `127.0.0.0/8`, `[::1]`). (info)
    LoopbackHttp => "loopback_http",
    /// A user name or password before the host (`https://google.com@evil.com`). (warn)
    Userinfo => "userinfo",
    /// The host is an IP address rather than a name. (warn)
    IpAddress => "ip_address",
    /// The IP address is written in an unusual notation (hex, octal, a single integer,
    /// short form, percent-encoded, full-width digits...). (warn)
    IpUnusualNotation => "ip_unusual_notation",
    /// The host has internationalized (punycode `xn--`) labels. (warn)
    Punycode => "punycode",
    /// A host label mixes writing systems (UTS #39 restriction level above "highly
    /// restrictive"). (warn)
    MixedScript => "mixed_script",
    /// A host label is made of look-alike characters of plain Latin letters (UTS #39
    /// confusables), like Cyrillic `аpple`. (warn)
    ConfusableHost => "confusable_host",
    /// A query or fragment parameter that looks like a credential or a pre-authorized
    /// link (`access_token`, `api_key`, `sig`...). (warn)
    CredentialParameter => "credential_parameter",
    /// `code` together with `state`: an OAuth authorization response. (warn)
    AuthorizationCode => "authorization_code",
    /// A value shaped like a token (a JWT, a well-known API key prefix) anywhere in the
    /// path, query or fragment. (warn)
    TokenLikeValue => "token_like_value",
    /// Personal data about the user in the path, query or fragment: an e-mail address,
    /// a payment card number, a parameter named for it (`phone`, `ssn`, `dob`...).
    /// (warn)
    PersonalData => "personal_data",
    /// Longer than [`LONG_URL_LEN`](super::LONG_URL_LEN) characters. (warn)
    LongUrl => "long_url",
    /// The input holds invisible or direction-changing characters (RTL override,
    /// zero-width space...) that can disguise what the URL says. (warn)
    InvisibleCharacters => "invisible_characters",
    /// The input holds tabs, newlines or other control characters that the parser
    /// silently dropped. (warn)
    ControlCharacters => "control_characters",
    /// An explicit, non-default port. (info)
    NonDefaultPort => "non_default_port",
    /// The host has no registrable domain (a single label like `intranet`, or a bare
    /// public suffix). (info)
    NoRegistrableDomain => "no_registrable_domain",
    /// The host's top-level suffix is not on the Public Suffix List. (info)
    UnknownSuffix => "unknown_suffix",
}

impl fmt::Display for UrlFindingCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<str> for UrlFindingCode {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for UrlFindingCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// One reason for concern about a URL.
///
/// ```
/// use mcp_elicit_core::url_safety::{Severity, UrlFindingCode, analyze};
///
/// let a = analyze("https://example.com/?access_token=abc");
/// let f = &a.warnings[0];
/// assert_eq!((f.code, f.severity), (UrlFindingCode::CredentialParameter, Severity::Warn));
/// assert!(f.message.contains("\"access_token\""));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UrlFinding {
    /// Stable machine-readable code.
    pub code: UrlFindingCode,
    /// A plain-English sentence a user understands.
    pub message: String,
    /// How serious it is.
    pub severity: Severity,
}

impl UrlFinding {
    pub(crate) fn new(
        code: UrlFindingCode,
        severity: Severity,
        message: impl Into<String>,
    ) -> Self {
        Self {
            code,
            message: message.into(),
            severity,
        }
    }
}

/// A byte range `start..end` within [`UrlAnalysis::url`].
///
/// ```
/// use mcp_elicit_core::url_safety::{ByteRange, analyze};
///
/// let a = analyze("https://a.b.example.co.uk/");
/// let url = a.url.as_deref().unwrap();
/// assert_eq!(a.host_range, Some(ByteRange { start: 8, end: 25 }));
/// assert_eq!(&url[a.host_range.unwrap().range()], "a.b.example.co.uk");
/// assert_eq!(&url[a.highlight.unwrap().range()], "example.co.uk");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct ByteRange {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl ByteRange {
    /// As a `Range<usize>`, for slicing.
    ///
    /// ```
    /// # use mcp_elicit_core::url_safety::ByteRange;
    /// assert_eq!(&"https://example.com/"[ByteRange { start: 8, end: 19 }.range()], "example.com");
    /// ```
    pub fn range(self) -> std::ops::Range<usize> {
        self.start..self.end
    }
}

/// Everything [`analyze`](super::analyze) learnt about one URL.
///
/// Show [`url`](Self::url) (the normalized serialization) to the user, never
/// [`input`](Self::input): the parser drops tabs, newlines and invisible characters and
/// rewrites IP notations, so the input can say something other than where the link goes.
///
/// ```
/// use mcp_elicit_core::url_safety::{UrlFindingCode, Verdict, analyze};
///
/// let a = analyze("https://münchen.de:8443/karte");
/// assert_eq!(a.url.as_deref(), Some("https://xn--mnchen-3ya.de:8443/karte"));
/// assert_eq!(a.scheme.as_deref(), Some("https"));
/// assert_eq!(a.host_ascii.as_deref(), Some("xn--mnchen-3ya.de"));
/// assert_eq!(a.host_unicode.as_deref(), Some("münchen.de"));
/// assert_eq!(a.registrable_domain_unicode.as_deref(), Some("münchen.de"));
/// assert_eq!((a.port, a.ip_address.as_deref()), (Some(8443), None));
/// assert_eq!(a.verdict, Verdict::Warn); // international characters are worth a warning
/// assert!(a.has(UrlFindingCode::Punycode) && a.has(UrlFindingCode::NonDefaultPort));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UrlAnalysis {
    /// The highest severity among [`warnings`](Self::warnings) (`"ok"`, `"warn"`, `"block"`).
    pub verdict: Verdict,
    /// The text that was analysed, verbatim.
    pub input: String,
    /// The parsed URL, serialized (WHATWG); `None` when it did not parse.
    pub url: Option<String>,
    /// The scheme, lowercase (`"https"`), when it parsed.
    pub scheme: Option<String>,
    /// The host as the browser will contact it: ASCII (`xn--` punycode) for names, the
    /// normalized address for IPs (`127.0.0.1`, `[::1]`).
    pub host_ascii: Option<String>,
    /// The host with punycode labels decoded (IDNA to-Unicode); same as `host_ascii`
    /// for IPs and plain ASCII names.
    pub host_unicode: Option<String>,
    /// The normalized IP address when the host is an IP literal (no brackets).
    pub ip_address: Option<String>,
    /// The explicit port, when it is not the scheme's default.
    pub port: Option<u16>,
    /// The registrable domain (eTLD+1, Public Suffix List), ASCII:
    /// `https://accounts.google.com.evil.com` → `evil.com`.
    pub registrable_domain: Option<String>,
    /// [`registrable_domain`](Self::registrable_domain) with punycode labels decoded.
    pub registrable_domain_unicode: Option<String>,
    /// Where the host is within [`url`](Self::url).
    pub host_range: Option<ByteRange>,
    /// What to emphasise within [`url`](Self::url): the registrable domain, or the whole
    /// host when there is none (IP addresses, `localhost`).
    pub highlight: Option<ByteRange>,
    /// Every finding, most serious first.
    pub warnings: Vec<UrlFinding>,
}

impl UrlAnalysis {
    /// Whether the URL must not be opened.
    ///
    /// ```
    /// # use mcp_elicit_core::url_safety::analyze;
    /// assert!(analyze("data:text/html,<script>alert(1)</script>").is_blocked());
    /// assert!(analyze("not a url").is_blocked());
    /// assert!(!analyze("http://example.com/").is_blocked()); // a warning, not a block
    /// ```
    pub fn is_blocked(&self) -> bool {
        self.verdict == Verdict::Block
    }

    /// Whether a finding with `code` was made.
    ///
    /// ```
    /// # use mcp_elicit_core::url_safety::{UrlFindingCode, analyze};
    /// let a = analyze("https://google.com@evil.com/");
    /// assert!(a.has(UrlFindingCode::Userinfo));
    /// assert!(!a.has(UrlFindingCode::InsecureHttp));
    /// ```
    pub fn has(&self, code: UrlFindingCode) -> bool {
        self.warnings.iter().any(|f| f.code == code)
    }

    /// The finding with `code`, if any (the first, when there are several).
    ///
    /// ```
    /// # use mcp_elicit_core::url_safety::{UrlFindingCode, analyze};
    /// let a = analyze("https://google.com@evil.com/");
    /// let f = a.finding(UrlFindingCode::Userinfo).unwrap();
    /// assert!(f.message.contains("it really goes to evil.com"));
    /// ```
    pub fn finding(&self, code: UrlFindingCode) -> Option<&UrlFinding> {
        self.warnings.iter().find(|f| f.code == code)
    }

    /// [`url`](Self::url) split around [`highlight`](Self::highlight) as
    /// `(before, highlighted, after)`, ready for a UI to render the middle part in bold;
    /// `None` for a URL that did not parse.
    ///
    /// ```
    /// # use mcp_elicit_core::url_safety::analyze;
    /// let a = analyze("https://login.example.co.uk/auth");
    /// assert_eq!(a.highlight_parts(), Some(("https://login.", "example.co.uk", "/auth")));
    /// let ip = analyze("http://192.168.0.1:8080/");
    /// assert_eq!(ip.highlight_parts(), Some(("http://", "192.168.0.1", ":8080/")));
    /// assert_eq!(analyze("not a url").highlight_parts(), None);
    /// ```
    pub fn highlight_parts(&self) -> Option<(&str, &str, &str)> {
        let url = self.url.as_deref()?;
        let h = self.highlight?;
        Some((url.get(..h.start)?, url.get(h.range())?, url.get(h.end..)?))
    }
}
