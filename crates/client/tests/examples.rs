//! The README's examples as programs: `call_tool` (the README opens with it, verbatim)
//! and `host` (a host with its own `ElicitationUi`), each run against the `demo_server`
//! example, a real rmcp server, over stdio.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::examples::example;
use serde_json::Value;

/// Runs example `name` with `args`, feeding `stdin`; returns stdout's last line as JSON.
fn run(name: &str, args: &[&str], stdin: &str) -> Value {
    let mut child = Command::new(example(name))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the example");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    let out = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{name} failed: {stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(last).unwrap_or_else(|e| panic!("{name} printed {stdout:?}: {e}"))
}

fn demo_server() -> String {
    format!("stdio:{}", example("demo_server").display())
}

/// The JSON the demo server's `profile` tool puts in its text result.
fn answered(result: &Value) -> Value {
    assert_eq!(result["isError"], false, "{result}");
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    serde_json::from_str(text).expect("the demo server answers JSON")
}

#[test]
fn call_tool_answers_the_form_from_json() {
    let server = demo_server();
    let args = [
        server.as_str(),
        "profile",
        r#"{"email": "ada@example.org"}"#,
    ];
    let result = run("call_tool", &args, "");
    let content = &answered(&result)["result"]["content"];
    assert_eq!(content["email"], "ada@example.org", "{result}");
    assert_eq!(content["name"], "Ada", "the default was kept: {result}");
}

#[test]
fn the_host_reads_answers_from_stdin_and_re_asks_invalid_ones() {
    let server = demo_server();
    // The first answer breaks the handle's pattern: the host is asked again, then sends.
    let answers = "{\"email\": \"ada@example.org\", \"handle\": \"A!\"}\n\
                   {\"email\": \"ada@example.org\", \"handle\": \"ada_l\"}\n";
    let result = run("host", &[server.as_str(), "profile"], answers);
    let content = &answered(&result)["result"]["content"];
    assert_eq!(content["handle"], "ada_l", "{result}");
}

#[test]
fn the_readme_opens_with_the_call_tool_example() {
    let readme = include_str!("../README.md");
    let first_block = readme
        .split_once("```rust,ignore\n")
        .and_then(|(before, rest)| (!before.contains("```")).then_some(rest))
        .and_then(|rest| rest.split_once("```\n"))
        .map(|(block, _)| block);
    assert_eq!(
        first_block,
        Some(include_str!("../examples/call_tool.rs")),
        "the first code block of crates/client/README.md must be examples/call_tool.rs"
    );
}
