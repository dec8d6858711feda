//! Sessions whose handler sleeps (`hibernate_after`): when they may, that the session
//! and its streams stay, that the next message wakes a handler that is given the
//! client's `initialize` first, and that nothing sent meanwhile is lost.

use rmcp::model::{ClientNotification, ClientRequest, ServerNotification};
use tokio::sync::mpsc;

use super::*;

/// A manager whose woken handlers' transports come out of the receiver.
fn manager() -> (LeanSessionManager, mpsc::UnboundedReceiver<LeanTransport>) {
    let m = LeanSessionManager::new(
        LeanSessionConfig::default().with_hibernate_after(Some(Duration::from_secs(3600))),
    );
    let (tx, rx) = mpsc::unbounded_channel();
    let respawn: Respawn = Arc::new(move |t| {
        let _ = tx.send(t);
    });
    assert!(m.inner.respawn.set(respawn).is_ok());
    (m, rx)
}

fn session(m: &LeanSessionManager, id: &SessionId) -> SessionRef {
    m.inner.get(id).expect("the session")
}

/// Puts the session's handler `t` to sleep: asked, its receive ends, it is dropped.
async fn put_to_sleep(m: &LeanSessionManager, id: &SessionId, mut t: LeanTransport) {
    assert!(
        session(m, id).try_hibernate(Duration::ZERO),
        "idle: may sleep"
    );
    let end = tokio::time::timeout(WAIT, t.receive())
        .await
        .expect("the handler's receive ends at once");
    assert!(end.is_none(), "told to leave, got {end:?}");
    drop(t);
    assert_eq!(m.asleep(), 1);
}

/// The handler's answer to the replayed `initialize`.
fn wake_answer() -> ServerJsonRpcMessage {
    server(
        json!({"jsonrpc": "2.0", "id": "mcp-elicit:wake", "result": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "serverInfo": {"name": "s", "version": "1"}}}),
    )
}

/// The woken handler's first messages: the replayed `initialize` (answered), then
/// `notifications/initialized`.
async fn replayed_handshake(t: &mut LeanTransport) {
    let JsonRpcMessage::Request(init) = receive(t).await else {
        panic!("initialize expected first")
    };
    let ClientRequest::InitializeRequest(params) = &init.request else {
        panic!("initialize expected, got {:?}", init.request)
    };
    assert_eq!(
        params.params.client_info.name, "t",
        "the client's own initialize is replayed"
    );
    assert_eq!(init.id, RequestId::String("mcp-elicit:wake".into()));
    let _ = t.send(wake_answer()).await;
    let JsonRpcMessage::Notification(n) = receive(t).await else {
        panic!("notifications/initialized expected second")
    };
    assert!(matches!(
        n.notification,
        ClientNotification::InitializedNotification(_)
    ));
}

/// Handler `t` gets call `id`.
async fn gets_call(t: &mut LeanTransport, id: i64) {
    let JsonRpcMessage::Request(r) = receive(t).await else {
        panic!("call {id} expected")
    };
    assert_eq!(r.id, RequestId::Number(id));
}

/// Handler `t` answers call `id` with `text`: its stream gives the priming event, then
/// the answer (returned).
async fn answers<S: Stream<Item = ServerSseMessage> + Unpin>(
    t: &mut LeanTransport,
    stream: &mut S,
    id: i64,
    text: &str,
) -> Value {
    let _ = t.send(result(id, text)).await;
    let _priming = next(stream).await.expect("priming");
    next(stream).await.and_then(|(_, m)| m).expect("the answer")
}

#[tokio::test]
async fn a_sleeping_session_keeps_its_streams_and_its_next_request_wakes_a_new_handler() {
    let (m, mut woken) = manager();
    let (id, t) = open(&m).await;
    let mut get = Box::pin(m.create_standalone_stream(&id).await.expect("GET"));
    put_to_sleep(&m, &id, t).await;
    assert!(
        m.has_session(&id).await.expect("ok"),
        "the session itself stays"
    );
    // rmcp's worker closes the session when its (first) handler ends: not this time.
    m.close_session(&id).await.expect("ok");
    assert!(m.has_session(&id).await.expect("ok"));
    // What reaches a sleeping session through its outlet (a completion) is delivered.
    let outlet = SessionOutlet::new(&session(&m, &id));
    assert!(outlet.notify(ServerNotification::CustomNotification(
        rmcp::model::CustomNotification::new(
            "notifications/elicitation/complete",
            Some(json!({"elicitationId": "e1"}))
        )
    )));
    let (_, message) = next(&mut get).await.expect("the completion");
    assert_eq!(message.expect("a message")["params"]["elicitationId"], "e1");
    assert!(woken.try_recv().is_err(), "a notification wakes nobody");
    // The next request wakes a handler: the handshake first, then the request.
    let mut stream = Box::pin(m.create_stream(&id, call(5)).await.expect("stream"));
    let mut t2 = woken.try_recv().expect("a new handler was started");
    replayed_handshake(&mut t2).await;
    gets_call(&mut t2, 5).await;
    let message = answers(&mut t2, &mut stream, 5, "awake").await;
    assert_eq!(message["id"], 5);
    assert_eq!(message["result"]["content"][0]["text"], "awake");
    // The replayed initialize's answer went nowhere: not on the GET stream either.
    quiet(&mut get).await;
    assert_eq!(m.asleep(), 0);
    // A DELETE now ends it (the ignored close was rmcp's worker's, once).
    m.close_session(&id).await.expect("ok");
    assert!(!m.has_session(&id).await.expect("ok"));
    assert!(outlet.is_closed());
    assert!(!outlet.notify(ServerNotification::CustomNotification(
        rmcp::model::CustomNotification::new("x", None)
    )));
}

