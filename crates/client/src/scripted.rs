//! [`ScriptedUi`]: a non-interactive [`ElicitationUi`] for scripts, CI and conformance.
//!
//! Forms are answered by policy ([`FormPolicy`]): accept with the defaults, accept with
//! supplied answers (missing fields from defaults), decline or cancel. Answers that fail
//! validation are never sent: the problems are reported, the server gets `cancel`, and
//! the failure is recorded ([`ScriptedUi::failures`]) so a command can exit non-zero.
//! Requests the client refused with -32602 (undeclared mode, malformed) are reported but
//! are not failures: refusing them is the specified behaviour, and the server's tool
//! decides what the call returns.
//! URLs are declined or consented to ([`UrlPolicy`]); with consent the analysis is
//! reported as JSON first, and blocked URLs stay refused. Reports go to a sink (stderr by
//! default).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use mcp_elicit_core::message::Capability;
use serde_json::{Map, Value, json};

use crate::ui::{
    ElicitationUi, FormPrompt, FormResponse, Notice, StallChoice, StalledCompletion, UrlDecision,
    UrlPrompt,
};

/// How forms are answered. Whatever the policy, answers are validated by the client
/// before anything is sent.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use std::sync::Arc;
/// # use mcp_elicit_client::{FormPrompt, PlainText, ServerIdentity, TransportIdentity};
/// # use mcp_elicit_core::Schema;
/// # use serde_json::json;
/// # // A form with `order` (no default) and `note` (default "none"):
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
/// use mcp_elicit_client::{ElicitationUi, FormPolicy, FormResponse, ScriptedUi, UrlPolicy};
/// use mcp_elicit_core::message::Capability;
///
/// let answer = |policy: FormPolicy| {
///     let ui = ScriptedUi::new(Capability::FORM, policy, UrlPolicy::Never).with_sink(|_| {});
///     let prompt = prompt.clone();
///     async move { ui.present_form(prompt).await }
/// };
/// let submitted = |v: serde_json::Value| FormResponse::Submit(v.as_object().cloned().unwrap());
///
/// assert_eq!(answer(FormPolicy::AcceptDefaults).await, submitted(json!({"note": "none"})));
/// // Entries the form has no field for are left out: one object can answer many forms.
/// let answers = json!({"order": "4f1c", "coupon": "X"}).as_object().cloned().unwrap();
/// assert_eq!(
///     answer(FormPolicy::Answers(answers)).await,
///     submitted(json!({"note": "none", "order": "4f1c"}))
/// );
/// assert_eq!(answer(FormPolicy::Decline).await, FormResponse::Decline);
/// assert_eq!(answer(FormPolicy::Cancel).await, FormResponse::Cancel);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum FormPolicy {
    /// Accept with the schema defaults.
    AcceptDefaults,
    /// Accept every form with these values over the defaults. Each form takes only the
    /// entries named like one of its properties, so one object answers every question
    /// of a multi-question round (2026-07-28) or a series of forms; an entry named like
    /// a 2026-07-28 input request's key whose value is an object answers that request
    /// alone (for two forms with the same property names).
    Answers(Map<String, Value>),
    /// Accept the 1st, 2nd... form with these values over the defaults (forms past the
    /// end of the list get the defaults alone).
    AnswerList(Vec<Map<String, Value>>),
    /// Decline every form.
    Decline,
    /// Cancel every form.
    Cancel,
}

impl FormPolicy {
    /// Reads answers from JSON: an object (used for every form) or an array of objects
    /// (the 1st, 2nd... form). Anything else is an error saying so.
    ///
    /// ```
    /// use mcp_elicit_client::FormPolicy;
    /// use serde_json::json;
    ///
    /// assert!(matches!(FormPolicy::answers_from_json(&json!({"name": "Ada"})), Ok(FormPolicy::Answers(_))));
    /// let Ok(FormPolicy::AnswerList(list)) = FormPolicy::answers_from_json(&json!([{"a": 1}, {}])) else {
    ///     panic!()
    /// };
    /// assert_eq!(list.len(), 2);
    /// assert_eq!(
    ///     FormPolicy::answers_from_json(&json!([{"a": 1}, 2])).unwrap_err(),
    ///     "answers[1] is not a JSON object"
    /// );
    /// assert!(FormPolicy::answers_from_json(&json!("Ada")).is_err());
    /// ```
    pub fn answers_from_json(value: &Value) -> Result<Self, String> {
        match value {
            Value::Object(map) => Ok(Self::Answers(map.clone())),
            Value::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    v.as_object()
                        .cloned()
                        .ok_or_else(|| format!("answers[{i}] is not a JSON object"))
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Self::AnswerList),
            _ => Err("answers must be a JSON object or an array of objects".into()),
        }
    }
}

