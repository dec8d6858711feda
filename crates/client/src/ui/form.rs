//! Form mode: the [`FormPrompt`] a host presents, the [`FormResponse`] it answers, and
//! the [`FieldError`]s shown next to invalid fields.

use std::sync::Arc;

use mcp_elicit_core::Schema;
use mcp_elicit_core::lint::{LinkFinding, SecretFinding};
use mcp_elicit_core::schema::SchemaNotice;
use mcp_elicit_core::validate::ViolationCode;
use serde::Serialize;
use serde_json::{Map, Value};

#[cfg(doc)]
use super::ElicitationUi;
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
