//! The limits every connection and request of the HTTP server lives within, and the
//! request checks that enforce the per-request ones before anything is parsed into a
//! typed model.
//!
//! - the body of a POST is read within [`HttpLimits::max_body_bytes`] (`/mcp`) or
//!   [`HttpLimits::max_page_body_bytes`] (the pages' forms): over it, 413;
//! - a JSON-RPC body on `/mcp` is then scanned (no allocation) for its nesting depth and
//!   its number of elements: over [`HttpLimits::max_json_depth`] or
//!   [`HttpLimits::max_json_elements`], 400 with a JSON-RPC error `-32000` whose `data`
//!   names the limit. So the memory a request can make the server allocate while parsing
//!   is a small multiple of its body (an array of two million zeros in 4 MB used to cost
//!   300 MB);
//! - `/mcp` checks `Host` (loopback names and the public URL's host) and `Origin` (the
//!   public URL's origin only; none at all, as non-browser clients send, is fine): a
//!   foreign or `null` origin gets 403, as the transport specification requires.

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use tokio_util::sync::CancellationToken;

use super::MCP_PATH;
pub(super) use crate::session_limits::limit_error;

/// Limits of the HTTP server. [`HttpLimits::default`] gives the documented defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HttpLimits {
    /// How long a client has to send a request's headers (and, on a new connection, to
    /// start its first request). Default 10 s.
    pub header_read_timeout: Duration,
    /// How long a connection with no request in progress is kept open. Default 60 s.
    pub idle_timeout: Duration,
    /// How many connections are served at once; one more is answered 503 and closed.
    /// Default 1024.
    pub max_connections: usize,
    /// The largest request body on `/mcp`. Default 1 MiB.
    pub max_body_bytes: usize,
    /// The largest request body elsewhere (the pages' forms). Default 64 KiB.
    pub max_page_body_bytes: usize,
    /// The deepest nesting of arrays and objects in a JSON-RPC body. Default 64.
    pub max_json_depth: usize,
    /// The most elements (values, members) in a JSON-RPC body. Default 20,000.
    pub max_json_elements: usize,
    /// Serve only connections from the OS user this process runs as (local mode, where
    /// every request without an authenticated principal is the local user). On Linux
    /// the owner of each loopback connection's client socket is read from
    /// `/proc/net/tcp` and `/proc/net/tcp6`; every request of a connection owned by
    /// another uid, or whose owner cannot be told (a non-loopback client, no `/proc`),
    /// gets `403` naming the rule. Elsewhere than Linux the owner cannot be told and
    /// every connection is served. A relay running as the server's user (a reverse
    /// proxy, an SSH tunnel) makes every connection through it the server's user's.
    /// Default `false` (a server with authorization has tokens to tell its users
    /// apart); `mcp-elicit serve` turns it on in local mode.
    pub only_own_os_user: bool,
    /// Whether an HTTP/1.1 event stream answering a GET (a client's standalone stream,
    /// held open for the session's life) leaves hyper once its head is written, to be
    /// written on by a small task of its own: hyper's connection buffers and task (about
    /// 28 KB per held stream) are freed. The stream's events are the same either way; a
    /// detached stream's head says `Connection: close`, since its connection ends with
    /// it. Default `true`.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use axum::response::sse::{Event, Sse};
    /// use mcp_elicit_server::reference::http::{HttpLimits, serve_router};
    /// use tokio::io::{AsyncReadExt, AsyncWriteExt};
    ///
    /// let events = || async {
    ///     Sse::new(futures::stream::iter([Ok::<_, std::convert::Infallible>(
    ///         Event::default().data("hi"),
    ///     )]))
    /// };
    /// let app = axum::Router::new().route("/events", axum::routing::get(events));
    /// let limits = HttpLimits::default();
    /// assert!(limits.detach_held_streams);
    /// let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    /// let addr = listener.local_addr()?;
    /// let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    /// let server = tokio::spawn(serve_router(listener, app, limits, async move {
    ///     let _ = stopped.await;
    /// }));
    /// let mut tcp = tokio::net::TcpStream::connect(addr).await?;
    /// tcp.write_all(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").await?;
    /// // Detached: the connection closes after the stream's last chunk.
    /// let mut answer = String::new();
    /// tcp.read_to_string(&mut answer).await?;
    /// assert!(answer.to_ascii_lowercase().contains("connection: close"));
    /// assert!(answer.ends_with("a\r\ndata: hi\n\n\r\n0\r\n\r\n"), "{answer:?}");
    /// let _ = stop.send(());
    /// server.await??;
    /// # Ok(())
    /// # }
    /// ```
    pub detach_held_streams: bool,
}

