//! 2026-07-28 multi round-trip requests: `InputRequiredResult` rounds.
//!
//! On 2026-07-28 a server does not send `elicitation/create`: it answers the request
//! (`tools/call`, `prompts/get`, `resources/read`) with an `InputRequiredResult`
//! (`resultType: "input_required"`, `inputRequests: {key: {method, params}}`, optional
//! `requestState`). [`ElicitationClient::call_tool`] then:
//! 1. reads the result as the server sent it (raw capture at the transport, rmcp's typed
//!    parse drops what it does not model) and checks it whole before showing anything:
//!    an unknown `resultType`, input requests that are not objects, more of them than
//!    [`Limits::max_input_requests`](crate::Limits::max_input_requests), a `requestState`
//!    that is not a string or is larger than
//!    [`Limits::max_request_state_bytes`](crate::Limits::max_request_state_bytes), a form
//!    that cannot be shown, a mode or a method (`sampling/createMessage`, `roots/list`)
//!    the client did not declare: the call ends with a [`CallError`] naming the problem,
//!    and nothing is sent;
//! 2. presents the input requests through the same [`ElicitationUi`] as 2025-11-25 requests
//!    (forms with defaults, validation and decline vs cancel; URLs with analysis and
//!    consent), several of them as the steps of one [`InputOverview`](crate::InputOverview);
//! 3. retries the request with a new JSON-RPC id, the answers in `inputResponses` and the
//!    `requestState` echoed exactly (omitted when the server sent none);
//! 4. when the server answers "still waiting" after a URL step (a result with no input
//!    requests, or the same URLs again), asks the user at once: retry now, wait, or
//!    cancel ([`ElicitationUi::still_waiting`]);
//! 5. stops after [`Config::max_input_rounds`](crate::Config::max_input_rounds) rounds.

use std::collections::BTreeMap;

use mcp_elicit_core::message::{CreateRequest, CreateResult, METHOD_CREATE};
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, ClientRequest, GetPromptRequest,
    GetPromptRequestParams, GetPromptResult, InputResponses, ReadResourceRequest,
    ReadResourceRequestParams, ReadResourceResult, ServerResult,
};
use rmcp::service::{PeerRequestOptions, ServiceError};
use rmcp::{Peer, RoleClient};
use serde_json::Value;
use tokio::time::Instant;

use crate::client::ElicitationClient;
use crate::config::Limits;
use crate::identity::ServerIdentity;
use crate::opener::UrlOpener;
use crate::rate_limit::Admission;
use crate::retry::CallError;
use crate::text::PlainText;
use crate::ui::{
    ElicitationUi, InputOverview, InputStep, Notice, OverviewChoice, StallChoice,
    StalledCompletion, UrlOrigin,
};
use crate::url_flow::UrlOutcome;

/// What a server answered to one attempt of a request.
enum Reply {
    /// The final result (typed by rmcp).
    Complete(Box<ServerResult>),
    /// More input is needed.
    Round(InputRound),
}

/// One `InputRequiredResult` as the server sent it, checked whole: what a 2026-07-28
/// client must present before it retries the request.
///
/// [`InputRound::parse`] is the reading [`ElicitationClient::call_tool`] uses; a gateway or
/// a host that drives rounds itself can use it on the raw result (the JSON-RPC `result`
/// member as received; [`RawRequests::take_result`](crate::RawRequests::take_result)
/// keeps it, since rmcp's typed parse drops members it does not model, such as
/// `pattern`).
///
/// ```
/// use mcp_elicit_client::{InputRound, Limits};
/// use serde_json::json;
///
/// let result = json!({
///     "resultType": "input_required",
///     "inputRequests": {
///         "party": {"method": "elicitation/create", "params": {
///             "mode": "form", "message": "How many?",
///             "requestedSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}}
///     },
///     "requestState": "opaque-1"
/// });
/// let round = InputRound::parse(&result, &Limits::default())?.expect("a round");
/// assert_eq!(round.requests.len(), 1);
/// assert_eq!(round.requests[0].0, "party");
/// assert_eq!(round.request_state.as_deref(), Some("opaque-1"));
///
/// // A final result is no round; a method the client did not declare ends the call.
/// assert!(InputRound::parse(&json!({"content": []}), &Limits::default())?.is_none());
/// let sampling = json!({"resultType": "input_required", "inputRequests": {
///     "s": {"method": "sampling/createMessage", "params": {}}}});
/// assert!(InputRound::parse(&sampling, &Limits::default()).is_err());
/// # Ok::<(), mcp_elicit_client::CallError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputRound {
    /// `(key, params)` of each `elicitation/create`, in the server's order.
    pub requests: Vec<(String, Value)>,
    /// `requestState`, to echo exactly (`None`: the server sent none, and the retry
    /// carries none).
    pub request_state: Option<String>,
}

