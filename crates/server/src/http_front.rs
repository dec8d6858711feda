//! [`HttpFront`]: the requests that make up an elicitation round trip, read once and
//! handed on the way rmcp's Streamable HTTP service hands them (BENCHMARKS.md, issue 17):
//! on 2026-07-28 a stateless `tools/call`, and in sessions (2025-11-25 and before) a
//! `tools/call` and the client's answer to an `elicitation/create`.
//!
//! rmcp's service reads every POST into its untagged message types (buffering the body
//! and trying each request type in turn), then, on 2026-07-28, serialises the request back
//! to a JSON value only to compare two `Mcp-*` headers with it. [`HttpFront`] takes the
//! requests it can answer exactly as rmcp would, and passes everything else to rmcp as it
//! came. For the stateless `tools/call`:
//!
//! - it takes a request only when rmcp would accept it: POST, HTTP/1.1 with a `Host` equal
//!   to an allowed host (with or without a port) and no `Origin`, JSON in and both answer
//!   types accepted, `MCP-Protocol-Version: 2026-07-28`, one `Mcp-Method: tools/call` and
//!   one plain `Mcp-Name` equal to the body's tool name, no `Mcp-Param-*` header, a tool
//!   that exists and declares no header parameters, and a body that is exactly a JSON-RPC
//!   `tools/call` request with the 2026-07-28 `_meta` complete;
//! - it then does what rmcp does for such a request: the handler runs behind
//!   `serve_directly_with_ct` with the same peer information, the HTTP request's parts in
//!   its extensions and its own cancellation token (cancelled when the client leaves before
//!   the first message), and the first message is answered as JSON with rmcp's statuses, or
//!   as an SSE stream when the handler notifies before it answers;
//! - anything else (another method, a header rmcp would refuse or must decode, a body that
//!   is not exactly such a request) goes to rmcp with the body it read, so every refusal
//!   keeps rmcp's status and error.
//!
//! In sessions too ([`HttpFront::with_sessions`], `session.rs`): on 2025-11-25 and the
//! revisions before it, a session's `tools/call` and the client's answer to an
//! `elicitation/create` (the two POSTs of every elicitation round trip) are read once
//! and handed to the session manager as rmcp hands them (`create_stream`, answered as SSE;
//! `accept_message`, 202), after the same checks; an unknown session, another method, an
//! error reply or a notification goes to rmcp.
//!
//! Two things it does more cheaply than rmcp, with the same outcome: the body is read by a
//! direct reader (`parse.rs`: the envelope once, the params once, where rmcp's flattened
//! types buffer the params twice), and a round goes out with its exact requests moved into
//! `inputRequests` by the front itself (whatever its size), so the handler is told
//! (`WritesRoundsExactly`) not to build rmcp's typed copy of them, which nothing would read.
//!
//! The tests send the same requests with and without the front and compare the answers.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::Request;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures::future::BoxFuture;
use futures::{Stream, StreamExt};
use rmcp::RoleServer;
use rmcp::model::{
    ClientCapabilities, ClientJsonRpcMessage, ClientRequest, ErrorCode, GetExtensions, GetMeta,
    Implementation, InitializeRequestParams, JsonObject, JsonRpcRequest, ProtocolVersion,
    ServerJsonRpcMessage,
};
use rmcp::service::serve_directly_with_ct;
use rmcp::transport::OneshotTransport;
use rmcp::transport::streamable_http_server::session::{SessionId, SessionManager};
use serde_json::Value;
use tokio_util::sync::{CancellationToken, DropGuard};

use crate::SharedHttpService;
use crate::wire::{WritesRoundsExactly, exact_message_text};

/// What builds a handler: the factory rmcp's `StreamableHttpService` was built with,
/// shared with [`HttpFront`].
pub type HandlerFactory<S> = Arc<dyn Fn() -> Result<S, std::io::Error> + Send + Sync>;

