//! Arbitrary bytes as the body of a POST to `/mcp`, read by the HTTP front's readers
//! (`HttpFront`: the stateless 2026-07-28 `tools/call`, and a session's `tools/call` and
//! answer to an `elicitation/create`).
//!
//! Nothing may panic, and the front may take only what rmcp reads the same way: whatever
//! either reader accepts, rmcp's own reading of the same bytes accepts too, as a message of
//! the same kind that serialises to the same JSON (with the same `_meta` for a call).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_elicit_server::fuzzing::{call_tool, session_message};
use mcp_elicit_server::rmcp::model::{
    CallToolRequest, ClientJsonRpcMessage, ClientRequest, ClientResult, JsonRpcRequest,
    RequestMetaObject,
};

fuzz_target!(|data: &[u8]| {
    if let Some(ours) = call_tool(data) {
        let theirs: JsonRpcRequest<CallToolRequest> =
            serde_json::from_slice(data).expect("the front took a call rmcp refuses");
        assert_eq!(
            serde_json::to_value(&ours).ok(),
            serde_json::to_value(&theirs).ok(),
            "a call read differently"
        );
        assert_eq!(
            ours.request.extensions.get::<RequestMetaObject>(),
            theirs.request.extensions.get::<RequestMetaObject>(),
            "a call's _meta read differently"
        );
    }
    if let Some(ours) = session_message(data) {
        let theirs: ClientJsonRpcMessage =
            serde_json::from_slice(data).expect("the front took a message rmcp refuses");
        let same_kind = matches!(
            (&ours, &theirs),
            (
                ClientJsonRpcMessage::Request(a),
                ClientJsonRpcMessage::Request(b)
            ) if matches!((&a.request, &b.request),
                (ClientRequest::CallToolRequest(_), ClientRequest::CallToolRequest(_)))
        ) || matches!(
            (&ours, &theirs),
            (
                ClientJsonRpcMessage::Response(a),
                ClientJsonRpcMessage::Response(b)
            ) if matches!((&a.result, &b.result),
                (ClientResult::ElicitResult(_), ClientResult::ElicitResult(_)))
        );
        assert!(same_kind, "rmcp reads the message as another kind");
        assert_eq!(
            serde_json::to_value(&ours).ok(),
            serde_json::to_value(&theirs).ok(),
            "a message read differently"
        );
    }
});
