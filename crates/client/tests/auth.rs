//! MCP authorization against a fake authorization server on loopback: each test tries to
//! break one rule (tokens only after a complete sign-in, issuer checks, loopback redirects,
//! bounded step-up, bounded bodies, typed errors naming the server, no token in any text).

#[path = "support/auth_server.rs"]
mod auth_server;

use std::sync::Arc;

use auth_server::{Fake, Knobs};
use mcp_elicit_client::auth::{
    AuthConfig, AuthErrorKind, Authorizer, HeadlessRedirect, MemoryTokenStore, TokenStore,
};
use mcp_elicit_client::{
    Config, ElicitationClient, FormPolicy, ManualOpen, ProtocolChoice, ScriptedUi, ServerTarget,
    UrlPolicy,
};
use mcp_elicit_core::message::Capability;

const REDIRECT: &str = "http://127.0.0.1:9/callback";

struct Run {
    fake: Fake,
    store: MemoryTokenStore,
    authorizer: Arc<Authorizer>,
    /// `Ok(tool count)` or the connect / list error text.
    outcome: Result<usize, String>,
}

async fn run_with(knobs: Knobs, config: AuthConfig, redirect: &str) -> Run {
    let fake = auth_server::start(knobs).await;
    let store = MemoryTokenStore::default();
    let authorizer = Arc::new(
        Authorizer::new(
            &fake.mcp(),
            config,
            Arc::new(store.clone()),
            Arc::new(HeadlessRedirect::new(redirect)),
        )
        .unwrap(),
    );
    let ui = ScriptedUi::new(
        Capability::FORM,
        FormPolicy::AcceptDefaults,
        UrlPolicy::Never,
    );
    let config = Config::default()
        .with_protocol(ProtocolChoice::V2025_11_25)
        .with_authorizer(authorizer.clone());
    let client = ElicitationClient::new(ui, ManualOpen, config);
    let target: ServerTarget = fake.mcp().parse().unwrap();
    let outcome = match client.clone().connect(&target).await {
        Err(e) => Err(e.to_string()),
        Ok(connection) => {
            let listed = connection.peer().list_all_tools().await;
            let _ = connection.cancel().await;
            listed.map(|t| t.len()).map_err(|e| e.to_string())
        }
    };
    Run {
        fake,
        store,
        authorizer,
        outcome,
    }
}

async fn run(knobs: Knobs) -> Run {
    run_with(knobs, AuthConfig::new("auth-test"), REDIRECT).await
}

fn query_param(query: &str, name: &str) -> Option<String> {
    url::form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
}

/// The failure is typed, names the server, and no token or code is in any error text.
fn assert_failed(run: &Run, want: impl Fn(&AuthErrorKind) -> bool) {
    assert!(
        run.outcome.is_err(),
        "expected a failure, got {:?}",
        run.outcome
    );
    let error = run.authorizer.last_error().expect("a typed error");
    assert!(want(&error.kind), "unexpected error kind: {error}");
    let text = error.to_string();
    assert!(
        text.contains(&run.fake.mcp()),
        "the error names the server: {text}"
    );
    for t in [&text, run.outcome.as_ref().unwrap_err()] {
        assert!(!t.contains("secret-token"), "a token leaked into {t}");
        assert!(!t.contains("the-code"), "the code leaked into {t}");
    }
    assert!(
        run.store.resources().is_empty(),
        "a failed sign-in left a token behind"
    );
}

#[tokio::test]
async fn signs_in_with_pkce_and_resource_and_sends_the_token_only_to_its_server() {
    let run = run(Knobs::default()).await;
    assert_eq!(run.outcome, Ok(0));
    let seen = run.fake.seen();
    assert_eq!(seen.authorize.len(), 1);
    let q = &seen.authorize[0];
    assert_eq!(
        query_param(q, "code_challenge_method").as_deref(),
        Some("S256")
    );
    assert!(query_param(q, "code_challenge").is_some_and(|c| c.len() >= 43));
    assert_eq!(query_param(q, "resource"), Some(run.fake.mcp()));
    assert_eq!(query_param(q, "redirect_uri").as_deref(), Some(REDIRECT));
    // No scope anywhere (challenge, PRM): none requested.
    assert_eq!(query_param(q, "scope"), None);
    let t = &seen.token[0];
    assert!(query_param(t, "code_verifier").is_some());
    assert_eq!(query_param(t, "resource"), Some(run.fake.mcp()));
    assert!(seen.bearer.iter().all(|b| b == "Bearer secret-token-1"));
    assert!(!seen.bearer.is_empty());
    // Kept under the server's canonical URI, and Debug does not show it.
    let stored = run.store.load(&run.fake.mcp()).unwrap().expect("stored");
    assert!(!format!("{stored:?}").contains("secret-token"));
    assert!(!format!("{:?}", run.authorizer).contains("secret-token"));
    assert_eq!(run.store.resources(), vec![run.fake.mcp()]);
}

