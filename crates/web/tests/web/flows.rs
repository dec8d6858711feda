//! The connect page and its secret and confirmation forms: happy paths, the Phishing
//! rule (another user is refused and nothing changes), CSRF, and bad input.

use mcp_elicit_web::{ConfirmOutcome, Purpose};
use reqwest::Method;
use secrecy::ExposeSecret;

use crate::browser::{Browser, Page, hidden_value};
use crate::harness::{Stack, hex, log_text};

const SECRET_NAME: &str = "example-api-key";

fn secret_purpose() -> Purpose {
    Purpose::Secret {
        name: SECRET_NAME.into(),
        label: "Example Co API key".into(),
    }
}

fn unique_secret() -> String {
    let mut b = [0u8; 12];
    getrandom::fill(&mut b).expect("random");
    format!("sk_live_{}", hex(&b))
}

fn assert_security_headers(page: &Page) {
    let h = &page.headers;
    let csp = h
        .get("content-security-policy")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    assert!(
        csp.contains("default-src 'none'") && csp.contains("frame-ancestors 'none'"),
        "{} {csp}",
        page.url
    );
    assert_eq!(
        h.get("x-frame-options").map(|v| v.as_bytes()),
        Some(&b"DENY"[..]),
        "{}",
        page.url
    );
    assert_eq!(
        h.get("cache-control").map(|v| v.as_bytes()),
        Some(&b"no-store"[..]),
        "{}",
        page.url
    );
    assert!(h.get("referrer-policy").is_some(), "{}", page.url);
}

/// Signs `browser` in (through the provider) by opening the connect URL of `id`.
async fn open_connect(stack: &Stack, browser: &mut Browser, id: &str) -> Page {
    browser.open(&stack.web.connect_url(id)).await
}

#[tokio::test]
async fn secret_page_happy_path_stores_encrypted_completes_and_logs_nothing_secret() {
    let stack = Stack::start().await;
    let alice = stack.user("alice");
    let id = stack.pending(&alice, secret_purpose()).await;
    let mut browser = Browser::new("alice");
    let page = open_connect(&stack, &mut browser, &id).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert_security_headers(&page);
    // Signed in through the provider, back on our page.
    assert!(
        browser
            .visited
            .iter()
            .any(|u| u.as_str().starts_with(&stack.issuer))
    );
    assert!(page.body.contains("Example Co API key"));
    assert!(page.body.contains("type=\"password\""));
    assert!(
        page.body.contains("Signed in as <strong>alice at "),
        "{}",
        page.body
    );
    // The elicitation's message is escaped.
    assert!(page.body.contains("&lt;b&gt;now&lt;/b&gt;") && !page.body.contains("<b>now</b>"));
    let cookies = page.headers.get_all("set-cookie");
    let _ = cookies;
    let csrf = hidden_value(&page.body, "csrf").expect("csrf field");
    let secret = unique_secret();
    let done = stack.submit_secret(&mut browser, &id, &csrf, &secret).await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert_security_headers(&done);
    assert!(done.body.contains("Saved."));
    assert!(!done.body.contains(&secret));
    let stored = stack
        .stored_secret(&alice, SECRET_NAME)
        .await
        .expect("stored");
    assert_eq!(stored.value.expose_secret(), secret);
    assert!(!stack.is_pending(&alice, &id).await, "completed");
    // Nobody else has it.
    assert!(
        stack
            .stored_secret(&stack.user("bob"), SECRET_NAME)
            .await
            .is_none()
    );
    // The form cannot be replayed: the elicitation is gone.
    let again = stack
        .submit_secret(&mut browser, &id, &csrf, "replayed")
        .await;
    assert_eq!(again.status, 404);
    assert_eq!(
        stack
            .stored_secret(&alice, SECRET_NAME)
            .await
            .expect("kept")
            .value
            .expose_secret(),
        secret
    );
    let logs = log_text();
    assert!(logs.contains(&id), "the completion is logged by id");
    assert!(!logs.contains(&secret), "the secret must never be logged");
    assert!(!logs.contains(&csrf), "the CSRF token must never be logged");
}

