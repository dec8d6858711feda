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

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use mcp_elicit_core::Schema;
use mcp_elicit_core::lint::{LinkFinding, SecretFinding};
use mcp_elicit_core::message::Capability;
use mcp_elicit_core::schema::SchemaNotice;
use mcp_elicit_core::url_safety::UrlAnalysis;
use mcp_elicit_core::validate::ViolationCode;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::identity::ServerIdentity;
use crate::text::PlainText;

/// One problem with a submitted form field, shown next to the field.
///
/// Serialized (in JSON reports) with the rule's stable name:
///
/// ```
/// use mcp_elicit_client::FieldError;
/// use mcp_elicit_core::validate::ViolationCode;
///
/// let error = FieldError {
///     property: Some("age".into()),
///     code: ViolationCode::Minimum,
///     message: "must be at least 18".into(),
/// };
/// assert_eq!(
///     serde_json::to_value(&error).unwrap(),
///     serde_json::json!({"property": "age", "code": "minimum", "message": "must be at least 18"})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    /// The property concerned (`None` for whole-form problems).
    pub property: Option<String>,
    /// The rule broken.
    #[serde(serialize_with = "serialize_code")]
    pub code: ViolationCode,
    /// A sentence for the user.
    pub message: String,
}

fn serialize_code<S: serde::Serializer>(code: &ViolationCode, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(code.as_str())
}

/// A form-mode elicitation to present (see [`ElicitationUi`] for a UI answering one).
///
/// Every field is public, so a host can test its form screen without a server:
///
/// ```
/// use std::sync::Arc;
/// use mcp_elicit_client::{FormPrompt, PlainText, ServerIdentity, TransportIdentity};
/// use mcp_elicit_core::Schema;
/// use serde_json::json;
/// let raw_schema = json!({"type": "object", "properties": {
///     "order": {"type": "string", "format": "uuid", "title": "Order id"},
///     "note": {"type": "string", "default": "none"}
/// }});
/// let prompt = FormPrompt {
///     server: ServerIdentity::new(None, TransportIdentity::Other { description: "test".into() }),
///     request_id: "1".into(),
///     message: PlainText::from_untrusted("Which order?"),
///     schema: Arc::new(Schema::parse_received(&raw_schema)?),
///     raw_schema,
///     values: json!({"note": "none"}).as_object().cloned().unwrap(),
///     prefilled: vec!["note".into()],
///     errors: Vec::new(),
///     attempt: 1,
///     secret_findings: Vec::new(),
///     link_findings: Vec::new(),
/// };
///
/// assert_eq!(prompt.schema.property("order").unwrap().label(), "Order id");
/// assert_eq!(prompt.server.label(), "(unnamed server)");
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone)]
pub struct FormPrompt {
    /// Who is asking.
    pub server: ServerIdentity,
    /// The JSON-RPC id of the `elicitation/create` request (for logs).
    pub request_id: String,
    /// Why the server asks, as plain text (never rendered as markup or with live links).
    pub message: PlainText,
    /// The checked schema: fields, their kinds and constraints (pattern included). Read
    /// tolerantly: see [`schema_notices`](Self::schema_notices) for what the user should
    /// be told about it.
    pub schema: Arc<Schema>,
    /// `requestedSchema` exactly as the server sent it.
    pub raw_schema: Value,
    /// The current values to show: the schema defaults on the first attempt, the user's
    /// last submission on later ones.
    pub values: Map<String, Value>,
    /// Names of the fields that were prefilled from schema defaults.
    pub prefilled: Vec<String>,
    /// What was wrong with the last submission (empty on the first attempt).
    pub errors: Vec<FieldError>,
    /// 1 for the first presentation, then 2, 3...
    pub attempt: u32,
    /// Fields that seem to ask for a secret (password, API key, token, card number...).
    /// Servers MUST NOT request those through form mode: a host should warn prominently
    /// (or refuse) when this is not empty.
    pub secret_findings: Vec<SecretFinding>,
    /// URLs found in titles and descriptions. Servers SHOULD NOT put clickable URLs in
    /// form requests; hosts show them as plain text, never as links.
    pub link_findings: Vec<LinkFinding>,
}

