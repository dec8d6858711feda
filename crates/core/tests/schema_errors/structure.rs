//! The document's shape, its types and keywords, bounds, `required`, and how errors
//! are reported.

use mcp_elicit_core::schema::ParseLimits;
use mcp_elicit_core::{ErrorKind, Schema};
use serde_json::{Value, json};

use super::{one, rejects};

#[test]
fn top_level_must_be_an_object_schema() {
    rejects(json!([]), ErrorKind::NotAnObjectSchema, "");
    rejects(json!("object"), ErrorKind::NotAnObjectSchema, "");
    rejects(json!({"properties": {}}), ErrorKind::NotAnObjectSchema, "");
    rejects(
        json!({"type": "array", "properties": {}}),
        ErrorKind::NotAnObjectSchema,
        "/type",
    );
    rejects(
        json!({"type": ["object"], "properties": {}}),
        ErrorKind::NotAnObjectSchema,
        "/type",
    );
    rejects(json!({"type": "object"}), ErrorKind::InvalidValue, "");
    rejects(
        json!({"type": "object", "properties": []}),
        ErrorKind::InvalidValue,
        "/properties",
    );
}

#[test]
fn nested_objects_are_refused() {
    rejects(
        one(
            "address",
            json!({"type": "object", "properties": {"street": {"type": "string"}}}),
        ),
        ErrorKind::NestedObject,
        "/properties/address",
    );
    rejects(
        one(
            "address",
            json!({"properties": {"street": {"type": "string"}}}),
        ),
        ErrorKind::NestedObject,
        "/properties/address",
    );
}

#[test]
fn arrays_other_than_enum_multi_selects_are_refused() {
    rejects(
        one(
            "people",
            json!({"type": "array", "items": {"type": "object", "properties": {"n": {"type": "string"}}}}),
        ),
        ErrorKind::UnsupportedArray,
        "/properties/people/items",
    );
    rejects(
        one(
            "tags",
            json!({"type": "array", "items": {"type": "string"}}),
        ),
        ErrorKind::UnsupportedArray,
        "/properties/tags/items",
    );
    rejects(
        one("ns", json!({"type": "array", "items": {"type": "number"}})),
        ErrorKind::UnsupportedArray,
        "/properties/ns/items/type",
    );
    rejects(
        one("x", json!({"type": "array"})),
        ErrorKind::UnsupportedArray,
        "/properties/x",
    );
    rejects(
        one("x", json!({"type": "array", "items": [{"type": "string"}]})),
        ErrorKind::UnsupportedArray,
        "/properties/x/items",
    );
    rejects(
        one("x", json!({"type": "array", "items": {}})),
        ErrorKind::UnsupportedArray,
        "/properties/x/items",
    );
}

#[test]
fn unknown_types_and_formats_are_refused() {
    rejects(
        one("x", json!({"type": "null"})),
        ErrorKind::UnsupportedType,
        "/properties/x/type",
    );
    rejects(
        one("x", json!({"type": "date"})),
        ErrorKind::UnsupportedType,
        "/properties/x/type",
    );
    rejects(
        one("x", json!({"type": ["string", "null"]})),
        ErrorKind::UnsupportedType,
        "/properties/x/type",
    );
    rejects(
        one("x", json!({"type": 3})),
        ErrorKind::InvalidValue,
        "/properties/x/type",
    );
    rejects(
        one("x", json!({"title": "no type"})),
        ErrorKind::InvalidValue,
        "/properties/x",
    );
    rejects(
        one("x", json!(true)),
        ErrorKind::InvalidValue,
        "/properties/x",
    );
    rejects(
        one("x", json!({"type": "string", "format": "uuid"})),
        ErrorKind::UnsupportedFormat,
        "/properties/x/format",
    );
    rejects(
        one("x", json!({"type": "string", "format": "Email"})),
        ErrorKind::UnsupportedFormat,
        "/properties/x/format",
    );
    rejects(
        one("x", json!({"type": "string", "format": 1})),
        ErrorKind::InvalidValue,
        "/properties/x/format",
    );
}

