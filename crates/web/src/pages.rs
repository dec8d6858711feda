//! HTML rendering of the web pages (every interpolated value escaped) and the security
//! headers every response of the web routes carries.

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Response};
use http::StatusCode;
use http::header::{self, HeaderName, HeaderValue};

/// The Content-Security-Policy of every page: nothing loads, forms post only to us, no
/// framing (clickjacking), inline styles only.
pub(crate) const CSP: &str = "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; style-src 'unsafe-inline'";

/// [`CSP`] with `origin` added to `form-action` (a page whose form post redirects there).
pub(crate) fn csp_with_form_target(origin: &str) -> String {
    CSP.replace(
        "form-action 'self'",
        &format!("form-action 'self' {origin}"),
    )
}

/// Escapes text for HTML element content and double-quoted attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#222}\
h1{font-size:1.4rem}.who{background:#f3f3f3;padding:.6rem .8rem;border-radius:.4rem}\
label{display:block;margin:.8rem 0 .3rem}input[type=password],input[type=text]{box-sizing:border-box;width:100%;padding:.4rem;font-size:1rem}\
button{margin:1rem .6rem 0 0;padding:.5rem 1.2rem;font-size:1rem}.error{color:#a00}";

/// A page: a title and a body of already-escaped HTML.
pub(crate) fn page(status: StatusCode, title: &str, body_html: &str) -> Response {
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{title}</title><style>{STYLE}</style></head><body><h1>{title}</h1>{body_html}</body></html>",
        title = escape(title),
    );
    let mut response = (status, Html(html)).into_response();
    if status == StatusCode::SERVICE_UNAVAILABLE {
        // Every 503 of the pages is the store (or a provider) unavailable just now.
        response.headers_mut().insert(
            header::RETRY_AFTER,
            HeaderValue::from_static(RETRY_AFTER_SECS),
        );
    }
    response
}

/// The `Retry-After` of a 503 page, in seconds.
const RETRY_AFTER_SECS: &str = "5";

/// An error page with one escaped paragraph.
pub(crate) fn message(status: StatusCode, title: &str, text: &str) -> Response {
    page(status, title, &format!("<p>{}</p>", escape(text)))
}

/// A hidden form field.
pub(crate) fn hidden(name: &str, value: &str) -> String {
    format!(
        "<input type=\"hidden\" name=\"{}\" value=\"{}\">",
        escape(name),
        escape(value)
    )
}

/// The "who you are, who asks" box shown on every flow page (the specification's
/// Phishing guidance: show the user whom they are acting as and for which server).
pub(crate) fn identity_box(user: &str, server: &str) -> String {
    format!(
        "<p class=\"who\">Signed in as <strong>{}</strong>. This page belongs to <strong>{}</strong>.</p>",
        escape(user),
        escape(server)
    )
}

/// Adds the security headers to every response of the web routes.
pub(crate) async fn security_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    // A handler may have set a narrower-purpose CSP (still default-src 'none').
    if !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CSP),
        );
    }
    let set = [
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        // `same-origin`, not `no-referrer`: with `no-referrer` browsers send `Origin: null`
        // on our own form posts, which would defeat the Origin check; cross-origin
        // navigations (to the provider) still carry no referrer.
        (header::REFERRER_POLICY, "same-origin"),
        (header::CACHE_CONTROL, "no-store"),
    ];
    for (name, value) in set {
        headers.insert(name, HeaderValue::from_static(value));
    }
    headers.insert(
        HeaderName::from_static("cross-origin-opener-policy"),
        HeaderValue::from_static("same-origin"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_neutralises_markup_and_attribute_breakouts() {
        assert_eq!(
            escape("<script>alert('x')</script> & \"q\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"
        );
        assert_eq!(
            hidden("a", "\"><img src=x>"),
            "<input type=\"hidden\" name=\"a\" value=\"&quot;&gt;&lt;img src=x&gt;\">"
        );
    }
}
