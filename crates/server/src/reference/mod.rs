//! The reference server behind `mcp-elicit serve`: demo tools that exercise every field
//! kind, both modes, decline and cancel, `-32042` and completion, plus (with
//! `conformance`) the tools the official conformance suite calls.
//!
//! [`Reference`] is the server-wide part (the [`Elicitations`] registry, options, who has
//! finished the connect demo); [`Reference::handler`] builds one [`ReferenceServer`] per
//! client connection. [`http`] serves it over Streamable HTTP with the demo completion
//! page; [`serve_stdio`] over stdin/stdout.

mod conformance;
pub mod http;
mod schemas;
pub mod sessions;
mod state;
mod suite;
mod tools;

pub use state::{DemoPurpose, DemoState, MemoryDemoState};

use std::borrow::Cow;
use std::sync::{Arc, LazyLock};
use std::time::Duration;

#[allow(deprecated)]
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult, DiscoverResult,
    ErrorCode, GetPromptRequestParams, GetPromptResponse, Implementation, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities,
    ServerConfig, SetLevelRequestParams, SubscribeRequestParams, Tool, UnsubscribeRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use tokio_util::sync::CancellationToken;

use crate::error::{Error, ErrorKind};
use crate::hub::{Elicitations, SessionScope};
use crate::identity::Principal;
use crate::respond::{Edge, respond};

/// Options of the reference server.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ReferenceOptions {
    /// Also expose the conformance suite's tools.
    pub conformance: bool,
    /// Where the demo pages are served (`http://127.0.0.1:8391`), used to build the URLs
    /// of URL-mode elicitations.
    pub demo_base_url: String,
    /// Limits of `/mcp` sessions and of the requests in progress (default
    /// [`http::SessionLimits::default`]).
    pub session_limits: http::SessionLimits,
    /// The session layer of `/mcp` (default rmcp's, [`SessionLayer::Rmcp`](crate::SessionLayer::Rmcp)).
    pub session_layer: crate::SessionLayer,
    /// On the lean layer, how long a session stays idle before its handler is put to
    /// sleep ([`LeanSessionConfig::hibernate_after`](crate::LeanSessionConfig::hibernate_after));
    /// None: never. Default 30 s.
    pub hibernate_after: Option<std::time::Duration>,
}

impl ReferenceOptions {
    /// Options with the demo pages at `demo_base_url`.
    pub fn new(demo_base_url: impl Into<String>) -> Self {
        Self {
            conformance: false,
            demo_base_url: demo_base_url.into(),
            session_limits: http::SessionLimits::default(),
            session_layer: crate::SessionLayer::default(),
            hibernate_after: crate::LeanSessionConfig::default().hibernate_after,
        }
    }

    /// Sets [`ReferenceOptions::hibernate_after`].
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_elicit_server::reference::ReferenceOptions;
    ///
    /// let options = ReferenceOptions::new("http://127.0.0.1:8391");
    /// assert_eq!(options.hibernate_after, Some(Duration::from_secs(30)));
    /// assert_eq!(options.with_hibernate_after(None).hibernate_after, None);
    /// ```
    pub fn with_hibernate_after(mut self, after: Option<std::time::Duration>) -> Self {
        self.hibernate_after = after;
        self
    }

    /// Sets [`ReferenceOptions::session_layer`].
    pub fn with_session_layer(mut self, layer: crate::SessionLayer) -> Self {
        self.session_layer = layer;
        self
    }

    /// Sets [`ReferenceOptions::session_limits`].
    pub fn with_session_limits(mut self, limits: http::SessionLimits) -> Self {
        self.session_limits = limits;
        self
    }

    /// Turns the conformance tools on or off.
    pub fn with_conformance(mut self, on: bool) -> Self {
        self.conformance = on;
        self
    }
}

struct Shared {
    hub: Elicitations,
    options: ReferenceOptions,
    /// Users who completed the connect demo's URL elicitation.
    state: Arc<dyn DemoState>,
}

/// The server-wide state of the reference server. Cheap to clone.
#[derive(Clone)]
pub struct Reference {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for Reference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reference")
            .field("options", &self.shared.options)
            .finish_non_exhaustive()
    }
}

impl Reference {
    /// A reference server over `hub` (whose configuration holds the keys sealing
    /// 2026-07-28 request state).
    pub fn new(hub: Elicitations, options: ReferenceOptions) -> Self {
        Self::with_state(hub, options, Arc::new(MemoryDemoState::new()))
    }

    /// [`Reference::new`] remembering connected users in `state` (a durable one keeps
    /// them across restarts, like the pending elicitations in a durable store).
    pub fn with_state(
        hub: Elicitations,
        options: ReferenceOptions,
        state: Arc<dyn DemoState>,
    ) -> Self {
        Self {
            shared: Arc::new(Shared {
                hub,
                options,
                state,
            }),
        }
    }

    /// The registry.
    pub fn hub(&self) -> &Elicitations {
        &self.shared.hub
    }