impl InputRound {
    /// Reads one raw result: `None` for a final one (no `resultType`, or `"complete"`),
    /// else the round it asks for. Refused, with a [`CallError`] naming what and where:
    /// an unknown `resultType`; `inputRequests` or one of them not an object; more requests
    /// than [`Limits::max_input_requests`]; a `requestState` that is not a string or is
    /// longer than [`Limits::max_request_state_bytes`]; a method other than
    /// `elicitation/create` (sampling and roots are not declared by this client); a round
    /// with neither requests nor state. Keys and reasons the server chose are cut short in
    /// the error.
    pub fn parse(result: &Value, limits: &Limits) -> Result<Option<Self>, CallError> {
        parse_round(result, limits)
    }
}

/// Sends `notifications/cancelled` for a request whose answer nobody waits for any more
/// (the caller dropped the call), as rmcp's own request helpers do.
struct CancelOnDrop {
    peer: Option<Peer<RoleClient>>,
    id: rmcp::model::RequestId,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let Some(peer) = self.peer.take() else {
            return;
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let params = rmcp::model::CancelledNotificationParam::new(
            Some(self.id.clone()),
            Some("request abandoned by the caller".to_owned()),
        );
        runtime.spawn(async move {
            let _ = peer.notify_cancelled(params).await;
        });
    }
}

/// Most characters of a server's key (or other text it chose) an error repeats.
const SHOWN_CHARS: usize = 64;

/// Most characters of a refusal's reason an error repeats.
const REASON_CHARS: usize = 512;

/// `text` cut to `max` characters, `...` marking a cut: what an error keeps of text the
/// server chose, so that a huge key is not repeated whole to the user and the logs.
fn cut(text: &str, max: usize) -> String {
    let mut cut: String = text.chars().take(max).collect();
    if cut.len() < text.len() {
        cut.push_str("...");
    }
    cut
}

/// A key as it may be shown in an error: quoted, escaped, cut short.
fn shown(key: &str) -> String {
    let cut: String = key.chars().take(SHOWN_CHARS).collect();
    if cut.len() < key.len() {
        format!("{cut:?}...")
    } else {
        format!("{cut:?}")
    }
}

/// The refusal of input request `key`: the key and the reason cut short (both may come
/// from the server).
fn refused(key: &str, reason: &str) -> CallError {
    CallError::InputRequestRefused {
        key: cut(key, SHOWN_CHARS),
        reason: cut(reason, REASON_CHARS),
    }
}

fn malformed(reason: impl Into<String>) -> CallError {
    CallError::MalformedInputRequired {
        reason: reason.into(),
    }
}

