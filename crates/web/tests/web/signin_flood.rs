//! The anonymous sign-in flood (issue 14): requests that start sign-ins and never finish
//! them, all from one client address (as every browser is behind a reverse proxy, and
//! every client is here on loopback). A sign-in keeps nothing on the server before the
//! user has authenticated (what it needs is in a sealed cookie in the browser that
//! started it), so however long the flood, another visitor's plain `GET /login` and a
//! user's connect link still sign in, and the store holds no row for the flood.

use mcp_elicit_store::LoginStore;
use mcp_elicit_web::Purpose;

use crate::browser::Browser;
use crate::harness::{Stack, hex};

/// What the deprecated global cap of sign-ins in progress is lowered to: it used to
/// refuse every anonymous sign-in after half of it (503).
const CAP: u64 = 8;
/// Requests in the flood: over the old cap and over the 30 a minute that
/// `max_signins_per_client` allows one address in local mode.
const FLOOD: u64 = 5 * CAP + 40;

/// The status of one anonymous request that starts a sign-in (no cookies, no redirects
/// followed: a flooder never finishes).
async fn anonymous(url: &str) -> u16 {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    client
        .get(url)
        .send()
        .await
        .expect("anonymous request")
        .status()
        .as_u16()
}

#[tokio::test]
async fn an_anonymous_sign_in_flood_from_one_address_locks_out_nobody_else() {
    let stack = Stack::start_with(|mut c| {
        c.max_pending_logins = CAP;
        c
    })
    .await;
    let alice = stack.user("alice");
    let bob = stack.user("bob");
    let secret = |name: &str| Purpose::Secret {
        name: name.into(),
        label: format!("{name} key"),
    };
    let alices = stack.pending(&alice, secret("alice-api")).await;
    let bobs = stack.pending(&bob, secret("bob-api")).await;
    // Anonymous `GET /login`, then connect links with made-up ids (what an attacker
    // without a capability URL can send), from 127.0.0.1 like everyone below.
    let mut statuses = std::collections::BTreeMap::<u16, u64>::new();
    for n in 0..FLOOD {
        let url = if n % 2 == 0 {
            format!("{}/login?return_to=/", stack.base)
        } else {
            let mut b = [0u8; 16];
            getrandom::fill(&mut b).expect("random");
            stack.web.connect_url(&hex(&b))
        };
        *statuses.entry(anonymous(&url).await).or_default() += 1;
    }
    // Bob, another visitor on the same address, signs in with a plain `GET /login`
    // (not a connect link) and then reaches his page.
    let mut browser = Browser::new("bob");
    let return_to: String =
        url::form_urlencoded::byte_serialize(format!("/connect?elicitationId={bobs}").as_bytes())
            .collect();
    let page = browser
        .open(&format!("{}/login?return_to={return_to}", stack.base))
        .await;
    assert_eq!(
        page.status, 200,
        "bob's sign-in after the flood: {}",
        page.body
    );
    assert!(page.body.contains("bob-api key"), "{}", page.body);
    assert!(
        page.body.contains("Signed in as <strong>bob at "),
        "{}",
        page.body
    );
    // Alice, opening her connect link, signs in and gets the page.
    let mut browser = Browser::new("alice");
    let page = browser.open(&stack.web.connect_url(&alices)).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("alice-api key"), "{}", page.body);
    // Every request of the flood was an ordinary redirect to the authorization server,
    // and none of them left a row in the store: the only sign-in rows are the used-state
    // records of the two that authenticated (counted by sweeping everything).
    assert_eq!(
        statuses.into_iter().collect::<Vec<_>>(),
        [(303, FLOOD)],
        "status: count"
    );
    let far = std::time::SystemTime::now() + std::time::Duration::from_secs(86_400);
    let rows = stack.vault.sweep_login_states(far).await.expect("sweep");
    assert_eq!(
        rows, 2,
        "sign-in rows: one used-state record per authenticated user"
    );
}
