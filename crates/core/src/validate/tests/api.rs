//! The `Violations` API: messages, serialization, codes.

use serde_json::{Value, json};

use super::*;
use crate::schema::{BooleanSpec, PropertyKind};

#[test]
fn echoed_values_are_quoted_and_cut() {
    let s = schema(vec![prop("m", true, multi(&["a"], None, None))]);
    let long = "x".repeat(10_000);
    let err = validate(&s, &json!({ "m": [long], &"k".repeat(5000): 1 })).unwrap_err();
    for v in &err {
        assert!(v.message().len() < 300, "{}", v.message());
    }
    // The property itself is kept whole so a UI can find its field.
    assert_eq!(err.as_slice()[1].property().map(str::len), Some(5000));
}

#[test]
fn violations_api_and_serialization() {
    let s = schema(vec![
        prop("a", true, string_kind(|_| {})),
        prop(
            "b",
            false,
            PropertyKind::Boolean(BooleanSpec { default: None }),
        ),
    ]);
    let err = validate(&s, &json!({"b": 1})).unwrap_err();
    assert_eq!(err.len(), 2);
    assert!(!err.is_empty());
    assert_eq!(err.as_slice().len(), 2);
    assert_eq!(err.for_property("b").count(), 1);
    let as_json = serde_json::to_value(&err).unwrap();
    assert_eq!(
        as_json,
        json!([
            {"property": "a", "code": "required", "message": "\"a\": is required"},
            {"property": "b", "code": "type", "message": "\"b\": must be true or false, not a number"},
        ])
    );
    let whole = validate(&s, &json!([])).unwrap_err();
    assert_eq!(
        serde_json::to_value(&whole).unwrap()[0]["property"],
        Value::Null
    );
    let boxed: Box<dyn std::error::Error> = Box::new(err.clone());
    assert_eq!(
        boxed.to_string(),
        "\"a\": is required; \"b\": must be true or false, not a number"
    );
    assert_eq!(err.clone().into_vec().len(), 2);
    assert_eq!(
        err.into_iter().map(|v| v.code()).collect::<Vec<_>>(),
        [ViolationCode::Required, ViolationCode::Type]
    );
}

#[test]
fn violation_codes_are_snake_case_and_distinct() {
    use ViolationCode::*;
    let all = [
        NotAnObject,
        Required,
        UnknownProperty,
        Type,
        MinLength,
        MaxLength,
        Pattern,
        Format,
        Minimum,
        Maximum,
        Enum,
        MinItems,
        MaxItems,
        UniqueItems,
    ];
    let names: std::collections::HashSet<_> = all.iter().map(|c| c.as_str()).collect();
    assert_eq!(names.len(), all.len());
    for code in all {
        assert!(
            code.as_str()
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'_'),
            "{code}"
        );
        assert_eq!(serde_json::to_value(code).unwrap(), json!(code.as_str()));
    }
    assert_eq!(MinLength.as_str(), "min_length");
    assert_eq!(UniqueItems.to_string(), "unique_items");
}
