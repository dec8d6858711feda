//! Error replies to server requests that rmcp cannot parse.
//!
//! rmcp drops an incoming message it cannot type (on stdio and on SSE streams alike). For
//! a *request* that means the server's call waits for an answer that never comes. JSON-RPC
//! says such a request gets an error response, so the transports of this crate look at
//! every message rmcp would drop and answer the requests among them:
//!
//! - `elicitation/create` whose envelope is fine but whose params are not an object:
//!   -32602 (Invalid params) with the reason and `data.errors`, as for any malformed
//!   elicitation ([`crate::ElicitationClient`]);
//! - anything else that has a `method` and an `id` (wrong `jsonrpc`, `method` not a string,
//!   an `id` that is neither a string nor an integer, params that are not an object, a
//!   JSON-RPC batch...): -32600 (Invalid Request) with the parse error.
//!
//! The reply carries the request's id when it can be read, and no id otherwise (as the
//! 2025-11-25 schema allows for an error whose request id is unknown). Notifications,
//! responses and lines that are not JSON get no reply.

use mcp_elicit_core::message::METHOD_CREATE;
use rmcp::model::{
    CustomNotification, CustomRequest, CustomResult, ErrorCode, ErrorData, JsonRpcError,
    JsonRpcMessage, RequestId, ServerJsonRpcMessage,
};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::create::malformed_params;
use crate::raw::RawRequests;

/// The error replies owed for one raw incoming message (a JSON value), empty when rmcp
/// can parse it or when it holds no request.
pub(crate) fn replies_for_value(message: &Value) -> Vec<JsonRpcError> {
    if reads_as_a_request(message) {
        return Vec::new();
    }
    match ServerJsonRpcMessage::deserialize(message) {
        Ok(_) => Vec::new(),
        Err(e) => unparsed(message, &e.to_string()),
    }
}

/// rmcp's server request types, with only the last of them: [`CustomRequest`], which
/// takes any `method` whose params are an object or absent. rmcp tries the known
/// requests first and this one last, each on the same buffered message, so whatever
/// this reads as a request, rmcp reads too.
#[derive(Deserialize)]
#[serde(untagged)]
enum AnyRequest {
    Custom(#[allow(dead_code)] CustomRequest),
}

/// Whether rmcp reads `message` as a request, found without its typed parse of the
/// known requests (for an `elicitation/create`, its whole schema): the common case, a
/// well-formed request, owes no reply. `false` leaves the answer to the full parse.
fn reads_as_a_request(message: &Value) -> bool {
    matches!(
        JsonRpcMessage::<AnyRequest, CustomResult, CustomNotification>::deserialize(message),
        Ok(JsonRpcMessage::Request(_))
    )
}

/// Whether a key is present, whatever its value (a `null` id counts).
#[derive(Default)]
struct Present(bool);

impl<'de> Deserialize<'de> for Present {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(d).map(|_| Present(true))
    }
}

/// One incoming SSE message, read once for both of its readers: `raw` (the exact
/// `elicitation/create` params and round results, [`RawRequests::observe`]) and, when
/// rmcp reads this event as a JSON-RPC message (`answerable`), the error replies owed
/// for a request rmcp cannot parse ([`replies_for_value`]). A small head (method, id,
/// the result's round markers) is read first; the whole message is built as a JSON value
/// only when one of them needs it, and then only once.
pub(crate) fn inspect(raw: &RawRequests, text: &str, answerable: bool) -> Vec<JsonRpcError> {
    #[derive(Deserialize)]
    struct Head {
        /// `Some(Null)` for `"method": null` (present, as the reply rules count it).
        #[serde(default, deserialize_with = "present")]
        method: Option<Value>,
        #[serde(default)]
        id: Present,
        result: Option<ResultHead>,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct ResultHead {
        result_type: Option<Value>,
        input_requests: Option<serde::de::IgnoredAny>,
        request_state: Option<serde::de::IgnoredAny>,
    }
    fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
        Value::deserialize(d).map(Some)
    }
    // A batch must not be read as a `Head` (serde would take an array for the struct's
    // fields in order): both readers look at it whole.
    let (for_raw, for_replies) = if text.trim_start().starts_with('[') {
        (true, answerable)
    } else {
        match serde_json::from_str::<Head>(text) {
            Ok(head) => (
                head.method.as_ref().and_then(Value::as_str) == Some(METHOD_CREATE)
                    || head.result.is_some_and(|r| {
                        r.input_requests.is_some()
                            || r.request_state.is_some()
                            || r.result_type.is_some_and(|t| t != "complete")
                    }),
                answerable && head.method.is_some() && head.id.0,
            ),
            // Not a JSON object, or one whose head is malformed: let the full parse decide.
            Err(_) => (true, answerable),
        }
    };
    if !for_raw && !for_replies {
        return Vec::new();
    }
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return Vec::new();
    };
    if for_raw {
        raw.observe(&value);
    }
    if for_replies {
        replies_for_value(&value)
    } else {
        Vec::new()
    }
}

