//! Configuration of the web layer: the MCP authorization server, this server's public
//! URL and audience, the login client, and the third-party OAuth providers.

use std::time::Duration;

use jsonwebtoken::Algorithm;
use secrecy::SecretString;
use url::Url;

use crate::error::WebError;

/// An OAuth client registration (client id and optional secret for `client_secret_basic`).
///
/// ```
/// use mcp_elicit_web::ClientRegistration;
/// use secrecy::ExposeSecret;
///
/// let web = ClientRegistration::confidential("mcp-web", "s3cret");
/// assert_eq!(web.client_id, "mcp-web");
/// assert_eq!(web.client_secret.as_ref().map(|s| s.expose_secret()), Some("s3cret"));
/// // Debug output never shows the secret.
/// assert!(!format!("{web:?}").contains("s3cret"));
///
/// let cli = ClientRegistration::public("mcp-cli");
/// assert!(cli.client_secret.is_none());
/// ```
#[derive(Debug, Clone)]
pub struct ClientRegistration {
    /// The client id.
    pub client_id: String,
    /// The client secret (confidential clients); `None` for public clients.
    pub client_secret: Option<SecretString>,
}

impl ClientRegistration {
    /// A confidential client.
    ///
    /// ```
    /// use secrecy::ExposeSecret;
    ///
    /// let c = mcp_elicit_web::ClientRegistration::confidential("mcp-web", "s3cret");
    /// assert_eq!(c.client_secret.map(|s| s.expose_secret().to_owned()).as_deref(), Some("s3cret"));
    /// ```
    pub fn confidential(client_id: impl Into<String>, secret: impl Into<String>) -> Self {
        Self {
            client_id: client_id.into(),
            client_secret: Some(SecretString::from(secret.into())),
        }
    }

    /// A public client (PKCE only).
    ///
    /// ```
    /// let c = mcp_elicit_web::ClientRegistration::public("mcp-cli");
    /// assert_eq!(c.client_id, "mcp-cli");
    /// assert!(c.client_secret.is_none());
    /// ```
    pub fn public(client_id: impl Into<String>) -> Self {
        Self {
            client_id: client_id.into(),
            client_secret: None,
        }
    }
}

/// Where a third-party provider's endpoints are.
///
/// Explicit endpoints are checked by [`WebConfig::validate`] (https, or http on
/// loopback); discovered ones when [`Web::new`](crate::Web::new) fetches the metadata.
///
/// ```
/// use mcp_elicit_web::{ClientRegistration, ProviderConfig, ProviderEndpoints, WebConfig, WebError};
/// # let config = WebConfig::new(
/// #     "https://auth.example.com",
/// #     url::Url::parse("https://mcp.example.com")?,
/// #     ClientRegistration::public("mcp-web"),
/// # );
/// let provider = |endpoints| ProviderConfig {
///     name: "example".into(),
///     display_name: "Example Co".into(),
///     endpoints,
///     client: ClientRegistration::public("mcp"),
///     scopes: Vec::new(),
///     resource: None,
/// };
///
/// let discovered = ProviderEndpoints::Discover { issuer: "https://login.example.net".into() };
/// assert!(config.clone().with_provider(provider(discovered)).validate().is_ok());
///
/// let plain_http = ProviderEndpoints::Explicit {
///     authorization: url::Url::parse("http://login.example.net/authorize")?,
///     token: url::Url::parse("https://login.example.net/token")?,
/// };
/// let err = config.clone().with_provider(provider(plain_http)).validate().unwrap_err();
/// assert!(matches!(err, WebError::Config(m) if m.contains("must use https")));
///
/// // Plain http is fine on loopback (a local test provider).
/// let local = ProviderEndpoints::Explicit {
///     authorization: url::Url::parse("http://127.0.0.1:9000/authorize")?,
///     token: url::Url::parse("http://127.0.0.1:9000/token")?,
/// };
/// assert!(config.with_provider(provider(local)).validate().is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum ProviderEndpoints {
    /// Found by OpenID Connect discovery / RFC 8414 metadata of this issuer.
    Discover {
        /// The issuer URL.
        issuer: String,
    },
    /// Given explicitly.
    Explicit {
        /// The authorization endpoint.
        authorization: Url,
        /// The token endpoint.
        token: Url,
    },
}

