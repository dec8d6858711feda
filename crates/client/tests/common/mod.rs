//! Shared test fixtures: an rmcp test server, a scripted test UI, openers.
#![allow(dead_code, unreachable_pub)]

pub mod examples;

use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_elicit_client::rmcp;
use mcp_elicit_client::{
    Config, Connection, ElicitationClient, ElicitationUi, FormPrompt, FormResponse, InputOverview,
    Notice, OpenError, OverviewChoice, ProgressUpdate, ProtocolChoice, RequiredOverview,
    StallChoice, StalledCompletion, TransportIdentity, UrlDecision, UrlOpener, UrlPrompt,
};
use mcp_elicit_core::message::{Capability, METHOD_COMPLETE};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomNotification,
    CustomRequest, ErrorCode, ErrorData, Implementation, ServerCapabilities, ServerConfig,
    ServerNotification, ServerRequest,
};
use rmcp::service::{RequestContext, ServiceError};
use rmcp::{Peer, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};

/// Hang guard for tests (never a timing assertion).
pub const GUARD: Duration = Duration::from_secs(20);

pub async fn guard<F: Future>(f: F) -> F::Output {
    match tokio::time::timeout(GUARD, f).await {
        Ok(v) => v,
        Err(_) => panic!("test hung"),
    }
}

// ---------------------------------------------------------------- server

#[derive(Default)]
pub struct ServerState {
    pub peer: Mutex<Option<Peer<RoleServer>>>,
    pub completed: Mutex<HashSet<String>>,
    pub needs_url_calls: Mutex<u32>,
    /// `elicit_then_cancel` cancels its request when this is notified.
    pub cancel_now: tokio::sync::Notify,
    /// `slow_progress` reports here that the client cancelled it (its `ct` fired).
    pub slow_cancelled: tokio::sync::Notify,
}

impl ServerState {
    pub fn peer(&self) -> Peer<RoleServer> {
        self.peer
            .lock()
            .unwrap()
            .clone()
            .expect("a tool was called")
    }

    /// Marks `id` done and sends the completion notification.
    pub async fn complete(&self, id: &str) {
        self.completed.lock().unwrap().insert(id.to_owned());
        self.notify_complete(id).await;
    }

    /// Sends a completion notification only.
    pub async fn notify_complete(&self, id: &str) {
        let n = CustomNotification::new(METHOD_COMPLETE, Some(json!({"elicitationId": id})));
        self.peer()
            .send_notification(ServerNotification::CustomNotification(n))
            .await
            .unwrap();
    }
}

#[derive(Clone, Default)]
pub struct TestServer {
    pub state: Arc<ServerState>,
}

fn text(v: Value) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(v.to_string())])
}

pub fn outcome(r: Result<rmcp::model::ClientResult, ServiceError>) -> Value {
    match r {
        Ok(result) => json!({"ok": serde_json::to_value(result).unwrap()}),
        Err(ServiceError::McpError(e)) => {
            json!({"error": {"code": e.code.0, "message": e.message, "data": e.data}})
        }
        Err(other) => json!({"failed": other.to_string()}),
    }
}

pub async fn send_raw(peer: &Peer<RoleServer>, params: Value) -> Value {
    let req = ServerRequest::CustomRequest(CustomRequest::new("elicitation/create", Some(params)));
    outcome(peer.send_request(req).await)
}

