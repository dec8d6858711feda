//! A tiny OAuth 2 authorization server for `mcp-elicit demo`, so `connect_provider` shows
//! the whole third-party OAuth flow offline: a consent page (`GET /authorize`), the
//! decision (`POST /authorize`, redirecting back with a one-time code or
//! `error=access_denied`), and the token endpoint (`POST /token`, authorization code +
//! PKCE S256 only). It listens on loopback, knows one public client
//! ([`DEMO_CLIENT_ID`]), accepts only loopback redirect URIs, and hands out random
//! tokens that grant nothing: a stand-in for a real provider, never for production.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Query, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use base64::Engine as _;
use serde::Deserialize;
use sha2::Digest as _;
use url::Url;

use crate::config::{ClientRegistration, ProviderConfig, ProviderEndpoints};
use crate::pages::escape;

/// The one client the demo provider knows (a public client: no secret, PKCE required).
///
/// ```
/// use mcp_elicit_web::demo_provider::{DEMO_CLIENT_ID, DemoProvider};
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let provider = DemoProvider::start().await?;
/// let config = provider.config()?;
/// assert_eq!(config.client.client_id, DEMO_CLIENT_ID);
/// assert!(config.client.client_secret.is_none());
/// # Ok(())
/// # }
/// ```
pub const DEMO_CLIENT_ID: &str = "mcp-elicit-demo";

/// How long an authorization code stays usable.
const CODE_TTL: Duration = Duration::from_secs(120);