/// rmcp's HTTP service ([`SharedHttpService`]) with the requests of an elicitation round
/// trip answered in front of it: the stateless 2026-07-28 `tools/call` (parsed once, its
/// `Mcp-*` headers compared with the parsed request, its handler run as rmcp runs it), and
/// with [`HttpFront::with_sessions`] a session's `tools/call` and answers on 2025-11-25
/// (handed to the session manager as rmcp hands them). Every other request, and any
/// request this front is not sure rmcp would accept and answer the same way, goes to rmcp
/// as it came (the module's rules, in `http_front.rs`).
///
/// Mount it where you would mount the [`SharedHttpService`], with the factory the rmcp
/// service was built with:
///
/// ```
/// use std::sync::Arc;
///
/// use mcp_elicit_server::{HandlerFactory, SharedHttpService, HttpFront};
/// use rmcp::ServerHandler;
/// use rmcp::transport::StreamableHttpService;
/// use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
/// use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
///
/// #[derive(Clone)]
/// struct MyServer; // your handler, with its tools
/// impl ServerHandler for MyServer {}
///
/// let factory: HandlerFactory<MyServer> = Arc::new(|| Ok(MyServer));
/// let for_rmcp = Arc::clone(&factory);
/// let mcp = StreamableHttpService::new(
///     move || for_rmcp(),
///     Arc::new(LocalSessionManager::default()),
///     StreamableHttpServerConfig::default().with_json_response(true),
/// );
/// let front = HttpFront::new(SharedHttpService::new(mcp), factory);
/// let app: axum::Router = axum::Router::new().nest_service("/mcp", front);
/// # let _ = app;
/// ```
pub struct HttpFront<S, M> {
    rmcp: SharedHttpService<S, M>,
    factory: HandlerFactory<S>,
    /// The allowed hosts that are a plain name or IPv4 address (no port, no brackets),
    /// lowercase: the only ones this front matches a `Host` against.
    hosts: Arc<[String]>,
    /// Whether rmcp allows every host (its allowed list is empty).
    any_host: bool,
    max_body: usize,
    json_response: bool,
    keep_alive: Option<Duration>,
    ct: CancellationToken,
    /// The session manager rmcp's service was built with, when given
    /// ([`HttpFront::with_sessions`]) and rmcp keeps sessions: then a session's
    /// `tools/call` and its answers are taken too.
    sessions: Option<Arc<M>>,
    #[cfg(test)]
    taken: Arc<std::sync::atomic::AtomicUsize>,
}

impl<S, M> Clone for HttpFront<S, M> {
    fn clone(&self) -> Self {
        Self {
            rmcp: self.rmcp.clone(),
            factory: Arc::clone(&self.factory),
            hosts: Arc::clone(&self.hosts),
            any_host: self.any_host,
            max_body: self.max_body,
            json_response: self.json_response,
            keep_alive: self.keep_alive,
            ct: self.ct.clone(),
            sessions: self.sessions.clone(),
            #[cfg(test)]
            taken: Arc::clone(&self.taken),
        }
    }
}

