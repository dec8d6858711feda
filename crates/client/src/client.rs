//! [`ElicitationClient`]: the rmcp `ClientHandler` that does elicitation properly.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use mcp_elicit_core::message::{Capability, CompleteNotification, METHOD_COMPLETE, METHOD_CREATE};
use rmcp::model::{
    ClientCapabilities, ClientConfig, CustomNotification, CustomRequest, CustomResult,
    ElicitRequestParams, ElicitResult, ElicitationCapability, ErrorData, FormElicitationCapability,
    NumberOrString, ProgressNotificationParam, ProtocolVersion, UrlElicitationCapability,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, NotificationContext, RequestContext, RunningService,
};
use rmcp::{ClientHandler, RoleClient};
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite};

use crate::config::{Config, ProtocolChoice};
use crate::identity::{ServerIdentity, TransportIdentity};
use crate::opener::UrlOpener;
use crate::rate_limit::{RateLimiter, TokioClock};
use crate::raw::RawRequests;
use crate::registry::{CompleteOutcome, CompletionRegistry};
use crate::target::ServerTarget;
use crate::text::PlainText;
use crate::transport::{http, stdio, watched::Watched};
use crate::ui::{ElicitationUi, Notice, ProgressUpdate};

/// How long [`ElicitationClient::connect`] waits for the standalone GET stream of a
/// Streamable HTTP server to open.
pub const STANDALONE_STREAM_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// A connected client.
pub type Connection<U, O> = RunningService<RoleClient, ElicitationClient<U, O>>;

/// Why connecting failed.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    /// The server process could not be started.
    #[error("cannot start the server: {0}")]
    Spawn(#[from] std::io::Error),
    /// The MCP handshake failed. Displayed without rmcp's transport type name: a
    /// transport error shows as its own text and what was being sent.
    #[error("MCP initialization failed: {}", initialize_text(.0))]
    Initialize(Box<rmcp::service::ClientInitializeError>),
}

impl ConnectError {
    /// Whether the server answered `server/discover` listing only revisions that have the
    /// `initialize` handshake (2025-11-25 and earlier). Under [`ProtocolChoice::Auto`],
    /// connect again (a new process or HTTP client) with
    /// [`connect_io_with_protocol`](ElicitationClient::connect_io_with_protocol) and
    /// [`ProtocolChoice::V2025_11_25`]; [`ElicitationClient::connect`] does it by itself.
    ///
    /// ```
    /// use mcp_elicit_client::ConnectError;
    /// let e = ConnectError::Spawn(std::io::Error::other("no such program"));
    /// assert!(!e.offers_only_initialize());
    /// ```
    pub fn offers_only_initialize(&self) -> bool {
        matches!(self, ConnectError::Initialize(e) if only_legacy(e))
    }
}

impl From<rmcp::service::ClientInitializeError> for ConnectError {
    fn from(e: rmcp::service::ClientInitializeError) -> Self {
        Self::Initialize(Box::new(e))
    }
}

pub(crate) struct Shared<U, O> {
    pub(crate) ui: U,
    pub(crate) opener: O,
    pub(crate) config: Config,
    pub(crate) capability: Capability,
    pub(crate) registry: CompletionRegistry,
    pub(crate) raw: RawRequests,
    pub(crate) limiter: RateLimiter<TokioClock>,
    pub(crate) stop_asking: AtomicBool,
    /// One prompt at a time per connection.
    pub(crate) lane: tokio::sync::Mutex<()>,
    pub(crate) transport: Mutex<TransportIdentity>,
}

/// The client side of elicitation on rmcp, for one connection.
///
/// - Declares the `elicitation` capability from what the UI really supports
///   ([`ElicitationUi::modes`]).
/// - Answers `elicitation/create` for an undeclared mode, or malformed, with -32602 and
///   the reason; presents the rest exactly as sent (raw capture at the transport), with
///   defaults prefilled, validating before sending and re-presenting on errors.
/// - URL mode: analysis, blocked URLs refused, explicit consent, system browser.
/// - Tracks completion notifications ([`CompletionRegistry`]).
/// - Rate limits prompts per server and honours a "stop asking" switch.
///
/// Clone it freely: clones share the connection state.
pub struct ElicitationClient<U, O> {
    pub(crate) shared: Arc<Shared<U, O>>,
}