#[test]
fn unknown_keywords_are_refused() {
    let mut x = one("x", json!({"type": "string"}));
    x["$defs"] = json!({});
    rejects(x, ErrorKind::UnsupportedKeyword, "/$defs");
    let mut x = one("x", json!({"type": "string"}));
    x["additionalProperties"] = json!(true);
    rejects(x, ErrorKind::UnsupportedKeyword, "/additionalProperties");
    let mut x = one("x", json!({"type": "string"}));
    x["$comment"] = json!(5);
    rejects(x, ErrorKind::InvalidValue, "/$comment");
    rejects(
        one("name", json!({"type": "string", "minimum": 1})),
        ErrorKind::UnsupportedKeyword,
        "/properties/name/minimum",
    );
    rejects(
        one("n", json!({"type": "number", "maxLength": 1})),
        ErrorKind::UnsupportedKeyword,
        "/properties/n/maxLength",
    );
    rejects(
        one("b", json!({"type": "boolean", "enum": [true]})),
        ErrorKind::UnsupportedKeyword,
        "/properties/b/enum",
    );
    rejects(
        one("s", json!({"type": "string", "const": "a"})),
        ErrorKind::UnsupportedKeyword,
        "/properties/s/const",
    );
    rejects(
        one("s", json!({"type": "string", "$ref": "#/x"})),
        ErrorKind::UnsupportedKeyword,
        "/properties/s/$ref",
    );
    rejects(
        one(
            "s",
            json!({"type": "string", "enum": ["a"], "format": "email"}),
        ),
        ErrorKind::UnsupportedKeyword,
        "/properties/s/format",
    );
    rejects(
        one(
            "s",
            json!({"type": "string", "oneOf": [{"const": "a", "title": "A"}], "enumNames": ["A"]}),
        ),
        ErrorKind::UnsupportedKeyword,
        "/properties/s/enumNames",
    );
    rejects(
        one(
            "m",
            json!({"type": "array", "items": {"type": "string", "enum": ["a"], "minLength": 1}}),
        ),
        ErrorKind::UnsupportedKeyword,
        "/properties/m/items/minLength",
    );
    rejects(
        one(
            "m",
            json!({"type": "array", "items": {"type": "string", "anyOf": [{"const": "a", "title": "A"}]}}),
        ),
        ErrorKind::UnsupportedKeyword,
        "/properties/m/items/type",
    );
    rejects(
        one(
            "m",
            json!({"type": "array", "uniqueItems": true, "items": {"type": "string", "enum": ["a"]}}),
        ),
        ErrorKind::UnsupportedKeyword,
        "/properties/m/uniqueItems",
    );
}

#[test]
fn keyword_values_must_have_the_right_type() {
    rejects(
        one("x", json!({"type": "string", "minLength": -1})),
        ErrorKind::InvalidValue,
        "/properties/x/minLength",
    );
    rejects(
        one("x", json!({"type": "string", "minLength": 1.5})),
        ErrorKind::InvalidValue,
        "/properties/x/minLength",
    );
    // An integral float is an integer (`2.0` is accepted), but not a negative one.
    rejects(
        one("x", json!({"type": "string", "minLength": -1.0})),
        ErrorKind::InvalidValue,
        "/properties/x/minLength",
    );
    rejects(
        one(
            "x",
            json!({"type": "array", "maxItems": 2.5, "items": {"type": "string", "enum": ["a"]}}),
        ),
        ErrorKind::InvalidValue,
        "/properties/x/maxItems",
    );
    rejects(
        one(
            "x",
            json!({"type": "string", "minLength": 5.0, "maxLength": 4}),
        ),
        ErrorKind::ContradictoryBounds,
        "/properties/x/minLength",
    );
    rejects(
        one("x", json!({"type": "string", "maxLength": "3"})),
        ErrorKind::InvalidValue,
        "/properties/x/maxLength",
    );
    rejects(
        one("x", json!({"type": "string", "title": 7})),
        ErrorKind::InvalidValue,
        "/properties/x/title",
    );
    rejects(
        one("x", json!({"type": "string", "description": null})),
        ErrorKind::InvalidValue,
        "/properties/x/description",
    );
    rejects(
        one("x", json!({"type": "string", "pattern": 1})),
        ErrorKind::InvalidValue,
        "/properties/x/pattern",
    );
    rejects(
        one("x", json!({"type": "number", "minimum": "0"})),
        ErrorKind::InvalidValue,
        "/properties/x/minimum",
    );
    rejects(
        one(
            "x",
            json!({"type": "array", "minItems": -2, "items": {"type": "string", "enum": ["a"]}}),
        ),
        ErrorKind::InvalidValue,
        "/properties/x/minItems",
    );
    rejects(
        one("x", json!({"type": "string", "$comment": []})),
        ErrorKind::InvalidValue,
        "/properties/x/$comment",
    );
    let mut x = one("x", json!({"type": "string"}));
    x["title"] = json!(["t"]);
    rejects(x, ErrorKind::InvalidValue, "/title");
    let mut x = one("x", json!({"type": "string"}));
    x["$schema"] = json!(1);
    rejects(x, ErrorKind::InvalidValue, "/$schema");
}

