//! `apply_defaults` and `defaults`, with a property test.

use proptest::prelude::*;
use serde_json::{Map, Number, Value, json};

use super::*;
use crate::schema::{
    BooleanSpec, EnumOption, MultiSelectSpec, MultiSelectStyle, NumberSpec, PropertyKind,
    SingleSelectSpec, SingleSelectStyle, StringFormat,
};

fn with_defaults() -> Schema {
    let mut name = string_kind(|s| s.default = Some("Ada".into()));
    let mut age = number_kind(true, Some(json!(0)), None);
    if let PropertyKind::Number(n) = &mut age {
        n.default = Some(Number::from(30));
    }
    let mut colors = multi(&["r", "g"], None, None);
    if let PropertyKind::MultiSelect(m) = &mut colors {
        m.default = Some(vec!["g".into()]);
    }
    if let PropertyKind::String(s) = &mut name {
        s.min_length = Some(Count::new(1));
    }
    schema(vec![
        prop("name", true, name),
        prop("age", true, age),
        prop(
            "ok",
            false,
            PropertyKind::Boolean(BooleanSpec {
                default: Some(true),
            }),
        ),
        prop("colors", false, colors),
        prop("nick", false, string_kind(|_| {})),
    ])
}

#[test]
fn apply_defaults_fills_only_absent_properties() {
    let s = with_defaults();
    let mut content = Map::new();
    content.insert("age".into(), json!(41));
    content.insert("ok".into(), Value::Null);
    let filled = apply_defaults(&s, &mut content);
    assert_eq!(filled, ["name", "colors"]);
    assert_eq!(
        Value::Object(content.clone()),
        json!({"age": 41, "ok": null, "name": "Ada", "colors": ["g"]})
    );
    // null is kept, and validation reports it.
    assert_eq!(
        codes(&s, &Value::Object(content.clone())),
        one("ok", ViolationCode::Type)
    );
    // A second application fills nothing.
    assert!(apply_defaults(&s, &mut content).is_empty());
    // Validation alone never fills.
    assert_eq!(
        codes(&s, &json!({"age": 1})),
        one("name", ViolationCode::Required)
    );
}

#[test]
fn defaults_lists_every_default_in_schema_order() {
    let d = defaults(&with_defaults());
    assert_eq!(
        Value::Object(d.clone()),
        json!({"name": "Ada", "age": 30, "ok": true, "colors": ["g"]})
    );
    assert_eq!(
        d.keys().collect::<Vec<_>>(),
        ["name", "age", "ok", "colors"]
    );
    assert!(defaults(&schema(vec![])).is_empty());
}

/// A property whose default satisfies its own constraints, and whether it is required.
fn property_with_default() -> impl Strategy<Value = (PropertyKind, bool)> {
    let string = (
        0u64..5,
        0u64..5,
        "[a-zA-Z0-9😀é]{0,12}",
        prop::option::of(0usize..4),
    )
        .prop_map(|(lo, extra, text, format)| {
            let length = text.chars().count() as u64;
            let (default, format) = match format {
                Some(0) => ("user@example.com".to_owned(), Some(StringFormat::Email)),
                Some(1) => (
                    "https://example.com/a?b#c".to_owned(),
                    Some(StringFormat::Uri),
                ),
                Some(2) => ("2024-02-29".to_owned(), Some(StringFormat::Date)),
                Some(_) => (
                    "2016-12-31T23:59:60Z".to_owned(),
                    Some(StringFormat::DateTime),
                ),
                None => (text, None),
            };
            let length = if format.is_some() {
                default.chars().count() as u64
            } else {
                length
            };
            string_kind(|s| {
                s.min_length = Some(Count::new(lo.min(length)));
                s.max_length = Some(Count::new(length + extra));
                s.pattern = Some(pattern(if format.is_some() { "." } else { "^" }));
                s.format = format;
                s.default = Some(default);
            })
        });
    let number = (
        any::<bool>(),
        -1000i64..1000,
        0i64..1000,
        0i64..1000,
        any::<bool>(),
    )
        .prop_map(|(integer, value, below, above, float)| {
            let default = if float && !integer {
                Number::from_f64(value as f64 + 0.5).unwrap()
            } else {
                Number::from(value)
            };
            PropertyKind::Number(NumberSpec {
                integer,
                minimum: Some(Number::from(value - below)),
                maximum: Some(Number::from(value + above + 1)),
                default: Some(default),
            })
        });
    let boolean =
        any::<bool>().prop_map(|b| PropertyKind::Boolean(BooleanSpec { default: Some(b) }));
    let single_select = (1usize..6, any::<prop::sample::Index>()).prop_map(|(n, pick)| {
        let values: Vec<String> = (0..n).map(|i| format!("o{i}")).collect();
        PropertyKind::SingleSelect(SingleSelectSpec {
            style: SingleSelectStyle::Untitled,
            options: values
                .iter()
                .map(|v| EnumOption {
                    value: v.clone(),
                    title: None,
                })
                .collect(),
            default: Some(values[pick.index(n)].clone()),
        })
    });
    let multi_select = (1usize..8, any::<u8>()).prop_map(|(n, mask)| {
        let values: Vec<String> = (0..n).map(|i| format!("o{i}")).collect();
        let chosen: Vec<String> = values
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, v)| v.clone())
            .collect();
        let k = chosen.len() as u64;
        PropertyKind::MultiSelect(MultiSelectSpec {
            style: MultiSelectStyle::Untitled,
            options: values
                .iter()
                .map(|v| EnumOption {
                    value: v.clone(),
                    title: None,
                })
                .collect(),
            min_items: Some(Count::new(k)),
            max_items: Some(Count::new(k)),
            default: Some(chosen),
        })
    });
    (
        prop_oneof![string, number, boolean, single_select, multi_select],
        any::<bool>(),
    )
}

proptest! {
    #[test]
    fn defaults_then_validate_passes_when_required_have_defaults(
        kinds in prop::collection::vec(property_with_default(), 0..10)
    ) {
        let properties: Vec<Property> = kinds
            .into_iter()
            .enumerate()
            .map(|(i, (kind, required))| prop(&format!("p{i}"), required, kind))
            .collect();
        let s = schema(properties);
        let mut content = Map::new();
        let filled = apply_defaults(&s, &mut content);
        prop_assert_eq!(filled.len(), s.properties.len());
        prop_assert_eq!(Value::Object(defaults(&s)), Value::Object(content.clone()));
        let result = validate(&s, &Value::Object(content));
        prop_assert!(result.is_ok(), "{:?}", result);
    }

    #[test]
    fn validate_never_panics_on_arbitrary_content(content in arbitrary_json()) {
        let s = with_defaults();
        if let Err(v) = validate(&s, &content) {
            prop_assert!(!v.is_empty());
            for violation in &v {
                prop_assert!(!violation.message().is_empty());
            }
        }
    }
}

fn arbitrary_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|f| json!(f)),
        "\\PC{0,8}".prop_map(Value::String),
        prop::sample::select(vec!["name", "age", "ok", "colors", "nick", "r", "g"])
            .prop_map(|s| json!(s)),
    ];
    leaf.prop_recursive(3, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop::sample::select(vec!["name", "age", "ok", "colors", "nick", "other"]),
                    inner
                ),
                0..6
            )
            .prop_map(|entries| Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.to_owned(), v))
                    .collect()
            )),
        ]
    })
}
