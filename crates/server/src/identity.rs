//! Who an elicitation belongs to: the user ([`Principal`]) and the client session
//! ([`SessionKey`]).
//!
//! The specification: servers MUST bind elicitation requests to the client and the user
//! identity, MUST NOT rely on client-provided user identification, and state MUST NOT be
//! associated with session ids alone. So:
//!
//! - the user is an authenticated [`Principal`] (a validated bearer token's `sub`) put
//!   into the request by *server-side* code, never anything the client asserts: an
//!   axum/tower middleware that validated the token inserts the `Principal` into the HTTP
//!   request's extensions, and rmcp copies the request's [`http::request::Parts`] into the
//!   MCP request's extensions, where [`Principal::from_extensions`] finds it. For stdio
//!   and loopback development, the binary passes the local OS user as data
//!   ([`IdentityPolicy::LocalUser`]);
//! - the session is the server-assigned `Mcp-Session-Id` on Streamable HTTP (rmcp's
//!   session manager has already refused unknown ids), else the connection
//!   ([`SessionScope`](crate::SessionScope)) the handler was built for;
//! - pending state is keyed by both, plus the elicitation id.

use std::fmt;

use rmcp::model::Extensions;

/// The HTTP header carrying the Streamable HTTP session id.
const SESSION_HEADER: &str = "mcp-session-id";

/// The session of 2026-07-28 URL elicitations.
const ROUNDS_SESSION: &str = "mrtr";

/// An authenticated user.
///
/// Build one only from verified credentials ([`Principal::authenticated`]: the issuer and
/// `sub` of a validated token) or from the operating system ([`Principal::local_user`]).
/// Two principals are the same user when issuer and subject are equal.
///
/// ```
/// use mcp_elicit_server::Principal;
///
/// let token_user = Principal::authenticated("https://auth.example.com", "user-42");
/// assert_eq!(token_user.subject(), "user-42");
/// assert!(!token_user.is_local());
/// assert_eq!(token_user.to_string(), "user-42 at https://auth.example.com");
///
/// // The same subject from another issuer is another user.
/// assert_ne!(token_user, Principal::authenticated("https://other.example", "user-42"));
///
/// let me = Principal::local_user("alice");
/// assert!(me.is_local());
/// assert_eq!(me.issuer(), mcp_elicit_server::LOCAL_ISSUER);
/// assert_eq!(me.to_string(), "local user alice");
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Principal {
    issuer: String,
    subject: String,
}

/// The issuer recorded for [`Principal::local_user`].
///
/// ```
/// use mcp_elicit_server::{LOCAL_ISSUER, Principal};
///
/// assert_eq!(LOCAL_ISSUER, "local-os-user");
/// assert_eq!(Principal::local_user("ada").issuer(), LOCAL_ISSUER);
/// // Only the issuer tells a local user apart; it is not a URL, so no validated token
/// // carries it.
/// assert_eq!(Principal::authenticated(LOCAL_ISSUER, "ada"), Principal::local_user("ada"));
/// ```
pub const LOCAL_ISSUER: &str = "local-os-user";

impl Principal {
    /// The subject (`sub`) of a token issued by `issuer`, after the token was validated.
    ///
    /// ```
    /// use mcp_elicit_server::Principal;
    ///
    /// let user = Principal::authenticated("https://auth.example.com", "user-42");
    /// assert_eq!((user.issuer(), user.subject()), ("https://auth.example.com", "user-42"));
    /// ```
    pub fn authenticated(issuer: impl Into<String>, subject: impl Into<String>) -> Self {
        Self {
            issuer: issuer.into(),
            subject: subject.into(),
        }
    }

    /// The user running the server process (stdio and loopback development).
    ///
    /// ```
    /// use mcp_elicit_server::Principal;
    ///
    /// let me = Principal::local_user("alice");
    /// assert!(me.is_local());
    /// assert_ne!(me, Principal::authenticated("https://auth.example.com", "alice"));
    /// ```
    pub fn local_user(name: impl Into<String>) -> Self {
        Self {
            issuer: LOCAL_ISSUER.into(),
            subject: name.into(),
        }
    }

    /// The OS user named by the environment: the first non-empty of `USER`, `LOGNAME`
    /// and `USERNAME` as `var` reads them, else `fallback()`. Only for the process's
    /// own user (stdio and loopback development), never for a remote client.
    ///
    /// ```
    /// use mcp_elicit_server::Principal;
    ///
    /// let env = |var: &str| (var == "LOGNAME").then(|| "alice".to_owned());
    /// assert_eq!(Principal::local_user_from_env(env, || "local".into()).subject(), "alice");
    /// // Nothing set (or only empty values): the fallback.
    /// let empty = |_: &str| Some(String::new());
    /// assert_eq!(Principal::local_user_from_env(empty, || "uid-1000".into()).subject(), "uid-1000");
    /// ```
    pub fn local_user_from_env(
        var: impl Fn(&str) -> Option<String>,
        fallback: impl FnOnce() -> String,
    ) -> Self {
        let name = ["USER", "LOGNAME", "USERNAME"]
            .iter()
            .find_map(|v| var(v).filter(|s| !s.is_empty()));
        Self::local_user(name.unwrap_or_else(fallback))
    }

