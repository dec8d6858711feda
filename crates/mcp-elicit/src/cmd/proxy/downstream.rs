//! The proxy as an MCP server to its client (2025-11-25): every request is forwarded to
//! the session's upstream; `tools/call` is tracked so the upstream's elicitations ride
//! its stream, its progress is passed on, its cancellation reaches the upstream, and what
//! the policy did is told to the user in its result. -32042 goes to clients with URL mode
//! as is (its URLs checked first) and becomes the fallback text for the others.
#![allow(deprecated)] // logging and resources/subscribe are legacy in rmcp; 2025-11-25 has them

use std::borrow::Cow;
use std::sync::{Arc, Mutex};

use mcp_elicit_client::ServerTarget;
use mcp_elicit_core::message::{Capability, URL_ELICITATION_REQUIRED, UrlElicitationRequired};
use mcp_elicit_server::Revision;
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResponse, CallToolResult, ClientRequest,
    CompleteRequestParams, CompleteResult, ContentBlock, DiscoverResult, ErrorCode, ErrorData,
    GetPromptRequest, GetPromptRequestParams, GetPromptResponse, InitializeRequestParams,
    InitializeResult, InputResponses, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProgressToken, ProtocolVersion,
    ReadResourceRequest, ReadResourceRequestParams, ReadResourceResponse, RequestId, ServerConfig,
    ServerResult, SetLevelRequestParams, SubscribeRequestParams, UnsubscribeRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::{Peer, RoleClient, RoleServer, ServerHandler, ServiceError};
use tokio_util::sync::CancellationToken;

use super::link::{Link, lock};
use super::modern;
use super::rounds::{self, Stop};
use super::upstream::{self, UpstreamService, url_fallback_text};

/// The JSON-RPC error code of a `prompts/get` or `resources/read` the proxy ended for the
/// user's sake (`data.kind` is `proxy_refused`; a `tools/call` gets an error result).
const PROXY_REFUSED: i32 = -32000;

/// The downstream half of one session.
pub(crate) struct Session {
    link: Arc<Link>,
    target: Arc<ServerTarget>,
    /// Dropped with the session: closes the upstream connection (and ends a stdio child).
    upstream: Mutex<Option<UpstreamService>>,
    info: Mutex<Option<ServerConfig>>,
}

impl Session {
    pub(crate) fn new(link: Arc<Link>, target: Arc<ServerTarget>) -> Self {
        Self {
            link,
            target,
            upstream: Mutex::new(None),
            info: Mutex::new(None),
        }
    }

    fn upstream(&self) -> Result<Peer<RoleClient>, ErrorData> {
        self.link
            .upstream()
            .ok_or_else(|| ErrorData::invalid_request("mcp-elicit proxy: initialize first", None))
    }
}

/// `tools/call` on `link`'s upstream connection with its rounds bridged and the user's
/// notes appended to the result. `call` is the downstream request (its id, its progress
/// token).
pub(crate) async fn call_via(
    link: &Link,
    upstream: &Peer<RoleClient>,
    params: CallToolRequestParams,
    call: (RequestId, Option<ProgressToken>),
    ct: &CancellationToken,
) -> Result<CallToolResult, ErrorData> {
    let (id, progress) = call;
    let seq = link.begin_call(id.clone(), progress);
    let result = forward_call(link, seq, upstream, params, id, ct).await;
    let notes = link.end_call(seq);
    let mut result = result?;
    for note in notes {
        result.content.push(ContentBlock::text(note));
    }
    Ok(result)
}

/// Most times a held request goes through a -32042's pages and calls again.
const MAX_URL_REQUIRED: u32 = 3;

