//! The reference server's demo tools on the 2026-07-28 wire over real Streamable HTTP
//! (no session, every request self-contained): exact rounds through the HTTP layer,
//! `resultType` on every result, URL mode finished through the demo page, no -32042.

mod common;

use mcp_elicit_server::reference::{Reference, ReferenceOptions, http};
use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal, StateKeys};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use common::WAIT;
use common::rounds::KEY_FILE;

async fn start() -> (
    std::net::SocketAddr,
    Reference,
    tokio::sync::oneshot::Sender<()>,
) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let config = ElicitationConfig::new(IdentityPolicy::LocalUser(Principal::local_user("alice")))
        .with_state_keys(StateKeys::parse(KEY_FILE).expect("keys"));
    let reference = Reference::new(
        Elicitations::new(config),
        ReferenceOptions::new(format!("http://{addr}")).with_conformance(true),
    );
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(http::serve(listener, reference.clone(), async move {
        let _ = stopped.await;
    }));
    (addr, reference, stop)
}

/// One raw HTTP/1.1 exchange; returns the status and the body.
async fn exchange(addr: std::net::SocketAddr, head: &str, body: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let request = format!(
        "{head}\r\nHost: {addr}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut response = String::new();
    tokio::time::timeout(WAIT, stream.read_to_string(&mut response))
        .await
        .expect("in time")
        .expect("read");
    let status = response
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (status, body)
}

/// The JSON-RPC message of a response body (JSON, SSE, chunked or not).
fn message(body: &str) -> Value {
    body.lines()
        .filter_map(|l| {
            let l = l.trim();
            let json = l.strip_prefix("data:").map(str::trim).unwrap_or(l);
            serde_json::from_str::<Value>(json).ok()
        })
        .find(|v| v.get("jsonrpc").is_some())
        .unwrap_or_else(|| panic!("no JSON-RPC message in {body}"))
}

/// A 2026-07-28 `tools/call` of `tool` with `extra` params.
async fn call(addr: std::net::SocketAddr, tool: &str, extra: Value) -> Value {
    let mut params = json!({
        "name": tool, "arguments": {},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}, "url": {}}},
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"}
        }
    });
    params
        .as_object_mut()
        .expect("obj")
        .extend(extra.as_object().cloned().unwrap_or_default());
    let body =
        json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params}).to_string();
    let (status, text) = exchange(
        addr,
        &format!(
            "POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
             MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: {tool}"
        ),
        &body,
    )
    .await;
    assert_eq!(status, 200, "{text}");
    message(&text)
}

fn state(reply: &Value) -> Value {
    reply["result"]["requestState"].clone()
}

#[tokio::test]
async fn every_demo_form_tool_answers_rounds_with_exact_requests_over_http() {
    let (addr, _reference, _stop) = start().await;
    let r1 = call(addr, "demo_form", json!({})).await;
    assert_eq!(r1["result"]["resultType"], "input_required", "{r1}");
    let request = &r1["result"]["inputRequests"]["about_you"];
    assert_eq!(
        request["params"]["requestedSchema"]["properties"]["handle"]["pattern"], "^[a-z0-9-]+$",
        "pattern reaches the client: {request}"
    );
    assert!(r1["result"].get("_meta").is_none(), "{r1}");
    let answer = json!({"handle": "octo-cat", "email": "o@example.com", "age": 30});
    let r2 = call(
        addr,
        "demo_form",
        json!({"inputResponses": {"about_you": {"action": "accept", "content": answer}},
               "requestState": state(&r1)}),
    )
    .await;
    assert_eq!(r2["result"]["resultType"], "complete", "{r2}");
    assert!(
        r2["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .contains("validated")
    );

    let p1 = call(addr, "demo_profile", json!({})).await;
    assert!(
        p1["result"]["inputRequests"].get("profile").is_some(),
        "{p1}"
    );
    let p2 = call(
        addr,
        "demo_profile",
        json!({"inputResponses": {"profile": {"action": "decline"}}, "requestState": state(&p1)}),
    )
    .await;
    assert_eq!(
        p2["result"]["content"][0]["text"],
        "You declined: no profile created."
    );

    let s = call(addr, "demo_secret", json!({})).await;
    assert_eq!(s["result"]["isError"], true, "{s}");
    assert_eq!(s["result"]["resultType"], "complete");
}

#[tokio::test]
async fn url_demos_round_until_the_page_is_finished_and_never_answer_32042() {
    let (addr, reference, _stop) = start().await;
    let alice = Principal::local_user("alice");
    for (tool, key, expected) in [
        ("demo_url", "sign_in", "You finished the demo page"),
        ("connect_demo", "connect", "Connected to Example Co"),
    ] {
        let r1 = call(addr, tool, json!({})).await;
        assert!(r1.get("error").is_none(), "no -32042 on 2026-07-28: {r1}");
        let params = &r1["result"]["inputRequests"][key]["params"];
        assert_eq!(params["mode"], "url", "{r1}");
        let url = params["url"].as_str().expect("url").to_owned();
        let accept =
            json!({"inputResponses": {key: {"action": "accept"}}, "requestState": state(&r1)});
        // Not finished yet: the same round again.
        let r2 = call(addr, tool, accept.clone()).await;
        assert_eq!(r2["result"]["inputRequests"][key]["params"]["url"], url);
        // The user finishes the page (the demo page acts for the local user).
        let id = url.rsplit("elicitationId=").next().expect("id").to_owned();
        let query = url.split_once('?').expect("query").1;
        let (status, page) =
            exchange(addr, &format!("GET /demo/complete?{query} HTTP/1.1"), "").await;
        assert_eq!(status, 200, "{page}");
        // The page's form carries its CSRF token.
        let token = page
            .split_once("name=\"csrf\" value=\"")
            .and_then(|(_, rest)| rest.split_once('"'))
            .map(|(t, _)| t.to_owned())
            .unwrap_or_else(|| panic!("no CSRF token in the page: {page}"));
        let (status, page) = exchange(
            addr,
            &format!(
                "POST /demo/complete?{query} HTTP/1.1\r\n\
                 Content-Type: application/x-www-form-urlencoded"
            ),
            &format!("csrf={token}"),
        )
        .await;
        assert_eq!(status, 200, "{page}");
        assert!(
            reference
                .hub()
                .get(&alice, &id)
                .await
                .expect("get")
                .is_none()
        );
        let r3 = call(addr, tool, accept).await;
        assert_eq!(r3["result"]["resultType"], "complete", "{r3}");
        let text = r3["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default();
        assert!(text.contains(expected), "{tool}: {text}");
    }
    // Connected now: the tool answers at once, on the first call.
    let again = call(addr, "connect_demo", json!({})).await;
    assert_eq!(again["result"]["resultType"], "complete", "{again}");
}
