//! Cookies of the web pages: the browser session (after OpenID Connect sign-in) and the
//! short-lived sealed sign-ins ([`crate::login_cookie`]). `HttpOnly`, `SameSite=Lax`
//! (the sign-in callback is a top-level cross-site redirect from the issuer), and with an
//! https public URL `Secure` with the `__Host-` prefix (host-only, path `/`).

use std::time::Duration;

use cookie::{Cookie, SameSite};
use http::HeaderMap;
use http::header::{self, HeaderValue};
use mcp_elicit_store::BrowserSession;

use crate::web::Web;

/// The browser session cookie's name.
pub(crate) fn session_cookie(secure: bool) -> &'static str {
    if secure {
        "__Host-mcp-elicit-session"
    } else {
        "mcp-elicit-session"
    }
}

/// The value of cookie `name` in the request, if exactly one is present (a duplicate is
/// refused: it hints at cookie injection from a sibling domain).
pub(crate) fn read(headers: &HeaderMap, name: &str) -> Option<String> {
    let mut found = None;
    for value in headers.get_all(header::COOKIE) {
        let Ok(text) = value.to_str() else { continue };
        for c in Cookie::split_parse(text).flatten() {
            if c.name() == name {
                if found.is_some() {
                    return None;
                }
                found = Some(c.value().to_owned());
            }
        }
    }
    found
}

/// A `Set-Cookie` value for path `/`.
pub(crate) fn set(name: &str, value: &str, max_age: Duration, secure: bool) -> Option<HeaderValue> {
    set_at(name, value, max_age, secure, "/")
}

/// A `Set-Cookie` value for `path`.
pub(crate) fn set_at(
    name: &str,
    value: &str,
    max_age: Duration,
    secure: bool,
    path: &str,
) -> Option<HeaderValue> {
    let secs = i64::try_from(max_age.as_secs()).unwrap_or(i64::MAX);
    let c = Cookie::build((name, value))
        .path(path.to_owned())
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure)
        .max_age(cookie::time::Duration::seconds(secs))
        .build();
    HeaderValue::from_str(&c.to_string()).ok()
}

/// A `Set-Cookie` value deleting cookie `name` (of path `/`).
pub(crate) fn clear(name: &str, secure: bool) -> Option<HeaderValue> {
    set(name, "", Duration::ZERO, secure)
}

/// A `Set-Cookie` value deleting cookie `name` of `path`.
pub(crate) fn clear_at(name: &str, secure: bool, path: &str) -> Option<HeaderValue> {
    set_at(name, "", Duration::ZERO, secure, path)
}

impl Web {
    /// The live browser session of a page request: `Ok(None)` without one, and 503 (with
    /// `Retry-After`) when the store cannot look it up just now, so that a signed-in user
    /// is asked to try again instead of being told the session ended (or sent to sign in
    /// again, which needs the store too).
    pub(crate) async fn browser_session(
        &self,
        headers: &HeaderMap,
    ) -> Result<Option<BrowserSession>, axum::response::Response> {
        let name = session_cookie(self.inner.config.secure_cookies());
        let Some(raw) = read(headers, name) else {
            return Ok(None);
        };
        match self.inner.store.get_browser_session(&raw).await {
            Ok(s) => Ok(s),
            Err(e) if e.is_unavailable() => {
                tracing::warn!(error = %e, "browser session lookup failed: store unavailable");
                Err(crate::connect::unavailable())
            }
            Err(e) => {
                tracing::warn!(error = %e, "browser session lookup failed");
                Ok(None)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_host_prefixed_and_secure_on_https_and_always_httponly_lax() {
        let secure = set(session_cookie(true), "v", Duration::from_secs(60), true).expect("cookie");
        let text = secure.to_str().expect("ascii");
        assert!(text.starts_with("__Host-mcp-elicit-session=v"), "{text}");
        for part in ["HttpOnly", "SameSite=Lax", "Secure", "Path=/", "Max-Age=60"] {
            assert!(text.contains(part), "{part} in {text}");
        }
        assert!(!text.contains("Domain"), "host-only: {text}");
        let plain =
            set(session_cookie(false), "v", Duration::from_secs(60), false).expect("cookie");
        let text = plain.to_str().expect("ascii");
        assert!(text.starts_with("mcp-elicit-session=v") && !text.contains("Secure"));
        assert!(text.contains("HttpOnly") && text.contains("SameSite=Lax"));
        let login =
            set_at("l", "v", Duration::from_secs(60), false, "/login/callback").expect("cookie");
        let text = login.to_str().expect("ascii");
        assert!(text.contains("Path=/login/callback"), "{text}");
        let gone = clear_at("l", false, "/login/callback").expect("cookie");
        let text = gone.to_str().expect("ascii");
        assert!(
            text.contains("Max-Age=0") && text.contains("Path=/login/callback"),
            "{text}"
        );
    }

    #[test]
    fn duplicate_or_malformed_cookies_are_not_read() {
        let mut h = HeaderMap::new();
        h.append(header::COOKIE, HeaderValue::from_static("a=1; b=2"));
        assert_eq!(read(&h, "b").as_deref(), Some("2"));
        h.append(header::COOKIE, HeaderValue::from_static("b=3"));
        assert_eq!(read(&h, "b"), None, "two values: cookie injection, refuse");
        let mut h = HeaderMap::new();
        h.append(header::COOKIE, HeaderValue::from_static(";;=;x"));
        assert_eq!(read(&h, "x"), None);
    }
}
