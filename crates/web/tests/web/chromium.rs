//! One happy path in a real browser: headless Chromium (Debian's `chromium`, driven by
//! playwright-core) signs in at the OpenID provider, enters a secret on our page and
//! saves it. This checks what reqwest cannot: that a real browser's form post carries
//! our Origin (the Referrer-Policy choice), that cookies survive the redirects with
//! `SameSite=Lax`, and that the CSP does not break the page.
//!
//! Without Chromium the tests say so and pass, unless `MCP_ELICIT_REQUIRE_CHROMIUM=1`
//! (see `driver`).

use mcp_elicit_store::VaultStore;
use mcp_elicit_web::Purpose;
use secrecy::ExposeSecret;

use crate::driver::{drive, posts_to};
use crate::harness::{Stack, hex, log_text};

#[tokio::test]
async fn headless_chromium_signs_in_and_saves_a_secret() {
    let stack = Stack::start().await;
    let alice = stack.user("alice");
    let id = stack
        .pending(
            &alice,
            Purpose::Secret {
                name: "browser-key".into(),
                label: "Example Co API key".into(),
            },
        )
        .await;
    let mut b = [0u8; 12];
    getrandom::fill(&mut b).expect("random");
    let secret = format!("sk_browser_{}", hex(&b));
    let Some(result) = drive(
        &stack.web.connect_url(&id),
        "alice",
        &secret,
        "web-chromium-secret.png",
        &[],
    )
    .await
    else {
        return;
    };
    assert_eq!(result["title"], "Done", "{result}");
    assert!(result["text"].as_str().unwrap_or("").contains("Saved."));
    // The browser's post to our page named our origin (not `null`).
    let ours = posts_to(&result, "/connect/secret");
    assert_eq!(ours.len(), 1, "{result}");
    assert_eq!(ours[0]["origin"], stack.base.as_str());
    let stored = stack
        .stored_secret(&alice, "browser-key")
        .await
        .expect("stored");
    assert_eq!(stored.value.expose_secret(), secret);
    assert!(!stack.is_pending(&alice, &id).await);
    assert!(!log_text().contains(&secret));
}

#[tokio::test]
async fn headless_chromium_connects_a_third_party_account() {
    let stack = Stack::start().await;
    let alice = stack.user("alice");
    let id = stack
        .pending(
            &alice,
            Purpose::OAuth {
                provider: crate::harness::PROVIDER.into(),
            },
        )
        .await;
    let Some(result) = drive(
        &stack.web.connect_url(&id),
        "alice",
        "unused",
        "web-chromium-oauth.png",
        &[],
    )
    .await
    else {
        return;
    };
    assert_eq!(result["title"], "Done", "{result}");
    assert!(
        result["text"]
            .as_str()
            .unwrap_or("")
            .contains("Third Party is connected")
    );
    let ours = posts_to(&result, "/connect/oauth");
    assert_eq!(ours.len(), 1, "{result}");
    assert_eq!(ours[0]["origin"], stack.base.as_str());
    assert!(
        stack
            .vault
            .get_tokens(&alice, crate::harness::PROVIDER)
            .await
            .expect("vault")
            .is_some()
    );
    assert!(!stack.is_pending(&alice, &id).await);
}
