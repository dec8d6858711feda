//! [`ElicitationConfig`]: the settings of the elicitation API.

use std::time::Duration;

use mcp_elicit_core::danger::ReviewedNotSecret;

#[cfg(doc)]
use crate::ErrorKind;
use crate::identity::IdentityPolicy;
use crate::session_limits::SessionLimits;
use crate::state::StateKeys;

/// rmcp's default idle timeout of a Streamable HTTP session.
const DEFAULT_SESSION_IDLE_TIMEOUT: Duration = Duration::from_secs(5 * 60);

/// The default of [`ElicitationConfig::sweep_interval`].
const DEFAULT_SWEEP_INTERVAL: Duration = Duration::from_secs(60);

/// Settings of the elicitation API.
///
/// Every default, as [`ElicitationConfig::new`] sets it:
///
/// | setting | default |
/// |---|---|
/// | [`form_timeout`](ElicitationConfig::form_timeout) | 10 minutes |
/// | [`url_consent_timeout`](ElicitationConfig::url_consent_timeout) | 10 minutes |
/// | [`url_ttl`](ElicitationConfig::url_ttl) | 1 hour |
/// | [`max_attempts`](ElicitationConfig::max_attempts) | 2 (one re-ask naming the rule that failed) |
/// | [`allow_loopback_http`](ElicitationConfig::allow_loopback_http) | true |
/// | [`reviewed_not_secret`](ElicitationConfig::reviewed_not_secret) | none |
/// | [`max_pending_per_user`](ElicitationConfig::max_pending_per_user) | 32 (expired ones never count) |
/// | [`session_idle_timeout`](ElicitationConfig::session_idle_timeout) | 5 minutes (rmcp's), raised to [`session_keep_alive`](ElicitationConfig::session_keep_alive) = 10 minutes 1 second |
/// | [`sweep_interval`](ElicitationConfig::sweep_interval) | 60 seconds, on insert |
/// | [`state_keys`](ElicitationConfig::state_keys) | a random key per process |
/// | [`session_limits`](ElicitationConfig::session_limits) | [`SessionLimits::default`]: 32 requests in progress per session, 256 per user, 256 sessions per user, unused sessions closed after 30 s, idle ones after 5 minutes |
///
/// ```
/// use std::time::Duration;
/// use mcp_elicit_server::{ElicitationConfig, IdentityPolicy, Principal};
///
/// let config = ElicitationConfig::new(IdentityPolicy::LocalUser(Principal::local_user("alice")))
///     .with_timeout(Duration::from_secs(120))
///     .with_max_pending_per_user(4)
///     .with_max_attempts(1); // no re-ask
/// assert_eq!(config.max_attempts, 1);
/// assert_eq!(config.sweep_interval, Some(Duration::from_secs(60)));
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ElicitationConfig {
    /// How the user of a request is found.
    pub identity: IdentityPolicy,
    /// How long a form waits for the user (default 10 minutes: humans are slow).
    pub form_timeout: Duration,
    /// How long a URL-mode request waits for the user's consent answer (default 10 minutes).
    pub url_consent_timeout: Duration,
    /// How long a URL-mode elicitation stays pending waiting for its out-of-band
    /// completion (default 1 hour); swept afterwards.
    pub url_ttl: Duration,
    /// How many times a form is asked when the answer breaks the schema (default 2: the
    /// user is asked once more; 1 turns re-asking off). Each re-ask repeats the message
    /// followed by every rule the answer broke (a client may not show a `pattern`, say,
    /// so the user cannot know it until told); on 2026-07-28 the re-ask is a new round.
    /// After the last attempt the answer is an [`ErrorKind::InvalidContent`] error.
    pub max_attempts: u32,
    /// Whether URL-mode URLs may be plain `http` on loopback hosts (default true, for
    /// development); everything else must be `https`.
    pub allow_loopback_http: bool,
    /// Properties a reviewer checked are not secrets although the secret-field lint
    /// flags them (each with its reason; see [`mcp_elicit_core::danger`]).
    pub reviewed_not_secret: ReviewedNotSecret,
    /// How many elicitations one user may have pending at once (default 32); more are
    /// refused with [`ErrorKind::TooManyPending`]. Records past their expiry never count,
    /// whether or not a sweep has removed them yet.
    pub max_pending_per_user: usize,
    /// How long a client session may stay idle before it is closed (default 5 minutes,
    /// rmcp's default); raised by [`ElicitationConfig::session_keep_alive`] to cover the
    /// longest wait for the user. [`Elicitations::router`](crate::Elicitations::router)
    /// and [`session_manager`](crate::session_manager) apply it.
    pub session_idle_timeout: Duration,
    /// How often expired elicitations are swept from the store (default 60 seconds).
    /// Sweeping is on by default and needs no task of its own: the registry sweeps when
    /// an elicitation is stored, at most once per interval, so state only grows with new
    /// elicitations and each new one clears what expired before it. `None` turns the
    /// automatic sweep off (call [`Elicitations::sweep`](crate::Elicitations::sweep)
    /// yourself). Expired records are refused on access and never counted in a quota
    /// either way.
    pub sweep_interval: Option<Duration>,
    /// The keys that seal 2026-07-28 `requestState` (default: none configured, and a
    /// random key per process is made on first use: right for one process, wrong for
    /// several nodes, which must share one ring).
    pub state_keys: Option<StateKeys>,
    /// The limits [`Elicitations::router`](crate::Elicitations::router) enforces on
    /// `/mcp`: requests in progress per session and per user, sessions per user, unused
    /// and idle sessions (default [`SessionLimits::default`]; over a cap: 429 with
    /// `Retry-After`, JSON-RPC `-32000` naming the limit). With
    /// [`IdentityPolicy::LocalUser`] every request without an authenticated principal is
    /// that one user, so the per-user caps are caps on the whole server.
    pub session_limits: SessionLimits,
}

