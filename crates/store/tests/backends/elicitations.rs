//! `ElicitationStore` on each backend: the same behaviour as the server's memory store,
//! plus atomicity under concurrency and durability across reconnects.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use mcp_elicit_core::lifecycle::{Event, State};
use mcp_elicit_core::message::Mode;
use mcp_elicit_server::store::Transition;
use mcp_elicit_server::{
    ElicitationConfig, ElicitationStore, Elicitations, ErrorKind, IdentityPolicy,
    PendingElicitation, Principal, SessionKey, StoreError, SystemClock,
};
use mcp_elicit_store::Store;

use crate::common::TestDb;

fn alice() -> Principal {
    Principal::authenticated("https://auth.example.com", "alice")
}

fn bob() -> Principal {
    Principal::authenticated("https://auth.example.com", "bob")
}

/// A time with nanoseconds, to check exact round trips.
fn t(secs: u64) -> SystemTime {
    UNIX_EPOCH + Duration::new(1_764_000_000 + secs, 123_456_789)
}

fn record(
    id: &str,
    who: &Principal,
    session: &str,
    mode: Mode,
    expires: u64,
) -> PendingElicitation {
    PendingElicitation {
        id: id.to_owned(),
        principal: who.clone(),
        session: SessionKey::from_stored(session),
        mode,
        state: State::Pending,
        message: format!("message of {id} — ünïcode"),
        url: (mode == Mode::Url)
            .then(|| format!("https://mcp.example.com/connect?elicitationId={id}")),
        created_at: t(0),
        expires_at: t(expires),
        app_data: None,
    }
}

pub(crate) async fn insert_get_and_duplicate(db: &TestDb) {
    let store = db.connect().await;
    let url = record("e1", &alice(), "mcp-session:1", Mode::Url, 60);
    let form = record("e2", &alice(), "mcp-session:1", Mode::Form, 60);
    store.insert(url.clone()).await.expect("insert url");
    store.insert(form.clone()).await.expect("insert form");
    assert_eq!(store.get(&alice(), "e1").await, Ok(Some(url.clone())));
    assert_eq!(store.get(&alice(), "e2").await, Ok(Some(form)));
    assert_eq!(store.get(&alice(), "nope").await, Ok(None));
    // The same id again, even for another user: duplicate, and the first is untouched.
    let mut other = record("e1", &bob(), "mcp-session:2", Mode::Form, 5);
    other.message = "replaced?".into();
    assert_eq!(
        store.insert(other).await,
        Err(StoreError::Duplicate("e1".into()))
    );
    assert_eq!(store.get(&alice(), "e1").await, Ok(Some(url)));
    assert_eq!(store.count().await, Ok(2));

    // A local OS user (stdio development) round-trips as a local user.
    let me = Principal::local_user("dev");
    store
        .insert(record("e3", &me, "connection:1", Mode::Url, 60))
        .await
        .expect("insert local");
    let back = store.get(&me, "e3").await.expect("get").expect("stored");
    assert!(back.principal.is_local());
    assert_eq!(back.principal, me);
}