impl<S, M> HttpFront<S, M>
where
    S: rmcp::ServerHandler + Send + 'static,
    M: SessionManager,
{
    /// `rmcp` (built with `factory`) behind the front; the front takes its hosts, body
    /// limit, JSON answers, keep-alive and cancellation from `rmcp`'s configuration.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use mcp_elicit_server::{HandlerFactory, SharedHttpService, HttpFront};
    /// # use rmcp::transport::StreamableHttpService;
    /// # use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    /// # #[derive(Clone)] struct MyServer;
    /// # impl rmcp::ServerHandler for MyServer {}
    /// let factory: HandlerFactory<MyServer> = Arc::new(|| Ok(MyServer));
    /// let for_rmcp = Arc::clone(&factory);
    /// let mcp = StreamableHttpService::new(move || for_rmcp(),
    ///     Arc::new(LocalSessionManager::default()), Default::default());
    /// let front = HttpFront::new(SharedHttpService::new(mcp), factory);
    /// # let _ = front;
    /// ```
    pub fn new(rmcp: SharedHttpService<S, M>, factory: HandlerFactory<S>) -> Self {
        let config = &rmcp.inner().config;
        let hosts = config
            .allowed_hosts
            .iter()
            .map(|h| h.trim().to_ascii_lowercase())
            .filter(|h| !h.is_empty() && !h.contains([':', '[', ']', '/', '@']))
            .collect();
        Self {
            any_host: config.allowed_hosts.is_empty(),
            hosts,
            max_body: config.max_request_body_bytes,
            json_response: config.json_response,
            keep_alive: config.sse_keep_alive,
            ct: config.cancellation_token.clone(),
            sessions: None,
            factory,
            rmcp,
            #[cfg(test)]
            taken: Arc::default(),
        }
    }

    /// The front with the session manager rmcp's service was built with (the same
    /// `Arc`): it then also answers, in sessions, a `tools/call` and the client's answer
    /// to an `elicitation/create` (2025-11-25 and the revisions before it), handing them
    /// to `sessions` as rmcp's service does. Ignored when rmcp keeps no sessions
    /// (`legacy_session_mode` off).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use mcp_elicit_server::{HandlerFactory, LeanSessionConfig, LeanSessionManager, SharedHttpService, HttpFront};
    /// # use rmcp::transport::StreamableHttpService;
    /// # #[derive(Clone)] struct MyServer;
    /// # impl rmcp::ServerHandler for MyServer {}
    /// let factory: HandlerFactory<MyServer> = Arc::new(|| Ok(MyServer));
    /// let for_rmcp = Arc::clone(&factory);
    /// let sessions = Arc::new(LeanSessionManager::new(LeanSessionConfig::default()));
    /// let mcp = StreamableHttpService::new(move || for_rmcp(), Arc::clone(&sessions), Default::default());
    /// let front = HttpFront::new(SharedHttpService::new(mcp), factory).with_sessions(sessions);
    /// # let _ = front;
    /// ```
    pub fn with_sessions(mut self, sessions: Arc<M>) -> Self {
        if self.rmcp.inner().config.legacy_session_mode {
            self.sessions = Some(sessions);
        }
        self
    }

    async fn answer(self, request: Request, route: Route) -> Response {
        let (parts, body) = request.into_parts();
        let bytes = match self.body(body).await {
            Ok(bytes) => bytes,
            Err(body) => return self.pass(Request::from_parts(parts, body)).await,
        };
        if let (Route::Session(id), Some(sessions)) = (route, &self.sessions) {
            return self.answer_in_session(sessions, id, parts, bytes).await;
        }
        let Some((call, service)) = self.read(&parts.headers, &bytes) else {
            tracing::trace!("http front: the body or the tool is left to rmcp");
            return self
                .pass(Request::from_parts(parts, Body::from(bytes)))
                .await;
        };
        #[cfg(test)]
        self.taken
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.serve(call, parts, service).await
    }

    /// The whole body, read up to rmcp's limit; past it (or when it breaks off), what was
    /// read and the rest, for rmcp to refuse as it does.
    async fn body(&self, body: Body) -> Result<Bytes, Body> {
        if body.size_hint().lower() > self.max_body as u64 {
            return Err(body);
        }
        let mut stream = body.into_data_stream();
        let mut read = Vec::new();
        while let Some(chunk) = stream.next().await {
            let Ok(chunk) = chunk else {
                return Err(Body::from(read));
            };
            read.extend_from_slice(&chunk);
            if read.len() > self.max_body {
                let head = futures::stream::once(std::future::ready(Ok::<_, axum::Error>(
                    Bytes::from(read),
                )));
                return Err(Body::from_stream(head.chain(stream)));
            }
        }
        Ok(Bytes::from(read))
    }

    async fn pass(&self, request: Request) -> Response {
        self.rmcp.inner().handle(request).await.map(Body::new)
    }

    /// Whether the request line and headers are ones rmcp accepts for a stateless
    /// 2026-07-28 `tools/call` (the tool's name is compared once the body is read). The
    /// revision and the method are looked at first: every other request leaves at once.
    fn headers_fit(&self, request: &Request) -> bool {
        let h = request.headers();
        one(h, "mcp-protocol-version") == Some("2026-07-28")
            && one(h, "mcp-method") == Some("tools/call")
            && self.post_fits(request)
            // A plain name (an encoded one is left to rmcp to decode).
            && one(h, "mcp-name").is_some_and(|n| !n.contains("=?"))
            && !h.keys().any(|k| k.as_str().starts_with("mcp-param-"))
    }

    /// A POST of JSON that rmcp's DNS-rebinding, `Accept` and `Content-Type` checks let
    /// through: HTTP/1.1 origin form, no `Origin`, an allowed `Host`.
    fn post_fits(&self, request: &Request) -> bool {
        let h = request.headers();
        request.method() == axum::http::Method::POST
            // HTTP/1.1 origin form: the host is the `Host` header's.
            && request.uri().authority().is_none()
            && !h.contains_key(header::ORIGIN)
            && one(h, header::HOST.as_str()).is_some_and(|v| self.host_fits(v))
            && one(h, header::CONTENT_TYPE.as_str()).is_some_and(is_json)
            && accepts_both(h)
    }

    /// Which way a request goes, from its request line and headers.
    fn route(&self, request: &Request) -> Route {
        if self.headers_fit(request) {
            return Route::Stateless;
        }
        if let Some(id) = self.session_post(request) {
            return Route::Session(id);
        }
        Route::Rmcp
    }

    /// A `Host` rmcp allows: an allowed host, with any port (rmcp's allowed hosts
    /// without a port match every port).
    fn host_fits(&self, value: &str) -> bool {
        let (name, port) = match value.split_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (value, None),
        };
        // Digits only (`u16`'s parse would also take a sign).
        let port_ok = port.is_none_or(|p| {
            !p.is_empty()
                && p.len() <= 5
                && p.bytes().all(|b| b.is_ascii_digit())
                && p.parse::<u16>().is_ok()
        });
        let name_ok = !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-');
        port_ok
            && name_ok
            && (self.any_host || self.hosts.iter().any(|h| h.eq_ignore_ascii_case(name)))
    }

    /// The request, when the body is exactly a `tools/call` for a tool without header
    /// parameters, with the 2026-07-28 `_meta` complete and the tool's name as in
    /// `Mcp-Name`; with the handler that answers it.
    fn read(
        &self,
        headers: &HeaderMap,
        bytes: &[u8],
    ) -> Option<(JsonRpcRequest<ClientRequest>, S)> {
        let call = parse::call_tool(bytes)?;
        if Some(call.request.params.name.as_ref()) != one(headers, "mcp-name") {
            return None;
        }
        let request = JsonRpcRequest::new(call.id, ClientRequest::CallToolRequest(call.request));
        let meta = request.request.get_meta();
        if meta.protocol_version() != Some(ProtocolVersion::V_2026_07_28)
            || !meta
                .missing_required_keys(&ProtocolVersion::V_2026_07_28)
                .is_empty()
        {
            return None;
        }
        let service = (self.factory)().ok()?;
        let ClientRequest::CallToolRequest(call) = &request.request else {
            return None;
        };
        let tool = service.get_tool(&call.params.name)?;
        if declares_header_params(&tool.input_schema) {
            return None;
        }
        Some((request, service))
    }

    /// What rmcp does with a stateless request that negotiates 2026-07-28 per request.
    async fn serve(
        &self,
        mut request: JsonRpcRequest<ClientRequest>,
        parts: Parts,
        service: S,
    ) -> Response {
        // The peer information rmcp gives a stateless request: the version of its header.
        let peer_info =
            InitializeRequestParams::new(ClientCapabilities::default(), Implementation::default())
                .with_protocol_version(ProtocolVersion::V_2026_07_28);
        request.request.extensions_mut().insert(parts);
        // Its rounds go out below with their exact requests (`wire`), so the handler
        // need not build rmcp's typed copy of them.
        request.request.extensions_mut().insert(WritesRoundsExactly);
        let (transport, mut receiver) =
            OneshotTransport::<RoleServer>::new(ClientJsonRpcMessage::Request(request));
        let request_ct = CancellationToken::new();
        let running =
            serve_directly_with_ct(service, transport, Some(peer_info), request_ct.clone());
        tokio::spawn(async move {
            let _ = running.waiting().await;
        });
        let cancel = self.ct.child_token();
        // The client leaving before the first message cancels the handler.
        let mut disconnect = Some(request_ct.clone().drop_guard());
        let first = tokio::select! {
            message = receiver.recv() => {
                if let Some(guard) = disconnect.take() {
                    guard.disarm();
                }
                message
            }
            _ = cancel.cancelled() => None,
        };
        let Some(first) = first else {
            tracing::error!(
                "Internal server error when empty response: no response message received from handler"
            );
            return (
                StatusCode::INTERNAL_SERVER_ERROR,
                "Encounter an error when empty response: no response message received from handler",
            )
                .into_response();
        };
        let terminal = matches!(
            first,
            ServerJsonRpcMessage::Response(_) | ServerJsonRpcMessage::Error(_)
        );
        let status = status_of(&first);
        if terminal && (self.json_response || status != StatusCode::OK) {
            // The whole reply: a handler still running would go on unobserved.
            request_ct.cancel();
            return match serde_json::to_string(&first) {
                Ok(body) => (
                    status,
                    [(
                        header::CONTENT_TYPE,
                        HeaderValue::from_static("application/json"),
                    )],
                    exact_message_text(&body).unwrap_or(body),
                )
                    .into_response(),
                Err(e) => {
                    tracing::error!("Internal server error when serialize json response: {e}");
                    (
                        StatusCode::INTERNAL_SERVER_ERROR,
                        format!("Encounter an error when serialize json response: {e}"),
                    )
                        .into_response()
                }
            };
        }
        self.events(first, receiver, request_ct)
    }

    /// The handler's messages as an SSE stream, the first one first (rmcp's stateless
    /// stream without an event store: one `data` event per message, keep-alives, ended
    /// with the server, the handler cancelled when the client leaves before the end).
    fn events(
        &self,
        first: ServerJsonRpcMessage,
        receiver: tokio::sync::mpsc::Receiver<ServerJsonRpcMessage>,
        request_ct: CancellationToken,
    ) -> Response {
        let messages = futures::stream::once(std::future::ready(first)).chain(
            futures::stream::unfold(receiver, |mut receiver| async move {
                receiver.recv().await.map(|message| (message, receiver))
            }),
        );
        let events = Watched {
            inner: Box::pin(messages),
            guard: Some(request_ct.drop_guard()),
        }
        .map(|message| {
            let data = serde_json::to_string(&message).unwrap_or_default();
            let data = exact_message_text(&data).unwrap_or(data);
            Event::default().data(data)
        });
        self.sse_response(events)
    }

    /// `events` as an SSE answer, as rmcp writes one: keep-alives, ended with the server,
    /// no buffering by a proxy on the way.
    fn sse_response(&self, events: impl Stream<Item = Event> + Send + 'static) -> Response {
        let events = events
            .map(Ok::<_, Infallible>)
            .take_until(self.ct.child_token().cancelled_owned());
        let sse = Sse::new(events);
        let mut response = match self.keep_alive {
            Some(interval) => sse
                .keep_alive(KeepAlive::new().interval(interval).text(""))
                .into_response(),
            None => sse.into_response(),
        };
        response
            .headers_mut()
            .insert("x-accel-buffering", HeaderValue::from_static("no"));
        response
    }
}

