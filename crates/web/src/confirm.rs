//! `POST /connect/confirm`: the confirmation page's Confirm and Cancel buttons. Both
//! complete the elicitation; the answer is recorded server-side for the tool
//! ([`Web::confirmation`]).

use axum::Form;
use axum::extract::State;
use axum::extract::rejection::FormRejection;
use axum::response::Response;
use http::{HeaderMap, StatusCode};
use serde::Deserialize;

use crate::connect::done;
use crate::pages;
use crate::purpose::{ConfirmOutcome, Purpose};
use crate::web::Web;

#[derive(Deserialize)]
pub(crate) struct ConfirmForm {
    #[serde(rename = "elicitationId", default)]
    elicitation_id: String,
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    decision: String,
}

/// `POST /connect/confirm`.
pub(crate) async fn submit(
    State(web): State<Web>,
    headers: HeaderMap,
    form: Result<Form<ConfirmForm>, FormRejection>,
) -> Response {
    let Ok(Form(form)) = form else {
        return pages::message(
            StatusCode::BAD_REQUEST,
            "Bad request",
            "The form was malformed.",
        );
    };
    let outcome = match form.decision.as_str() {
        "confirm" => ConfirmOutcome::Confirmed,
        "cancel" => ConfirmOutcome::Cancelled,
        _ => {
            return pages::message(
                StatusCode::BAD_REQUEST,
                "Bad request",
                "Choose Confirm or Cancel.",
            );
        }
    };
    let flow = match web
        .load_post(&headers, &form.elicitation_id, &form.csrf)
        .await
    {
        Ok(f) => f,
        Err(r) => return r,
    };
    if !matches!(flow.entry.purpose, Purpose::Confirm { .. }) {
        return crate::connect::not_found();
    }
    // Recorded before completing, so the tool woken by the completion notification finds
    // it; a concurrent second click finds it taken and changes nothing.
    match web
        .record_confirmation(&flow.session.principal, &flow.pending.id, outcome)
        .await
    {
        Ok(true) => {}
        Ok(false) => return crate::connect::not_found(),
        Err(e) => {
            tracing::warn!(error = %e, elicitation_id = %flow.pending.id, "recording a confirmation failed");
            return pages::message(
                StatusCode::SERVICE_UNAVAILABLE,
                "Try again",
                "The server could not record your answer. Nothing happened.",
            );
        }
    }
    match web.finish(&flow).await {
        Ok(()) => done(match outcome {
            ConfirmOutcome::Confirmed => "Confirmed.",
            _ => "Cancelled: nothing will happen.",
        }),
        Err(r) => {
            // Not completed (raced with expiry or another click): no outcome either.
            if let Err(e) = web
                .purposes()
                .forget_outcome(&flow.session.principal, &flow.pending.id)
                .await
            {
                tracing::warn!(error = %e, elicitation_id = %flow.pending.id, "clearing an answer that did not take effect failed");
            }
            r
        }
    }
}
