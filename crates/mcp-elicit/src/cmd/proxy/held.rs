//! The revision bridge for 2026-07-28 clients: a request whose upstream asks the user
//! something is **held** in the proxy while the client asks and retries.
//!
//! A 2026-07-28 client never receives requests: the server answers `tools/call`,
//! `prompts/get` or `resources/read` with an `InputRequiredResult` and the client retries
//! with `inputResponses` and the `requestState` echoed. A 2025-11-25 upstream, on the
//! other hand, sends `elicitation/create` (sampling, roots) in the middle of its call and
//! waits for the answer. So the proxy runs the upstream call in a task of its own (on a
//! connection leased for it alone, [`super::pool`]) and keeps it in a table of held
//! requests; each question the upstream asks is queued on the held request, and the
//! client's request (the first one or a retry) waiting on it gets a round with the
//! questions. The round's `requestState` is sealed ([`StateKeys`]) and names the held
//! request and the round's number, bound to the user, the method, the tool (prompt,
//! resource) and the arguments, expiring with the held request: the retry opens it,
//! delivers each answer to the question waiting for it, and waits again, until the
//! upstream's final result.
//!
//! The rules of the revision, as the proxy keeps them:
//! - a `requestState` the proxy did not seal for this user and request, or sealed
//!   for a round already answered (a replay), or naming a request no longer held, is
//!   refused with -32602 naming `requestState`; nothing reaches the upstream;
//! - an answer missing from `inputResponses` is asked again in a new round (the others
//!   are delivered); keys never asked are ignored;
//! - after a URL step the user consented to, a retry waits for the upstream; when the
//!   upstream has not moved on after [`STILL_WAITING_AFTER`], the client gets the same
//!   URL request again ("still waiting", as this project's servers answer), whose answer
//!   is not passed on (the upstream has its consent already);
//! - a held request nobody retries is dropped after [`HELD_TTL`] (its upstream call is
//!   cancelled, its questions answered `cancel`), and a user holds at most
//!   [`MAX_HELD_PER_USER`] requests at once.
//!
//! Held requests live in this process: behind several proxy nodes, a retry must reach the
//! node that holds its request (another node refuses the state, -32602).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use mcp_elicit_server::{StateBinding, StateKeys};
use rmcp::model::{ErrorCode, ErrorData, ProgressToken, ServerResult};
use rmcp::{Peer, RoleServer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use tokio::sync::{Notify, oneshot};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// How long a held request waits for the client's next retry.
pub(crate) const HELD_TTL: Duration = Duration::from_secs(600);

/// How long a retry after a URL step waits for the upstream before the client is told
/// "still waiting" (the same URL request again).
pub(crate) const STILL_WAITING_AFTER: Duration = Duration::from_secs(20);

/// Most requests one user has held at once.
pub(crate) const MAX_HELD_PER_USER: usize = 64;

/// Most rounds one held request goes through (an upstream that asks for ever is stopped;
/// every round needs the client's retry, and clients stop sooner: ours after 10).
pub(crate) const MAX_ROUNDS: u32 = 32;

/// The JSON-RPC code of a limit the proxy enforces (`data.limit` names it).
const LIMIT_CODE: i32 = -32000;

/// A question of the upstream for the client: the input request's method and params,
/// and where its answer goes.
struct Question {
    /// The key the asker would like (a 2026-07-28 upstream's own), if free.
    key: Option<String>,
    method: String,
    params: Value,
    answer: oneshot::Sender<Value>,
}

#[derive(Default)]
struct State {
    /// Asked by the upstream side, not yet in a round.
    queued: Vec<Question>,
    /// Questions of the round in progress whose asking is still under way (policy
    /// checks): no round goes out before they are queued, so one upstream round stays
    /// one round for the client.
    expecting: usize,
    /// Sent in round `round` and not answered yet, by key.
    out: BTreeMap<String, Question>,
    /// Answers were missing in the last retry: ask `out` again.
    reask: bool,
    /// The number of the last round sent (0: none yet).
    round: u32,
    /// The last round a retry answered: its state is used up.
    answered: u32,
    /// The next input request key.
    next_key: u32,
    /// A URL request the user consented to, shown again while the upstream waits for its
    /// page ("still waiting"); its key in the current round.
    url_waiting: Option<(String, Value)>,
    /// The upstream's final answer, until a waiting request takes it.
    result: Option<Result<ServerResult, ErrorData>>,
    /// The proxy ended the request itself ([`Held::fail`]): the upstream's answer is not
    /// wanted any more.
    failed: bool,
    /// When the client last came for this request.
    touched: Option<Instant>,
    /// Client requests waiting on this request now.
    waiters: usize,
    /// The latest waiting client request that asked for progress: where the upstream's
    /// progress goes, under its token.
    client: Option<(Peer<RoleServer>, ProgressToken)>,
}

/// One held request.
pub(crate) struct Held {
    id: String,
    user: String,
    state: Mutex<State>,
    changed: Notify,
    /// Ends the upstream work (the client is gone, or the request expired).
    pub(crate) ct: CancellationToken,
    /// [`STILL_WAITING_AFTER`] (shorter in tests).
    still_waiting: Duration,
}

impl std::fmt::Debug for Held {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = self.lock();
        f.debug_struct("Held")
            .field("round", &s.round)
            .field("queued", &s.queued.len())
            .field("out", &s.out.len())
            .finish_non_exhaustive()
    }
}

