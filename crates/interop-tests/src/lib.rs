//! Harness for the interop tests: runs `mcp-elicit` against real MCP peers written with the
//! TypeScript SDK and the Python SDK (the programs in `interop/`), and runs the peers against each other.
//!
//! The peers and their runtimes (Node 22, the `mcp` Python package) live in the tools folder that
//! `scripts/install-tools` fills: `MCP_ELICIT_TOOLS`, by default `<repo>/.tools`. A missing tools
//! folder fails the tests (it never skips them). The `mcp-elicit` binary is `MCP_ELICIT_BIN` if set,
//! else it is built once per test binary with `cargo build -p mcp-elicit`.
//!
//! Every process started here is killed when its guard drops, every server binds 127.0.0.1, and
//! every wait has a hang guard; nothing asserts on timing.
#![warn(missing_docs)]

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{OnceLock, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

/// Longest a single peer or `mcp-elicit` run may take before it is killed and the test fails.
pub const RUN_GUARD: Duration = Duration::from_secs(90);
/// Longest a server may take to start listening.
pub const START_GUARD: Duration = Duration::from_secs(60);

/// The repository root (two levels above this crate).
pub fn repo_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    here.canonicalize().unwrap_or(here)
}

/// Paths of the installed peer runtimes.
#[derive(Debug)]
pub struct Tools {
    /// The tools folder.
    pub dir: PathBuf,
    /// Node 22 from npm.
    pub node: PathBuf,
    /// The venv's Python with the `mcp` SDK.
    pub python: PathBuf,
    /// The conformance suite's entry point (`conformance` bin).
    pub conformance: PathBuf,
}

/// The tools folder; panics (fails the test) when `scripts/install-tools` has not been run.
pub fn tools() -> &'static Tools {
    static TOOLS: OnceLock<Tools> = OnceLock::new();
    TOOLS.get_or_init(|| {
        let dir = std::env::var_os("MCP_ELICIT_TOOLS")
            .map(PathBuf::from)
            .unwrap_or_else(|| repo_root().join(".tools"));
        let tools = Tools {
            node: dir.join("node_modules/.bin/node"),
            python: dir.join("venv/bin/python"),
            conformance: dir.join("node_modules/.bin/conformance"),
            dir,
        };
        for p in [&tools.node, &tools.python, &tools.conformance] {
            assert!(
                p.exists(),
                "{} is missing: run scripts/install-tools first (tools folder {}, set MCP_ELICIT_TOOLS to use another)",
                p.display(),
                tools.dir.display()
            );
        }
        let linked = repo_root().join("interop/node_modules/@modelcontextprotocol/sdk");
        assert!(
            linked.exists(),
            "{} is missing: run scripts/install-tools first",
            linked.display()
        );
        tools
    })
}

/// The `mcp-elicit` binary: `MCP_ELICIT_BIN`, or built once with `cargo build -p mcp-elicit`
/// (a failed build fails every test that needs the binary, without building again).
pub fn mcp_elicit_bin() -> &'static Path {
    static BIN: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    match BIN.get_or_init(build_mcp_elicit) {
        Ok(bin) => bin,
        Err(e) => panic!("{e}"),
    }
}

fn build_mcp_elicit() -> Result<PathBuf, String> {
    if let Some(bin) = std::env::var_os("MCP_ELICIT_BIN") {
        return Ok(PathBuf::from(bin));
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(repo_root())
        .args([
            "build",
            "-p",
            "mcp-elicit",
            "--bin",
            "mcp-elicit",
            "--message-format=json-render-diagnostics",
        ])
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run cargo to build mcp-elicit: {e}"))?;
    if !out.status.success() {
        return Err("cargo build -p mcp-elicit failed (see the compiler output above)".into());
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == "mcp-elicit")
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
        .ok_or_else(|| "cargo build did not report the mcp-elicit executable".into())
}

/// A free TCP port on 127.0.0.1 (bound to port 0, then released).
pub fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    listener.local_addr().expect("local addr").port()
}

/// The peer implementations in `interop/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// TypeScript SDK (`interop/ts`).
    Ts,
    /// Python SDK (`interop/py`).
    Py,
}

