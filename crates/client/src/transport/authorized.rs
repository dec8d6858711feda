//! [`AuthorizedHttpClient`]: a [`StreamableHttpClient`] that sends the [`Authorizer`]'s
//! bearer token and handles 401 (sign in, once per request) and 403 `insufficient_scope`
//! (step up, at most [`AuthConfig::max_step_ups`](crate::auth::AuthConfig::max_step_ups)
//! times per request). Without an authorizer it passes everything through unchanged.

use std::borrow::Cow;
use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;

use futures::stream::BoxStream;
use http::{HeaderName, HeaderValue};
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};
use sse_stream::Sse;

use crate::auth::{AuthError, Authorizer};

/// Adds authorization to an inner [`StreamableHttpClient`]: the middle layer of
/// [`HttpStack`](super::http::HttpStack).
///
/// ```
/// use std::sync::Arc;
/// use mcp_elicit_client::RawRequests;
/// use mcp_elicit_client::auth::{AuthConfig, Authorizer, HeadlessRedirect, MemoryTokenStore};
/// use mcp_elicit_client::transport::{authorized::AuthorizedHttpClient, capture::CapturingReqwest};
///
/// let inner = CapturingReqwest::new(reqwest::Client::default(), RawRequests::default());
/// // Without an authorizer every request passes through unchanged.
/// let _plain = AuthorizedHttpClient::new(inner.clone(), None);
///
/// let authorizer = Arc::new(Authorizer::new(
///     "https://mcp.example.com/mcp",
///     AuthConfig::new("my-host"),
///     Arc::new(MemoryTokenStore::default()),
///     Arc::new(HeadlessRedirect::new("http://127.0.0.1:8976/callback")),
/// )?);
/// let _signed_in = AuthorizedHttpClient::new(inner, Some(authorizer));
/// # Ok::<(), mcp_elicit_client::auth::AuthError>(())
/// ```
#[derive(Debug, Clone)]
pub struct AuthorizedHttpClient<C> {
    inner: C,
    auth: Option<Arc<Authorizer>>,
}

impl<C> AuthorizedHttpClient<C> {
    /// Wraps `inner`; with `auth`, requests carry its token and 401/403 are handled (see
    /// [`AuthorizedHttpClient`]).
    pub fn new(inner: C, auth: Option<Arc<Authorizer>>) -> Self {
        Self { inner, auth }
    }
}

fn failed<E: std::error::Error + Send + Sync + 'static>(e: AuthError) -> StreamableHttpError<E> {
    StreamableHttpError::UnexpectedServerResponse(Cow::Owned(e.to_string()))
}

impl<C: StreamableHttpClient + Sync> AuthorizedHttpClient<C> {
    /// Runs `send` with the current token (or the given header without an authorizer),
    /// signing in on 401 and stepping up on 403.
    async fn authorized<T, F, Fut>(
        &self,
        given: Option<String>,
        send: F,
    ) -> Result<T, StreamableHttpError<C::Error>>
    where
        F: Fn(Option<String>) -> Fut,
        Fut: Future<Output = Result<T, StreamableHttpError<C::Error>>>,
    {
        let Some(auth) = &self.auth else {
            return send(given).await;
        };
        let mut token = auth.access_token().await;
        let mut signed_in = false;
        let mut step_ups = 0u32;
        loop {
            match send(token.clone()).await {
                Err(StreamableHttpError::AuthRequired(e)) => {
                    if signed_in {
                        return Err(failed(auth.refused(401)));
                    }
                    signed_in = true;
                    let new = auth
                        .on_unauthorized(&e.www_authenticate_header, token.as_deref())
                        .await
                        .map_err(failed)?;
                    token = Some(new);
                }
                Err(StreamableHttpError::InsufficientScope(e)) => {
                    step_ups += 1;
                    let new = auth
                        .on_insufficient_scope(&e.www_authenticate_header, step_ups)
                        .await
                        .map_err(failed)?;
                    token = Some(new);
                }
                other => return other,
            }
        }
    }
}

impl<C: StreamableHttpClient + Sync> StreamableHttpClient for AuthorizedHttpClient<C> {
    type Error = C::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        self.authorized(auth_header, |token| {
            self.inner.post_message(
                uri.clone(),
                message.clone(),
                session_id.clone(),
                token,
                custom_headers.clone(),
            )
        })
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
        self.authorized(auth_header, |token| {
            self.inner.post_message_with_max_sse_event_size(
                uri.clone(),
                message.clone(),
                session_id.clone(),
                token,
                custom_headers.clone(),
                max_sse_event_size,
            )
        })
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
        self.authorized(auth_header, |token| {
            self.inner.post_message_with_response_limits(
                uri.clone(),
                message.clone(),
                session_id.clone(),
                token,
                custom_headers.clone(),
                limits,
            )
        })
        .await
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), StreamableHttpError<Self::Error>> {
        let token = match &self.auth {
            Some(auth) => auth.access_token().await,
            None => auth_header,
        };
        self.inner
            .delete_session(uri, session_id, token, custom_headers)
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
        self.authorized(auth_header, |token| {
            self.inner.get_stream(
                uri.clone(),
                session_id.clone(),
                last_event_id.clone(),
                token,
                custom_headers.clone(),
            )
        })
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
        self.authorized(auth_header, |token| {
            self.inner.get_stream_with_max_sse_event_size(
                uri.clone(),
                session_id.clone(),
                last_event_id.clone(),
                token,
                custom_headers.clone(),
                max_sse_event_size,
            )
        })
        .await
    }
}
