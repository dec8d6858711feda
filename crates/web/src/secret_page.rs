//! `POST /connect/secret`: the secret entry form (API keys and the like). The secret is
//! stored encrypted in the vault for the signed-in user and never logged; then the
//! elicitation completes.

use axum::Form;
use axum::extract::State;
use axum::extract::rejection::FormRejection;
use axum::response::Response;
use http::{HeaderMap, StatusCode};
use secrecy::SecretString;
use serde::Deserialize;

use crate::connect::done;
use crate::pages;
use crate::purpose::Purpose;
use crate::web::Web;

/// The longest secret accepted (bytes).
const MAX_SECRET: usize = 8 * 1024;

#[derive(Deserialize)]
pub(crate) struct SecretForm {
    #[serde(rename = "elicitationId", default)]
    elicitation_id: String,
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    secret: String,
}

/// `POST /connect/secret`.
pub(crate) async fn submit(
    State(web): State<Web>,
    headers: HeaderMap,
    form: Result<Form<SecretForm>, FormRejection>,
) -> Response {
    let Ok(Form(form)) = form else {
        return pages::message(
            StatusCode::BAD_REQUEST,
            "Bad request",
            "The form was malformed.",
        );
    };
    let secret = SecretString::from(form.secret);
    let flow = match web
        .load_post(&headers, &form.elicitation_id, &form.csrf)
        .await
    {
        Ok(f) => f,
        Err(r) => return r,
    };
    let Purpose::Secret { name, .. } = &flow.entry.purpose else {
        return crate::connect::not_found();
    };
    let len = secrecy::ExposeSecret::expose_secret(&secret).len();
    if len == 0 || len > MAX_SECRET {
        return pages::message(
            StatusCode::BAD_REQUEST,
            "Not saved",
            &format!("The value must have 1 to {MAX_SECRET} bytes. Nothing was saved."),
        );
    }
    if let Err(e) = web
        .inner
        .store
        .put_secret(&flow.session.principal, name, &secret)
        .await
    {
        tracing::warn!(error = %e, elicitation_id = %flow.pending.id, "storing a secret failed");
        return pages::message(
            StatusCode::SERVICE_UNAVAILABLE,
            "Not saved",
            "The server could not store the value. Nothing was saved.",
        );
    }
    match web.finish(&flow).await {
        Ok(()) => done("Saved."),
        Err(r) => r,
    }
}
