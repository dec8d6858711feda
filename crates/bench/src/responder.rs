//! The automatic responder: an [`ElicitationUi`] that answers every form with this
//! session's `username` and `email`, consents to every URL (the opener opens nothing),
//! and timestamps completion notifications for the completion-latency benchmark.

use std::collections::HashMap;
use std::sync::Mutex;

use mcp_elicit_client::{
    ElicitationUi, FormPrompt, FormResponse, Notice, StallChoice, StalledCompletion, UrlDecision,
    UrlPrompt,
};
use mcp_elicit_core::message::Capability;
use serde_json::{Map, Value};
use tokio::sync::oneshot;
use tokio::time::Instant;

/// Answers for one session.
#[derive(Debug)]
pub(crate) struct BenchUi {
    username: String,
    email: String,
    /// URL elicitation ids consented to, in order.
    url_ids: Mutex<Vec<String>>,
    /// Who waits for which completion notification.
    waiting: Mutex<HashMap<String, oneshot::Sender<Instant>>>,
    /// Notices that mean something went wrong (refused, blocked, rate limited...).
    problems: Mutex<Vec<String>>,
    /// Forms shown so far (to tell where a call without an answer stopped).
    forms: std::sync::atomic::AtomicU64,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}

impl BenchUi {
    /// The responder of session `index`.
    pub(crate) fn new(index: usize) -> Self {
        Self {
            username: format!("user{index}"),
            email: format!("user{index}@example.com"),
            url_ids: Mutex::new(Vec::new()),
            waiting: Mutex::new(HashMap::new()),
            problems: Mutex::new(Vec::new()),
            forms: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// How many forms this session has been shown.
    pub(crate) fn forms_shown(&self) -> u64 {
        self.forms.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// The content every form of this session is answered with.
    pub(crate) fn answer(&self) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("username".into(), Value::String(self.username.clone()));
        m.insert("email".into(), Value::String(self.email.clone()));
        m
    }

    /// The URL elicitation ids consented to.
    pub(crate) fn url_ids(&self) -> Vec<String> {
        lock(&self.url_ids).clone()
    }

    /// Resolves with the instant the completion notification for `id` arrives.
    pub(crate) fn expect_completion(&self, id: &str) -> oneshot::Receiver<Instant> {
        let (tx, rx) = oneshot::channel();
        lock(&self.waiting).insert(id.to_owned(), tx);
        rx
    }

    /// What went wrong so far.
    pub(crate) fn problems(&self) -> Vec<String> {
        lock(&self.problems).clone()
    }

    fn problem(&self, what: String) {
        lock(&self.problems).push(what);
    }
}

impl ElicitationUi for BenchUi {
    fn modes(&self) -> Capability {
        Capability {
            form: true,
            url: true,
        }
    }

    async fn present_form(&self, prompt: FormPrompt) -> FormResponse {
        self.forms.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        if !prompt.errors.is_empty() {
            self.problem(format!(
                "form answer rejected by the client: {:?}",
                prompt.errors
            ));
            return FormResponse::Cancel;
        }
        let mut values = prompt.values;
        values.extend(self.answer());
        FormResponse::Submit(values)
    }

    async fn present_url(&self, prompt: UrlPrompt) -> UrlDecision {
        lock(&self.url_ids).push(prompt.elicitation_id);
        UrlDecision::Open
    }

    async fn notify(&self, notice: Notice) {
        match notice {
            Notice::Completed { elicitation_id, .. } => {
                let now = Instant::now();
                if let Some(tx) = lock(&self.waiting).remove(&elicitation_id) {
                    let _ = tx.send(now);
                }
            }
            other => self.problem(format!("{other:?}")),
        }
    }

    async fn completion_stalled(&self, stalled: StalledCompletion) -> StallChoice {
        self.problem(format!("completion stalled: {:?}", stalled.pending));
        StallChoice::Cancel
    }
}
