//! `ConfirmPage`: what its POST refuses (an unknown, another user's or replayed id, another
//! site's form, no signed-in user) and what a valid press does (completes once, runs the
//! bookkeeping once, notifies the client once). A real 2025-11-25 connection (in-memory
//! pipe) holds an accepted URL elicitation; the page is driven as an axum route.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, SystemTime};

use common::{RawClient, alice, hub, wait_pending};
use mcp_elicit_core::lifecycle::State;
use mcp_elicit_server::axum::Router;
use mcp_elicit_server::axum::body::{Body, to_bytes};
use mcp_elicit_server::axum::http::Request;
use mcp_elicit_server::{
    ConfirmPage, ElicitationConfig, ElicitationStore, Elicitations, IdentityPolicy, MemoryStore,
    Mode, PendingElicitation, Principal, REFUSED_TEXT, SessionKey, SystemClock,
};
use serde_json::json;
use tower::ServiceExt;

const PAGE: &str = "http://127.0.0.1:8080/link";
const HOST: &str = "127.0.0.1:8080";
const SAME_SITE: &str = "http://127.0.0.1:8080";

/// A page with a counted bookkeeping, mounted at `/link`.
struct Page {
    page: ConfirmPage,
    app: Router,
    runs: Arc<AtomicUsize>,
}

impl Page {
    fn new(hub: &Elicitations, fail: bool) -> Self {
        let runs = Arc::new(AtomicUsize::new(0));
        let counted = runs.clone();
        let page = ConfirmPage::new(hub, PAGE, "Link my calendar", "Linked").on_confirm(
            move |_record: PendingElicitation| {
                counted.fetch_add(1, Ordering::SeqCst);
                async move {
                    if fail {
                        return Err(std::io::Error::other("database down"));
                    }
                    Ok(())
                }
            },
        );
        let app = Router::new().route("/link", page.route());
        Self { page, app, runs }
    }

    fn runs(&self) -> usize {
        self.runs.load(Ordering::SeqCst)
    }

    /// A POST of the page's form for `id`, from `origin` (a browser sends it), as `user`
    /// (what an authentication layer would have put into the request).
    async fn post(
        &self,
        id: Option<&str>,
        origin: Option<&str>,
        user: Option<Principal>,
    ) -> (u16, String) {
        let uri = match id {
            Some(id) => format!("/link?elicitationId={id}"),
            None => "/link".to_owned(),
        };
        let mut request = Request::post(uri).header("host", HOST);
        if let Some(origin) = origin {
            request = request.header("origin", origin);
        }
        let mut request = request.body(Body::empty()).expect("request");
        if let Some(user) = user {
            request.extensions_mut().insert(user);
        }
        let response = self.app.clone().oneshot(request).await.expect("infallible");
        let status = response.status().as_u16();
        let body = to_bytes(response.into_body(), 1 << 16).await.expect("body");
        (status, String::from_utf8(body.to_vec()).expect("utf-8"))
    }

    /// A press by alice's browser (same site, the local user).
    async fn press(&self, id: &str) -> (u16, String) {
        self.post(Some(id), Some(SAME_SITE), None).await
    }
}

/// Alice's client, connected on 2025-11-25, has accepted a URL elicitation for the page.
async fn asked() -> (Elicitations, RawClient, String) {
    let hub = hub();
    let caps = Some(json!({"form": {}, "url": {}}));
    let mut client = RawClient::connect(&hub, caps).await;
    let call = client.call_tool("url", json!({"base": PAGE})).await;
    let request = client.expect_elicitation().await;
    let id = request["params"]["elicitationId"]
        .as_str()
        .expect("an id")
        .to_owned();
    assert_eq!(
        request["params"]["url"],
        format!("{PAGE}?elicitationId={id}")
    );
    client.reply(&request, json!({"action": "accept"})).await;
    client.expect_response(call).await;
    wait_pending(&hub, 1).await;
    (hub, client, id)
}

/// Asserts the elicitation is still pending and can be completed: the refusal before
/// used up nothing.
async fn still_completes(hub: &Elicitations, page: &Page, client: &mut RawClient, id: &str) {
    wait_pending(hub, 1).await;
    assert_eq!(page.press(id).await, (200, "Linked".to_owned()));
    let note = client.recv().await;
    assert_eq!(note["method"], "notifications/elicitation/complete");
    assert_eq!(note["params"]["elicitationId"], id);
}

#[tokio::test]
async fn a_press_completes_runs_the_bookkeeping_and_notifies_exactly_once() {
    let (hub, mut client, id) = asked().await;
    let page = Page::new(&hub, false);

    let shown = page
        .app
        .clone()
        .oneshot(
            Request::get(format!("/link?elicitationId={id}"))
                .body(Body::empty())
                .expect("request"),
        )
        .await
        .expect("infallible");
    assert_eq!(shown.status(), 200);
    assert_eq!(shown.headers()["cache-control"], "no-store");
    assert_eq!(shown.headers()["x-frame-options"], "DENY");
    let body = to_bytes(shown.into_body(), 1 << 16).await.expect("body");
    let body = String::from_utf8(body.to_vec()).expect("utf-8");
    assert!(
        body.contains("<form method=post><button>Link my calendar</button></form>"),
        "{body}"
    );
    assert_eq!(page.runs(), 0, "showing the page completes nothing");
    assert!(!page.page.confirmed(&alice()));
    client.ping_is_next().await;

    assert_eq!(page.press(&id).await, (200, "Linked".to_owned()));
    assert!(page.page.confirmed(&alice()));
    assert!(page.page.clone().confirmed(&alice()), "clones share it");
    assert_eq!(page.runs(), 1);
    let note = client.recv().await;
    assert_eq!(
        note,
        json!({"jsonrpc": "2.0", "method": "notifications/elicitation/complete",
               "params": {"elicitationId": id}})
    );
    client.ping_is_next().await;
    wait_pending(&hub, 0).await;
}

