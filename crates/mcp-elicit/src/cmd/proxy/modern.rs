//! The proxy as a server to 2026-07-28 clients (`server/discover`, no session): each
//! request borrows an upstream connection of its user's ([`super::pool`]); `tools/call`,
//! `prompts/get` and `resources/read` are held while the upstream asks the user
//! something ([`super::held`]), whatever revision the upstream speaks: a 2025-11-25
//! upstream's `elicitation/create`, sampling and roots requests and its -32042 pages, or a
//! 2026-07-28 upstream's rounds, all reach the client as rounds of the proxy's own, under
//! the same rules as for 2025-11-25 clients.

use std::future::Future;
use std::sync::Arc;

use mcp_elicit_core::message::{Action, Capability, METHOD_CREATE, UrlElicitationRequired};
use mcp_elicit_server::{InputRound, Principal, StateBinding};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientRequest, ContentBlock,
    ErrorData, GetPromptRequest, GetPromptRequestParams, GetPromptResponse, InputRequiredResult,
    ReadResourceRequest, ReadResourceRequestParams, ReadResourceResponse, RequestId,
    RequestMetaObject, ServerConfig, ServerResult,
};
use rmcp::service::RequestContext;
use rmcp::{Peer, RoleClient, RoleServer, ServiceError};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::downstream::{
    MALFORMED_URL_REQUIRED, call_via, prompt_response, read_response, request_via, url_fallback,
};
use super::held::{Held, Next};
use super::link::{Declared, Link, Proxy, user_key};
use super::pool::{Key, Lease};

/// The `_meta` key of a 2026-07-28 request's client capabilities.
const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";

/// How long a held request waits for the pages of a -32042 to be completed.
const URL_WAIT: std::time::Duration = std::time::Duration::from_secs(600);

/// What a 2026-07-28 request's client declared, read from the request itself.
fn declared(ctx: &RequestContext<RoleServer>) -> (Capability, bool, bool) {
    let caps = ctx.meta.get(META_CAPABILITIES).and_then(Value::as_object);
    let present = |k: &str| caps.and_then(|c| c.get(k)).is_some_and(|v| !v.is_null());
    let elicitation = caps
        .map(|c| Capability::from_value(c.get("elicitation")).unwrap_or(Capability::NONE))
        .unwrap_or(Capability::NONE);
    (elicitation, present("sampling"), present("roots"))
}

/// The user of a request: the one its bearer token names (`--issuer`), else the
/// session's (the local user).
fn principal(link: &Link, ctx: &RequestContext<RoleServer>) -> Principal {
    Principal::from_extensions(&ctx.extensions).unwrap_or_else(|| link.principal())
}

fn key(link: &Link, ctx: &RequestContext<RoleServer>) -> Key {
    let (elicitation, sampling, roots) = declared(ctx);
    let any = elicitation.form || elicitation.url;
    Key {
        user: principal(link, ctx),
        declared: Declared {
            elicitation: Capability {
                form: elicitation.form,
                url: any,
            },
            sampling,
            roots,
        },
    }
}

fn gone(e: String) -> ErrorData {
    ErrorData::internal_error(format!("mcp-elicit proxy: {e}"), None)
}

fn service_error(e: ServiceError) -> ErrorData {
    match e {
        ServiceError::McpError(e) => e,
        other => gone(format!("upstream: {other}")),
    }
}

/// A request without rounds (lists, completions): forwarded on a borrowed connection.
pub(crate) async fn simple<T, F, Fut>(
    link: &Link,
    ctx: &RequestContext<RoleServer>,
    forward: F,
) -> Result<T, ErrorData>
where
    F: FnOnce(Peer<RoleClient>) -> Fut,
    Fut: Future<Output = Result<T, ServiceError>>,
{
    let mut lease = Lease::take(&link.proxy, key(link, ctx))
        .await
        .map_err(gone)?;
    let peer = lease.peer().clone();
    let result = tokio::select! {
        r = forward(peer) => r.map_err(service_error),
        () = ctx.ct.cancelled() => Err(ErrorData::internal_error("the request was cancelled", None)),
    };
    if result.is_err() {
        lease.discard();
    }
    result
}

/// What the upstream says of itself (connecting once if no connection was made yet).
pub(crate) async fn upstream_info(
    link: &Link,
    ctx: &RequestContext<RoleServer>,
) -> Result<ServerConfig, ErrorData> {
    if let Some(info) = link.proxy.pool.info() {
        return Ok(info);
    }
    let lease = Lease::take(&link.proxy, key(link, ctx))
        .await
        .map_err(gone)?;
    drop(lease);
    link.proxy
        .pool
        .info()
        .ok_or_else(|| gone("the upstream did not describe itself".into()))
}

/// The request's own `_meta` without the revision's per-request keys (the proxy's
/// upstream connection sends its own): what is left (a progress token, a trace) goes on.
fn forwarded_meta(meta: Option<RequestMetaObject>) -> Option<RequestMetaObject> {
    let mut meta = meta?;
    meta.0
        .0
        .retain(|k, _| !k.starts_with("io.modelcontextprotocol/"));
    (!meta.0.0.is_empty()).then_some(meta)
}

