//! The encrypted vault on each backend: secrets, OAuth tokens, one-time OAuth states.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use mcp_elicit_server::Principal;
use mcp_elicit_store::secrecy::{ExposeSecret, SecretString};
use mcp_elicit_store::{Error, Keyring, OAuthTokens, Store, Vault, VaultKey, VaultStore};
use sha2::{Digest, Sha256};

use crate::common::{ManualClock, Param, TestDb, contains, dump, exec, fetch_blob};

const SECRET: &str = "sk_live_51Hx-PLAINTEXT-canary-7f3a";

fn alice() -> Principal {
    Principal::authenticated("https://auth.example.com", "alice")
}

fn bob() -> Principal {
    Principal::authenticated("https://auth.example.com", "bob")
}

fn key(byte: u8) -> VaultKey {
    VaultKey::from_bytes([byte; 32])
}

fn t0() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_764_000_000)
}

fn vault_at(store: &Store, keys: Keyring) -> (Vault, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::at(t0()));
    (store.vault(keys).with_clock(clock.clone()), clock)
}

/// A fresh connection to `db` and a vault on it with key 1 (its clock stays at [`t0`]).
async fn open_vault(db: &TestDb) -> (Store, Vault) {
    let store = db.connect().await;
    let (vault, _) = vault_at(&store, Keyring::new(key(1)));
    (store, vault)
}

/// Stores [`SECRET`] as alice's secret `api`.
async fn put_canary_secret(vault: &Vault) {
    vault
        .put_secret(&alice(), "api", &SecretString::from(SECRET))
        .await
        .expect("put");
}

/// Stores [`full_tokens`] as alice's `github` tokens.
async fn put_full_tokens(vault: &Vault) {
    vault
        .put_tokens(&alice(), "github", &full_tokens())
        .await
        .expect("tokens");
}

fn text(s: &str) -> Param {
    Param::Text(s.to_owned())
}

fn full_tokens() -> OAuthTokens {
    OAuthTokens {
        access_token: SecretString::from("gho_ACCESS-canary-111"),
        refresh_token: Some(SecretString::from("ghr_REFRESH-canary-222")),
        token_type: "Bearer".into(),
        expires_at: Some(t0() + Duration::from_secs(3600)),
        scopes: vec!["repo".into(), "read:org".into()],
    }
}

pub(crate) async fn secret_round_trip(db: &TestDb) {
    let store = db.connect().await;
    let (vault, clock) = vault_at(&store, Keyring::new(key(1)));
    assert!(
        vault
            .get_secret(&alice(), "api")
            .await
            .expect("get")
            .is_none()
    );
    put_canary_secret(&vault).await;
    let got = vault
        .get_secret(&alice(), "api")
        .await
        .expect("get")
        .expect("stored");
    assert_eq!(got.value.expose_secret(), SECRET);
    assert_eq!((got.created_at, got.updated_at), (t0(), t0()));

    clock.advance(Duration::from_secs(60));
    vault
        .put_secret(&alice(), "api", &SecretString::from("rotated-value"))
        .await
        .expect("replace");
    vault
        .put_secret(&alice(), "another", &SecretString::from("x"))
        .await
        .expect("put");
    let got = vault
        .get_secret(&alice(), "api")
        .await
        .expect("get")
        .expect("stored");
    assert_eq!(got.value.expose_secret(), "rotated-value");
    assert_eq!(got.created_at, t0(), "creation time kept on replace");
    assert_eq!(got.updated_at, t0() + Duration::from_secs(60));

    let names: Vec<String> = vault
        .list_secrets(&alice())
        .await
        .expect("list")
        .into_iter()
        .map(|i| i.name)
        .collect();
    assert_eq!(names, ["another", "api"]);
    assert!(vault.list_secrets(&bob()).await.expect("list").is_empty());
    assert!(
        vault
            .get_secret(&bob(), "api")
            .await
            .expect("get")
            .is_none()
    );
    assert!(
        !vault.delete_secret(&bob(), "api").await.expect("delete"),
        "not bob's"
    );
    assert!(vault.delete_secret(&alice(), "api").await.expect("delete"));
    assert!(!vault.delete_secret(&alice(), "api").await.expect("delete"));
    assert!(
        vault
            .get_secret(&alice(), "api")
            .await
            .expect("get")
            .is_none()
    );

    for bad in ["", "line\nbreak", &"n".repeat(257)] {
        assert!(matches!(
            vault
                .put_secret(&alice(), bad, &SecretString::from("v"))
                .await,
            Err(Error::Config(_))
        ));
    }
}

