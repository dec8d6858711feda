//! The last step before the wire: a 2026-07-28 round goes out with the exact JSON of
//! its input requests, not rmcp's typed (lossy) model of them.
//!
//! [`InputRound::to_result`](crate::InputRound::to_result) keeps the exact requests in
//! a private `_meta` member of rmcp's typed `InputRequiredResult`; what is here moves
//! them into `inputRequests` (and drops the member) on the way out:
//! [`EdgeTransport`] for any rmcp transport (stdio, in-memory pipes) and
//! [`exact_rounds_http`] for Streamable HTTP bodies (JSON or SSE), which rmcp
//! serializes itself. Messages without the member pass through unchanged.

use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::header;
use axum::middleware::Next;
use axum::response::Response;
use futures::{Stream, StreamExt};
use rmcp::RoleServer;
use rmcp::model::{CustomResult, JsonRpcMessage, ServerResult};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::transport::async_rw::AsyncRwTransport;
use serde_json::Value;

use crate::respond::EXACT_REQUESTS_META;

/// Put in a request's extensions by a front that writes the request's answer itself and
/// moves a round's exact requests into `inputRequests` on the way, whatever its size
/// (`HttpFront`): the rounds of that request are built
/// without rmcp's typed copy of their requests, which nothing would read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WritesRoundsExactly;

/// Moves the exact requests of a round into `inputRequests`, in a result's JSON.
/// Returns whether anything changed.
fn exact_in_result(result: &mut Value) -> bool {
    let Value::Object(map) = result else {
        return false;
    };
    let Some(Value::Object(meta)) = map.get_mut("_meta") else {
        return false;
    };
    let Some(exact) = meta.remove(EXACT_REQUESTS_META) else {
        return false;
    };
    if meta.is_empty() {
        map.remove("_meta");
    }
    map.insert("inputRequests".into(), exact);
    // A round with no state carries an empty placeholder in rmcp's typed form.
    if map.get("requestState") == Some(&Value::String(String::new())) {
        map.remove("requestState");
    }
    map.insert("resultType".into(), Value::String("input_required".into()));
    true
}

/// A server result with a round's exact requests.
pub(crate) fn exact_result(result: ServerResult) -> ServerResult {
    let Ok(mut value) = serde_json::to_value(&result) else {
        return result;
    };
    if exact_in_result(&mut value) {
        ServerResult::CustomResult(CustomResult::new(value))
    } else {
        result
    }
}

/// One JSON-RPC message (text) with a round's exact requests; `None` when unchanged.
///
/// A single message is rewritten in its text ([`splice_round`]: the exact requests
/// move as the bytes they are, nothing else is parsed into values or written again);
/// a batch, or text the splice does not take, goes through [`exact_message_value`].
pub(crate) fn exact_message_text(text: &str) -> Option<String> {
    if !text.contains(EXACT_REQUESTS_META) {
        return None;
    }
    splice_round(text).or_else(|| exact_message_value(text))
}

/// [`exact_message_text`] through `serde_json::Value` (every message of a batch).
fn exact_message_value(text: &str) -> Option<String> {
    let mut value: Value = serde_json::from_str(text).ok()?;
    let changed = match &mut value {
        Value::Object(msg) => msg.get_mut("result").is_some_and(exact_in_result),
        // Every message of a batch, not only the first match.
        Value::Array(batch) => {
            batch
                .iter_mut()
                .map(|m| m.get_mut("result").is_some_and(exact_in_result))
                .filter(|changed| *changed)
                .count()
                > 0
        }
        _ => false,
    };
    changed.then(|| value.to_string())
}

/// A member of a JSON object in a text: where its key (inside the quotes) and its value
/// are.
struct Member {
    key: std::ops::Range<usize>,
    value: std::ops::Range<usize>,
}

/// The first byte at or after `i` that is not JSON whitespace.
fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = b.get(i) {
        i += 1;
    }
    i
}

/// The end (exclusive) of the JSON string starting at `b[i] == '"'`.
fn skip_string(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while let Some(&c) = b.get(j) {
        match c {
            b'\\' => j += 2,
            b'"' => return Some(j + 1),
            _ => j += 1,
        }
    }
    None
}

