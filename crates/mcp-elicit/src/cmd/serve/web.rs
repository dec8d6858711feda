//! `mcp-elicit serve --issuer ...`: the reference server behind the web layer
//! (`mcp-elicit-web`). `/mcp` requires a bearer token of the issuer (the MCP identity is
//! the token's user, never the local OS user); the connect pages, sign-in and protected
//! resource metadata are merged beside it; the web layer's demo tools (`set_api_key`,
//! `connect_provider`, `approve_purchase`) are listed and dispatched before the
//! reference server's own.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use mcp_elicit_server::reference::{Reference, ReferenceServer, http};
use mcp_elicit_server::{
    Edge, Elicitations, Principal, SessionDirectory, SessionLayer, SessionScope,
};
use mcp_elicit_store::secrecy::ExposeSecret;
use mcp_elicit_store::{Keyring, Store, VaultKey};
use mcp_elicit_web::{
    ClientRegistration, ProviderConfig, ProviderEndpoints, Web, WebConfig, WebTools,
};
#[allow(deprecated)]
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult,
    GetPromptRequestParams, GetPromptResponse, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse, ServerConfig, SetLevelRequestParams,
    SubscribeRequestParams, Tool, UnsubscribeRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use tokio_util::sync::CancellationToken;
use url::Url;

use super::options::{ProviderOptions, WebOptions};

/// The MCP endpoint path.
const MCP_PATH: &str = "/mcp";

fn registration(
    id: &str,
    secret: Option<&mcp_elicit_store::secrecy::SecretString>,
) -> ClientRegistration {
    match secret {
        Some(s) => ClientRegistration::confidential(id, s.expose_secret()),
        None => ClientRegistration::public(id),
    }
}

fn provider(p: &ProviderOptions) -> ProviderConfig {
    ProviderConfig {
        name: p.name.clone(),
        display_name: p.display_name.clone(),
        endpoints: match &p.endpoints {
            Ok(issuer) => ProviderEndpoints::Discover {
                issuer: issuer.clone(),
            },
            Err((authorization, token)) => ProviderEndpoints::Explicit {
                authorization: authorization.clone(),
                token: token.clone(),
            },
        },
        client: registration(&p.client_id, p.client_secret.as_ref()),
        scopes: p.scopes.clone(),
        resource: p.resource.clone(),
    }
}

/// The web layer's configuration for `options`, served at `public_url`.
pub(crate) fn web_config(options: &WebOptions, public_url: Url) -> WebConfig {
    let mut config = WebConfig::new(
        options.issuer.clone(),
        public_url,
        registration(&options.client_id, options.client_secret.as_ref()),
    );
    if let Some(audience) = &options.audience {
        config = config.with_audience(audience.clone());
    }
    for p in &options.providers {
        config = config.with_provider(provider(p));
    }
    config.scopes_supported = options.scopes_supported.clone();
    config.required_scopes = options.required_scopes.clone();
    config
}

/// Builds the web layer: the vault over `store` with the configured key, OpenID
/// discovery of the issuer (and providers), the issuer's JWKS.
/// `sign_ins` is what `--max-pending-logins` and `--max-signins-per-client` say.
pub(crate) async fn build_web(
    options: &WebOptions,
    public_url: Url,
    hub: Elicitations,
    store: &Store,
    sign_ins: super::limits::SignInLimits,
) -> Result<Web, String> {
    let vault = store.vault(Keyring::new(options.vault_key.clone()));
    let mut config = web_config(options, public_url);
    config.max_pending_logins = sign_ins.max_pending_logins;
    config.max_signins_per_client = sign_ins.max_signins_per_client;
    Web::new(config, hub, Arc::new(vault))
        .await
        .map_err(|e| format!("cannot set up the web layer: {e}"))
}

/// `/mcp` with the web tools in front of the reference server, merged with the web
/// layer's pages. With an issuer `/mcp` is protected by bearer validation and the
/// metadata is served; in local mode (loopback only, the local user) `/mcp` is open and
/// the reference server's demo page (`/demo/complete`) stays available.
pub(crate) fn router(reference: &Reference, web: &Web, ct: CancellationToken) -> Router {
    let config = reference.hub().config();
    let mcp = match reference.options().session_layer {
        SessionLayer::Lean => {
            let factory = handler_factory(reference, web);
            let wake = Arc::clone(&factory);
            let sessions = http::lean_sessions(reference, move || wake(), ct.clone());
            mcp_router(reference, factory, sessions, ct.clone())
        }
        _ => mcp_router(
            reference,
            handler_factory(reference, web),
            http::session_manager(config),
            ct.clone(),
        ),
    };
    if web.is_local() {
        mcp.merge(web.router())
            .fallback_service(http::router(reference.clone(), ct))
    } else {
        web.protect(mcp).merge(web.router())
    }
}

