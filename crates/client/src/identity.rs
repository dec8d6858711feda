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
