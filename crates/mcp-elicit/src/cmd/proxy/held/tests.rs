//! The held requests' own rules, without an upstream or a client.

use super::*;
use mcp_elicit_server::Principal;
use rmcp::model::CallToolResult;

fn binding(args: Value) -> StateBinding {
    StateBinding::new(&Principal::local_user("u"), "tools/call", "t", &args)
}

fn table() -> HeldCalls {
    HeldCalls::new(StateKeys::random().expect("randomness"))
}

fn done() -> Result<ServerResult, ErrorData> {
    Ok(ServerResult::CallToolResult(CallToolResult::default()))
}

#[tokio::test]
async fn a_question_becomes_a_round_and_its_answer_reaches_the_asker() {
    let calls = table();
    let held = calls.insert("u").expect("room");
    let ct = CancellationToken::new();
    let asker = {
        let held = Arc::clone(&held);
        let ct = ct.clone();
        tokio::spawn(async move {
            held.ask(
                Ticket::none(),
                None,
                "elicitation/create",
                json!({"message": "m"}),
                &ct,
            )
            .await
        })
    };
    let Some(Next::Round { requests, round }) = held.next(&ct, None).await else {
        panic!("a round");
    };
    assert_eq!(round, 1);
    let (key, request) = requests.iter().next().expect("one request");
    assert_eq!(request["method"], "elicitation/create");
    let state = calls
        .seal(&held, round, &binding(json!({})))
        .expect("sealed");
    let answers: Map<String, Value> = [(key.clone(), json!({"action": "decline"}))]
        .into_iter()
        .collect();
    let again = calls
        .retry(&state, &binding(json!({})), Some(&answers))
        .expect("opened");
    assert!(Arc::ptr_eq(&again, &held));
    assert_eq!(
        asker.await.expect("joined"),
        Some(json!({"action": "decline"}))
    );
    // The same state again is a replay.
    let replay = calls.retry(&state, &binding(json!({})), Some(&answers));
    assert!(replay.unwrap_err().message.contains("already used"));
    held.finish(done());
    assert!(matches!(held.next(&ct, None).await, Some(Next::Done(r)) if r.is_ok()));
}

#[tokio::test]
async fn state_for_other_arguments_or_from_another_table_is_refused() {
    let calls = table();
    let held = calls.insert("u").expect("room");
    let state = calls
        .seal(&held, 0, &binding(json!({"a": 1})))
        .expect("sealed");
    let e = calls
        .retry(&state, &binding(json!({"a": 2})), None)
        .expect_err("refused");
    assert_eq!(e.code, ErrorCode::INVALID_PARAMS);
    let e = table()
        .retry(&state, &binding(json!({"a": 1})), None)
        .expect_err("refused");
    assert!(e.message.contains("requestState"), "{}", e.message);
    calls.remove(&held);
    let e = calls
        .retry(&state, &binding(json!({"a": 1})), None)
        .expect_err("gone");
    assert!(e.message.contains("no longer held"), "{}", e.message);
}

