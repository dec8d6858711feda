//! `elicitation/create` params: the specification's examples round-trip, every
//! rejection names its kind and pointer.

use mcp_elicit_core::ErrorKind;
use mcp_elicit_core::message::{
    CreateRequest, FormRequest, MAX_ELICITATION_ID_BYTES, MAX_MESSAGE_BYTES, MAX_URL_BYTES, Mode,
    UrlRequest,
};
use serde_json::{Value, json};

/// Parses `params`, expects failure, returns `(kind, pointer)` of every error.
fn rejections(params: Value) -> Vec<(ErrorKind, String)> {
    match CreateRequest::parse(&params) {
        Ok(r) => panic!("accepted {params}: {r:?}"),
        Err(errors) => errors
            .into_iter()
            .map(|e| (e.kind(), e.pointer().to_owned()))
            .collect(),
    }
}

fn assert_rejected(params: Value, kind: ErrorKind, pointer: &str) {
    let found = rejections(params.clone());
    assert!(
        found.iter().any(|(k, p)| *k == kind && p == pointer),
        "expected {kind} at {pointer:?} for {params}, got {found:?}"
    );
}

fn spec_form_simple() -> Value {
    json!({
        "mode": "form",
        "message": "Please provide your GitHub username",
        "requestedSchema": {
            "type": "object",
            "properties": { "name": { "type": "string" } },
            "required": ["name"]
        }
    })
}

fn spec_form_structured() -> Value {
    json!({
        "mode": "form",
        "message": "Please provide your contact information",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "name": { "type": "string", "description": "Your full name" },
                "email": { "type": "string", "format": "email", "description": "Your email address" },
                "age": { "type": "number", "minimum": 18, "description": "Your age" }
            },
            "required": ["name", "email"]
        }
    })
}

fn spec_url() -> Value {
    json!({
        "mode": "url",
        "elicitationId": "550e8400-e29b-41d4-a716-446655440000",
        "url": "https://mcp.example.com/ui/set_api_key",
        "message": "Please provide your API key to continue."
    })
}

/// The specification's URL-mode example with `field` set to `value`.
fn url_with(field: &str, value: Value) -> Value {
    let mut params = spec_url();
    params[field] = value;
    params
}

#[test]
fn spec_form_examples_round_trip() {
    for params in [spec_form_simple(), spec_form_structured()] {
        let request = CreateRequest::parse(&params).expect("spec example parses");
        assert_eq!(request.mode(), Mode::Form);
        assert_eq!(request.to_value(), params);
        assert_eq!(request.elicitation_id(), None);
    }
    let request = CreateRequest::parse(&spec_form_structured()).unwrap();
    let CreateRequest::Form(form) = &request else {
        panic!("not a form")
    };
    assert_eq!(form.message, "Please provide your contact information");
    assert_eq!(form.schema.properties().len(), 3);
    assert_eq!(
        form.schema.required(),
        ["name".to_owned(), "email".to_owned()]
    );
}

#[test]
fn spec_url_example_round_trips() {
    let request = CreateRequest::parse(&spec_url()).expect("spec example parses");
    assert_eq!(request.mode(), Mode::Url);
    assert_eq!(
        request.message(),
        "Please provide your API key to continue."
    );
    assert_eq!(
        request.elicitation_id(),
        Some("550e8400-e29b-41d4-a716-446655440000")
    );
    let CreateRequest::Url(url) = &request else {
        panic!("not a url request")
    };
    assert_eq!(url.url, "https://mcp.example.com/ui/set_api_key");
    assert_eq!(request.to_value(), spec_url());
    assert_eq!(UrlRequest::parse(&spec_url()).unwrap(), *url);
}

#[test]
fn missing_mode_means_form_and_is_written_back_explicitly() {
    let mut params = spec_form_simple();
    params.as_object_mut().unwrap().remove("mode");
    let request = CreateRequest::parse(&params).expect("mode-less request is a form");
    assert_eq!(request.mode(), Mode::Form);
    assert_eq!(request.to_value()["mode"], "form");
    assert_eq!(request.to_value(), spec_form_simple());
}

