//! `GET /connect?elicitationId=...`: the page a URL mode elicitation points to.
//!
//! It requires a browser session (signing in first if there is none), and the signed-in
//! user must be the user the elicitation was created for (the specification's Phishing
//! rule). An unknown, expired or tampered id gets 404, another user's gets 403, and
//! neither changes anything. Then the page shows what the elicitation is for: a secret
//! form, a "continue to the provider" button, or Confirm / Cancel.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::response::Response;
use http::{HeaderMap, StatusCode};
use mcp_elicit_server::{ErrorKind, PendingElicitation};
use mcp_elicit_store::BrowserSession;
use secrecy::ExposeSecret;
use serde::Deserialize;

use crate::csrf;
use crate::pages::{self, escape, hidden, identity_box};
use crate::purpose::{Entry, Purpose};
use crate::web::Web;

/// The longest elicitation id accepted.
const MAX_ID: usize = 128;

/// Whether `id` looks like an elicitation id (URL-safe characters, bounded length).
pub(crate) fn plausible_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
}

pub(crate) fn not_found() -> Response {
    pages::message(
        StatusCode::NOT_FOUND,
        "Link not valid",
        "This link is unknown, has expired, or was already used. Nothing was changed. \
         Go back to your application and try again.",
    )
}

pub(crate) fn unavailable() -> Response {
    pages::message(
        StatusCode::SERVICE_UNAVAILABLE,
        "Try again",
        "The server could not reach its storage just now. Nothing was changed. \
         Try again in a few seconds.",
    )
}

fn wrong_user(session: &BrowserSession) -> Response {
    pages::page(
        StatusCode::FORBIDDEN,
        "This link is for another account",
        &format!(
            "<p>This request was created for a different user than the one signed in here \
             ({}). Nothing was changed.</p><p>If you did not expect this link, close this \
             page: someone may be trying to make you act on their behalf.</p>\
             <form method=\"post\" action=\"/logout\"><button type=\"submit\">Sign out</button></form>",
            escape(&session.principal.to_string())
        ),
    )
}

/// A flow that passed every check: the session, the purpose and the pending record.
pub(crate) struct Flow {
    pub(crate) session: BrowserSession,
    pub(crate) entry: Entry,
    pub(crate) pending: PendingElicitation,
}

impl Web {
    /// Checks that elicitation `id` can be worked on by `session`'s user.
    pub(crate) async fn load_flow(
        &self,
        session: BrowserSession,
        id: &str,
    ) -> Result<Flow, Response> {
        if !plausible_id(id) {
            return Err(not_found());
        }
        let entry = match self.purposes().get(id).await {
            Ok(Some(entry)) => entry,
            Ok(None) => return Err(not_found()),
            Err(e) => {
                tracing::warn!(error = %e, elicitation_id = id, "purpose lookup failed");
                return Err(unavailable());
            }
        };
        if entry.principal != session.principal {
            tracing::warn!(elicitation_id = id, user = %session.principal, "elicitation opened by another user; refused");
            return Err(wrong_user(&session));
        }
        match self.inner.hub.get(&session.principal, id).await {
            Ok(Some(pending)) => Ok(Flow {
                session,
                entry,
                pending,
            }),
            // Finished or expired: the flow stays until its own expiry, because a
            // confirmation's answer is read from it when the client retries.
            Ok(None) => Err(not_found()),
            Err(e) => {
                tracing::warn!(error = %e, elicitation_id = id, "elicitation lookup failed");
                Err(unavailable())
            }
        }
    }

    /// The checks of a form post: a session, our origin, the CSRF token, then the flow.
    pub(crate) async fn load_post(
        &self,
        headers: &HeaderMap,
        id: &str,
        csrf_token: &str,
    ) -> Result<Flow, Response> {
        let Some(session) = self.browser_session(headers).await? else {
            return Err(pages::message(
                StatusCode::UNAUTHORIZED,
                "Not signed in",
                "Your session has ended. Open the link from your application again.",
            ));
        };
        if !csrf::same_origin(headers, &self.inner.config.origin()) {
            tracing::warn!(elicitation_id = id, "cross-origin form post refused");
            return Err(forbidden());
        }
        if !csrf::token_ok(&session, csrf_token) {
            tracing::warn!(
                elicitation_id = id,
                "form post with a wrong CSRF token refused"
            );
            return Err(forbidden());
        }
        self.load_flow(session, id).await
    }

    /// Completes elicitation `id` (the hub notifies the originating client). Its
    /// purpose stays registered until it expires (the page answers 404 from now on,
    /// because the elicitation is no longer pending).
    pub(crate) async fn finish(&self, flow: &Flow) -> Result<(), Response> {
        let id = flow.pending.id.as_str();
        match self.inner.hub.complete(&flow.session.principal, id).await {
            Ok(done) => {
                tracing::info!(
                    elicitation_id = id,
                    notified = done.notified,
                    "elicitation completed from its page"
                );
                Ok(())
            }
            // Not refused: the store could not decide just now. Nothing was completed,
            // and the same post can succeed once the store is back.
            Err(e) if e.kind() == ErrorKind::StoreUnavailable => {
                tracing::warn!(elicitation_id = id, error = %e, "completion failed: store unavailable");
                Err(unavailable())
            }
            Err(e) => {
                tracing::info!(elicitation_id = id, error = %e, "completion refused");
                Err(not_found())
            }
        }
    }