impl Lang {
    /// Short name for messages.
    pub fn name(self) -> &'static str {
        match self {
            Lang::Ts => "ts",
            Lang::Py => "py",
        }
    }

    fn program(self, script: &str) -> Vec<OsString> {
        let t = tools();
        let root = repo_root();
        match self {
            Lang::Ts => vec![
                t.node.clone().into(),
                root.join(format!("interop/ts/{script}.mjs")).into(),
            ],
            Lang::Py => vec![
                t.python.clone().into(),
                root.join(format!("interop/py/{script}.py")).into(),
            ],
        }
    }

    /// The peer server's command line (without transport arguments).
    pub fn server(self) -> Vec<OsString> {
        self.program("server")
    }

    /// The peer client's command line (without arguments).
    pub fn client(self) -> Vec<OsString> {
        self.program("client")
    }

    /// The peer client on the 2026-07-28 revision (`interop/ts/client_v2.mjs` on the TypeScript
    /// SDK v2, `interop/py/client_2026.py` on the Python SDK's defaults), without arguments.
    pub fn client_2026(self) -> Vec<OsString> {
        self.program(match self {
            Lang::Ts => "client_v2",
            Lang::Py => "client_2026",
        })
    }
}

/// Builds a [`Command`] from a non-empty argument vector.
pub fn command(argv: &[OsString]) -> Command {
    let (program, args) = argv.split_first().expect("empty command line");
    let mut cmd = Command::new(program);
    cmd.args(args).current_dir(repo_root());
    cmd
}

static LOG_SEQ: AtomicU32 = AtomicU32::new(0);

fn log_path(name: &str) -> PathBuf {
    let n = LOG_SEQ.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!(
        "mcp-elicit-interop-{}-{n}-{}.log",
        std::process::id(),
        name.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
    ))
}

/// A background process (a server under test) killed and reaped on drop; its output goes to a log
/// file, printed when the test fails and removed.
#[derive(Debug)]
pub struct Process {
    child: Child,
    name: String,
    log: PathBuf,
}

impl Process {
    /// Starts `cmd` with stdout and stderr appended to a log file.
    pub fn spawn(mut cmd: Command, name: &str) -> Process {
        let log = log_path(name);
        let file = std::fs::File::create(&log).expect("create log file");
        let err = file.try_clone().expect("clone log file");
        let child = cmd
            .stdin(Stdio::null())
            .stdout(file)
            .stderr(err)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
        Process {
            child,
            name: name.to_owned(),
            log,
        }
    }

    /// What the process printed so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits until 127.0.0.1:`port` accepts connections; panics if the process exits or the guard passes.
    pub fn wait_listening(&mut self, port: u16) {
        let deadline = Instant::now() + START_GUARD;
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        loop {
            if TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok() {
                return;
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!(
                    "{} exited ({status}) before listening on {port}:\n{}",
                    self.name,
                    self.log()
                );
            }
            assert!(
                Instant::now() < deadline,
                "{} did not listen on {port} within {START_GUARD:?}:\n{}",
                self.name,
                self.log()
            );
            thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if thread::panicking() {
            // Shown with the failing test's output.
            eprintln!("--- log of {} ---\n{}", self.name, self.log());
        }
        let _ = std::fs::remove_file(&self.log);
    }
}

/// Starts a Streamable HTTP server from `argv` and waits until it listens on `port`.
pub fn start_http_server(argv: &[OsString], port: u16, name: &str) -> Process {
    let mut p = Process::spawn(command(argv), name);
    p.wait_listening(port);
    p
}

/// Starts the peer server `lang` over Streamable HTTP; returns it and its `/mcp` URL.
pub fn start_peer_server(lang: Lang) -> (Process, String) {
    let port = free_port();
    let mut argv = lang.server();
    argv.extend(["--port".into(), port.to_string().into()]);
    let p = start_http_server(&argv, port, &format!("{}-server", lang.name()));
    (p, format!("http://127.0.0.1:{port}/mcp"))
}

/// Starts `mcp-elicit serve --listen 127.0.0.1:PORT --store memory` plus `extra`; returns it
/// and its `/mcp` URL. The in-memory store keeps every server's state to itself (the default
/// store is a file in the user's data directory, shared by every run).
pub fn start_our_server(extra: &[&str]) -> (Process, String) {
    let port = free_port();
    let mut argv: Vec<OsString> = vec![
        mcp_elicit_bin().into(),
        "serve".into(),
        "--listen".into(),
        format!("127.0.0.1:{port}").into(),
        "--store".into(),
        "memory".into(),
    ];
    argv.extend(extra.iter().map(OsString::from));
    let p = start_http_server(&argv, port, "mcp-elicit-serve");
    (p, format!("http://127.0.0.1:{port}/mcp"))
}

/// The outcome of a finished (or killed) run.
#[derive(Debug)]
pub struct RunOutput {
    /// What was run (for messages).
    pub what: String,
    /// Exit status; `None` when the run was killed by the hang guard.
    pub status: Option<ExitStatus>,
    /// Everything printed on stdout.
    pub stdout: String,
    /// Everything printed on stderr.
    pub stderr: String,
}

impl RunOutput {
    /// The exit code, `None` if killed (guard or signal).
    pub fn code(&self) -> Option<i32> {
        self.status.and_then(|s| s.code())
    }