impl<U, O> Clone for ElicitationClient<U, O> {
    fn clone(&self) -> Self {
        Self {
            shared: self.shared.clone(),
        }
    }
}

impl<U, O> std::fmt::Debug for ElicitationClient<U, O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ElicitationClient")
            .field("capability", &self.shared.capability)
            .finish_non_exhaustive()
    }
}

impl<U: ElicitationUi, O: UrlOpener> ElicitationClient<U, O> {
    /// A client presenting through `ui` and opening consented URLs with `opener`.
    pub fn new(ui: U, opener: O, config: Config) -> Self {
        let capability = ui.modes();
        let limiter = RateLimiter::new(config.rate_limit, TokioClock);
        Self {
            shared: Arc::new(Shared {
                ui,
                opener,
                capability,
                limiter,
                config,
                registry: CompletionRegistry::default(),
                raw: RawRequests::default(),
                stop_asking: AtomicBool::new(false),
                lane: tokio::sync::Mutex::new(()),
                transport: Mutex::new(TransportIdentity::Other {
                    description: "not connected".into(),
                }),
            }),
        }
    }

    /// The declared capability (from the UI's modes).
    pub fn capability(&self) -> Capability {
        self.shared.capability
    }

    /// The UI.
    pub fn ui(&self) -> &U {
        &self.shared.ui
    }

    /// The connection's URL elicitations.
    pub fn registry(&self) -> &CompletionRegistry {
        &self.shared.registry
    }

    /// Where transports deposit raw `elicitation/create` params.
    pub fn raw_requests(&self) -> &RawRequests {
        &self.shared.raw
    }

    /// The settings.
    pub fn config(&self) -> &Config {
        &self.shared.config
    }

    /// The per-server "stop asking" switch: while on, every elicitation request from this
    /// server is answered `decline` without being shown.
    pub fn set_stop_asking(&self, on: bool) {
        self.shared.stop_asking.store(on, Ordering::SeqCst);
    }

    /// Whether the switch is on.
    pub fn is_stop_asking(&self) -> bool {
        self.shared.stop_asking.load(Ordering::SeqCst)
    }

    /// How the server was reached.
    pub fn transport_identity(&self) -> TransportIdentity {
        match self.shared.transport.lock() {
            Ok(t) => t.clone(),
            Err(p) => p.into_inner().clone(),
        }
    }

    pub(crate) fn identity(&self, peer: &rmcp::Peer<RoleClient>) -> ServerIdentity {
        ServerIdentity::new(peer.peer_info().as_deref(), self.transport_identity())
    }

    fn set_transport(&self, identity: TransportIdentity) {
        match self.shared.transport.lock() {
            Ok(mut t) => *t = identity,
            Err(p) => *p.into_inner() = identity,
        }
    }

    /// Connects to `target` (a child process over stdio or a Streamable HTTP endpoint).
    ///
    /// With [`ProtocolChoice::Auto`], a server whose `server/discover` lists only revisions
    /// that have the `initialize` handshake is connected to again (a new process or HTTP
    /// client) with `initialize`.
    pub async fn connect(self, target: &ServerTarget) -> Result<Connection<U, O>, ConnectError> {
        let auto = self.shared.config.protocol == ProtocolChoice::Auto;
        match self.clone().connect_with(target, None).await {
            Err(ConnectError::Initialize(e)) if auto && only_legacy(&e) => {
                tracing::info!("the server offers only revisions with initialize; reconnecting");
                self.connect_with(target, Some(ClientLifecycleMode::Initialize))
                    .await
            }
            other => other,
        }
    }

