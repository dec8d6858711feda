//! A held event stream (an HTTP/1.1 `text/event-stream` answer to a GET) leaves hyper
//! once its head is written and goes on in a task of its own
//! (`HttpLimits::detach_held_streams`). What a client sees must not change: the same
//! head, the same chunks, the last chunk when the server ends the stream; the server
//! must still notice a client that goes away, stop on shutdown, and count the stream
//! under the connection cap. One thing differs, on purpose, and tells the detached
//! stream from hyper's: its head says `Connection: close`, and after its last chunk the
//! connection is closed, where hyper keeps it for another request.

use std::convert::Infallible;
use std::time::Duration;

use axum::Router;
use axum::response::sse::{Event, Sse};
use axum::routing::{get, post};
use mcp_elicit_server::reference::http::{HttpLimits, serve_router};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::{mpsc, oneshot};

/// Events the test sends down the stream: `Some(text)` is an event, `None` ends it.
type Feed = mpsc::UnboundedSender<Option<String>>;

/// A POST to `/echo` on a kept-alive connection.
const ECHO: &str = "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n";

/// A server with `GET /events` (an event stream fed by the test; each GET hands the test
/// its feed) and `POST /echo` (`ok`).
struct Server {
    addr: std::net::SocketAddr,
    feeds: mpsc::UnboundedReceiver<Feed>,
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

async fn start(limits: HttpLimits) -> Server {
    let (feeds_tx, feeds) = mpsc::unbounded_channel::<Feed>();
    let events = get(move || {
        let feeds_tx = feeds_tx.clone();
        async move {
            let (tx, rx) = mpsc::unbounded_channel::<Option<String>>();
            let _ = feeds_tx.send(tx);
            let stream = futures::stream::unfold(rx, |mut rx| async move {
                match rx.recv().await {
                    Some(Some(text)) => {
                        Some((Ok::<_, Infallible>(Event::default().data(text)), rx))
                    }
                    Some(None) | None => None,
                }
            });
            Sse::new(stream)
        }
    });
    let app = Router::new()
        .route("/events", events)
        .route("/echo", post(|| async { "ok" }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(serve_router(listener, app, limits, async move {
        let _ = stopped.await;
    }));
    Server {
        addr,
        feeds,
        stop: Some(stop),
        task,
    }
}

impl Server {
    /// The feed of the next stream the server opens.
    async fn feed(&mut self) -> Feed {
        tokio::time::timeout(Duration::from_secs(5), self.feeds.recv())
            .await
            .expect("the server opened a stream")
            .expect("the server is up")
    }

    async fn shut_down(mut self) {
        let _ = self.stop.take().expect("once").send(());
        tokio::time::timeout(Duration::from_secs(10), self.task)
            .await
            .expect("the server stops")
            .expect("no panic")
            .expect("no error");
    }
}

/// A raw HTTP/1 client connection.
struct Client {
    tcp: TcpStream,
    buf: Vec<u8>,
}

impl Client {
    async fn connect(addr: std::net::SocketAddr) -> Client {
        Client {
            tcp: TcpStream::connect(addr).await.expect("connect"),
            buf: Vec::new(),
        }
    }

    async fn send(&mut self, request: &str) {
        self.tcp.write_all(request.as_bytes()).await.expect("send");
    }

    /// Reads until the buffer holds `needle`; returns what comes before it, and keeps
    /// what follows.
    async fn until(&mut self, needle: &[u8]) -> Vec<u8> {
        let read = async {
            loop {
                if let Some(at) = self.buf.windows(needle.len()).position(|w| w == needle) {
                    let rest = self.buf.split_off(at + needle.len());
                    let mut head = std::mem::replace(&mut self.buf, rest);
                    head.truncate(at);
                    return head;
                }
                let mut chunk = [0u8; 4096];
                let n = self.tcp.read(&mut chunk).await.expect("read");
                assert!(
                    n > 0,
                    "the connection closed; so far: {:?}",
                    String::from_utf8_lossy(&self.buf)
                );
                self.buf.extend_from_slice(&chunk[..n]);
            }
        };
        tokio::time::timeout(Duration::from_secs(5), read)
            .await
            .expect("the awaited bytes arrive")
    }

    /// The response head, lower-cased.
    async fn head(&mut self) -> String {
        String::from_utf8(self.until(b"\r\n\r\n").await)
            .expect("utf-8 head")
            .to_ascii_lowercase()
    }

    /// One chunk of a chunked body (empty: the last chunk).
    async fn chunk(&mut self) -> String {
        let size = String::from_utf8(self.until(b"\r\n").await).expect("utf-8 size");
        let size = usize::from_str_radix(size.trim(), 16).expect("hex size");
        let mut data = Vec::new();
        if size > 0 {
            while self.buf.len() < size + 2 {
                let mut chunk = [0u8; 4096];
                let n = tokio::time::timeout(Duration::from_secs(5), self.tcp.read(&mut chunk))
                    .await
                    .expect("the chunk arrives")
                    .expect("read");
                assert!(n > 0, "the connection closed mid-chunk");
                self.buf.extend_from_slice(&chunk[..n]);
            }
            data = self.buf.drain(..size).collect();
            assert_eq!(
                self.buf.drain(..2).collect::<Vec<_>>(),
                b"\r\n",
                "chunk ends with CRLF"
            );
        } else {
            assert_eq!(self.until(b"\r\n").await, b"", "no trailers");
        }
        String::from_utf8(data).expect("utf-8 chunk")
    }

    /// Whether the server closed the connection within `wait` (nothing more to read).
    async fn closed_within(&mut self, wait: Duration) -> bool {
        let mut byte = [0u8; 1];
        match tokio::time::timeout(wait, self.tcp.read(&mut byte)).await {
            Ok(Ok(0) | Err(_)) => true,
            Ok(Ok(_)) => panic!("unexpected byte after the stream: {byte:?}"),
            Err(_) => false,
        }
    }

    /// A POST on this connection; its body.
    async fn echo(&mut self) -> String {
        self.send(ECHO).await;
        let head = self.head().await;
        assert!(head.starts_with("http/1.1 200"), "{head}");
        assert!(head.contains("content-length: 2"), "{head}");
        let mut body = [0u8; 2];
        while self.buf.len() < 2 {
            let mut chunk = [0u8; 64];
            let n = self.tcp.read(&mut chunk).await.expect("read");
            assert!(n > 0);
            self.buf.extend_from_slice(&chunk[..n]);
        }
        body.copy_from_slice(&self.buf[..2]);
        self.buf.drain(..2);
        String::from_utf8(body.to_vec()).expect("utf-8")
    }

    async fn open_stream(&mut self, version: &str) -> String {
        self.send(&format!(
            "GET /events {version}\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
        ))
        .await;
        self.head().await
    }
}

/// A client holding an HTTP/1.1 stream of `server`, its feed, and `first` already
/// received (so the stream has been handed over, when detaching).
async fn held_stream(server: &mut Server, first: &str) -> (Client, Feed) {
    let mut client = Client::connect(server.addr).await;
    let head = client.open_stream("HTTP/1.1").await;
    assert!(head.starts_with("http/1.1 200"), "{head}");
    let feed = server.feed().await;
    feed.send(Some(first.to_owned()))
        .expect("the stream is open");
    assert_eq!(client.chunk().await, format!("data: {first}\n\n"));
    (client, feed)
}

fn limits(detach: bool) -> HttpLimits {
    let mut limits = HttpLimits::default();
    limits.detach_held_streams = detach;
    limits
}

/// The same bytes with and without detaching, after a request on the same connection;
/// the detached stream's connection closes after its last chunk, hyper's stays open.
#[tokio::test]
async fn a_held_stream_carries_the_same_chunks_and_ends_its_connection_when_detached() {
    for detach in [true, false] {
        let mut server = start(limits(detach)).await;
        let mut client = Client::connect(server.addr).await;
        // A keep-alive request first: the stream may come on a reused connection.
        assert_eq!(client.echo().await, "ok");
        let head = client.open_stream("HTTP/1.1").await;
        assert!(head.starts_with("http/1.1 200 ok"), "{head}");
        assert!(head.contains("content-type: text/event-stream"), "{head}");
        assert!(head.contains("transfer-encoding: chunked"), "{head}");
        assert_eq!(
            head.contains("connection: close"),
            detach,
            "a detached stream's head says its connection ends with it: {head}"
        );
        let feed = server.feed().await;
        for text in ["one", "two", &"x".repeat(70_000)] {
            feed.send(Some(text.to_owned()))
                .expect("the stream is open");
            assert_eq!(
                client.chunk().await,
                format!("data: {text}\n\n"),
                "detach={detach}"
            );
        }
        feed.send(None).expect("the stream is open");
        assert_eq!(client.chunk().await, "", "the last chunk (detach={detach})");
        let closed = client.closed_within(Duration::from_millis(500)).await;
        assert_eq!(
            closed, detach,
            "closed after the last chunk: only when detached"
        );
        server.shut_down().await;
    }
}

/// A client that closes its held stream: the server drops the stream's body (its
/// session would learn the stream is gone).
#[tokio::test]
async fn a_client_closing_its_held_stream_ends_the_stream_on_the_server() {
    let mut server = start(limits(true)).await;
    let (client, feed) = held_stream(&mut server, "hello").await;
    drop(client);
    tokio::time::timeout(Duration::from_secs(5), feed.closed())
        .await
        .expect("the server dropped the stream once the client closed it");
    server.shut_down().await;
}

/// Shutdown ends a held stream with its last chunk, and the server's future returns.
#[tokio::test]
async fn shutdown_ends_a_held_stream_cleanly() {
    let mut server = start(limits(true)).await;
    let (mut client, feed) = held_stream(&mut server, "before").await;
    server.shut_down().await;
    assert_eq!(client.chunk().await, "", "the last chunk on shutdown");
    assert!(client.closed_within(Duration::from_secs(2)).await);
    assert!(feed.is_closed(), "the stream's body was dropped");
}

/// A held stream keeps its place under the connection cap: with a cap of one, a second
/// connection is refused while the stream is open and served once it is closed.
#[tokio::test]
async fn a_held_stream_counts_under_the_connection_cap() {
    let mut limited = limits(true);
    limited.max_connections = 1;
    let mut server = start(limited).await;
    // The first chunk comes after the handover: the stream is detached by now.
    let (held, feed) = held_stream(&mut server, "held").await;
    let mut second = Client::connect(server.addr).await;
    let head = second.head().await;
    assert!(head.starts_with("http/1.1 503"), "over the cap: {head}");
    drop(held);
    tokio::time::timeout(Duration::from_secs(5), feed.closed())
        .await
        .expect("the stream ended");
    let served = async {
        loop {
            let mut third = Client::connect(server.addr).await;
            third.send(ECHO).await;
            if third.head().await.starts_with("http/1.1 200") {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(5), served)
        .await
        .expect("the slot is free once the held stream is closed");
    server.shut_down().await;
}

/// An HTTP/1.0 stream is not chunked: it stays with hyper, which ends its body by
/// closing the connection.
#[tokio::test]
async fn an_http_1_0_stream_stays_with_hyper() {
    let mut server = start(limits(true)).await;
    let mut client = Client::connect(server.addr).await;
    let head = client.open_stream("HTTP/1.0").await;
    assert!(
        head.starts_with("http/1.0 200") || head.starts_with("http/1.1 200"),
        "{head}"
    );
    assert!(!head.contains("transfer-encoding"), "{head}");
    let feed = server.feed().await;
    feed.send(Some("plain".into())).expect("open");
    assert_eq!(client.until(b"\n\n").await, b"data: plain");
    feed.send(None).expect("open");
    assert!(client.closed_within(Duration::from_secs(2)).await);
    server.shut_down().await;
}

/// What a client sends on its held stream is read and dropped; the stream goes on.
#[tokio::test]
async fn bytes_from_the_client_on_a_held_stream_are_dropped() {
    let mut server = start(limits(true)).await;
    let (mut client, feed) = held_stream(&mut server, "first").await;
    client.send(ECHO).await;
    feed.send(Some("second".into())).expect("open");
    assert_eq!(client.chunk().await, "data: second\n\n");
    server.shut_down().await;
}
