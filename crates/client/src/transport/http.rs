//! Streamable HTTP with raw capture: a [`StreamableHttpClient`] wrapper.
//!
//! rmcp's Streamable HTTP transport gets raw SSE events from its HTTP client and parses
//! them afterwards. [`TappedHttpClient`] wraps any client (reqwest's by default) and
//! shows each event's `data` to [`RawRequests`] on its way through, on the POST response
//! streams (where a server sends requests related to a tool call) and on the standalone
//! GET stream. The events themselves pass unchanged, and every transport-wide limit is
//! forwarded to the inner client. A request in an event that rmcp cannot parse (and would
//! skip) is answered with a JSON-RPC error POSTed to the same endpoint and session (see the
//! [module docs](crate::transport)).

use std::collections::HashMap;
use std::sync::Arc;

use futures::StreamExt;
use futures::stream::BoxStream;
use http::{HeaderName, HeaderValue};
use rmcp::model::{
    ClientJsonRpcMessage, ClientRequest, JsonRpcError, RequestId, ServerJsonRpcMessage,
};
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpClientTransport,
    StreamableHttpClientTransportConfig, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};
use sse_stream::Sse;
use tokio::sync::watch;

use crate::auth::Authorizer;
use crate::raw::RawRequests;
use crate::transport::authorized::AuthorizedHttpClient;
use crate::transport::capture::CapturingReqwest;
use crate::transport::reject;

/// Whether the standalone GET stream (where a server sends requests not tied to a
/// client request) has been opened. Watched through
/// [`TappedHttpClient::standalone_stream`]; see [`transport`] for an example.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StandaloneStream {
    /// Not tried yet.
    Pending,
    /// Open: server requests on it will be seen.
    Open,
    /// The server refused it (405 or another error).
    Unavailable,
}

/// A [`StreamableHttpClient`] that shows every SSE event to a [`RawRequests`].
///
/// ```
/// use mcp_elicit_client::RawRequests;
/// use mcp_elicit_client::transport::http::{StandaloneStream, TappedHttpClient};
///
/// let raw = RawRequests::default();
/// let client = TappedHttpClient::new(reqwest::Client::default(), raw.clone());
/// // Nothing was sent yet: the standalone stream has not been tried.
/// assert_eq!(*client.standalone_stream().borrow(), StandaloneStream::Pending);
/// ```
#[derive(Debug, Clone)]
pub struct TappedHttpClient<C> {
    inner: C,
    raw: RawRequests,
    standalone: Arc<watch::Sender<StandaloneStream>>,
}

impl<C> TappedHttpClient<C> {
    /// Wraps `inner`; SSE events are shown to `raw` (see [`TappedHttpClient`]).
    pub fn new(inner: C, raw: RawRequests) -> Self {
        Self {
            inner,
            raw,
            standalone: Arc::new(watch::channel(StandaloneStream::Pending).0),
        }
    }

    /// Watches the standalone GET stream. Some servers (the TypeScript SDK's
    /// `elicitInput` without a related request) send elicitation requests only there, so
    /// a client should let it open before calling tools. See [`transport`] for waiting on
    /// it.
    ///
    /// ```
    /// use mcp_elicit_client::RawRequests;
    /// use mcp_elicit_client::transport::http::{StandaloneStream, TappedHttpClient};
    ///
    /// let client = TappedHttpClient::new(reqwest::Client::default(), RawRequests::default());
    /// let (a, b) = (client.standalone_stream(), client.clone().standalone_stream());
    /// assert_eq!((*a.borrow(), *b.borrow()), (StandaloneStream::Pending, StandaloneStream::Pending));
    /// ```
    pub fn standalone_stream(&self) -> watch::Receiver<StandaloneStream> {
        self.standalone.subscribe()
    }

    fn standalone_result<T, E>(&self, r: &Result<T, E>) {
        let status = if r.is_ok() {
            StandaloneStream::Open
        } else {
            StandaloneStream::Unavailable
        };
        self.standalone.send_replace(status);
    }
}

/// Where the error replies to unreadable server requests go: the endpoint, session and
/// headers of the HTTP request whose response stream carried them.
#[derive(Debug, Clone)]
struct ReplyTo {
    uri: Arc<str>,
    session_id: Option<Arc<str>>,
    auth_header: Option<String>,
    headers: HashMap<HeaderName, HeaderValue>,
}

impl ReplyTo {
    fn new(
        uri: &Arc<str>,
        session_id: &Option<Arc<str>>,
        auth_header: &Option<String>,
        headers: &HashMap<HeaderName, HeaderValue>,
    ) -> Self {
        // Per-message headers (`Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`) describe the
        // request that opened the stream, not the reply.
        let headers = headers
            .iter()
            .filter(|(name, _)| {
                let n = name.as_str();
                n != "mcp-method" && n != "mcp-name" && !n.starts_with("mcp-param-")
            })
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Self {
            uri: uri.clone(),
            session_id: session_id.clone(),
            auth_header: auth_header.clone(),
            headers,
        }
    }
}

