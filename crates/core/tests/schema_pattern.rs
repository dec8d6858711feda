//! `pattern` semantics: ECMA-262 with the `u` flag, unanchored, and no input that makes
//! a match run for long.

use mcp_elicit_core::Schema;
use mcp_elicit_core::schema::{ParseLimits, Pattern, PropertyKind};
use serde_json::json;

fn pattern(source: &str) -> Pattern {
    let schema = Schema::parse(&json!({
        "type": "object",
        "properties": {"p": {"type": "string", "pattern": source}}
    }))
    .unwrap_or_else(|e| panic!("{source}: {e}"));
    match schema.properties()[0].kind() {
        PropertyKind::String(s) => s.pattern().cloned().expect("pattern kept"),
        other => panic!("string kind expected, got {other:?}"),
    }
}

#[test]
fn matches_are_unanchored_with_unicode_semantics() {
    assert!(pattern("b").is_match("abc"));
    assert!(!pattern("^b").is_match("abc"));
    assert!(pattern("^.$").is_match("😀"), "`.` is one code point");
    assert!(
        !pattern("^.$").is_match("\n"),
        "`.` excludes line terminators"
    );
    assert!(!pattern(r"^\d$").is_match("٣"), "`\\d` is ASCII only");
    assert!(pattern(r"^\p{Lu}").is_match("Émile"));
    assert!(pattern(r"^\u{1F600}$").is_match("😀"));
}

#[test]
fn polynomial_patterns_answer_on_long_inputs() {
    // A backtracking engine needs minutes for this pattern on a few thousand
    // characters; it translates to the linear-time engine, which answers at any length.
    let p = pattern("a+a+a+x");
    assert!(p.is_linear());
    let long = "a".repeat(5000);
    assert!(!p.may_be_slow(long.len()));
    assert!(!p.is_match(&long));
    assert!(p.is_match(&format!("{long}x")));
    assert_eq!(p.is_match_bounded(&long), Some(false));
    assert!(p.is_match("aaax"));
}

#[test]
fn real_world_patterns_with_nested_repetition_are_accepted() {
    // Servers send these; refusing them made the client answer -32602. Expected
    // answers are V8's (`new RegExp(p, "u").test(text)` in Node.js).
    let cases: &[(&str, &[(&str, bool)])] = &[
        (
            r"^([a-z]+\.)*[a-z]+$",
            &[
                ("a.b.c", true),
                ("a..b", false),
                ("abc", true),
                (".a", false),
                ("", false),
            ],
        ),
        (r"([a-z]+\.)*", &[("", true), ("!!", true)]),
        (
            r"^(?:.|\n)*$",
            &[("a\nb", true), ("\u{2028}", false), ("😀\r", false)],
        ),
        (
            "^(foo|bar)*$",
            &[
                ("foobar", true),
                ("fooba", false),
                ("", true),
                ("barfoo", true),
            ],
        ),
        (
            r"^\S+@\S+\.\S+$",
            &[
                ("a@b.co", true),
                ("a b@c.d", false),
                ("a@b", false),
                ("é@ü.ç", true),
            ],
        ),
    ];
    for (source, texts) in cases {
        let p = pattern(source);
        assert!(p.is_linear(), "{source} runs on the linear-time engine");
        for (text, want) in *texts {
            assert_eq!(
                p.is_match_bounded(text),
                Some(*want),
                "{source} on {text:?}"
            );
        }
    }
}

#[test]
fn exponential_shapes_match_like_v8_in_linear_time() {
    // Textbook ReDoS patterns: exact answers (V8's), and a hostile input of 100,000
    // characters answers at once instead of after 2^100,000 steps.
    let cases: &[(&str, &[(&str, bool)])] = &[
        // regress 0.12 answers `false` here; V8 and the automaton answer `true`.
        ("(?:(?:.+)+){2}", &[(" _", true), ("x", false), ("", false)]),
        ("^(a+)+$", &[("aaaa", true), ("aaab", false)]),
        ("^(a|aa)*$", &[("aaa", true), ("aab", false)]),
        (
            r"^(\w+\s?)*$",
            &[("hello world", true), ("hello world!", false)],
        ),
        (
            "(.*a){3}",
            &[("aaa", true), ("xaxa", false), ("bab ab a", true)],
        ),
        ("^(?:a*)*b", &[("aab", true), ("aa", false), ("b", true)]),
        ("^((ab)*c)*$", &[("abcabababc", true), ("abcab", false)]),
    ];
    let hostile = format!("{}!", "a".repeat(100_000));
    for (source, texts) in cases {
        let p = pattern(source);
        assert!(p.is_linear(), "{source}");
        for (text, want) in *texts {
            assert_eq!(
                p.is_match_bounded(text),
                Some(*want),
                "{source} on {text:?}"
            );
        }
        assert!(p.is_match_bounded(&hostile).is_some(), "{source}");
    }
    assert_eq!(pattern("^(a+)+$").is_match_bounded(&hostile), Some(false));
}