#[tokio::test]
async fn a_replayed_id_is_refused_and_notifies_nobody() {
    let (hub, mut client, id) = asked().await;
    let page = Page::new(&hub, false);
    assert_eq!(page.press(&id).await.0, 200);
    client.recv().await;

    for _ in 0..2 {
        assert_eq!(page.press(&id).await, (404, REFUSED_TEXT.to_owned()));
    }
    assert_eq!(
        page.runs(),
        1,
        "the bookkeeping ran for the first press only"
    );
    client.ping_is_next().await;
}

#[tokio::test]
async fn an_unknown_or_missing_id_is_refused() {
    let (hub, mut client, id) = asked().await;
    let page = Page::new(&hub, false);
    let made_up = "00112233445566778899aabbccddeeff";
    assert_eq!(page.press(made_up).await, (404, REFUSED_TEXT.to_owned()));
    let no_id = page.post(None, Some(SAME_SITE), None).await;
    assert_eq!(no_id, (404, REFUSED_TEXT.to_owned()));
    assert_eq!(page.runs(), 0);
    assert!(!page.page.confirmed(&alice()));
    client.ping_is_next().await;
    still_completes(&hub, &page, &mut client, &id).await;
}

#[tokio::test]
async fn another_users_id_is_refused() {
    let (hub, mut client, id) = asked().await;
    let page = Page::new(&hub, false);
    let mallory = Principal::local_user("mallory");
    let theirs = page
        .post(Some(&id), Some(SAME_SITE), Some(mallory.clone()))
        .await;
    assert_eq!(theirs, (404, REFUSED_TEXT.to_owned()));
    // Same name, another issuer: another user.
    let other_issuer = Principal::authenticated("https://idp.example.com", "alice");
    let theirs = page
        .post(Some(&id), Some(SAME_SITE), Some(other_issuer))
        .await;
    assert_eq!(theirs, (404, REFUSED_TEXT.to_owned()));
    assert_eq!(page.runs(), 0);
    assert!(!page.page.confirmed(&alice()) && !page.page.confirmed(&mallory));
    client.ping_is_next().await;
    still_completes(&hub, &page, &mut client, &id).await;
}

#[tokio::test]
async fn another_sites_post_is_refused_before_anything_is_looked_up() {
    let (hub, mut client, id) = asked().await;
    let page = Page::new(&hub, false);
    for origin in ["https://evil.example", "null", "http://127.0.0.1:8081"] {
        let cross = page.post(Some(&id), Some(origin), None).await;
        assert_eq!(cross, (403, REFUSED_TEXT.to_owned()), "{origin}");
    }
    assert_eq!(page.runs(), 0);
    assert!(!page.page.confirmed(&alice()));
    client.ping_is_next().await;
    // No `Origin` (not a browser): let through, the id is the secret.
    assert_eq!(
        page.post(Some(&id), None, None).await,
        (200, "Linked".to_owned())
    );
    assert_eq!(client.recv().await["params"]["elicitationId"], id);
}

#[tokio::test]
async fn failed_bookkeeping_answers_500_remembers_nobody_and_notifies_nobody() {
    let (hub, mut client, id) = asked().await;
    let page = Page::new(&hub, true);
    let (status, _) = page.press(&id).await;
    assert_eq!(status, 500);
    assert_eq!(page.runs(), 1);
    assert!(!page.page.confirmed(&alice()));
    client.ping_is_next().await;
    // Used up: a second press is refused and runs nothing.
    assert_eq!(page.press(&id).await, (404, REFUSED_TEXT.to_owned()));
    assert_eq!(page.runs(), 1);
}

/// Under `IdentityPolicy::Authenticated` the page's user is only the `Principal` an
/// authentication layer put into the request: without one, 401 and nothing changes.
#[tokio::test]
async fn without_a_principal_an_authenticated_server_answers_401() {
    let bob = Principal::authenticated("https://idp.example.com", "bob");
    let store = Arc::new(MemoryStore::new());
    let config = ElicitationConfig::new(IdentityPolicy::Authenticated);
    let hub = Elicitations::with_store(config, store.clone(), Arc::new(SystemClock));
    let now = SystemTime::now();
    let id = "0123456789abcdef0123456789abcdef";
    let record = PendingElicitation {
        id: id.to_owned(),
        principal: bob.clone(),
        session: SessionKey::from_stored("bob-session"),
        mode: Mode::Url,
        state: State::Accepted,
        message: "Link your calendar".to_owned(),
        url: Some(format!("{PAGE}?elicitationId={id}")),
        created_at: now,
        expires_at: now + Duration::from_secs(600),
        app_data: None,
    };
    store.insert(record).await.expect("insert");
    let page = Page::new(&hub, false);

    let anonymous = page.post(Some(id), Some(SAME_SITE), None).await;
    assert_eq!(anonymous, (401, "Sign in first".to_owned()));
    assert_eq!(page.runs(), 0);
    assert!(
        store.get(&bob, id).await.expect("get").is_some(),
        "still pending"
    );

    let signed_in = page
        .post(Some(id), Some(SAME_SITE), Some(bob.clone()))
        .await;
    assert_eq!(signed_in, (200, "Linked".to_owned()));
    assert!(page.page.confirmed(&bob));
    assert_eq!(page.runs(), 1);
}
