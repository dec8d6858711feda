//! The host's screen state: a base screen (tools, arguments, running call, result), the
//! prompt on top of it (form, URL consent, stalled completion) with a queue behind it,
//! and the notice bar. Synchronous and terminal-free: the driver feeds it keys and
//! requests and carries out the [`Effect`]s it returns.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use mcp_elicit_client::rmcp::model::{CallToolResult, Tool};
use mcp_elicit_client::{
    CallError, FormResponse, Notice, OverviewChoice, StallChoice, UrlDecision,
};
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::{Position, Rect};
use serde_json::{Map, Value};
use tokio::sync::oneshot;

use super::bridge::UiRequest;
use super::convert;
use crate::args::{ArgsOutcome, ArgsState};
use crate::form::{FormPurpose, FormState};
use crate::keys::is_press;
use crate::required::{RequiredChoice, RequiredState};
use crate::result::ResultView;
use crate::server::ServerIdentity;
use crate::status::NoticeBar;
use crate::tools::{ToolListChoice, ToolListState};
use crate::url::{UrlChoice, UrlConsentState, WaitChoice, WaitingState};

/// After how long waiting for a completion counts as overdue (the view then asks
/// explicitly what to do; Retry now is offered from the first stall report on).
const STALLED_AFTER: Duration = Duration::from_secs(60);

/// How long a notice stays on screen after the last one arrived.
const NOTICE_TTL: Duration = Duration::from_secs(20);

/// What the driver must do after a key.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Effect {
    /// Call `tool` with these arguments.
    CallTool(String, Map<String, Value>),
    /// Abandon the running call.
    CancelCall,
    /// Copy this URL to the clipboard, then report with [`App::copied`].
    Copy(String),
    /// Start the browser on this URL (the user consented), then report with
    /// [`App::opened`]: only a started browser answers the prompt.
    Open(String),
    /// Flip the client's "stop asking" switch.
    ToggleStopAsking,
    /// Leave.
    Quit,
}

/// The screen under any prompt.
#[derive(Debug)]
pub(crate) enum Base {
    Tools(ToolListState),
    Args(ArgsState, String),
    Calling(WaitingState, Instant),
    Result(ResultView),
}

/// A question being answered.
#[derive(Debug)]
pub(crate) enum Prompt {
    Form(Box<FormState>, oneshot::Sender<FormResponse>),
    Url(Box<UrlConsentState>, oneshot::Sender<UrlDecision>),
    Stalled(
        Box<WaitingState>,
        Instant,
        Duration,
        oneshot::Sender<StallChoice>,
    ),
    Required(Box<RequiredState>, oneshot::Sender<OverviewChoice>),
}

impl Prompt {
    fn is_closed(&self) -> bool {
        match self {
            Self::Form(_, tx) => tx.is_closed(),
            Self::Url(_, tx) => tx.is_closed(),
            Self::Stalled(.., tx) => tx.is_closed(),
            Self::Required(_, tx) => tx.is_closed(),
        }
    }
}

/// The whole host state.
#[derive(Debug)]
pub(crate) struct App {
    pub(crate) server: ServerIdentity,
    pub(crate) tools: Vec<Tool>,
    pub(crate) base: Base,
    pub(crate) prompt: Option<Prompt>,
    pub(crate) queue: VecDeque<UiRequest>,
    pub(crate) notices: NoticeBar,
    notice_at: Option<Instant>,
    pub(crate) stop_asking: bool,
    instructions: Option<String>,
    /// The tool last picked: the list comes back with it selected.
    last_tool: usize,
    /// What each URL elicitation of the current call is (message and domain), by id.
    labels: std::collections::BTreeMap<String, String>,
}

impl App {
    /// The host showing `tools` of `server`.
    pub(crate) fn new(
        server: ServerIdentity,
        instructions: Option<String>,
        tools: Vec<Tool>,
    ) -> Self {
        let entries = tools.iter().map(convert::tool_entry).collect();
        Self {
            base: Base::Tools(ToolListState::new(
                server.clone(),
                instructions.clone(),
                entries,
            )),
            server,
            tools,
            prompt: None,
            queue: VecDeque::new(),
            notices: NoticeBar::default(),
            notice_at: None,
            stop_asking: false,
            instructions,
            last_tool: 0,
            labels: Default::default(),
        }
    }

