//! Browser sign-in with OpenID Connect (authorization code + PKCE S256 + `nonce`) at the
//! MCP authorization server, so the pages know which user the browser belongs to and can
//! compare it with the user an elicitation was created for.
//!
//! The sign-in `state` is one-time and expires; it is also bound to the browser that
//! started the sign-in by a random cookie, so an attacker cannot sign a victim's browser
//! into the attacker's account (login CSRF).
//!
//! Sign-ins in progress are kept in the store until they finish or expire, so their
//! number is capped ([`WebConfig::max_pending_logins`](crate::WebConfig::max_pending_logins)).
//! Anonymous starts (`GET /login`, connect links of unknown ids) may fill only half of
//! it; the other half is left to sign-ins started from the connect link of a registered
//! elicitation, which only the MCP client that was given it knows ([`SignInFrom`]).

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use http::StatusCode;
use http::header::{self, HeaderMap};
use mcp_elicit_store::{Error as StoreError, LoginState};
use oauth2::{AuthorizationCode, CsrfToken, PkceCodeChallenge, PkceCodeVerifier, Scope};
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use subtle::ConstantTimeEq;

use crate::pages;
use crate::session;
use crate::web::{Web, random_token};

/// Where a sign-in was started from, which decides how much of
/// [`WebConfig::max_pending_logins`](crate::WebConfig::max_pending_logins) it may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SignInFrom {
    /// Anything anonymous (`GET /login`, a connect link whose id is not registered):
    /// only half of the cap, so such requests alone can never fill it.
    Anonymous,
    /// The connect link of a registered elicitation (an unguessable capability the
    /// MCP client was given): the whole cap.
    ConnectLink,
}

impl SignInFrom {
    /// The number of sign-ins in progress below which this one may start.
    fn cap(self, max: u64) -> u64 {
        match self {
            Self::Anonymous => max / 2,
            Self::ConnectLink => max,
        }
    }
}
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
    /// An anonymous sign-in from `client` over
    /// [`WebConfig::max_signins_per_client`](crate::WebConfig::max_signins_per_client)
    /// in the minute gets 429 with `Retry-After`, and nothing is stored.
    pub(crate) async fn sign_in(
        &self,
        return_to: &str,
        from: SignInFrom,
        client: Option<std::net::IpAddr>,
    ) -> Response {
        let inner = &self.inner;
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
        let Some(user) = &inner.local_user else {
            return self.start_login(return_to, from).await;
        };
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
    /// plus the binding cookie. `from` decides the share of the sign-ins in progress it
    /// may use ([`SignInFrom`]).
    pub(crate) async fn start_login(&self, return_to: &str, from: SignInFrom) -> Response {
        let inner = &self.inner;
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let (Ok(nonce), Ok(binding)) = (random_token(), random_token()) else {
            return pages::message(
                StatusCode::SERVICE_UNAVAILABLE,
                "Try again",
                "The server could not start a sign-in. Please try again.",
            );
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
        let login = LoginState {
            nonce: SecretString::from(nonce),
            pkce_verifier: SecretString::from(verifier.into_secret()),
            return_to: safe_return_to(return_to),
        };
        match inner
            .store
            .create_login_state(
                state.secret(),
                &binding,
                &login,
                inner.config.state_ttl,
                from.cap(inner.config.max_pending_logins),
            )
            .await
        {
            Ok(true) => {}
            Ok(false) => {
                tracing::warn!(?from, "sign-in refused: too many sign-ins in progress");
                return pages::message(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "Try again later",
                    "Too many sign-ins are in progress.",
                );
            }
            Err(e) => {
                tracing::warn!(error = %e, "storing a sign-in failed");
                return pages::message(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "Try again",
                    "The server could not start a sign-in. Please try again.",
                );
            }
        }
        let secure = inner.config.secure_cookies();
        let mut response = Redirect::to(url.as_str()).into_response();
        if let Some(c) = session::set(
            session::login_cookie(secure),
            &binding,
            inner.config.state_ttl,
            secure,
        ) {
            response.headers_mut().append(header::SET_COOKIE, c);
        }
        response
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
    // RFC 9207, before the one-time state is taken (a forged response must not burn
    // it): an `iss` naming another issuer is a mix-up attack, and a missing one is
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
    let taken = match inner.store.take_login_state(&state).await {
        Ok(t) => t,
        Err(StoreError::Expired(_)) => {
            return refused("This sign-in has expired. Please start again.");
        }
        Err(StoreError::NotFound(_)) => {
            return refused("This sign-in is unknown or was already used. Please start again.");
        }
        Err(e) => {
            tracing::warn!(error = %e, "reading a sign-in failed");
            return pages::message(
                StatusCode::SERVICE_UNAVAILABLE,
                "Try again",
                "The server could not finish the sign-in. Please start again.",
            );
        }
    };
    let binding = session::read(&headers, session::login_cookie(secure)).unwrap_or_default();
    if !taken.verify_binding(&binding) {
        tracing::info!("sign-in callback from a browser that did not start it");
        return refused("This sign-in was started in another browser. Please start again.");
    }
    let login = taken.login;
    if query.error.is_some() {
        return refused("The sign-in was refused at the authorization server.");
    }
    let Some(code) = query.code else {
        return refused("The sign-in response had no code.");
    };
    let client = crate::outbound::OAuthHttp(inner.http.clone());
    let Some(login_client) = &inner.login_client else {
        return refused("This server has no sign-in.");
    };
    let token = match login_client
        .exchange_code(AuthorizationCode::new(code))
        .set_pkce_verifier(PkceCodeVerifier::new(
            login.pkce_verifier.expose_secret().to_owned(),
        ))
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
        .ct_eq(login.nonce.expose_secret().as_bytes())
        .into();
    if !nonce_ok {
        return refused("The ID token does not belong to this sign-in.");
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
    let mut response = Redirect::to(&login.return_to).into_response();
    let h = response.headers_mut();
    if let Some(c) = session::set(
        session::session_cookie(secure),
        created.id.expose_secret(),
        inner.config.session_ttl,
        secure,
    ) {
        h.append(header::SET_COOKIE, c);
    }
    if let Some(c) = session::clear(session::login_cookie(secure), secure) {
        h.append(header::SET_COOKIE, c);
    }
    response
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
    use super::safe_return_to;

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
