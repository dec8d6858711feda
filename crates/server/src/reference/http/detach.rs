//! Held event streams leave hyper: once the head of an HTTP/1.1 `text/event-stream`
//! answer to a GET is on the wire, the connection is taken from hyper and the stream is
//! written by a small task of its own.
//!
//! Why: a client's standalone GET stream (`/mcp`) stays open for as long as its session
//! lives, usually idle. Served by hyper, every such connection keeps hyper's read buffer
//! (8 KiB, doubled once the request head is split off) and its buffer for response heads
//! (8 KiB), plus the connection's task: about 28 KiB allocated per held stream, which
//! neither hyper 1.x nor hyper-util lets us size. Written by [`stream`], the same stream
//! costs the socket, the body and a task of a few hundred bytes. HTTP/1.1 and nothing
//! else: the stream goes on in the chunked encoding hyper's head announced, and an
//! HTTP/1.0 or HTTP/2 stream stays with hyper.
//!
//! How:
//! - [`Handoff::offer`] sees every response of the connection. For an event stream it
//!   keeps the real body and gives hyper the same head with a body that stays empty;
//! - [`DetachableIo`], the connection as hyper sees it, notes that bytes were written
//!   after that, and at the flush that follows (the head is out: hyper flushes only an
//!   empty buffer) it hands the socket over and lets hyper's body end;
//! - from then on hyper talks to nothing: its writes (the last chunk of the empty body)
//!   are swallowed and its next read is the end of the connection, so its connection
//!   ends quietly and frees its buffers;
//! - the connection loop then spawns [`stream`] with the socket, the real body and the
//!   connection's slot under the connection cap.
//!
//! The head says `Connection: close`: the connection is not kept for another request
//! after the stream (a client would otherwise put it back in its pool and could send its
//! next request on a connection being closed).
//!
//! What hyper did for a held stream, [`stream`] does: each data frame as one chunk, the
//! last chunk when the body ends, the connection closed when the client closes it (the
//! body is dropped, so the session learns the stream is gone) or when the server shuts
//! down.

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker};

use axum::body::{Body, Bytes};
use axum::http::{Method, StatusCode, Version, header};
use axum::response::Response;
use futures::StreamExt;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::sync::watch;

/// The handover of one connection from hyper to [`stream`].
pub(super) struct Handoff<Io> {
    /// Whether a response waits for its head to be flushed (read on every write).
    armed: AtomicBool,
    stage: Mutex<Stage<Io>>,
}

/// Where the handover of a connection is.
enum Stage<Io> {
    /// Nothing to hand over.
    Idle,
    /// An event stream's head is being written by hyper; its real body waits here.
    Armed {
        body: Body,
        /// Bytes were written since the response was armed: the head, or part of it.
        wrote: bool,
        /// hyper's task, waiting on the empty body.
        waker: Option<Waker>,
    },
    /// The head is out: the socket and the real body, for [`stream`].
    Detached { io: Io, body: Body },
    /// Taken by the connection loop, or never detached.
    Over,
}

