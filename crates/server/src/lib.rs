//! # mcp-elicit-server
//!
//! Server-side MCP elicitation (specification 2025-11-25) on [rmcp]: form and URL mode,
//! completion notifications and `URLElicitationRequiredError` (-32042), checked before
//! anything is sent and validated when the answer comes back.
//!
//! - [`Elicitations`]: the server-wide registry of pending elicitations (behind the
//!   [`ElicitationStore`] trait: [`MemoryStore`] in one process, `mcp-elicit-store` for
//!   SQLite or PostgreSQL that survive restarts and are shared between nodes), its
//!   configuration, and [`Elicitations::complete`] for the out-of-band page that
//!   finishes a URL elicitation.
//! - [`SessionScope`]: one client connection's handle; keep it in the connection's
//!   handler and call [`SessionScope::elicitor`] in a tool, prompt or resource handler.
//! - [`Elicitor`]: [`form`](Elicitor::form) (from a Rust type),
//!   [`form_with_schema`](Elicitor::form_with_schema), [`url`](Elicitor::url),
//!   [`url_required`](Elicitor::url_required) (-32042) and
//!   [`url_fallback`](Elicitor::url_fallback) (clients without URL mode).
//! - [`Principal`] / [`IdentityPolicy`]: the user an elicitation is bound to, from an
//!   authenticated principal that server-side middleware attached to the request, or the
//!   local OS user for stdio and loopback development; never from what the client says.
//! - [`Error`]: the one error type; `ErrorData::from(error)` is the one mapping to JSON-RPC.
//! - [`Round`] / [`Elicitor::form_input`]: forms for 2026-07-28 peers, through
//!   `InputRequiredResult` rounds with a sealed, user-bound `requestState`.
//! - [`reference`](mod@reference): the reference server behind `mcp-elicit serve`.
//!
//! ## What is checked, and when
//!
//! | Rule (specification) | Where |
//! |---|---|
//! | Servers MUST NOT send modes the client did not declare | refused before sending ([`ErrorKind::ModeNotSupported`]) |
//! | Servers MUST NOT request sensitive information through form mode | secret-field lint, refused before sending ([`ErrorKind::SecretField`]) |
//! | Schemas are a restricted subset | [`Schema`](mcp_elicit_core::Schema) can only hold the subset; types that do not map are [`ErrorKind::InvalidSchema`] |
//! | Servers SHOULD validate received data | every accepted form is validated; violations are [`ErrorKind::InvalidContent`] (optionally re-asked) |
//! | URL: https outside development, no credentials in it | server URL policy ([`ErrorKind::InvalidUrl`]) |
//! | `elicitationId` unique | 128 bits from the OS CSPRNG ([`ElicitationId`]) |
//! | Bind elicitations to the user and the client | pending state keyed by user, session and id; completion needs the same user |
//! | Completion only to the client that got the elicitation | the connection is recorded with the elicitation; at most once |
//! | -32042 only for URL elicitations with ids | [`Elicitor::url_required`] is the only constructor |
//! | Per-user cap on pending elicitations | [`ElicitationStore::insert_within_quota`]: exact in [`MemoryStore`] (one lock) and in `mcp-elicit-store` (one conditional insert; a per-user advisory lock on PostgreSQL); the trait's default (check, then insert) can overshoot by concurrent inserts |
//!
//! ## Completion: record first, then notify; several nodes
//!
//! A client retries its request the moment it hears of a completion, so whatever the
//! out-of-band page obtained (a token, a key, a "connected" flag) must be stored before
//! the notification leaves. [`Elicitations::complete`] is
//! [`Elicitations::record_completion`] (the store transition, at most once, even across
//! nodes sharing the store) followed by [`Elicitations::notify_completion`] (the
//! notification, to the connection this node holds for that session, or through the
//! relay to the node holding it); call the
//! two yourself with your bookkeeping in between when it depends on the completed record.
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
//!         _ => "nothing added".to_owned(),
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

mod ask;
mod checks;
mod config;
mod elicitor;
mod error;
mod hub;
mod id;
mod identity;
pub mod reference;
mod relay;
mod respond;
mod revision;
mod state;
pub mod store;
pub mod wire;

pub use ask::{
    Answers, Ask, MAX_KEY_BYTES, METHOD_ROOTS, METHOD_SAMPLING, Questions, Retryable, Ticket,
};
pub use config::ElicitationConfig;
pub use elicitor::{Elicitor, FormOutcome, UrlElicitation, UrlOutcome};
pub use error::{Error, ErrorKind};
pub use hub::{Completion, Elicitations, SessionScope};
pub use id::ElicitationId;
pub use identity::{IdentityPolicy, LOCAL_ISSUER, Principal, SessionKey};
pub use relay::CompletionRelay;
pub use respond::{Complete, Edge, InputRound, Stop, respond};
pub use revision::Revision;
pub use state::{MAX_STATE_BYTES, StateBinding, StateKeys};
pub use store::{
    Clock, ElicitationStore, MemoryStore, PendingElicitation, StoreError, SystemClock,
};
