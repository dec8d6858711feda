//! Browser sign-in with OpenID Connect (authorization code + PKCE S256 + `nonce`) at the
//! MCP authorization server, so the pages know which user the browser belongs to and can
//! compare it with the user an elicitation was created for.
//!
//! Nothing is kept on the server before the user has authenticated: the `nonce`, the
//! PKCE verifier, the page to return to and the expiry are sealed into a cookie of the
//! browser that started the sign-in, named after and bound to its `state`
//! ([`crate::login_cookie`]), so no number of anonymous `GET /login` (or connect links
//! of unknown ids) can keep anyone else from signing in. Only the browser holding that
//! cookie can finish the sign-in of a `state` (an attacker cannot sign a victim's browser
//! into the attacker's account: login CSRF), and only before it expires.
//!
//! The callback clears the cookie, and after the user has authenticated (code exchanged,
//! ID token and `nonce` verified) records the `state` as used in the store until it
//! would have expired, so the same callback is refused if replayed, on any node. That
//! record is written for authenticated users only.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use http::StatusCode;
use http::header::{self, HeaderMap};
use std::time::SystemTime;

use mcp_elicit_store::{Error as StoreError, LoginState};
use oauth2::{AuthorizationCode, CsrfToken, PkceCodeChallenge, PkceCodeVerifier, Scope};
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use subtle::ConstantTimeEq;

use crate::login_cookie::{self, SignIn};
use crate::pages;
use crate::session;
use crate::web::{Web, random_token};

/// Where a sign-in was started from. In local mode, where signing in creates a browser
/// session at once, anonymous ones count toward
/// [`WebConfig::max_signins_per_client`](crate::WebConfig::max_signins_per_client).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SignInFrom {
    /// Anything anonymous (`GET /login`, a connect link whose id is not registered).
    Anonymous,
    /// The connect link of a registered elicitation (an unguessable capability the
    /// MCP client was given): never counted.
    ConnectLink,
}

/// The value recorded for a used `state` (a used-state record has no browser binding
/// and no sealed sign-in worth keeping).
const USED: &str = "used";
/// The longest `return_to` kept.
const MAX_RETURN_TO: usize = 2048;

/// A local path to come back to after sign-in: starts with one `/`, no scheme-relative
/// `//` or `/\`, no control characters; anything else becomes `/`.
pub(crate) fn safe_return_to(path: &str) -> String {
    let ok = path.starts_with('/')
        && !path.starts_with("//")
        && !path.starts_with("/\\")
        && path.len() <= MAX_RETURN_TO
        && !path.chars().any(|c| c.is_control() || c == '\\');
    if ok { path.to_owned() } else { "/".to_owned() }
}

impl Web {
    /// Signs the browser in and returns it to `return_to`: at the issuer
    /// ([`Web::start_login`]), or in local mode directly as the local user (a new browser
    /// session; see [`Web::local`] for why that is acceptable on loopback only).
    ///
    /// In local mode, an anonymous sign-in from `client` over
    /// [`WebConfig::max_signins_per_client`](crate::WebConfig::max_signins_per_client)
    /// in the minute gets 429 with `Retry-After`, and nothing is stored. With an issuer
    /// nothing is stored before the user has authenticated, so nothing is limited.
    pub(crate) async fn sign_in(
        &self,
        return_to: &str,
        from: SignInFrom,
        client: Option<std::net::IpAddr>,
    ) -> Response {
        let inner = &self.inner;
        let Some(user) = &inner.local_user else {
            return self.start_login(return_to).await;
        };
        if from == SignInFrom::Anonymous
            && let Some(ip) = client
            && let Err(wait) = inner.signins.allow(ip, inner.config.max_signins_per_client)
        {
            tracing::debug!("sign-in refused: over max_signins_per_client");
            let mut response = pages::message(
                StatusCode::TOO_MANY_REQUESTS,
                "Try again later",
                &format!(
                    "Too many sign-ins from your address (over the server's max_signins_per_client \
                     limit of {} a minute). Try again in {wait} seconds.",
                    inner.config.max_signins_per_client
                ),
            );
            if let Ok(v) = header::HeaderValue::from_str(&wait.to_string()) {
                response.headers_mut().insert(header::RETRY_AFTER, v);
            }
            return response;
        }
        let created = match inner
            .store
            .create_browser_session(user, inner.config.session_ttl)
            .await
        {
            Ok(s) => s,
            Err(e) => {
                tracing::warn!(error = %e, "creating a browser session failed");
                return pages::message(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "Try again",
                    "The server could not start your session.",
                );
            }
        };
        let secure = inner.config.secure_cookies();
        let mut response = Redirect::to(&safe_return_to(return_to)).into_response();
        if let Some(c) = session::set(
            session::session_cookie(secure),
            created.id.expose_secret(),
            inner.config.session_ttl,
            secure,
        ) {
            response.headers_mut().append(header::SET_COOKIE, c);
        }
        response
    }

