//! Forms for 2026-07-28 peers through InputRequiredResult rounds, with sealed state.

use std::sync::{Arc, Mutex};

use mcp_elicit_core::schema::Schema;
use mcp_elicit_server::{
    ElicitationConfig, Elicitations, FormOutcome, IdentityPolicy, Principal, Round, SessionScope,
};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, ContentBlock,
    ElicitRequestParams, ElicitResult, ElicitationAction, Implementation, InitializeRequestParams,
    InitializeResult, ProtocolVersion, RequestStateCodec, ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RunningService, serve_directly};
use rmcp::{ClientHandler, ErrorData, RoleClient, RoleServer, ServerHandler, ServiceError};
use serde_json::{Value, json};

const KEY: &[u8] = b"0123456789abcdef0123456789abcdef-test-key";

fn schema() -> Schema {
    Schema::parse(&json!({
        "type": "object",
        "properties": {"handle": {"type": "string", "pattern": "^[a-z]+$"}},
        "required": ["handle"]
    }))
    .expect("schema")
}

struct MrtrServer {
    scope: SessionScope,
    codec: RequestStateCodec,
}

impl ServerHandler for MrtrServer {
    fn get_info(&self) -> ServerConfig {
        let mut info = InitializeResult::new(ServerCapabilities::builder().enable_tools().build());
        info.protocol_version = ProtocolVersion::V_2026_07_28;
        info
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let elicitor = self.scope.elicitor(&context)?;
        assert!(elicitor.uses_input_required());
        match elicitor.form_input(&self.codec, &request, "profile", "Pick a handle", &schema())? {
            Round::InputRequired(r) => Ok(CallToolResponse::InputRequired(r)),
            Round::Done(FormOutcome::Accepted(c)) => {
                Ok(CallToolResult::success(vec![ContentBlock::text(format!(
                    "accepted {}",
                    Value::Object(c)
                ))])
                .into())
            }
            Round::Done(other) => Ok(CallToolResult::success(vec![ContentBlock::text(format!(
                "{:?}",
                other.action()
            ))])
            .into()),
            _ => Err(ErrorData::internal_error("unexpected round", None)),
        }
    }
}

/// Answers every form with `answer` and records the requests it saw.
struct Client {
    answer: Value,
    seen: Arc<Mutex<Vec<Value>>>,
}

impl ClientHandler for Client {
    fn get_info(&self) -> rmcp::model::ClientConfig {
        // On 2026-07-28 the capabilities travel in every request's `_meta`.
        let caps: ClientCapabilities =
            serde_json::from_value(json!({"elicitation": {"form": {}}})).unwrap_or_default();
        rmcp::model::ClientConfig::new(caps, Implementation::new("mrtr-client", "0"))
            .with_protocol_version(ProtocolVersion::V_2026_07_28)
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.seen
            .lock()
            .expect("seen")
            .push(serde_json::to_value(&request).unwrap_or(Value::Null));
        let mut result = ElicitResult::new(ElicitationAction::Accept);
        result = result.with_content(self.answer.clone());
        Ok(result)
    }
}

/// Connects `server` to a [`Client`] (announcing `caps`, answering `answer`) over an
/// in-memory pipe, both sides speaking 2026-07-28; returns the client and what it saw.
fn pair_with<S: ServerHandler>(
    server: S,
    caps: Value,
    answer: Value,
) -> (RunningService<RoleClient, Client>, Arc<Mutex<Vec<Value>>>) {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let caps: ClientCapabilities = serde_json::from_value(caps).expect("caps");
    let client_info = InitializeRequestParams::new(caps, Implementation::new("mrtr-client", "0"))
        .with_protocol_version(ProtocolVersion::V_2026_07_28);
    let running = serve_directly::<RoleServer, _, _, _, _>(server, server_io, Some(client_info));
    tokio::spawn(async move {
        let _ = running.waiting().await;
    });
    let mut server_info =
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build());
    server_info.protocol_version = ProtocolVersion::V_2026_07_28;
    let seen = Arc::new(Mutex::new(Vec::new()));
    let client = serve_directly::<RoleClient, _, _, _, _>(
        Client {
            answer,
            seen: seen.clone(),
        },
        client_io,
        Some(server_info.into()),
    );
    (client, seen)
}