/// `/mcp` served with `sessions`: the web tools in front of the reference server, within
/// the session limits, with the 404 for ended sessions.
fn mcp_router<M>(
    reference: &Reference,
    factory: HandlerFactory,
    sessions: Arc<M>,
    ct: CancellationToken,
) -> Router
where
    M: SessionManager + SessionDirectory,
{
    let guard = http::session_guard(reference, &sessions, ct.clone());
    let directory: Arc<dyn SessionDirectory> = Arc::clone(&sessions) as Arc<dyn SessionDirectory>;
    Router::new()
        // Behind an `Arc`: axum clones a mounted service for every request. A stateless
        // 2026-07-28 `tools/call`, and a session's `tools/call` and answers, are taken
        // in front of rmcp's service.
        .nest_service(
            MCP_PATH,
            mcp_elicit_server::HttpFront::new(
                mcp_elicit_server::SharedHttpService::new(mcp_service(
                    reference,
                    Arc::clone(&factory),
                    Arc::clone(&sessions),
                    ct,
                )),
                factory,
            )
            .with_sessions(sessions),
        )
        // Requests in progress per session and user, sessions per user, idle sessions
        // (inside `protect`: the user is the token's).
        .layer(axum::middleware::from_fn_with_state(guard, http::enforce))
        // DELETE of an unknown or ended session: 404.
        .layer(axum::middleware::from_fn_with_state(
            directory,
            mcp_elicit_server::unknown_session_404_in,
        ))
        // 2026-07-28 rounds go out with the exact JSON of their requests.
        .layer(axum::middleware::from_fn(
            mcp_elicit_server::wire::exact_rounds_http,
        ))
}

/// The local-mode web layer: pages for the local user `user`, secrets in `store`'s vault
/// under `key`.
pub(crate) async fn build_local_web(
    public_url: Url,
    user: Principal,
    hub: Elicitations,
    store: &Store,
    key: VaultKey,
) -> Result<Web, String> {
    let vault = store.vault(Keyring::new(key));
    Web::local(public_url, user, Vec::new(), hub, Arc::new(vault))
        .await
        .map_err(|e| format!("cannot set up the local pages: {e}"))
}

/// Serves one client on stdin/stdout with the web tools in front of the reference
/// server (local mode: the pages are served on HTTP beside it).
pub(crate) async fn serve_stdio(
    reference: &Reference,
    web: &Web,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let server = Edge::new(WebServer {
        scope: reference.hub().scope()?,
        inner: reference.handler()?,
        tools: Arc::new(WebTools::new(web.clone())),
        reference_first: web.is_local(),
    });
    let (stdin, stdout) = rmcp::transport::stdio();
    let running = server
        .serve(mcp_elicit_server::wire::edge_rw(stdin, stdout))
        .await?;
    running.waiting().await?;
    Ok(())
}

/// Makes the handler of a session (the web tools in front of the reference server).
type HandlerFactory = mcp_elicit_server::HandlerFactory<Edge<WebServer>>;

/// What makes each session's handler (a new one for a session that wakes up).
fn handler_factory(reference: &Reference, web: &Web) -> HandlerFactory {
    let tools = Arc::new(WebTools::new(web.clone()));
    let reference_first = web.is_local();
    let factory = reference.clone();
    Arc::new(move || {
        Ok(Edge::new(WebServer {
            scope: factory.hub().scope().map_err(std::io::Error::other)?,
            inner: factory.handler().map_err(std::io::Error::other)?,
            tools: Arc::clone(&tools),
            reference_first,
        }))
    })
}