pub(crate) async fn transitions_follow_the_lifecycle(db: &TestDb) {
    let store = db.connect().await;
    store
        .insert(record("u", &alice(), "s", Mode::Url, 60))
        .await
        .expect("insert");
    store
        .insert(record("f", &alice(), "s", Mode::Form, 60))
        .await
        .expect("insert");

    // URL: accept keeps it (waiting for completion), complete removes it, once.
    let accepted = store
        .transition(&alice(), "u", Event::Accept)
        .await
        .expect("accept");
    assert_eq!(
        (accepted.before.state, accepted.state, accepted.removed),
        (State::Pending, State::Accepted, false)
    );
    let stored = store.get(&alice(), "u").await.expect("get").expect("kept");
    assert_eq!(stored.state, State::Accepted);
    assert!(matches!(
        store.transition(&alice(), "u", Event::Accept).await,
        Err(StoreError::InvalidTransition(_))
    ));
    let done = store
        .transition(&alice(), "u", Event::Complete)
        .await
        .expect("complete");
    assert_eq!(
        (done.before.state, done.state, done.removed),
        (State::Accepted, State::Completed, true)
    );
    assert_eq!(store.get(&alice(), "u").await, Ok(None));
    assert_eq!(
        store
            .transition(&alice(), "u", Event::Complete)
            .await
            .map(|t| t.state),
        Err(StoreError::NotFound("u".into()))
    );

    // Form: complete is refused and leaves it pending; accept is terminal.
    assert!(matches!(
        store.transition(&alice(), "f", Event::Complete).await,
        Err(StoreError::InvalidTransition(_))
    ));
    assert_eq!(
        store
            .get(&alice(), "f")
            .await
            .expect("get")
            .map(|r| r.state),
        Some(State::Pending)
    );
    let answered = store
        .transition(&alice(), "f", Event::Accept)
        .await
        .expect("accept");
    assert_eq!((answered.state, answered.removed), (State::Accepted, true));
    assert_eq!(store.count().await, Ok(0));
}

pub(crate) async fn users_are_isolated(db: &TestDb) {
    let store = db.connect().await;
    // Same session key for both users: the session alone never grants access.
    store
        .insert(record("a1", &alice(), "shared", Mode::Url, 60))
        .await
        .expect("insert");
    store
        .insert(record("b1", &bob(), "shared", Mode::Url, 60))
        .await
        .expect("insert");
    // Same subject at another issuer is another user.
    let impostor = Principal::authenticated("https://evil.example", "alice");
    let local = Principal::local_user("alice");
    for stranger in [&bob(), &impostor, &local] {
        assert_eq!(store.get(stranger, "a1").await, Ok(None), "{stranger:?}");
        assert_eq!(
            store
                .transition(stranger, "a1", Event::Complete)
                .await
                .map(|t| t.state),
            Err(StoreError::NotFound("a1".into())),
            "{stranger:?}"
        );
    }
    assert_eq!(
        store
            .get(&alice(), "a1")
            .await
            .expect("get")
            .map(|r| r.state),
        Some(State::Pending),
        "failed attempts by others change nothing"
    );
    let ids = |list: Vec<PendingElicitation>| list.into_iter().map(|r| r.id).collect::<Vec<_>>();
    assert_eq!(
        store.list(&alice()).await.map(ids),
        Ok(vec!["a1".to_owned()])
    );
    assert_eq!(store.list(&bob()).await.map(ids), Ok(vec!["b1".to_owned()]));
    assert_eq!(store.list(&impostor).await.map(ids), Ok(vec![]));
}

pub(crate) async fn list_is_ordered_by_creation(db: &TestDb) {
    let store = db.connect().await;
    // Ties broken by id in byte order (upper case first), on every backend's collation.
    for (id, created) in [("c", 3), ("a", 1), ("b", 3), ("B", 3), ("z", 0)] {
        let mut r = record(id, &alice(), "s", Mode::Url, 60);
        r.created_at = t(created);
        store.insert(r).await.expect("insert");
    }
    let ids: Vec<String> = store
        .list(&alice())
        .await
        .expect("list")
        .into_iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(ids, ["z", "a", "B", "b", "c"]);
}