/// The end (exclusive) of the JSON value starting at `b[i]` (no whitespace before it).
fn skip_value(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => skip_string(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            while let Some(&c) = b.get(j) {
                match c {
                    b'"' => {
                        j = skip_string(b, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            None
        }
        _ => {
            let mut j = i;
            while let Some(&c) = b.get(j) {
                if matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                    break;
                }
                j += 1;
            }
            (j > i).then_some(j)
        }
    }
}

/// The members of the JSON object starting at `b[i] == '{'`; None when it is not one.
fn members(b: &[u8], i: usize) -> Option<Vec<Member>> {
    if b.get(i) != Some(&b'{') {
        return None;
    }
    let mut out = Vec::new();
    let mut j = skip_ws(b, i + 1);
    if b.get(j) == Some(&b'}') {
        return Some(out);
    }
    loop {
        if b.get(j) != Some(&b'"') {
            return None;
        }
        let key_end = skip_string(b, j)?;
        let key = j + 1..key_end - 1;
        j = skip_ws(b, key_end);
        if b.get(j) != Some(&b':') {
            return None;
        }
        j = skip_ws(b, j + 1);
        let end = skip_value(b, j)?;
        out.push(Member { key, value: j..end });
        j = skip_ws(b, end);
        match b.get(j) {
            Some(b',') => j = skip_ws(b, j + 1),
            Some(b'}') => return Some(out),
            _ => return None,
        }
    }
}

/// [`exact_in_result`] on the text of one JSON-RPC message, by splicing: the result's
/// members are kept as they are written, the exact requests move from `_meta` into
/// `inputRequests` as their bytes, `resultType` is set and an empty `requestState`
/// dropped. None when the text is not one message with a round (a batch, a message
/// without the member, text that is not a JSON object).
fn splice_round(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let key = |m: &Member| &text[m.key.clone()];
    let top = members(b, skip_ws(b, 0))?;
    let result = top.iter().find(|m| key(m) == "result")?;
    let fields = members(b, result.value.start)?;
    let meta = fields.iter().find(|m| key(m) == "_meta")?;
    let meta_fields = members(b, meta.value.start)?;
    let exact = meta_fields
        .iter()
        .position(|m| key(m) == EXACT_REQUESTS_META)?;
    // A member as written: from its key's opening quote to the end of its value.
    let raw = |m: &Member| &text[m.key.start - 1..m.value.end];
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..result.value.start]);
    out.push('{');
    let mut sep = "";
    for field in &fields {
        match key(field) {
            "inputRequests" | "resultType" => continue,
            // A round with no state carries an empty placeholder in rmcp's typed form.
            "requestState" if &text[field.value.clone()] == "\"\"" => continue,
            "_meta" => {
                let mut rest = meta_fields
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != exact)
                    .map(|(_, m)| raw(m))
                    .peekable();
                if rest.peek().is_none() {
                    continue;
                }
                out.push_str(sep);
                out.push_str("\"_meta\":{");
                let mut inner = "";
                for m in rest {
                    out.push_str(inner);
                    out.push_str(m);
                    inner = ",";
                }
                out.push('}');
            }
            _ => {
                out.push_str(sep);
                out.push_str(raw(field));
            }
        }
        sep = ",";
    }
    out.push_str(sep);
    out.push_str("\"inputRequests\":");
    out.push_str(&text[meta_fields[exact].value.clone()]);
    out.push_str(",\"resultType\":\"input_required\"}");
    out.push_str(&text[result.value.end..]);
    Some(out)
}

/// Any rmcp transport, with rounds sent exactly (see the [module](self)).
#[derive(Debug)]
pub struct EdgeTransport<T> {
    inner: T,
}

impl<T> EdgeTransport<T> {
    /// `inner` with rounds sent exactly.
    pub fn new(inner: T) -> Self {
        Self { inner }
    }
}

