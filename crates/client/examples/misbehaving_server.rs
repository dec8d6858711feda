//! A deliberately broken MCP server over stdio, to see how a client copes with requests it
//! cannot parse. Written without any MCP library: it prints raw JSON lines.
//!
//! ```text
//! cargo build -p mcp-elicit-client --example misbehaving_server
//! mcp-elicit call stdio:target/debug/examples/misbehaving_server probe
//! ```
//!
//! Its one tool, `probe`, sends (while the call is in flight) requests no MCP library can
//! type: `elicitation/create` whose params are an array, a request with `"jsonrpc": "1.0"`,
//! one whose `method` is a number, one whose `id` is an object; then a notification with
//! broken params and a line that is not JSON (neither deserves a reply); then a valid
//! `ping`. It collects every response that arrives before the ping's and returns them as
//! `{"replies": [...]}`. A client that drops the broken requests silently still answers
//! the ping, so the result shows exactly what it answered; a client that never answers
//! the ping leaves the call hanging.

use std::io::{self, BufRead, Write};

use serde_json::{Value, json};

/// The broken messages `probe` sends, in order.
fn broken_messages() -> Vec<String> {
    vec![
        json!({"jsonrpc": "2.0", "id": "params-array", "method": "elicitation/create",
               "params": ["not", "an", "object"]})
        .to_string(),
        json!({"jsonrpc": "1.0", "id": "old-version", "method": "elicitation/create",
               "params": {"mode": "form", "message": "m",
                          "requestedSchema": {"type": "object", "properties": {}}}})
        .to_string(),
        json!({"jsonrpc": "2.0", "id": "method-number", "method": 42}).to_string(),
        json!({"jsonrpc": "2.0", "id": {"not": "an id"}, "method": "elicitation/create",
               "params": {}})
        .to_string(),
        json!({"jsonrpc": "2.0", "method": "notifications/elicitation/complete",
               "params": "not an object"})
        .to_string(),
        "this line is not JSON".to_owned(),
    ]
}

/// The id of the valid ping that ends a probe.
const END_ID: &str = "probe-end";

fn write(out: &mut impl Write, message: &str) -> io::Result<()> {
    out.write_all(message.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}

fn result(id: &Value, result: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string()
}

/// Sends the broken messages and a ping; returns the responses read before the ping's.
fn probe(
    lines: &mut impl Iterator<Item = io::Result<String>>,
    out: &mut impl Write,
) -> io::Result<Vec<Value>> {
    for message in broken_messages() {
        write(out, &message)?;
    }
    write(
        out,
        &json!({"jsonrpc": "2.0", "id": END_ID, "method": "ping"}).to_string(),
    )?;
    let mut replies = Vec::new();
    for line in lines {
        let Ok(message) = serde_json::from_str::<Value>(&line?) else {
            continue;
        };
        let is_response = message.get("method").is_none()
            && (message.get("result").is_some() || message.get("error").is_some());
        if !is_response {
            continue;
        }
        if message.get("id") == Some(&json!(END_ID)) {
            return Ok(replies);
        }
        replies.push(message);
    }
    Err(io::Error::new(
        io::ErrorKind::UnexpectedEof,
        "the client left before answering the ping",
    ))
}

fn main() -> io::Result<()> {
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = io::stdout().lock();
    while let Some(line) = lines.next() {
        let Ok(message) = serde_json::from_str::<Value>(&line?) else {
            continue;
        };
        let Some(id) = message.get("id").cloned() else {
            continue; // notifications
        };
        let reply = match message.get("method").and_then(Value::as_str) {
            Some("initialize") => result(
                &id,
                json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                       "serverInfo": {"name": "misbehaving-server", "version": "1.0.0"}}),
            ),
            Some("ping") => result(&id, json!({})),
            Some("tools/list") => result(
                &id,
                json!({"tools": [{"name": "probe",
                                  "description": "Sends requests no MCP library can parse",
                                  "inputSchema": {"type": "object", "properties": {}}}]}),
            ),
            Some("tools/call") => {
                let replies = probe(&mut lines, &mut out)?;
                let text = json!({ "replies": replies }).to_string();
                result(&id, json!({"content": [{"type": "text", "text": text}]}))
            }
            Some(other) => json!({"jsonrpc": "2.0", "id": id,
                                  "error": {"code": -32601, "message": format!("no method {other}")}})
            .to_string(),
            None => continue, // a response to nothing we asked
        };
        write(&mut out, &reply)?;
    }
    Ok(())
}
