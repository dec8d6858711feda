//! The errors of this crate that reach Rust callers (pages answer with an error page).

/// What went wrong building the web layer or using stored third-party tokens.
///
/// Messages never contain tokens, secrets, codes or `state` values.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WebError {
    /// The configuration is unusable.
    #[error("web configuration: {0}")]
    Config(String),
    /// OpenID discovery or a JWKS fetch failed.
    #[error("discovery of {url} failed: {message}")]
    Discovery {
        /// The URL fetched.
        url: String,
        /// What went wrong.
        message: String,
    },
    /// The store or vault failed.
    #[error(transparent)]
    Store(#[from] mcp_elicit_store::Error),
    /// The user has no tokens for this provider (or they expired and cannot be
    /// refreshed): a URL mode elicitation must connect the account first.
    #[error("no usable {provider} tokens for this user: connect the account first")]
    NotConnected {
        /// The provider name.
        provider: String,
    },
    /// No provider with this name is configured.
    #[error("no third-party provider named {0} is configured")]
    UnknownProvider(String),
    /// A token endpoint refused or failed.
    #[error("token request to {provider} failed: {message}")]
    TokenRequest {
        /// The provider name.
        provider: String,
        /// What went wrong (no token values).
        message: String,
    },
}
