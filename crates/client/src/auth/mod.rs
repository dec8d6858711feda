//! MCP authorization, client side: `connect` and `call` reach servers that require sign-in.
//!
//! On a 401 the HTTP transport hands the `WWW-Authenticate` challenge to an [`Authorizer`],
//! which discovers the protected resource metadata (the challenge's `resource_metadata`,
//! else the path-based then the root well-known location), the authorization server
//! metadata (RFC 8414 then OpenID discovery, path-inserted first, issuer compared as an
//! exact string), picks the client registration in the specification's order
//! (pre-registered, Client ID Metadata Document when the server advertises it, dynamic
//! registration), runs authorization code with PKCE S256 and the `resource` parameter
//! exactly as the protected resource metadata publishes it, checks the RFC 9207 `iss` of
//! the authorization response (required when advertised, compared whenever present), and
//! retries the request with the bearer token. Scopes: the challenge's `scope`, else the
//! resource's `scopes_supported`, else none; `offline_access` is added when the
//! authorization server lists it. A 403 `insufficient_scope` asks for the union of the
//! scopes held and the ones challenged, at most [`AuthConfig::max_step_ups`] times per
//! request. Tokens near expiry are refreshed; a refused token leads to one new sign-in
//! (with a fresh discovery, so a server that moved to another authorization server gets a
//! new registration there and no credentials of the old one).
//!
//! ## Why rmcp's `auth` engine
//!
//! rmcp 3.11's `transport::auth` (`AuthorizationManager`, `AuthorizationSession`, built on
//! the `oauth2` crate) already implements every discovery, issuer and registration rule
//! above, caps OAuth response bodies at 1 MiB, filters the hosts discovered metadata may
//! point to (no link-local or private addresses unless the server itself is one), and is
//! what the conformance suite's Rust runs exercise. Writing the same on `oauth2` or plain
//! reqwest would duplicate about 4,000 lines. What this module adds is what rmcp leaves to
//! the host: the stores ([`TokenStore`], keyed by the server's canonical URI, so a token is
//! only ever sent to the server it was issued for), the UI seam ([`AuthorizationUi`]: a
//! person's browser and loopback listener, or [`HeadlessRedirect`]), the transport hook (401
//! and 403 on every POST and GET, a bounded number of sign-ins and step-ups per request),
//! loopback-only redirect URIs, a check that the authorization response came back to the
//! redirect URI (once each of `code`, `state`, `iss`), nothing saved before a sign-in
//! completes, and [`AuthError`]s that name the server and the problem.
//!
//! ```no_run
//! use std::sync::Arc;
//! use mcp_elicit_client::auth::{AuthConfig, Authorizer, HeadlessRedirect, MemoryTokenStore};
//! use mcp_elicit_client::{Config, ElicitationClient, ManualOpen, ScriptedUi, FormPolicy, UrlPolicy};
//! use mcp_elicit_core::message::Capability;
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! let url = "https://mcp.example.com/mcp";
//! let authorizer = Arc::new(Authorizer::new(
//!     url,
//!     AuthConfig::new("my-host"),
//!     Arc::new(MemoryTokenStore::default()),
//!     Arc::new(HeadlessRedirect::new("http://127.0.0.1:8976/callback")),
//! )?);
//! let ui = ScriptedUi::new(Capability::FORM, FormPolicy::AcceptDefaults, UrlPolicy::Never);
//! let config = Config::default().with_authorizer(authorizer);
//! let client = ElicitationClient::new(ui, ManualOpen, config);
//! let connection = client.clone().connect(&url.parse()?).await?;
//! # Ok(()) }
//! ```

mod authorizer;
mod error;
mod store;
mod ui;

pub use authorizer::{Authorizer, canonical_resource};
pub use error::{AuthError, AuthErrorKind};
pub use rmcp::transport::auth::StoredCredentials;
pub use store::{MemoryTokenStore, TokenStore, TokenStoreError};
pub use ui::{AuthUiError, AuthorizationPrompt, AuthorizationUi, HeadlessRedirect};

/// A `tracing` filter directive that keeps rmcp's authorization engine at `info`: at
/// `debug` it logs the authorization code and the token response's extra fields (an
/// OpenID `id_token`, for one). Hosts that take `RUST_LOG` should add it last.
///
/// ```
/// assert_eq!(mcp_elicit_client::auth::QUIET_AUTH_LOGS, "rmcp::transport::auth=info");
/// ```
pub const QUIET_AUTH_LOGS: &str = "rmcp::transport::auth=info";

