//! # mcp-elicit-server
//!
//! Server-side MCP elicitation on [rmcp], for both protocol revisions from the same
//! tool code: 2025-11-25 (the server sends `elicitation/create` and waits; URL mode with
//! completion notifications and `URLElicitationRequiredError`, -32042) and 2026-07-28
//! (multi round-trip requests: the tool answers an `InputRequiredResult`, the client
//! asks the user and retries with `inputResponses` and the sealed `requestState`).
//! Everything is checked before anything is sent and validated when the answer comes
//! back, on both.
//!
//! - [`SessionScope::ask`] / [`Ask`]: the questions of one request, each under a
//!   stable key ([`Ask::form`], [`Ask::form_with_schema`], [`Ask::url`], several at once
//!   with [`Ask::questions`]); a question still unanswered on 2026-07-28 ends the
//!   handler with [`Stop::Input`] through `?`, and [`respond`] turns it into the
//!   `InputRequiredResult`. The outcome is the same typed [`FormOutcome`] /
//!   [`UrlOutcome`] on both revisions.
//! - [`Edge`]: serve every handler through it (`Edge::new(handler)`): the revision is
//!   decided once per request ([`Revision`], a type the rest branches on), every
//!   2026-07-28 result carries `resultType`, -32042 never leaves on 2026-07-28.
//!   [`wire`] puts a round's exact request JSON on the wire ([`wire::EdgeTransport`] /
//!   [`wire::edge_rw`] for stdio, [`wire::exact_rounds_http`] for Streamable HTTP).
//! - [`StateKeys`]: the HMAC key ring sealing `requestState` (rotation: the first key
//!   signs, the others are accepted), from configuration, the same on every node.
//! - [`Elicitations`]: the server-wide registry of pending elicitations (behind the
//!   [`ElicitationStore`] trait: [`MemoryStore`] in one process, `mcp-elicit-store` for
//!   SQLite or PostgreSQL that survive restarts and are shared between nodes), its
//!   configuration, and [`Elicitations::complete`] for the out-of-band page that
//!   finishes a URL elicitation (on either revision).
//! - [`Elicitor`]: the 2025-11-25 calls underneath: [`form`](Elicitor::form),
//!   [`form_with_schema`](Elicitor::form_with_schema), [`url`](Elicitor::url),
//!   [`url_required`](Elicitor::url_required) (-32042) and
//!   [`url_unsupported`](Elicitor::url_unsupported) (clients without URL mode).
//! - [`Principal`] / [`IdentityPolicy`]: the user an elicitation is bound to, from an
//!   authenticated principal that server-side middleware attached to the request, or the
//!   local OS user for stdio and loopback development; never from what the client says.
//! - [`Error`]: the one error type; `ErrorData::from(error)` is the one mapping to JSON-RPC.
//! - `HttpServer` (feature `serve`, on by default): binds a loopback address and serves
//!   `/mcp` (through [`Elicitations::scoped_router`]) with your own routes, such as the
//!   [`ConfirmPage`] that finishes a URL elicitation with one button (`complete_with` in
//!   the safe order). Without `serve`, build the router yourself and serve it with your
//!   own HTTP server.
//! - [`prelude`]: what a tool server uses, in one `use`.
//! - `reference` (feature `reference`, off by default): the reference server behind
//!   `mcp-elicit serve`.
//!
//! ## One handler, both revisions
//!
//! ```no_run
//! use mcp_elicit_server::{FormOutcome, SessionScope, Stop, respond};
//! use rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock};
//! use rmcp::service::RequestContext;
//! use rmcp::{ErrorData, RoleServer};
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct Contact {
//!     /// Your name
//!     name: String,
//! }
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct Confirm {
//!     /// Really add it?
//!     sure: bool,
//! }
//!
//! // In `ServerHandler::call_tool` (the handler served as `Edge::new(handler)`):
//! async fn call_tool(
//!     scope: &SessionScope,
//!     request: CallToolRequestParams,
//!     ctx: RequestContext<RoleServer>,
//! ) -> Result<CallToolResponse, ErrorData> {
//!     respond(add_contact(scope, &request, &ctx).await)
//! }
//!
//! async fn add_contact(
//!     scope: &SessionScope,
//!     request: &CallToolRequestParams,
//!     ctx: &RequestContext<RoleServer>,
//! ) -> Result<CallToolResult, Stop> {
//!     let mut ask = scope.ask(ctx, request).await?;
//!     // One line per question; on 2026-07-28 each is a round (the second retry
//!     // carries the first answer in the sealed state).
//!     let FormOutcome::Accepted(contact) = ask.form::<Contact>("contact", "Who?").await? else {
//!         return Ok(CallToolResult::success(vec![ContentBlock::text("nothing added")]));
//!     };
//!     let sure = ask.form::<Confirm>("confirm", "Add them?").await?;
//!     // Side effects only after the last question: on 2026-07-28 everything above
//!     // runs again on every retry.
//!     let done = matches!(sure, FormOutcome::Accepted(Confirm { sure: true }));
//!     Ok(CallToolResult::success(vec![ContentBlock::text(if done {
//!         format!("added {}", contact.name)
//!     } else {
//!         "nothing added".to_owned()
//!     })]))
//! }
//! # let _ = call_tool;
//! ```
//!
//! What a handler must do to be correct on both revisions is listed on [`Ask`]: stable
//! keys, side effects after the last question (everything before it reruns on each
//! 2026-07-28 retry), the same questions for the same request, `?` and [`respond`],
//! its own outcome checked before [`Ask::url`], and [`Edge`].
//!
//! ## 2026-07-28: what the server does, and the choices made
//!
//! - **Sealed state.** `requestState` is HMAC-SHA256 (rmcp's `RequestStateCodec`, `rs2`
//!   with key ids), bound as associated data to the user (issuer and subject), the
//!   method, the tool / prompt name or resource URI and the canonical JSON of the
//!   arguments, with an expiry inside (the form timeout; the URL lifetime for URL
//!   questions) checked on the registry's clock. It carries the question keys of the
//!   round, the answers of earlier rounds (already validated; validated again when
//!   used), the attempts of re-asked forms and, for URL questions, the id of the
//!   stored elicitation. It is readable by the client (authenticated, not encrypted):
//!   nothing in it is secret, and secrets never go through forms. Oversized
//!   ([`MAX_STATE_BYTES`]), malformed, modified, truncated, another user's, tool's or
//!   arguments', retired-key or expired state: -32602 ([`ErrorKind::InvalidState`])
//!   naming what is wrong, nothing read, nothing changed.
//! - **Answers.** An answer is used only for a question the handler asks now and is
//!   validated against its full schema; keys never asked are ignored and a missing
//!   answer is asked again in a new round (the MRTR rules); an invalid answer is asked
//!   again once in a new round listing the rules it broke
//!   ([`ElicitationConfig::max_attempts`], default 2), then, like a malformed one,
//!   -32602 naming `inputResponses.KEY` and every violation. An
//!   undeclared capability in the request's `_meta` is -32021 with
//!   `requiredCapabilities` (on 2025-11-25: [`ErrorKind::ModeNotSupported`], -32602).
//! - **URL mode: still waiting is another round, never a blocked request.** The first
//!   call stores the elicitation (bound to the user, counted in their quota) and
//!   answers a round with the URL (no `elicitationId`: the revision removed it). A
//!   retry before the page is finished answers the same round again, same URL, so a
//!   client that remembers the consent for that URL need not ask the user twice
//!   (modelcontextprotocol issue 2920 discusses a state-only "still waiting" result
//!   instead; a round with the request keeps every client able to show it again, and
//!   one without `inputRequests` would invite an immediate retry loop). Holding the
//!   request open for minutes until the page is done would tie up a connection per
//!   user and break on any proxy timeout or node change. The page is the 2025-11-25
//!   one (connect, secret, OAuth, confirmation), and the phishing rule is unchanged:
//!   it completes only for the same user. A retry after the page is finished returns
//!   [`UrlOutcome::Completed`] once (the stored elicitation is used up atomically in
//!   the store, so across nodes too); a second use of the same state is -32602.
//! - **No URL to the model.** A client without URL mode gets a tool result that says a
//!   client with URL-mode elicitation is needed, without the URL
//!   ([`Elicitor::url_unsupported`]): tool results reach the model, and a capability
//!   URL in them could be repeated or sent on by it, while the specification has the
//!   client show URL-mode URLs to the user only, after consent.
//!
//! Sizes and costs (`cargo bench -p mcp-elicit-server --bench state`, one run on a shared
//! 2-core machine): a sealed state is 224 bytes with no carried answer, 408 with one
//! five-field form answer, 964 with four; sealing takes about 1.8 µs, opening 6.4 µs
//! (JSON included), refusing a tampered state 1.0 µs, the binding 0.8 µs.
//!
//! ## Gaps in rmcp 3.11 (for upstream)
//!
//! - Ordinary results model `resultType` as optional and only their constructors set
//!   it, so a result built by deserializing (or `Default`) leaves it out on the
//!   2026-07-28 wire, where the schema requires it: [`Edge`] fills it in.
//! - The typed `ElicitRequest` (the only elicitation an `InputRequiredResult` can hold)
//!   has no `pattern` and drops unknown keywords: [`wire`] sends the exact JSON instead.
//! - `StreamableHttpService` requires a `ServerHandler`, so a wrapper cannot see the
//!   `ServerResult` of a request; the exact JSON is therefore fixed in the HTTP body.
//! - `DELETE` of an unknown session answers 202: `reference::sessions` answers 404.
//!
//! ## Defaults, and what needs no code of yours
//!
//! - **Sessions outlive the wait for the user.** rmcp closes an idle Streamable HTTP
//!   session after 5 minutes, a form waits up to 10: [`Elicitations::router`] (or
//!   [`session_manager`] with your own `StreamableHttpService`) keeps sessions alive for
//!   [`ElicitationConfig::session_keep_alive`] (10 minutes 1 second by default).
//! - **Expired records are swept** when new ones are stored, at most once a minute
//!   ([`ElicitationConfig::sweep_interval`]), and never count toward the per-user
//!   quota ([`ElicitationConfig::max_pending_per_user`], 32).
//! - **An invalid answer is asked once more** with the rules it broke
//!   ([`ElicitationConfig::max_attempts`], 2; on 2026-07-28 a new round).
//! - **What the user did can be a tool result**: [`respond_tool`] answers a decline or
//!   cancel ([`FormOutcome::accepted`]), an answer still invalid after the re-ask or a
//!   timeout as a result the model reads, not a JSON-RPC error.
//! - Every setting and its default: [`ElicitationConfig`]; every error kind, its cause
//!   and what to do: [`ErrorKind`].
//!
//! ## Dependencies
//!
//! The crate re-exports what its API uses: [`rmcp`], [`axum`], [`mcp_elicit_core`]
//! (with [`Mode`], [`Capability`], [`Action`] and [`Schema`] at the root),
//! [`schemars`], [`serde`] and [`serde_json`]. The derives find the re-exports with
//! `#[schemars(crate = "mcp_elicit_server::schemars")]` and
//! `#[serde(crate = "mcp_elicit_server::serde")]`; or depend on `serde` and `schemars`
//! directly (the same versions). A server also needs `tokio`. With the default feature
//! `serve`, `HttpServer` serves over HTTP/1.1 (axum's `http1` and `tokio` features, hyper);
//! without it, serving the router is yours (`axum::serve` needs those same features).
//!
//! ## What is checked, and when
//!
//! | Rule (specification) | Where |
//! |---|---|
//! | Servers MUST NOT send modes the client did not declare | refused before sending ([`ErrorKind::ModeNotSupported`]) |
//! | Servers MUST NOT request sensitive information through form mode | secret-field lint, refused before sending ([`ErrorKind::SecretField`]) |
//! | Schemas are a restricted subset | [`Schema`] can only hold the subset; types that do not map are [`ErrorKind::InvalidSchema`] |
//! | Servers SHOULD validate received data | every accepted form is validated; violations are [`ErrorKind::InvalidContent`] (optionally re-asked) |
//! | URL: https outside development, no credentials in it | server URL policy ([`ErrorKind::InvalidUrl`]) |
//! | `elicitationId` unique | 128 bits from the OS CSPRNG ([`ElicitationId`]) |
//! | Bind elicitations to the user and the client | pending state keyed by user, session and id; completion needs the same user |
//! | Completion only to the client that got the elicitation | the connection is recorded with the elicitation; at most once |
//! | -32042 only for URL elicitations with ids | [`Elicitor::url_required`] is the only constructor |
//! | Per-user cap on pending elicitations | [`ElicitationStore::insert_within_quota`]: exact in [`MemoryStore`] (one lock) and in `mcp-elicit-store` (one conditional insert; a per-user advisory lock on PostgreSQL); the trait's default (check, then insert) can overshoot by concurrent inserts |
//!
//! ## Completion: verify, record, then notify; several nodes
//!
//! A client retries its request the moment it hears of a completion, so whatever the
//! out-of-band page obtained (a token, a key, a "connected" flag) must be stored before
//! the notification leaves, and only for an id verified to be pending for that very
//! user. [`Elicitations::complete_with`] does it in that order: the id and owner are
//! checked and the completion recorded ([`Elicitations::record_completion`], at most
//! once, even across nodes sharing the store), then your bookkeeping runs with the
//! record (and its [`PendingElicitation::app_data`]), then the notification goes out
//! ([`Elicitations::notify_completion`]: to the connection this node holds for that
//! session, or through the relay to the node holding it). A replayed, stale or another
//! user's id stops at the check and your bookkeeping never runs.
//! [`Elicitations::complete`] is the same with nothing to record.
//!
//! With several nodes, the connection lives on one node only. Give every node's registry
//! a [`CompletionRelay`] ([`Elicitations::set_relay`]; `mcp-elicit-store`'s buses are
//! relays): a completion this node cannot deliver is relayed, and on every node each
//! relayed notice goes to [`Elicitations::deliver_completion`], which touches no stored
//! state and sends only to a connection registered for that id *and* session, at most
//! once. When no node holds the session any more (a restart, a reconnect), nothing
//! is sent: the client's retry of its request is the recovery path.
//!
//! `pattern` and every other schema keyword reach the client: requests are sent as the
//! exact JSON of [`mcp_elicit_core::message::CreateRequest`], not through rmcp's typed
//! schema (which drops `pattern`).
//!
//! ## A tool that asks for a form
//!
//! ```no_run
//! use mcp_elicit_server::{Elicitations, FormOutcome, SessionScope};
//! use rmcp::model::{CallToolResult, ContentBlock};
//! use rmcp::service::RequestContext;
//! use rmcp::{ErrorData, RoleServer};
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct Contact {
//!     /// Your name
//!     name: String,
//!     /// Your e-mail address
//!     #[schemars(email)]
//!     email: String,
//! }
//!
//! async fn add_contact(
//!     scope: &SessionScope,
//!     ctx: RequestContext<RoleServer>,
//! ) -> Result<CallToolResult, ErrorData> {
//!     let elicitor = scope.elicitor(&ctx)?;
//!     let text = match elicitor.form::<Contact>("Who should be added?").await? {
//!         FormOutcome::Accepted(c) => format!("added {} <{}>", c.name, c.email),
//!         FormOutcome::Declined => "you declined: nothing added".to_owned(),
//!         FormOutcome::Cancelled => "cancelled: ask me again later".to_owned(),
//!     };
//!     Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
//! }
//! # let _ = add_contact;
//! ```
//!
//! ## A tool that needs a URL-mode interaction, and its completion
//!
//! ```no_run
//! use mcp_elicit_server::{Elicitations, Principal, SessionScope, UrlElicitation};
//! use mcp_elicit_core::message::Mode;
//! use rmcp::model::{CallToolResult, ContentBlock};
//! use rmcp::service::RequestContext;
//! use rmcp::{ErrorData, RoleServer};
//!
//! async fn list_files(
//!     scope: &SessionScope,
//!     ctx: RequestContext<RoleServer>,
//!     connected: bool,
//! ) -> Result<CallToolResult, ErrorData> {
//!     if connected {
//!         return Ok(CallToolResult::success(vec![ContentBlock::text("3 files")]));
//!     }
//!     let elicitor = scope.elicitor(&ctx)?;
//!     let connect = UrlElicitation::new("Connect your Example Co account.", |id| {
//!         format!("https://mcp.example.com/connect?elicitationId={id}")
//!     })?;
//!     if !elicitor.supports(Mode::Url) {
//!         // Never fall back to a form for credentials: tell the user what to do instead.
//!         let text = elicitor.url_fallback(&connect).await?;
//!         return Ok(CallToolResult::error(vec![ContentBlock::text(text)]));
//!     }
//!     // -32042: the client opens the URL (with the user's consent) and retries later.
//!     Err(elicitor.url_required(&[connect]).await.into())
//! }
//!
//! // Later, in the web handler of /connect, once the browser user is verified to be the
//! // same user (e.g. a session cookie for the same `sub`):
//! async fn connect_done(hub: &Elicitations, user: &Principal, elicitation_id: &str) {
//!     match hub.complete(user, elicitation_id).await {
//!         Ok(done) => println!("completed; client notified: {}", done.notified),
//!         Err(e) => println!("nothing to complete: {e}"),
//!     }
//! }
//! # let _ = (list_files, connect_done);
//! ```
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod ask;
mod checks;
mod config;
mod confirm;
mod elicitor;
mod error;
#[cfg(feature = "reference")]
mod http_front;
mod hub;
mod id;
mod identity;
mod lean_sessions;
mod page;
#[cfg(feature = "reference")]
pub mod reference;
mod relay;
mod respond;
mod revision;
#[cfg(feature = "serve")]
mod serve;
mod session_layer;
mod session_limits;
mod state;
pub mod store;
mod streamable;
mod typed_request;
pub mod wire;

// What the API needs, so a server needs no direct dependency for it (derives: see
// "Dependencies" above).
pub use axum;
pub use mcp_elicit_core;
pub use mcp_elicit_core::Schema;
pub use mcp_elicit_core::message::{Action, Capability, Mode};
pub use rmcp;
pub use schemars;
pub use serde;
pub use serde_json;

pub use ask::{
    Answers, Ask, MAX_KEY_BYTES, METHOD_ROOTS, METHOD_SAMPLING, Questions, Retryable, Ticket,
};
pub use config::ElicitationConfig;
pub use confirm::{ConfirmPage, REFUSED_TEXT};
pub use elicitor::{Elicitor, FormOutcome, UrlElicitation, UrlOutcome};
pub use error::{Error, ErrorKind};
#[cfg(feature = "reference")]
pub use http_front::{HandlerFactory, HttpFront};
pub use hub::{Completed, Completion, Elicitations, SessionScope};
pub use id::ElicitationId;
pub use identity::{IdentityPolicy, LOCAL_ISSUER, Principal, SessionKey};
pub use lean_sessions::{LeanEventStream, LeanSessionConfig, LeanSessionManager, LeanTransport};
pub use page::{ELICITATION_ID_PARAM, PageQuery};
pub use relay::CompletionRelay;
pub use respond::{Complete, Edge, InputRound, Stop, ToolReply, respond, respond_tool, text};
pub use revision::Revision;
#[cfg(feature = "serve")]
pub use serve::HttpServer;
#[cfg(feature = "reference")]
pub use session_layer::SharedHttpService;
pub use session_layer::{
    SessionDirectory, SessionLayer, lean_session_manager, unknown_session_404_in,
};
pub use session_limits::{SessionGuard, SessionLimits, enforce as enforce_session_limits};
pub use state::{MAX_STATE_BYTES, StateBinding, StateKeys};
pub use store::{
    Clock, ElicitationStore, MemoryStore, PendingElicitation, StoreError, SystemClock,
};
pub use streamable::{MCP_PATH, session_manager, unknown_session_404};

/// What a tool server uses, in one `use mcp_elicit_server::prelude::*;`: the types of a
/// `#[tool]` function ([`SessionScope`], [`Ask`], [`ToolReply`], [`text`], rmcp's
/// `RoleServer`, `ServerHandler` and `RequestContext` also as `Ctx`), the outcomes, the
/// registry and its pages ([`Elicitations`], [`HttpServer`], [`ConfirmPage`],
/// [`PageQuery`], [`PendingElicitation`], [`Principal`]) and, with the `macros`
/// feature, rmcp's `#[tool_router]`, `#[tool]` and `#[tool_handler]` (they expand to
/// `rmcp::` paths: the crate using them depends on `rmcp` itself).
///
/// ```
/// use mcp_elicit_server::prelude::*;
///
/// fn answer(scope: &SessionScope) -> CallToolResult {
///     let _ = scope;
///     text("done")
/// }
/// # let _ = answer;
/// ```
pub mod prelude {
    #[cfg(feature = "serve")]
    pub use crate::HttpServer;
    pub use crate::{
        Ask, ConfirmPage, Elicitations, FormOutcome, PageQuery, PendingElicitation, Principal,
        SessionScope, Stop, ToolReply, UrlOutcome, text,
    };
    pub use rmcp::model::CallToolResult;
    pub use rmcp::service::{RequestContext, RequestContext as Ctx};
    pub use rmcp::{RoleServer, ServerHandler};
    #[cfg(feature = "macros")]
    pub use rmcp::{tool, tool_handler, tool_router};
}

/// Entry points for the fuzz targets in `fuzz/` (built only with `--cfg fuzzing`, which
/// only those builds set): the readers of a retried 2026-07-28 request that are not
/// public API. Not part of the API.
#[cfg(fuzzing)]
#[doc(hidden)]
pub mod fuzzing {
    pub use crate::ask::read_input_response;
    #[cfg(feature = "reference")]
    pub use crate::http_front::parse::{
        fuzz_call_tool as call_tool, fuzz_session_message as session_message,
    };
    pub use crate::revision::declared_in_meta;
}
