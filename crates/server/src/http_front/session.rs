//! The front in sessions (2025-11-25 and the revisions before it): a session's
//! `tools/call`, and the client's answer to an `elicitation/create`, handed to the session
//! manager as rmcp's service hands them, after the same checks.
//!
//! rmcp's service, for a POST with a session id on a revision before 2026-07-28: the
//! `Accept` and `Content-Type` checks, the body read into its untagged message types,
//! the session looked up (404, or a restore, when it is not there), the version header
//! and the body's `_meta` compared, the HTTP parts put in a request's extensions; then a
//! request opens its stream (`create_stream`, answered as SSE) and anything else is
//! accepted into the session (`accept_message`, 202). The front takes only a body it is
//! sure rmcp reads the same way (`parse.rs`) in a session the manager has, so everything
//! else (another method, an unknown session, an error reply) keeps rmcp's answer.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::Request;
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::sse::Event;
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use rmcp::model::{ClientJsonRpcMessage, GetExtensions};
use rmcp::transport::streamable_http_server::session::{
    ServerSseMessage, SessionId, SessionManager,
};

use super::{HttpFront, one, parse};

/// The revisions whose POSTs rmcp serves in sessions (an absent header means 2025-03-26
/// to rmcp; the front leaves that case to it).
const SESSION_REVISIONS: [&str; 3] = ["2025-11-25", "2025-06-18", "2025-03-26"];

impl<S, M> HttpFront<S, M>
where
    S: rmcp::ServerHandler + Send + 'static,
    M: SessionManager,
{
    /// The session of a POST the front may take in a session: one session id, one
    /// version header naming a revision with sessions, and what [`Self::post_fits`]
    /// checks. None without a session manager.
    pub(super) fn session_post(&self, request: &Request) -> Option<SessionId> {
        self.sessions.as_ref()?;
        let h = request.headers();
        if !one(h, "mcp-protocol-version").is_some_and(|v| SESSION_REVISIONS.contains(&v))
            || !self.post_fits(request)
        {
            return None;
        }
        one(h, "mcp-session-id").map(SessionId::from)
    }

    /// A POST in session `id`: taken when its body is a `tools/call` or an answer to an
    /// `elicitation/create` and the session is there; otherwise passed to rmcp with the
    /// body read.
    pub(super) async fn answer_in_session(
        &self,
        sessions: &Arc<M>,
        id: SessionId,
        parts: Parts,
        bytes: Bytes,
    ) -> Response {
        let message = match parse::session_message(&bytes) {
            Some(message) if sessions.has_session(&id).await.unwrap_or(false) => message,
            _ => {
                tracing::trace!("http front: a session's message is left to rmcp");
                return self
                    .pass(Request::from_parts(parts, axum::body::Body::from(bytes)))
                    .await;
            }
        };
        #[cfg(test)]
        self.taken
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        match message {
            ClientJsonRpcMessage::Request(mut request) => {
                request.request.extensions_mut().insert(parts);
                match sessions
                    .create_stream(&id, ClientJsonRpcMessage::Request(request))
                    .await
                {
                    Ok(stream) => self.session_events(stream),
                    Err(e) => internal_error("get session", e),
                }
            }
            other => match sessions.accept_message(&id, other).await {
                Ok(()) => StatusCode::ACCEPTED.into_response(),
                Err(e) => internal_error("accept message", e),
            },
        }
    }

    /// A request's stream in a session as SSE, as rmcp writes it: each event with its
    /// id and retry, a priming event with empty data, keep-alives, ended with the server.
    fn session_events(
        &self,
        stream: impl futures::Stream<Item = ServerSseMessage> + Send + 'static,
    ) -> Response {
        self.sse_response(stream.map(|message| {
            let data = match &message.message {
                Some(m) => serde_json::to_string(m.as_ref()).unwrap_or_default(),
                None => String::new(),
            };
            let mut event = Event::default().data(data);
            if let Some(id) = message.event_id.as_deref().filter(|id| safe_id(id)) {
                event = event.id(id);
            }
            if let Some(retry) = message.retry {
                event = event.retry(retry);
            }
            event
        }))
    }
}

/// An event id axum writes (it refuses line breaks and NUL; the session manager's ids
/// never have them).
fn safe_id(id: &str) -> bool {
    !id.contains(['\n', '\r', '\0'])
}

/// rmcp's answer when the session manager fails.
fn internal_error(context: &str, error: impl std::fmt::Display) -> Response {
    tracing::error!("Internal server error when {context}: {error}");
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        format!("Encounter an error when {context}: {error}"),
    )
        .into_response()
}
