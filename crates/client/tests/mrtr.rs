//! 2026-07-28 `InputRequiredResult` rounds against a scripted server speaking raw JSON lines:
//! what each retry carries (requestState exactly, new ids, the answers of one round together),
//! "still waiting" after a URL step, and every malformed result a hostile server can send
//! (the call ends with a clear error, nothing is shown, nothing is sent).

mod common;

use std::sync::{Arc, Mutex};

use common::{ChannelOpener, TestUi, guard};
use mcp_elicit_client::rmcp::model::CallToolRequestParams;
use mcp_elicit_client::{
    CallError, Config, Connection, ElicitationClient, ElicitationUi, FormPolicy, FormResponse,
    ProtocolChoice, ScriptedUi, StallChoice, TransportIdentity, UrlDecision, UrlPolicy,
};
use mcp_elicit_core::message::Capability;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

type Calls = Arc<Mutex<Vec<Value>>>;

struct Hostile<U: ElicitationUi = TestUi> {
    client: ElicitationClient<U, ChannelOpener>,
    conn: Connection<U, ChannelOpener>,
    calls: Calls,
    cancels: Calls,
    opener: ChannelOpener,
}

/// A 2026-07-28 server over a duplex pipe: `server/discover` and `tools/list` are answered
/// plainly, the n-th `tools/call` (0-based) with `respond(n, params)` as its `result`.
async fn hostile<U, F>(ui: U, config: Config, respond: F) -> Hostile<U>
where
    U: ElicitationUi,
    F: Fn(usize, &Value) -> Value + Send + 'static,
{
    let (client_io, server_io) = tokio::io::duplex(1 << 22);
    let calls: Calls = Arc::default();
    let recorded = calls.clone();
    let cancels: Calls = Arc::default();
    let cancelled = cancels.clone();
    tokio::spawn(async move {
        let (r, mut w) = tokio::io::split(server_io);
        let mut lines = BufReader::new(r).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            let Ok(msg) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            let id = msg["id"].clone();
            if id.is_null() {
                if msg["method"] == "notifications/cancelled" {
                    cancelled.lock().unwrap().push(msg.clone());
                }
                continue;
            }
            let result = match msg["method"].as_str() {
                Some("server/discover") => json!({
                    "resultType": "complete", "ttlMs": 0, "cacheScope": "private",
                    "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}},
                    "serverInfo": {"name": "hostile", "version": "6.6.6"}
                }),
                Some("tools/call" | "prompts/get") => {
                    let n = {
                        let mut c = recorded.lock().unwrap();
                        c.push(msg.clone());
                        c.len() - 1
                    };
                    respond(n, &msg["params"])
                }
                _ => json!({"resultType": "complete"}),
            };
            if result.is_null() {
                continue; // never answered
            }
            let mut out = json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string();
            out.push('\n');
            if w.write_all(out.as_bytes()).await.is_err() {
                break;
            }
        }
    });
    let (opener, _opened) = ChannelOpener::new();
    let client = ElicitationClient::new(
        ui,
        opener.clone(),
        config.with_protocol(ProtocolChoice::V2026_07_28),
    );
    let (r, w) = tokio::io::split(client_io);
    let conn = guard(client.clone().connect_io(
        r,
        w,
        TransportIdentity::Other {
            description: "duplex".into(),
        },
    ))
    .await
    .expect("connect");
    Hostile {
        client,
        conn,
        calls,
        cancels,
        opener,
    }
}

impl<U: ElicitationUi> Hostile<U> {
    async fn call(&self) -> Result<Value, CallError> {
        let r = guard(
            self.client
                .call_tool(self.conn.peer(), CallToolRequestParams::new("t")),
        )
        .await?;
        Ok(serde_json::to_value(r).unwrap())
    }
    fn calls(&self) -> Vec<Value> {
        self.calls.lock().unwrap().clone()
    }
}

fn done(text: &str) -> Value {
    json!({"resultType": "complete", "content": [{"type": "text", "text": text}]})
}

fn form(message: &str, properties: Value) -> Value {
    json!({"method": "elicitation/create", "params": {
        "mode": "form", "message": message,
        "requestedSchema": {"type": "object", "properties": properties}
    }})
}

fn submit(v: Value) -> FormResponse {
    FormResponse::Submit(v.as_object().unwrap().clone())
}

