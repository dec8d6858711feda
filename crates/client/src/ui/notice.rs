//! What the host is told without a question: a [`Notice`], or a [`ProgressUpdate`] of a
//! running request.

use mcp_elicit_core::url_safety::UrlAnalysis;

use super::FieldError;
use crate::identity::ServerIdentity;
use crate::text::PlainText;

/// Something the user should know; never a question.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use mcp_elicit_client::rmcp::{self, RoleServer, ServerHandler, ServiceExt};
/// # use rmcp::model::{
/// #     CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
/// #     ErrorData, Implementation, ServerCapabilities, ServerConfig, ServerRequest,
/// # };
/// # use rmcp::service::{RequestContext, ServiceError};
/// # // A server whose tool `ask` sends its `params` argument as `elicitation/create` (the
/// # // 2025-11-25 way) and returns the client's answer as JSON text.
/// # struct Asker;
/// # impl ServerHandler for Asker {
/// #     fn get_info(&self) -> ServerConfig {
/// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
/// #             .with_server_info(Implementation::new("asker", "1.0.0").with_title("The Asker"))
/// #     }
/// #     async fn call_tool(
/// #         &self,
/// #         call: CallToolRequestParams,
/// #         cx: RequestContext<RoleServer>,
/// #     ) -> Result<CallToolResponse, ErrorData> {
/// #         let params = call.arguments.unwrap_or_default().remove("params");
/// #         let ask = ServerRequest::CustomRequest(CustomRequest::new("elicitation/create", params));
/// #         let answer = match cx.peer.send_request(ask).await {
/// #             Ok(result) => serde_json::to_value(result).unwrap_or_default(),
/// #             Err(ServiceError::McpError(e)) => {
/// #                 serde_json::json!({"error": e.code.0, "message": e.message})
/// #             }
/// #             Err(e) => serde_json::json!({"failed": e.to_string()}),
/// #         };
/// #         Ok(CallToolResult::success(vec![ContentBlock::text(answer.to_string())]).into())
/// #     }
/// # }
/// # let (client_io, server_io) = tokio::io::duplex(1 << 16);
/// # tokio::spawn(async move {
/// #     if let Ok(running) = Asker.serve(server_io).await {
/// #         let _ = running.waiting().await;
/// #     }
/// # });
/// # let ask = |params: serde_json::Value| {
/// #     let arguments = serde_json::json!({"params": params});
/// #     CallToolRequestParams::new("ask").with_arguments(arguments.as_object().cloned().unwrap())
/// # };
/// # let text = |result: &CallToolResult| -> serde_json::Value {
/// #     serde_json::from_str(&result.content[0].as_text().unwrap().text).unwrap()
/// # };
/// # use std::collections::VecDeque;
/// # use std::sync::Mutex;
/// # use mcp_elicit_client::{
/// #     Config, ElicitationClient, ElicitationUi, FormPrompt, FormResponse, Notice, ProtocolChoice,
/// #     RecordingOpener, StallChoice, StalledCompletion, TransportIdentity, UrlDecision, UrlPrompt,
/// # };
/// # use mcp_elicit_core::message::Capability;
/// # // A UI that answers from its queues (cancel when empty) and records what it is given.
/// # #[derive(Default)]
/// # struct Host {
/// #     forms: Mutex<VecDeque<FormResponse>>,
/// #     urls: Mutex<VecDeque<UrlDecision>>,
/// #     url_prompts: Mutex<Vec<UrlPrompt>>,
/// #     notices: Mutex<Vec<Notice>>,
/// # }
/// # impl ElicitationUi for Host {
/// #     fn modes(&self) -> Capability {
/// #         Capability::ALL
/// #     }
/// #     async fn present_form(&self, _: FormPrompt) -> FormResponse {
/// #         self.forms.lock().unwrap().pop_front().unwrap_or(FormResponse::Cancel)
/// #     }
/// #     async fn present_url(&self, prompt: UrlPrompt) -> UrlDecision {
/// #         self.url_prompts.lock().unwrap().push(prompt);
/// #         self.urls.lock().unwrap().pop_front().unwrap_or(UrlDecision::Cancel)
/// #     }
/// #     async fn notify(&self, notice: Notice) {
/// #         self.notices.lock().unwrap().push(notice);
/// #     }
/// #     async fn completion_stalled(&self, _: StalledCompletion) -> StallChoice {
/// #         StallChoice::Cancel
/// #     }
/// # }
/// use serde_json::json;
///
/// let host = Host::default();
/// # // `Host`: a UI recording its notices; `ask`: a call of a tool that sends `params`
/// # // as `elicitation/create`; `text` reads the answer back.
/// # let config = Config::default().with_protocol(ProtocolChoice::V2025_11_25);
/// # let opener = RecordingOpener::default();
/// # let client = ElicitationClient::new(host, opener.clone(), config);
/// # let (r, w) = tokio::io::split(client_io);
/// # let pipe = TransportIdentity::Other { description: "in-process".into() };
/// # let connection = client.clone().connect_io(r, w, pipe).await?;
/// // A URL the analysis blocks is refused without asking; the server gets `decline`.
/// let result = connection.peer().call_tool(ask(json!({"mode": "url", "message": "Open this",
///     "elicitationId": "el-1", "url": "data:text/html,<h1>hi</h1>"}))).await?;
/// assert_eq!(text(&result)["action"], "decline");
/// // A malformed request is refused with -32602, and the user told why.
/// let result = connection.peer().call_tool(ask(json!({"message": 42}))).await?;
/// assert_eq!(text(&result)["error"], -32602);
///
/// let notices = client.ui().notices.lock().unwrap();
/// assert!(matches!(&notices[0], Notice::UrlBlocked { url, .. } if url.starts_with("data:")));
/// let Notice::Refused { reason, .. } = &notices[1] else { panic!("{notices:?}") };
/// assert!(reason.starts_with("invalid elicitation/create params"), "{reason}");
/// assert!(client.ui().url_prompts.lock().unwrap().is_empty()); // nothing was asked
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Notice {
    /// The server sent more elicitation requests than the rate limit allows; they are
    /// being cancelled. Sent once per burst, not once per request.
    RateLimited {
        /// Who.
        server: ServerIdentity,
        /// The limit in force.
        policy: crate::rate_limit::RateLimit,
    },
    /// A URL was refused without asking: the analysis blocked it.
    UrlBlocked {
        /// Who sent it.
        server: ServerIdentity,
        /// The URL, as sent.
        url: String,
        /// Why (the warnings with severity `block`).
        analysis: Box<UrlAnalysis>,
    },
    /// The browser could not be started; the server was told `cancel`.
    OpenFailed {
        /// Who sent the URL.
        server: ServerIdentity,
        /// The URL.
        url: String,
        /// What went wrong.
        error: String,
    },
    /// A request was refused as malformed or for an undeclared mode (-32602).
    Refused {
        /// Who sent it.
        server: ServerIdentity,
        /// The reason sent back to the server.
        reason: String,
    },
    /// A form was answered `cancel` because the submitted values kept failing
    /// validation (see [`crate::Limits::max_form_attempts`]).
    GaveUp {
        /// Who asked.
        server: ServerIdentity,
        /// The last problems.
        errors: Vec<FieldError>,
    },
    /// The server said an out-of-band URL interaction finished.
    Completed {
        /// Who.
        server: ServerIdentity,
        /// Which elicitation.
        elicitation_id: String,
    },
}