impl Default for HttpLimits {
    fn default() -> Self {
        HttpLimits {
            header_read_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            max_connections: 1024,
            max_body_bytes: 1024 * 1024,
            max_page_body_bytes: 64 * 1024,
            max_json_depth: 64,
            max_json_elements: 20_000,
            only_own_os_user: false,
            detach_held_streams: true,
        }
    }
}

/// The Streamable HTTP configuration of `/mcp` for a server whose public URL is
/// `public_url` (the base of its pages): `Host` may be a loopback name or the public
/// URL's host (so a reverse proxy that keeps the public host name works), `Origin` must
/// be absent or the public URL's origin.
pub fn mcp_config(public_url: &str, ct: CancellationToken) -> StreamableHttpServerConfig {
    let mut hosts: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "::1".into()];
    let mut origins = Vec::new();
    if let Ok(url) = url::Url::parse(public_url)
        && let Some(host) = url.host_str()
    {
        let host = host.trim_start_matches('[').trim_end_matches(']');
        // Any port: a proxy may send `Host` with or without the default port.
        hosts.push(host.to_owned());
        if let Some(p) = url.port_or_known_default() {
            origins.push(format!("{}://{}:{p}", url.scheme(), bracket(host)));
        }
    }
    StreamableHttpServerConfig::default()
        .with_cancellation_token(ct)
        .with_allowed_hosts(hosts)
        .with_allowed_origins(origins)
        .enforce_origin_validation()
}

fn bracket(host: &str) -> String {
    if host.contains(':') {
        format!("[{host}]")
    } else {
        host.to_owned()
    }
}

/// Middleware: reads a POST body within its route's limit and checks the JSON shape of
/// `/mcp` bodies before the request goes on.
pub(super) async fn check_body(
    State(limits): State<HttpLimits>,
    request: Request,
    next: Next,
) -> Response {
    if !matches!(
        *request.method(),
        Method::POST | Method::PUT | Method::PATCH
    ) {
        return next.run(request).await;
    }
    let mcp = request.uri().path() == MCP_PATH;
    let (limit, name) = if mcp {
        (limits.max_body_bytes, "max_body_bytes")
    } else {
        (limits.max_page_body_bytes, "max_page_body_bytes")
    };
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return too_large(name, limit);
    }
    let (parts, body) = request.into_parts();
    let mut stream = body.into_data_stream();
    let mut buf = Vec::with_capacity(declared.map_or(0, |n| n as usize).min(limit));
    while let Some(chunk) = stream.next().await {
        let Ok(chunk) = chunk else {
            return (
                StatusCode::BAD_REQUEST,
                "the request body could not be read",
            )
                .into_response();
        };
        if buf.len() + chunk.len() > limit {
            return too_large(name, limit);
        }
        buf.extend_from_slice(&chunk);
    }
    if mcp && let Err(e) = check_json_shape(&buf, limits.max_json_depth, limits.max_json_elements) {
        return limit_error(StatusCode::BAD_REQUEST, &e.limit, e.value, None);
    }
    next.run(Request::from_parts(parts, Body::from(Bytes::from(buf))))
        .await
}

fn too_large(name: &str, limit: usize) -> Response {
    limit_error(StatusCode::PAYLOAD_TOO_LARGE, name, limit, None)
}

/// Which JSON shape limit a body exceeds.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct ShapeError {
    limit: String,
    value: usize,
}

