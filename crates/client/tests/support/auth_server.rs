//! A small MCP server + authorization server on one loopback port, for the authorization
//! tests: protected resource metadata, RFC 8414 metadata, dynamic registration, an
//! authorization endpoint that redirects at once, a token endpoint, and `/mcp` answering
//! `initialize`, `notifications/initialized` and `tools/list` (2025-11-25) behind a bearer
//! check. Knobs make it misbehave; it records what the client sent.

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};

/// How the server misbehaves.
#[derive(Debug, Clone, Default)]
pub(crate) struct Knobs {
    /// `issuer` in the authorization server metadata (default: the real one).
    pub metadata_issuer: Option<String>,
    /// `iss` on the authorization response: None = the real issuer, Some("") = omitted.
    pub iss: Option<String>,
    /// `resource` in the protected resource metadata (default: the real one).
    pub prm_resource: Option<String>,
    /// Where the authorization endpoint sends the browser (default: the redirect_uri).
    pub redirect_to: Option<String>,
    /// Answer every authorized `tools/list` with 403 insufficient_scope.
    pub always_insufficient: bool,
    /// Refuse every token with 401.
    pub refuse_tokens: bool,
    /// Serve an authorization server metadata document this many bytes long.
    pub huge_metadata: Option<usize>,
    /// Serve malformed authorization server metadata.
    pub malformed_metadata: bool,
    /// Also advertise `offline_access` and give refresh tokens.
    pub offline: bool,
    /// Advertise these `scopes_supported` in the protected resource metadata.
    pub prm_scopes: Option<Vec<String>>,
    /// `expires_in` of issued tokens (default 3600).
    pub expires_in: Option<u64>,
}

/// What the client did.
#[derive(Debug, Clone, Default)]
pub(crate) struct Seen {
    /// Query strings of authorization requests.
    pub authorize: Vec<String>,
    /// Form bodies of token requests.
    pub token: Vec<String>,
    /// Registration bodies.
    pub register: Vec<Value>,
    /// Authorization headers on /mcp.
    pub bearer: Vec<String>,
}

#[derive(Clone)]
struct Shared {
    base: String,
    knobs: Knobs,
    seen: Arc<Mutex<Seen>>,
    issued: Arc<Mutex<u32>>,
    revoked: Arc<Mutex<Vec<String>>>,
}

/// A running fake.
pub(crate) struct Fake {
    /// `http://127.0.0.1:PORT` (the issuer).
    pub base: String,
    seen: Arc<Mutex<Seen>>,
    revoked: Arc<Mutex<Vec<String>>>,
}

impl Fake {
    /// The MCP endpoint.
    pub(crate) fn mcp(&self) -> String {
        format!("{}/mcp", self.base)
    }

    /// From now on `/mcp` answers 401 to this access token.
    pub(crate) fn revoke(&self, token: &str) {
        self.revoked.lock().unwrap().push(token.to_owned());
    }

    /// What the client did so far.
    pub(crate) fn seen(&self) -> Seen {
        self.seen.lock().unwrap().clone()
    }
}

/// Starts the fake on a free loopback port.
pub(crate) async fn start(knobs: Knobs) -> Fake {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Seen::default()));
    let revoked = Arc::new(Mutex::new(Vec::new()));
    let shared = Shared {
        base: base.clone(),
        knobs,
        seen: seen.clone(),
        issued: Arc::new(Mutex::new(0)),
        revoked: revoked.clone(),
    };
    let app = Router::new()
        .route("/.well-known/oauth-protected-resource/mcp", get(prm))
        .route("/.well-known/oauth-authorization-server", get(as_metadata))
        .route("/register", post(register))
        .route("/authorize", get(authorize))
        .route("/token", post(token))
        .route("/mcp", post(mcp).get(not_allowed).delete(not_allowed))
        .with_state(shared);
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Fake {
        base,
        seen,
        revoked,
    }
}

async fn not_allowed() -> StatusCode {
    StatusCode::METHOD_NOT_ALLOWED
}

async fn prm(State(s): State<Shared>) -> Response {
    let mut doc = json!({
        "resource": s.knobs.prm_resource.clone().unwrap_or(format!("{}/mcp", s.base)),
        "authorization_servers": [s.base],
    });
    if let Some(scopes) = &s.knobs.prm_scopes {
        doc["scopes_supported"] = json!(scopes);
    }
    axum::Json(doc).into_response()
}