/// Reads one raw result: complete (`None`) or the round it asks for.
fn parse_round(result: &Value, limits: &Limits) -> Result<Option<InputRound>, CallError> {
    let Some(obj) = result.as_object() else {
        return Err(malformed("the result is not a JSON object"));
    };
    match obj.get("resultType") {
        None => return Ok(None),
        Some(Value::String(t)) if t == "complete" => return Ok(None),
        Some(Value::String(t)) if t == "input_required" => {}
        Some(Value::String(t)) => {
            return Err(malformed(format!(
                "unknown resultType {} (this client knows \"complete\" and \"input_required\")",
                shown(t)
            )));
        }
        Some(_) => return Err(malformed("resultType is not a string")),
    }
    let state = match obj.get("requestState") {
        None => None,
        Some(Value::String(s)) if s.len() > limits.max_request_state_bytes => {
            return Err(malformed(format!(
                "requestState is {} bytes, more than this client echoes ({} bytes)",
                s.len(),
                limits.max_request_state_bytes
            )));
        }
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return Err(malformed("requestState is not a string")),
    };
    let mut requests = Vec::new();
    match obj.get("inputRequests") {
        None => {}
        Some(Value::Object(map)) => {
            if map.len() > limits.max_input_requests {
                return Err(malformed(format!(
                    "{} input requests in one round, more than this client accepts ({})",
                    map.len(),
                    limits.max_input_requests
                )));
            }
            for (key, request) in map {
                let Some(request) = request.as_object() else {
                    return Err(malformed(format!(
                        "inputRequests.{} is not an object",
                        shown(key)
                    )));
                };
                let method = match request.get("method") {
                    Some(Value::String(m)) => m.as_str(),
                    _ => {
                        return Err(malformed(format!(
                            "inputRequests.{} has no method",
                            shown(key)
                        )));
                    }
                };
                match method {
                    METHOD_CREATE => match request.get("params") {
                        Some(params @ Value::Object(_)) => {
                            requests.push((key.clone(), params.clone()))
                        }
                        _ => {
                            return Err(malformed(format!(
                                "inputRequests.{}: elicitation/create params are not an object",
                                shown(key)
                            )));
                        }
                    },
                    "sampling/createMessage" | "roots/list" => {
                        return Err(refused(
                            key,
                            &format!(
                                "the server asked for {method}, which this client did not declare"
                            ),
                        ));
                    }
                    other => {
                        return Err(malformed(format!(
                            "inputRequests.{}: unknown method {}",
                            shown(key),
                            shown(other)
                        )));
                    }
                }
            }
        }
        Some(_) => return Err(malformed("inputRequests is not an object")),
    }
    if requests.is_empty() && state.is_none() && !obj.contains_key("inputRequests") {
        return Err(malformed(
            "an InputRequiredResult must carry inputRequests or requestState",
        ));
    }
    Ok(Some(InputRound {
        requests,
        request_state: state,
    }))
}

/// [`parse_round`] for the fuzz targets: `None` for a complete result, else the round's
/// `(key, elicitation/create params)` in the server's order and its `requestState`.
#[cfg(fuzzing)]
#[allow(clippy::type_complexity)]
pub fn parse_input_required(
    result: &Value,
    limits: &Limits,
) -> Result<Option<(Vec<(String, Value)>, Option<String>)>, CallError> {
    parse_round(result, limits).map(|r| r.map(|r| (r.requests, r.request_state)))
}

/// The URL of a URL-mode `elicitation/create`, if it is one.
fn url_of(params: &Value) -> Option<&str> {
    (params.get("mode").and_then(Value::as_str) == Some("url"))
        .then(|| params.get("url").and_then(Value::as_str))
        .flatten()
}

impl<U: ElicitationUi, O: UrlOpener> ElicitationClient<U, O> {
    /// `tools/call` on 2026-07-28: drives the input rounds; see the [module docs](self).
    pub(crate) async fn call_tool_rounds(
        &self,
        peer: &Peer<RoleClient>,
        params: CallToolRequestParams,
    ) -> Result<CallToolResult, CallError> {
        let tool = params.name.to_string();
        let result = self
            .request_rounds(peer, &tool, |responses, state| {
                let mut p = params.clone();
                p.input_responses = responses;
                p.request_state = state;
                ClientRequest::CallToolRequest(CallToolRequest::new(p))
            })
            .await?;
        match result {
            ServerResult::CallToolResult(r) => Ok(r),
            ServerResult::CustomResult(c) => serde_json::from_value(c.0)
                .map_err(|_| CallError::Service(ServiceError::UnexpectedResponse)),
            _ => Err(CallError::Service(ServiceError::UnexpectedResponse)),
        }
    }

    /// Gets a prompt. On 2026-07-28 the server may ask for input first: the rounds are
    /// driven as for [`call_tool`](Self::call_tool); on 2025-11-25, -32042 is handled.
    pub async fn get_prompt(
        &self,
        peer: &Peer<RoleClient>,
        params: GetPromptRequestParams,
    ) -> Result<GetPromptResult, CallError> {
        let label = params.name.clone();
        if !crate::client::is_2026(peer) {
            return self
                .with_url_elicitation(peer, &label, || peer.get_prompt(params.clone()))
                .await;
        }
        let result = self
            .request_rounds(peer, &label, |responses, state| {
                let mut p = params.clone();
                p.input_responses = responses;
                p.request_state = state;
                ClientRequest::GetPromptRequest(GetPromptRequest::new(p))
            })
            .await?;
        match result {
            ServerResult::GetPromptResult(r) => Ok(r),
            _ => Err(CallError::Service(ServiceError::UnexpectedResponse)),
        }
    }

