//! Transports that see each incoming message as raw JSON before rmcp parses it.
//!
//! - [`stdio`]: newline-delimited JSON-RPC over any `AsyncRead` + `AsyncWrite` (a child
//!   process's pipes, a `tokio::io::duplex` in tests).
//! - [`http`]: a [`StreamableHttpClient`](rmcp::transport::streamable_http_client::StreamableHttpClient)
//!   wrapper that looks at every SSE event of the POST response streams and the GET stream.
//! - [`capture`]: rmcp's reqwest client, keeping the raw JSON bodies that answer
//!   `tools/call`, `prompts/get` and `resources/read` (2026-07-28 `InputRequiredResult`s).
//! - [`authorized`]: MCP authorization (bearer token, sign-in on 401, step-up on 403).
//! - [`watched`]: ends the connection's completion waiters when the transport closes.
//! - a one-way message (a reply to the server, a notification) that the server refused
//!   before reading it (503, 429, a connection refused or closed) is sent again, a few
//!   times, after its `Retry-After`; see [`capture`].
//!
//! All of them feed [`RawRequests`](crate::RawRequests) so the handler can present an
//! `elicitation/create` exactly as sent. `stdio` and `http` also answer the requests rmcp
//! cannot parse (and would drop) with a JSON-RPC error, so the server's call does not
//! wait forever: -32602 for `elicitation/create` params that are not an object, -32600
//! for any other unreadable request.

pub mod authorized;
pub mod capture;
pub mod http;
mod refused;
mod reject;
pub mod stdio;
pub mod watched;
