//! `mcp-elicit serve --tls-cert FILE --tls-key FILE`: the real binary serving HTTPS on
//! 127.0.0.1:0 (the address is read from its start-up line), with a test CA made here.
//!
//! Checked: a client trusting the CA completes MCP `initialize` and `tools/list` over
//! https, while a TCP connection that sends nothing and one that sends garbage are held
//! open (a handshake in the accept loop would stall it for 10 s); the local pages set
//! `Secure` cookies; a client that does not trust the CA fails; plain HTTP to the port
//! gets no HTTP answer; bad files and contradictory flags exit with status 2 and a
//! message naming the file, never showing the key. SIGHUP after renewing the files: new
//! connections get the new certificate, an established one keeps working; a bad key
//! then keeps the certificate served, and the log names the file without its content.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

mod support;

use support::{VAULT_KEY, WAIT};

/// Under the server's 10 s handshake timeout: a client stuck behind a silent one would
/// not make it.
const PROMPT: Duration = Duration::from_secs(8);

/// Certificates and keys in a temporary directory.
struct Pki {
    dir: tempfile::TempDir,
    /// The CA that signed `chain.pem`.
    ca: String,
    /// Another CA, which signed nothing here.
    stranger: String,
    /// The private key of another certificate (PEM).
    other_key: String,
    /// The server certificate in `chain.pem` (PEM).
    leaf: String,
    /// A renewal: another certificate of the same CA for the same names, and its key.
    renewed: (String, String),
    /// Base64 SHA-256 of the server certificate's public key (SubjectPublicKeyInfo), the
    /// pin Chromium's `--ignore-certificate-errors-spki-list` takes.
    spki_pin: String,
}

impl Pki {
    fn new() -> Pki {
        let dir = tempfile::tempdir().expect("tempdir");
        let ca = ca("mcp-elicit test CA");
        let leaf_key = rcgen::KeyPair::generate().expect("key");
        let leaf = rcgen::CertificateParams::new(vec!["127.0.0.1".into(), "localhost".into()])
            .expect("params")
            .signed_by(&leaf_key, &ca)
            .expect("leaf");
        std::fs::write(
            dir.path().join("chain.pem"),
            format!("{}{}", leaf.pem(), ca.pem()),
        )
        .expect("write");
        std::fs::write(dir.path().join("key.pem"), leaf_key.serialize_pem()).expect("write");
        let other_key = rcgen::KeyPair::generate().expect("key").serialize_pem();
        let renewed_key = rcgen::KeyPair::generate().expect("key");
        let renewed = rcgen::CertificateParams::new(vec!["127.0.0.1".into(), "localhost".into()])
            .expect("params")
            .signed_by(&renewed_key, &ca)
            .expect("renewed leaf");
        let spki_pin = {
            use base64::Engine;
            use sha2::Digest;
            base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(
                rcgen::PublicKeyData::subject_public_key_info(&leaf_key),
            ))
        };
        Pki {
            spki_pin,
            ca: ca.pem(),
            stranger: self::ca("someone else").pem(),
            other_key,
            leaf: leaf.pem(),
            renewed: (renewed.pem(), renewed_key.serialize_pem()),
            dir,
        }
    }

    /// `mcp-elicit serve` in local mode on a free loopback port with `chain.pem` and
    /// `key.pem`, state in memory.
    fn serve(&self) -> Server {
        Server::start(&[
            "--tls-cert",
            &self.arg("chain.pem"),
            "--tls-key",
            &self.arg("key.pem"),
            "--store",
            "memory",
            "--listen",
            "127.0.0.1:0",
        ])
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn write(&self, name: &str, content: &str) -> String {
        std::fs::write(self.path(name), content).expect("write");
        self.arg(name)
    }

    fn arg(&self, name: &str) -> String {
        self.path(name).display().to_string()
    }
}