/// What someone reading the database sees: no plaintext anywhere in any row.
pub(crate) async fn nothing_secret_is_stored_in_clear(db: &TestDb) {
    let (store, vault) = open_vault(db).await;
    put_canary_secret(&vault).await;
    let tokens = full_tokens();
    vault
        .put_tokens(&alice(), "github", &tokens)
        .await
        .expect("put tokens");
    let verifier = SecretString::from("pkce-VERIFIER-canary-333-abcdefghijklmnopqrstuvwxyz");
    let state = vault
        .create_oauth_state(
            &alice(),
            "elic-1",
            "github",
            &verifier,
            Duration::from_secs(600),
        )
        .await
        .expect("state");
    let session = vault_sessions(&vault).await;

    let canaries: Vec<(&str, &[u8])> = vec![
        ("secret", SECRET.as_bytes()),
        (
            "access token",
            tokens.access_token.expose_secret().as_bytes(),
        ),
        ("refresh token", b"ghr_REFRESH-canary-222"),
        ("PKCE verifier", verifier.expose_secret().as_bytes()),
        ("OAuth state", state.expose_secret().as_bytes()),
        ("session id", session.0.expose_secret().as_bytes()),
        ("CSRF token", session.1.expose_secret().as_bytes()),
        ("vault key", &[1u8; 32]),
    ];
    for table in [
        "vault_secrets",
        "vault_oauth_tokens",
        "oauth_states",
        "browser_sessions",
    ] {
        let rows = dump(&store, table).await;
        assert_eq!(rows.len(), 1, "{table}");
        for (what, canary) in &canaries {
            assert!(
                !contains(&rows[0], canary),
                "{what} found in clear in {table}"
            );
        }
    }
    let ciphertext = fetch_blob(
        &store,
        "SELECT ciphertext FROM vault_secrets WHERE principal_subject = $1",
        &[text("alice")],
    )
    .await;
    assert_eq!(
        ciphertext.len(),
        SECRET.len() + 16,
        "ciphertext plus Poly1305 tag"
    );
}

async fn vault_sessions(vault: &Vault) -> (SecretString, SecretString) {
    use mcp_elicit_store::SessionStore;
    let s = vault
        .create_browser_session(&alice(), Duration::from_secs(600))
        .await
        .expect("session");
    (s.id, s.csrf_token)
}

/// A row copied to another user (or renamed) fails authentication.
pub(crate) async fn moved_rows_fail_to_decrypt(db: &TestDb) {
    let (store, vault) = open_vault(db).await;
    put_canary_secret(&vault).await;
    vault
        .put_secret(&bob(), "api", &SecretString::from("bobs own"))
        .await
        .expect("put");
    // Bob (or an attacker with write access) copies Alice's ciphertext into Bob's row.
    let n = exec(
        &store,
        "UPDATE vault_secrets SET nonce = (SELECT nonce FROM vault_secrets WHERE \
         principal_subject = $1), ciphertext = (SELECT ciphertext FROM vault_secrets WHERE \
         principal_subject = $1) WHERE principal_subject = $2",
        &[text("alice"), text("bob")],
    )
    .await;
    assert_eq!(n, 1);
    assert!(matches!(
        vault.get_secret(&bob(), "api").await,
        Err(Error::Decrypt(_))
    ));
    // Reassigning Alice's row itself to Bob, or renaming it: also refused.
    exec(
        &store,
        "DELETE FROM vault_secrets WHERE principal_subject = $1",
        &[text("bob")],
    )
    .await;
    exec(
        &store,
        "UPDATE vault_secrets SET principal_subject = $1 WHERE principal_subject = $2",
        &[text("bob"), text("alice")],
    )
    .await;
    assert!(matches!(
        vault.get_secret(&bob(), "api").await,
        Err(Error::Decrypt(_))
    ));
    exec(
        &store,
        "UPDATE vault_secrets SET principal_subject = $1, name = $2",
        &[text("alice"), text("other-name")],
    )
    .await;
    assert!(matches!(
        vault.get_secret(&alice(), "other-name").await,
        Err(Error::Decrypt(_))
    ));
    // A flipped ciphertext bit.
    exec(
        &store,
        "UPDATE vault_secrets SET name = $1, ciphertext = $2",
        &[text("api"), Param::Bytes(vec![0u8; SECRET.len() + 16])],
    )
    .await;
    assert!(matches!(
        vault.get_secret(&alice(), "api").await,
        Err(Error::Decrypt(_))
    ));
}