impl ElicitationConfig {
    /// The defaults, with the given identity policy.
    ///
    /// Every default, as the table above states it:
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_elicit_server::{ElicitationConfig, IdentityPolicy, SessionLimits};
    ///
    /// let c = ElicitationConfig::new(IdentityPolicy::Authenticated);
    /// assert!(matches!(c.identity, IdentityPolicy::Authenticated));
    /// assert_eq!(c.form_timeout, Duration::from_secs(10 * 60));
    /// assert_eq!(c.url_consent_timeout, Duration::from_secs(10 * 60));
    /// assert_eq!(c.url_ttl, Duration::from_secs(60 * 60));
    /// assert_eq!(c.max_attempts, 2);
    /// assert!(c.allow_loopback_http);
    /// assert!(c.reviewed_not_secret.is_empty());
    /// assert_eq!(c.max_pending_per_user, 32);
    /// assert_eq!(c.session_idle_timeout, Duration::from_secs(5 * 60));
    /// assert_eq!(c.session_keep_alive(), Duration::from_secs(10 * 60 + 1));
    /// assert_eq!(c.sweep_interval, Some(Duration::from_secs(60)));
    /// assert!(c.state_keys.is_none());
    /// assert_eq!(c.session_limits, SessionLimits::default());
    /// ```
    pub fn new(identity: IdentityPolicy) -> Self {
        Self {
            identity,
            form_timeout: Duration::from_secs(10 * 60),
            url_consent_timeout: Duration::from_secs(10 * 60),
            url_ttl: Duration::from_secs(60 * 60),
            max_attempts: 2,
            allow_loopback_http: true,
            reviewed_not_secret: ReviewedNotSecret::new(),
            max_pending_per_user: 32,
            session_idle_timeout: DEFAULT_SESSION_IDLE_TIMEOUT,
            sweep_interval: Some(DEFAULT_SWEEP_INTERVAL),
            state_keys: None,
            session_limits: SessionLimits::default(),
        }
    }

    /// Sets [`ElicitationConfig::state_keys`].
    ///
    /// Every node of a deployment needs the same ring (the default, a random key per process,
    /// only suits one process):
    ///
    /// ```
    /// use mcp_elicit_server::{ElicitationConfig, IdentityPolicy, StateKeys};
    ///
    /// let keys = StateKeys::new("2026-12", [("2026-12", [7u8; 32])])?;
    /// let config = ElicitationConfig::new(IdentityPolicy::Authenticated).with_state_keys(keys);
    /// assert_eq!(config.state_keys.as_ref().map(|k| k.signing_id()), Some("2026-12"));
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn with_state_keys(mut self, keys: StateKeys) -> Self {
        self.state_keys = Some(keys);
        self
    }

