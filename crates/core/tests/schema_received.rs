//! The tolerant reading of received schemas (`Schema::parse_received`) on the schemas
//! real Python servers generate (`tests/data/python-schemas.json`, written by
//! `interop/py/gen_schemas.py` with mcp 2.3.0, FastMCP 4.2.3 and Pydantic 2: the SDK's
//! and FastMCP's `ctx.elicit`, and plain `model_json_schema()`), and on hand-written
//! cases of each rule.

use mcp_elicit_core::Schema;
use mcp_elicit_core::schema::{NoticeKind, PropertyKind, option_json};
use mcp_elicit_core::validate::{ViolationCode, defaults, unchecked, validate};
use serde_json::{Value, json};

fn fixtures() -> serde_json::Map<String, Value> {
    let text = include_str!("data/python-schemas.json");
    match serde_json::from_str(text) {
        Ok(Value::Object(map)) => map,
        other => panic!("fixtures: {other:?}"),
    }
}

/// The schema a generator produced for a model, read tolerantly; `None` when that
/// generator refused the model.
fn read(generator: &str, model: &str) -> Option<(Value, Schema)> {
    let fixtures = fixtures();
    let case = fixtures
        .get(&format!("{generator}/{model}"))
        .unwrap_or_else(|| panic!("no fixture {generator}/{model}"));
    let raw = case.get("schema")?.clone();
    let schema =
        Schema::parse_received(&raw).unwrap_or_else(|e| panic!("{generator}/{model} refused: {e}"));
    Some((raw, schema))
}

const GENERATORS: [&str; 3] = ["mcp", "fastmcp", "pydantic"];

fn codes(schema: &Schema, content: Value) -> Vec<ViolationCode> {
    match validate(schema, &content) {
        Ok(()) => Vec::new(),
        Err(v) => v.iter().map(|v| v.code()).collect(),
    }
}

fn kinds(schema: &Schema) -> Vec<(String, NoticeKind)> {
    schema
        .notices()
        .iter()
        .map(|n| (n.property().unwrap_or("").to_owned(), n.kind()))
        .collect()
}

#[test]
fn every_generated_schema_is_read_and_given_back_as_received() {
    let mut read_count = 0;
    for (name, case) in fixtures() {
        let Some(raw) = case.get("schema") else {
            continue;
        };
        let schema = Schema::parse_received(raw).unwrap_or_else(|e| panic!("{name} refused: {e}"));
        assert_eq!(schema.to_value(), *raw, "{name}: echoed as received");
        if Schema::parse(raw).is_ok() {
            assert!(schema.notices().is_empty(), "{name}: inside the subset");
            assert!(!schema.is_beyond_subset(), "{name}");
        }
        for notice in schema.notices() {
            assert!(!notice.message().is_empty());
            assert!(notice.pointer().starts_with('/') || notice.pointer().is_empty());
        }
        read_count += 1;
    }
    assert!(read_count >= 20, "only {read_count} fixtures");
}

#[test]
fn constrained_ints_are_checked_like_the_others() {
    for generator in GENERATORS {
        let (_, s) = read(generator, "ConstrainedInts").unwrap_or_else(|| panic!("{generator}"));
        assert!(
            s.notices().is_empty(),
            "{generator}: all checked, nothing to say"
        );
        let ok = json!({"positive": 1, "percent": 100, "below": 9, "even": -4, "price": 19.99});
        assert_eq!(codes(&s, ok), [], "{generator}");
        let bad = json!({"positive": 0, "percent": 101, "below": 10, "even": 3, "price": 0.005});
        assert_eq!(
            codes(&s, bad),
            // In schema order: below, even, percent, positive, price.
            [
                ViolationCode::ExclusiveMaximum,
                ViolationCode::MultipleOf,
                ViolationCode::Maximum,
                ViolationCode::ExclusiveMinimum,
                ViolationCode::MultipleOf,
            ],
            "{generator}"
        );
        // multipleOf 0.01 on the decimal values: 0.3 and 1e2 are multiples.
        let decimals = json!({"positive": 1, "percent": 1, "below": 1, "even": 0, "price": 0.3});
        assert_eq!(codes(&s, decimals), [], "{generator}");
    }
}

