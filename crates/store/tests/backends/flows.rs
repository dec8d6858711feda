//! URL flows (page purposes and confirmation outcomes) and sign-ins in progress, on each
//! backend.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use mcp_elicit_server::{Clock, Principal};
use mcp_elicit_store::secrecy::{ExposeSecret, SecretString};
use mcp_elicit_store::{
    Error, FlowStore, Keyring, LoginState, LoginStore, MAX_PURPOSE_BYTES, Vault, VaultKey,
};
use sha2::{Digest, Sha256};

use crate::common::{ManualClock, Param, TestDb, contains, dump, exec, fetch_blob};

fn alice() -> Principal {
    Principal::authenticated("https://auth.example.com", "alice")
}

fn bob() -> Principal {
    Principal::authenticated("https://auth.example.com", "bob")
}

fn t0() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_764_000_000)
}

const HOUR: Duration = Duration::from_secs(3600);

async fn vault(db: &TestDb, clock: &Arc<ManualClock>) -> Vault {
    db.connect()
        .await
        .vault(Keyring::new(VaultKey::from_bytes([5; 32])))
        .with_clock(clock.clone())
}

pub(crate) async fn flows_keep_purpose_and_one_outcome(db: &TestDb) {
    let clock = Arc::new(ManualClock::at(t0()));
    let vault = vault(db, &clock).await;
    let purpose = r#"{"kind":"confirm","summary":"Pay 25 € to Example Co"}"#;
    vault
        .put_flow(&alice(), "e1", purpose, HOUR)
        .await
        .expect("put");
    let flow = vault.get_flow("e1").await.expect("get").expect("live");
    assert_eq!(flow.principal, alice());
    assert_eq!(flow.purpose, purpose);
    assert_eq!(flow.outcome, None);
    assert_eq!(flow.expires_at, t0() + HOUR);
    assert_eq!(vault.get_flow("unknown").await.expect("get"), None);
    assert_eq!(vault.get_flow("").await.expect("get"), None);

    // Another user can neither answer, clear, delete nor take over the id.
    assert!(
        !vault
            .set_flow_outcome(&bob(), "e1", "confirmed")
            .await
            .expect("set")
    );
    assert!(!vault.delete_flow(&bob(), "e1").await.expect("delete"));
    assert!(matches!(
        vault.put_flow(&bob(), "e1", "{}", HOUR).await,
        Err(Error::Config(_))
    ));
    assert_eq!(
        vault
            .get_flow("e1")
            .await
            .expect("get")
            .expect("live")
            .principal,
        alice()
    );

    // The first answer wins; clearing lets a later one in.
    assert!(
        vault
            .set_flow_outcome(&alice(), "e1", "cancelled")
            .await
            .expect("set")
    );
    assert!(
        !vault
            .set_flow_outcome(&alice(), "e1", "confirmed")
            .await
            .expect("set")
    );
    let flow = vault.get_flow("e1").await.expect("get").expect("live");
    assert_eq!(flow.outcome.as_deref(), Some("cancelled"));
    assert!(
        vault
            .clear_flow_outcome(&alice(), "e1")
            .await
            .expect("clear")
    );
    assert!(
        !vault
            .clear_flow_outcome(&alice(), "e1")
            .await
            .expect("clear")
    );
    assert!(
        vault
            .set_flow_outcome(&alice(), "e1", "confirmed")
            .await
            .expect("set")
    );

    // Re-registering (same user) replaces the purpose and forgets the answer.
    vault
        .put_flow(&alice(), "e1", "{}", HOUR)
        .await
        .expect("put again");
    let flow = vault.get_flow("e1").await.expect("get").expect("live");
    assert_eq!((flow.purpose.as_str(), flow.outcome), ("{}", None));

    // The latest live flow with a given purpose, per user.
    vault
        .put_flow(&alice(), "p1", "same", HOUR)
        .await
        .expect("put");
    clock.advance(Duration::from_secs(1));
    vault
        .put_flow(&alice(), "p2", "same", HOUR)
        .await
        .expect("put");
    vault
        .put_flow(&bob(), "p3", "same", HOUR)
        .await
        .expect("put");
    let latest = vault.latest_flow(&alice(), "same").await.expect("latest");
    assert_eq!(latest.map(|f| f.elicitation_id).as_deref(), Some("p2"));
    assert_eq!(
        vault.latest_flow(&alice(), "other").await.expect("latest"),
        None
    );
    for id in ["p1", "p2"] {
        vault.delete_flow(&alice(), id).await.expect("delete");
    }
    vault.delete_flow(&bob(), "p3").await.expect("delete");
    assert_eq!(
        vault.latest_flow(&alice(), "same").await.expect("latest"),
        None
    );

    // Limits name what is wrong.
    let huge = "x".repeat(MAX_PURPOSE_BYTES + 1);
    let err = vault
        .put_flow(&alice(), "e2", &huge, HOUR)
        .await
        .expect_err("too big");
    assert!(err.to_string().contains("purpose"), "{err}");
    assert!(
        vault
            .put_flow(&alice(), "bad\nid", "{}", HOUR)
            .await
            .is_err()
    );
    assert!(
        vault
            .put_flow(&alice(), "e3", "{}", Duration::ZERO)
            .await
            .is_err()
    );

    // Expired flows are not served, cannot be answered, and are swept.
    clock.advance(HOUR);
    assert_eq!(vault.get_flow("e1").await.expect("get"), None);
    assert!(
        !vault
            .set_flow_outcome(&alice(), "e1", "x")
            .await
            .expect("set")
    );
    assert_eq!(vault.sweep_flows(clock.now()).await.expect("sweep"), 1);
    assert!(!vault.delete_flow(&alice(), "e1").await.expect("gone"));
}

