//! The proxy as an MCP client of the upstream server: its `elicitation/create` requests go
//! through the policy to the downstream client, and the answer is checked on its way
//! back; its notifications (progress, logging, list changes, completions) are passed on.
#![allow(deprecated)] // logging is legacy in rmcp; 2025-11-25 has it

use std::sync::{Arc, Weak};
use std::time::Duration;

use mcp_elicit_client::rate_limit::Admission;
use mcp_elicit_client::transport::{http, stdio};
use mcp_elicit_client::{ConnectError, ProtocolChoice, RawRequests, ServerTarget};
use mcp_elicit_core::message::{
    Capability, CompleteNotification, CreateResult, INVALID_PARAMS, METHOD_COMPLETE, METHOD_CREATE,
};
use rmcp::model::{
    ClientCapabilities, ClientConfig, ClientResult, CreateMessageRequest,
    CreateMessageRequestParams, CreateMessageResult, CustomNotification, CustomRequest,
    CustomResult, ElicitRequestParams, ElicitResult, ElicitationCapability, ErrorCode, ErrorData,
    FormElicitationCapability, GetExtensions, Implementation, ListRootsRequest, ListRootsResult,
    LoggingMessageNotificationParam, ProgressNotificationParam, ProtocolVersion, RequestId,
    ResourceUpdatedNotificationParam, ServerNotification, ServerRequest, UrlElicitationCapability,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, NotificationContext, OriginatingRequestId,
    PeerRequestOptions, RequestContext, RunningService,
};
use rmcp::{ClientHandler, RoleClient};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::held::Ticket;
use super::link::Link;
use super::ordered::Ordered;
use super::policy::{Passed, Refusal};

/// How long the proxy waits for the user's answer to a form or URL consent.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(600);

/// The upstream half of one session.
#[derive(Clone)]
pub(crate) struct Upstream {
    link: Weak<Link>,
    raw: RawRequests,
}

/// A connected upstream.
pub(crate) type UpstreamService = RunningService<RoleClient, Upstream>;

/// Connects to `target` speaking `protocol`, declaring form and URL mode (the proxy can
/// answer URL requests for clients without URL mode with the fallback). `Auto`: the
/// clients' revision first (2025-11-25, `initialize`: nothing to translate, sampling and
/// roots pass as they are), and 2026-07-28 (`server/discover`, the revision bridge) when
/// the upstream refuses `initialize`; each attempt on a new process or HTTP client.
pub(crate) async fn connect(
    target: &ServerTarget,
    link: &Arc<Link>,
    protocol: ProtocolChoice,
) -> Result<UpstreamService, String> {
    let service = match protocol {
        ProtocolChoice::Auto => {
            match connect_with_lifecycle(target, link, ClientLifecycleMode::Initialize).await {
                Ok(service) => Ok(service),
                Err(first) => {
                    tracing::info!(
                        "the upstream refused initialize; trying server/discover (2026-07-28)"
                    );
                    let modern = ProtocolChoice::V2026_07_28.lifecycle();
                    connect_with_lifecycle(target, link, modern)
                        .await
                        .map_err(|second| format!("{first}; with server/discover: {second}"))
                }
            }
        }
        other => connect_with_lifecycle(target, link, other.lifecycle())
            .await
            .map_err(|e| e.to_string()),
    }
    .map_err(|e| format!("cannot connect to the upstream: {e}"))?;
    let revision = mcp_elicit_client::negotiated_protocol(service.peer());
    tracing::info!(%revision, "connected to the upstream");
    Ok(service)
}

/// Connects to `target` with exactly `lifecycle` (no fallback of the proxy's own).
pub(crate) async fn connect_with_lifecycle(
    target: &ServerTarget,
    link: &Arc<Link>,
    lifecycle: ClientLifecycleMode,
) -> Result<UpstreamService, ConnectError> {
    let handler = Upstream {
        link: Arc::downgrade(link),
        raw: link.raw.clone(),
    };
    link.progress_order.reset();
    match target {
        ServerTarget::Stdio { command } => {
            let transport = Ordered::new(stdio::spawn(command, handler.raw.clone())?, link);
            Ok(handler.serve_with_lifecycle(transport, lifecycle).await?)
        }
        ServerTarget::Http { url } => {
            // The proxy's own credentials (configured), never a client's token.
            let (transport, mut standalone) = http::transport_with_http(
                link.proxy.http.clone(),
                url.as_str(),
                handler.raw.clone(),
                link.proxy.upstream_auth.clone(),
            );
            let transport = Ordered::new(transport, link);
            let service = handler.serve_with_lifecycle(transport, lifecycle).await?;
            // 2025-11-25 servers may send elicitation requests on the standalone stream
            // only; 2026-07-28 has no such stream (and no server requests).
            if mcp_elicit_client::negotiated_protocol(service.peer()).has_initialize() {
                let opened = standalone.wait_for(|s| *s != http::StandaloneStream::Pending);
                let _ =
                    tokio::time::timeout(mcp_elicit_client::STANDALONE_STREAM_WAIT, opened).await;
            }
            Ok(service)
        }
    }
}

