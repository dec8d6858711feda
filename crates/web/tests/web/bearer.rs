//! The MCP endpoint as an OAuth resource server: metadata, 401 challenges, JWT checks.

use std::time::{SystemTime, UNIX_EPOCH};

use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use serde_json::{Value, json};

use crate::harness::{Stack, THIRD_PARTY_RESOURCE};

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

fn mint(stack: &Stack, claims: &Value, key_pem: &str, kid: Option<&str>) -> String {
    let mut header = Header::new(Algorithm::RS256);
    header.kid = kid.map(str::to_owned);
    let key = EncodingKey::from_rsa_pem(key_pem.as_bytes()).expect("rsa key");
    let _ = stack;
    encode(&header, claims, &key).expect("sign")
}

fn claims(stack: &Stack, sub: &str) -> Value {
    json!({
        "iss": stack.issuer,
        "sub": sub,
        "aud": format!("{}/mcp", stack.base),
        "iat": now(),
        "exp": now() + 300,
    })
}

async fn call(stack: &Stack, auth: Option<&str>) -> reqwest::Response {
    let mut req = reqwest::Client::new().post(format!("{}/mcp", stack.base));
    if let Some(a) = auth {
        req = req.header("authorization", a);
    }
    req.send().await.expect("request")
}

fn challenge(resp: &reqwest::Response) -> String {
    resp.headers()
        .get("www-authenticate")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned()
}

async fn provider_token(stack: &Stack, resource: &str) -> String {
    let resp = reqwest::Client::new()
        .post(format!("{}/token", stack.issuer))
        .basic_auth("mcp-test-cc", Some("mcp-test-cc-secret"))
        .form(&[
            ("grant_type", "client_credentials"),
            ("resource", resource),
            ("scope", "mcp"),
        ])
        .send()
        .await
        .expect("token request");
    let status = resp.status();
    let body: Value = resp.json().await.expect("token JSON");
    assert!(status.is_success(), "token endpoint: {status} {body}");
    body["access_token"]
        .as_str()
        .expect("access_token")
        .to_owned()
}

#[tokio::test]
async fn protected_resource_metadata_names_the_issuer_and_resource() {
    let stack = Stack::start().await;
    let client = reqwest::Client::new();
    let resp = client
        .get(format!(
            "{}/.well-known/oauth-protected-resource/mcp",
            stack.base
        ))
        .send()
        .await
        .expect("metadata");
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["cache-control"], "no-store");
    let body: Value = resp.json().await.expect("json");
    assert_eq!(body["resource"], format!("{}/mcp", stack.base));
    assert_eq!(body["authorization_servers"], json!([stack.issuer]));
    assert_eq!(body["bearer_methods_supported"], json!(["header"]));
    let root: Value = client
        .get(format!(
            "{}/.well-known/oauth-protected-resource",
            stack.base
        ))
        .send()
        .await
        .expect("metadata")
        .json()
        .await
        .expect("json");
    assert_eq!(root["resource"], stack.base);
}

#[tokio::test]
async fn missing_or_non_bearer_credentials_get_401_with_resource_metadata() {
    let stack = Stack::start().await;
    let expected = format!(
        "resource_metadata=\"{}/.well-known/oauth-protected-resource/mcp\"",
        stack.base
    );
    for auth in [
        None,
        Some("Basic YWxpY2U6cHc="),
        Some("Bearer"),
        Some("Bearer   "),
    ] {
        let resp = call(&stack, auth).await;
        assert_eq!(resp.status(), 401, "{auth:?}");
        let c = challenge(&resp);
        assert!(c.starts_with("Bearer "), "{c}");
        assert!(c.contains(&expected), "{c}");
        assert!(!c.contains("error="), "no error code without a token: {c}");
    }
    // A token in the query string is not a credential.
    let token = mint(
        &stack,
        &claims(&stack, "alice"),
        &stack.provider.signing_key_pem,
        Some(&stack.provider.kid),
    );
    let resp = reqwest::Client::new()
        .post(format!("{}/mcp?access_token={token}", stack.base))
        .send()
        .await
        .expect("request");
    assert_eq!(resp.status(), 401);
}

#[tokio::test]
async fn a_provider_issued_token_for_this_resource_is_accepted_and_names_the_principal() {
    let stack = Stack::start().await;
    let token = provider_token(&stack, &format!("{}/mcp", stack.base)).await;
    let resp = call(&stack, Some(&format!("Bearer {token}"))).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(
        resp.text().await.expect("body"),
        format!("{}|mcp-test-cc", stack.issuer)
    );
    // Scheme name is case-insensitive (RFC 6750 / RFC 9110).
    let resp = call(&stack, Some(&format!("bearer {token}"))).await;
    assert_eq!(resp.status(), 200);
}