async fn forward_call(
    link: &Link,
    seq: u64,
    upstream: &Peer<RoleClient>,
    params: CallToolRequestParams,
    id: RequestId,
    ct: &CancellationToken,
) -> Result<CallToolResult, ErrorData> {
    let mut url_required_seen = 0;
    loop {
        let ended = rounds::drive(
            link,
            upstream,
            Some((seq, id.clone())),
            ct,
            |responses, state| {
                let mut p = params.clone();
                p.input_responses = responses;
                p.request_state = state;
                ClientRequest::CallToolRequest(CallToolRequest::new(p))
            },
        )
        .await;
        return match ended {
            Err(Stop::Cancelled) => Err(ErrorData::internal_error("the call was cancelled", None)),
            Err(Stop::Gone) => Err(upstream_gone()),
            Err(Stop::Refused(text)) => Ok(CallToolResult::error(vec![ContentBlock::text(text)])),
            Err(Stop::Service(ServiceError::McpError(e)))
                if e.code.0 == URL_ELICITATION_REQUIRED =>
            {
                if link.held().is_none() {
                    url_required(link, e)
                } else if url_required_seen < MAX_URL_REQUIRED {
                    url_required_seen += 1;
                    match super::modern::url_steps(link, &e, ct).await {
                        Ok(()) => continue,
                        Err(told) => Ok(told),
                    }
                } else {
                    // 2026-07-28 has no -32042: the user reads why the request ended.
                    tracing::info!(
                        rule = "rounds",
                        "the upstream kept asking for web page steps"
                    );
                    Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                        "mcp-elicit proxy ended this request: the server asked for web page \
                         steps {MAX_URL_REQUIRED} times and still did not answer. Nothing more \
                         was sent to the server."
                    ))]))
                }
            }
            Err(Stop::Service(e)) => Err(service_error(e)),
            Ok(ServerResult::CallToolResult(r)) => Ok(r),
            Ok(ServerResult::CustomResult(c)) => serde_json::from_value(c.0).map_err(|_| {
                ErrorData::internal_error("the upstream's tools/call result is malformed", None)
            }),
            Ok(other) => Err(ErrorData::internal_error(
                format!(
                    "the upstream answered tools/call with something else ({})",
                    result_kind(&other)
                ),
                None,
            )),
        };
    }
}

/// `prompts/get` or `resources/read` (`make` builds each attempt) on `link`'s upstream
/// connection, its rounds bridged like a call's; what the proxy had to tell the user
/// comes in the error when it ended the request.
pub(crate) async fn request_via<F>(
    link: &Link,
    upstream: &Peer<RoleClient>,
    call: (RequestId, Option<ProgressToken>),
    ct: &CancellationToken,
    make: F,
) -> Result<ServerResult, ErrorData>
where
    F: Fn(Option<InputResponses>, Option<String>) -> ClientRequest,
{
    let (id, progress) = call;
    let seq = link.begin_call(id.clone(), progress);
    let ended = rounds::drive(link, upstream, Some((seq, id)), ct, make).await;
    let notes = link.end_call(seq);
    match ended {
        Ok(result) => Ok(result),
        Err(Stop::Cancelled) => Err(ErrorData::internal_error("the request was cancelled", None)),
        Err(Stop::Gone) => Err(upstream_gone()),
        Err(Stop::Service(e)) => Err(service_error(e)),
        Err(Stop::Refused(text)) => {
            let mut message = text;
            for note in notes {
                message.push_str("\n\n");
                message.push_str(&note);
            }
            Err(ErrorData::new(
                ErrorCode(PROXY_REFUSED),
                message,
                Some(serde_json::json!({"kind": "proxy_refused"})),
            ))
        }
    }
}

/// -32042 from the upstream: its URLs checked; as is to a client with URL mode, the
/// fallback text for the others.
fn url_required(link: &Link, e: ErrorData) -> Result<CallToolResult, ErrorData> {
    let policy = link.proxy.policy;
    let data = e.data.clone().unwrap_or_default();
    let Ok(required) = UrlElicitationRequired::parse_data(&data) else {
        tracing::info!(rule = "malformed", "malformed -32042 from the upstream");
        return Ok(CallToolResult::error(vec![ContentBlock::text(
            MALFORMED_URL_REQUIRED,
        )]));
    };
    for elicitation in required.elicitations() {
        if let Err(refusal) = policy.check_url(&elicitation.url) {
            tracing::info!(rule = refusal.rule, "proxy refused a -32042");
            return Ok(CallToolResult::error(vec![ContentBlock::text(
                refusal.to_user,
            )]));
        }
    }
    if !link.capability().url {
        return Ok(url_fallback(&required));
    }
    for elicitation in required.elicitations() {
        link.shown_url(&elicitation.elicitation_id);
    }
    Err(e)
}

