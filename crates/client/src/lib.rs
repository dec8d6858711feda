//! # mcp-elicit-client
//!
//! Client-side MCP elicitation on rmcp.
#![warn(missing_docs)]