#[tokio::test]
async fn session_cookie_is_httponly_and_samesite_lax() {
    let stack = Stack::start().await;
    let alice = stack.user("alice");
    let id = stack.pending(&alice, secret_purpose()).await;
    let mut browser = Browser::new("alice");
    let first = browser
        .request(Method::GET, &stack.web.connect_url(&id), None, None)
        .await;
    assert_eq!(first.status, 303);
    let login_cookie = first
        .headers
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    assert!(
        login_cookie.contains("HttpOnly") && login_cookie.contains("SameSite=Lax"),
        "{login_cookie}"
    );
    let location = first.headers["location"].to_str().expect("location");
    assert!(location.starts_with(&stack.issuer), "{location}");
    assert!(
        location.contains("code_challenge_method=S256") && location.contains("nonce="),
        "{location}"
    );
    let _ = browser.follow(first).await;
    let callback = browser
        .visited
        .iter()
        .any(|u| u.path() == "/login/callback");
    assert!(callback);
}

#[tokio::test]
async fn another_user_opening_the_link_is_refused_and_nothing_changes() {
    let stack = Stack::start().await;
    let alice = stack.user("alice");
    let bob = stack.user("bob");
    let id = stack.pending(&alice, secret_purpose()).await;
    let bob_own = stack.pending(&bob, secret_purpose()).await;
    let mut browser = Browser::new("bob");
    let page = open_connect(&stack, &mut browser, &id).await;
    assert_eq!(page.status, 403, "{}", page.body);
    assert_security_headers(&page);
    assert!(page.body.contains("another account"));
    assert!(
        !page.body.contains("type=\"password\""),
        "no form for another user's elicitation"
    );
    assert!(
        stack.is_pending(&alice, &id).await,
        "alice's elicitation stays pending"
    );
    // Bob posts to alice's elicitation with his own valid session and CSRF token.
    let own = open_connect(&stack, &mut browser, &bob_own).await;
    assert_eq!(own.status, 200);
    let csrf = hidden_value(&own.body, "csrf").expect("csrf");
    let refused = stack
        .submit_secret(&mut browser, &id, &csrf, "bobs-key")
        .await;
    assert_eq!(refused.status, 403);
    assert!(stack.stored_secret(&alice, SECRET_NAME).await.is_none());
    assert!(stack.stored_secret(&bob, SECRET_NAME).await.is_none());
    assert!(stack.is_pending(&alice, &id).await);
    // Alice can still finish hers.
    let mut alice_browser = Browser::new("alice");
    let page = open_connect(&stack, &mut alice_browser, &id).await;
    assert_eq!(page.status, 200);
}

#[tokio::test]
async fn csrf_and_origin_failures_are_403_and_store_nothing() {
    let stack = Stack::start().await;
    let alice = stack.user("alice");
    let id = stack.pending(&alice, secret_purpose()).await;
    let mut browser = Browser::new("alice");
    let page = open_connect(&stack, &mut browser, &id).await;
    let csrf = hidden_value(&page.body, "csrf").expect("csrf");
    let url = format!("{}/connect/secret", stack.base);
    let wrong = format!("{csrf}x");
    type Case<'a> = (&'a str, Vec<(&'a str, &'a str)>, Option<&'a str>);
    let cases: Vec<Case<'_>> = vec![
        (
            "missing token",
            vec![("elicitationId", &id), ("secret", "s1")],
            Some(&stack.base),
        ),
        (
            "wrong token",
            vec![("elicitationId", &id), ("csrf", &wrong), ("secret", "s2")],
            Some(&stack.base),
        ),
        (
            "empty token",
            vec![("elicitationId", &id), ("csrf", ""), ("secret", "s3")],
            Some(&stack.base),
        ),
        (
            "foreign origin",
            vec![("elicitationId", &id), ("csrf", &csrf), ("secret", "s4")],
            Some("https://evil.example"),
        ),
        (
            "null origin",
            vec![("elicitationId", &id), ("csrf", &csrf), ("secret", "s5")],
            Some("null"),
        ),
        (
            "no origin",
            vec![("elicitationId", &id), ("csrf", &csrf), ("secret", "s6")],
            None,
        ),
    ];
    for (why, fields, origin) in cases {
        let resp = browser
            .request(Method::POST, &url, Some(&fields), origin)
            .await;
        assert_eq!(resp.status, 403, "{why}: {}", resp.body);
        assert_security_headers(&resp);
    }
    // Without the session cookie (a fresh browser) nothing happens either.
    let mut stranger = Browser::new("mallory");
    let resp = stranger
        .request(
            Method::POST,
            &url,
            Some(&[("elicitationId", &id), ("csrf", &csrf), ("secret", "s7")]),
            Some(&stack.base),
        )
        .await;
    assert_eq!(resp.status, 401);
    assert!(stack.stored_secret(&alice, SECRET_NAME).await.is_none());
    assert!(stack.is_pending(&alice, &id).await);
}