impl<Io: Send + 'static> Handoff<Io> {
    /// A connection with nothing to hand over yet.
    pub(super) fn new() -> Arc<Self> {
        Arc::new(Handoff {
            armed: AtomicBool::new(false),
            stage: Mutex::new(Stage::Idle),
        })
    }

    fn stage(&self) -> MutexGuard<'_, Stage<Io>> {
        self.stage.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// What hyper is given to write for a response to a request with `method` and
    /// `version`: an event stream to a GET over HTTP/1.1 is kept for [`stream`] and hyper
    /// gets its head with an empty body; anything else goes to hyper as it is.
    pub(super) fn offer(
        self: &Arc<Self>,
        method: &Method,
        version: Version,
        response: Response,
    ) -> Response {
        if method != Method::GET || version != Version::HTTP_11 || !is_held_stream(&response) {
            return response;
        }
        let mut stage = self.stage();
        if !matches!(*stage, Stage::Idle) {
            return response;
        }
        let (mut parts, body) = response.into_parts();
        // The connection ends with the stream: said in the head, so that no client puts
        // it back in its pool to send another request on it.
        parts.headers.insert(
            header::CONNECTION,
            header::HeaderValue::from_static("close"),
        );
        *stage = Stage::Armed {
            body,
            wrote: false,
            waker: None,
        };
        drop(stage);
        self.armed.store(true, Ordering::Release);
        let this = Arc::clone(self);
        let empty = futures::stream::poll_fn(move |cx| this.poll_empty(cx));
        Response::from_parts(parts, Body::from_stream(empty))
    }

    /// The body hyper writes for an armed response: nothing, and its end once the socket
    /// is handed over.
    fn poll_empty(&self, cx: &mut Context<'_>) -> Poll<Option<Result<Bytes, io::Error>>> {
        match &mut *self.stage() {
            Stage::Armed { waker, .. } => {
                *waker = Some(cx.waker().clone());
                Poll::Pending
            }
            _ => Poll::Ready(None),
        }
    }

    /// After a write of `n` bytes.
    fn wrote(&self, n: usize) {
        if n == 0 || !self.armed.load(Ordering::Acquire) {
            return;
        }
        if let Stage::Armed { wrote, .. } = &mut *self.stage() {
            *wrote = true;
        }
    }

    /// After a flush: once the head is out, the socket is handed over.
    fn flushed(&self, io: &mut Option<Io>) {
        if !self.armed.load(Ordering::Acquire) {
            return;
        }
        let mut stage = self.stage();
        if !matches!(*stage, Stage::Armed { wrote: true, .. }) {
            return;
        }
        let Some(socket) = io.take() else {
            return;
        };
        let Stage::Armed { body, waker, .. } = std::mem::replace(&mut *stage, Stage::Idle) else {
            unreachable!("matched above");
        };
        *stage = Stage::Detached { io: socket, body };
        self.armed.store(false, Ordering::Release);
        drop(stage);
        if let Some(waker) = waker {
            waker.wake();
        }
    }

    /// The socket and the real body, once hyper's connection has ended; `None` when
    /// nothing was handed over (an armed body is dropped, so its stream learns it is
    /// gone).
    pub(super) fn take(&self) -> Option<(Io, Body)> {
        match std::mem::replace(&mut *self.stage(), Stage::Over) {
            Stage::Detached { io, body } => Some((io, body)),
            _ => None,
        }
    }
}

/// An answer whose body [`stream`] can go on writing in hyper's place: `200`,
/// `text/event-stream`, its length unknown (so hyper announces chunks).
fn is_held_stream(response: &Response) -> bool {
    let headers = response.headers();
    response.status() == StatusCode::OK
        && !headers.contains_key(header::CONTENT_LENGTH)
        && !headers.contains_key(header::TRANSFER_ENCODING)
        && headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                v.split(';')
                    .next()
                    .is_some_and(|t| t.trim().eq_ignore_ascii_case("text/event-stream"))
            })
}

/// The connection as hyper sees it: the socket until it is handed over, nothing after
/// (writes are swallowed, a read is the end of the connection).
pub(super) struct DetachableIo<Io> {
    io: Option<Io>,
    handoff: Arc<Handoff<Io>>,
}

impl<Io> DetachableIo<Io> {
    pub(super) fn new(io: Io, handoff: Arc<Handoff<Io>>) -> Self {
        DetachableIo {
            io: Some(io),
            handoff,
        }
    }
}

impl<Io: AsyncRead + Unpin> AsyncRead for DetachableIo<Io> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match &mut self.get_mut().io {
            Some(io) => Pin::new(io).poll_read(cx, buf),
            None => Poll::Ready(Ok(())),
        }
    }
}

