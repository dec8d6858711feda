//! Property tests through the public API, with schemas parsed by `Schema::parse` (the
//! stable-toolchain companion of the `validate` fuzz target):
//!
//! - whatever schema parses, a default the parser accepted is one validation accepts:
//!   `apply_defaults` on `{}` then `validate` reports nothing but `required` properties
//!   that have no default;
//! - validation never panics, and every violation names a schema property or a member
//!   of the content.

use mcp_elicit_core::Schema;
use mcp_elicit_core::validate::{ViolationCode, apply_defaults, validate};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// Strings that exercise the formats, lengths and patterns.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "",
            "a",
            "ab",
            "abc",
            "Ada",
            "ada@example.com",
            "a@b",
            "\"q\"@example.com",
            "a..b@example.com",
            "https://example.com/x?y#z",
            "urn:isbn:0451450523",
            "/relative",
            "http://a b",
            "2024-02-29",
            "2023-02-29",
            "2024-13-01",
            "1998-12-31T23:59:60Z",
            "1998-12-31T22:59:60Z",
            "2024-01-01T00:00:00+01:00",
            "2024-01-01T00:00:00",
            "😀",
            "😀😀😀",
            "red",
            "green",
            "blue",
            "x",
        ])
        .prop_map(str::to_owned),
        "\\PC{0,12}",
    ]
}

fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        (-200i64..200).prop_map(|n| json!(n)),
        (-200.0f64..200.0).prop_map(|f| json!(f)),
        Just(json!(u64::MAX)),
        Just(json!(i64::MIN)),
        Just(json!(1.0)),
        Just(json!(-0.0)),
        Just(json!(0.5)),
    ]
}

/// Distinct options, usually; sometimes empty or with a repeat (outside the subset).
fn options() -> impl Strategy<Value = Vec<String>> {
    let pool = vec!["red", "green", "blue", "x", "😀", ""];
    prop_oneof![
        6 => prop::sample::subsequence(pool.clone(), 1..6),
        1 => prop::collection::vec(prop::sample::select(pool), 0..5),
    ]
    .prop_map(|v| v.into_iter().map(str::to_owned).collect())
}

/// A string default: usually one that fits the format, sometimes anything.
fn string_default(format: Option<&'static str>) -> BoxedStrategy<String> {
    let fitting = match format {
        Some("email") => "ada@example.com",
        Some("uri") => "https://example.com/x?y#z",
        Some("date") => "2024-02-29",
        Some(_) => "1998-12-31T23:59:60Z",
        None => "abc",
    };
    prop_oneof![3 => Just(fitting.to_owned()), 1 => text()].boxed()
}

/// One property schema, usually inside the subset, sometimes not (bad bounds, bad
/// defaults, duplicate options...), so that parsing both accepts and rejects.
fn property_schema() -> impl Strategy<Value = Value> {
    let string = (
        prop::option::of(0u64..4),
        prop::option::of(0u64..30),
        prop::option::of(prop::sample::select(vec![
            "^[a-z]+$", "a", "^.{2,}$", "@", "\\d", ".",
        ])),
        prop::option::of(prop::sample::select(vec![
            "email",
            "uri",
            "date",
            "date-time",
        ])),
        any::<bool>(),
    )
        .prop_flat_map(|(min, max, pattern, format, has_default)| {
            let default = if has_default {
                string_default(format).prop_map(Some).boxed()
            } else {
                Just(None).boxed()
            };
            (Just((min, max, pattern, format)), default)
        })
        .prop_map(|((min, max, pattern, format), default)| {
            let mut p = json!({"type": "string"});
            if let Some(v) = min {
                p["minLength"] = json!(v);
            }
            if let Some(v) = max {
                p["maxLength"] = json!(v);
            }
            if let Some(v) = pattern {
                p["pattern"] = json!(v);
            }
            if let Some(v) = format {
                p["format"] = json!(v);
            }
            if let Some(v) = default {
                p["default"] = json!(v);
            }
            p
        });
    let num = (
        any::<bool>(),
        prop::option::of(number()),
        prop::option::of(number()),
        prop::option::of(number()),
    )
        .prop_map(|(integer, a, b, default)| {
            let mut p = json!({"type": if integer { "integer" } else { "number" }});
            // Usually ordered bounds, with the default between them or at one of them.
            let (lo, hi) = match (a, b) {
                (Some(a), Some(b)) if a.as_f64() > b.as_f64() => (Some(b), Some(a)),
                other => other,
            };
            if let Some(v) = &lo {
                p["minimum"] = v.clone();
            }
            if let Some(v) = &hi {
                p["maximum"] = v.clone();
            }
            if let Some(v) =
                default.map(|d| lo.clone().filter(|_| d.as_f64() < Some(0.0)).unwrap_or(d))
            {
                p["default"] = v;
            }
            p
        });
    let boolean = prop::option::of(any::<bool>()).prop_map(|d| match d {
        Some(d) => json!({"type": "boolean", "default": d}),
        None => json!({"type": "boolean"}),
    });
    let single = (
        options(),
        prop::option::of(any::<prop::sample::Index>()),
        any::<bool>(),
    )
        .prop_map(|(values, pick, junk)| {
            let mut p = json!({"type": "string", "enum": values});
            if let Some(pick) = pick {
                let default = if junk || values.is_empty() {
                    "junk".to_owned()
                } else {
                    pick.get(&values).clone()
                };
                p["default"] = json!(default);
            }
            p
        });
    let multi = (
        options(),
        prop::option::of(0u64..3),
        prop::option::of(0u64..5),
        prop::option::of(any::<u8>()),
    )
        .prop_map(|(values, min, max, default)| {
            let mut p = json!({"type": "array", "items": {"type": "string", "enum": values}});
            if let Some(v) = min {
                p["minItems"] = json!(v);
            }
            if let Some(v) = max {
                p["maxItems"] = json!(v);
            }
            if let Some(mask) = default {
                let chosen: Vec<&String> = values
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| mask & (1 << i) != 0)
                    .map(|(_, v)| v)
                    .collect();
                p["default"] = json!(chosen);
            }
            p
        });
    prop_oneof![string, num, boolean, single, multi]
}