impl<S, M> std::fmt::Debug for HttpFront<S, M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpFront").finish_non_exhaustive()
    }
}

impl<S, M> tower::Service<Request> for HttpFront<S, M>
where
    S: rmcp::ServerHandler + Send + 'static,
    M: SessionManager,
{
    type Response = Response;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Response, Infallible>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let route = self.route(&request);
        if let Route::Rmcp = route {
            tracing::trace!("http front: the request line or headers are left to rmcp");
            return self.rmcp.call(request);
        }
        let front = self.clone();
        Box::pin(async move { Ok(front.answer(request, route).await) })
    }
}

/// Where a request goes, from its request line and headers.
enum Route {
    /// A stateless 2026-07-28 `tools/call`, if its body is one.
    Stateless,
    /// A POST in this session, taken if its body is a `tools/call` or an answer.
    Session(SessionId),
    /// Straight to rmcp.
    Rmcp,
}

/// The stream of a request's messages; dropped before its end, it cancels the handler.
struct Watched<St> {
    inner: Pin<Box<St>>,
    guard: Option<DropGuard>,
}

impl<St: Stream> Stream for Watched<St> {
    type Item = St::Item;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<St::Item>> {
        let polled = self.inner.as_mut().poll_next(cx);
        if let Poll::Ready(None) = polled
            && let Some(guard) = self.guard.take()
        {
            // Ended with the handler: nothing to cancel.
            guard.disarm();
        }
        polled
    }
}

