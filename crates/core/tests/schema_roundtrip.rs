//! Round trips of the specification's examples: `to_value(parse(x)) == x`, with the
//! property order kept.

use mcp_elicit_core::Schema;
use mcp_elicit_core::schema::{MultiSelectStyle, PropertyKind, SingleSelectStyle, StringFormat};
use serde_json::{Value, json};

fn wrap(name: &str, property: Value) -> Value {
    json!({"type": "object", "properties": {name: property}})
}

fn assert_round_trip(x: &Value) -> Schema {
    let schema = Schema::parse(x).unwrap_or_else(|e| panic!("{x} should parse: {e}"));
    let back = schema.to_value();
    assert_eq!(&back, x, "round trip changed the schema");
    let keys = |v: &Value| -> Vec<String> {
        v["properties"]
            .as_object()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default()
    };
    assert_eq!(keys(&back), keys(x), "property order changed");
    // Serde goes through the same code.
    let text = serde_json::to_string(&schema).expect("serialize");
    let again: Schema = serde_json::from_str(&text).expect("deserialize");
    assert_eq!(again.to_value(), back);
    schema
}

#[test]
fn spec_string_example() {
    let x = wrap(
        "displayName",
        json!({
            "type": "string",
            "title": "Display Name",
            "description": "Description text",
            "minLength": 3,
            "maxLength": 50,
            "pattern": "^[A-Za-z]+$",
            "format": "email",
            "default": "user@example.com"
        }),
    );
    // The spec's example default does not match its own pattern ("@" and "." are not
    // letters), so the example as printed is rejected; with the pattern widened it parses.
    let errors = Schema::parse(&x).expect_err("default breaks the pattern");
    assert_eq!(errors.first().pointer(), "/properties/displayName/default");
    let mut fixed = x.clone();
    fixed["properties"]["displayName"]["pattern"] = json!("^[A-Za-z@.]+$");
    let schema = assert_round_trip(&fixed);
    let p = schema.property("displayName").expect("property");
    let PropertyKind::String(s) = p.kind() else {
        panic!("string kind")
    };
    assert_eq!((s.min_length(), s.max_length()), (Some(3), Some(50)));
    assert_eq!(s.format(), Some(StringFormat::Email));
    assert_eq!(s.pattern().map(|p| p.source()), Some("^[A-Za-z@.]+$"));
    assert_eq!(s.default(), Some("user@example.com"));
    assert_eq!(p.title(), Some("Display Name"));
}

#[test]
fn spec_number_examples() {
    for t in ["number", "integer"] {
        let x = wrap(
            "score",
            json!({"type": t, "title": "Display Name", "description": "Description text", "minimum": 0, "maximum": 100, "default": 50}),
        );
        let schema = assert_round_trip(&x);
        let PropertyKind::Number(n) = schema.properties()[0].kind() else {
            panic!("number kind")
        };
        assert_eq!(n.is_integer(), t == "integer");
    }
    // Float representations are kept as written.
    assert_round_trip(&wrap(
        "age",
        json!({"type": "number", "minimum": 18.0, "maximum": 120.5, "default": 30.0}),
    ));
}

#[test]
fn spec_boolean_example() {
    let x = wrap(
        "ok",
        json!({"type": "boolean", "title": "Display Name", "description": "Description text", "default": false}),
    );
    assert_round_trip(&x);
}

