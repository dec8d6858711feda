//! `elicitation/create` results: shape checks, mode consistency, round trips.

use mcp_elicit_core::ErrorKind;
use mcp_elicit_core::message::{Action, CreateResult, Mode};
use serde_json::{Value, json};

fn assert_rejected(result: Value, kind: ErrorKind, pointer: &str) {
    let errors = CreateResult::parse(&result).expect_err("must be rejected");
    assert!(
        errors
            .as_slice()
            .iter()
            .any(|e| e.kind() == kind && e.pointer() == pointer),
        "expected {kind} at {pointer:?} for {result}, got {errors}"
    );
}

#[test]
fn spec_results_round_trip() {
    let examples = [
        json!({"action": "accept", "content": {"name": "octocat"}}),
        json!({"action": "accept", "content": {"name": "Monalisa Octocat", "email": "octocat@github.com", "age": 30}}),
        json!({"action": "accept"}),
        json!({"action": "decline"}),
        json!({"action": "cancel"}),
        json!({"action": "accept", "content": {"propertyName": "value", "anotherProperty": 42}}),
        json!({"action": "accept", "content": {"colors": ["Red", "Green"], "ok": true, "ratio": 0.5}}),
    ];
    for example in examples {
        let result = CreateResult::parse(&example).expect("spec example parses");
        assert_eq!(result.to_value(), example);
        let via_serde: CreateResult = serde_json::from_value(example.clone()).unwrap();
        assert_eq!(via_serde, result);
        assert_eq!(serde_json::to_value(&via_serde).unwrap(), example);
    }
}

#[test]
fn constructors_produce_the_wire_shape() {
    let mut content = serde_json::Map::new();
    content.insert("name".into(), json!("octocat"));
    assert_eq!(
        CreateResult::accept(content).to_value(),
        json!({"action": "accept", "content": {"name": "octocat"}})
    );
    assert_eq!(
        CreateResult::accept_url().to_value(),
        json!({"action": "accept"})
    );
    assert_eq!(
        CreateResult::decline().to_value(),
        json!({"action": "decline"})
    );
    assert_eq!(
        CreateResult::cancel().to_value(),
        json!({"action": "cancel"})
    );
}

#[test]
fn meta_is_kept_and_null_content_is_absent() {
    let result =
        CreateResult::parse(&json!({"action": "decline", "_meta": {"k": "v"}, "other": 1}))
            .unwrap();
    assert_eq!(result.meta.as_ref().unwrap()["k"], "v");
    assert_eq!(
        result.to_value(),
        json!({"action": "decline", "_meta": {"k": "v"}})
    );
    let result = CreateResult::parse(&json!({"action": "cancel", "content": null})).unwrap();
    assert_eq!(result.content, None);
    assert_rejected(
        json!({"action": "cancel", "_meta": "x"}),
        ErrorKind::InvalidMessage,
        "/_meta",
    );
}

#[test]
fn action_is_required_and_known() {
    assert_rejected(json!({}), ErrorKind::InvalidMessage, "/action");
    for bad in [
        json!("Accept"),
        json!("accepted"),
        json!(""),
        json!(true),
        json!(null),
        json!(["accept"]),
    ] {
        assert_rejected(json!({"action": bad}), ErrorKind::InvalidMessage, "/action");
    }
    for bad in [json!(null), json!([]), json!("accept")] {
        assert_rejected(bad, ErrorKind::InvalidMessage, "");
    }
}

#[test]
fn content_must_be_an_object_of_primitives() {
    for bad in [json!("x"), json!([1]), json!(3)] {
        assert_rejected(
            json!({"action": "accept", "content": bad}),
            ErrorKind::InvalidMessage,
            "/content",
        );
    }
    assert_rejected(
        json!({"action": "accept", "content": {"a": {"b": 1}}}),
        ErrorKind::InvalidMessage,
        "/content/a",
    );
    assert_rejected(
        json!({"action": "accept", "content": {"a": null}}),
        ErrorKind::InvalidMessage,
        "/content/a",
    );
    assert_rejected(
        json!({"action": "accept", "content": {"a/b": [1]}}),
        ErrorKind::InvalidMessage,
        "/content/a~1b/0",
    );
    assert_rejected(
        json!({"action": "accept", "content": {"a": ["x", {}]}}),
        ErrorKind::InvalidMessage,
        "/content/a/1",
    );
}

#[test]
fn every_problem_is_reported() {
    let errors = CreateResult::parse(&json!({"action": "maybe", "content": {"a": null, "b": {}}}))
        .unwrap_err();
    let pointers: Vec<&str> = errors.as_slice().iter().map(|e| e.pointer()).collect();
    assert_eq!(pointers, ["/action", "/content/a", "/content/b"]);
}

#[test]
fn check_for_mode() {
    let form_accept = CreateResult::parse(&json!({"action": "accept", "content": {}})).unwrap();
    assert!(form_accept.check_for(Mode::Form).is_ok());
    let err = form_accept.check_for(Mode::Url).unwrap_err();
    assert_eq!(
        (err.kind(), err.pointer()),
        (ErrorKind::InvalidMessage, "/content")
    );

    let bare_accept = CreateResult::accept_url();
    assert!(bare_accept.check_for(Mode::Url).is_ok());
    let err = bare_accept.check_for(Mode::Form).unwrap_err();
    assert_eq!(
        (err.kind(), err.pointer()),
        (ErrorKind::InvalidMessage, "/content")
    );

    for action in [Action::Decline, Action::Cancel] {
        for mode in Mode::ALL {
            let plain = CreateResult {
                action,
                content: None,
                meta: None,
            };
            assert!(plain.check_for(mode).is_ok());
            let odd =
                CreateResult::parse(&json!({"action": action.as_str(), "content": {"x": "y"}}))
                    .unwrap();
            assert!(odd.check_for(mode).is_ok(), "tolerated");
            assert_eq!(odd.accepted_content(), None, "but ignored");
        }
    }
    assert_eq!(
        form_accept.accepted_content(),
        Some(&serde_json::Map::new())
    );
}

#[test]
fn action_names() {
    for action in Action::ALL {
        assert_eq!(Action::parse(action.as_str()), Some(action));
        assert_eq!(
            serde_json::to_value(action).unwrap(),
            json!(action.as_str())
        );
    }
    assert_eq!(Action::parse("ACCEPT"), None);
}
