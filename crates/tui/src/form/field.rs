//! One form field: its editable state, the JSON value it produces, and its hints.

use mcp_elicit_core::Schema;
use mcp_elicit_core::schema::{
    EnumOption, Property, PropertyKind, StringFormat, UnionSpec, option_index, option_json,
};
use serde_json::{Number, Value};
use tui_input::{Input, InputRequest};

use crate::text;

/// The editable state of one field, by kind.
#[derive(Debug, Clone)]
pub(crate) enum FieldInput {
    /// Free text (`type: string`).
    Text(Input),
    /// A number typed as text, parsed on every change.
    Number {
        /// The text as typed.
        input: Input,
        /// `type: integer`.
        integer: bool,
    },
    /// A boolean; `None` until set when there is no default.
    Boolean(Option<bool>),
    /// Choose one: the index of the chosen option.
    Single {
        /// The choices.
        options: Vec<EnumOption>,
        /// The chosen one.
        selected: Option<usize>,
    },
    /// Choose several: one flag per option.
    Multi {
        /// The choices.
        options: Vec<EnumOption>,
        /// Which are ticked.
        checked: Vec<bool>,
    },
}

/// One field of the form.
#[derive(Debug, Clone)]
pub(crate) struct Field {
    pub(crate) prop: Property,
    pub(crate) input: FieldInput,
    /// Set once the user edited the field or moved past it: only then are its
    /// validation errors shown (all are shown after a submit attempt).
    pub(crate) touched: bool,
    /// What the client's tolerant reading of the schema says about this field
    /// ([`Schema::notices`]), shown with its hints.
    pub(crate) notices: Vec<String>,
}

/// The notices of a tolerantly read schema that name no field: shown as notes at the
/// top of the form.
pub(crate) fn form_notices(schema: &Schema) -> Vec<String> {
    schema
        .notices()
        .iter()
        .filter(|n| n.property().is_none())
        .map(|n| text::one_line(n.message()).into_owned())
        .collect()
}

/// What a field currently holds, as the response would carry it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum FieldValue {
    /// Nothing entered: the property is left out of the response.
    Absent,
    /// A value to send.
    Present(Value),
    /// Text that is not a valid value of the field's type; the message says why.
    Invalid(String),
}

impl Field {
    /// A field for `prop`, prefilled with its default.
    pub(crate) fn new(prop: &Property) -> Self {
        let input = match prop.kind() {
            PropertyKind::String(s) => {
                FieldInput::Text(Input::new(s.default().unwrap_or_default().to_string()))
            }
            PropertyKind::Number(n) => FieldInput::Number {
                input: Input::new(n.default().map(Number::to_string).unwrap_or_default()),
                integer: n.is_integer(),
            },
            PropertyKind::Boolean(b) => FieldInput::Boolean(b.default()),
            PropertyKind::SingleSelect(s) => {
                let options = s.options().to_vec();
                let selected = s
                    .default()
                    .and_then(|d| options.iter().position(|o| o.value == d));
                FieldInput::Single { options, selected }
            }
            PropertyKind::MultiSelect(m) => {
                let options = m.options().to_vec();
                let default = m.default().unwrap_or_default();
                let checked = options.iter().map(|o| default.contains(&o.value)).collect();
                FieldInput::Multi { options, checked }
            }
            // Several types: typed as text, sent typed as the alternative it matches.
            PropertyKind::Union(u) => FieldInput::Text(Input::new(
                u.default().map(UnionSpec::text_of).unwrap_or_default(),
            )),
            // A kind added to the core later: shown as free text so the form still works.
            _ => FieldInput::Text(Input::default()),
        };
        Self {
            prop: prop.clone(),
            input,
            touched: false,
            notices: Vec::new(),
        }
    }

    /// A field for `prop` of `schema`, with the schema's notices about it.
    pub(crate) fn received(prop: &Property, schema: &Schema) -> Self {
        let mut field = Self::new(prop);
        field.notices = schema
            .notices()
            .iter()
            .filter(|n| n.property() == Some(prop.name()))
            .map(|n| text::one_line(n.message()).into_owned())
            .collect();
        field
    }