pub(crate) async fn remove_and_remove_session_forms(db: &TestDb) {
    let store = db.connect().await;
    store
        .insert(record("x", &alice(), "s1", Mode::Url, 60))
        .await
        .expect("insert");
    store
        .insert(record("y", &bob(), "s1", Mode::Form, 60))
        .await
        .expect("insert");
    store
        .insert(record("z", &alice(), "s2", Mode::Url, 60))
        .await
        .expect("insert");
    // remove is the server's own bookkeeping: whoever owns it.
    let removed = store.remove("y").await.expect("remove");
    assert_eq!(
        removed.map(|r| (r.id, r.principal)),
        Some(("y".to_owned(), bob()))
    );
    assert_eq!(store.remove("y").await, Ok(None));
    store
        .insert(record("f", &alice(), "s1", Mode::Form, 60))
        .await
        .expect("insert");
    // The session ended: its forms go; its URL elicitation stays (the user may still
    // finish the page), and another session's are untouched.
    let gone = store
        .remove_session_forms(&SessionKey::from_stored("s1"))
        .await
        .expect("remove session");
    assert_eq!(gone.into_iter().map(|r| r.id).collect::<Vec<_>>(), ["f"]);
    assert_eq!(store.count().await, Ok(2));
    assert!(store.get(&alice(), "x").await.expect("get").is_some());
    assert!(store.get(&alice(), "z").await.expect("get").is_some());
}

pub(crate) async fn sweep_removes_exactly_the_expired(db: &TestDb) {
    let store = db.connect().await;
    for (id, expires) in [("old", 5), ("edge", 10), ("new", 50)] {
        store
            .insert(record(id, &alice(), "s", Mode::Url, expires))
            .await
            .expect("insert");
    }
    store
        .transition(&alice(), "old", Event::Accept)
        .await
        .expect("accept");
    assert_eq!(store.sweep_expired(t(0)).await, Ok(vec![]));
    let swept = store.sweep_expired(t(10)).await.expect("sweep");
    let mut ids: Vec<(String, State)> = swept.into_iter().map(|r| (r.id, r.state)).collect();
    ids.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        ids,
        [
            ("edge".to_owned(), State::Pending),
            ("old".to_owned(), State::Accepted)
        ],
        "expires_at <= now is expired; the record is returned as it was"
    );
    assert_eq!(store.count().await, Ok(1));
    assert_eq!(store.sweep_expired(t(10)).await, Ok(vec![]));
    assert_eq!(store.sweep_expired(t(51)).await.map(|v| v.len()), Ok(1));
}

/// Applies `event` to alice's `id` from 24 concurrent tasks; returns every outcome.
async fn race(store: &Arc<Store>, id: &str, event: Event) -> Vec<Result<Transition, StoreError>> {
    let tasks: Vec<_> = (0..24)
        .map(|_| {
            let store = store.clone();
            let id = id.to_owned();
            tokio::spawn(async move { store.transition(&alice(), &id, event).await })
        })
        .collect();
    let mut outcomes = Vec::new();
    for task in tasks {
        outcomes.push(task.await.expect("task"));
    }
    outcomes
}

/// Many tasks complete the same elicitation at once: exactly one wins.
pub(crate) async fn concurrent_completion_succeeds_once(db: &TestDb) {
    let store = Arc::new(db.connect().await);
    for round in 0..3 {
        let id = format!("race{round}");
        store
            .insert(record(&id, &alice(), "s", Mode::Url, 60))
            .await
            .expect("insert");
        if round == 1 {
            store
                .transition(&alice(), &id, Event::Accept)
                .await
                .expect("accept");
        }
        let mut wins = 0;
        for outcome in race(&store, &id, Event::Complete).await {
            match outcome {
                Ok(t) => {
                    assert_eq!((t.state, t.removed), (State::Completed, true));
                    wins += 1;
                }
                Err(StoreError::NotFound(_) | StoreError::InvalidTransition(_)) => {}
                Err(other) => panic!("unexpected error: {other}"),
            }
        }
        assert_eq!(wins, 1, "round {round}");
    }
    assert_eq!(store.count().await, Ok(0));

    // A non-terminal transition (an UPDATE, not a DELETE) is just as exclusive: of many
    // concurrent `accept` answers for one URL elicitation, one is applied.
    for round in 0..3 {
        let id = format!("accept{round}");
        store
            .insert(record(&id, &alice(), "s", Mode::Url, 60))
            .await
            .expect("insert");
        let mut wins = 0;
        for outcome in race(&store, &id, Event::Accept).await {
            match outcome {
                Ok(t) => {
                    assert_eq!((t.before.state, t.state), (State::Pending, State::Accepted));
                    wins += 1;
                }
                Err(StoreError::InvalidTransition(_)) => {}
                Err(other) => panic!("unexpected error: {other}"),
            }
        }
        assert_eq!(wins, 1, "accept round {round}");
    }
}

