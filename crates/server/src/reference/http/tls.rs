//! The TLS listener behind [`super::serve_with_tls`]: handshakes away from the accept
//! loop.
//!
//! A TLS handshake takes round trips, and the client decides how long they last: one
//! that connects and sends nothing, or sends something that is not TLS, must not hold up
//! anybody else. So the accept loop only accepts TCP connections (and sets TCP_NODELAY)
//! and spawns one task per handshake, bounded by a timeout ([`HANDSHAKE_TIMEOUT`] when
//! serving). A finished stream goes to the HTTP server through a bounded channel; a
//! failed or timed-out handshake is logged at debug level and dropped. At most
//! [`MAX_HANDSHAKES`] handshakes run at once: a connection beyond that is closed at once,
//! so the loop never waits for a handshake. Dropping the listener (the server has
//! stopped accepting) ends the accept loop, closes the listening socket and abandons the
//! handshakes still running.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, mpsc};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::server::TlsStream;
use tokio_util::sync::{CancellationToken, DropGuard};

/// How long a client has to complete its TLS handshake.
pub(super) const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How many handshakes may run at once.
const MAX_HANDSHAKES: usize = 1024;
/// How many finished handshakes may wait for the HTTP server to take them.
const READY: usize = 64;

/// A connection whose handshake finished, and its peer.
type Ready = (TlsStream<TcpStream>, SocketAddr);

/// An [`axum::serve::Listener`] yielding connections whose TLS handshake is done.
pub(super) struct TlsListener {
    ready: mpsc::Receiver<Ready>,
    local_addr: SocketAddr,
    /// Cancels the accept loop and the running handshakes when the listener is dropped.
    _stop: DropGuard,
}

impl TlsListener {
    /// Starts accepting on `listener` (in a spawned task, so this needs a Tokio runtime).
    pub(super) fn new(
        listener: TcpListener,
        config: Arc<ServerConfig>,
        handshake_timeout: Duration,
    ) -> io::Result<TlsListener> {
        let local_addr = listener.local_addr()?;
        let (tx, ready) = mpsc::channel(READY);
        let stop = CancellationToken::new();
        tokio::spawn(accept_loop(
            listener,
            TlsAcceptor::from(config),
            tx,
            stop.clone(),
            handshake_timeout,
        ));
        Ok(TlsListener {
            ready,
            local_addr,
            _stop: stop.drop_guard(),
        })
    }
}

impl axum::serve::Listener for TlsListener {
    type Io = TlsStream<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        match self.ready.recv().await {
            Some(ready) => ready,
            // The accept loop holds the sender until this listener is dropped.
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        Ok(self.local_addr)
    }
}

/// Accepts TCP connections and hands each to its own handshake task, until `stop`.
async fn accept_loop(
    listener: TcpListener,
    acceptor: TlsAcceptor,
    ready: mpsc::Sender<Ready>,
    stop: CancellationToken,
    handshake_timeout: Duration,
) {
    let slots = Arc::new(Semaphore::new(MAX_HANDSHAKES));
    loop {
        let accepted = tokio::select! {
            () = stop.cancelled() => return,
            accepted = listener.accept() => accepted,
        };
        let (tcp, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) if is_connection_error(&e) => continue,
            Err(e) => {
                // Out of file descriptors, most likely: wait for some to be closed (what
                // axum does for plain TCP).
                tracing::error!("accept error: {e}");
                tokio::select! {
                    () = stop.cancelled() => return,
                    () = tokio::time::sleep(Duration::from_secs(1)) => continue,
                }
            }
        };
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            tracing::debug!(%peer, "{MAX_HANDSHAKES} TLS handshakes in progress: connection closed");
            continue;
        };
        // Small request/response exchanges must not wait for Nagle's algorithm.
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!("cannot set TCP_NODELAY: {e}");
        }
        let acceptor = acceptor.clone();
        let ready = ready.clone();
        let stop = stop.clone();
        tokio::spawn(async move {
            let handshake = tokio::time::timeout(handshake_timeout, acceptor.accept(tcp));
            let outcome = tokio::select! {
                () = stop.cancelled() => return,
                outcome = handshake => outcome,
            };
            drop(slot);
            match outcome {
                // An error here means the server has stopped: the connection is dropped.
                Ok(Ok(stream)) => drop(ready.send((stream, peer)).await),
                Ok(Err(e)) => tracing::debug!(%peer, error = %e, "TLS handshake failed"),
                Err(_) => tracing::debug!(
                    %peer,
                    "TLS handshake not finished after {handshake_timeout:?}: connection closed"
                ),
            }
        });
    }
}

