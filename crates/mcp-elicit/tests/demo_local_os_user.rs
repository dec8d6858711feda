//! `mcp-elicit demo` serves the OS user who runs it, and nobody else on the machine, as
//! `serve` does in local mode (issue 14; the same check, `HttpLimits::only_own_os_user`):
//! another account connecting to the demo's loopback port (uid 65534 through `setpriv`)
//! gets `403` on `/mcp` and the pages; `--danger-allow-other-os-users` lets it in.
//!
//! Linux only; needs `setpriv`, `curl` and the right to change uid (CI runs as root),
//! and says so and passes without them.

#![cfg(target_os = "linux")]

mod os_user_common;
use os_user_common::{INITIALIZE, OTHER_UID, bin, curl, own_uid, unavailable};

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// A running `mcp-elicit demo --serve-only` (stdin held open), its MCP endpoint URL and
/// the base URL of its demo OAuth provider.
struct Demo {
    child: Child,
    mcp: String,
    provider: String,
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
            .stderr(Stdio::piped())
            .spawn()
            .expect("start mcp-elicit demo");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("read the demo URL");
        let mcp = line.trim().to_owned();
        assert!(mcp.starts_with("http://127.0.0.1:"), "demo URL: {mcp:?}");
        // The provider's address, then the rest of stderr passed on (and drained).
        let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
        let mut provider = String::new();
        let mut line = String::new();
        while stderr.read_line(&mut line).unwrap_or(0) > 0 {
            eprint!("{line}");
            if let Some(url) = line
                .trim()
                .strip_prefix("mcp-elicit demo: demo OAuth provider at ")
            {
                provider = url.to_owned();
                break;
            }
            line.clear();
        }
        assert!(
            provider.starts_with("http://127.0.0.1:"),
            "provider URL: {provider:?}"
        );
        std::thread::spawn(move || {
            let mut rest = String::new();
            while stderr.read_line(&mut rest).unwrap_or(0) > 0 {
                eprint!("{rest}");
                rest.clear();
            }
        });
        Demo {
            child,
            mcp,
            provider,
        }
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
    // The demo OAuth provider's port too: its consent page would approve grants.
    let authorize = format!("{}authorize?client_id=x", demo.provider);
    let (status, body) = curl(Some(OTHER_UID), &authorize, None);
    assert_eq!(status, 403, "uid {OTHER_UID} on the demo provider: {body}");
    let (status, body) = curl(None, &authorize, None);
    assert_ne!(status, 403, "own user on the demo provider: {body}");
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