async fn as_metadata(State(s): State<Shared>) -> Response {
    if let Some(n) = s.knobs.huge_metadata {
        let filler = "x".repeat(n);
        let body = format!(r#"{{"issuer":"{}","filler":"{filler}"}}"#, s.base);
        return ([(header::CONTENT_TYPE, "application/json")], body).into_response();
    }
    if s.knobs.malformed_metadata {
        return (
            [(header::CONTENT_TYPE, "application/json")],
            "{\"issuer\": [1, 2",
        )
            .into_response();
    }
    let mut scopes = vec!["mcp"];
    if s.knobs.offline {
        scopes.push("offline_access");
    }
    axum::Json(json!({
        "issuer": s.knobs.metadata_issuer.clone().unwrap_or(s.base.clone()),
        "authorization_endpoint": format!("{}/authorize", s.base),
        "token_endpoint": format!("{}/token", s.base),
        "registration_endpoint": format!("{}/register", s.base),
        "response_types_supported": ["code"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none"],
        "authorization_response_iss_parameter_supported": true,
        "scopes_supported": scopes,
    }))
    .into_response()
}

async fn register(State(s): State<Shared>, body: Bytes) -> Response {
    let v: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    s.seen.lock().unwrap().register.push(v.clone());
    (
        StatusCode::CREATED,
        axum::Json(json!({
            "client_id": "fake-client",
            "redirect_uris": v["redirect_uris"],
            "token_endpoint_auth_method": "none",
        })),
    )
        .into_response()
}

fn form(s: &str) -> Vec<(String, String)> {
    url::form_urlencoded::parse(s.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

fn param(pairs: &[(String, String)], name: &str) -> Option<String> {
    pairs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.clone())
}

async fn authorize(State(s): State<Shared>, RawQuery(q): RawQuery) -> Response {
    let q = q.unwrap_or_default();
    s.seen.lock().unwrap().authorize.push(q.clone());
    let pairs = form(&q);
    let target = s
        .knobs
        .redirect_to
        .clone()
        .or_else(|| param(&pairs, "redirect_uri"))
        .unwrap_or_default();
    let mut url = url::Url::parse(&target).unwrap();
    url.query_pairs_mut().append_pair("code", "the-code");
    if let Some(state) = param(&pairs, "state") {
        url.query_pairs_mut().append_pair("state", &state);
    }
    match s.knobs.iss.as_deref() {
        None => {
            url.query_pairs_mut().append_pair("iss", &s.base);
        }
        Some("") => {}
        Some(other) => {
            url.query_pairs_mut().append_pair("iss", other);
        }
    }
    (StatusCode::FOUND, [(header::LOCATION, url.to_string())]).into_response()
}

async fn token(State(s): State<Shared>, body: String) -> Response {
    s.seen.lock().unwrap().token.push(body);
    let n = {
        let mut issued = s.issued.lock().unwrap();
        *issued += 1;
        *issued
    };
    let mut answer = json!({
        "access_token": format!("secret-token-{n}"),
        "token_type": "Bearer",
        "expires_in": s.knobs.expires_in.unwrap_or(3600),
    });
    if s.knobs.offline {
        answer["refresh_token"] = json!(format!("secret-refresh-{n}"));
    }
    ([(header::CACHE_CONTROL, "no-store")], axum::Json(answer)).into_response()
}

fn challenge(s: &Shared, extra: &str) -> String {
    format!(
        r#"Bearer resource_metadata="{}/.well-known/oauth-protected-resource/mcp"{extra}"#,
        s.base
    )
}

async fn mcp(State(s): State<Shared>, headers: HeaderMap, body: Bytes) -> Response {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    if let Some(b) = &bearer {
        s.seen.lock().unwrap().bearer.push(b.clone());
    }
    let revoked = s.revoked.lock().unwrap().clone();
    let valid = bearer.as_deref().is_some_and(|b| {
        b.starts_with("Bearer secret-token-") && !revoked.iter().any(|r| b == format!("Bearer {r}"))
    });
    if !valid || s.knobs.refuse_tokens {
        return (
            StatusCode::UNAUTHORIZED,
            [(header::WWW_AUTHENTICATE, challenge(&s, ""))],
        )
            .into_response();
    }
    let message: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let method = message["method"].as_str().unwrap_or_default();
    if method == "tools/list" && s.knobs.always_insufficient {
        return (
            StatusCode::FORBIDDEN,
            [(
                header::WWW_AUTHENTICATE,
                challenge(&s, r#", error="insufficient_scope", scope="admin""#),
            )],
        )
            .into_response();
    }
    let result = match method {
        "initialize" => json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "fake", "version": "1"},
        }),
        "tools/list" => json!({"tools": []}),
        _ if message.get("id").is_none() => return StatusCode::ACCEPTED.into_response(),
        _ => json!({}),
    };
    axum::Json(json!({"jsonrpc": "2.0", "id": message["id"], "result": result})).into_response()
}