#[tokio::test]
async fn a_session_asleep_keeps_no_replay_of_the_calls_it_answered() {
    let (m, _woken) = manager();
    let (id, mut t) = open(&m).await;
    let mut stream = Box::pin(m.create_stream(&id, call(1)).await.expect("stream"));
    gets_call(&mut t, 1).await;
    let _ = answers(&mut t, &mut stream, 1, "done").await;
    assert_eq!(next(&mut stream).await, None, "the answer was read whole");
    drop(stream);
    // Awake, the answered call stays replayable (its time is 60 s).
    drop(
        m.resume(&id, "0/0".into())
            .await
            .expect("replayable while awake"),
    );
    put_to_sleep(&m, &id, t).await;
    assert!(
        m.resume(&id, "0/0".into()).await.is_err(),
        "asleep, the replay is gone"
    );
}

#[tokio::test]
async fn a_session_with_anything_in_progress_does_not_sleep() {
    let (m, _woken) = manager();
    let (id, mut t) = open(&m).await;
    let s = session(&m, &id);
    assert!(
        !s.try_hibernate(Duration::from_secs(60)),
        "not idle long enough"
    );
    // A call not answered yet.
    let _stream = Box::pin(m.create_stream(&id, call(1)).await.expect("stream"));
    assert!(!s.try_hibernate(Duration::ZERO), "a message is queued");
    let _ = receive(&mut t).await;
    assert!(!s.try_hibernate(Duration::ZERO), "the call is unanswered");
    let _ = t.send(result(1, "done")).await;
    // A request of the server's not answered by the client yet (on the standalone stream).
    let ping = server(json!({"jsonrpc": "2.0", "id": 9, "method": "ping"}));
    let _ = t.send(ping).await;
    assert!(
        !s.try_hibernate(Duration::ZERO),
        "the client owes an answer"
    );
    m.accept_message(
        &id,
        client(json!({"jsonrpc": "2.0", "id": 9, "result": {}})),
    )
    .await
    .expect("accepted");
    let _ = receive(&mut t).await;
    assert!(s.try_hibernate(Duration::ZERO), "now it may");
}

#[tokio::test]
async fn a_message_that_comes_while_the_handler_is_asked_to_leave_keeps_it() {
    let (m, mut woken) = manager();
    let (id, mut t) = open(&m).await;
    assert!(session(&m, &id).try_hibernate(Duration::ZERO));
    // Before the handler's next receive, a notification arrives: it stays.
    m.accept_message(
        &id,
        client(json!({"jsonrpc": "2.0", "method": "notifications/roots/list_changed"})),
    )
    .await
    .expect("accepted");
    assert!(matches!(
        receive(&mut t).await,
        JsonRpcMessage::Notification(_)
    ));
    assert_eq!(session(&m, &id).handler(), Handler::Live(1));
    assert!(woken.try_recv().is_err());
    // It still serves.
    let mut stream = Box::pin(m.create_stream(&id, call(2)).await.expect("stream"));
    gets_call(&mut t, 2).await;
    assert_eq!(answers(&mut t, &mut stream, 2, "still here").await["id"], 2);
}

#[tokio::test]
async fn a_request_that_comes_while_the_handler_leaves_waits_for_the_next_one() {
    let (m, mut woken) = manager();
    let (id, mut t) = open(&m).await;
    assert!(session(&m, &id).try_hibernate(Duration::ZERO));
    assert!(
        tokio::time::timeout(WAIT, t.receive())
            .await
            .expect("ends")
            .is_none()
    );
    // Told to leave but not gone yet: the request is queued, nobody is started.
    let mut stream = Box::pin(m.create_stream(&id, call(3)).await.expect("stream"));
    assert!(woken.try_recv().is_err());
    assert!(
        tokio::time::timeout(Duration::from_millis(50), t.receive())
            .await
            .expect("a stale handler's receive ends at once")
            .is_none(),
        "the leaving handler does not take the new request"
    );
    drop(t);
    let mut t2 = woken.try_recv().expect("started when the old one was gone");
    replayed_handshake(&mut t2).await;
    gets_call(&mut t2, 3).await;
    assert_eq!(answers(&mut t2, &mut stream, 3, "ok").await["id"], 3);
}

