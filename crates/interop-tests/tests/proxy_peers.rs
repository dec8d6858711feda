//! `mcp-elicit proxy` between peers nobody here wrote (issue 18, items 2 and 5): the
//! TypeScript SDK v2's 2026-07-28 server (`interop/ts/server_v2.mjs`, elicitation as
//! `InputRequiredResult` rounds) used through the proxy by the TypeScript SDK v1 client
//! (`interop/ts/client.mjs`, `@modelcontextprotocol/sdk` 1.32, which speaks 2025-11-25 only
//! and knows no rounds). The rounds reach the v1 client as `elicitation/create` requests
//! (raw `pattern` included), its answers go back in `inputResponses` with `requestState`
//! echoed, and URL steps come with an elicitation id and a completion notification.

use std::ffi::OsString;

use mcp_elicit_interop_tests::{
    Lang, Process, Target, free_port, mcp_elicit_bin, peer_client_ok, repo_root, start_http_server,
    tool_text_json, tools,
};
use serde_json::Value;

/// The TypeScript SDK v2 server over Streamable HTTP, then the proxy in front of it; both
/// processes and the proxy's `/mcp` URL.
fn ts_v2_behind_the_proxy() -> (Process, Process, String) {
    let port = free_port();
    let argv: Vec<OsString> = vec![
        tools().node.clone().into(),
        repo_root().join("interop/ts/server_v2.mjs").into(),
        "--port".into(),
        port.to_string().into(),
    ];
    let upstream = start_http_server(&argv, port, "ts-v2-server");
    // The SDK v2 server also accepts initialize (its legacy shim): make the proxy speak
    // 2026-07-28 to it, so that its rounds are what the v1 client gets.
    let (proxy, url) = start_proxy(
        &format!("http://127.0.0.1:{port}/mcp"),
        &["--upstream-protocol", "2026-07-28"],
    );
    (upstream, proxy, url)
}

/// `mcp-elicit proxy --upstream UPSTREAM EXTRA...` on a free loopback port; it and its
/// `/mcp` URL.
fn start_proxy(upstream: &str, extra: &[&str]) -> (Process, String) {
    let port = free_port();
    let mut argv: Vec<OsString> = vec![
        mcp_elicit_bin().into(),
        "proxy".into(),
        "--upstream".into(),
        upstream.into(),
        "--listen".into(),
        format!("127.0.0.1:{port}").into(),
    ];
    argv.extend(extra.iter().map(OsString::from));
    let proxy = start_http_server(&argv, port, "mcp-elicit-proxy");
    (proxy, format!("http://127.0.0.1:{port}/mcp"))
}

/// The v1 client's tool result, as the JSON the v2 server put in its text.
fn answer(summary: &Value) -> Value {
    tool_text_json(&summary["result"])
}

#[test]
fn a_ts_v1_client_answers_the_rounds_of_a_ts_v2_server_through_the_proxy() {
    let (_upstream, proxy, url) = ts_v2_behind_the_proxy();
    let target = Target::Http(url);

    // One form with every kind the v2 server's schema has; the v1 client checks the raw
    // request it got (pattern, formats, enums, defaults) and answers with the defaults.
    let s = peer_client_ok(
        Lang::Ts,
        &[
            "--scenario",
            "form",
            "--tool",
            "form",
            "--expect-kinds",
            "string,pattern,format,integer,number,boolean,enum,titled-enum,multi",
        ],
        &target,
    );
    let a = answer(&s);
    assert_eq!(a["action"], "accept", "{s}");
    assert_eq!(a["content"]["code"], "ENG-42", "{s}");
    assert_eq!(a["content"]["tags"], serde_json::json!(["x"]), "{s}");
    let log = proxy.log();
    assert!(log.contains("revision=2026-07-28"), "{log}");

    // Two requests in one round, then two rounds whose second depends on the first (the
    // state the server sealed comes back to it).
    let s = peer_client_ok(
        Lang::Ts,
        &[
            "--scenario",
            "form",
            "--tool",
            "two_questions",
            // The two requests have no kind in common (string; enum and integer).
            "--expect-kinds",
            "",
            "--answers",
            r#"{"name":"Ada"}"#,
        ],
        &target,
    );
    let a = answer(&s);
    assert_eq!(a["who"]["content"]["name"], "Ada", "{s}");
    assert_eq!(a["size"]["content"]["size"], "m", "{s}");
    assert_eq!(a["state"], "two-questions", "{s}");
    assert_eq!(s["elicitations"].as_array().map(Vec::len), Some(2), "{s}");
    let s = peer_client_ok(
        Lang::Ts,
        &[
            "--scenario",
            "form",
            "--tool",
            "multi_round",
            "--expect-kinds",
            "",
            "--answers",
            r#"{"plan":"pro","seats":7}"#,
        ],
        &target,
    );
    let a = answer(&s);
    assert_eq!(s["elicitations"].as_array().map(Vec::len), Some(2), "{s}");
    assert_eq!(
        s["elicitations"][1]["message"], "Step 2: seats for the pro plan",
        "{s}"
    );
    assert_eq!(a["plan"], "pro", "{s}");
    assert_eq!(a["seats"], 7, "{s}");
}

