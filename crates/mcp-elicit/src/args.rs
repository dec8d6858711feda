//! Command-line arguments as plain data (no runtime objects here).

use clap::{Parser, Subcommand};

/// The complete, secure implementation of MCP elicitation.
#[derive(Debug, Parser)]
#[command(name = "mcp-elicit", version, about)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// Every subcommand; each one's arguments live beside its implementation in `cmd/`.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Check form-mode schemas and validate responses against them.
    #[command(subcommand)]
    Schema(crate::cmd::schema::SchemaArgs),
    /// Analyse URLs the way a careful client does before URL-mode consent.
    #[command(subcommand)]
    Url(crate::cmd::url::UrlArgs),
    /// The sign-ins to MCP servers kept between runs: list them, forget them.
    #[command(subcommand)]
    Auth(crate::cmd::auth::AuthArgs),
    /// Call a tool on an MCP server non-interactively, answering elicitations by policy.
    Call(crate::cmd::call::CallArgs),
    /// The client driven by the official MCP conformance harness.
    ConformanceClient(crate::cmd::conformance_client::ConformanceClientArgs),
    /// Run the reference elicitation server (demo and conformance tools).
    Serve(Box<crate::cmd::serve::ServeArgs>),
    /// Connect to an MCP server and use it interactively in the terminal: list and call
    /// tools, answer forms, consent to URLs.
    Connect(crate::cmd::connect::ConnectArgs),
    /// Try elicitation interactively: the reference server in-process on loopback, with
    /// the terminal host connected to it.
    Demo(crate::cmd::demo::DemoArgs),
    /// An elicitation gateway: an MCP server to its clients and a client to one upstream
    /// server, passing everything on and enforcing the elicitation rules on the way.
    Proxy(crate::cmd::proxy::ProxyArgs),
}