/// What the user reads of a malformed -32042.
pub(crate) const MALFORMED_URL_REQUIRED: &str =
    "The server asked for a web page step in a malformed way; mcp-elicit proxy did not pass it on.";

/// The documented fallback of a -32042 for a client without URL mode.
pub(crate) fn url_fallback(required: &UrlElicitationRequired) -> CallToolResult {
    tracing::info!(rule = "url-fallback", "-32042 to a client without URL mode");
    let text = required
        .elicitations()
        .iter()
        .map(|u| url_fallback_text(&u.message))
        .collect::<Vec<_>>()
        .join("\n\n");
    CallToolResult::error(vec![ContentBlock::text(text)])
}

/// A bridged `prompts/get`'s final answer.
pub(crate) fn prompt_response(result: ServerResult) -> Result<GetPromptResponse, ErrorData> {
    match result {
        ServerResult::GetPromptResult(r) => Ok(GetPromptResponse::Complete(r)),
        other => Err(ErrorData::internal_error(
            format!(
                "the upstream answered prompts/get with something else ({})",
                result_kind(&other)
            ),
            None,
        )),
    }
}

/// A bridged `resources/read`'s final answer.
pub(crate) fn read_response(result: ServerResult) -> Result<ReadResourceResponse, ErrorData> {
    match result {
        ServerResult::ReadResourceResult(r) => Ok(ReadResourceResponse::Complete(r)),
        other => Err(ErrorData::internal_error(
            format!(
                "the upstream answered resources/read with something else ({})",
                result_kind(&other)
            ),
            None,
        )),
    }
}

fn result_kind(r: &ServerResult) -> &'static str {
    match r {
        ServerResult::InputRequiredResult(_) => "an InputRequiredResult",
        _ => "another result type",
    }
}

fn upstream_gone() -> ErrorData {
    ErrorData::internal_error("mcp-elicit proxy: the upstream connection closed", None)
}

/// The upstream's error as is; transport failures as an internal error with their text.
fn service_error(e: ServiceError) -> ErrorData {
    match e {
        ServiceError::McpError(e) => e,
        ServiceError::TransportClosed => upstream_gone(),
        other => ErrorData::internal_error(format!("mcp-elicit proxy: upstream: {other}"), None),
    }
}

/// The client's declared elicitation modes (`elicitation: {}` is form only).
fn client_modes(request: &InitializeRequestParams) -> Capability {
    let value = request
        .capabilities
        .elicitation
        .as_ref()
        .and_then(|e| serde_json::to_value(e).ok());
    match value {
        None => Capability::NONE,
        Some(v) => Capability::from_value(Some(&v)).unwrap_or(Capability::FORM),
    }
}

