//! Numbers and integers: type and exact bounds.

use serde_json::{Number, Value, json};

use super::*;

#[test]
fn number_type_rejects_strings_booleans_and_null() {
    let s = schema(vec![prop("n", true, number_kind(false, None, None))]);
    for good in [
        json!(0),
        json!(-1),
        json!(1.5),
        json!(1e300),
        json!(u64::MAX),
        json!(i64::MIN),
    ] {
        assert!(validate(&s, &json!({ "n": good })).is_ok(), "{good}");
    }
    for bad in [
        json!("1.0"),
        json!("1"),
        json!(true),
        json!(null),
        json!([1]),
    ] {
        assert_eq!(
            codes(&s, &json!({ "n": bad })),
            one("n", ViolationCode::Type),
            "{bad}"
        );
    }
    // NaN and infinities cannot be JSON numbers: serde_json turns them into null.
    assert_eq!(
        codes(&s, &json!({ "n": f64::NAN })),
        one("n", ViolationCode::Type)
    );
    assert_eq!(
        codes(&s, &json!({ "n": f64::INFINITY })),
        one("n", ViolationCode::Type)
    );
    assert_eq!(
        messages(&s, &json!({"n": "1.0"})),
        ["\"n\": must be a number, not a string"]
    );
}

#[test]
fn integer_follows_json_schema_semantics() {
    let s = schema(vec![prop("n", true, number_kind(true, None, None))]);
    let parse = |text: &str| -> Value { serde_json::from_str(text).unwrap() };
    for good in [
        "1",
        "1.0",
        "1e2",
        "-0",
        "-0.0",
        "18446744073709551615",
        "-9223372036854775808",
        "1e20",
    ] {
        assert!(validate(&s, &json!({ "n": parse(good) })).is_ok(), "{good}");
    }
    for bad in ["1.5", "-0.5", "1e-2", "0.1"] {
        assert_eq!(
            codes(&s, &json!({ "n": parse(bad) })),
            one("n", ViolationCode::Type),
            "{bad}"
        );
    }
    assert_eq!(
        messages(&s, &json!({"n": "3"})),
        ["\"n\": must be an integer, not a string"]
    );
}

#[test]
fn bounds_are_inclusive_and_exact() {
    let s = schema(vec![prop(
        "n",
        true,
        number_kind(false, Some(json!(0)), Some(json!(100))),
    )]);
    for good in [
        json!(0),
        json!(100),
        json!(100.0),
        json!(-0.0),
        json!(0.0),
        json!(50.5),
    ] {
        assert!(validate(&s, &json!({ "n": good })).is_ok(), "{good}");
    }
    assert_eq!(
        codes(&s, &json!({"n": -1})),
        one("n", ViolationCode::Minimum)
    );
    assert_eq!(
        codes(&s, &json!({"n": -1e-300})),
        one("n", ViolationCode::Minimum)
    );
    assert_eq!(
        codes(&s, &json!({"n": 100.000001})),
        one("n", ViolationCode::Maximum)
    );
    assert_eq!(
        codes(&s, &json!({"n": u64::MAX})),
        one("n", ViolationCode::Maximum)
    );
    assert_eq!(
        messages(&s, &json!({"n": 101})),
        ["\"n\": must be at most 100"]
    );
    assert_eq!(
        messages(&s, &json!({"n": -5})),
        ["\"n\": must be at least 0"]
    );

    // Near 2^53 a float conversion would make these equal; the check must not.
    let big: Number = serde_json::from_str("9007199254740992.0").unwrap();
    let s = schema(vec![prop(
        "n",
        true,
        number_kind(true, None, Some(Value::Number(big))),
    )]);
    assert!(validate(&s, &json!({"n": 9_007_199_254_740_992u64})).is_ok());
    assert_eq!(
        codes(&s, &json!({"n": 9_007_199_254_740_993u64})),
        one("n", ViolationCode::Maximum)
    );

    // u64::MAX against an i64 bound and a u64 bound.
    let s = schema(vec![prop(
        "n",
        true,
        number_kind(true, Some(json!(i64::MIN)), Some(json!(u64::MAX))),
    )]);
    assert!(validate(&s, &json!({"n": u64::MAX})).is_ok());
    assert!(validate(&s, &json!({"n": i64::MIN})).is_ok());
    assert_eq!(
        codes(&s, &json!({"n": 1.8446744073709552e19})),
        one("n", ViolationCode::Maximum)
    );
    assert_eq!(
        codes(&s, &json!({"n": -9.3e18})),
        one("n", ViolationCode::Minimum)
    );

    // Fractional bounds keep their spelling in the message.
    let s = schema(vec![prop(
        "n",
        true,
        number_kind(false, Some(json!(0.5)), None),
    )]);
    assert_eq!(
        messages(&s, &json!({"n": 0.25})),
        ["\"n\": must be at least 0.5"]
    );
}
