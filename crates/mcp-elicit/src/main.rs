//! `mcp-elicit`: wires the libraries together. Arguments are parsed into plain data
//! (`args`), then each subcommand module builds its runtime objects and runs.

mod args;
mod auth;
mod cmd;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    cmd::run(cli.command)
}