impl<Io: AsyncWrite + Unpin + Send + 'static> AsyncWrite for DetachableIo<Io> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let Some(io) = &mut this.io else {
            return Poll::Ready(Ok(buf.len()));
        };
        let written = Pin::new(io).poll_write(cx, buf);
        if let Poll::Ready(Ok(n)) = written {
            this.handoff.wrote(n);
        }
        written
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let Some(io) = &mut this.io else {
            return Poll::Ready(Ok(bufs.iter().map(|b| b.len()).sum()));
        };
        let written = Pin::new(io).poll_write_vectored(cx, bufs);
        if let Poll::Ready(Ok(n)) = written {
            this.handoff.wrote(n);
        }
        written
    }

    fn is_write_vectored(&self) -> bool {
        self.io.as_ref().is_some_and(AsyncWrite::is_write_vectored)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let Some(io) = &mut this.io else {
            return Poll::Ready(Ok(()));
        };
        let flushed = Pin::new(io).poll_flush(cx);
        if let Poll::Ready(Ok(())) = flushed {
            this.handoff.flushed(&mut this.io);
        }
        flushed
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match &mut self.get_mut().io {
            Some(io) => Pin::new(io).poll_shutdown(cx),
            None => Poll::Ready(Ok(())),
        }
    }
}

/// Writes `body` on `io` in the chunked encoding until the body ends (then the last
/// chunk), the client closes the connection, or `stop` says the server is shutting down.
/// `slot` (the connection's place under the cap) is held until then.
pub(super) async fn stream<Io, Slot>(
    mut io: Io,
    body: Body,
    mut stop: watch::Receiver<bool>,
    slot: Slot,
) where
    Io: AsyncRead + AsyncWrite + Unpin,
{
    enum Next {
        Frame(Option<Result<Bytes, axum::Error>>),
        Read(io::Result<usize>),
        Stop,
    }
    let mut frames = body.into_data_stream();
    // A client sends nothing on a held stream; what it does send is read and dropped.
    let mut probe = [0u8; 64];
    loop {
        let next = if *stop.borrow() {
            Next::Stop
        } else {
            tokio::select! {
                frame = frames.next() => Next::Frame(frame),
                read = io.read(&mut probe) => Next::Read(read),
                changed = stop.changed() => match changed {
                    Ok(()) => continue,
                    Err(_) => Next::Stop,
                },
            }
        };
        match next {
            Next::Frame(Some(Ok(data))) => {
                if data.is_empty() {
                    continue;
                }
                if let Err(e) = write_chunk(&mut io, &data).await {
                    tracing::trace!("held stream: the client is gone: {e}");
                    break;
                }
            }
            Next::Frame(Some(Err(e))) => {
                // As hyper does: the stream is cut without its last chunk.
                tracing::debug!("held stream: its body failed: {e}");
                break;
            }
            Next::Frame(None) => {
                let _ = io.write_all(b"0\r\n\r\n").await;
                let _ = io.shutdown().await;
                break;
            }
            Next::Read(Ok(0) | Err(_)) => break,
            Next::Read(Ok(_)) => {}
            Next::Stop => {
                // The stream ends as a finished answer would; the client may resume it
                // elsewhere with `Last-Event-ID`.
                let _ = tokio::time::timeout(std::time::Duration::from_secs(1), async {
                    let _ = io.write_all(b"0\r\n\r\n").await;
                    let _ = io.shutdown().await;
                })
                .await;
                break;
            }
        }
    }
    drop(frames);
    drop(slot);
}

/// One chunk: its size in hex, the data, CRLF; one write where the socket takes it.
async fn write_chunk<Io: AsyncWrite + Unpin>(io: &mut Io, data: &[u8]) -> io::Result<()> {
    let mut chunk = Vec::with_capacity(data.len() + 12);
    chunk.extend_from_slice(format!("{:x}\r\n", data.len()).as_bytes());
    chunk.extend_from_slice(data);
    chunk.extend_from_slice(b"\r\n");
    io.write_all(&chunk).await?;
    io.flush().await
}
