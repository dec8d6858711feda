//! The tolerant reading of a received `requestedSchema`: what a client shows instead of
//! refusing, with [`SchemaNotice`]s saying what it did.
//!
//! It is the strict parser run in a mode where problems a person can live with become
//! notices ([`Ctx::soft`]) and the offending part is dropped, plus the few readings the
//! subset has no words for: local `$ref`s into `$defs`, `anyOf`/`oneOf` or type lists of
//! primitives (`Optional`, `Union`), `const`, `enum`s of numbers, extra checked keywords
//! (`exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, boolean `const`,
//! `uniqueItems`), annotations as hints, unknown formats and patterns left to the server.
//! Only what cannot be shown as a flat form is refused: nested objects, arrays that are
//! not multi-selects, a top level that is not an object.

use std::borrow::Cow;
use std::collections::HashSet;

use serde_json::{Map, Number, Value};

use super::model::{
    EnumOption, Property, PropertyKind, SingleSelectSpec, SingleSelectStyle, TolerantReading,
};
use super::parse::{Ctx, ParseLimits, describe, join, parse_schema, show};
use super::parse_property::{Shape, parse_object};
use super::parse_select::{array_or_error, enum_names, within_option_limits};
use super::received::{Extras, NoticeKind, SchemaNotice, UnionSpec, json_equal, option_text};
use super::{MultiSelectStyle, number};
use crate::error::{Error, ErrorKind, Errors, pointer_token};
use crate::schema::Schema;

/// Most notices kept; the last one says more were left out.
const MAX_NOTICES: usize = 100;

/// How deep references and `anyOf`s may nest.
const MAX_DEPTH: usize = 8;

/// Most property schemas one tolerant reading examines (alternatives and references
/// included): a `$ref` may be expanded many times, and `anyOf`s of references to
/// `anyOf`s must not multiply the work.
const MAX_VISITS: usize = 16_384;

/// Annotations a tolerant reading ignores without telling the user.
const SILENT: &[&str] = &[
    "$id",
    "$anchor",
    "$schema",
    "$defs",
    "definitions",
    "contentMediaType",
    "contentEncoding",
    "writeOnly",
    "nullable",
    "discriminator",
    "externalDocs",
    "xml",
];

impl Schema {
    /// Reads a `requestedSchema` received from a server the way a client shows it:
    /// everything that can be shown as a flat form is, and [`Schema::notices`] says what
    /// was done about the rest. A schema inside the subset is read exactly as
    /// [`Schema::parse`] reads it, with no notices. Refused (errors, as from
    /// [`Schema::parse`]): nested objects, arrays that are not multi-selects, a top level
    /// that is not an object, a `$ref` that is not a local `#/$defs/...`, and inputs over
    /// the [`ParseLimits`].
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_core::schema::NoticeKind;
    /// # use mcp_elicit_core::validate::validate;
    /// # use serde_json::json;
    /// let received = json!({
    ///     "type": "object",
    ///     "properties": {
    ///         "positive": {"type": "integer", "exclusiveMinimum": 0},
    ///         "at": {"type": "string", "format": "time"}
    ///     },
    ///     "required": ["positive"]
    /// });
    /// assert!(Schema::parse(&received).is_err());
    /// let schema = Schema::parse_received(&received).unwrap();
    /// assert_eq!(schema.notices()[0].kind(), NoticeKind::UncheckedFormat);
    /// assert!(validate(&schema, &json!({"positive": 0})).is_err());
    /// assert!(validate(&schema, &json!({"positive": 1, "at": "12:00"})).is_ok());
    /// assert_eq!(schema.to_value(), received); // given back exactly as received
    /// ```
    pub fn parse_received(value: &Value) -> Result<Schema, Errors> {
        Self::parse_received_with_limits(value, &ParseLimits::default())
    }

