//! The baseline on 2026-07-28: no session; `server/discover`; `tools/call` answered first
//! with an `InputRequiredResult`, then (the retry with `inputResponses`) with the result.

use hyper::StatusCode;
use serde_json::{Value, json};

use super::{
    Message, error_bytes, json_response, requested_schema, response_bytes, result_text,
    tool_message, tool_result,
};

/// The revision this module speaks.
const REVISION: &str = "2026-07-28";
/// The key of the one input request.
const KEY: &str = "form";
/// The state echoed by the client. The baseline does not seal it (a real server signs
/// it, binding it to the user, tool and arguments): it is the floor.
const STATE: &str = "bare.asked=form";

/// A POST without a session.
pub(crate) fn post(message: &Message) -> hyper::Response<super::Body> {
    let Some(id) = &message.id else {
        return super::status(StatusCode::ACCEPTED);
    };
    let body = match message.method.as_deref() {
        Some("server/discover") => response_bytes(
            id,
            json!({
                "resultType": "complete",
                "supportedVersions": [REVISION],
                "capabilities": {"tools": {}},
                "ttlMs": 0,
                "cacheScope": "private",
                "_meta": {"io.modelcontextprotocol/serverInfo":
                    {"name": "bare-hyper-baseline", "version": "0.1.0"}}
            }),
        ),
        Some("tools/call") => match call(message.params.as_ref()) {
            Ok(result) => response_bytes(id, result),
            Err(e) => error_bytes(Some(id), -32602, &e),
        },
        Some("ping") => response_bytes(id, json!({"resultType": "complete"})),
        _ => error_bytes(Some(id), -32601, "method not found"),
    };
    json_response(StatusCode::OK, body)
}

/// One attempt of `tools/call test_elicitation`.
fn call(params: Option<&Value>) -> Result<Value, String> {
    let text = tool_message(params)?;
    let answer = params
        .and_then(|p| p.get("inputResponses"))
        .and_then(|r| r.get(KEY));
    let Some(answer) = answer else {
        return Ok(json!({
            "resultType": "input_required",
            "inputRequests": {KEY: {
                "method": "elicitation/create",
                "params": {"mode": "form", "message": text, "requestedSchema": requested_schema()}
            }},
            "requestState": STATE
        }));
    };
    let state = params
        .and_then(|p| p.get("requestState"))
        .and_then(Value::as_str);
    if state != Some(STATE) {
        return Err("the retry does not carry the request state".into());
    }
    Ok(tool_result(result_text(answer)?, Some("complete")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_attempt_asks_and_the_answered_retry_completes() {
        let first = json!({"name": "test_elicitation", "arguments": {"message": "hi"}});
        let asked = call(Some(&first)).unwrap_or_default();
        assert_eq!(asked["resultType"], "input_required");
        assert_eq!(asked["inputRequests"][KEY]["params"]["message"], "hi");
        let retry = json!({
            "name": "test_elicitation",
            "arguments": {"message": "hi"},
            "inputResponses": {KEY: {"action": "accept", "content": {"username": "a", "email": "a@x"}}},
            "requestState": asked["requestState"]
        });
        let done = call(Some(&retry)).unwrap_or_default();
        assert_eq!(done["resultType"], "complete");
        assert_eq!(
            done["content"][0]["text"],
            r#"User response: action=accept, content={"username":"a","email":"a@x"}"#
        );
    }

    #[test]
    fn a_retry_without_the_state_is_refused() {
        let retry = json!({
            "name": "test_elicitation",
            "arguments": {"message": "hi"},
            "inputResponses": {KEY: {"action": "accept", "content": {"username": "a", "email": "a@x"}}}
        });
        assert!(call(Some(&retry)).is_err());
    }
}
