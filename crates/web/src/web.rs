//! [`Web`]: the shared state of the web layer, built once per server, and its router.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use mcp_elicit_server::{Elicitations, Principal};
use mcp_elicit_store::{FlowStore, LoginStore, SessionStore, VaultStore};
use oauth2::basic::{
    BasicErrorResponse, BasicRevocationErrorResponse, BasicTokenIntrospectionResponse,
    BasicTokenType,
};
use oauth2::{
    AuthUrl, ClientId, ClientSecret, EndpointNotSet, EndpointSet, RedirectUrl,
    StandardRevocableToken, StandardTokenResponse, TokenUrl,
};
use secrecy::ExposeSecret;
use serde::{Deserialize, Serialize};
use url::Url;

use crate::config::{ClientRegistration, ProviderEndpoints, WebConfig};
use crate::error::WebError;
use crate::jwks::Jwks;
use crate::purpose::{ConfirmOutcome, Purpose, Purposes};
use crate::session_binding::SessionBindings;
use crate::third_party::Provider;
use crate::{confirm, connect, login, outbound, pages, resource_server, secret_page, third_party};

/// The largest request body the pages accept (forms are small).
///
/// ```
/// assert_eq!(mcp_elicit_web::BODY_LIMIT, 16 * 1024);
/// ```
pub const BODY_LIMIT: usize = 16 * 1024;

/// The store the web layer needs: the vault (secrets, tokens, OAuth `state`, the key
/// sealing sign-ins in progress into cookies), browser sessions, used sign-in `state`s
/// and the pages' purposes and answers. All of it is in
/// the database, so several server nodes can share it and a restart loses nothing.
/// [`mcp_elicit_store::Vault`] is one.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use std::sync::Arc;
/// use mcp_elicit_store::{Keyring, Store, VaultKey};
/// use mcp_elicit_store::FlowStore as _;
/// use mcp_elicit_web::WebStore;
///
/// let db = Store::connect("sqlite::memory:").await?;
/// let store: Arc<dyn WebStore> = Arc::new(db.vault(Keyring::new(VaultKey::generate()?)));
/// assert_eq!(store.sweep_flows(std::time::SystemTime::now()).await?, 0);
/// # Ok(())
/// # }
/// ```
pub trait WebStore: VaultStore + SessionStore + FlowStore + LoginStore {}
impl<T: VaultStore + SessionStore + FlowStore + LoginStore> WebStore for T {}

/// The token response fields beyond OAuth's: the OpenID Connect ID token.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct IdTokenField {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) id_token: Option<String>,
}
impl oauth2::ExtraTokenFields for IdTokenField {}

/// An OAuth client with authorization and token endpoints set.
pub(crate) type OAuthClient = oauth2::Client<
    BasicErrorResponse,
    StandardTokenResponse<IdTokenField, BasicTokenType>,
    BasicTokenIntrospectionResponse,
    StandardRevocableToken,
    BasicRevocationErrorResponse,
    EndpointSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointSet,
>;

pub(crate) fn oauth_client(
    registration: &ClientRegistration,
    authorization: &Url,
    token: &Url,
    redirect: String,
) -> Result<OAuthClient, WebError> {
    let redirect =
        RedirectUrl::new(redirect).map_err(|e| WebError::Config(format!("redirect URI: {e}")))?;
    let mut client = oauth2::Client::new(ClientId::new(registration.client_id.clone()))
        .set_auth_uri(AuthUrl::from_url(authorization.clone()))
        .set_token_uri(TokenUrl::from_url(token.clone()))
        .set_redirect_uri(redirect);
    if let Some(secret) = &registration.client_secret {
        client = client.set_client_secret(ClientSecret::new(secret.expose_secret().to_owned()));
    }
    Ok(client)
}

/// 256 random bits, URL-safe base64.
pub(crate) fn random_token() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