/// A third-party OAuth provider this server is a client of (the specification's "URL
/// Mode Elicitation for OAuth Flows": the server, not the MCP client, holds the tokens).
///
/// ```
/// use mcp_elicit_web::{ClientRegistration, ProviderConfig, ProviderEndpoints, WebConfig, WebError};
///
/// let github = ProviderConfig {
///     name: "github".into(),
///     display_name: "GitHub".into(),
///     endpoints: ProviderEndpoints::Explicit {
///         authorization: url::Url::parse("https://github.com/login/oauth/authorize")?,
///         token: url::Url::parse("https://github.com/login/oauth/access_token")?,
///     },
///     client: ClientRegistration::confidential("Iv1.0123", "client-secret"),
///     scopes: vec!["repo".into()],
///     resource: None,
/// };
/// let config = WebConfig::new(
///     "https://auth.example.com",
///     url::Url::parse("https://mcp.example.com")?,
///     ClientRegistration::public("mcp-web"),
/// )
/// .with_provider(github.clone());
/// assert!(config.validate().is_ok());
///
/// // Each name once, and only [a-z0-9_-].
/// let twice = config.clone().with_provider(github.clone());
/// assert!(matches!(twice.validate(), Err(WebError::Config(m)) if m.contains("configured twice")));
/// let capitals = ProviderConfig { name: "GitHub".into(), ..github };
/// let err = config.with_provider(capitals).validate().unwrap_err();
/// assert!(err.to_string().contains("must be 1 to 64 of [a-z0-9_-]"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct ProviderConfig {
    /// The name tools use (`access_token_for(user, "example")`), 1 to 64 of `[a-z0-9_-]`.
    pub name: String,
    /// The name shown to users.
    pub display_name: String,
    /// Its endpoints.
    pub endpoints: ProviderEndpoints,
    /// This server's registration at the provider.
    pub client: ClientRegistration,
    /// The scopes to request.
    pub scopes: Vec<String>,
    /// An RFC 8707 `resource` to request tokens for, if the provider needs one.
    pub resource: Option<String>,
}

/// Settings of the web layer.
///
/// Build it with [`WebConfig::new`] (which states the defaults), then set fields or use
/// the `with_` methods. The URLs derived from the public URL:
///
/// ```
/// use mcp_elicit_web::{ClientRegistration, WebConfig};
///
/// let config = WebConfig::new(
///     "https://auth.example.com",
///     url::Url::parse("https://mcp.example.com/")?,
///     ClientRegistration::confidential("mcp-web", "client-secret"),
/// );
/// assert_eq!(config.base(), "https://mcp.example.com");
/// assert_eq!(config.resource(), "https://mcp.example.com/mcp");
/// assert_eq!(config.audience, config.resource());
/// assert_eq!(
///     config.resource_metadata_url(),
///     "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
/// );
/// assert_eq!(config.origin(), "https://mcp.example.com");
/// assert!(config.secure_cookies());
/// assert!(config.validate().is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct WebConfig {
    /// The MCP authorization server (OpenID issuer): bearer tokens must come from it, and
    /// browser sign-in happens there.
    pub issuer: String,
    /// The `aud` bearer tokens must carry (RFC 8707 resource); default: the MCP endpoint
    /// URL (public URL + MCP path).
    pub audience: String,
    /// This server's public base URL (what browsers and MCP clients reach).
    pub public_url: Url,
    /// The path of the MCP endpoint (default `/mcp`).
    pub mcp_path: String,
    /// This server's client registration at the issuer, for browser sign-in.
    pub login_client: ClientRegistration,
    /// Third-party providers.
    pub providers: Vec<ProviderConfig>,
    /// Scopes advertised in the protected resource metadata.
    pub scopes_supported: Vec<String>,
    /// Scopes every bearer token must have (403 `insufficient_scope` otherwise).
    pub required_scopes: Vec<String>,
    /// Accepted signature algorithms (default RS256, PS256, ES256; never `none` or HMAC).
    pub algorithms: Vec<Algorithm>,
    /// Clock skew tolerated on `exp`/`nbf` (default 30 s).
    pub leeway: Duration,
    /// How long a browser session lasts (default 1 hour).
    pub session_ttl: Duration,
    /// How long a sign-in or OAuth `state` stays usable (default 10 minutes).
    pub state_ttl: Duration,
    /// Deprecated, no effect (kept so existing configurations still build). It capped
    /// the sign-ins in progress kept on the server; a sign-in in progress is now sealed
    /// into a cookie of the browser that started it (`HttpOnly`, `SameSite=Lax`, bound to
    /// its `state`, lasting `state_ttl`), so the server keeps nothing before the user has
    /// authenticated and anonymous `GET /login` cannot lock anyone out. After
    /// authentication the used `state` is recorded until `state_ttl` has passed, so a
    /// callback cannot be replayed.
    pub max_pending_logins: u64,
    /// Local mode only (no issuer, where signing in creates a browser session at once):
    /// anonymous sign-ins (`GET /login`, connect links of unknown ids) one client address
    /// may start per minute (IPv6: per /64); more get 429 with `Retry-After` (default 30;
    /// 0: no limit). Sign-ins from the connect link of a registered elicitation are never
    /// counted. With an issuer nothing is stored before sign-in, so nothing is limited.
    pub max_signins_per_client: u32,
    /// The shortest interval between two JWKS fetches triggered by unknown `kid`s
    /// (default 30 s).
    pub jwks_min_refresh: Duration,
    /// A human-readable name for pages and metadata.
    pub resource_name: String,
}