#[tokio::test]
async fn a_provider_issued_token_for_another_resource_is_refused() {
    let stack = Stack::start().await;
    let token = provider_token(&stack, THIRD_PARTY_RESOURCE).await;
    let resp = call(&stack, Some(&format!("Bearer {token}"))).await;
    assert_eq!(resp.status(), 401);
    let c = challenge(&resp);
    assert!(c.contains("error=\"invalid_token\""), "{c}");
    assert!(c.contains("another audience"), "{c}");
}

#[tokio::test]
async fn minted_tokens_are_checked_claim_by_claim() {
    let stack = Stack::start().await;
    let kid = stack.provider.kid.clone();
    let good = &stack.provider.signing_key_pem;
    // Valid: the user's principal reaches the handler.
    let token = mint(&stack, &claims(&stack, "alice"), good, Some(&kid));
    let resp = call(&stack, Some(&format!("Bearer {token}"))).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(
        resp.text().await.expect("body"),
        format!("{}|alice", stack.issuer)
    );

    let mut cases: Vec<(&str, Value, &str, Option<&str>)> = Vec::new();
    let mut expired = claims(&stack, "alice");
    expired["exp"] = json!(now() - 300);
    cases.push(("expired", expired, good, Some(&kid)));
    let mut within_leeway = claims(&stack, "alice");
    within_leeway["exp"] = json!(now() - 5);
    let mut wrong_aud = claims(&stack, "alice");
    wrong_aud["aud"] = json!("https://other.example/mcp");
    cases.push(("for another audience", wrong_aud, good, Some(&kid)));
    let mut wrong_iss = claims(&stack, "alice");
    wrong_iss["iss"] = json!("https://evil.example");
    cases.push(("another issuer", wrong_iss, good, Some(&kid)));
    let mut immature = claims(&stack, "alice");
    immature["nbf"] = json!(now() + 600);
    cases.push(("not valid yet", immature, good, Some(&kid)));
    let mut no_sub = claims(&stack, "alice");
    no_sub.as_object_mut().expect("object").remove("sub");
    cases.push(("claim is missing", no_sub, good, Some(&kid)));
    cases.push((
        "bad signature",
        claims(&stack, "alice"),
        &stack.provider.other_key_pem,
        Some(&kid),
    ));
    cases.push((
        "unknown signing key",
        claims(&stack, "alice"),
        good,
        Some("no-such-kid"),
    ));
    for (why, c, key, kid) in cases {
        let token = mint(&stack, &c, key, kid);
        let resp = call(&stack, Some(&format!("Bearer {token}"))).await;
        assert_eq!(resp.status(), 401, "{why}");
        let ch = challenge(&resp);
        assert!(ch.contains("error=\"invalid_token\""), "{why}: {ch}");
        assert!(ch.contains(why), "{why}: {ch}");
    }
    // A token that expired seconds ago passes within the leeway.
    let token = mint(&stack, &within_leeway, good, Some(&kid));
    assert_eq!(
        call(&stack, Some(&format!("Bearer {token}")))
            .await
            .status(),
        200
    );
}

#[tokio::test]
async fn unsigned_and_hmac_tokens_and_garbage_are_refused() {
    let stack = Stack::start().await;
    use base64::Engine;
    let b64 = |v: &Value| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string());
    let body = b64(&claims(&stack, "alice"));
    let none = format!("{}.{}.", b64(&json!({"alg": "none", "typ": "JWT"})), body);
    // HS256 keyed with the public key material (the classic confusion attack).
    let hs = encode(
        &Header::new(Algorithm::HS256),
        &claims(&stack, "alice"),
        &EncodingKey::from_secret(stack.provider.kid.as_bytes()).expect("hmac key"),
    )
    .expect("hs256");
    let long = "a".repeat(20_000);
    for token in [
        none.as_str(),
        hs.as_str(),
        "not-a-jwt",
        "a.b.c",
        long.as_str(),
    ] {
        let resp = call(&stack, Some(&format!("Bearer {token}"))).await;
        assert_eq!(resp.status(), 401, "{}", &token[..token.len().min(40)]);
        assert!(challenge(&resp).contains("invalid_token"));
    }
}

#[tokio::test]
async fn required_scopes_give_403_insufficient_scope() {
    let stack = Stack::start_with(|mut c| {
        c.required_scopes = vec!["admin".into()];
        c
    })
    .await;
    let token = provider_token(&stack, &format!("{}/mcp", stack.base)).await;
    let resp = call(&stack, Some(&format!("Bearer {token}"))).await;
    assert_eq!(resp.status(), 403);
    let c = challenge(&resp);
    assert!(c.contains("error=\"insufficient_scope\""), "{c}");
    assert!(c.contains("scope=\"admin\""), "{c}");

    let stack = Stack::start_with(|mut c| {
        c.required_scopes = vec!["mcp".into()];
        c
    })
    .await;
    let token = provider_token(&stack, &format!("{}/mcp", stack.base)).await;
    assert_eq!(
        call(&stack, Some(&format!("Bearer {token}")))
            .await
            .status(),
        200
    );
}
