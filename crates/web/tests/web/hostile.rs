//! Hostile requests against the pages (local mode, no provider needed): random methods,
//! paths, query strings, cookies, Origin and content types, and bodies up to past the
//! size limit. Nothing panics, nothing answers 500, every page carries the security
//! headers, and nothing changes: the pending elicitation stays pending and the vault
//! stays empty. Half the requests carry the user's real session cookie (never its CSRF
//! token), so the checks behind the session see the hostile input too.

use std::sync::Arc;

use axum::body::Body;
use http::{Method, Request};
use mcp_elicit_core::lifecycle::State;
use mcp_elicit_core::message::Mode;
use mcp_elicit_server::{
    ElicitationConfig, ElicitationStore, Elicitations, IdentityPolicy, MemoryStore,
    PendingElicitation, Principal, SessionKey, SystemClock,
};
use mcp_elicit_store::{Keyring, Store, Vault, VaultKey, VaultStore};
use mcp_elicit_web::{BODY_LIMIT, Purpose, Web};
use proptest::prelude::*;
use tower::ServiceExt;

const BASE: &str = "http://127.0.0.1:8391";
const ID: &str = "0123456789abcdef0123456789abcdef";

struct Target {
    web: Web,
    /// A live browser session of the user (its CSRF token is never sent).
    session: String,
    store: Arc<MemoryStore>,
    vault: Vault,
    user: Principal,
    rt: tokio::runtime::Runtime,
}

fn target() -> Target {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let user = Principal::local_user("ada");
    let (web, store, vault, session) = rt.block_on(async {
        let db = Store::connect("sqlite::memory:").await.expect("store");
        let vault = db.vault(Keyring::new(VaultKey::generate().expect("key")));
        let store = Arc::new(MemoryStore::new());
        let hub = Elicitations::with_store(
            ElicitationConfig::new(IdentityPolicy::LocalUser(user.clone())),
            store.clone() as Arc<dyn ElicitationStore>,
            Arc::new(SystemClock),
        );
        let web = Web::local(
            url::Url::parse(BASE).expect("url"),
            user.clone(),
            Vec::new(),
            hub,
            Arc::new(vault.clone()),
        )
        .await
        .expect("local web");
        let now = std::time::SystemTime::now();
        store
            .insert(PendingElicitation {
                id: ID.into(),
                principal: user.clone(),
                session: SessionKey::from_stored("mcp-session:hostile"),
                mode: Mode::Url,
                state: State::Pending,
                message: "Enter the key".into(),
                url: Some(web.connect_url(ID)),
                created_at: now,
                expires_at: now + std::time::Duration::from_secs(3600),
                app_data: None,
            })
            .await
            .expect("pending");
        web.register(
            &user,
            ID,
            Purpose::Secret {
                name: "k".into(),
                label: "Key".into(),
            },
        )
        .await
        .expect("register");
        let session = mcp_elicit_store::SessionStore::create_browser_session(
            &vault,
            &user,
            std::time::Duration::from_secs(3600),
        )
        .await
        .expect("session");
        let session = secrecy::ExposeSecret::expose_secret(&session.id).to_owned();
        (web, store, vault, session)
    });
    Target {
        web,
        session,
        store,
        vault,
        user,
        rt,
    }
}

/// Text an attacker controls: separators, escapes, quotes, markup, control characters,
/// non-ASCII, the real id, and long runs.
fn hostile_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9%&=;?/#+._~:@!$'()*,\\[\\]<>\"`{}|\\\\^ -]{0,64}",
        any::<String>().prop_map(|s| s.chars().take(64).collect()),
        Just(ID.to_owned()),
        Just(format!("{ID}%00")),
        (1usize..20_000).prop_map(|n| "A".repeat(n)),
        Just("%ZZ%%%".to_owned()),
    ]
}

fn method() -> impl Strategy<Value = Method> {
    prop_oneof![
        6 => Just(Method::GET),
        6 => Just(Method::POST),
        1 => Just(Method::PUT),
        1 => Just(Method::DELETE),
        1 => Just(Method::HEAD),
        1 => Just(Method::OPTIONS),
        1 => Just(Method::PATCH),
    ]
}

fn path() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("/connect".to_owned()),
        Just("/connect/secret".to_owned()),
        Just("/connect/oauth".to_owned()),
        Just("/connect/confirm".to_owned()),
        Just("/oauth/callback".to_owned()),
        Just("/logout".to_owned()),
        Just("/login".to_owned()),
        Just("/login/callback".to_owned()),
        "/[a-z/.%]{0,30}",
    ]
}

fn content_type() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        Just(None),
        Just(Some("application/x-www-form-urlencoded".to_owned())),
        Just(Some("application/json".to_owned())),
        Just(Some("multipart/form-data; boundary=x".to_owned())),
        hostile_text().prop_map(Some),
    ]
}

fn body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(Vec::new()),
        hostile_text().prop_map(String::into_bytes),
        hostile_text().prop_map(|v| {
            format!("elicitationId={ID}&csrf={v}&secret={v}&decision=confirm").into_bytes()
        }),
        proptest::collection::vec(any::<u8>(), 0..512),
        (BODY_LIMIT - 8..BODY_LIMIT + 4096).prop_map(|n| {
            let mut b = format!("elicitationId={ID}&secret=").into_bytes();
            b.resize(n, b'x');
            b
        }),
    ]
}

fn encode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn hostile_requests_change_nothing_and_never_fail_inside(
        method in method(),
        path in path(),
        raw_query in any::<bool>(),
        query in hostile_text(),
        cookie in proptest::option::of(hostile_text()),
        real_session in any::<bool>(),
        origin in proptest::option::of(prop_oneof![Just(BASE.to_owned()), hostile_text()]),
        content_type in content_type(),
        body in body(),
    ) {
        let t = TARGET.with(|t| t.clone());
        let query = if raw_query { query } else { format!("elicitationId={}&state={}", encode(&query), encode(&query)) };
        let uri = format!("{path}?{query}");
        let mut builder = Request::builder().method(method).uri(uri.as_str());
        if real_session {
            // Signed in as the user: the checks after the session (Origin, CSRF, the
            // form) get the hostile input.
            builder = builder.header("cookie", format!("mcp-elicit-session={}", t.session));
        } else if let Some(c) = &cookie {
            builder = builder.header("cookie", format!("mcp-elicit-session={c}; mcp-elicit-login={c}"));
        }
        if let Some(o) = &origin {
            builder = builder.header("origin", o.as_str());
        }
        if let Some(c) = &content_type {
            builder = builder.header("content-type", c.as_str());
        }
        // Requests `http` itself cannot represent never reach a handler.
        let Ok(request) = builder.body(Body::from(body)) else { return Ok(()); };
        let response = t.rt.block_on(t.web.router().oneshot(request)).expect("infallible");
        let status = response.status();
        prop_assert!(!status.is_server_error(), "{uri}: {status}");
        if status != http::StatusCode::NOT_FOUND || path.starts_with("/connect") {
            prop_assert!(
                response.headers().contains_key("content-security-policy"),
                "{uri}: {status} without CSP"
            );
        }
        let (pending, secret) = t.rt.block_on(async {
            (
                t.store.get(&t.user, ID).await.expect("store"),
                t.vault.get_secret(&t.user, "k").await.expect("vault"),
            )
        });
        prop_assert_eq!(pending.map(|p| p.state), Some(State::Pending), "{}", uri);
        prop_assert!(secret.is_none(), "{uri} stored a secret");
    }
}

thread_local! {
    static TARGET: Arc<Target> = Arc::new(target());
}
