//! `mcp-elicit`: wires the libraries together. Arguments are parsed into plain data
//! (`args`), then each subcommand module builds its runtime objects and runs.

mod args;
mod auth;
mod cmd;

use std::process::ExitCode;

use clap::Parser;

/// mimalloc instead of the system allocator: a server round trip allocates and frees a few
/// hundred small blocks (JSON values, typed messages, HTTP buffers), and glibc's malloc
/// spent about a third of a round's instructions on them. Measured in BENCHMARKS.md
/// (issue 17): less server CPU per round trip, a little more memory per idle session.
/// Build with `--no-default-features` for the system allocator.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    cmd::run(cli.command)
}