    /// The number of focus stops: one per option for selects, else one.
    pub(crate) fn stops(&self) -> usize {
        match &self.input {
            FieldInput::Single { options, .. } | FieldInput::Multi { options, .. } => {
                options.len().max(1)
            }
            _ => 1,
        }
    }

    /// The value to send.
    pub(crate) fn value(&self) -> FieldValue {
        match &self.input {
            FieldInput::Text(input) => {
                if input.value().is_empty() {
                    FieldValue::Absent
                } else if let PropertyKind::Union(u) = self.prop.kind() {
                    FieldValue::Present(u.value_from_text(input.value()))
                } else {
                    FieldValue::Present(Value::String(input.value().to_string()))
                }
            }
            FieldInput::Number { input, integer } => parse_number(input.value(), *integer),
            FieldInput::Boolean(b) => {
                b.map_or(FieldValue::Absent, |b| FieldValue::Present(b.into()))
            }
            // The value as the schema types it (a number for `Literal[1, 2, 3]`).
            FieldInput::Single { options, selected } => selected
                .filter(|i| *i < options.len())
                .and_then(|i| option_json(&self.prop, i))
                .map_or(FieldValue::Absent, FieldValue::Present),
            FieldInput::Multi { checked, .. } => {
                let chosen: Vec<Value> = checked
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| **c)
                    .filter_map(|(i, _)| option_json(&self.prop, i))
                    .collect();
                if chosen.is_empty() && !self.prop.is_required() {
                    FieldValue::Absent
                } else {
                    FieldValue::Present(Value::Array(chosen))
                }
            }
        }
    }

    /// Sets the field from a JSON value; a value of the wrong type leaves it unchanged.
    pub(crate) fn set_value(&mut self, v: &Value) {
        match (&mut self.input, v) {
            (FieldInput::Text(input), v) if matches!(self.prop.kind(), PropertyKind::Union(_)) => {
                *input = Input::new(UnionSpec::text_of(v))
            }
            (FieldInput::Text(input), Value::String(s)) => *input = Input::new(s.clone()),
            (FieldInput::Number { input, .. }, Value::Number(n)) => {
                *input = Input::new(n.to_string())
            }
            (FieldInput::Boolean(b), Value::Bool(x)) => *b = Some(*x),
            (FieldInput::Single { selected, .. }, v) => {
                if let Some(i) = option_index(&self.prop, v) {
                    *selected = Some(i);
                }
            }
            (FieldInput::Multi { checked, .. }, Value::Array(items)) => {
                let picked: Vec<usize> = items
                    .iter()
                    .filter_map(|i| option_index(&self.prop, i))
                    .collect();
                for (i, c) in checked.iter_mut().enumerate() {
                    *c = picked.contains(&i);
                }
            }
            _ => {}
        }
    }

    /// Sends an editing request to a text or number input. Returns whether it changed.
    pub(crate) fn edit(&mut self, req: InputRequest) -> bool {
        let changed = match &mut self.input {
            FieldInput::Text(input) | FieldInput::Number { input, .. } => {
                input.handle(req).is_some_and(|r| r.value)
            }
            _ => false,
        };
        if changed {
            self.touched = true;
        }
        changed
    }

    /// Activates option `option` (select) or toggles (boolean). Returns whether it changed.
    pub(crate) fn activate(&mut self, option: usize) -> bool {
        match &mut self.input {
            FieldInput::Boolean(b) => {
                *b = Some(!b.unwrap_or(false));
            }
            FieldInput::Single { options, selected } => {
                if option >= options.len() {
                    return false;
                }
                *selected = Some(option);
            }
            FieldInput::Multi { checked, .. } => match checked.get_mut(option) {
                Some(c) => *c = !*c,
                None => return false,
            },
            _ => return false,
        }
        self.touched = true;
        true
    }

    /// Sets a boolean to `v`. Returns whether this is a boolean field.
    pub(crate) fn set_bool(&mut self, v: bool) -> bool {
        if let FieldInput::Boolean(b) = &mut self.input {
            *b = Some(v);
            self.touched = true;
            true
        } else {
            false
        }
    }

    /// Clears a boolean or single-select back to "not set". Returns whether it changed.
    pub(crate) fn clear_choice(&mut self) -> bool {
        let changed = match &mut self.input {
            FieldInput::Boolean(b) => b.take().is_some(),
            FieldInput::Single { selected, .. } => selected.take().is_some(),
            FieldInput::Multi { checked, .. } => {
                let any = checked.iter().any(|c| *c);
                checked.iter_mut().for_each(|c| *c = false);
                any
            }
            _ => false,
        };
        if changed {
            self.touched = true;
        }
        changed
    }

    /// Hints about what the field accepts (format, length, range, number of choices).
    pub(crate) fn hints(&self) -> Vec<String> {
        let mut out = Vec::new();
        match self.prop.kind() {
            PropertyKind::String(s) => {
                if let Some(f) = s.format() {
                    out.push(format_help(f).to_string());
                }
                match (s.min_length(), s.max_length()) {
                    (Some(a), Some(b)) if a == b => out.push(format!("exactly {a} characters")),
                    (Some(a), Some(b)) => out.push(format!("{a} to {b} characters")),
                    (Some(a), None) if a > 0 => out.push(format!("at least {a} characters")),
                    (None, Some(b)) => out.push(format!("at most {b} characters")),
                    _ => {}
                }
                if let Some(p) = s.pattern() {
                    out.push(format!(
                        "must match the pattern {}",
                        text::one_line(p.source())
                    ));
                }
            }
            PropertyKind::Number(n) => {
                let what = if n.is_integer() {
                    "whole number"
                } else {
                    "number"
                };
                out.push(match (n.minimum(), n.maximum()) {
                    (Some(a), Some(b)) => format!("{what} from {a} to {b}"),
                    (Some(a), None) => format!("{what}, at least {a}"),
                    (None, Some(b)) => format!("{what}, at most {b}"),
                    (None, None) => what.to_string(),
                });
            }
            PropertyKind::Boolean(_) => out.push("yes or no (Space toggles)".into()),
            PropertyKind::SingleSelect(_) => out.push("choose one (Space selects)".into()),
            PropertyKind::MultiSelect(m) => {
                out.push(
                    match (m.min_items(), m.max_items()) {
                        (Some(a), Some(b)) if a == b => format!("choose exactly {a}"),
                        (Some(a), Some(b)) => format!("choose {a} to {b}"),
                        (Some(a), None) if a > 0 => format!("choose at least {a}"),
                        (None, Some(b)) => format!("choose at most {b}"),
                        _ => "choose any".to_string(),
                    } + " (Space ticks)",
                );
            }
            _ => {}
        }
        // What a tolerant reading kept: bounds the subset has no words for, examples,
        // and what is left to the server (marked as such).
        if let Some(x) = self.prop.extras() {
            out.extend(x.hints().iter().map(|h| text::one_line(h).into_owned()));
            let others: Vec<&str> = x
                .unchecked()
                .iter()
                .map(String::as_str)
                .filter(|k| !matches!(*k, "pattern" | "format"))
                .collect();
            if !others.is_empty() {
                out.push(format!(
                    "not checked here (the server checks it): {}",
                    text::one_line(&others.join(", "))
                ));
            }
        }
        out.extend(self.notices.iter().map(|n| format!("note: {n}")));
        out
    }
}

