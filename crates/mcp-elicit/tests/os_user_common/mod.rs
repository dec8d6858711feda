//! What the OS-user tests of local mode (`serve_local_os_user`, `demo_local_os_user`)
//! share: whether this machine can run a process as another uid, and curl as either uid.
#![allow(dead_code, unreachable_pub)]

use std::process::{Command, Stdio};

/// The uid the attacker runs as.
pub const OTHER_UID: &str = "65534";

pub const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"os-user-test","version":"0"}}}"#;

/// Why this machine cannot run the test, if it cannot.
pub fn unavailable() -> Option<String> {
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
pub fn curl(as_uid: Option<&str>, url: &str, post: Option<&str>) -> (u16, String) {
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
pub fn bin() -> std::path::PathBuf {
    std::env::var_os("MCP_ELICIT_BIN").map_or_else(
        || env!("CARGO_BIN_EXE_mcp-elicit").into(),
        std::path::PathBuf::from,
    )
}

pub fn own_uid() -> String {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self")
        .expect("/proc/self")
        .uid()
        .to_string()
}
