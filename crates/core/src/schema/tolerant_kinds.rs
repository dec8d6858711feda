//! The tolerant reading's kinds (see `tolerant.rs`): unknown formats, the extra
//! number keywords, boolean `const`, and selects of typed values (`enum`s of numbers,
//! `oneOf`/`anyOf` of `{const, title?}` with any primitive `const`).

use std::collections::HashSet;

use serde_json::{Map, Number, Value};

use super::model::{EnumOption, SingleSelectSpec, SingleSelectStyle};
use super::parse::{Ctx, describe, join, show};
use super::parse_select::{array_or_error, enum_names, within_option_limits};
use super::received::{Extras, NoticeKind, json_equal, option_text};
use super::{MultiSelectStyle, number};
use crate::error::ErrorKind;

/// A `format` outside the four: a hint, left to the server.
pub(crate) fn unknown_format(cx: &mut Ctx<'_>, x: &mut Extras, format: &str, at: &str) {
    x.format_name = Some(format.to_owned());
    x.unchecked.push("format".to_owned());
    let hint = match format {
        "time" => "a time such as 14:30:00".to_owned(),
        "uuid" => "a UUID such as 123e4567-e89b-12d3-a456-426614174000".to_owned(),
        "ipv4" => "an IPv4 address such as 192.0.2.1".to_owned(),
        "hostname" => "a host name such as example.com".to_owned(),
        other => format!("format: {}", show(&Value::String(other.to_owned()))),
    };
    x.hints.push(format!("{hint} (not checked here)"));
    cx.notice(
        NoticeKind::UncheckedFormat,
        at,
        format!(
            "the format {} is not one this client checks; shown as plain text, the server still checks it",
            show(&Value::String(format.to_owned()))
        ),
    );
}

/// `exclusiveMinimum`, `exclusiveMaximum` (numbers, or draft-4 booleans) and
/// `multipleOf` of a number property.
pub(crate) fn number_extras(cx: &mut Ctx<'_>, obj: &Map<String, Value>, at: &str, x: &mut Extras) {
    for (key, bound) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        let value = match obj.get(key) {
            None => continue,
            Some(Value::Number(n)) if number::is_finite(n) => Some(n.clone()),
            // Draft 4: `"exclusiveMinimum": true` makes `minimum` exclusive.
            Some(Value::Bool(true)) => obj.get(bound).and_then(Value::as_number).cloned(),
            Some(Value::Bool(false)) => None,
            Some(other) => {
                cx.soft(
                    ErrorKind::InvalidValue,
                    &join(at, key),
                    format!("`{key}` must be a number, not {}", describe(other)),
                );
                None
            }
        };
        if let Some(n) = value {
            let word = if key == "exclusiveMinimum" {
                "greater"
            } else {
                "less"
            };
            x.hints.push(format!("{word} than {n}"));
            if key == "exclusiveMinimum" {
                x.exclusive_minimum = Some(n);
            } else {
                x.exclusive_maximum = Some(n);
            }
        }
    }
    match obj.get("multipleOf") {
        None => {}
        Some(Value::Number(n))
            if number::is_finite(n)
                && number::compare(n, &Number::from(0)) == Some(std::cmp::Ordering::Greater) =>
        {
            x.hints.push(format!("a multiple of {n}"));
            x.multiple_of = Some(n.clone());
        }
        Some(other) => cx.soft(
            ErrorKind::InvalidValue,
            &join(at, "multipleOf"),
            format!("`multipleOf` must be a number above 0, not {}", show(other)),
        ),
    }
}

/// Checks a number default against the tolerated constraints.
pub(crate) fn check_number_default(cx: &mut Ctx<'_>, x: &Extras, n: &Number, at: &str) {
    use std::cmp::Ordering::{Greater, Less};
    if let Some(min) = &x.exclusive_minimum
        && number::compare(n, min) != Some(Greater)
    {
        cx.soft(
            ErrorKind::InvalidDefault,
            at,
            format!("the default {n} is not greater than {min}"),
        );
    }
    if let Some(max) = &x.exclusive_maximum
        && number::compare(n, max) != Some(Less)
    {
        cx.soft(
            ErrorKind::InvalidDefault,
            at,
            format!("the default {n} is not less than {max}"),
        );
    }
    if let Some(m) = &x.multiple_of
        && !number::is_multiple_of(n, m)
    {
        cx.soft(
            ErrorKind::InvalidDefault,
            at,
            format!("the default {n} is not a multiple of {m}"),
        );
    }
}

/// A boolean `const`.
pub(crate) fn boolean_const(
    cx: &mut Ctx<'_>,
    obj: &Map<String, Value>,
    at: &str,
    x: &mut Extras,
) -> Option<bool> {
    match obj.get("const") {
        None => None,
        Some(Value::Bool(b)) => {
            x.constant = Some(*b);
            x.hints
                .push(format!("must be {}", if *b { "yes" } else { "no" }));
            Some(*b)
        }
        Some(other) => {
            cx.soft(
                ErrorKind::InvalidValue,
                &join(at, "const"),
                format!("`const` must be true or false, not {}", show(other)),
            );
            None
        }
    }
}

