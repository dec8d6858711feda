//! Outbound HTTP: OpenID discovery, JWKS fetches and the `oauth2` crate's token requests,
//! on one reqwest client that never follows redirects (a token endpoint that redirects
//! is an error, not a hop to follow) and times out.

use std::time::Duration;

use serde::Deserialize;
use url::Url;

use crate::config::check_url;
use crate::error::WebError;

/// The largest metadata or JWKS document accepted.
const MAX_DOCUMENT: usize = 256 * 1024;

/// The reqwest client for outbound requests.
pub(crate) fn client() -> Result<reqwest::Client, WebError> {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(10))
        .connect_timeout(Duration::from_secs(5))
        .build()
        .map_err(|e| WebError::Config(format!("cannot build the HTTP client: {e}")))
}

/// The parts of OpenID provider / RFC 8414 metadata this crate uses.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct IssuerMetadata {
    pub(crate) issuer: String,
    pub(crate) authorization_endpoint: Url,
    pub(crate) token_endpoint: Url,
    #[serde(default)]
    pub(crate) jwks_uri: Option<Url>,
    /// RFC 9207: the issuer puts `iss` in every authorization response, so one without
    /// it is refused.
    #[serde(default)]
    pub(crate) authorization_response_iss_parameter_supported: bool,
}

/// Fetches a JSON document (bounded size, 200 only).
pub(crate) async fn get_json<T: serde::de::DeserializeOwned>(
    http: &reqwest::Client,
    url: &str,
) -> Result<T, WebError> {
    let fail = |message: String| WebError::Discovery {
        url: url.to_owned(),
        message,
    };
    let response = http
        .get(url)
        .header(http::header::ACCEPT, "application/json")
        .send()
        .await
        .map_err(|e| fail(e.to_string()))?;
    if response.status() != reqwest::StatusCode::OK {
        return Err(fail(format!("HTTP status {}", response.status())));
    }
    if response
        .content_length()
        .is_some_and(|n| n > MAX_DOCUMENT as u64)
    {
        return Err(fail("the document is too large".into()));
    }
    let body = response.bytes().await.map_err(|e| fail(e.to_string()))?;
    if body.len() > MAX_DOCUMENT {
        return Err(fail("the document is too large".into()));
    }
    serde_json::from_slice(&body).map_err(|e| fail(format!("not the expected JSON: {e}")))
}

/// OpenID discovery (falling back to RFC 8414 metadata) of `issuer`; the document's
/// `issuer` must equal `issuer` exactly (mix-up defence) and endpoints must be https
/// (or loopback http).
pub(crate) async fn discover(
    http: &reqwest::Client,
    issuer: &str,
) -> Result<IssuerMetadata, WebError> {
    let base = issuer.trim_end_matches('/');
    let oidc = format!("{base}/.well-known/openid-configuration");
    let meta: IssuerMetadata = match get_json(http, &oidc).await {
        Ok(m) => m,
        Err(first) => {
            let parsed = Url::parse(issuer)
                .map_err(|e| WebError::Config(format!("issuer {issuer:?}: {e}")))?;
            let path = parsed.path().trim_end_matches('/');
            let origin = parsed.origin().ascii_serialization();
            let rfc8414 = format!("{origin}/.well-known/oauth-authorization-server{path}");
            get_json(http, &rfc8414).await.map_err(|_| first)?
        }
    };
    if meta.issuer != issuer {
        return Err(WebError::Discovery {
            url: oidc,
            message: format!(
                "the metadata names issuer {:?}, not the configured {issuer:?}",
                meta.issuer
            ),
        });
    }
    check_url("authorization endpoint", &meta.authorization_endpoint)?;
    check_url("token endpoint", &meta.token_endpoint)?;
    if let Some(jwks) = &meta.jwks_uri {
        check_url("JWKS URI", jwks)?;
    }
    Ok(meta)
}

/// An error of the `oauth2` crate's HTTP calls.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct HttpError(String);

/// Sends an `oauth2` crate request with reqwest (the adapter the crate expects).
pub(crate) async fn send(
    http: &reqwest::Client,
    request: oauth2::HttpRequest,
) -> Result<oauth2::HttpResponse, HttpError> {
    let (parts, body) = request.into_parts();
    let url = parts.uri.to_string();
    let response = http
        .request(parts.method, url)
        .headers(parts.headers)
        .body(body)
        .send()
        .await
        .map_err(|e| HttpError(chain(&e.without_url())))?;
    let status = response.status();
    let headers = response.headers().clone();
    let body = response
        .bytes()
        .await
        .map_err(|e| HttpError(e.without_url().to_string()))?;
    if body.len() > MAX_DOCUMENT {
        return Err(HttpError("the token response is too large".into()));
    }
    let mut out = http::Response::new(body.to_vec());
    *out.status_mut() = status;
    *out.headers_mut() = headers;
    Ok(out)
}

/// An error with its sources (`error sending request: ... : connection closed`), for
/// logs that say what went wrong. reqwest errors carry no request body or headers.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// The `oauth2` crate's HTTP client: [`send`] on our reqwest client.
pub(crate) struct OAuthHttp(pub(crate) reqwest::Client);

impl<'c> oauth2::AsyncHttpClient<'c> for OAuthHttp {
    type Error = HttpError;
    type Future = std::pin::Pin<
        Box<dyn Future<Output = Result<oauth2::HttpResponse, HttpError>> + Send + 'c>,
    >;

    fn call(&'c self, request: oauth2::HttpRequest) -> Self::Future {
        Box::pin(send(&self.0, request))
    }
}
