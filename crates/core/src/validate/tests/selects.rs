//! Booleans, single- and multi-selects.

use serde_json::{Value, json};

use super::*;
use crate::schema::{BooleanSpec, EnumOption, PropertyKind, SingleSelectSpec, SingleSelectStyle};

#[test]
fn booleans() {
    let s = schema(vec![prop(
        "b",
        true,
        PropertyKind::Boolean(BooleanSpec { default: None }),
    )]);
    assert!(validate(&s, &json!({"b": false})).is_ok());
    for bad in [json!("true"), json!(0), json!(1), json!(null)] {
        assert_eq!(
            codes(&s, &json!({ "b": bad })),
            one("b", ViolationCode::Type),
            "{bad}"
        );
    }
}

#[test]
fn single_select_membership() {
    let s = schema(vec![prop("c", true, single(&["Red", "Green"]))]);
    assert!(validate(&s, &json!({"c": "Green"})).is_ok());
    assert_eq!(
        codes(&s, &json!({"c": "green"})),
        one("c", ViolationCode::Enum)
    );
    assert_eq!(codes(&s, &json!({"c": ""})), one("c", ViolationCode::Enum));
    assert_eq!(
        codes(&s, &json!({"c": ["Red"]})),
        one("c", ViolationCode::Type)
    );
    assert_eq!(
        messages(&s, &json!({"c": "Blue"})),
        ["\"c\": must be one of \"Red\", \"Green\""]
    );
    let titled = schema(vec![prop(
        "c",
        true,
        PropertyKind::SingleSelect(SingleSelectSpec {
            style: SingleSelectStyle::TitledOneOf,
            options: vec![EnumOption {
                value: "#F00".into(),
                title: Some("Red".into()),
            }],
            default: None,
        }),
    )]);
    assert!(validate(&titled, &json!({"c": "#F00"})).is_ok());
    // The title is a label, not a value.
    assert_eq!(
        messages(&titled, &json!({"c": "Red"})),
        ["\"c\": must be one of \"#F00\" (Red)"]
    );
}

#[test]
fn multi_select_items_membership_uniqueness_and_counts() {
    let s = schema(vec![prop(
        "m",
        true,
        multi(&["a", "b", "c"], Some(1), Some(2)),
    )]);
    assert!(validate(&s, &json!({"m": ["a"]})).is_ok());
    assert!(validate(&s, &json!({"m": ["c", "a"]})).is_ok());
    assert_eq!(codes(&s, &json!({"m": "a"})), one("m", ViolationCode::Type));
    assert_eq!(
        codes(&s, &json!({"m": []})),
        one("m", ViolationCode::MinItems)
    );
    assert_eq!(
        codes(&s, &json!({"m": ["a", "b", "c"]})),
        one("m", ViolationCode::MaxItems)
    );
    assert_eq!(
        codes(&s, &json!({"m": ["a", "a"]})),
        one("m", ViolationCode::UniqueItems)
    );
    assert_eq!(
        codes(&s, &json!({"m": ["a", "z"]})),
        one("m", ViolationCode::Enum)
    );
    assert_eq!(
        codes(&s, &json!({"m": ["a", 1]})),
        one("m", ViolationCode::Type)
    );
    let got: Vec<_> = codes(&s, &json!({"m": [1, "z", "a", "a", null, "y"]}))
        .into_iter()
        .map(|(_, c)| c)
        .collect();
    assert_eq!(
        got,
        [
            ViolationCode::Type,
            ViolationCode::Enum,
            ViolationCode::UniqueItems,
            ViolationCode::MaxItems
        ]
    );
    assert_eq!(
        messages(&s, &json!({"m": [1, "z", "a", "a", null, "y"]})),
        [
            "\"m\": every choice must be a string, but item 1 is a number (and 1 more are not strings)",
            "\"m\": \"z\" (and 1 more) is not one of the choices \"a\", \"b\", \"c\"",
            "\"m\": must not select \"a\" more than once",
            "\"m\": must have at most 2 choices selected",
        ]
    );
    assert_eq!(
        messages(&s, &json!({"m": []})),
        ["\"m\": must have at least 1 choice selected"]
    );
}

#[test]
fn multi_select_with_many_options_and_many_items() {
    let values: Vec<String> = (0..300).map(|i| format!("opt{i}")).collect();
    let refs: Vec<&str> = values.iter().map(String::as_str).collect();
    let s = schema(vec![prop("m", true, multi(&refs, None, None))]);
    // Every option once, in reverse: valid (sorted index and large seen-set paths).
    let all: Vec<Value> = values.iter().rev().map(|v| json!(v)).collect();
    assert!(validate(&s, &json!({ "m": all })).is_ok());
    // opt299 twice among many.
    let mut dup = all.clone();
    dup.push(json!("opt299"));
    assert_eq!(
        codes(&s, &json!({ "m": dup })),
        one("m", ViolationCode::UniqueItems)
    );
    // A long array of one unknown value: one violation, not one per item.
    let junk: Vec<Value> = (0..20_000).map(|_| json!("nope")).collect();
    let err = validate(&s, &json!({ "m": junk })).unwrap_err();
    assert_eq!(err.len(), 1);
    assert!(
        err.first()
            .message()
            .contains("\"nope\" (and 19999 more) is not one of the choices")
    );
    assert!(err.first().message().contains("and 290 more"));
}
