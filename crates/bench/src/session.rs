//! One benchmark session: an [`ElicitationClient`] with the automatic responder over
//! Streamable HTTP, sharing one HTTP connection pool with the other sessions (as one
//! host process with many sessions would).

use std::time::Duration;

use mcp_elicit_client::rmcp::model::CallToolRequestParams;
use mcp_elicit_client::transport::http::{self, StandaloneStream};
use mcp_elicit_client::{
    Config, Connection, ElicitationClient, ManualOpen, ProtocolChoice, RateLimit, TransportIdentity,
};
use serde_json::{Map, Value};

use crate::responder::BenchUi;
use crate::servers::Revision;

/// The client type of a session.
pub(crate) type BenchClient = ElicitationClient<BenchUi, ManualOpen>;

/// A connected session.
pub(crate) struct Session {
    pub(crate) client: BenchClient,
    pub(crate) connection: Connection<BenchUi, ManualOpen>,
}

/// The shared HTTP client (one connection pool for every session).
pub(crate) fn http_client() -> Result<reqwest::Client, String> {
    reqwest::Client::builder()
        .pool_idle_timeout(Duration::from_secs(90))
        .build()
        .map_err(|e| format!("cannot build the HTTP client: {e}"))
}

/// Opens session `index` to the Streamable HTTP endpoint `url` on `revision`; on
/// 2025-11-25 waits (up to 3 s) for its standalone GET stream.
pub(crate) async fn connect(
    http: &reqwest::Client,
    url: &str,
    index: usize,
    revision: Revision,
) -> Result<Session, String> {
    let ui = BenchUi::new(index);
    // No rate limit: the responder is a program, not a person. The revision is pinned:
    // 2025-11-25 (`elicitation/create` mid-call, completion notifications), which every
    // peer server here speaks, or 2026-07-28 (an `InputRequiredResult`, then the
    // answered retry); the client would otherwise take 2026-07-28 from a server that
    // offers it.
    let protocol = match revision {
        Revision::V2025 => ProtocolChoice::V2025_11_25,
        Revision::V2026 => ProtocolChoice::V2026_07_28,
    };
    let config = Config::default()
        .with_protocol(protocol)
        .with_rate_limit(RateLimit::UNLIMITED)
        .with_completion_timeout(Duration::from_secs(30));
    let client = ElicitationClient::new(ui, ManualOpen, config);
    // The library's own HTTP stack, as a host embedding it gets from
    // `transport_with_http`: raw capture, authorization (none here), replies refused
    // before they were read sent again, bounded SSE resumption.
    let (transport, mut standalone) =
        http::transport_with_http(http.clone(), url, client.raw_requests().clone(), None);
    let connection = client
        .clone()
        .serve_transport(transport, TransportIdentity::http(url))
        .await
        .map_err(|e| format!("session {index}: {e}"))?;
    if revision == Revision::V2025 {
        let opened = standalone.wait_for(|s| *s != StandaloneStream::Pending);
        let _ = tokio::time::timeout(Duration::from_secs(3), opened).await;
    }
    Ok(Session { client, connection })
}

impl Session {
    /// The responder.
    pub(crate) fn ui(&self) -> &BenchUi {
        self.client.ui()
    }

    /// Calls `tool` with `arguments`, with the client's -32042 handling.
    pub(crate) async fn call(
        &self,
        tool: &'static str,
        arguments: Map<String, Value>,
    ) -> Result<mcp_elicit_client::rmcp::model::CallToolResult, String> {
        let params = CallToolRequestParams::new(tool).with_arguments(arguments);
        self.client
            .call_tool(self.connection.peer(), params)
            .await
            .map_err(|e| e.to_string())
    }

    /// Closes the session.
    pub(crate) async fn close(self) {
        let _ = self.connection.cancel().await;
    }
}

/// The first text block of a result, if any.
pub(crate) fn first_text(result: &mcp_elicit_client::rmcp::model::CallToolResult) -> Option<&str> {
    result
        .content
        .iter()
        .find_map(|c| c.as_text())
        .map(|t| t.text.as_str())
}
