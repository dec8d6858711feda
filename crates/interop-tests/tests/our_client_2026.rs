//! `mcp-elicit call` (our client) against real servers written for 2026-07-28, over Streamable
//! HTTP and stdio, on both revisions where the server serves both:
//! - the Python SDK 2.3 in its resolver style (`Annotated[T, Resolve(fn)]` returning
//!   `Elicit(...)`, `interop/py/server_2026.py`): one handler for both revisions;
//! - the Python SDK's and FastMCP's `ctx.elicit` with Pydantic models (server-to-client
//!   requests: 2025-11-25 only, so those calls pin `--protocol 2025-11-25`);
//! - the TypeScript SDK v2 (`inputRequired.elicit` / `inputRequired.elicitUrl`,
//!   `interop/ts/server_v2.mjs`).
//!
//! Every form is shown and answered, several questions of one round are answered from one
//! answers file by their property names, URL rounds and "still waiting" complete, multi-round
//! flows finish. The forms the Pydantic models generate use keywords outside the strict
//! subset (`exclusiveMinimum`, `uniqueItems`...): those tests pass once the client reads
//! received forms tolerantly (issue 12, deliverable 3).

use std::ffi::OsString;

use mcp_elicit_interop_tests::{
    Process, RunOutput, TempFile, free_port, mcp_elicit_bin, repo_root, run, start_http_server,
    tool_text_json, tools,
};
use serde_json::{Value, json};

/// A peer server script.
#[derive(Clone, Copy)]
enum Peer {
    /// `interop/py/server_2026.py`.
    PyResolve,
    /// `interop/py/server_fastmcp.py`.
    FastMcp,
    /// `interop/ts/server_v2.mjs`.
    TsV2,
    /// `interop/ts/server.mjs` (TS SDK v1: 2025-11-25 only).
    TsV1,
}

impl Peer {
    fn argv(self) -> Vec<OsString> {
        let t = tools();
        let root = repo_root();
        let (program, script) = match self {
            Peer::PyResolve => (&t.python, "interop/py/server_2026.py"),
            Peer::FastMcp => (&t.python, "interop/py/server_fastmcp.py"),
            Peer::TsV2 => (&t.node, "interop/ts/server_v2.mjs"),
            Peer::TsV1 => (&t.node, "interop/ts/server.mjs"),
        };
        vec![program.into(), root.join(script).into()]
    }
}

/// Where the server is: a running HTTP server (kept alive) or a stdio command.
struct Server {
    _process: Option<Process>,
    target: String,
}

fn http(peer: Peer) -> Server {
    let port = free_port();
    let mut argv = peer.argv();
    argv.extend(["--port".into(), port.to_string().into()]);
    let process = start_http_server(&argv, port, "peer-2026");
    Server {
        _process: Some(process),
        target: format!("http://127.0.0.1:{port}/mcp"),
    }
}

fn stdio(peer: Peer) -> Server {
    let mut argv = peer.argv();
    argv.push("--stdio".into());
    let words: Vec<String> = argv
        .iter()
        .map(|w| format!("'{}'", w.to_string_lossy().replace('\'', r"'\''")))
        .collect();
    Server {
        _process: None,
        target: format!("stdio:{}", words.join(" ")),
    }
}

fn both(peer: Peer, check: impl Fn(&Server)) {
    check(&http(peer));
    check(&stdio(peer));
}

impl Server {
    fn call(&self, tool: &str, args: &[&str]) -> RunOutput {
        let mut argv: Vec<OsString> = vec![
            mcp_elicit_bin().into(),
            "call".into(),
            self.target.clone().into(),
            tool.into(),
            "--timeout".into(),
            "60".into(),
        ];
        argv.extend(args.iter().map(OsString::from));
        run(&argv)
    }

    /// A call that succeeds; returns the whole result and the JSON of its text.
    fn call_ok(&self, tool: &str, args: &[&str]) -> (Value, Value) {
        let out = self.call(tool, args);
        assert_eq!(out.code(), Some(0), "{}", out.describe());
        let result = out.json();
        assert_ne!(result["isError"], true, "{}", out.describe());
        let text = tool_text_json(&result);
        (result, text)
    }
}

/// Whether the result came over 2026-07-28 (servers identify themselves in every result's
/// `_meta` there; there is no such field before).
fn on_2026(result: &Value) -> bool {
    result["_meta"]["io.modelcontextprotocol/serverInfo"].is_object()
}

fn answers(value: Value) -> (TempFile, String) {
    let file = TempFile::new("answers.json", &value.to_string());
    let arg = format!("@{}", file.path().display());
    (file, arg)
}