/// Like [`replies_for_value`], from JSON text (an SSE `data` field). Text that is not
/// JSON, and objects without both `method` and `id`, are dismissed without being built.
#[cfg(test)]
pub(crate) fn replies_for_text(text: &str) -> Vec<JsonRpcError> {
    /// Which keys are present, whatever their values (a `null` id counts).
    #[derive(Deserialize)]
    struct Head {
        #[serde(default)]
        method: Present,
        #[serde(default)]
        id: Present,
    }
    // A batch deserves a look (and must not be read as a `Head`: serde would take an
    // array for the struct's fields in order).
    let look_closer = text.trim_start().starts_with('[')
        || match serde_json::from_str::<Head>(text) {
            Ok(head) => head.method.0 && head.id.0,
            // Not a JSON object: nothing to answer, but let the full parse decide.
            Err(_) => true,
        };
    if !look_closer {
        return Vec::new();
    }
    match serde_json::from_str::<Value>(text) {
        Ok(value) => replies_for_value(&value),
        Err(_) => Vec::new(),
    }
}

/// The replies for a message rmcp failed to parse with `parse_error`.
pub(crate) fn unparsed(message: &Value, parse_error: &str) -> Vec<JsonRpcError> {
    match message {
        Value::Array(batch) => batch
            .iter()
            .filter_map(Value::as_object)
            .filter(|m| is_request(m))
            .map(|m| {
                invalid_request(
                    request_id(m),
                    "JSON-RPC batches are not supported by MCP 2025-11-25; send each request on its own".into(),
                )
            })
            .collect(),
        Value::Object(m) if is_request(m) => vec![reply(m, parse_error)],
        _ => Vec::new(),
    }
}

/// A request, as opposed to a notification (no `id`) or a response (no `method`).
fn is_request(m: &Map<String, Value>) -> bool {
    m.contains_key("method") && m.contains_key("id")
}

fn request_id(m: &Map<String, Value>) -> Option<RequestId> {
    m.get("id").and_then(|id| RequestId::deserialize(id).ok())
}

fn invalid_request(id: Option<RequestId>, message: String) -> JsonRpcError {
    JsonRpcError::new(
        id,
        ErrorData::new(ErrorCode::INVALID_REQUEST, message, None),
    )
}