    /// The user running this process: [`Principal::local_user_from_env`] over the
    /// process environment, falling back to `uid-<uid>` (Unix) or `local`.
    ///
    /// ```
    /// let me = mcp_elicit_server::Principal::current_local_user();
    /// assert!(me.is_local());
    /// assert!(!me.subject().is_empty());
    /// ```
    pub fn current_local_user() -> Self {
        Self::local_user_from_env(|v| std::env::var(v).ok(), uid_name)
    }

    /// Who issued the identity (`local-os-user` for [`Principal::local_user`]).
    ///
    /// ```
    /// use mcp_elicit_server::{LOCAL_ISSUER, Principal};
    ///
    /// assert_eq!(Principal::local_user("alice").issuer(), LOCAL_ISSUER);
    /// ```
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The subject within its issuer.
    ///
    /// ```
    /// use mcp_elicit_server::Principal;
    ///
    /// assert_eq!(Principal::local_user("alice").subject(), "alice");
    /// ```
    pub fn subject(&self) -> &str {
        &self.subject
    }

    /// Whether this is a local OS user rather than a token subject.
    ///
    /// ```
    /// use mcp_elicit_server::Principal;
    ///
    /// assert!(Principal::local_user("alice").is_local());
    /// assert!(!Principal::authenticated("https://auth.example.com", "alice").is_local());
    /// ```
    pub fn is_local(&self) -> bool {
        self.issuer == LOCAL_ISSUER
    }

    /// The principal a server-side layer attached to a request: directly in the MCP
    /// request's extensions, or in the extensions of the HTTP request rmcp copied there.
    /// Never read from anything the client sent.
    ///
    /// Your authentication middleware inserts the `Principal` into the HTTP request's
    /// extensions once the credentials are verified; rmcp's Streamable HTTP server puts
    /// the request's `http::request::Parts` into the MCP request's extensions, where
    /// this finds it:
    ///
    /// ```
    /// use mcp_elicit_server::Principal;
    /// use rmcp::model::Extensions;
    ///
    /// // In the middleware, after the bearer token was validated:
    /// let mut request = http::Request::new(());
    /// let user = Principal::authenticated("https://auth.example.com", "user-42");
    /// request.extensions_mut().insert(user.clone());
    ///
    /// // What rmcp does with the HTTP request, and what the registry reads:
    /// let (parts, ()) = request.into_parts();
    /// let mut extensions = Extensions::new();
    /// extensions.insert(parts);
    /// assert_eq!(Principal::from_extensions(&extensions), Some(user));
    ///
    /// // Nothing attached: no principal (never one made up from what the client sent).
    /// assert_eq!(Principal::from_extensions(&Extensions::new()), None);
    /// ```
    pub fn from_extensions(extensions: &Extensions) -> Option<Principal> {
        if let Some(p) = extensions.get::<Principal>() {
            return Some(p.clone());
        }
        extensions
            .get::<http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Principal>())
            .cloned()
    }
}

impl fmt::Debug for Principal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Principal({}#{})", self.issuer, self.subject)
    }
}

impl fmt::Display for Principal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_local() {
            write!(f, "local user {}", self.subject)
        } else {
            write!(f, "{} at {}", self.subject, self.issuer)
        }
    }
}

#[cfg(unix)]
fn uid_name() -> String {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self")
        .map(|m| format!("uid-{}", m.uid()))
        .unwrap_or_else(|_| "local".to_owned())
}

#[cfg(not(unix))]
fn uid_name() -> String {
    "local".to_owned()
}

/// How the user of a request is found.
///
/// ```
/// use mcp_elicit_server::{ElicitationConfig, IdentityPolicy, Principal};
///
/// // A remote server behind your auth middleware (it attaches the `Principal`):
/// let remote = ElicitationConfig::new(IdentityPolicy::Authenticated);
/// // A stdio server, or HTTP on loopback for the person running it:
/// let local = ElicitationConfig::new(IdentityPolicy::LocalUser(Principal::current_local_user()));
/// assert!(matches!(local.identity, IdentityPolicy::LocalUser(p) if p.is_local()));
/// # let _ = remote;
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum IdentityPolicy {
    /// Every request must carry an authenticated [`Principal`] (remote servers).
    Authenticated,
    /// Requests without an authenticated principal belong to this local user (stdio and
    /// loopback development). An authenticated principal, when present, still wins.
    LocalUser(Principal),
}