#[tokio::test]
async fn request_state_is_echoed_exactly_with_a_new_id_and_the_meta() {
    let state = "  {\"sealed\":\"ä\\u0000\"}\n\t=?base64?x?= ";
    let ui = TestUi::default();
    ui.script_forms([submit(json!({"confirmed": true}))]);
    let h = hostile(ui.clone(), Config::default(), move |n, _| match n {
        0 => json!({"resultType": "input_required", "requestState": state,
            "inputRequests": {"confirm": form("Sure?", json!({"confirmed": {"type": "boolean"}}))}}),
        _ => done("ok"),
    })
    .await;
    let result = h.call().await.expect("call");
    assert_eq!(result["content"][0]["text"], "ok");
    let calls = h.calls();
    assert_eq!(calls.len(), 2);
    assert_ne!(calls[0]["id"], calls[1]["id"], "a retry is a new request");
    assert!(calls[0]["params"].get("requestState").is_none());
    assert!(calls[0]["params"].get("inputResponses").is_none());
    assert_eq!(calls[1]["params"]["requestState"], state);
    assert_eq!(
        calls[1]["params"]["inputResponses"],
        json!({"confirm": {"action": "accept", "content": {"confirmed": true}}})
    );
    for call in &calls {
        let meta = &call["params"]["_meta"];
        assert_eq!(
            meta["io.modelcontextprotocol/protocolVersion"],
            "2026-07-28"
        );
        assert!(meta["io.modelcontextprotocol/clientInfo"]["name"].is_string());
        assert!(
            meta["io.modelcontextprotocol/clientCapabilities"]["elicitation"]["form"].is_object()
        );
    }
    assert_eq!(ui.forms().len(), 1);
    assert_eq!(ui.forms()[0].request_id, "confirm");
}

#[tokio::test]
async fn no_state_sent_means_none_in_the_retry() {
    let ui = TestUi::default();
    ui.script_forms([FormResponse::Decline]);
    let h = hostile(ui, Config::default(), |n, _| match n {
        0 => json!({"resultType": "input_required",
            "inputRequests": {"c": form("?", json!({"x": {"type": "string"}}))}}),
        _ => done("ok"),
    })
    .await;
    h.call().await.expect("call");
    let calls = h.calls();
    assert!(calls[1]["params"].get("requestState").is_none());
    assert_eq!(
        calls[1]["params"]["inputResponses"],
        json!({"c": {"action": "decline"}})
    );
}

#[tokio::test]
async fn several_requests_are_one_overview_answered_together() {
    let ui = TestUi::default();
    ui.script_forms([submit(json!({"name": "Ada"})), FormResponse::Decline]);
    let h = hostile(ui.clone(), Config::default(), |n, _| match n {
        0 => json!({"resultType": "input_required", "requestState": "s", "inputRequests": {
            "a": form("Name?", json!({"name": {"type": "string", "title": "Your name"}})),
            "b": form("Age?", json!({"age": {"type": "integer"}}))
        }}),
        _ => done("ok"),
    })
    .await;
    h.call().await.expect("call");
    let overviews = ui.0.input_overviews.lock().unwrap().clone();
    assert_eq!(overviews.len(), 1);
    assert_eq!(overviews[0].steps.len(), 2);
    assert_eq!(overviews[0].tool, "t");
    let calls = h.calls();
    assert_eq!(calls.len(), 2, "both answers go in one retry");
    assert_eq!(
        calls[1]["params"]["inputResponses"],
        json!({"a": {"action": "accept", "content": {"name": "Ada"}}, "b": {"action": "decline"}})
    );
}

#[tokio::test]
async fn cancelling_the_overview_ends_the_call_without_sending() {
    let ui = TestUi::default();
    ui.0.overview_script
        .lock()
        .unwrap()
        .push_back(mcp_elicit_client::OverviewChoice::Cancel);
    let h = hostile(ui.clone(), Config::default(), |_, _| {
        json!({"resultType": "input_required", "inputRequests": {
            "a": form("A", json!({"x": {"type": "string"}})),
            "b": form("B", json!({"y": {"type": "string"}}))
        }})
    })
    .await;
    assert!(matches!(h.call().await, Err(CallError::Abandoned)));
    assert_eq!(h.calls().len(), 1);
    assert!(ui.forms().is_empty());
}