#[tokio::test]
async fn unknown_tampered_or_malformed_ids_get_404_or_400_and_change_nothing() {
    let stack = Stack::start().await;
    let alice = stack.user("alice");
    let id = stack.pending(&alice, secret_purpose()).await;
    let mut browser = Browser::new("alice");
    assert_eq!(open_connect(&stack, &mut browser, &id).await.status, 200);
    let mut tampered = id.clone();
    let last = tampered.pop().expect("non-empty");
    tampered.push(if last == '0' { '1' } else { '0' });
    for bad in [
        tampered.as_str(),
        "deadbeef",
        "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        "%ZZ",
        &"a".repeat(5000),
    ] {
        let page = browser
            .open(&format!("{}/connect?elicitationId={bad}", stack.base))
            .await;
        assert!(
            page.status == 404 || page.status == 400,
            "{bad}: {}",
            page.status
        );
        assert!(!page.body.contains("<script>"), "never reflected unescaped");
        assert_security_headers(&page);
    }
    for query in [
        "",
        "?",
        "?elicitationId",
        "?other=1",
        "?elicitationId=a&elicitationId=b",
    ] {
        let page = browser
            .open(&format!("{}/connect{query}", stack.base))
            .await;
        assert!(
            page.status == 400 || page.status == 404,
            "{query}: {}",
            page.status
        );
    }
    assert!(stack.is_pending(&alice, &id).await);

    // An elicitation whose expiry has passed (not yet swept): the page is gone, and a
    // form posted from a page opened before it expired stores nothing.
    let soon = std::time::SystemTime::now() + std::time::Duration::from_secs(2);
    let expiring = stack.pending_until(&alice, secret_purpose(), soon).await;
    let page = open_connect(&stack, &mut browser, &expiring).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let csrf = hidden_value(&page.body, "csrf").expect("csrf");
    tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
    let late = open_connect(&stack, &mut browser, &expiring).await;
    assert_eq!(late.status, 404, "{}", late.body);
    let posted = browser
        .submit(
            &format!("{}/connect/secret", stack.base),
            &[
                ("elicitationId", &expiring),
                ("csrf", &csrf),
                ("secret", "sk_too_late"),
            ],
            &stack.base,
        )
        .await;
    assert_eq!(posted.status, 404, "{}", posted.body);
    assert!(stack.stored_secret(&alice, SECRET_NAME).await.is_none());
}

/// Posts `decision` for elicitation `id` on the confirmation page (same origin, with the
/// session's CSRF token).
async fn decide(
    stack: &Stack,
    browser: &mut Browser,
    csrf: &str,
    id: &str,
    decision: &str,
) -> Page {
    browser
        .submit(
            &format!("{}/connect/confirm", stack.base),
            &[
                ("elicitationId", id),
                ("csrf", csrf),
                ("decision", decision),
            ],
            &stack.base,
        )
        .await
}

