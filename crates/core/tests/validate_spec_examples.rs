//! Validation and defaults on the schemas of the MCP 2025-11-25 elicitation spec and the
//! conformance suite's scenarios, parsed with `Schema::parse`.

use mcp_elicit_core::Schema;
use mcp_elicit_core::validate::{ViolationCode, apply_defaults, defaults, validate};
use serde_json::{Map, Value, json};

fn parse(raw: Value) -> Schema {
    match Schema::parse(&raw) {
        Ok(schema) => schema,
        Err(e) => panic!("schema must parse: {e}"),
    }
}

fn codes(schema: &Schema, content: Value) -> Vec<(String, ViolationCode)> {
    match validate(schema, &content) {
        Ok(()) => Vec::new(),
        Err(v) => v
            .iter()
            .map(|v| (v.property().unwrap_or("").to_owned(), v.code()))
            .collect(),
    }
}

/// The spec's form example: name, email (format email), age (integer 18..).
#[test]
fn spec_contact_form() {
    let schema = parse(json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "Your full name"},
            "email": {"type": "string", "format": "email", "description": "Your email address"},
            "age": {"type": "number", "minimum": 18, "description": "Your age"}
        },
        "required": ["name", "email"]
    }));
    assert!(
        validate(
            &schema,
            &json!({"name": "Monalisa Octocat", "email": "octocat@github.com", "age": 30})
        )
        .is_ok()
    );
    assert!(
        validate(
            &schema,
            &json!({"name": "Monalisa Octocat", "email": "octocat@github.com"})
        )
        .is_ok()
    );
    assert_eq!(
        codes(&schema, json!({"email": "octocat", "age": 17})),
        [
            ("name".to_owned(), ViolationCode::Required),
            ("email".to_owned(), ViolationCode::Format),
            ("age".to_owned(), ViolationCode::Minimum),
        ]
    );
    let err = validate(&schema, &json!({"email": "octocat", "age": 17})).unwrap_err();
    assert_eq!(
        err.to_string(),
        "\"name\": is required; \"email\": must be an email address like name@example.com; \"age\": must be at least 18"
    );
}

/// The conformance scenario `elicitation-sep1034-client-defaults`: the client answers
/// accept with every omitted field filled from its default.
#[test]
fn sep1034_defaults_fill_an_empty_answer() {
    let schema = parse(json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "default": "John Doe"},
            "age": {"type": "integer", "default": 30},
            "score": {"type": "number", "default": 95.5},
            "status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
            "verified": {"type": "boolean", "default": true}
        },
        "required": ["name", "age", "score", "status", "verified"]
    }));
    let mut content = Map::new();
    assert_eq!(
        codes(&schema, Value::Object(content.clone())).len(),
        5,
        "validation alone fills nothing"
    );
    let filled = apply_defaults(&schema, &mut content);
    assert_eq!(filled, ["name", "age", "score", "status", "verified"]);
    assert_eq!(
        Value::Object(content.clone()),
        json!({"name": "John Doe", "age": 30, "score": 95.5, "status": "active", "verified": true})
    );
    assert!(validate(&schema, &Value::Object(content.clone())).is_ok());
    assert_eq!(defaults(&schema), content);

    // What the user typed wins over the default.
    let mut partial = json!({"name": "Ada", "verified": false})
        .as_object()
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        apply_defaults(&schema, &mut partial),
        ["age", "score", "status"]
    );
    assert_eq!(partial.get("name"), Some(&json!("Ada")));
    assert_eq!(partial.get("verified"), Some(&json!(false)));
}

/// The conformance scenario `elicitation-sep1330-enums`: every enum shape of the spec.
#[test]
fn sep1330_enum_shapes() {
    let schema = parse(json!({
        "type": "object",
        "properties": {
            "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
            "titledSingle": {"type": "string", "oneOf": [
                {"const": "value1", "title": "First Option"},
                {"const": "value2", "title": "Second Option"}
            ]},
            "legacyEnum": {"type": "string", "enum": ["opt1", "opt2"], "enumNames": ["Option One", "Option Two"]},
            "untitledMulti": {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "minItems": 1, "maxItems": 2},
            "titledMulti": {"type": "array", "items": {"anyOf": [
                {"const": "#FF0000", "title": "Red"},
                {"const": "#00FF00", "title": "Green"}
            ]}}
        },
        "required": ["untitledSingle"]
    }));
    let ok = json!({
        "untitledSingle": "option2",
        "titledSingle": "value1",
        "legacyEnum": "opt2",
        "untitledMulti": ["c", "a"],
        "titledMulti": ["#00FF00"]
    });
    assert!(
        validate(&schema, &ok).is_ok(),
        "{:?}",
        validate(&schema, &ok)
    );
    // Titles are labels: sending them instead of the values is wrong.
    assert_eq!(
        codes(
            &schema,
            json!({
                "untitledSingle": "option4",
                "titledSingle": "First Option",
                "legacyEnum": "Option One",
                "untitledMulti": ["a", "a", "b"],
                "titledMulti": ["Red"]
            })
        ),
        [
            ("untitledSingle".to_owned(), ViolationCode::Enum),
            ("titledSingle".to_owned(), ViolationCode::Enum),
            ("legacyEnum".to_owned(), ViolationCode::Enum),
            ("untitledMulti".to_owned(), ViolationCode::UniqueItems),
            ("untitledMulti".to_owned(), ViolationCode::MaxItems),
            ("titledMulti".to_owned(), ViolationCode::Enum),
        ]
    );
    let err = validate(
        &schema,
        &json!({"untitledSingle": "option1", "titledMulti": ["Red"]}),
    )
    .unwrap_err();
    assert_eq!(
        err.first().message(),
        "\"titledMulti\": \"Red\" is not one of the choices \"#FF0000\" (Red), \"#00FF00\" (Green)"
    );
}

/// The violation list as a JSON-RPC -32602 error would carry it.
#[test]
fn violations_serialize_for_json_rpc_error_data() {
    let schema = parse(json!({
        "type": "object",
        "properties": {"user": {"type": "string", "minLength": 3, "pattern": "^[a-z]+$"}},
        "required": ["user"]
    }));
    let err = validate(&schema, &json!({"user": "A", "admin": true})).unwrap_err();
    assert_eq!(
        serde_json::to_value(&err).unwrap(),
        json!([
            {"property": "user", "code": "min_length", "message": "\"user\": must be at least 3 characters long"},
            {"property": "user", "code": "pattern", "message": "\"user\": must match the pattern \"^[a-z]+$\""},
            {"property": "admin", "code": "unknown_property", "message": "\"admin\": is not a field of this form"}
        ])
    );
}

/// Validation holds no state: one parsed schema serves any number of responses, and a
/// response that failed does not affect the next.
#[test]
fn one_schema_many_validations() {
    let schema = parse(json!({
        "type": "object",
        "properties": {"when": {"type": "string", "format": "date-time"}},
        "required": ["when"]
    }));
    for i in 0..100 {
        let bad = json!({"when": format!("2024-01-01T00:00:{:02}", i % 60)});
        let good = json!({"when": format!("2024-01-01T00:00:{:02}Z", i % 60)});
        assert!(validate(&schema, &bad).is_err());
        assert!(validate(&schema, &good).is_ok());
    }
}
