//! The client's `elicitation` capability.

use mcp_elicit_core::ErrorKind;
use mcp_elicit_core::message::{Capability, Mode};
use serde_json::json;

#[test]
fn declarations_map_to_modes() {
    let cases = [
        (None, Capability::NONE),
        (Some(json!(null)), Capability::NONE),
        (Some(json!({})), Capability::FORM),
        (Some(json!({"form": {}})), Capability::FORM),
        (Some(json!({"url": {}})), Capability::URL),
        (Some(json!({"form": {}, "url": {}})), Capability::ALL),
        (
            Some(json!({"form": {"applyDefaults": true}})),
            Capability::FORM,
        ),
        (Some(json!({"futureMode": {}})), Capability::FORM),
        (Some(json!({"form": {}, "url": null})), Capability::FORM),
        (Some(json!({"form": null, "url": {}})), Capability::URL),
        (Some(json!({"form": null})), Capability::FORM),
    ];
    for (value, expected) in cases {
        assert_eq!(
            Capability::from_value(value.as_ref()).unwrap(),
            expected,
            "{value:?}"
        );
    }
}

#[test]
fn spec_capability_examples() {
    let both = json!({"capabilities": {"elicitation": {"form": {}, "url": {}}}});
    let cap = Capability::from_value(both["capabilities"].get("elicitation")).unwrap();
    assert!(cap.supports(Mode::Form) && cap.supports(Mode::Url));
    let legacy = json!({"capabilities": {"elicitation": {}}});
    let cap = Capability::from_value(legacy["capabilities"].get("elicitation")).unwrap();
    assert!(cap.supports(Mode::Form) && !cap.supports(Mode::Url));
    let none = json!({"capabilities": {"sampling": {}}});
    let cap = Capability::from_value(none["capabilities"].get("elicitation")).unwrap();
    assert!(!cap.any());
}

#[test]
fn malformed_declarations_are_rejected() {
    for (value, pointer) in [
        (json!(true), ""),
        (json!([]), ""),
        (json!("form"), ""),
        (json!({"form": true}), "/form"),
        (json!({"url": "yes"}), "/url"),
        (json!({"form": {}, "url": []}), "/url"),
    ] {
        let err = Capability::from_value(Some(&value)).unwrap_err();
        assert_eq!(
            (err.kind(), err.pointer()),
            (ErrorKind::InvalidMessage, pointer),
            "{value}"
        );
    }
}

#[test]
fn to_value_is_explicit_and_round_trips() {
    assert_eq!(Capability::NONE.to_value(), None);
    assert_eq!(Capability::FORM.to_value(), Some(json!({"form": {}})));
    assert_eq!(Capability::URL.to_value(), Some(json!({"url": {}})));
    assert_eq!(
        Capability::ALL.to_value(),
        Some(json!({"form": {}, "url": {}}))
    );
    for cap in [
        Capability::NONE,
        Capability::FORM,
        Capability::URL,
        Capability::ALL,
    ] {
        assert_eq!(
            Capability::from_value(cap.to_value().as_ref()).unwrap(),
            cap
        );
        let json = serde_json::to_value(cap).unwrap();
        assert_eq!(serde_json::from_value::<Capability>(json).unwrap(), cap);
    }
}

#[test]
fn require_refuses_undeclared_modes() {
    assert!(Capability::FORM.require(Mode::Form).is_ok());
    let err = Capability::FORM.require(Mode::Url).unwrap_err();
    assert_eq!(
        (err.kind(), err.pointer()),
        (ErrorKind::InvalidMessage, "/mode")
    );
    assert!(Capability::URL.require(Mode::Form).is_err());
    assert!(Capability::NONE.require(Mode::Form).is_err());
    assert!(Capability::ALL.require(Mode::Url).is_ok());
}

#[test]
fn mode_names() {
    for mode in Mode::ALL {
        assert_eq!(Mode::parse(mode.as_str()), Some(mode));
        assert_eq!(serde_json::to_value(mode).unwrap(), json!(mode.as_str()));
        assert_eq!(mode.to_string(), mode.as_str());
    }
    assert_eq!(Mode::parse("URL"), None);
}
