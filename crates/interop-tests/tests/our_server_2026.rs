//! `mcp-elicit serve` against real 2026-07-28 clients: the Python SDK 2.3 client on its defaults
//! (`interop/py/client_2026.py`) and the TypeScript SDK v2 client (`interop/ts/client_v2.mjs`,
//! `@modelcontextprotocol/client` 2.4 with `versionNegotiation: auto`), over Streamable HTTP and
//! stdio. Elicitation travels as `InputRequiredResult` rounds (multi round-trip requests): the SDKs'
//! own drivers hand each embedded request to the peer's elicitation callback and retry with
//! `inputResponses` and the echoed `requestState`.
//!
//! Each peer records what its callback saw and every wire leg; this file checks that the callback
//! saw exactly the JSON the server sent (captured here with a raw HTTP request), `pattern` and
//! defaults included, and that decline, cancel, multi-question rounds, multi-round flows, URL mode
//! finished through the page and tampered state all behave.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use mcp_elicit_interop_tests::{
    Lang, RunOutput, Target, client_argv, free_port, mcp_elicit_bin, run, start_our_server,
    tool_text,
};
use serde_json::{Value, json};

const FORM_TOOL: &str = "demo_form";
const URL_TOOL: &str = "demo_url";
const CONNECT_TOOL: &str = "connect_demo";
/// Answers for the demo form's required fields that have no default.
const ANSWERS: &str = r#"{"email":"ada@example.com","age":36}"#;
/// Conformance fixtures (`serve --conformance`) of the 0.2 line's 2026-07-28 scenarios.
const MULTIPLE_INPUTS_TOOL: &str = "test_input_required_result_multiple_inputs";
const MULTI_ROUND_TOOL: &str = "test_input_required_result_multi_round";

/// Runs the 2026-07-28 peer `lang` with `args` against `target`.
fn peer(lang: Lang, args: &[&str], target: &Target) -> RunOutput {
    run(&client_argv(lang.client_2026(), args, target))
}

/// Runs the peer and checks its own assertions held (exit 0, `ok`), and that it negotiated
/// 2026-07-28; returns its summary.
fn peer_ok(lang: Lang, args: &[&str], target: &Target) -> Value {
    let out = peer(lang, args, target);
    let s = out.last_json();
    assert!(
        out.code() == Some(0) && s["ok"] == true,
        "{} peer failed: {:?}\n{}",
        lang.name(),
        s["failures"],
        out.describe()
    );
    assert_eq!(s["protocolVersion"], "2026-07-28", "{s}");
    s
}

/// What each wire leg answered: `input_required` or `complete` (or `error`).
fn legs(s: &Value) -> Vec<String> {
    s["legs"]
        .as_array()
        .map(|l| {
            l.iter()
                .map(|leg| leg["got"].as_str().unwrap_or("?").to_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// `tools/call` as a 2026-07-28 client sends it over raw HTTP (no session, `_meta` on the request);
/// returns the JSON-RPC response, exactly as it left the server.
fn raw_call(url: &str, tool: &str, args: Value) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
    "name": tool, "arguments": args,
    "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "our-server-2026-raw", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}, "url": {}}}
    }}})
    .to_string();
    let rest = url.strip_prefix("http://").expect("an http URL");
    let (host, path) = rest.split_once('/').expect("a path");
    let mut conn = TcpStream::connect(host).expect("connect to the server");
    conn.set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    // HTTP/1.0: the answer is delimited by the end of the connection (no chunking to undo).
    let request = format!(
        "POST /{path} HTTP/1.0\r\nHost: {host}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: tools/call\r\nMcp-Name: {tool}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    conn.write_all(request.as_bytes()).expect("send");
    let mut answer = String::new();
    conn.read_to_string(&mut answer).expect("read the answer");
    let (head, payload) = answer.split_once("\r\n\r\n").expect("an HTTP answer");
    assert!(head.starts_with("HTTP/1.0 200"), "{answer}");
    let messages: Vec<Value> = if let Ok(v) = serde_json::from_str(payload) {
        vec![v]
    } else {
        payload
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str(d.trim()).ok())
            .collect()
    };
    messages
        .into_iter()
        .find(|m| m["id"] == 1)
        .unwrap_or_else(|| panic!("no response to the call: {answer}"))
}

/// The `inputRequests` of the demo form's first round, exactly as the server sends them.
fn demo_form_requests_on_the_wire() -> Value {
    let (_server, url) = start_our_server(&[]);
    let answer = raw_call(&url, FORM_TOOL, json!({}));
    let result = &answer["result"];
    assert_eq!(result["resultType"], "input_required", "{answer}");
    assert!(result["requestState"].is_string(), "{answer}");
    result["inputRequests"].clone()
}

fn stdio_target(extra: &[&str]) -> Target {
    let mut argv: Vec<OsString> = vec![
        mcp_elicit_bin().into(),
        "serve".into(),
        "--stdio".into(),
        "--listen".into(),
        format!("127.0.0.1:{}", free_port()).into(),
        "--store".into(),
        "memory".into(),
    ];
    argv.extend(extra.iter().map(OsString::from));
    Target::Stdio(argv)
}

