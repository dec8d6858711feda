//! Checks of one property value against its [`PropertyKind`], pushing violations in a
//! fixed order (type, then length, pattern, format, bounds, membership, counts).
//!
//! Messages are only built for violations, and the success path allocates nothing of
//! its own, with three exceptions: a `pattern` that needs the backtracking engine
//! (backreferences, lookarounds) allocates its small state for each search, a
//! multi-select of more than 128 options keeps a `Vec<bool>` of the options seen, and
//! one with many items × options builds a sorted index.

use std::cmp::Ordering;

use serde_json::{Number, Value};

use super::describe::{count, json_type, option_list, quote, subject};
use super::formats::check_format;
use super::violation::{Violation, ViolationCode};
use crate::schema::number;
use crate::schema::{
    EnumOption, Extras, MultiSelectSpec, NumberSpec, Property, PropertyKind, StringFormat,
    StringSpec, UnionSpec,
};

/// Above this many (items × options) comparisons, a multi-select builds a sorted index.
const LINEAR_LOOKUP_BUDGET: usize = 4096;

/// Checks `value`, the response to `property`.
pub(super) fn property(property: &Property, value: &Value, out: &mut Vec<Violation>) {
    let name = property.name.as_str();
    let extras = property.extras();
    if let Some(x) = extras {
        if value.is_null() && x.nullable() {
            return;
        }
        if let Some(typed) = x.typed_options() {
            match &property.kind {
                PropertyKind::SingleSelect(spec) => {
                    return super::received::typed_single(name, &spec.options, typed, value, out);
                }
                PropertyKind::MultiSelect(spec) => {
                    return super::received::typed_multi(name, spec, typed, value, out);
                }
                _ => {}
            }
        }
    }
    match &property.kind {
        PropertyKind::String(spec) => match value.as_str() {
            Some(s) => string(name, spec, s, out),
            None => out.push(type_error(name, "a string", value)),
        },
        PropertyKind::Number(spec) => match value {
            Value::Number(n) => {
                number_value(name, spec, n, out);
                if let Some(x) = extras {
                    super::received::number_extras(name, x, n, out);
                }
            }
            _ => {
                let want = if spec.integer {
                    "an integer"
                } else {
                    "a number"
                };
                out.push(type_error(name, want, value));
            }
        },
        PropertyKind::Boolean(_) => {
            if !value.is_boolean() {
                out.push(type_error(name, "true or false", value));
            } else if let Some(c) = extras.and_then(Extras::constant)
                && value.as_bool() != Some(c)
            {
                let message = format!("{}must be {c}", subject(name));
                out.push(Violation::new(Some(name), ViolationCode::Const, message));
            }
        }
        PropertyKind::Union(spec) => union(name, spec, value, out),
        PropertyKind::SingleSelect(spec) => match value.as_str() {
            Some(s) => {
                if !spec.options.iter().any(|o| o.value == s) {
                    let message = format!(
                        "{}must be one of {}",
                        subject(name),
                        option_list(&spec.options)
                    );
                    out.push(Violation::new(Some(name), ViolationCode::Enum, message));
                }
            }
            None => out.push(type_error(name, "one of the choices (a string)", value)),
        },
        PropertyKind::MultiSelect(spec) => match value.as_array() {
            Some(items) => multi_select(name, spec, items, out),
            None => out.push(type_error(name, "a list of choices (an array)", value)),
        },
    }
}

/// Whether some of `alternatives` accepts `value`.
pub(crate) fn accepts(alternatives: &[Property], value: &Value) -> bool {
    let mut scratch = Vec::new();
    alternatives.iter().any(|alt| {
        scratch.clear();
        property(alt, value, &mut scratch);
        scratch.is_empty()
    })
}

/// A union: accepted when an alternative accepts; otherwise the problems of the first
/// alternative of the value's JSON type, or a type error naming the types accepted.
fn union(name: &str, spec: &UnionSpec, value: &Value, out: &mut Vec<Violation>) {
    if accepts(&spec.alternatives, value) {
        return;
    }
    let mut scratch = Vec::new();
    for alt in &spec.alternatives {
        scratch.clear();
        property(alt, value, &mut scratch);
        if !scratch.iter().any(|v| v.code() == ViolationCode::Type) {
            out.append(&mut scratch);
            return;
        }
    }
    let mut wanted: Vec<&str> = spec
        .alternatives
        .iter()
        .map(|a| match a.kind() {
            PropertyKind::String(_) => "a string",
            PropertyKind::Number(n) if n.is_integer() => "an integer",
            PropertyKind::Number(_) => "a number",
            PropertyKind::Boolean(_) => "true or false",
            _ => "one of the choices",
        })
        .collect();
    wanted.dedup();
    let want = if wanted.is_empty() {
        "empty (null)".to_owned()
    } else {
        wanted.join(" or ")
    };
    out.push(type_error(name, &want, value));
}