/// Two vaults on one database stand for two server nodes (or one node before and
/// after a restart): a flow registered on one is served and answered on the other, and
/// of racing answers exactly one is recorded.
pub(crate) async fn flows_are_shared_and_answered_once(db: &TestDb) {
    let clock = Arc::new(ManualClock::at(t0()));
    let first = Arc::new(vault(db, &clock).await);
    let second = Arc::new(vault(db, &clock).await);
    first
        .put_flow(&alice(), "e9", "{}", HOUR)
        .await
        .expect("put");
    assert!(second.get_flow("e9").await.expect("get").is_some());
    let tasks: Vec<_> = (0..16)
        .map(|i| {
            let v = if i % 2 == 0 {
                first.clone()
            } else {
                second.clone()
            };
            let answer = if i % 3 == 0 { "cancelled" } else { "confirmed" };
            tokio::spawn(async move { v.set_flow_outcome(&alice(), "e9", answer).await })
        })
        .collect();
    let mut wins = 0;
    for task in tasks {
        if task.await.expect("task").expect("set") {
            wins += 1;
        }
    }
    assert_eq!(wins, 1);
    assert!(first.delete_flow(&alice(), "e9").await.expect("delete"));
    assert_eq!(second.get_flow("e9").await.expect("get"), None);
}

fn login(return_to: &str) -> LoginState {
    LoginState {
        nonce: SecretString::from("nonce-Zq8w"),
        pkce_verifier: SecretString::from("verifier-8QmT2k9v"),
        return_to: return_to.to_owned(),
    }
}

