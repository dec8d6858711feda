//! Parsing the select kinds: single-select (`enum`, `enum` + legacy `enumNames`,
//! `oneOf` of `{const, title}`) and multi-select (`type: array` with `items.enum` or
//! `items.anyOf`).

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::model::{
    EnumOption, MultiSelectSpec, MultiSelectStyle, SingleSelectSpec, SingleSelectStyle,
};
use super::parse::{Ctx, describe, join, show};
use super::received::Extras;
use crate::error::ErrorKind;

/// Parses a `type: string` property with `enum` or `oneOf`.
pub(crate) fn parse_single(
    cx: &mut Ctx<'_>,
    obj: &Map<String, Value>,
    at: &str,
    extras: Option<&mut Extras>,
) -> Option<SingleSelectSpec> {
    if let Some(x) = extras {
        return super::tolerant_kinds::parse_single(cx, obj, at, x);
    }
    let (style, options) = match (obj.get("enum"), obj.get("oneOf")) {
        (Some(_), Some(_)) => {
            cx.error(
                ErrorKind::InvalidEnum,
                at,
                "a single-select uses either `enum` or `oneOf`, not both",
            );
            return None;
        }
        (Some(values), None) => {
            let values = enum_values(cx, values, &join(at, "enum"))?;
            match obj.get("enumNames") {
                None => (
                    SingleSelectStyle::Untitled,
                    values
                        .into_iter()
                        .map(|v| EnumOption {
                            value: v,
                            title: None,
                        })
                        .collect(),
                ),
                Some(names) => {
                    let names = enum_names(cx, names, &join(at, "enumNames"), values.len())?;
                    let options = values
                        .into_iter()
                        .zip(names)
                        .map(|(value, title)| EnumOption {
                            value,
                            title: Some(title),
                        })
                        .collect();
                    (SingleSelectStyle::LegacyEnumNames, options)
                }
            }
        }
        (None, Some(entries)) => {
            if obj.contains_key("enumNames") {
                cx.error(
                    ErrorKind::UnsupportedKeyword,
                    &join(at, "enumNames"),
                    "`enumNames` only goes with `enum`; `oneOf` entries carry their own titles",
                );
            }
            (
                SingleSelectStyle::TitledOneOf,
                titled_options(cx, entries, &join(at, "oneOf"))?,
            )
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
    let mut default = None;
    if let Some(d) = obj.get("default") {
        let d_at = join(at, "default");
        match d {
            Value::String(s) if options.iter().any(|o: &EnumOption| &o.value == s) => {
                default = Some(s.clone())
            }
            Value::String(s) => cx.error(
                ErrorKind::InvalidDefault,
                &d_at,
                format!(
                    "the default {} is not one of the options",
                    show(&Value::String(s.clone()))
                ),
            ),
            other => cx.error(
                ErrorKind::InvalidDefault,
                &d_at,
                format!("the default must be a string, not {}", describe(other)),
            ),
        }
    }
    Some(SingleSelectSpec {
        style,
        options,
        default,
    })
}

/// Parses a `type: array` property (a multi-select).
pub(crate) fn parse_multi(
    cx: &mut Ctx<'_>,
    obj: &Map<String, Value>,
    at: &str,
    mut extras: Option<&mut Extras>,
) -> Option<MultiSelectSpec> {
    let min_items = cx.opt_count(obj, "minItems", at);
    let max_items = cx.opt_count(obj, "maxItems", at);
    let (min, max) = (
        min_items.as_ref().map(|c| c.value),
        max_items.as_ref().map(|c| c.value),
    );
    if let (Some(min), Some(max)) = (min, max)
        && min > max
    {
        cx.soft(
            ErrorKind::ContradictoryBounds,
            &join(at, "minItems"),
            format!("minItems ({min}) is greater than maxItems ({max})"),
        );
    }
    let items_at = join(at, "items");
    let (style, options) = match obj.get("items") {
        None => {
            cx.error(
                ErrorKind::UnsupportedArray,
                at,
                "an array property must be a multi-select with `items`",
            );
            return None;
        }
        Some(Value::Object(items)) => match extras.as_deref_mut() {
            Some(x) => super::tolerant_kinds::multi_items(cx, items, &items_at, x)?,
            None => multi_items(cx, items, &items_at)?,
        },
        Some(other) => {
            cx.error(
                ErrorKind::UnsupportedArray,
                &items_at,
                format!(
                    "`items` must be an object with `enum` or `anyOf`, not {}",
                    describe(other)
                ),
            );
            return None;
        }
    };
    if let Some(min) = min
        && min > options.len() as u64
    {
        cx.soft(
            ErrorKind::ContradictoryBounds,
            &join(at, "minItems"),
            format!(
                "minItems ({min}) is more than the {} options available",
                options.len()
            ),
        );
    }
    let mut default = None;
    if let Some(d) = obj.get("default") {
        default = match extras.as_deref() {
            Some(x) if x.typed_options.is_some() || d.is_null() => {
                super::tolerant_kinds::multi_default(cx, d, &join(at, "default"), &options, x)
            }
            _ => multi_default(cx, d, &join(at, "default"), &options, min, max),
        };
    }
    Some(MultiSelectSpec {
        style,
        options,
        min_items,
        max_items,
        default,
    })
}

fn multi_items(
    cx: &mut Ctx<'_>,
    items: &Map<String, Value>,
    at: &str,
) -> Option<(MultiSelectStyle, Vec<EnumOption>)> {
    let untitled = |values: Vec<String>| {
        values
            .into_iter()
            .map(|value| EnumOption { value, title: None })
            .collect()
    };
    if let Some(entries) = items.get("anyOf") {
        for key in items.keys().filter(|k| k.as_str() != "anyOf") {
            cx.error(
                ErrorKind::UnsupportedKeyword,
                &join(at, key),
                format!("keyword `{key}` is not supported next to `anyOf` in multi-select items"),
            );
        }
        return Some((
            MultiSelectStyle::TitledAnyOf,
            titled_options(cx, entries, &join(at, "anyOf"))?,
        ));
    }
    match items.get("type") {
        Some(Value::String(t)) if t == "string" => {
            let Some(values) = items.get("enum") else {
                cx.error(
                    ErrorKind::UnsupportedArray,
                    at,
                    "free string arrays are not supported: a multi-select's items need `enum` or `anyOf`",
                );
                return None;
            };
            for key in items
                .keys()
                .filter(|k| !matches!(k.as_str(), "type" | "enum"))
            {
                cx.error(
                    ErrorKind::UnsupportedKeyword,
                    &join(at, key),
                    format!("keyword `{key}` is not supported in multi-select items (only `type` and `enum`)"),
                );
            }
            Some((
                MultiSelectStyle::Untitled,
                untitled(enum_values(cx, values, &join(at, "enum"))?),
            ))
        }
        Some(Value::String(t)) if t == "object" => {
            cx.error(
                ErrorKind::UnsupportedArray,
                at,
                "arrays of objects are not supported",
            );
            None
        }
        None if items.contains_key("properties") => {
            cx.error(
                ErrorKind::UnsupportedArray,
                at,
                "arrays of objects are not supported",
            );
            None
        }
        Some(other) => {
            cx.error(
                ErrorKind::UnsupportedArray,
                &join(at, "type"),
                format!(
                    "arrays of {} items are not supported: only multi-selects of strings",
                    show(other)
                ),
            );
            None
        }
        None => {
            cx.error(
                ErrorKind::UnsupportedArray,
                at,
                "multi-select items must be `{\"type\": \"string\", \"enum\": [...]}` or `{\"anyOf\": [...]}`",
            );
            None
        }
    }
}

fn multi_default(
    cx: &mut Ctx<'_>,
    value: &Value,
    at: &str,
    options: &[EnumOption],
    min_items: Option<u64>,
    max_items: Option<u64>,
) -> Option<Vec<String>> {
    let entries = array_or_error(
        cx,
        value,
        at,
        ErrorKind::InvalidDefault,
        "the default must be an array of option values",
    )?;
    if entries.len() > cx.limits.max_enum_options {
        cx.error(
            ErrorKind::TooLarge,
            at,
            format!(
                "{} default entries, over the limit of {}",
                entries.len(),
                cx.limits.max_enum_options
            ),
        );
        return None;
    }
    let before = cx.problems();
    let allowed: HashSet<&str> = options.iter().map(|o| o.value.as_str()).collect();
    let mut seen: HashSet<&str> = HashSet::with_capacity(entries.len());
    let mut chosen: Vec<String> = Vec::with_capacity(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        let e_at = format!("{at}/{i}");
        match entry {
            Value::String(s) if seen.contains(s.as_str()) => {
                cx.soft(
                    ErrorKind::InvalidDefault,
                    &e_at,
                    format!("{} appears twice in the default", show(entry)),
                );
            }
            Value::String(s) if allowed.contains(s.as_str()) => {
                seen.insert(s);
                chosen.push(s.clone());
            }
            Value::String(_) => cx.soft(
                ErrorKind::InvalidDefault,
                &e_at,
                format!("{} is not one of the options", show(entry)),
            ),
            other => cx.soft(
                ErrorKind::InvalidDefault,
                &e_at,
                format!("default entries must be strings, not {}", describe(other)),
            ),
        }
    }
    let count = entries.len() as u64;
    if let Some(min) = min_items
        && count < min
    {
        cx.soft(
            ErrorKind::InvalidDefault,
            at,
            format!("the default selects {count} options, fewer than minItems {min}"),
        );
    }
    if let Some(max) = max_items
        && count > max
    {
        cx.soft(
            ErrorKind::InvalidDefault,
            at,
            format!("the default selects {count} options, more than maxItems {max}"),
        );
    }
    (cx.problems() == before).then_some(chosen)
}

/// An `enum` array: non-empty, strings, distinct, within limits.
pub(crate) fn enum_values(cx: &mut Ctx<'_>, value: &Value, at: &str) -> Option<Vec<String>> {
    let entries = array_or_error(
        cx,
        value,
        at,
        ErrorKind::InvalidValue,
        "`enum` must be an array of strings",
    )?;
    if !within_option_limits(cx, entries, at) {
        return None;
    }
    let before = cx.errors.len();
    let mut values: Vec<String> = Vec::with_capacity(entries.len());
    let mut seen: HashSet<&str> = HashSet::with_capacity(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        let e_at = format!("{at}/{i}");
        match entry {
            Value::String(s) => {
                if !cx.check_size(s, &e_at) {
                    continue;
                }
                if seen.insert(s) {
                    values.push(s.clone());
                } else {
                    cx.error(
                        ErrorKind::InvalidEnum,
                        &e_at,
                        format!("{} appears twice", show(entry)),
                    );
                }
            }
            other => cx.error(
                ErrorKind::InvalidValue,
                &e_at,
                format!("enum values must be strings, not {}", describe(other)),
            ),
        }
    }
    (cx.errors.len() == before).then_some(values)
}

/// A legacy `enumNames` array: strings, one per `enum` value.
pub(crate) fn enum_names(
    cx: &mut Ctx<'_>,
    value: &Value,
    at: &str,
    expected: usize,
) -> Option<Vec<String>> {
    let entries = array_or_error(
        cx,
        value,
        at,
        ErrorKind::InvalidValue,
        "`enumNames` must be an array of strings",
    )?;
    if entries.len() != expected {
        cx.error(
            ErrorKind::InvalidEnum,
            at,
            format!(
                "`enumNames` has {} entries but `enum` has {expected}",
                entries.len()
            ),
        );
        return None;
    }
    let before = cx.errors.len();
    let mut names = Vec::with_capacity(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        let e_at = format!("{at}/{i}");
        match entry {
            Value::String(s) => {
                if cx.check_size(s, &e_at) {
                    names.push(s.clone());
                }
            }
            other => cx.error(
                ErrorKind::InvalidValue,
                &e_at,
                format!("enumNames entries must be strings, not {}", describe(other)),
            ),
        }
    }
    (cx.errors.len() == before).then_some(names)
}

/// A `oneOf` / `anyOf` array of `{const, title}` entries.
pub(crate) fn titled_options(cx: &mut Ctx<'_>, value: &Value, at: &str) -> Option<Vec<EnumOption>> {
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
    let before = cx.errors.len();
    let mut options: Vec<EnumOption> = Vec::with_capacity(entries.len());
    let mut seen: HashSet<&str> = HashSet::with_capacity(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        let e_at = format!("{at}/{i}");
        let Value::Object(entry) = entry else {
            cx.error(
                ErrorKind::InvalidEnum,
                &e_at,
                format!(
                    "options must be {{const, title}} objects, not {}",
                    describe(entry)
                ),
            );
            continue;
        };
        for key in entry
            .keys()
            .filter(|k| !matches!(k.as_str(), "const" | "title"))
        {
            cx.error(
                ErrorKind::InvalidEnum,
                &join(&e_at, key),
                format!("options have only `const` and `title`, not `{key}`"),
            );
        }
        let value = match entry.get("const") {
            Some(Value::String(s)) => cx
                .check_size(s, &join(&e_at, "const"))
                .then_some(s.as_str()),
            Some(other) => {
                cx.error(
                    ErrorKind::InvalidEnum,
                    &join(&e_at, "const"),
                    format!("`const` must be a string, not {}", describe(other)),
                );
                None
            }
            None => {
                cx.error(ErrorKind::InvalidEnum, &e_at, "option without `const`");
                None
            }
        };
        let title = match entry.get("title") {
            Some(Value::String(s)) => cx.check_size(s, &join(&e_at, "title")).then(|| s.clone()),
            Some(other) => {
                cx.error(
                    ErrorKind::InvalidEnum,
                    &join(&e_at, "title"),
                    format!("`title` must be a string, not {}", describe(other)),
                );
                None
            }
            None => {
                cx.error(ErrorKind::InvalidEnum, &e_at, "option without `title`");
                None
            }
        };
        if let (Some(value), Some(title)) = (value, title) {
            if seen.insert(value) {
                options.push(EnumOption {
                    value: value.to_owned(),
                    title: Some(title),
                });
            } else {
                cx.error(
                    ErrorKind::InvalidEnum,
                    &join(&e_at, "const"),
                    format!("\"{value}\" appears twice"),
                );
            }
        }
    }
    (cx.errors.len() == before).then_some(options)
}

/// `value` as an array; otherwise an error of `kind` at `at` saying `expected` and what
/// `value` is instead.
pub(crate) fn array_or_error<'v>(
    cx: &mut Ctx<'_>,
    value: &'v Value,
    at: &str,
    kind: ErrorKind,
    expected: &str,
) -> Option<&'v [Value]> {
    if let Value::Array(entries) = value {
        return Some(entries);
    }
    cx.error(kind, at, format!("{expected}, not {}", describe(value)));
    None
}

/// Non-empty and at most `max_enum_options` entries.
pub(crate) fn within_option_limits(cx: &mut Ctx<'_>, entries: &[Value], at: &str) -> bool {
    if entries.is_empty() {
        cx.error(
            ErrorKind::InvalidEnum,
            at,
            "a select needs at least one option",
        );
        return false;
    }
    if entries.len() > cx.limits.max_enum_options {
        cx.error(
            ErrorKind::TooLarge,
            at,
            format!(
                "{} options, over the limit of {}",
                entries.len(),
                cx.limits.max_enum_options
            ),
        );
        return false;
    }
    true
}