#[tokio::test]
async fn a_dismissed_step_cancels_the_rest_of_its_round() {
    let ui = TestUi::default();
    ui.script_forms([FormResponse::Cancel]);
    let h = hostile(ui.clone(), Config::default(), |n, _| match n {
        0 => json!({"resultType": "input_required", "inputRequests": {
            "a": form("A", json!({"x": {"type": "string"}})),
            "b": form("B", json!({"y": {"type": "string"}}))
        }}),
        _ => done("ok"),
    })
    .await;
    h.call().await.expect("call");
    assert_eq!(ui.forms().len(), 1, "the second step is not shown");
    assert_eq!(
        h.calls()[1]["params"]["inputResponses"],
        json!({"a": {"action": "cancel"}, "b": {"action": "cancel"}})
    );
}

#[tokio::test]
async fn still_waiting_after_a_url_step_asks_at_once() {
    let ui = TestUi::default();
    ui.script_urls([UrlDecision::Open]);
    ui.script_stalls([StallChoice::RetryNow]);
    let h = hostile(ui.clone(), Config::default(), |n, _| match n {
        0 => json!({"resultType": "input_required", "requestState": "w1", "inputRequests": {
            "login": {"method": "elicitation/create", "params": {
                "mode": "url", "message": "Sign in", "url": "https://example.com/login"}}
        }}),
        1 => json!({"resultType": "input_required", "requestState": "w2"}),
        _ => done("signed in"),
    })
    .await;
    let result = h.call().await.expect("call");
    assert_eq!(result["content"][0]["text"], "signed in");
    assert_eq!(h.opener.opened(), vec!["https://example.com/login"]);
    let stalls = ui.0.stalls.lock().unwrap().clone();
    assert_eq!(
        stalls.len(),
        1,
        "asked once, right after the still-waiting answer"
    );
    assert_eq!(stalls[0].pending, vec!["https://example.com/login"]);
    let calls = h.calls();
    assert_eq!(calls.len(), 3);
    assert_eq!(
        calls[1]["params"]["inputResponses"],
        json!({"login": {"action": "accept"}})
    );
    assert_eq!(calls[2]["params"]["requestState"], "w2");
    assert!(calls[2]["params"].get("inputResponses").is_none());
    let urls = ui.urls();
    assert_eq!(urls.len(), 1);
    assert_eq!(
        urls[0].analysis.registrable_domain.as_deref(),
        Some("example.com")
    );
}

#[tokio::test]
async fn cancel_while_still_waiting_ends_the_call() {
    let ui = TestUi::default();
    ui.script_urls([UrlDecision::Open]);
    ui.script_stalls([StallChoice::Cancel]);
    let h = hostile(ui, Config::default(), |n, _| match n {
        0 => json!({"resultType": "input_required", "requestState": "w1", "inputRequests": {
            "login": {"method": "elicitation/create", "params": {
                "mode": "url", "message": "Sign in", "url": "https://example.com/login"}}
        }}),
        _ => json!({"resultType": "input_required", "requestState": "w2"}),
    })
    .await;
    assert!(matches!(h.call().await, Err(CallError::Abandoned)));
    assert_eq!(h.calls().len(), 2);
}

#[tokio::test]
async fn endless_rounds_are_bounded() {
    let ui = TestUi::default();
    let config = Config::default().with_max_input_rounds(3);
    let h = hostile(
        ui,
        config,
        |n, _| json!({"resultType": "input_required", "requestState": format!("round-{n}")}),
    )
    .await;
    let err = h.call().await.expect_err("bounded");
    assert!(
        matches!(err, CallError::InputRoundsExhausted { rounds: 3 }),
        "{err}"
    );
    assert_eq!(h.calls().len(), 4, "the first request and three retries");
}