fn protocols() -> [(&'static str, bool); 2] {
    [("auto", true), ("2025-11-25", false)]
}

// ------------------------------------------------------------ Python SDK, resolver style

fn py_profile(s: &Server) {
    let (_f, respond) = answers(json!({
        "name": "Ada", "birthday": "1815-12-10", "rating": 5, "toppings": ["ham", "olive"]
    }));
    for (protocol, modern) in protocols() {
        let (result, text) = s.call_ok("profile", &["--respond", &respond, "--protocol", protocol]);
        assert_eq!(on_2026(&result), modern, "{protocol}: {result}");
        assert_eq!(
            text["profile"],
            json!({"name": "Ada", "nickname": null, "size": "m", "birthday": "1815-12-10",
                "age": 30, "rating": 5, "code": "ENG-42", "toppings": ["ham", "olive"]}),
            "{protocol}"
        );
    }
}

fn py_two_questions(s: &Server) {
    // One answers file for the two questions of the round: each form takes its own fields.
    let (_f, respond) = answers(json!({"name": "Bob", "size": "l", "count": 2}));
    for (protocol, modern) in protocols() {
        let (result, text) = s.call_ok(
            "two_questions",
            &["--respond", &respond, "--protocol", protocol],
        );
        assert_eq!(on_2026(&result), modern, "{protocol}");
        assert_eq!(
            text,
            json!({"name": {"name": "Bob"}, "size": {"size": "l", "count": 2}}),
            "{protocol}"
        );
    }
}

fn py_wizard(s: &Server) {
    let (_f, respond) = answers(json!({"plan": "pro", "seats": 7, "team": "core"}));
    for (protocol, _) in protocols() {
        let (_, text) = s.call_ok("wizard", &["--respond", &respond, "--protocol", protocol]);
        assert_eq!(
            text,
            json!({"plan": {"plan": "pro"}, "details": {"seats": 7, "team": "core"}}),
            "{protocol}"
        );
    }
}

fn py_decline_and_cancel(s: &Server) {
    for action in ["decline", "cancel"] {
        for (protocol, _) in protocols() {
            let (_, text) = s.call_ok("maybe", &["--respond", action, "--protocol", protocol]);
            assert_eq!(text["action"], action, "{protocol}");
            assert!(text["content"].is_null(), "{protocol}");
        }
    }
}

fn py_ctx_elicit(s: &Server) {
    let (_f, respond) = answers(json!({"name": "Ada", "birthday": "1815-12-10"}));
    let (_, text) = s.call_ok(
        "ctx_profile",
        &["--respond", &respond, "--protocol", "2025-11-25"],
    );
    assert_eq!(text["action"], "accept");
    assert_eq!(text["profile"]["name"], "Ada");
    assert_eq!(text["profile"]["rating"], 3);
    assert_eq!(text["profile"]["toppings"], json!(["cheese"]));
}

#[test]
fn python_resolver_profile_both_revisions() {
    both(Peer::PyResolve, py_profile);
}

#[test]
fn python_resolver_two_questions_in_one_round() {
    both(Peer::PyResolve, py_two_questions);
}

#[test]
fn python_resolver_wizard_takes_two_rounds() {
    both(Peer::PyResolve, py_wizard);
}

#[test]
fn python_resolver_decline_and_cancel() {
    both(Peer::PyResolve, py_decline_and_cancel);
}

#[test]
fn python_ctx_elicit_pydantic_model() {
    both(Peer::PyResolve, py_ctx_elicit);
}

// ------------------------------------------------------------ FastMCP

fn fastmcp_order(s: &Server) {
    let (_f, respond) = answers(json!({
        "customer": "Ada", "deliver_on": "2027-01-02", "quantity": 3, "extras": ["express", "gift"]
    }));
    let (_, text) = s.call_ok(
        "order",
        &["--respond", &respond, "--protocol", "2025-11-25"],
    );
    assert_eq!(text["action"], "accept", "{text}");
    assert_eq!(
        text["data"],
        json!({"customer": "Ada", "color": "green", "size": "m", "deliver_on": "2027-01-02",
            "quantity": 3, "priority": 2, "code": "ENG-42", "extras": ["express", "gift"]})
    );
}

fn fastmcp_confirm(s: &Server) {
    let (_f, respond) = answers(json!({"value": true}));
    let (_, text) = s.call_ok(
        "confirm",
        &["--respond", &respond, "--protocol", "2025-11-25"],
    );
    assert_eq!(text, json!({"action": "accept", "data": true}));
    let (_, text) = s.call_ok(
        "confirm",
        &["--respond", "decline", "--protocol", "2025-11-25"],
    );
    assert_eq!(text["action"], "decline");
}

#[test]
fn fastmcp_order_with_pydantic_model() {
    both(Peer::FastMcp, fastmcp_order);
}

#[test]
fn fastmcp_scalar_question() {
    both(Peer::FastMcp, fastmcp_confirm);
}

// ------------------------------------------------------------ TypeScript SDK v2

fn ts_form(s: &Server) {
    let (_f, respond) = answers(json!({"name": "Grace", "code": "OPS-07", "tags": ["y", "z"]}));
    let (result, text) = s.call_ok("form", &["--respond", &respond]);
    assert!(on_2026(&result), "{result}");
    assert_eq!(text["action"], "accept");
    assert_eq!(
        text["content"],
        json!({"name": "Grace", "email": "ada@example.com", "code": "OPS-07",
            "birthday": "1815-12-10", "age": 36, "ratio": 0.5, "subscribe": false,
            "color": "green", "size": "m", "tags": ["y", "z"]})
    );
    let (_, text) = s.call_ok("form", &["--respond", "decline"]);
    assert_eq!(text["action"], "decline");
    assert!(text["content"].is_null());
}

fn ts_two_questions(s: &Server) {
    let (_f, respond) = answers(json!({"name": "Bob", "count": 3}));
    let (_, text) = s.call_ok("two_questions", &["--respond", &respond]);
    assert_eq!(
        text,
        json!({"who": {"action": "accept", "content": {"name": "Bob"}},
            "size": {"action": "accept", "content": {"size": "m", "count": 3}},
            "state": "two-questions"})
    );
}

fn ts_multi_round(s: &Server) {
    let (_f, respond) = answers(json!({"plan": "pro", "seats": 5}));
    let (_, text) = s.call_ok("multi_round", &["--respond", &respond]);
    assert_eq!(
        text,
        json!({"plan": "pro", "seats": 5, "action": "accept", "rounds": 3})
    );
}

fn ts_url(s: &Server) {
    let out = s.call(
        "url",
        &["--respond", "accept-defaults", "--open-urls", "print"],
    );
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let text = tool_text_json(&out.json());
    assert_eq!(
        text,
        json!({"action": "accept", "completed": true, "state": "url-1"})
    );
    // The consent report shows the URL, its domain and where it comes from.
    assert!(
        out.stderr.contains("consenting to URL elicitation")
            && out
                .stderr
                .contains("\"registrable_domain\":\"example.com\"")
            && out.stderr.contains("\"kind\":\"input_required\""),
        "{}",
        out.describe()
    );
    let (_, text) = s.call_ok(
        "url",
        &["--respond", "accept-defaults", "--open-urls", "never"],
    );
    assert_eq!(text["action"], "decline");
    assert_eq!(text["completed"], false);
}

fn ts_url_still_waiting(s: &Server) {
    let out = s.call(
        "url_waiting",
        &["--respond", "accept-defaults", "--open-urls", "print"],
    );
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    assert_eq!(
        tool_text_json(&out.json()),
        json!({"action": "accept", "completed": true, "waited": true})
    );
    assert!(
        out.stderr.contains("the server is still waiting"),
        "{}",
        out.describe()
    );
}

#[test]
fn ts_v2_form_every_field_kind() {
    both(Peer::TsV2, ts_form);
}

#[test]
fn ts_v2_two_questions_in_one_round() {
    both(Peer::TsV2, ts_two_questions);
}

#[test]
fn ts_v2_multi_round() {
    both(Peer::TsV2, ts_multi_round);
}

#[test]
fn ts_v2_url_round() {
    both(Peer::TsV2, ts_url);
}

#[test]
fn ts_v2_url_still_waiting() {
    // One transport is enough: the 5 s "keep waiting" pause is the same on both.
    ts_url_still_waiting(&http(Peer::TsV2));
}

#[test]
fn ts_v2_legacy_shim_over_stdio_on_2025() {
    let s = stdio(Peer::TsV2);
    let (_f, respond) = answers(json!({"plan": "pro", "seats": 5}));
    let (result, text) = s.call_ok(
        "multi_round",
        &["--respond", &respond, "--protocol", "2025-11-25"],
    );
    assert!(!on_2026(&result), "{result}");
    assert_eq!(text["seats"], 5);
}

// ------------------------------------------------------------ fallback

/// A server without 2026-07-28 (TS SDK v1): the default (auto) falls back to 2025-11-25 and
/// the form works as before; forcing 2026-07-28 fails clearly.
#[test]
fn auto_falls_back_to_2025_on_a_2025_only_server() {
    both(Peer::TsV1, |s| {
        let (result, text) = s.call_ok("all_kinds", &["--respond", "accept-defaults"]);
        assert!(!on_2026(&result), "{result}");
        assert_eq!(text["action"], "accept");
        let out = s.call(
            "all_kinds",
            &["--respond", "accept-defaults", "--protocol", "2026-07-28"],
        );
        assert_eq!(out.code(), Some(2), "{}", out.describe());
        assert!(out.stderr.contains("cannot connect"), "{}", out.describe());
    });
}
