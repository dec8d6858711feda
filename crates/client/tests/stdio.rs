//! The client against real child processes over stdio: the `demo_server` example (an
//! rmcp server) and the `misbehaving_server` example (raw JSON lines a library cannot
//! parse). `common::examples` builds them however the tests were started.

mod common;

use common::*;
use mcp_elicit_client::rmcp::model::CallToolRequestParams;
use mcp_elicit_client::{
    Config, ElicitationClient, FormResponse, ProtocolChoice, RecordingOpener, ServerTarget,
    TransportIdentity,
};
use serde_json::{Value, json};

#[tokio::test]
async fn a_child_process_server_over_stdio() {
    let command = vec![examples::example("demo_server").display().to_string()];
    let target = ServerTarget::Stdio {
        command: command.clone(),
    };
    let ui = TestUi::default();
    ui.script_forms([FormResponse::Submit(
        json!({"name": "Ada", "email": "ada@example.org", "handle": "ada_l"})
            .as_object()
            .unwrap()
            .clone(),
    )]);
    let client = ElicitationClient::new(
        ui.clone(),
        RecordingOpener::default(),
        Config::default().with_protocol(ProtocolChoice::V2025_11_25),
    );
    let conn = guard(client.clone().connect(&target))
        .await
        .expect("spawn and initialize");
    assert_eq!(
        client.transport_identity(),
        TransportIdentity::Stdio { command }
    );

    let r = guard(client.call_tool(conn.peer(), CallToolRequestParams::new("profile")))
        .await
        .expect("call");
    assert_eq!(r.is_error, Some(false), "{r:?}");
    let forms = ui.forms();
    assert_eq!(
        forms[0].raw_schema["properties"]["handle"]["pattern"], "^[a-z0-9_]{3,15}$",
        "pattern over stdio"
    );
    assert_eq!(forms[0].server.name.as_str(), "demo-server");
    assert!(matches!(
        forms[0].server.transport,
        TransportIdentity::Stdio { .. }
    ));
    let _ = guard(conn.cancel()).await;
}

/// Requests rmcp cannot parse are answered (-32602 for `elicitation/create` params that
/// are not an object, -32600 otherwise, without an id when it cannot be read), not
/// dropped: the server's `ping` sent after them is answered only once they all were, and
/// the tool call completes instead of hanging. Notifications and non-JSON lines get no
/// reply.
#[tokio::test]
async fn unparseable_requests_from_a_child_process_are_answered() {
    let command = vec![
        examples::example("misbehaving_server")
            .display()
            .to_string(),
    ];
    let ui = TestUi::default();
    let client = ElicitationClient::new(
        ui.clone(),
        RecordingOpener::default(),
        Config::default().with_protocol(ProtocolChoice::V2025_11_25),
    );
    let conn = guard(client.clone().connect(&ServerTarget::Stdio { command }))
        .await
        .expect("spawn and initialize");
    let r = guard(client.call_tool(conn.peer(), CallToolRequestParams::new("probe")))
        .await
        .expect("call");
    let replies = tool_json(&r)["replies"].clone();
    let summary: Vec<_> = replies
        .as_array()
        .expect("replies")
        .iter()
        .map(|r| (r["id"].clone(), r["error"]["code"].clone()))
        .collect();
    assert_eq!(
        summary,
        vec![
            (json!("params-array"), json!(-32602)),
            (json!("old-version"), json!(-32600)),
            (json!("method-number"), json!(-32600)),
            (Value::Null, json!(-32600)),
        ],
        "{replies}"
    );
    assert!(
        replies[0]["error"]["data"]["errors"].is_array(),
        "the -32602 says what is wrong: {replies}"
    );
    assert!(
        replies[3].get("id").is_none(),
        "an id that cannot be read is left out: {replies}"
    );
    // Nothing reached the UI.
    assert!(ui.forms().is_empty() && ui.urls().is_empty());
    let _ = guard(conn.cancel()).await;
}
