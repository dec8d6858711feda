//! The revision bridge for a 2025-11-25 client in front of a 2026-07-28 upstream: the
//! upstream answers `tools/call` (or `prompts/get`, `resources/read`) with an
//! `InputRequiredResult`; each of its input requests goes through the same policy as a
//! 2025-11-25 `elicitation/create` and on to the client as an `elicitation/create` on the
//! call's stream; the answers go back in `inputResponses` with the `requestState` echoed,
//! until the upstream gives its final result.
//!
//! URL mode: a 2026-07-28 URL request has no `elicitationId`, and a 2025-11-25 one must
//! have one, so the proxy gives it one of its own. The client's `accept` is its consent;
//! while the upstream answers the retry with the same URL again ("still waiting" for the
//! page to be completed) or with state only, the proxy keeps the client's call open and
//! asks again, every 1 s at first and then every 5 s, for at most 10 minutes. When the final
//! result comes, the proxy sends the client `notifications/elicitation/complete` for that
//! id, as a 2025-11-25 server does, then the result (the notification travels on the
//! standalone stream, the result on the call's: the client may see either first).
//!
//! What the upstream may not do to the client or the proxy: a malformed round, a request
//! the policy refuses, more than [`MAX_ASKING_ROUNDS`] rounds that ask the user something
//! or [`MAX_STATE_ONLY_ROUNDS`] rounds in a row that ask nothing, end the request with a
//! message for the user, and nothing more is sent upstream: no answer reaches the upstream
//! that the user did not give (the proxy's own `cancel` and `decline`, for a rate limit, a
//! timeout or the URL fallback, are what a 2025-11-25 client answers in those cases).
#![allow(deprecated)] // sampling and roots are legacy in rmcp; both revisions still have them

use std::collections::BTreeMap;
use std::time::Duration;

use mcp_elicit_client::{InputRound, Limits};
use mcp_elicit_core::message::{Action, CreateResult, METHOD_COMPLETE};
use rmcp::model::{
    ClientRequest, CreateMessageRequest, CustomNotification, GetExtensions, InputResponses,
    ListRootsRequest, RequestId, ServerNotification, ServerRequest, ServerResult,
};
use rmcp::service::{OriginatingRequestId, PeerRequestOptions};
use rmcp::{Peer, RoleClient, ServiceError};
use serde_json::Value;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::link::Link;
use super::upstream;

/// Most rounds that ask the user something, per request.
pub(crate) const MAX_ASKING_ROUNDS: u32 = 10;

/// Most rounds in a row with neither a question nor a URL the user consented to.
pub(crate) const MAX_STATE_ONLY_ROUNDS: u32 = 10;

/// How long the proxy keeps asking the upstream whether a page the user consented to was
/// completed.
const URL_WAIT: Duration = Duration::from_secs(600);

/// The first and the longest pause between two "still waiting" retries.
const POLL_FIRST: Duration = Duration::from_secs(1);
const POLL_MAX: Duration = Duration::from_secs(5);

/// Why a bridged request ended without the upstream's final result.
#[derive(Debug)]
pub(crate) enum Stop {
    /// The upstream answered with an error, or its transport failed: as is.
    Service(ServiceError),
    /// The upstream connection is gone.
    Gone,
    /// The client cancelled the request.
    Cancelled,
    /// The proxy ended the request for the user's sake; the text says why (notes the
    /// policy left for the user come with the call's result).
    Refused(String),
}

/// The user's text for a request the proxy ended because of what the upstream asked.
fn refused(why: &str) -> Stop {
    Stop::Refused(format!(
        "mcp-elicit proxy ended this request: {why} Nothing more was sent to the server."
    ))
}

/// The URL of a URL-mode `elicitation/create`, if it is one.
fn url_of(params: &Value) -> Option<&str> {
    (params.get("mode").and_then(Value::as_str) == Some("url"))
        .then(|| params.get("url").and_then(Value::as_str))
        .flatten()
}