    /// The tool list, with the tool last picked still selected.
    fn tools_screen(&self) -> Base {
        let entries = self.tools.iter().map(convert::tool_entry).collect();
        let mut list = ToolListState::new(self.server.clone(), self.instructions.clone(), entries);
        list.select(self.last_tool);
        Base::Tools(list)
    }

    /// Starts calling `tool`.
    fn start_call(&mut self, tool: String, args: Map<String, Value>, now: Instant) -> Effect {
        self.labels.clear();
        self.base = Base::Calling(WaitingState::call(self.server.clone(), &tool), now);
        Effect::CallTool(tool, args)
    }

    /// Answers the URL prompt with consent when it is for `elicitation_id` (its
    /// completion notice arrived: the user finished the page, e.g. after copying it).
    fn complete_url_prompt(&mut self, elicitation_id: &str, now: Instant) -> bool {
        let matches = matches!(&self.prompt, Some(Prompt::Url(s, _)) if s.elicitation_id() == Some(elicitation_id));
        if !matches {
            return false;
        }
        if let Some(Prompt::Url(_, tx)) = self.prompt.take() {
            let _ = tx.send(UrlDecision::Open);
        }
        self.next_prompt(now);
        true
    }

    /// The result of an [`Effect::Open`]: a started browser answers the prompt with
    /// consent; a failure keeps the screen and says why (Copy stays possible).
    pub(crate) fn opened(&mut self, result: Result<(), String>, now: Instant) {
        match result {
            Ok(()) => {
                if let Some(Prompt::Url(_, tx)) = self.prompt.take() {
                    let _ = tx.send(UrlDecision::Open);
                }
                self.next_prompt(now);
            }
            Err(e) => {
                if let Some(Prompt::Url(s, _)) = &mut self.prompt {
                    s.set_open_failed(&e);
                }
            }
        }
    }

    /// Adds a notice.
    pub(crate) fn notice(&mut self, text: String, now: Instant) {
        self.notices.push(text);
        self.notice_at = Some(now);
    }

    /// A request from the client library.
    pub(crate) fn request(&mut self, req: UiRequest, now: Instant) {
        match req {
            UiRequest::Notify(n) => {
                if let Notice::Completed { elicitation_id, .. } = &n {
                    if let Base::Calling(w, _) = &mut self.base {
                        w.complete(elicitation_id);
                    }
                    if let Some(Prompt::Stalled(w, ..)) = &mut self.prompt {
                        w.complete(elicitation_id);
                    }
                    self.complete_url_prompt(elicitation_id, now);
                }
                let text = match &n {
                    Notice::Completed {
                        elicitation_id,
                        server,
                    } => match self.labels.get(elicitation_id) {
                        Some(l) => format!("{} reports this step complete: {l}", server.label()),
                        None => convert::notice_text(&n),
                    },
                    _ => convert::notice_text(&n),
                };
                self.notice(text, now);
            }
            UiRequest::Progress(p) => {
                if let Base::Calling(w, _) = &mut self.base {
                    w.set_progress(convert::progress(&p));
                }
            }
            other => {
                self.queue.push_back(other);
                self.next_prompt(now);
            }
        }
    }

    /// Shows the next queued prompt when none is showing, skipping ones whose asker
    /// went away.
    fn next_prompt(&mut self, now: Instant) {
        while self.prompt.is_none() {
            let Some(req) = self.queue.pop_front() else {
                return;
            };
            self.prompt = match req {
                UiRequest::Form(p, tx) if !tx.is_closed() => {
                    let server = convert::identity(&p.server);
                    let mut f = FormState::new(
                        server,
                        FormPurpose::Elicitation {
                            message: p.message.as_str().to_string(),
                        },
                        (*p.schema).clone(),
                    );
                    f.set_values(&p.values);
                    let errors: Vec<String> = p.errors.iter().map(|e| e.message.clone()).collect();
                    f.show_previous_errors(&errors);
                    f.set_warnings(
                        p.secret_findings
                            .iter()
                            .map(|s| s.message().to_string())
                            .collect(),
                        p.link_findings
                            .iter()
                            .map(|l| l.message().to_string())
                            .collect(),
                    );
                    Some(Prompt::Form(Box::new(f), tx))
                }
                UiRequest::Url(p, tx) if !tx.is_closed() => {
                    let server = convert::identity(&p.server);
                    let context = convert::url_context(&p.origin);
                    let mut s = UrlConsentState::new(
                        server,
                        p.message.as_str(),
                        p.analysis.clone(),
                        context,
                    );
                    s.set_elicitation_id(p.elicitation_id.clone());
                    Some(Prompt::Url(Box::new(s), tx))
                }
                UiRequest::Stalled(s, tx) if !tx.is_closed() => {
                    let server = convert::identity(&s.server);
                    let mut w = WaitingState::new(
                        server,
                        format!("the tool \"{}\" waits for your browser steps", s.tool),
                        s.pending.clone(),
                        None,
                    );
                    w.set_labels(self.labels.clone());
                    // Retry now is offered early; the wait counts as overdue after a minute.
                    w.set_stalled(s.waited >= STALLED_AFTER);
                    Some(Prompt::Stalled(Box::new(w), now, s.waited, tx))
                }
                UiRequest::Overview(o, tx) if !tx.is_closed() => {
                    self.labels.extend(convert::step_labels(&o));
                    Some(Prompt::Required(Box::new(convert::required(&o)), tx))
                }
                UiRequest::Notify(n) => {
                    self.notice(convert::notice_text(&n), now);
                    None
                }
                _ => None,
            };
        }
    }