    async fn connect_with(
        self,
        target: &ServerTarget,
        lifecycle: Option<ClientLifecycleMode>,
    ) -> Result<Connection<U, O>, ConnectError> {
        let lifecycle = lifecycle.unwrap_or_else(|| lifecycle_mode(self.shared.config.protocol));
        match target {
            ServerTarget::Stdio { command } => {
                let transport = stdio::spawn(command, self.shared.raw.clone())?;
                self.serve_with(
                    transport,
                    TransportIdentity::Stdio {
                        command: command.clone(),
                    },
                    lifecycle,
                )
                .await
            }
            ServerTarget::Http { url } => {
                let (transport, mut standalone) = http::transport_with_auth(
                    url.as_str(),
                    self.shared.raw.clone(),
                    self.shared.config.authorizer.clone(),
                );
                let connection = self
                    .serve_with(transport, TransportIdentity::http(url.as_str()), lifecycle)
                    .await?;
                // 2025-11-25: let the standalone GET stream open first: servers may send
                // elicitation requests only there, and a request sent before it exists
                // is lost. 2026-07-28 has no such stream (and no server requests).
                if !is_2026(connection.peer()) {
                    let opened = standalone.wait_for(|s| *s != http::StandaloneStream::Pending);
                    let _ = tokio::time::timeout(STANDALONE_STREAM_WAIT, opened).await;
                }
                Ok(connection)
            }
        }
    }

    /// Runs over newline-delimited JSON on `reader`/`writer` (tests use `tokio::io::duplex`).
    pub async fn connect_io<R, W>(
        self,
        reader: R,
        writer: W,
        identity: TransportIdentity,
    ) -> Result<Connection<U, O>, ConnectError>
    where
        R: AsyncRead + Send + Unpin + 'static,
        W: AsyncWrite + Send + Unpin + 'static,
    {
        let protocol = self.shared.config.protocol;
        self.connect_io_with_protocol(reader, writer, identity, protocol)
            .await
    }

    /// Like [`connect_io`](Self::connect_io), speaking `protocol` rather than the configured
    /// choice: the second attempt after [`ConnectError::offers_only_initialize`].
    pub async fn connect_io_with_protocol<R, W>(
        self,
        reader: R,
        writer: W,
        identity: TransportIdentity,
        protocol: ProtocolChoice,
    ) -> Result<Connection<U, O>, ConnectError>
    where
        R: AsyncRead + Send + Unpin + 'static,
        W: AsyncWrite + Send + Unpin + 'static,
    {
        let transport = stdio::LineTransport::new(reader, writer, self.shared.raw.clone());
        self.serve_with(transport, identity, lifecycle_mode(protocol))
            .await
    }

    /// Runs over any rmcp transport. Raw capture only happens if the transport feeds
    /// [`raw_requests`](Self::raw_requests) (the ones in [`crate::transport`] do); without it,
    /// requests are presented from rmcp's typed parse, which drops `pattern`.
    pub async fn serve_transport<T>(
        self,
        transport: T,
        identity: TransportIdentity,
    ) -> Result<Connection<U, O>, ConnectError>
    where
        T: rmcp::transport::Transport<RoleClient> + 'static,
    {
        let lifecycle = lifecycle_mode(self.shared.config.protocol);
        self.serve_with(transport, identity, lifecycle).await
    }

    async fn serve_with<T>(
        self,
        transport: T,
        identity: TransportIdentity,
        lifecycle: ClientLifecycleMode,
    ) -> Result<Connection<U, O>, ConnectError>
    where
        T: rmcp::transport::Transport<RoleClient> + 'static,
    {
        self.set_transport(identity);
        let watched = Watched::new(transport, self.shared.registry.clone());
        Ok(self.serve_with_lifecycle(watched, lifecycle).await?)
    }

    async fn on_complete(&self, params: Option<Value>, peer: &rmcp::Peer<RoleClient>) {
        let parsed = CompleteNotification::parse(params.as_ref().unwrap_or(&Value::Null));
        let Ok(notification) = parsed else {
            tracing::debug!("ignoring a malformed elicitation completion notification");
            return;
        };
        match self.shared.registry.complete(&notification.elicitation_id) {
            CompleteOutcome::Completed => {
                self.shared
                    .ui
                    .notify(Notice::Completed {
                        server: self.identity(peer),
                        elicitation_id: notification.elicitation_id,
                    })
                    .await;
            }
            outcome => {
                tracing::debug!(?outcome, id = %notification.elicitation_id, "ignoring completion notification")
            }
        }
    }
}