    /// Sets [`ElicitationConfig::form_timeout`] and [`ElicitationConfig::url_consent_timeout`].
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_elicit_server::{ElicitationConfig, IdentityPolicy};
    ///
    /// let config = ElicitationConfig::new(IdentityPolicy::Authenticated)
    ///     .with_timeout(Duration::from_secs(120));
    /// assert_eq!(config.form_timeout, Duration::from_secs(120));
    /// assert_eq!(config.url_consent_timeout, Duration::from_secs(120));
    /// // Sessions still live at least as long as rmcp's idle timeout.
    /// assert_eq!(config.session_keep_alive(), Duration::from_secs(5 * 60));
    /// ```
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.form_timeout = timeout;
        self.url_consent_timeout = timeout;
        self
    }

    /// Sets [`ElicitationConfig::url_ttl`].
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_elicit_server::{ElicitationConfig, IdentityPolicy};
    ///
    /// // A payment confirmation page that must be finished within 15 minutes.
    /// let config = ElicitationConfig::new(IdentityPolicy::Authenticated)
    ///     .with_url_ttl(Duration::from_secs(15 * 60));
    /// assert_eq!(config.url_ttl, Duration::from_secs(900));
    /// ```
    pub fn with_url_ttl(mut self, ttl: Duration) -> Self {
        self.url_ttl = ttl;
        self
    }

    /// Sets [`ElicitationConfig::max_pending_per_user`].
    ///
    /// ```
    /// use mcp_elicit_server::{ElicitationConfig, IdentityPolicy};
    ///
    /// let config = ElicitationConfig::new(IdentityPolicy::Authenticated).with_max_pending_per_user(4);
    /// assert_eq!(config.max_pending_per_user, 4);
    /// ```
    pub fn with_max_pending_per_user(mut self, max: usize) -> Self {
        self.max_pending_per_user = max;
        self
    }

    /// Sets [`ElicitationConfig::reviewed_not_secret`].
    ///
    /// ```
    /// use mcp_elicit_server::mcp_elicit_core::danger::ReviewedNotSecret;
    /// use mcp_elicit_server::{ElicitationConfig, IdentityPolicy};
    ///
    /// // `token_count` looks like a token to the lint, but is a number of tokens.
    /// let reviewed = ReviewedNotSecret::new().allow("token_count", "a count, not a credential");
    /// let config = ElicitationConfig::new(IdentityPolicy::Authenticated).with_reviewed_not_secret(reviewed);
    /// assert!(config.reviewed_not_secret.is_allowed("token_count"));
    /// assert!(!config.reviewed_not_secret.is_allowed("api_token"));
    /// ```
    pub fn with_reviewed_not_secret(mut self, reviewed: ReviewedNotSecret) -> Self {
        self.reviewed_not_secret = reviewed;
        self
    }

    /// Sets [`ElicitationConfig::max_attempts`] (at least 1).
    ///
    /// ```
    /// use mcp_elicit_server::{ElicitationConfig, IdentityPolicy};
    ///
    /// let base = ElicitationConfig::new(IdentityPolicy::Authenticated);
    /// assert_eq!(base.clone().with_max_attempts(3).max_attempts, 3);
    /// assert_eq!(base.with_max_attempts(0).max_attempts, 1); // never fewer than one ask
    /// ```
    pub fn with_max_attempts(mut self, attempts: u32) -> Self {
        self.max_attempts = attempts.max(1);
        self
    }

    /// Sets [`ElicitationConfig::sweep_interval`] (`None`: no automatic sweep).
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_elicit_server::{ElicitationConfig, IdentityPolicy};
    ///
    /// let base = ElicitationConfig::new(IdentityPolicy::Authenticated);
    /// let hourly = base.clone().with_sweep_interval(Some(Duration::from_secs(3600)));
    /// assert_eq!(hourly.sweep_interval, Some(Duration::from_secs(3600)));
    /// // Off: call `Elicitations::sweep` from a task of your own.
    /// assert_eq!(base.with_sweep_interval(None).sweep_interval, None);
    /// ```
    pub fn with_sweep_interval(mut self, interval: Option<Duration>) -> Self {
        self.sweep_interval = interval;
        self
    }

    /// Sets [`ElicitationConfig::session_limits`].
    ///
    /// ```
    /// use mcp_elicit_server::{ElicitationConfig, IdentityPolicy, SessionLimits};
    ///
    /// let mut limits = SessionLimits::default();
    /// limits.max_sessions_per_user = 8;
    /// let config = ElicitationConfig::new(IdentityPolicy::Authenticated).with_session_limits(limits);
    /// assert_eq!(config.session_limits.max_sessions_per_user, 8);
    /// assert_eq!(config.session_limits.max_requests_per_session, 32); // the rest unchanged
    /// ```
    pub fn with_session_limits(mut self, limits: SessionLimits) -> Self {
        self.session_limits = limits;
        self
    }

    /// Sets [`ElicitationConfig::session_idle_timeout`].
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_elicit_server::{ElicitationConfig, IdentityPolicy};
    ///
    /// let config = ElicitationConfig::new(IdentityPolicy::Authenticated)
    ///     .with_session_idle_timeout(Duration::from_secs(30 * 60));
    /// assert_eq!(config.session_idle_timeout, Duration::from_secs(1800));
    /// // Longer than any wait for the user: it is the keep-alive as given.
    /// assert_eq!(config.session_keep_alive(), Duration::from_secs(1800));
    /// ```
    pub fn with_session_idle_timeout(mut self, idle: Duration) -> Self {
        self.session_idle_timeout = idle;
        self
    }

    /// How long a Streamable HTTP session may go without any message before the transport
    /// closes it: the idle timeout, but never less than the longest a request to the
    /// client waits for the user (a form, or consent to a URL) plus a second. A session
    /// waiting on a slow user exchanges nothing, and closing it would cut the user off
    /// before the form timeout. With the defaults: 10 minutes 1 second (rmcp alone would
    /// close the session after 5 minutes, while a form waits up to 10).
    ///
    /// Where it goes: into the Streamable HTTP session manager. [`Elicitations::router`]
    /// and [`session_manager`](crate::session_manager) put it there for you; with rmcp's
    /// `StreamableHttpService` directly, pass the manager they build:
    ///
    /// ```
    /// use mcp_elicit_server::rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    /// use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
    ///
    /// let config = ElicitationConfig::new(IdentityPolicy::LocalUser(Principal::local_user("a")));
    /// let hub = Elicitations::new(config);
    /// // What `StreamableHttpService::new(factory, sessions, http_config)` must get:
    /// let sessions: std::sync::Arc<LocalSessionManager> = hub.session_manager();
    /// assert_eq!(
    ///     sessions.session_config.keep_alive,
    ///     Some(hub.config().session_keep_alive())
    /// );
    /// ```
    ///
    /// [`Elicitations::router`]: crate::Elicitations::router
    pub fn session_keep_alive(&self) -> Duration {
        let longest_wait = self.form_timeout.max(self.url_consent_timeout);
        self.session_idle_timeout
            .max(longest_wait.saturating_add(Duration::from_secs(1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identity::Principal;

    #[test]
    fn sessions_live_at_least_as_long_as_the_longest_wait_for_the_user() {
        let config = ElicitationConfig::new(IdentityPolicy::LocalUser(Principal::local_user("a")));
        // Defaults: forms wait 10 minutes, rmcp would close an idle session after 5.
        assert_eq!(
            config.session_keep_alive(),
            Duration::from_secs(10 * 60 + 1)
        );
        let short = config
            .clone()
            .with_timeout(Duration::from_secs(30))
            .with_session_idle_timeout(Duration::from_secs(120));
        assert_eq!(short.session_keep_alive(), Duration::from_secs(120));
        let mut url_longer = config.with_timeout(Duration::from_secs(30));
        url_longer.url_consent_timeout = Duration::from_secs(900);
        assert_eq!(url_longer.session_keep_alive(), Duration::from_secs(901));
    }
}