pub(crate) async fn sign_ins_are_taken_once_and_sealed(db: &TestDb) {
    let clock = Arc::new(ManualClock::at(t0()));
    let first = vault(db, &clock).await;
    let second = vault(db, &clock).await;
    let ttl = Duration::from_secs(600);
    assert!(
        first
            .create_login_state(
                "state-1",
                "binding-1",
                &login("/connect?elicitationId=a"),
                ttl,
                10
            )
            .await
            .expect("create")
    );
    // Nothing secret or identifying is stored in clear.
    let rows = dump(first.store(), "login_states").await;
    for needle in [
        "state-1",
        "binding-1",
        "nonce-Zq8w",
        "verifier-8QmT2k9v",
        "/connect",
    ] {
        assert!(
            !rows.iter().any(|r| contains(r, needle.as_bytes())),
            "{needle} stored in clear"
        );
    }
    // Taken on another node, once.
    let taken = second.take_login_state("state-1").await.expect("take");
    assert_eq!(taken.login.nonce.expose_secret(), "nonce-Zq8w");
    assert_eq!(
        taken.login.pkce_verifier.expose_secret(),
        "verifier-8QmT2k9v"
    );
    assert_eq!(taken.login.return_to, "/connect?elicitationId=a");
    assert!(taken.verify_binding("binding-1"));
    assert!(!taken.verify_binding("binding-2"));
    assert!(!taken.verify_binding(""));
    assert!(matches!(
        first.take_login_state("state-1").await,
        Err(Error::NotFound(_))
    ));
    assert!(matches!(
        first.take_login_state("").await,
        Err(Error::NotFound(_))
    ));
    let long = "s".repeat(10_000);
    assert!(matches!(
        first.take_login_state(&long).await,
        Err(Error::NotFound(_))
    ));

    // Expired: refused and consumed.
    first
        .create_login_state("state-2", "b", &login("/"), ttl, 10)
        .await
        .expect("create");
    clock.advance(ttl);
    assert!(matches!(
        first.take_login_state("state-2").await,
        Err(Error::Expired(_))
    ));
    assert!(matches!(
        first.take_login_state("state-2").await,
        Err(Error::NotFound(_))
    ));

    // At most `max_live` unexpired sign-ins; expired ones do not count and are swept.
    for i in 0..3 {
        assert!(
            first
                .create_login_state(&format!("live-{i}"), "b", &login("/"), ttl, 3)
                .await
                .expect("create")
        );
    }
    assert!(
        !first
            .create_login_state("live-3", "b", &login("/"), ttl, 3)
            .await
            .expect("full")
    );
    clock.advance(ttl);
    assert!(
        first
            .create_login_state("live-4", "b", &login("/"), ttl, 3)
            .await
            .expect("the expired ones no longer count")
    );
    assert_eq!(
        first.sweep_login_states(clock.now()).await.expect("sweep"),
        3
    );
}

pub(crate) async fn sign_in_rows_do_not_decrypt_under_another_state(db: &TestDb) {
    let clock = Arc::new(ManualClock::at(t0()));
    let vault = vault(db, &clock).await;
    let ttl = Duration::from_secs(600);
    for s in ["state-a", "state-b"] {
        vault
            .create_login_state(s, "b", &login("/"), ttl, 10)
            .await
            .expect("create");
    }
    // Give state-a's row the sealed fields of state-b (what someone with write access
    // to the database could do): it must not decrypt under state-a.
    let store = vault.store();
    let hash = |s: &str| Param::Bytes(Sha256::digest(s.as_bytes()).to_vec());
    let sealed = |column: &'static str| {
        let sql = format!("SELECT {column} FROM login_states WHERE state_hash = $1");
        async move { fetch_blob(store, &sql, &[hash("state-b")]).await }
    };
    let (nonce, ciphertext) = (sealed("nonce").await, sealed("ciphertext").await);
    let changed = exec(
        store,
        "UPDATE login_states SET nonce = $1, ciphertext = $2 WHERE state_hash = $3",
        &[
            Param::Bytes(nonce),
            Param::Bytes(ciphertext),
            hash("state-a"),
        ],
    )
    .await;
    assert_eq!(changed, 1);
    assert!(matches!(
        vault.take_login_state("state-a").await,
        Err(Error::Decrypt(_))
    ));
}
