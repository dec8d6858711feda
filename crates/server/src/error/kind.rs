//! [`ErrorKind`]: every kind of failure, its cause, what to do, and its JSON-RPC code.

use std::fmt;

#[cfg(doc)]
use super::Error;

/// What went wrong: every kind, in one place.
///
/// Three groups. **Misuse** is a bug in the calling code, caught before anything was sent
/// or changed: fix the call. **User-driven** ends are what a person did (declined,
/// dismissed, an answer that still breaks the schema after the re-ask, no answer in
/// time): [`Error::is_user_driven`]; [`respond_tool`](crate::respond_tool) turns them into
/// a tool result the model can read ([`Error::tool_result`]) instead of a JSON-RPC error.
/// **Peer and environment** failures come from the client, the store or the system.
///
/// | kind ([`ErrorKind::code`]) | group | cause | what to do | JSON-RPC |
/// |---|---|---|---|---|
/// | [`SecretField`](ErrorKind::SecretField) `secret_field` | misuse | a form field looks like a secret (password, API key, token, card) | ask for it through URL mode; or, when it is not a secret, list it in [`ElicitationConfig::reviewed_not_secret`](crate::ElicitationConfig::reviewed_not_secret); [`Error::findings`] names each field | -32603 |
/// | [`InvalidSchema`](ErrorKind::InvalidSchema) `invalid_schema` | misuse | the schema (or Rust type) is outside the form subset: nested objects, arrays of objects, maps... | flatten the type; [`Error::problems`] points at each field | -32603 |
/// | [`InvalidUrl`](ErrorKind::InvalidUrl) `invalid_url` | misuse | the URL breaks the server URL policy: not `https` (plain `http` only on loopback with [`allow_loopback_http`](crate::ElicitationConfig::allow_loopback_http)), userinfo, a credential-like query parameter | serve the page over https; put nothing secret in the URL (the elicitation id finds the record) | -32603 |
/// | [`UnknownElicitation`](ErrorKind::UnknownElicitation) `unknown_elicitation` | misuse (or a replay) | completing or cancelling an id that is unknown, finished already, expired, declined, or another user's | nothing changed: show "link not valid"; never act on the id ([`Elicitations::complete_with`](crate::Elicitations::complete_with) runs your bookkeeping only after the check) | -32602 |
/// | [`Bookkeeping`](ErrorKind::Bookkeeping) `bookkeeping` | yours | the bookkeeping of [`complete_with`](crate::Elicitations::complete_with) failed; the elicitation is completed, the client not notified | see [`source`](std::error::Error::source); the client's retry asks again | -32603 |
/// | [`Internal`](ErrorKind::Internal) `internal` | misuse | a question key asked twice or longer than [`MAX_KEY_BYTES`](crate::MAX_KEY_BYTES), a ticket of another round, an unserializable value | fix the handler | -32603 |
/// | [`NoIdentity`](ErrorKind::NoIdentity) `no_identity` | misuse | no authenticated principal on the request and no local user configured | attach a [`Principal`](crate::Principal) in your auth middleware, or use [`IdentityPolicy::LocalUser`](crate::IdentityPolicy::LocalUser) | -32603 |
/// | [`Config`](ErrorKind::Config) `config` | misuse | an unusable configuration value (key file, key ring) | fix the configuration | -32603 |
/// | [`UnsupportedProtocol`](ErrorKind::UnsupportedProtocol) `unsupported_protocol` | misuse | an [`Elicitor`](crate::Elicitor) call on 2026-07-28, which has no `elicitation/create` | use [`Ask`](crate::Ask) | -32600 |
/// | [`InvalidContent`](ErrorKind::InvalidContent) `invalid_content` | user-driven | the answer still breaks the schema after [`max_attempts`](crate::ElicitationConfig::max_attempts) (default 2: one re-ask naming the rules) | [`Error::violations`] lists each; [`respond_tool`](crate::respond_tool) tells the model | -32602 |
/// | [`Timeout`](ErrorKind::Timeout) `timeout` | user-driven | no answer within [`form_timeout`](crate::ElicitationConfig::form_timeout) / [`url_consent_timeout`](crate::ElicitationConfig::url_consent_timeout) (10 minutes) | the request was cancelled; ask again later | -32603 |
/// | [`UserDeclined`](ErrorKind::UserDeclined) `user_declined` | user-driven | the user declined, through [`FormOutcome::accepted`](crate::FormOutcome::accepted) | do nothing the user refused | -32602 |
/// | [`UserCancelled`](ErrorKind::UserCancelled) `user_cancelled` | user-driven | the user dismissed the form, through [`FormOutcome::accepted`](crate::FormOutcome::accepted) | ask again later | -32602 |
/// | [`ModeNotSupported`](ErrorKind::ModeNotSupported) `mode_not_supported` | peer | the client did not declare the mode (2025-11-25) | check [`Ask::supports`](crate::Ask::supports) first; for URL mode tell the user ([`Elicitor::url_unsupported`](crate::Elicitor::url_unsupported)) | -32602 |
/// | [`MissingCapability`](ErrorKind::MissingCapability) `missing_capability` | peer | the same on 2026-07-28 | as above | -32021 |
/// | [`MalformedReply`](ErrorKind::MalformedReply) `malformed_reply` | peer | the client's answer breaks the protocol | nothing to do: the client is wrong | -32602 |
/// | [`ClientError`](ErrorKind::ClientError) `client_error` | peer | the client answered with a JSON-RPC error | [`Error::client_error`] | -32602 |
/// | [`Deserialize`](ErrorKind::Deserialize) `deserialize` | misuse | valid content that does not deserialize into your type (a serde attribute the schema does not show) | make the type and its schema agree | -32602 |
/// | [`InvalidState`](ErrorKind::InvalidState) `invalid_state` | peer | a 2026-07-28 `requestState` that is not ours for this user and request, or expired | the client calls again without it | -32602 |
/// | [`Cancelled`](ErrorKind::Cancelled) `cancelled` | peer | the tool call itself was cancelled | nothing: nobody waits for the result | -32603 |
/// | [`Disconnected`](ErrorKind::Disconnected) `disconnected` | peer | the client went away before answering | nothing | -32603 |
/// | [`TooManyPending`](ErrorKind::TooManyPending) `too_many_pending` | environment | the user has [`max_pending_per_user`](crate::ElicitationConfig::max_pending_per_user) (32) unexpired elicitations | retry later (`data.retryable`) | -32000 |
/// | [`StoreUnavailable`](ErrorKind::StoreUnavailable) `store_unavailable` | environment | the store cannot be reached or written just now (database down or unreachable, no free connection in time, disk full); nothing was changed | retry later (`data.retryable`) | -32000 |
/// | [`Store`](ErrorKind::Store) `store` | environment | the pending-elicitation store failed | see the message | -32603 |
/// | [`Random`](ErrorKind::Random) `random` | environment | the OS random number generator failed | see the message | -32603 |
/// | [`UrlElicitationRequired`](ErrorKind::UrlElicitationRequired) `url_elicitation_required` | not a failure | built by [`Elicitor::url_required`](crate::Elicitor::url_required) (2025-11-25) | return it: the client opens the URLs and retries | -32042 (one made with [`Error::new`] has no URLs and is sent as -32603: a -32042 must list them) |
///
/// ```
/// use mcp_elicit_server::{Error, ErrorKind};
///
/// let e = Error::new(ErrorKind::UnknownElicitation, "no pending elicitation x for this user");
/// assert_eq!(e.kind().code(), "unknown_elicitation");
/// assert!(!e.is_user_driven());
/// assert_eq!(e.to_error_data().code.0, -32602);
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The form schema asks for a secret (password, API key, token, payment data).
    /// Refused before anything was sent: use URL mode for secrets.
    SecretField,
    /// The form schema is outside the restricted subset (or a Rust type does not map to
    /// it). Refused before anything was sent.
    InvalidSchema,
    /// The client did not declare the elicitation mode needed. Refused before anything
    /// was sent (servers MUST NOT send modes the client does not support).
    ModeNotSupported,
    /// The session negotiated a protocol revision on which the server may not send
    /// `elicitation/create` (2026-07-28 and later).
    UnsupportedProtocol,
    /// No user identity could be established for the request (no authenticated
    /// principal and no local-user fallback configured).
    NoIdentity,
    /// The URL of a URL-mode elicitation is refused by the server URL policy.
    InvalidUrl,
    /// The client accepted a form with content that breaks the schema.
    /// [`Error::violations`] lists every violation.
    InvalidContent,
    /// The client's answer does not follow the protocol (unknown action, a form accept
    /// without content, content on a URL accept, not an object...).
    MalformedReply,
    /// The client answered `elicitation/create` with a JSON-RPC error.
    ClientError,
    /// Nobody answered within the timeout; the request was cancelled.
    Timeout,
    /// The tool call that asked was cancelled; the elicitation was abandoned.
    Cancelled,
    /// The client disconnected before answering.
    Disconnected,
    /// No pending elicitation with this id for this user (unknown, completed already,
    /// expired, or someone else's).
    UnknownElicitation,
    /// The content is valid for the schema but does not deserialize into the Rust type.
    Deserialize,
    /// The user already has the configured maximum of pending elicitations.
    TooManyPending,
    /// The store cannot be reached or cannot write just now (see
    /// [`StoreError::Unavailable`](crate::StoreError::Unavailable)); nothing was changed
    /// and a later call can succeed (JSON-RPC -32000, `data.retryable: true`).
    StoreUnavailable,
    /// The pending-elicitation store failed.
    Store,
    /// The operating system's random number generator failed.
    Random,
    /// The `requestState` a client echoed is not one this server issued for this user
    /// and request (oversized, malformed, modified, truncated, another user's, tool's or
    /// arguments', sealed with a retired key) or has expired (JSON-RPC -32602).
    InvalidState,
    /// 2026-07-28: the request needs a client capability its `_meta` does not declare
    /// (JSON-RPC -32021 `MissingRequiredClientCapabilityError`, `data.requiredCapabilities`
    /// names it). On 2025-11-25 the same situation is [`ErrorKind::ModeNotSupported`].
    MissingCapability,
    /// A configuration value is unusable (a key file, a key ring).
    Config,
    /// A bug or an unexpected failure inside the server (a question key asked twice in
    /// one request, a value that cannot be serialized).
    Internal,
    /// The application's bookkeeping in
    /// [`Elicitations::complete_with`](crate::Elicitations::complete_with) failed, after
    /// the completion was recorded; no notification was sent. The application's error
    /// is the [`source`](std::error::Error::source).
    Bookkeeping,
    /// The user declined (a [`FormOutcome::Declined`](crate::FormOutcome::Declined)
    /// turned into an error by [`FormOutcome::accepted`](crate::FormOutcome::accepted)).
    UserDeclined,
    /// The user dismissed the request without choosing (a
    /// [`FormOutcome::Cancelled`](crate::FormOutcome::Cancelled) turned into an error by
    /// [`FormOutcome::accepted`](crate::FormOutcome::accepted)).
    UserCancelled,
    /// The request cannot be processed until these URL-mode elicitations complete
    /// (JSON-RPC `-32042`). Built only by
    /// [`Elicitor::url_required`](crate::Elicitor::url_required).
    UrlElicitationRequired,
}