/// -32021 `MissingRequiredClientCapabilityError` for a 2026-07-28 client whose request
/// needs `required` (a client capabilities object), which its `_meta` did not declare.
fn missing_capability(required: Value) -> ErrorData {
    ErrorData::new(
        ErrorCode(-32021),
        format!(
            "the server behind mcp-elicit proxy needs the client capability {required}, which this \
             request's _meta does not declare"
        ),
        Some(json!({"requiredCapabilities": required})),
    )
}

fn invalid_params(message: String) -> ErrorData {
    ErrorData::new(ErrorCode(INVALID_PARAMS), message, None)
}

fn refuse(link: &Link, seq: Option<u64>, refusal: Refusal) -> ErrorData {
    tracing::info!(rule = refusal.rule, "proxy refused an elicitation/create");
    link.note(seq, refusal.to_user);
    invalid_params(refusal.to_server)
}

/// The documented fallback for a URL step a client without URL mode cannot take: what
/// the user reads, without the URL.
pub(crate) fn url_fallback_text(message: &str) -> String {
    format!(
        "{message}\n\nThis step happens on a web page of the server, and this MCP client cannot open such \
         pages for you (it does not support URL-mode elicitation). The link is not shown here on purpose: it \
         must reach you directly, never through the conversation. To continue, connect with an MCP client \
         that supports URL-mode elicitation, then run this request again. Never paste passwords, API keys \
         or card numbers into the chat."
    )
}

impl Upstream {
    /// One upstream `elicitation/create` (2025-11-25), raw params, for the call in flight.
    async fn handle_create(
        &self,
        raw: Value,
        context: &RequestContext<RoleClient>,
    ) -> Result<Value, ErrorData> {
        let Some(link) = self.link.upgrade() else {
            return Ok(CreateResult::cancel().to_value());
        };
        let call = link.current_call();
        elicit(&link, call, raw, &context.ct, Ticket::none(), None).await
    }
}