pub(crate) async fn wrong_key_fails_and_rotation_works(db: &TestDb) {
    let store = db.connect().await;
    let (old_vault, _) = vault_at(&store, Keyring::new(key(1)));
    put_canary_secret(&old_vault).await;
    put_full_tokens(&old_vault).await;

    // Another key: refused, naming the key id, never returning garbage.
    let (wrong, _) = vault_at(&store, Keyring::new(key(2)));
    let err = wrong
        .get_secret(&alice(), "api")
        .await
        .expect_err("wrong key");
    assert!(
        matches!(&err, Error::UnknownKey { key_id, .. } if *key_id == key(1).id()),
        "{err}"
    );
    assert!(wrong.get_tokens(&alice(), "github").await.is_err());
    // Forging the key id to the wrong key's: authentication fails.
    exec(
        &store,
        "UPDATE vault_secrets SET key_id = $1",
        &[text(&key(2).id())],
    )
    .await;
    assert!(matches!(
        wrong.get_secret(&alice(), "api").await,
        Err(Error::Decrypt(_))
    ));
    exec(
        &store,
        "UPDATE vault_secrets SET key_id = $1",
        &[text(&key(1).id())],
    )
    .await;

    // Rotation: new key first, old key kept for reading, then re-encrypt.
    let (rotating, _) = vault_at(&store, Keyring::new(key(2)).with_previous(key(1)));
    let before = rotating
        .get_secret(&alice(), "api")
        .await
        .expect("old key still read");
    assert_eq!(before.expect("stored").value.expose_secret(), SECRET);
    assert_eq!(
        rotating.reencrypt().await,
        Ok(2),
        "one secret, one token set"
    );
    assert_eq!(
        rotating.reencrypt().await,
        Ok(0),
        "nothing left under the old key"
    );
    let (new_only, _) = vault_at(&store, Keyring::new(key(2)));
    let after = new_only.get_secret(&alice(), "api").await.expect("new key");
    assert_eq!(after.expect("stored").value.expose_secret(), SECRET);
    let tokens = new_only
        .get_tokens(&alice(), "github")
        .await
        .expect("tokens")
        .expect("stored");
    assert_eq!(
        tokens.refresh_token.expect("refresh").expose_secret(),
        "ghr_REFRESH-canary-222"
    );
    assert!(
        old_vault.get_secret(&alice(), "api").await.is_err(),
        "old key alone no longer reads"
    );
}

pub(crate) async fn debug_output_holds_no_secret(db: &TestDb) {
    let store = db.connect().await;
    let (vault, _) = vault_at(&store, Keyring::new(key(0x42)));
    put_canary_secret(&vault).await;
    put_full_tokens(&vault).await;
    let verifier = SecretString::from("pkce-VERIFIER-canary-333-abcdefghijklmnopqrstuvwxyz");
    let state = vault
        .create_oauth_state(&alice(), "e", "github", &verifier, Duration::from_secs(60))
        .await
        .expect("state");
    let secret = vault.get_secret(&alice(), "api").await.expect("get");
    let tokens = vault.get_tokens(&alice(), "github").await.expect("get");
    let taken = vault
        .take_oauth_state(&alice(), state.expose_secret())
        .await
        .expect("take");
    let shown = format!(
        "{secret:?} {tokens:?} {taken:?} {vault:?} {:?}",
        vault.keys()
    );
    for canary in [
        SECRET,
        "ACCESS-canary",
        "REFRESH-canary",
        "VERIFIER-canary",
        "4242424242",
        "66, 66",
    ] {
        assert!(!shown.contains(canary), "{canary} in {shown}");
    }
    assert!(!shown.contains(state.expose_secret()));
    assert!(
        shown.contains("alice"),
        "records stay identifiable: {shown}"
    );
}

