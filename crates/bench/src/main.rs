//! `mcp-elicit-bench`: drives mcp-elicit's reference server, the TypeScript SDK server and
//! the Python SDK server with the same elicitation workload, side by side, and measures
//! calls/s, latency percentiles, server CPU and peak RSS; also idle-session memory with a
//! pending URL elicitation, completion-notification latency and validation throughput.
//!
//! `mcp-elicit-bench baseline` serves the bare-hyper baseline (see [`baseline`]), which
//! `run` starts beside the other servers so that every run shows the floor.
//!
//! `bench/run` (repository root) installs the peers, builds this in release mode and runs
//! `mcp-elicit-bench run` with the right paths; see BENCHMARKS.md.

use std::process::ExitCode;

use clap::Parser;

mod args;
mod baseline;
mod drive;
mod idle;
mod load;
mod machine;
mod procstat;
mod report;
mod responder;
mod servers;
mod session;
mod validation;

/// The allocator of the `mcp-elicit` binary (see its `main.rs`): the bare baseline's floor
/// is measured with the allocator our server runs on.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("mcp-elicit-bench: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match cli.command {
        args::Command::Run(run) => runtime.block_on(report::run_all(*run)),
        args::Command::Drive(d) => match runtime.block_on(drive::run(d)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("mcp-elicit-bench drive: {e}");
                ExitCode::FAILURE
            }
        },
        args::Command::Baseline(b) => match runtime.block_on(baseline::serve(b.listen)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("mcp-elicit-bench baseline: {e}");
                ExitCode::FAILURE
            }
        },
    }
}