/// 128 random bits as 32 hex digits (never repeated within this process, even without
/// system randomness).
pub(crate) fn random_hex() -> String {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        // No randomness: still unique within this process, never reused.
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        bytes[..8].copy_from_slice(&n.to_be_bytes());
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A new elicitation id for a 2026-07-28 URL request shown to a 2025-11-25 client.
fn new_elicitation_id() -> String {
    format!("proxy-{}", random_hex())
}

/// A URL the user consented to in this request, and the id the client knows it by.
struct Consented {
    url: String,
    id: String,
}

/// Sends `make(responses, state)` to the upstream until it gives a final result (returned
/// as is; a 2025-11-25 upstream gives it at once), presenting each round to the client.
/// `call` is the downstream request (its number in the session and its id): the client's
/// `elicitation/create` requests ride its stream, and the user's notes go with it.
pub(crate) async fn drive<F>(
    link: &Link,
    upstream: &Peer<RoleClient>,
    call: Option<(u64, RequestId)>,
    ct: &CancellationToken,
    make: F,
) -> Result<ServerResult, Stop>
where
    F: Fn(Option<InputResponses>, Option<String>) -> ClientRequest,
{
    let limits = Limits::default();
    let mut responses: Option<InputResponses> = None;
    let mut state: Option<String> = None;
    let mut consented: Vec<Consented> = Vec::new();
    let mut waiting_since: Option<Instant> = None;
    let mut poll = POLL_FIRST;
    let (mut asking, mut state_only) = (0u32, 0u32);
    loop {
        let request = make(responses.take(), state.take());
        let (typed, raw) =
            send_once(link, upstream, call.as_ref().map(|c| c.0), ct, request).await?;
        let raw = match (raw, &typed) {
            (Some(raw), _) => raw,
            // Not captured: rmcp's typed parse (which drops members it does not model).
            (None, ServerResult::InputRequiredResult(r)) => {
                serde_json::to_value(r).unwrap_or(Value::Null)
            }
            (None, _) => {
                complete(link, &consented).await;
                return Ok(typed);
            }
        };
        // A held request passes sampling and roots on to a client that declared them.
        let (raw, relayed) = split_relayed(link, raw);
        let only_relayed = !relayed.is_empty()
            && raw["inputRequests"]
                .as_object()
                .is_none_or(serde_json::Map::is_empty);
        let parsed = if !only_relayed {
            InputRound::parse(&raw, &limits)
        } else {
            Ok(Some(InputRound {
                requests: Vec::new(),
                request_state: raw["requestState"].as_str().map(str::to_owned),
            }))
        };
        let round = match parsed {
            Ok(None) => {
                complete(link, &consented).await;
                return Ok(typed);
            }
            Ok(Some(round)) => round,
            Err(e) => {
                tracing::info!(
                    rule = "malformed",
                    "malformed InputRequiredResult from the upstream"
                );
                return Err(refused(&format!(
                    "the server asked for input in a way this proxy does not pass on ({e})."
                )));
            }
        };
        state = round.request_state;
        let pending_urls = !consented.is_empty()
            && relayed.is_empty()
            && round
                .requests
                .iter()
                .all(|(_, p)| url_of(p).is_some_and(|u| consented.iter().any(|c| c.url == u)));
        if pending_urls {
            // Still waiting for a page the user consented to: ask again later.
            let since = *waiting_since.get_or_insert_with(Instant::now);
            if since.elapsed() >= URL_WAIT {
                tracing::info!("the web page step was not completed in time");
                return Err(refused(
                    "the web page step was not completed within 10 minutes. Run the request \
                     again to retry.",
                ));
            }
            tokio::select! {
                () = tokio::time::sleep(poll) => {}
                () = ct.cancelled() => return Err(Stop::Cancelled),
            }
            poll = (poll * 2).min(POLL_MAX);
            responses = (!round.requests.is_empty()).then(|| {
                round
                    .requests
                    .iter()
                    .map(|(k, _)| (k.clone(), CreateResult::accept_url().to_value()))
                    .collect()
            });
            continue;
        }
        if round.requests.is_empty() && relayed.is_empty() {
            // State only (load shedding): the client may retry at once, a bounded number of
            // times.
            state_only += 1;
            if state_only > MAX_STATE_ONLY_ROUNDS {
                tracing::info!(
                    rule = "rounds",
                    "the upstream kept answering with state only"
                );
                return Err(refused(&format!(
                    "the server answered {MAX_STATE_ONLY_ROUNDS} times in a row without a result \
                     or a question."
                )));
            }
            continue;
        }
        state_only = 0;
        asking += 1;
        if asking > MAX_ASKING_ROUNDS {
            tracing::info!(
                rule = "rounds",
                "the upstream asked for input too many times"
            );
            return Err(refused(&format!(
                "the server asked for input more than {MAX_ASKING_ROUNDS} times for one request."
            )));
        }
        // A 2026-07-28 client gets the round's questions as one round of its own (asked
        // together); a 2025-11-25 client one `elicitation/create` after another.
        let together = link.held().is_some();
        let mut tickets = link.tickets(round.requests.len() + relayed.len());
        let relayed_tickets = tickets.split_off(round.requests.len());
        let relays =
            relayed
                .into_iter()
                .zip(relayed_tickets)
                .map(|((key, method, params), ticket)| {
                    relay_one(link, call.clone(), key, method, params, ct, ticket)
                });
        let asks = round
            .requests
            .into_iter()
            .zip(tickets)
            .map(|((key, params), ticket)| ask_one(link, call.clone(), key, params, ct, ticket));
        // Relayed requests only exist for a held request, whose questions are asked
        // together (one round): both kinds at once, or the round would wait for ever.
        let (asked, relayed): (Vec<_>, Vec<_>) = if together {
            futures::future::join(
                futures::future::join_all(asks),
                futures::future::join_all(relays),
            )
            .await
        } else {
            let mut asked = Vec::new();
            for ask in asks {
                asked.push(ask.await);
            }
            (asked, futures::future::join_all(relays).await)
        };
        let mut answers = BTreeMap::new();
        for (key, answer) in relayed {
            answers.insert(key, answer?);
        }
        for one in asked {
            let (key, answer, consent) = one?;
            if let Some(c) = consent {
                consented.push(c);
            }
            answers.insert(key, answer);
        }
        if !consented.is_empty() {
            waiting_since = Some(Instant::now());
            poll = POLL_FIRST;
        }
        responses = Some(answers);
    }
}

/// One input request of an upstream round through the rules to the client: its key, the
/// answer, and the consented URL (if it was a URL the user accepted).
async fn ask_one(
    link: &Link,
    call: Option<(u64, RequestId)>,
    key: String,
    mut params: Value,
    ct: &CancellationToken,
    ticket: super::held::Ticket,
) -> Result<(String, Value, Option<Consented>), Stop> {
    let url = url_of(&params).map(str::to_owned);
    let mut id = None;
    // A 2025-11-25 client needs an elicitation id, which 2026-07-28 has not; a 2026-07-28
    // client (a held request) gets the request as it came.
    if url.is_some()
        && link.held().is_none()
        && let Some(obj) = params.as_object_mut()
    {
        // 2026-07-28 has none (rmcp's model writes an empty one); a non-empty id an
        // upstream sent anyway is kept.
        let own = match obj.get("elicitationId") {
            Some(Value::String(s)) if !s.is_empty() => s.clone(),
            _ => new_elicitation_id(),
        };
        obj.insert("elicitationId".into(), Value::String(own.clone()));
        id = Some(own);
    }
    let answer = match upstream::elicit(link, call, params, ct, ticket, Some(key.clone())).await {
        Ok(answer) => answer,
        // Refused by the policy: the note tells the user why.
        Err(_) => {
            return Err(refused(
                "the server asked for something this proxy does not pass on (see below).",
            ));
        }
    };
    let accepted = answer.get("action").and_then(Value::as_str) == Some(Action::Accept.as_str());
    let consent = match (url, accepted) {
        (Some(url), true) => Some(Consented {
            url,
            id: id.unwrap_or_default(),
        }),
        _ => None,
    };
    Ok((key, answer, consent))
}

/// Takes the sampling and roots requests a held request's client declared out of a raw
/// round (`(key, method, params)` each); the rest of the round is left to the reader.
fn split_relayed(link: &Link, mut raw: Value) -> (Value, Vec<(String, String, Value)>) {
    let mut relayed = Vec::new();
    // A held request's client (2026-07-28) declared them in its `_meta`, a 2025-11-25
    // client at `initialize`: either way, only what it declared is passed on.
    let declared = link.client_capabilities();
    if let Some(requests) = raw.get_mut("inputRequests").and_then(Value::as_object_mut) {
        let keys: Vec<String> = requests
            .iter()
            .filter(|(_, r)| match r.get("method").and_then(Value::as_str) {
                Some("sampling/createMessage") => declared.sampling.is_some(),
                Some("roots/list") => declared.roots.is_some(),
                _ => false,
            })
            .map(|(k, _)| k.clone())
            .collect();
        for key in keys {
            if let Some(Value::Object(mut r)) = requests.remove(&key) {
                let method = r
                    .get("method")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                let params = r.remove("params").unwrap_or_else(|| serde_json::json!({}));
                relayed.push((key, method, params));
            }
        }
    }
    (raw, relayed)
}

/// A sampling or roots request of the upstream, passed on as it came (the proxy applies no
/// rule to them): a question of a held request's round, or a request to a 2025-11-25
/// client on the stream of `call`; its answer as the client gave it.
async fn relay_one(
    link: &Link,
    call: Option<(u64, RequestId)>,
    key: String,
    method: String,
    params: Value,
    ct: &CancellationToken,
    ticket: super::held::Ticket,
) -> (String, Result<Value, Stop>) {
    if let Some(held) = link.held() {
        let answer = held
            .ask(ticket, Some(&key), &method, params, ct)
            .await
            .ok_or(Stop::Cancelled);
        return (key, answer);
    }
    drop(ticket);
    let Some(peer) = link.downstream() else {
        return (key, Err(Stop::Cancelled));
    };
    let request = match method.as_str() {
        "sampling/createMessage" => match serde_json::from_value(params) {
            Ok(p) => ServerRequest::CreateMessageRequest(CreateMessageRequest::new(p)),
            Err(_) => {
                return (
                    key,
                    Err(refused("the server sent a malformed sampling request.")),
                );
            }
        },
        _ => ServerRequest::ListRootsRequest(ListRootsRequest::default()),
    };
    let mut request = request;
    if let Some((_, id)) = call {
        request.extensions_mut().insert(OriginatingRequestId(id));
    }
    let handle = match peer
        .send_request_with_option(request, PeerRequestOptions::no_options())
        .await
    {
        Ok(h) => h,
        Err(_) => return (key, Err(Stop::Cancelled)),
    };
    let mut rx = handle.rx;
    let answer = tokio::select! {
        a = &mut rx => a,
        () = ct.cancelled() => return (key, Err(Stop::Cancelled)),
    };
    let answer = match answer {
        Ok(Ok(result)) => serde_json::to_value(&result).map_err(|_| Stop::Cancelled),
        // The client refused (it may not sample now): the call ends with its reason.
        Ok(Err(e)) => Err(refused(&format!("the client refused {method}: {e}."))),
        Err(_) => Err(Stop::Cancelled),
    };
    (key, answer)
}

/// One attempt: the upstream's typed answer and, when captured, its raw result.
async fn send_once(
    link: &Link,
    upstream: &Peer<RoleClient>,
    seq: Option<u64>,
    ct: &CancellationToken,
    request: ClientRequest,
) -> Result<(ServerResult, Option<Value>), Stop> {
    let mut handle = upstream
        .send_request_with_option(request, PeerRequestOptions::no_options())
        .await
        .map_err(Stop::Service)?;
    if let Some(seq) = seq {
        link.set_upstream_progress(seq, handle.progress_token.clone());
    }
    let id = handle.id.clone();
    let ended = tokio::select! {
        a = &mut handle.rx => Some(a),
        () = ct.cancelled() => None,
    };
    let raw = link.raw.take_result(&id);
    if let Some(Ok(_)) = &ended {
        // The progress the upstream sent before its answer reaches the client first.
        link.progress_order.settled(&handle.progress_token).await;
    }
    match ended {
        None => {
            let _ = handle
                .cancel(Some("the client cancelled the request".to_owned()))
                .await;
            Err(Stop::Cancelled)
        }
        Some(Err(_)) => Err(Stop::Gone),
        Some(Ok(Err(e))) => Err(Stop::Service(e)),
        Some(Ok(Ok(result))) => Ok((result, raw)),
    }
}

/// The final result came after the user consented to pages: the client learns that each
/// of them is done, as from a 2025-11-25 server.
async fn complete(link: &Link, consented: &[Consented]) {
    if consented.is_empty() {
        return;
    }
    let Some(peer) = link.downstream() else {
        return;
    };
    for c in consented {
        link.take_url(&c.id);
        let params = mcp_elicit_core::message::CompleteNotification::new(c.id.clone()).to_value();
        let n = CustomNotification::new(METHOD_COMPLETE.to_owned(), Some(params));
        let _ = peer
            .send_notification(ServerNotification::CustomNotification(n))
            .await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_elicitation_ids_are_unique_and_say_where_they_come_from() {
        let a = new_elicitation_id();
        let b = new_elicitation_id();
        assert_ne!(a, b);
        assert!(
            a.starts_with("proxy-") && a.len() == "proxy-".len() + 32,
            "{a}"
        );
    }

    #[test]
    fn only_url_mode_requests_have_a_url() {
        let url =
            serde_json::json!({"mode": "url", "url": "https://example.com/x", "message": "m"});
        assert_eq!(url_of(&url), Some("https://example.com/x"));
        let form = serde_json::json!({"mode": "form", "url": "https://example.com/x"});
        assert_eq!(url_of(&form), None);
    }
}