/// How URL elicitations are answered. Either way the URL and its analysis are reported
/// to the sink as one JSON line; blocked URLs never reach the policy.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use std::sync::{Arc, Mutex};
/// use mcp_elicit_client::{
///     ElicitationUi, FormPolicy, PlainText, ScriptedUi, ServerIdentity, TransportIdentity,
///     UrlDecision, UrlOrigin, UrlPolicy, UrlPrompt,
/// };
/// use mcp_elicit_core::message::Capability;
/// use mcp_elicit_core::url_safety::analyze;
///
/// let url = "https://auth.example.com/connect";
/// let prompt = UrlPrompt {
///     server: ServerIdentity::new(None, TransportIdentity::http("https://mcp.example.com/mcp")),
///     origin: UrlOrigin::Request { request_id: "1".into() },
///     elicitation_id: "el-1".into(),
///     message: PlainText::from_untrusted("Connect your account"),
///     url: url.into(),
///     analysis: analyze(url),
/// };
/// let lines = Arc::new(Mutex::new(Vec::<String>::new()));
/// let sink = lines.clone();
/// let ui = ScriptedUi::new(Capability::URL, FormPolicy::Decline, UrlPolicy::Consent)
///     .with_sink(move |line| sink.lock().unwrap().push(line.to_owned()));
/// assert_eq!(ui.present_url(prompt.clone()).await, UrlDecision::Open);
/// assert!(lines.lock().unwrap()[0].contains(r#""registrable_domain":"example.com""#));
///
/// let never = ScriptedUi::new(Capability::URL, FormPolicy::Decline, UrlPolicy::Never).with_sink(|_| {});
/// assert_eq!(never.present_url(prompt).await, UrlDecision::Decline);
/// # }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlPolicy {
    /// Decline every URL elicitation.
    Never,
    /// Report the analysis and consent (the opener decides whether a browser starts).
    Consent,
}

type Sink = Arc<dyn Fn(&str) + Send + Sync>;

/// A non-interactive UI for scripts, CI and conformance: forms answered by [`FormPolicy`]
/// (answers that fail validation are never sent: the server gets `cancel` and the
/// failure is recorded), URLs by [`UrlPolicy`], reports to a sink (stderr by default).
///
/// End to end, with answers that fail validation: nothing is sent, the server gets
/// `cancel`, and the failure is recorded so a command can exit non-zero.
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
/// use mcp_elicit_client::{Config, ElicitationClient, FormPolicy, ProtocolChoice, RecordingOpener, ScriptedUi, TransportIdentity, UrlPolicy};
/// use mcp_elicit_core::message::Capability;
/// use serde_json::json;
///
/// let answers = FormPolicy::answers_from_json(&json!({"age": -3}))?;
/// let ui = ScriptedUi::new(Capability::FORM, answers, UrlPolicy::Never).with_sink(|_| {});
/// let config = Config::default().with_protocol(ProtocolChoice::V2025_11_25);
/// let client = ElicitationClient::new(ui, RecordingOpener::default(), config);
/// # let (r, w) = tokio::io::split(client_io);
/// # let pipe = TransportIdentity::Other { description: "in-process".into() };
/// let connection = client.clone().connect_io(r, w, pipe).await?;
/// # // `ask(params)`: a call of the server's tool that sends `params` as
/// # // `elicitation/create`; `text` reads the client's answer back from the result.
/// let result = connection.peer().call_tool(ask(json!({"message": "Your age?",
///     "requestedSchema": {"type": "object", "properties": {"age": {"type": "integer", "minimum": 0}}}
/// }))).await?;
/// assert_eq!(text(&result)["action"], "cancel");
/// let failures = client.ui().failures();
/// assert_eq!(failures.len(), 1);
/// assert!(failures[0].contains("failed validation and were not sent"), "{failures:?}");
/// # Ok(())
/// # }
/// ```
pub struct ScriptedUi {
    modes: Capability,
    form: FormPolicy,
    url: UrlPolicy,
    forms_seen: AtomicUsize,
    failures: Mutex<Vec<String>>,
    sink: Sink,
}

impl std::fmt::Debug for ScriptedUi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScriptedUi")
            .field("modes", &self.modes)
            .field("form", &self.form)
            .field("url", &self.url)
            .finish()
    }
}

