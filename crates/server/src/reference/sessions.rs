//! `DELETE /mcp` of a session this server does not hold (unknown, or ended already)
//! answers 404 Not Found, as the Streamable HTTP transport requires of requests naming
//! a session that does not exist (rmcp 3.11 answers 202 and does nothing).
//!
//! Moved to the crate root ([`crate::unknown_session_404`]); re-exported here for
//! existing callers.

pub use crate::streamable::unknown_session_404;