fn schema_json() -> impl Strategy<Value = Value> {
    prop::collection::vec((property_schema(), any::<bool>()), 0..6).prop_map(|props| {
        let mut properties = Map::new();
        let mut required = Vec::new();
        for (i, (p, req)) in props.into_iter().enumerate() {
            let name = format!("p{i}");
            if req {
                required.push(json!(name));
            }
            properties.insert(name, p);
        }
        json!({"type": "object", "properties": properties, "required": required})
    })
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        text().prop_map(Value::String),
        number(),
        any::<bool>().prop_map(Value::Bool),
        Just(Value::Null),
        options().prop_map(|v| json!(v)),
        prop::collection::vec(prop_oneof![text().prop_map(Value::String), number()], 0..4)
            .prop_map(Value::Array),
        Just(json!({"nested": 1})),
    ]
}

fn content() -> impl Strategy<Value = Value> {
    prop_oneof![
        8 => prop::collection::vec((prop::sample::select(vec!["p0", "p1", "p2", "p3", "p4", "p5", "zz"]), value()), 0..8)
            .prop_map(|entries| Value::Object(entries.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        1 => value(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn accepted_defaults_always_validate(raw in schema_json()) {
        let Ok(schema) = Schema::parse(&raw) else { return Ok(()); };
        let mut content = Map::new();
        apply_defaults(&schema, &mut content);
        if let Err(violations) = validate(&schema, &Value::Object(content)) {
            for v in &violations {
                let property = v.property().and_then(|name| schema.property(name));
                prop_assert!(
                    v.code() == ViolationCode::Required && property.is_some_and(|p| p.default_value().is_none()),
                    "a parsed default fails validation: {} in {}", v, raw
                );
            }
        }
    }

    #[test]
    fn validation_never_panics_and_names_its_properties(raw in schema_json(), content in content()) {
        let Ok(schema) = Schema::parse(&raw) else { return Ok(()); };
        let Err(violations) = validate(&schema, &content) else { return Ok(()); };
        prop_assert!(!violations.is_empty());
        for v in &violations {
            match v.property() {
                None => prop_assert_eq!(v.code(), ViolationCode::NotAnObject),
                Some(name) => {
                    let in_schema = schema.property(name).is_some();
                    let in_content = content.get(name).is_some();
                    prop_assert!(in_schema || in_content, "{} names neither a property nor a member", v);
                    prop_assert_eq!(v.code() == ViolationCode::UnknownProperty, !in_schema);
                    let prefix = format!("{}: ", serde_json::to_string(name).unwrap_or_default());
                    prop_assert!(v.message().starts_with(&prefix), "{}", v.message());
                }
            }
        }
        let listed = serde_json::to_value(&violations).unwrap_or_default();
        prop_assert_eq!(listed.as_array().map(Vec::len), Some(violations.len()));
    }
}

/// The generators must reach the interesting part: most schemas parse, and many have
/// defaults, or the properties above would pass vacuously.
#[test]
fn generated_schemas_mostly_parse() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut parsed, mut with_defaults) = (0, 0);
    let total = 500;
    for _ in 0..total {
        let Ok(tree) = schema_json().new_tree(&mut runner) else {
            continue;
        };
        if let Ok(schema) = Schema::parse(&tree.current()) {
            parsed += 1;
            if schema
                .properties()
                .iter()
                .any(|p| p.default_value().is_some())
            {
                with_defaults += 1;
            }
        }
    }
    println!("{parsed}/{total} generated schemas parse, {with_defaults} with defaults");
    assert!(parsed * 2 >= total, "only {parsed}/{total} parse");
    assert!(
        with_defaults * 10 >= total,
        "only {with_defaults}/{total} have defaults"
    );
}

/// The committed seeds of the `validate` fuzz target (`fuzz/seeds/validate/`, schema and
/// content separated by a NUL byte) must get past parsing, or the fuzzer starts from
/// inputs that never reach validation.
#[test]
fn validate_fuzz_seeds_reach_validation() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds/validate");
    let mut seen = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let at = bytes
            .iter()
            .position(|b| *b == 0)
            .unwrap_or_else(|| panic!("{}: no NUL separator", path.display()));
        let (schema, content) = bytes.split_at(at);
        let schema: Value = serde_json::from_slice(schema)
            .unwrap_or_else(|e| panic!("{}: schema JSON: {e}", path.display()));
        let content: Value = serde_json::from_slice(content.get(1..).unwrap_or_default())
            .unwrap_or_else(|e| panic!("{}: content JSON: {e}", path.display()));
        let schema = Schema::parse(&schema).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let _ = validate(&schema, &content);
        seen += 1;
    }
    assert!(seen >= 5, "only {seen} seeds in {}", dir.display());
}
