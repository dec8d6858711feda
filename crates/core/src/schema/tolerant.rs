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

use serde_json::{Map, Value};

use super::model::{Property, PropertyKind, TolerantReading};
use super::parse::{Ctx, ParseLimits, describe, join, parse_schema, show};
use super::parse_property::{Shape, parse_object};
use super::received::{Extras, NoticeKind, SchemaNotice, UnionSpec};
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
    ///
    /// ```
    /// # use mcp_elicit_core::{ErrorKind, Schema};
    /// # use mcp_elicit_core::schema::{NoticeKind, ParseLimits};
    /// # use serde_json::json;
    /// let mut limits = ParseLimits::default();
    /// limits.max_pattern_bytes = 4;
    /// let received = json!({"type": "object", "properties": {
    ///     "code": {"type": "string", "pattern": "^[A-Z]{3}$"}}});
    /// // A pattern over a limit is a notice (the pattern is shown, not checked)...
    /// let schema = Schema::parse_received_with_limits(&received, &limits)?;
    /// assert_eq!(schema.notices()[0].kind(), NoticeKind::MalformedKeyword);
    /// let code = schema.property("code").unwrap().extras().unwrap();
    /// assert_eq!(code.unchecked_pattern(), Some("^[A-Z]{3}$"));
    /// // ...but an error for the whole document.
    /// limits.max_properties = 0;
    /// let err = Schema::parse_received_with_limits(&received, &limits).unwrap_err();
    /// assert_eq!(err.first().kind(), ErrorKind::TooLarge);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
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
    ///
    /// ```
    /// # use mcp_elicit_core::{ErrorKind, Schema};
    /// let schema = Schema::received_from_json_str(r#"{"type": "object", "properties": {
    ///     "n": {"type": "integer", "exclusiveMinimum": 0}}}"#)?;
    /// assert!(schema.is_beyond_subset());
    /// let err = Schema::received_from_json_str("{").unwrap_err();
    /// assert_eq!(err.first().kind(), ErrorKind::InvalidJson);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
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
pub(crate) fn resolve_ref<'o>(
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
