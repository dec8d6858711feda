//! The front's one parse of a `tools/call` body, straight into rmcp's typed request.
//!
//! rmcp reads `JsonRpcRequest<CallToolRequest>` through two `#[serde(flatten)]`s (the
//! request beside `jsonrpc` and `id`, then the params beside `_meta`): serde buffers the
//! whole body as `Content`, then the params again, before anything is typed. Most of a
//! 2026-07-28 retry's bytes are in the params (the sealed `requestState`, the answers),
//! so they were read three times. Here the envelope is read once with the params left as
//! raw text, and the params once into a mirror of rmcp's `CallToolRequestParams`.
//!
//! It takes only what rmcp takes and reads the same way: both mirrors refuse a member they
//! do not know (rmcp ignores unknown params members; a body with one goes to rmcp), and a
//! duplicate member, as rmcp's derived readers do. What it builds is rmcp's own
//! [`CallToolRequest`] with the `_meta` in its extensions, as rmcp's reader puts it; the
//! tests compare both readers on every body they try.

use std::borrow::Cow;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, ClientJsonRpcMessage, ClientRequest, ClientResult,
    ElicitResult, ElicitationAction, InputResponses, JsonObject, JsonRpcRequest, JsonRpcResponse,
    JsonRpcVersion2_0, MetaObject, RequestId, RequestMetaObject,
};
use serde::Deserialize;
use serde_json::value::RawValue;

/// The four members a request may have (rmcp refuses one that also carries `result` or
/// `error`, and the front takes nothing else unusual either).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Envelope<'a> {
    #[serde(rename = "jsonrpc")]
    _jsonrpc: JsonRpcVersion2_0,
    id: RequestId,
    #[serde(borrow)]
    method: Cow<'a, str>,
    #[serde(borrow)]
    params: &'a RawValue,
}

/// rmcp's `CallToolRequestParams` as it reads them, `_meta` beside the rest.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Params {
    #[serde(rename = "_meta")]
    meta: Option<JsonObject>,
    name: String,
    arguments: Option<JsonObject>,
    input_responses: Option<InputResponses>,
    request_state: Option<String>,
}

/// The `tools/call` request in `bytes`, when it has exactly the members above; `None`
/// for anything else (rmcp then reads it, and refuses it or not, itself).
pub(crate) fn call_tool(bytes: &[u8]) -> Option<JsonRpcRequest<CallToolRequest>> {
    let envelope: Envelope<'_> = serde_json::from_slice(bytes).ok()?;
    if envelope.method != "tools/call" {
        return None;
    }
    let params: Params = serde_json::from_str(envelope.params.get()).ok()?;
    let mut typed = CallToolRequestParams::new(params.name);
    typed.arguments = params.arguments;
    typed.input_responses = params.input_responses;
    typed.request_state = params.request_state;
    let mut request = CallToolRequest::new(typed);
    if let Some(meta) = params.meta {
        request.extensions.insert(RequestMetaObject::from(meta));
    }
    Some(JsonRpcRequest::new(envelope.id, request))
}

/// [`call_tool`] for the fuzz targets (`mcp_elicit_server::fuzzing`).
#[cfg(fuzzing)]
pub fn fuzz_call_tool(bytes: &[u8]) -> Option<JsonRpcRequest<CallToolRequest>> {
    call_tool(bytes)
}

/// [`session_message`] for the fuzz targets (`mcp_elicit_server::fuzzing`).
#[cfg(fuzzing)]
pub fn fuzz_session_message(bytes: &[u8]) -> Option<ClientJsonRpcMessage> {
    session_message(bytes)
}

/// The key of the per-request revision in a request's `_meta` (2026-07-28).
const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";

/// A JSON-RPC response: the three members, the result left as raw text.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Answer<'a> {
    #[serde(rename = "jsonrpc")]
    _jsonrpc: JsonRpcVersion2_0,
    id: RequestId,
    #[serde(borrow)]
    result: &'a RawValue,
}

