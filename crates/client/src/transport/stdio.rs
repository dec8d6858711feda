//! Newline-delimited JSON-RPC (the MCP stdio transport) with raw capture.
//!
//! Lines that are not JSON, or longer than [`MAX_LINE_BYTES`], are skipped with a warning.
//! A request rmcp cannot parse is answered with a JSON-RPC error (see the
//! [module docs](crate::transport)) instead of being dropped.

use std::io;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use rmcp::RoleClient;
use rmcp::model::JsonRpcMessage;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde::Deserialize;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::Mutex;
use tokio_util::codec::{FramedRead, LinesCodec, LinesCodecError};

use crate::raw::RawRequests;
use crate::transport::reject;

/// Longest line accepted from the server (16 MiB, like rmcp's own stdio transport);
/// longer lines are skipped.
///
/// ```
/// assert_eq!(mcp_elicit_client::transport::stdio::MAX_LINE_BYTES, 16 * 1024 * 1024);
/// ```
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// MCP stdio framing over a reader and a writer, capturing raw `elicitation/create` params.
///
/// Lines that are not JSON are skipped; a request rmcp cannot read is answered with a
/// JSON-RPC error on the spot, so the server does not wait forever:
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use mcp_elicit_client::RawRequests;
/// use mcp_elicit_client::rmcp::model::{JsonRpcMessage, NumberOrString};
/// use mcp_elicit_client::rmcp::transport::Transport;
/// use mcp_elicit_client::transport::stdio::LineTransport;
/// use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
///
/// let (client_io, server_io) = tokio::io::duplex(1 << 16);
/// let (r, w) = tokio::io::split(client_io);
/// let raw = RawRequests::default();
/// let mut transport = LineTransport::new(r, w, raw.clone());
///
/// let (server_r, mut server_w) = tokio::io::split(server_io);
/// server_w.write_all(concat!(
///     "a log line, not JSON\n",
///     r#"{"jsonrpc":"2.0","id":5,"method":42}"#, "\n", // unreadable: `method` is a number
///     r#"{"jsonrpc":"2.0","id":6,"method":"elicitation/create","params":{"message":"Name?","requestedSchema":{"type":"object","properties":{"n":{"type":"string","pattern":"^A"}}}}}"#, "\n",
/// ).as_bytes()).await?;
///
/// // rmcp gets the elicitation request (typed, without `pattern`)...
/// let Some(JsonRpcMessage::Request(request)) = transport.receive().await else { panic!() };
/// assert_eq!(request.id, NumberOrString::Number(6));
/// // ...and the raw params, `pattern` included, wait for the handler.
/// let params = raw.take(&NumberOrString::Number(6)).unwrap();
/// assert_eq!(params["requestedSchema"]["properties"]["n"]["pattern"], "^A");
///
/// // The server got an error for request 5.
/// let reply = BufReader::new(server_r).lines().next_line().await?.unwrap();
/// let reply: serde_json::Value = serde_json::from_str(&reply)?;
/// assert_eq!((reply["id"].as_i64(), reply["error"]["code"].as_i64()), (Some(5), Some(-32600)));
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct LineTransport<R, W> {
    reader: FramedRead<R, LinesCodec>,
    writer: Arc<Mutex<Option<W>>>,
    raw: RawRequests,
    child: Option<Child>,
}

impl<R, W> LineTransport<R, W>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    /// Frames `reader`/`writer`; raw requests go to `raw`. Lines are at most
    /// [`MAX_LINE_BYTES`]. What [`ElicitationClient::connect_io`](crate::ElicitationClient::connect_io)
    /// uses, with the client's own [`RawRequests`]; see [`LineTransport`] for an example.
    pub fn new(reader: R, writer: W, raw: RawRequests) -> Self {
        Self {
            reader: FramedRead::new(reader, LinesCodec::new_with_max_length(MAX_LINE_BYTES)),
            writer: Arc::new(Mutex::new(Some(writer))),
            raw,
            child: None,
        }
    }
}

/// Starts `command[0]` with arguments `command[1..]` (no shell), its stdin/stdout as the
/// transport and its stderr inherited. The child is killed when the transport closes or
/// is dropped (on close, after two seconds for it to exit once its stdin is closed).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use mcp_elicit_client::RawRequests;
/// use mcp_elicit_client::transport::stdio::spawn;
///
/// let empty = spawn(&[], RawRequests::default()).unwrap_err();
/// assert_eq!(empty.kind(), std::io::ErrorKind::InvalidInput);
///
/// let missing = spawn(&["/nonexistent/server".into()], RawRequests::default()).unwrap_err();
/// assert_eq!(missing.kind(), std::io::ErrorKind::NotFound);
/// assert!(missing.to_string().starts_with("cannot start \"/nonexistent/server\""));
/// # }
/// ```
pub fn spawn(
    command: &[String],
    raw: RawRequests,
) -> io::Result<LineTransport<ChildStdout, ChildStdin>> {
    let Some((program, args)) = command.split_first() else {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "empty command"));
    };
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| io::Error::new(e.kind(), format!("cannot start {program:?}: {e}")))?;
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(io::Error::other("child pipes unavailable"));
    };
    let mut transport = LineTransport::new(stdout, stdin, raw);
    transport.child = Some(child);
    Ok(transport)
}

impl<R, W> Transport<RoleClient> for LineTransport<R, W>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), io::Error>> + Send + 'static {
        let writer = self.writer.clone();
        async move {
            let mut line = serde_json::to_vec(&item).map_err(io::Error::other)?;
            line.push(b'\n');
            let mut guard = writer.lock().await;
            let w = guard
                .as_mut()
                .ok_or_else(|| io::Error::new(io::ErrorKind::BrokenPipe, "transport closed"))?;
            w.write_all(&line).await?;
            w.flush().await
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        loop {
            let line = match self.reader.next().await? {
                Ok(line) => line,
                Err(LinesCodecError::MaxLineLengthExceeded) => {
                    tracing::warn!(
                        limit = MAX_LINE_BYTES,
                        "skipping an over-long line from the server"
                    );
                    continue;
                }
                Err(LinesCodecError::Io(e)) => {
                    tracing::debug!(error = %e, "stdio transport read failed");
                    return None;
                }
            };
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let value: serde_json::Value = match serde_json::from_str(line) {
                Ok(v) => v,
                Err(e) => {
                    tracing::warn!(error = %e, "skipping a line that is not JSON");
                    continue;
                }
            };
            self.raw.observe(&value);
            match RxJsonRpcMessage::<RoleClient>::deserialize(&value) {
                Ok(message) => return Some(message),
                Err(e) => {
                    let replies = reject::unparsed(&value, &e.to_string());
                    if replies.is_empty() {
                        tracing::warn!(error = %e, "skipping a message that is not JSON-RPC");
                    }
                    for reply in replies {
                        tracing::warn!(
                            id = ?reply.id,
                            reason = %reply.error.message,
                            "answering a request that is not valid JSON-RPC with an error"
                        );
                        // A failed write means the server is gone: the next read ends too.
                        if let Err(e) = self.send(JsonRpcMessage::Error(reply)).await {
                            tracing::debug!(error = %e, "could not answer an invalid request");
                        }
                    }
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), io::Error> {
        if let Some(mut w) = self.writer.lock().await.take() {
            let _ = w.shutdown().await;
        }
        if let Some(mut child) = self.child.take() {
            // Closing stdin asks the server to exit; give it a moment, then kill it.
            if tokio::time::timeout(Duration::from_secs(2), child.wait())
                .await
                .is_err()
            {
                let _ = child.kill().await;
            }
        }
        Ok(())
    }
}