/// What a waiting client request answers with.
pub(crate) enum Next {
    /// A round: the input requests by key (`{"method", "params"}` each) and its number.
    Round {
        requests: BTreeMap<String, Value>,
        round: u32,
    },
    /// The upstream's final answer.
    Done(Box<Result<ServerResult, ErrorData>>),
}

/// A place in the next round for a question still being checked (see
/// [`Link::tickets`](super::link::Link::tickets)); given back when dropped unused.
pub(crate) struct Ticket(Option<Arc<Held>>);

impl Ticket {
    /// A ticket that holds no place (the 2025-11-25 downstream has no rounds).
    pub(crate) fn none() -> Self {
        Ticket(None)
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if let Some(held) = self.0.take() {
            let mut s = held.lock();
            s.expecting = s.expecting.saturating_sub(1);
            drop(s);
            held.changed.notify_waiters();
        }
    }
}

fn lock(m: &Mutex<State>) -> MutexGuard<'_, State> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn invalid_state(why: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!("requestState: {why}"),
        Some(json!({"field": "requestState"})),
    )
}

impl Held {
    fn lock(&self) -> MutexGuard<'_, State> {
        lock(&self.state)
    }

    /// Places for `n` questions about to be asked together.
    pub(crate) fn tickets(self: &Arc<Self>, n: usize) -> Vec<Ticket> {
        self.lock().expecting += n;
        (0..n).map(|_| Ticket(Some(Arc::clone(self)))).collect()
    }

    /// Queues a question for the client and waits for its answer: `None` when the
    /// request ended first (cancelled, expired) or `ct` ended the wait.
    pub(crate) async fn ask(
        &self,
        mut ticket: Ticket,
        key: Option<&str>,
        method: &str,
        params: Value,
        ct: &CancellationToken,
    ) -> Option<Value> {
        let (tx, rx) = oneshot::channel();
        {
            let mut s = self.lock();
            if s.round >= MAX_ROUNDS {
                drop(s);
                drop(ticket);
                tracing::info!(
                    rule = "rounds",
                    "the upstream asked a held request too often"
                );
                self.fail(ErrorData::new(
                    ErrorCode(LIMIT_CODE),
                    format!(
                        "mcp-elicit proxy ended this request: the server asked for input more than \
                         {MAX_ROUNDS} times for it. Nothing more was sent to the server."
                    ),
                    Some(json!({"kind": "proxy_refused", "limit": "rounds_per_request", "max": MAX_ROUNDS})),
                ));
                return None;
            }
            s.queued.push(Question {
                key: key.map(str::to_owned),
                method: method.to_owned(),
                params,
                answer: tx,
            });
            if ticket.0.take().is_some() {
                s.expecting = s.expecting.saturating_sub(1);
            }
        }
        self.changed.notify_waiters();
        tokio::select! {
            answer = rx => answer.ok(),
            () = ct.cancelled() => None,
            () = self.ct.cancelled() => None,
        }
    }

    /// The upstream work ended with `result`.
    pub(crate) fn finish(&self, result: Result<ServerResult, ErrorData>) {
        {
            let mut s = self.lock();
            if s.failed {
                return;
            }
            s.result = Some(result);
        }
        self.changed.notify_waiters();
    }

    /// Ends the request with `error` now (the client cannot give what the upstream asks
    /// for); the upstream work is cancelled and its answer dropped.
    pub(crate) fn fail(&self, error: ErrorData) {
        {
            let mut s = self.lock();
            if s.failed {
                return;
            }
            s.failed = true;
            s.result = Some(Err(error));
        }
        self.changed.notify_waiters();
        self.ct.cancel();
    }

    /// Delivers the answers of a retry for round `round`; missing ones are asked again.
    fn answer(&self, round: u32, responses: Option<&Map<String, Value>>) -> Result<(), ErrorData> {
        let mut s = self.lock();
        if round != s.round || s.answered == round {
            return Err(invalid_state(
                "already used: this round was answered before (send the latest round's state)",
            ));
        }
        let empty = Map::new();
        let responses = responses.unwrap_or(&empty);
        let keys: Vec<String> = s.out.keys().cloned().collect();
        for key in keys {
            if let Some(value) = responses.get(&key)
                && let Some(q) = s.out.remove(&key)
            {
                let url_accept = q.params.get("mode").and_then(Value::as_str) == Some("url")
                    && value.get("action").and_then(Value::as_str) == Some("accept");
                if url_accept {
                    s.url_waiting = Some((q.method.clone(), q.params.clone()));
                }
                let _ = q.answer.send(value.clone());
            }
        }
        s.answered = round;
        s.reask = !s.out.is_empty();
        Ok(())
    }

    /// Waits for what the client gets next: a round, or the final answer. `None` when
    /// `ct` (the client's request) or the held request ended first. `progress`: the
    /// waiting request's peer and progress token, if it asked for progress.
    pub(crate) async fn next(
        &self,
        ct: &CancellationToken,
        progress: Option<(Peer<RoleServer>, ProgressToken)>,
    ) -> Option<Next> {
        {
            let mut s = self.lock();
            s.waiters += 1;
            if progress.is_some() {
                s.client = progress;
            }
        }
        let next = self.wait(ct).await;
        let mut s = self.lock();
        s.waiters -= 1;
        if s.waiters == 0 {
            s.client = None;
        }
        s.touched = Some(Instant::now());
        next
    }

    /// Where the upstream's progress goes now (see [`Held::next`]).
    pub(crate) fn client(&self) -> Option<(Peer<RoleServer>, ProgressToken)> {
        self.lock().client.clone()
    }

    async fn wait(&self, ct: &CancellationToken) -> Option<Next> {
        let started = Instant::now();
        loop {
            let notified = self.changed.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            let waiting_for_page = {
                let mut s = self.lock();
                if let Some(result) = s.result.take() {
                    return Some(Next::Done(Box::new(result)));
                }
                if (!s.queued.is_empty() && s.expecting == 0) || s.reask {
                    return Some(Next::Round {
                        requests: round(&mut s),
                        round: s.round,
                    });
                }
                s.url_waiting.is_some()
            };
            let still = started + self.still_waiting;
            tokio::select! {
                () = &mut notified => {}
                () = ct.cancelled() => return None,
                () = self.ct.cancelled() => {
                    // Ended by the proxy with an answer of its own ([`Held::fail`]).
                    return self.lock().result.take().map(|r| Next::Done(Box::new(r)));
                }
                () = tokio::time::sleep_until(still), if waiting_for_page => {
                    let mut s = self.lock();
                    if s.result.is_none() && s.queued.is_empty()
                        && let Some((method, params)) = s.url_waiting.clone()
                    {
                        s.round += 1;
                        s.next_key += 1;
                        // Its answer matches no question: not passed on.
                        let key = format!("wait{}", s.next_key);
                        let mut requests = BTreeMap::new();
                        requests.insert(key, json!({"method": method, "params": params}));
                        return Some(Next::Round { requests, round: s.round });
                    }
                }
            }
        }
    }
}

