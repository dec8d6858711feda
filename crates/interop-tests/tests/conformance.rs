//! The official MCP conformance suite (`@modelcontextprotocol/conformance` 0.1.16, see
//! `interop/CONFORMANCE.md`): the three elicitation server scenarios against
//! `mcp-elicit serve --conformance`, and the client scenarios of the core suite that apply (all but
//! `auth/*`) against `mcp-elicit conformance-client`.
//! `scripts/conformance` runs the same outside `cargo test` (and the whole active suite with `--active`).

use std::ffi::OsString;

use mcp_elicit_interop_tests::{RunOutput, mcp_elicit_bin, run, start_our_server, tools};

/// `conformance ARGS...` with Node 22 first on PATH (the suite's shebang is `env node`).
fn conformance(args: &[OsString]) -> RunOutput {
    let t = tools();
    let bin_dir = t.node.parent().expect("node has a parent dir").to_owned();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs = vec![bin_dir];
    dirs.extend(std::env::split_paths(&path));
    let path = std::env::join_paths(dirs).expect("PATH");
    // `run` has no env hook: go through `env PATH=... conformance ...`.
    let mut argv: Vec<OsString> = vec!["env".into()];
    let mut assign = OsString::from("PATH=");
    assign.push(path);
    argv.push(assign);
    argv.push(t.conformance.clone().into());
    argv.extend(args.iter().cloned());
    run(&argv)
}

/// The scenario passed: exit 0, no check with status FAILURE, and exactly the scenario's
/// `checks` ran and passed without warnings (a scenario that ran no check does not pass).
fn assert_passed(out: &RunOutput, checks: usize) {
    assert_eq!(
        out.code(),
        Some(0),
        "conformance scenario failed:\n{}",
        out.describe()
    );
    let text = format!("{}{}", out.stdout, out.stderr);
    assert!(!text.contains("FAILURE"), "{}", out.describe());
    let summary = format!("Passed: {checks}/{checks}, 0 failed, 0 warnings");
    assert!(
        text.lines().any(|l| l.trim() == summary),
        "expected the summary {summary:?}:\n{}",
        out.describe()
    );
}

fn server_scenario(name: &str, checks: usize) {
    let (_server, url) = start_our_server(&["--conformance"]);
    let out = conformance(&[
        "server".into(),
        "--url".into(),
        url.into(),
        "--scenario".into(),
        name.into(),
    ]);
    assert_passed(&out, checks);
}

#[test]
fn server_tools_call_elicitation() {
    server_scenario("tools-call-elicitation", 1);
}

#[test]
fn server_elicitation_sep1034_defaults() {
    server_scenario("elicitation-sep1034-defaults", 5);
}

#[test]
fn server_elicitation_sep1330_enums() {
    server_scenario("elicitation-sep1330-enums", 5);
}

fn client_scenario(name: &str, checks: usize) {
    // The harness splits --command on spaces; the binary path has none in this repository layout.
    let command = format!("{} conformance-client", mcp_elicit_bin().display());
    assert!(
        !mcp_elicit_bin().to_string_lossy().contains(' '),
        "the conformance harness cannot run a binary whose path has spaces: {command}"
    );
    let out = conformance(&[
        "client".into(),
        "--command".into(),
        command.into(),
        "--scenario".into(),
        name.into(),
    ]);
    assert_passed(&out, checks);
}

#[test]
fn client_elicitation_sep1034_client_defaults() {
    client_scenario("elicitation-sep1034-client-defaults", 5);
}

#[test]
fn client_initialize() {
    client_scenario("initialize", 1);
}

#[test]
fn client_tools_call() {
    client_scenario("tools_call", 1);
}

#[test]
fn client_sse_retry() {
    client_scenario("sse-retry", 3);
}