    /// A description for assertion messages.
    pub fn describe(&self) -> String {
        format!(
            "{}\nstatus: {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.what, self.status, self.stdout, self.stderr
        )
    }

    /// The last stdout line that parses as a JSON object (a peer's summary); panics if none.
    pub fn last_json(&self) -> Value {
        last_json_line(&self.stdout)
            .unwrap_or_else(|| panic!("no JSON object on stdout of {}", self.describe()))
    }

    /// The last stderr line that parses as a JSON object; panics if none.
    pub fn last_stderr_json(&self) -> Value {
        last_json_line(&self.stderr)
            .unwrap_or_else(|| panic!("no JSON object on stderr of {}", self.describe()))
    }

    /// The whole stdout parsed as one JSON value (the output of `mcp-elicit call`); panics if it is not.
    pub fn json(&self) -> Value {
        serde_json::from_str(self.stdout.trim())
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", self.describe()))
    }
}

fn last_json_line(text: &str) -> Option<Value> {
    text.lines()
        .rev()
        .filter_map(|l| serde_json::from_str::<Value>(l.trim()).ok())
        .find(Value::is_object)
}

fn drain<R: Read + Send + 'static>(r: Option<R>) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut s = Vec::new();
        if let Some(mut r) = r {
            let _ = r.read_to_end(&mut s);
        }
        String::from_utf8_lossy(&s).into_owned()
    })
}

fn describe_argv(argv: &[OsString]) -> String {
    argv.iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Waits for `child` to exit, killing it after [`RUN_GUARD`] (then `None`).
fn wait_guarded(child: &mut Child, what: &str) -> Option<ExitStatus> {
    let deadline = Instant::now() + RUN_GUARD;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
            Ok(None) => thread::sleep(Duration::from_millis(20)),
            Err(e) => panic!("waiting for {what}: {e}"),
        }
    }
}

/// Runs `argv` to completion, killing it after [`RUN_GUARD`].
pub fn run(argv: &[OsString]) -> RunOutput {
    let what = describe_argv(argv);
    let mut child = command(argv)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {what}: {e}"));
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let status = wait_guarded(&mut child, &what);
    RunOutput {
        what,
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    }
}

/// Where a client connects: a Streamable HTTP URL, or a server command spawned over stdio.
#[derive(Debug, Clone)]
pub enum Target {
    /// `http://127.0.0.1:PORT/mcp`.
    Http(String),
    /// The server's command line, spawned by the client.
    Stdio(Vec<OsString>),
}

/// The command line of the peer client `lang` with `args`, connecting to `target`.
fn peer_client_argv(lang: Lang, args: &[&str], target: &Target) -> Vec<OsString> {
    client_argv(lang.client(), args, target)
}

/// The command line of a client program (`client`, e.g. [`Lang::client_2026`]) with `args`,
/// connecting to `target` (`--url URL`, or `-- SERVER COMMAND` over stdio).
pub fn client_argv(client: Vec<OsString>, args: &[&str], target: &Target) -> Vec<OsString> {
    let mut argv = client;
    argv.extend(args.iter().map(OsString::from));
    match target {
        Target::Http(url) => argv.extend(["--url".into(), url.into()]),
        Target::Stdio(server) => {
            argv.push("--".into());
            argv.extend(server.iter().cloned());
        }
    }
    argv
}

/// Runs the peer client `lang` with `args` against `target`, and returns its output.
pub fn run_peer_client(lang: Lang, args: &[&str], target: &Target) -> RunOutput {
    run(&peer_client_argv(lang, args, target))
}

