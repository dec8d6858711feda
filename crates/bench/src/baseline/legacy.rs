//! The baseline on 2025-11-25: sessions, the standalone GET stream, and the elicitation
//! sent as an SSE event on the call's own stream, its result as the stream's second event.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use bytes::Bytes;
use futures::StreamExt;
use http_body_util::{BodyExt, StreamBody};
use hyper::StatusCode;
use hyper::body::Frame;
use hyper::header::HeaderValue;
use serde_json::{Value, json};
use tokio::sync::oneshot;

use super::{
    Body, Message, SESSION_HEADER, error_bytes, json_response, requested_schema, response_bytes,
    result_text, sse_event, sse_response, status, tool_message, tool_result,
};

/// The revision this module speaks.
const REVISION: &str = "2025-11-25";

/// Every open session, by id.
#[derive(Debug, Default)]
pub(crate) struct Sessions {
    next: AtomicU64,
    open: Mutex<HashMap<String, Session>>,
}

/// One session: the elicitations sent and not yet answered, by JSON-RPC id.
#[derive(Debug, Default)]
struct Session {
    pending: HashMap<u64, oneshot::Sender<Message>>,
}

impl Sessions {
    fn with<T>(&self, id: &str, f: impl FnOnce(&mut Session) -> T) -> Option<T> {
        let mut open = match self.open.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        };
        open.get_mut(id).map(f)
    }

    fn next_id(&self) -> u64 {
        self.next.fetch_add(1, Ordering::Relaxed)
    }
}

/// `initialize`: a new session, its id in the `Mcp-Session-Id` header.
pub(crate) fn initialize(sessions: &Sessions, message: &Message) -> Response {
    let Some(id) = &message.id else {
        return status(StatusCode::BAD_REQUEST);
    };
    let session_id = format!("bare-{:016x}", sessions.next_id());
    match sessions.open.lock() {
        Ok(mut g) => g.insert(session_id.clone(), Session::default()),
        Err(p) => p
            .into_inner()
            .insert(session_id.clone(), Session::default()),
    };
    let result = json!({
        "protocolVersion": REVISION,
        "capabilities": {"tools": {}},
        "serverInfo": {"name": "bare-hyper-baseline", "version": "0.1.0"}
    });
    let mut response = json_response(StatusCode::OK, response_bytes(id, result));
    if let Ok(value) = HeaderValue::from_str(&session_id) {
        response.headers_mut().insert(SESSION_HEADER, value);
    }
    response
}

type Response = hyper::Response<Body>;

/// The standalone GET stream: held open, nothing is ever sent on it.
pub(crate) fn standalone(sessions: &Sessions, session: Option<&str>) -> Response {
    match session.and_then(|id| sessions.with(id, |_| ())) {
        Some(()) => sse_response(BodyExt::boxed(StreamBody::new(futures::stream::pending()))),
        None => status(StatusCode::NOT_FOUND),
    }
}

/// DELETE: ends the session (its unanswered elicitations are dropped).
pub(crate) fn end(sessions: &Sessions, session: Option<&str>) -> Response {
    let removed = session.and_then(|id| match sessions.open.lock() {
        Ok(mut g) => g.remove(id),
        Err(p) => p.into_inner().remove(id),
    });
    match removed {
        Some(_) => status(StatusCode::OK),
        None => status(StatusCode::NOT_FOUND),
    }
}

/// A POST within session `session`: a notification, the client's reply to an
/// elicitation, `ping`, or `tools/call`.
pub(crate) fn post(sessions: &Sessions, session: &str, message: Message) -> Response {
    if sessions.with(session, |_| ()).is_none() {
        return status(StatusCode::NOT_FOUND);
    }
    let Some(id) = message.id.clone() else {
        // A notification (`notifications/initialized`, cancellations): accepted.
        return status(StatusCode::ACCEPTED);
    };
    let Some(method) = message.method.as_deref() else {
        // A response: the answer to one of our elicitations.
        let waiter = id
            .as_u64()
            .and_then(|n| sessions.with(session, |s| s.pending.remove(&n)).flatten());
        return match waiter {
            Some(tx) => {
                let _ = tx.send(message);
                status(StatusCode::ACCEPTED)
            }
            None => status(StatusCode::BAD_REQUEST),
        };
    };
    match method {
        "ping" => json_response(StatusCode::OK, response_bytes(&id, json!({}))),
        "tools/call" => call(sessions, session, &id, &message),
        _ => json_response(
            StatusCode::OK,
            error_bytes(Some(&id), -32601, "method not found"),
        ),
    }
}

/// `tools/call test_elicitation`: the SSE stream with `elicitation/create`, then the result.
fn call(sessions: &Sessions, session: &str, id: &Value, message: &Message) -> Response {
    let text = match tool_message(message.params.as_ref()) {
        Ok(t) => t,
        Err(e) => return json_response(StatusCode::OK, error_bytes(Some(id), -32602, &e)),
    };
    let elicitation_id = sessions.next_id();
    let (tx, rx) = oneshot::channel();
    if sessions
        .with(session, |s| s.pending.insert(elicitation_id, tx))
        .is_none()
    {
        return status(StatusCode::NOT_FOUND);
    }
    let request = json!({
        "jsonrpc": "2.0",
        "id": elicitation_id,
        "method": "elicitation/create",
        "params": {"mode": "form", "message": text, "requestedSchema": requested_schema()}
    });
    let first = sse_event(&serde_json::to_vec(&request).unwrap_or_default());
    let call_id = id.clone();
    let second = async move {
        let reply = match rx.await {
            Ok(reply) => reply,
            Err(_) => return Ok(Frame::data(Bytes::new())),
        };
        let body = match (&reply.result, &reply.error) {
            (Some(answer), None) => match result_text(answer) {
                Ok(text) => response_bytes(&call_id, tool_result(text, None)),
                Err(e) => error_bytes(Some(&call_id), -32602, &e),
            },
            _ => error_bytes(Some(&call_id), -32603, "the elicitation failed"),
        };
        Ok(Frame::data(sse_event(&body)))
    };
    let events = futures::stream::once(async move { Ok(Frame::data(first)) })
        .chain(futures::stream::once(second));
    sse_response(BodyExt::boxed(StreamBody::new(events)))
}