#[tokio::test]
async fn a_missing_answer_is_asked_again_and_questions_of_one_round_stay_together() {
    let calls = table();
    let held = calls.insert("u").expect("room");
    let ct = CancellationToken::new();
    let tickets = held.tickets(2);
    let mut askers = Vec::new();
    for (i, t) in tickets.into_iter().enumerate() {
        let held = Arc::clone(&held);
        let ct = ct.clone();
        askers.push(tokio::spawn(async move {
            // The second one takes a while (policy checks): still one round.
            if i == 1 {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            held.ask(t, None, "elicitation/create", json!({"n": i}), &ct)
                .await
        }));
    }
    let Some(Next::Round { requests, round }) = held.next(&ct, None).await else {
        panic!("a round");
    };
    assert_eq!(requests.len(), 2, "{requests:?}");
    let b = binding(json!({}));
    let state = calls.seal(&held, round, &b).expect("sealed");
    let first = requests.keys().next().expect("a key").clone();
    let answers: Map<String, Value> = [
        (first, json!({"action": "cancel"})),
        ("extra".into(), json!(1)),
    ]
    .into_iter()
    .collect();
    calls.retry(&state, &b, Some(&answers)).expect("opened");
    let Some(Next::Round {
        requests: again,
        round: second,
    }) = held.next(&ct, None).await
    else {
        panic!("asked again");
    };
    assert_eq!((again.len(), second), (1, 2));
    let state = calls.seal(&held, second, &b).expect("sealed");
    let key = again.keys().next().expect("a key").clone();
    let answers: Map<String, Value> = [(key, json!({"action": "decline"}))].into_iter().collect();
    calls.retry(&state, &b, Some(&answers)).expect("opened");
    let mut got = Vec::new();
    for a in askers {
        got.push(a.await.expect("joined").expect("answered"));
    }
    assert_eq!(
        got,
        vec![json!({"action": "cancel"}), json!({"action": "decline"})]
    );
}

#[tokio::test]
async fn a_dropped_ticket_does_not_hold_the_round_back() {
    let calls = table();
    let held = calls.insert("u").expect("room");
    let ct = CancellationToken::new();
    let mut tickets = held.tickets(2);
    let refused = tickets.pop().expect("ticket");
    let asked = tickets.pop().expect("ticket");
    let asker = {
        let held = Arc::clone(&held);
        let ct = ct.clone();
        tokio::spawn(async move {
            held.ask(asked, Some("roots"), "roots/list", json!({}), &ct)
                .await
        })
    };
    tokio::time::sleep(Duration::from_millis(20)).await;
    drop(refused);
    let Some(Next::Round { requests, .. }) = held.next(&ct, None).await else {
        panic!("a round");
    };
    assert_eq!(requests.len(), 1);
    asker.abort();
}

#[tokio::test]
async fn after_a_url_consent_the_client_is_told_still_waiting() {
    let mut calls = table();
    calls.still_waiting = Duration::from_millis(50);
    let held = calls.insert("u").expect("room");
    let ct = CancellationToken::new();
    let url = json!({"mode": "url", "url": "https://example.com/p", "message": "m"});
    let asker = {
        let held = Arc::clone(&held);
        let ct = ct.clone();
        let url = url.clone();
        tokio::spawn(async move {
            held.ask(Ticket::none(), None, "elicitation/create", url, &ct)
                .await
        })
    };
    let Some(Next::Round { requests, round }) = held.next(&ct, None).await else {
        panic!("a round");
    };
    let b = binding(json!({}));
    let state = calls.seal(&held, round, &b).expect("sealed");
    let key = requests.keys().next().expect("key").clone();
    let answers: Map<String, Value> = [(key, json!({"action": "accept"}))].into_iter().collect();
    calls.retry(&state, &b, Some(&answers)).expect("opened");
    assert_eq!(
        asker.await.expect("joined"),
        Some(json!({"action": "accept"}))
    );
    let Some(Next::Round { requests, .. }) = held.next(&ct, None).await else {
        panic!("still waiting");
    };
    let again = requests.values().next().expect("the URL again");
    assert_eq!(again["params"], url);
}

#[tokio::test]
async fn an_upstream_that_asks_for_ever_is_stopped_with_a_message() {
    let calls = table();
    let held = calls.insert("u").expect("room");
    let ct = CancellationToken::new();
    let b = binding(json!({}));
    let asker = {
        let held = Arc::clone(&held);
        let ct = ct.clone();
        tokio::spawn(async move {
            let mut asked = 0;
            while held
                .ask(Ticket::none(), None, "elicitation/create", json!({}), &ct)
                .await
                .is_some()
            {
                asked += 1;
            }
            asked
        })
    };
    loop {
        match held.next(&ct, None).await {
            Some(Next::Round { requests, round }) => {
                let state = calls.seal(&held, round, &b).expect("sealed");
                let answers: Map<String, Value> = requests
                    .keys()
                    .map(|k| (k.clone(), json!({"action": "decline"})))
                    .collect();
                calls.retry(&state, &b, Some(&answers)).expect("opened");
            }
            Some(Next::Done(result)) => {
                let e = result.expect_err("stopped");
                assert_eq!(e.data.expect("data")["limit"], "rounds_per_request");
                break;
            }
            None => panic!("ended without an answer"),
        }
    }
    assert_eq!(asker.await.expect("joined"), MAX_ROUNDS);
}

#[tokio::test]
async fn a_user_holds_a_bounded_number_of_requests() {
    let calls = table();
    for _ in 0..MAX_HELD_PER_USER {
        calls.insert("u").expect("room");
    }
    let e = calls.insert("u").expect_err("full");
    assert_eq!(e.data.expect("data")["limit"], "held_requests_per_user");
    calls.insert("someone else").expect("another user has room");
}