#[tokio::test]
async fn confirmation_page_records_confirm_and_cancel_and_completes() {
    let stack = Stack::start().await;
    let alice = stack.user("alice");
    let purpose = || Purpose::Confirm {
        summary: "Pay 42.00 EUR to <Example Shop>".into(),
    };
    let pay = stack.pending(&alice, purpose()).await;
    let decline = stack.pending(&alice, purpose()).await;
    let mut browser = Browser::new("alice");
    let page = open_connect(&stack, &mut browser, &pay).await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Pay 42.00 EUR to &lt;Example Shop&gt;"));
    assert!(page.body.contains("value=\"confirm\"") && page.body.contains("value=\"cancel\""));
    let csrf = hidden_value(&page.body, "csrf").expect("csrf");
    let url = format!("{}/connect/confirm", stack.base);
    // An unknown decision changes nothing.
    let bad = decide(&stack, &mut browser, &csrf, &pay, "maybe").await;
    assert_eq!(bad.status, 400);
    assert!(stack.is_pending(&alice, &pay).await);
    assert_eq!(stack.confirmation(&alice, &pay).await, None);
    // A GET cannot confirm.
    let get = browser.request(Method::GET, &url, None, None).await;
    assert_eq!(get.status, 405);
    let ok = decide(&stack, &mut browser, &csrf, &pay, "confirm").await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(
        stack.confirmation(&alice, &pay).await,
        Some(ConfirmOutcome::Confirmed)
    );
    assert!(!stack.is_pending(&alice, &pay).await);
    let no = decide(&stack, &mut browser, &csrf, &decline, "cancel").await;
    assert_eq!(no.status, 200);
    assert_eq!(
        stack.confirmation(&alice, &decline).await,
        Some(ConfirmOutcome::Cancelled)
    );
    assert!(!stack.is_pending(&alice, &decline).await);
    // Another user reads no outcome.
    assert_eq!(stack.confirmation(&stack.user("bob"), &pay).await, None);
    // A second click is refused (completed at most once) and does not flip the outcome.
    let twice = decide(&stack, &mut browser, &csrf, &pay, "cancel").await;
    assert_eq!(twice.status, 404);
    assert_eq!(
        stack.confirmation(&alice, &pay).await,
        Some(ConfirmOutcome::Confirmed)
    );
}

#[tokio::test]
async fn bad_requests_get_clear_statuses_and_security_headers() {
    let stack = Stack::start().await;
    let alice = stack.user("alice");
    let id = stack.pending(&alice, secret_purpose()).await;
    let mut browser = Browser::new("alice");
    let page = open_connect(&stack, &mut browser, &id).await;
    let csrf = hidden_value(&page.body, "csrf").expect("csrf");
    let url = format!("{}/connect/secret", stack.base);
    // A huge body is cut off by the body limit.
    let huge = "x".repeat(200 * 1024);
    let resp = browser
        .request(
            Method::POST,
            &url,
            Some(&[("elicitationId", &id), ("csrf", &csrf), ("secret", &huge)]),
            Some(&stack.base),
        )
        .await;
    assert!(resp.status == 413 || resp.status == 400, "{}", resp.status);
    assert_security_headers(&resp);
    // Wrong method, wrong content type, malformed form.
    assert_eq!(
        browser.request(Method::GET, &url, None, None).await.status,
        405
    );
    assert_eq!(
        browser
            .request(Method::PUT, &format!("{}/connect", stack.base), None, None)
            .await
            .status,
        405
    );
    let raw = browser
        .client
        .post(&url)
        .header("origin", &stack.base)
        .header("content-type", "application/json")
        .body("{\"secret\":\"x\"}")
        .send()
        .await
        .expect("post");
    assert!(raw.status().is_client_error());
    let raw = browser
        .client
        .post(&url)
        .header("origin", &stack.base)
        .header("content-type", "application/x-www-form-urlencoded")
        .body("%%%&&&==")
        .send()
        .await
        .expect("post");
    assert!(raw.status().is_client_error());
    // Login callback garbage.
    for q in [
        "",
        "?state=forged&code=x",
        "?code=x",
        "?error=access_denied&state=x",
    ] {
        let r = browser
            .request(
                Method::GET,
                &format!("{}/login/callback{q}", stack.base),
                None,
                None,
            )
            .await;
        assert_eq!(r.status, 400, "{q}");
        assert_security_headers(&r);
    }
    // A hostile return_to never leaves the server.
    let r = browser
        .request(
            Method::GET,
            &format!("{}/login?return_to=https://evil.example/", stack.base),
            None,
            None,
        )
        .await;
    assert_eq!(r.status, 303);
    assert!(stack.stored_secret(&alice, SECRET_NAME).await.is_none());
    assert!(stack.is_pending(&alice, &id).await);
}
