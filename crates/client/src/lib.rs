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
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # use mcp_elicit_client::rmcp::{self, RoleServer, ServerHandler, ServiceExt};
//! # use rmcp::model::{
//! #     CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
//! #     ErrorData, Implementation, ServerCapabilities, ServerConfig, ServerRequest,
//! # };
//! # use rmcp::service::RequestContext;
//! # // A 2025-11-25 server whose tool `greet` asks for a name with a form (default "Ada").
//! # struct Greeter;
//! # impl ServerHandler for Greeter {
//! #     fn get_info(&self) -> ServerConfig {
//! #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
//! #             .with_server_info(Implementation::new("greeter", "1.0.0"))
//! #     }
//! #     async fn call_tool(
//! #         &self,
//! #         _: CallToolRequestParams,
//! #         cx: RequestContext<RoleServer>,
//! #     ) -> Result<CallToolResponse, ErrorData> {
//! #         let form = serde_json::json!({"mode": "form", "message": "Who are you?",
//! #             "requestedSchema": {"type": "object", "properties": {
//! #                 "name": {"type": "string", "default": "Ada", "maxLength": 40}}}});
//! #         let ask = ServerRequest::CustomRequest(CustomRequest::new("elicitation/create", Some(form)));
//! #         let answer = cx.peer.send_request(ask).await
//! #             .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
//! #         let answer = serde_json::to_value(answer).unwrap_or_default();
//! #         let name = answer["content"]["name"].as_str().unwrap_or("stranger");
//! #         Ok(CallToolResult::success(vec![ContentBlock::text(format!("Hello, {name}!"))]).into())
//! #     }
//! # }
//! # let (client_io, server_io) = tokio::io::duplex(1 << 16);
//! # tokio::spawn(async move {
//! #     if let Ok(running) = Greeter.serve(server_io).await {
//! #         let _ = running.waiting().await;
//! #     }
//! # });
//! use mcp_elicit_client::{
//!     Config, ElicitationClient, FormPolicy, ProtocolChoice, ScriptedUi, SystemBrowser,
//!     TransportIdentity, UrlPolicy,
//! };
//! use mcp_elicit_core::message::Capability;
//! use serde_json::json;
//!
//! // A host without a person: forms answered from JSON (over the defaults), URLs declined.
//! let answers = FormPolicy::answers_from_json(&json!({"name": "Grace"}))?;
//! let ui = ScriptedUi::new(Capability::FORM, answers, UrlPolicy::Never);
//! let config = Config::default().with_protocol(ProtocolChoice::V2025_11_25);
//! let client = ElicitationClient::new(ui, SystemBrowser, config);
//!
//! // A real server: `client.clone().connect(&"stdio:python3 server.py".parse()?)`.
//! // Here: an rmcp server in the same process, over an in-memory pipe.
//! let (r, w) = tokio::io::split(client_io);
//! let pipe = TransportIdentity::Other { description: "in-process".into() };
//! let connection = client.clone().connect_io(r, w, pipe).await?;
//!
//! let params = mcp_elicit_client::rmcp::model::CallToolRequestParams::new("greet");
//! let result = client.call_tool(connection.peer(), params).await?;
//! assert_eq!(result.content[0].as_text().unwrap().text, "Hello, Grace!");
//! assert!(client.ui().failures().is_empty());
//! # Ok(())
//! # }
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
pub use identity::{ServerIdentity, TransportIdentity};
pub use mrtr::InputRound;
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