impl ServerHandler for TestServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("test-server", "9.9.9").with_title("Test Server"))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        *self.state.peer.lock().unwrap() = Some(context.peer.clone());
        let args = Value::Object(request.arguments.clone().unwrap_or_default());
        let r = match request.name.as_ref() {
            "elicit" => text(send_raw(&context.peer, args["params"].clone()).await),
            "elicit_flood" => {
                let n = args["count"].as_u64().unwrap_or(1);
                let futs = (0..n).map(|_| send_raw(&context.peer, args["params"].clone()));
                text(Value::Array(futures::future::join_all(futs).await))
            }
            "needs_url" => {
                let id = args["id"].as_str().unwrap_or("e1").to_owned();
                *self.state.needs_url_calls.lock().unwrap() += 1;
                if self.state.completed.lock().unwrap().contains(&id) {
                    text(json!({"done": id}))
                } else {
                    let url = args["url"]
                        .as_str()
                        .unwrap_or("https://auth.example.com/connect")
                        .to_owned();
                    return Err(ErrorData::new(
                        ErrorCode(-32042),
                        "This request requires more information.",
                        Some(
                            json!({"elicitations": [{"mode": "url", "elicitationId": id, "url": url, "message": "Connect your account"}]}),
                        ),
                    ));
                }
            }
            "elicit_then_cancel" => {
                let req = ServerRequest::CustomRequest(CustomRequest::new(
                    "elicitation/create",
                    Some(args["params"].clone()),
                ));
                let handle = context
                    .peer
                    .send_cancellable_request(req, rmcp::service::PeerRequestOptions::no_options())
                    .await
                    .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
                self.state.cancel_now.notified().await;
                let _ = handle.cancel(Some("no longer needed".into())).await;
                text(json!("cancelled"))
            }
            "raw_error" => {
                return Err(ErrorData::new(
                    ErrorCode(-32042),
                    "bad data",
                    Some(args["data"].clone()),
                ));
            }
            "slow_progress" => {
                // Reports progress against the token the client sent, then runs until
                // the client cancels the request.
                let token = context.meta.get_progress_token();
                let Some(token) = token else {
                    return Err(ErrorData::invalid_params("no progress token", None));
                };
                for (step, message) in [(1.0, "Copying"), (2.0, "Still copying")] {
                    let mut p = rmcp::model::ProgressNotificationParam::new(token.clone(), step);
                    p.total = Some(4.0);
                    p.message = Some(message.into());
                    let _ = context.peer.notify_progress(p).await;
                }
                context.ct.cancelled().await;
                self.state.slow_cancelled.notify_one();
                text(json!("cancelled"))
            }
            "needs_two" => {
                let done = {
                    let c = self.state.completed.lock().unwrap();
                    c.contains("a1") && c.contains("a2")
                };
                if done {
                    text(json!("both done"))
                } else {
                    return Err(ErrorData::new(
                        ErrorCode(-32042),
                        "Two steps are required.",
                        Some(json!({"elicitations": [
                            {"mode": "url", "elicitationId": "a1", "url": "https://auth.example.com/connect?elicitationId=a1", "message": "Connect your account"},
                            {"mode": "url", "elicitationId": "a2", "url": "https://pay.example.org/fee", "message": "Pay the fee"}
                        ]})),
                    ));
                }
            }
            "hello" => text(json!("hello")),
            other => {
                return Err(ErrorData::invalid_params(
                    format!("unknown tool {other}"),
                    None,
                ));
            }
        };
        Ok(r.into())
    }
}

// ---------------------------------------------------------------- UI

pub type UrlHook = Box<dyn Fn(&UrlPrompt) + Send + Sync>;

#[derive(Default)]
pub struct UiState {
    pub modes: Mutex<Option<Capability>>,
    pub forms: Mutex<Vec<FormPrompt>>,
    pub urls: Mutex<Vec<UrlPrompt>>,
    pub notices: Mutex<Vec<Notice>>,
    pub form_script: Mutex<VecDeque<FormResponse>>,
    pub url_script: Mutex<VecDeque<UrlDecision>>,
    pub stall_script: Mutex<VecDeque<StallChoice>>,
    pub stalls: Mutex<Vec<StalledCompletion>>,
    /// Called at the start of every URL prompt (before the decision).
    pub on_url: Mutex<Option<UrlHook>>,
    /// Makes every form prompt wait until notified (for flood tests).
    pub hold_forms: Mutex<Option<Arc<tokio::sync::Notify>>>,
    /// When the form script is empty, submit the prompt's values instead of cancelling.
    pub submit_values: Mutex<bool>,
    /// Progress updates received, in order.
    pub progress: Mutex<Vec<ProgressUpdate>>,
    /// Signalled on every progress update.
    pub progress_seen: tokio::sync::Notify,
    /// -32042 overviews presented.
    pub overviews: Mutex<Vec<RequiredOverview>>,
    /// Answers to overviews (default: continue).
    pub overview_script: Mutex<VecDeque<OverviewChoice>>,
    /// 2026-07-28 input overviews presented.
    pub input_overviews: Mutex<Vec<InputOverview>>,
}

#[derive(Clone, Default)]
pub struct TestUi(pub Arc<UiState>);

impl TestUi {
    pub fn with_modes(modes: Capability) -> Self {
        let ui = Self::default();
        *ui.0.modes.lock().unwrap() = Some(modes);
        ui
    }
    pub fn script_forms(&self, r: impl IntoIterator<Item = FormResponse>) {
        self.0.form_script.lock().unwrap().extend(r);
    }
    pub fn script_urls(&self, r: impl IntoIterator<Item = UrlDecision>) {
        self.0.url_script.lock().unwrap().extend(r);
    }
    pub fn script_stalls(&self, r: impl IntoIterator<Item = StallChoice>) {
        self.0.stall_script.lock().unwrap().extend(r);
    }
    pub fn forms(&self) -> Vec<FormPrompt> {
        self.0.forms.lock().unwrap().clone()
    }
    pub fn urls(&self) -> Vec<UrlPrompt> {
        self.0.urls.lock().unwrap().clone()
    }
    pub fn notices(&self) -> Vec<Notice> {
        self.0.notices.lock().unwrap().clone()
    }
}

impl ElicitationUi for TestUi {
    fn modes(&self) -> Capability {
        self.0.modes.lock().unwrap().unwrap_or(Capability {
            form: true,
            url: true,
        })
    }