impl<T: Transport<RoleServer>> Transport<RoleServer> for EdgeTransport<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let item = match item {
            JsonRpcMessage::Response(mut response) => {
                response.result = exact_result(response.result);
                JsonRpcMessage::Response(response)
            }
            other => other,
        };
        self.inner.send(item)
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleServer>>> + Send {
        self.inner.receive()
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

/// `read`/`write` (stdin/stdout, a pipe) as a server transport with rounds sent
/// exactly: `handler.serve(edge_rw(stdin, stdout))`.
///
/// A stdio server (the handler behind [`Edge`](crate::Edge), as every handler):
///
/// ```no_run
/// use mcp_elicit_server::Edge;
/// use mcp_elicit_server::wire::edge_rw;
/// use rmcp::{ServerHandler, ServiceExt};
///
/// struct MyServer; // your handler, with its tools
/// impl ServerHandler for MyServer {}
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let running = Edge::new(MyServer)
///     .serve(edge_rw(tokio::io::stdin(), tokio::io::stdout()))
///     .await?;
/// running.waiting().await?;
/// # Ok(())
/// # }
/// ```
pub fn edge_rw<R, W>(read: R, write: W) -> EdgeTransport<AsyncRwTransport<RoleServer, R, W>>
where
    R: tokio::io::AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    EdgeTransport::new(AsyncRwTransport::new_server(read, write))
}

/// The largest JSON response body rewritten (larger ones pass unchanged; rounds are
/// small).
const MAX_JSON_BODY: usize = 4 * 1024 * 1024;

/// Axum middleware for the MCP endpoint (`axum::middleware::from_fn(exact_rounds_http)`):
/// rounds in JSON bodies and SSE events go out with their exact requests.
///
/// Layer it over the route of your `StreamableHttpService`:
///
/// ```
/// use std::sync::Arc;
///
/// use mcp_elicit_server::Edge;
/// use mcp_elicit_server::wire::exact_rounds_http;
/// use rmcp::ServerHandler;
/// use rmcp::transport::StreamableHttpService;
/// use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
///
/// #[derive(Clone)]
/// struct MyServer; // your handler, with its tools
/// impl ServerHandler for MyServer {}
///
/// let mcp = StreamableHttpService::new(
///     || Ok(Edge::new(MyServer)),
///     Arc::new(LocalSessionManager::default()),
///     Default::default(),
/// );
/// let app: axum::Router = axum::Router::new()
///     .nest_service("/mcp", mcp)
///     .layer(axum::middleware::from_fn(exact_rounds_http));
/// // axum::serve(listener, app) (axum's `http1` and `tokio` features)
/// # let _ = app;
/// ```
pub async fn exact_rounds_http(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let kind = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or_default()
                .trim()
                .to_ascii_lowercase()
        });
    match kind.as_deref() {
        Some("application/json") => {
            // A body larger than any round passes untouched: reading it would cap what a
            // tool may return. One of unknown size (a layer outside rmcp streams it) is
            // read up to that size; past it, what was read goes on before the rest.
            let too_big =
                axum::body::HttpBody::size_hint(response.body()).lower() > MAX_JSON_BODY as u64;
            if too_big {
                return response;
            }
            let (mut parts, body) = response.into_parts();
            let mut stream = body.into_data_stream();
            let mut bytes = Vec::new();
            while let Some(chunk) = stream.next().await {
                let Ok(chunk) = chunk else {
                    tracing::warn!("a JSON response body could not be read for the round rewrite");
                    parts.headers.remove(header::CONTENT_LENGTH);
                    return Response::from_parts(parts, Body::empty());
                };
                bytes.extend_from_slice(&chunk);
                if bytes.len() > MAX_JSON_BODY {
                    let head = futures::stream::once(std::future::ready(Ok::<_, axum::Error>(
                        Bytes::from(bytes),
                    )));
                    return Response::from_parts(parts, Body::from_stream(head.chain(stream)));
                }
            }
            let body = match std::str::from_utf8(&bytes)
                .ok()
                .and_then(exact_message_text)
            {
                Some(text) => {
                    parts.headers.remove(header::CONTENT_LENGTH);
                    Body::from(text)
                }
                None => Body::from(bytes),
            };
            Response::from_parts(parts, body)
        }
        Some("text/event-stream") => {
            let (parts, body) = response.into_parts();
            let events = SseRewrite {
                inner: Box::pin(body.into_data_stream()),
                pending: Vec::new(),
                scanned: 0,
                done: false,
            };
            Response::from_parts(parts, Body::from_stream(events))
        }
        _ => response,
    }
}

/// An SSE body, event by event, with each `data:` message rewritten.
///
/// A chunk that holds whole events and no round passes as it came (no copy, no scan of
/// its events); otherwise bytes wait in `pending` until an event is complete, and only
/// the bytes not searched yet are searched for its end.
struct SseRewrite {
    inner: Pin<Box<dyn Stream<Item = Result<Bytes, axum::Error>> + Send>>,
    /// Bytes of an event not complete yet.
    pending: Vec<u8>,
    /// How much of `pending` holds no event end (searching again starts there).
    scanned: usize,
    done: bool,
}

