//! Credential-like parameters and token-shaped values in a URL.
//!
//! The spec: servers MUST NOT put credentials or other sensitive information in the URL
//! of a URL-mode elicitation, and MUST NOT send a URL that is pre-authenticated to a
//! protected resource. These checks look for the usual shapes of such links: OAuth
//! tokens in the query or fragment, API keys, signed-URL signatures, session ids,
//! passwords, an authorization response (`code` with `state`), and values that look like
//! tokens whatever their name (JWTs, well-known API key prefixes).
//!
//! `elicitationId`, `state` alone, `nonce`, `redirect_uri` and the like are fine: the
//! spec's own example of a connect URL is `https://mcp.example.com/connect?elicitationId=...`.

use url::Url;

/// Where in the URL a hit was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    Query,
    Fragment,
    Path,
}

impl Place {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Query => "query",
            Self::Fragment => "fragment",
            Self::Path => "path",
        }
    }
}

/// What kind of hit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum HitKind {
    /// A parameter whose name says it is a credential.
    CredentialName(String),
    /// `code` together with `state` in the same component.
    AuthorizationCode,
    /// A value shaped like a token; the string says which shape.
    TokenValue(&'static str),
}

/// One credential-like thing in a URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hit {
    pub(crate) place: Place,
    pub(crate) kind: HitKind,
}

/// Parameter names (lowercase, with `-`, `_`, `.`, `[`, `]` and spaces removed) that
/// carry credentials or make a link pre-authenticated.
const CREDENTIAL_NAMES: &[&str] = &[
    // OAuth / OpenID Connect
    "accesstoken",
    "idtoken",
    "refreshtoken",
    "token",
    "authtoken",
    "bearer",
    "bearertoken",
    "jwt",
    "oauthtoken",
    "oauthverifier",
    "codeverifier",
    "assertion",
    "samlresponse",
    "samlart",
    "logintoken",
    "magictoken",
    // API keys and secrets
    "apikey",
    "apitoken",
    "apisecret",
    "key",
    "accesskey",
    "secretkey",
    "secret",
    "clientsecret",
    "appsecret",
    "privatekey",
    "authkey",
    "auth",
    "authorization",
    // passwords
    "password",
    "passwd",
    "pwd",
    "pass",
    "passphrase",
    "passcode",
    "otp",
    // sessions
    "session",
    "sessionid",
    "sessiontoken",
    "sessionkey",
    "sid",
    "phpsessid",
    "jsessionid",
    "aspsessionid",
    // signed URLs (AWS SigV4, Google Cloud Storage, Azure SAS, generic)
    "signature",
    "sig",
    "xamzsignature",
    "xamzcredential",
    "xamzsecuritytoken",
    "xgoogsignature",
    "xgoogcredential",
    "securitytoken",
];

/// Suffixes that make a normalized name credential-like (`github_token`, `db_password`).
const CREDENTIAL_SUFFIXES: &[&str] = &[
    "token",
    "secret",
    "password",
    "passwd",
    "apikey",
    "accesskey",
    "sessionid",
    "signature",
];

/// Names ending in one of the suffixes that are not credentials: anti-CSRF tokens,
/// pagination cursors, token type hints.
const NOT_CREDENTIALS: &[&str] = &[
    "csrftoken",
    "xsrftoken",
    "csrfmiddlewaretoken",
    "authenticitytoken",
    "pagetoken",
    "nextpagetoken",
    "prevpagetoken",
    "continuationtoken",
    "synctoken",
    "nexttoken",
    "pagingtoken",
    "resumptiontoken",
    "cursortoken",
    "tokentype",
    "tokentypehint",
];

pub(crate) fn normalize_name(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '-' | '_' | '.' | '[' | ']' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether a parameter name looks like a credential.
pub(crate) fn is_credential_name(name: &str) -> bool {
    let n = normalize_name(name);
    if n.is_empty() || NOT_CREDENTIALS.contains(&n.as_str()) {
        return false;
    }
    CREDENTIAL_NAMES.contains(&n.as_str()) || CREDENTIAL_SUFFIXES.iter().any(|s| n.ends_with(s))
}

/// Whether `value` looks like a token whatever its name; returns what it looks like.
pub(crate) fn token_shape(value: &str) -> Option<&'static str> {
    let v = value.trim();
    if looks_like_jwt(v) {
        return Some("a JSON Web Token");
    }
    const PREFIXES: &[(&str, usize, &str)] = &[
        ("github_pat_", 20, "a GitHub token"),
        ("ghp_", 30, "a GitHub token"),
        ("gho_", 30, "a GitHub token"),
        ("ghu_", 30, "a GitHub token"),
        ("ghs_", 30, "a GitHub token"),
        ("ghr_", 30, "a GitHub token"),
        ("glpat-", 20, "a GitLab token"),
        ("xoxb-", 20, "a Slack token"),
        ("xoxp-", 20, "a Slack token"),
        ("xoxa-", 20, "a Slack token"),
        ("xoxs-", 20, "a Slack token"),
        ("sk_live_", 20, "a Stripe secret key"),
        ("rk_live_", 20, "a Stripe secret key"),
        ("sk-", 30, "an API secret key"),
        ("ya29.", 30, "a Google OAuth access token"),
        ("AIza", 35, "a Google API key"),
    ];
    for (prefix, min_len, what) in PREFIXES {
        if v.len() >= *min_len && v.starts_with(prefix) && is_token_charset(v) {
            return Some(what);
        }
    }
    if (v.starts_with("AKIA") || v.starts_with("ASIA"))
        && v.len() == 20
        && v.bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
    {
        return Some("an AWS access key id");
    }
    None
}

