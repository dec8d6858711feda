//! [`AuthorizationUi`]: the host's side of a sign-in, and [`HeadlessRedirect`], the one
//! for tests and the conformance harness.

use std::time::Duration;

use futures::future::BoxFuture;
use url::Url;

/// What the user is asked to approve before the browser opens. Its `Debug` hides the
/// authorization URL (it carries the one-time `state`). Built by the client and given to
/// [`AuthorizationUi::authorize`].
#[derive(Clone)]
#[non_exhaustive]
pub struct AuthorizationPrompt {
    /// The MCP server being connected to.
    pub server: String,
    /// The authorization server (its issuer identifier) that will ask the user to sign in.
    pub issuer: String,
    /// The URL to open. It carries the one-time `state`, so it is not logged.
    pub authorization_url: String,
    /// The redirect URI the authorization server will send the browser back to.
    pub redirect_uri: String,
    /// The scopes requested (may be empty).
    pub scopes: Vec<String>,
    /// Whether this is a step-up (the server asked for more scopes than the token has).
    pub step_up: bool,
}

impl std::fmt::Debug for AuthorizationPrompt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthorizationPrompt")
            .field("server", &self.server)
            .field("issuer", &self.issuer)
            .field("authorization_url", &"[one-time]")
            .field("redirect_uri", &self.redirect_uri)
            .field("scopes", &self.scopes)
            .field("step_up", &self.step_up)
            .finish()
    }
}

/// Why the host's sign-in UI gave no authorization response. The sign-in then fails with
/// [`AuthErrorKind::Declined`](crate::auth::AuthErrorKind::Declined) or
/// [`AuthErrorKind::Ui`](crate::auth::AuthErrorKind::Ui).
///
/// ```
/// use mcp_elicit_client::auth::AuthUiError;
///
/// assert_eq!(AuthUiError::Declined.to_string(), "the user declined");
/// assert_eq!(AuthUiError::Failed("no browser".into()).to_string(), "no browser");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AuthUiError {
    /// The user said no.
    #[error("the user declined")]
    Declined,
    /// Anything else (no browser, the listener failed, a timeout).
    #[error("{0}")]
    Failed(String),
}

/// The host's side of a sign-in.
///
/// A person's host shows which authorization server and which MCP server the sign-in is
/// for, asks for consent, opens the browser and listens on a loopback redirect URI; a
/// headless one ([`HeadlessRedirect`]) follows the authorization URL itself.
///
/// ```
/// use futures::future::BoxFuture;
/// use mcp_elicit_client::auth::{AuthUiError, AuthorizationPrompt, AuthorizationUi};
///
/// struct Refuse;
/// impl AuthorizationUi for Refuse {
///     fn redirect_uri(&self) -> BoxFuture<'_, Result<String, AuthUiError>> {
///         Box::pin(async { Ok("http://127.0.0.1:8976/callback".to_owned()) })
///     }
///     fn authorize<'a>(&'a self, _: &'a AuthorizationPrompt) -> BoxFuture<'a, Result<String, AuthUiError>> {
///         Box::pin(async { Err(AuthUiError::Declined) })
///     }
/// }
/// ```
pub trait AuthorizationUi: Send + Sync + 'static {
    /// The redirect URI for the next sign-in: a loopback `http` URI (`127.0.0.1`, `[::1]`
    /// or `localhost`); anything else is refused. A person's host binds its listener here.
    /// A step-up reuses the URI of the sign-in it extends.
    fn redirect_uri(&self) -> BoxFuture<'_, Result<String, AuthUiError>>;

    /// Shows `prompt`, opens the authorization URL and waits for the redirect. Returns the
    /// whole URL the browser was sent to (`code`, `state` and `iss` in its query). The
    /// client checks it came to the redirect URI, checks `state` and `iss` and exchanges
    /// the code.
    fn authorize<'a>(
        &'a self,
        prompt: &'a AuthorizationPrompt,
    ) -> BoxFuture<'a, Result<String, AuthUiError>>;
}