impl WebConfig {
    /// A configuration with the defaults.
    ///
    /// Every default:
    ///
    /// ```
    /// use std::time::Duration;
    /// use jsonwebtoken::Algorithm;
    /// use mcp_elicit_web::{ClientRegistration, WebConfig};
    ///
    /// let c = WebConfig::new(
    ///     "https://auth.example.com",
    ///     url::Url::parse("https://mcp.example.com/")?,
    ///     ClientRegistration::public("mcp-web"),
    /// );
    /// assert_eq!(c.issuer, "https://auth.example.com");
    /// assert_eq!(c.mcp_path, "/mcp");
    /// // The audience is the MCP endpoint URL, computed here: set `audience` again (or
    /// // use `with_audience`) after changing `public_url` or `mcp_path`.
    /// assert_eq!(c.audience, "https://mcp.example.com/mcp");
    /// assert_eq!(c.login_client.client_id, "mcp-web");
    /// assert!(c.providers.is_empty());
    /// assert!(c.scopes_supported.is_empty());
    /// assert!(c.required_scopes.is_empty());
    /// assert_eq!(c.algorithms, [Algorithm::RS256, Algorithm::PS256, Algorithm::ES256]);
    /// assert_eq!(c.leeway, Duration::from_secs(30));
    /// assert_eq!(c.session_ttl, Duration::from_secs(60 * 60));
    /// assert_eq!(c.state_ttl, Duration::from_secs(10 * 60));
    /// assert_eq!(c.max_pending_logins, 10_000);
    /// assert_eq!(c.max_signins_per_client, 30);
    /// assert_eq!(c.jwks_min_refresh, Duration::from_secs(30));
    /// assert_eq!(c.resource_name, "mcp-elicit");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(
        issuer: impl Into<String>,
        public_url: Url,
        login_client: ClientRegistration,
    ) -> Self {
        let mcp_path = "/mcp".to_owned();
        let audience = format!("{}{}", trim_slash(&public_url), mcp_path);
        Self {
            issuer: issuer.into(),
            audience,
            public_url,
            mcp_path,
            login_client,
            providers: Vec::new(),
            scopes_supported: Vec::new(),
            required_scopes: Vec::new(),
            algorithms: vec![Algorithm::RS256, Algorithm::PS256, Algorithm::ES256],
            leeway: Duration::from_secs(30),
            session_ttl: Duration::from_secs(60 * 60),
            state_ttl: Duration::from_secs(10 * 60),
            max_pending_logins: 10_000,
            max_signins_per_client: 30,
            jwks_min_refresh: Duration::from_secs(30),
            resource_name: "mcp-elicit".to_owned(),
        }
    }

    /// Sets [`WebConfig::audience`].
    ///
    /// ```
    /// # use mcp_elicit_web::{ClientRegistration, WebConfig};
    /// # let config = WebConfig::new(
    /// #     "https://auth.example.com",
    /// #     url::Url::parse("https://mcp.example.com/")?,
    /// #     ClientRegistration::public("mcp-web"),
    /// # );
    /// let config = config.with_audience("api://mcp");
    /// assert_eq!(config.audience, "api://mcp");
    /// // The resource (metadata, WWW-Authenticate) is still the endpoint URL.
    /// assert_eq!(config.resource(), "https://mcp.example.com/mcp");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_audience(mut self, audience: impl Into<String>) -> Self {
        self.audience = audience.into();
        self
    }

    /// Adds a third-party provider.
    ///
    /// ```
    /// use mcp_elicit_web::{ProviderConfig, ProviderEndpoints};
    /// # use mcp_elicit_web::{ClientRegistration, WebConfig};
    /// # let config = WebConfig::new(
    /// #     "https://auth.example.com",
    /// #     url::Url::parse("https://mcp.example.com/")?,
    /// #     ClientRegistration::public("mcp-web"),
    /// # );
    /// let config = config.with_provider(ProviderConfig {
    ///     name: "example".into(),
    ///     display_name: "Example Co".into(),
    ///     endpoints: ProviderEndpoints::Discover { issuer: "https://login.example.net".into() },
    ///     client: ClientRegistration::public("mcp"),
    ///     scopes: vec!["read".into()],
    ///     resource: None,
    /// });
    /// assert_eq!(config.providers.len(), 1);
    /// assert_eq!(config.providers[0].name, "example");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_provider(mut self, provider: ProviderConfig) -> Self {
        self.providers.push(provider);
        self
    }

    /// Sets [`WebConfig::jwks_min_refresh`].
    ///
    /// ```
    /// use std::time::Duration;
    /// # use mcp_elicit_web::{ClientRegistration, WebConfig};
    /// # let config = WebConfig::new(
    /// #     "https://auth.example.com",
    /// #     url::Url::parse("https://mcp.example.com/")?,
    /// #     ClientRegistration::public("mcp-web"),
    /// # );
    /// assert_eq!(config.jwks_min_refresh, Duration::from_secs(30));
    /// let config = config.with_jwks_min_refresh(Duration::from_secs(5));
    /// assert_eq!(config.jwks_min_refresh, Duration::from_secs(5));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_jwks_min_refresh(mut self, interval: Duration) -> Self {
        self.jwks_min_refresh = interval;
        self
    }

    /// Whether cookies are `Secure` (and `__Host-` prefixed): the public URL is https.
    ///
    /// ```
    /// use mcp_elicit_web::{ClientRegistration, WebConfig};
    ///
    /// let at = |public: &str| -> Result<WebConfig, url::ParseError> {
    ///     Ok(WebConfig::new("https://auth.example.com", url::Url::parse(public)?, ClientRegistration::public("web")))
    /// };
    /// assert!(at("https://mcp.example.com")?.secure_cookies());
    /// assert!(!at("http://127.0.0.1:8391")?.secure_cookies());
    /// # Ok::<(), url::ParseError>(())
    /// ```
    pub fn secure_cookies(&self) -> bool {
        self.public_url.scheme() == "https"
    }

    /// The public URL without its trailing slash.
    ///
    /// ```
    /// # use mcp_elicit_web::{ClientRegistration, WebConfig};
    /// # let config = WebConfig::new(
    /// #     "https://auth.example.com",
    /// #     url::Url::parse("https://mcp.example.com/")?,
    /// #     ClientRegistration::public("mcp-web"),
    /// # );
    /// assert_eq!(config.public_url.as_str(), "https://mcp.example.com/");
    /// assert_eq!(config.base(), "https://mcp.example.com");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn base(&self) -> String {
        trim_slash(&self.public_url)
    }

    /// The MCP endpoint URL (the protected resource).
    ///
    /// ```
    /// # use mcp_elicit_web::{ClientRegistration, WebConfig};
    /// # let config = WebConfig::new(
    /// #     "https://auth.example.com",
    /// #     url::Url::parse("https://mcp.example.com/")?,
    /// #     ClientRegistration::public("mcp-web"),
    /// # );
    /// let mut config = config;
    /// config.mcp_path = "/v1/mcp".into();
    /// assert_eq!(config.resource(), "https://mcp.example.com/v1/mcp");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resource(&self) -> String {
        format!("{}{}", self.base(), self.mcp_path)
    }

    /// The protected resource metadata URL advertised in `WWW-Authenticate`.
    ///
    /// The RFC 9728 path-suffixed form, served by [`Web::router`](crate::Web::router):
    ///
    /// ```
    /// # use mcp_elicit_web::{ClientRegistration, WebConfig};
    /// # let config = WebConfig::new(
    /// #     "https://auth.example.com",
    /// #     url::Url::parse("https://mcp.example.com/")?,
    /// #     ClientRegistration::public("mcp-web"),
    /// # );
    /// assert_eq!(
    ///     config.resource_metadata_url(),
    ///     "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resource_metadata_url(&self) -> String {
        format!(
            "{}/.well-known/oauth-protected-resource{}",
            self.base(),
            self.mcp_path
        )
    }

    /// The public origin (`scheme://host[:port]`) form posts must come from.
    ///
    /// No path and no trailing slash; a port only when it is not the scheme's default:
    ///
    /// ```
    /// use mcp_elicit_web::{ClientRegistration, WebConfig};
    ///
    /// let at = |public: &str| -> Result<String, url::ParseError> {
    ///     let c = WebConfig::new("https://auth.example.com", url::Url::parse(public)?, ClientRegistration::public("web"));
    ///     Ok(c.origin())
    /// };
    /// assert_eq!(at("https://mcp.example.com:443/tools/")?, "https://mcp.example.com");
    /// assert_eq!(at("http://127.0.0.1:8391/")?, "http://127.0.0.1:8391");
    /// # Ok::<(), url::ParseError>(())
    /// ```
    pub fn origin(&self) -> String {
        self.public_url.origin().ascii_serialization()
    }

    /// Checks the configuration: https everywhere except loopback, sane names and paths,
    /// a safe algorithm list.
    ///
    /// ```
    /// use jsonwebtoken::Algorithm;
    /// use mcp_elicit_web::{ClientRegistration, WebConfig, WebError};
    ///
    /// let at = |public: &str, issuer: &str| -> Result<WebConfig, url::ParseError> {
    ///     Ok(WebConfig::new(issuer, url::Url::parse(public)?, ClientRegistration::public("web")))
    /// };
    /// assert!(at("https://mcp.example.com", "https://auth.example.com")?.validate().is_ok());
    /// // Plain http only on loopback.
    /// assert!(at("http://127.0.0.1:8391", "http://localhost:9000")?.validate().is_ok());
    /// assert!(at("http://mcp.example.com", "https://auth.example.com")?.validate().is_err());
    ///
    /// let mut config = at("https://mcp.example.com", "https://auth.example.com")?;
    /// config.algorithms = vec![Algorithm::HS256];
    /// let err = config.validate().unwrap_err();
    /// assert!(matches!(&err, WebError::Config(m) if m.contains("HMAC")));
    /// config.algorithms.clear();
    /// assert!(config.validate().is_err());
    ///
    /// let mut config = at("https://mcp.example.com", "https://auth.example.com")?;
    /// config.mcp_path = "mcp".into();
    /// assert!(config.validate().is_err());
    /// # Ok::<(), url::ParseError>(())
    /// ```
    pub fn validate(&self) -> Result<(), WebError> {
        check_url("public URL", &self.public_url)?;
        let issuer = Url::parse(&self.issuer)
            .map_err(|e| WebError::Config(format!("issuer {:?} is not a URL: {e}", self.issuer)))?;
        check_url("issuer", &issuer)?;
        if !self.mcp_path.starts_with('/') || self.mcp_path.len() < 2 {
            return Err(WebError::Config(format!(
                "the MCP path {:?} must start with / and name a path",
                self.mcp_path
            )));
        }
        if self.audience.is_empty() {
            return Err(WebError::Config("the audience is empty".into()));
        }
        if self.algorithms.is_empty() {
            return Err(WebError::Config("no signature algorithm is allowed".into()));
        }
        if self
            .algorithms
            .iter()
            .any(|a| matches!(a, Algorithm::HS256 | Algorithm::HS384 | Algorithm::HS512))
        {
            return Err(WebError::Config(
                "HMAC algorithms cannot verify tokens of a third-party issuer".into(),
            ));
        }
        let mut names = std::collections::HashSet::new();
        for p in &self.providers {
            let ok = !p.name.is_empty()
                && p.name.len() <= 64
                && p.name.bytes().all(|b| {
                    b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_'
                });
            if !ok {
                return Err(WebError::Config(format!(
                    "provider name {:?} must be 1 to 64 of [a-z0-9_-]",
                    p.name
                )));
            }
            if !names.insert(p.name.clone()) {
                return Err(WebError::Config(format!(
                    "provider {} is configured twice",
                    p.name
                )));
            }
            if let ProviderEndpoints::Explicit {
                authorization,
                token,
            } = &p.endpoints
            {
                check_url("provider authorization endpoint", authorization)?;
                check_url("provider token endpoint", token)?;
            }
        }
        Ok(())
    }
}

