//! What a server gets without writing code for it: expired elicitations swept and never
//! counted against the quota, completion with bookkeeping in the safe order, the
//! application's data kept with the record, sessions that outlive the wait for a user.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::rounds::{Rounds, rounds_hub};
use common::{ManualClock, RawClient, alice, http_client};
use mcp_elicit_core::schema::Schema;
use mcp_elicit_server::{
    ElicitationConfig, Elicitations, ErrorKind, IdentityPolicy, MemoryStore, Principal,
    SessionScope,
};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ServerCapabilities,
    ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};

fn url_caps() -> Option<Value> {
    Some(json!({"form": {}, "url": {}}))
}

/// Alice's registry on `clock`: at most 2 pending, URL elicitations live 1 s.
fn short_lived(clock: Arc<ManualClock>, sweep: Option<Duration>) -> Elicitations {
    let config = ElicitationConfig::new(IdentityPolicy::LocalUser(alice()))
        .with_max_pending_per_user(2)
        .with_url_ttl(Duration::from_secs(1))
        .with_sweep_interval(sweep);
    Elicitations::with_store(config, Arc::new(MemoryStore::new()), clock)
}

async fn required(c: &mut RawClient) -> Value {
    let call = c.call_tool("required", json!({})).await;
    c.expect_response(call).await
}

#[tokio::test]
async fn expired_elicitations_never_count_and_are_swept_without_a_sweeper() {
    let clock = ManualClock::new();
    let hub = short_lived(clock.clone(), Some(Duration::from_secs(60)));
    let mut c = RawClient::connect(&hub, url_caps()).await;
    for _ in 0..2 {
        assert_eq!(required(&mut c).await["error"]["code"], -32042);
    }
    let full = required(&mut c).await;
    assert_eq!(full["error"]["data"]["kind"], "too_many_pending", "{full}");
    // Both expired (not swept yet: the last sweep was 2 s ago): a new one is accepted.
    clock.advance(Duration::from_secs(2));
    assert_eq!(required(&mut c).await["error"]["code"], -32042);
    assert_eq!(hub.pending_count().await.expect("count"), 3);
    // A minute on, the next insert sweeps: only the new one is left. No sweeper task,
    // no call to `sweep`.
    clock.advance(Duration::from_secs(60));
    assert_eq!(required(&mut c).await["error"]["code"], -32042);
    assert_eq!(hub.pending_count().await.expect("count"), 1);
}

#[tokio::test]
async fn with_the_automatic_sweep_off_expired_records_stay_but_still_never_count() {
    let clock = ManualClock::new();
    let hub = short_lived(clock.clone(), None);
    let mut c = RawClient::connect(&hub, url_caps()).await;
    for _ in 0..2 {
        assert_eq!(required(&mut c).await["error"]["code"], -32042);
    }
    clock.advance(Duration::from_secs(61));
    for _ in 0..2 {
        assert_eq!(required(&mut c).await["error"]["code"], -32042);
    }
    assert_eq!(hub.pending_count().await.expect("count"), 4);
    assert_eq!(hub.sweep().await.expect("sweep"), 2);
}

#[tokio::test]
async fn complete_with_runs_the_bookkeeping_only_for_a_verified_id_then_notifies() {
    let hub = common::hub();
    let mut c = RawClient::connect(&hub, url_caps()).await;
    let id = RawClient::required_id(&required(&mut c).await);
    let linked: Arc<Mutex<Option<Principal>>> = Arc::default();
    // The app's bookkeeping: link the user of the record, or (for the replay below)
    // what a naive handler would do with a stale id: unlink.
    let link = |linked: Arc<Mutex<Option<Principal>>>| {
        move |record: mcp_elicit_server::PendingElicitation| async move {
            *linked.lock().expect("linked") = Some(record.principal);
            Ok::<_, std::io::Error>("linked")
        }
    };
    let unlink = |linked: Arc<Mutex<Option<Principal>>>| {
        move |_record: mcp_elicit_server::PendingElicitation| async move {
            *linked.lock().expect("linked") = None;
            Ok::<_, std::io::Error>("unlinked")
        }
    };
    // Another user's id: refused, nothing run, still pending for alice.
    let mallory = Principal::local_user("mallory");
    let e = hub
        .complete_with(&mallory, &id, link(linked.clone()))
        .await
        .expect_err("not mallory's");
    assert_eq!(e.kind(), ErrorKind::UnknownElicitation);
    assert!(linked.lock().expect("linked").is_none());
    assert!(hub.get(&alice(), &id).await.expect("get").is_some());
    // Alice: recorded, bookkeeping, then the notification.
    let done = hub
        .complete_with(&alice(), &id, link(linked.clone()))
        .await
        .expect("complete");
    assert_eq!(done.value, "linked");
    assert!(done.completion.notified);
    assert_eq!(*linked.lock().expect("linked"), Some(alice()));
    let note = c.recv().await;
    assert_eq!(
        note["method"], "notifications/elicitation/complete",
        "{note}"
    );
    assert_eq!(note["params"], json!({"elicitationId": id}));
    // A replay of the same (now stale) id changes nothing: alice stays linked.
    let e = hub
        .complete_with(&alice(), &id, unlink(linked.clone()))
        .await
        .expect_err("replay");
    assert_eq!(e.kind(), ErrorKind::UnknownElicitation);
    assert_eq!(*linked.lock().expect("linked"), Some(alice()));
    assert!(c.try_recv(Duration::from_millis(100)).await.is_none());
}

