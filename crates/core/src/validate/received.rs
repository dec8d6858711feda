//! Checks that only a tolerantly read schema ([`Schema::parse_received`]) has: exclusive
//! bounds, `multipleOf`, selects of typed values, and the report of what is left to the
//! server ([`unchecked`]).

use std::cmp::Ordering;

use serde::Serialize;
use serde_json::{Number, Value};

use super::check::type_error;
use super::describe::{count, option_list, quote, subject};
use super::violation::{Violation, ViolationCode};
use crate::schema::{EnumOption, Extras, MultiSelectSpec, Schema, number};

/// `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`.
pub(super) fn number_extras(name: &str, x: &Extras, n: &Number, out: &mut Vec<Violation>) {
    if let Some(min) = x.exclusive_minimum()
        && number::compare(n, min) != Some(Ordering::Greater)
    {
        let message = format!("{}must be greater than {min}", subject(name));
        out.push(Violation::new(
            Some(name),
            ViolationCode::ExclusiveMinimum,
            message,
        ));
    }
    if let Some(max) = x.exclusive_maximum()
        && number::compare(n, max) != Some(Ordering::Less)
    {
        let message = format!("{}must be less than {max}", subject(name));
        out.push(Violation::new(
            Some(name),
            ViolationCode::ExclusiveMaximum,
            message,
        ));
    }
    if let Some(m) = x.multiple_of()
        && !number::is_multiple_of(n, m)
    {
        let message = format!("{}must be a multiple of {m}", subject(name));
        out.push(Violation::new(
            Some(name),
            ViolationCode::MultipleOf,
            message,
        ));
    }
}

fn position(typed: &[Value], value: &Value) -> Option<usize> {
    typed
        .iter()
        .position(|t| crate::schema::received_json_equal(t, value))
}

/// A single-select of typed values.
pub(super) fn typed_single(
    name: &str,
    options: &[EnumOption],
    typed: &[Value],
    value: &Value,
    out: &mut Vec<Violation>,
) {
    if position(typed, value).is_none() {
        let message = format!("{}must be one of {}", subject(name), option_list(options));
        out.push(Violation::new(Some(name), ViolationCode::Enum, message));
    }
}

/// A multi-select of typed values. Only the first `options + 1` items are looked at
/// (more items than options means a repeat or an unknown item, already reported).
pub(super) fn typed_multi(
    name: &str,
    spec: &MultiSelectSpec,
    typed: &[Value],
    value: &Value,
    out: &mut Vec<Violation>,
) {
    let Some(items) = value.as_array() else {
        out.push(type_error(name, "a list of choices (an array)", value));
        return;
    };
    let mut seen = vec![false; typed.len()];
    let mut unknown: Option<&Value> = None;
    let mut repeated: Option<&Value> = None;
    for item in items.iter().take(typed.len() + 1) {
        match position(typed, item) {
            Some(i) if seen[i] => {
                repeated.get_or_insert(item);
            }
            Some(i) => seen[i] = true,
            None => {
                unknown.get_or_insert(item);
            }
        }
    }
    if let Some(item) = unknown {
        let message = format!(
            "{}{} is not one of the choices {}",
            subject(name),
            quote(&item.to_string()),
            option_list(&spec.options)
        );
        out.push(Violation::new(Some(name), ViolationCode::Enum, message));
    }
    if let Some(item) = repeated {
        let message = format!(
            "{}must not select {} more than once",
            subject(name),
            quote(&item.to_string())
        );
        out.push(Violation::new(
            Some(name),
            ViolationCode::UniqueItems,
            message,
        ));
    }
    let selected = items.len() as u64;
    if let Some(min) = spec.min_items().filter(|min| selected < *min) {
        let message = format!(
            "{}must have at least {} selected",
            subject(name),
            count(min, "choice", "choices")
        );
        out.push(Violation::new(Some(name), ViolationCode::MinItems, message));
    }
    if let Some(max) = spec.max_items().filter(|max| selected > *max) {
        let message = format!(
            "{}must have at most {} selected",
            subject(name),
            count(max, "choice", "choices")
        );
        out.push(Violation::new(Some(name), ViolationCode::MaxItems, message));
    }
}

/// A field of an answer that this client could not check completely: the server checks
/// the listed keywords. Serialized as `{"property": "word", "keywords": ["pattern"]}`.
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::validate::{UncheckedField, unchecked};
/// use serde_json::json;
///
/// let schema = Schema::parse_received(&json!({"type": "object", "properties": {
///     "at": {"type": "string", "format": "time"}}}))?;
/// let left = unchecked(&schema, &json!({"at": "12:00"}));
/// assert_eq!(left, [UncheckedField { property: "at".into(), keywords: vec!["format".into()] }]);
/// assert_eq!(serde_json::to_value(&left[0]).unwrap(), json!({"property": "at", "keywords": ["format"]}));
/// assert!(unchecked(&schema, &json!({})).is_empty()); // only fields present in the answer
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UncheckedField {
    /// The field.
    pub property: String,
    /// The keywords left to the server (`pattern`, `format`, ignored keywords).
    pub keywords: Vec<String>,
}

/// Which fields of `content` were left (in part) to the server: those present whose
/// schema has keywords a tolerant reading could not check. Empty for a schema inside
/// the subset. Call it beside [`validate`](super::validate), which checks the rest.
///
/// ```
/// # use mcp_elicit_core::Schema;
/// # use mcp_elicit_core::validate::{unchecked, validate};
/// # use serde_json::json;
/// let schema = Schema::parse_received(&json!({"type": "object", "properties": {
///     "word": {"type": "string", "pattern": "(?i)^hello$"},
///     "n": {"type": "integer"}}})).unwrap();
/// let answer = json!({"word": "HELLO", "n": 1});
/// assert!(validate(&schema, &answer).is_ok());
/// let left = unchecked(&schema, &answer);
/// assert_eq!(left[0].property, "word");
/// assert_eq!(left[0].keywords, ["pattern"]);
/// ```
pub fn unchecked(schema: &Schema, content: &Value) -> Vec<UncheckedField> {
    let Some(object) = content.as_object() else {
        return Vec::new();
    };
    schema
        .properties()
        .iter()
        .filter(|p| object.contains_key(p.name()))
        .filter_map(|p| {
            let keywords = p.extras()?.unchecked();
            (!keywords.is_empty()).then(|| UncheckedField {
                property: p.name().to_owned(),
                keywords: keywords.to_vec(),
            })
        })
        .collect()
}