/// Runs `check` against a fresh server (with `extra` serve arguments) over HTTP, then over stdio.
fn both(extra: &[&str], check: impl Fn(&Target)) {
    {
        let (_server, url) = start_our_server(extra);
        check(&Target::Http(url));
    }
    check(&stdio_target(extra));
}

fn form_every_kind_exactly_as_sent(lang: Lang) {
    let wire = demo_form_requests_on_the_wire();
    let keys: Vec<&String> = wire.as_object().expect("inputRequests").keys().collect();
    assert_eq!(keys.len(), 1, "{wire}");
    let sent = &wire[keys[0].as_str()];
    assert_eq!(sent["method"], "elicitation/create", "{wire}");
    let props = &sent["params"]["requestedSchema"]["properties"];
    assert_eq!(props["handle"]["pattern"], "^[a-z0-9-]+$", "{wire}");
    assert_eq!(props["handle"]["default"], "octo-cat", "{wire}");
    assert_eq!(props["languages"]["default"], json!(["en"]), "{wire}");
    both(&[], |t| {
        let s = peer_ok(
            lang,
            &[
                "--scenario",
                "form",
                "--tool",
                FORM_TOOL,
                "--answers",
                ANSWERS,
            ],
            t,
        );
        assert_eq!(legs(&s), ["input_required", "complete"], "{s}");
        let seen = &s["elicitations"][0];
        assert_eq!(seen["key"], keys[0].as_str(), "{s}");
        // The very schema that left the server reached the client: every keyword, `pattern` and
        // the defaults included, nothing added.
        let schema = &sent["params"]["requestedSchema"];
        if lang == Lang::Py {
            // The Python SDK hands the callback the schema as the raw JSON dict.
            assert_eq!(&seen["requestedSchema"], schema, "{s}");
        } else {
            // The TypeScript SDK v2 parses the embedded request with its own schema before the
            // handler sees it and drops `pattern` (as v1 does on elicitation/create); what its
            // transport received is the exact schema.
            assert_eq!(&seen["wireParams"]["requestedSchema"], schema, "{s}");
            let mut without_pattern = schema.clone();
            without_pattern["properties"]["handle"]
                .as_object_mut()
                .expect("handle")
                .remove("pattern");
            let handler = &seen["requestedSchema"];
            assert!(
                handler == schema || handler == &without_pattern,
                "the TS handler saw more than a dropped pattern: {s}"
            );
        }
        assert_eq!(seen["params"]["message"], sent["params"]["message"], "{s}");
        assert_eq!(s["result"]["isError"], false, "{s}");
        let text = tool_text(&s["result"]);
        assert!(
            text.contains("ada@example.com") && text.contains("octo-cat"),
            "the server did not echo the validated answer: {s}"
        );
        if lang == Lang::Ts {
            // The raw final answer as the transport received it: 2026-07-28 requires resultType.
            assert_eq!(s["legs"][1]["resultType"], "complete", "{s}");
        }
    });
}

fn form_decline_and_cancel(lang: Lang) {
    both(&[], |t| {
        for (action, says) in [("decline", "declined"), ("cancel", "dismissed")] {
            let s = peer_ok(
                lang,
                &[
                    "--scenario",
                    "form",
                    "--tool",
                    FORM_TOOL,
                    "--action",
                    action,
                ],
                t,
            );
            assert_eq!(legs(&s), ["input_required", "complete"], "{action}: {s}");
            assert!(
                !s["legs"][1]["answers"].to_string().contains("content"),
                "{s}"
            );
            assert_eq!(s["result"]["isError"], false, "{action}: {s}");
            let text = tool_text(&s["result"]);
            assert!(text.contains(says), "{action}: {s}");
            assert!(!text.contains("octo-cat"), "{action}: {s}");
        }
    });
}

/// One round carrying several input requests (an elicitation, a sampling request and a roots
/// request), answered together by the SDK's driver in one retry.
fn multi_question_round(lang: Lang) {
    both(&["--conformance"], |t| {
        let s = peer_ok(
            lang,
            &[
                "--scenario",
                "form",
                "--sampling-roots",
                "--tool",
                MULTIPLE_INPUTS_TOOL,
                "--answers",
                r#"{"name":"Alice"}"#,
            ],
            t,
        );
        assert_eq!(legs(&s), ["input_required", "complete"], "{s}");
        let asked = s["legs"][0]["keys"].as_array().map(Vec::len).unwrap_or(0);
        assert!(asked >= 3, "one round with several requests: {s}");
        assert_eq!(s["legs"][1]["answered"], s["legs"][0]["keys"], "{s}");
        assert_eq!(s["result"]["isError"], false, "{s}");
    });
}