#[tokio::test]
async fn a_handler_that_ends_on_its_own_still_ends_the_session() {
    let (m, mut woken) = manager();
    let (id, t) = open(&m).await;
    drop(t);
    assert!(!m.has_session(&id).await.expect("ok"));
    assert!(woken.try_recv().is_err());
    // A stale handler (put to sleep, then a new one woken) ending changes nothing.
    let (id, t) = open(&m).await;
    put_to_sleep(&m, &id, t).await;
    let _stream = Box::pin(m.create_stream(&id, call(1)).await.expect("stream"));
    let mut t2 = woken.try_recv().expect("woken");
    replayed_handshake(&mut t2).await;
    assert!(m.has_session(&id).await.expect("ok"));
    // The woken handler ending on its own ends the session, as the first would.
    drop(t2);
    assert!(
        !m.has_session(&id).await.expect("ok"),
        "the session ends with its handler"
    );
}

/// What handler `t` does with `message` in the random test: answers the replayed
/// `initialize`, notes the progress numbers; `handshake_left` counts the handshake's
/// messages still to come (2 for a woken handler), which come before anything else.
async fn take(
    t: &mut LeanTransport,
    message: ClientJsonRpcMessage,
    handshake_left: &mut u8,
    got: &mut Vec<u64>,
) {
    match message {
        JsonRpcMessage::Request(r) => {
            assert_eq!(*handshake_left, 2, "only the replayed initialize");
            assert!(matches!(r.request, ClientRequest::InitializeRequest(_)));
            *handshake_left = 1;
            let _ = t.send(wake_answer()).await;
        }
        JsonRpcMessage::Notification(n) => match n.notification {
            ClientNotification::InitializedNotification(_) => {
                assert_eq!(*handshake_left, 1, "initialized after initialize");
                *handshake_left = 0;
            }
            ClientNotification::ProgressNotification(p) => {
                assert_eq!(*handshake_left, 0, "the handshake comes first");
                got.push(p.params.progress as u64);
            }
            other => panic!("unexpected {other:?}"),
        },
        other => panic!("unexpected {other:?}"),
    }
}

/// Sleep, wake and messages interleaved at random (a fixed seed, 2,000 steps): every
/// client message reaches exactly one handler, once, in order; each woken handler gets
/// the replayed handshake first; never two handlers at once; the session never ends.
#[tokio::test]
async fn random_interleavings_lose_reorder_or_duplicate_nothing() {
    let (m, mut woken) = manager();
    let (id, first) = open(&m).await;
    let mut current: Option<LeanTransport> = Some(first);
    let mut rng: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next_rng = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut sent = 0u64;
    let mut got: Vec<u64> = Vec::new();
    // A woken handler must see `initialize`, then `notifications/initialized`, first.
    let mut handshake_left = 0;
    let mut wakes = 0;
    for _ in 0..2_000 {
        match next_rng() % 4 {
            0 => {
                let note = client(json!({"jsonrpc": "2.0", "method": "notifications/progress",
                    "params": {"progressToken": "t", "progress": sent}}));
                assert!(
                    m.accept_message(&id, note).await.is_ok(),
                    "the session ended"
                );
                sent += 1;
            }
            1 => {
                let _ = session(&m, &id).try_hibernate(Duration::ZERO);
            }
            _ => {
                let Some(t) = current.as_mut() else { continue };
                match tokio::time::timeout(Duration::from_millis(2), t.receive()).await {
                    Err(_) => {}
                    Ok(None) => current = None, // told to leave: dropped
                    Ok(Some(message)) => take(t, message, &mut handshake_left, &mut got).await,
                }
            }
        }
        while let Ok(t) = woken.try_recv() {
            wakes += 1;
            assert!(current.is_none(), "two handlers at once");
            assert_eq!(handshake_left, 0, "woken before the last handshake ended");
            current = Some(t);
            handshake_left = 2;
        }
    }
    // Drain what is still queued.
    while (got.len() as u64) < sent {
        if current.is_none() {
            current = Some(
                tokio::time::timeout(WAIT, woken.recv())
                    .await
                    .expect("a handler for what is queued")
                    .expect("the manager lives"),
            );
            handshake_left = 2;
        }
        let t = current.as_mut().expect("a handler");
        let message = receive(t).await;
        take(t, message, &mut handshake_left, &mut got).await;
    }
    assert!(
        wakes >= 20,
        "the interleavings put it to sleep and woke it: {wakes} times"
    );
    assert_eq!(got, (0..sent).collect::<Vec<_>>(), "each once, in order");
    assert!(m.has_session(&id).await.expect("ok"));
}
