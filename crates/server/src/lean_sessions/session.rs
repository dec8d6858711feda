//! One session of the lean layer: the client's messages waiting for the handler, the
//! server's streams (one per POSTed request, plus the standalone GET stream) with their
//! replay buffers, and which stream each of the handler's messages goes on.
//!
//! Everything sits behind one mutex, taken for a few map operations at a time and never
//! across an `.await`: the HTTP side (a POST, a GET) and the handler's task (through
//! [`super::transport::LeanTransport`]) both work on it directly, so no task, channel
//! or copy stands between them. A stream's reader ([`super::stream::LeanEventStream`])
//! reads the events out of the buffer it belongs to: the buffer is both the delivery
//! queue and the replay a `Last-Event-ID` resumes from.
//!
//! Routing is rmcp's (`LocalSessionWorker::resolve_outbound_channel`): a response or an
//! error goes on the stream of the request it answers, which it ends; a request the
//! handler sends while serving a request (`OriginatingRequestId`, SEP-2260: our
//! `elicitation/create`) on that request's stream; a progress notification on the
//! stream of its progress token; a cancellation on the stream of the request it names;
//! anything else on the standalone stream.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, ClientRequest, GetExtensions, GetMeta,
    InitializeRequest, InitializeRequestParams, InitializedNotification, JsonRpcMessage,
    ProgressToken, RequestId, ServerJsonRpcMessage, ServerNotification,
};
use rmcp::service::OriginatingRequestId;
use rmcp::transport::streamable_http_server::session::{ServerSseMessage, SessionId};
use tokio::sync::oneshot;

use super::event_id::EventId;
use super::transport::LeanTransport;
use super::{LeanSessionConfig, RespawnCell};

/// What a stream of the session is: the standalone one or a request's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Target {
    Common,
    Request(u64),
}

/// What routes a server message to a request's stream.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Route {
    Request(RequestId),
    Progress(ProgressToken),
}

/// The events of one stream: what is still to be read, and what a resumption replays.
struct Channel {
    /// The buffered events, oldest first; `events[0]` has index `first`.
    events: VecDeque<ServerSseMessage>,
    first: u64,
    /// The reader attached to it (a generation number), if any.
    reader: Option<u64>,
    generation: u64,
    waker: Option<Waker>,
    /// When the request it carries was answered (its stream ends after the answer).
    done_at: Option<Instant>,
    /// The routes leading here (removed when it is done).
    routes: Vec<Route>,
    /// The index of the first event no reader has taken yet (where a fresh reader of
    /// the standalone stream starts: what was sent while no GET was open still
    /// arrives, nothing arrives twice).
    delivered: u64,
}

impl Channel {
    fn new(first: u64) -> Self {
        Channel {
            events: VecDeque::new(),
            first,
            reader: None,
            generation: 0,
            waker: None,
            done_at: None,
            routes: Vec::new(),
            delivered: first,
        }
    }

    fn next_index(&self) -> u64 {
        self.first + self.events.len() as u64
    }

    fn push(&mut self, mut event: ServerSseMessage, id: EventId, capacity: usize) {
        event.event_id = Some(id.to_string());
        if self.events.len() >= capacity.max(1) {
            self.events.pop_front();
            self.first += 1;
        }
        self.events.push_back(event);
        self.wake();
    }

    fn wake(&mut self) {
        if let Some(w) = self.waker.take() {
            w.wake();
        }
    }

    /// Attaches a new reader, ending the previous one; its generation.
    fn attach(&mut self) -> u64 {
        self.generation += 1;
        self.reader = Some(self.generation);
        self.wake();
        self.generation
    }
}

/// The session's handler (rmcp's service loop on a [`super::LeanTransport`]), by
/// generation, and where it stands in hibernation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Handler {
    /// The handler of this generation runs.
    Live(u64),
    /// Asked to leave: its next receive with nothing queued ends it (a message that
    /// came first keeps it).
    Draining(u64),
    /// Its receive ended; its transport is not dropped yet.
    Leaving(u64),
    /// No handler: the next client message starts one (`initialize` replayed first).
    Hibernated,
}

/// The id of the `initialize` replayed to a woken handler (its answer goes nowhere).
const WAKE_ID: &str = "mcp-elicit:wake";

