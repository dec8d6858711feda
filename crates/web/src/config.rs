//! Configuration of the web layer: the MCP authorization server, this server's public
//! URL and audience, the login client, and the third-party OAuth providers.

use std::time::Duration;

use jsonwebtoken::Algorithm;
use secrecy::SecretString;
use url::Url;

use crate::error::WebError;

/// An OAuth client registration (client id and optional secret for `client_secret_basic`).
#[derive(Debug, Clone)]
pub struct ClientRegistration {
    /// The client id.
    pub client_id: String,
    /// The client secret (confidential clients); `None` for public clients.
    pub client_secret: Option<SecretString>,
}

impl ClientRegistration {
    /// A confidential client.
    pub fn confidential(client_id: impl Into<String>, secret: impl Into<String>) -> Self {
        Self {
            client_id: client_id.into(),
            client_secret: Some(SecretString::from(secret.into())),
        }
    }

    /// A public client (PKCE only).
    pub fn public(client_id: impl Into<String>) -> Self {
        Self {
            client_id: client_id.into(),
            client_secret: None,
        }
    }
}

/// Where a third-party provider's endpoints are.
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
    #[must_use]
    pub fn with_audience(mut self, audience: impl Into<String>) -> Self {
        self.audience = audience.into();
        self
    }

    /// Adds a third-party provider.
    #[must_use]
    pub fn with_provider(mut self, provider: ProviderConfig) -> Self {
        self.providers.push(provider);
        self
    }

    /// Sets [`WebConfig::jwks_min_refresh`].
    #[must_use]
    pub fn with_jwks_min_refresh(mut self, interval: Duration) -> Self {
        self.jwks_min_refresh = interval;
        self
    }

    /// Whether cookies are `Secure` (and `__Host-` prefixed): the public URL is https.
    pub fn secure_cookies(&self) -> bool {
        self.public_url.scheme() == "https"
    }

    /// The public URL without its trailing slash.
    pub fn base(&self) -> String {
        trim_slash(&self.public_url)
    }

    /// The MCP endpoint URL (the protected resource).
    pub fn resource(&self) -> String {
        format!("{}{}", self.base(), self.mcp_path)
    }

    /// The protected resource metadata URL advertised in `WWW-Authenticate`.
    pub fn resource_metadata_url(&self) -> String {
        format!(
            "{}/.well-known/oauth-protected-resource{}",
            self.base(),
            self.mcp_path
        )
    }

    /// The public origin (`scheme://host[:port]`) form posts must come from.
    pub fn origin(&self) -> String {
        self.public_url.origin().ascii_serialization()
    }

    /// Checks the configuration: https everywhere except loopback, sane names and paths,
    /// a safe algorithm list.
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