    /// [`parse_received`](Self::parse_received) with the given limits.
    pub fn parse_received_with_limits(
        value: &Value,
        limits: &ParseLimits,
    ) -> Result<Schema, Errors> {
        let mut cx = Ctx::new(limits);
        cx.tolerant = true;
        if let Some(obj) = value.as_object() {
            for key in ["$defs", "definitions"] {
                if let Some(Value::Object(defs)) = obj.get(key) {
                    for (name, def) in defs {
                        let pointer = format!("#/{key}/{}", pointer_token(name));
                        cx.defs.insert(pointer, def.clone());
                    }
                }
            }
        }
        let schema = parse_schema(&mut cx, value);
        if let Some(errors) = Errors::from_vec(std::mem::take(&mut cx.errors)) {
            return Err(errors);
        }
        let mut schema = schema.ok_or_else(|| {
            Errors::from(Error::new(
                ErrorKind::NotAnObjectSchema,
                "",
                "not a requestedSchema",
            ))
        })?;
        let beyond = cx.beyond
            || !cx.notices.is_empty()
            || schema.properties.iter().any(|p| p.extras.is_some());
        if beyond {
            schema.reading = Some(Box::new(TolerantReading {
                raw: value.clone(),
                notices: cx.notices,
            }));
        }
        Ok(schema)
    }

    /// Parses JSON text, then reads it with [`parse_received`](Self::parse_received).
    pub fn received_from_json_str(text: &str) -> Result<Schema, Errors> {
        let limits = ParseLimits::default();
        if text.len() > limits.max_document_bytes {
            return Err(Error::new(
                ErrorKind::TooLarge,
                "",
                format!(
                    "the schema text is {} bytes, over the limit of {} bytes",
                    text.len(),
                    limits.max_document_bytes
                ),
            )
            .into());
        }
        match serde_json::from_str::<Value>(text) {
            Ok(value) => Self::parse_received_with_limits(&value, &limits),
            // The strict path words JSON errors (line and column).
            Err(_) => Self::from_json_str(text),
        }
    }
}

impl Ctx<'_> {
    /// Records a notice for the user (until [`MAX_NOTICES`], then one last note).
    pub(crate) fn notice(&mut self, kind: NoticeKind, pointer: &str, message: impl Into<String>) {
        self.beyond = true;
        if self.notices.len() + 1 < MAX_NOTICES {
            let property = property_of(pointer);
            let subject = property
                .as_deref()
                .map(|p| format!("{}: ", show(&Value::String(p.to_owned()))))
                .unwrap_or_default();
            let message = format!("{subject}{}{}", message.into(), suffix(kind));
            self.notices.push(SchemaNotice {
                pointer: pointer.to_owned(),
                property,
                kind,
                message,
            });
        } else if self.notices.len() + 1 == MAX_NOTICES {
            self.notices.push(SchemaNotice {
                pointer: String::new(),
                property: None,
                kind,
                message: format!("more notices about this form were left out (over {MAX_NOTICES})"),
            });
        }
    }
}

/// What each kind of notice means for the user, appended to its sentence.
fn suffix(kind: NoticeKind) -> &'static str {
    match kind {
        NoticeKind::IgnoredKeyword => "; not checked here, the server still checks it",
        NoticeKind::MalformedKeyword => "; ignored",
        NoticeKind::UncheckedPattern => "; shown but not checked here, the server still checks it",
        NoticeKind::UncheckedFormat => "",
        NoticeKind::DefaultDropped => "; the field is not prefilled",
        NoticeKind::ContradictoryBounds => "; no value can meet it, the form is shown anyway",
        NoticeKind::InferredType | NoticeKind::Union => "",
        NoticeKind::UnknownRequired => "; ignored",
    }
}

/// The property a pointer is about: the token after `/properties/`.
fn property_of(pointer: &str) -> Option<String> {
    let rest = pointer.strip_prefix("/properties/")?;
    let token = rest.split('/').next()?;
    Some(token.replace("~1", "/").replace("~0", "~"))
}