    /// Reads a resource, with the same input rounds (2026-07-28) or -32042 handling
    /// (2025-11-25) as [`call_tool`](Self::call_tool).
    pub async fn read_resource(
        &self,
        peer: &Peer<RoleClient>,
        params: ReadResourceRequestParams,
    ) -> Result<ReadResourceResult, CallError> {
        let label = params.uri.clone();
        if !crate::client::is_2026(peer) {
            return self
                .with_url_elicitation(peer, &label, || peer.read_resource(params.clone()))
                .await;
        }
        let result = self
            .request_rounds(peer, &label, |responses, state| {
                let mut p = params.clone();
                p.input_responses = responses;
                p.request_state = state;
                ClientRequest::ReadResourceRequest(ReadResourceRequest::new(p))
            })
            .await?;
        match result {
            ServerResult::ReadResourceResult(r) => Ok(r),
            _ => Err(CallError::Service(ServiceError::UnexpectedResponse)),
        }
    }

    /// Sends `make(responses, state)` until the server answers with a final result.
    pub(crate) async fn request_rounds<F>(
        &self,
        peer: &Peer<RoleClient>,
        label: &str,
        make: F,
    ) -> Result<ServerResult, CallError>
    where
        F: Fn(Option<InputResponses>, Option<String>) -> ClientRequest,
    {
        let max = self.config().max_input_rounds;
        let mut responses: Option<InputResponses> = None;
        let mut state: Option<String> = None;
        // URLs the user consented to during this call, and since when.
        let mut consented: Vec<String> = Vec::new();
        let mut consented_at = Instant::now();
        let mut rounds = 0u32;
        loop {
            let round = match self
                .send_once(peer, make(responses.take(), state.take()))
                .await?
            {
                Reply::Complete(result) => return Ok(*result),
                Reply::Round(round) => round,
            };
            rounds += 1;
            if rounds > max {
                return Err(CallError::InputRoundsExhausted { rounds: max });
            }
            state = round.request_state;
            let waiting = !consented.is_empty()
                && round
                    .requests
                    .iter()
                    .all(|(_, p)| url_of(p).is_some_and(|u| consented.iter().any(|c| c == u)));
            if waiting {
                // "Still waiting": nothing new to ask; the user decides at once.
                let stalled = StalledCompletion {
                    server: self.identity(peer),
                    tool: label.to_owned(),
                    pending: consented.clone(),
                    waited: consented_at.elapsed(),
                };
                match self.shared.ui.still_waiting(stalled).await {
                    StallChoice::RetryNow => {}
                    StallChoice::KeepWaiting => {
                        tokio::time::sleep(self.config().poll_interval).await
                    }
                    StallChoice::Cancel => return Err(CallError::Abandoned),
                }
                // The same URLs again: the user's consent to them stands.
                responses = (!round.requests.is_empty()).then(|| {
                    round
                        .requests
                        .iter()
                        .map(|(k, _)| (k.clone(), CreateResult::accept_url().to_value()))
                        .collect()
                });
                continue;
            }
            if round.requests.is_empty() {
                // State only (load shedding): the client may retry at once.
                continue;
            }
            let before = consented.len();
            responses = Some(
                self.fulfil_round(peer, label, rounds, round.requests, &mut consented)
                    .await?,
            );
            if consented.len() > before {
                consented_at = Instant::now();
            }
        }
    }

    /// Sends one attempt and reads the answer (raw when captured).
    async fn send_once(
        &self,
        peer: &Peer<RoleClient>,
        request: ClientRequest,
    ) -> Result<Reply, CallError> {
        let handle = peer
            .send_request_with_option(request, PeerRequestOptions::no_options())
            .await
            .map_err(CallError::Service)?;
        let id = handle.id.clone();
        let mut abandoned = CancelOnDrop {
            peer: Some(peer.clone()),
            id: id.clone(),
        };
        let typed = handle.await_response().await;
        abandoned.peer = None;
        let raw = self.shared.raw.take_result(&id);
        let typed = typed.map_err(CallError::Service)?;
        let limits = &self.config().limits;
        let raw = match (raw, &typed) {
            (Some(raw), _) => raw,
            // Not captured (a transport of the caller's): rmcp's typed parse, lossy.
            (None, ServerResult::InputRequiredResult(r)) => serde_json::to_value(r)
                .map_err(|e| malformed(format!("cannot read the result: {e}")))?,
            (None, _) => return Ok(Reply::Complete(Box::new(typed))),
        };
        match parse_round(&raw, limits)? {
            None => Ok(Reply::Complete(Box::new(typed))),
            Some(round) => Ok(Reply::Round(round)),
        }
    }

