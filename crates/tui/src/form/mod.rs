//! The form screen: every field of a form-mode schema on one scrolling screen, live
//! validation, a review step showing the exact JSON to be sent, and explicit Submit,
//! Decline and Cancel.
//!
//! [`FormState`] is a pure state machine (keys in, [`FormOutcome`] out); drawing is in
//! [`FormState::render`], so both are tested separately.

mod field;
mod keys;
#[cfg(test)]
mod layout_tests;
mod render;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use mcp_elicit_core::Schema;
use serde_json::{Map, Value};

use crate::server::ServerIdentity;
use field::{Field, FieldValue};

/// How a form ended.
///
/// ```
/// # use mcp_elicit_core::Schema;
/// # use mcp_elicit_tui::{FormOutcome, FormPurpose, FormState, FormStep, ServerIdentity};
/// # use mcp_elicit_tui::keys::press;
/// # use ratatui::{buffer::Buffer, layout::Rect};
/// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
/// # use serde_json::json;
/// # fn screen(form: &mut FormState, w: u16, h: u16) -> String {
/// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
/// #     let _ = form.render(buf.area, &mut buf);
/// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
/// # }
/// # let key = |code| press(code, KeyModifiers::NONE);
/// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
/// # let server = ServerIdentity { name: "demo".into(), ..Default::default() };
/// let schema = Schema::parse(&json!({"type": "object", "properties": {"email": {"type": "string"}}}))
///     .expect("a flat form schema");
/// let purpose = FormPurpose::Elicitation { message: "Your email?".into() };
/// let form = FormState::new(server, purpose, schema);
///
/// assert_eq!(form.clone().handle_key(ctrl('d')), Some(FormOutcome::Decline));
/// assert_eq!(form.clone().handle_key(key(KeyCode::Esc)), Some(FormOutcome::Cancel));
/// assert_eq!(form.clone().handle_key(ctrl('c')), Some(FormOutcome::Cancel));
/// // Ctrl-T turns "stop asking this server" on: declining then stops every later request.
/// let mut stop = form.clone();
/// assert_eq!(stop.handle_key(ctrl('t')), None);
/// assert!(stop.stop_asking());
/// assert!(screen(&mut stop, 80, 24).contains("[x] Stop asking this server"));
/// assert_eq!(stop.handle_key(ctrl('d')), Some(FormOutcome::StopAsking));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum FormOutcome {
    /// The user reviewed and sent this content (it passed validation).
    Accept(Map<String, Value>),
    /// The user explicitly declined (Ctrl-D or the Decline button).
    Decline,
    /// The user dismissed the form without choosing (Esc, Ctrl-C or the Cancel button).
    Cancel,
    /// The user declined with the "stop asking this server" toggle on: decline this
    /// request and every later one from the same server.
    StopAsking,
}

/// What the form is for; changes the header, the buttons and whether Decline exists.
///
/// ```
/// # use mcp_elicit_core::Schema;
/// # use mcp_elicit_tui::{FormOutcome, FormPurpose, FormState, FormStep, ServerIdentity};
/// # use mcp_elicit_tui::keys::press;
/// # use ratatui::{buffer::Buffer, layout::Rect};
/// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
/// # use serde_json::json;
/// # fn screen(form: &mut FormState, w: u16, h: u16) -> String {
/// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
/// #     let _ = form.render(buf.area, &mut buf);
/// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
/// # }
/// # let key = |code| press(code, KeyModifiers::NONE);
/// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
/// # let server = ServerIdentity { name: "demo".into(), ..Default::default() };
/// let schema = Schema::parse(&json!({"type": "object", "properties": {"guests": {"type": "integer"}}}))
///     .expect("a flat form schema");
/// let purpose = FormPurpose::ToolArguments {
///     tool: "book_table".into(),
///     description: Some("Books a table".into()),
/// };
/// let mut form = FormState::new(server, purpose, schema);
/// assert!(!form.can_decline());
/// assert_eq!(form.handle_key(ctrl('d')), None); // nothing to decline
/// let s = screen(&mut form, 80, 24);
/// assert!(s.contains("Tool arguments from server: demo"));
/// assert!(s.contains("Tool: book_table"));
/// assert!(!s.contains("Decline"));
/// // Esc leaves (back to the tool list).
/// assert_eq!(form.handle_key(key(KeyCode::Esc)), Some(FormOutcome::Cancel));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormPurpose {
    /// A form-mode `elicitation/create` request with the server's message.
    Elicitation {
        /// The request's `message`, shown as plain text.
        message: String,
    },
    /// Arguments of a tool call the user is about to make.
    ToolArguments {
        /// The tool's name.
        tool: String,
        /// The tool's description, if any.
        description: Option<String>,
    },
}

