//! One downstream session and its upstream connection: what both halves of the proxy
//! share (the client's declared modes, the calls in flight, the URL elicitations the
//! client was shown, what the user must be told in a call's result).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use mcp_elicit_client::auth::Authorizer;
use mcp_elicit_client::rate_limit::RateLimiter;
use mcp_elicit_client::{ProtocolChoice, RawRequests};
use mcp_elicit_core::message::Capability;
use mcp_elicit_server::Principal;
use rmcp::model::{ClientCapabilities, ProgressToken, RequestId};
use rmcp::{Peer, RoleClient, RoleServer};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use super::held::{Held, HeldCalls, Ticket};
use super::ordered::ProgressOrder;
use super::policy::Policy;
use super::pool::Pool;

/// What every session of one proxy shares: the policy and the per-user rate limiters.
#[derive(Debug)]
pub(crate) struct Proxy {
    /// The rules.
    pub(crate) policy: Policy,
    /// The revision(s) the proxy offers the upstream.
    pub(crate) upstream_protocol: ProtocolChoice,
    /// Per user (the key is the user's id; every local user is `local`).
    limiters: Mutex<HashMap<String, Arc<RateLimiter>>>,
    /// Upstream connections for 2026-07-28 clients.
    pub(crate) pool: Pool,
    /// The requests of 2026-07-28 clients held while the user answers.
    pub(crate) held: HeldCalls,
    /// The proxy's own credentials for the upstream (never a client's).
    pub(crate) upstream_auth: Option<Arc<Authorizer>>,
    /// One HTTP client for every upstream connection: connections to the upstream are
    /// reused (a new TCP connection costs both sides, and a local-mode upstream reads the
    /// OS's socket table for each), and the TLS configuration is built once.
    pub(crate) http: reqwest::Client,
}

impl Proxy {
    pub(crate) fn new(
        policy: Policy,
        upstream_protocol: ProtocolChoice,
        pool: Pool,
        held: HeldCalls,
        upstream_auth: Option<Arc<Authorizer>>,
    ) -> Self {
        Self {
            policy,
            upstream_protocol,
            limiters: Mutex::new(HashMap::new()),
            pool,
            held,
            upstream_auth,
            http: reqwest::Client::new(),
        }
    }

    /// The rate limiter of `user`.
    pub(crate) fn limiter(&self, user: &str) -> Arc<RateLimiter> {
        lock(&self.limiters)
            .entry(user.to_owned())
            .or_insert_with(|| {
                Arc::new(RateLimiter::new(
                    self.policy.rate_limit,
                    mcp_elicit_client::TokioClock,
                ))
            })
            .clone()
    }
}

/// A downstream `tools/call` being forwarded.
#[derive(Debug)]
pub(crate) struct Call {
    /// Its number in this session.
    pub(crate) seq: u64,
    /// The downstream request's id (server requests for it ride its stream).
    pub(crate) downstream_id: RequestId,
    /// The downstream client's progress token, if it asked for progress.
    pub(crate) downstream_progress: Option<ProgressToken>,
    /// The progress token of the forwarded request.
    pub(crate) upstream_progress: Option<ProgressToken>,
    /// What the user must be told in this call's result (refusals, fallbacks).
    pub(crate) notes: Vec<String>,
}

/// One downstream session.
#[derive(Debug)]
pub(crate) struct Link {
    pub(crate) proxy: Arc<Proxy>,
    /// The user this session belongs to: the local user, or the one its bearer token
    /// names (`--issuer`).
    principal: Mutex<Principal>,
    /// What the upstream sent, raw (rmcp's typed parse drops members such as `pattern`):
    /// its `elicitation/create` params and its `InputRequiredResult`s.
    pub(crate) raw: RawRequests,
    state: Mutex<LinkState>,
    /// A completion notification arrived.
    completion: Notify,
    /// The upstream's progress notifications received and passed on (its last progress
    /// goes downstream before its result).
    pub(crate) progress_order: Arc<ProgressOrder>,
}

