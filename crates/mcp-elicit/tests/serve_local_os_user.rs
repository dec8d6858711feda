//! Local mode serves the OS user who runs it, and nobody else on the machine (issue 14,
//! "local mode trusts every OS user"): another account connecting over loopback (here
//! uid 65534, `nobody`, through `setpriv`) used to be taken for the local user, so it
//! could see "key on file", fill that user's quotas and open their connect pages. Now
//! every loopback connection whose socket belongs to another uid gets `403` naming the
//! rule, on `/mcp` and on the pages alike, while the server's own user is served as
//! before. `--danger-allow-other-os-users` restores the old behaviour (and shows what
//! the attack got).
//!
//! Linux only (the owner of a loopback connection is read from `/proc/net/tcp*`); it
//! needs `setpriv`, `curl` and the right to change uid (CI runs as root), and says so
//! and passes without them.

#![cfg(target_os = "linux")]

mod os_user_common;
use os_user_common::{INITIALIZE, OTHER_UID, bin, curl, own_uid, unavailable};

use std::io::Read;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A running `mcp-elicit serve --store memory` on `listen`; stderr collected.
struct Server {
    child: Child,
    stderr: Arc<Mutex<String>>,
}

impl Server {
    fn start(listen: SocketAddr, extra: &[&str]) -> Server {
        let mut child = Command::new(bin())
            .args([
                "serve",
                "--listen",
                &listen.to_string(),
                "--store",
                "memory",
            ])
            .args(extra)
            .env_remove("RUST_LOG")
            .env("USER", "os-user-tester")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start mcp-elicit serve");
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut pipe = child.stderr.take().expect("stderr");
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        let mut server = Server { child, stderr };
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(listen).is_err() {
            if let Ok(Some(status)) = server.child.try_wait() {
                panic!("the server exited ({status}): {}", server.log());
            }
            assert!(Instant::now() < deadline, "the server never listened");
            std::thread::sleep(Duration::from_millis(50));
        }
        server
    }

    fn log(&self) -> String {
        self.stderr
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A free port on `ip`.
fn free(ip: &str) -> SocketAddr {
    TcpListener::bind((ip, 0))
        .and_then(|l| l.local_addr())
        .expect("a free port")
}

#[test]
fn another_os_user_is_refused_on_mcp_and_the_pages_and_the_own_user_is_served() {
    if let Some(why) = unavailable() {
        eprintln!("skipped: {why}");
        return;
    }
    let addr = free("127.0.0.1");
    let base = format!("http://{addr}");
    let server = Server::start(addr, &[]);
    let me = own_uid();

    // The server's own user: initialize works, the connect page signs the browser in.
    let (status, body) = curl(None, &format!("{base}/mcp"), Some(INITIALIZE));
    assert_eq!(status, 200, "own user on /mcp: {body}\n{}", server.log());
    assert!(body.contains("\"result\""), "{body}");
    let (status, body) = curl(None, &format!("{base}/connect?elicitationId=x"), None);
    assert_eq!(status, 303, "own user on /connect: {body}");

    // Another OS user on the same machine, same loopback address: refused, naming the
    // rule and the user served, on /mcp and on every page.
    let (status, body) = curl(Some(OTHER_UID), &format!("{base}/mcp"), Some(INITIALIZE));
    assert_eq!(
        status,
        403,
        "uid {OTHER_UID} on /mcp: {body}\n{}",
        server.log()
    );
    assert!(
        body.contains(&format!("only serves OS user {me}")) && body.contains(OTHER_UID),
        "{body}"
    );
    assert!(
        body.contains("\"code\":-32000"),
        "a JSON-RPC error on /mcp: {body}"
    );
    for page in ["/connect?elicitationId=x", "/demo/complete", "/login"] {
        let (status, body) = curl(Some(OTHER_UID), &format!("{base}{page}"), None);
        assert_eq!(status, 403, "uid {OTHER_UID} on {page}: {body}");
        assert!(
            body.contains(&format!("only serves OS user {me}")),
            "{body}"
        );
    }

    // And the own user is still served after the refusals.
    let (status, body) = curl(None, &format!("{base}/mcp"), Some(INITIALIZE));
    assert_eq!(status, 200, "own user again: {body}");
}

#[test]
fn the_danger_flag_lets_other_os_users_in_as_the_local_user() {
    if let Some(why) = unavailable() {
        eprintln!("skipped: {why}");
        return;
    }
    let addr = free("127.0.0.1");
    let base = format!("http://{addr}");
    let server = Server::start(addr, &["--danger-allow-other-os-users"]);
    // What the attack got before the check: a session as the local user, and the
    // connect page signing the browser in as them.
    let (status, body) = curl(Some(OTHER_UID), &format!("{base}/mcp"), Some(INITIALIZE));
    assert_eq!(status, 200, "{body}\n{}", server.log());
    let (status, body) = curl(
        Some(OTHER_UID),
        &format!("{base}/connect?elicitationId=x"),
        None,
    );
    assert_eq!(status, 303, "{body}");
    assert!(
        server.log().contains("--danger-allow-other-os-users"),
        "the start-up line says the check is off: {}",
        server.log()
    );
}

#[test]
fn over_ipv6_loopback_too() {
    if let Some(why) = unavailable() {
        eprintln!("skipped: {why}");
        return;
    }
    if TcpListener::bind("[::1]:0").is_err() {
        eprintln!("skipped: no IPv6 loopback");
        return;
    }
    let addr = free("::1");
    let server = Server::start(addr, &[]);
    let url = format!("http://{addr}/mcp");
    let other = curl(Some(OTHER_UID), &url, Some(INITIALIZE));
    let own = curl(None, &url, Some(INITIALIZE));
    assert_eq!(
        other.0,
        403,
        "uid {OTHER_UID} over ::1: {}\n{}",
        other.1,
        server.log()
    );
    assert_eq!(own.0, 200, "own user over ::1: {}", own.1);
}