/// Two rounds of questions, each with a fresh `requestState`, then the result.
fn multi_round_flow(lang: Lang) {
    both(&["--conformance"], |t| {
        let s = peer_ok(
            lang,
            &[
                "--scenario",
                "form",
                "--tool",
                MULTI_ROUND_TOOL,
                "--answers",
                r#"{"name":"Alice","color":"blue"}"#,
            ],
            t,
        );
        assert_eq!(
            legs(&s),
            ["input_required", "input_required", "complete"],
            "{s}"
        );
        assert_eq!(s["legs"][1]["echoedState"], true, "{s}");
        assert_eq!(s["legs"][2]["echoedState"], true, "{s}");
        let rounds: Vec<&Value> = s["elicitations"]
            .as_array()
            .map(|e| e.iter().map(|x| &x["round"]).collect())
            .unwrap_or_default();
        assert_eq!(rounds, [&json!(1), &json!(2)], "{s}");
        assert_eq!(s["result"]["isError"], false, "{s}");
    });
}

/// URL mode: the callback gets the URL (no elicitationId on 2026-07-28), the user finishes the
/// page, the SDK's retry gets the result.
fn url_finished_through_the_page(lang: Lang) {
    both(&[], |t| {
        // connect_demo first: finishing any demo page connects the user.
        for tool in [CONNECT_TOOL, URL_TOOL] {
            let s = peer_ok(
                lang,
                &["--scenario", "url", "--tool", tool, "--visit", "post"],
                t,
            );
            let el = &s["elicitations"][0];
            assert_eq!(el["params"]["mode"], "url", "{tool}: {s}");
            assert!(el["params"].get("elicitationId").is_none(), "{tool}: {s}");
            let url = el["params"]["url"].as_str().unwrap_or_default();
            assert!(url.starts_with("http://127.0.0.1:"), "{tool}: {s}");
            assert_eq!(s["visited"][1]["method"], "POST", "{tool}: {s}");
            assert!(
                s["error"].is_null(),
                "{tool}: never -32042 on 2026-07-28: {s}"
            );
            assert_eq!(legs(&s).last().map(String::as_str), Some("complete"), "{s}");
            assert_eq!(s["result"]["isError"], false, "{tool}: {s}");
        }
    });
}

/// A retry before the page is finished is answered with another round (still waiting), not
/// blocked and not failed; once the page is finished the next retry gets the result.
fn url_still_waiting_then_done(lang: Lang) {
    both(&[], |t| {
        let s = peer_ok(
            lang,
            &["--scenario", "url-waiting", "--tool", CONNECT_TOOL],
            t,
        );
        assert_eq!(s["waiting"]["resultType"], "input_required", "{s}");
        assert!(s["waiting"]["requestState"].is_string(), "{s}");
        assert_eq!(s["result"]["isError"], false, "{s}");
        assert!(tool_text(&s["result"]).contains("report.pdf"), "{s}");
    });
}

/// A modified, truncated, extended, empty or made-up `requestState` is refused with -32602 and
/// changes nothing: the genuine state still completes the call.
fn tampered_state_refused(lang: Lang) {
    both(&[], |t| {
        let s = peer_ok(
            lang,
            &[
                "--scenario",
                "tamper",
                "--tool",
                FORM_TOOL,
                "--answers",
                ANSWERS,
            ],
            t,
        );
        let tampered = s["tampered"].as_array().expect("tampered");
        assert_eq!(tampered.len(), 5, "{s}");
        for t in tampered {
            assert_eq!(t["error"]["code"], -32602, "{s}");
        }
        assert_eq!(s["result"]["isError"], false, "{s}");
        assert!(tool_text(&s["result"]).contains("ada@example.com"), "{s}");
    });
}

#[test]
fn py_form_every_kind_exactly_as_sent() {
    form_every_kind_exactly_as_sent(Lang::Py);
}

#[test]
fn ts_form_every_kind_exactly_as_sent() {
    form_every_kind_exactly_as_sent(Lang::Ts);
}

#[test]
fn py_form_decline_and_cancel() {
    form_decline_and_cancel(Lang::Py);
}

#[test]
fn ts_form_decline_and_cancel() {
    form_decline_and_cancel(Lang::Ts);
}

#[test]
fn py_multi_question_round() {
    multi_question_round(Lang::Py);
}

#[test]
fn ts_multi_question_round() {
    multi_question_round(Lang::Ts);
}

#[test]
fn py_multi_round_flow() {
    multi_round_flow(Lang::Py);
}

#[test]
fn ts_multi_round_flow() {
    multi_round_flow(Lang::Ts);
}

#[test]
fn py_url_finished_through_the_page() {
    url_finished_through_the_page(Lang::Py);
}

#[test]
fn ts_url_finished_through_the_page() {
    url_finished_through_the_page(Lang::Ts);
}

#[test]
fn py_url_still_waiting_then_done() {
    url_still_waiting_then_done(Lang::Py);
}

#[test]
fn ts_url_still_waiting_then_done() {
    url_still_waiting_then_done(Lang::Ts);
}

#[test]
fn py_tampered_request_state_refused() {
    tampered_state_refused(Lang::Py);
}

#[test]
fn ts_tampered_request_state_refused() {
    tampered_state_refused(Lang::Ts);
}