/// Which screen of the form is showing.
///
/// ```
/// # use mcp_elicit_core::Schema;
/// # use mcp_elicit_tui::{FormOutcome, FormPurpose, FormState, FormStep, ServerIdentity};
/// # use mcp_elicit_tui::keys::press;
/// # use ratatui::{buffer::Buffer, layout::Rect};
/// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
/// # use serde_json::json;
/// # fn screen(form: &mut FormState, w: u16, h: u16) -> String {
/// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
/// #     let _ = form.render(buf.area, &mut buf);
/// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
/// # }
/// # let key = |code| press(code, KeyModifiers::NONE);
/// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
/// # let server = ServerIdentity { name: "demo".into(), ..Default::default() };
/// let schema = Schema::parse(&json!({"type": "object", "properties": {"note": {"type": "string"}}}))
///     .expect("a flat form schema");
/// let purpose = FormPurpose::Elicitation { message: "Anything to add?".into() };
/// let mut form = FormState::new(server, purpose, schema);
/// assert_eq!(form.step(), FormStep::Edit);
/// // Ctrl-S validates (nothing is required here) and shows the exact JSON to be sent.
/// assert_eq!(form.handle_key(ctrl('s')), None);
/// assert_eq!(form.step(), FormStep::Review);
/// assert!(screen(&mut form, 80, 24).contains("This exact JSON will be sent to demo"));
/// // E (or Esc, or Backspace) goes back to editing.
/// assert_eq!(form.handle_key(key(KeyCode::Char('e'))), None);
/// assert_eq!(form.step(), FormStep::Edit);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormStep {
    /// Filling in fields.
    Edit,
    /// Reviewing the exact JSON before sending.
    Review,
}

/// A button at the bottom of the edit step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Button {
    Submit,
    Decline,
    Cancel,
}

/// A button of the review step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReviewButton {
    Send,
    Back,
    Decline,
    Cancel,
}

/// Where the keyboard focus is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Focus {
    /// Field `field`, option `option` (0 for non-select fields).
    Field { field: usize, option: usize },
    /// A button.
    Button(Button),
}

/// The state of one form on screen.
///
/// ```
/// # use mcp_elicit_core::Schema;
/// use mcp_elicit_tui::{FormOutcome, FormPurpose, FormState, ServerIdentity};
/// use mcp_elicit_tui::keys::press;
/// use ratatui::crossterm::event::{KeyCode, KeyModifiers};
/// use serde_json::json;
///
/// let server = ServerIdentity { name: "demo".into(), ..Default::default() };
/// let schema = Schema::parse(&json!({
///     "type": "object",
///     "properties": {"city": {"type": "string"}},
///     "required": ["city"]
/// }))
/// .expect("a flat form schema");
/// let purpose = FormPurpose::Elicitation { message: "Where to?".into() };
/// let mut form = FormState::new(server, purpose, schema);
/// for c in "Oslo".chars() {
///     form.handle_key(press(KeyCode::Char(c), KeyModifiers::NONE));
/// }
/// assert_eq!(form.content(), *json!({"city": "Oslo"}).as_object().unwrap());
/// let ctrl_s = press(KeyCode::Char('s'), KeyModifiers::CONTROL);
/// assert_eq!(form.handle_key(ctrl_s), None); // to the review step
/// let enter = press(KeyCode::Enter, KeyModifiers::NONE);
/// assert_eq!(form.handle_key(enter), Some(FormOutcome::Accept(form.content())));
/// ```
#[derive(Debug, Clone)]
pub struct FormState {
    pub(crate) server: ServerIdentity,
    pub(crate) purpose: FormPurpose,
    pub(crate) schema: Schema,
    pub(crate) fields: Vec<Field>,
    pub(crate) focus: Focus,
    pub(crate) step: FormStep,
    /// Set by the first submit attempt: from then on every field's errors show.
    pub(crate) submit_attempted: bool,
    /// A one-line status shown above the help bar.
    pub(crate) status: Option<String>,
    /// Scroll offset of the edit step's body (kept between frames).
    pub(crate) scroll: usize,
    /// Scroll offset of the review step's body.
    pub(crate) review_scroll: usize,
    /// The focused button of the review step (index into `review_buttons`).
    pub(crate) review_focus: usize,
    /// The "stop asking this server" toggle (Ctrl-T): declining then stops further requests.
    pub(crate) stop_asking: bool,
    /// Security warnings about the request (secret-looking fields), shown at the top.
    pub(crate) warnings: Vec<String>,
    /// Notes about the request (links in titles or descriptions), shown at the top.
    pub(crate) notes: Vec<String>,
}

