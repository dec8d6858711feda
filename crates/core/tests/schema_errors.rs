//! One rejected example per rule of the restricted schema subset, asserting the rule
//! (`ErrorKind`) and the place (JSON pointer).

use mcp_elicit_core::schema::ParseLimits;
use mcp_elicit_core::{ErrorKind, Schema};
use serde_json::{Value, json};

/// Asserts that parsing `x` fails with an error of `kind` at `pointer`.
#[track_caller]
fn rejects(x: Value, kind: ErrorKind, pointer: &str) {
    rejects_with(x, &ParseLimits::default(), kind, pointer);
}

#[track_caller]
fn rejects_with(x: Value, limits: &ParseLimits, kind: ErrorKind, pointer: &str) {
    match Schema::parse_with_limits(&x, limits) {
        Ok(_) => panic!("{x} should be rejected with {kind} at {pointer}"),
        Err(errors) => assert!(
            errors
                .as_slice()
                .iter()
                .any(|e| e.kind() == kind && e.pointer() == pointer),
            "expected {kind} at {pointer:?}, got: {errors}"
        ),
    }
}

fn one(name: &str, property: Value) -> Value {
    json!({"type": "object", "properties": {name: property}})
}

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
fn string_defaults_obey_their_constraints() {
    let d = "/properties/s/default";
    rejects(
        one("s", json!({"type": "string", "default": 5})),
        ErrorKind::InvalidDefault,
        d,
    );
    rejects(
        one(
            "s",
            json!({"type": "string", "minLength": 3, "default": "ab"}),
        ),
        ErrorKind::InvalidDefault,
        d,
    );
    rejects(
        one(
            "s",
            json!({"type": "string", "maxLength": 1, "default": "ab"}),
        ),
        ErrorKind::InvalidDefault,
        d,
    );
    rejects(
        one(
            "s",
            json!({"type": "string", "pattern": "^[0-9]+$", "default": "12a"}),
        ),
        ErrorKind::InvalidDefault,
        d,
    );
}

#[test]
fn number_and_boolean_defaults_obey_their_constraints() {
    let d = "/properties/n/default";
    rejects(
        one("n", json!({"type": "number", "default": "5"})),
        ErrorKind::InvalidDefault,
        d,
    );
    rejects(
        one(
            "n",
            json!({"type": "number", "minimum": 0, "default": -0.5}),
        ),
        ErrorKind::InvalidDefault,
        d,
    );
    rejects(
        one(
            "n",
            json!({"type": "number", "maximum": 10, "default": 10.5}),
        ),
        ErrorKind::InvalidDefault,
        d,
    );
    rejects(
        one("n", json!({"type": "integer", "default": 2.5})),
        ErrorKind::InvalidDefault,
        d,
    );
    assert!(
        Schema::parse(&one("n", json!({"type": "integer", "default": 2.0}))).is_ok(),
        "2.0 is an integer in JSON Schema"
    );
    rejects(
        one("n", json!({"type": "boolean", "default": "true"})),
        ErrorKind::InvalidDefault,
        d,
    );
    rejects(
        one("n", json!({"type": "boolean", "default": null})),
        ErrorKind::InvalidDefault,
        d,
    );
}

