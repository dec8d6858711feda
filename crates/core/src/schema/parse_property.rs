//! Parsing one property of the flat object: dispatch on `type`, and the string, number
//! and boolean kinds. Selects are in `parse_select.rs`.

use serde_json::{Map, Value};

use super::model::{BooleanSpec, NumberSpec, Property, PropertyKind, StringFormat, StringSpec};
use super::number;
use super::parse::{Ctx, describe, join, show};
use super::pattern::Pattern;
use super::received::Extras;
use crate::error::ErrorKind;

/// Keywords every kind accepts.
const COMMON: &[&str] = &["type", "title", "description", "default"];

/// The shape a property's `type` (and `enum`/`oneOf`) selects.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Shape {
    String,
    Number { integer: bool },
    Boolean,
    SingleSelect,
    MultiSelect,
}

impl Shape {
    /// Keywords accepted besides [`COMMON`].
    fn keywords(self) -> &'static [&'static str] {
        match self {
            Shape::String => &["minLength", "maxLength", "pattern", "format"],
            Shape::Number { .. } => &["minimum", "maximum"],
            Shape::Boolean => &[],
            Shape::SingleSelect => &["enum", "enumNames", "oneOf"],
            Shape::MultiSelect => &["items", "minItems", "maxItems"],
        }
    }

    /// Keywords a tolerant reading accepts besides [`keywords`](Self::keywords), and
    /// checks.
    pub(crate) fn tolerated(self) -> &'static [&'static str] {
        match self {
            Shape::String => &[],
            Shape::Number { .. } => &["exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
            Shape::Boolean => &["const"],
            Shape::SingleSelect => &[],
            Shape::MultiSelect => &["uniqueItems"],
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Shape::String => "a string property",
            Shape::Number { integer: false } => "a number property",
            Shape::Number { integer: true } => "an integer property",
            Shape::Boolean => "a boolean property",
            Shape::SingleSelect => "a single-select (enum) property",
            Shape::MultiSelect => "a multi-select (array) property",
        }
    }
}

/// Parses the property `name` at pointer `at`. Records errors in `cx`; returns `None`
/// when the property's kind cannot be determined.
pub(crate) fn parse_property(
    cx: &mut Ctx<'_>,
    name: &str,
    value: &Value,
    at: &str,
) -> Option<Property> {
    let Some(obj) = value.as_object() else {
        cx.error(
            ErrorKind::InvalidValue,
            at,
            format!(
                "a property schema must be a JSON object, not {}",
                describe(value)
            ),
        );
        return None;
    };
    if cx.tolerant {
        return super::tolerant::parse_property(cx, name, obj, at);
    }
    parse_object(cx, name, obj, at, None)
}

/// Parses a property schema object; `extras` is `Some` for a tolerant reading (which
/// has already resolved references and inferred a missing `type`).
pub(crate) fn parse_object(
    cx: &mut Ctx<'_>,
    name: &str,
    obj: &Map<String, Value>,
    at: &str,
    mut extras: Option<Extras>,
) -> Option<Property> {
    let shape = shape_of(cx, obj, at)?;
    let title = cx.opt_string(obj, "title", at);
    let description = cx.opt_string(obj, "description", at);
    let mut extensions = Map::new();
    for (key, member) in obj {
        if COMMON.contains(&key.as_str()) || shape.keywords().contains(&key.as_str()) {
            continue;
        }
        match extras.as_mut() {
            Some(x) => super::tolerant::member(cx, shape, key, member, at, x, &mut extensions),
            None => cx.extra_member(key, member, at, shape.describe(), &mut extensions),
        }
    }
    let x = extras.as_mut();
    let kind = match shape {
        Shape::String => PropertyKind::String(parse_string(cx, obj, at, x)),
        Shape::Number { integer } => PropertyKind::Number(parse_number(cx, obj, at, integer, x)),
        Shape::Boolean => PropertyKind::Boolean(parse_boolean(cx, obj, at, x)),
        Shape::SingleSelect => {
            PropertyKind::SingleSelect(super::parse_select::parse_single(cx, obj, at, x)?)
        }
        Shape::MultiSelect => {
            PropertyKind::MultiSelect(super::parse_select::parse_multi(cx, obj, at, x)?)
        }
    };
    Some(Property {
        name: name.to_owned(),
        title,
        description,
        required: false,
        kind,
        extensions,
        extras: extras.filter(|x| *x != Extras::default()).map(Box::new),
    })
}

