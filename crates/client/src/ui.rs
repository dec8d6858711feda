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

/// A form-mode elicitation to present.
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
    pub fn schema_notices(&self) -> &[SchemaNotice] {
        self.schema.notices()
    }

    /// The fields whose checks are partly left to the server (an unchecked pattern or
    /// format, an ignored keyword), each with the keywords concerned: a host marks them.
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

/// The user's answer to a [`FormPrompt`].
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

/// Why a URL is being offered.
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

/// The user's answer to a [`UrlPrompt`].
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
/// for when a completion notification never arrives).
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

/// One URL elicitation listed in a URLElicitationRequiredError (-32042).
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

/// The user's answer to a [`RequiredOverview`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OverviewChoice {
    /// Go through the consent screens (each URL is still asked about separately).
    Continue,
    /// Give up on the call without seeing the consent screens.
    Cancel,
}

/// One input request of a 2026-07-28 round, as listed in an [`InputOverview`].
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
/// [`crate::UrlOpener`] after [`UrlDecision::Open`].
///
/// ```
/// use mcp_elicit_client::{
///     ElicitationUi, FormPrompt, FormResponse, Notice, StallChoice, StalledCompletion, UrlDecision, UrlPrompt,
/// };
/// use mcp_elicit_core::message::Capability;
///
/// /// Shows forms only, and asks for every field on standard input (sketch).
/// struct Terminal;
///
/// impl ElicitationUi for Terminal {
///     fn modes(&self) -> Capability {
///         Capability { form: true, url: false } // declared as `{"form": {}}`
///     }
///     async fn present_form(&self, prompt: FormPrompt) -> FormResponse {
///         println!("{} asks: {}", prompt.server, prompt.message); // plain text, never linkified
///         for e in &prompt.errors {
///             println!("  ! {}", e.message);
///         }
///         // ... edit `prompt.values` (defaults are already filled in) ...
///         FormResponse::Submit(prompt.values)
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
