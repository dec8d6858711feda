//! The client against an rmcp Streamable HTTP server on 127.0.0.1:0.

mod common;

use std::sync::Arc;

use common::*;
use mcp_elicit_client::rmcp::model::CallToolRequestParams;
use mcp_elicit_client::rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use mcp_elicit_client::rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use mcp_elicit_client::{
    Config, ElicitationClient, FormResponse, ProtocolChoice, RecordingOpener, ServerTarget,
    TransportIdentity, UrlDecision,
};
use serde_json::json;

/// Serves a fresh [`TestServer`] per session; returns the endpoint and the last server's state.
async fn serve() -> (String, Arc<std::sync::Mutex<Option<Arc<ServerState>>>>) {
    let last: Arc<std::sync::Mutex<Option<Arc<ServerState>>>> = Arc::default();
    let slot = last.clone();
    let service = StreamableHttpService::new(
        move || {
            let server = TestServer::default();
            *slot.lock().unwrap() = Some(server.state.clone());
            Ok(server)
        },
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let app = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (format!("http://{addr}/mcp"), last)
}

#[tokio::test]
async fn over_http_the_request_arrives_exactly_as_sent_and_errors_are_precise() {
    let (url, _state) = serve().await;
    let ui = TestUi::default();
    ui.script_forms([FormResponse::Submit(
        json!({"code": "AB12"}).as_object().unwrap().clone(),
    )]);
    let client = ElicitationClient::new(
        ui.clone(),
        RecordingOpener::default(),
        Config::default().with_protocol(ProtocolChoice::V2025_11_25),
    );
    let target: ServerTarget = url.parse().unwrap();
    let conn = guard(client.clone().connect(&target))
        .await
        .expect("connect");
    assert!(matches!(
        client.transport_identity(),
        TransportIdentity::Http { .. }
    ));

    let schema = json!({"type": "object", "properties": {"code": {"type": "string", "pattern": "^[A-Z]{2}[0-9]{2}$", "minLength": 4}}, "required": ["code"]});
    let p = CallToolRequestParams::new("elicit").with_arguments(args(
        json!({"params": {"mode": "form", "message": "Code?", "requestedSchema": schema}}),
    ));
    let r = tool_json(&guard(conn.peer().call_tool(p)).await.unwrap());
    assert_eq!(r["ok"]["content"], json!({"code": "AB12"}), "{r}");
    assert_eq!(
        ui.forms()[0].raw_schema,
        schema,
        "pattern kept over Streamable HTTP"
    );
    match &ui.forms()[0].server.transport {
        TransportIdentity::Http { origin, .. } => assert!(origin.starts_with("http://127.0.0.1:")),
        other => panic!("{other:?}"),
    }

    // Malformed: -32602 with the reason, not -32601.
    let p = CallToolRequestParams::new("elicit")
        .with_arguments(args(json!({"params": {"mode": "bogus", "message": "m"}})));
    let r = tool_json(&guard(conn.peer().call_tool(p)).await.unwrap());
    assert_eq!(r["error"]["code"], -32602, "{r}");
    let _ = conn.cancel().await;
}

#[tokio::test]
async fn over_http_url_elicitation_required_is_completed_and_retried() {
    let (url, state) = serve().await;
    let ui = TestUi::default();
    ui.script_urls([UrlDecision::Open]);
    let (opener, mut opened) = ChannelOpener::new();
    let client = ElicitationClient::new(
        ui.clone(),
        opener.clone(),
        Config::default().with_protocol(ProtocolChoice::V2025_11_25),
    );
    let conn = guard(client.clone().connect(&url.parse().unwrap()))
        .await
        .expect("connect");
    let slot = state.clone();
    tokio::spawn(async move {
        if opened.recv().await.is_some() {
            let server = slot.lock().unwrap().clone();
            if let Some(server) = server {
                server.complete("h1").await;
            }
        }
    });
    let p = CallToolRequestParams::new("needs_url").with_arguments(args(json!({"id": "h1"})));
    let r = guard(client.call_tool(conn.peer(), p))
        .await
        .expect("retried");
    assert_eq!(tool_json(&r), json!({"done": "h1"}));
    assert_eq!(opener.opened().len(), 1);
    let _ = conn.cancel().await;
}
