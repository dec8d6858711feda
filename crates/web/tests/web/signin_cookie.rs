//! The sealed sign-in cookie: what `GET /login` sets (one `HttpOnly`, `SameSite=Lax`
//! cookie per `state`, on the callback's path, nothing readable in it), several tabs
//! signing in at once, the callback refusing a replay even with the cookie put back, a
//! response naming another issuer (RFC 9207) refused without burning the sign-in, and a
//! callback from a browser that did not start the sign-in.

use reqwest::Method;

use crate::browser::{Browser, Page};
use crate::harness::Stack;

/// Follows `page` until the provider redirects back to our callback; its URL.
async fn until_callback(stack: &Stack, browser: &mut Browser, mut page: Page) -> String {
    let callback = format!("{}/login/callback", stack.base);
    loop {
        if page.status.is_redirection() {
            let location = page.headers["location"]
                .to_str()
                .expect("location")
                .to_owned();
            if location.starts_with(&callback) {
                return location;
            }
        }
        page = browser.step(&page).await.expect("the sign-in continues");
    }
}

/// `GET /login?return_to=...` in `browser`: the response and its sign-in cookie
/// (`name=value`, the whole `Set-Cookie`).
async fn start(stack: &Stack, browser: &mut Browser, return_to: &str) -> (Page, String, String) {
    let page = browser
        .request(
            Method::GET,
            &format!("{}/login?return_to={return_to}", stack.base),
            None,
            None,
        )
        .await;
    assert_eq!(page.status, 303, "{}", page.body);
    let set: Vec<String> = page
        .headers
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().expect("ascii").to_owned())
        .collect();
    assert_eq!(set.len(), 1, "{set:?}");
    let pair = set[0].split(';').next().expect("pair").to_owned();
    let whole = set[0].clone();
    (page, pair, whole)
}

/// The same request with only `cookie`, as a replaying attacker would send it.
async fn with_cookie(url: &str, cookie: &str) -> (u16, String) {
    let resp = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
        .get(url)
        .header("cookie", cookie)
        .send()
        .await
        .expect("get");
    let status = resp.status().as_u16();
    (status, resp.text().await.unwrap_or_default())
}

#[tokio::test]
async fn the_sign_in_cookie_is_sealed_per_state_one_shot_and_checked_against_iss() {
    let stack = Stack::start().await;
    let mut browser = Browser::new("alice");
    // Two tabs of one browser start sign-ins returning to different pages.
    let (first, first_cookie, attributes) = start(&stack, &mut browser, "/first").await;
    let (second, second_cookie, _) = start(&stack, &mut browser, "/second").await;
    let name = |pair: &str| pair.split('=').next().expect("name").to_owned();
    assert_ne!(
        name(&first_cookie),
        name(&second_cookie),
        "one cookie per state"
    );
    for part in [
        "HttpOnly",
        "SameSite=Lax",
        "Path=/login/callback",
        "Max-Age=600",
    ] {
        assert!(attributes.contains(part), "{part} in {attributes}");
    }
    assert!(
        !attributes.contains("first"),
        "the return path is sealed: {attributes}"
    );
    // Both reach the provider's redirect back; the second tab finishes first.
    let first_callback = until_callback(&stack, &mut browser, first).await;
    let second_callback = until_callback(&stack, &mut browser, second).await;
    // Another browser (no sign-in cookie) cannot use alice's callback, and does not burn
    // it; nor does a response naming another issuer (RFC 9207 mix-up).
    let (status, body) = with_cookie(&second_callback, "unrelated=1").await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("another browser"), "{body}");
    let mut forged = url::Url::parse(&second_callback).expect("url");
    let pairs: Vec<(String, String)> = forged
        .query_pairs()
        .map(|(k, v)| {
            let v = if k == "iss" {
                "https://evil.example".to_owned()
            } else {
                v.into_owned()
            };
            (k.into_owned(), v)
        })
        .collect();
    forged.query_pairs_mut().clear().extend_pairs(pairs);
    let page = browser
        .request(Method::GET, forged.as_str(), None, None)
        .await;
    assert_eq!(page.status, 400, "{}", page.body);
    assert!(
        page.body.contains("another authorization server"),
        "{}",
        page.body
    );
    let done = browser
        .request(Method::GET, &second_callback, None, None)
        .await;
    assert_eq!(done.status, 303, "{}", done.body);
    assert_eq!(done.headers["location"], "/second");
    let cleared = done
        .headers
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().expect("ascii").to_owned())
        .find(|c| c.starts_with(&format!("{}=", name(&second_cookie))))
        .expect("the sign-in cookie is cleared");
    assert!(cleared.contains("Max-Age=0"), "{cleared}");
    // The first tab still finishes.
    let done = browser
        .request(Method::GET, &first_callback, None, None)
        .await;
    assert_eq!(done.status, 303, "{}", done.body);
    assert_eq!(done.headers["location"], "/first");
    // Replayed with the cookie put back (captured from the browser): refused, by the
    // provider (its code is one-time) before the used-state record is even reached
    // (that record is checked in `login::tests::a_state_is_recorded_as_used_once`).
    let (status, body) = with_cookie(&first_callback, &first_cookie).await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body.contains("already used") || body.contains("did not accept the sign-in"),
        "{body}"
    );
    assert!(!body.contains("Signed in"), "{body}");
    // A cookie of one state does not open the callback of another.
    let renamed = format!(
        "{}={}",
        name(&second_cookie),
        first_cookie.split_once('=').expect("pair").1
    );
    let (status, body) = with_cookie(&second_callback, &renamed).await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("another browser"), "{body}");
}