pub(crate) async fn tokens_round_trip(db: &TestDb) {
    let (store, vault) = open_vault(db).await;
    let tokens = full_tokens();
    vault
        .put_tokens(&alice(), "github", &tokens)
        .await
        .expect("put");
    let got = vault
        .get_tokens(&alice(), "github")
        .await
        .expect("get")
        .expect("stored");
    assert_eq!(
        got.access_token.expose_secret(),
        tokens.access_token.expose_secret()
    );
    assert_eq!(
        got.refresh_token
            .as_ref()
            .map(|t| t.expose_secret().to_owned()),
        Some("ghr_REFRESH-canary-222".to_owned())
    );
    assert_eq!(got.token_type, "Bearer");
    assert_eq!(got.expires_at, tokens.expires_at);
    assert_eq!(got.scopes, ["repo", "read:org"]);
    assert!(
        vault
            .get_tokens(&bob(), "github")
            .await
            .expect("get")
            .is_none()
    );
    assert!(
        vault
            .get_tokens(&alice(), "gitlab")
            .await
            .expect("get")
            .is_none()
    );

    // Replace with a bare bearer token: refresh token and scopes gone.
    let bare = OAuthTokens::bearer(SecretString::from("second"));
    vault
        .put_tokens(&alice(), "github", &bare)
        .await
        .expect("replace");
    let got = vault
        .get_tokens(&alice(), "github")
        .await
        .expect("get")
        .expect("stored");
    assert_eq!(got.access_token.expose_secret(), "second");
    assert!(got.refresh_token.is_none() && got.scopes.is_empty() && got.expires_at.is_none());

    // Swapping the access and refresh ciphertexts is detected.
    vault
        .put_tokens(&alice(), "github", &tokens)
        .await
        .expect("put");
    exec(
        &store,
        "UPDATE vault_oauth_tokens SET access_nonce = refresh_nonce, \
         access_ciphertext = refresh_ciphertext, refresh_nonce = access_nonce, \
         refresh_ciphertext = access_ciphertext",
        &[],
    )
    .await;
    assert!(matches!(
        vault.get_tokens(&alice(), "github").await,
        Err(Error::Decrypt(_))
    ));
    assert!(
        vault
            .delete_tokens(&alice(), "github")
            .await
            .expect("delete")
    );
    assert!(
        !vault
            .delete_tokens(&alice(), "github")
            .await
            .expect("delete")
    );

    let mut bad = full_tokens();
    bad.scopes = vec!["two words".into()];
    assert!(matches!(
        vault.put_tokens(&alice(), "github", &bad).await,
        Err(Error::Config(_))
    ));
}

pub(crate) async fn oauth_state_is_taken_once_by_its_user(db: &TestDb) {
    let (store, vault) = open_vault(db).await;
    let verifier = SecretString::from("v".repeat(64));
    let state = vault
        .create_oauth_state(
            &alice(),
            "elic-7",
            "github",
            &verifier,
            Duration::from_secs(600),
        )
        .await
        .expect("create");
    assert!(state.expose_secret().len() >= 43, "256 bits, base64url");
    // The state is stored only as its hash.
    let hash = fetch_blob(&store, "SELECT state_hash FROM oauth_states", &[]).await;
    assert_eq!(
        hash,
        Sha256::digest(state.expose_secret().as_bytes()).to_vec()
    );

    // Bob's browser presents Alice's state (the phishing scenario): not found, not consumed.
    assert!(matches!(
        vault.take_oauth_state(&bob(), state.expose_secret()).await,
        Err(Error::NotFound(_))
    ));
    let taken = vault
        .take_oauth_state(&alice(), state.expose_secret())
        .await
        .expect("alice takes it");
    assert_eq!(taken.elicitation_id, "elic-7");
    assert_eq!(taken.provider, "github");
    assert_eq!(taken.principal, alice());
    assert_eq!(
        taken.pkce_verifier.expose_secret(),
        verifier.expose_secret()
    );
    assert_eq!(taken.expires_at, t0() + Duration::from_secs(600));
    assert!(matches!(
        vault
            .take_oauth_state(&alice(), state.expose_secret())
            .await,
        Err(Error::NotFound(_))
    ));
    for junk in ["", "not-a-state", &"x".repeat(10_000)] {
        assert!(matches!(
            vault.take_oauth_state(&alice(), junk).await,
            Err(Error::NotFound(_))
        ));
    }
}