    /// Presents one round's input requests and collects the answers.
    async fn fulfil_round(
        &self,
        peer: &Peer<RoleClient>,
        tool: &str,
        round: u32,
        requests: Vec<(String, Value)>,
        consented: &mut Vec<String>,
    ) -> Result<InputResponses, CallError> {
        let server = self.identity(peer);
        // Every request is checked before anything is shown: one bad one ends the call.
        let mut checked = Vec::with_capacity(requests.len());
        for (key, mut params) in requests {
            // 2026-07-28 URL requests carry no elicitationId; the core's reading wants
            // one, so the key stands in (it is never sent).
            if url_of(&params).is_some()
                && let Some(obj) = params.as_object_mut()
                && !obj.contains_key("elicitationId")
            {
                obj.insert("elicitationId".into(), Value::String(key.clone()));
            }
            match self.check_request(&params) {
                Ok(request) => checked.push((key, request, params)),
                // The call ends with this error (2025-11-25's Notice::Refused says the
                // server goes on, which is not so here).
                Err(e) => return Err(refused(&key, &e.message)),
            }
        }
        if self.is_stop_asking() {
            return Ok(checked
                .into_iter()
                .map(|(k, _, _)| (k, CreateResult::decline().to_value()))
                .collect());
        }
        // One round is one prompt for the rate limit, however many steps it has; answered,
        // it gives its token back like a 2025-11-25 request (see `rate_limit`).
        let arrival = self.shared.limiter.arrive();
        match arrival.admission() {
            Admission::Allowed => {}
            admission => {
                if admission == Admission::RefusedNotify {
                    self.shared
                        .ui
                        .notify(Notice::RateLimited {
                            server: server.clone(),
                            policy: self.shared.limiter.policy(),
                        })
                        .await;
                }
                return Err(CallError::RateLimited);
            }
        }
        let _turn = self.shared.lane.lock().await;
        let of = checked.len();
        if of > 1 {
            let overview = InputOverview {
                server: server.clone(),
                tool: tool.to_owned(),
                steps: checked.iter().map(|(k, r, _)| step_of(k, r)).collect(),
                round,
            };
            if self.shared.ui.input_overview(overview).await == OverviewChoice::Cancel {
                return Err(CallError::Abandoned);
            }
        }
        let mut answers = BTreeMap::new();
        let mut dismissed = false;
        let mut accepted = false;
        for (i, (key, request, params)) in checked.into_iter().enumerate() {
            let result = if dismissed {
                CreateResult::cancel()
            } else if self.is_stop_asking() {
                CreateResult::decline()
            } else {
                let origin = UrlOrigin::InputRequired {
                    tool: tool.to_owned(),
                    key: key.clone(),
                    step: i + 1,
                    of,
                };
                self.present_step(&server, key.clone(), request, params, origin, consented)
                    .await
            };
            dismissed |= result.action == mcp_elicit_core::message::Action::Cancel;
            accepted |= result.action == mcp_elicit_core::message::Action::Accept;
            answers.insert(key, result.to_value());
        }
        arrival.answered(accepted);
        Ok(answers)
    }

    /// One step: the form or the URL consent, under the prompt timeout.
    async fn present_step(
        &self,
        server: &ServerIdentity,
        key: String,
        request: CreateRequest,
        params: Value,
        origin: UrlOrigin,
        consented: &mut Vec<String>,
    ) -> CreateResult {
        let answer = async {
            match request {
                CreateRequest::Form(form) => {
                    let raw_schema = params.get("requestedSchema").cloned().unwrap_or_default();
                    self.run_form(server.clone(), key, form, raw_schema).await
                }
                CreateRequest::Url(url) => match self.consent_url(server, origin, &url).await {
                    UrlOutcome::Opened => {
                        consented.push(url.url.clone());
                        CreateResult::accept_url()
                    }
                    UrlOutcome::Declined | UrlOutcome::Blocked => CreateResult::decline(),
                    UrlOutcome::Cancelled => CreateResult::cancel(),
                },
            }
        };
        match self.shared.config.prompt_timeout {
            Some(limit) => tokio::time::timeout(limit, answer)
                .await
                .unwrap_or_else(|_| CreateResult::cancel()),
            None => answer.await,
        }
    }
}