#[tokio::test]
async fn scopes_come_from_prm_and_offline_access_is_added_when_supported() {
    let knobs = Knobs {
        prm_scopes: Some(vec!["mcp".into()]),
        offline: true,
        ..Knobs::default()
    };
    let run = run(knobs).await;
    assert_eq!(run.outcome, Ok(0));
    let scope = query_param(&run.fake.seen().authorize[0], "scope").unwrap_or_default();
    let scopes: Vec<&str> = scope.split(' ').collect();
    assert_eq!(scopes, ["mcp", "offline_access"]);
}

#[tokio::test]
async fn metadata_for_another_issuer_is_refused_before_any_registration() {
    let knobs = Knobs {
        metadata_issuer: Some("https://attacker.example.com".into()),
        ..Knobs::default()
    };
    let run = run(knobs).await;
    assert_failed(
        &run,
        |k| matches!(k, AuthErrorKind::IssuerMismatch { received, .. } if received == "https://attacker.example.com"),
    );
    let seen = run.fake.seen();
    assert!(seen.register.is_empty() && seen.authorize.is_empty() && seen.token.is_empty());
}

#[tokio::test]
async fn a_wrong_iss_on_the_authorization_response_stops_before_the_token_request() {
    for iss in ["https://evil.example.com", ""] {
        let knobs = Knobs {
            iss: Some(iss.into()),
            ..Knobs::default()
        };
        let run = run(knobs).await;
        assert_failed(&run, |k| {
            matches!(
                k,
                AuthErrorKind::IssuerMismatch { .. } | AuthErrorKind::IssuerMissing { .. }
            )
        });
        assert!(
            run.fake.seen().token.is_empty(),
            "iss {iss:?}: the code was spent"
        );
    }
}

#[tokio::test]
async fn prm_for_another_resource_is_refused_before_authorization() {
    let knobs = Knobs {
        prm_resource: Some("https://evil.example.com/mcp".into()),
        ..Knobs::default()
    };
    let run = run(knobs).await;
    assert_failed(&run, |k| matches!(k, AuthErrorKind::ResourceMismatch(_)));
    assert!(run.fake.seen().authorize.is_empty());
}

#[tokio::test]
async fn a_non_loopback_redirect_uri_is_refused_before_registration() {
    for redirect in [
        "https://example.com/callback",
        "http://10.0.0.1/cb",
        "not a url",
    ] {
        let run = run_with(Knobs::default(), AuthConfig::new("auth-test"), redirect).await;
        assert_failed(&run, |k| matches!(k, AuthErrorKind::Redirect(_)));
        let seen = run.fake.seen();
        assert!(
            seen.register.is_empty() && seen.authorize.is_empty(),
            "{redirect}"
        );
    }
}

#[tokio::test]
async fn a_response_sent_to_another_uri_than_the_redirect_uri_is_refused() {
    let knobs = Knobs {
        redirect_to: Some("http://127.0.0.1:9/elsewhere".into()),
        ..Knobs::default()
    };
    let run = run(knobs).await;
    assert_failed(&run, |k| matches!(k, AuthErrorKind::Redirect(_)));
    assert!(run.fake.seen().token.is_empty());
}

#[tokio::test]
async fn an_endless_step_up_ends_after_the_limit() {
    let knobs = Knobs {
        always_insufficient: true,
        ..Knobs::default()
    };
    let run = run(knobs).await;
    assert!(run.outcome.is_err());
    let error = run.authorizer.last_error().expect("typed");
    assert_eq!(error.kind, AuthErrorKind::StepUpLimit(2));
    let seen = run.fake.seen();
    // One sign-in and two step-ups, each asking for the union with the challenged scope.
    assert_eq!(seen.authorize.len(), 3);
    for q in &seen.authorize[1..] {
        let scope = query_param(q, "scope").unwrap_or_default();
        assert!(scope.split(' ').any(|s| s == "admin"), "{scope}");
    }
}

