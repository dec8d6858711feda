//! `mcp-elicit serve` (our reference server) against the TypeScript and Python SDK peer clients,
//! over Streamable HTTP and stdio. The peer clients assert on what arrived on the wire (every field
//! kind, the `pattern` intact), answer, play the user on the loopback demo page, and check
//! completion notifications and the -32042 error with their SDK's own typed error.

use std::ffi::OsString;

use mcp_elicit_interop_tests::{
    Lang, Target, TempFile, free_port, mcp_elicit_bin, peer_client_ok, run_peer_client,
    spawn_peer_client, start_our_server, tool_text,
};
use serde_json::Value;

/// Tool names of the reference server (`crates/server/src/reference/tools.rs`).
const FORM_TOOL: &str = "demo_form";
const URL_TOOL: &str = "demo_url";
const REQUIRED_TOOL: &str = "connect_demo";
const SECRET_TOOL: &str = "demo_secret";

/// Answers for the demo form's required fields that have no default.
const ANSWERS: &str = r#"{"email":"ada@example.com","age":36}"#;

/// Peer arguments: the demo form (options follow).
const FORM: [&str; 4] = ["--scenario", "form", "--tool", FORM_TOOL];
/// Peer arguments: URL mode inside a call, the user finishing the demo page.
const URL_VISITED: [&str; 6] = ["--scenario", "url", "--tool", URL_TOOL, "--visit", "post"];
/// Peer arguments: the -32042 error, the user finishing the demo page, then the retry.
const REQUIRED_VISITED: [&str; 6] = [
    "--scenario",
    "url-required",
    "--tool",
    REQUIRED_TOOL,
    "--visit",
    "post",
];

fn form_accept(lang: Lang, target: &Target) {
    let s = peer_client_ok(
        lang,
        &[
            &FORM[..],
            &[
                "--answers",
                ANSWERS,
                "--expect-kinds",
                "string,pattern,format,integer,number,boolean,enum,legacy-enum,titled-enum,multi,titled-multi",
            ],
        ]
        .concat(),
        target,
    );
    let props = &s["elicitations"][0]["requestedSchema"]["properties"];
    assert_eq!(props["handle"]["pattern"], "^[a-z0-9-]+$", "{s}");
    assert_eq!(s["result"]["isError"], false, "{s}");
    let text = tool_text(&s["result"]);
    assert!(
        text.contains("ada@example.com") && text.contains("octo-cat"),
        "the server did not echo the validated answer: {s}"
    );
}

fn form_decline(lang: Lang, target: &Target) {
    let s = peer_client_ok(
        lang,
        &[&FORM[..], &["--action", "decline"]].concat(),
        target,
    );
    assert_eq!(s["result"]["isError"], false, "{s}");
    let text = tool_text(&s["result"]);
    assert!(text.contains("declined"), "{s}");
    assert!(!text.contains("ada@example.com"), "{s}");
}

fn form_invalid_answer_refused(lang: Lang, target: &Target) {
    // The peer sends a handle breaking the pattern (its own pre-check records a failure, so the run
    // is not "ok"): the server must not accept it.
    let out = run_peer_client(
        lang,
        &[
            &FORM[..],
            &[
                "--answers",
                r#"{"email":"ada@example.com","age":36,"handle":"Not A Handle!"}"#,
            ],
        ]
        .concat(),
        target,
    );
    let s = out.last_json();
    // The server validates the answer and fails the call with -32602 listing the violation;
    // the peer exits 1 (its pre-check of the answer failed, and so did the call).
    assert_eq!(out.code(), Some(1), "{}", out.describe());
    assert!(
        s["result"].is_null(),
        "server accepted an answer breaking the pattern: {}",
        out.describe()
    );
    assert_eq!(s["error"]["code"], -32602, "{}", out.describe());
    assert_eq!(
        s["error"]["data"]["kind"],
        "invalid_content",
        "{}",
        out.describe()
    );
    let violations = s["error"]["data"]["violations"].to_string();
    assert!(violations.contains("handle"), "{}", out.describe());
}

fn url_mode_with_completion(lang: Lang, target: &Target) {
    let s = peer_client_ok(lang, &URL_VISITED, target);
    let el = &s["elicitations"][0];
    assert_eq!(el["mode"], "url", "{s}");
    assert!(
        el["url"]
            .as_str()
            .is_some_and(|u| u.starts_with("http://127.0.0.1:")),
        "{s}"
    );
    assert_eq!(s["completions"][0], el["elicitationId"], "{s}");
}

fn url_required_then_retry(lang: Lang, target: &Target) {
    let s = peer_client_ok(lang, &REQUIRED_VISITED, target);
    assert_eq!(s["error"]["code"], -32042, "{s}");
    let els = &s["error"]["data"]["elicitations"];
    assert_eq!(els[0]["mode"], "url", "{s}");
    assert_eq!(s["completions"][0], els[0]["elicitationId"], "{s}");
    assert_eq!(s["retryResult"]["isError"], false, "{s}");
}