pub(crate) async fn expired_oauth_state_is_refused(db: &TestDb) {
    let store = db.connect().await;
    let (vault, clock) = vault_at(&store, Keyring::new(key(1)));
    let verifier = SecretString::from("verifier");
    let stale = vault
        .create_oauth_state(&alice(), "e1", "github", &verifier, Duration::from_secs(60))
        .await
        .expect("create");
    let swept_later = vault
        .create_oauth_state(&alice(), "e2", "github", &verifier, Duration::from_secs(60))
        .await
        .expect("create");
    let fresh = vault
        .create_oauth_state(
            &alice(),
            "e3",
            "github",
            &verifier,
            Duration::from_secs(600),
        )
        .await
        .expect("create");
    clock.advance(Duration::from_secs(60));
    assert!(matches!(
        vault
            .take_oauth_state(&alice(), stale.expose_secret())
            .await,
        Err(Error::Expired(_))
    ));
    assert!(
        matches!(
            vault
                .take_oauth_state(&alice(), stale.expose_secret())
                .await,
            Err(Error::NotFound(_))
        ),
        "an expired state is consumed too"
    );
    assert_eq!(vault.sweep_oauth_states(clock_now(&clock)).await, Ok(1));
    assert!(matches!(
        vault
            .take_oauth_state(&alice(), swept_later.expose_secret())
            .await,
        Err(Error::NotFound(_))
    ));
    assert!(
        vault
            .take_oauth_state(&alice(), fresh.expose_secret())
            .await
            .is_ok()
    );
    assert!(matches!(
        vault
            .create_oauth_state(&alice(), "e4", "github", &verifier, Duration::ZERO)
            .await,
        Err(Error::Config(_))
    ));
}

fn clock_now(clock: &ManualClock) -> SystemTime {
    use mcp_elicit_server::Clock;
    clock.now()
}

pub(crate) async fn concurrent_state_takes_succeed_once(db: &TestDb) {
    let store = db.connect().await;
    let second = db.connect().await;
    let (vault, _) = vault_at(&store, Keyring::new(key(1)));
    let (other_node, _) = vault_at(&second, Keyring::new(key(1)));
    let state = vault
        .create_oauth_state(
            &alice(),
            "e",
            "github",
            &SecretString::from("v"),
            Duration::from_secs(60),
        )
        .await
        .expect("create");
    let tasks: Vec<_> = (0..16)
        .map(|i| {
            let vault = if i % 2 == 0 {
                vault.clone()
            } else {
                other_node.clone()
            };
            let state = state.expose_secret().to_owned();
            tokio::spawn(async move { vault.take_oauth_state(&alice(), &state).await })
        })
        .collect();
    let mut wins = 0;
    for task in tasks {
        match task.await.expect("task") {
            Ok(_) => wins += 1,
            Err(Error::NotFound(_)) => {}
            Err(other) => panic!("unexpected: {other}"),
        }
    }
    assert_eq!(wins, 1);
}

/// Rows altered in the database are reported as errors naming the record, never trusted
/// and never a panic.
pub(crate) async fn corrupt_rows_are_errors(db: &TestDb) {
    use mcp_elicit_core::message::Mode;
    use mcp_elicit_server::{ElicitationStore, PendingElicitation, SessionKey, StoreError};

    let (store, vault) = open_vault(db).await;
    store
        .insert(PendingElicitation {
            id: "e".into(),
            principal: alice(),
            session: SessionKey::from_stored("s"),
            mode: Mode::Url,
            state: mcp_elicit_core::lifecycle::State::Pending,
            message: "m".into(),
            url: None,
            created_at: t0(),
            expires_at: t0() + Duration::from_secs(60),
            app_data: None,
        })
        .await
        .expect("insert");
    exec(
        &store,
        "UPDATE elicitations SET state = $1",
        &[text("bogus")],
    )
    .await;
    match store.get(&alice(), "e").await {
        Err(StoreError::Backend(m)) => assert!(m.contains("bogus") && m.contains('e'), "{m}"),
        other => panic!("expected a backend error, got {other:?}"),
    }

    put_canary_secret(&vault).await;
    exec(
        &store,
        "UPDATE vault_secrets SET nonce = $1",
        &[Param::Bytes(vec![1, 2, 3])],
    )
    .await;
    let err = vault
        .get_secret(&alice(), "api")
        .await
        .expect_err("short nonce");
    assert!(
        matches!(&err, Error::Corrupt(m) if m.contains("api")),
        "{err}"
    );

    put_full_tokens(&vault).await;
    exec(
        &store,
        "UPDATE vault_oauth_tokens SET refresh_ciphertext = NULL",
        &[],
    )
    .await;
    assert!(matches!(
        vault.get_tokens(&alice(), "github").await,
        Err(Error::Corrupt(_))
    ));
}