pub(crate) struct Inner {
    pub(crate) config: WebConfig,
    pub(crate) hub: Elicitations,
    pub(crate) store: Arc<dyn WebStore>,
    pub(crate) http: reqwest::Client,
    /// The issuer's keys; `None` in local mode.
    pub(crate) jwks: Option<Jwks>,
    /// The sign-in client at the issuer; `None` in local mode.
    pub(crate) login_client: Option<OAuthClient>,
    /// RFC 9207: the issuer advertises `iss` in authorization responses (required then).
    pub(crate) login_iss_required: bool,
    /// Local mode: the only user, signed in without an issuer (see [`Web::local`]).
    pub(crate) local_user: Option<Principal>,
    pub(crate) providers: HashMap<String, Provider>,
    pub(crate) sessions: SessionBindings,
    /// Anonymous sign-ins per client address (local mode).
    pub(crate) signins: crate::signin_limit::SignInLimiter,
    /// The keys sealing sign-ins in progress into cookies.
    pub(crate) login_keys: crate::login_cookie::CookieKeys,
}

/// The web layer of URL mode elicitation: resource server, sign-in and the pages.
/// Cheap to clone.
///
/// Built with [`Web::new`] (an authorization server) or [`Web::local`] (loopback, no
/// issuer). A local one over an in-memory SQLite store:
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use std::sync::Arc;
/// use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
/// use mcp_elicit_store::{Keyring, Store, VaultKey};
/// use mcp_elicit_web::Web;
///
/// let user = Principal::local_user("ada");
/// let db = Store::connect("sqlite::memory:").await?;
/// let vault = db.vault(Keyring::new(VaultKey::generate()?));
/// let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(user.clone())));
/// let web = Web::local(
///     url::Url::parse("http://127.0.0.1:8391")?,
///     user,
///     Vec::new(),
///     hub,
///     Arc::new(vault),
/// )
/// .await?;
/// assert!(web.is_local());
/// assert_eq!(web.config().issuer, mcp_elicit_server::LOCAL_ISSUER);
/// assert_eq!(web.connect_url("abc"), "http://127.0.0.1:8391/connect?elicitationId=abc");
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct Web {
    pub(crate) inner: Arc<Inner>,
}

impl fmt::Debug for Web {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Web")
            .field("issuer", &self.inner.config.issuer)
            .field("public_url", &self.inner.config.public_url.as_str())
            .finish_non_exhaustive()
    }
}

