//! [`CapturingReqwest`]: rmcp's reqwest client, keeping the raw JSON body of the answers
//! to `tools/call`, `prompts/get` and `resources/read`.
//!
//! On 2026-07-28 those requests may be answered with an `InputRequiredResult`, often as a
//! plain `application/json` body (the Python SDK answers that way whenever the handler is
//! fast). rmcp parses such a body into its typed model, which drops what it does not know
//! (`pattern`, and every keyword a tolerant reading of a form needs) and turns a malformed
//! result into something else. For those three methods this client sends the POST itself,
//! shows the body to [`RawRequests`] and parses it the same way rmcp does; SSE bodies are
//! handed on as streams (the [`TappedHttpClient`](super::http::TappedHttpClient) around
//! it sees their events). One-way messages (replies to the server, notifications) are sent
//! by this client too, so that one refused before it was read (`503`, `429`, a connection
//! refused or closed) is sent again after the server's `Retry-After`, at most four more
//! times and 30 s in all: rmcp's client dropped it, and the server waited for ever (for
//! an answer the user had given, or for `notifications/initialized`). Every other
//! message goes through rmcp's own client unchanged.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use futures::StreamExt;
use futures::stream::BoxStream;
use http::{HeaderName, HeaderValue};
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_client::{
    AuthRequiredError, InsufficientScopeError, SseError, StreamableHttpClient, StreamableHttpError,
    StreamableHttpPostResponse, StreamableHttpResponseLimits,
};
use sse_stream::{Sse, SseStream};

use crate::raw::RawRequests;
use crate::transport::refused;

const SESSION_HEADER: &str = "mcp-session-id";

/// The methods whose answers may be `InputRequiredResult`s.
fn may_require_input(message: &ClientJsonRpcMessage) -> bool {
    let ClientJsonRpcMessage::Request(request) = message else {
        return false;
    };
    matches!(
        request.request.method(),
        "tools/call" | "prompts/get" | "resources/read"
    )
}

/// rmcp's reqwest client with raw capture of the answers that may require input: the
/// innermost layer of [`HttpStack`](super::http::HttpStack).
///
/// ```
/// use mcp_elicit_client::RawRequests;
/// use mcp_elicit_client::transport::capture::CapturingReqwest;
///
/// let raw = RawRequests::default();
/// // A JSON answer to `tools/call` with `"resultType": "input_required"` ends up in `raw`
/// // (`RawRequests::take_result`), as the SSE events do through `TappedHttpClient`.
/// let client = CapturingReqwest::new(reqwest::Client::default(), raw.clone());
/// # let _ = client;
/// assert!(raw.is_empty());
/// ```
#[derive(Debug, Clone, Default)]
pub struct CapturingReqwest {
    inner: reqwest::Client,
    raw: RawRequests,
}

impl CapturingReqwest {
    /// Wraps `inner`; raw results go to `raw` (see [`CapturingReqwest`]).
    pub fn new(inner: reqwest::Client, raw: RawRequests) -> Self {
        Self { inner, raw }
    }

    /// One POST of `body` (the message, serialised once) with the transport's headers.
    async fn send(
        &self,
        uri: &str,
        body: &[u8],
        session_id: Option<&str>,
        auth_header: Option<&str>,
        custom_headers: &HashMap<HeaderName, HeaderValue>,
    ) -> Result<reqwest::Response, reqwest::Error> {
        let mut request = self
            .inner
            .post(uri)
            .header(http::header::ACCEPT, "text/event-stream, application/json")
            .header(http::header::CONTENT_TYPE, "application/json");
        if let Some(token) = auth_header {
            request = request.bearer_auth(token);
        }
        for (name, value) in custom_headers {
            request = request.header(name, value);
        }
        if let Some(session) = session_id {
            request = request.header(SESSION_HEADER, session);
        }
        request.body(body.to_vec()).send().await
    }