fn is_token_charset(v: &str) -> bool {
    v.bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

fn looks_like_jwt(v: &str) -> bool {
    let mut parts = v.split('.');
    let (Some(header), Some(payload), Some(sig), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let b64url = |s: &str| {
        s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'='))
    };
    // `eyJ` is base64 for `{"`, the start of every JWT header.
    header.starts_with("eyJ")
        && header.len() >= 10
        && payload.len() >= 10
        && b64url(header)
        && b64url(payload)
        && b64url(sig)
}

fn scan_pairs(place: Place, text: &str, hits: &mut Vec<Hit>) {
    let mut has_code = false;
    let mut has_state = false;
    for (name, value) in url::form_urlencoded::parse(text.as_bytes()) {
        let n = normalize_name(&name);
        if n == "code" {
            has_code = true;
        }
        if n == "state" {
            has_state = true;
        }
        if is_credential_name(&name) {
            hits.push(Hit {
                place,
                kind: HitKind::CredentialName(name.into_owned()),
            });
        } else if let Some(what) = token_shape(&value) {
            hits.push(Hit {
                place,
                kind: HitKind::TokenValue(what),
            });
        }
    }
    if has_code && has_state {
        hits.push(Hit {
            place,
            kind: HitKind::AuthorizationCode,
        });
    }
}

/// Every credential-like parameter and token-shaped value in `url`.
pub(crate) fn scan(url: &Url) -> Vec<Hit> {
    let mut hits = Vec::new();
    if let Some(segments) = url.path_segments() {
        for seg in segments {
            let decoded = percent_decode(seg);
            if let Some(what) = token_shape(&decoded) {
                hits.push(Hit {
                    place: Place::Path,
                    kind: HitKind::TokenValue(what),
                });
            }
        }
    }
    if let Some(q) = url.query() {
        scan_pairs(Place::Query, q, &mut hits);
    }
    if let Some(f) = url.fragment() {
        // Fragments are not sent to the server but are read by the page's scripts: the
        // OAuth implicit flow puts `#access_token=...` there. Allow a leading `/` or `?`
        // (`#/callback?access_token=...` in single-page apps).
        let f = f.rsplit_once('?').map_or(f, |(_, after)| after);
        scan_pairs(Place::Fragment, f, &mut hits);
    }
    hits
}

fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s)
        .decode_utf8_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credential_names_in_every_spelling() {
        for n in [
            "access_token",
            "ACCESS-TOKEN",
            "id_token",
            "refresh_token",
            "token",
            "api_key",
            "apiKey",
            "APIKEY",
            "x-api-key",
            "key",
            "client_secret",
            "password",
            "passwd",
            "pwd",
            "session",
            "sid",
            "PHPSESSID",
            "signature",
            "sig",
            "X-Amz-Signature",
            "X-Amz-Credential",
            "X-Goog-Signature",
            "auth",
            "github_token",
            "db_password",
        ] {
            assert!(is_credential_name(n), "{n}");
        }
        for n in [
            "elicitationId",
            "state",
            "nonce",
            "redirect_uri",
            "q",
            "page",
            "csrf_token",
            "pageToken",
            "nextToken",
            "ticket",
            "token_type",
            "code",
            "keyboard",
            "monkey",
            "lang",
            "",
        ] {
            assert!(!is_credential_name(n), "{n}");
        }
    }

    #[test]
    fn token_shapes() {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
        assert_eq!(token_shape(jwt), Some("a JSON Web Token"));
        assert_eq!(
            token_shape("ghp_0123456789abcdefghijklmnopqrstuvwxyz"),
            Some("a GitHub token")
        );
        assert_eq!(
            token_shape("AKIAIOSFODNN7EXAMPLE"),
            Some("an AWS access key id")
        );
        assert_eq!(token_shape("hello"), None);
        assert_eq!(token_shape("a.b.c"), None);
        assert_eq!(token_shape("sk-"), None);
        assert_eq!(token_shape("550e8400-e29b-41d4-a716-446655440000"), None);
    }

    #[test]
    fn scan_finds_fragment_tokens_and_authorization_responses() {
        let u = Url::parse("https://app.example/cb#access_token=abc&token_type=bearer").unwrap();
        let hits = scan(&u);
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].place, Place::Fragment);
        let u = Url::parse("https://app.example/cb?code=xyz&state=s1").unwrap();
        assert_eq!(scan(&u)[0].kind, HitKind::AuthorizationCode);
        let u = Url::parse("https://app.example/cb?code=xyz").unwrap();
        assert!(scan(&u).is_empty());
        let u = Url::parse(
            "https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000",
        )
        .unwrap();
        assert!(scan(&u).is_empty());
    }
}