/// Moves the queued questions into a new round; returns every unanswered request of it.
fn round(s: &mut State) -> BTreeMap<String, Value> {
    for q in std::mem::take(&mut s.queued) {
        let key = match &q.key {
            Some(k) if !k.is_empty() && !s.out.contains_key(k) => k.clone(),
            _ => {
                s.next_key += 1;
                format!("input{}", s.next_key)
            }
        };
        s.out.insert(key, q);
    }
    s.round += 1;
    s.reask = false;
    s.url_waiting = None;
    s.out
        .iter()
        .map(|(k, q)| (k.clone(), json!({"method": q.method, "params": q.params})))
        .collect()
}

/// What a round's `requestState` carries, sealed.
#[derive(Debug, Serialize, Deserialize)]
struct Sealed {
    /// The held request.
    h: String,
    /// The round.
    r: u32,
}

/// The table of held requests of one proxy.
pub(crate) struct HeldCalls {
    keys: StateKeys,
    map: Mutex<HashMap<String, Arc<Held>>>,
    still_waiting: Duration,
}

impl std::fmt::Debug for HeldCalls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HeldCalls")
            .field("held", &self.map().len())
            .finish_non_exhaustive()
    }
}

impl HeldCalls {
    /// An empty table sealing with `keys`.
    pub(crate) fn new(keys: StateKeys) -> Self {
        Self {
            keys,
            map: Mutex::new(HashMap::new()),
            still_waiting: STILL_WAITING_AFTER,
        }
    }