    /// The options.
    pub fn options(&self) -> &ReferenceOptions {
        &self.shared.options
    }

    /// The handler for one client connection (serve it behind [`Edge`], as
    /// [`Reference::service`] does).
    pub fn handler(&self) -> Result<ReferenceServer, Error> {
        Ok(ReferenceServer {
            scope: self.shared.hub.scope()?,
            reference: self.clone(),
        })
    }

    /// The handler for one client connection behind [`Edge`]: what to serve.
    pub fn service(&self) -> Result<Edge<ReferenceServer>, Error> {
        self.handler().map(Edge::new)
    }

    /// Completes a demo URL elicitation for `principal` (what the demo page does);
    /// returns whether this process notified the client.
    ///
    /// Through [`Elicitations::complete_with`]: the id and its owner are checked and the
    /// elicitation is marked completed in the store (at most once), then, for a
    /// `connect_demo` elicitation only (its stored application data says so), the user
    /// is marked connected, and only then is the completion notification sent. A client
    /// that retries the moment it is notified finds the user connected; a replayed or
    /// another user's id changes nothing.
    pub async fn complete_demo(
        &self,
        principal: &Principal,
        elicitation_id: &str,
    ) -> Result<bool, Error> {
        let state = &self.shared.state;
        let done = self
            .shared
            .hub
            .complete_with(principal, elicitation_id, |record| async move {
                if DemoPurpose::of_record(&record) == DemoPurpose::Connect {
                    state.mark_connected(&record.principal).await?;
                }
                Ok::<(), crate::store::StoreError>(())
            })
            .await?;
        Ok(done.completion.notified)
    }

    /// Whether `principal` finished the connect demo.
    pub async fn is_connected(&self, principal: &Principal) -> Result<bool, Error> {
        self.shared
            .state
            .is_connected(principal)
            .await
            .map_err(|e| match e {
                crate::store::StoreError::Unavailable(_) => crate::hub::store_error(e),
                e => Error::new(
                    ErrorKind::Store,
                    format!("cannot read the connect demo's state: {e}"),
                ),
            })
    }

    /// Sweeps expired and orphaned elicitations every `period` until `ct` is cancelled.
    ///
    /// Not needed for correctness: the registry sweeps by itself when elicitations are
    /// stored ([`ElicitationConfig::sweep_interval`](crate::ElicitationConfig::sweep_interval)).
    /// A periodic sweep also frees the forms of closed connections on an idle server.
    pub fn spawn_sweeper(
        &self,
        period: Duration,
        ct: CancellationToken,
    ) -> tokio::task::JoinHandle<()> {
        let hub = self.shared.hub.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(period);
            loop {
                tokio::select! {
                    () = ct.cancelled() => break,
                    _ = tick.tick() => match hub.sweep().await {
                        Ok(0) => {}
                        Ok(n) => tracing::info!(removed = n, "swept pending elicitations"),
                        Err(e) => tracing::warn!(error = %e, "sweep failed"),
                    },
                }
            }
        })
    }
}

/// Serves one client on stdin/stdout until it disconnects.
pub async fn serve_stdio(
    reference: &Reference,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let service = reference.service()?;
    let (stdin, stdout) = rmcp::transport::stdio();
    let running = service.serve(crate::wire::edge_rw(stdin, stdout)).await?;
    running.waiting().await?;
    Ok(())
}

/// The reference server's handler for one client connection.
pub struct ReferenceServer {
    scope: SessionScope,
    reference: Reference,
}

impl std::fmt::Debug for ReferenceServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReferenceServer")
            .field("scope", &self.scope)
            .finish_non_exhaustive()
    }
}

impl ReferenceServer {
    fn conformance(&self) -> bool {
        self.reference.shared.options.conformance
    }

    fn tools(&self) -> Vec<Tool> {
        self.tool_list().to_vec()
    }

    /// The tools offered, built once per process (rmcp looks a tool up on every
    /// 2026-07-28 request, to check its `Mcp-Param-*` headers).
    fn tool_list(&self) -> &'static [Tool] {
        static PLAIN: LazyLock<Vec<Tool>> = LazyLock::new(tools::definitions);
        static CONFORMANCE: LazyLock<Vec<Tool>> = LazyLock::new(|| {
            let mut list = tools::definitions();
            list.extend(conformance::definitions());
            list.extend(suite::tool_definitions());
            list
        });
        if self.conformance() {
            &CONFORMANCE
        } else {
            &PLAIN
        }
    }

    /// What `call_tool` does: the demo tools, then (with `conformance`) the conformance
    /// tools and the suite's fixtures.
    async fn run_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.clone().unwrap_or_default();
        if let Some(result) = tools::call(&self.scope, &self.reference, &request, &context).await {
            return respond(result);
        }
        if self.conformance() {
            if let Some(result) = conformance::call(&self.scope, &request, &args, &context).await {
                return respond(result);
            }
            if let Some(result) = suite::call(&request.name, &args, &context).await {
                return result.map(CallToolResponse::from);
            }
        }
        Err(ErrorData::invalid_params(
            format!("unknown tool {:?}", request.name),
            None,
        ))
    }

    /// The suite fixtures exist only with `conformance`; otherwise the method is unknown.
    fn suite<T>(
        &self,
        method: &'static str,
        f: impl FnOnce() -> Result<T, ErrorData>,
    ) -> Result<T, ErrorData> {
        if self.conformance() {
            f()
        } else {
            Err(ErrorData::new(ErrorCode::METHOD_NOT_FOUND, method, None))
        }
    }
}