/// Two stores on the same database stand for two server processes.
pub(crate) async fn concurrent_completion_across_pools(db: &TestDb) {
    let first = Arc::new(db.connect().await);
    let second = Arc::new(db.connect().await);
    for round in 0..3 {
        let id = format!("x{round}");
        first
            .insert(record(&id, &alice(), "s", Mode::Url, 60))
            .await
            .expect("insert");
        // Mixed events: whichever lands first decides; everyone else fails.
        let tasks: Vec<_> = (0..16)
            .map(|i| {
                let store: Arc<Store> = if i % 2 == 0 {
                    first.clone()
                } else {
                    second.clone()
                };
                let id = id.clone();
                let event = if i % 3 == 0 {
                    Event::Cancel
                } else {
                    Event::Complete
                };
                tokio::spawn(async move { store.transition(&alice(), &id, event).await })
            })
            .collect();
        let mut wins = 0;
        for task in tasks {
            if task.await.expect("task").is_ok() {
                wins += 1;
            }
        }
        assert_eq!(wins, 1, "round {round}");
        assert_eq!(second.get(&alice(), &id).await, Ok(None));
    }
}

pub(crate) async fn records_survive_reconnect(db: &TestDb) {
    let store = db.connect().await;
    let r = record("durable", &alice(), "mcp-session:abc", Mode::Url, 600);
    store.insert(r.clone()).await.expect("insert");
    store
        .transition(&alice(), "durable", Event::Accept)
        .await
        .expect("accept");
    store.close().await;
    assert!(
        store.get(&alice(), "durable").await.is_err(),
        "closed pool refuses"
    );
    drop(store);

    let reopened = db.connect().await;
    let back = reopened
        .get(&alice(), "durable")
        .await
        .expect("get")
        .expect("still there");
    assert_eq!(
        back,
        PendingElicitation {
            state: State::Accepted,
            ..r
        }
    );
    let done = reopened
        .transition(&alice(), "durable", Event::Complete)
        .await
        .expect("complete after restart");
    assert!(done.removed);
}

/// The server's registry runs on this store: an elicitation recorded by one node (one
/// store) is completed through the registry of another node (another store on the same
/// database), once, and only by its user. That node holds no connection, so it reports
/// `notified: false`: the case where it publishes on the completion bus.
pub(crate) async fn completes_through_the_server_registry_on_another_node(db: &TestDb) {
    let node_a = db.connect().await;
    // Live by the system clock the registry reads (the fixed test times are in 2025).
    let mut live = record("cross", &alice(), "mcp-session:a", Mode::Url, 0);
    live.expires_at = SystemTime::now() + Duration::from_secs(3600);
    node_a.insert(live).await.expect("insert on node A");
    let node_b: Arc<dyn ElicitationStore> = Arc::new(db.connect().await);
    let hub = Elicitations::with_store(
        ElicitationConfig::new(IdentityPolicy::Authenticated),
        node_b,
        Arc::new(SystemClock),
    );
    let by_bob = hub.complete(&bob(), "cross").await.expect_err("not bob's");
    assert_eq!(by_bob.kind(), ErrorKind::UnknownElicitation);
    assert_eq!(hub.pending(&alice()).await.expect("pending").len(), 1);
    let done = hub
        .complete(&alice(), "cross")
        .await
        .expect("alice completes");
    assert!(
        !done.notified,
        "node B holds no connection for this session"
    );
    let again = hub
        .complete(&alice(), "cross")
        .await
        .expect_err("at most once");
    assert_eq!(again.kind(), ErrorKind::UnknownElicitation);
    assert_eq!(node_a.get(&alice(), "cross").await, Ok(None));
}