impl<C: StreamableHttpClient + Sync> TappedHttpClient<C> {
    fn tap(
        &self,
        stream: BoxStream<'static, Result<Sse, SseError>>,
        reply_to: ReplyTo,
    ) -> BoxStream<'static, Result<Sse, SseError>> {
        let raw = self.raw.clone();
        let inner = self.inner.clone();
        stream
            .inspect(move |event| {
                let Ok(Sse {
                    data: Some(data),
                    event: kind,
                    ..
                }) = event
                else {
                    return;
                };
                // rmcp reads only these events as JSON-RPC messages (and only those can
                // owe a reply); the raw capture looks at every event.
                let answerable = matches!(kind.as_deref(), None | Some("" | "message"));
                let replies = reject::inspect(&raw, data, answerable);
                if !replies.is_empty() {
                    send_replies(inner.clone(), reply_to.clone(), replies);
                }
            })
            .boxed()
    }

    fn tap_response(
        &self,
        initialize: bool,
        asked: Option<RequestId>,
        response: StreamableHttpPostResponse,
        mut reply_to: ReplyTo,
    ) -> StreamableHttpPostResponse {
        // rmcp opens the standalone stream only for a session; without one it never will.
        let session = match &response {
            StreamableHttpPostResponse::Sse(_, s) | StreamableHttpPostResponse::Json(_, s) => {
                s.is_some()
            }
            _ => true,
        };
        if initialize && !session {
            self.standalone.send_replace(StandaloneStream::Unavailable);
        }
        match response {
            StreamableHttpPostResponse::Sse(stream, session) => {
                if reply_to.session_id.is_none() {
                    reply_to.session_id = session.as_deref().map(Arc::from);
                }
                StreamableHttpPostResponse::Sse(self.tap(stream, reply_to), session)
            }
            StreamableHttpPostResponse::Json(ServerJsonRpcMessage::Error(mut e), session)
                if e.id.is_none() && asked.is_some() =>
            {
                // An error without an id in the answer to a POST that carried one request
                // is that request's (a limit that refused the POST before reading it
                // cannot name the id). rmcp would match it to nothing, and the request
                // would wait for ever.
                tracing::debug!(
                    code = e.error.code.0,
                    "the server answered a request with an error without an id"
                );
                e.id = asked;
                StreamableHttpPostResponse::Json(ServerJsonRpcMessage::Error(e), session)
            }
            other => other,
        }
    }
}

/// The id of `message` when it is a request (its answer is awaited under that id).
fn request_id(message: &ClientJsonRpcMessage) -> Option<RequestId> {
    match message {
        ClientJsonRpcMessage::Request(r) => Some(r.id.clone()),
        _ => None,
    }
}

/// Posts `replies` (JSON-RPC errors) to the server in the background.
fn send_replies<C: StreamableHttpClient + Sync>(
    client: C,
    to: ReplyTo,
    replies: Vec<JsonRpcError>,
) {
    for reply in &replies {
        tracing::warn!(
            id = ?reply.id,
            reason = %reply.error.message,
            "answering a request that is not valid JSON-RPC with an error"
        );
    }
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        tracing::warn!("no async runtime to answer an invalid request on");
        return;
    };
    runtime.spawn(async move {
        for reply in replies {
            let sent = client
                .post_message(
                    to.uri.clone(),
                    ClientJsonRpcMessage::Error(reply),
                    to.session_id.clone(),
                    to.auth_header.clone(),
                    to.headers.clone(),
                )
                .await;
            if let Err(e) = sent {
                tracing::warn!(error = %e, "could not answer an invalid request");
            }
        }
    });
}

fn is_initialize(message: &ClientJsonRpcMessage) -> bool {
    matches!(message, ClientJsonRpcMessage::Request(r) if matches!(r.request, ClientRequest::InitializeRequest(_)))
}

/// The HTTP client stack of [`transport`]: raw capture around authorization around
/// rmcp's reqwest client with raw capture of JSON answers.
///
/// ```
/// use mcp_elicit_client::RawRequests;
/// use mcp_elicit_client::transport::{
///     authorized::AuthorizedHttpClient, capture::CapturingReqwest, http::{HttpStack, TappedHttpClient},
/// };
///
/// // What `transport_with_auth` builds (here with a reqwest client of your own, no sign-in).
/// let raw = RawRequests::default();
/// let reqwest = reqwest::Client::builder().user_agent("my-host/1.0").build()?;
/// let inner = CapturingReqwest::new(reqwest, raw.clone());
/// let stack: HttpStack = TappedHttpClient::new(AuthorizedHttpClient::new(inner, None), raw);
/// # let _ = stack;
/// # Ok::<(), reqwest::Error>(())
/// ```
pub type HttpStack = TappedHttpClient<AuthorizedHttpClient<CapturingReqwest>>;

