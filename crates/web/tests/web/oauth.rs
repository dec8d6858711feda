//! The third-party OAuth flow: happy path with tokens in the vault and refresh, and a
//! forged, replayed, expired or foreign `state`; the provider never sees the MCP client's
//! bearer token.

use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::response::Response;
use mcp_elicit_web::{ProviderEndpoints, Purpose, WebError};
use reqwest::Method;
use secrecy::ExposeSecret;

use crate::browser::{Browser, Page, hidden_value};
use crate::harness::{PROVIDER, Stack, THIRD_PARTY_RESOURCE, log_text};

fn purpose() -> Purpose {
    Purpose::OAuth {
        provider: PROVIDER.into(),
    }
}

/// Opens the connect page, presses "Continue", and follows through the provider until
/// the redirect back to `/oauth/callback` (not followed). Returns that callback URL.
async fn authorize_until_callback(stack: &Stack, browser: &mut Browser, id: &str) -> String {
    let page = browser.open(&stack.web.connect_url(id)).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Continue to Third Party"));
    // Browsers apply form-action to the redirect that answers the form: exactly the
    // provider's origin is allowed besides our own.
    let csp = page.headers["content-security-policy"]
        .to_str()
        .expect("csp");
    assert!(
        csp.contains(&format!("form-action 'self' {};", stack.issuer)),
        "{csp}"
    );
    assert!(csp.contains("default-src 'none'"));
    let csrf = hidden_value(&page.body, "csrf").expect("csrf");
    let mut page = browser
        .request(
            Method::POST,
            &format!("{}/connect/oauth", stack.base),
            Some(&[("elicitationId", id), ("csrf", &csrf)]),
            Some(&stack.base),
        )
        .await;
    assert_eq!(page.status, 303, "{}", page.body);
    let location = page.headers["location"]
        .to_str()
        .expect("location")
        .to_owned();
    assert!(location.starts_with(&stack.issuer));
    for needle in [
        "code_challenge_method=S256",
        "state=",
        "client_id=third-party-app",
        "redirect_uri=",
    ] {
        assert!(location.contains(needle), "{needle} in {location}");
    }
    for _ in 0..25 {
        if page.status.is_redirection() {
            let loc = page.headers["location"].to_str().expect("location");
            let next = page.url.join(loc).expect("url");
            if next
                .as_str()
                .starts_with(&format!("{}/oauth/callback", stack.base))
            {
                return next.to_string();
            }
        }
        match browser.step(&page).await {
            Some(next) => page = next,
            None => panic!("stopped at {} {}: {}", page.url, page.status, page.body),
        }
    }
    panic!("never reached the callback");
}

fn done(page: &Page) -> bool {
    page.status == 200 && page.body.contains("is connected")
}

#[tokio::test]
async fn oauth_flow_stores_tokens_for_the_user_completes_and_refreshes() {
    let stack = Stack::start().await;
    let alice = stack.user("alice");
    let id = stack.pending(&alice, purpose()).await;
    // Not connected yet.
    assert!(matches!(
        stack.web.access_token_for(&alice, PROVIDER).await,
        Err(WebError::NotConnected { .. })
    ));
    let mut browser = Browser::new("alice");
    let callback = authorize_until_callback(&stack, &mut browser, &id).await;
    let page = browser.open(&callback).await;
    assert!(done(&page), "{} {}", page.status, page.body);
    assert!(!stack.is_pending(&alice, &id).await, "completed");
    let stored = stack.stored_tokens(&alice).await.expect("tokens");
    assert!(stored.refresh_token.is_some(), "a refresh token was issued");
    assert!(stack.stored_tokens(&stack.user("bob")).await.is_none());
    let first = stored.access_token.expose_secret().to_owned();
    assert!(!page.body.contains(&first));
    // The provider's tokens live 20 s, inside the 30 s refresh margin: each use refreshes.
    let refreshed = stack
        .web
        .access_token_for(&alice, PROVIDER)
        .await
        .expect("refreshed token");
    assert_ne!(refreshed.expose_secret(), first, "a new access token");
    let claims =
        jsonwebtoken::dangerous::insecure_decode::<serde_json::Value>(refreshed.expose_secret())
            .expect("JWT access token")
            .claims;
    assert_eq!(claims["aud"], THIRD_PARTY_RESOURCE);
    assert_eq!(claims["sub"], "alice");
    let again = stack
        .web
        .access_token_for(&alice, PROVIDER)
        .await
        .expect("refreshed again");
    assert!(!again.expose_secret().is_empty());
    assert!(matches!(
        stack.web.access_token_for(&alice, "nope").await,
        Err(WebError::UnknownProvider(_))
    ));
    // The callback cannot be replayed.
    let replay = browser.open(&callback).await;
    assert_eq!(replay.status, 400, "{}", replay.body);
    let logs = log_text();
    for secret in [
        first.as_str(),
        refreshed.expose_secret(),
        again.expose_secret(),
    ] {
        assert!(!logs.contains(secret), "tokens must never be logged");
    }
    let code = url::Url::parse(&callback)
        .expect("url")
        .query_pairs()
        .find(|(k, _)| k == "code")
        .map(|(_, v)| v.into_owned())
        .expect("code");
    assert!(
        !logs.contains(&code),
        "authorization codes must never be logged"
    );
}