impl ScriptedUi {
    /// A UI declaring `modes`, answering by `form` and `url`, reporting to stderr.
    ///
    /// ```
    /// use mcp_elicit_client::{ElicitationUi, FormPolicy, ScriptedUi, UrlPolicy};
    /// use mcp_elicit_core::message::Capability;
    ///
    /// let ui = ScriptedUi::new(Capability::FORM, FormPolicy::AcceptDefaults, UrlPolicy::Never);
    /// assert_eq!(ui.modes(), Capability::FORM);
    /// assert!(ui.failures().is_empty());
    /// ```
    pub fn new(modes: Capability, form: FormPolicy, url: UrlPolicy) -> Self {
        Self {
            modes,
            form,
            url,
            forms_seen: AtomicUsize::new(0),
            failures: Mutex::new(Vec::new()),
            sink: Arc::new(|line: &str| eprintln!("{line}")),
        }
    }

    /// Sends reports to `sink` instead of stderr, one line per call.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// use std::sync::{Arc, Mutex};
    /// use mcp_elicit_client::{ElicitationUi, FormPolicy, Notice, ScriptedUi, ServerIdentity, TransportIdentity, UrlPolicy};
    /// use mcp_elicit_core::message::Capability;
    ///
    /// let log = Arc::new(Mutex::new(Vec::<String>::new()));
    /// let sink = log.clone();
    /// let ui = ScriptedUi::new(Capability::FORM, FormPolicy::AcceptDefaults, UrlPolicy::Never)
    ///     .with_sink(move |line| sink.lock().unwrap().push(line.to_owned()));
    /// let server = ServerIdentity::new(None, TransportIdentity::Other { description: "t".into() });
    /// ui.notify(Notice::Completed { server, elicitation_id: "el-1".into() }).await;
    /// assert_eq!(log.lock().unwrap()[0], "mcp-elicit: (unnamed server) completed elicitation el-1");
    /// # }
    /// ```
    pub fn with_sink(mut self, sink: impl Fn(&str) + Send + Sync + 'static) -> Self {
        self.sink = Arc::new(sink);
        self
    }

    /// Elicitation failures so far: answers that failed validation (or a form given up
    /// on), blocked URLs, rate limiting, browser failures. Requests refused with -32602
    /// are not failures (see the module docs).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// use mcp_elicit_client::{
    ///     ElicitationUi, FormPolicy, Notice, RateLimit, ScriptedUi, ServerIdentity,
    ///     TransportIdentity, UrlPolicy,
    /// };
    /// use mcp_elicit_core::message::Capability;
    ///
    /// let ui = ScriptedUi::new(Capability::FORM, FormPolicy::AcceptDefaults, UrlPolicy::Never)
    ///     .with_sink(|_| {});
    /// let server = ServerIdentity::new(None, TransportIdentity::Other { description: "t".into() });
    /// let reason = "this client did not declare url mode elicitation".to_string();
    /// ui.notify(Notice::Refused { server: server.clone(), reason }).await;
    /// assert!(ui.failures().is_empty()); // refusing is the specified behaviour
    /// ui.notify(Notice::RateLimited { server, policy: RateLimit::default() }).await;
    /// assert_eq!(ui.failures().len(), 1);
    /// assert!(ui.failures()[0].contains("sent more elicitation requests than allowed"));
    /// # }
    /// ```
    pub fn failures(&self) -> Vec<String> {
        match self.failures.lock() {
            Ok(f) => f.clone(),
            Err(p) => p.into_inner().clone(),
        }
    }

    fn fail(&self, what: String) {
        (self.sink)(&format!("mcp-elicit: {what}"));
        match self.failures.lock() {
            Ok(mut f) => f.push(what),
            Err(p) => p.into_inner().push(what),
        }
    }

    fn report(&self, line: &str) {
        (self.sink)(line);
    }
}

impl ElicitationUi for ScriptedUi {
    fn modes(&self) -> Capability {
        self.modes
    }