/// One elicitation of the upstream, raw params: the rate limit and the policy, the
/// request to the downstream client on the stream of `call` (its number and downstream
/// request id), the answer checked. `Ok`: the result for the upstream (the user's, or
/// `cancel`/`decline` the proxy answered with a note for the user); `Err`: the policy
/// refused the request (-32602 naming why; the user is told in the call's result).
/// `ct` ends the wait (the upstream cancelled, or the downstream call was cancelled).
/// For a 2026-07-28 client the request is a question of its held request's next round
/// (`ticket`: its place in that round) instead.
pub(crate) async fn elicit(
    link: &Link,
    call: Option<(u64, RequestId)>,
    raw: Value,
    ct: &CancellationToken,
    ticket: Ticket,
    key: Option<String>,
) -> Result<Value, ErrorData> {
    let policy = link.proxy.policy;
    let seq = call.as_ref().map(|c| c.0);
    let limiter = link.proxy.limiter(&link.user());
    // A 2026-07-28 client paces a held request's rounds itself (each waits for its
    // retry), and a round it never retries must not count as a flood for ten minutes.
    let arrival = link.held().is_none().then(|| limiter.arrive());
    let admission = arrival
        .as_ref()
        .map_or(Admission::Allowed, |a| a.admission());
    if admission != Admission::Allowed {
        tracing::info!(rule = "rate-limit", "proxy refused an elicitation/create");
        if admission == Admission::RefusedNotify {
            link.note(
                seq,
                "The server asked for your input too often; mcp-elicit proxy answered \"cancel\" \
                     for you. Try again later."
                    .to_owned(),
            );
        }
        return Ok(CreateResult::cancel().to_value());
    }
    let passed = policy
        .check_request(&raw)
        .map_err(|r| refuse(link, seq, r))?;
    let capability = link.capability();
    let (params, form_schema) = match passed {
        Passed::Form(form) => {
            if !capability.form {
                tracing::info!(
                    rule = "mode",
                    mode = "form",
                    "client did not declare form mode"
                );
                if let Some(held) = link.held() {
                    // 2026-07-28: the client's request ends with -32021 naming the mode.
                    held.fail(missing_capability(json!({"elicitation": {"form": {}}})));
                }
                return Err(invalid_params(
                    "the client behind mcp-elicit proxy did not declare form mode elicitation"
                        .into(),
                ));
            }
            tracing::info!(
                mode = "form",
                fields = form.schema.properties().len(),
                "forwarding an elicitation"
            );
            (raw.clone(), Some(form.schema))
        }
        Passed::Url(url) => {
            if !capability.url
                && !capability.form
                && let Some(held) = link.held()
            {
                tracing::info!(
                    rule = "mode",
                    mode = "url",
                    "client declared no elicitation"
                );
                held.fail(missing_capability(json!({"elicitation": {"url": {}}})));
                return Err(invalid_params(
                    "the client behind mcp-elicit proxy did not declare elicitation".into(),
                ));
            }
            if !capability.url {
                tracing::info!(rule = "url-fallback", "client did not declare URL mode");
                link.note(seq, url_fallback_text(&url.message));
                if let Some(a) = arrival {
                    a.answered(false);
                }
                return Ok(CreateResult::decline().to_value());
            }
            tracing::info!(mode = "url", "forwarding an elicitation");
            link.shown_url(&url.elicitation_id);
            (raw.clone(), None)
        }
    };
    let value = if let Some(held) = link.held() {
        // 2026-07-28 has no elicitation ids: the proxy keeps the upstream's to itself.
        let mut params = params;
        if let Some(obj) = params.as_object_mut() {
            obj.remove("elicitationId");
        }
        let asked = held.ask(ticket, key.as_deref(), METHOD_CREATE, params, ct);
        match tokio::time::timeout(ANSWER_TIMEOUT, asked).await {
            Ok(Some(value)) => value,
            Ok(None) => {
                tracing::info!("the elicitation was cancelled");
                return Ok(CreateResult::cancel().to_value());
            }
            Err(_) => {
                tracing::info!("the user did not answer in time");
                return Ok(CreateResult::cancel().to_value());
            }
        }
    } else {
        drop(ticket);
        ask_peer(link, call.as_ref(), params, ct).await?
    };
    let Ok(parsed) = CreateResult::parse(&value) else {
        tracing::info!(
            rule = "answer-malformed",
            "the client's answer is malformed; cancel sent"
        );
        link.note(seq, "The client's answer to the server's form was malformed; mcp-elicit proxy sent \"cancel\".".into());
        return Ok(CreateResult::cancel().to_value());
    };
    if let Some(schema) = &form_schema
        && let Err(refusal) = policy.check_answer(schema, &parsed)
    {
        tracing::info!(rule = refusal.rule, "proxy refused an answer");
        link.note(seq, refusal.to_user);
        if let Some(a) = arrival {
            a.answered(false);
        }
        return Ok(CreateResult::cancel().to_value());
    }
    if let Some(a) = arrival {
        a.answered(parsed.action == mcp_elicit_core::message::Action::Accept);
    }
    Ok(parsed.to_value())
}

/// A 2025-11-25 client: `elicitation/create` on the stream of `call`, its answer as
/// JSON (`cancel` when the wait ended first); the client's refusal as is.
async fn ask_peer(
    link: &Link,
    call: Option<&(u64, RequestId)>,
    params: Value,
    ct: &CancellationToken,
) -> Result<Value, ErrorData> {
    let Some(peer) = link.downstream() else {
        return Ok(CreateResult::cancel().to_value());
    };
    let mut request = CustomRequest::new(METHOD_CREATE.to_owned(), Some(params));
    if let Some((_, id)) = call {
        request.extensions.insert(OriginatingRequestId(id.clone()));
    }
    let handle = peer
        .send_request_with_option(
            ServerRequest::CustomRequest(request),
            PeerRequestOptions::no_options(),
        )
        .await
        .map_err(|e| ErrorData::internal_error(format!("the client is gone: {e}"), None))?;
    let mut rx = handle.rx;
    let answer = tokio::select! {
        a = &mut rx => a,
        () = ct.cancelled() => {
            tracing::info!("the elicitation was cancelled");
            return Ok(CreateResult::cancel().to_value());
        }
        () = tokio::time::sleep(ANSWER_TIMEOUT) => {
            tracing::info!("the user did not answer in time");
            return Ok(CreateResult::cancel().to_value());
        }
    };
    let result = match answer {
        Ok(Ok(result)) => result,
        // The client refused the request: the upstream gets the same error.
        Ok(Err(rmcp::ServiceError::McpError(e))) => return Err(e),
        Ok(Err(e)) => {
            return Err(ErrorData::internal_error(
                format!("the client failed: {e}"),
                None,
            ));
        }
        Err(_) => return Ok(CreateResult::cancel().to_value()),
    };
    serde_json::to_value(&result).map_err(|e| ErrorData::internal_error(e.to_string(), None))
}