/// A peer client running in the background, its stdout read line by line; killed on drop.
#[derive(Debug)]
pub struct BackgroundClient {
    what: String,
    child: Option<Child>,
    lines: mpsc::Receiver<String>,
    seen: Vec<String>,
    stderr: Option<thread::JoinHandle<String>>,
}

/// Starts the peer client `lang` with `args` against `target` without waiting for it.
pub fn spawn_peer_client(lang: Lang, args: &[&str], target: &Target) -> BackgroundClient {
    let argv = peer_client_argv(lang, args, target);
    let what = describe_argv(&argv);
    let mut child = command(&argv)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {what}: {e}"));
    let (tx, lines) = mpsc::channel();
    let stdout = child.stdout.take();
    thread::spawn(move || {
        if let Some(out) = stdout {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        }
    });
    let stderr = Some(drain(child.stderr.take()));
    BackgroundClient {
        what,
        child: Some(child),
        lines,
        seen: Vec::new(),
        stderr,
    }
}

impl BackgroundClient {
    /// Waits for a stdout line containing `needle`; panics if the client ends first or after [`START_GUARD`].
    pub fn wait_for_line(&mut self, needle: &str) {
        let deadline = Instant::now() + START_GUARD;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let found = line.contains(needle);
                    self.seen.push(line);
                    if found {
                        return;
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    panic!("{} printed no {needle:?} within {START_GUARD:?}", self.what)
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => panic!(
                    "{} ended before printing {needle:?}:\n{}",
                    self.what,
                    self.seen.join("\n")
                ),
            }
        }
    }

    /// Waits (at most [`RUN_GUARD`]) for the client to end and returns its output.
    pub fn finish(mut self) -> RunOutput {
        let mut child = self.child.take().expect("finish is called once");
        let status = wait_guarded(&mut child, &self.what);
        let mut stdout = self.seen.join("\n");
        for line in self.lines.try_iter() {
            stdout.push('\n');
            stdout.push_str(&line);
        }
        let stderr = self
            .stderr
            .take()
            .and_then(|h| h.join().ok())
            .unwrap_or_default();
        RunOutput {
            what: self.what.clone(),
            status,
            stdout,
            stderr,
        }
    }
}

impl Drop for BackgroundClient {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Runs a peer client and checks its own assertions held: exit 0 and `"ok": true`. Returns its summary.
pub fn peer_client_ok(lang: Lang, args: &[&str], target: &Target) -> Value {
    let out = run_peer_client(lang, args, target);
    let summary = out.last_json();
    assert!(
        out.code() == Some(0) && summary["ok"] == true,
        "peer client failed: {:?}\n{}",
        summary["failures"],
        out.describe()
    );
    summary
}

/// The JSON inside the first text content block of a CallToolResult; panics if absent or not JSON.
pub fn tool_text_json(result: &Value) -> Value {
    let text = result["content"]
        .as_array()
        .and_then(|c| c.iter().find(|b| b["type"] == "text"))
        .and_then(|b| b["text"].as_str())
        .unwrap_or_else(|| panic!("no text content in {result}"));
    serde_json::from_str(text).unwrap_or_else(|e| panic!("text content is not JSON ({e}): {text}"))
}

/// The first text content block of a CallToolResult, or "" if none.
pub fn tool_text(result: &Value) -> String {
    result["content"]
        .as_array()
        .and_then(|c| c.iter().find(|b| b["type"] == "text"))
        .and_then(|b| b["text"].as_str())
        .unwrap_or_default()
        .to_owned()
}

/// A file in the temp folder, removed on drop (even when the test fails).
#[derive(Debug)]
pub struct TempFile(PathBuf);

impl TempFile {
    /// Writes `contents` to a new file whose name contains `label`.
    pub fn new(label: &str, contents: &str) -> TempFile {
        let file = TempFile::absent(label);
        file.write(contents);
        file
    }

    /// A unique path whose name contains `label`, with no file there yet.
    pub fn absent(label: &str) -> TempFile {
        let n = LOG_SEQ.fetch_add(1, Ordering::Relaxed);
        TempFile(std::env::temp_dir().join(format!(
            "mcp-elicit-interop-{}-{n}-{label}",
            std::process::id()
        )))
    }

    /// Creates or replaces the file with `contents`.
    pub fn write(&self, contents: &str) {
        std::fs::write(&self.0, contents)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", self.0.display()));
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