#[test]
fn url_steps_of_a_ts_v2_server_get_an_id_and_a_completion_for_a_ts_v1_client() {
    let (_upstream, proxy, url) = ts_v2_behind_the_proxy();
    let target = Target::Http(url);
    // The v1 client consents, then waits for notifications/elicitation/complete with the
    // id it was given (the proxy's own: 2026-07-28 has none).
    for tool in ["url", "url_waiting"] {
        let s = peer_client_ok(Lang::Ts, &["--scenario", "url", "--tool", tool], &target);
        let a = answer(&s);
        assert_eq!(a["completed"], true, "{tool}: {s}");
        let id = s["elicitations"][0]["elicitationId"].as_str().unwrap_or("");
        assert!(id.starts_with("proxy-"), "{tool}: {s}");
        assert_eq!(s["completions"], serde_json::json!([id]), "{tool}: {s}");
        if tool == "url_waiting" {
            // The server answered "still waiting" once; the proxy asked it again.
            assert_eq!(a["waited"], true, "{s}\n{}", proxy.log());
        }
    }
    // The URL is the server's and reaches the client; the proxy's log never has it.
    assert!(
        !proxy.log().contains("example.com/connect"),
        "{}",
        proxy.log()
    );
}

/// Makes a Node server's `listen(port)` bind 127.0.0.1 only (the SDK's examples bind every
/// interface).
const LOOPBACK_ONLY: &str = r#"
const net = require('net');
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if ((typeof args[0] === 'number' || typeof args[0] === 'string') && typeof args[1] !== 'string') {
    args.splice(1, 0, '127.0.0.1');
  }
  return listen.apply(this, args);
};
"#;

/// The TypeScript SDK's own form example (`elicitationFormExample.js`, 2025-11-25) asks for
/// a password through form mode, which the specification forbids. Through the proxy (which
/// offers it 2026-07-28 first and falls back to `initialize`) the form never reaches the
/// client: the user reads why, the example gets -32602 saying to use URL mode.
/// The TypeScript SDK's `elicitationFormExample.js` on a free loopback port: its preload
/// file, the process and its `/mcp` URL.
fn start_ts_form_example() -> (mcp_elicit_interop_tests::TempFile, Process, String) {
    let preload = mcp_elicit_interop_tests::TempFile::new("loopback.cjs", LOOPBACK_ONLY);
    let port = free_port();
    let example = tools().dir.join(
        "node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/elicitationFormExample.js",
    );
    let argv: Vec<OsString> = vec![
        tools().node.clone().into(),
        "-r".into(),
        preload.path().into(),
        example.into(),
    ];
    let mut cmd = mcp_elicit_interop_tests::command(&argv);
    cmd.env("PORT", port.to_string());
    let mut upstream = Process::spawn(cmd, "ts-form-example");
    upstream.wait_listening(port);
    (preload, upstream, format!("http://localhost:{port}/mcp"))
}

