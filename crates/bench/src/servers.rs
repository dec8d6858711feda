//! The servers under test: how each is started on a free loopback port, and stopped.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use tokio::process::{Child, Command};

use crate::args::RunArgs;

/// The protocol revision the load generator speaks to a server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub(crate) enum Revision {
    /// `initialize`, sessions, `elicitation/create` on the call's SSE stream.
    #[serde(rename = "2025-11-25")]
    V2025,
    /// `server/discover`, no session, `InputRequiredResult` and the answered retry.
    #[serde(rename = "2026-07-28")]
    V2026,
}

/// One server program.
#[derive(Debug, Clone)]
pub(crate) struct ServerSpec {
    /// Short key (`bare`, `ours`, `ours-lean`, `ts`, `py`, `bare-2026`, `ours-2026`,
    /// `ours-lean-2026`).
    pub(crate) key: String,
    /// What the report calls it.
    pub(crate) label: String,
    /// What the load generator speaks to it.
    pub(crate) revision: Revision,
    /// `taskset -c LIST` for the server process.
    cpus: Option<String>,
    program: PathBuf,
    /// Arguments; `{port}` is replaced by the port, `{max_pending}` by twice the
    /// sessions of the point (every loopback session is the same local user),
    /// `{max_connections}` by four times the sessions plus 64: a session can hold its
    /// GET stream's connection, its call's stream and its answer's POST at once, and the
    /// client's pool keeps idle ones beside them. (With twice the sessions plus 64, the
    /// 193rd connection of a 64-session point was answered 503, and the client library
    /// dropped the answer it carried: the rare "no answer within 30s".)
    args: Vec<String>,
    env: Vec<(String, String)>,
}

/// A started server.
#[derive(Debug)]
pub(crate) struct RunningServer {
    child: Child,
    /// The server process (Node and Python run the server in this very process).
    pub(crate) pid: u32,
    /// `http://127.0.0.1:PORT`.
    pub(crate) base: String,
}

impl RunningServer {
    /// The Streamable HTTP endpoint.
    pub(crate) fn mcp_url(&self) -> String {
        format!("{}/mcp", self.base)
    }

    /// Kills the server and waits for it.
    pub(crate) async fn stop(mut self) {
        let _ = self.child.start_kill();
        let _ = tokio::time::timeout(Duration::from_secs(5), self.child.wait()).await;
    }

    /// Whether it is still running.
    pub(crate) fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl ServerSpec {
    /// A server started as `program args...`.
    pub(crate) fn new(key: &str, label: &str, program: &Path, args: &[&str]) -> Self {
        Self {
            key: key.to_owned(),
            label: label.to_owned(),
            revision: Revision::V2025,
            cpus: None,
            program: program.to_path_buf(),
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            env: Vec::new(),
        }
    }

    /// The same server driven on 2026-07-28 (key and label say so).
    fn on_2026(mut self) -> Self {
        self.revision = Revision::V2026;
        self.key.push_str("-2026");
        self.label.push_str(", 2026-07-28");
        self
    }

    fn pinned(mut self, cpus: Option<&String>) -> Self {
        self.cpus = cpus.cloned();
        self
    }

    fn with_env(mut self, key: &str, value: &str) -> Self {
        self.env.push((key.to_owned(), value.to_owned()));
        self
    }

    /// Starts it on a free loopback port for `sessions` concurrent sessions, logging to
    /// `log`, and waits until it accepts connections.
    pub(crate) async fn start(&self, log: &Path, sessions: usize) -> Result<RunningServer, String> {
        let port = free_port()?;
        let max_pending = sessions.saturating_mul(2).max(1);
        let max_connections = sessions.saturating_mul(4).saturating_add(64);
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| {
                a.replace("{port}", &port.to_string())
                    .replace("{max_pending}", &max_pending.to_string())
                    .replace("{max_connections}", &max_connections.to_string())
            })
            .collect();
        let log_file = std::fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
        let err_file = log_file
            .try_clone()
            .map_err(|e| format!("{}: {e}", log.display()))?;
        // `taskset` execs the program: the pid stays the server's.
        let mut command = match &self.cpus {
            Some(cpus) => {
                let mut c = Command::new("taskset");
                c.arg("-c").arg(cpus).arg(&self.program);
                c
            }
            None => Command::new(&self.program),
        };
        command
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::from(log_file))
            .stderr(Stdio::from(err_file))
            .kill_on_drop(true);
        for (k, v) in &self.env {
            command.env(k, v);
        }
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", self.program.display()))?;
        let pid = child
            .id()
            .ok_or_else(|| format!("{} exited at once", self.label))?;
        let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Ok(Some(status)) = child.try_wait() {
                return Err(format!(
                    "{} exited during start-up ({status}); see {}",
                    self.label,
                    log.display()
                ));
            }
            if tokio::net::TcpStream::connect(addr).await.is_ok() {
                break;
            }
            if Instant::now() > deadline {
                let _ = child.start_kill();
                return Err(format!(
                    "{} did not listen on {addr} within 30 s; see {}",
                    self.label,
                    log.display()
                ));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Ok(RunningServer {
            child,
            pid,
            base: format!("http://{addr}"),
        })
    }
}

