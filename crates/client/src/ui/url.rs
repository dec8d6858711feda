//! URL mode: the [`UrlPrompt`] a host asks consent with, why it is shown ([`UrlOrigin`])
//! and the user's [`UrlDecision`].

use mcp_elicit_core::url_safety::UrlAnalysis;
use serde::Serialize;

#[cfg(doc)]
use super::{InputOverview, Notice, RequiredOverview};
use crate::identity::ServerIdentity;
use crate::text::PlainText;

/// Why a URL is being offered. Serialized with a `kind` tag:
///
/// ```
/// use mcp_elicit_client::UrlOrigin;
///
/// let origin = UrlOrigin::RequiredByCall { tool: "sync".into(), step: 1, of: 2 };
/// assert_eq!(
///     serde_json::to_value(&origin).unwrap(),
///     serde_json::json!({"kind": "required_by_call", "tool": "sync", "step": 1, "of": 2})
/// );
/// let request = UrlOrigin::Request { request_id: "7".into() };
/// assert_eq!(serde_json::to_value(&request).unwrap()["kind"], "request");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum UrlOrigin {
    /// The server sent a URL-mode `elicitation/create` request.
    Request {
        /// The JSON-RPC id of that request.
        request_id: String,
    },
    /// A request (usually `tools/call`) failed with URLElicitationRequiredError
    /// (-32042); it is retried once the elicitations complete.
    RequiredByCall {
        /// The tool that was called (or the label given to
        /// [`with_url_elicitation`](crate::ElicitationClient::with_url_elicitation)).
        tool: String,
        /// Which of the required elicitations this is (1-based)...
        step: usize,
        /// ...out of how many (see [`RequiredOverview`]).
        of: usize,
    },
    /// A 2026-07-28 request (usually `tools/call`) was answered with an
    /// `InputRequiredResult`; it is retried with the user's answers.
    InputRequired {
        /// The tool that was called.
        tool: String,
        /// The server's key for this input request.
        key: String,
        /// Which input request of the round this is (1-based)...
        step: usize,
        /// ...out of how many (see [`InputOverview`]).
        of: usize,
    },
}

/// A URL-mode elicitation to ask consent for.
///
/// A consent screen shows the whole [`url`](Self::url) with the registrable domain
/// highlighted, and the warnings of the [`analysis`](Self::analysis):
///
/// ```
/// use mcp_elicit_client::{PlainText, ServerIdentity, TransportIdentity, UrlDecision, UrlOrigin, UrlPrompt};
/// use mcp_elicit_core::url_safety::{Verdict, analyze};
///
/// let url = "https://accounts.google.com.evil.com/signin";
/// let prompt = UrlPrompt {
///     server: ServerIdentity::new(None, TransportIdentity::http("https://mcp.example.com/mcp")),
///     origin: UrlOrigin::Request { request_id: "3".into() },
///     elicitation_id: "el-1".into(),
///     message: PlainText::from_untrusted("Sign in to Google"),
///     url: url.into(),
///     analysis: analyze(url),
/// };
/// // What the user must see: the page belongs to evil.com, whatever the name says.
/// let analysis = &prompt.analysis;
/// assert_eq!(analysis.registrable_domain.as_deref(), Some("evil.com"));
/// let highlight = analysis.highlight.as_ref().map(|r| &analysis.url.as_deref().unwrap()[r.start..r.end]);
/// assert_eq!(highlight, Some("evil.com"));
/// assert_ne!(analysis.verdict, Verdict::Block); // blocked URLs are never offered
///
/// // A host policy: only open pages on the server's own domain without asking twice.
/// let decide = |p: &UrlPrompt| match p.analysis.registrable_domain.as_deref() {
///     Some("example.com") => UrlDecision::Open,
///     _ => UrlDecision::Decline,
/// };
/// assert_eq!(decide(&prompt), UrlDecision::Decline);
/// ```
#[derive(Debug, Clone)]
pub struct UrlPrompt {
    /// Who is asking.
    pub server: ServerIdentity,
    /// Why this is shown.
    pub origin: UrlOrigin,
    /// The server's `elicitationId`.
    pub elicitation_id: String,
    /// Why the server asks, as plain text (never rendered as markup or with live links).
    pub message: PlainText,
    /// The full URL exactly as sent: show all of it before consent.
    pub url: String,
    /// The analysis: normalized URL, host in both ASCII (punycode) and Unicode forms,
    /// the registrable domain to highlight, and warnings. Its verdict is never `block`
    /// here (blocked URLs are refused without asking, see [`Notice::UrlBlocked`]).
    pub analysis: UrlAnalysis,
}

/// The user's answer to a [`UrlPrompt`]. After [`Open`](Self::Open) the client hands the
/// normalized URL to its [`UrlOpener`](crate::UrlOpener); it never fetches the URL itself.
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
/// use mcp_elicit_client::UrlOrigin;
/// use serde_json::json;
///
/// let host = Host::default();
/// host.urls.lock().unwrap().extend([UrlDecision::Open, UrlDecision::Decline]);
/// # // `Host`: a UI answering from these queues; `ask`: a call of a tool that sends
/// # // `params` as `elicitation/create`; `text` reads the answer back.
/// # let config = Config::default().with_protocol(ProtocolChoice::V2025_11_25);
/// # let opener = RecordingOpener::default();
/// # let client = ElicitationClient::new(host, opener.clone(), config);
/// # let (r, w) = tokio::io::split(client_io);
/// # let pipe = TransportIdentity::Other { description: "in-process".into() };
/// # let connection = client.clone().connect_io(r, w, pipe).await?;
/// let sign_in = json!({"mode": "url", "message": "Connect your calendar",
///     "elicitationId": "el-1", "url": "https://auth.example.com/connect?id=el-1"});
///
/// let result = connection.peer().call_tool(ask(sign_in.clone())).await?;
/// assert_eq!(text(&result)["action"], "accept");
/// assert_eq!(opener.opened(), ["https://auth.example.com/connect?id=el-1"]);
///
/// let result = connection.peer().call_tool(ask(sign_in)).await?;
/// assert_eq!(text(&result)["action"], "decline");
/// assert_eq!(opener.opened().len(), 1); // nothing opened
///
/// let prompts = client.ui().url_prompts.lock().unwrap();
/// assert!(matches!(prompts[0].origin, UrlOrigin::Request { .. }));
/// assert_eq!(prompts[0].message.as_str(), "Connect your calendar");
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlDecision {
    /// Explicit consent: open the URL in the system browser (server gets `accept`).
    Open,
    /// The user explicitly said no (server gets `decline`).
    Decline,
    /// Dismissed without a choice (server gets `cancel`).
    Cancel,
    /// Decline, and do not ask again for the rest of the connection.
    StopAsking,
}
