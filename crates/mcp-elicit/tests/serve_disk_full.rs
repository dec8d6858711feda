//! `mcp-elicit serve` on a SQLite file whose disk fills up (issue 14, faults).
//!
//! The store lives on a small tmpfs mounted in a private mount namespace of the server
//! (`unshare --mount`, as root; else `unshare --user --map-root-user --mount`), so the
//! machine's disks are never filled. The test reaches that file system through
//! `/proc/<server>/root`, fills it with a filler file until `ENOSPC`, and deletes the
//! filler later.
//!
//! While the disk is full, every write fails cleanly: a tool call that must store
//! something gets the retryable `-32000` (`data.kind` `store_unavailable`), a page post
//! gets 503 with `Retry-After`, and nothing is half written. Reads still work: a tool
//! that only reads answers, a pending flow's page opens. Once the filler is deleted the
//! same process (no restart) writes again by itself: the pending flow is completed on its
//! page exactly once, its completion notification reaches the client, and the retried
//! call gets the answer. The database passes `PRAGMA integrity_check` at the end.

mod support;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mcp_elicit_store::sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use mcp_elicit_store::sqlx::{self, AssertSqlSafe, ConnectOptions, Connection, Row};
use serde_json::{Value, json};
use support::browser::{Browser, hidden_value};
use support::{McpClient, VAULT_KEY, WAIT, answer_page, free_port, messages};

/// The size of the store's file system: room for the schema and a few flows.
const TMPFS_SIZE: &str = "4m";
/// A failed write must answer within this (SQLite reports a full disk at once; the
/// slack is for a loaded machine).
const FAIL_WITHIN: Duration = Duration::from_secs(5);

