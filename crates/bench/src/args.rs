//! Command-line arguments.

use std::path::PathBuf;

/// The benchmark driver.
#[derive(Debug, clap::Parser)]
#[command(name = "mcp-elicit-bench", version, about)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, clap::Subcommand)]
pub(crate) enum Command {
    /// Runs every benchmark against every server and writes results.json and results.md.
    Run(Box<RunArgs>),
    /// Serves the bare-hyper baseline (what `run` starts as the server `bare`).
    Baseline(BaselineArgs),
    /// A fixed number of checked calls against a running server, then exits (for
    /// instruction counts under callgrind).
    Drive(DriveArgs),
}

#[derive(Debug, Clone, clap::Args)]
pub(crate) struct DriveArgs {
    /// The Streamable HTTP endpoint, e.g. http://127.0.0.1:PORT/mcp.
    #[arg(long)]
    pub(crate) url: String,
    /// 2025-11-25 or 2026-07-28.
    #[arg(long, default_value = "2025-11-25")]
    pub(crate) revision: String,
    /// Concurrent sessions.
    #[arg(long, default_value_t = 1)]
    pub(crate) sessions: usize,
    /// Calls per session.
    #[arg(long, default_value_t = 100)]
    pub(crate) calls: usize,
}

#[derive(Debug, Clone, clap::Args)]
pub(crate) struct BaselineArgs {
    /// Loopback address to listen on.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:0")]
    pub(crate) listen: std::net::SocketAddr,
}

#[derive(Debug, Clone, clap::Args)]
pub(crate) struct RunArgs {
    /// Short points and fewer sessions (checks the harness; exits non-zero when a server
    /// answers wrongly, never on timing).
    #[arg(long)]
    pub(crate) quick: bool,
    /// Where results.json, results.md and the server logs go.
    #[arg(long, value_name = "DIR", default_value = "target/bench")]
    pub(crate) out: PathBuf,
    /// The release `mcp-elicit` binary (our server: `serve --conformance --listen`).
    #[arg(long, value_name = "PATH", default_value = "target/release/mcp-elicit")]
    pub(crate) mcp_elicit: PathBuf,
    /// Node 22.
    #[arg(
        long,
        value_name = "PATH",
        default_value = ".tools/node_modules/node/bin/node"
    )]
    pub(crate) node: PathBuf,
    /// The Python with the `mcp` SDK.
    #[arg(long, value_name = "PATH", default_value = ".tools/venv/bin/python")]
    pub(crate) python: PathBuf,
    /// The folder with ts/, py/ and corpus/ (the repository's bench/).
    #[arg(long, value_name = "DIR", default_value = "bench")]
    pub(crate) bench_dir: PathBuf,
    /// Extra PYTHONPATH for the Python validator (format checkers for jsonschema).
    #[arg(long, value_name = "DIR")]
    pub(crate) python_path: Option<PathBuf>,
    /// Servers to drive, comma-separated: bare (the bare-hyper baseline, this binary's
    /// `baseline`), ours (`mcp-elicit serve --conformance` on rmcp's session layer, its
    /// per-user caps raised to 2 x sessions and its connection cap to 4 x sessions + 64),
    /// ours-lean (the same on `--session-layer lean`), ts, py on 2025-11-25; bare-2026,
    /// ours-2026 and ours-lean-2026 on 2026-07-28 (the load generator speaks that
    /// revision: stateless `InputRequiredResult` rounds, which no session layer serves).
    /// The idle step runs on each of ours and ours-lean named here (neither: ours).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "bare,ours,ours-lean,ts,py,bare-2026,ours-2026"
    )]
    pub(crate) servers: Vec<String>,
    /// Pin every server process to these CPUs (`taskset -c LIST`, e.g. `0`); run the
    /// load generator itself on others (`bench/run --pin` does both).
    #[arg(long, value_name = "LIST")]
    pub(crate) server_cpus: Option<String>,
    /// Concurrent sessions per point (default 1,16,64,256; quick 1,16).
    #[arg(long, value_delimiter = ',')]
    pub(crate) sessions: Option<Vec<usize>>,
    /// Measured seconds per point (default 10; quick 2).
    #[arg(long)]
    pub(crate) seconds: Option<f64>,
    /// Warm-up seconds per point, not measured (default 2; quick 0.5).
    #[arg(long)]
    pub(crate) warmup: Option<f64>,
    /// Idle sessions, each with one pending URL elicitation (default 1000,10000; quick 200).
    #[arg(long, value_delimiter = ',')]
    pub(crate) idle: Option<Vec<usize>>,
    /// Completion-latency samples (default 500; quick 50).
    #[arg(long)]
    pub(crate) completions: Option<usize>,
    /// Skip the validation micro-benchmark.
    #[arg(long)]
    pub(crate) skip_validation: bool,
    /// Skip the idle-session and completion benchmarks.
    #[arg(long)]
    pub(crate) skip_idle: bool,
    /// A note printed in the report (e.g. "machine loaded by other jobs").
    #[arg(long, value_name = "TEXT")]
    pub(crate) note: Option<String>,
}

impl RunArgs {
    pub(crate) fn session_counts(&self) -> Vec<usize> {
        self.sessions.clone().unwrap_or_else(|| {
            if self.quick {
                vec![1, 16]
            } else {
                vec![1, 16, 64, 256]
            }
        })
    }
    pub(crate) fn measure_secs(&self) -> f64 {
        self.seconds.unwrap_or(if self.quick { 2.0 } else { 10.0 })
    }
    pub(crate) fn warmup_secs(&self) -> f64 {
        self.warmup.unwrap_or(if self.quick { 0.5 } else { 2.0 })
    }
    pub(crate) fn idle_counts(&self) -> Vec<usize> {
        self.idle.clone().unwrap_or_else(|| {
            if self.quick {
                vec![200]
            } else {
                vec![1000, 10000]
            }
        })
    }
    pub(crate) fn completion_samples(&self) -> usize {
        self.completions
            .unwrap_or(if self.quick { 50 } else { 500 })
    }
    pub(crate) fn validation_secs(&self) -> f64 {
        if self.quick { 0.5 } else { 3.0 }
    }
}