fn ca(name: &str) -> rcgen::CertifiedIssuer<'static, rcgen::KeyPair> {
    let mut params = rcgen::CertificateParams::new(Vec::new()).expect("params");
    params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, name);
    rcgen::CertifiedIssuer::self_signed(params, rcgen::KeyPair::generate().expect("key"))
        .expect("CA")
}

/// A running `mcp-elicit serve`, killed when dropped; `url` is its `/mcp` as announced.
struct Server {
    child: Child,
    url: String,
    log: Arc<Mutex<String>>,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-elicit"))
            .arg("serve")
            .args(args)
            .env_remove("RUST_LOG")
            .env("USER", "tls-tester")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start mcp-elicit serve");
        let log = Arc::new(Mutex::new(String::new()));
        let (tx, rx) = std::sync::mpsc::channel();
        let lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
        let sink = log.clone();
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                sink.lock().expect("log").push_str(&format!("{line}\n"));
                // "mcp-elicit reference server: https://127.0.0.1:PORT/mcp, local mode ..."
                if let Some(rest) = line.strip_prefix("mcp-elicit reference server: ") {
                    let url = rest.split([',', ' ']).next().unwrap_or_default();
                    let _ = tx.send(url.to_owned());
                }
            }
        });
        let url = rx.recv_timeout(WAIT).unwrap_or_else(|_| {
            panic!(
                "no start-up line within {WAIT:?}: {}",
                log.lock().expect("log")
            )
        });
        Server { child, url, log }
    }

    fn base(&self) -> &str {
        self.url.trim_end_matches("/mcp")
    }

    fn addr(&self) -> &str {
        self.base().trim_start_matches("https://")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A reqwest client whose only trusted root is `ca` (PEM).
fn trusting(ca: &str) -> reqwest::Client {
    let ca = reqwest::Certificate::from_pem(ca.as_bytes()).expect("CA certificate");
    reqwest::Client::builder()
        .tls_certs_only([ca])
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
}

/// Reads until the server closes the connection; what it sent.
async fn read_to_close(stream: &mut tokio::net::TcpStream) -> Vec<u8> {
    let mut seen = Vec::new();
    tokio::time::timeout(WAIT, async {
        let mut buf = [0u8; 1024];
        while let Ok(n @ 1..) = stream.read(&mut buf).await {
            seen.extend_from_slice(&buf[..n]);
        }
    })
    .await
    .expect("the server closed the connection");
    seen
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_over_https_for_a_client_trusting_the_ca_and_nothing_for_anyone_else() {
    let pki = Pki::new();
    let server = pki.serve();
    assert!(
        server.url.starts_with("https://127.0.0.1:"),
        "{}",
        server.url
    );
    let log = server.log.lock().expect("log").clone();
    assert!(log.contains("TLS on") && log.contains("chain.pem"), "{log}");
    assert!(!log.contains("PRIVATE KEY"), "{log}");

    // Two connections that never complete a handshake stay open the whole time.
    let _silent = tokio::net::TcpStream::connect(server.addr())
        .await
        .expect("connect");
    let mut garbage = tokio::net::TcpStream::connect(server.addr())
        .await
        .expect("connect");
    garbage
        .write_all(&[0x16, 0x03, 0x01, 0xff, 0xff, b'x'])
        .await
        .expect("write");

    let http = trusting(&pki.ca);
    let started = Instant::now();
    let transport = StreamableHttpClientTransport::with_client(
        http.clone(),
        StreamableHttpClientTransportConfig::with_uri(server.url.clone()),
    );
    let client = tokio::time::timeout(PROMPT, ().serve(transport))
        .await
        .expect("initialize was held up")
        .expect("initialize over https");
    let tools = tokio::time::timeout(PROMPT, client.list_all_tools())
        .await
        .expect("tools/list was held up")
        .expect("tools/list over https");
    assert!(started.elapsed() < PROMPT, "{:?}", started.elapsed());
    assert!(
        tools.iter().any(|t| t.name == "connect_demo"),
        "{:?}",
        tools.iter().map(|t| &t.name).collect::<Vec<_>>()
    );
    client.cancel().await.expect("close");

    // The local pages are on https too, so their cookies are Secure and host-only.
    let page = http
        .get(format!("{}/connect?elicitationId=x", server.base()))
        .send()
        .await
        .expect("connect page");
    assert_eq!(page.status(), 303);
    let cookie = page
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    assert!(
        cookie.starts_with("__Host-") && cookie.contains("Secure"),
        "{cookie}"
    );

    // A client that does not trust the CA gets no answer.
    let refused = trusting(&pki.stranger)
        .get(&server.url)
        .send()
        .await
        .expect_err("an untrusted certificate");
    assert!(refused.is_connect(), "{refused:?}");

    // Plain HTTP to the TLS port: no HTTP response (at most a TLS alert), then closed.
    let mut plain = tokio::net::TcpStream::connect(server.addr())
        .await
        .expect("connect");
    plain
        .write_all(
            format!(
                "GET /mcp HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
                server.addr()
            )
            .as_bytes(),
        )
        .await
        .expect("write");
    let answer = read_to_close(&mut plain).await;
    assert!(
        !String::from_utf8_lossy(&answer).contains("HTTP/"),
        "{answer:?}"
    );
    // The garbage handshake was refused (closed), not left hanging.
    read_to_close(&mut garbage).await;
}

/// A real browser over the server's own TLS: headless Chromium (pinned to the test
/// certificate, so the page is a secure context as with a real certificate) opens the
/// connect page of `set_api_key`, gets the `__Host-` Secure session cookie, enters the
/// key and saves it; the MCP client (over https) is notified and its retry finds the key.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_browser_completes_the_secret_page_over_https() {
    let pki = Pki::new();
    let server = pki.serve();
    let (mut client, _) =
        support::McpClient::connect_with(trusting(&pki.ca), &server.url, String::new()).await;
    let call = serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "set_api_key", "arguments": {}}});
    let (id, url) = client.url_required(call.clone()).await;
    assert!(
        url.starts_with(&format!("{}/connect?", server.base())),
        "{url}"
    );
    let secret = format!("sk_tls_browser_{}", std::process::id());
    let Some(result) = support::driver::drive(
        &url,
        "unused",
        &secret,
        "serve-tls-chromium.png",
        &[format!(
            "--ignore-certificate-errors-spki-list={}",
            pki.spki_pin
        )],
    )
    .await
    else {
        return;
    };
    assert_eq!(
        result["title"],
        "Done",
        "{result}\n{}",
        server.log.lock().expect("log")
    );
    let posts = support::driver::posts_to(&result, "/connect/secret");
    assert_eq!(posts.len(), 1, "{result}");
    assert_eq!(posts[0]["origin"], server.base(), "{result}");
    client.wait_for_completion(&id).await;
    let text = client.call_text(call).await;
    assert!(text.contains("on file"), "{text}");
    assert!(!server.log.lock().expect("log").contains(&secret));
}