impl Web {
    /// Builds the web layer: checks `config`, discovers the issuer (and the providers
    /// configured by issuer) and loads the issuer's JWKS.
    ///
    /// `hub` is the server's [`Elicitations`] (the pages complete elicitations through
    /// it, which notifies the originating client); `store` holds secrets, tokens, OAuth
    /// `state` and browser sessions.
    ///
    /// It fails before serving anything when the configuration is unusable or the issuer
    /// cannot be discovered:
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::sync::Arc;
    /// # use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
    /// # use mcp_elicit_store::{Keyring, Store, VaultKey};
    /// # use mcp_elicit_web::Web;
    /// # let user = Principal::local_user("ada");
    /// # let db = Store::connect("sqlite::memory:").await?;
    /// # let store = Arc::new(db.vault(Keyring::new(VaultKey::generate()?)));
    /// # let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(user.clone())));
    /// # let web = Web::local(url::Url::parse("http://127.0.0.1:8391")?, user.clone(), Vec::new(), hub, store).await?;
    /// use mcp_elicit_web::{ClientRegistration, WebConfig, WebError};
    ///
    /// let config = |issuer: &str| -> Result<WebConfig, url::ParseError> {
    ///     Ok(WebConfig::new(issuer, url::Url::parse("http://127.0.0.1:8391")?, ClientRegistration::public("web")))
    /// };
    /// # let hub = || Elicitations::new(ElicitationConfig::new(IdentityPolicy::Authenticated));
    /// # let db = Store::connect("sqlite::memory:").await?;
    /// # let store = Arc::new(db.vault(Keyring::new(VaultKey::generate()?)));
    /// // Plain http outside loopback.
    /// let err = Web::new(config("http://auth.example.com")?, hub(), store.clone()).await.unwrap_err();
    /// assert!(matches!(err, WebError::Config(_)));
    /// // Nothing listens there: no discovery document.
    /// let err = Web::new(config("http://127.0.0.1:1")?, hub(), store).await.unwrap_err();
    /// assert!(matches!(err, WebError::Discovery { .. }), "{err}");
    /// # let _ = web;
    /// # Ok(())
    /// # }
    /// ```
    pub async fn new(
        config: WebConfig,
        hub: Elicitations,
        store: Arc<dyn WebStore>,
    ) -> Result<Web, WebError> {
        config.validate()?;
        let http = outbound::client()?;
        let meta = outbound::discover(&http, &config.issuer).await?;
        let Some(jwks_uri) = meta.jwks_uri.clone() else {
            return Err(WebError::Discovery {
                url: config.issuer.clone(),
                message: "the issuer publishes no jwks_uri".into(),
            });
        };
        let jwks = Jwks::load(http.clone(), jwks_uri.to_string(), config.jwks_min_refresh).await?;
        let base = config.base();
        let login_client = oauth_client(
            &config.login_client,
            &meta.authorization_endpoint,
            &meta.token_endpoint,
            format!("{base}/login/callback"),
        )?;
        let mut providers = HashMap::new();
        let mut iss_required = std::collections::HashSet::new();
        for p in &config.providers {
            let (authorization, token) = match &p.endpoints {
                ProviderEndpoints::Explicit {
                    authorization,
                    token,
                } => (authorization.clone(), token.clone()),
                ProviderEndpoints::Discover { issuer } => {
                    let m = outbound::discover(&http, issuer).await?;
                    iss_required.insert(p.name.clone());
                    if !m.authorization_response_iss_parameter_supported {
                        iss_required.remove(&p.name);
                    }
                    (m.authorization_endpoint, m.token_endpoint)
                }
            };
            let client = oauth_client(
                &p.client,
                &authorization,
                &token,
                format!("{base}/oauth/callback"),
            )?;
            let required = iss_required.contains(&p.name);
            providers.insert(
                p.name.clone(),
                Provider::new(p.clone(), client).with_iss_required(required),
            );
        }
        Ok(Web {
            inner: Arc::new(Inner {
                config,
                hub,
                store,
                http,
                jwks: Some(jwks),
                login_client: Some(login_client),
                login_iss_required: meta.authorization_response_iss_parameter_supported,
                local_user: None,
                providers,
                sessions: SessionBindings::default(),
                signins: Default::default(),
                login_keys: Default::default(),
            }),
        })
    }

