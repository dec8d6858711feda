//! End to end through MCP: a client (raw Streamable HTTP, bearer token of alice) calls a
//! tool that needs an API key; the tool answers -32042 with the connect URL; the browser
//! signs in as alice and saves the key; the client receives
//! `notifications/elicitation/complete` for that id on its stream; the retried call
//! succeeds. Nothing the client receives contains the key.

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::Router;
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use mcp_elicit_server::{Elicitations, SessionScope};
use mcp_elicit_store::{Vault, VaultStore};
use mcp_elicit_web::{API_KEY_NAME, Web, WebTools};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ProtocolVersion, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};

use crate::browser::{Browser, hidden_value};
use crate::harness::{Stack, hex, log_text};

struct KeyServer {
    scope: SessionScope,
    tools: Arc<WebTools>,
}

impl ServerHandler for KeyServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities: ServerCapabilities =
            serde_json::from_value(json!({"tools": {}})).unwrap_or_default();
        ServerConfig::new(capabilities).with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let mut ask = self.scope.ask(&context, &request).await?;
        let args = request.arguments.clone().unwrap_or_default();
        match self.tools.call(&mut ask, &request.name, &args).await {
            Some(result) => mcp_elicit_server::respond(result),
            None => Err(ErrorData::invalid_params("unknown tool", None)),
        }
    }
}

fn mcp_router(hub: &Elicitations, web: &Web, _vault: &Vault) -> Router {
    let hub = hub.clone();
    let tools = Arc::new(WebTools::new(web.clone()));
    let service = StreamableHttpService::new(
        move || {
            Ok(KeyServer {
                scope: hub.scope().map_err(std::io::Error::other)?,
                tools: tools.clone(),
            })
        },
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    Router::new().nest_service("/mcp", service)
}

fn token_for(stack: &Stack, sub: &str) -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let mut header = Header::new(Algorithm::RS256);
    header.kid = Some(stack.provider.kid.clone());
    let claims = json!({"iss": stack.issuer, "sub": sub, "aud": format!("{}/mcp", stack.base),
        "iat": now, "exp": now + 300});
    let key = EncodingKey::from_rsa_pem(stack.provider.signing_key_pem.as_bytes()).expect("key");
    encode(&header, &claims, &key).expect("sign")
}

/// The JSON-RPC messages in a JSON or SSE response body.
fn messages(body: &str) -> Vec<Value> {
    if let Ok(v) = serde_json::from_str::<Value>(body) {
        return vec![v];
    }
    body.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str(d.trim()).ok())
        .collect()
}

struct McpClient {
    http: reqwest::Client,
    url: String,
    token: String,
    session: Option<String>,
    /// Everything the client received (for the "no secret reaches the client" check).
    received: Arc<Mutex<String>>,
}

impl McpClient {
    async fn post(&mut self, body: Value) -> Vec<Value> {
        let mut req = self
            .http
            .post(&self.url)
            .bearer_auth(&self.token)
            .header("accept", "application/json, text/event-stream")
            .json(&body);
        if let Some(s) = &self.session {
            req = req.header("mcp-session-id", s);
        }
        let resp = req.send().await.expect("post");
        assert!(resp.status().is_success(), "{}", resp.status());
        if let Some(s) = resp.headers().get("mcp-session-id") {
            self.session = Some(s.to_str().expect("session id").to_owned());
        }
        let text = resp.text().await.expect("body");
        self.received.lock().expect("lock").push_str(&text);
        messages(&text)
    }

    /// Opens the standalone GET stream, appending what arrives to `received`.
    async fn open_stream(&self) {
        let mut resp = self
            .http
            .get(&self.url)
            .bearer_auth(&self.token)
            .header("accept", "text/event-stream")
            .header("mcp-session-id", self.session.as_deref().expect("session"))
            .send()
            .await
            .expect("GET stream");
        assert_eq!(resp.status(), 200);
        let received = self.received.clone();
        tokio::spawn(async move {
            while let Ok(Some(chunk)) = resp.chunk().await {
                received
                    .lock()
                    .expect("lock")
                    .push_str(&String::from_utf8_lossy(&chunk));
            }
        });
    }
}

