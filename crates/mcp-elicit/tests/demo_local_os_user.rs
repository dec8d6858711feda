//! `mcp-elicit demo` serves the OS user who runs it, and nobody else on the machine, as
//! `serve` does in local mode (issue 14; the same check, `HttpLimits::only_own_os_user`):
//! another account connecting to the demo's loopback port (uid 65534 through `setpriv`)
//! gets `403` on `/mcp` and the pages; `--danger-allow-other-os-users` lets it in.
//!
//! Linux only; needs `setpriv`, `curl` and the right to change uid (CI runs as root),
//! and says so and passes without them.

#![cfg(target_os = "linux")]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// The uid the attacker runs as.
const OTHER_UID: &str = "65534";

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"os-user-test","version":"0"}}}"#;

/// Why this machine cannot run the test, if it cannot.
fn unavailable() -> Option<String> {
    for tool in ["setpriv", "curl"] {
        let found = Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !found {
            return Some(format!("{tool} is not installed"));
        }
    }
    let switched = Command::new("setpriv")
        .args([
            "--reuid",
            OTHER_UID,
            "--regid",
            OTHER_UID,
            "--clear-groups",
            "true",
        ])
        .status()
        .is_ok_and(|s| s.success());
    if !switched {
        return Some(format!(
            "cannot run a process as uid {OTHER_UID} (not root?)"
        ));
    }
    None
}

/// One request with curl, as uid `as_uid` (None: as this process): status and body.
fn curl(as_uid: Option<&str>, url: &str, post: Option<&str>) -> (u16, String) {
    let mut cmd = match as_uid {
        Some(uid) => {
            let mut c = Command::new("setpriv");
            c.args(["--reuid", uid, "--regid", uid, "--clear-groups", "curl"]);
            c
        }
        None => Command::new("curl"),
    };
    // -q: no ~/.curlrc; no proxy for loopback; the status on a last line of its own.
    cmd.args([
        "-q",
        "-sS",
        "--noproxy",
        "*",
        "--max-time",
        "20",
        "-w",
        "\n%{http_code}",
    ]);
    if let Some(body) = post {
        cmd.args([
            "-X",
            "POST",
            "-H",
            "content-type: application/json",
            "-H",
            "accept: application/json, text/event-stream",
            "--data-binary",
            body,
        ]);
    }
    let out = cmd.arg(url).output().expect("run curl");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let (body, status) = text.rsplit_once('\n').unwrap_or(("", &text));
    (
        status.trim().parse().unwrap_or(0),
        format!("{body}{}", String::from_utf8_lossy(&out.stderr)),
    )
}

/// The binary under test: `MCP_ELICIT_BIN` when set (an older build, to see the attack
/// succeed), else this package's.
fn bin() -> std::path::PathBuf {
    std::env::var_os("MCP_ELICIT_BIN").map_or_else(
        || env!("CARGO_BIN_EXE_mcp-elicit").into(),
        std::path::PathBuf::from,
    )
}

/// A running `mcp-elicit demo --serve-only` (stdin held open) and its MCP endpoint URL.
struct Demo {
    child: Child,
    mcp: String,
}

impl Demo {
    fn start(extra: &[&str]) -> Demo {
        let mut child = Command::new(bin())
            .args(["demo", "--serve-only"])
            .args(extra)
            .env_remove("RUST_LOG")
            .env("USER", "os-user-tester")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start mcp-elicit demo");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("read the demo URL");
        let mcp = line.trim().to_owned();
        assert!(mcp.starts_with("http://127.0.0.1:"), "demo URL: {mcp:?}");
        Demo { child, mcp }
    }

    fn base(&self) -> &str {
        self.mcp.trim_end_matches("/mcp")
    }
}

impl Drop for Demo {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn own_uid() -> String {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self")
        .expect("/proc/self")
        .uid()
        .to_string()
}

#[test]
fn demo_refuses_another_os_user_and_serves_its_own() {
    if let Some(why) = unavailable() {
        eprintln!("skipped: {why}");
        return;
    }
    let demo = Demo::start(&[]);
    let me = own_uid();
    let (status, body) = curl(None, &demo.mcp, Some(INITIALIZE));
    assert_eq!(status, 200, "own user on /mcp: {body}");
    assert!(body.contains("\"result\""), "{body}");

    let (status, body) = curl(Some(OTHER_UID), &demo.mcp, Some(INITIALIZE));
    assert_eq!(status, 403, "uid {OTHER_UID} on the demo's /mcp: {body}");
    assert!(
        body.contains(&format!("only serves OS user {me}")) && body.contains(OTHER_UID),
        "{body}"
    );
    for page in ["/connect?elicitationId=x", "/demo/complete", "/login"] {
        let (status, body) = curl(Some(OTHER_UID), &format!("{}{page}", demo.base()), None);
        assert_eq!(status, 403, "uid {OTHER_UID} on the demo's {page}: {body}");
    }
    let (status, body) = curl(None, &demo.mcp, Some(INITIALIZE));
    assert_eq!(status, 200, "own user again: {body}");
}

#[test]
fn demo_danger_flag_lets_other_os_users_in() {
    if let Some(why) = unavailable() {
        eprintln!("skipped: {why}");
        return;
    }
    let demo = Demo::start(&["--danger-allow-other-os-users"]);
    let (status, body) = curl(Some(OTHER_UID), &demo.mcp, Some(INITIALIZE));
    assert_eq!(status, 200, "{body}");
}