    /// The web layer in **local mode**: no issuer, no bearer tokens; every browser that
    /// opens a page is signed in as `user`, the local OS user the server runs for.
    ///
    /// This is only sound because `public_url` must be a loopback URL (checked here) and
    /// the server must listen on loopback only: then only processes of this machine
    /// reach the pages. It is not a defence against other local processes (any of them
    /// can open a page); what protects an elicitation is its id, 128 random bits that
    /// only the MCP client it was sent to knows. CSRF tokens and the Origin check still
    /// keep other web sites from posting the forms. Do not use it on a shared machine
    /// whose other users you do not trust; configure an issuer instead ([`Web::new`]).
    ///
    /// Third-party providers in `providers` are discovered as in [`Web::new`].
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use std::sync::Arc;
    /// use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
    /// use mcp_elicit_store::{Keyring, Store, VaultKey};
    /// use mcp_elicit_web::{Web, WebError};
    ///
    /// let user = Principal::local_user("ada");
    /// let db = Store::connect("sqlite::memory:").await?;
    /// let store = Arc::new(db.vault(Keyring::new(VaultKey::generate()?)));
    /// let hub = || Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(user.clone())));
    /// let at = |public: &str| url::Url::parse(public);
    ///
    /// let err = Web::local(at("http://mcp.example.com")?, user.clone(), Vec::new(), hub(), store.clone())
    ///     .await
    ///     .unwrap_err();
    /// assert!(matches!(err, WebError::Config(m) if m.contains("loopback")));
    ///
    /// // The server's own TLS on loopback is fine too (cookies are then `Secure`).
    /// let web = Web::local(at("https://[::1]:8391")?, user.clone(), Vec::new(), hub(), store).await?;
    /// assert!(web.is_local() && web.config().secure_cookies());
    /// # Ok(())
    /// # }
    /// ```
    pub async fn local(
        public_url: Url,
        user: Principal,
        providers: Vec<crate::ProviderConfig>,
        hub: Elicitations,
        store: Arc<dyn WebStore>,
    ) -> Result<Web, WebError> {
        // https too: the server's own TLS on loopback (cookies are then `Secure`).
        if !crate::config::is_loopback(&public_url)
            || !matches!(public_url.scheme(), "http" | "https")
        {
            return Err(WebError::Config(format!(
                "local mode serves its pages on loopback (http or https) only, not {public_url}"
            )));
        }
        let mut config = WebConfig::new(
            mcp_elicit_server::LOCAL_ISSUER,
            public_url,
            ClientRegistration::public("local"),
        );
        config.providers = providers;
        let http = outbound::client()?;
        let base = config.base();
        let mut map = HashMap::new();
        let mut iss_required = std::collections::HashSet::new();
        for p in &config.providers {
            let (authorization, token) = match &p.endpoints {
                ProviderEndpoints::Explicit {
                    authorization,
                    token,
                } => (authorization.clone(), token.clone()),
                ProviderEndpoints::Discover { issuer } => {
                    let m = outbound::discover(&http, issuer).await?;
                    iss_required.insert(p.name.clone());
                    if !m.authorization_response_iss_parameter_supported {
                        iss_required.remove(&p.name);
                    }
                    (m.authorization_endpoint, m.token_endpoint)
                }
            };
            let client = oauth_client(
                &p.client,
                &authorization,
                &token,
                format!("{base}/oauth/callback"),
            )?;
            let required = iss_required.contains(&p.name);
            map.insert(
                p.name.clone(),
                Provider::new(p.clone(), client).with_iss_required(required),
            );
        }
        Ok(Web {
            inner: Arc::new(Inner {
                config,
                hub,
                store,
                http,
                jwks: None,
                login_client: None,
                login_iss_required: false,
                local_user: Some(user),
                providers: map,
                sessions: SessionBindings::default(),
                signins: Default::default(),
                login_keys: Default::default(),
            }),
        })
    }

    /// Whether this is the local mode ([`Web::local`]).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::sync::Arc;
    /// # use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
    /// # use mcp_elicit_store::{Keyring, Store, VaultKey};
    /// # use mcp_elicit_web::Web;
    /// # let user = Principal::local_user("ada");
    /// # let db = Store::connect("sqlite::memory:").await?;
    /// # let store = Arc::new(db.vault(Keyring::new(VaultKey::generate()?)));
    /// # let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(user.clone())));
    /// # let web = Web::local(url::Url::parse("http://127.0.0.1:8391")?, user.clone(), Vec::new(), hub, store).await?;
    /// assert!(web.is_local());
    /// # Ok(())
    /// # }
    /// ```
    pub fn is_local(&self) -> bool {
        self.inner.local_user.is_some()
    }

