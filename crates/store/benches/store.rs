//! What one URL elicitation costs the store: insert (plain, and within the per-user cap
//! as the server does it), accept, complete (SQLite file and PostgreSQL); a vault secret
//! write plus read; a page's purpose registered, read and answered; a sign-in stored and
//! taken.
//!
//! `cargo bench -p mcp-elicit-store` (PostgreSQL as for the tests: `MCP_ELICIT_TEST_PG`;
//! its group is skipped with a note when the server is unreachable).

#[path = "../tests/common/mod.rs"]
mod common;

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_elicit_core::lifecycle::{Event, State};
use mcp_elicit_core::message::Mode;
use mcp_elicit_server::{ElicitationStore, PendingElicitation, Principal, SessionKey};
use mcp_elicit_store::secrecy::SecretString;
use mcp_elicit_store::{FlowStore, Keyring, LoginState, LoginStore, Store, VaultKey, VaultStore};
use tokio::runtime::Runtime;

static NEXT: AtomicU64 = AtomicU64::new(0);

fn record(principal: &Principal) -> PendingElicitation {
    let now = SystemTime::now();
    PendingElicitation {
        id: format!("bench-{}", NEXT.fetch_add(1, Ordering::Relaxed)),
        principal: principal.clone(),
        session: SessionKey::from_stored("mcp-session:bench"),
        mode: Mode::Url,
        state: State::Pending,
        message: "Connect your account.".into(),
        url: Some("https://mcp.example.com/connect?elicitationId=x".into()),
        created_at: now,
        expires_at: now + Duration::from_secs(600),
        app_data: None,
    }
}

fn lifecycle(c: &mut Criterion, runtime: &Runtime, name: &str, store: &Store) {
    for quota in [false, true] {
        let label = if quota {
            "insert_within_quota_accept_complete"
        } else {
            "insert_accept_complete"
        };
        c.bench_function(&format!("{name}/{label}"), |b| {
            b.iter(|| runtime.block_on(one_elicitation(store, quota)))
        });
    }
    let vault = store.vault(Keyring::new(VaultKey::from_bytes([7; 32])));
    let alice = Principal::authenticated("https://auth.example.com", "alice");
    c.bench_function(&format!("{name}/page_register_read_answer_use"), |b| {
        b.iter(|| {
            runtime.block_on(async {
                let id = format!("flow-{}", NEXT.fetch_add(1, Ordering::Relaxed));
                let purpose = r#"{"kind":"confirm","summary":"Buy Tea for 3 EUR"}"#;
                vault
                    .put_flow(&alice, &id, purpose, Duration::from_secs(3600))
                    .await
                    .expect("put");
                vault.get_flow(&id).await.expect("get").expect("live");
                assert!(
                    vault
                        .set_flow_outcome(&alice, &id, "confirmed")
                        .await
                        .expect("set")
                );
                let flow = vault.latest_flow(&alice, purpose).await.expect("latest");
                assert!(flow.is_some());
                vault.delete_flow(&alice, &id).await.expect("delete")
            })
        })
    });
    let login = LoginState {
        nonce: SecretString::from("n0nce-0123456789abcdef0123456789abcdef0123"),
        pkce_verifier: SecretString::from("v3rifier-0123456789abcdef0123456789abcdef0123"),
        return_to: "/connect?elicitationId=0123456789abcdef".into(),
    };
    c.bench_function(&format!("{name}/sign_in_store_take"), |b| {
        b.iter(|| {
            runtime.block_on(async {
                let state = format!("state-{}", NEXT.fetch_add(1, Ordering::Relaxed));
                vault
                    .create_login_state(
                        &state,
                        "binding",
                        &login,
                        Duration::from_secs(600),
                        1_000_000,
                    )
                    .await
                    .expect("create");
                vault.take_login_state(&state).await.expect("take")
            })
        })
    });
}

/// One URL elicitation through the store: inserted (within a cap of 32 when `quota`),
/// accepted, completed.
async fn one_elicitation(store: &Store, quota: bool) {
    let alice = Principal::authenticated("https://auth.example.com", "alice");
    let r = record(&alice);
    let id = r.id.clone();
    if quota {
        store.insert_within_quota(r, 32).await.expect("insert");
    } else {
        store.insert(r).await.expect("insert");
    }
    store
        .transition(&alice, &id, Event::Accept)
        .await
        .expect("accept");
    store
        .transition(&alice, &id, Event::Complete)
        .await
        .expect("complete");
}

fn benches(c: &mut Criterion) {
    let runtime = Runtime::new().expect("runtime");
    let alice = Principal::authenticated("https://auth.example.com", "alice");

    let sqlite = runtime.block_on(common::sqlite_file());
    let store = runtime.block_on(sqlite.connect());
    lifecycle(c, &runtime, "sqlite_file", &store);

    let vault = store.vault(Keyring::new(VaultKey::from_bytes([7; 32])));
    let secret = SecretString::from("sk_live_0123456789abcdef0123456789abcdef");
    c.bench_function("sqlite_file/vault_put_get_secret", |b| {
        b.iter(|| {
            runtime.block_on(async {
                vault.put_secret(&alice, "api", &secret).await.expect("put");
                vault
                    .get_secret(&alice, "api")
                    .await
                    .expect("get")
                    .expect("stored")
            })
        })
    });

    let reachable = runtime.block_on(async {
        tokio::time::timeout(
            Duration::from_secs(3),
            tokio::net::TcpStream::connect("127.0.0.1:5432"),
        )
        .await
        .is_ok_and(|r| r.is_ok())
    });
    if reachable {
        let pg = runtime.block_on(common::postgres());
        let store = runtime.block_on(pg.connect());
        lifecycle(c, &runtime, "postgres", &store);
        runtime.block_on(store.close());
    } else {
        eprintln!("PostgreSQL not reachable on 127.0.0.1:5432: postgres group skipped");
    }
}

criterion_group!(store, benches);
criterion_main!(store);