// Logging and resource subscriptions are deprecated in the 2026 revision; the 2025-11-25
// conformance suite still exercises them.
/// What the reference server says of itself (`initialize`, `server/discover`); with the
/// conformance fixtures or without.
fn server_config(conformance: bool) -> ServerConfig {
    let capabilities = if conformance {
        serde_json::json!({"tools": {}, "prompts": {}, "resources": {"subscribe": true}, "logging": {}, "completions": {}})
    } else {
        serde_json::json!({"tools": {}})
    };
    let capabilities: ServerCapabilities = serde_json::from_value(capabilities).unwrap_or_default();
    ServerConfig::new(capabilities)
        .with_protocol_version(ProtocolVersion::V_2025_11_25)
        .with_server_info(
            Implementation::new("mcp-elicit-reference", env!("CARGO_PKG_VERSION")).with_title("mcp-elicit reference server"),
        )
        .with_instructions(
            "Demo tools for MCP elicitation: demo_form (every field kind), demo_profile (a typed form), \
             demo_secret (a form the server refuses to send), demo_url (URL mode), connect_demo (-32042 \
             until you finish a URL elicitation).",
        )
}

#[allow(deprecated)]
impl ServerHandler for ReferenceServer {
    fn get_info(&self) -> ServerConfig {
        // Built once per process and kind: rmcp asks for it on every 2026-07-28 request
        // (each is served by a serve loop of its own), and building it parses the
        // capabilities from JSON (about 15 k instructions a time under callgrind).
        static CONFORMANCE: std::sync::OnceLock<ServerConfig> = std::sync::OnceLock::new();
        static DEMO: std::sync::OnceLock<ServerConfig> = std::sync::OnceLock::new();
        let conformance = self.conformance();
        let cell = if conformance { &CONFORMANCE } else { &DEMO };
        cell.get_or_init(|| server_config(conformance)).clone()
    }

    async fn discover(
        &self,
        _context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        // 2026-07-28 replaced resources/subscribe with subscriptions/listen, which this
        // server does not offer: do not advertise subscriptions there.
        let mut info = self.get_info();
        if let Some(resources) = info.capabilities.resources.as_mut() {
            resources.subscribe = None;
        }
        Ok(DiscoverResult::from_server_info(
            self.supported_protocol_versions().into_owned(),
            info,
        ))
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        // Up to 2025-11-25 forms travel as elicitation/create mid-call; on 2026-07-28 the
        // conformance tools use input-required rounds (the demo tools answer that URL mode,
        // -32042 and completion do not exist there).
        Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2026_07_28))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tool_list().iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // Boxed: rmcp runs each request in a task of its own whose future holds this
        // one, and tokio moves a task's future by value (to spawn it, to store its
        // output); a tool's state machine is kilobytes, a box is a pointer.
        Box::pin(self.run_tool(request, context)).await
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        self.suite("prompts/list", suite::list_prompts).map(|mut list| {
            if let Ok(p) = serde_json::from_value(serde_json::json!({
                "name": conformance::MRTR_PROMPT,
                "description": "A prompt that asks for context first (an input round on 2026-07-28)"
            })) {
                list.prompts.push(p);
            }
            list
        })
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        // Boxed, as `call_tool`: the conformance prompt asks a question (kilobytes of
        // state machine), the other prompts are plain.
        if self.conformance()
            && let Some(result) =
                Box::pin(conformance::prompt(&self.scope, &request, &context)).await
        {
            return respond(result);
        }
        let args = request.arguments.unwrap_or_default();
        self.suite("prompts/get", || suite::get_prompt(&request.name, &args))
            .map(GetPromptResponse::from)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.suite("resources/list", suite::list_resources)
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        self.suite("resources/templates/list", suite::list_resource_templates)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.suite("resources/read", || suite::read_resource(&request.uri))
            .map(ReadResourceResponse::from)
    }

    async fn subscribe(
        &self,
        _request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.suite("resources/subscribe", || Ok(()))
    }

    async fn unsubscribe(
        &self,
        _request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.suite("resources/unsubscribe", || Ok(()))
    }

    async fn set_level(
        &self,
        _request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.suite("logging/setLevel", || Ok(()))
    }

    async fn complete(
        &self,
        _request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        self.suite("completion/complete", suite::complete)
    }
}