    /// The configuration.
    ///
    /// In local mode, the issuer is [`LOCAL_ISSUER`](mcp_elicit_server::LOCAL_ISSUER) and
    /// the rest are [`WebConfig::new`]'s defaults:
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::sync::Arc;
    /// # use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
    /// # use mcp_elicit_store::{Keyring, Store, VaultKey};
    /// # use mcp_elicit_web::Web;
    /// # let user = Principal::local_user("ada");
    /// # let db = Store::connect("sqlite::memory:").await?;
    /// # let store = Arc::new(db.vault(Keyring::new(VaultKey::generate()?)));
    /// # let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(user.clone())));
    /// # let web = Web::local(url::Url::parse("http://127.0.0.1:8391")?, user.clone(), Vec::new(), hub, store).await?;
    /// assert_eq!(web.config().issuer, mcp_elicit_server::LOCAL_ISSUER);
    /// assert_eq!(web.config().resource(), "http://127.0.0.1:8391/mcp");
    /// assert!(!web.config().secure_cookies());
    /// # Ok(())
    /// # }
    /// ```
    pub fn config(&self) -> &WebConfig {
        &self.inner.config
    }

    /// The routes of the web layer, to merge with the MCP service:
    ///
    /// - `GET /.well-known/oauth-protected-resource` and `.../{mcp path}`: RFC 9728
    ///   metadata;
    /// - `GET /login`, `GET /login/callback`, `POST /logout`: browser sign-in;
    /// - (not in local mode: no metadata, `/login` or callback: the connect page signs
    ///   the local user in itself);
    /// - `GET /connect?elicitationId=...`: the page a URL mode elicitation points to;
    /// - `POST /connect/secret`, `POST /connect/oauth`, `POST /connect/confirm`: its forms;
    /// - `GET /oauth/callback`: the third-party provider's redirect back.
    ///
    /// Every response carries the security headers; bodies are limited to
    /// [`BODY_LIMIT`] bytes. Protect the MCP route itself with [`Web::protect`].
    ///
    /// Requests go through it as through any axum router (here `tower::ServiceExt::oneshot`):
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::sync::Arc;
    /// # use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
    /// # use mcp_elicit_store::{Keyring, Store, VaultKey};
    /// # use mcp_elicit_web::Web;
    /// # let user = Principal::local_user("ada");
    /// # let db = Store::connect("sqlite::memory:").await?;
    /// # let store = Arc::new(db.vault(Keyring::new(VaultKey::generate()?)));
    /// # let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(user.clone())));
    /// # let web = Web::local(url::Url::parse("http://127.0.0.1:8391")?, user.clone(), Vec::new(), hub, store).await?;
    /// use axum::body::Body;
    /// use http::{Request, StatusCode, header};
    /// use tower::ServiceExt as _;
    ///
    /// let app = web.router();
    /// // A link without an id: refused, with the security headers.
    /// let response = app.clone().oneshot(Request::get("/connect").body(Body::empty())?).await?;
    /// assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    /// assert_eq!(response.headers()[header::X_FRAME_OPTIONS], "DENY");
    /// assert_eq!(response.headers()[header::CACHE_CONTROL], "no-store");
    /// assert!(response.headers().contains_key(header::CONTENT_SECURITY_POLICY));
    ///
    /// // Local mode signs the browser in as the local user at once and sends it back.
    /// let response = app.clone().oneshot(Request::get("/connect?elicitationId=abc").body(Body::empty())?).await?;
    /// assert_eq!(response.status(), StatusCode::SEE_OTHER);
    /// assert_eq!(response.headers()[header::LOCATION], "/connect?elicitationId=abc");
    /// let cookie = response.headers()[header::SET_COOKIE].to_str()?;
    /// assert!(cookie.starts_with("mcp-elicit-session=") && cookie.contains("HttpOnly"));
    ///
    /// // ... and has no authorization server routes.
    /// let response = app.oneshot(Request::get("/login").body(Body::empty())?).await?;
    /// assert_eq!(response.status(), StatusCode::NOT_FOUND);
    /// # Ok(())
    /// # }
    /// ```
    pub fn router(&self) -> Router {
        let prm_suffixed = format!(
            "/.well-known/oauth-protected-resource{}",
            self.inner.config.mcp_path
        );
        let mut router = Router::new();
        if !self.is_local() {
            // Local mode has no authorization server to advertise or return from.
            router = router
                .route(
                    "/.well-known/oauth-protected-resource",
                    get(resource_server::metadata),
                )
                .route(&prm_suffixed, get(resource_server::metadata))
                .route("/login", get(login::login))
                .route("/login/callback", get(login::callback));
        }
        router
            .route("/logout", post(login::logout))
            .route("/connect", get(connect::page))
            .route("/connect/secret", post(secret_page::submit))
            .route("/connect/oauth", post(third_party::start))
            .route("/connect/confirm", post(confirm::submit))
            .route("/oauth/callback", get(third_party::callback))
            .layer(axum::middleware::from_fn(pages::security_headers))
            .layer(DefaultBodyLimit::max(BODY_LIMIT))
            .with_state(self.clone())
    }