/// The current validation problems: whole-form messages and messages per field index.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Problems {
    pub(crate) general: Vec<String>,
    pub(crate) by_field: BTreeMap<usize, Vec<String>>,
}

impl Problems {
    pub(crate) fn count(&self) -> usize {
        self.general.len() + self.by_field.values().map(Vec::len).sum::<usize>()
    }
}

impl FormState {
    /// A form for `schema`, requested by `server`, with every field prefilled from its
    /// default.
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_tui::{FormOutcome, FormPurpose, FormState, FormStep, ServerIdentity};
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # use serde_json::json;
    /// # fn screen(form: &mut FormState, w: u16, h: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
    /// #     let _ = form.render(buf.area, &mut buf);
    /// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # let server = ServerIdentity { name: "demo".into(), ..Default::default() };
    /// // A form without fields starts on the Submit button: Enter reviews, Enter sends `{}`.
    /// let empty = Schema::parse(&json!({"type": "object", "properties": {}})).expect("a flat form schema");
    /// let purpose = FormPurpose::Elicitation { message: "Confirm?".into() };
    /// let mut form = FormState::new(server, purpose, empty);
    /// assert!(screen(&mut form, 80, 24).contains("This form has no fields."));
    /// assert_eq!(form.handle_key(key(KeyCode::Enter)), None);
    /// assert_eq!(form.step(), FormStep::Review);
    /// assert_eq!(form.handle_key(key(KeyCode::Enter)), Some(FormOutcome::Accept(Default::default())));
    /// ```
    pub fn new(server: ServerIdentity, purpose: FormPurpose, schema: Schema) -> Self {
        let fields: Vec<Field> = schema
            .properties()
            .iter()
            .map(|p| Field::received(p, &schema))
            .collect();
        let notes = field::form_notices(&schema);
        let focus = if fields.is_empty() {
            Focus::Button(Button::Submit)
        } else {
            Focus::Field {
                field: 0,
                option: 0,
            }
        };
        Self {
            server,
            purpose,
            schema,
            fields,
            focus,
            step: FormStep::Edit,
            submit_attempted: false,
            status: None,
            scroll: 0,
            review_scroll: 0,
            review_focus: 0,
            stop_asking: false,
            warnings: Vec::new(),
            notes,
        }
    }

    /// Shows `warnings` (e.g. secret-field findings: servers MUST NOT ask for passwords,
    /// API keys or tokens through forms) prominently at the top of the form, each
    /// prefixed with the word "Warning", and `notes` (e.g. links found in the schema,
    /// which are shown as plain text only) below them.
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_tui::{FormOutcome, FormPurpose, FormState, FormStep, ServerIdentity};
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # use serde_json::json;
    /// # fn screen(form: &mut FormState, w: u16, h: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
    /// #     let _ = form.render(buf.area, &mut buf);
    /// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # let server = ServerIdentity { name: "demo".into(), ..Default::default() };
    /// let schema = Schema::parse(&json!({"type": "object", "properties": {"pin": {"type": "string"}}}))
    ///     .expect("a flat form schema");
    /// let purpose = FormPurpose::Elicitation { message: "Enter your PIN".into() };
    /// let mut form = FormState::new(server, purpose, schema);
    /// form.set_warnings(
    ///     vec!["\"pin\" looks like it asks for a PIN".into()],
    ///     vec!["the message mentions https://example.com".into()],
    /// );
    /// let s = screen(&mut form, 100, 30);
    /// assert!(s.contains("Warning: this form looks like it asks for a secret (1 finding,"));
    /// assert!(s.contains("Note: the message mentions https://example.com"));
    /// ```
    pub fn set_warnings(&mut self, warnings: Vec<String>, notes: Vec<String>) {
        self.warnings = warnings;
        self.notes = notes;
        // What the client's reading of the schema says about the form as a whole.
        self.notes.extend(field::form_notices(&self.schema));
    }