/// What a held request runs upstream.
enum Work {
    Call(CallToolRequestParams),
    Prompt(GetPromptRequestParams),
    Read(ReadResourceRequestParams),
}

impl Work {
    async fn run(
        self,
        link: &Link,
        upstream: &Peer<RoleClient>,
        ct: &CancellationToken,
    ) -> Result<ServerResult, ErrorData> {
        // The downstream request ids change with every retry: the held request has none.
        let call = (RequestId::Number(0), None);
        match self {
            Work::Call(params) => call_via(link, upstream, params, call, ct)
                .await
                .map(ServerResult::CallToolResult),
            Work::Prompt(params) => {
                request_via(link, upstream, call, ct, |responses, state| {
                    let mut p = params.clone();
                    p.input_responses = responses;
                    p.request_state = state;
                    ClientRequest::GetPromptRequest(GetPromptRequest::new(p))
                })
                .await
            }
            Work::Read(params) => {
                request_via(link, upstream, call, ct, |responses, state| {
                    let mut p = params.clone();
                    p.input_responses = responses;
                    p.request_state = state;
                    ClientRequest::ReadResourceRequest(ReadResourceRequest::new(p))
                })
                .await
            }
        }
    }
}

/// What a held request answers a client request with.
enum Answer {
    Done(Box<ServerResult>),
    Round(InputRequiredResult),
}

/// One client request of a held request (its first, or a retry with `state`): the
/// upstream work starts on the first, each retry's answers are delivered, and the
/// request answers with the next round or the final result.
async fn held(
    link: &Link,
    ctx: &RequestContext<RoleServer>,
    binding: StateBinding,
    state: Option<String>,
    responses: Option<rmcp::model::InputResponses>,
    work: Work,
) -> Result<Answer, ErrorData> {
    let proxy = &link.proxy;
    let held = match state {
        Some(state) => {
            let responses: serde_json::Map<String, Value> =
                responses.unwrap_or_default().into_iter().collect();
            proxy.held.retry(&state, &binding, Some(&responses))?
        }
        None => {
            let held = proxy.held.insert(&user_key(&principal(link, ctx)))?;
            start(
                Arc::clone(proxy),
                key(link, ctx),
                declared(ctx).0,
                &held,
                work,
            );
            held
        }
    };
    let progress = ctx
        .meta
        .get_progress_token()
        .map(|token| (ctx.peer.clone(), token));
    match held.next(&ctx.ct, progress).await {
        None => {
            // The client went away (or the request expired): nobody can answer the rest.
            proxy.held.remove(&held);
            Err(ErrorData::internal_error("the request was cancelled", None))
        }
        Some(Next::Done(result)) => {
            proxy.held.remove(&held);
            (*result).map(|r| Answer::Done(Box::new(r)))
        }
        Some(Next::Round { requests, round }) => {
            let state = proxy.held.seal(&held, round, &binding)?;
            Ok(Answer::Round(
                InputRound::new(requests, Some(state)).to_result(),
            ))
        }
    }
}

/// Starts the upstream work of `held` on a borrowed connection.
fn start(proxy: Arc<Proxy>, key: Key, capability: Capability, held: &Arc<Held>, work: Work) {
    let held = Arc::clone(held);
    tokio::spawn(async move {
        let result = match Lease::take(&proxy, key).await {
            Err(e) => Err(gone(e)),
            Ok(mut lease) => {
                let link = Arc::clone(lease.link());
                link.attach(Arc::clone(&held), capability);
                let upstream = lease.peer().clone();
                let result = work.run(&link, &upstream, &held.ct).await;
                if result.is_err() || held.ct.is_cancelled() {
                    lease.discard();
                }
                result
            }
        };
        held.finish(result);
    });
}

fn arguments(args: Option<&serde_json::Map<String, Value>>) -> Value {
    args.map(|a| Value::Object(a.clone()))
        .unwrap_or(Value::Null)
}

/// `tools/call` from a 2026-07-28 client.
pub(crate) async fn call_tool(
    link: &Link,
    mut request: CallToolRequestParams,
    ctx: &RequestContext<RoleServer>,
) -> Result<CallToolResponse, ErrorData> {
    let state = request.request_state.take();
    let responses = request.input_responses.take();
    request.meta = forwarded_meta(request.meta.take());
    let binding = StateBinding::new(
        &principal(link, ctx),
        "tools/call",
        &request.name,
        &arguments(request.arguments.as_ref()),
    );
    match held(link, ctx, binding, state, responses, Work::Call(request)).await? {
        Answer::Round(round) => Ok(CallToolResponse::InputRequired(round)),
        Answer::Done(r) => match *r {
            ServerResult::CallToolResult(r) => Ok(CallToolResponse::Complete(r)),
            _ => Err(ErrorData::internal_error(
                "the upstream answered tools/call with something else",
                None,
            )),
        },
    }
}