/// The end of the first complete event in `buf` (after its blank line), searching from
/// `from` (a blank line may start up to 3 bytes before it).
fn event_end(buf: &[u8], from: usize) -> Option<usize> {
    (from.saturating_sub(3)..buf.len()).find_map(|i| {
        if buf[i..].starts_with(b"\n\n") {
            Some(i + 2)
        } else if buf[i..].starts_with(b"\r\n\r\n") {
            Some(i + 4)
        } else {
            None
        }
    })
}

/// Whether `chunk` may hold a round: it names the private member (or is not UTF-8, which
/// the slow path passes unchanged too).
fn may_hold_round(chunk: &[u8]) -> bool {
    std::str::from_utf8(chunk).map_or(true, |t| t.contains(EXACT_REQUESTS_META))
}

/// Whether `chunk` ends where an event ends.
fn ends_an_event(chunk: &[u8]) -> bool {
    chunk.ends_with(b"\n\n") || chunk.ends_with(b"\r\n\r\n")
}

/// One SSE event with its `data:` message rewritten (one data line: rmcp writes the
/// message on one line); returned as it came when it holds no round.
fn rewrite_event(event: Vec<u8>) -> Vec<u8> {
    let Ok(text) = std::str::from_utf8(&event) else {
        return event;
    };
    if !text.contains(EXACT_REQUESTS_META) {
        return event;
    }
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix("\r\n") {
            Some(b) => (b, "\r\n"),
            None => match line.strip_suffix('\n') {
                Some(b) => (b, "\n"),
                None => (line, ""),
            },
        };
        match body
            .strip_prefix("data:")
            .map(|d| d.strip_prefix(' ').unwrap_or(d))
            .and_then(exact_message_text)
        {
            Some(message) => {
                out.push_str("data: ");
                out.push_str(&message);
                out.push_str(end);
            }
            None => out.push_str(line),
        }
    }
    out.into_bytes()
}

