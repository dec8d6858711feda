//! rmcp's typed form of a round's exact input requests ([`typed_request`]), which
//! [`InputRound::to_result`](crate::InputRound::to_result) builds for every round a
//! handler stops with.

// Sampling and roots are deprecated in rmcp (SEP-2577), but a round may still carry them.
#[allow(deprecated)]
use rmcp::model::{CreateMessageRequest, ElicitRequest, InputRequest, ListRootsRequest};
use serde::Deserialize;
use serde_json::Value;

/// rmcp's typed form of one exact input request, `None` when rmcp's model cannot read it.
///
/// The same as deserializing rmcp's untagged `InputRequest` from a copy of the value, at
/// a fraction of the cost: the variant is picked by `method` (the untagged enum buffers
/// the whole request and tries each variant in turn, and the variants' method types
/// only accept their own method) and read from the borrowed value.
#[allow(deprecated)]
pub(crate) fn typed_request(request: &Value) -> Option<InputRequest> {
    match request.get("method").and_then(Value::as_str) {
        Some("elicitation/create") => ElicitRequest::deserialize(request)
            .ok()
            .map(InputRequest::Elicitation),
        Some("sampling/createMessage") => CreateMessageRequest::deserialize(request)
            .ok()
            .map(InputRequest::CreateMessage),
        Some("roots/list") => ListRootsRequest::deserialize(request)
            .ok()
            .map(InputRequest::ListRoots),
        _ => InputRequest::deserialize(request).ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// What rmcp's untagged enum makes of it (what `to_result` did before).
    fn untagged(request: &Value) -> Option<InputRequest> {
        serde_json::from_value(request.clone()).ok()
    }

    #[test]
    fn picks_the_same_variant_and_reads_the_same_as_rmcps_untagged_enum() {
        let schema = json!({"type": "object", "properties": {
            "name": {"type": "string", "minLength": 1, "pattern": "^[A-Z]"},
            "age": {"type": "integer", "minimum": 0},
            "plan": {"type": "string", "oneOf": [{"const": "a", "title": "A"}]},
            "tags": {"type": "array", "items": {"type": "string", "enum": ["x", "y"]}},
            "ok": {"type": "boolean", "default": true}},
            "required": ["name"]});
        let cases = [
            json!({"method": "elicitation/create", "params": {
                "mode": "form", "message": "Who?", "requestedSchema": schema}}),
            // No mode: form, as 2025-06-18 clients send it.
            json!({"method": "elicitation/create", "params": {
                "message": "Who?", "requestedSchema": {"type": "object", "properties": {}}}}),
            json!({"method": "elicitation/create", "params": {
                "mode": "url", "message": "Sign in", "url": "https://example.com/connect"}}),
            json!({"method": "sampling/createMessage", "params": {
                "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}],
                "maxTokens": 10}}),
            json!({"method": "roots/list"}),
            json!({"method": "roots/list", "params": {}}),
            // What rmcp cannot read: the same None either way.
            json!({"method": "elicitation/create", "params": {"mode": "form"}}),
            json!({"method": "elicitation/create", "params": {
                "mode": "form", "message": "Nested", "requestedSchema": {"type": "object",
                "properties": {"a": {"type": "object"}}}}}),
            json!({"method": "sampling/createMessage", "params": {}}),
            json!({"method": "ping"}),
            json!({"method": 7}),
            json!({"params": {}}),
            json!("elicitation/create"),
            Value::Null,
        ];
        for case in cases {
            let fast = typed_request(&case);
            let slow = untagged(&case);
            assert_eq!(fast.is_some(), slow.is_some(), "{case}");
            assert_eq!(
                fast.map(|r| serde_json::to_value(r).expect("serializes")),
                slow.map(|r| serde_json::to_value(r).expect("serializes")),
                "{case}"
            );
        }
    }
}
