//! [`AuthError`]: why a sign-in failed, naming the MCP server and the problem.

use rmcp::transport::auth::AuthError as RmcpAuthError;

/// A failed sign-in or token use. Its text names the MCP server and the problem and
/// never contains a token, a code or a client secret.
///
/// ```
/// use mcp_elicit_client::auth::{AuthError, AuthErrorKind};
///
/// let error = AuthError::new("https://mcp.example.com/mcp", AuthErrorKind::Declined);
/// assert_eq!(
///     error.to_string(),
///     "authorization for https://mcp.example.com/mcp: the user declined the sign-in"
/// );
/// ```
#[derive(Debug, Clone, thiserror::Error)]
#[error("authorization for {server}: {kind}")]
pub struct AuthError {
    /// The MCP server URL the sign-in was for.
    pub server: String,
    /// What went wrong.
    pub kind: AuthErrorKind,
}

impl AuthError {
    /// An error about `server`.
    ///
    /// ```
    /// use mcp_elicit_client::auth::{AuthError, AuthErrorKind};
    ///
    /// let error = AuthError::new("https://mcp.example.com/mcp", AuthErrorKind::StepUpLimit(2));
    /// assert_eq!(error.server, "https://mcp.example.com/mcp");
    /// assert_eq!(error.kind, AuthErrorKind::StepUpLimit(2));
    /// ```
    pub fn new(server: impl Into<String>, kind: AuthErrorKind) -> Self {
        Self {
            server: server.into(),
            kind,
        }
    }
}

/// What went wrong during a sign-in. Each displays as one sentence:
///
/// ```
/// use mcp_elicit_client::auth::AuthErrorKind;
///
/// let kind = AuthErrorKind::IssuerMismatch {
///     expected: "https://auth.example.com".into(),
///     received: "https://evil.example".into(),
/// };
/// assert_eq!(kind.to_string(), "issuer mismatch: expected https://auth.example.com, got https://evil.example");
/// assert_eq!(
///     AuthErrorKind::TokenRefused { status: 401 }.to_string(),
///     "the server refused the new access token (HTTP 401)"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AuthErrorKind {
    /// The protected resource or authorization server metadata could not be found or used.
    #[error("discovery failed: {0}")]
    Discovery(String),
    /// The protected resource metadata describes another resource than this server.
    #[error("the protected resource metadata is for another resource: {0}")]
    ResourceMismatch(String),
    /// Authorization server metadata, or the `iss` of the authorization response (RFC
    /// 9207), names another issuer than the one the client asked.
    #[error("issuer mismatch: expected {expected}, got {received}")]
    IssuerMismatch {
        /// The issuer the client recorded.
        expected: String,
        /// What it was given.
        received: String,
    },
    /// The authorization server advertises `iss` on authorization responses but this one
    /// had none.
    #[error("the authorization response has no iss although {expected} advertises it")]
    IssuerMissing {
        /// The issuer the client recorded.
        expected: String,
    },
    /// The redirect URI is not a loopback `http` URI, or the authorization response came
    /// to another URI than the redirect URI.
    #[error("redirect refused: {0}")]
    Redirect(String),
    /// The authorization response is unusable (no code, wrong state, an `error`).
    #[error("the authorization response is unusable: {0}")]
    AuthorizationResponse(String),
    /// The client could not be registered (no pre-registration, no Client ID Metadata
    /// Document support, no or failed dynamic registration).
    #[error("client registration failed: {0}")]
    Registration(String),
    /// The token endpoint refused the code or answered with something unusable.
    #[error("the token request failed: {0}")]
    Token(String),
    /// The server still refuses a token it was just given.
    #[error("the server refused the new access token (HTTP {status})")]
    TokenRefused {
        /// 401 or 403.
        status: u16,
    },
    /// The server asked for more scopes more times than allowed.
    #[error("the server kept asking for more scopes ({0} step-up attempts); giving up")]
    StepUpLimit(u32),
    /// The user declined the sign-in.
    #[error("the user declined the sign-in")]
    Declined,
    /// The host's sign-in UI failed.
    #[error("the sign-in screen failed: {0}")]
    Ui(String),
    /// The token store failed.
    #[error("the token store failed: {0}")]
    Store(String),
    /// The server URL cannot be used for authorization.
    #[error("{0}")]
    Config(String),
    /// Anything else rmcp's authorization engine reported.
    #[error("{0}")]
    Other(String),
}

impl From<&RmcpAuthError> for AuthErrorKind {
    fn from(e: &RmcpAuthError) -> Self {
        use rmcp::transport::auth::ProtectedResourceMetadataInvalidReason as Reason;
        match e {
            RmcpAuthError::AuthorizationServerMismatch {
                expected_issuer,
                received_issuer,
            } => Self::IssuerMismatch {
                expected: expected_issuer.clone(),
                received: received_issuer.clone(),
            },
            RmcpAuthError::AuthorizationServerMissingIssuer { expected_issuer } => {
                Self::IssuerMissing {
                    expected: expected_issuer.clone(),
                }
            }
            RmcpAuthError::ProtectedResourceMetadataInvalid { url, reason } => match **reason {
                Reason::ResourceMismatch { .. } => {
                    Self::ResourceMismatch(format!("{url}: {reason}"))
                }
                _ => Self::Discovery(format!("{url}: {reason}")),
            },
            RmcpAuthError::RegistrationFailed(m) => Self::Registration(m.clone()),
            RmcpAuthError::TokenExchangeFailed(m)
            | RmcpAuthError::TokenRefreshFailed(m)
            | RmcpAuthError::TokenRefreshRejected(m) => Self::Token(m.clone()),
            RmcpAuthError::CredentialStoreError(m) => Self::Store(m.clone()),
            RmcpAuthError::MetadataError(m) => Self::Discovery(m.clone()),
            RmcpAuthError::DiscoveryRequestFailed { .. }
            | RmcpAuthError::AuthorizationServersUnavailable { .. }
            | RmcpAuthError::NoAuthorizationSupport
            | RmcpAuthError::PkceUnsupported => Self::Discovery(e.to_string()),
            other => Self::Other(other.to_string()),
        }
    }
}
