//! # mcp-elicit-tui
//!
//! Terminal screens for an MCP elicitation host, built on `ratatui`:
//!
//! - [`form`]: a form-mode request as one scrolling form with live validation, a review
//!   step showing the exact JSON to be sent, and explicit Submit / Decline / Cancel.
//! - [`url`]: URL-mode consent (full URL, registrable domain marked, every warning in
//!   words, blocked URLs not openable) and the waiting view until completion.
//! - [`tools`], [`args`], [`json_editor`], [`result`]: pick a tool, fill its arguments
//!   (a form when the input schema is flat, else JSON), read the result.
//! - [`signin`]: consent before the browser opens for an MCP server's OAuth sign-in
//!   (which MCP server, which authorization server, the full page, the scopes).
//! - [`status`], [`required`]: progress bar, notices, and the -32042 overview.
//! - [`terminal`]: raw mode / alternate screen with restore on exit and on panic.
//! - [`host`]: the interactive host behind `mcp-elicit connect` and `mcp-elicit demo`:
//!   [`host::TuiUi`] implements the client library's `ElicitationUi` with these screens.
//!
//! Every screen is a plain state machine (`handle_key` returns an outcome) with a
//! separate `render`, so both are testable without a terminal. Everything a server sends
//! is untrusted and drawn through [`text`], which neutralises terminal control
//! characters and bidirectional overrides. Meaning is never carried by colour alone.
#![warn(missing_docs)]

pub mod args;
mod chrome;
pub mod form;
pub mod host;
pub mod json_editor;
pub mod keys;
pub mod required;
pub mod result;
pub mod server;
pub mod signin;
pub mod status;
pub mod terminal;
#[cfg(test)]
mod testutil;
pub mod text;
mod theme;
pub mod tools;

pub mod url;

pub use args::{ArgsOutcome, ArgsState};
pub use form::{FormOutcome, FormPurpose, FormState, FormStep};
pub use required::{RequiredChoice, RequiredItem, RequiredState};
pub use result::{ResultBlock, ResultView};
pub use server::ServerIdentity;
pub use status::{NoticeBar, Progress};
pub use tools::{ToolEntry, ToolListChoice, ToolListState};
pub use url::{UrlChoice, UrlConsentState, UrlContext, WaitChoice, WaitingState};
