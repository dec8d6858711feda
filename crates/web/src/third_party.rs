//! The server as OAuth client of a third-party provider (the specification's "URL Mode
//! Elicitation for OAuth Flows"): authorization code + PKCE S256, a one-time `state`
//! bound to the elicitation, the user and an expiry (kept by the vault), the exact
//! redirect URI `/oauth/callback`; tokens stored encrypted for the user and refreshed by
//! [`Web::access_token_for`]. Tokens never reach the MCP client, and the MCP client's own
//! bearer token is never sent to the provider.

use std::time::{Duration, SystemTime};

use axum::Form;
use axum::extract::rejection::{FormRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use http::{HeaderMap, StatusCode};
use mcp_elicit_server::Principal;
use mcp_elicit_store::{Error as StoreError, OAuthTokens};
use oauth2::{
    AuthorizationCode, CsrfToken, PkceCodeChallenge, PkceCodeVerifier, RefreshToken,
    RequestTokenError, Scope, TokenResponse,
};
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;

use crate::config::ProviderConfig;
use crate::connect::{done, not_found};
use crate::error::WebError;
use crate::pages;
use crate::purpose::Purpose;
use crate::web::{IdTokenField, OAuthClient, Web};

/// Access tokens closer than this to expiry are refreshed first.
const REFRESH_MARGIN: Duration = Duration::from_secs(30);

/// A configured provider and its OAuth client.
pub(crate) struct Provider {
    pub(crate) config: ProviderConfig,
    client: OAuthClient,
    /// The issuer, when known from discovery (checked against RFC 9207 `iss`).
    issuer: Option<String>,
    /// The issuer advertises `authorization_response_iss_parameter_supported`: a
    /// response without `iss` is refused.
    iss_required: bool,
}

impl Provider {
    /// The origin of the authorization endpoint (where the browser is sent).
    pub(crate) fn origin(&self) -> String {
        self.client.auth_uri().url().origin().ascii_serialization()
    }

    pub(crate) fn new(config: ProviderConfig, client: OAuthClient) -> Self {
        let issuer = match &config.endpoints {
            crate::config::ProviderEndpoints::Discover { issuer } => Some(issuer.clone()),
            _ => None,
        };
        Self {
            config,
            client,
            issuer,
            iss_required: false,
        }
    }

    /// Whether responses must carry `iss` (the provider's metadata says it sends it).
    pub(crate) fn with_iss_required(mut self, required: bool) -> Self {
        self.iss_required = required;
        self
    }
}

/// RFC 9207: whether an authorization response's `iss` is acceptable for an issuer
/// `expected` (unknown for providers configured by endpoints) that sends `iss` when
/// `required`. Checked before the one-time `state` is taken, so a forged response
/// (another issuer, or `iss` stripped) cannot burn the user's state.
pub(crate) fn iss_acceptable(got: Option<&str>, expected: Option<&str>, required: bool) -> bool {
    match (got, expected) {
        (Some(got), Some(expected)) => got == expected,
        (None, _) => !required,
        (Some(_), None) => true,
    }
}

/// The `state` sent to a provider: the provider's name, `~`, the stored one-time state
/// (so the provider, and its issuer, are known before the state is taken).
fn outer_state(provider: &str, state: &str) -> String {
    format!("{provider}~{state}")
}

type TokenResult = oauth2::StandardTokenResponse<IdTokenField, oauth2::basic::BasicTokenType>;

/// A description of a token request failure without any token or code in it.
pub(crate) fn describe<E: std::error::Error>(
    e: &RequestTokenError<E, oauth2::basic::BasicErrorResponse>,
) -> String {
    match e {
        RequestTokenError::ServerResponse(r) => format!("the server answered {}", r.error()),
        RequestTokenError::Request(inner) => format!("request failed: {inner}"),
        RequestTokenError::Parse(_, _) => "the token response was malformed".into(),
        RequestTokenError::Other(m) => m.clone(),
    }
}

fn tokens_from(response: &TokenResult, previous_refresh: Option<&SecretString>) -> OAuthTokens {
    let mut tokens = OAuthTokens::bearer(SecretString::from(
        response.access_token().secret().to_owned(),
    ));
    tokens.refresh_token = response
        .refresh_token()
        .map(|r| SecretString::from(r.secret().to_owned()))
        .or_else(|| previous_refresh.cloned());
    tokens.expires_at = response
        .expires_in()
        .and_then(|d| SystemTime::now().checked_add(d));
    tokens.scopes = response
        .scopes()
        .map(|s| s.iter().map(|s| s.to_string()).collect())
        .unwrap_or_default();
    tokens
}

impl Web {
    /// A usable access token of `principal` at `provider`, refreshed first when it has
    /// expired (or is about to) and a refresh token exists. [`WebError::NotConnected`]
    /// when there are no tokens or they cannot be refreshed: send a URL mode elicitation
    /// with [`Purpose::OAuth`].
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use std::sync::Arc;
    /// use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
    /// use mcp_elicit_store::{Keyring, OAuthTokens, Store, VaultKey, VaultStore as _};
    /// use mcp_elicit_web::{ClientRegistration, ProviderConfig, ProviderEndpoints, Web, WebError};
    /// use secrecy::{ExposeSecret, SecretString};
    ///
    /// let user = Principal::local_user("ada");
    /// let db = Store::connect("sqlite::memory:").await?;
    /// let vault = db.vault(Keyring::new(VaultKey::generate()?));
    /// let example = ProviderConfig {
    ///     name: "example".into(),
    ///     display_name: "Example Co".into(),
    ///     endpoints: ProviderEndpoints::Explicit {
    ///         authorization: url::Url::parse("http://127.0.0.1:9000/authorize")?,
    ///         token: url::Url::parse("http://127.0.0.1:9000/token")?,
    ///     },
    ///     client: ClientRegistration::public("mcp"),
    ///     scopes: Vec::new(),
    ///     resource: None,
    /// };
    /// let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(user.clone())));
    /// let web = Web::local(
    ///     url::Url::parse("http://127.0.0.1:8391")?,
    ///     user.clone(),
    ///     vec![example],
    ///     hub,
    ///     Arc::new(vault.clone()),
    /// )
    /// .await?;
    ///
    /// let err = web.access_token_for(&user, "example").await.unwrap_err();
    /// assert!(matches!(err, WebError::NotConnected { ref provider } if provider == "example"));
    /// let err = web.access_token_for(&user, "other").await.unwrap_err();
    /// assert!(matches!(err, WebError::UnknownProvider(_)));
    ///
    /// // Once the OAuth page has stored tokens (here by hand; no expiry: no refresh).
    /// vault.put_tokens(&user, "example", &OAuthTokens::bearer(SecretString::from("at-1"))).await?;
    /// assert_eq!(web.access_token_for(&user, "example").await?.expose_secret(), "at-1");
    /// # Ok(())
    /// # }
    /// ```
    pub async fn access_token_for(
        &self,
        principal: &Principal,
        provider: &str,
    ) -> Result<SecretString, WebError> {
        let p = self
            .inner
            .providers
            .get(provider)
            .ok_or_else(|| WebError::UnknownProvider(provider.to_owned()))?;
        let not_connected = || WebError::NotConnected {
            provider: provider.to_owned(),
        };
        let tokens = self
            .inner
            .store
            .get_tokens(principal, provider)
            .await?
            .ok_or_else(not_connected)?;
        let fresh = tokens
            .expires_at
            .is_none_or(|at| at > SystemTime::now() + REFRESH_MARGIN);
        if fresh {
            return Ok(tokens.access_token);
        }
        let Some(refresh) = tokens.refresh_token.clone() else {
            return Err(not_connected());
        };
        let client = crate::outbound::OAuthHttp(self.inner.http.clone());
        let refresh_token = RefreshToken::new(refresh.expose_secret().to_owned());
        let mut request = p.client.exchange_refresh_token(&refresh_token);
        if let Some(resource) = &p.config.resource {
            request = request.add_extra_param("resource", resource.clone());
        }
        let response = match request.request_async(&client).await {
            Ok(r) => r,
            Err(RequestTokenError::ServerResponse(r)) => {
                tracing::info!(provider, error = %r.error(), "refresh refused; the user must connect again");
                return Err(not_connected());
            }
            Err(e) => {
                return Err(WebError::TokenRequest {
                    provider: provider.to_owned(),
                    message: describe(&e),
                });
            }
        };
        let renewed = tokens_from(&response, Some(&refresh));
        self.inner
            .store
            .put_tokens(principal, provider, &renewed)
            .await?;
        tracing::debug!(provider, user = %principal, "third-party token refreshed");
        Ok(renewed.access_token)
    }
}

#[derive(Deserialize)]
pub(crate) struct StartForm {
    #[serde(rename = "elicitationId", default)]
    elicitation_id: String,
    #[serde(default)]
    csrf: String,
}

/// `POST /connect/oauth`: records a one-time `state` and sends the browser to the
/// provider.
pub(crate) async fn start(
    State(web): State<Web>,
    headers: HeaderMap,
    form: Result<Form<StartForm>, FormRejection>,
) -> Response {
    let Ok(Form(form)) = form else {
        return pages::message(
            StatusCode::BAD_REQUEST,
            "Bad request",
            "The form was malformed.",
        );
    };
    let flow = match web
        .load_post(&headers, &form.elicitation_id, &form.csrf)
        .await
    {
        Ok(f) => f,
        Err(r) => return r,
    };
    let Purpose::OAuth { provider } = &flow.entry.purpose else {
        return not_found();
    };
    let Some(p) = web.inner.providers.get(provider) else {
        tracing::warn!(provider, "elicitation names an unconfigured provider");
        return not_found();
    };
    let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
    let verifier = SecretString::from(verifier.into_secret());
    let state = match web
        .inner
        .store
        .create_oauth_state(
            &flow.session.principal,
            &flow.pending.id,
            provider,
            &verifier,
            web.inner.config.state_ttl,
        )
        .await
    {
        Ok(s) => s,
        Err(e) => {
            tracing::warn!(error = %e, "recording an OAuth state failed");
            return pages::message(
                StatusCode::SERVICE_UNAVAILABLE,
                "Try again",
                "The server could not start the authorization.",
            );
        }
    };
    let state_value = outer_state(provider, state.expose_secret());
    let mut request = p
        .client
        .authorize_url(move || CsrfToken::new(state_value))
        .set_pkce_challenge(challenge);
    for scope in &p.config.scopes {
        request = request.add_scope(Scope::new(scope.clone()));
    }
    if let Some(resource) = &p.config.resource {
        request = request.add_extra_param("resource", resource.clone());
    }
    let (url, _) = request.url();
    tracing::info!(elicitation_id = %flow.pending.id, provider, "sending the browser to the provider");
    Redirect::to(url.as_str()).into_response()
}

#[derive(Deserialize)]
pub(crate) struct CallbackQuery {
    code: Option<String>,
    state: Option<String>,
    error: Option<String>,
    iss: Option<String>,
}

fn failed(status: StatusCode, text: &str) -> Response {
    pages::message(status, "Authorization not completed", text)
}

/// `GET /oauth/callback`: the provider's redirect back.
pub(crate) async fn callback(
    State(web): State<Web>,
    headers: HeaderMap,
    query: Result<Query<CallbackQuery>, QueryRejection>,
) -> Response {
    let Ok(Query(query)) = query else {
        return failed(
            StatusCode::BAD_REQUEST,
            "The response was malformed. Nothing was changed.",
        );
    };
    let Some(state) = query.state.filter(|s| !s.is_empty()) else {
        return failed(
            StatusCode::BAD_REQUEST,
            "The response had no state. Nothing was changed.",
        );
    };
    // The store unavailable just now: 503 with Retry-After, as the connect pages answer
    // (not "not signed in", which would send the user to sign in again).
    let session = match web.browser_session(&headers).await {
        Ok(Some(session)) => session,
        Ok(None) => {
            return failed(
                StatusCode::UNAUTHORIZED,
                "You are not signed in on this server. Open the link from your application again.",
            );
        }
        Err(unavailable) => return unavailable,
    };
    let principal = session.principal.clone();
    // RFC 9207, before the state is taken: a forged response must not burn it.
    let Some((named, state)) = state.rsplit_once('~') else {
        return failed(
            StatusCode::BAD_REQUEST,
            "This authorization is unknown. Nothing was changed.",
        );
    };
    let Some(named_provider) = web.inner.providers.get(named) else {
        return failed(
            StatusCode::BAD_REQUEST,
            "This authorization is unknown. Nothing was changed.",
        );
    };
    if !iss_acceptable(
        query.iss.as_deref(),
        named_provider.issuer.as_deref(),
        named_provider.iss_required,
    ) {
        tracing::warn!(
            provider = named,
            "authorization response from another issuer, or without iss, refused"
        );
        return failed(
            StatusCode::BAD_REQUEST,
            "The response came from another authorization server, or did not name it. Nothing was changed.",
        );
    }
    let record = match web.inner.store.take_oauth_state(&principal, state).await {
        Ok(r) => r,
        Err(StoreError::Expired(_)) => {
            return failed(
                StatusCode::BAD_REQUEST,
                "This authorization has expired. Nothing was changed.",
            );
        }
        Err(StoreError::NotFound(_)) => {
            tracing::warn!(user = %principal, "OAuth callback with an unknown, used or foreign state");
            return failed(
                StatusCode::BAD_REQUEST,
                "This authorization is unknown, was already used, or belongs to someone else. Nothing was changed.",
            );
        }
        Err(e) => {
            tracing::warn!(error = %e, "reading an OAuth state failed");
            return failed(
                StatusCode::SERVICE_UNAVAILABLE,
                "The server could not check this response.",
            );
        }
    };
    // The state must have been made for the provider its prefix names.
    if record.provider != named {
        tracing::warn!(provider = %record.provider, "OAuth state returned under another provider's name");
        return failed(
            StatusCode::BAD_REQUEST,
            "The response came from another authorization server. Nothing was changed.",
        );
    }
    if query.error.is_some() {
        return failed(
            StatusCode::BAD_REQUEST,
            "The provider did not grant access. Nothing was changed; you can start again from your application.",
        );
    }
    let Some(code) = query.code.filter(|c| !c.is_empty()) else {
        return failed(
            StatusCode::BAD_REQUEST,
            "The response had no code. Nothing was changed.",
        );
    };
    let flow = match web.load_flow(session, &record.elicitation_id).await {
        Ok(f) => f,
        Err(r) => return r,
    };
    if !matches!(&flow.entry.purpose, Purpose::OAuth { provider } if *provider == record.provider) {
        return not_found();
    }
    let Some(p) = web.inner.providers.get(&record.provider) else {
        return not_found();
    };
    let client = crate::outbound::OAuthHttp(web.inner.http.clone());
    let mut exchange = p
        .client
        .exchange_code(AuthorizationCode::new(code))
        .set_pkce_verifier(PkceCodeVerifier::new(
            record.pkce_verifier.expose_secret().to_owned(),
        ));
    if let Some(resource) = &p.config.resource {
        exchange = exchange.add_extra_param("resource", resource.clone());
    }
    let response = match exchange.request_async(&client).await {
        Ok(r) => r,
        Err(e) => {
            tracing::warn!(provider = %record.provider, error = %describe(&e), "code exchange failed");
            return failed(
                StatusCode::BAD_GATEWAY,
                "The provider did not accept the authorization. Nothing was changed.",
            );
        }
    };
    let tokens = tokens_from(&response, None);
    if let Err(e) = web
        .inner
        .store
        .put_tokens(&principal, &record.provider, &tokens)
        .await
    {
        tracing::warn!(error = %e, "storing third-party tokens failed");
        return failed(
            StatusCode::SERVICE_UNAVAILABLE,
            "The server could not store the authorization.",
        );
    }
    match web.finish(&flow).await {
        Ok(()) => done(&format!("{} is connected.", p.config.display_name)),
        Err(r) => r,
    }
}