#[tokio::test]
async fn a_token_the_server_keeps_refusing_ends_after_one_sign_in() {
    let knobs = Knobs {
        refuse_tokens: true,
        ..Knobs::default()
    };
    let run = run(knobs).await;
    assert!(run.outcome.is_err());
    let error = run.authorizer.last_error().expect("typed");
    assert_eq!(error.kind, AuthErrorKind::TokenRefused { status: 401 });
    assert_eq!(run.fake.seen().authorize.len(), 1);
}

#[tokio::test]
async fn huge_or_malformed_metadata_is_a_discovery_error() {
    for knobs in [
        Knobs {
            huge_metadata: Some(3 * 1024 * 1024),
            ..Knobs::default()
        },
        Knobs {
            malformed_metadata: true,
            ..Knobs::default()
        },
    ] {
        let run = run(knobs).await;
        assert_failed(&run, |k| matches!(k, AuthErrorKind::Discovery(_)));
        assert!(run.fake.seen().register.is_empty());
    }
}

#[tokio::test]
async fn a_declined_sign_in_leaves_nothing_behind() {
    use futures::future::BoxFuture;
    use mcp_elicit_client::auth::{AuthUiError, AuthorizationPrompt, AuthorizationUi};

    struct Decline(std::sync::Mutex<Option<AuthorizationPrompt>>);
    impl AuthorizationUi for Decline {
        fn redirect_uri(&self) -> BoxFuture<'_, Result<String, AuthUiError>> {
            Box::pin(async { Ok(REDIRECT.to_owned()) })
        }
        fn authorize<'a>(
            &'a self,
            prompt: &'a AuthorizationPrompt,
        ) -> BoxFuture<'a, Result<String, AuthUiError>> {
            *self.0.lock().unwrap() = Some(prompt.clone());
            Box::pin(async { Err(AuthUiError::Declined) })
        }
    }

    let fake = auth_server::start(Knobs::default()).await;
    let store = MemoryTokenStore::default();
    let ui = Arc::new(Decline(Default::default()));
    let authorizer = Arc::new(
        Authorizer::new(
            &fake.mcp(),
            AuthConfig::new("auth-test"),
            Arc::new(store.clone()),
            ui.clone(),
        )
        .unwrap(),
    );
    let client = ElicitationClient::new(
        ScriptedUi::new(
            Capability::FORM,
            FormPolicy::AcceptDefaults,
            UrlPolicy::Never,
        ),
        ManualOpen,
        Config::default()
            .with_protocol(ProtocolChoice::V2025_11_25)
            .with_authorizer(authorizer.clone()),
    );
    let target: ServerTarget = fake.mcp().parse().unwrap();
    assert!(client.connect(&target).await.is_err());
    assert_eq!(
        authorizer.last_error().map(|e| e.kind),
        Some(AuthErrorKind::Declined)
    );
    assert!(store.resources().is_empty());
    // The user was shown which server and which authorization server, and the URL is not
    // in the prompt's Debug.
    let prompt = ui.0.lock().unwrap().clone().expect("prompted");
    assert_eq!(prompt.server, fake.mcp());
    assert_eq!(prompt.issuer, fake.base);
    assert!(!format!("{prompt:?}").contains("state="));
    assert!(fake.seen().token.is_empty());
}

fn client_for(
    fake: &Fake,
    store: &MemoryTokenStore,
) -> (
    ElicitationClient<ScriptedUi, ManualOpen>,
    Arc<Authorizer>,
    ServerTarget,
) {
    let authorizer = Arc::new(
        Authorizer::new(
            &fake.mcp(),
            AuthConfig::new("auth-test"),
            Arc::new(store.clone()),
            Arc::new(HeadlessRedirect::new(REDIRECT)),
        )
        .unwrap(),
    );
    let client = ElicitationClient::new(
        ScriptedUi::new(
            Capability::FORM,
            FormPolicy::AcceptDefaults,
            UrlPolicy::Never,
        ),
        ManualOpen,
        Config::default()
            .with_protocol(ProtocolChoice::V2025_11_25)
            .with_authorizer(authorizer.clone()),
    );
    (client, authorizer, fake.mcp().parse().unwrap())
}

