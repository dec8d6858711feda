//! Arbitrary bytes as the JSON of the 2026-07-28 multi round-trip messages, read by every
//! reader the project has for them:
//! - as an `InputRequiredResult`, by the client (`mrtr::parse_round`, with the default
//!   limits and with small ones) and by rmcp's typed model;
//! - as the params of a retried `tools/call` / `prompts/get` / `resources/read` (rmcp's
//!   typed model, then every `inputResponses` entry through the server's reading of a
//!   form answer, a URL answer, a sampling and a roots result);
//! - as a `_meta` object (and a request's `_meta`), by the server's reading of the
//!   client capabilities a 2026-07-28 request declares;
//! - as a whole JSON-RPC client message (rmcp).
//!
//! Nothing may panic. The client's reading only accepts what it is documented to accept
//! (every request it keeps is an `elicitation/create` with object params, at most the
//! limit of them, `requestState` echoed exactly and within its limit) and its error
//! messages stay short whatever the server sent. The server accepts form content only if
//! it validates, and its refusals are `-32602` naming `inputResponses.KEY`.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use mcp_elicit_client::Limits;
use mcp_elicit_client::fuzzing::parse_input_required;
use mcp_elicit_core::Schema;
use mcp_elicit_core::message::{Capability, CreateRequest, METHOD_CREATE};
use mcp_elicit_core::validate::validate;
use mcp_elicit_server::fuzzing::{declared_in_meta, read_input_response};
use mcp_elicit_server::rmcp::model::{
    CallToolRequestParams, ClientJsonRpcMessage, ErrorCode, GetPromptRequestParams,
    InputRequiredResult, ReadResourceRequestParams,
};
use mcp_elicit_server::{ErrorKind, METHOD_ROOTS, METHOD_SAMPLING};
use serde_json::{Map, Value};

/// Longest error message accepted from the client's reading of a round.
const MAX_ERROR_CHARS: usize = 1024;

fn schema() -> &'static Schema {
    static S: OnceLock<Schema> = OnceLock::new();
    S.get_or_init(|| {
        Schema::from_json_str(
            r#"{"type":"object","properties":{
                "name":{"type":"string","minLength":1,"maxLength":20,"pattern":"^[a-z]+$"},
                "age":{"type":"integer","minimum":0,"maximum":150},
                "size":{"type":"string","enum":["S","M","L"]},
                "ok":{"type":"boolean","default":false},
                "tags":{"type":"array","items":{"type":"string","enum":["a","b"]},"maxItems":2},
                "mail":{"type":"string","format":"email"}
            },"required":["name"]}"#,
        )
        .expect("schema")
    })
}

fn client_reads(value: &Value) {
    let mut small = Limits::default();
    small.max_input_requests = 2;
    small.max_request_state_bytes = 64;
    for limits in [Limits::default(), small] {
        match parse_input_required(value, &limits) {
            Ok(None) => {
                let t = value.get("resultType");
                assert!(t.is_none() || t == Some(&Value::from("complete")), "{t:?}");
            }
            Ok(Some((requests, state))) => {
                assert_eq!(value["resultType"], "input_required");
                assert!(requests.len() <= limits.max_input_requests);
                assert_eq!(state.as_deref(), value["requestState"].as_str());
                assert!(
                    state
                        .as_ref()
                        .is_none_or(|s| s.len() <= limits.max_request_state_bytes)
                );
                assert!(
                    state.is_some() || !requests.is_empty() || value.get("inputRequests").is_some()
                );
                // A round with only a requestState asks for nothing.
                let Some(asked) = value.get("inputRequests").and_then(Value::as_object) else {
                    assert!(requests.is_empty());
                    continue;
                };
                for (key, params) in &requests {
                    assert_eq!(asked[key]["method"], METHOD_CREATE);
                    assert_eq!(&asked[key]["params"], params);
                    assert!(params.is_object());
                    let _ = CreateRequest::parse(params);
                }
                let kept: Vec<&String> = requests.iter().map(|(k, _)| k).collect();
                let all: Vec<&String> = asked.keys().collect();
                assert_eq!(kept, all, "a request dropped or reordered");
            }
            Err(e) => {
                let shown = e.to_string();
                assert!(
                    shown.chars().count() <= MAX_ERROR_CHARS,
                    "an error of {} characters: {:.200}...",
                    shown.chars().count(),
                    shown
                );
            }
        }
    }
    if let Ok(result) = serde_json::from_value::<InputRequiredResult>(value.clone()) {
        let again = serde_json::to_value(&result).expect("serializes");
        serde_json::from_value::<InputRequiredResult>(again).expect("own output parses");
    }
}

fn server_reads(responses: &Map<String, Value>) {
    for (key, response) in responses {
        for (method, schema) in [
            (METHOD_CREATE, Some(schema())),
            (METHOD_CREATE, None),
            (METHOD_SAMPLING, None),
            (METHOD_ROOTS, None),
        ] {
            match read_input_response(key, method, response, schema) {
                Ok(Some(Value::Object(content))) if schema.is_some() => {
                    assert!(validate(schema.expect("form"), &Value::Object(content)).is_ok());
                }
                Ok(_) => {}
                Err(e) => {
                    assert_eq!(e.kind(), ErrorKind::MalformedReply, "{e}");
                    assert!(
                        e.message().starts_with(&format!("inputResponses.{key}")),
                        "{e}"
                    );
                    assert_eq!(e.to_error_data().code, ErrorCode::INVALID_PARAMS);
                }
            }
        }
    }
}

fn meta_reads(meta: &Map<String, Value>) {
    let (elicitation, sampling, roots) = declared_in_meta(meta);
    let caps = meta
        .get("io.modelcontextprotocol/clientCapabilities")
        .and_then(Value::as_object);
    let Some(caps) = caps else {
        assert_eq!(
            (elicitation, sampling, roots),
            (Capability::NONE, false, false)
        );
        return;
    };
    assert_eq!(sampling, caps.get("sampling").is_some_and(|v| !v.is_null()));
    assert_eq!(roots, caps.get("roots").is_some_and(|v| !v.is_null()));
    if let Ok(cap) = Capability::from_value(caps.get("elicitation")) {
        assert_eq!(elicitation, cap);
    } else {
        assert_eq!(
            elicitation,
            Capability::NONE,
            "a malformed capability declared something"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    client_reads(&value);
    if let Some(map) = value.as_object() {
        meta_reads(map);
        if let Some(Value::Object(meta)) = map.get("_meta") {
            meta_reads(meta);
        }
    }
    if let Ok(params) = serde_json::from_value::<CallToolRequestParams>(value.clone()) {
        if let Some(responses) = &params.input_responses {
            server_reads(&responses.clone().into_iter().collect());
        }
    }
    let _ = serde_json::from_value::<GetPromptRequestParams>(value.clone());
    let _ = serde_json::from_value::<ReadResourceRequestParams>(value.clone());
    if let Some(responses) = value.get("inputResponses").and_then(Value::as_object) {
        server_reads(responses);
    }
    let _ = serde_json::from_value::<ClientJsonRpcMessage>(value);
});