fn trim_slash(url: &Url) -> String {
    url.as_str().trim_end_matches('/').to_owned()
}

/// Whether `url` is on a loopback host.
pub(crate) fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        None => false,
    }
}

/// https, or http on loopback; no userinfo, query or fragment.
pub(crate) fn check_url(what: &str, url: &Url) -> Result<(), WebError> {
    let scheme_ok = url.scheme() == "https" || (url.scheme() == "http" && is_loopback(url));
    if !scheme_ok {
        return Err(WebError::Config(format!(
            "the {what} {url} must use https (plain http only on loopback)"
        )));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(WebError::Config(format!(
            "the {what} must not contain credentials"
        )));
    }
    if url.fragment().is_some() {
        return Err(WebError::Config(format!(
            "the {what} must not have a fragment"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(public: &str, issuer: &str) -> WebConfig {
        WebConfig::new(
            issuer,
            Url::parse(public).expect("url"),
            ClientRegistration::public("web"),
        )
    }

    #[test]
    fn derived_urls_and_cookie_security_follow_the_public_url() {
        let c = config("https://mcp.example.com/", "https://auth.example.com");
        assert_eq!(c.resource(), "https://mcp.example.com/mcp");
        assert_eq!(c.audience, "https://mcp.example.com/mcp");
        assert_eq!(
            c.resource_metadata_url(),
            "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
        );
        assert_eq!(c.origin(), "https://mcp.example.com");
        assert!(c.secure_cookies());
        assert!(c.validate().is_ok());
        assert!(!config("http://127.0.0.1:8080", "http://127.0.0.1:9").secure_cookies());
    }

    #[test]
    fn plain_http_outside_loopback_and_hmac_are_refused() {
        assert!(
            config("http://mcp.example.com", "https://a.example")
                .validate()
                .is_err()
        );
        assert!(
            config("https://mcp.example.com", "http://a.example")
                .validate()
                .is_err()
        );
        assert!(
            config("http://127.0.0.1:1", "http://localhost:2")
                .validate()
                .is_ok()
        );
        let mut c = config("https://m.example", "https://a.example");
        c.algorithms = vec![Algorithm::HS256];
        assert!(c.validate().is_err());
        c.algorithms.clear();
        assert!(c.validate().is_err());
    }
}