#[test]
fn meta_is_kept_and_unknown_members_are_ignored() {
    let mut params = spec_url();
    params["_meta"] = json!({"progressToken": 7, "x/y": [1]});
    params["task"] = json!({"ttl": 1000});
    let request = CreateRequest::parse(&params).unwrap();
    assert_eq!(request.meta().unwrap()["progressToken"], 7);
    let back = request.to_value();
    assert_eq!(back["_meta"], params["_meta"]);
    assert!(back.get("task").is_none());

    let mut form = spec_form_simple();
    form["_meta"] = json!({"a": 1});
    let request = CreateRequest::parse(&form).unwrap();
    assert_eq!(request.to_value(), form);
}

#[test]
fn serde_matches_parse_and_to_value() {
    let request: CreateRequest = serde_json::from_value(spec_url()).unwrap();
    assert_eq!(serde_json::to_value(&request).unwrap(), spec_url());
    let form: FormRequest = serde_json::from_value(spec_form_structured()).unwrap();
    assert_eq!(serde_json::to_value(&form).unwrap(), spec_form_structured());
    let err = serde_json::from_value::<CreateRequest>(json!({"mode": "bogus", "message": "x"}))
        .unwrap_err();
    assert!(err.to_string().contains("/mode"), "{err}");
    assert!(serde_json::from_value::<FormRequest>(spec_url()).is_err());
    assert!(serde_json::from_value::<UrlRequest>(spec_form_simple()).is_err());
}

#[test]
fn params_must_be_an_object() {
    for params in [json!(null), json!([]), json!("form"), json!(3)] {
        assert_rejected(params, ErrorKind::InvalidMessage, "");
    }
}

#[test]
fn unknown_or_mistyped_mode_is_rejected() {
    for mode in [
        json!("bogus"),
        json!("URL"),
        json!("Form"),
        json!(""),
        json!(1),
        json!(null),
        json!({}),
    ] {
        assert_rejected(url_with("mode", mode), ErrorKind::InvalidMessage, "/mode");
    }
}

#[test]
fn message_is_required_string_and_bounded() {
    for mut params in [spec_form_simple(), spec_url()] {
        params.as_object_mut().unwrap().remove("message");
        assert_rejected(params, ErrorKind::InvalidMessage, "/message");
    }
    for bad in [json!(1), json!(null), json!(["a"])] {
        assert_rejected(
            url_with("message", bad),
            ErrorKind::InvalidMessage,
            "/message",
        );
    }
    assert_rejected(
        url_with("message", json!("m".repeat(MAX_MESSAGE_BYTES + 1))),
        ErrorKind::TooLarge,
        "/message",
    );
    assert!(
        CreateRequest::parse(&url_with("message", json!("m".repeat(MAX_MESSAGE_BYTES)))).is_ok()
    );
}

#[test]
fn form_needs_a_requested_schema() {
    let mut params = spec_form_simple();
    params.as_object_mut().unwrap().remove("requestedSchema");
    assert_rejected(params, ErrorKind::InvalidMessage, "/requestedSchema");
}

#[test]
fn schema_errors_are_repointed_under_requested_schema() {
    let mut params = spec_form_simple();
    params["requestedSchema"]["properties"]["name"] = json!({"type": "object", "properties": {}});
    let found = rejections(params);
    assert!(!found.is_empty());
    for (_, pointer) in &found {
        assert!(pointer.starts_with("/requestedSchema"), "{pointer}");
    }
    assert!(
        found
            .iter()
            .any(|(_, p)| p.starts_with("/requestedSchema/properties/name")),
        "{found:?}"
    );

    let mut params = spec_form_simple();
    params["requestedSchema"] = json!("not a schema");
    let found = rejections(params);
    assert!(
        found.iter().all(|(_, p)| p.starts_with("/requestedSchema")),
        "{found:?}"
    );
}

#[test]
fn all_problems_are_reported_together() {
    let params = json!({"mode": "url", "message": 5, "url": "", "elicitationId": ""});
    let found = rejections(params);
    let pointers: Vec<&str> = found.iter().map(|(_, p)| p.as_str()).collect();
    assert!(pointers.contains(&"/message"), "{found:?}");
    assert!(pointers.contains(&"/url"), "{found:?}");
    assert!(pointers.contains(&"/elicitationId"), "{found:?}");
}

