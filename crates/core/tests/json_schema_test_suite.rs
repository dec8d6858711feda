//! Runs the JSON-Schema-Test-Suite (draft 2020-12) cases that fit the elicitation subset.
//!
//! The suite tests generic JSON Schema; a form schema is a closed, flat object of typed
//! properties. Each case is adapted, when it can be without changing its meaning:
//!
//! - keyword cases (`minLength`, `maximum`, `pattern`, `type`, `enum`, `const`...) become a
//!   property `v` of `{"type": "object", "properties": {"v": ...}, "required": ["v"]}`
//!   with the keyword's type added, and the instance becomes `{"v": instance}`. An
//!   instance outside the keyword's type is skipped (JSON Schema ignores the keyword
//!   there, while a typed form property rejects it). `const: "x"` becomes `enum: ["x"]`;
//!   enums and consts of non-strings are skipped.
//! - `minItems`/`maxItems` cases become a multi-select whose options are the instance's
//!   items spelled as strings (`[1, 2]` → `["1", "2"]`), when those are distinct scalars.
//! - object cases (`required`, enums in properties) keep their shape; untyped properties
//!   take the type of the instance's value, and instances with members the schema does
//!   not define are skipped (the form is closed).
//!
//! A case is applicable when its adapted schema parses; every applicable case must give
//! the suite's verdict, and the applicable count must stay above a floor so a parser or
//! adapter change cannot silently skip everything.

use std::path::Path;

use mcp_elicit_core::Schema;
use mcp_elicit_core::validate::validate;
use serde_json::{Map, Value, json};

const FILES: &[&str] = &[
    "const.json",
    "enum.json",
    "maxItems.json",
    "maxLength.json",
    "maximum.json",
    "minItems.json",
    "minLength.json",
    "minimum.json",
    "pattern.json",
    "required.json",
    "type.json",
];

/// Fewer applicable cases than this means the adapter or the parser broke. Every case
/// of the eleven files that fits the subset runs: 106 on the pinned suite, including the
/// `minLength`/`maxLength`/`minItems`/`maxItems` "with a decimal" cases (`2.0` is an
/// integer in JSON Schema).
const APPLICABLE_FLOOR: usize = 106;

enum Adapted {
    Case { schema: Value, content: Value },
    Skip(&'static str),
}

fn json_type(v: &Value) -> Option<&'static str> {
    match v {
        Value::String(_) => Some("string"),
        Value::Number(_) => Some("number"),
        Value::Bool(_) => Some("boolean"),
        _ => None,
    }
}

fn wrap_property(mut property: Map<String, Value>, instance: &Value) -> Adapted {
    property.remove("$schema");
    let schema = json!({"type": "object", "properties": {"v": property}, "required": ["v"]});
    Adapted::Case {
        schema,
        content: json!({ "v": instance }),
    }
}

fn adapt(schema: &Value, instance: &Value) -> Adapted {
    let Some(schema) = schema.as_object() else {
        return Adapted::Skip("boolean schema");
    };
    if schema.contains_key("properties") || schema.contains_key("required") {
        return adapt_object(schema, instance);
    }
    let mut property = schema.clone();
    if schema.contains_key("type") {
        return wrap_property(property, instance);
    }
    let has = |k: &str| schema.contains_key(k);
    if has("minLength") || has("maxLength") || has("pattern") {
        if !instance.is_string() {
            return Adapted::Skip("string keyword on a non-string");
        }
        property.insert("type".into(), json!("string"));
        return wrap_property(property, instance);
    }
    if has("minimum") || has("maximum") {
        if !instance.is_number() {
            return Adapted::Skip("number keyword on a non-number");
        }
        property.insert("type".into(), json!("number"));
        return wrap_property(property, instance);
    }
    if has("minItems") || has("maxItems") {
        let Some(items) = instance.as_array() else {
            return Adapted::Skip("array keyword on a non-array");
        };
        let mut spelled: Vec<String> = Vec::new();
        for item in items {
            let text = match item {
                Value::String(s) => s.clone(),
                Value::Number(_) | Value::Bool(_) => item.to_string(),
                _ => return Adapted::Skip("array of non-scalars"),
            };
            if spelled.contains(&text) {
                return Adapted::Skip("array with repeated items");
            }
            spelled.push(text);
        }
        let mut options = spelled.clone();
        options.push("unused option".into());
        property.insert("type".into(), json!("array"));
        property.insert("items".into(), json!({"type": "string", "enum": options}));
        return wrap_property(property, &json!(spelled));
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        if values.is_empty() || !values.iter().all(Value::is_string) {
            return Adapted::Skip("enum of non-strings");
        }
        property.insert("type".into(), json!("string"));
        return wrap_property(property, instance);
    }
    if let Some(value) = schema.get("const") {
        if !value.is_string() {
            return Adapted::Skip("const of a non-string");
        }
        property.remove("const");
        property.insert("type".into(), json!("string"));
        property.insert("enum".into(), json!([value]));
        return wrap_property(property, instance);
    }
    Adapted::Skip("no keyword of the subset")
}

