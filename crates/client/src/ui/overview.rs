//! Overviews shown before the first screen of a call: the -32042 [`RequiredOverview`],
//! the 2026-07-28 [`InputOverview`], their steps, and the user's [`OverviewChoice`].

use mcp_elicit_core::url_safety::UrlAnalysis;

#[cfg(doc)]
use super::{FormPrompt, UrlOrigin};
use crate::identity::ServerIdentity;
use crate::text::PlainText;

/// One URL elicitation listed in a URLElicitationRequiredError (-32042); see
/// [`RequiredOverview`] for a host's use of them.
///
/// ```
/// use mcp_elicit_client::{PlainText, RequiredStep};
/// use mcp_elicit_core::url_safety::analyze;
///
/// let url = "https://auth.example.com/connect?elicitationId=a1";
/// let step = RequiredStep {
///     elicitation_id: "a1".into(),
///     message: PlainText::from_untrusted("Connect your account"),
///     url: url.into(),
///     analysis: analyze(url),
/// };
/// // The overview names where each step leads before any consent screen.
/// assert_eq!(step.analysis.registrable_domain.as_deref(), Some("example.com"));
/// assert!(!step.analysis.is_blocked());
/// ```
#[derive(Debug, Clone)]
pub struct RequiredStep {
    /// The server's `elicitationId`.
    pub elicitation_id: String,
    /// Why the server asks, as plain text.
    pub message: PlainText,
    /// The full URL exactly as sent.
    pub url: String,
    /// The analysis (blocked URLs are listed too: they will be refused, not offered).
    pub analysis: UrlAnalysis,
}

/// Everything a -32042 error requires, shown before the first consent screen so the
/// user knows how many browser steps the call needs and where they lead.
///
/// ```
/// use mcp_elicit_client::{OverviewChoice, PlainText, RequiredOverview, RequiredStep, ServerIdentity, TransportIdentity};
/// use mcp_elicit_core::url_safety::analyze;
///
/// fn step(id: &str, url: &str) -> RequiredStep {
///     RequiredStep {
///         elicitation_id: id.into(),
///         message: PlainText::from_untrusted("Connect"),
///         url: url.into(),
///         analysis: analyze(url),
///     }
/// }
/// // A host policy: at most two browser steps, and none that will be refused anyway.
/// fn review(overview: &RequiredOverview) -> OverviewChoice {
///     let blocked = overview.steps.iter().any(|s| s.analysis.is_blocked());
///     if blocked || overview.steps.len() > 2 { OverviewChoice::Cancel } else { OverviewChoice::Continue }
/// }
/// let server = ServerIdentity::new(None, TransportIdentity::http("https://mcp.example.com/mcp"));
/// let mut overview = RequiredOverview {
///     server,
///     tool: "sync".into(),
///     steps: vec![step("a1", "https://auth.example.com/connect")],
///     round: 1,
/// };
/// assert_eq!(review(&overview), OverviewChoice::Continue);
/// overview.steps.push(step("a2", "javascript:alert(1)"));
/// assert_eq!(review(&overview), OverviewChoice::Cancel);
/// ```
#[derive(Debug, Clone)]
pub struct RequiredOverview {
    /// Who is asking.
    pub server: ServerIdentity,
    /// The tool (or request label) that will be retried once they complete.
    pub tool: String,
    /// The steps in order; each then gets its own consent screen
    /// ([`UrlOrigin::RequiredByCall`] with `step` / `of`).
    pub steps: Vec<RequiredStep>,
    /// Which retry round this is (1 for the first -32042 of a call).
    pub round: u32,
}

