//! Two server nodes sharing one durable store (`mcp-elicit-store` on a SQLite file) and a
//! completion bus: a URL elicitation sent by node A and completed on node B reaches the
//! client connected to node A, exactly once, and nobody else.

mod common;

use std::sync::Arc;

use common::http_client::{Running, assert_silent, connect, next_note, required_id};
use common::{WAIT, alice};
use futures::StreamExt;
use mcp_elicit_server::reference::{Reference, ReferenceOptions, http};
use mcp_elicit_server::{
    ElicitationConfig, ElicitationStore, Elicitations, IdentityPolicy, SystemClock,
};
use mcp_elicit_store::{CompletionBus, CompletionNotice, MemoryBus, Store};
use serde_json::{Value, json};
use tokio::sync::mpsc;

/// A client with URL mode that reports the completion notifications it receives.
async fn url_client(url: &str) -> (Running, mpsc::UnboundedReceiver<Value>) {
    let (running, notes, _seen) = connect(url, json!({"elicitation": {"url": {}}})).await;
    (running, notes)
}

/// A fresh SQLite store in `dir`, shared by the nodes of a test.
async fn shared_store(dir: &tempfile::TempDir) -> Store {
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("state.db").display()
    );
    Store::connect(&url).await.expect("store")
}

/// One node: its own registry (live connections) over the shared store, its HTTP
/// endpoint, and a task delivering the bus's notices to its connections.
struct Node {
    hub: Elicitations,
    url: String,
    delivered: mpsc::UnboundedReceiver<bool>,
}

async fn node(store: &Store, bus: &MemoryBus) -> Node {
    let hub = Elicitations::with_store(
        ElicitationConfig::new(IdentityPolicy::LocalUser(alice())),
        Arc::new(store.clone()) as Arc<dyn ElicitationStore>,
        Arc::new(SystemClock),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let reference = Reference::new(hub.clone(), ReferenceOptions::new(format!("http://{addr}")));
    tokio::spawn(http::serve(listener, reference, std::future::pending()));
    let mut notices = bus.subscribe().await.expect("subscribe");
    let (tx, delivered) = mpsc::unbounded_channel();
    let relay = hub.clone();
    tokio::spawn(async move {
        while let Some(Ok(notice)) = notices.next().await {
            let sent = relay
                .deliver_completion(&notice.elicitation_id, &notice.session)
                .await;
            let _ = tx.send(sent);
        }
    });
    Node {
        hub,
        url: format!("http://{addr}/mcp"),
        delivered,
    }
}

async fn next_delivery(node: &mut Node) -> bool {
    tokio::time::timeout(WAIT, node.delivered.recv())
        .await
        .expect("the node saw the notice")
        .expect("relay running")
}

#[tokio::test]
async fn a_completion_on_node_b_reaches_the_client_on_node_a_exactly_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = shared_store(&dir).await;
    let bus = MemoryBus::default();
    let mut a = node(&store, &bus).await;
    let mut b = node(&store, &bus).await;

    let (client, mut notes) = url_client(&a.url).await;
    let (bystander, mut bystander_notes) = url_client(&b.url).await;
    let id = required_id(&client).await;

    // Node B serves the out-of-band page: it sees the pending elicitation in the shared
    // store, completes it there (at most once), cannot notify (the connection is on A),
    // and publishes.
    let record = b
        .hub
        .get(&alice(), &id)
        .await
        .expect("get")
        .expect("shared");
    let done = b.hub.complete(&alice(), &id).await.expect("complete on B");
    assert!(!done.notified);
    assert_eq!(done.session, record.session);
    let notice = CompletionNotice {
        elicitation_id: id.clone(),
        session: done.session.clone(),
    };
    bus.publish(&notice).await.expect("publish");

    // Node A delivers it; node B has nothing to deliver to.
    assert!(next_delivery(&mut a).await);
    assert!(!next_delivery(&mut b).await);
    let note = next_note(&mut notes).await;
    assert_eq!(note, json!({"elicitationId": id}));

    // Exactly once: a repeated notice sends nothing, and the store refuses a second
    // completion on either node.
    bus.publish(&notice).await.expect("publish again");
    assert!(!next_delivery(&mut a).await);
    assert!(!next_delivery(&mut b).await);
    assert!(a.hub.complete(&alice(), &id).await.is_err());
    assert!(b.hub.complete(&alice(), &id).await.is_err());
    assert_silent(&mut notes, 300).await;
    assert_silent(&mut bystander_notes, 100).await;
    client.cancel().await.expect("close");
    bystander.cancel().await.expect("close");
    store.close().await;
}