#[test]
fn the_ts_sdk_example_password_form_is_blocked_with_a_clear_message() {
    let (_preload, _upstream, upstream_url) = start_ts_form_example();
    let (proxy, url) = start_proxy(&upstream_url, &[]);
    let target = Target::Http(url);
    let s = peer_client_ok(
        Lang::Ts,
        &["--scenario", "capabilities", "--tool", "register_user"],
        &target,
    );
    assert_eq!(s["elicitations"], serde_json::json!([]), "{s}");
    // Every text block: the example's own, then the proxy's note for the user.
    let text = s["result"]["content"]
        .as_array()
        .map(|blocks| {
            blocks
                .iter()
                .filter_map(|b| b["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default();
    assert!(text.contains("mcp-elicit proxy did not show it"), "{text}");
    assert!(text.contains("URL-mode elicitation"), "{text}");
    // What the example made of the -32602 it got.
    assert!(text.contains("Registration failed"), "{text}");
    assert!(text.contains("password look like secrets"), "{text}");
    let log = proxy.log();
    assert!(log.contains("revision=2025-11-25"), "{log}");
    assert!(log.contains("secret-form"), "{log}");
    assert!(!log.contains("registration information"), "{log}");
}

/// The Python SDK 2.3 client on its defaults (2026-07-28: `server/discover`, rounds, no
/// session) uses the TypeScript SDK's form example (2025-11-25: `elicitation/create` in the
/// middle of a call) through the proxy: the example's two-step `create_event` wizard comes
/// as two rounds of the proxy's own, the answers reach the example, an answer outside the
/// schema never does (the example gets `cancel`, the user reads which field), and the
/// password form is never shown.
#[test]
fn the_python_sdk_default_client_uses_the_ts_form_example_through_the_proxy() {
    let (_preload, _upstream, upstream_url) = start_ts_form_example();
    let (proxy, url) = start_proxy(&upstream_url, &[]);
    let target = Target::Http(url);
    let py = |args: &[&str]| {
        let out = mcp_elicit_interop_tests::run(&mcp_elicit_interop_tests::client_argv(
            Lang::Py.client_2026(),
            args,
            &target,
        ));
        let s = out.last_json();
        assert!(
            out.code() == Some(0) && s["ok"] == true,
            "python peer failed: {:?}\n{}\nproxy: {}",
            s["failures"],
            out.describe(),
            proxy.log()
        );
        assert_eq!(s["protocolVersion"], "2026-07-28", "{s}");
        s
    };
    let answers = r#"{"title":"Standup","description":"Daily","date":"2026-12-07","startTime":"09:30","duration":30}"#;
    let s = py(&[
        "--scenario",
        "form",
        "--tool",
        "create_event",
        "--answers",
        answers,
    ]);
    let steps = s["elicitations"].as_array().cloned().unwrap_or_default();
    assert_eq!(steps.len(), 2, "{s}");
    assert_eq!(
        steps[0]["params"]["message"], "Step 1: Enter basic event information",
        "{s}"
    );
    assert_eq!(
        steps[1]["requestedSchema"]["properties"]["duration"]["minimum"], 15,
        "{s}"
    );
    let text = mcp_elicit_interop_tests::tool_text(&s["result"]);
    assert!(text.contains("Event created successfully!"), "{s}");
    assert!(text.contains("\"title\": \"Standup\""), "{text}");
    assert!(text.contains("\"duration\": 30"), "{text}");

    // Five minutes is under the example's minimum: stopped before it reaches the example.
    let short = r#"{"title":"Standup","date":"2026-12-07","startTime":"09:30","duration":5}"#;
    let s = py(&[
        "--scenario",
        "form",
        "--tool",
        "create_event",
        "--answers",
        short,
    ]);
    let text = result_texts(&s["result"]);
    assert!(text.contains("Event creation cancelled."), "{text}");
    assert!(text.contains("duration"), "{text}");

    // The password form: no round at all, the user reads why.
    let s = py(&["--scenario", "form", "--tool", "register_user"]);
    assert_eq!(s["elicitations"], serde_json::json!([]), "{s}");
    let text = result_texts(&s["result"]);
    assert!(text.contains("mcp-elicit proxy did not show it"), "{text}");
    let log = proxy.log();
    assert!(log.contains("revision=2025-11-25"), "{log}");
    assert!(!log.contains("Standup"), "{log}");
}

/// Every text block of a tool result, joined.
fn result_texts(result: &Value) -> String {
    result["content"]
        .as_array()
        .map(|blocks| {
            blocks
                .iter()
                .filter_map(|b| b["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}