    /// POSTs `message` and reads the answer; a one-way message (a reply to the server or a
    /// notification) refused before it was read (503, 429, the connection refused or
    /// closed) is sent again as [`refused`](super::refused) allows, so that an answer the
    /// user gave is not lost to a busy server.
    async fn post_capturing(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<reqwest::Error>> {
        let body = serde_json::to_vec(&message).map_err(|e| {
            StreamableHttpError::UnexpectedServerResponse(Cow::Owned(format!(
                "the message cannot be serialised: {e}"
            )))
        })?;
        let retried = refused::is_one_way(&message);
        let mut retries = refused::Retries::default();
        let response = loop {
            let sent = self
                .send(
                    &uri,
                    &body,
                    session_id.as_deref(),
                    auth_header.as_deref(),
                    &custom_headers,
                )
                .await;
            let pause = match &sent {
                Ok(r) if retried => refused::pause_for(r.status(), r.headers()),
                // Not delivered, or not known to be: a reply can be sent again (a
                // second copy of one that did arrive is ignored by the server).
                Err(_) if retried => Some(None),
                _ => None,
            };
            match pause.and_then(|p| retries.next(p)) {
                Some(wait) => {
                    tracing::debug!(
                        ?wait,
                        "the server refused a reply before reading it; sending it again"
                    );
                    tokio::time::sleep(wait).await;
                }
                None => break sent.map_err(StreamableHttpError::Client)?,
            }
        };
        let status = response.status();
        if matches!(
            status,
            reqwest::StatusCode::ACCEPTED | reqwest::StatusCode::NO_CONTENT
        ) {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        // As rmcp's own client: a challenged 401/403 goes to the authorization layer.
        if let Some(challenge) = response
            .headers()
            .get(http::header::WWW_AUTHENTICATE)
            .and_then(|v| v.to_str().ok())
        {
            if status == reqwest::StatusCode::UNAUTHORIZED {
                return Err(StreamableHttpError::AuthRequired(AuthRequiredError::new(
                    challenge.to_owned(),
                )));
            }
            if status == reqwest::StatusCode::FORBIDDEN {
                return Err(StreamableHttpError::InsufficientScope(
                    InsufficientScopeError::new(challenge.to_owned(), None),
                ));
            }
        }
        if status == reqwest::StatusCode::NOT_FOUND && session_id.is_some() {
            return Err(StreamableHttpError::SessionExpired);
        }
        let content_type = response
            .headers()
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(|v| {
                v.split(';')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_ascii_lowercase()
            });
        let session = response
            .headers()
            .get(SESSION_HEADER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        if status.is_success() && content_type.as_deref() == Some("text/event-stream") {
            let bytes = bounded_events(response.bytes_stream(), limits.max_sse_event_size);
            let stream: BoxStream<'static, Result<Sse, SseError>> =
                SseStream::from_bytes_stream(bytes).boxed();
            return Ok(StreamableHttpPostResponse::Sse(stream, session));
        }
        let is_json = content_type.as_deref() == Some("application/json");
        let limit = if is_json {
            limits.max_json_response_size
        } else {
            limits.max_error_response_size
        };
        let body = read_bounded(response, limit).await?;
        if is_json {
            if let Ok(text) = std::str::from_utf8(&body) {
                self.raw.observe_str(text);
            }
            match serde_json::from_slice::<ServerJsonRpcMessage>(&body) {
                Ok(parsed) => return Ok(StreamableHttpPostResponse::Json(parsed, session)),
                Err(e) if status.is_success() => {
                    return Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(
                        format!("the server's JSON answer is not JSON-RPC: {e}"),
                    )));
                }
                Err(_) => {}
            }
        }
        let preview: String = String::from_utf8_lossy(&body).chars().take(256).collect();
        if status.is_success() {
            return Err(StreamableHttpError::UnexpectedContentType(content_type));
        }
        Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(
            format!("HTTP {status}: {preview}"),
        )))
    }
}

/// Ends an SSE body with an error once one event (the bytes between blank lines) grows past
/// `limit`, as rmcp's own client does: a server cannot make the client buffer without end.
fn bounded_events<S, B>(
    stream: S,
    limit: usize,
) -> impl futures::Stream<Item = Result<B, std::io::Error>> + Send + 'static
where
    S: futures::Stream<Item = Result<B, reqwest::Error>> + Send + 'static,
    B: std::ops::Deref<Target = [u8]> + Send + 'static,
{
    // (bytes of the current event, last byte was a newline, ended)
    stream.scan((0usize, false, false), move |state, chunk| {
        let (since, newline, ended) = state;
        if *ended {
            return futures::future::ready(None);
        }
        let item = match chunk {
            Err(e) => Err(std::io::Error::other(e)),
            Ok(bytes) => {
                for &b in bytes.iter() {
                    match b {
                        b'\n' if *newline => *since = 0,
                        b'\n' => *newline = true,
                        b'\r' => {}
                        _ => {
                            *newline = false;
                            *since += 1;
                        }
                    }
                }
                if *since > limit {
                    *ended = true;
                    Err(std::io::Error::other(format!(
                        "an SSE event from the server is larger than {limit} bytes"
                    )))
                } else {
                    Ok(bytes)
                }
            }
        };
        futures::future::ready(Some(item))
    })
}

/// Reads at most `limit` bytes of the body; a longer body is an error.
async fn read_bounded(
    response: reqwest::Response,
    limit: usize,
) -> Result<Vec<u8>, StreamableHttpError<reqwest::Error>> {
    let mut body = Vec::new();
    let mut stream = response.bytes_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(StreamableHttpError::Client)?;
        if body.len() + chunk.len() > limit {
            return Err(StreamableHttpError::ResponseBodyTooLarge { max_size: limit });
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

impl StreamableHttpClient for CapturingReqwest {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        self.post_message_with_response_limits(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            StreamableHttpResponseLimits::default(),
        )
        .await
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        let mut limits = StreamableHttpResponseLimits::default();
        limits.max_sse_event_size = max_sse_event_size;
        self.post_message_with_response_limits(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            limits,
        )
        .await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        if may_require_input(&message) || refused::is_one_way(&message) {
            return self
                .post_capturing(
                    uri,
                    message,
                    session_id,
                    auth_header,
                    custom_headers,
                    limits,
                )
                .await;
        }
        self.inner
            .post_message_with_response_limits(
                uri,
                message,
                session_id,
                auth_header,
                custom_headers,
                limits,
            )
            .await
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), StreamableHttpError<Self::Error>> {
        self.inner
            .delete_session(uri, session_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, StreamableHttpError<Self::Error>> {
        self.inner
            .get_stream(uri, session_id, last_event_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, StreamableHttpError<Self::Error>> {
        self.inner
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await
    }
}