    /// Starts a sign-in that returns to `return_to`: a 303 to the authorization server
    /// plus the sealed sign-in cookie of its `state`. Nothing is stored.
    pub(crate) async fn start_login(&self, return_to: &str) -> Response {
        let inner = &self.inner;
        let unavailable = || {
            pages::message(
                StatusCode::SERVICE_UNAVAILABLE,
                "Try again",
                "The server could not start a sign-in. Please try again.",
            )
        };
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let Ok(nonce) = random_token() else {
            return unavailable();
        };
        let Some(login_client) = &inner.login_client else {
            return pages::message(
                StatusCode::SERVICE_UNAVAILABLE,
                "Try again",
                "This server has no sign-in.",
            );
        };
        let (url, state) = login_client
            .authorize_url(CsrfToken::new_random)
            .add_scope(Scope::new("openid".into()))
            .set_pkce_challenge(challenge)
            .add_extra_param("nonce", nonce.as_str())
            .url();
        let ttl = inner.config.state_ttl;
        let sign_in = SignIn {
            nonce,
            verifier: verifier.into_secret(),
            return_to: safe_return_to(return_to),
            expires: login_cookie::expiry(SystemTime::now(), ttl),
        };
        let value = match inner
            .login_keys
            .seal(&*inner.store, state.secret(), &sign_in)
            .await
        {
            Ok(v) => v,
            Err(e) => {
                tracing::warn!(?e, "sealing a sign-in failed");
                return unavailable();
            }
        };
        let secure = inner.config.secure_cookies();
        let mut response = Redirect::to(url.as_str()).into_response();
        if let Some(c) = session::set_at(
            &login_cookie::cookie_name(state.secret(), secure),
            &value,
            ttl,
            secure,
            &self.callback_cookie_path(),
        ) {
            response.headers_mut().append(header::SET_COOKIE, c);
        }
        response
    }