impl Stream for SseRewrite {
    type Item = Result<Bytes, axum::Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            let from = self.scanned;
            if let Some(end) = event_end(&self.pending, from) {
                let rest = self.pending.split_off(end);
                let event = std::mem::replace(&mut self.pending, rest);
                self.scanned = 0;
                return Poll::Ready(Some(Ok(Bytes::from(rewrite_event(event)))));
            }
            self.scanned = self.pending.len();
            if self.done {
                if self.pending.is_empty() {
                    return Poll::Ready(None);
                }
                let rest = std::mem::take(&mut self.pending);
                return Poll::Ready(Some(Ok(Bytes::from(rest))));
            }
            match self.inner.poll_next_unpin(cx) {
                Poll::Ready(Some(Ok(chunk))) => {
                    // Whole events without a round: on as they came.
                    if self.pending.is_empty() && ends_an_event(&chunk) && !may_hold_round(&chunk) {
                        return Poll::Ready(Some(Ok(chunk)));
                    }
                    self.pending.extend_from_slice(&chunk);
                }
                Poll::Ready(Some(Err(e))) => return Poll::Ready(Some(Err(e))),
                Poll::Ready(None) => self.done = true,
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn stashed() -> Value {
        json!({"jsonrpc": "2.0", "id": 1, "result": {
            "resultType": "input_required",
            "inputRequests": {"q": {"method": "elicitation/create", "params": {}}},
            "requestState": "s",
            "_meta": {EXACT_REQUESTS_META: {"q": {"method": "elicitation/create",
                "params": {"requestedSchema": {"properties": {"h": {"type": "string", "pattern": "^a$"}}}}}}}
        }})
    }

    #[test]
    fn the_splice_gives_what_the_value_rewrite_gives() {
        let tricky = json!({"q": {"method": "elicitation/create", "params": {"message": "a } ] \\\" { [ , :",
            "requestedSchema": {"type": "object", "properties": {"h": {"type": "string", "pattern": "^[{}\\]\"]+$"}},
            "required": ["h"]}}, "n": [1.5e300, -0.0, null, true, {}]}});
        let messages = [
            stashed(),
            // No state: the empty placeholder goes; other `_meta` members stay.
            json!({"jsonrpc": "2.0", "id": "x", "result": {
                "resultType": "input_required", "inputRequests": {}, "requestState": "",
                "_meta": {"other": {"k": [1, 2]}, EXACT_REQUESTS_META: tricky.clone(), "last": "v"}
            }}),
            // `_meta` first, no typed requests, no resultType yet.
            json!({"id": 7, "result": {"_meta": {EXACT_REQUESTS_META: tricky}, "requestState": "s.t"}, "jsonrpc": "2.0"}),
        ];
        for message in messages {
            for text in [
                message.to_string(),
                serde_json::to_string_pretty(&message).expect("json"),
            ] {
                let spliced = splice_round(&text).expect("spliced");
                let by_value = exact_message_value(&text).expect("rewritten");
                assert_eq!(
                    serde_json::from_str::<Value>(&spliced).expect("spliced is JSON"),
                    serde_json::from_str::<Value>(&by_value).expect("json"),
                    "{text}"
                );
                assert_eq!(exact_message_text(&text), Some(spliced));
            }
        }
        // The exact requests arrive as they were written.
        let text = stashed().to_string();
        let exact = stashed()["result"]["_meta"][EXACT_REQUESTS_META].to_string();
        assert!(
            splice_round(&text)
                .expect("spliced")
                .contains(&format!("\"inputRequests\":{exact}"))
        );
        // No round, a batch, not JSON: not spliced; a batch still goes through values.
        assert_eq!(
            splice_round(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            None
        );
        assert_eq!(
            splice_round(&format!(
                "{{\"result\":{{\"_meta\":{{\"{EXACT_REQUESTS_META}\":"
            )),
            None
        );
        let batch = Value::Array(vec![stashed(), stashed()]).to_string();
        assert_eq!(splice_round(&batch), None);
        let out: Value =
            serde_json::from_str(&exact_message_text(&batch).expect("batch")).expect("json");
        assert!(out[1]["result"].get("_meta").is_none());
    }

    #[test]
    fn messages_and_sse_events_get_the_exact_requests_and_others_pass_unchanged() {
        let text = exact_message_text(&stashed().to_string()).expect("rewritten");
        let value: Value = serde_json::from_str(&text).expect("json");
        assert_eq!(
            value["result"]["inputRequests"]["q"]["params"]["requestedSchema"]["properties"]["h"]["pattern"],
            "^a$"
        );
        assert!(value["result"].get("_meta").is_none());
        assert_eq!(
            exact_message_text(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            None
        );

        let event = format!("id: 0\nevent: message\ndata: {}\n\n", stashed());
        let out = String::from_utf8(rewrite_event(event.clone().into_bytes())).expect("utf8");
        assert!(out.starts_with("id: 0\nevent: message\ndata: {"), "{out}");
        assert!(
            out.ends_with("}\n\n")
                && out.contains("\"pattern\":\"^a$\"")
                && !out.contains(EXACT_REQUESTS_META),
            "{out}"
        );
        assert_eq!(event_end(b"data: x\n\ndata: y", 0), Some(9));
        assert_eq!(event_end(b"data: x\r\n\r\n", 0), Some(11));
        assert_eq!(event_end(b"data: x\n", 0), None);
        // A search resumed past the first of the blank line's bytes still finds it.
        assert_eq!(event_end(b"data: x\r\n\r\n", 9), Some(11));
        assert_eq!(event_end(b"data: x\n\n", 8), Some(9));
    }

    /// What an SSE body of `chunks` becomes on the way out.
    async fn rewritten(chunks: Vec<Bytes>) -> Vec<Bytes> {
        let inner = futures::stream::iter(chunks.into_iter().map(Ok));
        SseRewrite {
            inner: Box::pin(inner),
            pending: Vec::new(),
            scanned: 0,
            done: false,
        }
        .map(|r| r.expect("chunk"))
        .collect()
        .await
    }

    #[tokio::test]
    async fn sse_chunks_without_a_round_pass_as_they_came_and_split_rounds_are_rewritten() {
        // Whole events without a round: the very same bytes (not a copy).
        let plain = Bytes::from_static(b"id: 1\ndata: {\"jsonrpc\":\"2.0\"}\n\ndata: {}\n\n");
        let out = rewritten(vec![plain.clone()]).await;
        assert_eq!(out, std::slice::from_ref(&plain));
        assert_eq!(out[0].as_ptr(), plain.as_ptr());

        // A round split over three chunks, behind a plain event in the same chunk, and an
        // incomplete tail at the end of the body.
        let round = format!("data: {}\n\n", stashed());
        let (a, b) = round.as_bytes().split_at(20);
        let (b, c) = b.split_at(b.len() - 1);
        let first = [b"data: {}\n\n".as_slice(), a].concat();
        let out = rewritten(vec![
            Bytes::from(first),
            Bytes::copy_from_slice(b),
            Bytes::copy_from_slice(c),
            Bytes::from_static(b"data: tail"),
        ])
        .await;
        let text: Vec<String> = out
            .iter()
            .map(|b| String::from_utf8(b.to_vec()).expect("utf8"))
            .collect();
        assert_eq!(text.len(), 3, "{text:?}");
        assert_eq!(text[0], "data: {}\n\n");
        assert!(
            text[1].contains("\"pattern\":\"^a$\"") && !text[1].contains(EXACT_REQUESTS_META),
            "{}",
            text[1]
        );
        assert!(text[1].ends_with("}\n\n"));
        assert_eq!(text[2], "data: tail");
    }

    #[tokio::test]
    async fn json_bodies_larger_than_any_round_pass_unchanged() {
        let big = format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"text":"{}"}}}}"#,
            "x".repeat(MAX_JSON_BODY)
        );
        let body = big.clone();
        let app = axum::Router::new()
            .route(
                "/mcp",
                axum::routing::post(move || async move {
                    ([(header::CONTENT_TYPE, "application/json")], body)
                }),
            )
            .layer(axum::middleware::from_fn(exact_rounds_http));
        let bytes = post_body(app).await;
        assert_eq!(bytes.len(), big.len(), "the whole result arrives");
    }

    /// The whole body `app` answers an empty POST to `/mcp` with.
    async fn post_body(app: axum::Router) -> Bytes {
        use tower::ServiceExt as _;
        let request = Request::post("/mcp").body(Body::empty()).expect("request");
        let response = app.oneshot(request).await.expect("response");
        axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("body")
    }

    /// A JSON body whose size the middleware cannot know (another layer streams it, as
    /// the session limits do to count the request until its answer has left).
    fn streamed_json_app(text: String) -> axum::Router {
        axum::Router::new()
            .route(
                "/mcp",
                axum::routing::post(move || {
                    let text = text.clone();
                    async move {
                        let half = text.len() / 2;
                        let (a, b) = (text[..half].to_owned(), text[half..].to_owned());
                        let chunks = futures::stream::iter([
                            Ok::<_, std::io::Error>(Bytes::from(a)),
                            Ok(Bytes::from(b)),
                        ]);
                        (
                            [(header::CONTENT_TYPE, "application/json")],
                            Body::from_stream(chunks),
                        )
                    }
                }),
            )
            .layer(axum::middleware::from_fn(exact_rounds_http))
    }

    #[tokio::test]
    async fn json_rounds_of_unknown_size_are_rewritten_and_large_ones_pass_whole() {
        let round = json!({"jsonrpc": "2.0", "id": 3, "result": {
            "_meta": {EXACT_REQUESTS_META: {"q": {"method": "elicitation/create",
                "params": {"mode": "url", "message": "Connect", "url": "https://example.com/c"}}}},
            "inputRequests": {"q": {"method": "elicitation/create", "params": {
                "mode": "url", "message": "Connect", "url": "https://example.com/c",
                "elicitationId": ""}}},
            "requestState": "s.t"}})
        .to_string();
        let bytes = post_body(streamed_json_app(round)).await;
        let out: Value = serde_json::from_slice(&bytes).expect("JSON");
        assert_eq!(
            out["result"]["inputRequests"]["q"]["params"],
            json!({"mode": "url", "message": "Connect", "url": "https://example.com/c"}),
            "the exact request, without rmcp's empty elicitationId: {out}"
        );
        assert_eq!(out["result"]["resultType"], "input_required");
        assert!(out["result"].get("_meta").is_none(), "{out}");
        // Over the cap: every byte arrives, in order, untouched.
        let big = format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"text":"{}"}}}}"#,
            "y".repeat(MAX_JSON_BODY)
        );
        let bytes = post_body(streamed_json_app(big.clone())).await;
        assert_eq!(bytes, big.as_bytes(), "the whole result arrives unchanged");
    }
}