#[test]
fn spec_single_select_examples() {
    let untitled = wrap(
        "color",
        json!({"type": "string", "title": "Color Selection", "description": "Choose your favorite color",
               "enum": ["Red", "Green", "Blue"], "default": "Red"}),
    );
    let s = assert_round_trip(&untitled);
    let PropertyKind::SingleSelect(sel) = s.properties()[0].kind() else {
        panic!("single select")
    };
    assert_eq!(sel.style(), SingleSelectStyle::Untitled);
    assert_eq!(sel.options().len(), 3);

    let titled = wrap(
        "color",
        json!({"type": "string", "title": "Color Selection", "description": "Choose your favorite color",
               "oneOf": [{"const": "#FF0000", "title": "Red"}, {"const": "#00FF00", "title": "Green"}, {"const": "#0000FF", "title": "Blue"}],
               "default": "#FF0000"}),
    );
    let s = assert_round_trip(&titled);
    let PropertyKind::SingleSelect(sel) = s.properties()[0].kind() else {
        panic!("single select")
    };
    assert_eq!(sel.style(), SingleSelectStyle::TitledOneOf);
    assert_eq!(sel.options()[1].title.as_deref(), Some("Green"));

    let legacy = wrap(
        "legacyEnum",
        json!({"type": "string", "enum": ["opt1", "opt2", "opt3"], "enumNames": ["Option One", "Option Two", "Option Three"]}),
    );
    let s = assert_round_trip(&legacy);
    let PropertyKind::SingleSelect(sel) = s.properties()[0].kind() else {
        panic!("single select")
    };
    assert_eq!(sel.style(), SingleSelectStyle::LegacyEnumNames);
    assert_eq!(sel.options()[2].title.as_deref(), Some("Option Three"));
}

#[test]
fn spec_multi_select_examples() {
    let untitled = wrap(
        "colors",
        json!({"type": "array", "title": "Color Selection", "description": "Choose your favorite colors",
               "minItems": 1, "maxItems": 2, "items": {"type": "string", "enum": ["Red", "Green", "Blue"]},
               "default": ["Red", "Green"]}),
    );
    let s = assert_round_trip(&untitled);
    let PropertyKind::MultiSelect(m) = s.properties()[0].kind() else {
        panic!("multi select")
    };
    assert_eq!(m.style(), MultiSelectStyle::Untitled);
    assert_eq!((m.min_items(), m.max_items()), (Some(1), Some(2)));
    assert_eq!(
        m.default(),
        Some(&["Red".to_owned(), "Green".to_owned()][..])
    );

    let titled = wrap(
        "colors",
        json!({"type": "array", "title": "Color Selection", "description": "Choose your favorite colors",
               "minItems": 1, "maxItems": 2,
               "items": {"anyOf": [{"const": "#FF0000", "title": "Red"}, {"const": "#00FF00", "title": "Green"}, {"const": "#0000FF", "title": "Blue"}]},
               "default": ["#FF0000", "#00FF00"]}),
    );
    let s = assert_round_trip(&titled);
    let PropertyKind::MultiSelect(m) = s.properties()[0].kind() else {
        panic!("multi select")
    };
    assert_eq!(m.style(), MultiSelectStyle::TitledAnyOf);
}

#[test]
fn spec_request_schemas() {
    let simple =
        json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]});
    let s = assert_round_trip(&simple);
    assert!(s.properties()[0].is_required());

    let structured = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "Your full name"},
            "email": {"type": "string", "format": "email", "description": "Your email address"},
            "age": {"type": "number", "minimum": 18, "description": "Your age"}
        },
        "required": ["name", "email"]
    });
    let s = assert_round_trip(&structured);
    let names: Vec<&str> = s.properties().iter().map(|p| p.name()).collect();
    assert_eq!(names, ["name", "email", "age"]);
    assert_eq!(s.required(), ["name", "email"]);
    assert!(!s.property("age").expect("age").is_required());
}

#[test]
fn conformance_enum_schema_round_trips() {
    let x = json!({
        "type": "object",
        "properties": {
            "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
            "titledSingle": {"type": "string", "oneOf": [
                {"const": "value1", "title": "First Option"}, {"const": "value2", "title": "Second Option"}]},
            "legacyEnum": {"type": "string", "enum": ["opt1", "opt2"], "enumNames": ["Option One", "Option Two"]},
            "untitledMulti": {"type": "array", "items": {"type": "string", "enum": ["option1", "option2"]}},
            "titledMulti": {"type": "array", "items": {"anyOf": [{"const": "value1", "title": "First Choice"}]}}
        }
    });
    assert_round_trip(&x);
}

