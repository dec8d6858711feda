//! `mcp-elicit url inspect`.

use std::process::ExitCode;

use clap::Subcommand;

/// `mcp-elicit url ...`
#[derive(Debug, Subcommand)]
pub(crate) enum UrlArgs {}

pub(crate) fn run(args: UrlArgs) -> ExitCode {
    match args {}
}
