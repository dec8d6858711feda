//! The transport limits of `mcp-elicit serve`, each tried by the attack it stops:
//! foreign and `null` origins on `/mcp` (403), silent and slow-loris connections
//! (closed after the header read timeout), a socket flood over the connection cap (503
//! with `Retry-After`, naming the limit), oversized bodies (413) and JSON built to
//! amplify memory (400 with `-32000` naming the limit) — while an ordinary client keeps
//! working.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

mod support;

use support::{McpClient, Server, WAIT, free_port};

fn start(port: u16, extra: &[&str]) -> Server {
    let mut args: Vec<String> = vec![
        "--listen".into(),
        format!("127.0.0.1:{port}"),
        "--store".into(),
        "memory".into(),
    ];
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    Server::start(&args, &[("USER", "limits-tester")], port)
}

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "limits-test", "version": "0"}}})
}

async fn post_raw(base: &str, origin: Option<&str>, body: Vec<u8>) -> (u16, String) {
    let mut req = reqwest::Client::new()
        .post(format!("{base}/mcp"))
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .body(body);
    if let Some(o) = origin {
        req = req.header("origin", o);
    }
    let resp = req.send().await.expect("post");
    let status = resp.status().as_u16();
    (status, resp.text().await.unwrap_or_default())
}

/// Reads until the server closes the connection (or WAIT passes); what was read.
async fn read_until_closed(stream: &mut TcpStream) -> Option<String> {
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout(WAIT, stream.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0) | Err(_)) => return Some(String::from_utf8_lossy(&seen).into_owned()),
            Ok(Ok(n)) => seen.extend_from_slice(&buf[..n]),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_refuses_foreign_and_null_origins_and_serves_clients_without_one() {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let _server = start(port, &[]);
    let init = || serde_json::to_vec(&initialize()).expect("json");
    for origin in [
        "http://evil.example",
        "null",
        "http://127.0.0.1:1",
        "https://127.0.0.1",
    ] {
        let (status, body) = post_raw(&base, Some(origin), init()).await;
        assert_eq!(status, 403, "Origin {origin}: {body}");
    }
    let (status, body) = post_raw(&base, None, init()).await;
    assert_eq!(status, 200, "no Origin (a non-browser client): {body}");
    let (status, body) = post_raw(&base, Some(&base), init()).await;
    assert_eq!(status, 200, "the server's own origin: {body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_and_slow_loris_connections_are_closed_and_the_cap_sheds_with_503() {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let server = start(
        port,
        &[
            "--header-read-timeout",
            "1",
            "--idle-timeout",
            "2",
            "--max-connections",
            "4",
        ],
    );
    // A silent socket and one trickling a header line: both closed by the server.
    let mut silent = TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connect");
    let mut loris = TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connect");
    loris
        .write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .await
        .expect("write");
    let trickle = tokio::spawn(async move {
        for i in 0..200 {
            if loris
                .write_all(format!("x-{i}: y\r\n").as_bytes())
                .await
                .is_err()
            {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        false
    });
    assert!(
        read_until_closed(&mut silent).await.is_some(),
        "a silent connection was kept open: {}",
        server.log()
    );
    assert!(
        trickle.await.expect("trickle task"),
        "a slow-loris connection was kept open for 20 s"
    );

    // Four held connections (each keeps sending its headers, too slowly to finish), then
    // one more: answered 503, Retry-After, naming the limit. The held ones are closed
    // by the header timeout, and the server serves again.
    let mut held = Vec::new();
    for _ in 0..4 {
        let mut s = TcpStream::connect(("127.0.0.1", port))
            .await
            .expect("connect");
        s.write_all(b"GET /mcp HTTP/1.1\r\n").await.expect("write");
        held.push(s);
    }
    // The server takes connections in order: wait until the fifth is refused.
    let mut shed = None;
    for _ in 0..50 {
        let mut extra = TcpStream::connect(("127.0.0.1", port))
            .await
            .expect("connect");
        let _ = extra
            .write_all(b"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            .await;
        let answer = read_until_closed(&mut extra).await.unwrap_or_default();
        if answer.starts_with("HTTP/1.1 503") {
            shed = Some(answer);
            break;
        }
    }
    let shed = shed.expect("a connection over the cap is answered 503");
    assert!(
        shed.to_ascii_lowercase().contains("retry-after: 1"),
        "{shed}"
    );
    assert!(shed.contains("\"limit\":\"max_connections\""), "{shed}");
    for mut s in held {
        assert!(
            read_until_closed(&mut s).await.is_some(),
            "a held connection stayed open"
        );
    }
    let (mut client, _) = McpClient::connect(&format!("{base}/mcp"), String::new()).await;
    let answer = client
        .post(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}))
        .await;
    assert!(
        answer
            .iter()
            .any(|m| m["id"] == 2 && m["result"].is_object()),
        "{answer:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_bodies_and_amplifying_json_are_refused_naming_the_limit() {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let _server = start(
        port,
        &["--max-json-elements", "1000", "--max-json-depth", "16"],
    );
    // An array of two million zeros (4 MB) is refused on its Content-Length, before
    // the server reads (let alone buffers) it.
    let mut big = TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connect");
    big.write_all(
        b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n\
          accept: application/json, text/event-stream\r\ncontent-length: 4000002\r\n\r\n[0,0,0,",
    )
    .await
    .expect("write");
    let answer = read_until_closed(&mut big).await.expect("an answer");
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("\"limit\":\"max_body_bytes\""), "{answer}");
    // Small bodies shaped to cost memory in the parser.
    let many = format!(
        r#"{{"jsonrpc":"2.0","id":3,"method":"ping","params":{{"x":[{}0]}}}}"#,
        "0,".repeat(5000)
    );
    let (status, body) = post_raw(&base, None, many.into_bytes()).await;
    assert_eq!(status, 400, "{body}");
    let error: Value = serde_json::from_str(&body).expect("a JSON-RPC error");
    assert_eq!(error["error"]["code"], -32000, "{body}");
    assert_eq!(error["error"]["data"]["kind"], "limit", "{body}");
    assert_eq!(
        error["error"]["data"]["limit"], "max_json_elements",
        "{body}"
    );
    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":4,"method":"ping","params":{{"x":{}1{}}}}}"#,
        "[".repeat(100),
        "]".repeat(100)
    );
    let (status, body) = post_raw(&base, None, deep.into_bytes()).await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("max_json_depth"), "{body}");
    // The pages' forms have their own, smaller limit.
    let form = reqwest::Client::new()
        .post(format!("{base}/connect/secret"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(vec![b'a'; 200 * 1024])
        .send()
        .await
        .expect("post");
    assert_eq!(form.status(), 413);
    // Ordinary requests still work.
    let (status, body) = post_raw(
        &base,
        None,
        serde_json::to_vec(&initialize()).expect("json"),
    )
    .await;
    assert_eq!(status, 200, "{body}");
}

/// `POST /demo/complete` as a browser at `origin` sends it, with `host` as `Host`.
async fn demo_post(port: u16, host: &str, origin: Option<&str>, fetch_site: bool) -> u16 {
    let mut stream = TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connect");
    let mut request = format!(
        "POST /demo/complete?elicitationId=0123456789abcdef0123456789abcdef HTTP/1.1\r\n\
         Host: {host}\r\nContent-Length: 0\r\nConnection: close\r\n"
    );
    if let Some(o) = origin {
        request.push_str(&format!("Origin: {o}\r\n"));
    }
    if fetch_site {
        request.push_str("Sec-Fetch-Site: same-origin\r\n");
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).await.expect("write");
    let answer = read_until_closed(&mut stream).await.expect("an answer");
    answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn demo_complete_refuses_dns_rebinding_and_foreign_origins() {
    let port = free_port();
    let _server = start(port, &[]);
    let local = format!("127.0.0.1:{port}");
    let own = format!("http://127.0.0.1:{port}");
    // DNS rebinding: evil.example resolves to 127.0.0.1; its page posts to itself, so
    // Origin and Host agree with each other, but not with the server's own origin.
    let rebound_host = format!("evil.example:{port}");
    let rebound = format!("http://evil.example:{port}");
    assert_eq!(
        demo_post(port, &rebound_host, Some(&rebound), true).await,
        403
    );
    assert_eq!(
        demo_post(port, &local, Some("http://evil.example"), true).await,
        403
    );
    assert_eq!(demo_post(port, &local, Some("null"), true).await, 403);
    // A browser always sends Origin with Sec-Fetch-*: without it, refused.
    assert_eq!(demo_post(port, &local, None, true).await, 403);
    // The server's own page passes the check (and finds nothing with this id).
    assert_eq!(demo_post(port, &local, Some(&own), true).await, 404);
    // A non-browser client (no Origin, no Sec-Fetch-Site) on a loopback Host passes.
    assert_eq!(demo_post(port, &local, None, false).await, 404);
}