fn declared(capability: Capability) -> ElicitationCapability {
    let mut ec = ElicitationCapability::new();
    if capability.form {
        ec = ec.with_form(FormElicitationCapability::new());
    }
    if capability.url {
        ec.url = Some(UrlElicitationCapability::new());
    }
    ec
}

impl Upstream {
    /// Relays a server request other than elicitation (sampling, roots) to the client, on
    /// the stream of the call in flight; the client's answer or error as is.
    async fn relay(
        &self,
        request: ServerRequest,
        context: &RequestContext<RoleClient>,
    ) -> Result<ClientResult, ErrorData> {
        let gone = || ErrorData::internal_error("mcp-elicit proxy: the client is gone", None);
        let link = self.link.upgrade().ok_or_else(gone)?;
        if let Some(held) = link.held() {
            return relay_held(&link, &held, request, context).await;
        }
        let peer = link.downstream().ok_or_else(gone)?;
        let mut request = request;
        if let Some((_, id)) = link.current_call() {
            request.extensions_mut().insert(OriginatingRequestId(id));
        }
        let handle = peer
            .send_request_with_option(request, PeerRequestOptions::no_options())
            .await
            .map_err(|e| ErrorData::internal_error(format!("the client is gone: {e}"), None))?;
        let mut rx = handle.rx;
        let answer = tokio::select! {
            a = &mut rx => a,
            () = context.ct.cancelled() => {
                return Err(ErrorData::internal_error("the request was cancelled", None));
            }
        };
        match answer {
            Ok(Ok(result)) => Ok(result),
            Ok(Err(rmcp::ServiceError::McpError(e))) => Err(e),
            Ok(Err(e)) => Err(ErrorData::internal_error(
                format!("the client failed: {e}"),
                None,
            )),
            Err(_) => Err(gone()),
        }
    }
}

/// Sampling or roots for a 2026-07-28 client: a question of its held request, as the
/// client declared them (the connection declared them upstream only then).
async fn relay_held(
    link: &Link,
    held: &super::held::Held,
    request: ServerRequest,
    context: &RequestContext<RoleClient>,
) -> Result<ClientResult, ErrorData> {
    let declared = link.client_capabilities();
    let (method, params, ok) = match &request {
        ServerRequest::CreateMessageRequest(r) => (
            "sampling/createMessage",
            serde_json::to_value(&r.params).unwrap_or(Value::Null),
            declared.sampling.is_some(),
        ),
        ServerRequest::ListRootsRequest(_) => (
            "roots/list",
            serde_json::json!({}),
            declared.roots.is_some(),
        ),
        _ => ("", Value::Null, false),
    };
    if !ok {
        let mut required = serde_json::Map::new();
        required.insert(
            method.split('/').next().unwrap_or(method).to_owned(),
            json!({}),
        );
        held.fail(missing_capability(Value::Object(required)));
        return Err(ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            format!("the client behind mcp-elicit proxy did not declare {method}"),
            None,
        ));
    }
    let asked = held.ask(Ticket::none(), None, method, params, &context.ct);
    let answer = match tokio::time::timeout(ANSWER_TIMEOUT, asked).await {
        Ok(Some(answer)) => answer,
        _ => return Err(ErrorData::internal_error("the request was cancelled", None)),
    };
    let malformed = |_| {
        ErrorData::invalid_params(
            format!("the client's answer to {method} is malformed"),
            None,
        )
    };
    match request {
        ServerRequest::CreateMessageRequest(_) => {
            serde_json::from_value::<CreateMessageResult>(answer)
                .map(|r| ClientResult::CreateMessageResult(Box::new(r)))
                .map_err(malformed)
        }
        _ => serde_json::from_value::<ListRootsResult>(answer)
            .map(ClientResult::ListRootsResult)
            .map_err(malformed),
    }
}