/// Errors of one connection, not of the listener (as axum classifies them).
fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::serve::Listener;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio_rustls::TlsConnector;
    use tokio_rustls::rustls::{self, ClientConfig, RootCertStore};

    const WAIT: Duration = Duration::from_secs(5);

    fn provider() -> Arc<rustls::crypto::CryptoProvider> {
        Arc::new(rustls::crypto::aws_lc_rs::default_provider())
    }

    /// A self-signed certificate for 127.0.0.1: the server's config (ALPN h2 and
    /// http/1.1) and a client config trusting it (with `alpn`).
    fn configs(alpn: &[&[u8]]) -> (Arc<ServerConfig>, Arc<ClientConfig>) {
        let key = rcgen::KeyPair::generate().expect("key");
        let cert = rcgen::CertificateParams::new(vec!["127.0.0.1".to_owned()])
            .expect("params")
            .self_signed(&key)
            .expect("certificate");
        let der = cert.der().clone();
        let key_der =
            rustls::pki_types::PrivateKeyDer::try_from(key.serialize_der()).expect("key der");
        let mut server = ServerConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .expect("versions")
            .with_no_client_auth()
            .with_single_cert(vec![der.clone()], key_der)
            .expect("server config");
        server.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
        let mut roots = RootCertStore::empty();
        roots.add(der).expect("root");
        let mut client = ClientConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .expect("versions")
            .with_root_certificates(roots)
            .with_no_client_auth();
        client.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
        (Arc::new(server), Arc::new(client))
    }

    async fn listener(config: Arc<ServerConfig>, timeout: Duration) -> (TlsListener, SocketAddr) {
        let tcp = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let listener = TlsListener::new(tcp, config, timeout).expect("listener");
        let addr = listener.local_addr().expect("addr");
        (listener, addr)
    }

    async fn tls_connect(
        client: Arc<ClientConfig>,
        addr: SocketAddr,
    ) -> tokio_rustls::client::TlsStream<TcpStream> {
        let tcp = TcpStream::connect(addr).await.expect("connect");
        let name = rustls::pki_types::ServerName::try_from("127.0.0.1").expect("name");
        tokio::time::timeout(WAIT, TlsConnector::from(client).connect(name, tcp))
            .await
            .expect("handshake in time")
            .expect("handshake")
    }

    /// Reads until EOF or error; what was read, or None if the peer kept it open.
    async fn read_to_close(stream: &mut (impl AsyncReadExt + Unpin)) -> Option<Vec<u8>> {
        let mut seen = Vec::new();
        let mut buf = [0u8; 1024];
        loop {
            match tokio::time::timeout(WAIT, stream.read(&mut buf)).await {
                Err(_) => return None,
                Ok(Ok(0) | Err(_)) => return Some(seen),
                Ok(Ok(n)) => seen.extend_from_slice(&buf[..n]),
            }
        }
    }

    #[tokio::test]
    async fn silent_and_garbage_connections_do_not_hold_up_a_real_client() {
        let (server, client) = configs(&[b"http/1.1"]);
        let (listener, addr) = listener(server, HANDSHAKE_TIMEOUT).await;
        let app = axum::Router::new().route("/", axum::routing::get(|| async { "hello" }));
        let served = tokio::spawn(async move { axum::serve(listener, app).await });

        // Neither of these ever completes a handshake.
        let _silent = TcpStream::connect(addr).await.expect("connect");
        let mut plain = TcpStream::connect(addr).await.expect("connect");
        plain
            .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .expect("write");

        let mut tls = tls_connect(client, addr).await;
        tls.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            .await
            .expect("write");
        let response = read_to_close(&mut tls).await.expect("a complete response");
        let response = String::from_utf8_lossy(&response);
        assert!(response.starts_with("HTTP/1.1 200"), "{response}");
        assert!(response.ends_with("hello"), "{response}");

        // Plain HTTP gets no HTTP answer (at most a TLS alert), and is closed.
        let answer = read_to_close(&mut plain).await.expect("closed");
        assert!(
            !String::from_utf8_lossy(&answer).contains("HTTP/"),
            "{answer:?}"
        );
        served.abort();
    }

    #[tokio::test]
    async fn a_handshake_that_never_finishes_is_closed_after_the_timeout() {
        let (server, _) = configs(&[]);
        let (_listener, addr) = listener(server, Duration::from_millis(200)).await;
        let mut silent = TcpStream::connect(addr).await.expect("connect");
        let started = std::time::Instant::now();
        let seen = read_to_close(&mut silent)
            .await
            .expect("closed by the server");
        assert!(seen.is_empty(), "{seen:?}");
        assert!(started.elapsed() >= Duration::from_millis(150));
    }

    #[tokio::test]
    async fn streams_come_with_tcp_nodelay_set() {
        let (server, client) = configs(&[]);
        let (mut listener, addr) = listener(server, HANDSHAKE_TIMEOUT).await;
        let connecting = tokio::spawn(tls_connect(client, addr));
        let (io, peer) = tokio::time::timeout(WAIT, listener.accept())
            .await
            .expect("a connection");
        assert!(peer.ip().is_loopback());
        assert!(io.get_ref().0.nodelay().expect("nodelay"));
        drop(connecting.await.expect("client"));
    }

    #[tokio::test]
    async fn alpn_h2_is_spoken_as_http2() {
        let (server, client) = configs(&[b"h2"]);
        let (listener, addr) = listener(server, HANDSHAKE_TIMEOUT).await;
        let app = axum::Router::new().route("/", axum::routing::get(|| async { "hello" }));
        let served = tokio::spawn(async move { axum::serve(listener, app).await });
        let mut tls = tls_connect(client, addr).await;
        assert_eq!(tls.get_ref().1.alpn_protocol(), Some(&b"h2"[..]));
        // The HTTP/2 preface and an empty SETTINGS frame are answered with the server's
        // SETTINGS frame (9-byte header, type 4), not with HTTP/1.1.
        tls.write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\0\0\0\x04\0\0\0\0\0")
            .await
            .expect("write");
        let mut header = [0u8; 9];
        tokio::time::timeout(WAIT, tls.read_exact(&mut header))
            .await
            .expect("an answer in time")
            .expect("read");
        assert_eq!(header[3], 4, "{header:?}");
        served.abort();
    }

    #[tokio::test]
    async fn serve_with_tls_serves_the_reference_server_and_stops_gracefully() {
        use crate::reference::{Reference, ReferenceOptions};
        use crate::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
        let (server, client) = configs(&[b"http/1.1"]);
        let tcp = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = tcp.local_addr().expect("addr");
        let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(
            Principal::local_user("ada"),
        )));
        let reference = Reference::new(hub, ReferenceOptions::new(format!("https://{addr}")));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let served = tokio::spawn(super::super::serve_with_tls(
            tcp,
            Some(server),
            reference,
            super::super::router,
            async move {
                let _ = stopped.await;
            },
        ));
        let mut tls = tls_connect(client, addr).await;
        tls.write_all(
            b"GET /demo/complete HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
        )
        .await
        .expect("write");
        let response = read_to_close(&mut tls).await.expect("a complete response");
        let response = String::from_utf8_lossy(&response);
        assert!(response.starts_with("HTTP/1.1 400"), "{response}");
        // A handshake still pending does not keep the server from stopping.
        let _silent = TcpStream::connect(addr).await.expect("connect");
        stop.send(()).expect("still serving");
        tokio::time::timeout(WAIT, served)
            .await
            .expect("stopped in time")
            .expect("task")
            .expect("served without error");
        wait_closed(addr).await;
    }

    #[tokio::test]
    async fn a_tls_connection_idle_after_its_handshake_is_closed_by_the_header_timeout() {
        use crate::reference::{Reference, ReferenceOptions};
        use crate::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
        let (server, client) = configs(&[b"http/1.1"]);
        let tcp = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = tcp.local_addr().expect("addr");
        let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(
            Principal::local_user("ada"),
        )));
        let reference = Reference::new(hub, ReferenceOptions::new(format!("https://{addr}")));
        let limits = super::super::HttpLimits {
            header_read_timeout: Duration::from_millis(300),
            ..Default::default()
        };
        let served = tokio::spawn(super::super::serve_with_limits(
            tcp,
            Some(server),
            limits,
            reference,
            super::super::router,
            std::future::pending(),
        ));
        // The handshake completes, then the client sends nothing: closed, no answer.
        let mut idle = tls_connect(client, addr).await;
        let seen = read_to_close(&mut idle)
            .await
            .expect("closed by the server");
        assert!(
            !String::from_utf8_lossy(&seen).contains("HTTP/"),
            "{seen:?}"
        );
        served.abort();
    }

    #[tokio::test]
    async fn dropping_the_listener_closes_the_port() {
        let (server, _) = configs(&[]);
        let (listener, addr) = listener(server, HANDSHAKE_TIMEOUT).await;
        drop(listener);
        wait_closed(addr).await;
    }

    /// Waits until nothing listens on `addr` any more (the accept loop ends on its own
    /// schedule once cancelled).
    async fn wait_closed(addr: SocketAddr) {
        let deadline = std::time::Instant::now() + WAIT;
        while TcpStream::connect(addr).await.is_ok() {
            assert!(std::time::Instant::now() < deadline, "still listening");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// An event stream held over TLS leaves hyper as it does over plain TCP (the TLS
    /// stream is what is handed over): its chunks arrive through TLS, the last chunk
    /// ends it, and the connection is then closed (hyper would keep it open).
    #[tokio::test]
    async fn a_held_event_stream_over_tls_is_detached_and_ends_cleanly() {
        use axum::response::sse::{Event, Sse};
        let (server, client) = configs(&[b"http/1.1"]);
        let (listener, addr) = listener(server, HANDSHAKE_TIMEOUT).await;
        let events = || async {
            let events =
                ["one", "two"].map(|t| Ok::<_, std::convert::Infallible>(Event::default().data(t)));
            Sse::new(futures::stream::iter(events))
        };
        let app = axum::Router::new().route("/events", axum::routing::get(events));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let served = tokio::spawn(super::super::conn::serve_connections(
            listener,
            app,
            super::super::HttpLimits::default(),
            async move {
                let _ = stopped.await;
            },
        ));
        let mut tls = tls_connect(client, addr).await;
        tls.write_all(
            b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n",
        )
        .await
        .expect("write");
        let response = read_to_close(&mut tls)
            .await
            .expect("the connection is closed after the stream's last chunk");
        let response = String::from_utf8_lossy(&response).to_ascii_lowercase();
        assert!(response.starts_with("http/1.1 200"), "{response}");
        assert!(response.contains("connection: close"), "{response}");
        assert!(
            response.contains("transfer-encoding: chunked"),
            "{response}"
        );
        let body = &response[response.find("\r\n\r\n").expect("head") + 4..];
        assert_eq!(
            body,
            "b\r\ndata: one\n\n\r\nb\r\ndata: two\n\n\r\n0\r\n\r\n"
        );
        let _ = stop.send(());
        tokio::time::timeout(WAIT, served)
            .await
            .expect("stopped")
            .expect("no panic");
    }
}
