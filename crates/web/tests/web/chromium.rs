//! One happy path in a real browser: headless Chromium (Debian's `chromium`, driven by
//! playwright-core) signs in at the OpenID provider, enters a secret on our page and
//! saves it. This checks what reqwest cannot: that a real browser's form post carries
//! our Origin (the Referrer-Policy choice), that cookies survive the redirects with
//! `SameSite=Lax`, and that the CSP does not break the page.
//!
//! Without `/usr/bin/chromium` (or `MCP_ELICIT_CHROMIUM`) the test says so and returns,
//! unless `MCP_ELICIT_REQUIRE_CHROMIUM=1`, which makes that a failure (set it in CI).

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use mcp_elicit_store::VaultStore;
use mcp_elicit_web::Purpose;
use secrecy::ExposeSecret;
use tokio::process::Command;

use crate::harness::{Stack, hex, log_text, node, tools_dir};

fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("MCP_ELICIT_CHROMIUM")
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    path.exists().then_some(path)
}

/// Runs the driver on `url` as `user`; returns its JSON result (skipping the run when
/// Chromium is absent).
async fn drive(url: &str, user: &str, secret: &str, shot_name: &str) -> Option<serde_json::Value> {
    let Some(chromium) = chromium() else {
        assert!(
            std::env::var_os("MCP_ELICIT_REQUIRE_CHROMIUM").is_none(),
            "MCP_ELICIT_REQUIRE_CHROMIUM is set but chromium is not installed"
        );
        eprintln!("SKIPPED: no /usr/bin/chromium (set MCP_ELICIT_CHROMIUM to another binary)");
        return None;
    };
    let profile = tempfile::tempdir().expect("profile dir");
    let screenshot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(shot_name);
    let log_path = screenshot.with_extension("log");
    let log = std::fs::File::create(&log_path).expect("driver log file");
    let run = Command::new(node())
        .current_dir(tools_dir().join("oidc"))
        .arg("--input-type=module")
        .arg("-e")
        .arg(include_str!("../oidc/chromium.mjs"))
        .env("CONNECT_URL", url)
        .env("USER_NAME", user)
        .env("SECRET", secret)
        .env("SCREENSHOT", &screenshot)
        .env("CHROMIUM", &chromium)
        .env("PROFILE", profile.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(log)
        .kill_on_drop(true)
        .spawn()
        .expect("start the chromium driver")
        .wait_with_output();
    let driver_log = || std::fs::read_to_string(&log_path).unwrap_or_default();
    let out = match tokio::time::timeout(Duration::from_secs(90), run).await {
        Ok(out) => out.expect("wait for the chromium driver"),
        Err(_) => panic!(
            "the chromium driver did not finish within 90 s:\n{}",
            driver_log()
        ),
    };
    assert!(
        out.status.success(),
        "chromium driver failed:\n{}",
        driver_log()
    );
    assert!(screenshot.exists());
    Some(serde_json::from_slice(&out.stdout).expect("driver JSON result"))
}

/// The posts the browser made to `path` of our server.
fn posts_to<'a>(result: &'a serde_json::Value, path: &str) -> Vec<&'a serde_json::Value> {
    result["posts"]
        .as_array()
        .map(|posts| {
            posts
                .iter()
                .filter(|p| p["url"].as_str().is_some_and(|u| u.ends_with(path)))
                .collect()
        })
        .unwrap_or_default()
}

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