impl ErrorKind {
    /// A short, stable, `snake_case` name (also sent as `data.kind`).
    ///
    /// A client (or a log query) can rely on it: the name does not change between versions.
    ///
    /// ```
    /// use mcp_elicit_server::{Error, ErrorKind};
    ///
    /// assert_eq!(ErrorKind::TooManyPending.code(), "too_many_pending");
    /// assert_eq!(ErrorKind::TooManyPending.to_string(), "too_many_pending"); // Display is the code
    /// let data = Error::new(ErrorKind::TooManyPending, "32 pending").to_error_data();
    /// assert_eq!(data.data.unwrap()["kind"], "too_many_pending");
    /// ```
    pub fn code(self) -> &'static str {
        match self {
            Self::SecretField => "secret_field",
            Self::InvalidSchema => "invalid_schema",
            Self::ModeNotSupported => "mode_not_supported",
            Self::UnsupportedProtocol => "unsupported_protocol",
            Self::NoIdentity => "no_identity",
            Self::InvalidUrl => "invalid_url",
            Self::InvalidContent => "invalid_content",
            Self::MalformedReply => "malformed_reply",
            Self::ClientError => "client_error",
            Self::Timeout => "timeout",
            Self::Cancelled => "cancelled",
            Self::Disconnected => "disconnected",
            Self::UnknownElicitation => "unknown_elicitation",
            Self::Deserialize => "deserialize",
            Self::TooManyPending => "too_many_pending",
            Self::StoreUnavailable => "store_unavailable",
            Self::Store => "store",
            Self::Random => "random",
            Self::UrlElicitationRequired => "url_elicitation_required",
            Self::InvalidState => "invalid_state",
            Self::MissingCapability => "missing_capability",
            Self::Config => "config",
            Self::Internal => "internal",
            Self::Bookkeeping => "bookkeeping",
            Self::UserDeclined => "user_declined",
            Self::UserCancelled => "user_cancelled",
        }
    }

    /// Whether this kind is what a person did rather than a fault: [`ErrorKind::InvalidContent`],
    /// [`ErrorKind::Timeout`], [`ErrorKind::UserDeclined`], [`ErrorKind::UserCancelled`].
    ///
    /// ```
    /// use mcp_elicit_server::ErrorKind;
    ///
    /// assert!(ErrorKind::UserDeclined.is_user_driven());
    /// assert!(ErrorKind::Timeout.is_user_driven());
    /// // What the client or the environment did is not.
    /// assert!(!ErrorKind::Disconnected.is_user_driven());
    /// assert!(!ErrorKind::StoreUnavailable.is_user_driven());
    /// ```
    pub fn is_user_driven(self) -> bool {
        matches!(
            self,
            Self::InvalidContent | Self::Timeout | Self::UserDeclined | Self::UserCancelled
        )
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}
