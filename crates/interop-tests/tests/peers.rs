//! The peers checked against each other (TypeScript client ↔ Python server, Python client ↔
//! TypeScript server), so that a failure in the other interop tests points at mcp-elicit, not at a peer.

use mcp_elicit_interop_tests::{
    Lang, Target, peer_client_ok, run_peer_client, start_peer_server, tool_text_json,
};

/// Every scenario of one peer client against one peer server.
fn check_pair(client: Lang, target: &Target) {
    // Form mode: every field kind, the pattern intact, defaults accepted and validated by the server.
    let s = peer_client_ok(
        client,
        &["--scenario", "form", "--tool", "all_kinds"],
        target,
    );
    let answer = tool_text_json(&s["result"]);
    assert_eq!(answer["action"], "accept", "{s}");
    assert_eq!(answer["content"]["code"], "ENG-42", "{s}");
    assert_eq!(
        s["elicitations"][0]["requestedSchema"]["properties"]["code"]["pattern"],
        "^[A-Z]{3}-[0-9]{2}$"
    );

    // An answer breaking the pattern is refused by the peer server's validation.
    let out = run_peer_client(
        client,
        &[
            "--scenario",
            "form",
            "--tool",
            "all_kinds",
            "--answers",
            r#"{"code":"eng-42"}"#,
        ],
        target,
    );
    let s = out.last_json();
    // Exit 1: the peer client's own assertions failed (the server refused the answer).
    assert_eq!(out.code(), Some(1), "{}", out.describe());
    assert_eq!(s["ok"], false, "{}", out.describe());
    assert_eq!(s["error"]["code"], -32602, "{}", out.describe());
    assert!(s["result"].is_null(), "{}", out.describe());

    // Decline carries no content.
    let s = peer_client_ok(
        client,
        &[
            "--scenario",
            "form",
            "--tool",
            "all_kinds",
            "--action",
            "decline",
        ],
        target,
    );
    let answer = tool_text_json(&s["result"]);
    assert_eq!(answer["action"], "decline");
    assert!(answer["content"].is_null(), "{s}");

    // URL mode: accepted, then the completion notification for the same id.
    let s = peer_client_ok(client, &["--scenario", "url", "--tool", "url_flow"], target);
    let id = s["elicitations"][0]["elicitationId"].clone();
    assert!(id.is_string(), "{s}");
    assert_eq!(s["completions"][0], id, "{s}");
    assert_eq!(tool_text_json(&s["result"])["completed"], true);

    // -32042, parsed by the SDK's own typed error, then success after completion.
    let s = peer_client_ok(
        client,
        &["--scenario", "url-required", "--tool", "url_required"],
        target,
    );
    assert_eq!(s["error"]["code"], -32042, "{s}");
    assert_eq!(tool_text_json(&s["retryResult"])["authorized"], true, "{s}");

    // A client that declared form only answers a URL request with -32602 (TypeScript client only:
    // the Python SDK always declares both modes).
    if client == Lang::Ts {
        let s = peer_client_ok(
            client,
            &[
                "--scenario",
                "capabilities",
                "--tool",
                "undeclared_mode",
                "--args",
                r#"{"mode":"url"}"#,
                "--modes",
                "form",
            ],
            target,
        );
        let report = tool_text_json(&s["result"]);
        assert_eq!(report["error"]["code"], -32602, "{s}");
    }
}

fn over_http(client: Lang, server: Lang) {
    let (_server, url) = start_peer_server(server);
    check_pair(client, &Target::Http(url));
}

fn over_stdio(client: Lang, server: Lang) {
    let mut argv = server.server();
    argv.push("--stdio".into());
    check_pair(client, &Target::Stdio(argv));
}

#[test]
fn ts_client_against_py_server_over_http() {
    over_http(Lang::Ts, Lang::Py);
}

#[test]
fn ts_client_against_py_server_over_stdio() {
    over_stdio(Lang::Ts, Lang::Py);
}

#[test]
fn py_client_against_ts_server_over_http() {
    over_http(Lang::Py, Lang::Ts);
}

#[test]
fn py_client_against_ts_server_over_stdio() {
    over_stdio(Lang::Py, Lang::Ts);
}
