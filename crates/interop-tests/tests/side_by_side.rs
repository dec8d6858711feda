//! docs/side-by-side.md: the same two tools in mcp-elicit (the server crate's `quickstart`
//! example), FastMCP (`interop/py/side_by_side_fastmcp.py`) and the TypeScript SDK v1
//! (`interop/ts/side_by_side.mjs`), each driven by the Python SDK's client: the booking
//! form (range, date format, enum) answered, and the calendar link finished on its
//! callback page (GET, then POST, as a browser would). The quickstart also on 2026-07-28.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use mcp_elicit_interop_tests::{
    Lang, Process, Target, client_argv, free_port, repo_root, run, start_http_server, tools,
};
use serde_json::Value;

const ANSWERS: &str = r#"{"party_size": 4, "date": "2026-12-24", "seating": "Terrace"}"#;

/// The quickstart example of mcp-elicit-server, built (or found up to date) by cargo.
fn quickstart() -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(repo_root())
        .args([
            "build",
            "-p",
            "mcp-elicit-server",
            "--example",
            "quickstart",
        ])
        .arg("--message-format=json-render-diagnostics")
        .stderr(Stdio::inherit())
        .output()
        .expect("run cargo");
    assert!(
        out.status.success(),
        "cargo build --example quickstart failed"
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == "quickstart")
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
        .expect("cargo reported the quickstart executable")
}

/// Starts a server on a free port; its command line gets the port through `port_args`.
fn start(
    program: Vec<OsString>,
    port_args: impl Fn(u16) -> Vec<String>,
    name: &str,
) -> (Process, String) {
    let port = free_port();
    let mut argv = program;
    argv.extend(port_args(port).into_iter().map(OsString::from));
    (
        start_http_server(&argv, port, name),
        format!("http://127.0.0.1:{port}/mcp"),
    )
}

/// Runs a Python SDK client (`client`: 2025-11-25 or 2026-07-28) and returns its summary
/// after checking its own assertions held.
fn py(client: Vec<OsString>, args: &[&str], url: &str) -> Value {
    let out = run(&client_argv(client, args, &Target::Http(url.to_owned())));
    let summary = out.last_json();
    assert!(
        out.code() == Some(0) && summary["ok"] == true,
        "{}",
        out.describe()
    );
    summary
}

fn result_text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}

/// The booking form as every version sends it, answered; `rounds`: the 2026-07-28 client.
fn book(client: Vec<OsString>, url: &str, rounds: bool) {
    let mut args = vec![
        "--scenario",
        "form",
        "--tool",
        "book_table",
        "--answers",
        ANSWERS,
    ];
    if !rounds {
        args.extend(["--expect-kinds", "integer,format,enum"]);
    }
    let summary = py(client, &args, url);
    let asked = &summary["elicitations"][0];
    let schema = if rounds {
        &asked["params"]["requestedSchema"]
    } else {
        &asked["requestedSchema"]
    };
    let props = &schema["properties"];
    let range = (
        props["party_size"]["minimum"].as_i64(),
        props["party_size"]["maximum"].as_i64(),
    );
    assert_eq!(range, (Some(1), Some(12)), "{summary}");
    assert_eq!(props["date"]["format"], "date", "{summary}");
    assert_eq!(
        props["seating"]["enum"],
        serde_json::json!(["Indoor", "Terrace"]),
        "{summary}"
    );
    assert_eq!(
        result_text(&summary["result"]),
        "Table for 4 on 2026-12-24, Terrace",
        "{summary}"
    );
}

#[test]
fn quickstart_with_the_python_sdk_on_2025_11_25() {
    let (_server, url) = start(
        vec![quickstart().into()],
        |p| vec![format!("127.0.0.1:{p}")],
        "quickstart",
    );
    book(Lang::Py.client(), &url, false);
    let link = [
        "--scenario",
        "url-required",
        "--tool",
        "link_calendar",
        "--visit",
        "post",
    ];
    let summary = py(Lang::Py.client(), &link, &url);
    assert_eq!(summary["error"]["code"], -32042, "{summary}");
    assert_eq!(
        result_text(&summary["retryResult"]),
        "Your calendar is linked",
        "{summary}"
    );
}

