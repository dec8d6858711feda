//! Deriving a [`Schema`] from a Rust type through `schemars` (crate feature `schemars`):
//! the mapping is documented on [`Schema::from_type`] (this module is private).

use serde_json::{Map, Value};

use crate::error::Errors;
use crate::schema::Schema;

impl Schema {
    /// The form schema of `T`, from its [`schemars::JsonSchema`] description. Fails,
    /// naming the field, when `T` is not a flat struct of primitive fields, unit-variant
    /// enums and collections of such enums.
    ///
    /// `schemars` describes a type in full JSON Schema 2020-12; this maps that
    /// description into the restricted subset and then runs [`Schema::parse`], so a type
    /// that does not fit (a nested struct, a `Vec` of structs, a map) is refused with the
    /// same [`Errors`] a received schema would get, pointing into the generated JSON.
    ///
    /// The mapping, for schemars 1.x output with subschemas inlined:
    /// - `String`, `bool`, integers and floats are `string`, `boolean`, `integer`,
    ///   `number`; doc comments become `description`; schemars' own attributes
    ///   (`title`, `length(..)`, `range(..)`, `regex(..)`, `email`, `url`,
    ///   `extend("format" = "date")`) give the keywords schemars writes, which
    ///   [`Schema::parse`] then checks against the subset;
    /// - `Option<T>` (`"type": [T, "null"]`, a `null` enum value, or `anyOf: [T, {"type":
    ///   "null"}]`) becomes `T`; such fields are not in `required`, so they stay optional;
    /// - integer `format`s (`int32`, `uint8`, `double`...) are dropped, their ranges kept;
    /// - a unit-variant enum is a single-select: `enum` as is, or `oneOf` of `const`s, titled
    ///   by each variant's `title` or doc comment when any has one;
    /// - `Vec<Enum>` / `HashSet<Enum>` is a multi-select (`uniqueItems` is implied and dropped);
    /// - annotation-only keywords (`examples`, `deprecated`, `readOnly`, `writeOnly`) and
    ///   `null` defaults are dropped.
    ///
    /// ```
    /// # #[cfg(feature = "schemars")] {
    /// use mcp_elicit_core::Schema;
    ///
    /// #[derive(schemars::JsonSchema)]
    /// #[allow(dead_code)]
    /// struct Rsvp {
    ///     /// Your name
    ///     name: String,
    ///     guests: Option<u8>,
    /// }
    /// let schema = Schema::from_type::<Rsvp>().expect("flat");
    /// assert_eq!(schema.required(), ["name"]);
    /// # }
    /// ```
    pub fn from_type<T: schemars::JsonSchema>() -> Result<Schema, Errors> {
        let generator = schemars::generate::SchemaSettings::draft2020_12()
            .with(|s| s.inline_subschemas = true)
            .into_generator();
        let generated = generator.into_root_schema_for::<T>();
        Schema::parse(&to_subset(generated.to_value()))
    }
}

/// Maps a schemars root schema into the subset's shape (without checking it).
fn to_subset(root: Value) -> Value {
    let Value::Object(mut root) = root else {
        return root;
    };
    if let Some(Value::Object(props)) = root.get_mut("properties") {
        for prop in props.values_mut() {
            normalize_property(prop);
        }
    }
    Value::Object(root)
}

const ANNOTATIONS: &[&str] = &["examples", "deprecated", "readOnly", "writeOnly"];

fn normalize_property(prop: &mut Value) {
    let Value::Object(obj) = prop else { return };
    unwrap_nullable_any_of(obj);
    strip_null_type(obj);
    if let Some(Value::Array(values)) = obj.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    if obj.get("oneOf").is_some() {
        normalize_one_of(obj);
    }
    for key in ANNOTATIONS {
        obj.remove(*key);
    }
    if obj.get("default").is_some_and(Value::is_null) {
        obj.remove("default");
    }
    match obj.get("type").and_then(Value::as_str) {
        Some("integer" | "number") => {
            obj.remove("format");
        }
        Some("array") => {
            if obj.get("uniqueItems") == Some(&Value::Bool(true)) {
                obj.remove("uniqueItems");
            }
            if let Some(Value::Object(items)) = obj.get_mut("items") {
                normalize_items(items);
            }
        }
        _ => {}
    }
}

