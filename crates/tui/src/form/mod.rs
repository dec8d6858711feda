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
    pub fn set_warnings(&mut self, warnings: Vec<String>, notes: Vec<String>) {
        self.warnings = warnings;
        self.notes = notes;
        // What the client's reading of the schema says about the form as a whole.
        self.notes.extend(field::form_notices(&self.schema));
    }

    /// Replaces the prefilled values (e.g. the user's previous, rejected submission).
    /// Values of the wrong type for their field, and unknown names, are ignored.
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