pub(super) fn type_error(name: &str, want: &str, value: &Value) -> Violation {
    let message = format!("{}must be {want}, not {}", subject(name), json_type(value));
    Violation::new(Some(name), ViolationCode::Type, message)
}

fn string(name: &str, spec: &StringSpec, s: &str, out: &mut Vec<Violation>) {
    if spec.min_length.is_some() || spec.max_length.is_some() {
        // Code points, as JSON Schema counts: an emoji outside the BMP is one.
        let length = s.chars().count() as u64;
        if let Some(min) = spec
            .min_length
            .as_ref()
            .map(|c| c.value)
            .filter(|min| length < *min)
        {
            let message = format!(
                "{}must be at least {} long",
                subject(name),
                count(min, "character", "characters")
            );
            out.push(Violation::new(
                Some(name),
                ViolationCode::MinLength,
                message,
            ));
        }
        if let Some(max) = spec
            .max_length
            .as_ref()
            .map(|c| c.value)
            .filter(|max| length > *max)
        {
            let message = format!(
                "{}must be at most {} long",
                subject(name),
                count(max, "character", "characters")
            );
            out.push(Violation::new(
                Some(name),
                ViolationCode::MaxLength,
                message,
            ));
        }
    }
    if let Some(pattern) = &spec.pattern {
        // The one safe path: linear time, or a bounded backtracking search.
        match pattern.is_match_bounded(s) {
            Some(true) => {}
            Some(false) => {
                let message = format!(
                    "{}must match the pattern {}",
                    subject(name),
                    quote(&pattern.source)
                );
                out.push(Violation::new(Some(name), ViolationCode::Pattern, message));
            }
            None => {
                let message = format!(
                    "{}is too long ({} characters) to be checked against the pattern {}",
                    subject(name),
                    s.chars().count(),
                    quote(&pattern.source)
                );
                out.push(Violation::new(Some(name), ViolationCode::Pattern, message));
            }
        }
    }
    if let Some(format) = spec.format
        && !check_format(format, s)
    {
        let message = format!("{}{}", subject(name), format_expectation(format));
        out.push(Violation::new(Some(name), ViolationCode::Format, message));
    }
}

/// What a value of `format` must look like, as the end of a sentence.
fn format_expectation(format: StringFormat) -> &'static str {
    match format {
        StringFormat::Email => "must be an email address like name@example.com",
        StringFormat::Uri => "must be an absolute URI like https://example.com/page",
        StringFormat::Date => "must be a date like 2024-12-31 (YYYY-MM-DD)",
        StringFormat::DateTime => {
            "must be a date and time with a time zone like 2024-12-31T23:59:00Z or 2024-12-31T23:59:00+01:00"
        }
    }
}

fn number_value(name: &str, spec: &NumberSpec, n: &Number, out: &mut Vec<Violation>) {
    if spec.integer && !number::is_integer(n) {
        let message = format!(
            "{}must be a whole number (an integer), not {n}",
            subject(name)
        );
        out.push(Violation::new(Some(name), ViolationCode::Type, message));
    }
    if let Some(min) = &spec.minimum
        && number::compare(n, min).is_none_or(|o| o == Ordering::Less)
    {
        let message = format!("{}must be at least {min}", subject(name));
        out.push(Violation::new(Some(name), ViolationCode::Minimum, message));
    }
    if let Some(max) = &spec.maximum
        && number::compare(n, max).is_none_or(|o| o == Ordering::Greater)
    {
        let message = format!("{}must be at most {max}", subject(name));
        out.push(Violation::new(Some(name), ViolationCode::Maximum, message));
    }
}

