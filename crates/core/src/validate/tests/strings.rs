//! Free-text strings: type, length, pattern, format.

use serde_json::json;

use super::*;
use crate::schema::StringFormat;

/// A schema whose one required string `v` must match `re`.
fn pattern_schema(re: &str) -> Schema {
    schema(vec![prop(
        "v",
        true,
        string_kind(|s| s.pattern = Some(pattern(re))),
    )])
}

#[test]
fn string_type() {
    let s = schema(vec![prop("v", true, string_kind(|_| {}))]);
    assert!(validate(&s, &json!({"v": ""})).is_ok());
    for bad in [
        json!(1),
        json!(true),
        json!(null),
        json!(["a"]),
        json!({"a": "b"}),
    ] {
        assert_eq!(
            codes(&s, &json!({ "v": bad })),
            one("v", ViolationCode::Type),
            "{bad}"
        );
    }
    assert_eq!(
        messages(&s, &json!({"v": 3})),
        ["\"v\": must be a string, not a number"]
    );
}

#[test]
fn string_lengths_count_code_points() {
    let s = schema(vec![prop(
        "v",
        true,
        string_kind(|s| {
            s.min_length = Some(Count::new(2));
            s.max_length = Some(Count::new(3));
        }),
    )]);
    // Two astral-plane characters (four UTF-16 units, eight UTF-8 bytes) are 2 long.
    assert!(validate(&s, &json!({"v": "😀😀"})).is_ok());
    assert!(validate(&s, &json!({"v": "ééé"})).is_ok());
    assert_eq!(
        codes(&s, &json!({"v": "😀"})),
        one("v", ViolationCode::MinLength)
    );
    assert_eq!(
        codes(&s, &json!({"v": "😀😀😀😀"})),
        one("v", ViolationCode::MaxLength)
    );
    assert_eq!(
        messages(&s, &json!({"v": "a"})),
        ["\"v\": must be at least 2 characters long"]
    );
    assert_eq!(
        messages(&s, &json!({"v": "abcd"})),
        ["\"v\": must be at most 3 characters long"]
    );
    let one_char = schema(vec![prop(
        "v",
        true,
        string_kind(|s| s.min_length = Some(Count::new(1))),
    )]);
    assert_eq!(
        messages(&one_char, &json!({"v": ""})),
        ["\"v\": must be at least 1 character long"]
    );
}

#[test]
fn pattern_is_an_unanchored_ecma_search() {
    let s = pattern_schema("a+");
    assert!(validate(&s, &json!({"v": "xxaayy"})).is_ok());
    assert_eq!(
        codes(&s, &json!({"v": "xyz"})),
        one("v", ViolationCode::Pattern)
    );
    let anchored = pattern_schema("^[A-Za-z]+$");
    assert!(validate(&anchored, &json!({"v": "Ada"})).is_ok());
    assert_eq!(
        messages(&anchored, &json!({"v": "Ada1"})),
        ["\"v\": must match the pattern \"^[A-Za-z]+$\""]
    );
    // ECMA-262 with the u flag: `.` matches one whole code point.
    let dot = pattern_schema("^.$");
    assert!(validate(&dot, &json!({"v": "😀"})).is_ok());
    // \d is ASCII-only in ECMA-262.
    let digits = pattern_schema("^\\d+$");
    assert_eq!(
        codes(&digits, &json!({"v": "١٢٣"})),
        one("v", ViolationCode::Pattern)
    );
}

#[test]
fn a_search_that_could_run_for_seconds_is_refused() {
    // Three adjacent overlapping repetitions, unanchored: cubic backtracking on a long
    // run of `a`s (minutes for a few thousand characters with a backtracking engine).
    let long = "a".repeat(5_000);
    let cubic = pattern_schema("a+a+a+x");
    // A linear-time engine can run this one: checked, and quickly.
    assert_eq!(
        messages(&cubic, &json!({ "v": long })),
        ["\"v\": must match the pattern \"a+a+a+x\""]
    );
    assert!(validate(&cubic, &json!({ "v": format!("{long}x") })).is_ok());
    // With a lookahead no linear-time engine can run it: refused, failing closed.
    let s = pattern_schema("(?=a)a+a+a+x");
    let err = validate(&s, &json!({ "v": long })).unwrap_err();
    assert_eq!(err.first().code(), ViolationCode::Pattern);
    assert_eq!(
        err.first().message(),
        "\"v\": is too long (5000 characters) to be checked against the pattern \"(?=a)a+a+a+x\""
    );
    // Short values are still searched.
    assert!(validate(&s, &json!({"v": "aaax"})).is_ok());
    assert_eq!(
        codes(&s, &json!({"v": "aaa"})),
        one("v", ViolationCode::Pattern)
    );
    // A linear pattern checks long values normally.
    let linear = pattern_schema("^[a-z]+$");
    assert!(validate(&linear, &json!({ "v": "a".repeat(100_000) })).is_ok());
    assert_eq!(
        codes(&linear, &json!({ "v": format!("{long}A") })),
        one("v", ViolationCode::Pattern)
    );
}

#[test]
fn patterns_go_through_the_safe_path() {
    // `regress` 0.12 wrongly finds no match of this nested repetition in " _" (V8 and
    // the linear-time automaton do): validation must use the engine chosen at compile
    // time, not call the backtracking engine directly.
    let nested = pattern_schema("(?:(?:.+)+){2}");
    assert!(validate(&nested, &json!({"v": " _"})).is_ok());
    assert_eq!(
        codes(&nested, &json!({"v": "x"})),
        one("v", ViolationCode::Pattern)
    );
    // A textbook exponential pattern against a hostile value: answered, not stalled,
    // and reported as a mismatch rather than as unchecked.
    let redos = pattern_schema("^(a+)+$");
    let hostile = format!("{}!", "a".repeat(50_000));
    assert_eq!(
        messages(&redos, &json!({ "v": hostile })),
        ["\"v\": must match the pattern \"^(a+)+$\""]
    );
}

#[test]
fn length_pattern_and_format_are_all_reported() {
    let s = schema(vec![prop(
        "v",
        true,
        string_kind(|s| {
            s.min_length = Some(Count::new(10));
            s.pattern = Some(pattern("^[a-z@.]+$"));
            s.format = Some(StringFormat::Email);
        }),
    )]);
    let got: Vec<_> = codes(&s, &json!({"v": "A@"}))
        .into_iter()
        .map(|(_, c)| c)
        .collect();
    assert_eq!(
        got,
        [
            ViolationCode::MinLength,
            ViolationCode::Pattern,
            ViolationCode::Format
        ]
    );
}

#[test]
fn format_messages_name_an_example() {
    for (format, bad, message) in [
        (
            StringFormat::Email,
            "x",
            "\"v\": must be an email address like name@example.com",
        ),
        (
            StringFormat::Uri,
            "/relative",
            "\"v\": must be an absolute URI like https://example.com/page",
        ),
        (
            StringFormat::Date,
            "2023-02-29",
            "\"v\": must be a date like 2024-12-31 (YYYY-MM-DD)",
        ),
        (
            StringFormat::DateTime,
            "2024-01-01T00:00:00",
            "\"v\": must be a date and time with a time zone like 2024-12-31T23:59:00Z or 2024-12-31T23:59:00+01:00",
        ),
    ] {
        let s = schema(vec![prop(
            "v",
            true,
            string_kind(|s| s.format = Some(format)),
        )]);
        assert_eq!(messages(&s, &json!({ "v": bad })), [message]);
    }
}
