//! A TCP forwarder between a server and its database, that a test stops and starts again:
//! the database "goes away" for the server (every connection through it closed, new ones
//! refused) while the real database stays up for everyone else on the machine.
#![allow(dead_code, unreachable_pub)]

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// The forwarder on `127.0.0.1:port` to `upstream`.
pub struct Proxy {
    /// The port the server connects to.
    pub port: u16,
    upstream: SocketAddr,
    accept: Option<JoinHandle<()>>,
    connections: Arc<Mutex<Vec<JoinHandle<()>>>>,
}

impl Proxy {
    /// Starts forwarding from a free loopback port to `upstream`.
    pub async fn start(upstream: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind proxy");
        let port = listener.local_addr().expect("addr").port();
        let mut proxy = Proxy {
            port,
            upstream,
            accept: None,
            connections: Arc::new(Mutex::new(Vec::new())),
        };
        proxy.run(listener);
        proxy
    }

    fn run(&mut self, listener: TcpListener) {
        let upstream = self.upstream;
        let connections = self.connections.clone();
        self.accept = Some(tokio::spawn(async move {
            loop {
                let Ok((mut inbound, _)) = listener.accept().await else {
                    continue;
                };
                let task = tokio::spawn(async move {
                    if let Ok(mut outbound) = TcpStream::connect(upstream).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                connections.lock().expect("lock").push(task);
            }
        }));
    }

    /// The database goes away: the listener closes (new connections are refused) and
    /// every forwarded connection is dropped (the server sees them closed).
    pub async fn stop(&mut self) {
        if let Some(accept) = self.accept.take() {
            accept.abort();
            let _ = accept.await;
        }
        let tasks: Vec<_> = self.connections.lock().expect("lock").drain(..).collect();
        for task in tasks {
            task.abort();
            let _ = task.await;
        }
    }

    /// The database is back on the same port.
    pub async fn resume(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        let listener = loop {
            match TcpListener::bind(("127.0.0.1", self.port)).await {
                Ok(l) => break l,
                Err(e) => {
                    assert!(Instant::now() < deadline, "rebind the proxy: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        };
        self.run(listener);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        if let Some(accept) = self.accept.take() {
            accept.abort();
        }
        for task in self.connections.lock().expect("lock").drain(..) {
            task.abort();
        }
    }
}
