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
//!
//! # Example
//!
//! A form-mode request drawn on ratatui's `TestBackend` at 80x24, filled from the
//! keyboard, reviewed, and sent:
//!
//! ```
//! use mcp_elicit_core::Schema;
//! use mcp_elicit_tui::keys::press;
//! use mcp_elicit_tui::{FormOutcome, FormPurpose, FormState, FormStep, ServerIdentity};
//! use ratatui::{Terminal, backend::TestBackend, buffer::Buffer};
//! use ratatui::crossterm::event::{KeyCode, KeyModifiers};
//! use serde_json::{Value, json};
//!
//! /// The screen's rows as text, trailing spaces trimmed.
//! fn rows(buf: &Buffer) -> Vec<String> {
//!     (0..buf.area.height)
//!         .map(|y| {
//!             let row: String = (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect();
//!             row.trim_end().to_string()
//!         })
//!         .collect()
//! }
//! fn draw(term: &mut Terminal<TestBackend>, form: &mut FormState) -> Vec<String> {
//!     term.draw(|f| {
//!         let area = f.area();
//!         form.render(area, f.buffer_mut());
//!     })
//!     .unwrap();
//!     rows(term.backend().buffer())
//! }
//! fn on_screen(screen: &[String], text: &str) -> bool {
//!     screen.iter().any(|l| l.contains(text))
//! }
//!
//! let server = ServerIdentity {
//!     name: "demo-server".into(),
//!     title: Some("Demo Server".into()),
//!     version: Some("0.1.0".into()),
//!     transport: "stdio".into(),
//! };
//! let schema = Schema::parse(&json!({
//!     "type": "object",
//!     "properties": {
//!         "name": {"type": "string", "title": "Full name", "minLength": 1},
//!         "age": {"type": "integer", "minimum": 18, "default": 30}
//!     },
//!     "required": ["name"]
//! }))
//! .expect("a flat form schema");
//! let purpose = FormPurpose::Elicitation { message: "Who is booking?".into() };
//! let mut form = FormState::new(server, purpose, schema);
//!
//! let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
//! let screen = draw(&mut term, &mut form);
//! assert!(on_screen(&screen, "Form request from server: Demo Server"));
//! assert!(on_screen(&screen, "Who is booking?"));
//! assert!(on_screen(&screen, "Full name *")); // `*` marks a required field...
//! assert!(on_screen(&screen, "* required")); // ...and the help bar says so in words
//! assert!(on_screen(&screen, "[30 ")); // the default is prefilled
//! assert!(on_screen(&screen, "< Decline (Ctrl-D) >"));
//!
//! // Focus starts on the first field: type into it, then Ctrl-S opens the review.
//! for c in "Ada".chars() {
//!     assert_eq!(form.handle_key(press(KeyCode::Char(c), KeyModifiers::NONE)), None);
//! }
//! assert_eq!(form.handle_key(press(KeyCode::Char('s'), KeyModifiers::CONTROL)), None);
//! assert_eq!(form.step(), FormStep::Review);
//! let screen = draw(&mut term, &mut form);
//! assert!(on_screen(&screen, "This exact JSON will be sent to Demo Server"));
//! assert!(on_screen(&screen, "\"name\": \"Ada\""));
//!
//! // Enter presses Send, the first review button: the answer is the exact content shown.
//! let Some(FormOutcome::Accept(content)) = form.handle_key(press(KeyCode::Enter, KeyModifiers::NONE))
//! else {
//!     panic!("the form was not accepted")
//! };
//! assert_eq!(Value::Object(content), json!({"name": "Ada", "age": 30}));
//! ```
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