    async fn present_form(&self, prompt: FormPrompt) -> FormResponse {
        self.0.forms.lock().unwrap().push(prompt);
        let hold = self.0.hold_forms.lock().unwrap().clone();
        if let Some(n) = hold {
            n.notified().await;
        }
        let values = self
            .0
            .forms
            .lock()
            .unwrap()
            .last()
            .map(|p| p.values.clone())
            .unwrap_or_default();
        let submit = *self.0.submit_values.lock().unwrap();
        self.0
            .form_script
            .lock()
            .unwrap()
            .pop_front()
            .unwrap_or(if submit {
                FormResponse::Submit(values)
            } else {
                FormResponse::Cancel
            })
    }

    async fn present_url(&self, prompt: UrlPrompt) -> UrlDecision {
        if let Some(hook) = self.0.on_url.lock().unwrap().as_ref() {
            hook(&prompt);
        }
        self.0.urls.lock().unwrap().push(prompt);
        self.0
            .url_script
            .lock()
            .unwrap()
            .pop_front()
            .unwrap_or(UrlDecision::Decline)
    }

    async fn notify(&self, notice: Notice) {
        self.0.notices.lock().unwrap().push(notice);
    }

    async fn progress(&self, update: ProgressUpdate) {
        self.0.progress.lock().unwrap().push(update);
        self.0.progress_seen.notify_one();
    }

    async fn required_overview(&self, overview: RequiredOverview) -> OverviewChoice {
        self.0.overviews.lock().unwrap().push(overview);
        self.0
            .overview_script
            .lock()
            .unwrap()
            .pop_front()
            .unwrap_or(OverviewChoice::Continue)
    }

    async fn input_overview(&self, overview: InputOverview) -> OverviewChoice {
        self.0.input_overviews.lock().unwrap().push(overview);
        self.0
            .overview_script
            .lock()
            .unwrap()
            .pop_front()
            .unwrap_or(OverviewChoice::Continue)
    }

    async fn completion_stalled(&self, stalled: StalledCompletion) -> StallChoice {
        self.0.stalls.lock().unwrap().push(stalled);
        self.0
            .stall_script
            .lock()
            .unwrap()
            .pop_front()
            .unwrap_or(StallChoice::Cancel)
    }
}

// ---------------------------------------------------------------- openers

/// Records opened URLs and signals each on a channel.
#[derive(Clone)]
pub struct ChannelOpener {
    pub opened: Arc<Mutex<Vec<String>>>,
    pub tx: tokio::sync::mpsc::UnboundedSender<String>,
}

impl ChannelOpener {
    pub fn new() -> (Self, tokio::sync::mpsc::UnboundedReceiver<String>) {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        (
            Self {
                opened: Arc::default(),
                tx,
            },
            rx,
        )
    }
    pub fn opened(&self) -> Vec<String> {
        self.opened.lock().unwrap().clone()
    }
}

impl UrlOpener for ChannelOpener {
    fn open(&self, url: &str) -> Result<(), OpenError> {
        self.opened.lock().unwrap().push(url.to_owned());
        let _ = self.tx.send(url.to_owned());
        Ok(())
    }
}

// ---------------------------------------------------------------- wiring

pub struct Harness<O: UrlOpener, U: ElicitationUi = TestUi> {
    pub client: ElicitationClient<U, O>,
    pub conn: Connection<U, O>,
    pub server: Arc<ServerState>,
    pub server_task: tokio::task::JoinHandle<()>,
}

/// Client and test server over an in-memory duplex pipe.
pub async fn duplex<O: UrlOpener, U: ElicitationUi>(
    ui: U,
    opener: O,
    config: Config,
) -> Harness<O, U> {
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    let server = TestServer::default();
    let state = server.state.clone();
    let server_task = tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    // The test server elicits the 2025-11-25 way (server-to-client requests), which an
    // rmcp server cannot do on 2026-07-28: speak 2025-11-25 unless the test chose.
    let config = if config.protocol == ProtocolChoice::Auto {
        config.with_protocol(ProtocolChoice::V2025_11_25)
    } else {
        config
    };
    let client = ElicitationClient::new(ui, opener, config);
    let (r, w) = tokio::io::split(client_io);
    let conn = guard(client.clone().connect_io(
        r,
        w,
        TransportIdentity::Other {
            description: "duplex".into(),
        },
    ))
    .await
    .expect("connect");
    Harness {
        client,
        conn,
        server: state,
        server_task,
    }
}

impl<O: UrlOpener, U: ElicitationUi> Harness<O, U> {
    /// Calls `elicit` with raw params; returns what the server got back.
    pub async fn elicit(&self, params: Value) -> Value {
        let p = CallToolRequestParams::new("elicit")
            .with_arguments(json!({"params": params}).as_object().unwrap().clone());
        let r = guard(self.conn.peer().call_tool(p)).await.expect("call");
        tool_json(&r)
    }
}

pub fn tool_json(r: &CallToolResult) -> Value {
    let v = serde_json::to_value(r).unwrap();
    let t = v["content"][0]["text"]
        .as_str()
        .unwrap_or("null")
        .to_owned();
    serde_json::from_str(&t).unwrap_or(Value::String(t))
}

pub fn args(v: Value) -> rmcp::model::JsonObject {
    v.as_object().unwrap().clone()
}
