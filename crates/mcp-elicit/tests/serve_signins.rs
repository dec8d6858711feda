//! Anonymous sign-ins per client (issue 14): connect links of ids nobody registered
//! each started a sign-in (in local mode: a new browser session stored for an hour), as
//! fast as a client could send them. Now one client address may start
//! `max_signins_per_client` (30) a minute; the next gets 429 with `Retry-After` naming
//! the limit, and the connect link of a registered elicitation still signs in.

use serde_json::json;

mod support;

use support::{McpClient, Server, free_port};

async fn open(url: &str) -> reqwest::Response {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
        .get(url)
        .send()
        .await
        .expect("get")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anonymous_sign_ins_per_client_are_limited_and_real_connect_links_still_sign_in() {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let args: Vec<String> = vec![
        "--listen".into(),
        format!("127.0.0.1:{port}"),
        "--store".into(),
        "memory".into(),
    ];
    let server = Server::start(&args, &[("USER", "signin-tester")], port);
    let (mut client, _) = McpClient::connect(&format!("{base}/mcp"), String::new()).await;
    let (_, real) = client
        .url_required(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "set_api_key", "arguments": {}}}))
        .await;
    let mut started = 0;
    let mut refused = None;
    for n in 0..40u32 {
        let resp = open(&format!("{base}/connect?elicitationId={n:032x}")).await;
        match resp.status().as_u16() {
            303 => started += 1,
            429 => {
                refused = Some(resp);
                break;
            }
            other => panic!("unexpected {other}: {}", server.log()),
        }
    }
    assert_eq!(started, 30, "the default is 30 a minute");
    let refused = refused.expect("the 31st anonymous sign-in was refused");
    let wait: u64 = refused
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("Retry-After");
    assert!((1..=60).contains(&wait), "{wait}");
    let body = refused.text().await.expect("body");
    assert!(body.contains("max_signins_per_client"), "{body}");
    // The connect link of a registered elicitation is not anonymous: it still signs in.
    let resp = open(&real).await;
    assert_eq!(resp.status(), 303, "{}", server.log());
}
