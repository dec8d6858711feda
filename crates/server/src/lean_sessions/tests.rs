//! The lean session layer driven from both sides: the HTTP side through the
//! `SessionManager` calls rmcp's service makes, the handler's side through the
//! transport (what rmcp's service loop does with it), with real JSON-RPC messages.

use std::time::Duration;

use futures::{Stream, StreamExt};
use rmcp::model::{GetExtensions, RequestId};
use rmcp::service::OriginatingRequestId;
use rmcp::transport::Transport;
use serde_json::{Value, json};

use super::*;

fn client(v: Value) -> ClientJsonRpcMessage {
    serde_json::from_value(v).expect("a client message")
}

fn server(v: Value) -> ServerJsonRpcMessage {
    serde_json::from_value(v).expect("a server message")
}

fn initialize(id: i64) -> ClientJsonRpcMessage {
    client(
        json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}}),
    )
}

fn call(id: i64) -> ClientJsonRpcMessage {
    client(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "x", "arguments": {}}}))
}

fn result(id: i64, text: &str) -> ServerJsonRpcMessage {
    server(json!({"jsonrpc": "2.0", "id": id, "result": {
        "content": [{"type": "text", "text": text}]}}))
}

/// Our `elicitation/create`, sent while serving request `origin`.
fn elicit(id: i64, origin: i64) -> ServerJsonRpcMessage {
    let mut m = server(
        json!({"jsonrpc": "2.0", "id": id, "method": "elicitation/create",
        "params": {"mode": "url", "message": "m", "url": "https://example.com/", "elicitationId": "e"}}),
    );
    if let JsonRpcMessage::Request(r) = &mut m {
        r.request
            .extensions_mut()
            .insert(OriginatingRequestId(RequestId::Number(origin)));
    }
    m
}

fn notice(text: &str) -> ServerJsonRpcMessage {
    server(json!({"jsonrpc": "2.0", "method": "notifications/message",
        "params": {"level": "info", "data": text}}))
}

const WAIT: Duration = Duration::from_secs(2);

/// The next event of `s` within a short wait: (event id, the message's JSON or None).
async fn next<S: Stream<Item = ServerSseMessage> + Unpin>(
    s: &mut S,
) -> Option<(Option<String>, Option<Value>)> {
    let event = tokio::time::timeout(WAIT, s.next())
        .await
        .expect("an event or the end within 2 s")?;
    let message = event
        .message
        .as_ref()
        .map(|m| serde_json::to_value(m.as_ref()).expect("json"));
    Some((event.event_id, message))
}

/// Nothing arrives within 100 ms.
async fn quiet<S: Stream<Item = ServerSseMessage> + Unpin>(s: &mut S) {
    let got = tokio::time::timeout(Duration::from_millis(100), s.next()).await;
    assert!(
        got.is_err(),
        "expected no event, got {:?}",
        got.map(|e| e.map(|e| e.event_id))
    );
}

async fn receive(t: &mut LeanTransport) -> ClientJsonRpcMessage {
    tokio::time::timeout(WAIT, t.receive())
        .await
        .expect("the handler gets a message within 2 s")
        .expect("a message, not the end")
}

/// A session past `initialize`; the handler's transport.
async fn open(m: &LeanSessionManager) -> (SessionId, LeanTransport) {
    let (id, mut t) = m.create_session().await.expect("session");
    let answer = {
        let init = m.initialize_session(&id, initialize(0));
        tokio::pin!(init);
        let got = tokio::select! {
            got = receive(&mut t) => got,
            _ = &mut init => panic!("initialize answered before the handler saw it"),
        };
        let JsonRpcMessage::Request(r) = got else {
            panic!("initialize expected")
        };
        assert_eq!(r.id, RequestId::Number(0));
        let _ = t.send(result(0, "init")).await;
        tokio::time::timeout(WAIT, init)
            .await
            .expect("answered")
            .expect("ok")
    };
    let JsonRpcMessage::Response(r) = answer else {
        panic!("the initialize answer, got {answer:?}")
    };
    assert_eq!(r.id, RequestId::Number(0));
    (id, t)
}