/// The user's answer to a [`RequiredOverview`] or an [`InputOverview`] (see
/// [`RequiredOverview`] for a host policy). [`Cancel`](Self::Cancel) ends the call with
/// [`NotCompleted::Cancelled`](crate::NotCompleted::Cancelled) on 2025-11-25 and
/// [`CallError::Abandoned`](crate::CallError::Abandoned) on 2026-07-28, before any
/// consent screen:
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use std::sync::Arc;
/// # use std::sync::atomic::{AtomicU32, Ordering};
/// # use mcp_elicit_client::rmcp::{self, RoleServer, ServerHandler, ServiceExt};
/// # use rmcp::model::{
/// #     CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorCode, ErrorData,
/// #     Implementation, ServerCapabilities, ServerConfig,
/// # };
/// # use rmcp::service::RequestContext;
/// # use mcp_elicit_client::{
/// #     CallError, Config, Connection, ElicitationClient, ElicitationUi, FormPolicy, NotCompleted,
/// #     ProtocolChoice, RecordingOpener, ScriptedUi, TransportIdentity, UrlPolicy,
/// # };
/// # use mcp_elicit_core::message::Capability;
/// # // A 2025-11-25 server. `connect` fails with -32042 (one URL elicitation) on its first
/// # // call and succeeds after; `bad` fails with malformed -32042 data; other tools: -32602.
/// # #[derive(Default)]
/// # struct Gate(Arc<AtomicU32>);
/// # impl ServerHandler for Gate {
/// #     fn get_info(&self) -> ServerConfig {
/// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
/// #             .with_server_info(Implementation::new("gate", "1.0.0"))
/// #     }
/// #     async fn call_tool(
/// #         &self,
/// #         call: CallToolRequestParams,
/// #         _: RequestContext<RoleServer>,
/// #     ) -> Result<CallToolResponse, ErrorData> {
/// #         let required = |data| Err(ErrorData::new(ErrorCode(-32042), "Connect first.", Some(data)));
/// #         match call.name.as_ref() {
/// #             "connect" if self.0.fetch_add(1, Ordering::SeqCst) == 0 => required(serde_json::json!({
/// #                 "elicitations": [{"mode": "url", "elicitationId": "el-1",
/// #                     "url": "https://auth.example.com/connect", "message": "Connect your account"}]
/// #             })),
/// #             "connect" => Ok(CallToolResult::success(vec![ContentBlock::text("connected")]).into()),
/// #             "bad" => required(serde_json::json!({"elicitations": "none"})),
/// #             other => Err(ErrorData::invalid_params(format!("no tool {other}"), None)),
/// #         }
/// #     }
/// # }
/// # async fn start<U: ElicitationUi>(
/// #     ui: U,
/// #     config: Config,
/// # ) -> (ElicitationClient<U, RecordingOpener>, Connection<U, RecordingOpener>) {
/// #     let (client_io, server_io) = tokio::io::duplex(1 << 16);
/// #     tokio::spawn(async move {
/// #         if let Ok(running) = Gate::default().serve(server_io).await {
/// #             let _ = running.waiting().await;
/// #         }
/// #     });
/// #     let config = config.with_protocol(ProtocolChoice::V2025_11_25);
/// #     let client = ElicitationClient::new(ui, RecordingOpener::default(), config);
/// #     let (r, w) = tokio::io::split(client_io);
/// #     let pipe = TransportIdentity::Other { description: "in-process".into() };
/// #     let connection = client.clone().connect_io(r, w, pipe).await.unwrap();
/// #     (client, connection)
/// # }
/// use mcp_elicit_client::{
///     FormPrompt, FormResponse, Notice, OverviewChoice, RequiredOverview, StallChoice,
///     StalledCompletion, UrlDecision, UrlPrompt,
/// };
///
/// /// Says no to any call that needs the browser, at the overview.
/// struct Cautious;
/// impl ElicitationUi for Cautious {
///     fn modes(&self) -> Capability {
///         Capability::ALL
///     }
///     async fn required_overview(&self, overview: RequiredOverview) -> OverviewChoice {
///         assert_eq!((overview.tool.as_str(), overview.steps.len(), overview.round), ("connect", 1, 1));
///         OverviewChoice::Cancel
///     }
///     async fn present_url(&self, _: UrlPrompt) -> UrlDecision {
///         unreachable!("the overview was cancelled")
///     }
///     async fn present_form(&self, _: FormPrompt) -> FormResponse {
///         FormResponse::Cancel
///     }
///     async fn notify(&self, _: Notice) {}
///     async fn completion_stalled(&self, _: StalledCompletion) -> StallChoice {
///         StallChoice::Cancel
///     }
/// }
/// # // `start(ui, config)`: a client connected to a server whose tool `connect` first
/// # // fails with -32042, listing one URL elicitation.
/// let (client, connection) = start(Cautious, Config::default()).await;
/// let call = client.call_tool(connection.peer(), CallToolRequestParams::new("connect")).await;
/// let Err(CallError::ElicitationRequired { reason, .. }) = call else { panic!("another result") };
/// assert_eq!(reason, NotCompleted::Cancelled);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OverviewChoice {
    /// Go through the consent screens (each URL is still asked about separately).
    Continue,
    /// Give up on the call without seeing the consent screens.
    Cancel,
}