    /// Replaces the prefilled values (e.g. the user's previous, rejected submission).
    /// Values of the wrong type for their field, and unknown names, are ignored.
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_tui::{FormOutcome, FormPurpose, FormState, FormStep, ServerIdentity};
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # use serde_json::json;
    /// # fn screen(form: &mut FormState, w: u16, h: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
    /// #     let _ = form.render(buf.area, &mut buf);
    /// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # let server = ServerIdentity { name: "demo".into(), ..Default::default() };
    /// let schema = Schema::parse(&json!({
    ///     "type": "object",
    ///     "properties": {
    ///         "name": {"type": "string", "minLength": 3},
    ///         "age": {"type": "integer", "default": 30}
    ///     },
    ///     "required": ["name"]
    /// }))
    /// .expect("a flat form schema");
    /// let purpose = FormPurpose::Elicitation { message: "Who?".into() };
    /// let mut form = FormState::new(server, purpose, schema);
    /// // The previous, rejected answer comes back for editing, with the server's complaint.
    /// let previous = json!({"name": "Al", "age": "thirty", "unknown": 1});
    /// form.set_values(previous.as_object().unwrap());
    /// assert_eq!(form.content().get("name"), Some(&json!("Al")));
    /// assert_eq!(form.content().get("age"), Some(&json!(30))); // wrong type: default kept
    /// assert_eq!(form.content().get("unknown"), None);
    /// form.show_previous_errors(&["\"name\": must be at least 3 characters long".into()]);
    /// let s = screen(&mut form, 80, 24);
    /// assert!(s.contains("Your last answer was not accepted"));
    /// assert!(s.contains("Error:")); // every field's errors show at once
    /// ```
    pub fn set_values(&mut self, values: &Map<String, Value>) {
        for f in &mut self.fields {
            if let Some(v) = values.get(f.prop.name()) {
                f.set_value(v);
            }
        }
    }

    /// Shows problems found with a previous submission: every field's errors are shown
    /// at once (live validation recomputes them as the user edits), with `messages` as
    /// the status line.
    pub fn show_previous_errors(&mut self, messages: &[String]) {
        if messages.is_empty() {
            return;
        }
        self.submit_attempted = true;
        self.status = Some(format!(
            "Your last answer was not accepted: {}",
            messages.join("; ")
        ));
    }

    /// Whether the "stop asking this server" toggle is on.
    pub fn stop_asking(&self) -> bool {
        self.stop_asking
    }

    /// Which step is showing.
    pub fn step(&self) -> FormStep {
        self.step
    }

    /// The schema being filled.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// Whether this form offers Decline (elicitations do; tool arguments don't).
    pub fn can_decline(&self) -> bool {
        matches!(self.purpose, FormPurpose::Elicitation { .. })
    }

