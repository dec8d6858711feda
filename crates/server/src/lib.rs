//! # mcp-elicit-server
//!
//! Server-side MCP elicitation on rmcp.
#![warn(missing_docs)]