#[tokio::test]
async fn an_expiring_token_is_refreshed_without_a_new_sign_in() {
    let fake = auth_server::start(Knobs {
        offline: true,
        expires_in: Some(2),
        ..Knobs::default()
    })
    .await;
    let store = MemoryTokenStore::default();
    let (client, _auth, target) = client_for(&fake, &store);
    let connection = client.clone().connect(&target).await.unwrap();
    connection.peer().list_all_tools().await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
    connection.peer().list_all_tools().await.unwrap();
    let _ = connection.cancel().await;
    let seen = fake.seen();
    assert_eq!(seen.authorize.len(), 1, "no second sign-in");
    assert_eq!(seen.token.len(), 2);
    let refresh = &seen.token[1];
    assert_eq!(
        query_param(refresh, "grant_type").as_deref(),
        Some("refresh_token")
    );
    assert_eq!(
        query_param(refresh, "refresh_token").as_deref(),
        Some("secret-refresh-1")
    );
    assert_eq!(
        seen.bearer.last().map(String::as_str),
        Some("Bearer secret-token-2")
    );
    // The refreshed token replaced the stored one.
    let stored = store.load(&fake.mcp()).unwrap().expect("stored");
    let token = stored.token_response.expect("token");
    assert_eq!(
        oauth2::TokenResponse::access_token(&token).secret(),
        "secret-token-2"
    );
}

#[tokio::test]
async fn a_stored_sign_in_is_used_by_the_next_run_without_signing_in() {
    let fake = auth_server::start(Knobs::default()).await;
    let store = MemoryTokenStore::default();
    let (client, _auth, target) = client_for(&fake, &store);
    let connection = client.connect(&target).await.unwrap();
    let _ = connection.cancel().await;
    assert_eq!(fake.seen().authorize.len(), 1);

    // A new process: a new client and authorizer on the same store.
    let (client, _auth, target) = client_for(&fake, &store);
    let connection = client.connect(&target).await.unwrap();
    connection.peer().list_all_tools().await.unwrap();
    let _ = connection.cancel().await;
    let seen = fake.seen();
    assert_eq!(seen.authorize.len(), 1, "signed in again");
    assert!(seen.bearer.iter().all(|b| b == "Bearer secret-token-1"));
}

#[test]
fn the_pre_registered_secret_is_not_in_debug() {
    let config = AuthConfig::new("x").with_preregistered("id-1", Some("hunter2".into()));
    let text = format!("{config:?}");
    assert!(text.contains("id-1") && !text.contains("hunter2"), "{text}");
}

#[tokio::test]
async fn client_credentials_sign_in_without_a_user() {
    let config = AuthConfig::new("auth-test").with_client_credentials(
        "m2m-client",
        "m2m-secret",
        vec!["mcp".into()],
    );
    // A redirect URI that would be refused: the user side must never be reached.
    let run = run_with(Knobs::default(), config, "https://example.com/never").await;
    assert_eq!(run.outcome, Ok(0));
    let seen = run.fake.seen();
    assert!(seen.authorize.is_empty() && seen.register.is_empty());
    assert_eq!(seen.token.len(), 1);
    let t = &seen.token[0];
    assert_eq!(
        query_param(t, "grant_type").as_deref(),
        Some("client_credentials")
    );
    assert_eq!(query_param(t, "resource"), Some(run.fake.mcp()));
    assert_eq!(query_param(t, "scope").as_deref(), Some("mcp"));
    assert!(seen.bearer.iter().all(|b| b == "Bearer secret-token-1"));
    assert_eq!(run.store.resources(), vec![run.fake.mcp()]);
}

#[tokio::test]
async fn a_refused_stored_token_is_refreshed_at_its_own_issuer_before_signing_in_again() {
    let fake = auth_server::start(Knobs {
        offline: true,
        ..Knobs::default()
    })
    .await;
    let store = MemoryTokenStore::default();
    let (client, _auth, target) = client_for(&fake, &store);
    let connection = client.connect(&target).await.unwrap();
    let _ = connection.cancel().await;
    fake.revoke("secret-token-1");

    // The next run sends the stored token, gets 401, and refreshes instead of asking the user.
    let (client, _auth, target) = client_for(&fake, &store);
    let connection = client.connect(&target).await.unwrap();
    connection.peer().list_all_tools().await.unwrap();
    let _ = connection.cancel().await;
    let seen = fake.seen();
    assert_eq!(seen.authorize.len(), 1, "asked the user again");
    assert_eq!(
        query_param(&seen.token[1], "grant_type").as_deref(),
        Some("refresh_token")
    );
    assert_eq!(
        seen.bearer.last().map(String::as_str),
        Some("Bearer secret-token-2")
    );
}