/// rmcp's `ElicitResult` as it reads it, and nothing else: without `model` and `roots`,
/// rmcp's first two result types (sampling, roots) cannot read it, so rmcp reads it as
/// this one.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Elicited {
    action: ElicitationAction,
    content: Option<serde_json::Value>,
    #[serde(rename = "_meta")]
    meta: Option<MetaObject>,
}

/// A message the front takes in a session (a revision before 2026-07-28), when `bytes`
/// are exactly one: a `tools/call` that names no per-request revision, or the answer to
/// an `elicitation/create`. `None` for anything else (rmcp reads it itself).
pub(crate) fn session_message(bytes: &[u8]) -> Option<ClientJsonRpcMessage> {
    // An answer has no `method`: read it as one first (a reader's refusal builds an error).
    if memchr::memmem::find(bytes, b"\"method\"").is_none() {
        return elicit_answer(bytes);
    }
    if let Some(call) = call_tool(bytes) {
        let per_request = call
            .request
            .extensions
            .get::<RequestMetaObject>()
            .is_some_and(|m| m.0.contains_key(META_PROTOCOL_VERSION));
        if per_request {
            return None;
        }
        return Some(ClientJsonRpcMessage::Request(JsonRpcRequest::new(
            call.id,
            ClientRequest::CallToolRequest(call.request),
        )));
    }
    elicit_answer(bytes)
}