#[test]
fn select_defaults_obey_their_options() {
    rejects(
        one(
            "c",
            json!({"type": "string", "enum": ["a", "b"], "default": "c"}),
        ),
        ErrorKind::InvalidDefault,
        "/properties/c/default",
    );
    rejects(
        one(
            "c",
            json!({"type": "string", "oneOf": [{"const": "a", "title": "A"}], "default": "A"}),
        ),
        ErrorKind::InvalidDefault,
        "/properties/c/default",
    );
    let multi = |default: Value| {
        one(
            "m",
            json!({"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "string", "enum": ["a", "b", "c"]}, "default": default}),
        )
    };
    rejects(
        multi(json!("a")),
        ErrorKind::InvalidDefault,
        "/properties/m/default",
    );
    rejects(
        multi(json!(["a", "z"])),
        ErrorKind::InvalidDefault,
        "/properties/m/default/1",
    );
    rejects(
        multi(json!(["a", "a"])),
        ErrorKind::InvalidDefault,
        "/properties/m/default/1",
    );
    rejects(
        multi(json!(["a", 1])),
        ErrorKind::InvalidDefault,
        "/properties/m/default/1",
    );
    rejects(
        multi(json!([])),
        ErrorKind::InvalidDefault,
        "/properties/m/default",
    );
    rejects(
        multi(json!(["a", "b", "c"])),
        ErrorKind::InvalidDefault,
        "/properties/m/default",
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
fn patterns_must_be_valid_and_safe() {
    rejects(
        one("p", json!({"type": "string", "pattern": "("})),
        ErrorKind::InvalidPattern,
        "/properties/p/pattern",
    );
    rejects(
        one("p", json!({"type": "string", "pattern": "[z-a]"})),
        ErrorKind::InvalidPattern,
        "/properties/p/pattern",
    );
    // A quantified assertion: a syntax error in ECMA-262 with the u flag.
    rejects(
        one("p", json!({"type": "string", "pattern": "^\\b+a"})),
        ErrorKind::InvalidPattern,
        "/properties/p/pattern",
    );
    // Invalid under the u flag JSON Schema uses (an identity escape of a letter).
    rejects(
        one("p", json!({"type": "string", "pattern": "\\q"})),
        ErrorKind::InvalidPattern,
        "/properties/p/pattern",
    );
    // A long default under a polynomial pattern (`a+a+a+x` against 1,024 `a`s takes
    // minutes with a backtracking engine) is checked by a linear-time automaton instead.
    rejects(
        one(
            "p",
            json!({"type": "string", "pattern": "a+a+a+x", "default": "a".repeat(1024)}),
        ),
        ErrorKind::InvalidDefault,
        "/properties/p/default",
    );
    let ok = format!("{}x", "a".repeat(1024));
    assert!(
        Schema::parse(&one(
            "p",
            json!({"type": "string", "pattern": "a+a+a+x", "default": ok})
        ))
        .is_ok()
    );
    // With a lookahead no automaton can run it, so the check is refused rather than run.
    rejects(
        one(
            "p",
            json!({"type": "string", "pattern": "a+a+a+(?=x)", "default": "a".repeat(1024)}),
        ),
        ErrorKind::TooLarge,
        "/properties/p/default",
    );
    assert!(
        Schema::parse(&one(
            "p",
            json!({"type": "string", "pattern": "a+a+a+(?=x)", "default": "aaax"})
        ))
        .is_ok()
    );
    assert!(
        Schema::parse(&one(
            "p",
            json!({"type": "string", "pattern": "^[a-z]+$", "default": "a".repeat(10_000)})
        ))
        .is_ok()
    );
    // Exponential backtracking shapes run on the linear-time engine, so they are
    // accepted (and a long default is checked)...
    for (pattern, default) in [
        ("^(a+)+$", "a".repeat(10_000)),
        ("^(a|aa)*$", "a".repeat(10_000)),
        (r"^([a-z]+\.)*$", "ab.".repeat(3_000)),
        ("^(foo|bar)*$", "foobar".repeat(2_000)),
    ] {
        assert!(
            Schema::parse(&one(
                "p",
                json!({"type": "string", "pattern": pattern, "default": default})
            ))
            .is_ok(),
            "{pattern}"
        );
    }
    rejects(
        one(
            "p",
            json!({"type": "string", "pattern": "^(a+)+$", "default": format!("{}!", "a".repeat(10_000))}),
        ),
        ErrorKind::InvalidDefault,
        "/properties/p/default",
    );
    // ...unless no automaton can run them: refused before any matching happens.
    rejects(
        one("p", json!({"type": "string", "pattern": "^(a+)+\\1$"})),
        ErrorKind::InvalidPattern,
        "/properties/p/pattern",
    );
    rejects(
        one("p", json!({"type": "string", "pattern": "(?=a)(a|aa)*$"})),
        ErrorKind::InvalidPattern,
        "/properties/p/pattern",
    );
}

#[test]
fn enums_must_be_well_formed() {
    rejects(
        one("e", json!({"type": "string", "enum": []})),
        ErrorKind::InvalidEnum,
        "/properties/e/enum",
    );
    rejects(
        one("e", json!({"type": "string", "enum": ["a", "b", "a"]})),
        ErrorKind::InvalidEnum,
        "/properties/e/enum/2",
    );
    rejects(
        one("e", json!({"type": "string", "enum": ["a", 2]})),
        ErrorKind::InvalidValue,
        "/properties/e/enum/1",
    );
    rejects(
        one("e", json!({"type": "string", "enum": "a"})),
        ErrorKind::InvalidValue,
        "/properties/e/enum",
    );
    rejects(
        one(
            "e",
            json!({"type": "string", "enum": ["a", "b"], "enumNames": ["A"]}),
        ),
        ErrorKind::InvalidEnum,
        "/properties/e/enumNames",
    );
    rejects(
        one(
            "e",
            json!({"type": "string", "enum": ["a"], "oneOf": [{"const": "a", "title": "A"}]}),
        ),
        ErrorKind::InvalidEnum,
        "/properties/e",
    );
    let titled = |entries: Value| one("e", json!({"type": "string", "oneOf": entries}));
    rejects(
        titled(json!([])),
        ErrorKind::InvalidEnum,
        "/properties/e/oneOf",
    );
    rejects(
        titled(json!(["a"])),
        ErrorKind::InvalidEnum,
        "/properties/e/oneOf/0",
    );
    rejects(
        titled(json!([{"const": 1, "title": "One"}])),
        ErrorKind::InvalidEnum,
        "/properties/e/oneOf/0/const",
    );
    rejects(
        titled(json!([{"const": "a", "title": "A"}, {"const": "b"}])),
        ErrorKind::InvalidEnum,
        "/properties/e/oneOf/1",
    );
    rejects(
        titled(json!([{"title": "A"}])),
        ErrorKind::InvalidEnum,
        "/properties/e/oneOf/0",
    );
    rejects(
        titled(json!([{"const": "a", "title": 3}])),
        ErrorKind::InvalidEnum,
        "/properties/e/oneOf/0/title",
    );
    rejects(
        titled(json!([{"const": "a", "title": "A", "description": "d"}])),
        ErrorKind::InvalidEnum,
        "/properties/e/oneOf/0/description",
    );
    rejects(
        titled(json!([{"const": "a", "title": "A"}, {"const": "a", "title": "B"}])),
        ErrorKind::InvalidEnum,
        "/properties/e/oneOf/1/const",
    );
    rejects(
        one(
            "m",
            json!({"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}, {"const": "a", "title": "A"}]}}),
        ),
        ErrorKind::InvalidEnum,
        "/properties/m/items/anyOf/1/const",
    );
    rejects(
        one(
            "m",
            json!({"type": "array", "items": {"type": "string", "enum": []}}),
        ),
        ErrorKind::InvalidEnum,
        "/properties/m/items/enum",
    );
}

#[test]
fn limits_bound_untrusted_input() {
    let mut limits = ParseLimits::default();
    limits.max_properties = 2;
    let three = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": "string"}}});
    rejects_with(three, &limits, ErrorKind::TooLarge, "/properties");

    let mut limits = ParseLimits::default();
    limits.max_enum_options = 2;
    rejects_with(
        one("e", json!({"type": "string", "enum": ["a", "b", "c"]})),
        &limits,
        ErrorKind::TooLarge,
        "/properties/e/enum",
    );

    let mut limits = ParseLimits::default();
    limits.max_string_bytes = 8;
    rejects_with(
        one("e", json!({"type": "string", "title": "123456789"})),
        &limits,
        ErrorKind::TooLarge,
        "/properties/e/title",
    );
    rejects_with(
        one("e", json!({"type": "string", "default": "123456789"})),
        &limits,
        ErrorKind::TooLarge,
        "/properties/e/default",
    );
    rejects_with(
        one("123456789", json!({"type": "string"})),
        &limits,
        ErrorKind::TooLarge,
        "/properties/123456789",
    );

    let mut limits = ParseLimits::default();
    limits.max_pattern_bytes = 4;
    rejects_with(
        one("p", json!({"type": "string", "pattern": "^abcd$"})),
        &limits,
        ErrorKind::TooLarge,
        "/properties/p/pattern",
    );

    let mut limits = ParseLimits::default();
    limits.max_document_bytes = 10;
    let err = Schema::from_json_str_with_limits(r#"{"type": "object", "properties": {}}"#, &limits)
        .expect_err("too large");
    assert_eq!(err.first().kind(), ErrorKind::TooLarge);
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
