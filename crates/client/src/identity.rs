//! Who is asking: [`ServerIdentity`] and [`TransportIdentity`].
//!
//! Clients MUST make clear which server is requesting information. The server's
//! self-description (`serverInfo` from `initialize`) is claimed, not verified, so a host
//! shows it *together with* how the client reached the server (the command it started or
//! the origin it connected to), which the client itself knows for sure.

use std::fmt;

use rmcp::model::ServerPeerInfo;
use serde::Serialize;

use crate::text::PlainText;

/// How the client reached the server: the part of the identity the client knows for sure.
///
/// Its [`Display`](fmt::Display) is what a consent screen shows after "via":
///
/// ```
/// use mcp_elicit_client::TransportIdentity;
///
/// let stdio = TransportIdentity::Stdio {
///     command: vec!["python3".into(), "my server.py".into()],
/// };
/// assert_eq!(stdio.to_string(), "stdio: python3 'my server.py'"); // shell-quoted
///
/// let http = TransportIdentity::http("https://mcp.example.com:8443/mcp?x=1");
/// assert_eq!(http.to_string(), "https://mcp.example.com:8443"); // the origin only
///
/// let other = TransportIdentity::Other { description: "in-process test pipe".into() };
/// assert_eq!(other.to_string(), "in-process test pipe");
///
/// // Serialized for logs and JSON reports with a `kind` tag.
/// assert_eq!(
///     serde_json::to_value(&stdio).unwrap(),
///     serde_json::json!({"kind": "stdio", "command": ["python3", "my server.py"]})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
#[non_exhaustive]
pub enum TransportIdentity {
    /// A child process over stdio.
    Stdio {
        /// The program and its arguments, as started.
        command: Vec<String>,
    },
    /// A Streamable HTTP endpoint.
    Http {
        /// `scheme://host[:port]` of the endpoint.
        origin: String,
        /// The full endpoint URL.
        endpoint: String,
    },
    /// Anything else (an in-process duplex pipe in tests, a custom transport).
    Other {
        /// A description chosen by whoever set up the connection.
        description: String,
    },
}

impl TransportIdentity {
    /// The identity of a Streamable HTTP endpoint; the origin is derived from the URL
    /// (the endpoint itself when it does not parse).
    ///
    /// ```
    /// use mcp_elicit_client::TransportIdentity;
    ///
    /// let TransportIdentity::Http { origin, endpoint } =
    ///     TransportIdentity::http("https://MCP.Example.com:443/mcp")
    /// else {
    ///     unreachable!()
    /// };
    /// assert_eq!(origin, "https://mcp.example.com"); // normalized: default port dropped
    /// assert_eq!(endpoint, "https://MCP.Example.com:443/mcp"); // as given
    ///
    /// let odd = TransportIdentity::http("not a url");
    /// assert_eq!(odd.to_string(), "not a url");
    /// ```
    pub fn http(endpoint: &str) -> Self {
        let origin = url::Url::parse(endpoint)
            .map(|u| u.origin().ascii_serialization())
            .unwrap_or_else(|_| endpoint.to_owned());
        Self::Http {
            origin,
            endpoint: endpoint.to_owned(),
        }
    }
}

impl fmt::Display for TransportIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Stdio { command } => write!(
                f,
                "stdio: {}",
                shlex::try_join(command.iter().map(String::as_str))
                    .unwrap_or_else(|_| command.join(" "))
            ),
            Self::Http { origin, .. } => write!(f, "{origin}"),
            Self::Other { description } => f.write_str(description),
        }
    }
}

