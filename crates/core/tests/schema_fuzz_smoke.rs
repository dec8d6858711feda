//! The `schema_parse` and `schema_received` fuzz targets' properties on stable: for
//! generated and mutated inputs, `Schema::from_json_str` never panics, and an accepted
//! schema's `to_value` parses back to the same JSON; the tolerant reading
//! (`Schema::parse_received`) never panics either, reads every schema the strict parser
//! accepts identically (no notices, same JSON, same defaults), gives back what it
//! received, and keeps only defaults that pass validation. (`fuzz/` runs the same checks
//! under libFuzzer.)

use mcp_elicit_core::Schema;
use mcp_elicit_core::schema::PropertyKind;
use mcp_elicit_core::validate::{defaults, unchecked, validate};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use serde_json::{Map, Value, json};

/// The tolerant reading's properties (the `schema_received` fuzz target's body).
fn check_received(text: &str, strict: Option<&Schema>) -> Result<(), TestCaseError> {
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return Ok(());
    };
    let read = Schema::parse_received(&value);
    if let Some(strict) = strict {
        let Ok(tolerant) = &read else {
            return Err(TestCaseError::fail(format!(
                "strict accepts, tolerant refuses: {text}"
            )));
        };
        prop_assert!(
            tolerant.notices().is_empty() && !tolerant.is_beyond_subset(),
            "{text}"
        );
        prop_assert_eq!(tolerant.to_value(), strict.to_value());
        prop_assert_eq!(defaults(tolerant), defaults(strict));
        prop_assert!(tolerant.properties().iter().all(|p| p.extras().is_none()));
    }
    if let Ok(schema) = read {
        if schema.is_beyond_subset() {
            prop_assert_eq!(schema.to_value(), value.clone(), "given back as received");
        }
        // Every default kept passes validation (bad ones are dropped with a notice).
        let content = Value::Object(defaults(&schema));
        if let Err(violations) = validate(&schema, &content) {
            for v in violations.iter() {
                let defaulted = v.property().is_some_and(|p| content.get(p).is_some());
                prop_assert!(!defaulted, "{text}: kept default fails: {v}");
            }
        }
        let _ = unchecked(&schema, &content);
        for p in schema.properties() {
            if let PropertyKind::Union(u) = p.kind() {
                for t in ["", "1", "-2.5", "true", "null", "x", "1e400"] {
                    let _ = validate(
                        &schema,
                        &serde_json::json!({p.name(): u.value_from_text(t)}),
                    );
                }
            }
        }
    }
    Ok(())
}

/// The fuzz target's body.
fn check(text: &str) -> Result<(), TestCaseError> {
    let strict = Schema::from_json_str(text).ok();
    check_received(text, strict.as_ref())?;
    if let Some(schema) = strict {
        let first = schema.to_value();
        let again = Schema::parse(&first);
        prop_assert!(
            again.is_ok(),
            "{text} parsed but its serialization did not: {first}"
        );
        let second = again.map(|s| s.to_value()).unwrap_or(Value::Null);
        prop_assert_eq!(second, first);
    }
    Ok(())
}

fn seeds() -> Vec<String> {
    [
        json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}),
        json!({"type": "object", "properties": {
            "s": {"type": "string", "minLength": 1, "maxLength": 9, "pattern": "^[a-z]+$", "default": "abc"},
            "f": {"type": "string", "format": "date", "default": "2024-01-01"},
            "n": {"type": "integer", "minimum": 0, "maximum": 10, "default": 3},
            "b": {"type": "boolean", "default": false},
            "e": {"type": "string", "enum": ["a", "b"], "default": "a"},
            "t": {"type": "string", "oneOf": [{"const": "a", "title": "A"}]},
            "l": {"type": "string", "enum": ["x"], "enumNames": ["X"]},
            "m": {"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "string", "enum": ["r", "g"]}, "default": ["r"]},
            "ma": {"type": "array", "items": {"anyOf": [{"const": "r", "title": "Red"}]}}
        }, "required": ["s", "m"], "x-v": 1, "additionalProperties": false}),
    ]
    .iter()
    .map(Value::to_string)
    .collect()
}