/// Checks that `uri` is a loopback redirect URI (RFC 8252 §7.3) and returns it parsed.
pub(crate) fn loopback_redirect(uri: &str) -> Result<Url, String> {
    let url = Url::parse(uri).map_err(|e| format!("{uri:?} is not a URL: {e}"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!("{uri} is not an http(s) URI"));
    }
    let loopback = match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    };
    if !loopback {
        return Err(format!("{uri} is not a loopback URI"));
    }
    if url.fragment().is_some() || !url.username().is_empty() || url.password().is_some() {
        return Err(format!("{uri} has a fragment or user information"));
    }
    Ok(url)
}

/// An [`AuthorizationUi`] without a person: it GETs the authorization URL without following
/// redirects and returns the `Location` the authorization server answered with. Works with
/// authorization servers that redirect at once (test servers, the conformance suite's).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use mcp_elicit_client::auth::{AuthorizationUi, HeadlessRedirect};
///
/// let ui = HeadlessRedirect::new("http://127.0.0.1:8976/callback");
/// assert_eq!(ui.redirect_uri().await.as_deref(), Ok("http://127.0.0.1:8976/callback"));
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct HeadlessRedirect {
    redirect_uri: String,
    http: reqwest::Client,
}

impl HeadlessRedirect {
    /// Uses `redirect_uri` (nothing listens there; the redirect is read, not followed). It
    /// must be a loopback `http(s)` URI, or the sign-in is refused
    /// ([`AuthErrorKind::Redirect`](crate::auth::AuthErrorKind::Redirect)).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mcp_elicit_client::auth::{AuthConfig, Authorizer, HeadlessRedirect, MemoryTokenStore};
    ///
    /// let authorizer = Authorizer::new(
    ///     "https://mcp.example.com/mcp",
    ///     AuthConfig::new("conformance"),
    ///     Arc::new(MemoryTokenStore::default()),
    ///     Arc::new(HeadlessRedirect::new("http://localhost:3000/callback")),
    /// )?;
    /// assert!(authorizer.last_error().is_none()); // nothing tried yet
    /// # Ok::<(), mcp_elicit_client::auth::AuthError>(())
    /// ```
    pub fn new(redirect_uri: impl Into<String>) -> Self {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(Duration::from_secs(30))
            .build()
            .unwrap_or_default();
        Self {
            redirect_uri: redirect_uri.into(),
            http,
        }
    }
}

impl AuthorizationUi for HeadlessRedirect {
    fn redirect_uri(&self) -> BoxFuture<'_, Result<String, AuthUiError>> {
        Box::pin(async move { Ok(self.redirect_uri.clone()) })
    }

    fn authorize<'a>(
        &'a self,
        prompt: &'a AuthorizationPrompt,
    ) -> BoxFuture<'a, Result<String, AuthUiError>> {
        Box::pin(async move {
            let url = Url::parse(&prompt.authorization_url)
                .map_err(|e| AuthUiError::Failed(format!("bad authorization URL: {e}")))?;
            let response = self
                .http
                .get(url.clone())
                .send()
                .await
                .map_err(|e| AuthUiError::Failed(format!("authorization endpoint: {e}")))?;
            let status = response.status();
            if !status.is_redirection() {
                return Err(AuthUiError::Failed(format!(
                    "the authorization endpoint answered HTTP {status}, not a redirect"
                )));
            }
            let location = response
                .headers()
                .get(http::header::LOCATION)
                .and_then(|v| v.to_str().ok())
                .ok_or_else(|| {
                    AuthUiError::Failed("the redirect has no usable Location".to_owned())
                })?;
            let target = url
                .join(location)
                .map_err(|e| AuthUiError::Failed(format!("bad Location: {e}")))?;
            Ok(target.to_string())
        })
    }
}