/// The requesting server as a consent screen shows it.
///
/// The name, title and version are the server's claims, cleaned as [`PlainText`]; the
/// transport is what the client knows. [`Display`](fmt::Display) shows both:
///
/// ```
/// use mcp_elicit_client::{ServerIdentity, TransportIdentity};
/// use mcp_elicit_client::rmcp::model::{
///     Implementation, ProtocolVersion, ServerCapabilities, ServerPeerInfo,
/// };
///
/// let info = ServerPeerInfo::new(ProtocolVersion::V_2025_11_25, ServerCapabilities::default())
///     .with_server_info(Implementation::new("acme-crm", "2.0.1").with_title("ACME CRM"));
/// let server = ServerIdentity::new(
///     Some(&info),
///     TransportIdentity::http("https://crm.acme.example/mcp"),
/// );
/// assert_eq!(server.label(), "ACME CRM");
/// assert_eq!(
///     server.to_string(),
///     "ACME CRM (acme-crm) 2.0.1 via https://crm.acme.example"
/// );
///
/// // A server cannot smuggle terminal escapes or bidi tricks into its name.
/// let sneaky = ServerPeerInfo::new(ProtocolVersion::V_2025_11_25, ServerCapabilities::default())
///     .with_server_info(Implementation::new("bank\u{1b}[2K", "1"));
/// let shown = ServerIdentity::new(Some(&sneaky), TransportIdentity::http("https://evil.example/"));
/// assert_eq!(shown.label(), "bank\u{fffd}[2K");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ServerIdentity {
    /// `serverInfo.name` (claimed by the server), cleaned for display.
    pub name: PlainText,
    /// `serverInfo.title` (claimed by the server), cleaned for display.
    pub title: Option<PlainText>,
    /// `serverInfo.version` (claimed by the server), cleaned for display.
    pub version: PlainText,
    /// How the client reached it (known by the client).
    pub transport: TransportIdentity,
}

impl ServerIdentity {
    /// Builds the identity from the handshake info (absent before `initialize` completed)
    /// and the transport.
    ///
    /// Without info the name is `(unnamed server)` and the version empty:
    ///
    /// ```
    /// use mcp_elicit_client::{ServerIdentity, TransportIdentity};
    ///
    /// let command = vec!["./server".to_string()];
    /// let unknown = ServerIdentity::new(None, TransportIdentity::Stdio { command });
    /// assert_eq!(unknown.name.as_str(), "(unnamed server)");
    /// assert!(unknown.title.is_none());
    /// assert_eq!(unknown.to_string(), "(unnamed server) via stdio: ./server");
    /// ```
    pub fn new(info: Option<&ServerPeerInfo>, transport: TransportIdentity) -> Self {
        let implementation = info.and_then(|i| i.server_info.as_ref());
        Self {
            name: PlainText::from_untrusted(
                implementation.map_or("(unnamed server)", |i| i.name.as_str()),
            ),
            title: implementation
                .and_then(|i| i.title.as_deref())
                .map(PlainText::from_untrusted),
            version: PlainText::from_untrusted(implementation.map_or("", |i| i.version.as_str())),
            transport,
        }
    }

    /// The label to show: the title when given, else the name.
    ///
    /// ```
    /// use mcp_elicit_client::{ServerIdentity, TransportIdentity};
    /// use mcp_elicit_client::rmcp::model::{
    ///     Implementation, ProtocolVersion, ServerCapabilities, ServerPeerInfo,
    /// };
    ///
    /// let info = ServerPeerInfo::new(ProtocolVersion::V_2025_11_25, ServerCapabilities::default())
    ///     .with_server_info(Implementation::new("weather", "0.3.0"));
    /// let other = TransportIdentity::Other { description: "pipe".into() };
    /// assert_eq!(ServerIdentity::new(Some(&info), other).label(), "weather");
    /// ```
    pub fn label(&self) -> &str {
        self.title.as_ref().unwrap_or(&self.name).as_str()
    }
}

impl fmt::Display for ServerIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.label())?;
        if self.title.is_some() {
            write!(f, " ({})", self.name)?;
        }
        if !self.version.as_str().is_empty() {
            write!(f, " {}", self.version)?;
        }
        write!(f, " via {}", self.transport)
    }
}