/// Every malformed result ends the call with an error naming the problem; nothing is shown
/// and no retry (no answer) is sent.
#[tokio::test]
async fn malformed_results_end_the_call_and_send_nothing() {
    let many: serde_json::Map<String, Value> = (0..300)
        .map(|i| (format!("q{i}"), form("?", json!({"x": {"type": "string"}}))))
        .collect();
    let cases: Vec<(Value, &str)> = vec![
        (
            json!({"resultType": "bogus"}),
            "unknown resultType \"bogus\"",
        ),
        (
            json!({"resultType": ["input_required"]}),
            "resultType is not a string",
        ),
        (
            json!({"resultType": "input_required", "inputRequests": {"a": "text"}}),
            "inputRequests.\"a\" is not an object",
        ),
        (
            json!({"resultType": "input_required", "inputRequests": [form("?", json!({}))]}),
            "inputRequests is not an object",
        ),
        (
            json!({"resultType": "input_required", "inputRequests": many}),
            "300 input requests",
        ),
        (
            json!({"resultType": "input_required", "requestState": "x".repeat(200 * 1024)}),
            "requestState is 204800 bytes",
        ),
        (
            json!({"resultType": "input_required", "requestState": {"not": "a string"}}),
            "requestState is not a string",
        ),
        (
            json!({"resultType": "input_required", "inputRequests": {"s": {"method": "sampling/createMessage",
                "params": {"messages": [], "maxTokens": 5}}}}),
            "sampling/createMessage, which this client did not declare",
        ),
        (
            json!({"resultType": "input_required", "inputRequests": {"r": {"method": "roots/list"}}}),
            "roots/list, which this client did not declare",
        ),
        (
            json!({"resultType": "input_required", "inputRequests": {"n": form("?",
                json!({"address": {"type": "object", "properties": {"city": {"type": "string"}}}}))}}),
            "\"n\"",
        ),
        (
            json!({"resultType": "input_required", "inputRequests": {"p": {"method": "ping"}}}),
            "unknown method \"ping\"",
        ),
        (
            json!({"resultType": "input_required"}),
            "inputRequests or requestState",
        ),
    ];
    for (result, needle) in cases {
        let ui = TestUi::default();
        let sent = result.clone();
        let h = hostile(ui.clone(), Config::default(), move |_, _| sent.clone()).await;
        let err = h.call().await.expect_err("malformed");
        let text = err.to_string();
        assert!(text.contains(needle), "{needle:?} not in {text:?}");
        assert!(text.contains("nothing was sent"), "{text}");
        assert_eq!(h.calls().len(), 1, "no retry for {needle}");
        assert!(ui.forms().is_empty() && ui.urls().is_empty(), "{needle}");
    }
}

#[tokio::test]
async fn an_undeclared_mode_ends_the_call() {
    let ui = TestUi::with_modes(Capability {
        form: true,
        url: false,
    });
    let h = hostile(ui.clone(), Config::default(), |_, _| {
        json!({"resultType": "input_required", "inputRequests": {"u": {"method": "elicitation/create",
            "params": {"mode": "url", "message": "m", "url": "https://example.com/"}}}})
    })
    .await;
    let err = h.call().await.expect_err("undeclared");
    assert!(
        matches!(&err, CallError::InputRequestRefused { key, .. } if key == "u"),
        "{err}"
    );
    assert!(
        err.to_string().contains("did not declare url mode"),
        "{err}"
    );
    assert_eq!(h.calls().len(), 1);
    assert!(ui.urls().is_empty());
}

#[tokio::test]
async fn invalid_answers_are_never_sent() {
    let ui = TestUi::default();
    // Too short twice, then fine: only the valid answer reaches the server.
    ui.script_forms([
        submit(json!({"code": "a"})),
        submit(json!({"code": "b"})),
        submit(json!({"code": "abcd"})),
    ]);
    let h = hostile(ui.clone(), Config::default(), |n, _| match n {
        0 => json!({"resultType": "input_required", "inputRequests": {
            "f": form("Code?", json!({"code": {"type": "string", "minLength": 3}}))}}),
        _ => done("ok"),
    })
    .await;
    h.call().await.expect("call");
    assert_eq!(ui.forms().len(), 3);
    assert!(!ui.forms()[1].errors.is_empty());
    assert_eq!(
        h.calls()[1]["params"]["inputResponses"]["f"],
        json!({"action": "accept", "content": {"code": "abcd"}})
    );
}

