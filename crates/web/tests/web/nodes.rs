//! Two server nodes sharing one store: everything a browser flow needs between requests
//! (the sign-in in progress, the browser session, the page's purpose) is in the store, so
//! each request may reach either node, or the same node after a restart.

use mcp_elicit_web::Purpose;
use reqwest::Method;

use crate::browser::{Browser, hidden_value};
use crate::harness::Stack;

#[tokio::test]
async fn a_sign_in_started_on_one_node_finishes_on_another_which_serves_the_page() {
    let stack = Stack::start().await;
    let node_b = stack.second_node().await;
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
    let mut browser = Browser::new("alice");
    // Node A starts the sign-in; the provider's redirect back is sent to node B.
    let callback_on_a = format!("{}/login/callback", stack.base);
    let mut page = browser
        .request(Method::GET, &stack.web.connect_url(&id), None, None)
        .await;
    let callback = loop {
        if page.status.is_redirection() {
            let location = page.headers["location"]
                .to_str()
                .expect("location")
                .to_owned();
            if location.starts_with(&callback_on_a) {
                break location;
            }
        }
        page = browser.step(&page).await.expect("the sign-in continues");
    };
    let on_b = callback.replacen(&stack.base, &node_b, 1);
    let signed_in = browser.request(Method::GET, &on_b, None, None).await;
    assert_eq!(signed_in.status, 303, "{}", signed_in.body);
    // B knows what the page is for and who it is for.
    let page = browser.follow(signed_in).await;
    assert!(page.url.as_str().starts_with(&node_b), "{}", page.url);
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Example Co API key"), "{}", page.body);
    let csrf = hidden_value(&page.body, "csrf").expect("csrf");
    let done = browser
        .submit(
            &format!("{node_b}/connect/secret"),
            &[
                ("elicitationId", &id),
                ("csrf", &csrf),
                ("secret", "sk_two_nodes"),
            ],
            &stack.base,
        )
        .await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(!stack.is_pending(&alice, &id).await);
    assert!(
        stack
            .stored_secret(&alice, "example-api-key")
            .await
            .is_some()
    );
    // The sign-in was used once, whichever node sees it again.
    let replay = browser.request(Method::GET, &callback, None, None).await;
    assert_eq!(replay.status, 400, "{}", replay.body);
    assert!(replay.body.contains("already used"), "{}", replay.body);
}