/// Parses typed text as a JSON number (`integer` requires a whole number).
fn parse_number(s: &str, integer: bool) -> FieldValue {
    let t = s.trim();
    if t.is_empty() {
        return FieldValue::Absent;
    }
    if integer {
        if let Ok(i) = t.parse::<i64>() {
            return FieldValue::Present(Value::Number(i.into()));
        }
        if let Ok(u) = t.parse::<u64>() {
            return FieldValue::Present(Value::Number(u.into()));
        }
        return FieldValue::Invalid(format!(
            "\"{}\" is not a whole number (e.g. 42)",
            text::one_line(t)
        ));
    }
    match serde_json::from_str::<Number>(t) {
        Ok(n) => FieldValue::Present(Value::Number(n)),
        Err(_) => FieldValue::Invalid(format!(
            "\"{}\" is not a number (e.g. 42 or 3.5)",
            text::one_line(t)
        )),
    }
}

/// What to type for a string format.
pub(crate) fn format_help(f: StringFormat) -> &'static str {
    match f {
        StringFormat::Email => "email address, e.g. name@example.com",
        StringFormat::Uri => "absolute URI, e.g. https://example.com/page",
        StringFormat::Date => "date as YYYY-MM-DD",
        StringFormat::DateTime => "date and time as YYYY-MM-DDTHH:MM:SSZ (or +HH:MM offset)",
    }
}