#[test]
fn non_regular_patterns_refuse_long_inputs_when_bounded() {
    let p = pattern(r"(\w)\1+a+a+x");
    assert!(!p.is_linear(), "a backreference cannot run on an automaton");
    let long = "b".repeat(5000);
    assert!(p.may_be_slow(long.chars().count()));
    assert_eq!(p.is_match_bounded(&long), None);
    assert!(!p.is_match(&long), "is_match fails closed");
    assert_eq!(p.is_match_bounded("bbaax"), Some(true));
    assert_eq!(p.is_match_bounded("baax"), Some(false));
    // The bound counts code points, not bytes: 35 characters (65 bytes) are short.
    let short = format!("{}bbaax", "é".repeat(30));
    assert!(!p.may_be_slow(short.chars().count()));
    assert_eq!(p.is_match_bounded(&short), Some(true));
}

#[test]
fn lookarounds_without_exponential_shape_are_accepted() {
    // A classic password rule: lookaheads, so regress runs it, on inputs of a few
    // hundred characters.
    let p = pattern(r"^(?=.*[A-Z])(?=.*\d).{8,}$");
    assert!(!p.is_linear());
    assert_eq!(p.is_match_bounded("Secret123"), Some(true));
    assert_eq!(p.is_match_bounded("secret123"), Some(false));
    assert!(!p.may_be_slow(256));
    assert!(p.may_be_slow(100_000));
}

/// The message of the one error a schema with `property` as its field `p` gets: an
/// invalid pattern, at the pattern.
fn refusal(property: serde_json::Value) -> String {
    let err = Schema::parse(&json!({"type": "object", "properties": {"p": property}}))
        .expect_err("refused");
    let e = err.first();
    assert_eq!(e.kind(), mcp_elicit_core::ErrorKind::InvalidPattern, "{e}");
    assert_eq!(e.pointer(), "/properties/p/pattern");
    e.to_string()
}

#[test]
fn exponential_patterns_no_automaton_can_run_are_refused_with_the_reason() {
    for source in [
        r"^(a+)+\1$",
        r"(?<x>a|aa)*\k<x>",
        "(?=x)(a|aa)*$",
        r"(\w+\s?)*(?!z)",
    ] {
        let message = refusal(json!({"type": "string", "pattern": source}));
        for needle in ["linear time", "backreference, a lookaround", "exponential"] {
            assert!(message.contains(needle), "{source}: {message}");
        }
    }
}

#[test]
fn multiplying_alternatives_only_a_backtracking_engine_could_run_are_refused() {
    // Found by fuzzing schema_parse: a 759-byte schema whose pattern (modifier groups,
    // which only regress runs, full of empty alternatives and a `{5}`) has billions of
    // ways to match the empty string; validating its three-character default took
    // 4.4 s in a release build (28 s instrumented, minutes in a debug build).
    let text = include_str!("../../../fuzz/seeds/schema_parse/slow-alternatives-pattern.json");
    let value: serde_json::Value = serde_json::from_str(text).expect("regression file");
    let err = Schema::parse(&value).expect_err("refused");
    let e = err.first();
    assert_eq!(e.kind(), mcp_elicit_core::ErrorKind::InvalidPattern, "{e}");
    assert_eq!(e.pointer(), "/properties/coCe/pattern");
    for needle in ["linear time", "modifier group", "10^8 backtracking paths"] {
        assert!(e.to_string().contains(needle), "{e}");
    }
    // Twenty groups of empty alternatives after a lookahead: 3^20 ways to match "".
    let source = format!("^(?=x){}$", "(|a|b)".repeat(20));
    let message = refusal(json!({"type": "string", "pattern": source, "default": "ab"}));
    assert!(message.contains("10^8 backtracking paths"), "{message}");
    // Six of them (729 ways) run, and answer like V8.
    let p = pattern(&format!("^(?=a){}$", "(|a|b)".repeat(6)));
    assert!(!p.is_linear());
    assert_eq!(p.is_match_bounded("abab"), Some(true));
    assert_eq!(p.is_match_bounded("bab"), Some(false));
    assert_eq!(p.is_match_bounded("abababa"), Some(false));
}

#[test]
fn nested_repetitions_match_like_v8_on_the_automaton() {
    // regress 0.12 answers each of these wrongly (or, for the last, never returns);
    // the answers are V8's, and the automaton gives them.
    let cases: &[(&str, &str, bool)] = &[
        (r"(?:(?:\s{1,3}.?){2}){2}", " \u{a0}  ", true),
        ("^(?:(?:a{1,2}){2}){2}$", "aaaa", true),
        ("^(?:(?:a..|a)?){0,2}$", "aaaaa", false),
        ("^(?:(?:a..|a)?){0,2}$", "aaaa", true),
        ("(?:(?:b?)?){2}$", "ba", true),
    ];
    for (source, text, want) in cases {
        let p = pattern(source);
        assert!(p.is_linear(), "{source}");
        assert_eq!(
            p.is_match_bounded(text),
            Some(*want),
            "{source} on {text:?}"
        );
    }
}