/// A top-level member outside the modelled keywords.
pub(crate) fn top_member(
    cx: &mut Ctx<'_>,
    key: &str,
    member: &Value,
    extensions: &mut Map<String, Value>,
) {
    if (key == "$comment" && member.is_string()) || key.starts_with("x-") {
        extensions.insert(key.to_owned(), member.clone());
    } else if SILENT.contains(&key) || is_annotation(key) {
        cx.beyond = true;
    } else {
        cx.notice(
            NoticeKind::IgnoredKeyword,
            &join("", key),
            format!("the form's keyword `{key}` is not used by this client"),
        );
    }
}

fn is_annotation(key: &str) -> bool {
    matches!(
        key,
        "$comment" | "examples" | "example" | "deprecated" | "readOnly" | "default"
    )
}

/// A member of a property outside its kind's keywords (a tolerant reading's
/// `extra_member`): tolerated checked keywords are read by the kind's parser,
/// annotations become hints, anything else is left to the server.
pub(crate) fn member(
    cx: &mut Ctx<'_>,
    shape: Shape,
    key: &str,
    value: &Value,
    at: &str,
    x: &mut Extras,
    extensions: &mut Map<String, Value>,
) {
    if (key == "$comment" && value.is_string()) || key.starts_with("x-") {
        extensions.insert(key.to_owned(), value.clone());
        return;
    }
    cx.beyond = true;
    if shape.tolerated().contains(&key) || SILENT.contains(&key) {
        return;
    }
    match key {
        "$comment" => {}
        "examples" | "example" => {
            let shown: Vec<String> = match value {
                Value::Array(list) => list.iter().take(3).map(show).collect(),
                other => vec![show(other)],
            };
            if !shown.is_empty() {
                x.hints.push(format!("e.g. {}", shown.join(", ")));
            }
        }
        "deprecated" => {
            if value == &Value::Bool(true) {
                x.hints.push("deprecated".to_owned());
            }
        }
        "readOnly" => {
            if value == &Value::Bool(true) {
                x.hints
                    .push("read-only: the server may ignore a change".to_owned());
            }
        }
        _ => {
            x.unchecked.push(key.to_owned());
            cx.notice(
                NoticeKind::IgnoredKeyword,
                &join(at, key),
                format!("the keyword `{key}` is not used by this client"),
            );
        }
    }
}