    async fn present_form(&self, prompt: FormPrompt) -> FormResponse {
        if !prompt.errors.is_empty() {
            let details: Vec<String> = prompt
                .errors
                .iter()
                .map(|e| match &e.property {
                    Some(p) => format!("{p}: {}", e.message),
                    None => e.message.clone(),
                })
                .collect();
            self.fail(format!(
                "form answers for {} failed validation and were not sent (server gets cancel): {}",
                prompt.server.label(),
                details.join("; ")
            ));
            return FormResponse::Cancel;
        }
        // Servers MUST NOT ask for secrets through forms: say so, as the terminal host does.
        if !prompt.secret_findings.is_empty() {
            let fields: Vec<String> = prompt
                .secret_findings
                .iter()
                .map(|f| format!("{}: {}", f.property(), f.message()))
                .collect();
            self.report(&format!(
                "mcp-elicit: warning: a form from {} looks like it asks for a secret (servers must not \
                 ask for passwords, API keys or tokens in a form): {}",
                prompt.server.label(),
                fields.join("; ")
            ));
        }
        let index = self.forms_seen.fetch_add(1, Ordering::SeqCst);
        match &self.form {
            FormPolicy::AcceptDefaults => FormResponse::Submit(prompt.values),
            FormPolicy::Answers(answers) => {
                let mut values = prompt.values;
                let by_key = answers
                    .get(&prompt.request_id)
                    .filter(|_| prompt.schema.property(&prompt.request_id).is_none())
                    .and_then(Value::as_object);
                let own = by_key.unwrap_or(answers);
                values.extend(
                    own.iter()
                        .filter(|(k, _)| prompt.schema.property(k).is_some())
                        .map(|(k, v)| (k.clone(), v.clone())),
                );
                FormResponse::Submit(values)
            }
            FormPolicy::AnswerList(list) => {
                let mut values = prompt.values;
                if let Some(answers) = list.get(index) {
                    values.extend(answers.iter().map(|(k, v)| (k.clone(), v.clone())));
                }
                FormResponse::Submit(values)
            }
            FormPolicy::Decline => FormResponse::Decline,
            FormPolicy::Cancel => FormResponse::Cancel,
        }
    }

    async fn present_url(&self, prompt: UrlPrompt) -> UrlDecision {
        let report = json!({
            "event": "url_elicitation",
            "server": prompt.server,
            "origin": prompt.origin,
            "elicitationId": prompt.elicitation_id,
            "message": prompt.message,
            "url": prompt.url,
            "analysis": prompt.analysis,
        });
        match self.url {
            UrlPolicy::Never => {
                self.report(&format!(
                    "mcp-elicit: declined URL elicitation (--open-urls never): {report}"
                ));
                UrlDecision::Decline
            }
            UrlPolicy::Consent => {
                self.report(&format!(
                    "mcp-elicit: consenting to URL elicitation: {report}"
                ));
                UrlDecision::Open
            }
        }
    }

    async fn notify(&self, notice: Notice) {
        match notice {
            Notice::RateLimited { server, policy } => self.fail(format!(
                "{} sent more elicitation requests than allowed (burst {}, one per {:?}); extra requests are cancelled",
                server.label(),
                policy.burst,
                policy.refill_every
            )),
            Notice::UrlBlocked { server, url, analysis } => self.fail(format!(
                "refused unsafe URL from {}: {url} ({})",
                server.label(),
                serde_json::to_string(&analysis.warnings).unwrap_or_default()
            )),
            Notice::OpenFailed { server, url, error } => {
                self.fail(format!("could not open {url} from {}: {error}", server.label()))
            }
            // Refusing (-32602) a request for an undeclared mode or a malformed one is
            // what the specification asks of a client, not a failure of ours: the server
            // gets the error and its tool decides what happens next.
            Notice::Refused { server, reason } => self.report(&format!(
                "mcp-elicit: refused an elicitation request from {} with -32602 ({reason}); \
                 the server decides how its call goes on",
                server.label()
            )),
            Notice::GaveUp { server, errors } => self.fail(format!(
                "gave up on a form from {} after repeated invalid answers: {}",
                server.label(),
                serde_json::to_string(&errors).unwrap_or_default()
            )),
            Notice::Completed { server, elicitation_id } => {
                self.report(&format!("mcp-elicit: {} completed elicitation {elicitation_id}", server.label()))
            }
        }
    }

    async fn still_waiting(&self, stalled: StalledCompletion) -> StallChoice {
        self.report(&format!(
            "mcp-elicit: the server is still waiting for {:?} ({:?} since consent); asking again shortly",
            stalled.pending, stalled.waited
        ));
        StallChoice::KeepWaiting
    }

    async fn completion_stalled(&self, stalled: StalledCompletion) -> StallChoice {
        self.report(&format!(
            "mcp-elicit: no completion notification for {:?} after {:?}; retrying {} now",
            stalled.pending, stalled.waited, stalled.tool
        ));
        StallChoice::RetryNow
    }
}