/// The revision negotiated with the server behind `peer` (2025-11-25 before the handshake).
pub fn negotiated_protocol(peer: &rmcp::Peer<RoleClient>) -> ProtocolVersion {
    peer.peer_info()
        .map(|info| info.protocol_version.clone())
        .unwrap_or(ProtocolVersion::V_2025_11_25)
}

/// Whether `peer` speaks 2026-07-28 or later (no `initialize`, `InputRequiredResult`s).
pub(crate) fn is_2026(peer: &rmcp::Peer<RoleClient>) -> bool {
    !negotiated_protocol(peer).has_initialize()
}

/// `e` for people: rmcp's `TransportError` names the transport's Rust type (a long
/// generic path); show the transport's own error and what was being sent instead.
fn initialize_text(e: &rmcp::service::ClientInitializeError) -> String {
    match e {
        rmcp::service::ClientInitializeError::TransportError { error, context } => {
            format!("{} (when {context})", error.error)
        }
        other => other.to_string(),
    }
}

/// `server/discover` worked but lists only revisions that have `initialize`.
fn only_legacy(e: &rmcp::service::ClientInitializeError) -> bool {
    matches!(
        e,
        rmcp::service::ClientInitializeError::NoCompatibleProtocolVersion { server_supported, .. }
            if !server_supported.is_empty() && server_supported.iter().all(ProtocolVersion::has_initialize)
    )
}

fn lifecycle_mode(choice: ProtocolChoice) -> ClientLifecycleMode {
    choice.lifecycle()
}

fn elicitation_capability(cap: Capability) -> Option<ElicitationCapability> {
    if !cap.any() {
        return None;
    }
    let mut ec = ElicitationCapability::new();
    if cap.form {
        ec = ec.with_form(FormElicitationCapability::new());
    }
    if cap.url {
        ec.url = Some(UrlElicitationCapability::new());
    }
    Some(ec)
}

impl<U: ElicitationUi, O: UrlOpener> ClientHandler for ElicitationClient<U, O> {
    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        // Prefer the raw params captured at the transport; rmcp's typed params drop `pattern`.
        let raw = match self.shared.raw.take(&context.id) {
            Some(raw) => raw,
            None => serde_json::to_value(&request)
                .map_err(|e| ErrorData::internal_error(e.to_string(), None))?,
        };
        let result = self.handle_create(raw, &context).await?;
        serde_json::from_value(result).map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleClient>,
    ) -> Result<CustomResult, ErrorData> {
        if request.method != METHOD_CREATE {
            return Err(ErrorData::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                request.method,
                None,
            ));
        }
        // rmcp could not type it: it is malformed; the core says how, for the -32602.
        let raw = self
            .shared
            .raw
            .take(&context.id)
            .or(request.params)
            .unwrap_or(Value::Null);
        self.handle_create(raw, &context)
            .await
            .map(CustomResult::new)
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        context: NotificationContext<RoleClient>,
    ) {
        if notification.method == METHOD_COMPLETE {
            self.on_complete(notification.params, &context.peer).await;
        }
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        context: NotificationContext<RoleClient>,
    ) {
        let token = match &params.progress_token.0 {
            NumberOrString::Number(n) => n.to_string(),
            NumberOrString::String(s) => s.to_string(),
        };
        let update = ProgressUpdate {
            server: self.identity(&context.peer),
            token,
            progress: params.progress,
            total: params.total,
            message: params.message.as_deref().map(PlainText::from_untrusted),
        };
        self.shared.ui.progress(update).await;
    }

    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation = elicitation_capability(self.shared.capability);
        ClientConfig::new(capabilities, self.shared.config.client_info.clone())
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transport_failure_reads_without_the_transport_type() {
        let e = ConnectError::from(rmcp::service::ClientInitializeError::TransportError {
            error: rmcp::transport::DynamicTransportError::from_parts(
                "mcp_elicit_client::transport::watched::Watched<X>",
                std::any::TypeId::of::<()>(),
                Box::new(std::io::Error::other("sign-in needed for http://h/mcp")),
            ),
            context: "send discover request".into(),
        });
        assert_eq!(
            e.to_string(),
            "MCP initialization failed: sign-in needed for http://h/mcp \
             (when send discover request)"
        );
    }
}