/// Runs `mcp-elicit serve ARGS` expecting it to refuse with status 2; returns stderr.
fn refused(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-elicit"))
        .arg("serve")
        .args(args)
        .env("MCP_ELICIT_VAULT_KEY", VAULT_KEY)
        .stdin(Stdio::null())
        .output()
        .expect("run mcp-elicit serve");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    stderr
}

#[test]
fn bad_tls_files_and_contradictory_flags_exit_2_naming_the_problem() {
    let pki = Pki::new();
    let (cert, key) = (pki.arg("chain.pem"), pki.arg("key.pem"));
    let serve = |cert: &str, key: &str| {
        refused(&[
            "--tls-cert",
            cert,
            "--tls-key",
            key,
            "--store",
            "memory",
            "--listen",
            "127.0.0.1:0",
        ])
    };
    let missing = pki.arg("absent.pem");
    let e = serve(&missing, &key);
    assert!(e.contains(&missing) && e.contains("cannot read"), "{e}");
    let e = serve(&cert, &missing);
    assert!(e.contains(&missing) && e.contains("--tls-key"), "{e}");

    let garbage = pki.write("garbage.pem", "this is not PEM\n");
    let e = serve(&garbage, &key);
    assert!(e.contains(&garbage) && e.contains("no certificate"), "{e}");
    // The certificate file given as the key: no key in it.
    let e = serve(&cert, &cert);
    assert!(e.contains("no private key"), "{e}");
    let other = pki.write("other.key", &pki.other_key);
    let e = serve(&cert, &other);
    assert!(
        e.contains(&other) && e.contains(&cert) && e.contains("does not belong"),
        "{e}"
    );
    for line in pki.other_key.lines().filter(|l| !l.starts_with("-----")) {
        assert!(!e.contains(line), "key material in: {e}");
    }

    // Both or neither.
    let e = refused(&["--tls-cert", &cert, "--listen", "127.0.0.1:0"]);
    assert!(e.contains("--tls-key"), "{e}");
    let e = refused(&["--tls-key", &key, "--listen", "127.0.0.1:0"]);
    assert!(e.contains("--tls-cert"), "{e}");
    // Nothing to encrypt on stdio.
    let e = refused(&["--stdio", "--tls-cert", &cert, "--tls-key", &key]);
    assert!(e.contains("nothing for TLS to encrypt"), "{e}");
    // Local mode stays on loopback, TLS or not.
    let e = refused(&[
        "--listen",
        "0.0.0.0:0",
        "--tls-cert",
        &cert,
        "--tls-key",
        &key,
    ]);
    assert!(e.contains("local mode"), "{e}");
    // TLS here and an http public URL contradict each other.
    let e = refused(&[
        "--listen",
        "0.0.0.0:0",
        "--issuer",
        "https://idp.example",
        "--public-url",
        "http://mcp.example",
        "--tls-cert",
        &cert,
        "--tls-key",
        &key,
    ]);
    assert!(e.contains("cannot be combined with --tls-cert"), "{e}");
}