fn shape_of(cx: &mut Ctx<'_>, obj: &Map<String, Value>, at: &str) -> Option<Shape> {
    let type_at = join(at, "type");
    match obj.get("type") {
        Some(Value::String(t)) => match t.as_str() {
            "string" if obj.contains_key("enum") || obj.contains_key("oneOf") => {
                Some(Shape::SingleSelect)
            }
            "string" => Some(Shape::String),
            "number" | "integer" | "boolean"
                if cx.tolerant && (obj.contains_key("enum") || obj.contains_key("oneOf")) =>
            {
                Some(Shape::SingleSelect)
            }
            "number" => Some(Shape::Number { integer: false }),
            "integer" => Some(Shape::Number { integer: true }),
            "boolean" => Some(Shape::Boolean),
            "array" => Some(Shape::MultiSelect),
            "object" => {
                cx.error(
                    ErrorKind::NestedObject,
                    at,
                    "nested objects are not supported: form-mode schemas are flat objects of primitive properties",
                );
                None
            }
            other => {
                cx.error(
                    ErrorKind::UnsupportedType,
                    &type_at,
                    format!(
                        "type \"{other}\" is not supported (expected string, number, integer, boolean, or array for a multi-select)"
                    ),
                );
                None
            }
        },
        Some(Value::Array(_)) => {
            cx.error(
                ErrorKind::UnsupportedType,
                &type_at,
                "`type` must name one type; type lists such as [\"string\", \"null\"] are not supported",
            );
            None
        }
        Some(other) => {
            cx.error(
                ErrorKind::InvalidValue,
                &type_at,
                format!("`type` must be a string, not {}", describe(other)),
            );
            None
        }
        None if obj.contains_key("properties") => {
            cx.error(
                ErrorKind::NestedObject,
                at,
                "nested objects are not supported: form-mode schemas are flat objects of primitive properties",
            );
            None
        }
        None => {
            cx.error(ErrorKind::InvalidValue, at, "missing `type`");
            None
        }
    }
}

fn parse_string(
    cx: &mut Ctx<'_>,
    obj: &Map<String, Value>,
    at: &str,
    mut extras: Option<&mut Extras>,
) -> StringSpec {
    let min_length = cx.opt_count(obj, "minLength", at);
    let max_length = cx.opt_count(obj, "maxLength", at);
    if let (Some(min), Some(max)) = (&min_length, &max_length)
        && min.value > max.value
    {
        cx.soft(
            ErrorKind::ContradictoryBounds,
            &join(at, "minLength"),
            format!(
                "minLength ({}) is greater than maxLength ({})",
                min.json, max.json
            ),
        );
    }
    let pattern = match obj.get("pattern") {
        None => None,
        Some(Value::String(source)) => {
            let p_at = join(at, "pattern");
            if source.len() > cx.limits.max_pattern_bytes {
                unchecked_pattern(extras.as_deref_mut(), source);
                cx.soft(
                    ErrorKind::TooLarge,
                    &p_at,
                    format!(
                        "pattern of {} bytes, over the limit of {} bytes",
                        source.len(),
                        cx.limits.max_pattern_bytes
                    ),
                );
                None
            } else {
                match Pattern::compile_within(source, &mut cx.automata_budget) {
                    Ok(p) => Some(p),
                    Err(why) => {
                        unchecked_pattern(extras.as_deref_mut(), source);
                        let why = if cx.tolerant {
                            format!(
                                "the pattern {} cannot run here ({why})",
                                show(&Value::String(source.clone()))
                            )
                        } else {
                            why
                        };
                        cx.soft(ErrorKind::InvalidPattern, &p_at, why);
                        None
                    }
                }
            }
        }
        Some(other) => {
            cx.soft(
                ErrorKind::InvalidValue,
                &join(at, "pattern"),
                format!("`pattern` must be a string, not {}", describe(other)),
            );
            None
        }
    };
    let format = match obj.get("format") {
        None => None,
        Some(Value::String(f)) => {
            let found = StringFormat::from_keyword(f);
            if found.is_none()
                && let Some(x) = extras.as_deref_mut()
            {
                super::tolerant_kinds::unknown_format(cx, x, f, &join(at, "format"));
            } else if found.is_none() {
                cx.error(
                    ErrorKind::UnsupportedFormat,
                    &join(at, "format"),
                    format!(
                        "format \"{f}\" is not supported (expected email, uri, date or date-time)"
                    ),
                );
            }
            found
        }
        Some(other) => {
            cx.soft(
                ErrorKind::InvalidValue,
                &join(at, "format"),
                format!("`format` must be a string, not {}", describe(other)),
            );
            None
        }
    };
    let mut spec = StringSpec {
        min_length,
        max_length,
        pattern,
        format,
        default: None,
    };
    if let Some(default) = obj.get("default") {
        let d_at = join(at, "default");
        match default {
            Value::String(s) => {
                if cx.check_size(s, &d_at) {
                    let before = cx.notices.len();
                    check_string_default(cx, &spec, s, &d_at);
                    if cx.notices.len() == before {
                        spec.default = Some(s.clone());
                    }
                }
            }
            Value::Null if extras.as_deref().is_some_and(|x| x.nullable) => {}
            other => cx.soft(
                ErrorKind::InvalidDefault,
                &d_at,
                format!("the default must be a string, not {}", describe(other)),
            ),
        }
    }
    spec
}

/// Records a pattern that cannot run here, for a tolerant reading.
fn unchecked_pattern(extras: Option<&mut Extras>, source: &str) {
    if let Some(x) = extras {
        x.unchecked_pattern = Some(source.to_owned());
        x.unchecked.push("pattern".to_owned());
        x.hints.push(format!(
            "pattern (not checked here): {}",
            super::parse::show(&Value::String(source.to_owned()))
        ));
    }
}