/// The running demo provider; stops when dropped.
///
/// ```
/// use mcp_elicit_web::demo_provider::DemoProvider;
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let provider = DemoProvider::start().await?;
/// let token = provider.base().join("token")?;
/// // A code it never issued is refused, as a real provider would.
/// let response = reqwest::Client::new()
///     .post(token)
///     .header("content-type", "application/x-www-form-urlencoded")
///     .body("grant_type=authorization_code&client_id=mcp-elicit-demo&code=made-up")
///     .send()
///     .await?;
/// assert_eq!(response.status(), 400);
/// assert_eq!(response.text().await?, r#"{"error":"invalid_grant"}"#);
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct DemoProvider {
    base: Url,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for DemoProvider {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl DemoProvider {
    /// Starts the provider on a free loopback port.
    ///
    /// ```
    /// use mcp_elicit_web::demo_provider::DemoProvider;
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let a = DemoProvider::start().await?;
    /// let b = DemoProvider::start().await?;
    /// assert_ne!(a.base(), b.base()); // each on its own free port
    /// # Ok(())
    /// # }
    /// ```
    pub async fn start() -> std::io::Result<Self> {
        Self::start_with(|listener, app| async move {
            let _ = axum::serve(listener, app).await;
        })
        .await
    }

    /// [`DemoProvider::start`], served by `serve` (given the bound loopback listener and
    /// the provider's router) instead of plain `axum::serve`: for a server that wants its
    /// own connection handling on this port too (timeouts, connection cap, which OS user
    /// may connect).
    ///
    /// ```
    /// use mcp_elicit_web::demo_provider::DemoProvider;
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let provider = DemoProvider::start_with(|listener, app| async move {
    ///     let _ = axum::serve(listener, app).await;
    /// })
    /// .await?;
    /// let token = format!("{}token", provider.base());
    /// let response = reqwest::Client::new().post(token).form(&[("grant_type", "x")]).send().await?;
    /// assert_eq!(response.status(), 400); // served: an unsupported grant
    /// # Ok(())
    /// # }
    /// ```
    pub async fn start_with<F, Fut>(serve: F) -> std::io::Result<Self>
    where
        F: FnOnce(tokio::net::TcpListener, axum::Router) -> Fut,
        Fut: std::future::Future<Output = ()> + Send + 'static,
    {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await?;
        let addr = listener.local_addr()?;
        let base = Url::parse(&format!("http://{addr}/"))
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        let app = router(Arc::new(Grants::default()));
        let task = tokio::spawn(serve(listener, app));
        Ok(Self { base, task })
    }

    /// Where it listens (`http://127.0.0.1:PORT/`).
    ///
    /// ```
    /// use mcp_elicit_web::demo_provider::DemoProvider;
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let provider = DemoProvider::start().await?;
    /// assert_eq!(provider.base().host_str(), Some("127.0.0.1"));
    /// assert!(provider.base().port().is_some());
    /// assert_eq!(provider.base().path(), "/");
    /// # Ok(())
    /// # }
    /// ```
    pub fn base(&self) -> &Url {
        &self.base
    }

    /// The provider configuration for the web layer: name `demo`, shown as "Demo
    /// Provider", explicit endpoints, the public [`DEMO_CLIENT_ID`].
    ///
    /// ```
    /// use mcp_elicit_web::ProviderEndpoints;
    /// use mcp_elicit_web::demo_provider::DemoProvider;
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let provider = DemoProvider::start().await?;
    /// let config = provider.config()?;
    /// assert_eq!((config.name.as_str(), config.display_name.as_str()), ("demo", "Demo Provider"));
    /// let ProviderEndpoints::Explicit { authorization, token } = &config.endpoints else {
    ///     unreachable!("the demo provider's endpoints are explicit");
    /// };
    /// assert_eq!(authorization.as_str(), format!("{}authorize", provider.base()));
    /// assert_eq!(token.as_str(), format!("{}token", provider.base()));
    /// assert_eq!(config.scopes, ["profile"]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn config(&self) -> Result<ProviderConfig, url::ParseError> {
        Ok(ProviderConfig {
            name: "demo".into(),
            display_name: "Demo Provider".into(),
            endpoints: ProviderEndpoints::Explicit {
                authorization: self.base.join("authorize")?,
                token: self.base.join("token")?,
            },
            client: ClientRegistration::public(DEMO_CLIENT_ID),
            scopes: vec!["profile".into()],
            resource: None,
        })
    }
}

/// Codes issued and not yet redeemed.
#[derive(Debug, Default)]
struct Grants {
    codes: Mutex<HashMap<String, Grant>>,
}

#[derive(Debug, Clone)]
struct Grant {
    redirect_uri: String,
    challenge: String,
    scope: String,
    issued: Instant,
}

fn router(grants: Arc<Grants>) -> Router {
    Router::new()
        .route("/authorize", get(consent_page).post(decide))
        .route("/token", post(token))
        .with_state(grants)
}

/// The parameters of an authorization request (query of the GET, fields of the POST).
#[derive(Debug, Deserialize)]
struct AuthRequest {
    response_type: Option<String>,
    client_id: Option<String>,
    redirect_uri: Option<String>,
    state: Option<String>,
    code_challenge: Option<String>,
    code_challenge_method: Option<String>,
    #[serde(default)]
    scope: Option<String>,
    /// `allow` or `deny` (the POST only).
    #[serde(default)]
    decision: Option<String>,
}

/// A checked authorization request.
struct Checked {
    redirect: Url,
    state: String,
    challenge: String,
    scope: String,
}

fn random_token() -> String {
    let mut bytes = [0u8; 32];
    // The OS generator; a demo token that cannot be had is a failed request, not a panic.
    if getrandom::fill(&mut bytes).is_err() {
        return String::new();
    }
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

fn loopback(url: &Url) -> bool {
    matches!(url.scheme(), "http" | "https")
        && matches!(url.host_str(), Some("127.0.0.1" | "localhost" | "[::1]"))
}

fn check(req: &AuthRequest) -> Result<Checked, String> {
    if req.response_type.as_deref() != Some("code") {
        return Err("response_type must be code".into());
    }
    if req.client_id.as_deref() != Some(DEMO_CLIENT_ID) {
        return Err("unknown client_id".into());
    }
    let redirect = req
        .redirect_uri
        .as_deref()
        .and_then(|r| Url::parse(r).ok())
        .filter(loopback)
        .ok_or("redirect_uri must be a loopback http(s) URL")?;
    if req.code_challenge_method.as_deref() != Some("S256") {
        return Err("PKCE with code_challenge_method S256 is required".into());
    }
    let challenge = req
        .code_challenge
        .clone()
        .filter(|c| (43..=128).contains(&c.len()))
        .ok_or("code_challenge is missing or malformed")?;
    let state = req
        .state
        .clone()
        .filter(|s| !s.is_empty())
        .ok_or("state is required")?;
    Ok(Checked {
        redirect,
        state,
        challenge,
        scope: req.scope.clone().unwrap_or_default(),
    })
}

fn page(status: StatusCode, title: &str, body: &str) -> Response {
    (
        status,
        [(header::CACHE_CONTROL, "no-store")],
        Html(format!(
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>{t}</title></head>\
             <body><h1>{t}</h1>{body}</body></html>",
            t = escape(title)
        )),
    )
        .into_response()
}

async fn consent_page(Query(req): Query<AuthRequest>) -> Response {
    let c = match check(&req) {
        Ok(c) => c,
        Err(e) => {
            return page(
                StatusCode::BAD_REQUEST,
                "Bad authorization request",
                &escape(&e),
            );
        }
    };
    let hidden = |name: &str, value: &str| {
        format!(
            "<input type=\"hidden\" name=\"{name}\" value=\"{}\">",
            escape(value)
        )
    };
    let fields = [
        hidden("response_type", "code"),
        hidden("client_id", DEMO_CLIENT_ID),
        hidden("redirect_uri", c.redirect.as_str()),
        hidden("state", &c.state),
        hidden("code_challenge", &c.challenge),
        hidden("code_challenge_method", "S256"),
        hidden("scope", &c.scope),
    ]
    .concat();
    page(
        StatusCode::OK,
        "Demo Provider: allow access?",
        &format!(
            "<p>The mcp-elicit demo server asks to access your Demo Provider account \
             (scopes: {}). It will send you back to {}.</p>\
             <form method=\"post\" action=\"/authorize\">{fields}\
             <button type=\"submit\" name=\"decision\" value=\"allow\">Allow</button> \
             <button type=\"submit\" name=\"decision\" value=\"deny\">Deny</button></form>",
            escape(if c.scope.is_empty() { "none" } else { &c.scope }),
            escape(&c.redirect.origin().ascii_serialization()),
        ),
    )
}

async fn decide(State(grants): State<Arc<Grants>>, Form(req): Form<AuthRequest>) -> Response {
    let c = match check(&req) {
        Ok(c) => c,
        Err(e) => {
            return page(
                StatusCode::BAD_REQUEST,
                "Bad authorization request",
                &escape(&e),
            );
        }
    };
    let mut back = c.redirect.clone();
    if req.decision.as_deref() == Some("allow") {
        let code = random_token();
        if code.is_empty() {
            return page(StatusCode::INTERNAL_SERVER_ERROR, "No code", "Try again.");
        }
        let mut codes = grants.codes.lock().unwrap_or_else(|p| p.into_inner());
        codes.retain(|_, g| g.issued.elapsed() < CODE_TTL);
        codes.insert(
            code.clone(),
            Grant {
                redirect_uri: c.redirect.to_string(),
                challenge: c.challenge,
                scope: c.scope,
                issued: Instant::now(),
            },
        );
        back.query_pairs_mut()
            .append_pair("code", &code)
            .append_pair("state", &c.state);
    } else {
        back.query_pairs_mut()
            .append_pair("error", "access_denied")
            .append_pair("state", &c.state);
    }
    (
        StatusCode::SEE_OTHER,
        [(header::LOCATION, back.to_string())],
    )
        .into_response()
}

#[derive(Debug, Deserialize)]
struct TokenRequest {
    grant_type: Option<String>,
    code: Option<String>,
    redirect_uri: Option<String>,
    client_id: Option<String>,
    code_verifier: Option<String>,
}

fn token_error(error: &str) -> Response {
    (
        StatusCode::BAD_REQUEST,
        [(header::CACHE_CONTROL, "no-store")],
        Json(serde_json::json!({"error": error})),
    )
        .into_response()
}

async fn token(State(grants): State<Arc<Grants>>, Form(req): Form<TokenRequest>) -> Response {
    if req.grant_type.as_deref() != Some("authorization_code") {
        return token_error("unsupported_grant_type");
    }
    if req
        .client_id
        .as_deref()
        .is_some_and(|c| c != DEMO_CLIENT_ID)
    {
        return token_error("invalid_client");
    }
    // One use only: the code is gone whatever happens next.
    let grant = req.code.as_deref().and_then(|code| {
        grants
            .codes
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(code)
    });
    let Some(grant) = grant.filter(|g| g.issued.elapsed() < CODE_TTL) else {
        return token_error("invalid_grant");
    };
    if req.redirect_uri.as_deref() != Some(grant.redirect_uri.as_str()) {
        return token_error("invalid_grant");
    }
    let Some(verifier) = req.code_verifier else {
        return token_error("invalid_grant");
    };
    let computed = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(sha2::Sha256::digest(verifier.as_bytes()));
    if !bool::from(subtle::ConstantTimeEq::ct_eq(
        computed.as_bytes(),
        grant.challenge.as_bytes(),
    )) {
        return token_error("invalid_grant");
    }
    let access = random_token();
    if access.is_empty() {
        return token_error("server_error");
    }
    (
        StatusCode::OK,
        [(header::CACHE_CONTROL, "no-store")],
        Json(serde_json::json!({
            "access_token": access,
            "token_type": "Bearer",
            "expires_in": 3600,
            "scope": grant.scope,
        })),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn challenge(verifier: &str) -> String {
        base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(sha2::Sha256::digest(verifier.as_bytes()))
    }

    #[tokio::test]
    async fn code_and_pkce_flow_and_its_refusals() {
        let p = DemoProvider::start().await.expect("start");
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client");
        let verifier = "v".repeat(50);
        let params = [
            ("response_type", "code"),
            ("client_id", DEMO_CLIENT_ID),
            ("redirect_uri", "http://127.0.0.1:9/oauth/callback"),
            ("state", "s1"),
            ("code_challenge", &challenge(&verifier)),
            ("code_challenge_method", "S256"),
            ("scope", "profile"),
        ];
        let auth = p.base().join("authorize").expect("url");
        let with_query = |pairs: &[(&str, &str)]| {
            let mut u = auth.clone();
            u.query_pairs_mut().extend_pairs(pairs);
            u
        };
        let page = http.get(with_query(&params)).send().await.expect("get");
        assert_eq!(page.status(), 200);
        assert!(page.text().await.expect("body").contains("Allow"));
        // A foreign redirect URI is refused outright.
        let mut bad = params.to_vec();
        bad[2] = ("redirect_uri", "https://evil.example/cb");
        assert_eq!(
            http.get(with_query(&bad))
                .send()
                .await
                .expect("get")
                .status(),
            400
        );
        // Deny: back with access_denied.
        let mut deny = params.to_vec();
        deny.push(("decision", "deny"));
        let r = http
            .post(auth.clone())
            .form(&deny)
            .send()
            .await
            .expect("post");
        let to = r.headers()[header::LOCATION]
            .to_str()
            .expect("location")
            .to_owned();
        assert!(
            to.contains("error=access_denied") && to.contains("state=s1"),
            "{to}"
        );
        // Allow: back with a code, redeemed once with the right verifier.
        let mut allow = params.to_vec();
        allow.push(("decision", "allow"));
        let r = http.post(auth).form(&allow).send().await.expect("post");
        let to =
            Url::parse(r.headers()[header::LOCATION].to_str().expect("location")).expect("url");
        let code = to
            .query_pairs()
            .find(|(k, _)| k == "code")
            .map(|(_, v)| v.into_owned())
            .expect("code");
        let token_url = p.base().join("token").expect("url");
        let redeem = |verifier: String, code: String| {
            let http = http.clone();
            let token_url = token_url.clone();
            async move {
                http.post(token_url)
                    .form(&[
                        ("grant_type", "authorization_code".to_string()),
                        ("code", code),
                        (
                            "redirect_uri",
                            "http://127.0.0.1:9/oauth/callback".to_string(),
                        ),
                        ("client_id", DEMO_CLIENT_ID.to_string()),
                        ("code_verifier", verifier),
                    ])
                    .send()
                    .await
                    .expect("token")
            }
        };
        // A wrong verifier burns the code.
        assert_eq!(redeem("w".repeat(50), code.clone()).await.status(), 400);
        assert_eq!(redeem(verifier.clone(), code).await.status(), 400);
        // A fresh code with the right verifier gets a bearer token.
        let r = http
            .post(p.base().join("authorize").expect("url"))
            .form(&allow)
            .send()
            .await
            .expect("post");
        let to =
            Url::parse(r.headers()[header::LOCATION].to_str().expect("location")).expect("url");
        let code = to
            .query_pairs()
            .find(|(k, _)| k == "code")
            .map(|(_, v)| v.into_owned())
            .expect("code");
        let r = redeem(verifier, code).await;
        assert_eq!(r.status(), 200);
        let body: serde_json::Value = r.json().await.expect("json");
        assert_eq!(body["token_type"], "Bearer");
        assert!(body["access_token"].as_str().is_some_and(|t| t.len() > 20));
    }
}