/// `anyOf: [X, {"type": "null"}]` (schemars' `Option<T>` for non-primitive `T`) → `X`,
/// keeping the property's own title and description.
fn unwrap_nullable_any_of(obj: &mut Map<String, Value>) {
    let Some(Value::Array(branches)) = obj.get("anyOf") else {
        return;
    };
    let is_null = |v: &Value| v.get("type").and_then(Value::as_str) == Some("null");
    if branches.len() != 2 || branches.iter().filter(|b| is_null(b)).count() != 1 {
        return;
    }
    let Some(Value::Object(inner)) = branches.iter().find(|b| !is_null(b)).cloned() else {
        return;
    };
    obj.remove("anyOf");
    for (k, v) in inner {
        obj.entry(k).or_insert(v);
    }
}

/// `"type": [T, "null"]` → `"type": T`.
fn strip_null_type(obj: &mut Map<String, Value>) {
    if let Some(Value::Array(types)) = obj.get("type") {
        let non_null: Vec<&Value> = types
            .iter()
            .filter(|t| t.as_str() != Some("null"))
            .collect();
        if let [only] = non_null.as_slice() {
            let only = (*only).clone();
            obj.insert("type".into(), only);
        }
    }
}

/// schemars writes a unit enum whose variants carry docs as `oneOf` of
/// `{"type": "string", "const": ..., "description": ...}`; the subset wants `oneOf` of
/// `{const, title}` (or a plain `enum` when no variant has a label).
fn normalize_one_of(obj: &mut Map<String, Value>) {
    let Some(Value::Array(entries)) = obj.get("oneOf") else {
        return;
    };
    let entries: Vec<&Value> = entries.iter().filter(|e| !is_null_entry(e)).collect();
    let all_string_consts = entries
        .iter()
        .all(|e| e.get("const").is_some_and(Value::is_string));
    if !all_string_consts {
        return; // Leave it for the parser to report.
    }
    let labelled = entries.iter().any(|e| label(e).is_some());
    let replacement: Vec<Value> = entries
        .iter()
        .map(|e| {
            let value = e.get("const").cloned().unwrap_or(Value::Null);
            if labelled {
                let title = label(e).map_or_else(|| value.clone(), |l| Value::String(l.to_owned()));
                let mut entry = Map::new();
                entry.insert("const".into(), value);
                entry.insert("title".into(), title);
                Value::Object(entry)
            } else {
                value
            }
        })
        .collect();
    obj.remove("oneOf");
    obj.entry("type")
        .or_insert_with(|| Value::String("string".into()));
    obj.insert(
        if labelled { "oneOf" } else { "enum" }.into(),
        Value::Array(replacement),
    );
}

fn is_null_entry(e: &Value) -> bool {
    e.get("type").and_then(Value::as_str) == Some("null")
        || e.get("const").is_some_and(Value::is_null)
}

fn label(e: &Value) -> Option<&str> {
    e.get("title")
        .or_else(|| e.get("description"))
        .and_then(Value::as_str)
}

/// Multi-select items: drop the enum type's own annotations, turn a labelled `oneOf`
/// into `anyOf` of `{const, title}`.
fn normalize_items(items: &mut Map<String, Value>) {
    items.remove("title");
    items.remove("description");
    if items.get("oneOf").is_some() {
        normalize_one_of(items);
        if let Some(entries) = items.remove("oneOf") {
            items.remove("type");
            items.insert("anyOf".into(), entries);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::to_subset;

    #[test]
    fn maps_schemars_shapes_into_the_subset() {
        let generated = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "T",
            "type": "object",
            "properties": {
                "email": {"type": ["string", "null"], "format": "email"},
                "age": {"type": "integer", "format": "uint32", "minimum": 0},
                "maybe": {"description": "A color", "type": ["string", "null"], "enum": ["red", null]},
                "doc": {"oneOf": [{"description": "First", "type": "string", "const": "A"}, {"type": "string", "const": "B"}]},
                "set": {"type": "array", "uniqueItems": true, "items": {"description": "A color", "type": "string", "enum": ["red"]}},
                "opt": {"anyOf": [{"oneOf": [{"type": "string", "const": "A"}]}, {"type": "null"}], "default": null}
            },
            "required": ["age"]
        });
        assert_eq!(
            to_subset(generated),
            json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "title": "T",
                "type": "object",
                "properties": {
                    "email": {"type": "string", "format": "email"},
                    "age": {"type": "integer", "minimum": 0},
                    "maybe": {"description": "A color", "type": "string", "enum": ["red"]},
                    "doc": {"type": "string", "oneOf": [{"const": "A", "title": "First"}, {"const": "B", "title": "B"}]},
                    "set": {"type": "array", "items": {"type": "string", "enum": ["red"]}},
                    "opt": {"type": "string", "enum": ["A"]}
                },
                "required": ["age"]
            })
        );
    }
}