/// The label shown for an option: its title when it has one, else its value.
pub(crate) fn option_label(o: &EnumOption) -> String {
    text::one_line(o.title.as_deref().unwrap_or(&o.value)).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_parse_as_json_numbers_and_reject_garbage() {
        assert_eq!(parse_number("", false), FieldValue::Absent);
        assert_eq!(parse_number(" 30 ", true), FieldValue::Present(30.into()));
        assert_eq!(parse_number("-7", true), FieldValue::Present((-7).into()));
        assert!(matches!(parse_number("3.5", true), FieldValue::Invalid(_)));
        assert!(matches!(parse_number("abc", false), FieldValue::Invalid(_)));
        assert!(matches!(parse_number("NaN", false), FieldValue::Invalid(_)));
        let FieldValue::Present(Value::Number(n)) = parse_number("3.5", false) else {
            panic!("3.5 is a number")
        };
        assert_eq!(n.as_f64(), Some(3.5));
        // Huge integers beyond i64 still parse when they fit u64.
        assert_eq!(
            parse_number("18446744073709551615", true),
            FieldValue::Present(u64::MAX.into())
        );
    }

    /// A field of a tolerantly read schema.
    fn received(schema: serde_json::Value, name: &str) -> Field {
        let schema = Schema::parse_received(&schema).expect("readable");
        let prop = schema.property(name).expect("the field").clone();
        Field::received(&prop, &schema)
    }

    #[test]
    fn typed_selects_send_the_typed_value() {
        let schema = serde_json::json!({"type": "object", "properties": {
            "level": {"type": "integer", "enum": [1, 2, 3], "default": 2},
            "many": {"type": "array", "items": {"enum": [1, 2]}, "uniqueItems": true}}});
        let mut level = received(schema.clone(), "level");
        assert_eq!(
            level.value(),
            FieldValue::Present(2.into()),
            "prefilled as a number"
        );
        assert!(level.activate(2));
        assert_eq!(level.value(), FieldValue::Present(3.into()));
        level.set_value(&1.into());
        assert_eq!(level.value(), FieldValue::Present(1.into()));
        let mut many = received(schema, "many");
        many.set_value(&serde_json::json!([2]));
        assert_eq!(many.value(), FieldValue::Present(serde_json::json!([2])));
    }

    #[test]
    fn a_union_is_text_sent_typed_and_unchecked_parts_are_marked() {
        let schema = serde_json::json!({"type": "object", "properties": {
            "amount": {"anyOf": [{"type": "integer"}, {"type": "string"}], "default": 5},
            "word": {"type": "string", "pattern": "(?i)^hello$", "dependentRequired": {}}}});
        let mut amount = received(schema.clone(), "amount");
        assert_eq!(amount.value(), FieldValue::Present(5.into()));
        amount.set_value(&"five".into());
        assert_eq!(amount.value(), FieldValue::Present("five".into()));
        assert!(
            amount.hints().iter().any(|h| h.starts_with("note: ")),
            "{:?}",
            amount.hints()
        );
        let word = received(schema, "word");
        let hints = word.hints().join(" | ");
        assert!(hints.contains("pattern (not checked here)"), "{hints}");
        assert!(
            hints.contains("not checked here (the server checks it): dependentRequired"),
            "{hints}"
        );
    }
}