/// A Streamable HTTP client transport to `url` over reqwest, with raw capture (SSE events
/// and the JSON answers to requests that may require input), and a watch on its
/// standalone GET stream. Must be called inside a Tokio runtime (rmcp starts the
/// transport's worker task); nothing is sent before the transport is served.
///
/// What [`ElicitationClient::connect`](crate::ElicitationClient::connect) does for an
/// `http(s)` target, by hand:
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use std::sync::Arc;
/// # use mcp_elicit_client::rmcp::{self, RoleServer, ServerHandler};
/// # use rmcp::model::{
/// #     CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
/// #     Implementation, ServerCapabilities, ServerConfig,
/// # };
/// # use rmcp::service::RequestContext;
/// # use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
/// # use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
/// # struct Hello;
/// # impl ServerHandler for Hello {
/// #     fn get_info(&self) -> ServerConfig {
/// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
/// #             .with_server_info(Implementation::new("hello", "1.0.0"))
/// #     }
/// #     async fn call_tool(
/// #         &self,
/// #         _: CallToolRequestParams,
/// #         _: RequestContext<RoleServer>,
/// #     ) -> Result<CallToolResponse, ErrorData> {
/// #         Ok(CallToolResult::success(vec![ContentBlock::text("hello")]).into())
/// #     }
/// # }
/// # let service = StreamableHttpService::new(
/// #     || Ok(Hello),
/// #     Arc::new(LocalSessionManager::default()),
/// #     StreamableHttpServerConfig::default(),
/// # );
/// # let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
/// # let url = format!("http://{}/mcp", listener.local_addr()?);
/// # let app = axum::Router::new().nest_service("/mcp", service);
/// # tokio::spawn(async move { axum::serve(listener, app).await });
/// use mcp_elicit_client::transport::http::{StandaloneStream, transport};
/// use mcp_elicit_client::{
///     Config, ElicitationClient, FormPolicy, ProtocolChoice, RecordingOpener, ScriptedUi,
///     TransportIdentity, UrlPolicy,
/// };
/// use mcp_elicit_core::message::Capability;
///
/// # // `url` is an rmcp Streamable HTTP server on 127.0.0.1.
/// let ui = ScriptedUi::new(Capability::FORM, FormPolicy::AcceptDefaults, UrlPolicy::Never);
/// let config = Config::default().with_protocol(ProtocolChoice::V2025_11_25);
/// let client = ElicitationClient::new(ui, RecordingOpener::default(), config);
/// let (transport, mut standalone) = transport(&url, client.raw_requests().clone());
/// assert_eq!(*standalone.borrow(), StandaloneStream::Pending);
///
/// let connection = client.clone().serve_transport(transport, TransportIdentity::http(&url)).await?;
/// // 2025-11-25: let the GET stream open before calling tools (servers may send
/// // elicitation requests only there).
/// let state = *standalone.wait_for(|s| *s != StandaloneStream::Pending).await?;
/// assert_eq!(state, StandaloneStream::Open);
/// let result = connection.peer().call_tool(CallToolRequestParams::new("greet")).await?;
/// assert_eq!(result.content[0].as_text().unwrap().text, "hello");
/// # Ok(())
/// # }
/// ```
pub fn transport(
    url: &str,
    raw: RawRequests,
) -> (
    StreamableHttpClientTransport<HttpStack>,
    watch::Receiver<StandaloneStream>,
) {
    transport_with_auth(url, raw, None)
}

/// Like [`transport`], with MCP authorization by `auth` when given: its bearer token on
/// every request, sign-in on 401, step-up on 403 `insufficient_scope`
/// ([`AuthorizedHttpClient`]). `None` is [`transport`].
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use std::sync::Arc;
/// use mcp_elicit_client::RawRequests;
/// use mcp_elicit_client::auth::{AuthConfig, Authorizer, HeadlessRedirect, MemoryTokenStore};
/// use mcp_elicit_client::transport::http::{StandaloneStream, transport_with_auth};
///
/// let url = "https://mcp.example.com/mcp";
/// let authorizer = Arc::new(Authorizer::new(
///     url,
///     AuthConfig::new("my-host"),
///     Arc::new(MemoryTokenStore::default()),
///     Arc::new(HeadlessRedirect::new("http://127.0.0.1:8976/callback")),
/// )?);
/// let (_transport, standalone) = transport_with_auth(url, RawRequests::default(), Some(authorizer));
/// assert_eq!(*standalone.borrow(), StandaloneStream::Pending); // nothing sent until served
/// # Ok(())
/// # }
/// ```
pub fn transport_with_auth(
    url: &str,
    raw: RawRequests,
    auth: Option<Arc<Authorizer>>,
) -> (
    StreamableHttpClientTransport<HttpStack>,
    watch::Receiver<StandaloneStream>,
) {
    transport_with_http(reqwest::Client::default(), url, raw, auth)
}