fn secret_form_never_sent(lang: Lang, target: &Target) {
    let s = peer_client_ok(
        lang,
        &["--scenario", "capabilities", "--tool", SECRET_TOOL],
        target,
    );
    assert_eq!(s["elicitations"], Value::Array(vec![]), "{s}");
    assert_eq!(s["result"]["isError"], true, "{s}");
}

/// A client that declared form mode only never gets a URL-mode request (TypeScript peer: the
/// Python SDK always declares both modes).
fn url_never_sent_to_form_only_client(target: &Target) {
    for tool in [URL_TOOL, REQUIRED_TOOL] {
        let s = peer_client_ok(
            Lang::Ts,
            &[
                "--scenario",
                "capabilities",
                "--tool",
                tool,
                "--modes",
                "form",
            ],
            target,
        );
        assert_eq!(s["elicitations"], Value::Array(vec![]), "{tool}: {s}");
        assert_eq!(s["result"]["isError"], true, "{tool}: {s}");
        assert!(s["error"].is_null(), "{tool}: {s}");
    }
}

/// `mcp-elicit serve --stdio --store memory`; its demo pages go to a free loopback port of their own.
/// The completion notification goes only to the connection that got the elicitation: a second
/// client of the same user, connected the whole time, receives nothing.
#[test]
fn completion_goes_only_to_the_eliciting_connection() {
    let (_server, url) = start_our_server(&[]);
    let target = Target::Http(url);
    // The bystander listens until this file exists.
    let stop = TempFile::absent("stop-listening");
    let stop_arg = stop.path().to_string_lossy().into_owned();
    let mut bystander = spawn_peer_client(
        Lang::Ts,
        &["--scenario", "listen", "--until-file", &stop_arg],
        &target,
    );
    bystander.wait_for_line("\"ready\"");

    // The -32042 flow (first: finishing any demo page connects the user): its completion
    // travels outside any request, on the standalone stream.
    let s = peer_client_ok(Lang::Ts, &REQUIRED_VISITED, &target);
    assert_eq!(s["completions"].as_array().map(Vec::len), Some(1), "{s}");

    // URL mode inside a call.
    let s = peer_client_ok(Lang::Ts, &URL_VISITED, &target);
    let id = s["elicitations"][0]["elicitationId"].clone();
    assert_eq!(s["completions"][0], id, "{s}");
    stop.write("");
    let out = bystander.finish();
    let summary = out.last_json();
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    for heard in ["completions", "elicitations"] {
        assert_eq!(summary[heard], Value::Array(vec![]), "{}", out.describe());
    }
}

fn stdio_target() -> Target {
    Target::Stdio(vec![
        OsString::from(mcp_elicit_bin()),
        "serve".into(),
        "--stdio".into(),
        "--listen".into(),
        format!("127.0.0.1:{}", free_port()).into(),
        "--store".into(),
        "memory".into(),
    ])
}

/// Runs `check` against a fresh server over HTTP and over stdio.
fn both(check: impl Fn(&Target)) {
    {
        let (_server, url) = start_our_server(&[]);
        check(&Target::Http(url));
    }
    check(&stdio_target());
}

#[test]
fn ts_form_every_kind_accepted_and_validated() {
    both(|t| form_accept(Lang::Ts, t));
}

#[test]
fn py_form_every_kind_accepted_and_validated() {
    both(|t| form_accept(Lang::Py, t));
}

#[test]
fn ts_form_decline() {
    both(|t| form_decline(Lang::Ts, t));
}

#[test]
fn py_form_decline() {
    both(|t| form_decline(Lang::Py, t));
}

#[test]
fn ts_form_answer_breaking_pattern_is_refused() {
    both(|t| form_invalid_answer_refused(Lang::Ts, t));
}

#[test]
fn py_form_answer_breaking_pattern_is_refused() {
    both(|t| form_invalid_answer_refused(Lang::Py, t));
}

#[test]
fn ts_url_mode_then_completion_notification() {
    both(|t| url_mode_with_completion(Lang::Ts, t));
}

#[test]
fn py_url_mode_then_completion_notification() {
    both(|t| url_mode_with_completion(Lang::Py, t));
}

#[test]
fn ts_url_required_error_then_retry() {
    both(|t| url_required_then_retry(Lang::Ts, t));
}

#[test]
fn py_url_required_error_then_retry() {
    both(|t| url_required_then_retry(Lang::Py, t));
}

#[test]
fn ts_secret_form_is_never_sent() {
    both(|t| secret_form_never_sent(Lang::Ts, t));
}

#[test]
fn py_secret_form_is_never_sent() {
    both(|t| secret_form_never_sent(Lang::Py, t));
}

#[test]
fn ts_form_only_client_never_gets_url_mode() {
    both(url_never_sent_to_form_only_client);
}