/// Progress the server reported for a running request (`notifications/progress`).
///
/// Every request this client sends carries a `progressToken` in `_meta`; servers that
/// support progress report against it.
///
/// ```
/// use mcp_elicit_client::{PlainText, ProgressUpdate, ServerIdentity, TransportIdentity};
///
/// // What a host shows: a percentage when the total is known, the message as plain text.
/// fn line(update: &ProgressUpdate) -> String {
///     let done = match update.total {
///         Some(total) if total > 0.0 => format!("{:.0}%", 100.0 * update.progress / total),
///         _ => format!("{} done", update.progress),
///     };
///     match &update.message {
///         Some(message) => format!("{}: {done} ({message})", update.server.label()),
///         None => format!("{}: {done}", update.server.label()),
///     }
/// }
/// let update = ProgressUpdate {
///     server: ServerIdentity::new(None, TransportIdentity::Other { description: "t".into() }),
///     token: "1".into(),
///     progress: 5.0,
///     total: Some(20.0),
///     message: Some(PlainText::from_untrusted("copying\u{1b}[2J")),
/// };
/// assert_eq!(line(&update), "(unnamed server): 25% (copying\u{fffd}[2J)");
/// ```
#[derive(Debug, Clone)]
pub struct ProgressUpdate {
    /// Who reported it.
    pub server: ServerIdentity,
    /// The request's progress token, as text.
    pub token: String,
    /// How far along (increases over time).
    pub progress: f64,
    /// The total, when the server knows it.
    pub total: Option<f64>,
    /// What is happening, as plain text.
    pub message: Option<PlainText>,
}