#[derive(Debug, Default)]
struct LinkState {
    capability: Capability,
    /// Everything the client declared (sampling and roots are declared upstream as is).
    client_capabilities: ClientCapabilities,
    downstream: Option<Peer<RoleServer>>,
    upstream: Option<Peer<RoleClient>>,
    calls: Vec<Call>,
    next_seq: u64,
    /// URL elicitation ids the client was shown (completions are forwarded for these only).
    url_ids: HashSet<String>,
    /// A 2026-07-28 client's held request this connection serves: questions become its
    /// rounds instead of requests to a peer.
    held: Option<Arc<Held>>,
    /// URL elicitations the upstream said were completed (held requests wait for them).
    completed: HashSet<String>,
    /// A pooled connection (2026-07-28 clients): what it declares upstream is what its
    /// clients declared.
    pooled: Option<Declared>,
}

/// What a pooled connection declares upstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Declared {
    pub(crate) elicitation: Capability,
    pub(crate) sampling: bool,
    pub(crate) roots: bool,
}

impl std::hash::Hash for Declared {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (
            self.elicitation.form,
            self.elicitation.url,
            self.sampling,
            self.roots,
        )
            .hash(state);
    }
}

/// Most URL elicitation ids remembered per session.
const MAX_URL_IDS: usize = 1024;