#[tokio::test]
async fn forged_and_foreign_state_are_refused_and_the_owner_can_still_finish() {
    let stack = Stack::start().await;
    let alice = stack.user("alice");
    let bob = stack.user("bob");
    let id = stack.pending(&alice, purpose()).await;
    let mut alice_browser = Browser::new("alice");
    let callback = authorize_until_callback(&stack, &mut alice_browser, &id).await;

    // Bob, signed in on our server, is lured to alice's callback URL.
    let bob_id = stack.pending(&bob, purpose()).await;
    let mut bob_browser = Browser::new("bob");
    assert_eq!(
        bob_browser
            .open(&stack.web.connect_url(&bob_id))
            .await
            .status,
        200
    );
    let page = bob_browser.open(&callback).await;
    assert_eq!(page.status, 400, "{}", page.body);
    assert!(stack.stored_tokens(&bob).await.is_none());
    assert!(stack.stored_tokens(&alice).await.is_none());
    assert!(stack.is_pending(&alice, &id).await);

    // A forged state, and no session at all.
    let forged = callback.replace("state=", "state=forged");
    assert_eq!(alice_browser.open(&forged).await.status, 400);
    let mut stranger = Browser::new("mallory");
    assert_eq!(stranger.open(&callback).await.status, 401);
    assert!(stack.is_pending(&alice, &id).await);

    // The real owner's callback still works: the others did not consume the state.
    let page = alice_browser.open(&callback).await;
    assert!(done(&page), "{} {}", page.status, page.body);
    assert!(stack.stored_tokens(&alice).await.is_some());
}

#[tokio::test]
async fn an_expired_state_is_refused_and_nothing_changes() {
    let stack = Stack::start().await;
    let alice = stack.user("alice");
    let id = stack.pending(&alice, purpose()).await;
    let mut browser = Browser::new("alice");
    let callback = authorize_until_callback(&stack, &mut browser, &id).await;
    // The vault's clock moves past the 10-minute state lifetime (the browser session
    // lasts an hour).
    stack.clock.advance(Duration::from_secs(11 * 60));
    let page = browser.open(&callback).await;
    assert_eq!(page.status, 400, "{}", page.body);
    assert!(page.body.contains("expired"));
    assert!(stack.stored_tokens(&alice).await.is_none());
    assert!(stack.is_pending(&alice, &id).await);
}

#[tokio::test]
async fn a_denied_authorization_changes_nothing() {
    let stack = Stack::start().await;
    let alice = stack.user("alice");
    let id = stack.pending(&alice, purpose()).await;
    let mut browser = Browser::new("alice");
    let callback = authorize_until_callback(&stack, &mut browser, &id).await;
    let url = url::Url::parse(&callback).expect("url");
    let state = url
        .query_pairs()
        .find(|(k, _)| k == "state")
        .map(|(_, v)| v.into_owned())
        .expect("state");
    let iss = url
        .query_pairs()
        .find(|(k, _)| k == "iss")
        .map(|(_, v)| v.into_owned())
        .expect("iss (RFC 9207)");
    // An error response from this provider names it too (RFC 9207).
    let denied = url::Url::parse_with_params(
        &format!("{}/oauth/callback", stack.base),
        &[("error", "access_denied"), ("state", &state), ("iss", &iss)],
    )
    .expect("denied URL")
    .to_string();
    let page = browser.open(&denied).await;
    assert_eq!(page.status, 400);
    assert!(stack.is_pending(&alice, &id).await);
    assert!(stack.stored_tokens(&alice).await.is_none());
    // The state was consumed: the code can no longer be redeemed with it.
    assert_eq!(browser.open(&callback).await.status, 400);
}

