//! The host's side: the [`ElicitationUi`] trait and what it is given.
//!
//! The client library does the protocol work (mode checks, parsing, defaults,
//! validation, URL analysis, rate limits, completion tracking) and asks the host only
//! questions a person answers. Every prompt carries what a consent screen needs: the
//! requesting server ([`ServerIdentity`]), the message as [`PlainText`], and for URLs the
//! full URL, the registrable domain to highlight and the warnings.
//!
//! The trait is async so an interactive host (a terminal UI, a GUI) can keep a prompt
//! open while the rest of the program runs; the library presents one prompt at a time
//! per connection. A prompt future may be dropped (the server cancelled the request or
//! the connection closed): hosts must treat that as the prompt going away.

mod form;
mod notice;
mod overview;
mod stall;
mod url;

use std::future::Future;

use mcp_elicit_core::message::Capability;

#[cfg(doc)]
use crate::identity::ServerIdentity;
#[cfg(doc)]
use crate::text::PlainText;

pub use form::{FieldError, FormPrompt, FormResponse};
pub use notice::{Notice, ProgressUpdate};
pub use overview::{InputOverview, InputStep, OverviewChoice, RequiredOverview, RequiredStep};
pub use stall::{StallChoice, StalledCompletion};
pub use url::{UrlDecision, UrlOrigin, UrlPrompt};

/// What a host provides to present elicitations.
///
/// Implementations must not open URLs themselves: opening goes through
/// [`crate::UrlOpener`] after [`UrlDecision::Open`]. Only the first five methods are
/// required; the defaults ignore progress, continue after overviews, and answer "still
/// waiting" like a late completion.
///
/// A UI that answers one form, corrected after the client found the first answer
/// invalid:
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
/// use std::sync::Mutex;
/// use mcp_elicit_client::{
///     Config, ElicitationClient, ElicitationUi, FormPrompt, FormResponse, Notice, ProtocolChoice,
///     RecordingOpener, StallChoice, StalledCompletion, TransportIdentity, UrlDecision, UrlPrompt,
/// };
/// use mcp_elicit_core::message::Capability;
/// use mcp_elicit_core::validate::ViolationCode;
/// use serde_json::json;
///
/// /// Forms only. Types a handle: a wrong one first, then what the error asks for.
/// #[derive(Default)]
/// struct Typist {
///     seen: Mutex<Vec<FormPrompt>>,
/// }
///
/// impl ElicitationUi for Typist {
///     fn modes(&self) -> Capability {
///         Capability::FORM // declared as `{"form": {}}`: URL requests get -32602
///     }
///     async fn present_form(&self, prompt: FormPrompt) -> FormResponse {
///         // A real host shows `prompt.server`, `prompt.message` (plain text, never
///         // linkified), the fields of `prompt.schema`, and `prompt.errors` next to them.
///         let mut values = prompt.values.clone(); // defaults first, then the last answer
///         let handle = if prompt.errors.is_empty() { "Ada L." } else { "ada" };
///         values.insert("handle".into(), handle.into());
///         self.seen.lock().unwrap().push(prompt);
///         FormResponse::Submit(values)
///     }
///     async fn present_url(&self, _: UrlPrompt) -> UrlDecision {
///         UrlDecision::Decline // never called: URL mode is not declared
///     }
///     async fn notify(&self, notice: Notice) {
///         eprintln!("{notice:?}");
///     }
///     async fn completion_stalled(&self, _: StalledCompletion) -> StallChoice {
///         StallChoice::Cancel
///     }
/// }
///
/// let config = Config::default().with_protocol(ProtocolChoice::V2025_11_25);
/// let client = ElicitationClient::new(Typist::default(), RecordingOpener::default(), config);
/// # let (r, w) = tokio::io::split(client_io);
/// # let pipe = TransportIdentity::Other { description: "in-process".into() };
/// let connection = client.clone().connect_io(r, w, pipe).await?;
/// # // `ask(params)`: a call of the server's tool that sends `params` as
/// # // `elicitation/create`; `text` reads the client's answer back from the result.
/// let result = connection.peer().call_tool(ask(json!({
///     "message": "Pick a handle",
///     "requestedSchema": {"type": "object", "properties": {
///         "handle": {"type": "string", "pattern": "^[a-z]+$"},
///         "lang": {"type": "string", "default": "en"}
///     }, "required": ["handle"]}
/// }))).await?;
///
/// // The server got the second answer only: the first broke the pattern and was not sent.
/// assert_eq!(text(&result)["content"], json!({"lang": "en", "handle": "ada"}));
/// let seen = client.ui().seen.lock().unwrap();
/// assert_eq!(seen.len(), 2);
/// assert_eq!(seen[0].attempt, 1);
/// assert_eq!(seen[0].prefilled, ["lang"]);
/// assert_eq!(seen[0].server.label(), "The Asker");
/// assert_eq!(seen[1].attempt, 2);
/// assert_eq!(seen[1].values["handle"], "Ada L."); // the last answer, to correct
/// assert_eq!(seen[1].errors[0].property.as_deref(), Some("handle"));
/// assert_eq!(seen[1].errors[0].code, ViolationCode::Pattern);
/// # Ok(())
/// # }
/// ```
pub trait ElicitationUi: Send + Sync + 'static {
    /// The modes this host can really present. The declared `elicitation` capability is
    /// derived from this; requests for other modes are refused with -32602.
    fn modes(&self) -> Capability;

    /// Presents a form; resolves when the user acts.
    fn present_form(&self, prompt: FormPrompt) -> impl Future<Output = FormResponse> + Send;

    /// Asks consent to open a URL; resolves when the user acts.
    fn present_url(&self, prompt: UrlPrompt) -> impl Future<Output = UrlDecision> + Send;

    /// Tells the user something (no answer expected).
    fn notify(&self, notice: Notice) -> impl Future<Output = ()> + Send;

    /// Completion notifications are overdue: retry now, keep waiting or cancel?
    fn completion_stalled(
        &self,
        stalled: StalledCompletion,
    ) -> impl Future<Output = StallChoice> + Send;

    /// The server reported progress on a running request. The default ignores it.
    fn progress(&self, update: ProgressUpdate) -> impl Future<Output = ()> + Send {
        let _ = update;
        async {}
    }

    /// A call failed with -32042: here is everything it requires, before the consent
    /// screens. The default continues (each URL is still asked about separately).
    fn required_overview(
        &self,
        overview: RequiredOverview,
    ) -> impl Future<Output = OverviewChoice> + Send {
        let _ = overview;
        async { OverviewChoice::Continue }
    }

    /// 2026-07-28: after a URL step, the server answered "still waiting" (it cannot
    /// notify completion on this revision). Asked at once, not after a timeout:
    /// `RetryNow` retries the request, `KeepWaiting` retries after
    /// [`Config::poll_interval`](crate::Config::poll_interval), `Cancel` ends the
    /// call. The default asks [`completion_stalled`](Self::completion_stalled).
    fn still_waiting(
        &self,
        stalled: StalledCompletion,
    ) -> impl Future<Output = StallChoice> + Send {
        self.completion_stalled(stalled)
    }

    /// A 2026-07-28 round asks several things at once: here they all are, before the
    /// first screen. `Cancel` ends the call without sending anything. The default
    /// continues (each step is still shown on its own).
    fn input_overview(
        &self,
        overview: InputOverview,
    ) -> impl Future<Output = OverviewChoice> + Send {
        let _ = overview;
        async { OverviewChoice::Continue }
    }
}