#[tokio::test]
async fn url_required_then_browser_then_completion_notification_then_retry() {
    let stack = Stack::start_full(|c| c, mcp_router).await;
    let mut client = McpClient {
        http: reqwest::Client::new(),
        url: format!("{}/mcp", stack.base),
        token: token_for(&stack, "alice"),
        session: None,
        received: Arc::new(Mutex::new(String::new())),
    };
    let init = client
        .post(
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"elicitation": {"form": {}, "url": {}}},
            "clientInfo": {"name": "web-e2e", "version": "0"}}}),
        )
        .await;
    assert!(
        init.iter().any(|m| m["id"] == 1 && m["result"].is_object()),
        "{init:?}"
    );
    client
        .post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    client.open_stream().await;

    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "set_api_key", "arguments": {}}});
    let (id, url) = expect_url_required(&mut client, call.clone()).await;
    assert_eq!(url, stack.web.connect_url(&id));

    // Bob, with a valid token of his own, cannot use alice's session (hijacking).
    let session = client.session.clone().expect("session id");
    let bob = token_for(&stack, "bob");
    for (method, body) in [
        (
            "POST",
            Some(json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list"})),
        ),
        ("GET", None),
        ("DELETE", None),
    ] {
        let mut req = client
            .http
            .request(method.parse().expect("method"), &client.url)
            .bearer_auth(&bob)
            .header("accept", "application/json, text/event-stream")
            .header("mcp-session-id", &session);
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp = req.send().await.expect("bob's request");
        assert_eq!(resp.status(), 404, "{method}");
    }

    // The user finishes in the browser.
    let mut b = [0u8; 12];
    getrandom::fill(&mut b).expect("random");
    let secret = format!("sk_e2e_{}", hex(&b));
    let mut browser = Browser::new("alice");
    let page = browser.open(&url).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let csrf = hidden_value(&page.body, "csrf").expect("csrf");
    let done = stack.submit_secret(&mut browser, &id, &csrf, &secret).await;
    assert_eq!(done.status, 200, "{}", done.body);
    wait_for_completion(&client, &id).await;

    // The retry succeeds; the key itself never reaches the client.
    let retry = client.post(call).await;
    let result = retry.iter().find(|m| m["id"] == 2).expect("response");
    assert_eq!(result["result"]["isError"], false, "{result}");
    assert!(result.to_string().contains("on file"), "{result}");
    let stored = stack
        .vault
        .get_secret(&stack.user("alice"), API_KEY_NAME)
        .await
        .expect("vault")
        .expect("stored");
    assert_eq!(secrecy::ExposeSecret::expose_secret(&stored.value), secret);

    // A purchase: confirm on the page, then the retry reports the answer.
    let buy = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "approve_purchase", "arguments": {"item": "<Widget>", "amount": "42.00 EUR"}}});
    let (buy_id, buy_url) = expect_url_required(&mut client, buy.clone()).await;
    let page = browser.open(&buy_url).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Buy &lt;Widget&gt; for 42.00 EUR"));
    let csrf = hidden_value(&page.body, "csrf").expect("csrf");
    let done = browser
        .submit(
            &format!("{}/connect/confirm", stack.base),
            &[
                ("elicitationId", &buy_id),
                ("csrf", &csrf),
                ("decision", "confirm"),
            ],
            &stack.base,
        )
        .await;
    assert_eq!(done.status, 200, "{}", done.body);
    wait_for_completion(&client, &buy_id).await;
    let retry = client.post(buy).await;
    let result = retry.iter().find(|m| m["id"] == 3).expect("response");
    assert!(
        result
            .to_string()
            .contains("Approved: Buy <Widget> for 42.00 EUR"),
        "{result}"
    );

    // A third-party account: OAuth on the page, then the retry finds the tokens.
    let connect = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
        "params": {"name": "connect_provider", "arguments": {}}});
    let (oauth_id, oauth_url) = expect_url_required(&mut client, connect.clone()).await;
    let page = browser.open(&oauth_url).await;
    let csrf = hidden_value(&page.body, "csrf").expect("csrf");
    let done = browser
        .submit(
            &format!("{}/connect/oauth", stack.base),
            &[("elicitationId", &oauth_id), ("csrf", &csrf)],
            &stack.base,
        )
        .await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(done.body.contains("is connected"));
    wait_for_completion(&client, &oauth_id).await;
    let retry = client.post(connect).await;
    let result = retry.iter().find(|m| m["id"] == 4).expect("response");
    assert!(
        result.to_string().contains("account is connected"),
        "{result}"
    );
    let tokens = stack
        .vault
        .get_tokens(&stack.user("alice"), crate::harness::PROVIDER)
        .await
        .expect("vault")
        .expect("tokens");

    let everything = client.received.lock().expect("lock").clone();
    assert!(
        !everything.contains(&secret),
        "the secret reached the MCP client"
    );
    assert!(
        !everything.contains(secrecy::ExposeSecret::expose_secret(&tokens.access_token)),
        "a third-party token reached the MCP client"
    );
    let refresh = tokens.refresh_token.as_ref().expect("refresh token");
    assert!(!everything.contains(secrecy::ExposeSecret::expose_secret(refresh)));
    assert!(!log_text().contains(&secret));
}

/// Calls a tool that must answer -32042; returns the elicitation's id and URL.
async fn expect_url_required(client: &mut McpClient, call: Value) -> (String, String) {
    let request_id = call["id"].clone();
    let answer = client.post(call).await;
    let error = answer
        .iter()
        .find(|m| m["id"] == request_id)
        .map(|m| m["error"].clone())
        .expect("a response to the call");
    assert_eq!(error["code"], -32042, "{error}");
    let elicitation = &error["data"]["elicitations"][0];
    assert_eq!(elicitation["mode"], "url");
    (
        elicitation["elicitationId"]
            .as_str()
            .expect("id")
            .to_owned(),
        elicitation["url"].as_str().expect("url").to_owned(),
    )
}

/// Waits until the client's stream carried the completion notification of `id`.
async fn wait_for_completion(client: &McpClient, id: &str) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let seen = client.received.lock().expect("lock").clone();
        if messages(&seen).iter().any(|m| {
            m["method"] == "notifications/elicitation/complete"
                && m["params"] == json!({"elicitationId": id})
        }) {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no completion notification for {id}; received: {seen}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
