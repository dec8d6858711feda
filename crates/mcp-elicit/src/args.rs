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
}
