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

/// How forms are answered.
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
    /// Reads answers from JSON: an object (used for every form) or an array of objects.
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

/// How URL elicitations are answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlPolicy {
    /// Decline every URL elicitation.
    Never,
    /// Report the analysis and consent (the opener decides whether a browser starts).
    Consent,
}

type Sink = Arc<dyn Fn(&str) + Send + Sync>;

/// A non-interactive UI.
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

    /// Sends reports to `sink` instead of stderr.
    pub fn with_sink(mut self, sink: impl Fn(&str) + Send + Sync + 'static) -> Self {
        self.sink = Arc::new(sink);
        self
    }

    /// Elicitation failures so far: answers that failed validation (or a form given up
    /// on), blocked URLs, rate limiting, browser failures. Requests refused with -32602
    /// are not failures (see the module docs).
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