/// `--respond @ANSWERS.json`: one object answers each question of a round by its property
/// names; an entry named like an input request's key answers that request alone.
#[tokio::test]
async fn scripted_answers_go_to_the_right_question() {
    let round = || {
        json!({"resultType": "input_required", "inputRequests": {
            "who": form("Name?", json!({"name": {"type": "string"}})),
            "size": form("Size?", json!({"size": {"type": "string", "enum": ["s", "m", "l"], "default": "m"},
                "count": {"type": "integer", "default": 1}})),
            "shipping": form("Ship to?", json!({"name": {"type": "string", "default": "same"}}))
        }})
    };
    let answers = json!({"name": "Ada", "count": 3, "shipping": {"name": "Bob"}});
    let ui = ScriptedUi::new(
        Capability {
            form: true,
            url: true,
        },
        FormPolicy::answers_from_json(&answers).unwrap(),
        UrlPolicy::Never,
    )
    .with_sink(|_| {});
    let h = hostile(ui, Config::default(), move |n, _| match n {
        0 => round(),
        _ => done("ok"),
    })
    .await;
    h.call().await.expect("call");
    assert_eq!(
        h.calls()[1]["params"]["inputResponses"],
        json!({
            "who": {"action": "accept", "content": {"name": "Ada"}},
            "size": {"action": "accept", "content": {"size": "m", "count": 3}},
            "shipping": {"action": "accept", "content": {"name": "Bob"}}
        })
    );
    assert!(h.client.ui().failures().is_empty());
}

/// Dropping a call whose round is in flight sends `notifications/cancelled` for it.
#[tokio::test]
async fn an_abandoned_round_is_cancelled_on_the_server() {
    let ui = TestUi::default();
    ui.script_forms([FormResponse::Decline]);
    let h = hostile(ui, Config::default(), |n, _| match n {
        0 => json!({"resultType": "input_required", "requestState": "s",
            "inputRequests": {"c": form("?", json!({"x": {"type": "string"}}))}}),
        _ => Value::Null,
    })
    .await;
    let mut call = Box::pin(h.call());
    // Let the retry go out, then give up on it.
    loop {
        tokio::select! {
            r = &mut call => panic!("the retry was never answered: {r:?}"),
            () = tokio::task::yield_now() => {}
        }
        if h.calls().len() == 2 {
            break;
        }
    }
    drop(call);
    let retry_id = h.calls()[1]["id"].clone();
    guard(async {
        loop {
            if h.cancels
                .lock()
                .unwrap()
                .iter()
                .any(|c| c["params"]["requestId"] == retry_id)
            {
                break;
            }
            tokio::task::yield_now().await;
        }
    })
    .await;
}

/// A wizard of more rounds than the rate limit's burst, each answered, is not refused.
#[tokio::test]
async fn a_long_wizard_answered_step_by_step_is_not_rate_limited() {
    let ui = TestUi::default();
    ui.script_forms((0..8).map(|i| submit(json!({"step": i}))));
    let h = hostile(ui.clone(), Config::default(), |n, _| {
        if n < 8 {
            json!({"resultType": "input_required", "requestState": format!("step-{n}"),
                "inputRequests": {"s": form("Next?", json!({"step": {"type": "integer"}}))}})
        } else {
            done("finished")
        }
    })
    .await;
    let result = h.call().await.expect("not rate limited");
    assert_eq!(result["content"][0]["text"], "finished");
    assert_eq!(ui.forms().len(), 8);
}

/// `prompts/get` takes input rounds too.
#[tokio::test]
async fn a_prompt_can_require_input() {
    let ui = TestUi::default();
    ui.script_forms([submit(json!({"topic": "rust"}))]);
    let h = hostile(ui, Config::default(), |n, params| match n {
        0 => json!({"resultType": "input_required", "requestState": "p",
            "inputRequests": {"t": form("Topic?", json!({"topic": {"type": "string"}}))}}),
        _ => json!({"resultType": "complete", "messages": [{"role": "user", "content": {
            "type": "text", "text": params["inputResponses"]["t"]["content"]["topic"]}}]}),
    })
    .await;
    let prompt = guard(h.client.get_prompt(
        h.conn.peer(),
        mcp_elicit_client::rmcp::model::GetPromptRequestParams::new("p"),
    ))
    .await
    .expect("prompt");
    let prompt = serde_json::to_value(prompt).unwrap();
    assert_eq!(prompt["messages"][0]["content"]["text"], "rust");
    let calls = h.calls();
    assert_eq!(calls[1]["method"], "prompts/get");
    assert_eq!(calls[1]["params"]["requestState"], "p");
}