/// An [`MrtrServer`] for `user`, with a form-mode client answering `answer`.
fn pair(user: &str, answer: Value) -> (RunningService<RoleClient, Client>, Arc<Mutex<Vec<Value>>>) {
    let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(
        Principal::local_user(user),
    )));
    let server = MrtrServer {
        scope: hub.scope().expect("scope"),
        codec: RequestStateCodec::try_new(KEY).expect("key"),
    };
    pair_with(server, json!({"elicitation": {"form": {}}}), answer)
}

/// The JSON-RPC error's `data.kind`, panicking on any other kind of failure.
fn error_kind(err: ServiceError) -> Value {
    let ServiceError::McpError(data) = err else {
        panic!("expected a JSON-RPC error, got {err}")
    };
    data.data.expect("data")["kind"].clone()
}

#[tokio::test]
async fn a_form_round_trips_through_input_required() {
    let (client, seen) = pair("alice", json!({"handle": "ferris"}));
    let result = client
        .call_tool(CallToolRequestParams::new("ask"))
        .await
        .expect("call");
    let text = result.content[0]
        .as_text()
        .map(|t| t.text.clone())
        .unwrap_or_default();
    assert_eq!(text, r#"accepted {"handle":"ferris"}"#);
    let seen = seen.lock().expect("seen");
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0]["message"], "Pick a handle");
}

#[tokio::test]
async fn the_server_validates_even_what_the_client_could_not_see() {
    // rmcp's typed request drops `pattern`, so the client cannot check it; the server does.
    let (client, _seen) = pair("alice", json!({"handle": "NOT lower"}));
    let err = client
        .call_tool(CallToolRequestParams::new("ask"))
        .await
        .expect_err("invalid");
    assert_eq!(error_kind(err), "invalid_content");
}

#[tokio::test]
async fn forged_or_transplanted_request_state_is_refused() {
    let (alice, _) = pair("alice", json!({"handle": "ferris"}));
    let first = alice
        .call_tool_once(CallToolRequestParams::new("ask"))
        .await
        .expect("round 1");
    let CallToolResponse::InputRequired(required) = first else {
        panic!("expected input_required")
    };
    let state = required.request_state.clone().expect("sealed state");
    let answer = json!({"action": "accept", "content": {"handle": "ferris"}});
    let retry = |state: String, tool: &str| {
        CallToolRequestParams::new(tool.to_owned())
            .with_request_state(state)
            .with_input_responses(
                [("profile".to_owned(), answer.clone())]
                    .into_iter()
                    .collect(),
            )
    };

    // The genuine retry works.
    let ok = alice
        .call_tool_once(retry(state.clone(), "ask"))
        .await
        .expect("retry");
    assert!(matches!(ok, CallToolResponse::Complete(_)));

    // A tampered state, the same state for another tool, or replayed by another user: refused.
    let mut tampered = state.clone();
    tampered.push('x');
    for (client, params) in [
        (&alice, retry(tampered, "ask")),
        (&alice, retry(state.clone(), "other_tool")),
    ] {
        let err = client.call_tool_once(params).await.expect_err("refused");
        assert_eq!(error_kind(err), "malformed_reply");
    }
    let (bob, _) = pair("bob", json!({}));
    let err = bob
        .call_tool_once(retry(state, "ask"))
        .await
        .expect_err("other user");
    assert_eq!(error_kind(err), "malformed_reply");
}

#[tokio::test]
async fn the_reference_conformance_tool_uses_input_required_rounds_on_2026() {
    use mcp_elicit_server::reference::{Reference, ReferenceOptions};
    let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(
        Principal::local_user("alice"),
    )));
    let reference = Reference::new(
        hub.clone(),
        ReferenceOptions::new("http://127.0.0.1:9").with_conformance(true),
    );
    let (client, seen) = pair_with(
        reference.handler().expect("handler"),
        json!({"elicitation": {}}),
        json!({"username": "octocat", "email": "octo@example.com"}),
    );
    let mut params = CallToolRequestParams::new("test_elicitation");
    params = params.with_arguments(
        json!({"message": "Who are you?"})
            .as_object()
            .cloned()
            .unwrap_or_default(),
    );
    let result = client.call_tool(params).await.expect("call");
    let text = result.content[0]
        .as_text()
        .map(|t| t.text.clone())
        .unwrap_or_default();
    assert!(text.starts_with("User response: action=accept"), "{text}");
    assert_eq!(seen.lock().expect("seen").len(), 1);
    assert_eq!(hub.pending_count().await.expect("count"), 0);
}