#[test]
fn quickstart_with_the_python_sdk_on_2026_07_28() {
    let (_server, url) = start(
        vec![quickstart().into()],
        |p| vec![format!("127.0.0.1:{p}")],
        "quickstart",
    );
    book(Lang::Py.client_2026(), &url, true);
    let link = [
        "--scenario",
        "url",
        "--tool",
        "link_calendar",
        "--visit",
        "post",
    ];
    let summary = py(Lang::Py.client_2026(), &link, &url);
    assert_eq!(
        result_text(&summary["result"]),
        "Your calendar is linked",
        "{summary}"
    );
}

#[test]
fn the_fastmcp_version_works() {
    let script = repo_root().join("interop/py/side_by_side_fastmcp.py");
    let program = vec![tools().python.clone().into(), script.into()];
    let (_server, url) = start(program, |p| vec!["--port".into(), p.to_string()], "fastmcp");
    book(Lang::Py.client(), &url, false);
    // FastMCP turns an MCPError raised by a tool (-32042 included) into an isError result,
    // so its calendar link is a URL-mode request in the middle of the call instead.
    let link = [
        "--scenario",
        "url",
        "--tool",
        "link_calendar",
        "--visit",
        "post",
    ];
    let summary = py(Lang::Py.client(), &link, &url);
    assert_eq!(
        summary["completions"].as_array().map(Vec::len),
        Some(1),
        "{summary}"
    );
}

#[test]
fn the_typescript_sdk_version_works() {
    let script = repo_root().join("interop/ts/side_by_side.mjs");
    let program = vec![tools().node.clone().into(), script.into()];
    let (_server, url) = start(
        program,
        |p| vec!["--port".into(), p.to_string()],
        "ts-side-by-side",
    );
    book(Lang::Py.client(), &url, false);
    let link = [
        "--scenario",
        "url-required",
        "--tool",
        "link_calendar",
        "--visit",
        "post",
    ];
    let summary = py(Lang::Py.client(), &link, &url);
    assert_eq!(
        result_text(&summary["retryResult"]),
        "Your calendar is linked",
        "{summary}"
    );
}

/// Lines of code by the rule of docs/side-by-side.md: non-blank, not comment-only, without
/// the header comment (leading `//` lines, or a Python module docstring); `///` counts.
fn lines_of_code(path: &str) -> usize {
    let text = std::fs::read_to_string(repo_root().join(path)).expect("read");
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .peekable();
    if path.ends_with(".py") && lines.peek().is_some_and(|l| l.starts_with("\"\"\"")) {
        let first = lines.next().unwrap_or_default();
        if !(first.len() > 3 && first.ends_with("\"\"\"")) {
            lines.by_ref().find(|l| l.ends_with("\"\"\""));
        }
    } else {
        while lines
            .next_if(|l| l.starts_with("//") && !l.starts_with("///"))
            .is_some()
        {}
    }
    let comment = |l: &&str| {
        if path.ends_with(".py") {
            l.starts_with('#')
        } else {
            l.starts_with("//") && !l.starts_with("///")
        }
    };
    lines.filter(|l| !comment(l)).count()
}

#[test]
fn the_line_counts_on_the_page_are_current() {
    let page = std::fs::read_to_string(repo_root().join("docs/side-by-side.md")).expect("page");
    for (row, path) in [
        ("| FastMCP |", "interop/py/side_by_side_fastmcp.py"),
        ("| TypeScript SDK v1 |", "interop/ts/side_by_side.mjs"),
        ("| mcp-elicit |", "crates/server/examples/quickstart.rs"),
    ] {
        let counted = lines_of_code(path);
        let line = page.lines().find(|l| l.starts_with(row)).expect("a row");
        assert_eq!(
            line,
            format!("{row} {counted} |"),
            "docs/side-by-side.md, {path}"
        );
    }
}