/// An option list's values: primitives (strings as they are; numbers, booleans and
/// `null` typed), without duplicates.
fn typed_values(cx: &mut Ctx<'_>, value: &Value, at: &str) -> Option<Vec<Value>> {
    let entries = array_or_error(
        cx,
        value,
        at,
        ErrorKind::InvalidValue,
        "`enum` must be an array of values",
    )?;
    if !within_option_limits(cx, entries, at) {
        return None;
    }
    let mut out: Vec<Value> = Vec::with_capacity(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        let e_at = format!("{at}/{i}");
        match entry {
            Value::Array(_) | Value::Object(_) => cx.soft(
                ErrorKind::InvalidValue,
                &e_at,
                format!("options must be plain values, not {}", describe(entry)),
            ),
            Value::String(s) if !cx.check_size(s, &e_at) => {}
            _ if out.iter().any(|o| json_equal(o, entry)) => cx.soft(
                ErrorKind::InvalidEnum,
                &e_at,
                format!("{} appears twice", show(entry)),
            ),
            _ => out.push(entry.clone()),
        }
    }
    if out.is_empty() {
        cx.error(
            ErrorKind::InvalidEnum,
            at,
            "a select needs at least one option",
        );
        return None;
    }
    Some(out)
}

/// Options from typed values: the value texts, and the typed values when some are not
/// strings.
fn options_of(
    values: &[Value],
    titles: Option<Vec<Option<String>>>,
) -> (Vec<EnumOption>, Option<Vec<Value>>) {
    let mut titles = titles.map(Vec::into_iter);
    let mut seen = HashSet::new();
    let options = values
        .iter()
        .map(|v| {
            let mut value = option_text(v);
            // `"1"` and `1` would show alike: keep the texts distinct.
            if !seen.insert(value.clone()) {
                value = format!("{value} ({})", describe(v));
            }
            EnumOption {
                value,
                title: titles.as_mut().and_then(Iterator::next).flatten(),
            }
        })
        .collect();
    let typed = values
        .iter()
        .any(|v| !v.is_string())
        .then(|| values.to_vec());
    (options, typed)
}

/// A single-select, tolerantly: `enum` of any primitives (with or without `enumNames`),
/// or `oneOf` of `{const, title?}` with any primitive `const`.
pub(crate) fn parse_single(
    cx: &mut Ctx<'_>,
    obj: &Map<String, Value>,
    at: &str,
    x: &mut Extras,
) -> Option<SingleSelectSpec> {
    let (style, values, titles) = match (obj.get("enum"), obj.get("oneOf")) {
        (Some(values), _) => {
            if obj.contains_key("oneOf") {
                cx.soft(
                    ErrorKind::InvalidEnum,
                    &join(at, "oneOf"),
                    "a single-select uses either `enum` or `oneOf`; `oneOf` ignored",
                );
            }
            let values = typed_values(cx, values, &join(at, "enum"))?;
            match obj.get("enumNames") {
                None => (SingleSelectStyle::Untitled, values, None),
                Some(names) => {
                    let names = enum_names(cx, names, &join(at, "enumNames"), values.len())?;
                    let titles = names.into_iter().map(Some).collect();
                    (SingleSelectStyle::LegacyEnumNames, values, Some(titles))
                }
            }
        }
        (None, Some(entries)) => {
            let (values, titles) = const_entries(cx, entries, &join(at, "oneOf"))?;
            (SingleSelectStyle::TitledOneOf, values, Some(titles))
        }
        (None, None) => {
            cx.error(
                ErrorKind::InvalidEnum,
                at,
                "a single-select needs `enum` or `oneOf`",
            );
            return None;
        }
    };
    let (options, typed) = options_of(&values, titles);
    if typed.is_some() {
        cx.beyond = true;
    }
    let mut default = None;
    match obj.get("default") {
        None => {}
        Some(Value::Null) if x.nullable => {}
        Some(d) => match values.iter().position(|v| json_equal(v, d)) {
            Some(i) => default = options.get(i).map(|o| o.value.clone()),
            None => cx.soft(
                ErrorKind::InvalidDefault,
                &join(at, "default"),
                format!("the default {} is not one of the options", show(d)),
            ),
        },
    }
    x.typed_options = typed;
    Some(SingleSelectSpec {
        style,
        options,
        default,
    })
}