impl FormPrompt {
    /// What this client did while reading a schema beyond the subset (a pattern or a
    /// format it cannot check, a default not prefilled, a field accepting several
    /// types...), one sentence each: show them with the form, next to the field they
    /// name ([`SchemaNotice::property`]). Empty for a schema inside the subset.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use mcp_elicit_client::{FormPrompt, PlainText, ServerIdentity, TransportIdentity};
    /// # use mcp_elicit_core::Schema;
    /// # use serde_json::json;
    /// // A schema with a `format` this client does not check:
    /// # let raw_schema = json!({"type": "object", "properties": {
    /// #     "order": {"type": "string", "format": "uuid", "title": "Order id"},
    /// #     "note": {"type": "string", "default": "none"}
    /// # }});
    /// # let prompt = FormPrompt {
    /// #     server: ServerIdentity::new(None, TransportIdentity::Other { description: "test".into() }),
    /// #     request_id: "1".into(),
    /// #     message: PlainText::from_untrusted("Which order?"),
    /// #     schema: Arc::new(Schema::parse_received(&raw_schema)?),
    /// #     raw_schema,
    /// #     values: json!({"note": "none"}).as_object().cloned().unwrap(),
    /// #     prefilled: vec!["note".into()],
    /// #     errors: Vec::new(),
    /// #     attempt: 1,
    /// #     secret_findings: Vec::new(),
    /// #     link_findings: Vec::new(),
    /// # };
    /// use mcp_elicit_core::schema::NoticeKind;
    ///
    /// let notices = prompt.schema_notices();
    /// assert_eq!(notices.len(), 1);
    /// assert_eq!(notices[0].kind(), NoticeKind::UncheckedFormat);
    /// assert_eq!(notices[0].property(), Some("order"));
    /// assert!(notices[0].message().contains("the server still checks it"));
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn schema_notices(&self) -> &[SchemaNotice] {
        self.schema.notices()
    }

    /// The fields whose checks are partly left to the server (an unchecked pattern or
    /// format, an ignored keyword), each with the keywords concerned: a host marks them.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use mcp_elicit_client::{FormPrompt, PlainText, ServerIdentity, TransportIdentity};
    /// # use mcp_elicit_core::Schema;
    /// # use serde_json::json;
    /// // `order` has `"format": "uuid"`, which this client does not check.
    /// # let raw_schema = json!({"type": "object", "properties": {
    /// #     "order": {"type": "string", "format": "uuid", "title": "Order id"},
    /// #     "note": {"type": "string", "default": "none"}
    /// # }});
    /// # let prompt = FormPrompt {
    /// #     server: ServerIdentity::new(None, TransportIdentity::Other { description: "test".into() }),
    /// #     request_id: "1".into(),
    /// #     message: PlainText::from_untrusted("Which order?"),
    /// #     schema: Arc::new(Schema::parse_received(&raw_schema)?),
    /// #     raw_schema,
    /// #     values: json!({"note": "none"}).as_object().cloned().unwrap(),
    /// #     prefilled: vec!["note".into()],
    /// #     errors: Vec::new(),
    /// #     attempt: 1,
    /// #     secret_findings: Vec::new(),
    /// #     link_findings: Vec::new(),
    /// # };
    /// let unchecked = prompt.unchecked_fields();
    /// assert_eq!(unchecked.len(), 1);
    /// assert_eq!(unchecked[0].0, "order");
    /// assert_eq!(unchecked[0].1, ["format"]);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn unchecked_fields(&self) -> Vec<(&str, &[String])> {
        self.schema
            .properties()
            .iter()
            .filter_map(|p| {
                let keywords = p.extras()?.unchecked();
                (!keywords.is_empty()).then_some((p.name(), keywords))
            })
            .collect()
    }
}