#[tokio::test]
async fn a_response_naming_another_issuer_is_refused() {
    let stack = Stack::start().await;
    let alice = stack.user("alice");
    let id = stack.pending(&alice, purpose()).await;
    let mut browser = Browser::new("alice");
    let callback = authorize_until_callback(&stack, &mut browser, &id).await;
    assert!(
        callback.contains("iss="),
        "the provider sends RFC 9207 iss: {callback}"
    );
    let mut url = url::Url::parse(&callback).expect("url");
    let pairs: Vec<(String, String)> = url
        .query_pairs()
        .map(|(k, v)| {
            let v = if k == "iss" {
                "https://evil.example".into()
            } else {
                v.into_owned()
            };
            (k.into_owned(), v)
        })
        .collect();
    url.query_pairs_mut().clear().extend_pairs(pairs);
    let page = browser.open(url.as_str()).await;
    assert_eq!(page.status, 400, "{}", page.body);
    assert!(page.body.contains("another authorization server"));
    assert!(stack.is_pending(&alice, &id).await);
    assert!(stack.stored_tokens(&alice).await.is_none());
    // The provider advertises authorization_response_iss_parameter_supported: a
    // response with `iss` stripped is refused too.
    let mut stripped = url::Url::parse(&callback).expect("url");
    let pairs: Vec<(String, String)> = stripped
        .query_pairs()
        .filter(|(k, _)| k != "iss")
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    stripped.query_pairs_mut().clear().extend_pairs(pairs);
    let page = browser.open(stripped.as_str()).await;
    assert_eq!(page.status, 400, "{}", page.body);
    assert!(stack.stored_tokens(&alice).await.is_none());
    // Neither forgery burnt the user's one-time state: the real response still works.
    let page = browser.open(&callback).await;
    assert!(done(&page), "{} {}", page.status, page.body);
    assert!(stack.stored_tokens(&alice).await.is_some());
}

/// What the recording proxy saw: one line per request (method, target, every header,
/// the body), in order.
#[derive(Clone, Default)]
struct Recorded {
    upstream: Arc<OnceLock<String>>,
    requests: Arc<Mutex<Vec<String>>>,
}

impl Recorded {
    fn requests(&self) -> Vec<String> {
        match self.requests.lock() {
            Ok(v) => v.clone(),
            Err(p) => p.into_inner().clone(),
        }
    }
}

/// Records the request whole, then forwards it to the same path at the upstream issuer
/// and relays the answer (status, content type, body).
async fn record_and_forward(State(rec): State<Recorded>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, 1 << 20)
        .await
        .expect("request body");
    let mut line = format!("{} {}", parts.method, parts.uri);
    for (name, value) in &parts.headers {
        line.push_str(&format!(
            "\n{name}: {}",
            String::from_utf8_lossy(value.as_bytes())
        ));
    }
    line.push_str("\n\n");
    line.push_str(&String::from_utf8_lossy(&body));
    match rec.requests.lock() {
        Ok(mut v) => v.push(line),
        Err(p) => p.into_inner().push(line),
    }
    let upstream = rec.upstream.get().expect("upstream issuer set");
    let target = format!(
        "{upstream}{}",
        parts.uri.path_and_query().map_or("/", |p| p.as_str())
    );
    let mut forward = reqwest::Client::new().request(
        reqwest::Method::from_bytes(parts.method.as_str().as_bytes()).expect("method"),
        target,
    );
    for (name, value) in &parts.headers {
        if name != "host" && name != "content-length" {
            forward = forward.header(name.as_str(), value.as_bytes());
        }
    }
    let answer = forward.body(body).send().await.expect("forward upstream");
    let status = answer.status().as_u16();
    let content_type = answer
        .headers()
        .get("content-type")
        .map(|v| v.as_bytes().to_vec())
        .unwrap_or_default();
    let bytes = answer.bytes().await.expect("upstream body");
    Response::builder()
        .status(status)
        .header("content-type", content_type)
        .body(Body::from(bytes))
        .expect("response")
}