impl IdentityPolicy {
    /// The principal for a request with these extensions, if any.
    pub(crate) fn resolve(&self, extensions: &Extensions) -> Option<Principal> {
        Principal::from_extensions(extensions).or_else(|| match self {
            Self::Authenticated => None,
            Self::LocalUser(p) => Some(p.clone()),
        })
    }
}

/// The client session an elicitation was sent on.
///
/// What a store writes and reads back ([`PendingElicitation::session`](crate::PendingElicitation::session)):
///
/// ```
/// use mcp_elicit_server::SessionKey;
///
/// let key = SessionKey::from_stored("b3c1f0e2");
/// assert_eq!(SessionKey::from_stored(key.as_str()), key);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SessionKey(String);

impl SessionKey {
    /// A key from its stored form.
    ///
    /// ```
    /// use mcp_elicit_server::SessionKey;
    ///
    /// assert_eq!(SessionKey::from_stored("mcp-session:abc").as_str(), "mcp-session:abc");
    /// ```
    pub fn from_stored(text: impl Into<String>) -> Self {
        Self(text.into())
    }

    /// The stored form.
    ///
    /// ```
    /// use mcp_elicit_server::SessionKey;
    ///
    /// let key = SessionKey::from_stored("mcp-session:abc");
    /// assert_eq!(key.as_str(), "mcp-session:abc");
    /// ```
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The Streamable HTTP session of a request, from the HTTP request parts rmcp put in
    /// its extensions.
    pub(crate) fn from_http(extensions: &Extensions) -> Option<SessionKey> {
        let parts = extensions.get::<http::request::Parts>()?;
        let value = parts.headers.get(SESSION_HEADER)?.to_str().ok()?;
        if value.is_empty() {
            return None;
        }
        Some(SessionKey(format!("mcp-session:{value}")))
    }

    /// The key of 2026-07-28 URL elicitations: they belong to the user, not to a
    /// session (the revision has none).
    pub(crate) fn rounds() -> SessionKey {
        SessionKey(ROUNDS_SESSION.to_owned())
    }

    /// Whether this is [`SessionKey::rounds`].
    pub(crate) fn is_rounds(&self) -> bool {
        self.0 == ROUNDS_SESSION
    }

    /// A connection key.
    pub(crate) fn connection(id: &str) -> SessionKey {
        SessionKey(format!("connection:{id}"))
    }
}

impl fmt::Debug for SessionKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SessionKey({})", self.0)
    }
}

impl fmt::Display for SessionKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn principal_comes_from_http_parts_and_beats_the_local_fallback() {
        let mut request = http::Request::builder()
            .uri("/mcp")
            .body(())
            .expect("request");
        request
            .extensions_mut()
            .insert(Principal::authenticated("https://issuer", "alice"));
        let (parts, ()) = request.into_parts();
        let mut ext = Extensions::new();
        ext.insert(parts);
        let policy = IdentityPolicy::LocalUser(Principal::local_user("bob"));
        assert_eq!(
            policy.resolve(&ext),
            Some(Principal::authenticated("https://issuer", "alice"))
        );
        assert_eq!(
            IdentityPolicy::Authenticated.resolve(&Extensions::new()),
            None
        );
        assert_eq!(
            policy.resolve(&Extensions::new()),
            Some(Principal::local_user("bob"))
        );
    }

    #[test]
    fn the_local_user_comes_from_the_first_non_empty_user_variable() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(name, _)| *name == k)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        let fallback = || "uid-1000".to_owned();
        assert_eq!(
            Principal::local_user_from_env(env(&[("USER", "ada"), ("LOGNAME", "x")]), fallback),
            Principal::local_user("ada")
        );
        assert_eq!(
            Principal::local_user_from_env(env(&[("USER", ""), ("LOGNAME", "bob")]), fallback),
            Principal::local_user("bob")
        );
        assert_eq!(
            Principal::local_user_from_env(env(&[("USERNAME", "carol")]), fallback),
            Principal::local_user("carol")
        );
        let nobody = Principal::local_user_from_env(env(&[]), fallback);
        assert_eq!(nobody, Principal::local_user("uid-1000"));
        assert!(nobody.is_local());
    }

    #[test]
    fn session_key_reads_the_server_assigned_header() {
        let request = http::Request::builder()
            .header("Mcp-Session-Id", "abc")
            .body(())
            .expect("request");
        let (parts, ()) = request.into_parts();
        let mut ext = Extensions::new();
        ext.insert(parts);
        assert_eq!(
            SessionKey::from_http(&ext).map(|k| k.0),
            Some("mcp-session:abc".to_owned())
        );
    }
}