    /// Only the protected resource metadata (RFC 9728:
    /// `/.well-known/oauth-protected-resource` and its `/mcp`-suffixed form), for a
    /// server that is a resource server and nothing more (a gateway with no pages of its
    /// own); [`Web::router`] serves it with the pages. Local mode has none: an empty
    /// router.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::sync::Arc;
    /// # use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
    /// # use mcp_elicit_store::{Keyring, Store, VaultKey};
    /// # use mcp_elicit_web::Web;
    /// # let user = Principal::local_user("ada");
    /// # let db = Store::connect("sqlite::memory:").await?;
    /// # let store = Arc::new(db.vault(Keyring::new(VaultKey::generate()?)));
    /// # let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(user.clone())));
    /// # let web = Web::local(url::Url::parse("http://127.0.0.1:8391")?, user.clone(), Vec::new(), hub, store).await?;
    /// use axum::body::Body;
    /// use http::{Request, StatusCode};
    /// use tower::ServiceExt as _;
    ///
    /// // Local mode advertises no authorization server.
    /// let request = Request::get("/.well-known/oauth-protected-resource/mcp").body(Body::empty())?;
    /// let response = web.resource_metadata_router().oneshot(request).await?;
    /// assert_eq!(response.status(), StatusCode::NOT_FOUND);
    /// # Ok(())
    /// # }
    /// ```
    pub fn resource_metadata_router(&self) -> Router {
        if self.is_local() {
            return Router::new();
        }
        let prm_suffixed = format!(
            "/.well-known/oauth-protected-resource{}",
            self.inner.config.mcp_path
        );
        Router::new()
            .route(
                "/.well-known/oauth-protected-resource",
                get(resource_server::metadata),
            )
            .route(&prm_suffixed, get(resource_server::metadata))
            .with_state(self.clone())
    }

    /// Wraps `mcp` (the router serving the MCP endpoint) with bearer validation
    /// ([`require_bearer`](crate::require_bearer)): requests without a valid token get
    /// 401 with `WWW-Authenticate`, valid ones carry the user's [`Principal`].
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::sync::Arc;
    /// # use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
    /// # use mcp_elicit_store::{Keyring, Store, VaultKey};
    /// # use mcp_elicit_web::Web;
    /// # let user = Principal::local_user("ada");
    /// # let db = Store::connect("sqlite::memory:").await?;
    /// # let store = Arc::new(db.vault(Keyring::new(VaultKey::generate()?)));
    /// # let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(user.clone())));
    /// # let web = Web::local(url::Url::parse("http://127.0.0.1:8391")?, user.clone(), Vec::new(), hub, store).await?;
    /// use axum::body::Body;
    /// use axum::routing::post;
    /// use http::{Request, StatusCode};
    /// use tower::ServiceExt as _;
    ///
    /// let mcp = axum::Router::new().route("/mcp", post(|| async { "reached" }));
    /// let app = web.protect(mcp).merge(web.router());
    /// let request = Request::post("/mcp").header("authorization", "Bearer a.b.c").body(Body::empty())?;
    /// let response = app.oneshot(request).await?;
    /// assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    /// let challenge = response.headers()["www-authenticate"].to_str()?;
    /// assert!(challenge.starts_with("Bearer error=\"invalid_token\""), "{challenge}");
    /// # Ok(())
    /// # }
    /// ```
    pub fn protect(&self, mcp: Router) -> Router {
        mcp.layer(axum::middleware::from_fn_with_state(
            self.clone(),
            resource_server::require_bearer,
        ))
    }