/// The key of `principal`'s limits, pools and held requests.
pub(crate) fn user_key(principal: &Principal) -> String {
    format!("{}\n{}", principal.issuer(), principal.subject())
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Link {
    pub(crate) fn new(proxy: Arc<Proxy>, principal: Principal) -> Self {
        Self {
            proxy,
            principal: Mutex::new(principal),
            raw: RawRequests::default(),
            state: Mutex::new(LinkState {
                capability: Capability {
                    form: false,
                    url: false,
                },
                ..LinkState::default()
            }),
            completion: Notify::new(),
            progress_order: Arc::default(),
        }
    }

    /// The user this session belongs to.
    pub(crate) fn principal(&self) -> Principal {
        lock(&self.principal).clone()
    }

    /// The user's key (rate limits, pools, held requests).
    pub(crate) fn user(&self) -> String {
        user_key(&self.principal())
    }

    /// The session's user, as its `initialize` request said.
    pub(crate) fn set_principal(&self, principal: Principal) {
        *lock(&self.principal) = principal;
    }

    /// Serves `held` from now on (2026-07-28): what its client declared, in its `_meta`.
    pub(crate) fn attach(&self, held: Arc<Held>, capability: Capability) {
        let mut s = lock(&self.state);
        s.held = Some(held);
        s.capability = capability;
    }

    /// Back to the pool: nothing of the request it served stays.
    pub(crate) fn detach(&self) {
        let mut s = lock(&self.state);
        s.held = None;
        s.downstream = None;
        s.calls.clear();
        s.url_ids.clear();
        s.completed.clear();
    }

    /// The held request this connection serves, if any.
    pub(crate) fn held(&self) -> Option<Arc<Held>> {
        lock(&self.state).held.clone()
    }

    /// Places in the next round for `n` questions asked together (none outside a held
    /// request).
    pub(crate) fn tickets(&self, n: usize) -> Vec<Ticket> {
        match self.held() {
            Some(held) => held.tickets(n),
            None => (0..n).map(|_| Ticket::none()).collect(),
        }
    }

    /// Makes this a pooled connection declaring `declared` upstream.
    pub(crate) fn set_pooled(&self, declared: Declared) {
        let mut s = lock(&self.state);
        s.pooled = Some(declared);
        let mut caps = ClientCapabilities::default();
        if declared.sampling {
            caps.sampling = Some(Default::default());
        }
        if declared.roots {
            caps.roots = Some(Default::default());
        }
        s.client_capabilities = caps;
    }

    /// What a pooled connection declares upstream (`None`: one client's session).
    pub(crate) fn pooled(&self) -> Option<Declared> {
        lock(&self.state).pooled
    }

    /// The upstream completed URL elicitation `id` (one this client was shown).
    pub(crate) fn mark_completed(&self, id: &str) {
        lock(&self.state).completed.insert(id.to_owned());
        self.completion.notify_waiters();
    }

    /// Waits until every one of `ids` is completed: false when `ct` ended the wait or
    /// `within` passed first.
    pub(crate) async fn wait_completed(
        &self,
        ids: &[String],
        ct: &CancellationToken,
        within: Duration,
    ) -> bool {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let notified = self.completion.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if ids
                .iter()
                .all(|id| lock(&self.state).completed.contains(id))
            {
                return true;
            }
            tokio::select! {
                () = &mut notified => {}
                () = ct.cancelled() => return false,
                () = tokio::time::sleep_until(deadline) => return false,
            }
        }
    }

    /// Records the downstream client's peer, declared modes and capabilities (at
    /// `initialize`).
    pub(crate) fn set_downstream(
        &self,
        peer: Peer<RoleServer>,
        capability: Capability,
        client_capabilities: ClientCapabilities,
    ) {
        let mut s = lock(&self.state);
        s.downstream = Some(peer);
        s.capability = capability;
        s.client_capabilities = client_capabilities;
    }

    /// What the downstream client declared.
    pub(crate) fn client_capabilities(&self) -> ClientCapabilities {
        lock(&self.state).client_capabilities.clone()
    }

    /// The downstream client's declared modes.
    pub(crate) fn capability(&self) -> Capability {
        lock(&self.state).capability
    }

    pub(crate) fn downstream(&self) -> Option<Peer<RoleServer>> {
        lock(&self.state).downstream.clone()
    }

    pub(crate) fn set_upstream(&self, peer: Peer<RoleClient>) {
        lock(&self.state).upstream = Some(peer);
    }

    pub(crate) fn upstream(&self) -> Option<Peer<RoleClient>> {
        lock(&self.state).upstream.clone()
    }

    /// Registers a call in flight; returns its number.
    pub(crate) fn begin_call(
        &self,
        downstream_id: RequestId,
        downstream_progress: Option<ProgressToken>,
    ) -> u64 {
        let mut s = lock(&self.state);
        s.next_seq += 1;
        let seq = s.next_seq;
        s.calls.push(Call {
            seq,
            downstream_id,
            downstream_progress,
            upstream_progress: None,
            notes: Vec::new(),
        });
        seq
    }

    pub(crate) fn set_upstream_progress(&self, seq: u64, token: ProgressToken) {
        if let Some(c) = lock(&self.state).calls.iter_mut().find(|c| c.seq == seq) {
            c.upstream_progress = Some(token);
        }
    }

    /// Ends a call; returns its notes.
    pub(crate) fn end_call(&self, seq: u64) -> Vec<String> {
        let mut s = lock(&self.state);
        match s.calls.iter().position(|c| c.seq == seq) {
            Some(i) => s.calls.remove(i).notes,
            None => Vec::new(),
        }
    }

    /// The call an upstream elicitation belongs to: the latest one in flight (stdio and
    /// rmcp's client do not say which request a server request relates to).
    pub(crate) fn current_call(&self) -> Option<(u64, RequestId)> {
        lock(&self.state)
            .calls
            .last()
            .map(|c| (c.seq, c.downstream_id.clone()))
    }

    /// Adds a note for the user to call `seq`'s result.
    pub(crate) fn note(&self, seq: Option<u64>, text: String) {
        let mut s = lock(&self.state);
        let call = match seq {
            Some(seq) => s.calls.iter_mut().find(|c| c.seq == seq),
            None => s.calls.last_mut(),
        };
        match call {
            Some(c) if !c.notes.contains(&text) => c.notes.push(text),
            Some(_) => {}
            None => tracing::info!("a note for the user had no call in flight to go with"),
        }
    }

    /// The downstream progress token for an upstream one.
    pub(crate) fn downstream_progress(&self, upstream: &ProgressToken) -> Option<ProgressToken> {
        lock(&self.state)
            .calls
            .iter()
            .find(|c| c.upstream_progress.as_ref() == Some(upstream))
            .and_then(|c| c.downstream_progress.clone())
    }

    /// Remembers that the client was shown URL elicitation `id`.
    pub(crate) fn shown_url(&self, id: &str) {
        let mut s = lock(&self.state);
        if s.url_ids.len() >= MAX_URL_IDS {
            s.url_ids.clear();
        }
        s.url_ids.insert(id.to_owned());
    }

    /// Whether a completion for `id` may go to the client (once).
    pub(crate) fn take_url(&self, id: &str) -> bool {
        lock(&self.state).url_ids.remove(id)
    }
}