/// A blocking rustls client trusting `ca` (PEM) only, speaking HTTP/1.1.
fn rustls_client(ca: &str) -> Arc<rustls::ClientConfig> {
    use rustls::pki_types::pem::PemObject;
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(rustls::pki_types::CertificateDer::from_pem_slice(ca.as_bytes()).expect("CA"))
        .expect("root");
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("versions")
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    // A resumed session shows the certificate of the session's first handshake.
    config.resumption = rustls::client::Resumption::disabled();
    Arc::new(config)
}

type TlsConnection = rustls::StreamOwned<rustls::ClientConnection, std::net::TcpStream>;

/// A new connection to `addr` whose handshake is done.
fn tls_connect(addr: &str, client: &Arc<rustls::ClientConfig>) -> TlsConnection {
    let mut tcp = std::net::TcpStream::connect(addr).expect("connect");
    tcp.set_read_timeout(Some(WAIT)).expect("timeout");
    tcp.set_write_timeout(Some(WAIT)).expect("timeout");
    let name = rustls::pki_types::ServerName::try_from("127.0.0.1").expect("name");
    let mut conn = rustls::ClientConnection::new(Arc::clone(client), name).expect("client");
    while conn.is_handshaking() {
        conn.complete_io(&mut tcp).expect("handshake");
    }
    rustls::StreamOwned::new(conn, tcp)
}

/// The server certificate (DER) a connection was made with.
fn served(tls: &TlsConnection) -> Vec<u8> {
    tls.conn.peer_certificates().expect("certificates")[0].to_vec()
}

/// The DER of the first certificate in `pem`.
fn der(pem: &str) -> Vec<u8> {
    use rustls::pki_types::pem::PemObject;
    rustls::pki_types::CertificateDer::from_pem_slice(pem.as_bytes())
        .expect("certificate")
        .to_vec()
}