/// Reads one property tolerantly: resolves `$ref`, reads type lists, `anyOf`/`oneOf`
/// and `const`, infers a missing `type`, then parses it like the strict parser.
pub(crate) fn parse_property(
    cx: &mut Ctx<'_>,
    name: &str,
    obj: &Map<String, Value>,
    at: &str,
) -> Option<Property> {
    cx.visits += 1;
    if cx.depth > MAX_DEPTH || cx.visits > MAX_VISITS {
        cx.error(
            ErrorKind::TooLarge,
            at,
            "references and anyOf nest too deeply, or expand to too many alternatives",
        );
        return None;
    }
    let mut x = Extras::default();
    let mut obj = resolve_ref(cx, obj, at)?;
    if let Some(Value::Array(types)) = obj.get("type") {
        let names: Vec<String> = types
            .iter()
            .filter_map(|t| t.as_str().map(str::to_owned))
            .collect();
        if names.len() != types.len() || names.is_empty() {
            cx.error(
                ErrorKind::UnsupportedType,
                &join(at, "type"),
                "a `type` list must name types",
            );
            return None;
        }
        cx.beyond = true;
        let non_null: Vec<&String> = names.iter().filter(|t| *t != "null").collect();
        x.nullable = non_null.len() < names.len();
        match non_null.as_slice() {
            [] => {
                obj.to_mut().insert("type".into(), "null".into());
            }
            [one] => {
                obj.to_mut()
                    .insert("type".into(), Value::String((*one).clone()));
            }
            many => {
                let alternatives: Vec<(Value, String)> = many
                    .iter()
                    .map(|t| {
                        let mut alt = obj.as_ref().clone();
                        for k in ["title", "description", "default"] {
                            alt.remove(k);
                        }
                        alt.insert("type".into(), Value::String((*t).clone()));
                        (Value::Object(alt), join(at, "type"))
                    })
                    .collect();
                let outer: Map<String, Value> = obj
                    .iter()
                    .filter(|(k, _)| matches!(k.as_str(), "title" | "description" | "default"))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                return union(cx, name, &outer, alternatives, at, x);
            }
        }
    }
    if !obj.contains_key("type") {
        for key in ["anyOf", "oneOf"] {
            let Some(Value::Array(entries)) = obj.get(key) else {
                continue;
            };
            let all_consts = key == "oneOf"
                && !entries.is_empty()
                && entries.iter().all(|e| e.get("const").is_some());
            if all_consts {
                obj.to_mut().insert("type".into(), "string".into());
                cx.beyond = true;
                break;
            }
            if entries.len() > cx.limits.max_enum_options {
                cx.error(
                    ErrorKind::TooLarge,
                    &join(at, key),
                    format!(
                        "{} alternatives, over the limit of {}",
                        entries.len(),
                        cx.limits.max_enum_options
                    ),
                );
                return None;
            }
            let entries = entries.clone();
            let mut alternatives = Vec::new();
            for (i, entry) in entries.iter().enumerate() {
                let e_at = format!("{}/{i}", join(at, key));
                let resolved = match entry {
                    Value::Object(e) => resolve_ref(cx, e, &e_at)?.into_owned(),
                    other => {
                        cx.error(
                            ErrorKind::InvalidValue,
                            &e_at,
                            format!("`{key}` entries must be schemas, not {}", describe(other)),
                        );
                        return None;
                    }
                };
                if is_null_schema(&resolved) {
                    x.nullable = true;
                } else {
                    alternatives.push((Value::Object(resolved), e_at));
                }
            }
            cx.beyond = true;
            let mut outer = obj.as_ref().clone();
            outer.remove(key);
            if let [(Value::Object(only), _)] = alternatives.as_slice() {
                // `Optional[T]`: T, with the outer title, description and default.
                let mut merged = only.clone();
                merged.extend(outer);
                obj = Cow::Owned(merged);
                break;
            }
            if alternatives.is_empty() {
                obj.to_mut().remove(key);
                obj.to_mut().insert("type".into(), "null".into());
                break;
            }
            return union(cx, name, &outer, alternatives, at, x);
        }
    }
    let is_boolean = obj.get("type").and_then(Value::as_str) == Some("boolean");
    if let Some(c) = obj.get("const").cloned()
        && !(is_boolean && c.is_boolean())
    {
        let o = obj.to_mut();
        o.remove("const");
        o.entry("enum").or_insert_with(|| Value::Array(vec![c]));
        cx.beyond = true;
    }
    if !obj.contains_key("type") && !obj.contains_key("properties") {
        cx.beyond = true;
        let inferred = if obj.contains_key("enum") || obj.contains_key("oneOf") {
            "string"
        } else if obj.contains_key("items") {
            "array"
        } else {
            cx.notice(
                NoticeKind::InferredType,
                at,
                "the field has no type; shown as plain text",
            );
            "string"
        };
        obj.to_mut().insert("type".into(), inferred.into());
    }
    if obj.get("type").and_then(Value::as_str) == Some("null") {
        x.nullable = true;
        return union(cx, name, &obj, Vec::new(), at, x);
    }
    parse_object(cx, name, &obj, at, Some(x))
}

fn is_null_schema(obj: &Map<String, Value>) -> bool {
    obj.get("type").and_then(Value::as_str) == Some("null")
        || obj.get("const") == Some(&Value::Null)
        || obj.get("enum") == Some(&Value::Array(vec![Value::Null]))
}