impl ServerHandler for Session {
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        // The user its bearer token names (`--issuer`), for this whole session.
        if let Some(principal) = mcp_elicit_server::Principal::from_extensions(&context.extensions)
        {
            self.link.set_principal(principal);
        }
        let modes = client_modes(&request);
        tracing::info!(
            form = modes.form,
            url = modes.url,
            "client connected to the proxy"
        );
        self.link
            .set_downstream(context.peer.clone(), modes, request.capabilities.clone());
        if self.link.upstream().is_none() {
            let service =
                upstream::connect(&self.target, &self.link, self.link.proxy.upstream_protocol)
                    .await
                    .map_err(|e| ErrorData::internal_error(e, None))?;
            self.link.set_upstream(service.peer().clone());
            let upstream_info = service.peer().peer_info();
            if let Some(info) = upstream_info {
                let mut ours = ServerConfig::default();
                ours.protocol_version = ProtocolVersion::V_2025_11_25;
                ours.capabilities = info.capabilities.clone();
                if let Some(server) = &info.server_info {
                    ours.server_info = server.clone();
                }
                ours.instructions = info.instructions.clone();
                *lock(&self.info) = Some(ours);
            }
            *lock(&self.upstream) = Some(service);
        }
        Ok(self.get_info())
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Owned(vec![
            ProtocolVersion::V_2025_11_25,
            ProtocolVersion::V_2026_07_28,
        ])
    }

    async fn discover(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        let info = modern::upstream_info(&self.link, &context).await?;
        Ok(DiscoverResult::from_server_info(
            self.supported_protocol_versions().into_owned(),
            info,
        ))
    }

    fn get_info(&self) -> ServerConfig {
        lock(&self.info).clone().unwrap_or_else(|| {
            let mut info = ServerConfig::default();
            info.protocol_version = ProtocolVersion::V_2025_11_25;
            info
        })
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if Revision::of(&context) == Revision::Rounds {
            return modern::call_tool(&self.link, request, &context).await;
        }
        let upstream = self.upstream()?;
        let call = (context.id.clone(), context.meta.get_progress_token());
        call_via(&self.link, &upstream, request, call, &context.ct)
            .await
            .map(CallToolResponse::Complete)
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        if Revision::of(&context) == Revision::Rounds {
            return modern::simple(&self.link, &context, |peer| async move {
                peer.list_tools(request).await
            })
            .await;
        }
        self.upstream()?
            .list_tools(request)
            .await
            .map_err(service_error)
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        if Revision::of(&context) == Revision::Rounds {
            return modern::simple(&self.link, &context, |peer| async move {
                peer.list_prompts(request).await
            })
            .await;
        }
        self.upstream()?
            .list_prompts(request)
            .await
            .map_err(service_error)
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if Revision::of(&context) == Revision::Rounds {
            return modern::get_prompt(&self.link, request, &context).await;
        }
        let upstream = self.upstream()?;
        let call = (context.id.clone(), context.meta.get_progress_token());
        let result = request_via(
            &self.link,
            &upstream,
            call,
            &context.ct,
            |responses, state| {
                let mut p = request.clone();
                p.input_responses = responses;
                p.request_state = state;
                ClientRequest::GetPromptRequest(GetPromptRequest::new(p))
            },
        )
        .await?;
        prompt_response(result)
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        if Revision::of(&context) == Revision::Rounds {
            return modern::simple(&self.link, &context, |peer| async move {
                peer.list_resources(request).await
            })
            .await;
        }
        self.upstream()?
            .list_resources(request)
            .await
            .map_err(service_error)
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        if Revision::of(&context) == Revision::Rounds {
            return modern::simple(&self.link, &context, |peer| async move {
                peer.list_resource_templates(request).await
            })
            .await;
        }
        self.upstream()?
            .list_resource_templates(request)
            .await
            .map_err(service_error)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if Revision::of(&context) == Revision::Rounds {
            return modern::read_resource(&self.link, request, &context).await;
        }
        let upstream = self.upstream()?;
        let call = (context.id.clone(), context.meta.get_progress_token());
        let result = request_via(
            &self.link,
            &upstream,
            call,
            &context.ct,
            |responses, state| {
                let mut p = request.clone();
                p.input_responses = responses;
                p.request_state = state;
                ClientRequest::ReadResourceRequest(ReadResourceRequest::new(p))
            },
        )
        .await?;
        read_response(result)
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.upstream()?
            .subscribe(request)
            .await
            .map_err(service_error)
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.upstream()?
            .unsubscribe(request)
            .await
            .map_err(service_error)
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        if Revision::of(&context) == Revision::Rounds {
            return modern::simple(&self.link, &context, |peer| async move {
                peer.complete(request).await
            })
            .await;
        }
        self.upstream()?
            .complete(request)
            .await
            .map_err(service_error)
    }

    async fn on_roots_list_changed(
        &self,
        _context: rmcp::service::NotificationContext<RoleServer>,
    ) {
        if let Some(upstream) = self.link.upstream() {
            let _ = upstream.notify_roots_list_changed().await;
        }
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.upstream()?
            .set_level(request)
            .await
            .map_err(service_error)
    }
}
