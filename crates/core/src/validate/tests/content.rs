//! Whole-content rules: object, required, unknown members, order.

use serde_json::{Map, Value, json};

use super::*;
use crate::schema::{BooleanSpec, PropertyKind, StringFormat};

#[test]
fn content_must_be_an_object() {
    let s = schema(vec![prop("a", true, string_kind(|_| {}))]);
    for content in [json!([]), json!(null), json!("a"), json!(1), json!(true)] {
        let err = validate(&s, &content).unwrap_err();
        assert_eq!(err.len(), 1);
        assert_eq!(err.first().code(), ViolationCode::NotAnObject);
        assert_eq!(err.first().property(), None);
        assert!(
            err.first()
                .message()
                .starts_with("the response content must be a JSON object, not ")
        );
    }
    assert!(validate(&schema(vec![]), &json!({})).is_ok());
}

#[test]
fn required_and_optional_properties() {
    let s = schema(vec![
        prop("name", true, string_kind(|_| {})),
        prop("nick", false, string_kind(|_| {})),
    ]);
    assert!(validate(&s, &json!({"name": "Ada"})).is_ok());
    assert_eq!(
        codes(&s, &json!({"nick": "A"})),
        one("name", ViolationCode::Required)
    );
    assert_eq!(messages(&s, &json!({})), ["\"name\": is required"]);
    // A required property present as null is there, but of the wrong type.
    assert_eq!(
        codes(&s, &json!({"name": null})),
        one("name", ViolationCode::Type)
    );
}

#[test]
fn unknown_properties_are_rejected_after_schema_order() {
    let s = schema(vec![
        prop("a", true, string_kind(|_| {})),
        prop("b", true, string_kind(|_| {})),
    ]);
    let got = codes(&s, &json!({"zz": 1, "b": 2, "yy": 3}));
    assert_eq!(
        got,
        vec![
            (Some("a".into()), ViolationCode::Required),
            (Some("b".into()), ViolationCode::Type),
            (Some("zz".into()), ViolationCode::UnknownProperty),
            (Some("yy".into()), ViolationCode::UnknownProperty),
        ]
    );
    assert_eq!(
        messages(&s, &json!({"a": "", "b": "", "x\"\n": 0})),
        ["\"x\\\"\\n\": is not a field of this form"]
    );
}

#[test]
fn member_order_of_the_response_does_not_matter() {
    let s = schema(vec![
        prop(
            "a",
            true,
            string_kind(|s| s.min_length = Some(Count::new(2))),
        ),
        prop(
            "b",
            false,
            PropertyKind::Boolean(BooleanSpec { default: None }),
        ),
        prop("c", true, number_kind(true, None, None)),
    ]);
    let orders = [
        json!({"a": "x", "b": 1, "c": 1.5, "z": 0}),
        json!({"z": 0, "c": 1.5, "b": 1, "a": "x"}),
        json!({"b": 1, "a": "x", "z": 0, "c": 1.5}),
        json!({"a": "x", "z": 0, "b": 1, "c": 1.5}),
    ];
    for content in &orders {
        assert_eq!(
            codes(&s, content),
            vec![
                (Some("a".into()), ViolationCode::MinLength),
                (Some("b".into()), ViolationCode::Type),
                (Some("c".into()), ViolationCode::Type),
                (Some("z".into()), ViolationCode::UnknownProperty),
            ],
            "{content}"
        );
    }
    assert_eq!(codes(&s, &json!({"c": 1, "a": "xy"})), vec![]);
    assert_eq!(
        codes(&s, &json!({"c": 1})),
        one("a", ViolationCode::Required)
    );
}

#[test]
fn a_flood_of_unknown_properties_makes_a_bounded_list() {
    let s = schema(vec![prop("a", false, string_kind(|_| {}))]);
    let mut content = Map::new();
    content.insert("a".into(), json!("ok"));
    for i in 0..100_000 {
        content.insert(format!("k{i}"), json!(i));
    }
    let err = validate(&s, &Value::Object(content)).unwrap_err();
    assert_eq!(err.len(), MAX_REPORTED_UNKNOWN);
    assert!(
        err.iter()
            .all(|v| v.code() == ViolationCode::UnknownProperty)
    );
    assert_eq!(err.first().property(), Some("k0"));
    let last = &err.as_slice()[MAX_REPORTED_UNKNOWN - 1];
    assert_eq!(last.property(), Some("k19"));
    assert_eq!(
        last.message(),
        "\"k19\": is not a field of this form (nor are 99980 more fields of this response)"
    );
    // Exactly at the cap: no summary.
    let exact: Map<String, Value> = (0..MAX_REPORTED_UNKNOWN)
        .map(|i| (format!("k{i}"), json!(i)))
        .collect();
    let err = validate(&s, &Value::Object(exact)).unwrap_err();
    assert_eq!(err.len(), MAX_REPORTED_UNKNOWN);
    assert!(err.iter().all(|v| !v.message().contains("more fields")));
}

#[test]
fn every_violation_is_reported_in_schema_order() {
    let s = schema(vec![
        prop(
            "email",
            true,
            string_kind(|s| s.format = Some(StringFormat::Email)),
        ),
        prop(
            "age",
            true,
            number_kind(true, Some(json!(18)), Some(json!(130))),
        ),
        prop("color", false, single(&["red", "green"])),
        prop(
            "ok",
            false,
            PropertyKind::Boolean(BooleanSpec { default: None }),
        ),
    ]);
    let content = json!({"ok": "yes", "color": "blue", "age": 17.5, "email": "nope", "extra": 1});
    let err = validate(&s, &content).unwrap_err();
    let got: Vec<_> = err
        .iter()
        .map(|v| (v.property().unwrap_or(""), v.code()))
        .collect();
    assert_eq!(
        got,
        [
            ("email", ViolationCode::Format),
            ("age", ViolationCode::Type),
            ("age", ViolationCode::Minimum),
            ("color", ViolationCode::Enum),
            ("ok", ViolationCode::Type),
            ("extra", ViolationCode::UnknownProperty),
        ]
    );
    assert_eq!(
        err.to_string(),
        "\"email\": must be an email address like name@example.com; \
         \"age\": must be a whole number (an integer), not 17.5; \
         \"age\": must be at least 18; \
         \"color\": must be one of \"red\", \"green\"; \
         \"ok\": must be true or false, not a string; \
         \"extra\": is not a field of this form"
    );
}