    /// The content as it would be sent now (fields holding invalid text are left out).
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_tui::{FormOutcome, FormPurpose, FormState, FormStep, ServerIdentity};
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # use serde_json::json;
    /// # fn screen(form: &mut FormState, w: u16, h: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
    /// #     let _ = form.render(buf.area, &mut buf);
    /// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # let server = ServerIdentity { name: "demo".into(), ..Default::default() };
    /// let schema = Schema::parse(&json!({
    ///     "type": "object",
    ///     "properties": {"age": {"type": "integer", "default": 30}}
    /// }))
    /// .expect("a flat form schema");
    /// let purpose = FormPurpose::Elicitation { message: "How old?".into() };
    /// let mut form = FormState::new(server, purpose, schema);
    /// assert_eq!(form.content().get("age"), Some(&json!(30)));
    /// // Replace "30" by text that is no number: it is left out, and Ctrl-S refuses to go on.
    /// form.handle_key(key(KeyCode::Backspace));
    /// form.handle_key(key(KeyCode::Backspace));
    /// for c in "old".chars() {
    ///     form.handle_key(key(KeyCode::Char(c)));
    /// }
    /// assert_eq!(form.content().get("age"), None);
    /// assert_eq!(form.handle_key(ctrl('s')), None);
    /// assert_eq!(form.step(), FormStep::Edit);
    /// let s = screen(&mut form, 80, 24);
    /// assert!(s.contains("Not sent: 1 problem to fix"));
    /// assert!(s.contains("Error: \"old\" is not a whole number"));
    /// ```
    pub fn content(&self) -> Map<String, Value> {
        let mut map = Map::new();
        for f in &self.fields {
            if let FieldValue::Present(v) = f.value() {
                map.insert(f.prop.name().to_string(), v);
            }
        }
        map
    }

    /// Every current problem: unparseable input first, then schema violations from
    /// [`mcp_elicit_core::validate::validate`], mapped to their fields.
    pub(crate) fn problems(&self) -> Problems {
        let mut p = Problems::default();
        for (i, f) in self.fields.iter().enumerate() {
            if let FieldValue::Invalid(msg) = f.value() {
                p.by_field.entry(i).or_default().push(msg);
            }
        }
        let content = Value::Object(self.content());
        if let Err(violations) = mcp_elicit_core::validate::validate(&self.schema, &content) {
            for v in violations.iter() {
                let index = v
                    .property()
                    .and_then(|name| self.fields.iter().position(|f| f.prop.name() == name));
                match index {
                    // Unparseable text already explains why the value is missing.
                    Some(i) if matches!(self.fields[i].value(), FieldValue::Invalid(_)) => {}
                    Some(i) => p
                        .by_field
                        .entry(i)
                        .or_default()
                        .push(v.message().to_string()),
                    None => p.general.push(v.message().to_string()),
                }
            }
        }
        p
    }

    /// Messages to show for field `index` now (only once touched or after a submit
    /// attempt).
    pub(crate) fn visible_errors(&self, problems: &Problems, index: usize) -> Vec<String> {
        let shown = self.submit_attempted || self.fields.get(index).is_some_and(|f| f.touched);
        if !shown {
            return Vec::new();
        }
        problems.by_field.get(&index).cloned().unwrap_or_default()
    }

    /// Tries to move to the review step: validates everything, and on problems stays,
    /// shows every error and focuses the first field in error.
    pub(crate) fn try_review(&mut self) {
        self.submit_attempted = true;
        let problems = self.problems();
        if problems.count() == 0 {
            self.step = FormStep::Review;
            self.review_scroll = 0;
            self.review_focus = 0;
            self.status = None;
            return;
        }
        let n = problems.count();
        self.status = Some(format!(
            "Not sent: {n} problem{} to fix (marked \"Error\").",
            if n == 1 { "" } else { "s" }
        ));
        if let Some(&first) = problems.by_field.keys().next() {
            self.focus = Focus::Field {
                field: first,
                option: 0,
            };
        }
    }

    /// The content to send from the review step, re-validated.
    pub(crate) fn accept(&mut self) -> Option<FormOutcome> {
        if self.problems().count() == 0 {
            Some(FormOutcome::Accept(self.content()))
        } else {
            self.step = FormStep::Edit;
            self.try_review();
            None
        }
    }

    /// Every focus stop in order: each field's options (one stop for other kinds), then
    /// the buttons.
    pub(crate) fn stops(&self) -> Vec<Focus> {
        let mut v = Vec::new();
        for (i, f) in self.fields.iter().enumerate() {
            for o in 0..f.stops() {
                v.push(Focus::Field {
                    field: i,
                    option: o,
                });
            }
        }
        v.push(Focus::Button(Button::Submit));
        if self.can_decline() {
            v.push(Focus::Button(Button::Decline));
        }
        v.push(Focus::Button(Button::Cancel));
        v
    }

    /// The field index under focus, if any.
    pub(crate) fn focused_field(&self) -> Option<usize> {
        match self.focus {
            Focus::Field { field, .. } => Some(field),
            Focus::Button(_) => None,
        }
    }
}