#[test]
fn top_level_extras_round_trip() {
    let x = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "title": "Contact",
        "description": "How to reach you",
        "$comment": "kept",
        "x-vendor": {"anything": [1, 2, 3]},
        "additionalProperties": false,
        "properties": {
            "z": {"type": "string", "x-widget": "textarea", "$comment": "last first"},
            "a": {"type": "boolean"},
            "m": {"type": "integer"}
        },
        "required": []
    });
    let s = assert_round_trip(&x);
    assert_eq!(
        s.dialect(),
        Some("https://json-schema.org/draft/2020-12/schema")
    );
    assert_eq!(s.extensions().len(), 3);
    assert_eq!(s.properties()[0].extensions().len(), 2);
    assert!(s.required().is_empty());
}

#[test]
fn empty_schema_round_trips() {
    assert_round_trip(&json!({"type": "object", "properties": {}}));
}

#[test]
fn unicode_pattern_semantics() {
    // `u` flag: `.` is one code point, `\u{...}` escapes work, `\p{..}` classes work.
    let x = wrap(
        "emoji",
        json!({"type": "string", "pattern": "^.$", "default": "😀"}),
    );
    assert_round_trip(&x);
    let x = wrap(
        "emoji",
        json!({"type": "string", "pattern": "^\\u{1F600}+$", "default": "😀😀"}),
    );
    assert_round_trip(&x);
    let x = wrap(
        "word",
        json!({"type": "string", "pattern": "^\\p{L}+$", "default": "héllo"}),
    );
    assert_round_trip(&x);
    // Unanchored: a match anywhere counts.
    let x = wrap(
        "word",
        json!({"type": "string", "pattern": "b", "default": "abc"}),
    );
    assert_round_trip(&x);
    // minLength counts code points, not bytes.
    let x = wrap(
        "word",
        json!({"type": "string", "maxLength": 2, "default": "😀😀"}),
    );
    assert_round_trip(&x);
}

#[test]
fn integral_float_counts_are_integers_and_keep_their_spelling() {
    // JSON Schema: `2.0` is the integer 2, so it is a valid minLength/maxItems...
    let x = json!({
        "type": "object",
        "properties": {
            "s": {"type": "string", "minLength": 2.0, "maxLength": 3e0},
            "m": {
                "type": "array",
                "minItems": 1.0,
                "maxItems": 2.0,
                "items": {"type": "string", "enum": ["a", "b", "c"]}
            },
            "huge": {"type": "string", "maxLength": 1e300}
        }
    });
    // ...and it serializes back as written.
    let schema = assert_round_trip(&x);
    let PropertyKind::String(s) = schema.property("s").expect("s").kind() else {
        panic!("string kind")
    };
    assert_eq!((s.min_length(), s.max_length()), (Some(2), Some(3)));
    let PropertyKind::MultiSelect(m) = schema.property("m").expect("m").kind() else {
        panic!("multi-select kind")
    };
    assert_eq!((m.min_items(), m.max_items()), (Some(1), Some(2)));
    let PropertyKind::String(huge) = schema.property("huge").expect("huge").kind() else {
        panic!("string kind")
    };
    assert_eq!(huge.max_length(), Some(u64::MAX), "saturates, never wraps");
    // Validation counts with the integer values.
    use mcp_elicit_core::validate::validate;
    assert!(validate(&schema, &json!({"s": "ab", "m": ["a"], "huge": "x"})).is_ok());
    assert!(validate(&schema, &json!({"s": "a"})).is_err());
    assert!(validate(&schema, &json!({"s": "abcd"})).is_err());
    assert!(validate(&schema, &json!({"m": []})).is_err());
    assert!(validate(&schema, &json!({"m": ["a", "b", "c"]})).is_err());
}
