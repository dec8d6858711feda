//! The MCP server as an OAuth 2.1 resource server (MCP "Authorization", RFC 9728,
//! RFC 6750, RFC 8707): protected resource metadata, and a middleware that validates
//! bearer JWTs against the issuer's JWKS and hands the user to rmcp as a [`Principal`]
//! in the HTTP request's extensions.

use axum::Json;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::StatusCode;
use http::header::{self, HeaderValue};
use jsonwebtoken::errors::ErrorKind as JwtErrorKind;
use jsonwebtoken::{Validation, decode, decode_header};
use mcp_elicit_server::Principal;
use serde::Deserialize;

use crate::jwks::KeyLookup;
use crate::session_binding::{Binding, SESSION_HEADER};
use crate::web::Web;

/// The longest bearer token accepted (bytes).
const MAX_TOKEN: usize = 16 * 1024;

/// Why a bearer token was refused.
///
/// ```
/// use mcp_elicit_web::BearerError;
///
/// assert_eq!(BearerError::Missing.to_string(), "no bearer token");
/// assert_eq!(
///     BearerError::Invalid("the token has expired").to_string(),
///     "invalid token: the token has expired"
/// );
/// // 403 `insufficient_scope` rather than 401 (WebConfig::required_scopes).
/// assert_eq!(BearerError::InsufficientScope.to_string(), "the token lacks a required scope");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BearerError {
    /// No `Authorization: Bearer` header.
    #[error("no bearer token")]
    Missing,
    /// The token is malformed, badly signed, expired, for another audience or issuer.
    #[error("invalid token: {0}")]
    Invalid(&'static str),
    /// The token lacks a required scope.
    #[error("the token lacks a required scope")]
    InsufficientScope,
}

/// Claims read from a validated JWT.
#[derive(Debug, Deserialize)]
pub(crate) struct Claims {
    pub(crate) iss: String,
    #[serde(default)]
    pub(crate) sub: String,
    #[serde(default)]
    pub(crate) scope: Option<String>,
    #[serde(default)]
    pub(crate) nonce: Option<String>,
}

impl Web {
    /// Validates a JWT of the configured issuer for `audience`: algorithm in the allow
    /// list, signature by a JWKS key, `iss`, `aud`, `exp` and `nbf` (with leeway), `sub`.
    pub(crate) async fn verify_jwt(
        &self,
        token: &str,
        audience: &str,
    ) -> Result<Claims, BearerError> {
        let config = &self.inner.config;
        if token.len() > MAX_TOKEN {
            return Err(BearerError::Invalid("the token is too long"));
        }
        let header =
            decode_header(token).map_err(|_| BearerError::Invalid("the token is not a JWT"))?;
        if !config.algorithms.contains(&header.alg) {
            return Err(BearerError::Invalid(
                "the signature algorithm is not allowed",
            ));
        }
        let Some(jwks) = &self.inner.jwks else {
            return Err(BearerError::Invalid(
                "this server has no issuer (local mode)",
            ));
        };
        let key = jwks
            .key_for(header.kid.as_deref(), header.alg)
            .await
            .map_err(|e| match e {
                KeyLookup::Unknown => BearerError::Invalid("unknown signing key"),
                KeyLookup::WrongAlgorithm => {
                    BearerError::Invalid("the key does not match the algorithm")
                }
            })?;
        let mut validation = Validation::new(header.alg);
        validation.algorithms = vec![header.alg];
        validation.set_issuer(&[config.issuer.as_str()]);
        validation.set_audience(&[audience]);
        validation.leeway = config.leeway.as_secs();
        validation.validate_nbf = true;
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        let data = decode::<Claims>(token, &key, &validation).map_err(|e| {
            BearerError::Invalid(match e.kind() {
                JwtErrorKind::ExpiredSignature => "the token has expired",
                JwtErrorKind::ImmatureSignature => "the token is not valid yet",
                JwtErrorKind::InvalidAudience => "the token is for another audience",
                JwtErrorKind::InvalidIssuer => "the token is from another issuer",
                JwtErrorKind::InvalidSignature => "bad signature",
                JwtErrorKind::MissingRequiredClaim(_) => "a required claim is missing",
                JwtErrorKind::InvalidAlgorithm => "the key does not match the algorithm",
                _ => "the token cannot be validated",
            })
        })?;
        if data.claims.sub.is_empty() {
            return Err(BearerError::Invalid("a required claim is missing: sub"));
        }
        Ok(data.claims)
    }

    /// Validates an MCP bearer access token and returns its user.
    ///
    /// A web layer in local mode has no issuer, so it accepts no token:
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
    /// use mcp_elicit_web::BearerError;
    ///
    /// assert_eq!(
    ///     web.validate_bearer("a.b.c").await,
    ///     Err(BearerError::Invalid("the token is not a JWT"))
    /// );
    /// # Ok(())
    /// # }
    /// ```
    pub async fn validate_bearer(&self, token: &str) -> Result<Principal, BearerError> {
        let config = &self.inner.config;
        let claims = self.verify_jwt(token, &config.audience).await?;
        if !config.required_scopes.is_empty() {
            let granted: Vec<&str> = claims.scope.as_deref().unwrap_or("").split(' ').collect();
            if !config
                .required_scopes
                .iter()
                .all(|s| granted.contains(&s.as_str()))
            {
                return Err(BearerError::InsufficientScope);
            }
        }
        Ok(Principal::authenticated(claims.iss, claims.sub))
    }