#[test]
fn nested_repetitions_only_a_backtracking_engine_could_run_are_refused() {
    // With a lookaround or a backreference these would run on regress, which loops
    // forever on the first (a hostile schema's default made validation hang) and answers
    // the others wrongly. Refused at parse time, with the reason and the place.
    for (source, default) in [
        ("^(?=.)(?:(?:b?)?){2}$", "ba"),
        ("^(?=a)(?:(?:a{1,2}){2}){2}$", "aaaa"),
        (r"^(a)(?:(?:\1..|a)?){0,2}$", "aaaaa"),
        ("(?<!x)(?:y(?:b|b?){2}?a){2}$", "ybaya"),
    ] {
        let message = refusal(json!({"type": "string", "pattern": source, "default": default}));
        for needle in ["linear time", "quantified group", "at character"] {
            assert!(message.contains(needle), "{source}: {message}");
        }
    }
}

#[test]
fn huge_repetition_counts_only_a_backtracking_engine_could_run_are_refused() {
    // Found by fuzzing schema_parse: no automaton fits `{2888888888888888}`, and on
    // regress the empty-matching body is repeated that many times whatever the text's
    // length, so validating the 19-character default never returned (and grew to 600 MB).
    for (source, default) in [
        ("()(?:(?:b?)F?){2888888888888888}$", "bDDDDDDDHHHHHHHHHHH"),
        ("(?=x)(?:b?){5000}", "x"),
        (r"(a)\1{1001,}", "aa"),
    ] {
        let message = refusal(json!({"type": "string", "pattern": source, "default": default}));
        for needle in ["linear time", "more than the 1000", "at character"] {
            assert!(message.contains(needle), "{source}: {message}");
        }
    }
    // Counts a backtracking match can afford, and large counts on the automaton, stay.
    assert!(!pattern("(?=x)(?:b?){1000}").is_linear());
    assert!(pattern(r"^\d{2000}$").is_linear());
}

#[test]
fn linear_anchored_patterns_are_not_slow() {
    let p = pattern("^[A-Za-z]+$");
    assert!(!p.may_be_slow(1_000_000));
    assert!(p.is_match(&"a".repeat(1_000_000)));
}

#[test]
fn a_schema_cannot_make_parsing_build_unbounded_automata() {
    // Each of these takes about 5 MB of automaton; a hostile schema may have 256.
    let mut properties = serde_json::Map::new();
    for i in 0..20 {
        properties.insert(
            format!("p{i}"),
            json!({"type": "string", "pattern": format!("^\\p{{L}}{{1,{}}}$", 90 + i)}),
        );
    }
    let schema = Schema::parse(&json!({"type": "object", "properties": properties}))
        .expect("every pattern is accepted");
    let linear: Vec<bool> = schema
        .properties()
        .iter()
        .map(|p| match p.kind() {
            PropertyKind::String(s) => s.pattern().is_some_and(Pattern::is_linear),
            other => panic!("string kind expected, got {other:?}"),
        })
        .collect();
    let automata = linear.iter().filter(|l| **l).count();
    assert!(
        (1..20).contains(&automata),
        "the first patterns get automata, the budget stops the rest: {linear:?}"
    );
    assert!(linear[0] && !linear[19]);
    // Past the budget, patterns run on the bounded backtracking engine, exactly.
    let PropertyKind::String(last) = schema.properties()[19].kind() else {
        panic!("string kind")
    };
    let last = last.pattern().expect("pattern");
    assert_eq!(last.is_match_bounded("Émile"), Some(true));
    assert_eq!(last.is_match_bounded("Émile 2"), Some(false));
}

#[test]
fn without_an_automata_budget_nested_repetitions_are_refused() {
    let mut limits = ParseLimits::default();
    limits.max_pattern_automata_bytes = 0;
    let parse = |source: &str| {
        Schema::parse_with_limits(
            &json!({"type": "object", "properties": {"p": {"type": "string", "pattern": source}}}),
            &limits,
        )
    };
    let err = parse("^(a+)+$").expect_err("exponential on a backtracking engine");
    assert!(err.first().message().contains("larger than"), "{err}");
    let plain = parse("^[a-z]+$").expect("a single repetition is fine");
    let PropertyKind::String(s) = plain.properties()[0].kind() else {
        panic!("string kind")
    };
    let p = s.pattern().expect("pattern");
    assert!(!p.is_linear());
    assert_eq!(p.is_match_bounded(&"a".repeat(10_000)), Some(true));
}