/// `GET /demo/complete` (no parameters: 400) on `tls`, then closed; the status line.
fn get_and_close(tls: &mut TlsConnection) -> String {
    use std::io::{Read, Write};
    tls.write_all(b"GET /demo/complete HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .expect("write");
    let mut response = Vec::new();
    let mut buf = [0u8; 1024];
    loop {
        match tls.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => response.extend_from_slice(&buf[..n]),
            // Closed without close_notify, after the response.
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
            Err(e) => panic!("read: {e} after {:?}", String::from_utf8_lossy(&response)),
        }
    }
    let response = String::from_utf8_lossy(&response).into_owned();
    response.lines().next().unwrap_or_default().to_owned()
}

fn sighup(server: &Server) {
    let status = Command::new("kill")
        .args(["-HUP", &server.child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(status.success(), "kill -HUP: {status}");
}

/// Waits (at most [`WAIT`]) until `done` holds; panics with `what` and the log if not.
fn wait_for(server: &Server, what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + WAIT;
    while !done() {
        assert!(
            Instant::now() < deadline,
            "{what}: not after {WAIT:?}; log:\n{}",
            server.log.lock().expect("log")
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn sighup_reloads_the_renewed_certificate_and_a_bad_one_changes_nothing() {
    let pki = Pki::new();
    let (cert, key) = (pki.arg("chain.pem"), pki.arg("key.pem"));
    let mut server = pki.serve();
    let addr = server.addr().to_owned();
    let client = rustls_client(&pki.ca);
    let (a, b) = (der(&pki.leaf), der(&pki.renewed.0));
    let mut old = tls_connect(&addr, &client);
    assert!(served(&old) == a, "not the certificate of chain.pem");

    // Renewed in place (the new chain without the CA: one certificate), then SIGHUP.
    pki.write("chain.pem", &pki.renewed.0);
    pki.write("key.pem", &pki.renewed.1);
    sighup(&server);
    wait_for(&server, "a new connection with the new certificate", || {
        served(&tls_connect(&addr, &client)) == b
    });
    wait_for(&server, "the reload logged", || {
        server.log.lock().expect("log").contains("reloaded from")
    });
    let log = server.log.lock().expect("log").clone();
    let line = log
        .lines()
        .find(|l| l.contains("reloaded from"))
        .expect("line");
    assert!(
        line.contains("chain of 1") && line.contains(&cert) && line.contains("valid until"),
        "{line}"
    );
    // The connection made before the reload is still served, with its certificate.
    assert_eq!(get_and_close(&mut old), "HTTP/1.1 400 Bad Request");
    assert!(
        served(&old) == a,
        "the old connection's certificate changed"
    );

    // A garbage key (PEM around bytes that are no key): nothing changes but the log.
    let body = "Z2FyYmFnZSB0aGF0IGlzIG5vIGtleSBhdCBhbGwsIG5vdCBldmVuIGNsb3Nl";
    pki.write(
        "key.pem",
        &format!("-----BEGIN PRIVATE KEY-----\n{body}\n-----END PRIVATE KEY-----\n"),
    );
    sighup(&server);
    wait_for(&server, "the failed reload logged", || {
        server.log.lock().expect("log").contains("NOT reloaded")
    });
    let log = server.log.lock().expect("log").clone();
    let line = log
        .lines()
        .find(|l| l.contains("NOT reloaded"))
        .expect("line");
    assert!(
        line.contains(&format!("--tls-key {key}")) && line.contains("not a usable private key"),
        "{line}"
    );
    assert!(!log.contains(body), "key material in the log: {log}");
    assert_eq!(log.matches("NOT reloaded").count(), 1, "{log}");
    let mut new = tls_connect(&addr, &client);
    assert!(served(&new) == b, "not the renewed certificate");
    assert_eq!(get_and_close(&mut new), "HTTP/1.1 400 Bad Request");
    assert!(server.child.try_wait().expect("status").is_none(), "{log}");
}