/// The single value of header `name`, when it has exactly one that is visible text.
fn one<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    let mut values = headers.get_all(name).iter();
    let first = values.next()?;
    if values.next().is_some() {
        return None;
    }
    first.to_str().ok()
}

fn is_json(content_type: &str) -> bool {
    let essence = content_type
        .split_once(';')
        .map_or(content_type, |(essence, _)| essence);
    essence.trim().eq_ignore_ascii_case("application/json")
}

/// Whether `Accept` plainly lists both answer types (a weight, a parameter or a quoted
/// string is left to rmcp's reading).
fn accepts_both(headers: &HeaderMap) -> bool {
    let (mut json, mut sse) = (false, false);
    for value in headers.get_all(header::ACCEPT) {
        let Ok(value) = value.to_str() else {
            return false;
        };
        if value.contains([';', '"']) {
            return false;
        }
        for item in value.split(',').map(str::trim) {
            json |= item.eq_ignore_ascii_case("application/json");
            sse |= item.eq_ignore_ascii_case("text/event-stream");
        }
    }
    json && sse
}

/// rmcp's HTTP status for a stateless request's first message.
fn status_of(message: &ServerJsonRpcMessage) -> StatusCode {
    let ServerJsonRpcMessage::Error(error) = message else {
        return StatusCode::OK;
    };
    match error.error.code {
        ErrorCode::UNSUPPORTED_PROTOCOL_VERSION
        | ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY
        | ErrorCode::HEADER_MISMATCH => StatusCode::BAD_REQUEST,
        ErrorCode::METHOD_NOT_FOUND => StatusCode::NOT_FOUND,
        _ => StatusCode::OK,
    }
}

/// Whether a tool's input schema marks any property for an `Mcp-Param-*` header.
fn declares_header_params(schema: &JsonObject) -> bool {
    fn any(value: &Value) -> bool {
        match value {
            Value::Object(map) => map.contains_key("x-mcp-header") || map.values().any(any),
            Value::Array(items) => items.iter().any(any),
            _ => false,
        }
    }
    schema.contains_key("x-mcp-header") || schema.values().any(any)
}

pub(crate) mod parse;
mod session;
#[cfg(test)]
mod tests;
