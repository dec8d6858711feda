//! # mcp-elicit-core
//!
//! The pure, IO-free heart of mcp-elicit: an exact model of the MCP 2025-11-25
//! elicitation messages and the rules around them.
//!
//! - [`schema`]: the restricted `requestedSchema` of form mode (a flat object of
//!   primitive properties), parsed from JSON with every constraint kept, built with a
//!   builder, serialized back.
//! - [`validate`]: validation of a form response `content` against a schema, reporting
//!   every violation at once, and explicit default application.
//! - [`lint`]: the secret-field lint (servers MUST NOT request passwords, API keys,
//!   tokens or payment credentials through form mode).
//! - [`url_safety`]: URL analysis for URL mode (client-side verdict and warnings,
//!   stricter server-side policy).
//! - [`message`]: the wire messages (`elicitation/create` params, results, the
//!   completion notification, `URLElicitationRequiredError` data).
//! - [`lifecycle`]: the explicit states of one elicitation.
//!
//! Nothing here does IO, spawns tasks, reads a clock or draws randomness: callers pass
//! those in. Every parser of untrusted input returns a typed error naming what and where,
//! and never panics.
//!
//! ## A form round trip
//!
//! A server builds (or parses) a schema, checks it for secret fields, and validates what
//! the client sends back; a client pre-fills the form with the defaults.
//!
//! ```
//! use mcp_elicit_core::lint::lint_schema;
//! use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder};
//! use mcp_elicit_core::validate::{apply_defaults, validate};
//! use serde_json::json;
//!
//! let schema = SchemaBuilder::new()
//!     .property(PropertyBuilder::string("name").min_length(1).required())
//!     .property(PropertyBuilder::boolean("subscribe").default(false))
//!     .build()?;
//! assert!(lint_schema(&schema).is_empty()); // nothing looks like a password or key
//!
//! let mut content = json!({"name": "Ada"}).as_object().cloned().unwrap();
//! assert_eq!(apply_defaults(&schema, &mut content), ["subscribe"]);
//! assert!(validate(&schema, &content.into()).is_ok());
//!
//! let err = validate(&schema, &json!({"subscribe": "yes"})).unwrap_err();
//! assert_eq!(err.len(), 2); // "name" is missing, "subscribe" is not a boolean
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Errors
//!
//! Parsers return [`Errors`](error::Errors) (every problem found) or a single [`Error`];
//! each names its [`ErrorKind`], a JSON pointer and a sentence:
//!
//! ```
//! use mcp_elicit_core::{ErrorKind, Schema};
//!
//! let errors = Schema::from_json_str(r#"{"type": "object", "properties": {
//!     "when": {"type": "string", "format": "time"}}}"#).unwrap_err();
//! let e = errors.first();
//! assert_eq!(e.kind(), ErrorKind::UnsupportedFormat);
//! assert_eq!(e.pointer(), "/properties/when/format");
//! assert!(e.to_string().starts_with("at /properties/when/format: format \"time\""));
//! ```
#![warn(missing_docs)]
// docs.rs (nightly, `--cfg docsrs`): items behind a feature say which one.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod danger;
pub mod error;
pub mod lifecycle;
pub mod lint;
pub mod message;
pub mod schema;
pub mod url_safety;
pub mod validate;

pub use error::{Error, ErrorKind};
pub use schema::Schema;
