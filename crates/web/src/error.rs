//! The errors of this crate that reach Rust callers (pages answer with an error page).

/// What went wrong building the web layer or using stored third-party tokens.
///
/// Messages never contain tokens, secrets, codes or `state` values.
///
/// ```
/// use mcp_elicit_web::{ClientRegistration, WebConfig, WebError};
///
/// let config = WebConfig::new(
///     "http://auth.example.com",
///     url::Url::parse("https://mcp.example.com")?,
///     ClientRegistration::public("mcp-web"),
/// );
/// let err = config.validate().unwrap_err();
/// assert!(matches!(err, WebError::Config(_)));
/// assert_eq!(
///     err.to_string(),
///     "web configuration: the issuer http://auth.example.com/ must use https (plain http only on loopback)"
/// );
///
/// // What a tool sees before the user has connected an account.
/// let err = WebError::NotConnected { provider: "github".into() };
/// assert_eq!(err.to_string(), "no usable github tokens for this user: connect the account first");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