fn mcp_service<M: SessionManager>(
    reference: &Reference,
    factory: HandlerFactory,
    sessions: Arc<M>,
    ct: CancellationToken,
) -> StreamableHttpService<Edge<WebServer>, M> {
    StreamableHttpService::new(
        move || factory(),
        sessions,
        // 2026-07-28 answers as `application/json` when the handler's first message is
        // its answer (as the library's reference router does).
        http::mcp_config(&reference.options().demo_base_url, ct).with_json_response(true),
    )
}

/// Sweeps the web layer's expired OAuth `state` records, browser sessions and sign-ins
/// every `period` until `ct` is cancelled (beside the elicitation sweep).
pub(crate) fn spawn_sweeper(
    web: Web,
    period: Duration,
    ct: CancellationToken,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(period);
        loop {
            tokio::select! {
                () = ct.cancelled() => break,
                _ = tick.tick() => match web.sweep().await {
                    Ok(0) => {}
                    Ok(n) => tracing::info!(removed = n, "swept web sessions and OAuth states"),
                    Err(e) => tracing::warn!(error = %e, "web sweep failed"),
                },
            }
        }
    })
}

/// The reference server's tools whose URL is its demo page (`/demo/complete`), which
/// takes whoever opens it for the local user. With an issuer that page is not served (a
/// page must sign the user in, and check it is the user the elicitation is for), so
/// these tools are not offered: their links would answer 404.
const LOCAL_PAGE_TOOLS: [&str; 2] = ["demo_url", "connect_demo"];

/// One client connection: the web tools dispatched first, then the reference server.
struct WebServer {
    scope: SessionScope,
    inner: ReferenceServer,
    tools: Arc<WebTools>,
    /// List the reference server's tools before the web tools (local mode).
    reference_first: bool,
}

impl WebServer {
    /// What `call_tool` does: the web tools first, then the reference server.
    async fn run_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if self.withheld(&request.name) {
            return Err(ErrorData::invalid_params(
                format!(
                    "the tool {} is offered in local mode only (its demo page signs the browser in \
                     as the local user); with an issuer try set_api_key, approve_purchase or \
                     connect_provider, whose pages sign you in",
                    request.name
                ),
                None,
            ));
        }
        if WebTools::handles(&request.name) {
            let mut ask = self.scope.ask(&context, &request).await?;
            let args = request.arguments.clone().unwrap_or_default();
            if let Some(result) = self.tools.call(&mut ask, &request.name, &args).await {
                return mcp_elicit_server::respond(result);
            }
        }
        self.inner.call_tool(request, context).await
    }

    /// Whether `name` is a reference tool not offered here (see [`LOCAL_PAGE_TOOLS`]).
    fn withheld(&self, name: &str) -> bool {
        // `reference_first` is local mode.
        !self.reference_first && LOCAL_PAGE_TOOLS.contains(&name)
    }
}

#[allow(deprecated)]
impl ServerHandler for WebServer {
    fn get_info(&self) -> ServerConfig {
        self.inner.get_info()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        self.inner.supported_protocol_versions()
    }

    async fn discover(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::DiscoverResult, ErrorData> {
        self.inner.discover(context).await
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let web = self.tools.definitions();
        let rest = self.inner.list_tools(request, context).await?;
        let rest = rest
            .tools
            .into_iter()
            .filter(|t| !WebTools::handles(&t.name) && !self.withheld(&t.name));
        // Local mode (the demo): a newcomer meets the reference form first; with an
        // issuer the URL-flow tools lead.
        let tools: Vec<Tool> = if self.reference_first {
            rest.chain(web).collect()
        } else {
            web.into_iter().chain(rest).collect()
        };
        Ok(ListToolsResult::with_all_items(tools))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        if WebTools::handles(name) {
            return self
                .tools
                .definitions()
                .into_iter()
                .find(|t| t.name == name);
        }
        if self.withheld(name) {
            return None;
        }
        self.inner.get_tool(name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // Boxed: rmcp runs each request in a task of its own whose future holds this
        // one, and tokio moves a task's future by value; a box is a pointer.
        Box::pin(self.run_tool(request, context)).await
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        self.inner.list_prompts(request, context).await
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        self.inner.get_prompt(request, context).await
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.inner.list_resources(request, context).await
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        self.inner.list_resource_templates(request, context).await
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.inner.read_resource(request, context).await
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.subscribe(request, context).await
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.unsubscribe(request, context).await
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.set_level(request, context).await
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        self.inner.complete(request, context).await
    }
}