/// A client-credentials access token of the issuer for this server's MCP endpoint: what
/// an MCP client sends as its bearer token.
async fn mcp_bearer_token(stack: &Stack) -> String {
    let resp = reqwest::Client::new()
        .post(format!("{}/token", stack.issuer))
        .basic_auth("mcp-test-cc", Some("mcp-test-cc-secret"))
        .form(&[
            ("grant_type", "client_credentials"),
            ("resource", &format!("{}/mcp", stack.base)),
            ("scope", "mcp"),
        ])
        .send()
        .await
        .expect("token request");
    let status = resp.status();
    let body: serde_json::Value = resp.json().await.expect("token JSON");
    assert!(status.is_success(), "token endpoint: {status} {body}");
    body["access_token"]
        .as_str()
        .expect("access_token")
        .to_owned()
}

/// S7 (no token passthrough): the server talks to the third-party provider with its own
/// client credentials only. The provider's token endpoint is reached through a recording
/// proxy; the MCP client's bearer token, which the server has just accepted on `/mcp`,
/// appears in none of the server's requests there (no header, no body), for the code
/// exchange and the refreshes alike.
#[tokio::test]
async fn the_provider_never_receives_the_mcp_clients_bearer_token() {
    let rec = Recorded::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind proxy");
    let proxy = format!("http://{}", listener.local_addr().expect("proxy addr"));
    let app = Router::new()
        .fallback(record_and_forward)
        .with_state(rec.clone());
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    let upstream = Arc::clone(&rec.upstream);
    let stack = Stack::start_with(move |mut config| {
        for p in &mut config.providers {
            if let ProviderEndpoints::Discover { issuer } = &p.endpoints {
                let issuer = issuer.trim_end_matches('/').to_owned();
                // The browser still goes to the real authorization endpoint; the
                // server's back-channel goes through the proxy.
                p.endpoints = ProviderEndpoints::Explicit {
                    authorization: url::Url::parse(&format!("{issuer}/auth")).expect("url"),
                    token: url::Url::parse(&format!("{proxy}/token")).expect("url"),
                };
                let _ = upstream.set(issuer);
            }
        }
        config
    })
    .await;

    // An MCP client's bearer token, accepted by the server.
    let mcp_token = mcp_bearer_token(&stack).await;
    let resp = reqwest::Client::new()
        .post(format!("{}/mcp", stack.base))
        .bearer_auth(&mcp_token)
        .send()
        .await
        .expect("mcp request");
    assert_eq!(resp.status(), 200);
    assert_eq!(
        resp.text().await.expect("body"),
        format!("{}|mcp-test-cc", stack.issuer)
    );

    // The user connects the provider, and the server refreshes the token twice.
    let alice = stack.user("alice");
    let id = stack.pending(&alice, purpose()).await;
    let mut browser = Browser::new("alice");
    let callback = authorize_until_callback(&stack, &mut browser, &id).await;
    let page = browser.open(&callback).await;
    assert!(done(&page), "{} {}", page.status, page.body);
    for _ in 0..2 {
        stack
            .web
            .access_token_for(&alice, PROVIDER)
            .await
            .expect("refreshed token");
    }

    let requests = rec.requests();
    // The proxy did see the server's back-channel: one code exchange, two refreshes,
    // authenticated as the server's own client at the provider.
    let grants = |g: &str| {
        requests
            .iter()
            .filter(|r| r.contains(&format!("grant_type={g}")))
            .count()
    };
    assert_eq!(grants("authorization_code"), 1, "{requests:#?}");
    assert_eq!(grants("refresh_token"), 2, "{requests:#?}");
    for r in &requests {
        assert!(r.starts_with("POST /token"), "{r}");
        let lower = r.to_ascii_lowercase();
        assert!(
            lower.contains("authorization: basic ") || r.contains("client_id=third-party-app"),
            "the server authenticates as its own client: {r}"
        );
        assert!(!lower.contains("authorization: bearer"), "{r}");
    }
    // The MCP bearer token, and its signature alone, are nowhere upstream.
    let signature = mcp_token.rsplit('.').next().unwrap_or_default();
    assert!(signature.len() > 20, "a signed JWT: {mcp_token}");
    for r in &requests {
        assert!(
            !r.contains(&mcp_token),
            "the MCP token reached the provider: {r}"
        );
        assert!(
            !r.contains(signature),
            "the MCP token's signature reached the provider: {r}"
        );
    }
}