#[test]
fn python_only_patterns_are_shown_unchecked_with_a_notice() {
    for generator in GENERATORS {
        let (_, s) = read(generator, "ConstrainedStrings").unwrap_or_else(|| panic!("{generator}"));
        let mut got = kinds(&s);
        got.sort();
        assert_eq!(
            got,
            [
                ("named".to_owned(), NoticeKind::UncheckedPattern),
                ("word".to_owned(), NoticeKind::UncheckedPattern),
            ],
            "{generator}"
        );
        let word = s.property("word").and_then(|p| p.extras());
        assert_eq!(
            word.and_then(|x| x.unchecked_pattern()),
            Some("(?i)^hello$")
        );
        // The ECMA-262 pattern and the lengths are still checked.
        let answer = json!({"code": "ab1", "word": "HeLLo", "named": "2024-01", "name": ""});
        assert_eq!(
            codes(&s, answer.clone()),
            [ViolationCode::Pattern, ViolationCode::MinLength],
            "{generator}"
        );
        let left = unchecked(&s, &answer);
        let names: Vec<&str> = left.iter().map(|u| u.property.as_str()).collect();
        assert_eq!(names, ["named", "word"], "{generator}: left to the server");
        // Annotations become hints; the deprecated field keeps its default.
        let name = s.property("name").and_then(|p| p.extras());
        assert!(name.is_some_and(|x| x.hints().iter().any(|h| h == "e.g. \"Ada\"")));
        let old = s.property("old");
        assert!(
            old.and_then(|p| p.extras())
                .is_some_and(|x| x.hints() == ["deprecated"])
        );
        assert_eq!(defaults(&s).get("old"), Some(&json!("x")));
    }
}

#[test]
fn formats_outside_the_four_are_plain_text_with_a_hint() {
    for generator in ["fastmcp", "pydantic"] {
        let (_, s) = read(generator, "Dates").unwrap_or_else(|| panic!("{generator}"));
        let mut got = kinds(&s);
        got.sort();
        assert_eq!(
            got,
            [
                ("at".to_owned(), NoticeKind::UncheckedFormat),
                ("ident".to_owned(), NoticeKind::UncheckedFormat),
            ]
        );
        let at = s.property("at").and_then(|p| p.extras());
        assert_eq!(at.and_then(|x| x.format_name()), Some("time"));
        let answer = json!({"day": "2024-02-30", "at": "anything", "stamp": "2024-01-01T00:00:00Z",
                            "ident": "not-a-uuid"});
        assert_eq!(
            codes(&s, answer),
            [ViolationCode::Format],
            "date still checked"
        );
    }
    // The SDK's own ctx.elicit refuses time (not in its PrimitiveSchemaDefinition).
    assert!(read("mcp", "Dates").is_none());
}

#[test]
fn literals_become_typed_selects_and_boolean_consts() {
    for generator in GENERATORS {
        let (_, s) = read(generator, "Literals").unwrap_or_else(|| panic!("{generator}"));
        assert!(s.notices().is_empty(), "{generator}");
        let level = s.property("level").unwrap_or_else(|| panic!("level"));
        let PropertyKind::SingleSelect(spec) = level.kind() else {
            panic!("{generator}: level is a select")
        };
        let values: Vec<&str> = spec.options().iter().map(|o| o.value.as_str()).collect();
        assert_eq!(values, ["1", "2", "3"]);
        assert_eq!(option_json(level, 0), Some(json!(1)));
        // The default is sent as the number it is.
        assert_eq!(defaults(&s).get("level"), Some(&json!(2)));
        assert_eq!(
            codes(&s, json!({"agree": true, "level": 3, "size": "l"})),
            []
        );
        assert_eq!(
            codes(&s, json!({"agree": false, "level": "3"})),
            [ViolationCode::Const, ViolationCode::Enum]
        );
    }
}