/// `obj` with its local `$ref` (into `$defs` or `definitions`) replaced by the target,
/// the referring object's own members taking precedence.
fn resolve_ref<'o>(
    cx: &mut Ctx<'_>,
    obj: &'o Map<String, Value>,
    at: &str,
) -> Option<Cow<'o, Map<String, Value>>> {
    let mut current = Cow::Borrowed(obj);
    for _ in 0..MAX_DEPTH {
        let Some(reference) = current.get("$ref") else {
            return Some(current);
        };
        let target = reference.as_str().and_then(|r| cx.defs.get(r));
        let Some(Value::Object(target)) = target else {
            cx.error(
                ErrorKind::UnsupportedKeyword,
                &join(at, "$ref"),
                format!(
                    "the reference {} does not lead to a schema in this document's `$defs`",
                    show(reference)
                ),
            );
            return None;
        };
        let mut merged = target.clone();
        for (k, v) in current.iter().filter(|(k, _)| k.as_str() != "$ref") {
            merged.insert(k.clone(), v.clone());
        }
        cx.beyond = true;
        current = Cow::Owned(merged);
    }
    cx.error(
        ErrorKind::TooLarge,
        &join(at, "$ref"),
        "references nest too deeply",
    );
    None
}

/// A field whose alternatives are the primitive schemas `alternatives` (each with the
/// pointer it came from); `outer` holds the field's own title, description, default.
fn union(
    cx: &mut Ctx<'_>,
    name: &str,
    outer: &Map<String, Value>,
    alternatives: Vec<(Value, String)>,
    at: &str,
    mut x: Extras,
) -> Option<Property> {
    cx.beyond = true;
    let mut parsed: Vec<Property> = Vec::new();
    for (alt, alt_at) in &alternatives {
        let Value::Object(alt_obj) = alt else {
            continue;
        };
        cx.depth += 1;
        let p = parse_property(cx, name, alt_obj, alt_at);
        cx.depth -= 1;
        let p = p?;
        if p.extras.as_ref().is_some_and(|e| e.nullable) {
            x.nullable = true;
        }
        match p.kind {
            PropertyKind::Union(u) => parsed.extend(u.alternatives),
            PropertyKind::MultiSelect(_) => {
                cx.error(
                    ErrorKind::UnsupportedArray,
                    alt_at,
                    "a field that is either a list or something else cannot be shown as a form field",
                );
                return None;
            }
            _ => parsed.push(p),
        }
    }
    let title = cx.opt_string(outer, "title", at);
    let description = cx.opt_string(outer, "description", at);
    for p in &parsed {
        if let Some(e) = p.extras() {
            for k in e.unchecked() {
                if !x.unchecked.contains(k) {
                    x.unchecked.push(k.clone());
                }
            }
        }
    }
    let mut spec = UnionSpec {
        alternatives: parsed,
        default: None,
    };
    match outer.get("default") {
        None | Some(Value::Null) => {}
        Some(d) if spec.accepts(d) => spec.default = Some(d.clone()),
        Some(d) => cx.soft(
            ErrorKind::InvalidDefault,
            &join(at, "default"),
            format!("the default {} is not a valid value of the field", show(d)),
        ),
    }
    let mut kinds: Vec<&str> = spec
        .alternatives
        .iter()
        .map(|p| kind_word(p.kind()))
        .collect();
    kinds.dedup();
    if x.nullable {
        kinds.push("empty");
    }
    if spec.alternatives.len() > 1 {
        cx.notice(
            NoticeKind::Union,
            at,
            format!("accepts {}; shown as one text field", kinds.join(" or ")),
        );
    }
    x.hints
        .push(format!("{} (typed as text)", kinds.join(" or ")));
    Some(Property {
        name: name.to_owned(),
        title,
        description,
        required: false,
        kind: PropertyKind::Union(spec),
        extensions: Map::new(),
        extras: Some(Box::new(x)),
    })
}

fn kind_word(kind: &PropertyKind) -> &'static str {
    match kind {
        PropertyKind::String(_) => "text",
        PropertyKind::Number(n) if n.integer => "a whole number",
        PropertyKind::Number(_) => "a number",
        PropertyKind::Boolean(_) => "true/false",
        PropertyKind::SingleSelect(_) => "one of the listed values",
        _ => "a value",
    }
}

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
    let items = resolve_ref(cx, items, at)?;
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
