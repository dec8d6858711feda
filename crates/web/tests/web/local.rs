//! Local mode (`Web::local`): loopback http only, no authorization server routes, no
//! bearer tokens accepted.

use std::sync::Arc;

use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
use mcp_elicit_store::{Keyring, Store, VaultKey};
use mcp_elicit_web::Web;

async fn local(public: &str) -> Result<Web, mcp_elicit_web::WebError> {
    let user = Principal::local_user("ada");
    let store = Store::connect("sqlite::memory:").await.expect("store");
    let vault = store.vault(Keyring::new(VaultKey::generate().expect("key")));
    let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(
        user.clone(),
    )));
    Web::local(
        url::Url::parse(public).expect("url"),
        user,
        Vec::new(),
        hub,
        Arc::new(vault),
    )
    .await
}

#[tokio::test]
async fn local_mode_is_loopback_only() {
    for refused in [
        "http://mcp.example.com",
        "https://mcp.example.com",
        "http://10.0.0.5:8391",
        "ftp://127.0.0.1:8391",
    ] {
        assert!(local(refused).await.is_err(), "{refused}");
    }
    let web = local("http://127.0.0.1:8391").await.expect("loopback");
    assert!(web.is_local());
    assert!(!web.config().secure_cookies());
    assert!(local("http://[::1]:8391").await.is_ok());
    // The server's own TLS on loopback: cookies become Secure.
    let tls = local("https://127.0.0.1:8391")
        .await
        .expect("loopback https");
    assert!(tls.config().secure_cookies());
}

#[tokio::test]
async fn local_mode_serves_no_metadata_or_sign_in_and_accepts_no_bearer_token() {
    let web = local("http://127.0.0.1:8391").await.expect("loopback");
    assert!(web.validate_bearer("a.b.c").await.is_err());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let app = web.router();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    for path in [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp",
        "/login",
        "/login/callback",
    ] {
        let resp = http
            .get(format!("http://{addr}{path}"))
            .send()
            .await
            .expect("get");
        assert_eq!(resp.status(), 404, "{path}");
    }
    // The connect page signs the browser in as the local user (a session cookie and a
    // redirect back), then refuses an unknown id without changing anything.
    let resp = http
        .get(format!("http://{addr}/connect?elicitationId=abc"))
        .send()
        .await
        .expect("get");
    assert_eq!(resp.status(), 303);
    let cookie = resp
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .expect("session cookie")
        .to_owned();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"));
    let session = cookie.split(';').next().expect("name=value").to_owned();
    let resp = http
        .get(format!("http://{addr}/connect?elicitationId=abc"))
        .header("cookie", session)
        .send()
        .await
        .expect("get");
    assert_eq!(resp.status(), 404);
}