/// `oneOf`/`anyOf` entries of `{const, title?}` (other members ignored).
fn const_entries(
    cx: &mut Ctx<'_>,
    value: &Value,
    at: &str,
) -> Option<(Vec<Value>, Vec<Option<String>>)> {
    let entries = array_or_error(
        cx,
        value,
        at,
        ErrorKind::InvalidValue,
        "expected an array of {const, title} objects",
    )?;
    if !within_option_limits(cx, entries, at) {
        return None;
    }
    let mut values: Vec<Value> = Vec::new();
    let mut titles = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let e_at = format!("{at}/{i}");
        let c = entry.get("const");
        match c {
            Some(c @ (Value::String(_) | Value::Number(_) | Value::Bool(_) | Value::Null)) => {
                if let Value::String(s) = c
                    && !cx.check_size(s, &join(&e_at, "const"))
                {
                    continue;
                }
                if values.iter().any(|v| json_equal(v, c)) {
                    cx.soft(
                        ErrorKind::InvalidEnum,
                        &e_at,
                        format!("{} appears twice", show(c)),
                    );
                    continue;
                }
                let title = entry.get("title").and_then(Value::as_str);
                let title = title.filter(|t| cx.check_size(t, &join(&e_at, "title")));
                if entry
                    .as_object()
                    .is_some_and(|e| e.keys().any(|k| k != "const" && k != "title"))
                {
                    cx.beyond = true;
                }
                values.push(c.clone());
                titles.push(title.map(str::to_owned));
            }
            _ => {
                cx.error(
                    ErrorKind::InvalidEnum,
                    &e_at,
                    "options must be objects with a plain `const` value",
                );
                return None;
            }
        }
    }
    Some((values, titles))
}

/// A multi-select's `items`, tolerantly: `{enum}` of primitives with any or no `type`,
/// or `{anyOf: [{const, title?}]}`; anything else that is not an object is refused.
pub(crate) fn multi_items(
    cx: &mut Ctx<'_>,
    items: &Map<String, Value>,
    at: &str,
    x: &mut Extras,
) -> Option<(MultiSelectStyle, Vec<EnumOption>)> {
    let items = super::tolerant::resolve_ref(cx, items, at)?;
    if items.get("type").and_then(Value::as_str) == Some("object")
        || items.contains_key("properties")
    {
        cx.error(
            ErrorKind::UnsupportedArray,
            at,
            "arrays of objects are not supported",
        );
        return None;
    }
    let (style, values, titles) = if let Some(entries) = items.get("anyOf").or(items.get("oneOf")) {
        let (values, titles) = const_entries(cx, entries, &join(at, "anyOf"))?;
        (MultiSelectStyle::TitledAnyOf, values, Some(titles))
    } else if let Some(values) = items.get("enum") {
        (
            MultiSelectStyle::Untitled,
            typed_values(cx, values, &join(at, "enum"))?,
            None,
        )
    } else {
        cx.error(
            ErrorKind::UnsupportedArray,
            at,
            "a list of free values cannot be shown as a form field: a multi-select's items need `enum` or `anyOf`",
        );
        return None;
    };
    for key in items.keys() {
        if !matches!(
            key.as_str(),
            "type" | "enum" | "anyOf" | "oneOf" | "title" | "description"
        ) {
            cx.notice(
                NoticeKind::IgnoredKeyword,
                &join(at, key),
                format!("the keyword `{key}` of the list's items is not used by this client"),
            );
        }
    }
    if items.len() > 2
        || items.contains_key("oneOf")
        || titles
            .as_ref()
            .is_some_and(|t| t.iter().any(Option::is_none))
    {
        cx.beyond = true;
    }
    let (options, typed) = options_of(&values, titles);
    x.typed_options = typed;
    Some((style, options))
}

/// A multi-select default against typed options.
pub(crate) fn multi_default(
    cx: &mut Ctx<'_>,
    value: &Value,
    at: &str,
    options: &[EnumOption],
    x: &Extras,
) -> Option<Vec<String>> {
    let drop = |cx: &mut Ctx<'_>, why: String| {
        cx.soft(ErrorKind::InvalidDefault, at, why);
        None
    };
    let entries = match value {
        Value::Null if x.nullable => return None,
        Value::Array(entries) if entries.len() <= options.len() => entries,
        other => {
            return drop(
                cx,
                format!("the default {} is not a list of the options", show(other)),
            );
        }
    };
    let typed = x.typed_options.as_deref().unwrap_or_default();
    let mut chosen: Vec<String> = Vec::new();
    for entry in entries {
        let index = if typed.is_empty() {
            entry
                .as_str()
                .and_then(|s| options.iter().position(|o| o.value == s))
        } else {
            typed.iter().position(|t| json_equal(t, entry))
        };
        match index.and_then(|i| options.get(i)) {
            Some(o) if !chosen.contains(&o.value) => chosen.push(o.value.clone()),
            _ => {
                return drop(
                    cx,
                    format!(
                        "{} in the default is not an option, or appears twice",
                        show(entry)
                    ),
                );
            }
        }
    }
    Some(chosen)
}