/// The user's answer to a [`FormPrompt`], and what the server gets for it:
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
/// host.forms.lock().unwrap().extend([
///     FormResponse::Submit(json!({"city": "Oslo"}).as_object().cloned().unwrap()),
///     FormResponse::Decline,
///     FormResponse::Cancel,
///     FormResponse::StopAsking,
/// ]);
/// # // `Host`: a UI answering from these queues; `ask`: a call of a tool that sends
/// # // `params` as `elicitation/create`; `text` reads the answer back.
/// # let config = Config::default().with_protocol(ProtocolChoice::V2025_11_25);
/// # let opener = RecordingOpener::default();
/// # let client = ElicitationClient::new(host, opener.clone(), config);
/// # let (r, w) = tokio::io::split(client_io);
/// # let pipe = TransportIdentity::Other { description: "in-process".into() };
/// # let connection = client.clone().connect_io(r, w, pipe).await?;
/// let form = json!({"message": "Your city?", "requestedSchema": {"type": "object",
///     "properties": {"city": {"type": "string"}}}});
/// let mut actions = Vec::new();
/// for _ in 0..5 {
///     let result = connection.peer().call_tool(ask(form.clone())).await?;
///     actions.push(text(&result)["action"].as_str().unwrap().to_owned());
/// }
/// // The fifth is declined without being shown: the user asked to stop.
/// assert_eq!(actions, ["accept", "decline", "cancel", "decline", "decline"]);
/// assert!(client.is_stop_asking());
/// assert!(client.ui().forms.lock().unwrap().is_empty());
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum FormResponse {
    /// The user submitted these values (validated before anything is sent; invalid
    /// values come back as a new prompt with [`FormPrompt::errors`]).
    Submit(Map<String, Value>),
    /// The user explicitly said no (server gets `decline`).
    Decline,
    /// The user dismissed the prompt without choosing (closed, Escape, timed out;
    /// server gets `cancel`).
    Cancel,
    /// The user declined and asked not to be asked again by this server for the rest
    /// of the connection (this one and later ones get `decline`).
    StopAsking,
}

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

/// Completion notifications are overdue while a call waits to be retried (2025-11-25),
/// or the server answered "still waiting" after a URL step (2026-07-28: there are no
/// completion notifications, so the user is asked at once).
///
/// What [`ScriptedUi`](crate::ScriptedUi) answers, for one:
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use std::time::Duration;
/// use mcp_elicit_client::{
///     ElicitationUi, FormPolicy, ScriptedUi, ServerIdentity, StallChoice, StalledCompletion,
///     TransportIdentity, UrlPolicy,
/// };
/// use mcp_elicit_core::message::Capability;
///
/// let stalled = StalledCompletion {
///     server: ServerIdentity::new(None, TransportIdentity::http("https://mcp.example.com/mcp")),
///     tool: "sync_calendar".into(),
///     pending: vec!["el-1".into()],
///     waited: Duration::from_secs(120),
/// };
/// let ui = ScriptedUi::new(Capability::URL, FormPolicy::Decline, UrlPolicy::Consent).with_sink(|_| {});
/// // 2025-11-25: no notification came in time; the page may be done: retry.
/// assert_eq!(ui.completion_stalled(stalled.clone()).await, StallChoice::RetryNow);
/// // 2026-07-28: the server says it still waits: ask again after the poll interval.
/// assert_eq!(ui.still_waiting(stalled).await, StallChoice::KeepWaiting);
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct StalledCompletion {
    /// Who.
    pub server: ServerIdentity,
    /// The tool whose call waits.
    pub tool: String,
    /// Elicitations not completed yet.
    pub pending: Vec<String>,
    /// How long the call has waited so far.
    pub waited: Duration,
}

/// What to do about a [`StalledCompletion`] (the manual controls the specification asks
/// for when a completion notification never arrives). [`Cancel`](Self::Cancel) ends the
/// call with [`CallError::ElicitationRequired`](crate::CallError::ElicitationRequired)
/// ([`NotCompleted::Cancelled`](crate::NotCompleted::Cancelled)) on 2025-11-25, and with
/// [`CallError::Abandoned`](crate::CallError::Abandoned) on 2026-07-28.
///
/// ```
/// use std::time::Duration;
/// use mcp_elicit_client::{StallChoice, StalledCompletion};
///
/// // A host policy: keep waiting up to ten minutes, then give up.
/// fn choose(stalled: &StalledCompletion) -> StallChoice {
///     if stalled.waited < Duration::from_secs(600) {
///         StallChoice::KeepWaiting
///     } else {
///         StallChoice::Cancel
///     }
/// }
/// # use mcp_elicit_client::{ServerIdentity, TransportIdentity};
/// # let server = ServerIdentity::new(None, TransportIdentity::Other { description: "t".into() });
/// let late = StalledCompletion { server, tool: "t".into(), pending: vec![], waited: Duration::from_secs(900) };
/// assert_eq!(choose(&late), StallChoice::Cancel);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StallChoice {
    /// Retry the original request now (the interaction may have finished without a
    /// notification).
    RetryNow,
    /// Wait one more timeout period.
    KeepWaiting,
    /// Give up on the call.
    Cancel,
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