/// The per-user cap holds exactly when many inserts race from two pools (two server
/// nodes): never more than `max` records for one user, and other users are unaffected.
pub(crate) async fn quota_is_exact_under_concurrent_inserts(db: &TestDb) {
    const MAX: usize = 3;
    let first = Arc::new(db.connect().await);
    let second = Arc::new(db.connect().await);
    let tasks: Vec<_> = (0..24)
        .map(|i| {
            let store: Arc<Store> = if i % 2 == 0 {
                first.clone()
            } else {
                second.clone()
            };
            tokio::spawn(async move {
                store
                    .insert_within_quota(
                        record(&format!("q{i}"), &alice(), "s", Mode::Url, 60),
                        MAX,
                    )
                    .await
            })
        })
        .collect();
    let mut ok = 0;
    for task in tasks {
        match task.await.expect("task") {
            Ok(()) => ok += 1,
            Err(StoreError::QuotaExceeded { pending, max }) => {
                assert_eq!((pending, max), (MAX, MAX));
            }
            Err(other) => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(ok, MAX);
    assert_eq!(first.list(&alice()).await.expect("list").len(), MAX);
    // Bob has his own allowance; a duplicate id is reported as a duplicate, not a quota.
    second
        .insert_within_quota(record("b1", &bob(), "s", Mode::Url, 60), MAX)
        .await
        .expect("bob's first");
    assert_eq!(
        second
            .insert_within_quota(record("b1", &bob(), "s", Mode::Url, 60), MAX)
            .await,
        Err(StoreError::Duplicate("b1".into()))
    );
    // Finishing one frees a place.
    let done = first.list(&alice()).await.expect("list")[0].id.clone();
    first.remove(&done).await.expect("remove");
    first
        .insert_within_quota(record("again", &alice(), "s", Mode::Url, 60), MAX)
        .await
        .expect("a freed place is usable");
}

/// Quota 2, lifetime 1 s: once the user's records expired (still stored, not swept), a
/// new one is accepted; the count of the refusal names only unexpired records.
pub(crate) async fn expired_records_never_count_toward_the_quota(db: &TestDb) {
    let store = db.connect().await;
    for id in ["q1", "q2"] {
        store
            .insert_within_quota(record(id, &alice(), "s", Mode::Url, 1), 2)
            .await
            .expect("within quota");
    }
    assert_eq!(
        store
            .insert_within_quota(record("q3", &alice(), "s", Mode::Url, 1), 2)
            .await,
        Err(StoreError::QuotaExceeded { pending: 2, max: 2 })
    );
    let mut later = record("q4", &alice(), "s", Mode::Url, 60);
    later.created_at = t(2);
    store
        .insert_within_quota(later, 2)
        .await
        .expect("expired records are not counted");
    assert_eq!(store.count().await, Ok(3), "nothing was swept");
}

/// The application's data round-trips as JSON; none stays none.
pub(crate) async fn app_data_round_trips(db: &TestDb) {
    let store = db.connect().await;
    let mut with = record("d1", &alice(), "s", Mode::Url, 60);
    with.app_data = Some(serde_json::json!({"provider": "calendar", "n": 3, "ok": true}));
    store.insert(with.clone()).await.expect("insert");
    let mut quota = record("d2", &alice(), "s", Mode::Url, 60);
    quota.app_data = Some(serde_json::json!(["a", "ü"]));
    store
        .insert_within_quota(quota.clone(), 10)
        .await
        .expect("insert within quota");
    let without = record("d3", &alice(), "s", Mode::Url, 60);
    store.insert(without.clone()).await.expect("insert");
    assert_eq!(store.get(&alice(), "d1").await, Ok(Some(with)));
    assert_eq!(store.get(&alice(), "d2").await, Ok(Some(quota)));
    assert_eq!(store.get(&alice(), "d3").await, Ok(Some(without)));
}