/// A port that was free a moment ago.
fn free_port() -> Result<u16, String> {
    std::net::TcpListener::bind(("127.0.0.1", 0))
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("no free loopback port: {e}"))
}

/// The three servers of the comparison (those named in `args.servers`).
pub(crate) fn specs(args: &RunArgs) -> Result<Vec<ServerSpec>, String> {
    let ts = args.bench_dir.join("ts/server.mjs");
    let py = args.bench_dir.join("py/server.py");
    let ts = ts.to_string_lossy().into_owned();
    let py = py.to_string_lossy().into_owned();
    let mut out = Vec::new();
    for key in &args.servers {
        let spec = match key.as_str() {
            "ours" => ours(args, SessionLayer::Rmcp),
            "ours-2026" => ours(args, SessionLayer::Rmcp).on_2026(),
            "ours-lean" => ours(args, SessionLayer::Lean),
            "ours-lean-2026" => ours(args, SessionLayer::Lean).on_2026(),
            "bare" => bare()?,
            "bare-2026" => bare()?.on_2026(),
            "ts" => ServerSpec::new(
                "ts",
                "TypeScript SDK",
                &args.node,
                &[ts.as_str(), "--port", "{port}"],
            ),
            "py" => ServerSpec::new(
                "py",
                "Python SDK",
                &args.python,
                &[py.as_str(), "--port", "{port}"],
            ),
            other => {
                return Err(format!(
                    "unknown server {other:?} (bare, ours, ours-lean, ts, py, bare-2026, ours-2026, ours-lean-2026)"
                ));
            }
        };
        out.push(spec.pinned(args.server_cpus.as_ref()));
    }
    Ok(out)
}

/// The bare-hyper baseline: this very binary's `baseline` command.
fn bare() -> Result<ServerSpec, String> {
    let me = std::env::current_exe().map_err(|e| format!("cannot find this binary: {e}"))?;
    Ok(ServerSpec::new(
        "bare",
        "bare hyper (baseline)",
        &me,
        &["baseline", "--listen", "127.0.0.1:{port}"],
    ))
}

/// `--session-hibernate-after` of our server (the default is 30 s): the idle step waits
/// it out, and the sweep after it, before the next wave of sessions.
pub(crate) const HIBERNATE_AFTER_SECS: &str = "2";

/// The session layer `mcp-elicit serve` runs `/mcp` on (`--session-layer`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SessionLayer {
    /// rmcp's `LocalSessionManager` (the default).
    Rmcp,
    /// `LeanSessionManager`.
    Lean,
}

/// `mcp-elicit serve --conformance` as shipped on session layer `layer`, with the
/// per-user caps raised for the point's sessions: every loopback session is the same
/// local user, whose defaults are 32 pending elicitations, 256 sessions and 256 requests
/// in progress; and with room for a connection per session and then some (the default
/// 1,024 connections refuse the idle points' GET streams with 503).
pub(crate) fn ours(args: &RunArgs, layer: SessionLayer) -> ServerSpec {
    let (key, label, name) = match layer {
        SessionLayer::Rmcp => ("ours", "mcp-elicit (Rust, rmcp sessions)", "rmcp"),
        SessionLayer::Lean => ("ours-lean", "mcp-elicit (Rust, lean sessions)", "lean"),
    };
    ServerSpec::new(
        key,
        label,
        &args.mcp_elicit,
        &[
            "serve",
            "--conformance",
            "--listen",
            "127.0.0.1:{port}",
            "--session-layer",
            name,
            "--max-pending-per-user",
            "{max_pending}",
            "--max-sessions-per-user",
            "{max_pending}",
            "--max-requests-per-user",
            "{max_pending}",
            "--max-connections",
            "{max_connections}",
            // Idle sessions sleep soon (the idle step waits for it); sessions under
            // load are never idle that long.
            "--session-hibernate-after",
            HIBERNATE_AFTER_SECS,
        ],
    )
    .with_env("RUST_LOG", "warn")
    .pinned(args.server_cpus.as_ref())
}