/// The answer to an `elicitation/create` in `bytes`, when they are exactly one.
fn elicit_answer(bytes: &[u8]) -> Option<ClientJsonRpcMessage> {
    let answer: Answer<'_> = serde_json::from_slice(bytes).ok()?;
    let elicited: Elicited = serde_json::from_str(answer.result.get()).ok()?;
    let mut result = ElicitResult::new(elicited.action);
    result.content = elicited.content;
    result.meta = elicited.meta;
    Some(ClientJsonRpcMessage::Response(JsonRpcResponse {
        jsonrpc: JsonRpcVersion2_0,
        id: answer.id,
        result: ClientResult::ElicitResult(result),
    }))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::{Value, json};

    use super::*;

    /// rmcp's own reading of the same body.
    fn rmcp_reads(bytes: &[u8]) -> Option<JsonRpcRequest<CallToolRequest>> {
        serde_json::from_slice(bytes).ok()
    }

    /// Both readings as what they would send on and what the handler sees of `_meta`.
    fn seen(r: &JsonRpcRequest<CallToolRequest>) -> (Value, Value) {
        (
            serde_json::to_value(r).expect("a request serialises"),
            serde_json::to_value(r.request.extensions.get::<RequestMetaObject>())
                .expect("meta serialises"),
        )
    }

    /// Whatever the front reads, rmcp reads the same.
    fn agrees(text: &str) -> Result<bool, TestCaseError> {
        let ours = call_tool(text.as_bytes());
        if let Some(ours) = &ours {
            let theirs = rmcp_reads(text.as_bytes());
            prop_assert!(theirs.is_some(), "the front took what rmcp refuses: {text}");
            let theirs = theirs.expect("checked");
            prop_assert_eq!(seen(ours), seen(&theirs), "read differently: {}", text);
            prop_assert_eq!(&ours.id, &theirs.id);
        }
        Ok(ours.is_some())
    }

    const META: &str = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

    #[test]
    fn a_plain_call_and_a_retry_read_as_rmcp_reads_them() {
        let bodies = [
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"book","_meta":{META}}}}}"#
            ),
            format!(
                r#"{{"id":"a\u0062","method":"tools\/call","jsonrpc":"2.0","params":{{"_meta":{META},"name":"b\u00e9","arguments":{{"n":1.5e3,"big":18446744073709551615,"neg":-7,"s":"x\"y","a":[null,true,{{}}]}},"requestState":"s.t","inputResponses":{{"q":{{"action":"accept","content":{{"x":1}}}}}}}}}}"#
            ),
            // rmcp keeps the last of duplicate members inside `arguments`; so does the front.
            format!(
                r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"t","arguments":{{"k":1,"j":0,"k":2}},"_meta":{META}}}}}"#
            ),
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t","_meta":null,"arguments":null}}"#.to_owned(),
        ];
        for body in bodies {
            assert!(agrees(&body).expect("agrees"), "not taken: {body}");
        }
        let retry = call_tool(bodies_retry().as_bytes()).expect("taken");
        assert_eq!(retry.request.params.request_state.as_deref(), Some("s.t"));
        assert_eq!(
            retry
                .request
                .extensions
                .get::<RequestMetaObject>()
                .and_then(|m| m.0.get("io.modelcontextprotocol/protocolVersion")),
            Some(&json!("2026-07-28"))
        );
    }

    fn bodies_retry() -> String {
        format!(
            r#"{{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{{"name":"t","requestState":"s.t","_meta":{META}}}}}"#
        )
    }

    #[test]
    fn anything_unusual_is_left_to_rmcp() {
        for body in [
            // Another method, a stray member, a duplicate, a params member rmcp ignores,
            // a wrong version, no params, params not an object, a second `_meta`.
            r#"{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"t"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"},"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":{"name":"t"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","method":"tools/call","params":{"name":"t"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","task":{}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","name":"u"}}"#,
            r#"{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{"name":"t"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[]}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{},"_meta":{}}}"#,
            r#"{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"t"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}} x"#,
        ] {
            assert!(call_tool(body.as_bytes()).is_none(), "taken: {body}");
        }
    }

    /// Bodies put together from well-formed and odd parts, most of them requests the
    /// front takes.
    fn body() -> impl Strategy<Value = String> {
        let id = prop_oneof![
            Just("1".to_owned()),
            Just("\"x\"".to_owned()),
            Just("-3".to_owned()),
            Just("1.5".to_owned()),
            Just("null".to_owned()),
            Just("{}".to_owned()),
        ];
        let method = prop_oneof![
            4 => Just("\"tools/call\"".to_owned()),
            1 => Just("\"tools\\/call\"".to_owned()),
            1 => Just("\"tools/list\"".to_owned()),
            1 => Just("7".to_owned()),
        ];
        let odd = prop_oneof![
            Just("1".to_owned()),
            Just("-0.0".to_owned()),
            Just("1e400".to_owned()),
            Just("\"\\ud800\"".to_owned()),
            Just("[1,{\"a\":null}]".to_owned()),
            Just("null".to_owned()),
        ];
        let object = prop_oneof![
            Just("{}".to_owned()),
            Just("{\"k\":1,\"k\":2}".to_owned()),
            Just("{\"n\":1.5e3,\"s\":\"\\ud83d\\ude00\",\"a\":[null,true]}".to_owned()),
            Just(META.to_owned()),
        ];
        let string = prop_oneof![
            Just("\"t\"".to_owned()),
            Just("\"s.t\\u0041\"".to_owned()),
            Just("\"\"".to_owned()),
        ];
        // Each member: absent, well formed, or odd (a wrong type, a bad number or string).
        let member =
            |name: &'static str, good: BoxedStrategy<String>, odd: BoxedStrategy<String>| {
                prop_oneof![
                    2 => Just(Vec::new()),
                    6 => good.prop_map(move |v| vec![format!("\"{name}\":{v}")]),
                    1 => odd.prop_map(move |v| vec![format!("\"{name}\":{v}")]),
                ]
            };
        let params = (
            prop_oneof![
                12 => string.clone().prop_map(|v| vec![format!("\"name\":{v}")]),
                1 => Just(Vec::new()),
                1 => Just(vec!["\"name\":\"t\"".to_owned(), "\"name\":\"u\"".to_owned()]),
            ],
            member("arguments", object.clone().boxed(), odd.clone().boxed()),
            member("_meta", object.clone().boxed(), odd.clone().boxed()),
            member("requestState", string.boxed(), odd.clone().boxed()),
            member(
                "inputResponses",
                prop_oneof![
                    Just("{\"q\":{\"action\":\"decline\"}}".to_owned()),
                    Just("{\"q\":1,\"q\":{}}".to_owned()),
                ]
                .boxed(),
                odd.boxed(),
            ),
            prop_oneof![9 => Just(Vec::new()), 1 => Just(vec!["\"task\":{}".to_owned()])],
        )
            .prop_flat_map(|(a, b, c, d, e, f)| Just([a, b, c, d, e, f].concat()).prop_shuffle())
            .prop_map(|members| format!("{{{}}}", members.join(",")));
        let extra = prop_oneof![
            6 => Just(String::new()),
            1 => Just(",\"result\":{}".to_owned()),
            1 => Just(",\"id\":2".to_owned()),
        ];
        (id, method, params, extra, any::<bool>()).prop_map(|(id, method, params, extra, order)| {
            if order {
                format!(
                    r#"{{"jsonrpc":"2.0","id":{id},"method":{method},"params":{params}{extra}}}"#
                )
            } else {
                format!(
                    r#"{{"params":{params},"method":{method}{extra},"id":{id},"jsonrpc":"2.0"}}"#
                )
            }
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]
        #[test]
        fn the_front_reads_every_body_as_rmcp_does(text in body()) {
            agrees(&text)?;
        }
    }

    /// How many of 500 texts `strategy` generates (deterministically) `read` takes: a
    /// property test is only as good as its share of taken inputs.
    fn taken_of<T: Strategy<Value = String>>(strategy: T, read: impl Fn(&[u8]) -> bool) -> usize {
        use proptest::strategy::ValueTree;
        use proptest::test_runner::TestRunner;
        let mut runner = TestRunner::deterministic();
        (0..500)
            .filter(|_| {
                let text = strategy.new_tree(&mut runner).expect("a text").current();
                read(text.as_bytes())
            })
            .count()
    }

    #[test]
    fn the_generated_bodies_include_ones_the_front_takes() {
        let taken = taken_of(body(), |b| call_tool(b).is_some());
        assert!(
            taken > 50,
            "only {taken} of 500 generated bodies were taken"
        );
    }

    /// rmcp's reading of a message, as a session receives it.
    fn rmcp_reads_message(bytes: &[u8]) -> Option<ClientJsonRpcMessage> {
        serde_json::from_slice(bytes).ok()
    }

    /// Whatever the front reads in a session, rmcp reads the same, as the same kind.
    fn agrees_in_session(text: &str) -> Result<bool, TestCaseError> {
        let ours = session_message(text.as_bytes());
        if let Some(ours) = &ours {
            let theirs = rmcp_reads_message(text.as_bytes());
            prop_assert!(theirs.is_some(), "the front took what rmcp refuses: {text}");
            let theirs = theirs.expect("checked");
            let kind = |m: &ClientJsonRpcMessage| match m {
                ClientJsonRpcMessage::Request(r) => {
                    format!("request {:?}", std::mem::discriminant(&r.request))
                }
                ClientJsonRpcMessage::Response(r) => {
                    format!("response {:?}", std::mem::discriminant(&r.result))
                }
                _ => "other".to_owned(),
            };
            prop_assert_eq!(kind(ours), kind(&theirs), "another kind: {}", text);
            prop_assert_eq!(
                serde_json::to_value(ours).expect("json"),
                serde_json::to_value(&theirs).expect("json"),
                "read differently: {}",
                text
            );
        }
        Ok(ours.is_some())
    }

    #[test]
    fn in_a_session_a_call_and_an_answer_read_as_rmcp_reads_them() {
        for body in [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":1}}}"#,
            r#"{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"t","_meta":{"progressToken":3}}}"#,
            r#"{"jsonrpc":"2.0","id":0,"result":{"action":"accept","content":{"name":"Ada","n":1.5}}}"#,
            r#"{"result":{"action":"decline","_meta":{"k":"v"}},"id":"s-1","jsonrpc":"2.0"}"#,
            r#"{"jsonrpc":"2.0","id":2,"result":{"action":"cancel","content":null}}"#,
        ] {
            assert!(
                agrees_in_session(body).expect("agrees"),
                "not taken: {body}"
            );
        }
        for body in [
            // A call naming its own revision (2026-07-28's per-request path), a sampling
            // or roots result, an unknown action, a stray member, an error, another method.
            format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","_meta":{META}}}}}"#),
            r#"{"jsonrpc":"2.0","id":1,"result":{"action":"accept","model":"m","role":"assistant","content":{"type":"text","text":"x"}}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"result":{"action":"accept","roots":[]}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"result":{"action":"maybe"}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"result":{"action":"accept"},"error":{"code":1,"message":"m"}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.to_owned(),
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        ] {
            assert!(session_message(body.as_bytes()).is_none(), "taken: {body}");
        }
    }

    /// Answers put together from well-formed and odd parts.
    fn answer() -> impl Strategy<Value = String> {
        let id = prop_oneof![
            4 => Just("1".to_owned()),
            4 => Just("\"a\"".to_owned()),
            1 => Just("null".to_owned()),
            1 => Just("[]".to_owned()),
        ];
        let action = prop_oneof![
            3 => Just("\"accept\"".to_owned()),
            3 => Just("\"decline\"".to_owned()),
            3 => Just("\"cancel\"".to_owned()),
            1 => Just("\"Accept\"".to_owned()),
            1 => Just("1".to_owned()),
        ];
        let value = prop_oneof![
            3 => Just("{}".to_owned()),
            3 => Just("{\"a\":1,\"a\":\"b\",\"c\":[true,null,-0.5e-3]}".to_owned()),
            2 => Just("null".to_owned()),
            1 => Just("\"\\ud83d\\ude00\"".to_owned()),
            1 => Just("\"\\ud800\"".to_owned()),
            1 => Just("1e999".to_owned()),
        ];
        let member = |name: &'static str, v: BoxedStrategy<String>| {
            prop_oneof![
                1 => Just(Vec::new()),
                3 => v.prop_map(move |v| vec![format!("\"{name}\":{v}")]),
            ]
        };
        let result = (
            prop_oneof![
                8 => action.prop_map(|a| vec![format!("\"action\":{a}")]),
                1 => Just(Vec::new()),
            ],
            member("content", value.clone().boxed()),
            member("_meta", value.boxed()),
            prop_oneof![
                12 => Just(Vec::new()),
                1 => Just(vec!["\"model\":\"m\"".to_owned()]),
                1 => Just(vec!["\"roots\":[]".to_owned()]),
                1 => Just(vec!["\"action\":\"decline\"".to_owned()]),
            ],
        )
            .prop_flat_map(|(a, b, c, d)| Just([a, b, c, d].concat()).prop_shuffle())
            .prop_map(|members| format!("{{{}}}", members.join(",")));
        let extra = prop_oneof![
            8 => Just(String::new()),
            1 => Just(",\"error\":{}".to_owned()),
            1 => Just(",\"method\":\"x\"".to_owned()),
            1 => Just(",\"id\":3".to_owned()),
        ];
        (id, result, extra).prop_map(|(id, result, extra)| {
            format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{result}{extra}}}"#)
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]
        #[test]
        fn in_a_session_the_front_reads_every_answer_as_rmcp_does(text in answer()) {
            agrees_in_session(&text)?;
        }

        #[test]
        fn in_a_session_the_front_reads_every_call_as_rmcp_does(text in body()) {
            agrees_in_session(&text)?;
        }
    }

    #[test]
    fn the_generated_answers_include_ones_the_front_takes() {
        let taken = taken_of(answer(), |b| session_message(b).is_some());
        assert!(
            taken > 50,
            "only {taken} of 500 generated answers were taken"
        );
    }
}
