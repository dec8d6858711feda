//! The official MCP conformance suite (`@modelcontextprotocol/conformance` 0.2.0-alpha.12, see
//! `interop/CONFORMANCE.md`): the three elicitation server scenarios against
//! `mcp-elicit serve --conformance`, and every client scenario that applies to an elicitation
//! client without authorization, on 2025-11-25 and 2026-07-28, against
//! `mcp-elicit conformance-client`.
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
    server_scenario("tools-call-elicitation", 2);
}

#[test]
fn server_elicitation_sep1034_defaults() {
    server_scenario("elicitation-sep1034-defaults", 6);
}

#[test]
fn server_elicitation_sep1330_enums() {
    server_scenario("elicitation-sep1330-enums", 6);
}

fn client_scenario(name: &str, revision: &str, checks: usize) {
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
        "--spec-version".into(),
        revision.into(),
    ]);
    assert_passed(&out, checks);
}

/// Every client scenario of the 0.2 line that applies to an elicitation client without
/// authorization, on each revision that requires it (`conformance list`), with its number of
/// checks.
macro_rules! client_scenarios {
    ($($test:ident => $name:literal, $revision:literal, $checks:literal;)*) => {
        $( #[test] fn $test() { client_scenario($name, $revision, $checks); } )*
    };
}

client_scenarios! {
    client_2025_initialize => "initialize", "2025-11-25", 1;
    client_2025_tools_call => "tools_call", "2025-11-25", 2;
    client_2025_elicitation_sep1034_client_defaults =>
        "elicitation-sep1034-client-defaults", "2025-11-25", 5;
    client_2025_sse_retry => "sse-retry", "2025-11-25", 3;
    client_2025_json_schema_2020_12_preservation =>
        "json-schema-2020-12-preservation", "2025-11-25", 9;
    client_2026_tools_call => "tools_call", "2026-07-28", 2;
    client_2026_sep_2322_client_request_state =>
        "sep-2322-client-request-state", "2026-07-28", 5;
    client_2026_request_metadata => "request-metadata", "2026-07-28", 6;
    client_2026_http_standard_headers => "http-standard-headers", "2026-07-28", 9;
    client_2026_http_custom_headers => "http-custom-headers", "2026-07-28", 18;
    client_2026_http_invalid_tool_headers => "http-invalid-tool-headers", "2026-07-28", 12;
    client_2026_json_schema_ref_no_deref => "json-schema-ref-no-deref", "2026-07-28", 1;
    client_2026_json_schema_2020_12_preservation =>
        "json-schema-2020-12-preservation", "2026-07-28", 9;
}
