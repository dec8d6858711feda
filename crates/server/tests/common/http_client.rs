//! An rmcp client over Streamable HTTP for tests of the reference server: it accepts
//! every elicitation (forms with a fixed answer), records what it was sent, and reports
//! the completion notifications it receives.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, CustomNotification,
    ElicitRequestParams, ElicitResult, ElicitationAction, Implementation,
};
use rmcp::service::{NotificationContext, RequestContext, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceError, ServiceExt};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::WAIT;

/// What the client was sent, one line each (`form: <message>`, `url: <url>`, `hung: ...`).
pub type Seen = Arc<Mutex<Vec<String>>>;

/// A client that accepts every elicitation and reports completion notifications.
pub struct Client {
    pub caps: Value,
    pub completions: mpsc::UnboundedSender<Value>,
    pub seen: Seen,
    /// Never answer forms (a user who walked away, then a client that goes away).
    pub hang: bool,
    /// How long the user takes to fill in a form.
    pub think: Duration,
}

impl Client {
    /// A client announcing `caps`; returns it with its notification receiver and log.
    pub fn new(caps: Value) -> (Self, mpsc::UnboundedReceiver<Value>, Seen) {
        let (tx, rx) = mpsc::unbounded_channel();
        let seen = Seen::default();
        let client = Client {
            caps,
            completions: tx,
            seen: seen.clone(),
            hang: false,
            think: Duration::ZERO,
        };
        (client, rx, seen)
    }
}

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        let caps: ClientCapabilities =
            serde_json::from_value(self.caps.clone()).expect("capabilities");
        ClientConfig::new(caps, Implementation::new("http-test-client", "0"))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        match request {
            ElicitRequestParams::FormElicitationParams { message, .. } => {
                if self.hang {
                    self.seen
                        .lock()
                        .expect("seen")
                        .push(format!("hung: {message}"));
                    std::future::pending::<()>().await;
                }
                tokio::time::sleep(self.think).await;
                self.seen
                    .lock()
                    .expect("seen")
                    .push(format!("form: {message}"));
                Ok(ElicitResult::new(ElicitationAction::Accept)
                    .with_content(json!({"username": "octocat", "email": "octo@example.com"})))
            }
            ElicitRequestParams::UrlElicitationParams { url, .. } => {
                self.seen.lock().expect("seen").push(format!("url: {url}"));
                Ok(ElicitResult::new(ElicitationAction::Accept))
            }
            _ => Ok(ElicitResult::new(ElicitationAction::Decline)),
        }
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        _context: NotificationContext<RoleClient>,
    ) {
        if notification.method == "notifications/elicitation/complete" {
            let _ = self
                .completions
                .send(notification.params.unwrap_or(Value::Null));
        }
    }
}

/// A connected client.
pub type Running = RunningService<RoleClient, Client>;

/// Connects a client announcing `caps` to the MCP endpoint at `url`.
pub async fn connect(url: &str, caps: Value) -> (Running, mpsc::UnboundedReceiver<Value>, Seen) {
    let (client, rx, seen) = Client::new(caps);
    let running = client
        .serve(StreamableHttpClientTransport::from_uri(url.to_owned()))
        .await
        .expect("connect");
    (running, rx, seen)
}

/// Connects a client (form and URL modes) that sends `token` as its bearer token.
pub async fn connect_as(url: &str, token: &str) -> (Running, mpsc::UnboundedReceiver<Value>) {
    let (client, rx, _seen) = Client::new(json!({"elicitation": {"form": {}, "url": {}}}));
    let config =
        StreamableHttpClientTransportConfig::with_uri(url.to_owned()).auth_header(token.to_owned());
    let running = client
        .serve(StreamableHttpClientTransport::from_config(config))
        .await
        .expect("connect");
    (running, rx)
}

/// A `tools/call` of `name` with `args` (an object, or anything else for none).
pub fn call(name: &str, args: Value) -> CallToolRequestParams {
    let mut params = CallToolRequestParams::new(name.to_owned());
    if let Value::Object(map) = args {
        params = params.with_arguments(map);
    }
    params
}

/// The first text block of a tool result, or "".
pub fn first_text(result: &CallToolResult) -> String {
    result
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .unwrap_or_default()
}

/// The JSON-RPC error's `data`, panicking on any other kind of failure.
pub fn error_data(err: ServiceError) -> (i32, Value) {
    let ServiceError::McpError(data) = err else {
        panic!("expected a JSON-RPC error, got {err}")
    };
    (data.code.0, data.data.expect("data"))
}

/// Calls `connect_demo`, which must answer -32042; returns the elicitation's id.
pub async fn required_id(client: &Running) -> String {
    let err = client
        .call_tool(call("connect_demo", json!({})))
        .await
        .expect_err("-32042");
    let (code, data) = error_data(err);
    assert_eq!(code, -32042);
    data["elicitations"][0]["elicitationId"]
        .as_str()
        .expect("id")
        .to_owned()
}

/// The next completion notification, within [`WAIT`].
pub async fn next_note(notes: &mut mpsc::UnboundedReceiver<Value>) -> Value {
    tokio::time::timeout(WAIT, notes.recv())
        .await
        .expect("notification in time")
        .expect("note")
}

/// Asserts that no notification arrives for `millis` milliseconds.
pub async fn assert_silent(notes: &mut mpsc::UnboundedReceiver<Value>, millis: u64) {
    assert!(
        tokio::time::timeout(Duration::from_millis(millis), notes.recv())
            .await
            .is_err()
    );
}
