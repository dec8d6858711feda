//! `mcp-elicit call` (our client) against the TypeScript and Python SDK peer servers, over
//! Streamable HTTP and stdio. The peer servers validate accepted answers with their own SDK's
//! JSON Schema validation (TypeScript: AJV; Python: jsonschema), so an accepted call is also proof
//! that the answer matched the requested schema, pattern and formats included.
//!
//! These peers elicit the 2025-11-25 way (server-to-client `elicitation/create`), which the
//! Python SDK 2.3 refuses on a 2026-07-28 request although it offers that revision; the calls
//! pin `--protocol 2025-11-25`. The 2026-07-28 peers are in `our_client_2026.rs`.

use std::ffi::OsString;

use mcp_elicit_interop_tests::{
    Lang, RunOutput, Target, TempFile, mcp_elicit_bin, run, start_peer_server, tool_text_json,
};
use serde_json::{Value, json};

/// `stdio:` target string with every word single-quoted (the client splits it with shell rules).
fn stdio_target(argv: &[OsString]) -> String {
    let words: Vec<String> = argv
        .iter()
        .map(|w| format!("'{}'", w.to_string_lossy().replace('\'', r"'\''")))
        .collect();
    format!("stdio:{}", words.join(" "))
}

/// Runs `mcp-elicit call TARGET TOOL ARGS...`.
fn call(target: &Target, tool: &str, args: &[&str]) -> RunOutput {
    let server = match target {
        Target::Http(url) => url.clone(),
        Target::Stdio(argv) => stdio_target(argv),
    };
    let mut argv: Vec<OsString> = vec![
        mcp_elicit_bin().into(),
        "call".into(),
        server.into(),
        tool.into(),
    ];
    argv.extend(args.iter().map(OsString::from));
    argv.extend(["--timeout".into(), "60".into()]);
    argv.extend(["--protocol".into(), "2025-11-25".into()]);
    run(&argv)
}

/// A call expected to succeed (exit 0, CallToolResult without isError); returns the JSON in its text.
fn call_ok(target: &Target, tool: &str, args: &[&str]) -> Value {
    let out = call(target, tool, args);
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let result = out.json();
    assert_eq!(result["isError"], false, "{}", out.describe());
    tool_text_json(&result)
}

fn expected_defaults() -> Value {
    json!({
        "name": "Ada Lovelace", "email": "ada@example.com", "code": "ENG-42",
        "website": "https://example.com/ada", "birthday": "1815-12-10", "age": 36, "ratio": 0.5,
        "subscribe": false, "color": "green", "size": "m", "legacy": "a", "tags": ["x"],
        "toppings": ["cheese"]
    })
}

fn form_accept_defaults(target: &Target) {
    let answer = call_ok(target, "all_kinds", &["--respond", "accept-defaults"]);
    assert_eq!(answer["action"], "accept", "{answer}");
    assert_eq!(answer["content"], expected_defaults(), "{answer}");
}

fn form_answers_file(target: &Target) {
    let file = TempFile::new(
        "answers.json",
        &json!({"code": "OPS-07", "age": 41, "tags": ["y", "z"], "size": "l"}).to_string(),
    );
    let respond = format!("@{}", file.path().display());
    let answer = call_ok(target, "all_kinds", &["--respond", &respond]);
    assert_eq!(answer["action"], "accept", "{answer}");
    let mut expected = expected_defaults();
    expected["code"] = json!("OPS-07");
    expected["age"] = json!(41);
    expected["tags"] = json!(["y", "z"]);
    expected["size"] = json!("l");
    assert_eq!(answer["content"], expected, "{answer}");
}

fn form_invalid_answer_is_not_sent(target: &Target) {
    let file = TempFile::new("bad.json", &json!({"code": "eng-42"}).to_string());
    let respond = format!("@{}", file.path().display());
    let out = call(target, "all_kinds", &["--respond", &respond]);
    // Our client validates before sending: the pattern violation never reaches the server, which
    // sees a cancel (not an accept carrying "eng-42"), and the command exits 2.
    assert_eq!(out.code(), Some(2), "{}", out.describe());
    let answer = tool_text_json(&out.json());
    assert_eq!(answer["action"], "cancel", "{}", out.describe());
    assert!(answer["content"].is_null(), "{}", out.describe());
}

fn form_decline(target: &Target) {
    let answer = call_ok(target, "all_kinds", &["--respond", "decline"]);
    assert_eq!(answer["action"], "decline", "{answer}");
    assert!(answer["content"].is_null(), "{answer}");
}

fn url_flow(target: &Target) {
    let answer = call_ok(
        target,
        "url_flow",
        &["--respond", "accept-defaults", "--open-urls", "print"],
    );
    assert_eq!(answer["action"], "accept", "{answer}");
    assert_eq!(answer["completed"], true, "{answer}");
}

fn url_declined_with_open_urls_never(target: &Target) {
    let answer = call_ok(
        target,
        "url_flow",
        &["--respond", "accept-defaults", "--open-urls", "never"],
    );
    assert_eq!(answer["action"], "decline", "{answer}");
    assert_eq!(answer["completed"], false, "{answer}");
}

fn url_required_then_retry(target: &Target) {
    let answer = call_ok(
        target,
        "url_required",
        &["--respond", "accept-defaults", "--open-urls", "print"],
    );
    assert_eq!(answer["authorized"], true, "{answer}");
}

