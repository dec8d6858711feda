//! Cross-site request forgery defence for the pages' form posts: the request must come
//! from our own origin (`Origin`, else `Sec-Fetch-Site`, else `Referer`) and carry the
//! browser session's CSRF token (compared in constant time by the store).

use http::HeaderMap;
use http::header;
use mcp_elicit_store::BrowserSession;
use url::Url;

/// Whether the request was sent by a page of `origin` (e.g. `https://mcp.example.com`).
/// A request naming no origin at all is refused: browsers always say.
pub(crate) fn same_origin(headers: &HeaderMap, origin: &str) -> bool {
    if let Some(value) = headers.get(header::ORIGIN) {
        return value.to_str().is_ok_and(|v| v == origin);
    }
    if let Some(site) = headers.get("sec-fetch-site") {
        return site.to_str().is_ok_and(|v| v == "same-origin");
    }
    headers
        .get(header::REFERER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| Url::parse(v).ok())
        .is_some_and(|u| u.origin().ascii_serialization() == origin)
}

/// Whether `presented` is the session's CSRF token.
pub(crate) fn token_ok(session: &BrowserSession, presented: &str) -> bool {
    !presented.is_empty() && session.verify_csrf(presented)
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn origin_checks_refuse_foreign_null_and_absent_origins() {
        let me = "https://mcp.example.com";
        assert!(same_origin(
            &headers(&[("origin", "https://mcp.example.com")]),
            me
        ));
        assert!(!same_origin(
            &headers(&[("origin", "https://evil.example")]),
            me
        ));
        assert!(!same_origin(&headers(&[("origin", "null")]), me));
        // Origin wins over a matching Referer.
        assert!(!same_origin(
            &headers(&[
                ("origin", "https://evil.example"),
                ("referer", "https://mcp.example.com/x")
            ]),
            me
        ));
        assert!(same_origin(
            &headers(&[("sec-fetch-site", "same-origin")]),
            me
        ));
        assert!(!same_origin(
            &headers(&[("sec-fetch-site", "cross-site")]),
            me
        ));
        assert!(same_origin(
            &headers(&[("referer", "https://mcp.example.com/connect")]),
            me
        ));
        assert!(!same_origin(
            &headers(&[("referer", "https://mcp.example.com.evil/")]),
            me
        ));
        assert!(!same_origin(&HeaderMap::new(), me));
    }
}