/// Checks a string default against its own property's constraints.
fn check_string_default(cx: &mut Ctx<'_>, spec: &StringSpec, s: &str, at: &str) {
    let len = s.chars().count() as u64;
    if let Some(min) = spec.min_length.as_ref().map(|c| c.value)
        && len < min
    {
        cx.soft(
            ErrorKind::InvalidDefault,
            at,
            format!("the default is {len} characters long, shorter than minLength {min}"),
        );
    }
    if let Some(max) = spec.max_length.as_ref().map(|c| c.value)
        && len > max
    {
        cx.soft(
            ErrorKind::InvalidDefault,
            at,
            format!("the default is {len} characters long, longer than maxLength {max}"),
        );
    }
    if let Some(p) = &spec.pattern {
        match p.is_match_bounded(s) {
            Some(true) => {}
            Some(false) => cx.soft(
                ErrorKind::InvalidDefault,
                at,
                format!("the default does not match the pattern {}", p.source()),
            ),
            None => cx.soft(
                if cx.tolerant {
                    ErrorKind::InvalidDefault
                } else {
                    ErrorKind::TooLarge
                },
                at,
                format!(
                    "the default is too long to check safely against the pattern {} (it has \
                     backreferences or lookarounds, which only a backtracking engine runs)",
                    p.source()
                ),
            ),
        }
    }
    if let Some(f) = spec.format
        && !default_format_ok(f, s)
    {
        cx.soft(
            ErrorKind::InvalidDefault,
            at,
            format!("the default is not a valid {}", f.as_str()),
        );
    }
}

/// Whether a string default is a valid value of its `format`. Uses the validator's
/// format checks, so a default the parser accepts is one validation accepts.
fn default_format_ok(format: StringFormat, s: &str) -> bool {
    crate::validate::formats::check_format(format, s)
}

fn parse_number(
    cx: &mut Ctx<'_>,
    obj: &Map<String, Value>,
    at: &str,
    integer: bool,
    mut extras: Option<&mut Extras>,
) -> NumberSpec {
    let minimum = cx.opt_number(obj, "minimum", at);
    let maximum = cx.opt_number(obj, "maximum", at);
    if let (Some(min), Some(max)) = (&minimum, &maximum)
        && number::compare(min, max) == Some(std::cmp::Ordering::Greater)
    {
        cx.soft(
            ErrorKind::ContradictoryBounds,
            &join(at, "minimum"),
            format!("minimum ({min}) is greater than maximum ({max})"),
        );
    }
    let mut spec = NumberSpec {
        integer,
        minimum,
        maximum,
        default: None,
    };
    if let Some(x) = extras.as_deref_mut() {
        super::tolerant_kinds::number_extras(cx, obj, at, x);
    }
    if let Some(default) = obj.get("default") {
        let d_at = join(at, "default");
        match default {
            Value::Null if extras.as_deref().is_some_and(|x| x.nullable) => {}
            Value::Number(n) if number::is_finite(n) => {
                let before = cx.notices.len();
                if let Some(x) = extras.as_deref() {
                    super::tolerant_kinds::check_number_default(cx, x, n, &d_at);
                }
                if integer && !number::is_integer(n) {
                    cx.soft(
                        ErrorKind::InvalidDefault,
                        &d_at,
                        format!("the default {n} is not an integer"),
                    );
                }
                if let Some(min) = &spec.minimum
                    && number::compare(n, min) == Some(std::cmp::Ordering::Less)
                {
                    cx.soft(
                        ErrorKind::InvalidDefault,
                        &d_at,
                        format!("the default {n} is below the minimum {min}"),
                    );
                }
                if let Some(max) = &spec.maximum
                    && number::compare(n, max) == Some(std::cmp::Ordering::Greater)
                {
                    cx.soft(
                        ErrorKind::InvalidDefault,
                        &d_at,
                        format!("the default {n} is above the maximum {max}"),
                    );
                }
                if cx.notices.len() == before {
                    spec.default = Some(n.clone());
                }
            }
            other => cx.soft(
                ErrorKind::InvalidDefault,
                &d_at,
                format!("the default must be a number, not {}", show(other)),
            ),
        }
    }
    spec
}

fn parse_boolean(
    cx: &mut Ctx<'_>,
    obj: &Map<String, Value>,
    at: &str,
    extras: Option<&mut Extras>,
) -> BooleanSpec {
    let constant = match extras {
        Some(x) => super::tolerant_kinds::boolean_const(cx, obj, at, x),
        None => None,
    };
    let default = match obj.get("default") {
        None => None,
        Some(Value::Bool(b)) if constant.is_some_and(|c| c != *b) => {
            cx.soft(
                ErrorKind::InvalidDefault,
                &join(at, "default"),
                format!("the default {b} is not the only allowed value {}", !b),
            );
            None
        }
        Some(Value::Bool(b)) => Some(*b),
        Some(Value::Null) if cx.tolerant => None,
        Some(other) => {
            cx.soft(
                ErrorKind::InvalidDefault,
                &join(at, "default"),
                format!("the default must be true or false, not {}", show(other)),
            );
            None
        }
    };
    BooleanSpec { default }
}