impl ClientHandler for Upstream {
    /// Sampling is passed on to a client that declared it (the proxy declares it upstream
    /// only then); the proxy applies no policy to it.
    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        let request = ServerRequest::CreateMessageRequest(CreateMessageRequest::new(params));
        match self.relay(request, &context).await? {
            ClientResult::CreateMessageResult(r) => Ok(*r),
            _ => Err(ErrorData::internal_error(
                "the client answered sampling/createMessage with something else",
                None,
            )),
        }
    }

    /// `roots/list` is passed on to a client that declared roots.
    async fn list_roots(
        &self,
        context: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, ErrorData> {
        let request = ServerRequest::ListRootsRequest(ListRootsRequest::default());
        match self.relay(request, &context).await? {
            ClientResult::ListRootsResult(r) => Ok(r),
            _ => Err(ErrorData::internal_error(
                "the client answered roots/list with something else",
                None,
            )),
        }
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let raw = match self.raw.take(&context.id) {
            Some(raw) => raw,
            None => serde_json::to_value(&request)
                .map_err(|e| ErrorData::internal_error(e.to_string(), None))?,
        };
        let result = self.handle_create(raw, &context).await?;
        serde_json::from_value(result).map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleClient>,
    ) -> Result<CustomResult, ErrorData> {
        if request.method != METHOD_CREATE {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                request.method,
                None,
            ));
        }
        let raw = self
            .raw
            .take(&context.id)
            .or(request.params)
            .unwrap_or(Value::Null);
        self.handle_create(raw, &context)
            .await
            .map(CustomResult::new)
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        _context: NotificationContext<RoleClient>,
    ) {
        if notification.method != METHOD_COMPLETE {
            return;
        }
        let Some(link) = self.link.upgrade() else {
            return;
        };
        let params = notification.params.unwrap_or(Value::Null);
        let Ok(complete) = CompleteNotification::parse(&params) else {
            tracing::debug!("ignoring a malformed completion notification from the upstream");
            return;
        };
        if !link.take_url(&complete.elicitation_id) {
            tracing::info!("ignoring a completion for an elicitation the client was not shown");
            return;
        }
        if link.held().is_some() {
            // 2026-07-28 has no completion notifications: the held request waits for it.
            link.mark_completed(&complete.elicitation_id);
            return;
        }
        if let Some(peer) = link.downstream() {
            let n = CustomNotification::new(METHOD_COMPLETE.to_owned(), Some(complete.to_value()));
            let _ = peer
                .send_notification(ServerNotification::CustomNotification(n))
                .await;
        }
    }

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        if let Some(peer) = self.link.upgrade().and_then(|l| l.downstream()) {
            let _ = peer.notify_logging_message(params).await;
        }
    }

    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        if let Some(peer) = self.link.upgrade().and_then(|l| l.downstream()) {
            let _ = peer.notify_resource_updated(params).await;
        }
    }

    async fn on_resource_list_changed(&self, _context: NotificationContext<RoleClient>) {
        if let Some(peer) = self.link.upgrade().and_then(|l| l.downstream()) {
            let _ = peer.notify_resource_list_changed().await;
        }
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        if let Some(peer) = self.link.upgrade().and_then(|l| l.downstream()) {
            let _ = peer.notify_tool_list_changed().await;
        }
    }

    async fn on_prompt_list_changed(&self, _context: NotificationContext<RoleClient>) {
        if let Some(peer) = self.link.upgrade().and_then(|l| l.downstream()) {
            let _ = peer.notify_prompt_list_changed().await;
        }
    }

    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        let pooled = self.link.upgrade().and_then(|l| l.pooled());
        let modes = pooled.map_or(Capability::ALL, |d| d.elicitation);
        if modes.form || modes.url {
            capabilities.elicitation = Some(declared(modes));
        }
        // Sampling and roots as the client declared them: they are relayed to it on either
        // revision (requests of a 2025-11-25 upstream, input requests of a 2026-07-28 one).
        if let Some(client) = self.link.upgrade().map(|l| l.client_capabilities()) {
            capabilities.sampling = client.sampling;
            capabilities.roots = client.roots;
        }
        ClientConfig::new(
            capabilities,
            Implementation::new("mcp-elicit-proxy", env!("CARGO_PKG_VERSION")),
        )
        .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }
}

/// Passes one of the upstream's progress notifications on (called in order, by the
/// forwarder of [`Ordered`]): to the held client request a pooled connection serves now,
/// or to the downstream request whose forwarded request it names, under that request's
/// token. Progress for nothing waiting is dropped.
pub(crate) async fn forward_progress(link: &Link, params: ProgressNotificationParam) {
    if let Some(held) = link.held() {
        // A pooled connection serves one request: its progress goes to the client
        // request waiting on it now, under that request's token.
        if let Some((peer, token)) = held.client() {
            let mut params = params;
            params.progress_token = token;
            let _ = peer.notify_progress(params).await;
        }
        return;
    }
    let (Some(token), Some(peer)) = (
        link.downstream_progress(&params.progress_token),
        link.downstream(),
    ) else {
        return;
    };
    let mut params = params;
    params.progress_token = token;
    let _ = peer.notify_progress(params).await;
}