fn adapt_object(schema: &Map<String, Value>, instance: &Value) -> Adapted {
    let Some(content) = instance.as_object() else {
        return Adapted::Skip("object keyword on a non-object");
    };
    let mut properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    for name in schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(name) = name.as_str() {
            properties
                .entry(name.to_owned())
                .or_insert_with(|| json!({}));
        }
    }
    if content.keys().any(|k| !properties.contains_key(k)) {
        return Adapted::Skip("instance member outside the closed form");
    }
    for (name, property) in properties.iter_mut() {
        let Some(property) = property.as_object_mut() else {
            return Adapted::Skip("boolean property schema");
        };
        if property.contains_key("type") {
            continue;
        }
        let ty = if let Some(values) = property.get("enum").and_then(Value::as_array) {
            if !values.iter().all(Value::is_string) {
                return Adapted::Skip("enum of non-strings");
            }
            "string"
        } else {
            match content.get(name) {
                Some(value) => match json_type(value) {
                    Some(ty) => ty,
                    None => return Adapted::Skip("untyped property holding a non-primitive"),
                },
                None => "string",
            }
        };
        property.insert("type".into(), json!(ty));
    }
    let mut top = schema.clone();
    top.remove("$schema");
    top.insert("type".into(), json!("object"));
    top.insert("properties".into(), Value::Object(properties));
    Adapted::Case {
        schema: Value::Object(top),
        content: instance.clone(),
    }
}

#[test]
fn applicable_suite_cases_pass() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/json-schema-test-suite");
    let mut applicable = 0usize;
    let mut skipped = 0usize;
    let mut failures = Vec::new();
    let mut reasons: std::collections::BTreeMap<&'static str, usize> =
        std::collections::BTreeMap::new();
    for file in FILES {
        let text = std::fs::read_to_string(dir.join(file))
            .unwrap_or_else(|e| panic!("reading {file}: {e}"));
        let groups: Vec<Value> =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {file}: {e}"));
        let (mut file_applicable, mut file_skipped) = (0, 0);
        for group in &groups {
            let description = group["description"].as_str().unwrap_or("?");
            for test in group["tests"].as_array().into_iter().flatten() {
                let case = format!(
                    "{file} / {description} / {}",
                    test["description"].as_str().unwrap_or("?")
                );
                let expected = test["valid"]
                    .as_bool()
                    .unwrap_or_else(|| panic!("{case}: no valid flag"));
                let (schema, content) = match adapt(&group["schema"], &test["data"]) {
                    Adapted::Case { schema, content } => (schema, content),
                    Adapted::Skip(reason) => {
                        *reasons.entry(reason).or_default() += 1;
                        file_skipped += 1;
                        continue;
                    }
                };
                let parsed = match Schema::parse(&schema) {
                    Ok(parsed) => parsed,
                    Err(errors) => {
                        eprintln!("skipped (outside the subset): {case}: {errors}");
                        *reasons.entry("schema outside the subset").or_default() += 1;
                        file_skipped += 1;
                        continue;
                    }
                };
                file_applicable += 1;
                let got = validate(&parsed, &content);
                if got.is_ok() != expected {
                    failures.push(format!("{case}: expected valid={expected}, got {got:?}\n  schema {schema}\n  content {content}"));
                }
            }
        }
        println!("{file}: {file_applicable} applicable, {file_skipped} skipped");
        applicable += file_applicable;
        skipped += file_skipped;
    }
    for (reason, n) in &reasons {
        println!("  skipped {n}: {reason}");
    }
    println!("JSON-Schema-Test-Suite: {applicable} applicable, {skipped} skipped");
    assert!(
        failures.is_empty(),
        "{} failing cases:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        applicable >= APPLICABLE_FLOOR,
        "only {applicable} applicable cases (floor {APPLICABLE_FLOOR})"
    );
}
