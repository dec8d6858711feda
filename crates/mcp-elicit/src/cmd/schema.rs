//! `mcp-elicit schema check|validate`.

use std::process::ExitCode;

use clap::Subcommand;

/// `mcp-elicit schema ...`
#[derive(Debug, Subcommand)]
pub(crate) enum SchemaArgs {}

pub(crate) fn run(args: SchemaArgs) -> ExitCode {
    match args {}
}