/// How `unshare` gives the server a private mount namespace here, if at all.
fn unshare_args() -> Option<&'static [&'static str]> {
    const ROOT: &[&str] = &["--mount", "--propagation", "private"];
    const USER: &[&str] = &[
        "--user",
        "--map-root-user",
        "--mount",
        "--propagation",
        "private",
    ];
    [ROOT, USER].into_iter().find(|args| {
        Command::new("unshare")
            .args(*args)
            .args(["sh", "-c", "mount -t tmpfs -o size=1m tmpfs /mnt"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// `mcp-elicit serve` in local mode with its store on a fresh tmpfs at `dir` (mounted in
/// its own mount namespace); stderr collected.
struct Server {
    child: Child,
    stderr: Arc<Mutex<String>>,
    /// `dir` as the test sees it: through the server's root, in its mount namespace.
    dir: PathBuf,
}

impl Server {
    fn start(unshare: &[&str], dir: &Path, key_file: &Path, port: u16) -> Server {
        let store = format!("sqlite://{}", dir.join("state.db").display());
        let mut child = Command::new("unshare")
            .args(unshare)
            .args([
                "sh",
                "-c",
                "set -e; mount -t tmpfs -o size=\"$1\",mode=0700 tmpfs \"$2\"; shift 2; exec \"$@\"",
                "sh",
                TMPFS_SIZE,
            ])
            .arg(dir)
            .arg(env!("CARGO_BIN_EXE_mcp-elicit"))
            .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
            .args(["--store", &store, "--max-pending-per-user", "1000"])
            .arg("--vault-key-file")
            .arg(key_file)
            .env_remove("RUST_LOG")
            .env_remove("MCP_ELICIT_VAULT_KEY")
            .env("USER", "disk-full-tester")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start mcp-elicit serve under unshare");
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut pipe = child.stderr.take().expect("stderr");
        let sink = stderr.clone();
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
        let inside = PathBuf::from(format!("/proc/{}/root", child.id())).join(
            dir.strip_prefix("/")
                .expect("an absolute temporary directory"),
        );
        let mut server = Server {
            child,
            stderr,
            dir: inside,
        };
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let deadline = Instant::now() + WAIT;
        while TcpStream::connect(addr).is_err() {
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

/// Writes `path` until the file system is full; returns how many bytes it took.
fn fill(path: &Path) -> u64 {
    let mut file = std::fs::File::create(path).expect("create the filler");
    let chunk = vec![0xa5u8; 64 * 1024];
    let mut written = 0u64;
    loop {
        match file.write(&chunk) {
            Ok(0) => break,
            Ok(n) => written += n as u64,
            Err(e) if e.raw_os_error() == Some(28) => break, // ENOSPC
            Err(e) => panic!("filling {}: {e}", path.display()),
        }
    }
    // The last partial pages too.
    loop {
        match file.write(&chunk[..512]) {
            Ok(n) if n > 0 => written += n as u64,
            _ => break,
        }
    }
    let _ = file.sync_all();
    written
}

fn set_api_key(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "set_api_key", "arguments": {}}})
}

fn approve(id: u64, item: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "approve_purchase", "arguments": {"item": item, "amount": "3 EUR"}}})
}

/// One POST in `client`'s session: the response to `body`'s id and how long it took.
async fn try_call(client: &McpClient, body: Value) -> (Value, Duration) {
    let id = body["id"].clone();
    let started = Instant::now();
    let resp = client
        .http
        .post(&client.url)
        .header("accept", "application/json, text/event-stream")
        .header(
            "mcp-session-id",
            client.session.as_deref().expect("session"),
        )
        .json(&body)
        .send()
        .await
        .expect("post");
    assert_eq!(resp.status(), 200);
    let text = resp.text().await.expect("body");
    let answer = messages(&text)
        .into_iter()
        .find(|m| m["id"] == id)
        .unwrap_or(Value::Null);
    (answer, started.elapsed())
}

fn assert_store_unavailable(what: &str, answer: &Value, took: Duration) {
    assert!(took < FAIL_WITHIN, "{what} took {took:?} on a full disk");
    let error = &answer["error"];
    assert_eq!(error["code"], -32000, "{what}: {answer}");
    assert_eq!(
        error["data"]["kind"], "store_unavailable",
        "{what}: {answer}"
    );
    assert_eq!(error["data"]["retryable"], true, "{what}: {answer}");
}

/// A copy of the store's files (the database and its write-ahead log) while the server
/// is idle. SQLite cannot open the file through `/proc/<pid>/root` itself: it resolves
/// that link to `/`, in the test's mount namespace, where the tmpfs is not mounted.
fn snapshot(dir: &Path) -> (tempfile::TempDir, PathBuf) {
    let copy = tempfile::tempdir().expect("tempdir");
    for name in ["state.db", "state.db-wal"] {
        let from = dir.join(name);
        if from.exists() {
            std::fs::copy(&from, copy.path().join(name)).expect("copy the store");
        }
    }
    let db = copy.path().join("state.db");
    (copy, db)
}

async fn open(db: &Path) -> SqliteConnection {
    SqliteConnectOptions::new()
        .filename(db)
        .connect()
        .await
        .expect("open the copy of the store")
}

/// Rows of each of `tables` in a copy of the store in `dir`, and its `PRAGMA
/// integrity_check`.
async fn inspect(dir: &Path, tables: &[&str]) -> (Vec<i64>, String) {
    let (_copy, db) = snapshot(dir);
    let mut conn = open(&db).await;
    let mut counts = Vec::new();
    for table in tables {
        let n: i64 = sqlx::query(AssertSqlSafe(format!("SELECT COUNT(*) FROM {table}")))
            .fetch_one(&mut conn)
            .await
            .expect("count")
            .get(0);
        counts.push(n);
    }
    let check: String = sqlx::query("PRAGMA integrity_check")
        .fetch_one(&mut conn)
        .await
        .expect("integrity_check")
        .get(0);
    conn.close().await.expect("close");
    (counts, check)
}

/// The tables a write on the full disk would have changed.
const TABLES: [&str; 3] = ["url_flows", "elicitations", "vault_secrets"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_fails_writes_cleanly_keeps_reads_and_recovers_when_space_is_freed() {
    let Some(unshare) = unshare_args() else {
        // Neither root nor unprivileged user namespaces: no private tmpfs can be mounted.
        assert!(
            std::env::var_os("MCP_ELICIT_REQUIRE_UNSHARE").is_none(),
            "MCP_ELICIT_REQUIRE_UNSHARE is set, but `unshare --mount` is not possible here"
        );
        eprintln!("skipped: cannot mount a private tmpfs (needs root or user namespaces)");
        return;
    };
    let keys = tempfile::tempdir().expect("tempdir");
    let key_file = keys.path().join("vault.key");
    std::fs::write(&key_file, VAULT_KEY).expect("key file");
    let mount = tempfile::tempdir().expect("mount point");
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let server = Server::start(unshare, mount.path(), &key_file, port);
    let db = server.dir.join("state.db");
    assert!(db.exists(), "the store on the tmpfs: {}", db.display());

    // Before the disk fills: a key on file, a confirmation pending with its page open.
    let (mut client, _) = McpClient::connect(&format!("{base}/mcp"), String::new()).await;
    let (key_id, key_url) = client.url_required(set_api_key(2)).await;
    let mut browser = Browser::new("unused");
    let secret = format!("sk_disk_{}", std::process::id());
    answer_page(
        &mut browser,
        &base,
        &key_url,
        &key_id,
        "/connect/secret",
        &[("secret", &secret)],
    )
    .await;
    client.wait_for_completion(&key_id).await;
    let (buy_id, buy_url) = client.url_required(approve(3, "Tea")).await;
    let page = browser.open(&buy_url).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let csrf = hidden_value(&page.body, "csrf").expect("csrf");
    let (before, check) = inspect(&server.dir, &TABLES).await;
    assert_eq!(check, "ok");

    let filler = server.dir.join("filler");
    let filled = fill(&filler);
    let full_at = Instant::now();

    // Writes fail cleanly: a new URL flow is not stored ...
    let (answer, took) = try_call(&client, approve(4, "Coffee")).await;
    assert_store_unavailable("tools/call writing a flow", &answer, took);
    let write_took = took;
    // ... nor is an answer on the page (and the elicitation stays pending).
    let confirm = [
        ("elicitationId", buy_id.as_str()),
        ("csrf", csrf.as_str()),
        ("decision", "confirm"),
    ];
    let started = Instant::now();
    let post = browser
        .submit(&format!("{base}/connect/confirm"), &confirm, &base)
        .await;
    let post_took = started.elapsed();
    assert_eq!(post.status, 503, "page POST on a full disk: {}", post.body);
    assert!(
        post.headers.get("retry-after").is_some(),
        "503 without Retry-After"
    );
    assert!(post_took < FAIL_WITHIN, "page POST took {post_took:?}");
    // Reads still work: the key on file, the pending page.
    let (answer, read_took) = try_call(&client, set_api_key(5)).await;
    let text = answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(text.contains("on file"), "a read on a full disk: {answer}");
    let page = browser.open(&buy_url).await;
    assert_eq!(
        page.status, 200,
        "the pending page on a full disk: {}",
        page.body
    );
    // Still full, still failing (not a one-off).
    let (answer, took) = try_call(&client, approve(6, "Cake")).await;
    assert_store_unavailable("a second write", &answer, took);
    // Nothing half written: no flow, elicitation or answer of a failed write is stored.
    let (during, check) = inspect(&server.dir, &TABLES).await;
    assert_eq!(check, "ok");
    assert_eq!(
        during, before,
        "rows of {TABLES:?} before and on the full disk"
    );
    let full_for = full_at.elapsed();

    std::fs::remove_file(&filler).expect("free the space");
    let freed = Instant::now();
    // The same process writes again by itself: the pending answer is recorded once ...
    let done = browser
        .submit(&format!("{base}/connect/confirm"), &confirm, &base)
        .await;
    assert_eq!(done.status, 200, "after the space was freed: {}", done.body);
    let recovered = freed.elapsed();
    client.wait_for_completion(&buy_id).await;
    let mut client = client;
    assert_eq!(
        client.call_text(approve(7, "Tea")).await,
        "Approved: Buy Tea for 3 EUR."
    );
    // ... and only once.
    let replay = browser
        .submit(&format!("{base}/connect/confirm"), &confirm, &base)
        .await;
    assert_eq!(replay.status, 404, "{}", replay.body);
    // New flows are stored again.
    let (again, _) = client.url_required(approve(8, "Coffee")).await;
    assert_ne!(again, buy_id);

    let (after, check) = inspect(&server.dir, &TABLES).await;
    assert_eq!(check, "ok", "the store after the disk was full");
    eprintln!("rows of {TABLES:?}: {before:?} before, {after:?} after");

    let log = server.log();
    assert!(!log.contains("panicked"), "{log}");
    assert!(!log.contains(&secret), "{log}");
    eprintln!(
        "disk-full figures: {filled} filler bytes filled the {TMPFS_SIZE} tmpfs; a write failed \
         after {write_took:?}, a page post after {post_took:?}; a read answered in {read_took:?}; \
         full for {full_for:?}; the first write after freeing succeeded {recovered:?} later"
    );
}