    /// Periodic housekeeping: drops prompts nobody waits for, expires notices.
    pub(crate) fn tick(&mut self, now: Instant) {
        if self.prompt.as_ref().is_some_and(Prompt::is_closed) {
            // A stall question goes away by itself when the completion arrives.
            let stalled = matches!(self.prompt, Some(Prompt::Stalled(..)));
            self.prompt = None;
            if !stalled {
                self.notice("The server withdrew its request.".into(), now);
            }
            self.next_prompt(now);
        }
        if self
            .notice_at
            .is_some_and(|t| now.duration_since(t) > NOTICE_TTL)
        {
            self.notices.clear();
            self.notice_at = None;
        }
    }

    /// A tool call finished.
    pub(crate) fn call_finished(&mut self, tool: &str, result: Result<CallToolResult, CallError>) {
        let view = match result {
            Ok(r) => ResultView::new(
                self.server.clone(),
                tool,
                r.is_error.unwrap_or(false),
                convert::result_blocks(&r),
                r.structured_content.clone(),
            ),
            Err(CallError::ElicitationRequired { reason, .. }) if convert::users_choice(reason) => {
                ResultView::not_run(self.server.clone(), tool, convert::not_run_text(reason))
            }
            Err(e) => {
                ResultView::failure(self.server.clone(), tool, format!("The call failed: {e}"))
            }
        };
        self.base = Base::Result(view);
    }

    /// Reports a copy attempt to the URL screen.
    pub(crate) fn copied(&mut self, result: Result<(), String>) {
        if let Some(Prompt::Url(s, _)) = &mut self.prompt {
            s.set_copied(result);
        }
    }

    /// One key. Prompts take keys before the base screen.
    pub(crate) fn key(&mut self, key: KeyEvent, now: Instant) -> Option<Effect> {
        if !is_press(&key) {
            return None;
        }
        if let Some(prompt) = self.prompt.take() {
            let (rest, effect) = self.prompt_key(prompt, key);
            self.prompt = rest;
            if self.prompt.is_none() {
                self.next_prompt(now);
            }
            return effect;
        }
        match &mut self.base {
            Base::Tools(t) => match t.handle_key(key)? {
                ToolListChoice::Quit => Some(Effect::Quit),
                ToolListChoice::ToggleStopAsking => Some(Effect::ToggleStopAsking),
                ToolListChoice::Call(i) => {
                    let tool = self.tools.get(i)?.clone();
                    self.last_tool = i;
                    let schema = Value::Object((*tool.input_schema).clone());
                    // Nothing to fill in or review: one Enter runs it.
                    if convert::takes_no_arguments(&schema) {
                        return Some(self.start_call(tool.name.to_string(), Map::new(), now));
                    }
                    self.base = Base::Args(
                        ArgsState::new(
                            self.server.clone(),
                            &tool.name,
                            tool.description.as_deref(),
                            &schema,
                        ),
                        tool.name.to_string(),
                    );
                    None
                }
            },
            Base::Args(a, tool) => match a.handle_key(key)? {
                ArgsOutcome::Run(args) => {
                    let tool = tool.clone();
                    Some(self.start_call(tool, args, now))
                }
                ArgsOutcome::Back => {
                    self.base = self.tools_screen();
                    None
                }
            },
            Base::Calling(w, _) => match w.handle_key(key)? {
                WaitChoice::Cancel => {
                    self.base = self.tools_screen();
                    Some(Effect::CancelCall)
                }
                _ => None,
            },
            Base::Result(r) => {
                if r.handle_key(key) {
                    self.base = self.tools_screen();
                }
                None
            }
        }
    }

