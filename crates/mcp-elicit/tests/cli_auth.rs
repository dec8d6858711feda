//! `mcp-elicit call` against a server that requires sign-in: our own `serve --issuer`
//! with the real OpenID provider (npm oidc-provider on 127.0.0.1, installed by
//! `crates/web/tests/oidc/install.sh`), end to end through the real binary.
//!
//! Checked: without `--sign-in` no browser opens, the call fails saying how to sign in,
//! and nothing is kept; with `--sign-in` the consent text names both servers, the
//! "browser" (a program that hands the URL to the test) is signed in at the provider as
//! alice (the harness's reqwest browser fills the provider's pages), the loopback
//! redirect takes the code, and the URL-mode elicitation that follows (`set_api_key`,
//! -32042 then the connect page, answered as alice) completes; the sign-in is kept in
//! 0600 files under XDG_STATE_HOME, `auth list` shows it without a token, the next run
//! uses it without a browser, `auth logout` forgets it. A refused sign-in keeps nothing;
//! `--client-credentials` and `--token-file` work without any browser or file; no token
//! ever reaches stdout or stderr.

use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod auth_common;
mod support;

use auth_common::{serve, start_provider, url_catcher};
use support::browser::Browser;
use support::{WAIT, answer_page, free_port};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-elicit");

/// A running `mcp-elicit` with its stderr collected.
struct Run {
    child: Child,
    stderr: Arc<Mutex<String>>,
}

fn cli(state: &Path) -> Command {
    let mut c = Command::new(BIN);
    c.env("XDG_STATE_HOME", state)
        .env_remove("RUST_LOG")
        .env_remove("BROWSER")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::null());
    c
}