/// Like [`transport_with_auth`], over `http`: a program holding many connections (a
/// gateway's upstream connections, a load generator's sessions) shares one HTTP client,
/// so its connections are reused (keep-alive) and its TLS configuration is built once
/// (building a `reqwest::Client` loads the root certificates).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use mcp_elicit_client::RawRequests;
/// use mcp_elicit_client::transport::http::{StandaloneStream, transport_with_http};
///
/// let shared = reqwest::Client::new();
/// let (_a, standalone) =
///     transport_with_http(shared.clone(), "http://127.0.0.1:9/mcp", RawRequests::default(), None);
/// let (_b, _) = transport_with_http(shared, "http://127.0.0.1:9/mcp", RawRequests::default(), None);
/// assert_eq!(*standalone.borrow(), StandaloneStream::Pending); // nothing sent until served
/// # }
/// ```
pub fn transport_with_http(
    http: reqwest::Client,
    url: &str,
    raw: RawRequests,
    auth: Option<Arc<Authorizer>>,
) -> (
    StreamableHttpClientTransport<HttpStack>,
    watch::Receiver<StandaloneStream>,
) {
    let inner = CapturingReqwest::new(http, raw.clone());
    let client = TappedHttpClient::new(AuthorizedHttpClient::new(inner, auth), raw);
    let standalone = client.standalone_stream();
    let mut config = StreamableHttpClientTransportConfig::with_uri(url.to_owned());
    config.retry_config = Arc::new(reconnect_policy());
    let transport = StreamableHttpClientTransport::with_client(client, config);
    (transport, standalone)
}

/// How many times a broken SSE stream is resumed (`Last-Event-ID`) before the requests
/// waiting on it fail: after 1, 2, 4, 8 and 10 seconds, about half a minute in all.
/// rmcp's default resumes for ever, with ever longer pauses, so a server that went away
/// left every request waiting on it (a gateway's upstream call, a `call` until its
/// timeout) with no error to show.
///
/// ```
/// assert_eq!(mcp_elicit_client::transport::http::SSE_RESUMES, 5);
/// ```
pub const SSE_RESUMES: usize = 5;

/// The longest pause between two resumptions of a broken SSE stream.
const SSE_RESUME_MAX_PAUSE: std::time::Duration = std::time::Duration::from_secs(10);

fn reconnect_policy() -> rmcp::transport::common::client_side_sse::ExponentialBackoff {
    let mut policy = rmcp::transport::common::client_side_sse::ExponentialBackoff::default();
    policy.max_times = Some(SSE_RESUMES);
    policy.max_delay = Some(SSE_RESUME_MAX_PAUSE);
    policy
}

impl<C: StreamableHttpClient + Sync> StreamableHttpClient for TappedHttpClient<C> {
    type Error = C::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        let initialize = is_initialize(&message);
        let asked = request_id(&message);
        let reply_to = ReplyTo::new(&uri, &session_id, &auth_header, &custom_headers);
        let response = self
            .inner
            .post_message(uri, message, session_id, auth_header, custom_headers)
            .await?;
        Ok(self.tap_response(initialize, asked, response, reply_to))
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
        let initialize = is_initialize(&message);
        let asked = request_id(&message);
        let reply_to = ReplyTo::new(&uri, &session_id, &auth_header, &custom_headers);
        let response = self
            .inner
            .post_message_with_max_sse_event_size(
                uri,
                message,
                session_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await?;
        Ok(self.tap_response(initialize, asked, response, reply_to))
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
        let initialize = is_initialize(&message);
        let asked = request_id(&message);
        let reply_to = ReplyTo::new(&uri, &session_id, &auth_header, &custom_headers);
        let response = self
            .inner
            .post_message_with_response_limits(
                uri,
                message,
                session_id,
                auth_header,
                custom_headers,
                limits,
            )
            .await?;
        Ok(self.tap_response(initialize, asked, response, reply_to))
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
        let reply_to = ReplyTo::new(&uri, &session_id, &auth_header, &custom_headers);
        let stream = self
            .inner
            .get_stream(uri, session_id, last_event_id, auth_header, custom_headers)
            .await;
        self.standalone_result(&stream);
        Ok(self.tap(stream?, reply_to))
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
        let reply_to = ReplyTo::new(&uri, &session_id, &auth_header, &custom_headers);
        let stream = self
            .inner
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await;
        self.standalone_result(&stream);
        Ok(self.tap(stream?, reply_to))
    }
}