#[tokio::test]
async fn a_call_with_an_elicitation_goes_out_on_its_stream_and_ends_with_the_answer() {
    let m = LeanSessionManager::default();
    let (id, mut t) = open(&m).await;
    assert!(m.has_session(&id).await.expect("ok"));
    let mut stream = Box::pin(m.create_stream(&id, call(1)).await.expect("stream"));
    let (priming, message) = next(&mut stream).await.expect("the priming event");
    assert_eq!((priming.as_deref(), message), (Some("0/0"), None));
    assert!(matches!(receive(&mut t).await, JsonRpcMessage::Request(_)));
    // The elicitation rides the call's stream, not the standalone one.
    let mut get = Box::pin(m.create_standalone_stream(&id).await.expect("GET"));
    let _ = t.send(elicit(7, 1)).await;
    let (eid, message) = next(&mut stream).await.expect("the elicitation");
    assert_eq!(eid.as_deref(), Some("1/0"));
    assert_eq!(message.expect("a message")["method"], "elicitation/create");
    quiet(&mut get).await;
    // The client's answer reaches the handler without opening a stream.
    m.accept_message(
        &id,
        client(json!({"jsonrpc": "2.0", "id": 7, "result": {"action": "accept"}})),
    )
    .await
    .expect("accepted");
    assert!(matches!(receive(&mut t).await, JsonRpcMessage::Response(_)));
    let _ = t.send(result(1, "done")).await;
    let (eid, message) = next(&mut stream).await.expect("the result");
    assert_eq!(eid.as_deref(), Some("2/0"));
    assert_eq!(
        message.expect("a message")["result"]["content"][0]["text"],
        "done"
    );
    assert_eq!(
        next(&mut stream).await,
        None,
        "the stream ends with its answer"
    );
    // Notifications go on the standalone stream, numbered on their own.
    let _ = t.send(notice("hello")).await;
    let (eid, message) = next(&mut get).await.expect("the notice");
    assert_eq!(eid.as_deref(), Some("1"));
    assert_eq!(message.expect("a message")["params"]["data"], "hello");
}

#[tokio::test]
async fn a_dropped_stream_resumes_after_its_last_event_id_and_replays_after_the_answer() {
    let m = LeanSessionManager::default();
    let (id, mut t) = open(&m).await;
    let mut first = Box::pin(m.create_stream(&id, call(1)).await.expect("stream"));
    assert_eq!(
        next(&mut first).await.expect("priming").0.as_deref(),
        Some("0/0")
    );
    drop(first);
    let _ = receive(&mut t).await;
    // Sent while nobody reads: kept for the resumption.
    let _ = t.send(elicit(7, 1)).await;
    let mut resumed = Box::pin(m.resume(&id, "0/0".into()).await.expect("resumed"));
    let (eid, message) = next(&mut resumed).await.expect("the elicitation");
    assert_eq!(eid.as_deref(), Some("1/0"));
    assert_eq!(message.expect("a message")["method"], "elicitation/create");
    // A second resumption takes over: the first reader ends.
    let mut again = Box::pin(m.resume(&id, "1/0".into()).await.expect("resumed"));
    assert_eq!(next(&mut resumed).await, None);
    let _ = t.send(result(1, "done")).await;
    assert_eq!(
        next(&mut again).await.expect("the result").0.as_deref(),
        Some("2/0")
    );
    assert_eq!(next(&mut again).await, None);
    // After the answer, a late resumption replays what it missed, then ends.
    let mut late = Box::pin(m.resume(&id, "0/0".into()).await.expect("late"));
    assert_eq!(
        next(&mut late).await.expect("replay").0.as_deref(),
        Some("1/0")
    );
    assert_eq!(
        next(&mut late).await.expect("replay").0.as_deref(),
        Some("2/0")
    );
    assert_eq!(next(&mut late).await, None);
    // Ids of no stream of this session are refused (rmcp answers an empty stream).
    for bad in ["0/9", "x", "1/x"] {
        assert!(m.resume(&id, bad.into()).await.is_err(), "{bad}");
    }
}

#[tokio::test]
async fn the_standalone_stream_delivers_what_it_missed_once_and_a_second_get_is_a_shadow() {
    let m = LeanSessionManager::default();
    let (id, mut t) = open(&m).await;
    // Sent before any GET: delivered to the first one.
    let _ = t.send(notice("early")).await;
    let mut get = Box::pin(m.create_standalone_stream(&id).await.expect("GET"));
    let (eid, message) = next(&mut get).await.expect("the early notice");
    assert_eq!(eid.as_deref(), Some("1"));
    assert_eq!(message.expect("a message")["params"]["data"], "early");
    // A second GET while the first is open gets nothing but stays open.
    let mut shadow = Box::pin(m.create_standalone_stream(&id).await.expect("GET"));
    let _ = t.send(notice("second")).await;
    assert_eq!(
        next(&mut get).await.expect("notice").0.as_deref(),
        Some("2")
    );
    quiet(&mut shadow).await;
    drop(get);
    // A new GET after the first closed: only what nobody has read (nothing twice).
    let mut get = Box::pin(m.create_standalone_stream(&id).await.expect("GET"));
    quiet(&mut get).await;
    let _ = t.send(notice("third")).await;
    assert_eq!(
        next(&mut get).await.expect("notice").0.as_deref(),
        Some("3")
    );
    drop(get);
    // A resumed GET replays after its Last-Event-ID.
    let mut resumed = Box::pin(m.resume(&id, "1".into()).await.expect("resume"));
    assert_eq!(
        next(&mut resumed).await.expect("replay").0.as_deref(),
        Some("2")
    );
    assert_eq!(
        next(&mut resumed).await.expect("replay").0.as_deref(),
        Some("3")
    );
    // DELETE: every stream ends, the handler sees the end, the session is gone.
    m.close_session(&id).await.expect("closed");
    assert_eq!(next(&mut resumed).await, None);
    assert_eq!(next(&mut shadow).await, None);
    let end = tokio::time::timeout(WAIT, t.receive())
        .await
        .expect("the end");
    assert!(end.is_none());
    assert!(!m.has_session(&id).await.expect("ok"));
    let e = m
        .create_stream(&id, call(2))
        .await
        .err()
        .expect("no session");
    assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
    assert!(m.accept_message(&id, call(3)).await.is_err());
    assert!(m.is_empty());
}