/// What the mutex guards.
struct State {
    closed: bool,
    handler: Handler,
    next_handler: u64,
    /// The rmcp HTTP service's worker closes the session when its handler (the first)
    /// ends: after that handler went to sleep, that close is not the client's.
    ignore_close: bool,
    /// What the client sent in `initialize`, replayed to a woken handler.
    init_params: Option<Box<InitializeRequestParams>>,
    /// The handler's requests to the client not answered yet (a handler waiting for
    /// one is not put to sleep).
    awaiting: Vec<RequestId>,
    /// The client's messages, oldest first, for the handler.
    inbound: VecDeque<ClientJsonRpcMessage>,
    inbound_waker: Option<Waker>,
    /// The `initialize` waiting for its answer.
    init: Option<(RequestId, oneshot::Sender<ServerJsonRpcMessage>)>,
    next_stream: u64,
    streams: HashMap<u64, Channel>,
    /// The answered streams, oldest first, with when they were answered: eviction
    /// takes them from the front (no scan of every stream on every request).
    done: VecDeque<(Instant, u64)>,
    routes: HashMap<Route, u64>,
    common: Channel,
    /// Wakers of shadow streams (a second GET while the first is open: kept open with
    /// keep-alives only, as rmcp does, so competing clients do not take turns ending
    /// each other's stream).
    shadows: HashMap<u64, Waker>,
    next_shadow: u64,
    last_activity: Instant,
}

/// One session.
pub(super) struct Session {
    id: SessionId,
    config: LeanSessionConfig,
    /// What starts a handler when the session wakes (the manager's, set once).
    respawn: RespawnCell,
    state: Mutex<State>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

/// A reader's position in a stream.
#[derive(Debug, Clone, Copy)]
pub(super) struct Cursor {
    pub(super) target: Target,
    pub(super) generation: u64,
    /// The index of the next event to read.
    pub(super) next: u64,
}

impl Session {
    pub(super) fn new(id: SessionId, config: LeanSessionConfig, respawn: RespawnCell) -> Self {
        Session {
            id,
            config,
            respawn,
            state: Mutex::new(State {
                closed: false,
                handler: Handler::Live(1),
                next_handler: 2,
                ignore_close: false,
                init_params: None,
                awaiting: Vec::new(),
                inbound: VecDeque::new(),
                inbound_waker: None,
                init: None,
                next_stream: 0,
                streams: HashMap::new(),
                done: VecDeque::new(),
                routes: HashMap::new(),
                common: Channel::new(1),
                shadows: HashMap::new(),
                next_shadow: 0,
                last_activity: Instant::now(),
            }),
        }
    }