    /// Records what the page of URL mode elicitation `id` (created for `principal`) is
    /// for, in the store. Call it before sending the elicitation; the page refuses ids
    /// without one.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::sync::Arc;
    /// # use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
    /// # use mcp_elicit_store::{Keyring, Store, VaultKey};
    /// # use mcp_elicit_web::Web;
    /// # let user = Principal::local_user("ada");
    /// # let db = Store::connect("sqlite::memory:").await?;
    /// # let store = Arc::new(db.vault(Keyring::new(VaultKey::generate()?)));
    /// # let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(user.clone())));
    /// # let web = Web::local(url::Url::parse("http://127.0.0.1:8391")?, user.clone(), Vec::new(), hub, store).await?;
    /// use mcp_elicit_web::Purpose;
    ///
    /// let purpose = Purpose::Secret { name: "example-api-key".into(), label: "Example Co API key".into() };
    /// web.register(&user, "e-1", purpose).await?;
    /// // No answer on a page that is not a confirmation.
    /// assert_eq!(web.confirmation(&user, "e-1").await?, None);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn register(
        &self,
        principal: &Principal,
        id: &str,
        purpose: Purpose,
    ) -> Result<(), WebError> {
        self.purposes().register(principal, id, &purpose).await
    }

    /// The answer `principal` gave on the confirmation page of elicitation `id`, once
    /// given (the elicitation is then completed).
    ///
    /// Only the user the page was registered for reads its answer:
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::sync::Arc;
    /// # use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
    /// # use mcp_elicit_store::{Keyring, Store, VaultKey};
    /// # use mcp_elicit_web::Web;
    /// # let user = Principal::local_user("ada");
    /// # let db = Store::connect("sqlite::memory:").await?;
    /// # let store = Arc::new(db.vault(Keyring::new(VaultKey::generate()?)));
    /// # let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(user.clone())));
    /// # let web = Web::local(url::Url::parse("http://127.0.0.1:8391")?, user.clone(), Vec::new(), hub, store).await?;
    /// use mcp_elicit_web::Purpose;
    ///
    /// web.register(&user, "e-1", Purpose::Confirm { summary: "Pay 5 EUR".into() }).await?;
    /// assert_eq!(web.confirmation(&user, "e-1").await?, None); // not answered yet
    /// assert_eq!(web.confirmation(&Principal::local_user("bob"), "e-1").await?, None);
    /// assert_eq!(web.confirmation(&user, "never-registered").await?, None);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn confirmation(
        &self,
        principal: &Principal,
        id: &str,
    ) -> Result<Option<ConfirmOutcome>, WebError> {
        self.purposes().outcome(principal, id).await
    }

    /// The registered pages and answers.
    pub(crate) fn purposes(&self) -> Purposes<'_> {
        Purposes {
            store: &*self.inner.store,
            url_ttl: self.inner.hub.config().url_ttl,
        }
    }

    /// Deletes expired OAuth `state` records, sign-ins, browser sessions and page
    /// purposes from the store; returns how many rows were removed. Call it periodically
    /// (e.g. with the elicitation sweep, every minute).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::sync::Arc;
    /// # use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
    /// # use mcp_elicit_store::{Keyring, Store, VaultKey};
    /// # use mcp_elicit_web::Web;
    /// # let user = Principal::local_user("ada");
    /// # let db = Store::connect("sqlite::memory:").await?;
    /// # let store = Arc::new(db.vault(Keyring::new(VaultKey::generate()?)));
    /// # let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(user.clone())));
    /// # let web = Web::local(url::Url::parse("http://127.0.0.1:8391")?, user.clone(), Vec::new(), hub, store).await?;
    /// use mcp_elicit_web::Purpose;
    ///
    /// web.register(&user, "e-1", Purpose::Confirm { summary: "Pay 5 EUR".into() }).await?;
    /// // Nothing has expired yet: nothing is removed.
    /// assert_eq!(web.sweep().await?, 0);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn sweep(&self) -> Result<u64, WebError> {
        let now = std::time::SystemTime::now();
        let store = &self.inner.store;
        let states = store.sweep_oauth_states(now).await?;
        let logins = store.sweep_login_states(now).await?;
        let sessions = store.sweep_browser_sessions(now).await?;
        let flows = store.sweep_flows(now).await?;
        Ok(states + logins + sessions + flows)
    }

    /// The URL of the page for elicitation `id` (what to put in the URL elicitation).
    ///
    /// The id is form-encoded:
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::sync::Arc;
    /// # use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
    /// # use mcp_elicit_store::{Keyring, Store, VaultKey};
    /// # use mcp_elicit_web::Web;
    /// # let user = Principal::local_user("ada");
    /// # let db = Store::connect("sqlite::memory:").await?;
    /// # let store = Arc::new(db.vault(Keyring::new(VaultKey::generate()?)));
    /// # let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(user.clone())));
    /// # let web = Web::local(url::Url::parse("http://127.0.0.1:8391")?, user.clone(), Vec::new(), hub, store).await?;
    /// assert_eq!(web.connect_url("abc"), "http://127.0.0.1:8391/connect?elicitationId=abc");
    /// assert_eq!(web.connect_url("a b&c"), "http://127.0.0.1:8391/connect?elicitationId=a+b%26c");
    /// # Ok(())
    /// # }
    /// ```
    pub fn connect_url(&self, id: &str) -> String {
        let mut url = format!("{}/connect", self.inner.config.base());
        url.push_str("?elicitationId=");
        url.extend(url::form_urlencoded::byte_serialize(id.as_bytes()));
        url
    }
}

