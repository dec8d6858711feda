//! [`Revision`]: how a request's elicitations travel, decided once per request.

use mcp_elicit_core::message::Capability;
use rmcp::RoleServer;
use rmcp::model::{JsonObject, ProtocolVersion};
use rmcp::service::RequestContext;
use serde_json::Value;

/// The `_meta` key carrying a 2026-07-28 request's client capabilities.
pub(crate) const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";

/// How the elicitations of one request travel. Decided once per request from the
/// protocol revision it is on (by [`Edge`](crate::Edge), which stores it in the
/// request's extensions, or by [`Revision::of`]); everything after that branches on this
/// type, never on version strings.
///
/// ```
/// use mcp_elicit_server::Revision;
/// use mcp_elicit_server::rmcp::{RoleServer, service::RequestContext};
///
/// // In a handler, branch on the type, never on version strings:
/// fn how(ctx: &RequestContext<RoleServer>) -> &'static str {
///     match Revision::of(ctx) {
///         Revision::Requests => "elicitation/create, then wait",
///         Revision::Rounds => "an InputRequiredResult, then the retry",
///         _ => "a later revision",
///     }
/// }
/// # let _ = how;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Revision {
    /// 2025-11-25 and earlier: the server sends `elicitation/create` on the request's
    /// stream and waits for the answer; URL mode has `elicitationId`, completion
    /// notifications and -32042.
    Requests,
    /// 2026-07-28 and later (multi round-trip requests): the request answers
    /// `InputRequiredResult`, the client asks the user and retries with
    /// `inputResponses` and the sealed `requestState`.
    Rounds,
}

impl Revision {
    /// The revision of `ctx`: the one [`Edge`](crate::Edge) recorded, else the
    /// request's own protocol version (its `_meta`, or the session's).
    ///
    /// In a handler behind [`Edge`](crate::Edge) (hidden: an rmcp client over an in-memory
    /// pipe, on the protocol version it asks for by default):
    ///
    /// ```
    /// # use mcp_elicit_server::rmcp::model::*;
    /// # use mcp_elicit_server::rmcp::service::RequestContext;
    /// # use mcp_elicit_server::rmcp::{ClientHandler, ErrorData, RoleServer, ServerHandler, ServiceExt};
    /// use mcp_elicit_server::{Edge, Revision, Stop, respond, text};
    ///
    /// struct Server;
    /// impl ServerHandler for Server {
    ///     fn get_info(&self) -> ServerConfig {
    ///         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    ///     }
    ///     async fn call_tool(&self, _: CallToolRequestParams, ctx: RequestContext<RoleServer>)
    ///         -> Result<CallToolResponse, ErrorData> {
    ///         respond(Ok::<_, Stop>(text(format!("{:?}", Revision::of(&ctx)))))
    ///     }
    /// }
    /// # struct Client;
    /// # impl ClientHandler for Client {
    /// #     fn get_info(&self) -> ClientConfig {
    /// #         ClientConfig::new(ClientCapabilities::default(), Implementation::new("client", "0"))
    /// #     }
    /// # }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let (client_io, server_io) = tokio::io::duplex(1 << 16);
    /// # tokio::spawn(async move {
    /// #     if let Ok(running) = Edge::new(Server).serve(server_io).await {
    /// #         let _ = running.waiting().await;
    /// #     }
    /// # });
    /// # let client = Client.serve(client_io).await?;
    /// let result = client.call_tool(CallToolRequestParams::new("which")).await?;
    /// let version = client.peer_info().ok_or("no server info")?.protocol_version.clone();
    /// let expected = Revision::of_version(Some(&version));
    /// assert_eq!(result.content[0].as_text().map(|t| t.text.clone()), Some(format!("{expected:?}")));
    /// # Ok(())
    /// # }
    /// ```
    pub fn of(ctx: &RequestContext<RoleServer>) -> Revision {
        if let Some(r) = ctx.extensions.get::<Revision>() {
            return *r;
        }
        Self::of_version(ctx.protocol_version().as_ref())
    }

