//! # mcp-elicit-client
//!
//! Client-side MCP elicitation on rmcp, on 2025-11-25 and 2026-07-28 (negotiated with
//! `server/discover`, falling back to `initialize`; see [`ProtocolChoice`]).
//!
//! [`ElicitationClient`] is an rmcp `ClientHandler` that:
//! - declares the `elicitation` capability from what the host's UI really supports, and
//!   answers requests for an undeclared mode, or malformed ones, with -32602 and the reason;
//! - sees each `elicitation/create` exactly as sent (`pattern` included) by capturing it
//!   at the transport edge ([`transport`], [`RawRequests`]);
//! - form mode: prefills defaults, presents through [`ElicitationUi`], validates before
//!   sending and re-presents with field errors, answers accept/decline/cancel faithfully;
//! - URL mode: analyses the URL, never offers blocked ones, opens only after explicit
//!   consent through a [`UrlOpener`] (the system browser by default), never fetches it;
//! - tracks completion notifications per connection ([`CompletionRegistry`]);
//! - handles URLElicitationRequiredError (-32042) in [`ElicitationClient::call_tool`]:
//!   consent, wait for completion, retry;
//! - on 2026-07-28, drives `InputRequiredResult` rounds in [`ElicitationClient::call_tool`]
//!   through the same UI (several requests of a round as one [`InputOverview`], "still
//!   waiting" asked at once, `requestState` echoed exactly, bounded rounds; malformed
//!   results end the call with a [`CallError`] and nothing sent);
//! - signs in to servers that use MCP authorization ([`auth`]: discovery, registration,
//!   PKCE, step-up, refresh; tokens kept in a [`auth::TokenStore`]);
//! - rate limits prompts per server ([`RateLimit`], default burst 5, one per 10 s) and
//!   has a "stop asking" switch.
//!
//! ```no_run
//! use mcp_elicit_client::{Config, ElicitationClient, ScriptedUi, FormPolicy, UrlPolicy, ServerTarget, SystemBrowser};
//! use mcp_elicit_core::message::Capability;
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! let ui = ScriptedUi::new(Capability::FORM, FormPolicy::AcceptDefaults, UrlPolicy::Never);
//! let client = ElicitationClient::new(ui, SystemBrowser, Config::default());
//! let target: ServerTarget = "stdio:python3 server.py".parse()?;
//! let connection = client.clone().connect(&target).await?;
//! let params = mcp_elicit_client::rmcp::model::CallToolRequestParams::new("greet");
//! let result = client.call_tool(connection.peer(), params).await?;
//! # Ok(()) }
//! ```
#![warn(missing_docs)]

pub mod auth;
mod client;
mod config;
mod create;
pub mod identity;
mod mrtr;
pub mod opener;
pub mod rate_limit;
pub mod raw;
pub mod registry;
mod retry;
mod scripted;
pub mod target;
pub mod text;
pub mod transport;
pub mod ui;
mod url_flow;

pub use client::{
    ConnectError, Connection, ElicitationClient, STANDALONE_STREAM_WAIT, negotiated_protocol,
};
pub use config::{Config, Limits, ProtocolChoice};
pub use mrtr::InputRound;
pub use identity::{ServerIdentity, TransportIdentity};
pub use opener::{ManualOpen, OpenError, RecordingOpener, SystemBrowser, UrlOpener};
pub use rate_limit::{Clock, RateLimit, RateLimiter, TokioClock};
pub use raw::RawRequests;
pub use registry::{CompleteOutcome, CompletionRegistry, CompletionWaiter, WaitError};
pub use retry::{CallError, NotCompleted};
pub use scripted::{FormPolicy, ScriptedUi, UrlPolicy};
pub use target::{ServerTarget, TargetError};
pub use text::PlainText;
pub use ui::{
    ElicitationUi, FieldError, FormPrompt, FormResponse, InputOverview, InputStep, Notice,
    OverviewChoice, ProgressUpdate, RequiredOverview, RequiredStep, StallChoice, StalledCompletion,
    UrlDecision, UrlOrigin, UrlPrompt,
};
pub use url_flow::UrlOutcome;

/// The rmcp version this crate is built on, re-exported so hosts use the same types.
pub use rmcp;

/// Entry points for the fuzz targets in `fuzz/` (built only with `--cfg fuzzing`, which
/// only those builds set): the readers of 2026-07-28 results that are not public API.
/// Not part of the API.
#[cfg(fuzzing)]
#[doc(hidden)]
pub mod fuzzing {
    pub use crate::mrtr::parse_input_required;
}