fn reply(m: &Map<String, Value>, parse_error: &str) -> JsonRpcError {
    let id = request_id(m);
    let problem = if m.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        Some("\"jsonrpc\" must be \"2.0\"".to_owned())
    } else if !m.get("method").is_some_and(Value::is_string) {
        Some("\"method\" must be a string".to_owned())
    } else if id.is_none() {
        Some("\"id\" must be a string or an integer".to_owned())
    } else if m.contains_key("result") || m.contains_key("error") {
        Some("a request cannot carry \"result\" or \"error\"".to_owned())
    } else {
        None
    };
    if let Some(problem) = problem {
        return invalid_request(id, format!("invalid request: {problem}"));
    }
    if m.get("method").and_then(Value::as_str) == Some(METHOD_CREATE) {
        let params = m.get("params").unwrap_or(&Value::Null);
        if let Err(errors) = crate::create::read_create_params(params) {
            return JsonRpcError::new(id, malformed_params(&errors));
        }
    }
    let data = json!({"method": m.get("method")});
    JsonRpcError::new(
        id,
        ErrorData::new(
            ErrorCode::INVALID_REQUEST,
            format!("invalid request: {parse_error}"),
            Some(data),
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::NumberOrString;

    fn one(v: Value) -> JsonRpcError {
        let mut replies = replies_for_text(&v.to_string());
        assert_eq!(replies.len(), 1, "{v} -> {replies:?}");
        replies.remove(0)
    }

    /// `inspect` gives exactly what the two readers give on their own, on every kind of
    /// message (it only reads each message once).
    #[test]
    fn one_read_gives_both_readers_what_they_got_on_their_own() {
        let messages = [
            json!({"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"m",
                "requestedSchema":{"type":"object","properties":{"a":{"type":"string","pattern":"^x$"}}}}}),
            json!({"jsonrpc":"2.0","id":2,"method":"elicitation/create","params":["x"]}),
            json!({"jsonrpc":"2.0","id":3,"method":null}),
            json!({"jsonrpc":"1.0","id":4,"method":"ping"}),
            json!({"jsonrpc":"2.0","id":5,"result":{"resultType":"input_required","requestState":"s"}}),
            json!({"jsonrpc":"2.0","id":6,"result":{"content":[]}}),
            json!({"jsonrpc":"2.0","id":7,"result":5}),
            json!({"jsonrpc":"2.0","method":"notifications/progress","params":{}}),
            json!([{"jsonrpc":"2.0","id":8,"method":"elicitation/create","params":{"message":"m"}}]),
            json!(42),
        ];
        for m in messages {
            let text = m.to_string();
            for answerable in [true, false] {
                let (alone, together) = (RawRequests::default(), RawRequests::default());
                alone.observe_str(&text);
                let expected = if answerable {
                    replies_for_text(&text)
                } else {
                    Vec::new()
                };
                let got = inspect(&together, &text, answerable);
                assert_eq!(
                    serde_json::to_value(&got).ok(),
                    serde_json::to_value(&expected).ok(),
                    "{text}"
                );
                for id in 1..=8 {
                    let id = NumberOrString::Number(id);
                    assert_eq!(together.take(&id), alone.take(&id), "{text}");
                    assert_eq!(together.take_result(&id), alone.take_result(&id), "{text}");
                }
            }
        }
    }

    /// The shortcut never claims a message rmcp would drop: over every combination of
    /// envelope members, well-formed and not, what it reads as a request rmcp reads as a
    /// request too (so no reply owed is skipped), and it does take the well-formed ones.
    #[test]
    fn the_shortcut_reads_as_requests_only_what_rmcp_reads_as_requests() {
        let form = json!({"mode": "form", "message": "m", "requestedSchema": {"type": "object",
            "properties": {"a": {"type": "string", "pattern": "^x$"}}}});
        let url = json!({"mode": "url", "message": "m", "url": "https://x.example/", "elicitationId": "e"});
        let jsonrpcs = [Some(json!("2.0")), Some(json!("1.0")), Some(json!(2)), None];
        let ids = [
            Some(json!(1)),
            Some(json!(-3)),
            Some(json!(u64::MAX)),
            Some(json!("s")),
            Some(json!(1.5)),
            Some(Value::Null),
            Some(json!({})),
            None,
        ];
        let methods = [
            Some(json!("elicitation/create")),
            Some(json!("ping")),
            Some(json!("sampling/createMessage")),
            Some(json!("x/custom")),
            Some(json!(42)),
            Some(Value::Null),
            None,
        ];
        let params = [
            None,
            Some(Value::Null),
            Some(json!({})),
            Some(json!({"message": "m"})),
            Some(form),
            Some(url),
            Some(json!({"mode": "form", "message": 5, "requestedSchema": []})),
            Some(json!(["x"])),
            Some(json!("x")),
            Some(json!({"_meta": 5})),
            Some(json!({"_meta": {"progressToken": 1}, "message": "m"})),
        ];
        let extras = [
            None,
            Some(("result", json!({}))),
            Some(("error", json!({"code": 1, "message": "m"}))),
            Some(("other", json!(true))),
        ];
        let (mut taken, mut checked) = (0, 0);
        for jsonrpc in &jsonrpcs {
            for id in &ids {
                for method in &methods {
                    for param in &params {
                        for extra in &extras {
                            let mut m = Map::new();
                            for (key, value) in [
                                ("jsonrpc", jsonrpc.clone()),
                                ("id", id.clone()),
                                ("method", method.clone()),
                                ("params", param.clone()),
                            ] {
                                if let Some(value) = value {
                                    m.insert(key.into(), value);
                                }
                            }
                            if let Some((key, value)) = extra {
                                m.insert((*key).into(), value.clone());
                            }
                            let message = Value::Object(m);
                            checked += 1;
                            if reads_as_a_request(&message) {
                                taken += 1;
                                assert!(
                                    matches!(
                                        ServerJsonRpcMessage::deserialize(&message),
                                        Ok(JsonRpcMessage::Request(_))
                                    ),
                                    "{message}"
                                );
                                assert!(replies_for_value(&message).is_empty(), "{message}");
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(checked, 4 * 8 * 7 * 11 * 4);
        assert!(taken > 0);
        let create = json!({"jsonrpc": "2.0", "id": 1, "method": "elicitation/create",
            "params": {"mode": "form", "message": "m", "requestedSchema": {"type": "object", "properties": {}}}});
        assert!(
            reads_as_a_request(&create),
            "the common case takes the shortcut"
        );
    }

    #[test]
    fn parseable_messages_and_non_requests_get_no_reply() {
        for v in [
            json!({"jsonrpc":"2.0","id":1,"method":"ping"}),
            json!({"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"m"}}),
            json!({"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":"x"}),
            json!({"jsonrpc":"2.0","id":1,"result":{}}),
            json!({"jsonrpc":"1.0","id":1,"result":{}}),
            json!(42),
        ] {
            assert!(replies_for_text(&v.to_string()).is_empty(), "{v}");
        }
        assert!(replies_for_text("not json {").is_empty());
    }

    #[test]
    fn elicitation_params_that_are_not_an_object_get_invalid_params() {
        let r =
            one(json!({"jsonrpc":"2.0","id":"e-1","method":"elicitation/create","params":["x"]}));
        assert_eq!(r.id, Some(NumberOrString::String("e-1".into())));
        assert_eq!(r.error.code, ErrorCode::INVALID_PARAMS);
        assert!(
            r.error
                .data
                .as_ref()
                .is_some_and(|d| d["errors"].is_array()),
            "{r:?}"
        );
    }

    #[test]
    fn broken_envelopes_get_invalid_request_with_the_id_when_readable() {
        let cases = [
            (
                json!({"jsonrpc":"1.0","id":7,"method":"elicitation/create","params":{}}),
                Some(NumberOrString::Number(7)),
                "jsonrpc",
            ),
            (
                json!({"jsonrpc":"2.0","id":8,"method":42}),
                Some(NumberOrString::Number(8)),
                "method",
            ),
            (
                json!({"jsonrpc":"2.0","id":{"n":1},"method":"elicitation/create","params":{}}),
                None,
                "id",
            ),
            (
                json!({"jsonrpc":"2.0","id":1.5,"method":"ping"}),
                None,
                "id",
            ),
            (
                json!({"jsonrpc":"2.0","id":null,"method":"ping"}),
                None,
                "id",
            ),
            (
                json!({"jsonrpc":"2.0","id":"p","method":"ping","params":"x"}),
                Some(NumberOrString::String("p".into())),
                "invalid request",
            ),
        ];
        for (v, id, needle) in cases {
            let r = one(v.clone());
            assert_eq!(r.id, id, "{v}");
            assert_eq!(r.error.code, ErrorCode::INVALID_REQUEST, "{v}");
            assert!(
                r.error.message.contains(needle),
                "{v} -> {}",
                r.error.message
            );
        }
    }

    #[test]
    fn a_batch_of_one_request_is_answered() {
        let v = json!([{"jsonrpc":"2.0","id":"only","method":"ping"}]);
        let r = one(v);
        assert_eq!(r.id, Some(NumberOrString::String("only".into())));
        assert_eq!(r.error.code, ErrorCode::INVALID_REQUEST);
    }

    #[test]
    fn each_request_of_a_batch_is_answered() {
        let v = json!([
            {"jsonrpc":"2.0","id":1,"method":"ping"},
            {"jsonrpc":"2.0","method":"notifications/x"},
            {"jsonrpc":"2.0","id":"b","method":"elicitation/create","params":{}}
        ]);
        let replies = replies_for_text(&v.to_string());
        let ids: Vec<_> = replies.iter().map(|r| r.id.clone()).collect();
        assert_eq!(
            ids,
            vec![
                Some(NumberOrString::Number(1)),
                Some(NumberOrString::String("b".into()))
            ]
        );
        assert!(
            replies
                .iter()
                .all(|r| r.error.code == ErrorCode::INVALID_REQUEST)
        );
    }
}