#[tokio::test]
async fn a_notice_for_another_session_reaches_nobody_and_keeps_the_connection() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = shared_store(&dir).await;
    let bus = MemoryBus::default();
    let mut a = node(&store, &bus).await;
    let (client, mut notes) = url_client(&a.url).await;
    let id = required_id(&client).await;
    let session = a.hub.pending(&alice()).await.expect("pending")[0]
        .session
        .clone();

    // A forged or stale notice naming another session: nothing is sent.
    let forged = CompletionNotice {
        elicitation_id: id.clone(),
        session: mcp_elicit_server::SessionKey::from_stored("mcp-session:someone-else"),
    };
    bus.publish(&forged).await.expect("publish");
    assert!(!next_delivery(&mut a).await);
    assert_silent(&mut notes, 300).await;
    // The real completion still gets through, to the right connection.
    let done = a.hub.complete(&alice(), &id).await.expect("complete");
    assert!(done.notified);
    assert_eq!(done.session, session);
    let note = next_note(&mut notes).await;
    assert_eq!(note["elicitationId"], id);
    client.cancel().await.expect("close");
    store.close().await;
}

/// The wiring `mcp-elicit serve` uses: every node's registry relays what it cannot
/// deliver (`set_relay`) and runs `deliver_notices`. Completing on B then needs no code
/// of the caller's to reach the client on A, and a completion A can deliver itself is
/// not published at all.
#[tokio::test]
async fn with_a_relay_set_a_completion_on_another_node_is_published_by_itself() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = shared_store(&dir).await;
    let bus = Arc::new(MemoryBus::default());
    let relayed = |hub: &Elicitations| {
        assert!(hub.set_relay(bus.clone()));
        assert!(!hub.set_relay(bus.clone()), "set once");
        let (hub, bus) = (hub.clone(), bus.clone());
        tokio::spawn(async move { mcp_elicit_store::deliver_notices(&*bus, &hub).await })
    };
    let a = node(&store, &bus).await;
    let b = node(&store, &bus).await;
    let tasks = [relayed(&a.hub), relayed(&b.hub)];
    let mut watch = bus.subscribe().await.expect("subscribe");

    let (client, mut notes) = url_client(&a.url).await;
    let id = required_id(&client).await;
    let done = b.hub.complete(&alice(), &id).await.expect("complete on B");
    assert!(!done.notified, "B holds no connection for it");
    let note = next_note(&mut notes).await;
    assert_eq!(note, json!({"elicitationId": id}));
    let published = tokio::time::timeout(WAIT, watch.next())
        .await
        .expect("published in time")
        .expect("bus open")
        .expect("notice");
    assert_eq!(published.elicitation_id, id);

    // Completed on the node holding the connection: sent directly, nothing published.
    let second = required_id(&client).await;
    let done = a
        .hub
        .complete(&alice(), &second)
        .await
        .expect("complete on A");
    assert!(done.notified);
    assert_eq!(next_note(&mut notes).await["elicitationId"], second);
    assert!(
        tokio::time::timeout(std::time::Duration::from_millis(300), watch.next())
            .await
            .is_err(),
        "a locally delivered completion is not published"
    );
    assert_silent(&mut notes, 200).await;
    for t in tasks {
        t.abort();
    }
    client.cancel().await.expect("close");
    store.close().await;
}