    pub(super) fn id(&self) -> &SessionId {
        &self.id
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // Every update leaves the state consistent: a poisoned lock is still usable.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Ends the session: the handler's next receive sees the end, every stream ends.
    pub(super) fn close(&self) {
        let mut s = self.state();
        if s.closed {
            return;
        }
        s.closed = true;
        s.init = None;
        if let Some(w) = s.inbound_waker.take() {
            w.wake();
        }
        s.common.wake();
        for c in s.streams.values_mut() {
            c.wake();
        }
        for (_, w) in s.shadows.drain() {
            w.wake();
        }
    }

    pub(super) fn is_closed(&self) -> bool {
        self.state().closed
    }

    /// How long nothing happened in the session.
    pub(super) fn idle_for(&self) -> Duration {
        self.state().last_activity.elapsed()
    }

    /// Queues a client message for the handler; false if the session is closed.
    fn push_inbound(s: &mut State, message: ClientJsonRpcMessage) -> bool {
        if s.closed {
            return false;
        }
        s.last_activity = Instant::now();
        s.inbound.push_back(message);
        if let Some(w) = s.inbound_waker.take() {
            w.wake();
        }
        true
    }

    /// [`Session::push_inbound`], then a handler started if the session was asleep (the
    /// lock released first); false if the session is closed.
    fn queue(
        self: &Arc<Self>,
        mut s: MutexGuard<'_, State>,
        message: ClientJsonRpcMessage,
    ) -> bool {
        let queued = Self::push_inbound(&mut s, message);
        let wake = Self::wake_if_needed(&mut s);
        drop(s);
        self.start(wake);
        queued
    }

    /// The next client message for handler `handler` (None once the session is closed,
    /// once that handler is told to leave, or when it is not the session's handler).
    pub(super) fn poll_inbound(
        &self,
        handler: u64,
        cx: &mut Context<'_>,
    ) -> Poll<Option<ClientJsonRpcMessage>> {
        let mut s = self.state();
        if s.closed {
            return Poll::Ready(None);
        }
        let draining = match s.handler {
            Handler::Live(g) if g == handler => false,
            Handler::Draining(g) if g == handler => true,
            _ => return Poll::Ready(None),
        };
        if let Some(m) = s.inbound.pop_front() {
            if s.inbound.is_empty() {
                // An idle session keeps no message-sized buffer.
                s.inbound = VecDeque::new();
            }
            if draining {
                // A message came before the handler left: it stays.
                s.handler = Handler::Live(handler);
            }
            return Poll::Ready(Some(m));
        }
        if draining {
            s.handler = Handler::Leaving(handler);
            s.inbound_waker = None;
            // The first handler is rmcp's: its worker closes the session when it ends.
            s.ignore_close = handler == 1;
            return Poll::Ready(None);
        }
        match &s.inbound_waker {
            Some(w) if w.will_wake(cx.waker()) => {}
            _ => s.inbound_waker = Some(cx.waker().clone()),
        }
        Poll::Pending
    }

    /// Handler `handler`'s transport is closed or dropped: a handler that was told to
    /// leave is asleep now (`Some(next)`: messages came meanwhile, start handler
    /// `next`); one that ended on its own ends the session; any other is stale.
    pub(super) fn handler_gone(&self, handler: u64) -> Option<u64> {
        let mut s = self.state();
        match s.handler {
            Handler::Leaving(g) if g == handler => {
                s.handler = Handler::Hibernated;
                Self::wake_if_needed(&mut s)
            }
            Handler::Live(g) | Handler::Draining(g) if g == handler => {
                drop(s);
                self.close();
                None
            }
            _ => None,
        }
    }

    /// Whether a `close_session` is the rmcp worker's, after its handler went to sleep
    /// (consumed: the next one is not).
    pub(super) fn take_ignored_close(&self) -> bool {
        std::mem::take(&mut self.state().ignore_close)
    }

    /// The client owes no answer to the handler's request `id` any more.
    fn answered(s: &mut State, id: &RequestId) {
        s.awaiting.retain(|a| a != id);
        if s.awaiting.is_empty() {
            // An idle session keeps no buffer.
            s.awaiting = Vec::new();
        }
    }

    /// Asks the handler to leave when the session has been idle for `after` with
    /// nothing in progress: no request unanswered either way, nothing queued; the
    /// answered calls' replay is dropped (what a reader has not taken yet stays). True
    /// when asked.
    pub(super) fn try_hibernate(&self, after: Duration) -> bool {
        let mut s = self.state();
        let Handler::Live(g) = s.handler else {
            return false;
        };
        let busy = s.closed
            || s.init_params.is_none()
            || s.init.is_some()
            || !s.inbound.is_empty()
            || !s.awaiting.is_empty()
            || s.last_activity.elapsed() < after
            || s.streams.values().any(|c| c.done_at.is_none());
        if busy {
            return false;
        }
        s.handler = Handler::Draining(g);
        if let Some(w) = s.inbound_waker.take() {
            w.wake();
        }
        // The replay of its answered calls goes too, once read: a client resumes a
        // broken stream within seconds (the `retry` it was given), not after this long.
        let State { streams, done, .. } = &mut *s;
        streams.retain(|_, c| c.reader.is_some() || c.delivered < c.next_index());
        done.retain(|(_, id)| streams.contains_key(id));
        if streams.is_empty() {
            *streams = HashMap::new();
        }
        if done.is_empty() {
            *done = VecDeque::new();
        }
        true
    }

    /// The handler's state (tests, and the manager's count of sleeping sessions).
    pub(super) fn handler(&self) -> Handler {
        self.state().handler
    }

    /// After a client message was queued: an asleep session gets a new handler, with
    /// `initialize` and `notifications/initialized` replayed before the message. The
    /// new handler's generation, to start.
    fn wake_if_needed(s: &mut State) -> Option<u64> {
        if s.closed || s.handler != Handler::Hibernated || s.inbound.is_empty() {
            return None;
        }
        let params = s.init_params.as_deref()?.clone();
        let mut init = ClientJsonRpcMessage::request(
            ClientRequest::InitializeRequest(InitializeRequest::new(params)),
            RequestId::String(WAKE_ID.into()),
        );
        let mut initialized = ClientJsonRpcMessage::notification(
            ClientNotification::InitializedNotification(InitializedNotification::default()),
        );
        // The HTTP request that woke it, as rmcp passes it on every message.
        if let Some(parts) = s.inbound.front().and_then(|m| {
            message_extensions(m)?
                .get::<http::request::Parts>()
                .cloned()
        }) {
            init.insert_extension(parts.clone());
            initialized.insert_extension(parts);
        }
        s.inbound.push_front(initialized);
        s.inbound.push_front(init);
        // Its answer is taken as `initialize`'s answers are, and goes nowhere: the client
        // did not send this request.
        let (answer, _) = oneshot::channel();
        s.init = Some((RequestId::String(WAKE_ID.into()), answer));
        let g = s.next_handler;
        s.next_handler += 1;
        s.handler = Handler::Live(g);
        Some(g)
    }

    /// Starts handler `handler` (from [`Session::wake_if_needed`]) on a new transport.
    pub(super) fn start(self: &Arc<Self>, handler: Option<u64>) {
        let Some(g) = handler else { return };
        match self.respawn.get() {
            Some(respawn) => {
                // No session id in the log: it is the client's credential for the session.
                tracing::debug!(handler = g, "session woken: a new handler");
                respawn(LeanTransport::new(Arc::clone(self), g));
            }
            // Never put to sleep without one; should it happen, nobody could answer.
            None => self.close(),
        }
    }

    /// Hands `initialize` to the handler; the receiver gets its answer.
    pub(super) fn initialize(
        self: &Arc<Self>,
        id: RequestId,
        message: ClientJsonRpcMessage,
    ) -> Option<oneshot::Receiver<ServerJsonRpcMessage>> {
        let (tx, rx) = oneshot::channel();
        let mut s = self.state();
        if let JsonRpcMessage::Request(r) = &message
            && let ClientRequest::InitializeRequest(init) = &r.request
        {
            s.init_params = Some(Box::new(init.params.clone()));
        }
        s.init = Some((id, tx));
        self.queue(s, message).then_some(rx)
    }

    /// A client message that opens no stream (a notification, a response, an error).
    pub(super) fn accept(self: &Arc<Self>, message: ClientJsonRpcMessage) -> bool {
        let mut s = self.state();
        let answered = match &message {
            JsonRpcMessage::Response(r) => Some(&r.id),
            JsonRpcMessage::Error(e) => e.id.as_ref(),
            _ => None,
        };
        if let Some(id) = answered {
            Self::answered(&mut s, id);
        }
        if let JsonRpcMessage::Notification(n) = &message
            && let ClientNotification::CancelledNotification(c) = &n.notification
            && let Some(request) = &c.params.request_id
            && let Some(&stream) = s.routes.get(&Route::Request(request.clone()))
        {
            // The request is abandoned: its stream ends (its events stay replayable).
            Self::finish(&mut s, stream, self.config.completed_replay_max);
        }
        self.queue(s, message)
    }

    /// Opens the stream of a POSTed request and hands the request to the handler; the
    /// reader's cursor, or None if the session is closed.
    pub(super) fn open_request(self: &Arc<Self>, message: ClientJsonRpcMessage) -> Option<Cursor> {
        let mut s = self.state();
        if s.closed {
            return None;
        }
        self.evict_done(&mut s);
        let stream = s.next_stream;
        s.next_stream = s.next_stream.wrapping_add(1);
        let mut channel = Channel::new(0);
        if let Some(retry) = self.config.sse_retry {
            channel.push(
                ServerSseMessage::priming(String::new(), retry),
                EventId::Request { stream, index: 0 },
                self.config.replay_capacity,
            );
        }
        if let JsonRpcMessage::Request(r) = &message {
            channel.routes.push(Route::Request(r.id.clone()));
            if let Some(token) = r.request.get_meta().get_progress_token() {
                channel.routes.push(Route::Progress(token));
            }
        }
        for route in &channel.routes {
            s.routes.insert(route.clone(), stream);
        }
        let generation = channel.attach();
        s.streams.insert(stream, channel);
        self.queue(s, message);
        Some(Cursor {
            target: Target::Request(stream),
            generation,
            next: 0,
        })
    }

    /// The standalone stream (`GET`; `after`: the index of its `Last-Event-ID`): its
    /// reader's cursor, or `Err(shadow)` (a shadow stream's number) when a reader is
    /// attached already, or None if the session is closed.
    pub(super) fn open_common(&self, after: Option<u64>) -> Option<Result<Cursor, u64>> {
        let mut s = self.state();
        if s.closed {
            return None;
        }
        s.last_activity = Instant::now();
        if s.common.reader.is_some() {
            let shadow = s.next_shadow;
            s.next_shadow = s.next_shadow.wrapping_add(1);
            return Some(Err(shadow));
        }
        let generation = s.common.attach();
        // A fresh GET gets only what is sent from now on; a resumed one what it missed.
        let next = match after {
            Some(index) => index.saturating_add(1),
            None => s.common.delivered,
        };
        Some(Ok(Cursor {
            target: Target::Common,
            generation,
            next,
        }))
    }

    /// A resumption of a request's stream after event `index`: the reader's cursor
    /// (the previous reader ends), or None when the stream is unknown or gone.
    pub(super) fn resume_request(&self, stream: u64, index: u64) -> Option<Cursor> {
        let mut s = self.state();
        if s.closed {
            return None;
        }
        self.evict_done(&mut s);
        s.last_activity = Instant::now();
        let channel = s.streams.get_mut(&stream)?;
        let generation = channel.attach();
        Some(Cursor {
            target: Target::Request(stream),
            generation,
            next: index.saturating_add(1),
        })
    }

    /// The next event for `cursor`: Ready(None) when its stream has ended for it (the
    /// request answered and everything read, another reader took over, the session
    /// closed).
    pub(super) fn poll_event(
        &self,
        cursor: &mut Cursor,
        cx: &mut Context<'_>,
    ) -> Poll<Option<ServerSseMessage>> {
        let mut s = self.state();
        let closed = s.closed;
        let channel = match cursor.target {
            Target::Common => &mut s.common,
            Target::Request(id) => match s.streams.get_mut(&id) {
                Some(c) => c,
                None => return Poll::Ready(None),
            },
        };
        if channel.generation != cursor.generation {
            return Poll::Ready(None);
        }
        // Events older than the buffer were dropped (a reader too slow or too late).
        cursor.next = cursor.next.max(channel.first);
        if cursor.next < channel.next_index() {
            let at = usize::try_from(cursor.next - channel.first).unwrap_or(usize::MAX);
            if let Some(event) = channel.events.get(at) {
                cursor.next += 1;
                channel.delivered = channel.delivered.max(cursor.next);
                return Poll::Ready(Some(event.clone()));
            }
        }
        if closed || channel.done_at.is_some() {
            return Poll::Ready(None);
        }
        match &channel.waker {
            Some(w) if w.will_wake(cx.waker()) => {}
            _ => channel.waker = Some(cx.waker().clone()),
        }
        Poll::Pending
    }

    /// A reader went away: its stream may take a new primary reader.
    pub(super) fn detach(&self, cursor: &Cursor) {
        let mut s = self.state();
        let channel = match cursor.target {
            Target::Common => &mut s.common,
            Target::Request(id) => match s.streams.get_mut(&id) {
                Some(c) => c,
                None => return,
            },
        };
        if channel.reader == Some(cursor.generation) {
            channel.reader = None;
            channel.waker = None;
        }
    }

    /// A shadow stream waits for the session's end.
    pub(super) fn poll_shadow(&self, shadow: u64, cx: &mut Context<'_>) -> Poll<()> {
        let mut s = self.state();
        if s.closed {
            return Poll::Ready(());
        }
        s.shadows.insert(shadow, cx.waker().clone());
        Poll::Pending
    }

    pub(super) fn drop_shadow(&self, shadow: u64) {
        self.state().shadows.remove(&shadow);
    }

    /// Puts one of the handler's messages on its stream (see the module docs); false
    /// when the session has ended.
    pub(super) fn route(&self, message: ServerJsonRpcMessage) -> bool {
        let mut s = self.state();
        if s.closed {
            return false;
        }
        s.last_activity = Instant::now();
        match &message {
            JsonRpcMessage::Request(r) => s.awaiting.push(r.id.clone()),
            // The handler gave up on a request of its own (a form timed out): no
            // answer is owed any more.
            JsonRpcMessage::Notification(n) => {
                if let ServerNotification::CancelledNotification(c) = &n.notification
                    && let Some(id) = &c.params.request_id
                {
                    Self::answered(&mut s, id);
                }
            }
            _ => {}
        }
        let answered = match &message {
            JsonRpcMessage::Response(r) => Some(r.id.clone()),
            JsonRpcMessage::Error(e) => e.id.clone(),
            _ => None,
        };
        if let Some(id) = &answered
            && s.init.as_ref().is_some_and(|(init, _)| init == id)
            && let Some((_, tx)) = s.init.take()
        {
            let _ = tx.send(message);
            return true;
        }
        let route = match &message {
            JsonRpcMessage::Request(r) => r
                .request
                .extensions()
                .get::<OriginatingRequestId>()
                .map(|o| Route::Request(o.0.clone())),
            JsonRpcMessage::Notification(n) => match &n.notification {
                ServerNotification::ProgressNotification(p) => {
                    Some(Route::Progress(p.params.progress_token.clone()))
                }
                ServerNotification::CancelledNotification(c) => {
                    c.params.request_id.clone().map(Route::Request)
                }
                _ => None,
            },
            JsonRpcMessage::Response(_) | JsonRpcMessage::Error(_) => {
                answered.clone().map(Route::Request)
            }
        };
        let stream = route.and_then(|r| s.routes.get(&r).copied());
        let capacity = self.config.replay_capacity;
        let event = ServerSseMessage::from_message(message);
        match stream.and_then(|id| s.streams.get_mut(&id).map(|c| (id, c))) {
            Some((stream, channel)) => {
                let index = channel.next_index();
                channel.push(event, EventId::Request { stream, index }, capacity);
                if answered.is_some() {
                    Self::finish(&mut s, stream, self.config.completed_replay_max);
                }
            }
            None => {
                let index = s.common.next_index();
                s.common.push(event, EventId::Common { index }, capacity);
            }
        }
        true
    }

    /// The request of `stream` is answered or abandoned: its stream ends once read.
    fn finish(s: &mut State, stream: u64, max_done: usize) {
        let Some(channel) = s.streams.get_mut(&stream) else {
            return;
        };
        if channel.done_at.is_some() {
            return;
        }
        let now = Instant::now();
        channel.done_at = Some(now);
        s.done.push_back((now, stream));
        channel.wake();
        for route in std::mem::take(&mut channel.routes) {
            if s.routes.get(&route) == Some(&stream) {
                s.routes.remove(&route);
            }
        }
        // Only the most recent answers stay replayable: the oldest go once a reader
        // has taken them (one not taken yet stays for the replay time).
        let mut excess = s.done.len().saturating_sub(max_done);
        if excess > 0 {
            let State { done, streams, .. } = s;
            done.retain(|&(_, id)| {
                // Once enough are gone, the rest stay without a look at their stream.
                if excess == 0 {
                    return true;
                }
                let taken = streams
                    .get(&id)
                    .is_none_or(|c| c.delivered >= c.next_index());
                if !taken {
                    return true;
                }
                streams.remove(&id);
                excess -= 1;
                false
            });
        }
    }

    /// Forgets the streams answered longer ago than their replay is kept (the oldest
    /// first, in the order they were answered).
    fn evict_done(&self, s: &mut State) {
        let ttl = self.config.completed_replay_ttl;
        let now = Instant::now();
        while let Some(&(at, stream)) = s.done.front() {
            if now.saturating_duration_since(at) < ttl {
                break;
            }
            s.done.pop_front();
            s.streams.remove(&stream);
        }
        // An idle session keeps no buffer sized for its busiest moment.
        if s.done.is_empty() && s.done.capacity() > 32 {
            s.done = VecDeque::new();
        }
        if s.streams.capacity() > 4 * s.streams.len() + 32 {
            s.streams.shrink_to_fit();
        }
    }

    /// [`Session::evict_done`] from outside a request (the manager's sweeper), so an
    /// idle session does not keep its last requests' events past their replay time.
    pub(super) fn evict_expired(&self) {
        let mut s = self.state();
        self.evict_done(&mut s);
    }
}

/// The extensions of a client message (a request's or a notification's).
fn message_extensions(m: &ClientJsonRpcMessage) -> Option<&rmcp::model::Extensions> {
    match m {
        JsonRpcMessage::Request(r) => Some(r.request.extensions()),
        JsonRpcMessage::Notification(n) => Some(n.notification.extensions()),
        _ => None,
    }
}

/// Shared by the manager's map, the transport and the readers.
pub(super) type SessionRef = Arc<Session>;