/// Builds the web layer and returns its router ([`Web::new`] then [`Web::router`]), plus
/// the [`Web`] handle tools use ([`Web::register`], [`Web::access_token_for`],
/// [`Web::confirmation`]) and [`Web::protect`] for the MCP route.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use std::sync::Arc;
/// use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy};
/// use mcp_elicit_store::{Keyring, Store, VaultKey};
/// use mcp_elicit_web::{ClientRegistration, WebConfig, WebError};
///
/// let db = Store::connect("sqlite::memory:").await?;
/// let store = Arc::new(db.vault(Keyring::new(VaultKey::generate()?)));
/// let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::Authenticated));
/// // As Web::new: the issuer must be discoverable (nothing listens on port 1).
/// let config = WebConfig::new(
///     "http://127.0.0.1:1",
///     url::Url::parse("http://127.0.0.1:8391")?,
///     ClientRegistration::public("web"),
/// );
/// let err = mcp_elicit_web::router(config, hub, store).await.unwrap_err();
/// assert!(matches!(err, WebError::Discovery { .. }), "{err}");
/// # Ok(())
/// # }
/// ```
pub async fn router(
    config: WebConfig,
    hub: Elicitations,
    store: Arc<dyn WebStore>,
) -> Result<(Router, Web), WebError> {
    let web = Web::new(config, hub, store).await?;
    Ok((web.router(), web))
}

impl Web {
    /// Records the answer of a confirmation page (first answer wins; `false` if one was
    /// already recorded).
    pub(crate) async fn record_confirmation(
        &self,
        principal: &Principal,
        id: &str,
        outcome: ConfirmOutcome,
    ) -> Result<bool, WebError> {
        self.purposes().record(principal, id, outcome).await
    }
}