#[tokio::test]
async fn a_failed_bookkeeping_is_a_typed_error_and_nothing_is_notified() {
    let hub = common::hub();
    let mut c = RawClient::connect(&hub, url_caps()).await;
    let id = RawClient::required_id(&required(&mut c).await);
    let e = hub
        .complete_with(&alice(), &id, |_| async {
            Err::<(), _>(std::io::Error::other("vault down"))
        })
        .await
        .expect_err("bookkeeping failed");
    assert_eq!(e.kind(), ErrorKind::Bookkeeping);
    let source = std::error::Error::source(&e).map(ToString::to_string);
    assert_eq!(source.as_deref(), Some("vault down"));
    assert!(c.try_recv(Duration::from_millis(100)).await.is_none());
    // Used up: a second completion is refused.
    assert!(hub.complete(&alice(), &id).await.is_err());
}

#[tokio::test]
async fn the_applications_data_is_stored_with_the_pending_elicitation() {
    let hub = rounds_hub("alice", ManualClock::new());
    let mut c = Rounds::connect(&hub);
    let r = c.call("connect", json!({})).await;
    Rounds::round(&r);
    let pending = hub.pending(&alice()).await.expect("pending");
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].app_data, Some(json!({"provider": "example"})));
    // Never sent to the client.
    assert!(!r.to_string().contains("provider"), "{r}");
}

/// One tool, `form`: asks for a username and an e-mail address.
struct FormServer {
    scope: SessionScope,
}

impl ServerHandler for FormServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        _request: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let schema = Schema::parse(&json!({"type": "object", "properties": {
            "username": {"type": "string"}, "email": {"type": "string"}}}))
        .expect("schema");
        let outcome = self
            .scope
            .elicitor(&ctx)?
            .form_with_schema("Who?", &schema)
            .await?;
        let text = format!("{:?}", outcome.action());
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
    }
}

/// Serves `router` on a loopback port; returns the MCP URL.
async fn serve(router: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move { axum::serve(listener, router).await });
    format!("http://{addr}/mcp")
}

/// Forms wait 3 s, sessions would idle out after 300 ms: the user answers after 1 s.
fn slow_user_config() -> ElicitationConfig {
    ElicitationConfig::new(IdentityPolicy::LocalUser(alice()))
        .with_timeout(Duration::from_secs(3))
        .with_session_idle_timeout(Duration::from_millis(300))
}

async fn ask_slow_user(url: &str) -> Result<CallToolResult, rmcp::ServiceError> {
    let (mut client, _notes, _seen) =
        http_client::Client::new(json!({"elicitation": {"form": {}}}));
    client.think = Duration::from_secs(1);
    let running = rmcp::ServiceExt::serve(
        client,
        rmcp::transport::StreamableHttpClientTransport::from_uri(url.to_owned()),
    )
    .await
    .expect("connect");
    running
        .call_tool(http_client::call("form", json!({})))
        .await
}

#[tokio::test]
async fn sessions_of_the_router_outlive_a_slow_user_and_bare_rmcp_ones_do_not() {
    let hub = Elicitations::new(slow_user_config());
    assert_eq!(
        hub.session_manager().session_config.keep_alive,
        Some(Duration::from_secs(4))
    );
    let scopes = hub.clone();
    let url = serve(hub.router(
        move || {
            Ok(FormServer {
                scope: scopes.scope().map_err(std::io::Error::other)?,
            })
        },
        Default::default(),
    ))
    .await;
    let result = ask_slow_user(&url).await.expect("answered");
    assert_eq!(http_client::first_text(&result), "Accept");

    // The same server with rmcp's session manager at the idle timeout alone: the
    // session is closed while the user is still typing.
    use rmcp::transport::streamable_http_server::StreamableHttpService;
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    let bare_hub = Elicitations::new(slow_user_config());
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(Duration::from_millis(300));
    let scopes = bare_hub.clone();
    let service = StreamableHttpService::new(
        move || {
            Ok(mcp_elicit_server::Edge::new(FormServer {
                scope: scopes.scope().map_err(std::io::Error::other)?,
            }))
        },
        Arc::new(sessions),
        Default::default(),
    );
    let url = serve(axum::Router::new().nest_service("/mcp", service)).await;
    let cut_off = tokio::time::timeout(Duration::from_secs(4), ask_slow_user(&url))
        .await
        .map(|r| r.is_err());
    assert!(
        !matches!(cut_off, Ok(false)),
        "the bare session should have been closed before the answer"
    );
}