#[tokio::test]
async fn the_handlers_end_ends_the_session_and_its_streams() {
    let m = LeanSessionManager::default();
    let (id, t) = open(&m).await;
    let mut stream = Box::pin(m.create_stream(&id, call(1)).await.expect("stream"));
    let _ = next(&mut stream).await;
    drop(t);
    assert_eq!(next(&mut stream).await, None);
    assert!(
        !m.has_session(&id).await.expect("ok"),
        "a closed session is not live"
    );
}

#[tokio::test]
async fn a_cancelled_request_ends_its_stream() {
    let m = LeanSessionManager::default();
    let (id, mut t) = open(&m).await;
    let mut stream = Box::pin(m.create_stream(&id, call(4)).await.expect("stream"));
    let _ = next(&mut stream).await;
    let _ = receive(&mut t).await;
    m.accept_message(
        &id,
        client(
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": 4}}),
        ),
    )
    .await
    .expect("accepted");
    assert_eq!(next(&mut stream).await, None);
    assert!(matches!(
        receive(&mut t).await,
        JsonRpcMessage::Notification(_)
    ));
}

#[tokio::test]
async fn a_session_idle_past_keep_alive_is_closed() {
    let config = LeanSessionConfig::default().with_keep_alive(Some(Duration::from_millis(200)));
    let m = LeanSessionManager::new(config);
    let (id, mut t) = open(&m).await;
    let (busy, _busy_t) = open(&m).await;
    for _ in 0..6 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let _ = m
            .accept_message(
                &busy,
                client(json!({"jsonrpc": "2.0", "method": "notifications/progress",
                "params": {"progressToken": 1, "progress": 1}})),
            )
            .await;
    }
    assert!(!m.has_session(&id).await.expect("ok"));
    assert!(
        tokio::time::timeout(WAIT, t.receive())
            .await
            .expect("end")
            .is_none()
    );
    assert!(
        m.has_session(&busy).await.expect("ok"),
        "a busy session stays"
    );
}

#[tokio::test]
async fn answered_streams_are_forgotten_past_their_replay_time_and_open_ones_stay() {
    let m = LeanSessionManager::new(LeanSessionConfig {
        completed_replay_ttl: Duration::ZERO,
        ..LeanSessionConfig::default()
    });
    let (id, mut t) = open(&m).await;
    // Answered while its reader is gone: only the replay time keeps it.
    let answered = m.create_stream(&id, call(1)).await.expect("stream");
    let _ = receive(&mut t).await;
    drop(answered);
    let _ = t.send(result(1, "one")).await;
    // The next request forgets the answered stream: its replay time is over.
    let open_stream = m.create_stream(&id, call(2)).await.expect("stream");
    let _ = receive(&mut t).await;
    assert!(m.resume(&id, "0/0".into()).await.is_err());
    // The stream of a request not answered yet stays, whatever its age.
    drop(open_stream);
    let mut resumed = Box::pin(m.resume(&id, "0/1".into()).await.expect("resumed"));
    let _ = t.send(result(2, "two")).await;
    let (eid, message) = next(&mut resumed).await.expect("the result");
    assert_eq!(eid.as_deref(), Some("1/1"));
    assert_eq!(
        message.expect("a message")["result"]["content"][0]["text"],
        "two"
    );
    assert_eq!(next(&mut resumed).await, None);
}

#[tokio::test]
async fn only_the_most_recent_answers_stay_replayable_unless_not_taken_yet() {
    let m = LeanSessionManager::new(LeanSessionConfig {
        completed_replay_max: 1,
        ..LeanSessionConfig::default()
    });
    let (id, mut t) = open(&m).await;
    // Answer 1 is never read (its reader went away); answers 2 and 3 are.
    let unread = m.create_stream(&id, call(1)).await.expect("stream");
    let _ = receive(&mut t).await;
    drop(unread);
    let _ = t.send(result(1, "one")).await;
    for n in [2, 3] {
        let mut read = Box::pin(m.create_stream(&id, call(n)).await.expect("stream"));
        let _ = receive(&mut t).await;
        let _ = t.send(result(n, "read")).await;
        while next(&mut read).await.is_some() {}
    }
    // The unread answer stays (for the replay time), the newest read one too; the read
    // one before it is forgotten.
    let mut one = Box::pin(m.resume(&id, "0/0".into()).await.expect("unread answer"));
    let (eid, message) = next(&mut one).await.expect("the answer");
    assert_eq!(eid.as_deref(), Some("1/0"));
    assert_eq!(
        message.expect("a message")["result"]["content"][0]["text"],
        "one"
    );
    assert!(m.resume(&id, "0/1".into()).await.is_err());
    assert!(m.resume(&id, "0/2".into()).await.is_ok());
}

mod hibernation;