fn step_of(key: &str, request: &CreateRequest) -> InputStep {
    match request {
        CreateRequest::Form(form) => InputStep::Form {
            key: key.to_owned(),
            message: PlainText::from_untrusted(&form.message),
            fields: form
                .schema
                .properties()
                .iter()
                .map(|p| p.label().to_owned())
                .collect(),
        },
        CreateRequest::Url(url) => InputStep::Url {
            key: key.to_owned(),
            message: PlainText::from_untrusted(&url.message),
            url: url.url.clone(),
            analysis: Box::new(mcp_elicit_core::url_safety::analyze(&url.url)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn limits() -> Limits {
        Limits::default()
    }

    fn err(v: Value) -> String {
        match parse_round(&v, &limits()) {
            Err(e) => e.to_string(),
            Ok(_) => String::from("accepted"),
        }
    }

    #[test]
    fn complete_and_absent_result_types_are_final() {
        assert!(matches!(
            parse_round(&json!({"content": []}), &limits()),
            Ok(None)
        ));
        assert!(matches!(
            parse_round(&json!({"resultType": "complete"}), &limits()),
            Ok(None)
        ));
    }

    #[test]
    fn malformed_rounds_are_named() {
        assert!(err(json!({"resultType": "bogus"})).contains("unknown resultType \"bogus\""));
        assert!(err(json!({"resultType": 3})).contains("resultType is not a string"));
        assert!(
            err(json!({"resultType": "input_required"})).contains("inputRequests or requestState")
        );
        assert!(
            err(json!({"resultType": "input_required", "inputRequests": {"a": 1}}))
                .contains("inputRequests.\"a\" is not an object")
        );
        assert!(
            err(json!({"resultType": "input_required", "inputRequests": []}))
                .contains("inputRequests is not an object")
        );
        assert!(
            err(json!({"resultType": "input_required", "requestState": {"x": 1}}))
                .contains("requestState is not a string")
        );
        let huge = "x".repeat(limits().max_request_state_bytes + 1);
        assert!(
            err(json!({"resultType": "input_required", "requestState": huge}))
                .contains("more than this client echoes")
        );
        let many: serde_json::Map<String, Value> = (0..300)
            .map(|i| {
                (
                    format!("k{i}"),
                    json!({"method": "elicitation/create", "params": {}}),
                )
            })
            .collect();
        assert!(
            err(json!({"resultType": "input_required", "inputRequests": many}))
                .contains("300 input requests")
        );
        assert!(
            err(json!({"resultType": "input_required", "inputRequests": {"s": {"method": "sampling/createMessage", "params": {}}}}))
                .contains("did not declare")
        );
        assert!(
            err(
                json!({"resultType": "input_required", "inputRequests": {"p": {"method": "ping"}}})
            )
            .contains("unknown method \"ping\"")
        );
    }

    /// What the `input_rounds` fuzz target checks (an error stays short whatever the
    /// server sent): a refused request's key was repeated whole, however long it was.
    #[test]
    fn a_refused_request_repeats_only_the_start_of_a_huge_key() {
        let key = "k".repeat(100_000);
        let round = json!({"resultType": "input_required", "inputRequests": {
            key.clone(): {"method": "sampling/createMessage", "params": {}}
        }});
        let e = parse_round(&round, &limits()).expect_err("refused");
        let CallError::InputRequestRefused { key: kept, .. } = &e else {
            panic!("not a refusal: {e}")
        };
        assert_eq!(kept, &format!("{}...", "k".repeat(SHOWN_CHARS)));
        let text = e.to_string();
        assert!(text.chars().count() < 400, "{} characters", text.len());
        assert!(text.contains("did not declare"), "{text}");
        // A short key is kept whole.
        let round = json!({"resultType": "input_required", "inputRequests": {
            "r": {"method": "roots/list"}
        }});
        let e = parse_round(&round, &limits()).expect_err("refused");
        assert!(matches!(&e, CallError::InputRequestRefused { key, .. } if key == "r"));
        assert_eq!(
            cut(&"\u{e9}".repeat(600), REASON_CHARS).chars().count(),
            REASON_CHARS + 3
        );
    }

    #[test]
    fn state_is_kept_exactly() {
        let state = "  {\"a\":1}\u{e9}\\n ";
        let round = parse_round(
            &json!({"resultType": "input_required", "requestState": state}),
            &limits(),
        );
        let Ok(Some(round)) = round else {
            panic!("not a round")
        };
        assert_eq!(round.request_state.as_deref(), Some(state));
        assert!(round.requests.is_empty());
    }
}