/// Byte-level edits of a seed: replace, insert or delete at random places, with bytes
/// that matter to JSON.
fn mutated() -> impl Strategy<Value = String> {
    let edit = (
        any::<prop::sample::Index>(),
        0u8..3,
        prop::sample::select(b"{}[]\":,0123456789-.eE ntfa\\u".to_vec()),
    );
    (
        prop::sample::select(seeds()),
        proptest::collection::vec(edit, 1..6),
    )
        .prop_map(|(seed, edits)| {
            let mut bytes = seed.into_bytes();
            for (at, op, b) in edits {
                let i = at.index(bytes.len().max(1));
                match op {
                    0 if i < bytes.len() => bytes[i] = b,
                    1 => bytes.insert(i.min(bytes.len()), b),
                    _ if i < bytes.len() => {
                        bytes.remove(i);
                    }
                    _ => {}
                }
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
}

/// Small JSON values built from the subset's vocabulary, so that random property
/// objects get deep into the parser.
fn vocab_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        prop::sample::select(vec![
            "string",
            "number",
            "integer",
            "boolean",
            "array",
            "object",
            "null",
            "email",
            "uri",
            "date",
            "date-time",
            "a",
            "b",
            "",
            "^a+$",
            "(",
            "😀",
            "time",
            "uuid",
            "(?i)a",
            "#/$defs/a",
        ])
        .prop_map(|s| Value::String(s.into())),
        (-3i64..12).prop_map(Value::from),
        prop::sample::select(vec![0.5f64, -1.5, 2.0, 1e300]).prop_map(Value::from),
        any::<bool>().prop_map(Value::Bool),
        Just(Value::Null),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            (inner.clone(), inner.clone()).prop_map(|(c, t)| json!({"const": c, "title": t})),
            inner.prop_map(|t| json!({"type": t})),
        ]
    })
}

const KEYWORDS: &[&str] = &[
    "type",
    "title",
    "description",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "default",
    "minimum",
    "maximum",
    "enum",
    "enumNames",
    "oneOf",
    "anyOf",
    "items",
    "minItems",
    "maxItems",
    "const",
    "x-a",
    "$comment",
    "properties",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "uniqueItems",
    "examples",
    "deprecated",
    "$ref",
];

fn property_object() -> impl Strategy<Value = Value> {
    let member = (prop::sample::select(KEYWORDS), vocab_value());
    let items = proptest::collection::vec((prop::sample::select(KEYWORDS), vocab_value()), 0..3)
        .prop_map(|m| {
            Value::Object(
                m.into_iter()
                    .map(|(k, v)| (k.to_owned(), v))
                    .collect::<Map<_, _>>(),
            )
        });
    (
        prop::sample::select(vec!["string", "number", "integer", "boolean", "array"]),
        proptest::collection::vec(member, 0..5),
        proptest::option::of(items),
        0u8..8,
    )
        .prop_map(|(t, members, items, typeless)| {
            let mut obj = Map::new();
            // Now and then no `type` (an `anyOf`, an `enum`, a `$ref` may stand for it).
            if typeless != 0 {
                obj.insert("type".into(), Value::String(t.into()));
            }
            for (k, v) in members {
                obj.insert(k.to_owned(), v);
            }
            if let Some(items) = items {
                obj.insert("items".into(), items);
            }
            Value::Object(obj)
        })
}

fn grammar_schema() -> impl Strategy<Value = String> {
    (
        proptest::collection::vec(("[a-c]{1,2}", property_object()), 0..5),
        proptest::option::of(proptest::collection::vec(
            prop::sample::select(vec!["a", "b", "c", "ab"]),
            0..3,
        )),
        any::<bool>(),
    )
        .prop_map(|(props, required, defs)| {
            let props: Map<String, Value> = props.into_iter().collect();
            let mut x = json!({"type": "object", "properties": props});
            if let Some(r) = required {
                x["required"] = json!(r);
            }
            // Sometimes `$defs` for a `$ref` to find (outside the strict subset).
            if defs {
                x["$defs"] = json!({"a": {"type": "integer", "enum": [1, 2]}});
            }
            x.to_string()
        })
}

#[test]
fn grammar_reaches_tolerant_readings() {
    // Some generated schemas must be read only by the tolerant reader, so its half of
    // the property is exercised beyond the strict subset.
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = grammar_schema();
    let beyond = (0..500)
        .filter_map(|_| strategy.new_tree(&mut runner).ok())
        .filter(|tree| {
            let value: Value = serde_json::from_str(&tree.current()).unwrap_or(Value::Null);
            Schema::parse_received(&value).is_ok_and(|s| s.is_beyond_subset())
        })
        .count();
    assert!(
        beyond >= 25,
        "only {beyond} of 500 generated schemas read beyond the subset"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        check(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn mutated_seeds(text in mutated()) {
        check(&text)?;
    }

    #[test]
    fn grammar_generated(text in grammar_schema()) {
        check(&text)?;
    }
}

#[test]
fn grammar_reaches_valid_schemas() {
    // Guard against a generator that only ever produces rejected input: some of its
    // outputs must parse, so the round-trip half of the property is exercised.
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = grammar_schema();
    let accepted = (0..500)
        .filter_map(|_| strategy.new_tree(&mut runner).ok())
        .filter(|tree| Schema::from_json_str(&tree.current()).is_ok())
        .count();
    assert!(
        accepted >= 25,
        "only {accepted} of 500 generated schemas parsed"
    );
}