    /// The `WWW-Authenticate` challenge for a refusal.
    fn challenge(&self, error: &BearerError) -> String {
        let config = &self.inner.config;
        let mut parts = Vec::new();
        match error {
            BearerError::Missing => {}
            BearerError::Invalid(why) => {
                parts.push("error=\"invalid_token\"".to_owned());
                parts.push(format!("error_description=\"{why}\""));
            }
            BearerError::InsufficientScope => {
                parts.push("error=\"insufficient_scope\"".to_owned());
            }
        }
        let scopes = if config.required_scopes.is_empty() {
            &config.scopes_supported
        } else {
            &config.required_scopes
        };
        if !scopes.is_empty() {
            parts.push(format!("scope=\"{}\"", scopes.join(" ")));
        }
        parts.push(format!(
            "resource_metadata=\"{}\"",
            config.resource_metadata_url()
        ));
        format!("Bearer {}", parts.join(", "))
    }

    /// The 401/403 answer for a refused request.
    pub(crate) fn refuse(&self, error: &BearerError) -> Response {
        let status = match error {
            BearerError::InsufficientScope => StatusCode::FORBIDDEN,
            _ => StatusCode::UNAUTHORIZED,
        };
        let body = serde_json::json!({
            "error": match error {
                BearerError::Missing => "unauthorized",
                BearerError::Invalid(_) => "invalid_token",
                BearerError::InsufficientScope => "insufficient_scope",
            },
            "error_description": error.to_string(),
        });
        let mut response = (status, Json(body)).into_response();
        if let Ok(value) = HeaderValue::from_str(&self.challenge(error)) {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, value);
        }
        response
    }
}

/// The bearer token of an `Authorization` header, if it has the `Bearer` scheme.
fn bearer(request: &Request) -> Option<&str> {
    let value = request
        .headers()
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?;
    let (scheme, token) = value.split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("bearer") {
        return None;
    }
    let token = token.trim();
    (!token.is_empty()).then_some(token)
}

/// Middleware for the MCP endpoint: refuses requests without a valid bearer token (401
/// with `WWW-Authenticate`), and inserts the token's [`Principal`] into the request
/// extensions, where rmcp passes it on to the handlers
/// ([`Principal::from_extensions`]). It also binds each `Mcp-Session-Id` the service
/// creates to that user and answers 404 to another user's requests on it, and removes
/// the `Authorization` header before the service sees the request.
///
/// [`Web::protect`] is this layer; by hand, a refused request:
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
/// use http::{Request, StatusCode, header};
/// use tower::ServiceExt as _;
///
/// let mcp = axum::Router::new().route("/mcp", post(|| async { "reached" }));
/// let app = mcp.layer(axum::middleware::from_fn_with_state(web.clone(), mcp_elicit_web::require_bearer));
/// let response = app.oneshot(Request::post("/mcp").body(Body::empty())?).await?;
/// assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
/// assert_eq!(
///     response.headers()[header::WWW_AUTHENTICATE],
///     "Bearer resource_metadata=\"http://127.0.0.1:8391/.well-known/oauth-protected-resource/mcp\""
/// );
/// # Ok(())
/// # }
/// ```
pub async fn require_bearer(State(web): State<Web>, mut request: Request, next: Next) -> Response {
    let Some(token) = bearer(&request) else {
        return web.refuse(&BearerError::Missing);
    };
    match web.validate_bearer(token).await {
        Ok(principal) => {
            let bindings = &web.inner.sessions;
            let session = request
                .headers()
                .get(SESSION_HEADER)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
            if let Some(id) = &session
                && bindings.check(id, &principal) == Binding::Other
            {
                tracing::warn!(user = %principal, "request with another user's MCP session refused");
                return (StatusCode::NOT_FOUND, "session not found").into_response();
            }
            let deleting = request.method() == http::Method::DELETE;
            // Whatever the client sent as identity is never trusted: the validated
            // principal replaces anything an outer layer might have put there.
            request.extensions_mut().insert(principal.clone());
            // The client's token is for this server only: remove it so no handler can
            // pass it on upstream (the specification forbids token passthrough).
            request.headers_mut().remove(header::AUTHORIZATION);
            let response = next.run(request).await;
            if let Some(created) = response
                .headers()
                .get(SESSION_HEADER)
                .and_then(|v| v.to_str().ok())
            {
                bindings.bind(created, &principal);
            }
            if deleting
                && response.status().is_success()
                && let Some(id) = &session
            {
                bindings.forget(id);
            }
            response
        }
        Err(e) => {
            tracing::info!(reason = %e, "bearer token refused");
            web.refuse(&e)
        }
    }
}

/// `GET /.well-known/oauth-protected-resource[/mcp]`: RFC 9728 metadata.
pub(crate) async fn metadata(State(web): State<Web>, request: Request) -> Response {
    let config = &web.inner.config;
    let suffixed = request.uri().path() != "/.well-known/oauth-protected-resource";
    let resource = if suffixed {
        config.resource()
    } else {
        config.base()
    };
    let mut body = serde_json::json!({
        "resource": resource,
        "authorization_servers": [config.issuer],
        "bearer_methods_supported": ["header"],
        "resource_name": config.resource_name,
    });
    if !config.scopes_supported.is_empty() {
        body["scopes_supported"] = serde_json::json!(config.scopes_supported);
    }
    let mut response = Json(body).into_response();
    response.headers_mut().insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    response
}