#[test]
fn form_request_must_not_carry_url_members() {
    let mut params = spec_form_simple();
    params["url"] = json!("https://evil.example/login");
    assert_rejected(params, ErrorKind::InvalidMessage, "/url");
    let mut params = spec_form_simple();
    params["elicitationId"] = json!("abc");
    assert_rejected(params, ErrorKind::InvalidMessage, "/elicitationId");
    // Without a mode, a url + schema mix is still a (rejected) form request.
    let mut params = spec_form_simple();
    params.as_object_mut().unwrap().remove("mode");
    params["url"] = json!("https://evil.example/login");
    assert_rejected(params, ErrorKind::InvalidMessage, "/url");
}

#[test]
fn url_request_without_mode_is_a_form_missing_its_schema() {
    let mut params = spec_url();
    params.as_object_mut().unwrap().remove("mode");
    let found = rejections(params);
    assert!(
        found.contains(&(ErrorKind::InvalidMessage, "/requestedSchema".to_owned())),
        "{found:?}"
    );
    assert!(
        found.contains(&(ErrorKind::InvalidMessage, "/url".to_owned())),
        "{found:?}"
    );
}

#[test]
fn url_request_must_not_carry_a_schema() {
    let params = url_with(
        "requestedSchema",
        spec_form_simple()["requestedSchema"].clone(),
    );
    assert_rejected(params, ErrorKind::InvalidMessage, "/requestedSchema");
}

#[test]
fn url_request_needs_a_valid_url() {
    let mut params = spec_url();
    params.as_object_mut().unwrap().remove("url");
    assert_rejected(params, ErrorKind::InvalidMessage, "/url");
    for bad in [json!(null), json!(42), json!({"href": "https://x"})] {
        assert_rejected(url_with("url", bad), ErrorKind::InvalidMessage, "/url");
    }
    assert_rejected(
        url_with("url", json!("")),
        ErrorKind::InvalidMessage,
        "/url",
    );
    for bad in [
        "not a url",
        "/relative/path",
        "https://",
        "http://exa mple.com/",
    ] {
        assert_rejected(url_with("url", json!(bad)), ErrorKind::InvalidUrl, "/url");
    }
    let params = url_with(
        "url",
        json!(format!("https://example.com/{}", "a".repeat(MAX_URL_BYTES))),
    );
    assert_rejected(params, ErrorKind::TooLarge, "/url");
}

#[test]
fn url_request_needs_a_sane_elicitation_id() {
    let mut params = spec_url();
    params.as_object_mut().unwrap().remove("elicitationId");
    assert_rejected(params, ErrorKind::InvalidMessage, "/elicitationId");
    for bad in [
        json!(""),
        json!(7),
        json!(null),
        json!("abc\ndef"),
        json!("a\u{0}b"),
        json!("\u{1b}[31m"),
    ] {
        assert_rejected(
            url_with("elicitationId", bad),
            ErrorKind::InvalidMessage,
            "/elicitationId",
        );
    }
    let params = url_with(
        "elicitationId",
        json!("i".repeat(MAX_ELICITATION_ID_BYTES + 1)),
    );
    assert_rejected(params, ErrorKind::TooLarge, "/elicitationId");
    assert!(
        CreateRequest::parse(&url_with(
            "elicitationId",
            json!("i".repeat(MAX_ELICITATION_ID_BYTES))
        ))
        .is_ok()
    );
}

#[test]
fn meta_must_be_an_object() {
    assert_rejected(
        url_with("_meta", json!([1])),
        ErrorKind::InvalidMessage,
        "/_meta",
    );
}

#[test]
fn url_request_new_checks_fields() {
    let ok = UrlRequest::new("Connect", "https://mcp.example.com/connect", "id-1").unwrap();
    assert_eq!(ok.to_value()["mode"], "url");
    let err = UrlRequest::new("Connect", "nope", "").unwrap_err();
    let pointers: Vec<&str> = err.as_slice().iter().map(|e| e.pointer()).collect();
    assert_eq!(pointers, ["/elicitationId", "/url"]);
}

#[test]
fn typed_parsers_reject_the_other_mode() {
    let err = FormRequest::parse(&spec_url()).unwrap_err();
    assert_eq!(err.first().pointer(), "/mode");
    let err = UrlRequest::parse(&spec_form_simple()).unwrap_err();
    assert_eq!(err.first().pointer(), "/mode");
}
