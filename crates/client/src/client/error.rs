//! [`ConnectError`]: why connecting failed, displayed for people.

#[cfg(doc)]
use super::ElicitationClient;
use super::protocol::only_legacy;
#[cfg(doc)]
use crate::config::ProtocolChoice;

/// Why connecting failed.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use mcp_elicit_client::{
///     Config, ElicitationClient, FormPolicy, ProtocolChoice, RecordingOpener, ScriptedUi,
///     TransportIdentity, UrlPolicy,
/// };
/// use mcp_elicit_core::message::Capability;
/// use mcp_elicit_client::{ConnectError, ServerTarget};
///
/// let ui = ScriptedUi::new(Capability::FORM, FormPolicy::Decline, UrlPolicy::Never);
/// let client = ElicitationClient::new(ui, RecordingOpener::default(), Config::default());
/// let target: ServerTarget = "stdio:/nonexistent/mcp-server --verbose".parse()?;
/// let Err(error) = client.connect(&target).await else { panic!("connected") };
/// assert!(matches!(error, ConnectError::Spawn(_)));
/// assert!(
///     error.to_string().starts_with("cannot start the server: cannot start \"/nonexistent/mcp-server\""),
///     "{error}"
/// );
/// # Ok(())
/// # }
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
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