#[test]
fn contradictory_bounds_are_refused() {
    rejects(
        one(
            "age",
            json!({"type": "integer", "minimum": 10, "maximum": 9}),
        ),
        ErrorKind::ContradictoryBounds,
        "/properties/age/minimum",
    );
    rejects(
        one(
            "age",
            json!({"type": "number", "minimum": 0.5, "maximum": 0.25}),
        ),
        ErrorKind::ContradictoryBounds,
        "/properties/age/minimum",
    );
    rejects(
        one(
            "s",
            json!({"type": "string", "minLength": 5, "maxLength": 4}),
        ),
        ErrorKind::ContradictoryBounds,
        "/properties/s/minLength",
    );
    rejects(
        one(
            "m",
            json!({"type": "array", "minItems": 2, "maxItems": 1, "items": {"type": "string", "enum": ["a", "b"]}}),
        ),
        ErrorKind::ContradictoryBounds,
        "/properties/m/minItems",
    );
    rejects(
        one(
            "m",
            json!({"type": "array", "minItems": 3, "items": {"type": "string", "enum": ["a", "b"]}}),
        ),
        ErrorKind::ContradictoryBounds,
        "/properties/m/minItems",
    );
    // Equal bounds are fine.
    assert!(
        Schema::parse(&one(
            "age",
            json!({"type": "integer", "minimum": 3, "maximum": 3.0})
        ))
        .is_ok()
    );
}

#[test]
fn required_must_name_distinct_properties() {
    let base = |required: Value| json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": required});
    rejects(
        base(json!(["b"])),
        ErrorKind::UnknownRequired,
        "/required/0",
    );
    rejects(
        base(json!(["a", "a"])),
        ErrorKind::InvalidValue,
        "/required/1",
    );
    rejects(base(json!("a")), ErrorKind::InvalidValue, "/required");
    rejects(base(json!([1])), ErrorKind::InvalidValue, "/required/0");
}

#[test]
fn error_list_is_capped() {
    let mut limits = ParseLimits::default();
    limits.max_errors = 5;
    let props: serde_json::Map<String, Value> = (0..50)
        .map(|i| (format!("p{i}"), json!({"type": "null"})))
        .collect();
    let x = json!({"type": "object", "properties": props});
    let errors = Schema::parse_with_limits(&x, &limits).expect_err("all invalid");
    assert_eq!(errors.as_slice().len(), 5);
    assert_eq!(errors.as_slice()[4].kind(), ErrorKind::TooLarge);
}

#[test]
fn every_error_is_reported_in_document_order() {
    let x = json!({
        "type": "object",
        "properties": {
            "a": {"type": "string", "minLength": -1},
            "b": {"type": "object"},
            "c": {"type": "integer", "minimum": 5, "maximum": 1, "default": 2.5}
        },
        "required": ["a", "zz"]
    });
    let errors = Schema::parse(&x).expect_err("invalid");
    let got: Vec<(ErrorKind, &str)> = errors
        .as_slice()
        .iter()
        .map(|e| (e.kind(), e.pointer()))
        .collect();
    assert_eq!(
        got,
        [
            (ErrorKind::InvalidValue, "/properties/a/minLength"),
            (ErrorKind::NestedObject, "/properties/b"),
            (ErrorKind::ContradictoryBounds, "/properties/c/minimum"),
            // not an integer, below the minimum, above the maximum
            (ErrorKind::InvalidDefault, "/properties/c/default"),
            (ErrorKind::InvalidDefault, "/properties/c/default"),
            (ErrorKind::InvalidDefault, "/properties/c/default"),
            (ErrorKind::UnknownRequired, "/required/1"),
        ]
    );
}

#[test]
fn pointers_escape_property_names() {
    rejects(
        one("a/b~c", json!({"type": "string", "minLength": "x"})),
        ErrorKind::InvalidValue,
        "/properties/a~1b~0c/minLength",
    );
}

#[test]
fn malformed_json_names_line_and_column() {
    let err = Schema::from_json_str("{\n  \"type\": \"object\",\n  \"properties\": {,}\n}")
        .expect_err("malformed");
    let e = err.first();
    assert_eq!(e.kind(), ErrorKind::InvalidJson);
    assert!(e.message().contains("line 3"), "{}", e.message());
    assert!(e.message().contains("column"), "{}", e.message());
    let err = Schema::from_json_str("").expect_err("empty");
    assert_eq!(err.first().kind(), ErrorKind::InvalidJson);
}

#[test]
fn deserialize_reports_the_same_errors() {
    let text = r#"{"type": "object", "properties": {"x": {"type": "object"}}}"#;
    let via_serde = serde_json::from_str::<Schema>(text)
        .expect_err("invalid")
        .to_string();
    let via_parse = Schema::from_json_str(text)
        .expect_err("invalid")
        .to_string();
    assert!(
        via_serde.starts_with(&via_parse),
        "{via_serde} vs {via_parse}"
    );
}
