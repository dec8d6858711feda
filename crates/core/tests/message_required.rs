//! The `data` of a `-32042` URL elicitation required error.

use mcp_elicit_core::ErrorKind;
use mcp_elicit_core::message::{
    MAX_REQUIRED_ELICITATIONS, URL_ELICITATION_REQUIRED, URL_ELICITATION_REQUIRED_MESSAGE,
    UrlElicitationRequired, UrlRequest,
};
use serde_json::{Value, json};

fn spec_error() -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": 2,
        "error": {
            "code": -32042,
            "message": "This request requires more information.",
            "data": {
                "elicitations": [
                    {
                        "mode": "url",
                        "elicitationId": "550e8400-e29b-41d4-a716-446655440000",
                        "url": "https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000",
                        "message": "Authorization is required to access your Example Co files."
                    }
                ]
            }
        }
    })
}

fn url_request(id: &str) -> UrlRequest {
    UrlRequest::new(
        "Connect your account",
        format!("https://mcp.example.com/connect?elicitationId={id}"),
        id,
    )
    .unwrap()
}

#[test]
fn spec_example_round_trips() {
    let error = spec_error();
    assert_eq!(error["error"]["code"], URL_ELICITATION_REQUIRED);
    assert_eq!(error["error"]["message"], URL_ELICITATION_REQUIRED_MESSAGE);
    let required = UrlElicitationRequired::parse_data(&error["error"]["data"]).unwrap();
    assert_eq!(required.elicitations().len(), 1);
    let first = &required.elicitations()[0];
    assert_eq!(first.elicitation_id, "550e8400-e29b-41d4-a716-446655440000");
    assert_eq!(
        first.message,
        "Authorization is required to access your Example Co files."
    );
    assert_eq!(required.data(), error["error"]["data"]);
    assert_eq!(
        serde_json::to_value(&required).unwrap(),
        error["error"]["data"]
    );
    let via_serde: UrlElicitationRequired =
        serde_json::from_value(error["error"]["data"].clone()).unwrap();
    assert_eq!(via_serde, required);
}

#[test]
fn built_from_url_requests() {
    let required = UrlElicitationRequired::new(vec![url_request("a"), url_request("b")]).unwrap();
    let data = required.data();
    assert_eq!(data["elicitations"].as_array().unwrap().len(), 2);
    assert_eq!(data["elicitations"][1]["mode"], "url");
    assert_eq!(data["elicitations"][1]["elicitationId"], "b");
    assert_eq!(UrlElicitationRequired::parse_data(&data).unwrap(), required);
    assert_eq!(
        UrlElicitationRequired::single(url_request("z"))
            .unwrap()
            .elicitations()
            .len(),
        1
    );
}

#[test]
fn new_rejects_empty_duplicate_oversized_and_invalid_lists() {
    let err = UrlElicitationRequired::new(vec![]).unwrap_err();
    assert_eq!(
        (err.kind(), err.pointer()),
        (ErrorKind::InvalidMessage, "/elicitations")
    );

    let err = UrlElicitationRequired::new(vec![url_request("a"), url_request("a")]).unwrap_err();
    assert_eq!(
        (err.kind(), err.pointer()),
        (ErrorKind::InvalidMessage, "/elicitations/1/elicitationId")
    );

    let many = (0..=MAX_REQUIRED_ELICITATIONS)
        .map(|i| url_request(&i.to_string()))
        .collect();
    let err = UrlElicitationRequired::new(many).unwrap_err();
    assert_eq!(
        (err.kind(), err.pointer()),
        (ErrorKind::TooLarge, "/elicitations")
    );

    let unchecked = UrlRequest {
        message: "m".into(),
        url: "javascript-less nonsense".into(),
        elicitation_id: "id".into(),
        meta: None,
    };
    let err = UrlElicitationRequired::new(vec![url_request("a"), unchecked]).unwrap_err();
    assert_eq!(
        (err.kind(), err.pointer()),
        (ErrorKind::InvalidUrl, "/elicitations/1/url")
    );

    let no_id = UrlRequest {
        elicitation_id: String::new(),
        ..url_request("q")
    };
    let err = UrlElicitationRequired::new(vec![no_id]).unwrap_err();
    assert_eq!(
        (err.kind(), err.pointer()),
        (ErrorKind::InvalidMessage, "/elicitations/0/elicitationId")
    );
}

#[test]
fn parse_data_rejections() {
    let good = url_request("ok").to_value();
    let form = json!({"mode": "form", "message": "m", "requestedSchema": {"type": "object", "properties": {}}});
    let mut no_mode = good.clone();
    no_mode.as_object_mut().unwrap().remove("mode");
    let mut no_id = good.clone();
    no_id.as_object_mut().unwrap().remove("elicitationId");
    let cases = [
        (json!(null), ErrorKind::InvalidMessage, ""),
        (json!({}), ErrorKind::InvalidMessage, "/elicitations"),
        (
            json!({"elicitations": {}}),
            ErrorKind::InvalidMessage,
            "/elicitations",
        ),
        (
            json!({"elicitations": []}),
            ErrorKind::InvalidMessage,
            "/elicitations",
        ),
        (
            json!({"elicitations": [form]}),
            ErrorKind::InvalidMessage,
            "/elicitations/0/mode",
        ),
        (
            json!({"elicitations": [good.clone(), no_mode]}),
            ErrorKind::InvalidMessage,
            "/elicitations/1/mode",
        ),
        (
            json!({"elicitations": [no_id]}),
            ErrorKind::InvalidMessage,
            "/elicitations/0/elicitationId",
        ),
        (
            json!({"elicitations": [good.clone(), good.clone()]}),
            ErrorKind::InvalidMessage,
            "/elicitations/1/elicitationId",
        ),
        (
            json!({"elicitations": [42]}),
            ErrorKind::InvalidMessage,
            "/elicitations/0",
        ),
        (
            json!({"elicitations": vec![good.clone(); MAX_REQUIRED_ELICITATIONS + 1]}),
            ErrorKind::TooLarge,
            "/elicitations",
        ),
    ];
    for (data, kind, pointer) in cases {
        let errors = UrlElicitationRequired::parse_data(&data).unwrap_err();
        assert!(
            errors
                .as_slice()
                .iter()
                .any(|e| e.kind() == kind && e.pointer() == pointer),
            "expected {kind} at {pointer} for {data}, got {errors}"
        );
    }
}

#[test]
fn extra_data_members_are_ignored() {
    let mut data = spec_error()["error"]["data"].clone();
    data["retryAfter"] = json!(5);
    let required = UrlElicitationRequired::parse_data(&data).unwrap();
    assert_eq!(required.data(), spec_error()["error"]["data"]);
}