    fn map(&self) -> MutexGuard<'_, HashMap<String, Arc<Held>>> {
        self.map
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A new held request of `user`; refused (-32000, `data.limit`) over
    /// [`MAX_HELD_PER_USER`]. Expired requests are dropped first.
    pub(crate) fn insert(&self, user: &str) -> Result<Arc<Held>, ErrorData> {
        let mut map = self.map();
        let now = Instant::now();
        map.retain(|_, h| {
            let s = h.lock();
            let idle = s.touched.is_some_and(|t| now.duration_since(t) >= HELD_TTL);
            let keep = s.waiters > 0 || !idle;
            drop(s);
            if !keep {
                tracing::info!(
                    "a held request expired without a retry; its upstream call is cancelled"
                );
                h.ct.cancel();
            }
            keep
        });
        if map.values().filter(|h| h.user == user).count() >= MAX_HELD_PER_USER {
            return Err(ErrorData::new(
                ErrorCode(LIMIT_CODE),
                format!(
                    "too many requests waiting for input: at most {MAX_HELD_PER_USER} per user; \
                     answer or abandon one first"
                ),
                Some(json!({"limit": "held_requests_per_user", "max": MAX_HELD_PER_USER})),
            ));
        }
        let id = super::rounds::random_hex();
        let held = Arc::new(Held {
            id: id.clone(),
            user: user.to_owned(),
            state: Mutex::new(State {
                touched: Some(now),
                ..State::default()
            }),
            changed: Notify::new(),
            ct: CancellationToken::new(),
            still_waiting: self.still_waiting,
        });
        map.insert(id, Arc::clone(&held));
        Ok(held)
    }

    /// Forgets `held` (its final answer was given, or the client is gone) and ends its
    /// upstream work if it is still running.
    pub(crate) fn remove(&self, held: &Held) {
        self.map().remove(&held.id);
        held.ct.cancel();
    }

    /// The `requestState` of round `round` of `held`.
    pub(crate) fn seal(
        &self,
        held: &Held,
        round: u32,
        binding: &StateBinding,
    ) -> Result<String, ErrorData> {
        let sealed = Sealed {
            h: held.id.clone(),
            r: round,
        };
        self.keys
            .seal_json(&sealed, binding, SystemTime::now() + HELD_TTL)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }

    /// Opens a retry's `state` and delivers its answers: the held request to wait on.
    pub(crate) fn retry(
        &self,
        state: &str,
        binding: &StateBinding,
        responses: Option<&Map<String, Value>>,
    ) -> Result<Arc<Held>, ErrorData> {
        let sealed: Sealed = self
            .keys
            .open_json(state, binding, SystemTime::now())
            .map_err(|e| {
                ErrorData::invalid_params(e.to_string(), Some(json!({"field": "requestState"})))
            })?;
        let held = self.map().get(&sealed.h).cloned().ok_or_else(|| {
            invalid_state(
                "this request is no longer held by the proxy (it finished, expired, or is held by \
                 another proxy node); call again without requestState",
            )
        })?;
        held.answer(sealed.r, responses)?;
        Ok(held)
    }
}

#[cfg(test)]
mod tests;
