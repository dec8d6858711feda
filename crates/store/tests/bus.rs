//! Completion notices reach the node holding the connection: in one process through
//! `MemoryBus`, across processes through PostgreSQL `LISTEN/NOTIFY`.

mod common;

use std::time::Duration;

use futures::StreamExt;
use mcp_elicit_server::SessionKey;
use mcp_elicit_store::{
    CompletionBus, CompletionNotice, CompletionStream, Error, MemoryBus, PgCompletionBus,
};

fn notice(id: &str, session: &str) -> CompletionNotice {
    CompletionNotice {
        elicitation_id: id.to_owned(),
        session: SessionKey::from_stored(session),
    }
}

async fn next(stream: &mut CompletionStream) -> Result<CompletionNotice, Error> {
    tokio::time::timeout(Duration::from_secs(10), stream.next())
        .await
        .expect("a notice within 10 s")
        .expect("stream still open")
}

async fn nothing_within(stream: &mut CompletionStream, wait: Duration) -> bool {
    tokio::time::timeout(wait, stream.next()).await.is_err()
}

#[tokio::test]
async fn memory_bus_delivers_to_every_subscriber() {
    let bus: std::sync::Arc<dyn CompletionBus> = std::sync::Arc::new(MemoryBus::default());
    bus.publish(&notice("before", "s"))
        .await
        .expect("publishing with no subscriber is fine");
    let mut first = bus.subscribe().await.expect("subscribe");
    let mut second = bus.subscribe().await.expect("subscribe");
    bus.publish(&notice("e1", "mcp-session:a"))
        .await
        .expect("publish");
    bus.publish(&notice("e2", "mcp-session:b"))
        .await
        .expect("publish");
    for stream in [&mut first, &mut second] {
        assert_eq!(next(stream).await, Ok(notice("e1", "mcp-session:a")));
        assert_eq!(next(stream).await, Ok(notice("e2", "mcp-session:b")));
    }
    assert!(nothing_within(&mut first, Duration::from_millis(50)).await);
}

#[tokio::test]
async fn memory_bus_reports_a_slow_subscriber_and_goes_on() {
    let bus = MemoryBus::new(2);
    let mut slow = bus.subscribe().await.expect("subscribe");
    for i in 0..5 {
        bus.publish(&notice(&format!("e{i}"), "s"))
            .await
            .expect("publish");
    }
    assert!(matches!(next(&mut slow).await, Err(Error::Bus(m)) if m.contains('3')));
    assert_eq!(next(&mut slow).await, Ok(notice("e3", "s")));
    assert_eq!(next(&mut slow).await, Ok(notice("e4", "s")));
}

/// Two pools on one database stand for two nodes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_bus_crosses_pools() {
    let db = common::postgres().await;
    let node_a = db.connect().await;
    let node_b = db.connect().await;
    let publisher = PgCompletionBus::from_store(&node_a).expect("postgres store");
    let listener = PgCompletionBus::from_store(&node_b).expect("postgres store");
    let mut stream = listener.subscribe().await.expect("subscribe");
    let mut other_deployment = listener
        .clone()
        .with_channel("other_deployment")
        .expect("valid channel")
        .subscribe()
        .await
        .expect("subscribe");

    publisher
        .publish(&notice("e1", "mcp-session:\"quoted\" ünïcode"))
        .await
        .expect("publish");
    publisher
        .publish(&notice("e2", "connection:7"))
        .await
        .expect("publish");
    assert_eq!(
        next(&mut stream).await,
        Ok(notice("e1", "mcp-session:\"quoted\" ünïcode"))
    );
    assert_eq!(next(&mut stream).await, Ok(notice("e2", "connection:7")));
    assert!(nothing_within(&mut other_deployment, Duration::from_millis(200)).await);

    // Anyone who may NOTIFY can send garbage: an error item, and the stream goes on.
    let mcp_elicit_store::Pool::Postgres(pool) = node_a.pool() else {
        panic!("postgres pool expected");
    };
    mcp_elicit_store::sqlx::query("SELECT pg_notify($1, $2)")
        .bind(mcp_elicit_store::DEFAULT_NOTIFY_CHANNEL)
        .bind("{not json")
        .execute(pool)
        .await
        .expect("raw notify");
    publisher
        .publish(&notice("e3", "s"))
        .await
        .expect("publish");
    assert!(matches!(next(&mut stream).await, Err(Error::Bus(_))));
    assert_eq!(next(&mut stream).await, Ok(notice("e3", "s")));

    let oversized = notice(&"x".repeat(9000), "s");
    assert!(matches!(
        publisher.publish(&oversized).await,
        Err(Error::Bus(_))
    ));
    drop((stream, other_deployment));
    node_a.close().await;
    node_b.close().await;
}

#[tokio::test]
async fn postgres_bus_needs_a_postgres_store() {
    let db = common::sqlite_file().await;
    let store = db.connect().await;
    assert!(matches!(
        PgCompletionBus::from_store(&store),
        Err(Error::Config(_))
    ));
}
