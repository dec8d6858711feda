//! The protocol revision: which one was negotiated, and how the configured choice starts
//! a connection.

use rmcp::RoleClient;
use rmcp::model::ProtocolVersion;
use rmcp::service::ClientLifecycleMode;

use crate::config::ProtocolChoice;

/// The revision negotiated with the server behind `peer` (2025-11-25 before the handshake).
///
/// [`ProtocolChoice::Auto`] takes 2026-07-28 from a server that offers it (rmcp's servers
/// do):
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use mcp_elicit_client::rmcp::{self, RoleServer, ServerHandler, ServiceExt};
/// # use rmcp::model::{
/// #     CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
/// #     ErrorData, Implementation, ServerCapabilities, ServerConfig, ServerRequest,
/// # };
/// # use rmcp::service::{RequestContext, ServiceError};
/// # // A server whose tool `ask` sends its `params` argument as `elicitation/create` (the
/// # // 2025-11-25 way) and returns the client's answer as JSON text.
/// # struct Asker;
/// # impl ServerHandler for Asker {
/// #     fn get_info(&self) -> ServerConfig {
/// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
/// #             .with_server_info(Implementation::new("asker", "1.0.0").with_title("The Asker"))
/// #     }
/// #     async fn call_tool(
/// #         &self,
/// #         call: CallToolRequestParams,
/// #         cx: RequestContext<RoleServer>,
/// #     ) -> Result<CallToolResponse, ErrorData> {
/// #         let params = call.arguments.unwrap_or_default().remove("params");
/// #         let ask = ServerRequest::CustomRequest(CustomRequest::new("elicitation/create", params));
/// #         let answer = match cx.peer.send_request(ask).await {
/// #             Ok(result) => serde_json::to_value(result).unwrap_or_default(),
/// #             Err(ServiceError::McpError(e)) => {
/// #                 serde_json::json!({"error": e.code.0, "message": e.message})
/// #             }
/// #             Err(e) => serde_json::json!({"failed": e.to_string()}),
/// #         };
/// #         Ok(CallToolResult::success(vec![ContentBlock::text(answer.to_string())]).into())
/// #     }
/// # }
/// # let (client_io, server_io) = tokio::io::duplex(1 << 16);
/// # tokio::spawn(async move {
/// #     if let Ok(running) = Asker.serve(server_io).await {
/// #         let _ = running.waiting().await;
/// #     }
/// # });
/// use mcp_elicit_client::{
///     Config, ElicitationClient, FormPolicy, ProtocolChoice, RecordingOpener, ScriptedUi,
///     TransportIdentity, UrlPolicy,
/// };
/// use mcp_elicit_core::message::Capability;
/// use mcp_elicit_client::negotiated_protocol;
/// use mcp_elicit_client::rmcp::model::ProtocolVersion;
///
/// let ui = ScriptedUi::new(Capability::FORM, FormPolicy::Decline, UrlPolicy::Never);
/// let client = ElicitationClient::new(ui, RecordingOpener::default(), Config::default());
/// let (r, w) = tokio::io::split(client_io);
/// let pipe = TransportIdentity::Other { description: "in-process".into() };
/// let connection = client.connect_io(r, w, pipe).await?;
/// let revision = negotiated_protocol(connection.peer());
/// assert_eq!(revision, ProtocolVersion::V_2026_07_28);
/// assert!(!revision.has_initialize()); // no `initialize`, `InputRequiredResult` rounds
/// # Ok(())
/// # }
/// ```
pub fn negotiated_protocol(peer: &rmcp::Peer<RoleClient>) -> ProtocolVersion {
    peer.peer_info()
        .map(|info| info.protocol_version.clone())
        .unwrap_or(ProtocolVersion::V_2025_11_25)
}

/// Whether `peer` speaks 2026-07-28 or later (no `initialize`, `InputRequiredResult`s).
pub(crate) fn is_2026(peer: &rmcp::Peer<RoleClient>) -> bool {
    !negotiated_protocol(peer).has_initialize()
}

/// `server/discover` worked but lists only revisions that have `initialize`.
pub(super) fn only_legacy(e: &rmcp::service::ClientInitializeError) -> bool {
    matches!(
        e,
        rmcp::service::ClientInitializeError::NoCompatibleProtocolVersion { server_supported, .. }
            if !server_supported.is_empty() && server_supported.iter().all(ProtocolVersion::has_initialize)
    )
}

pub(super) fn lifecycle_mode(choice: ProtocolChoice) -> ClientLifecycleMode {
    choice.lifecycle()
}
