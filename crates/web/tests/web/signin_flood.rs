//! The anonymous sign-in flood: requests that start sign-ins and never finish them fill
//! the sign-ins in progress up to their share only, so a user opening the connect link
//! of a real elicitation can still sign in and reach the page.

use mcp_elicit_web::Purpose;

use crate::browser::Browser;
use crate::harness::{Stack, hex};

/// A small cap so the flood is short; anonymous requests may use half of it.
const CAP: u64 = 8;

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
async fn an_anonymous_sign_in_flood_does_not_lock_out_a_user_with_a_connect_link() {
    let stack = Stack::start_with(|mut c| {
        c.max_pending_logins = CAP;
        c
    })
    .await;
    let alice = stack.user("alice");
    let id = stack
        .pending(
            &alice,
            Purpose::Secret {
                name: "example-api-key".into(),
                label: "Example Co API key".into(),
            },
        )
        .await;
    // Three times the cap of anonymous `GET /login`, then connect links with made-up
    // ids (what an attacker without a capability URL can send).
    let mut started = 0;
    let mut refused = 0;
    for n in 0..3 * CAP {
        let url = if n % 2 == 0 {
            format!("{}/login?return_to=/", stack.base)
        } else {
            let mut b = [0u8; 16];
            getrandom::fill(&mut b).expect("random");
            stack.web.connect_url(&hex(&b))
        };
        match anonymous(&url).await {
            303 => started += 1,
            503 => refused += 1,
            other => panic!("{url}: unexpected status {other}"),
        }
    }
    // The flood has not ended (nothing expired): anonymous sign-ins are still refused...
    assert_eq!(
        anonymous(&format!("{}/login", stack.base)).await,
        503,
        "the anonymous share stays full"
    );
    // ...and alice, opening her real connect link, signs in and gets the page.
    let mut browser = Browser::new("alice");
    let page = browser.open(&stack.web.connect_url(&id)).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Example Co API key"), "{}", page.body);
    assert!(
        page.body.contains("Signed in as <strong>alice at "),
        "{}",
        page.body
    );
    assert_eq!(started, CAP / 2, "anonymous requests fill their half only");
    assert_eq!(refused, 3 * CAP - CAP / 2, "the rest is refused");
}
