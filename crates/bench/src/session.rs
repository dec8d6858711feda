//! One benchmark session: an [`ElicitationClient`] with the automatic responder over
//! Streamable HTTP, sharing one HTTP connection pool with the other sessions (as one
//! host process with many sessions would).

use std::time::Duration;

use mcp_elicit_client::rmcp::model::CallToolRequestParams;
use mcp_elicit_client::rmcp::transport::streamable_http_client::{
    StreamableHttpClientTransport, StreamableHttpClientTransportConfig,
};
use mcp_elicit_client::transport::http::{StandaloneStream, TappedHttpClient};
use mcp_elicit_client::{
    Config, Connection, ElicitationClient, ManualOpen, ProtocolChoice, RateLimit, TransportIdentity,
};
use serde_json::{Map, Value};

use crate::responder::BenchUi;

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

/// Opens session `index` to the Streamable HTTP endpoint `url` and waits (up to 3 s) for
/// its standalone GET stream.
pub(crate) async fn connect(
    http: &reqwest::Client,
    url: &str,
    index: usize,
) -> Result<Session, String> {
    let ui = BenchUi::new(index);
    // No rate limit: the responder is a program, not a person. The figures are of the
    // 2025-11-25 round trip (`elicitation/create` mid-call, completion notifications),
    // which every peer server here speaks; the client would otherwise take 2026-07-28
    // from a server that offers it.
    let config = Config::default()
        .with_protocol(ProtocolChoice::V2025_11_25)
        .with_rate_limit(RateLimit::UNLIMITED)
        .with_completion_timeout(Duration::from_secs(30));
    let client = ElicitationClient::new(ui, ManualOpen, config);
    let tapped = TappedHttpClient::new(http.clone(), client.raw_requests().clone());
    let mut standalone = tapped.standalone_stream();
    let transport = StreamableHttpClientTransport::with_client(
        tapped,
        StreamableHttpClientTransportConfig::with_uri(url.to_owned()),
    );
    let connection = client
        .clone()
        .serve_transport(transport, TransportIdentity::http(url))
        .await
        .map_err(|e| format!("session {index}: {e}"))?;
    let opened = standalone.wait_for(|s| *s != StandaloneStream::Pending);
    let _ = tokio::time::timeout(Duration::from_secs(3), opened).await;
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
