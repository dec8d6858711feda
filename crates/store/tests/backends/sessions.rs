//! Browser sessions on each backend.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use mcp_elicit_server::{Clock, Principal};
use mcp_elicit_store::secrecy::ExposeSecret;
use mcp_elicit_store::{Error, Keyring, SessionStore, VaultKey};
use sha2::{Digest, Sha256};

use crate::common::{ManualClock, TestDb, contains, dump, fetch_blob};

fn alice() -> Principal {
    Principal::authenticated("https://auth.example.com", "alice")
}

fn bob() -> Principal {
    Principal::authenticated("https://auth.example.com", "bob")
}

fn t0() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_764_000_000)
}

/// Whether `id` names a live browser session.
async fn is_live(vault: &dyn SessionStore, id: &str) -> bool {
    vault.get_browser_session(id).await.expect("get").is_some()
}

pub(crate) async fn browser_session_lifecycle(db: &TestDb) {
    let store = db.connect().await;
    let clock = Arc::new(ManualClock::at(t0()));
    let vault: Arc<dyn SessionStore> = Arc::new(
        store
            .vault(Keyring::new(VaultKey::from_bytes([9; 32])))
            .with_clock(clock.clone()),
    );
    let created = vault
        .create_browser_session(&alice(), Duration::from_secs(3600))
        .await
        .expect("create");
    assert_eq!(created.expires_at, t0() + Duration::from_secs(3600));
    assert!(
        created.id.expose_secret().len() >= 43,
        "256 bits, base64url"
    );
    assert_ne!(
        created.id.expose_secret(),
        created.csrf_token.expose_secret()
    );

    let session = vault
        .get_browser_session(created.id.expose_secret())
        .await
        .expect("get")
        .expect("live");
    assert_eq!(session.principal, alice());
    assert_eq!(session.created_at, t0());
    assert!(session.verify_csrf(created.csrf_token.expose_secret()));
    assert!(!session.verify_csrf(""));
    assert!(!session.verify_csrf("forged"));
    let shown = format!("{session:?} {created:?}");
    assert!(!shown.contains(created.id.expose_secret()), "{shown}");
    assert!(
        !shown.contains(created.csrf_token.expose_secret()),
        "{shown}"
    );

    // Stored: a 32-byte hash, never the raw id or CSRF token.
    let hash = fetch_blob(&store, "SELECT id_hash FROM browser_sessions", &[]).await;
    assert_eq!(
        hash,
        Sha256::digest(created.id.expose_secret().as_bytes()).to_vec()
    );
    let rows = dump(&store, "browser_sessions").await;
    assert!(!contains(&rows[0], created.id.expose_secret().as_bytes()));
    assert!(!contains(
        &rows[0],
        created.csrf_token.expose_secret().as_bytes()
    ));

    // Unknown, malformed and oversized ids find nothing and do not fail.
    for junk in ["", "nope", &"a".repeat(100_000), "💥\0\n"] {
        assert!(!is_live(&*vault, junk).await);
        assert!(!vault.delete_browser_session(junk).await.expect("delete"));
    }

    // Expiry: refused at the deadline and deleted.
    clock.advance(Duration::from_secs(3600));
    assert!(!is_live(&*vault, created.id.expose_secret()).await);
    assert!(
        dump(&store, "browser_sessions").await.is_empty(),
        "expired row deleted"
    );
}

pub(crate) async fn browser_sessions_end(db: &TestDb) {
    let store = db.connect().await;
    let clock = Arc::new(ManualClock::at(t0()));
    let vault = store
        .vault(Keyring::new(VaultKey::from_bytes([9; 32])))
        .with_clock(clock.clone());
    let ttl = Duration::from_secs(600);
    let a1 = vault
        .create_browser_session(&alice(), ttl)
        .await
        .expect("a1");
    let a2 = vault
        .create_browser_session(&alice(), ttl)
        .await
        .expect("a2");
    let b1 = vault.create_browser_session(&bob(), ttl).await.expect("b1");
    let short = vault
        .create_browser_session(&bob(), Duration::from_secs(5))
        .await
        .expect("short");
    assert_ne!(a1.id.expose_secret(), a2.id.expose_secret());

    assert!(
        vault
            .delete_browser_session(a1.id.expose_secret())
            .await
            .expect("logout")
    );
    assert!(!is_live(&vault, a1.id.expose_secret()).await);
    assert!(is_live(&vault, a2.id.expose_secret()).await);

    clock.advance(Duration::from_secs(10));
    assert_eq!(vault.sweep_browser_sessions(clock.now()).await, Ok(1));
    assert!(!is_live(&vault, short.id.expose_secret()).await);

    assert_eq!(vault.delete_browser_sessions_of(&alice()).await, Ok(1));
    assert!(!is_live(&vault, a2.id.expose_secret()).await);
    let bobs = vault
        .get_browser_session(b1.id.expose_secret())
        .await
        .expect("get");
    assert_eq!(bobs.map(|s| s.principal), Some(bob()));

    assert!(matches!(
        vault.create_browser_session(&alice(), Duration::ZERO).await,
        Err(Error::Config(_))
    ));
}

pub(crate) async fn session_rows_cannot_be_reassigned(db: &TestDb) {
    let store = db.connect().await;
    let vault = store.vault(Keyring::new(VaultKey::from_bytes([9; 32])));
    let created = vault
        .create_browser_session(&bob(), Duration::from_secs(600))
        .await
        .expect("create");
    // An attacker with write access re-points Bob's session at Alice.
    crate::common::exec(
        &store,
        "UPDATE browser_sessions SET principal_subject = $1",
        &[crate::common::Param::Text("alice".into())],
    )
    .await;
    assert!(matches!(
        vault.get_browser_session(created.id.expose_secret()).await,
        Err(Error::Decrypt(_))
    ));
}