#[test]
fn enums_through_defs_and_sets_of_literals() {
    let (_, s) = read("pydantic", "Enums").unwrap_or_else(|| panic!("Enums"));
    let color = s.property("color").unwrap_or_else(|| panic!("color"));
    let PropertyKind::SingleSelect(spec) = color.kind() else {
        panic!("color is a select (through $ref)")
    };
    assert_eq!(spec.options().len(), 2);
    assert_eq!(defaults(&s).get("color"), Some(&json!("red")));
    assert_eq!(codes(&s, json!({"color": "blue"})), [ViolationCode::Enum]);

    for generator in GENERATORS {
        let (_, s) = read(generator, "Sets").unwrap_or_else(|| panic!("{generator}"));
        assert!(s.notices().is_empty());
        assert!(matches!(
            s.property("toppings").map(|p| p.kind()),
            Some(PropertyKind::MultiSelect(_))
        ));
        assert_eq!(codes(&s, json!({"toppings": ["ham", "olives"]})), []);
        assert_eq!(
            codes(&s, json!({"toppings": ["ham", "ham"]})),
            [ViolationCode::UniqueItems]
        );
    }
}

#[test]
fn optionals_and_unions() {
    let (_, s) = read("pydantic", "Optionals").unwrap_or_else(|| panic!("Optionals"));
    assert!(
        s.notices().is_empty(),
        "Optional is a plain field that may be null"
    );
    let age = s.property("age").unwrap_or_else(|| panic!("age"));
    assert!(matches!(age.kind(), PropertyKind::Number(n) if n.is_integer()));
    assert!(age.extras().is_some_and(|x| x.nullable()));
    assert!(defaults(&s).is_empty(), "a null default is no prefill");
    assert_eq!(
        codes(&s, json!({"age": null, "when": null, "nickname": "x"})),
        []
    );
    assert_eq!(
        codes(&s, json!({"age": 1.5, "when": "soon"})),
        [ViolationCode::Type, ViolationCode::Format]
    );

    let (_, s) = read("pydantic", "Unions").unwrap_or_else(|| panic!("Unions"));
    assert_eq!(kinds(&s), [("amount".to_owned(), NoticeKind::Union)]);
    let amount = s.property("amount").unwrap_or_else(|| panic!("amount"));
    let PropertyKind::Union(u) = amount.kind() else {
        panic!("amount is a union")
    };
    assert_eq!(u.value_from_text("42"), json!(42));
    assert_eq!(
        u.value_from_text("4.5"),
        json!("4.5"),
        "not an integer: the text"
    );
    assert_eq!(codes(&s, json!({"amount": 42, "ratio": 0.5})), []);
    assert_eq!(codes(&s, json!({"amount": "42"})), []);
    assert_eq!(codes(&s, json!({"amount": true})), [ViolationCode::Type]);
    assert_eq!(
        codes(&s, json!({"amount": 1, "ratio": "x"})),
        [ViolationCode::Type]
    );
}

#[test]
fn a_default_that_breaks_its_constraints_is_not_prefilled() {
    for generator in GENERATORS {
        let (_, s) = read(generator, "BadDefault").unwrap_or_else(|| panic!("{generator}"));
        assert_eq!(
            kinds(&s),
            [("small".to_owned(), NoticeKind::DefaultDropped)]
        );
        assert_eq!(s.notices()[0].pointer(), "/properties/small/default");
        assert!(defaults(&s).is_empty());
    }
}

