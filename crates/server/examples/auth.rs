//! A server behind your own authentication middleware: how a [`Principal`] gets into
//! the request.
//!
//! The middleware validates the credentials (here a fixed table of demo bearer tokens;
//! yours checks a JWT or asks your session store) and inserts the `Principal` into the HTTP
//! request's extensions. rmcp copies the HTTP request's `Parts` into the MCP request's
//! extensions, where `scope.ask` / `scope.elicitor` find it (`Principal::from_extensions`).
//! With `IdentityPolicy::Authenticated` a request without one is refused; nothing the client
//! sends is taken as the user. Every elicitation is then bound to that user.
//!
//! `cargo run -p mcp-elicit-server --example auth [ADDR]`, then call `confirm` with
//! `Authorization: Bearer alice-token` (or `bob-token`).
use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use mcp_elicit_server::{
    Edge, ElicitationConfig, Elicitations, FormOutcome, IdentityPolicy, Principal, SessionScope,
    respond,
};
use rmcp::handler::server::tool::Extension;
use rmcp::model::{CallToolRequestParams as Call, CallToolResponse, CallToolResult, ContentBlock};
use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::{ErrorData, RoleServer, ServerHandler, service::RequestContext as Ctx};
use rmcp::{tool, tool_handler, tool_router};

/// Who issues the demo tokens (a real server: the `iss` of the validated token).
const ISSUER: &str = "https://auth.example.com";

/// The demo token table: token to subject.
fn subject_of(token: &str) -> Option<&'static str> {
    match token {
        "alice-token" => Some("alice"),
        "bob-token" => Some("bob"),
        _ => None,
    }
}

/// The middleware: a valid bearer token becomes the request's `Principal`; anything else
/// is 401 before MCP sees the request.
async fn authenticate(mut request: Request, next: Next) -> Response {
    let bearer = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    let Some(subject) = bearer.and_then(subject_of) else {
        return (StatusCode::UNAUTHORIZED, [(header::WWW_AUTHENTICATE, "Bearer")]).into_response();
    };
    request.extensions_mut().insert(Principal::authenticated(ISSUER, subject));
    next.run(request).await
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Confirm {
    /// Send the report now?
    send: bool,
}

#[derive(Clone)]
struct App {
    scope: SessionScope,
}

#[tool_router]
impl App {
    #[tool(description = "Sends your report after you confirm")]
    async fn confirm(
        &self,
        ctx: Ctx<RoleServer>,
        Extension(call): Extension<Call>,
    ) -> Result<CallToolResponse, ErrorData> {
        let answer = async {
            let mut ask = self.scope.ask(&ctx, &call).await?;
            // The user the middleware authenticated; the form is bound to them.
            let user = ask.elicitor().principal().subject().to_owned();
            let outcome = ask.form::<Confirm>("confirm", "Send your report?").await?;
            Ok((user, outcome))
        };
        respond(answer.await.map(|(user, outcome)| {
            let text = match outcome {
                FormOutcome::Accepted(Confirm { send: true }) => format!("report of {user} sent"),
                _ => format!("report of {user} not sent"),
            };
            CallToolResult::success(vec![ContentBlock::text(text)])
        }))
    }
}

// `Edge` puts the call in each request's extensions: no `call_tool` override needed.
#[tool_handler]
impl ServerHandler for App {}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args().nth(1).unwrap_or_else(|| "127.0.0.1:8080".into());
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::Authenticated));
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(hub.config().session_keep_alive());
    let factory = move || {
        let scope = hub.scope().map_err(std::io::Error::other)?;
        Ok(Edge::new(App { scope }))
    };
    let mcp = StreamableHttpService::new(factory, sessions.into(), Default::default());
    let app = axum::Router::new()
        .nest_service("/mcp", mcp)
        .layer(axum::middleware::from_fn(mcp_elicit_server::wire::exact_rounds_http))
        .layer(axum::middleware::from_fn(authenticate));
    println!("http://{}/mcp", listener.local_addr()?);
    axum::serve(listener, app).await
}