/// Checks the nesting depth and the number of elements of JSON text without parsing it
/// into values (malformed JSON passes: the JSON parser after this reports it).
/// Elements are counted as containers plus separators, a bound on the values a parser
/// allocates.
pub(super) fn check_json_shape(
    text: &[u8],
    max_depth: usize,
    max_elements: usize,
) -> Result<(), ShapeError> {
    let mut depth = 0usize;
    let mut elements = 0usize;
    let mut i = 0;
    while let Some(&b) = text.get(i) {
        i += 1;
        match b {
            // A string is skipped to its closing quote at memchr's pace (most of a body's
            // bytes are in strings: a sealed `requestState`, answers, messages); an
            // unterminated one ends the check, as the parser after this reports it.
            b'"' => loop {
                let Some(rest) = text.get(i..) else {
                    return Ok(());
                };
                match memchr::memchr2(b'"', b'\\', rest) {
                    None => return Ok(()),
                    Some(at) if rest[at] == b'\\' => i += at + 2,
                    Some(at) => {
                        i += at + 1;
                        break;
                    }
                }
            },
            b => structure(b, &mut depth, &mut elements, max_depth, max_elements)?,
        }
    }
    Ok(())
}

/// One byte outside strings: containers deepen (and count), closers end them, separators
/// count; past either limit, which one.
fn structure(
    b: u8,
    depth: &mut usize,
    elements: &mut usize,
    max_depth: usize,
    max_elements: usize,
) -> Result<(), ShapeError> {
    match b {
        b'[' | b'{' => {
            *depth += 1;
            *elements += 1;
            if *depth > max_depth {
                return Err(ShapeError {
                    limit: "max_json_depth".into(),
                    value: max_depth,
                });
            }
        }
        b']' | b'}' => *depth = depth.saturating_sub(1),
        b',' => *elements += 1,
        _ => {}
    }
    if *elements > max_elements {
        return Err(ShapeError {
            limit: "max_json_elements".into(),
            value: max_elements,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte-by-byte reading of strings this check replaced, kept as the oracle of
    /// its string skipping (the structure outside strings is the same `structure`).
    fn byte_by_byte(text: &[u8], max_depth: usize, max_elements: usize) -> Result<(), ShapeError> {
        let (mut depth, mut elements, mut in_string, mut escaped) = (0usize, 0usize, false, false);
        for &b in text {
            if in_string {
                match (escaped, b) {
                    (true, _) => escaped = false,
                    (false, b'\\') => escaped = true,
                    (false, b'"') => in_string = false,
                    _ => {}
                }
            } else if b == b'"' {
                in_string = true;
            } else {
                structure(b, &mut depth, &mut elements, max_depth, max_elements)?;
            }
        }
        Ok(())
    }

    proptest::proptest! {
        /// Skipping strings with memchr decides exactly as reading every byte did, on
        /// any text of the characters that matter (escapes at the end, unterminated
        /// strings, escaped quotes and backslashes included).
        #[test]
        fn skipping_strings_decides_as_reading_every_byte(
            text in proptest::collection::vec(proptest::sample::select(
                b"\"\\[]{},a ".to_vec()), 0..64),
            max_depth in 0usize..6,
            max_elements in 0usize..12,
        ) {
            proptest::prop_assert_eq!(
                check_json_shape(&text, max_depth, max_elements),
                byte_by_byte(&text, max_depth, max_elements)
            );
        }
    }

    #[test]
    fn json_shape_counts_depth_and_elements_outside_strings() {
        assert_eq!(check_json_shape(br#"{"a":[1,2,3]}"#, 2, 10), Ok(()));
        assert_eq!(
            check_json_shape(b"[[[1]]]", 2, 10).map_err(|e| e.limit),
            Err("max_json_depth".into())
        );
        let zeros = format!("[{}0]", "0,".repeat(100));
        assert_eq!(
            check_json_shape(zeros.as_bytes(), 8, 50).map_err(|e| e.limit),
            Err("max_json_elements".into())
        );
        // Brackets and commas inside strings (escaped quotes too) are text.
        assert_eq!(check_json_shape(br#"["[[[,,,\"[[[,,"]"#, 1, 2), Ok(()));
    }

    #[test]
    fn mcp_config_allows_the_public_host_and_origin() {
        let c = mcp_config("https://mcp.example.com", CancellationToken::new());
        assert!(c.allowed_hosts.contains(&"mcp.example.com".to_owned()));
        assert!(c.allowed_hosts.contains(&"127.0.0.1".to_owned()));
        assert_eq!(
            c.allowed_origins,
            vec!["https://mcp.example.com:443".to_owned()]
        );
        let local = mcp_config("http://127.0.0.1:8391", CancellationToken::new());
        assert_eq!(
            local.allowed_origins,
            vec!["http://127.0.0.1:8391".to_owned()]
        );
    }
}
