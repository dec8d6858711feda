//! Defaults, patterns, enums and the limits on untrusted input.

use mcp_elicit_core::schema::ParseLimits;
use mcp_elicit_core::{ErrorKind, Schema};
use serde_json::{Value, json};

use super::{one, rejects, rejects_with};

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