    /// The revision of a protocol version (`None`: the oldest behaviour).
    ///
    /// ```
    /// use mcp_elicit_server::Revision;
    /// use rmcp::model::ProtocolVersion;
    ///
    /// let of = |v: ProtocolVersion| Revision::of_version(Some(&v));
    /// assert_eq!(of(ProtocolVersion::V_2026_07_28), Revision::Rounds);
    /// assert_eq!(of(ProtocolVersion::V_2025_11_25), Revision::Requests);
    /// assert_eq!(Revision::of_version(None), Revision::Requests);
    /// ```
    pub fn of_version(version: Option<&ProtocolVersion>) -> Revision {
        match version {
            Some(v) if v.as_str() >= ProtocolVersion::V_2026_07_28.as_str() => Revision::Rounds,
            _ => Revision::Requests,
        }
    }
}

/// What a request's client declared, read from the request itself on
/// [`Revision::Rounds`] (capabilities travel in every request's `_meta`; the server
/// MUST NOT infer them from earlier requests) and from the session otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Declared {
    pub(crate) elicitation: Capability,
    pub(crate) sampling: bool,
    pub(crate) roots: bool,
}

impl Declared {
    pub(crate) fn of(ctx: &RequestContext<RoleServer>, revision: Revision) -> Declared {
        match revision {
            // Read in place: the map is not copied for every request.
            Revision::Rounds => {
                Declared::from_capabilities(match ctx.meta.get(META_CAPABILITIES) {
                    Some(Value::Object(map)) => Some(map),
                    _ => None,
                })
            }
            Revision::Requests => match ctx.meta.client_capabilities() {
                // Capabilities in a 2025-11-25 request's `_meta` (rare) win, as rmcp's
                // `client_capabilities` has it.
                Some(caps) => Declared::from_typed(&caps),
                None => ctx
                    .peer
                    .peer_info()
                    .map(|info| Declared::from_typed(&info.capabilities))
                    .unwrap_or_default(),
            },
        }
    }

    /// What typed capabilities (the session's) declare: the same reading as
    /// [`Declared::from_capabilities`], without serialising all of them for each request.
    fn from_typed(caps: &rmcp::model::ClientCapabilities) -> Declared {
        let elicitation = caps
            .elicitation
            .as_ref()
            .and_then(|e| serde_json::to_value(e).ok());
        Declared::declaring(
            elicitation.as_ref(),
            caps.sampling.is_some(),
            caps.roots.is_some(),
        )
    }

    /// The one reading of an elicitation capability: a malformed one declares nothing.
    fn declaring(elicitation: Option<&Value>, sampling: bool, roots: bool) -> Declared {
        Declared {
            elicitation: Capability::from_value(elicitation).unwrap_or(Capability::NONE),
            sampling,
            roots,
        }
    }

    /// What a capabilities object (`_meta`'s or the session's) declares; `None` or a
    /// malformed elicitation capability declares nothing.
    pub(crate) fn from_capabilities(raw: Option<&JsonObject>) -> Declared {
        let Some(caps) = raw else {
            return Declared::default();
        };
        let present = |k: &str| caps.get(k).is_some_and(|v| !v.is_null());
        Declared::declaring(
            caps.get("elicitation"),
            present("sampling"),
            present("roots"),
        )
    }
}

/// What a 2026-07-28 request's `_meta` declares, read as [`Declared::of`] reads it: the
/// elicitation capability, whether sampling and roots are declared. For the fuzz targets.
#[cfg(fuzzing)]
pub fn declared_in_meta(meta: &JsonObject) -> (Capability, bool, bool) {
    let caps = match meta.get(META_CAPABILITIES) {
        Some(Value::Object(map)) => Some(map),
        _ => None,
    };
    let d = Declared::from_capabilities(caps);
    (d.elicitation, d.sampling, d.roots)
}