/// A URL whose scheme could run code or read files is never consented to, even with
/// `--open-urls print`: the server sees a decline and the command exits 2.
fn blocked_url_is_declined(target: &Target) {
    for url in [
        "javascript:alert(1)",
        "file:///etc/passwd",
        "data:text/html,<b>hi</b>",
    ] {
        let args = json!({ "url": url }).to_string();
        let out = call(
            target,
            "url_flow",
            &[
                "--args",
                &args,
                "--respond",
                "accept-defaults",
                "--open-urls",
                "print",
            ],
        );
        assert_eq!(out.code(), Some(2), "{url}: {}", out.describe());
        let answer = tool_text_json(&out.json());
        assert_eq!(answer["action"], "decline", "{url}: {}", out.describe());
        assert_eq!(answer["completed"], false, "{url}: {}", out.describe());
    }
}

/// The user declines the URL (or the client has no URL mode): no retry, the -32042 error is the
/// outcome (the peer completes its elicitation on its own a moment later, so a retry would succeed).
fn url_required_not_completed(target: &Target, args: &[&str]) {
    let out = call(target, "url_required", args);
    assert_eq!(out.code(), Some(2), "{}", out.describe());
    assert!(out.stdout.trim().is_empty(), "{}", out.describe());
    let error = &out.last_stderr_json()["jsonrpcError"];
    assert_eq!(error["code"], -32042, "{}", out.describe());
    assert_eq!(
        error["data"]["elicitations"][0]["mode"],
        "url",
        "{}",
        out.describe()
    );
}

fn undeclared_mode(target: &Target, sent: &str, modes: &str) {
    let args = json!({ "mode": sent }).to_string();
    let out = call(
        target,
        "undeclared_mode",
        &[
            "--args",
            &args,
            "--modes",
            modes,
            "--respond",
            "accept-defaults",
        ],
    );
    // Refusing with -32602 is what the specification asks of our client, not a failure of the
    // call: the peer's tool gets the error, reports it and succeeds, so the command exits 0 and
    // says on stderr what it refused (and counts no elicitation failure).
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let result = out.json();
    assert_eq!(result["isError"], false, "{}", out.describe());
    let report = tool_text_json(&result);
    assert_eq!(report["sent"], sent, "{report}");
    assert_eq!(report["error"]["code"], -32602, "{report}");
    let notice = format!("this client did not declare {sent} mode elicitation");
    assert!(
        out.stderr.lines().any(|l| l
            .starts_with("mcp-elicit: refused an elicitation request from")
            && l.contains("with -32602")
            && l.contains(&notice)),
        "no refusal notice on stderr: {}",
        out.describe()
    );
    assert!(
        !out.stderr.contains("elicitation failure"),
        "{}",
        out.describe()
    );
}

fn declared_capabilities(target: &Target) {
    let report = call_ok(target, "client_capabilities", &["--modes", "form,url"]);
    let elicitation = &report["capabilities"]["elicitation"];
    assert!(elicitation["form"].is_object(), "{report}");
    assert!(elicitation["url"].is_object(), "{report}");
    let report = call_ok(target, "client_capabilities", &["--modes", "form"]);
    let elicitation = &report["capabilities"]["elicitation"];
    assert!(elicitation["form"].is_object(), "{report}");
    assert!(elicitation["url"].is_null(), "{report}");
    let report = call_ok(target, "client_capabilities", &["--modes", "url"]);
    let elicitation = &report["capabilities"]["elicitation"];
    assert!(elicitation["form"].is_null(), "{report}");
    assert!(elicitation["url"].is_object(), "{report}");
    let report = call_ok(target, "client_capabilities", &["--modes", "none"]);
    assert!(
        report["capabilities"]["elicitation"].is_null(),
        "no mode, no elicitation capability: {report}"
    );
}

/// Each check gets a fresh target (the peer servers' url_required state is per process).
fn each(lang: Lang, http: bool, check: impl Fn(&Target)) {
    if http {
        let (_server, url) = start_peer_server(lang);
        check(&Target::Http(url));
    } else {
        let mut argv = lang.server();
        argv.push("--stdio".into());
        check(&Target::Stdio(argv));
    }
}

macro_rules! interop {
    ($($name:ident => $check:expr;)*) => {
        mod ts_http { use super::*; $( #[test] fn $name() { each(Lang::Ts, true, $check); } )* }
        mod ts_stdio { use super::*; $( #[test] fn $name() { each(Lang::Ts, false, $check); } )* }
        mod py_http { use super::*; $( #[test] fn $name() { each(Lang::Py, true, $check); } )* }
        mod py_stdio { use super::*; $( #[test] fn $name() { each(Lang::Py, false, $check); } )* }
    };
}

interop! {
    form_accept_defaults_fills_every_kind => form_accept_defaults;
    form_answers_file_overrides_defaults => form_answers_file;
    form_invalid_answer_is_never_sent => form_invalid_answer_is_not_sent;
    form_decline_sends_no_content => form_decline;
    url_mode_accept_then_completion => url_flow;
    url_mode_declined_when_urls_never_open => url_declined_with_open_urls_never;
    url_mode_blocked_schemes_are_declined => blocked_url_is_declined;
    url_required_error_then_retry_succeeds => url_required_then_retry;
    url_required_declined_is_not_retried =>
        |t: &Target| url_required_not_completed(t, &["--open-urls", "never"]);
    url_required_without_url_mode_is_not_retried =>
        |t: &Target| url_required_not_completed(t, &["--open-urls", "print", "--modes", "form"]);
    undeclared_url_mode_is_refused_with_32602 => |t: &Target| undeclared_mode(t, "url", "form");
    undeclared_form_mode_is_refused_with_32602 => |t: &Target| undeclared_mode(t, "form", "url");
    declares_the_modes_it_was_given => declared_capabilities;
}