    fn header_html(&self, flow: &Flow) -> String {
        format!(
            "{}<p>{}</p>",
            identity_box(
                &flow.session.principal.to_string(),
                &self.inner.config.resource_name
            ),
            escape(&flow.pending.message)
        )
    }
}

fn forbidden() -> Response {
    pages::message(
        StatusCode::FORBIDDEN,
        "Request refused",
        "This form was not sent from this site, or it has expired. Nothing was changed. \
         Reload the page and try again.",
    )
}

/// The "done" page.
pub(crate) fn done(text: &str) -> Response {
    pages::message(
        StatusCode::OK,
        "Done",
        &format!("{text} You can close this tab and return to your application."),
    )
}

#[derive(Debug, Deserialize)]
pub(crate) struct ConnectQuery {
    #[serde(rename = "elicitationId")]
    elicitation_id: Option<String>,
}

/// `GET /connect?elicitationId=...`.
pub(crate) async fn page(
    State(web): State<Web>,
    client: Option<axum::Extension<axum::extract::ConnectInfo<std::net::SocketAddr>>>,
    headers: HeaderMap,
    query: Result<Query<ConnectQuery>, QueryRejection>,
) -> Response {
    let Some(id) = query.ok().and_then(|Query(q)| q.elicitation_id) else {
        return pages::message(
            StatusCode::BAD_REQUEST,
            "Link not valid",
            "This link has no elicitationId.",
        );
    };
    if !plausible_id(&id) {
        return not_found();
    }
    let session = match web.browser_session(&headers).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let Some(session) = session else {
        // In local mode, only the link of a registered elicitation is not counted as an
        // anonymous sign-in of this client (the id is an unguessable capability, so
        // telling a known id from an unknown one leaks nothing).
        let from = match web.purposes().get(&id).await {
            Ok(Some(_)) => crate::login::SignInFrom::ConnectLink,
            Ok(None) => crate::login::SignInFrom::Anonymous,
            Err(e) => {
                tracing::warn!(error = %e, "purpose lookup failed");
                return unavailable();
            }
        };
        return web
            .sign_in(
                &format!("/connect?elicitationId={id}"),
                from,
                client.map(|c| c.0.0.ip()),
            )
            .await;
    };
    let flow = match web.load_flow(session, &id).await {
        Ok(f) => f,
        Err(r) => return r,
    };
    let top = web.header_html(&flow);
    let csrf = flow.session.csrf_token.expose_secret();
    let common = format!("{}{}", hidden("elicitationId", &id), hidden("csrf", csrf));
    let (title, body) = match &flow.entry.purpose {
        Purpose::Secret { label, .. } => (
            "Enter a secret",
            format!(
                "{top}<form method=\"post\" action=\"/connect/secret\">{common}\
                 <label for=\"secret\">{}</label>\
                 <input id=\"secret\" name=\"secret\" type=\"password\" autocomplete=\"off\" required>\
                 <p>It is stored encrypted on this server for your account only; it is never \
                 sent to your MCP client.</p><button type=\"submit\">Save</button></form>",
                escape(label)
            ),
        ),
        Purpose::OAuth { provider } => {
            let shown = web
                .inner
                .providers
                .get(provider)
                .map_or(provider.as_str(), |p| p.config.display_name.as_str());
            (
                "Connect an account",
                format!(
                    "{top}<p>You will be sent to <strong>{}</strong> to authorize this server. \
                     The tokens stay on this server and are never sent to your MCP client.</p>\
                     <form method=\"post\" action=\"/connect/oauth\">{common}\
                     <button type=\"submit\">Continue to {}</button></form>",
                    escape(shown),
                    escape(shown)
                ),
            )
        }
        Purpose::Confirm { summary } => (
            "Confirm",
            format!(
                "{top}<p><strong>{}</strong></p>\
                 <form method=\"post\" action=\"/connect/confirm\">{common}\
                 <button type=\"submit\" name=\"decision\" value=\"confirm\">Confirm</button>\
                 <button type=\"submit\" name=\"decision\" value=\"cancel\">Cancel</button></form>",
                escape(summary)
            ),
        ),
    };
    let mut response = pages::page(StatusCode::OK, title, &body);
    if let Purpose::OAuth { provider } = &flow.entry.purpose
        && let Some(origin) = web.inner.providers.get(provider).map(|p| p.origin())
    {
        // The form's POST answers with a redirect to the provider, and browsers apply
        // `form-action` to that redirect too: allow exactly the provider's origin.
        if let Ok(value) = http::HeaderValue::from_str(&pages::csp_with_form_target(&origin)) {
            response
                .headers_mut()
                .insert(http::header::CONTENT_SECURITY_POLICY, value);
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::plausible_id;

    #[test]
    fn only_url_safe_bounded_ids_are_looked_up() {
        assert!(plausible_id("3f2a9c0e-7b1d_4e5f.A9"));
        for bad in ["", "a b", "<script>", "a/b", "a?b", "%41", "\u{e9}"] {
            assert!(!plausible_id(bad), "{bad:?}");
        }
        assert!(plausible_id(&"a".repeat(128)));
        assert!(!plausible_id(&"a".repeat(129)));
    }
}