#[test]
fn only_what_cannot_be_a_flat_form_is_refused() {
    let refused = [
        json!({"type": "array", "items": {"type": "string"}}),
        json!({"type": "object", "properties": {"a": {"type": "object", "properties": {}}}}),
        json!({"type": "object", "properties": {"a": {"properties": {"b": {"type": "string"}}}}}),
        json!({"type": "object", "properties": {"a": {"type": "array", "items": {"type": "object"}}}}),
        json!({"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string"}}}}),
        json!({"type": "object", "properties": {"a": {"$ref": "https://example.com/s.json"}}}),
        json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/a"}}, "$defs": {"a": {"$ref": "#/$defs/a"}}}),
        json!({"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "object"}]}}}),
    ];
    for schema in refused {
        assert!(
            Schema::parse_received(&schema).is_err(),
            "refused: {schema}"
        );
    }
}

#[test]
fn annotations_and_unknown_keywords() {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$comment": "made by hand",
        "properties": {
            "a": {"type": "string", "readOnly": true, "$comment": "c", "examples": ["x", "y"]},
            "b": {"type": "string", "dependentRequired": {}, "default": 3},
            "c": {"type": ["integer", "null"], "minimum": 1},
            "d": {"const": "only"},
            "e": {"enum": [1, "two", null]},
            "f": {"type": "number", "exclusiveMinimum": true, "minimum": 0}
        },
        "required": ["a", "zz"]
    });
    let s = Schema::parse_received(&schema).unwrap_or_else(|e| panic!("{e}"));
    let got = kinds(&s);
    assert!(
        got.contains(&("b".to_owned(), NoticeKind::IgnoredKeyword)),
        "{got:?}"
    );
    assert!(
        got.contains(&("b".to_owned(), NoticeKind::DefaultDropped)),
        "{got:?}"
    );
    assert!(
        got.contains(&(String::new(), NoticeKind::UnknownRequired)),
        "{got:?}"
    );
    assert_eq!(s.required(), ["a"], "an unknown required name is dropped");
    assert_eq!(
        codes(
            &s,
            json!({"a": "x", "c": null, "d": "only", "e": null, "f": 0.1})
        ),
        []
    );
    assert_eq!(
        codes(&s, json!({"a": "x", "c": 0, "d": "other", "e": 2, "f": 0})),
        [
            ViolationCode::Minimum,
            ViolationCode::Enum,
            ViolationCode::Enum,
            ViolationCode::ExclusiveMinimum
        ]
    );
    assert_eq!(
        unchecked(&s, &json!({"b": "x"}))[0].keywords,
        ["dependentRequired"]
    );
    assert_eq!(s.to_value(), schema);
}

#[test]
fn strict_schemas_read_the_same() {
    let text = include_str!("../../../interop/all-kinds-schema.json");
    let raw: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}"));
    let strict = Schema::parse(&raw).unwrap_or_else(|e| panic!("{e}"));
    let tolerant = Schema::parse_received(&raw).unwrap_or_else(|e| panic!("{e}"));
    assert!(!tolerant.is_beyond_subset());
    assert_eq!(tolerant.to_value(), strict.to_value());
    assert_eq!(defaults(&tolerant), defaults(&strict));
    for (a, b) in strict.properties().iter().zip(tolerant.properties()) {
        assert_eq!(a.name(), b.name());
        assert!(b.extras().is_none());
    }
}

#[test]
fn references_cannot_multiply_the_work() {
    // Each level refers four times to the next: 4^8 expansions if nothing bounded them.
    let mut defs = serde_json::Map::new();
    for i in 0..8 {
        let next = format!("#/$defs/d{}", i + 1);
        let alts: Vec<Value> = (0..4).map(|_| json!({"$ref": next})).collect();
        defs.insert(format!("d{i}"), json!({"anyOf": alts}));
    }
    defs.insert("d8".into(), json!({"type": "integer"}));
    let props: serde_json::Map<String, Value> = (0..50)
        .map(|i| (format!("p{i}"), json!({"$ref": "#/$defs/d0"})))
        .collect();
    let schema = json!({"type": "object", "$defs": defs, "properties": props});
    let read = Schema::parse_received(&schema);
    let errors = read.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(errors.contains("too_large"), "{errors}");
}