/// `prompts/get` from a 2026-07-28 client.
pub(crate) async fn get_prompt(
    link: &Link,
    mut request: GetPromptRequestParams,
    ctx: &RequestContext<RoleServer>,
) -> Result<GetPromptResponse, ErrorData> {
    let state = request.request_state.take();
    let responses = request.input_responses.take();
    request.meta = forwarded_meta(request.meta.take());
    let args = serde_json::to_value(&request.arguments).unwrap_or(Value::Null);
    let binding = StateBinding::new(&principal(link, ctx), "prompts/get", &request.name, &args);
    match held(link, ctx, binding, state, responses, Work::Prompt(request)).await? {
        Answer::Round(round) => Ok(GetPromptResponse::InputRequired(round)),
        Answer::Done(result) => prompt_response(*result),
    }
}

/// `resources/read` from a 2026-07-28 client.
pub(crate) async fn read_resource(
    link: &Link,
    mut request: ReadResourceRequestParams,
    ctx: &RequestContext<RoleServer>,
) -> Result<ReadResourceResponse, ErrorData> {
    let state = request.request_state.take();
    let responses = request.input_responses.take();
    request.meta = forwarded_meta(request.meta.take());
    let binding = StateBinding::new(
        &principal(link, ctx),
        "resources/read",
        &request.uri,
        &Value::Null,
    );
    match held(link, ctx, binding, state, responses, Work::Read(request)).await? {
        Answer::Round(round) => Ok(ReadResourceResponse::InputRequired(round)),
        Answer::Done(result) => read_response(*result),
    }
}

/// A -32042 for a held request: its pages checked and shown to the client as URL
/// requests of one round (2026-07-28 has no -32042); once the user consented to all and
/// the upstream said each is completed, `Ok` (the proxy calls again). `Err`: what the
/// user is told instead.
pub(crate) async fn url_steps(
    link: &Link,
    e: &ErrorData,
    ct: &CancellationToken,
) -> Result<(), CallToolResult> {
    let told = |text: &str| CallToolResult::error(vec![ContentBlock::text(text)]);
    let data = e.data.clone().unwrap_or_default();
    let Ok(required) = UrlElicitationRequired::parse_data(&data) else {
        tracing::info!(rule = "malformed", "malformed -32042 from the upstream");
        return Err(told(MALFORMED_URL_REQUIRED));
    };
    for elicitation in required.elicitations() {
        if let Err(refusal) = link.proxy.policy.check_url(&elicitation.url) {
            tracing::info!(rule = refusal.rule, "proxy refused a -32042");
            return Err(told(&refusal.to_user));
        }
    }
    if !link.capability().url {
        return Err(url_fallback(&required));
    }
    let Some(held) = link.held() else {
        return Err(told(
            "mcp-elicit proxy: no request to show the web page steps with",
        ));
    };
    let tickets = held.tickets(required.elicitations().len());
    let mut ids = Vec::new();
    let mut asks = Vec::new();
    for (elicitation, ticket) in required.elicitations().iter().zip(tickets) {
        link.shown_url(&elicitation.elicitation_id);
        ids.push(elicitation.elicitation_id.clone());
        let params = json!({"mode": "url", "url": elicitation.url, "message": elicitation.message});
        let held = Arc::clone(&held);
        asks.push(async move { held.ask(ticket, None, METHOD_CREATE, params, ct).await });
    }
    let answers = futures::future::join_all(asks).await;
    let accepted = answers.iter().all(|a| {
        a.as_ref()
            .and_then(|v| v.get("action"))
            .and_then(Value::as_str)
            == Some(Action::Accept.as_str())
    });
    if !accepted {
        tracing::info!("the user did not take the web page steps of a -32042");
        return Err(told(
            "The server needs you to complete a step on a web page first, and that step was \
             declined or cancelled, so the request ended. Run it again to retry.",
        ));
    }
    if !link.wait_completed(&ids, ct, URL_WAIT).await {
        tracing::info!("the web page steps of a -32042 were not completed in time");
        return Err(told(
            "The web page step was not completed within 10 minutes. Run the request again to retry.",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_revisions_own_meta_keys_stay_behind() {
        let mut meta = RequestMetaObject::default();
        meta.0.0.insert(
            "io.modelcontextprotocol/clientCapabilities".into(),
            json!({"elicitation": {}}),
        );
        meta.0.0.insert("progressToken".into(), json!(7));
        let kept = forwarded_meta(Some(meta)).expect("a progress token is left");
        assert_eq!(Value::Object(kept.0.0), json!({"progressToken": 7}));
        let mut only = RequestMetaObject::default();
        only.0.0.insert(
            "io.modelcontextprotocol/protocolVersion".into(),
            json!("2026-07-28"),
        );
        assert!(forwarded_meta(Some(only)).is_none());
    }

    #[test]
    fn arguments_bind_as_an_object_or_null() {
        let mut args = serde_json::Map::new();
        args.insert("a".into(), json!(1));
        assert_eq!(arguments(Some(&args)), json!({"a": 1}));
        assert_eq!(arguments(None), Value::Null);
    }
}