    fn prompt_key(&mut self, prompt: Prompt, key: KeyEvent) -> (Option<Prompt>, Option<Effect>) {
        match prompt {
            Prompt::Form(mut f, tx) => match f.handle_key(key) {
                Some(o) => {
                    let _ = tx.send(convert::form_response(o));
                    (None, None)
                }
                None => (Some(Prompt::Form(f, tx)), None),
            },
            Prompt::Url(mut s, tx) => match s.handle_key(key) {
                Some(UrlChoice::Copy) => {
                    let url = s.url().map(str::to_string);
                    (Some(Prompt::Url(s, tx)), url.map(Effect::Copy))
                }
                Some(UrlChoice::Open) => {
                    // Answered once the browser has started (App::opened).
                    let url = s.url().map(str::to_string);
                    (Some(Prompt::Url(s, tx)), url.map(Effect::Open))
                }
                Some(choice) => {
                    if let Some(d) = convert::url_decision(choice) {
                        let _ = tx.send(d);
                    }
                    (None, None)
                }
                None => (Some(Prompt::Url(s, tx)), None),
            },
            Prompt::Stalled(mut w, since, waited, tx) => match w.handle_key(key) {
                Some(c) => {
                    let _ = tx.send(match c {
                        WaitChoice::RetryNow => StallChoice::RetryNow,
                        WaitChoice::KeepWaiting => StallChoice::KeepWaiting,
                        WaitChoice::Cancel => StallChoice::Cancel,
                    });
                    (None, None)
                }
                None => (Some(Prompt::Stalled(w, since, waited, tx)), None),
            },
            Prompt::Required(mut s, tx) => match s.handle_key(key) {
                Some(RequiredChoice::Continue) => {
                    let _ = tx.send(OverviewChoice::Continue);
                    if let Base::Calling(w, _) = &mut self.base {
                        let ids = s.items.iter().map(|i| i.elicitation_id.clone()).collect();
                        w.waiting_for_steps(&s.tool, ids);
                    }
                    (None, None)
                }
                Some(RequiredChoice::Cancel) => {
                    let _ = tx.send(OverviewChoice::Cancel);
                    (None, None)
                }
                None => (Some(Prompt::Required(s, tx)), None),
            },
        }
    }

    /// Draws everything; returns the cursor position, if a text input has focus.
    pub(crate) fn render(
        &mut self,
        now: Instant,
        area: Rect,
        buf: &mut Buffer,
    ) -> Option<Position> {
        let mut lines = self.notices.lines(area.width);
        if self.stop_asking {
            lines.extend(crate::text::wrapped_lines(
                "Stop asking is on: requests from this server are declined (Ctrl-T on the tool list).",
                area.width,
                0,
                ratatui::style::Style::new(),
            ));
        }
        let max = usize::from(area.height / 3);
        lines.truncate(max);
        let bar = u16::try_from(lines.len()).unwrap_or(0);
        let main = Rect::new(area.x, area.y, area.width, area.height.saturating_sub(bar));
        let bar_area = Rect::new(area.x, area.y + main.height, area.width, bar);
        ratatui::widgets::Widget::render(ratatui::widgets::Paragraph::new(lines), bar_area, buf);
        match &mut self.prompt {
            Some(Prompt::Form(f, _)) => return f.render(main, buf),
            Some(Prompt::Url(s, _)) => {
                s.render(main, buf);
                return None;
            }
            Some(Prompt::Required(s, _)) => {
                s.render(main, buf);
                return None;
            }
            Some(Prompt::Stalled(w, since, waited, _)) => {
                w.render(*waited + now.duration_since(*since), main, buf);
                return None;
            }
            None => {}
        }
        match &mut self.base {
            Base::Tools(t) => t.render(main, buf),
            Base::Args(a, _) => return a.render(main, buf),
            Base::Calling(w, since) => w.render(now.duration_since(*since), main, buf),
            Base::Result(r) => r.render(main, buf),
        }
        None
    }
}