/// One input request of a 2026-07-28 round, as listed in an [`InputOverview`] (see there
/// for a host's summary of a round).
///
/// ```
/// use mcp_elicit_client::{InputStep, PlainText};
///
/// let step = InputStep::Form {
///     key: "address".into(),
///     message: PlainText::from_untrusted("Where to?"),
///     fields: vec!["Street".into(), "City".into()],
/// };
/// // The key is the server's name for the request; the answers are sent under it.
/// let key = match &step {
///     InputStep::Form { key, .. } | InputStep::Url { key, .. } => key.as_str(),
///     _ => "?", // `InputStep` is non-exhaustive
/// };
/// assert_eq!(key, "address");
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum InputStep {
    /// A form.
    Form {
        /// The server's key for it.
        key: String,
        /// Why the server asks, as plain text.
        message: PlainText,
        /// The labels of its fields, in order.
        fields: Vec<String>,
    },
    /// A URL to open after consent.
    Url {
        /// The server's key for it.
        key: String,
        /// Why the server asks, as plain text.
        message: PlainText,
        /// The full URL exactly as sent.
        url: String,
        /// The analysis (blocked URLs are listed too: they will be refused, not offered).
        analysis: Box<UrlAnalysis>,
    },
}

/// A 2026-07-28 round with several input requests, shown before the first one: they
/// are steps of one question, answered together when the request is retried.
///
/// ```
/// use mcp_elicit_client::{InputOverview, InputStep, PlainText, ServerIdentity, TransportIdentity};
/// use mcp_elicit_core::url_safety::analyze;
///
/// // What a host lists before the first screen.
/// fn summary(overview: &InputOverview) -> Vec<String> {
///     overview.steps.iter().map(|step| match step {
///         InputStep::Form { fields, .. } => format!("a form: {}", fields.join(", ")),
///         InputStep::Url { analysis, .. } => format!(
///             "a page on {}",
///             analysis.registrable_domain.as_deref().unwrap_or("?")
///         ),
///         _ => "something else".into(), // `InputStep` is non-exhaustive
///     }).collect()
/// }
/// let url = "https://pay.example.org/checkout";
/// let overview = InputOverview {
///     server: ServerIdentity::new(None, TransportIdentity::http("https://shop.example/mcp")),
///     tool: "buy".into(),
///     steps: vec![
///         InputStep::Form {
///             key: "address".into(),
///             message: PlainText::from_untrusted("Where to?"),
///             fields: vec!["Street".into(), "City".into()],
///         },
///         InputStep::Url {
///             key: "pay".into(),
///             message: PlainText::from_untrusted("Pay"),
///             url: url.into(),
///             analysis: Box::new(analyze(url)),
///         },
///     ],
///     round: 1,
/// };
/// assert_eq!(summary(&overview), ["a form: Street, City", "a page on example.org"]);
/// ```
#[derive(Debug, Clone)]
pub struct InputOverview {
    /// Who is asking.
    pub server: ServerIdentity,
    /// The tool (or request label) that will be retried with the answers.
    pub tool: String,
    /// The steps in order; each then gets its own form or consent screen
    /// ([`UrlOrigin::InputRequired`], and [`FormPrompt::request_id`] is the step's key).
    pub steps: Vec<InputStep>,
    /// Which round of the request this is (1 for the first `InputRequiredResult`).
    pub round: u32,
}