/// How the client registers and how far it goes. `#[non_exhaustive]`: start from
/// [`AuthConfig::new`] and use the `with_*` methods.
///
/// ```
/// use mcp_elicit_client::auth::AuthConfig;
///
/// let config = AuthConfig::new("my-host");
/// assert_eq!(config.client_name, "my-host");
/// assert_eq!(config.max_step_ups, 2);
/// assert!(config.client_id.is_none() && config.client_metadata_url.is_none());
/// assert!(!config.allow_private_addresses && config.client_credentials_scopes.is_none());
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct AuthConfig {
    /// `client_name` for dynamic registration.
    pub client_name: String,
    /// An `https` Client ID Metadata Document URL, used as the client id when the
    /// authorization server advertises `client_id_metadata_document_supported`.
    pub client_metadata_url: Option<String>,
    /// A pre-registered client id (used first when set).
    pub client_id: Option<String>,
    /// The pre-registered client's secret.
    pub client_secret: Option<String>,
    /// Most step-ups (403 `insufficient_scope`) per request (default 2, so at most three
    /// authorizations for one request).
    pub max_step_ups: u32,
    /// Let discovered metadata point to private (not loopback) addresses.
    pub allow_private_addresses: bool,
    /// Machine-to-machine: with `Some(scopes)`, a 401 is answered with the
    /// `client_credentials` grant of the pre-registered client ([`Self::client_id`],
    /// [`Self::client_secret`]), with `resource`; no user, no UI.
    pub client_credentials_scopes: Option<Vec<String>>,
}

impl std::fmt::Debug for AuthConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthConfig")
            .field("client_name", &self.client_name)
            .field("client_metadata_url", &self.client_metadata_url)
            .field("client_id", &self.client_id)
            .field(
                "client_secret",
                &self.client_secret.as_ref().map(|_| "[redacted]"),
            )
            .field("max_step_ups", &self.max_step_ups)
            .field("allow_private_addresses", &self.allow_private_addresses)
            .field("client_credentials_scopes", &self.client_credentials_scopes)
            .finish()
    }
}

impl AuthConfig {
    /// Dynamic registration as `client_name`, two step-ups per request.
    ///
    /// ```
    /// let config = mcp_elicit_client::auth::AuthConfig::new("mcp-elicit")
    ///     .with_preregistered("client-1", Some("secret".into()));
    /// assert!(!format!("{config:?}").contains("secret\""));
    /// ```
    pub fn new(client_name: impl Into<String>) -> Self {
        Self {
            client_name: client_name.into(),
            client_metadata_url: None,
            client_id: None,
            client_secret: None,
            max_step_ups: 2,
            allow_private_addresses: false,
            client_credentials_scopes: None,
        }
    }

    /// Machine-to-machine sign-in: the `client_credentials` grant with this client,
    /// asking for `scopes` (may be empty).
    ///
    /// ```
    /// use mcp_elicit_client::auth::AuthConfig;
    ///
    /// let config = AuthConfig::new("batch-job").with_client_credentials("svc-1", "s3cret", vec!["tools".into()]);
    /// assert_eq!(config.client_id.as_deref(), Some("svc-1"));
    /// assert_eq!(config.client_credentials_scopes, Some(vec!["tools".to_string()]));
    /// assert!(!format!("{config:?}").contains("s3cret")); // the secret is redacted
    /// ```
    pub fn with_client_credentials(
        mut self,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
        scopes: Vec<String>,
    ) -> Self {
        self.client_id = Some(client_id.into());
        self.client_secret = Some(client_secret.into());
        self.client_credentials_scopes = Some(scopes);
        self
    }

    /// Sets the Client ID Metadata Document URL.
    ///
    /// ```
    /// use mcp_elicit_client::auth::AuthConfig;
    ///
    /// let config = AuthConfig::new("my-host").with_client_metadata_url("https://my-host.example/client.json");
    /// assert_eq!(config.client_metadata_url.as_deref(), Some("https://my-host.example/client.json"));
    /// ```
    pub fn with_client_metadata_url(mut self, url: impl Into<String>) -> Self {
        self.client_metadata_url = Some(url.into());
        self
    }

    /// Uses a pre-registered client (tried before any registration).
    ///
    /// ```
    /// use mcp_elicit_client::auth::AuthConfig;
    ///
    /// let public_client = AuthConfig::new("my-host").with_preregistered("client-1", None);
    /// assert_eq!(public_client.client_id.as_deref(), Some("client-1"));
    /// assert!(public_client.client_secret.is_none());
    /// ```
    pub fn with_preregistered(
        mut self,
        client_id: impl Into<String>,
        secret: Option<String>,
    ) -> Self {
        self.client_id = Some(client_id.into());
        self.client_secret = secret;
        self
    }

    /// Sets the step-up limit per request (default 2); one more 403 `insufficient_scope`
    /// fails with [`AuthErrorKind::StepUpLimit`].
    ///
    /// ```
    /// use mcp_elicit_client::auth::AuthConfig;
    ///
    /// assert_eq!(AuthConfig::new("my-host").max_step_ups, 2);
    /// assert_eq!(AuthConfig::new("my-host").with_max_step_ups(0).max_step_ups, 0);
    /// ```
    pub fn with_max_step_ups(mut self, n: u32) -> Self {
        self.max_step_ups = n;
        self
    }

    /// Allows discovered metadata on private addresses (default: refused).
    ///
    /// ```
    /// use mcp_elicit_client::auth::AuthConfig;
    ///
    /// assert!(!AuthConfig::new("my-host").allow_private_addresses);
    /// assert!(AuthConfig::new("my-host").with_private_addresses(true).allow_private_addresses);
    /// ```
    pub fn with_private_addresses(mut self, allow: bool) -> Self {
        self.allow_private_addresses = allow;
        self
    }
}
