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