    /// The `Path` of sign-in cookies: the callback's path, except on https, where the
    /// `__Host-` prefix (which keeps a sibling domain from planting one) requires `/`.
    fn callback_cookie_path(&self) -> String {
        let config = &self.inner.config;
        if config.secure_cookies() {
            return "/".to_owned();
        }
        format!(
            "{}/login/callback",
            config.public_url.path().trim_end_matches('/')
        )
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct LoginQuery {
    return_to: Option<String>,
}

/// `GET /login?return_to=/path`: starts a sign-in.
pub(crate) async fn login(
    State(web): State<Web>,
    client: Option<axum::Extension<axum::extract::ConnectInfo<std::net::SocketAddr>>>,
    query: Result<Query<LoginQuery>, QueryRejection>,
) -> Response {
    let return_to = query
        .ok()
        .and_then(|Query(q)| q.return_to)
        .unwrap_or_else(|| "/".to_owned());
    let client = client.map(|c| c.0.0.ip());
    web.sign_in(&return_to, SignInFrom::Anonymous, client).await
}

#[derive(Debug, Deserialize)]
pub(crate) struct CallbackQuery {
    code: Option<String>,
    state: Option<String>,
    error: Option<String>,
    iss: Option<String>,
}

fn refused(text: &str) -> Response {
    pages::message(StatusCode::BAD_REQUEST, "Sign-in failed", text)
}

/// `GET /login/callback`: finishes a sign-in, creates the browser session.
pub(crate) async fn callback(
    State(web): State<Web>,
    headers: HeaderMap,
    query: Result<Query<CallbackQuery>, QueryRejection>,
) -> Response {
    let Ok(Query(query)) = query else {
        return refused("The sign-in response was malformed.");
    };
    let inner = &web.inner;
    let secure = inner.config.secure_cookies();
    let Some(state) = query.state else {
        return refused("The sign-in response had no state.");
    };
    // RFC 9207, before the sign-in cookie is cleared (a forged response must not burn
    // the sign-in): an `iss` naming another issuer is a mix-up attack, and a missing one is
    // refused when the issuer says it always sends it.
    if !crate::third_party::iss_acceptable(
        query.iss.as_deref(),
        Some(&inner.config.issuer),
        inner.login_iss_required,
    ) {
        tracing::warn!("sign-in response from another issuer, or without iss, refused");
        return refused(
            "The sign-in response came from another authorization server, or did not name it.",
        );
    }
    // The sealed sign-in of this `state`, from the browser that started it; cleared on
    // every answer from here on (used once, whatever the outcome).
    let name = login_cookie::cookie_name(&state, secure);
    let path = web.callback_cookie_path();
    let clear = |mut response: Response| {
        if let Some(c) = session::clear_at(&name, secure, &path) {
            response.headers_mut().append(header::SET_COOKIE, c);
        }
        response
    };
    let Some(value) = session::read(&headers, &name) else {
        tracing::info!("sign-in callback without its sign-in cookie");
        return refused(
            "This sign-in is unknown, expired or already used, or was started in another \
             browser. Please start again.",
        );
    };
    let login = match inner
        .login_keys
        .open(&*inner.store, &state, &value, SystemTime::now())
        .await
    {
        Ok(l) => l,
        Err(login_cookie::Refused::Expired) => {
            return clear(refused("This sign-in has expired. Please start again."));
        }
        Err(login_cookie::Refused::Invalid) => {
            tracing::info!("sign-in callback with a cookie this server did not seal for it");
            return clear(refused(
                "This sign-in is unknown, or was started in another browser. Please start again.",
            ));
        }
        Err(login_cookie::Refused::Unavailable) => {
            return pages::message(
                StatusCode::SERVICE_UNAVAILABLE,
                "Try again",
                "The server could not finish the sign-in. Please try again.",
            );
        }
    };
    clear(finish(&web, query.error.is_some(), query.code, &state, login).await)
}

/// The rest of the callback, once its sign-in cookie opened: the code exchange, the ID
/// token, the used-state record and the browser session.
async fn finish(
    web: &Web,
    error: bool,
    code: Option<String>,
    state: &str,
    login: SignIn,
) -> Response {
    let inner = &web.inner;
    let secure = inner.config.secure_cookies();
    if error {
        return refused("The sign-in was refused at the authorization server.");
    }
    let Some(code) = code else {
        return refused("The sign-in response had no code.");
    };
    let client = crate::outbound::OAuthHttp(inner.http.clone());
    let Some(login_client) = &inner.login_client else {
        return refused("This server has no sign-in.");
    };
    let token = match login_client
        .exchange_code(AuthorizationCode::new(code))
        .set_pkce_verifier(PkceCodeVerifier::new(login.verifier.clone()))
        .request_async(&client)
        .await
    {
        Ok(t) => t,
        Err(e) => {
            tracing::warn!(error = %crate::third_party::describe(&e), "sign-in code exchange failed");
            return refused("The authorization server did not accept the sign-in.");
        }
    };
    let Some(id_token) = token.extra_fields().id_token.as_deref() else {
        return refused("The authorization server returned no ID token.");
    };
    let claims = match web
        .verify_jwt(id_token, &inner.config.login_client.client_id)
        .await
    {
        Ok(c) => c,
        Err(e) => {
            tracing::warn!(reason = %e, "ID token refused");
            return refused("The ID token could not be verified.");
        }
    };
    let nonce_ok: bool = claims
        .nonce
        .as_deref()
        .unwrap_or("")
        .as_bytes()
        .ct_eq(login.nonce.as_bytes())
        .into();
    if !nonce_ok {
        return refused("The ID token does not belong to this sign-in.");
    }
    // Authenticated: record the `state` as used, so a replay of this callback is
    // refused on every node (even by an issuer that would take its code twice).
    match record_used(&*inner.store, state, inner.config.state_ttl).await {
        Ok(true) => {}
        Ok(false) => {
            tracing::info!("sign-in callback replayed");
            return refused("This sign-in was already used. Please start again.");
        }
        Err(e) => {
            tracing::warn!(error = %e, "recording a used sign-in failed");
            return pages::message(
                StatusCode::SERVICE_UNAVAILABLE,
                "Try again",
                "The server could not finish the sign-in. Please start again.",
            );
        }
    }
    let principal = mcp_elicit_server::Principal::authenticated(claims.iss, claims.sub);
    let created = match inner
        .store
        .create_browser_session(&principal, inner.config.session_ttl)
        .await
    {
        Ok(s) => s,
        Err(e) => {
            tracing::warn!(error = %e, "creating a browser session failed");
            return pages::message(
                StatusCode::SERVICE_UNAVAILABLE,
                "Try again",
                "The server could not start your session.",
            );
        }
    };
    tracing::info!(user = %principal, "browser signed in");
    let mut response = Redirect::to(&safe_return_to(&login.return_to)).into_response();
    if let Some(c) = session::set(
        session::session_cookie(secure),
        created.id.expose_secret(),
        inner.config.session_ttl,
        secure,
    ) {
        response.headers_mut().append(header::SET_COOKIE, c);
    }
    response
}

/// Records `state` as used for `ttl` (at least as long as its sign-in cookie lasts):
/// `Ok(true)` the first time, `Ok(false)` when it was recorded already (one insert
/// keyed by the `state`'s hash: of concurrent callers only one gets `true`). Only
/// called after the user has authenticated, so only authenticated users make rows.
async fn record_used(
    store: &dyn crate::web::WebStore,
    state: &str,
    ttl: std::time::Duration,
) -> Result<bool, StoreError> {
    let used = LoginState {
        nonce: SecretString::from(USED),
        pkce_verifier: SecretString::from(USED),
        return_to: "/".to_owned(),
    };
    match store
        .create_login_state(state, USED, &used, ttl, u64::MAX)
        .await
    {
        Ok(created) => Ok(created),
        // The key exists already (the only constraint of that insert).
        Err(StoreError::Database { .. }) => Ok(false),
        Err(e) => Err(e),
    }
}

/// `POST /logout`: ends the browser session (same-origin only).
pub(crate) async fn logout(State(web): State<Web>, headers: HeaderMap) -> Response {
    let secure = web.inner.config.secure_cookies();
    if !crate::csrf::same_origin(&headers, &web.inner.config.origin()) {
        return pages::message(
            StatusCode::FORBIDDEN,
            "Refused",
            "Cross-site request refused.",
        );
    }
    if let Some(raw) = session::read(&headers, session::session_cookie(secure))
        && let Err(e) = web.inner.store.delete_browser_session(&raw).await
    {
        tracing::warn!(error = %e, "deleting a browser session failed");
    }
    let mut response = pages::message(StatusCode::OK, "Signed out", "You are signed out.");
    if let Some(c) = session::clear(session::session_cookie(secure), secure) {
        response.headers_mut().append(header::SET_COOKIE, c);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::{record_used, safe_return_to};

    #[tokio::test]
    async fn a_state_is_recorded_as_used_once() {
        let store = mcp_elicit_store::Store::connect("sqlite::memory:")
            .await
            .expect("store");
        let key = mcp_elicit_store::VaultKey::generate().expect("key");
        let vault = store.vault(mcp_elicit_store::Keyring::new(key));
        let ttl = std::time::Duration::from_secs(600);
        assert_eq!(record_used(&vault, "s1", ttl).await, Ok(true));
        assert_eq!(record_used(&vault, "s1", ttl).await, Ok(false), "replay");
        assert_eq!(record_used(&vault, "s2", ttl).await, Ok(true));
    }

    #[test]
    fn return_to_stays_on_this_server() {
        assert_eq!(
            safe_return_to("/connect?elicitationId=a"),
            "/connect?elicitationId=a"
        );
        for bad in [
            "https://evil.example/",
            "//evil.example/",
            "/\\evil.example",
            "",
            "connect",
            "/a\nb",
        ] {
            assert_eq!(safe_return_to(bad), "/", "{bad:?}");
        }
    }
}