impl Run {
    fn start(mut cmd: Command) -> Run {
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start mcp-elicit");
        let stderr = Arc::new(Mutex::new(String::new()));
        let pipe = child.stderr.take().expect("stderr");
        let sink = stderr.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                let mut s = sink
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                s.push_str(&line);
                s.push('\n');
            }
        });
        Run { child, stderr }
    }

    fn stderr(&self) -> String {
        self.stderr
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Waits for a line of stderr containing `needle`; returns it.
    async fn line_with(&self, needle: &str) -> String {
        let start = Instant::now();
        loop {
            if let Some(l) = self.stderr().lines().find(|l| l.contains(needle)) {
                return l.to_owned();
            }
            assert!(
                start.elapsed() < WAIT,
                "no {needle:?} on stderr:\n{}",
                self.stderr()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits for the exit; (status, stdout, stderr).
    fn finish(mut self) -> (i32, String, String) {
        let mut out = String::new();
        if let Some(mut o) = self.child.stdout.take() {
            let _ = std::io::Read::read_to_string(&mut o, &mut out);
        }
        let status = self.child.wait().expect("wait");
        // Let the reader thread drain.
        std::thread::sleep(Duration::from_millis(100));
        (status.code().unwrap_or(-1), out, self.stderr())
    }
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("run mcp-elicit")
}

async fn wait_file(path: &Path, run: &Run) -> String {
    let start = Instant::now();
    loop {
        if let Ok(s) = std::fs::read_to_string(path)
            && !s.is_empty()
        {
            return s;
        }
        assert!(
            start.elapsed() < WAIT,
            "the browser was never started:\n{}",
            run.stderr()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn files_under(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(files_under(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}

/// No JWT (the provider's access tokens) and no refresh token shape in `text`.
fn assert_no_token(text: &str) {
    assert!(!text.contains("eyJ"), "a token was printed:\n{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn call_signs_in_once_keeps_it_and_completes_a_url_elicitation() {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let mcp = format!("{base}/mcp");
    let (_provider, issuer) = start_provider(&base).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let _server = serve(dir.path(), port, &issuer);
    let state = dir.path().join("state");
    let (script, opened) = url_catcher(dir.path());

    // Without --sign-in: no browser, a clear error, nothing kept.
    let out = run(cli(&state)
        .args(["call", &mcp, "set_api_key", "--browser"])
        .arg(&script));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--sign-in"), "{err}");
    assert!(!opened.exists(), "a browser was started without --sign-in");
    assert!(
        files_under(&state)
            .iter()
            .all(|p| !p.to_string_lossy().ends_with(".json"))
    );

    // With --sign-in: the browser is signed in as alice, then the URL elicitation.
    let mut cmd = cli(&state);
    cmd.args([
        "call",
        &mcp,
        "set_api_key",
        "--sign-in",
        "--client-id",
        "mcp-cli",
        "--open-urls",
        "print",
        "--timeout",
        "90",
        "--browser",
    ])
    .arg(&script);
    let call = Run::start(cmd);
    let url = wait_file(&opened, &call).await;
    let said = call.stderr();
    assert!(
        said.contains(&format!("sign-in for MCP server {mcp}")),
        "{said}"
    );
    assert!(
        said.contains(&format!("authorization server: {issuer}")),
        "{said}"
    );
    assert!(url.starts_with(&issuer), "{url}");
    let mut alice = Browser::new("alice");
    let done = alice.open(&url).await;
    assert!(
        done.url.as_str().starts_with("http://127.0.0.1:"),
        "{}",
        done.url
    );
    assert!(
        done.body.contains("Signed in"),
        "{:?}\n{}\n{}\n{}",
        alice.visited,
        done.url,
        done.body,
        call.stderr()
    );
    // The tool asks for the key on its connect page (URL mode): answered as alice.
    let line = call.line_with("elicitationId=").await;
    let start = line
        .find(&format!("{base}/connect?elicitationId="))
        .expect("connect URL");
    let connect: String = line[start..]
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '"' && *c != ')')
        .collect();
    let id = connect
        .split("elicitationId=")
        .nth(1)
        .expect("id")
        .to_owned();
    let secret = format!("sk_cli_auth_{}", std::process::id());
    answer_page(
        &mut alice,
        &base,
        &connect,
        &id,
        "/connect/secret",
        &[("secret", &secret)],
    )
    .await;
    let (code, out, err) = call.finish();
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert!(out.contains("on file"), "{out}");
    assert_no_token(&out);
    assert_no_token(&err);
    assert!(!out.contains(&secret) && !err.contains(&secret));

    // Kept: 0700 directory, 0600 files, no token in clear.
    let auth_dir = state.join("mcp-elicit/auth");
    let mode = |p: &Path| std::fs::metadata(p).expect("meta").permissions().mode() & 0o777;
    assert_eq!(mode(&auth_dir), 0o700);
    let files = files_under(&auth_dir);
    assert_eq!(files.len(), 2, "{files:?}");
    for f in &files {
        assert_eq!(mode(f), 0o600, "{}", f.display());
        assert_no_token(&std::fs::read_to_string(f).expect("read"));
    }
    let list = run(cli(&state).args(["auth", "list"]));
    let listed = String::from_utf8_lossy(&list.stdout);
    assert!(list.status.success(), "{listed}");
    assert!(listed.contains(&format!("server:   {mcp}")), "{listed}");
    assert!(listed.contains(&format!("issuer:   {issuer}")), "{listed}");
    assert!(listed.contains("client:   mcp-cli"), "{listed}");
    assert_no_token(&listed);

    // The next run uses the kept sign-in: no browser.
    std::fs::remove_file(&opened).expect("rm");
    let out = run(cli(&state)
        .args(["call", &mcp, "set_api_key", "--browser"])
        .arg(&script));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("on file"), "{text}");
    assert!(!opened.exists());

    // Logout forgets it.
    let out = run(cli(&state).args(["auth", "logout", &mcp]));
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("Forgot 1 sign-in"));
    assert_eq!(files_under(&auth_dir).len(), 1, "only the key stays");
    let out = run(cli(&state).args(["call", &mcp, "set_api_key"]));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        run(cli(&state).args(["auth", "logout", &mcp]))
            .status
            .code(),
        Some(1)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_sign_in_keeps_nothing_and_machines_need_no_browser() {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let mcp = format!("{base}/mcp");
    let (_provider, issuer) = start_provider(&base).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let _server = serve(dir.path(), port, &issuer);
    let state = dir.path().join("state");
    let (script, opened) = url_catcher(dir.path());

    // The authorization server says no: exit 2, its reason, nothing kept.
    let mut cmd = cli(&state);
    cmd.args([
        "call",
        &mcp,
        "set_api_key",
        "--sign-in",
        "--client-id",
        "mcp-cli",
        "--browser",
    ])
    .arg(&script);
    let call = Run::start(cmd);
    let url = wait_file(&opened, &call).await;
    let parsed = reqwest::Url::parse(&url).expect("url");
    let get = |k: &str| {
        parsed
            .query_pairs()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.into_owned())
            .expect(k)
    };
    let refused = format!(
        "{}?error=access_denied&error_description=no%20thanks&state={}",
        get("redirect_uri"),
        get("state")
    );
    let page = reqwest::get(&refused).await.expect("callback");
    assert_eq!(page.status(), 200);
    let (code, out, err) = call.finish();
    assert_eq!(code, 2, "{out}\n{err}");
    assert!(err.contains("access_denied"), "{err}");
    assert!(
        files_under(&state)
            .iter()
            .all(|p| !p.to_string_lossy().ends_with(".json")),
        "a refused sign-in left a file: {:?}",
        files_under(&state)
    );

    // Machine to machine: client credentials, no browser, nothing kept.
    let secret = dir.path().join("cc.secret");
    std::fs::write(&secret, "mcp-cli-cc-secret\n").expect("write");
    std::fs::remove_file(&opened).expect("rm");
    let out = run(cli(&state)
        .args([
            "call",
            &mcp,
            "set_api_key",
            "--client-id",
            "mcp-cli-cc",
            "--client-secret-file",
        ])
        .arg(&secret)
        .args([
            "--client-credentials",
            "--scope",
            "mcp",
            "--open-urls",
            "never",
        ]));
    let (o, e) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    // Signed in: the tool ran and asked for its URL step (declined by --open-urls never).
    // "401" as a number of its own: the server's random port (44015) may contain it.
    let says_401 = e
        .split(|c: char| !c.is_ascii_digit())
        .any(|number| number == "401");
    assert!(!says_401 && !e.contains("sign-in"), "{o}\n{e}");
    assert!(
        e.contains("elicitationId=") || o.contains("set_api_key"),
        "{o}\n{e}"
    );
    assert_no_token(&o);
    assert_no_token(&e);
    assert!(!e.contains("mcp-cli-cc-secret"));
    assert!(!opened.exists());
    assert!(
        files_under(&state)
            .iter()
            .all(|p| !p.to_string_lossy().ends_with(".json"))
    );

    // A token file the server refuses: exit 2, the server named, the token not shown.
    let bad = dir.path().join("bad.token");
    std::fs::write(&bad, "not-a-valid-token-SECRET\n").expect("write");
    let out = run(cli(&state)
        .args(["call", &mcp, "set_api_key", "--token-file"])
        .arg(&bad));
    let e = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{e}");
    assert!(e.contains(&mcp) || e.contains(&base), "{e}");
    assert!(!e.contains("not-a-valid-token-SECRET"), "{e}");
}