fn multi_select(name: &str, spec: &MultiSelectSpec, items: &[Value], out: &mut Vec<Violation>) {
    let mut non_strings = Offenders::default();
    let mut unknown = Offenders::default();
    let mut repeated = Offenders::default();
    let mut seen = SeenSet::new(spec.options.len());
    let index = OptionIndex::new(&spec.options, items.len());
    for (position, item) in items.iter().enumerate() {
        let Some(s) = item.as_str() else {
            non_strings.note(position, item);
            continue;
        };
        match index.position(&spec.options, s) {
            Some(option) => {
                if !seen.insert(option) {
                    repeated.note(position, item);
                }
            }
            None => unknown.note(position, item),
        }
    }
    if let Some((first, kind)) = &non_strings.first {
        let message = format!(
            "{}every choice must be a string, but {} {}",
            subject(name),
            item_ref(*first),
            others(kind, non_strings.count)
        );
        out.push(Violation::new(Some(name), ViolationCode::Type, message));
    }
    if let Some((_, value)) = unknown.first {
        let extra = if unknown.count > 1 {
            format!(" (and {} more)", unknown.count - 1)
        } else {
            String::new()
        };
        let message = format!(
            "{}{}{extra} is not one of the choices {}",
            subject(name),
            value,
            option_list(&spec.options)
        );
        out.push(Violation::new(Some(name), ViolationCode::Enum, message));
    }
    if let Some((_, value)) = repeated.first {
        let message = format!("{}must not select {} more than once", subject(name), value);
        out.push(Violation::new(
            Some(name),
            ViolationCode::UniqueItems,
            message,
        ));
    }
    let selected = items.len() as u64;
    if let Some(min) = spec
        .min_items
        .as_ref()
        .map(|c| c.value)
        .filter(|min| selected < *min)
    {
        let message = format!(
            "{}must have at least {} selected",
            subject(name),
            count(min, "choice", "choices")
        );
        out.push(Violation::new(Some(name), ViolationCode::MinItems, message));
    }
    if let Some(max) = spec
        .max_items
        .as_ref()
        .map(|c| c.value)
        .filter(|max| selected > *max)
    {
        let message = format!(
            "{}must have at most {} selected",
            subject(name),
            count(max, "choice", "choices")
        );
        out.push(Violation::new(Some(name), ViolationCode::MaxItems, message));
    }
}

/// `item 3` (1-based, as a form user counts).
fn item_ref(position: usize) -> String {
    format!("item {}", position + 1)
}

/// `is a number` or `is a number (and 2 more are not strings)`.
fn others(kind: &str, count: usize) -> String {
    if count > 1 {
        format!("is {kind} (and {} more are not strings)", count - 1)
    } else {
        format!("is {kind}")
    }
}

/// The first offending item of a multi-select (position and quoted text) and how many
/// offend.
#[derive(Default)]
struct Offenders {
    first: Option<(usize, String)>,
    count: usize,
}

impl Offenders {
    fn note(&mut self, position: usize, item: &Value) {
        if self.first.is_none() {
            let text = match item {
                Value::String(s) => quote(s),
                other => json_type(other).to_owned(),
            };
            self.first = Some((position, text));
        }
        self.count += 1;
    }
}

/// Which options were already selected: a bit mask for up to 128 options (no
/// allocation), a vector beyond.
enum SeenSet {
    Small(u128),
    Large(Vec<bool>),
}

impl SeenSet {
    fn new(options: usize) -> Self {
        if options <= 128 {
            Self::Small(0)
        } else {
            Self::Large(vec![false; options])
        }
    }

    /// Marks `option`; `false` when it was already marked.
    fn insert(&mut self, option: usize) -> bool {
        match self {
            Self::Small(mask) => {
                let bit = 1u128 << (option % 128);
                let fresh = *mask & bit == 0;
                *mask |= bit;
                fresh
            }
            Self::Large(seen) => match seen.get_mut(option) {
                Some(slot) => !std::mem::replace(slot, true),
                None => true,
            },
        }
    }
}

/// Finds an item's option: a linear scan for small inputs, a sorted index when
/// items × options would be large (a huge untrusted array must not cost
/// items × options string comparisons).
enum OptionIndex<'a> {
    Linear,
    Sorted(Vec<(&'a str, usize)>),
}

impl<'a> OptionIndex<'a> {
    fn new(options: &'a [EnumOption], items: usize) -> Self {
        if items.saturating_mul(options.len()) <= LINEAR_LOOKUP_BUDGET {
            return Self::Linear;
        }
        let mut sorted: Vec<(&str, usize)> = options
            .iter()
            .enumerate()
            .map(|(i, o)| (o.value.as_str(), i))
            .collect();
        sorted.sort_unstable();
        Self::Sorted(sorted)
    }

    fn position(&self, options: &[EnumOption], s: &str) -> Option<usize> {
        match self {
            Self::Linear => options.iter().position(|o| o.value == s),
            Self::Sorted(sorted) => sorted
                .binary_search_by(|(value, _)| (*value).cmp(s))
                .ok()
                .and_then(|at| sorted.get(at))
                .map(|(_, i)| *i),
        }
    }
}
