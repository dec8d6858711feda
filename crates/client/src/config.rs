//! Client settings: [`Config`] and [`Limits`].

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::Implementation;

use crate::auth::Authorizer;
use crate::rate_limit::RateLimit;

/// Which protocol revision the client speaks (default [`Auto`](Self::Auto)).
///
/// Parsed from its written form: `auto`, `2025-11-25` or `2026-07-28` (exactly, lowercase).
///
/// ```
/// use mcp_elicit_client::{Config, ProtocolChoice};
///
/// assert_eq!(ProtocolChoice::default(), ProtocolChoice::Auto);
/// assert_eq!(Config::default().protocol, ProtocolChoice::Auto);
///
/// assert_eq!("auto".parse(), Ok(ProtocolChoice::Auto));
/// assert_eq!("2025-11-25".parse(), Ok(ProtocolChoice::V2025_11_25));
/// assert_eq!("2026-07-28".parse(), Ok(ProtocolChoice::V2026_07_28));
/// // Anything else is refused with a sentence naming the accepted forms.
/// let err = "2024-11-05".parse::<ProtocolChoice>().unwrap_err();
/// assert_eq!(
///     err,
///     "unknown protocol revision \"2024-11-05\" (use 2025-11-25, 2026-07-28 or auto)"
/// );
/// assert!("AUTO".parse::<ProtocolChoice>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ProtocolChoice {
    /// 2026-07-28 when the server offers it (`server/discover`), else 2025-11-25
    /// (`initialize`).
    #[default]
    Auto,
    /// 2025-11-25 only (`initialize`, server-to-client `elicitation/create`).
    V2025_11_25,
    /// 2026-07-28 only (`server/discover`, `InputRequiredResult` rounds); a server that
    /// does not speak it is an error.
    V2026_07_28,
}

impl ProtocolChoice {
    /// The rmcp lifecycle that speaks this choice: `initialize` for 2025-11-25,
    /// `server/discover` for 2026-07-28, and for `Auto` a `server/discover` probe that
    /// falls back to `initialize` (2025-11-25) when the server does not know it. For a
    /// client of its own on rmcp (a gateway's upstream half) that should negotiate as
    /// this crate's client does.
    ///
    /// ```
    /// use mcp_elicit_client::ProtocolChoice;
    /// use mcp_elicit_client::rmcp::service::ClientLifecycleMode;
    ///
    /// assert_eq!(ProtocolChoice::V2025_11_25.lifecycle(), ClientLifecycleMode::Initialize);
    /// assert!(matches!(
    ///     ProtocolChoice::Auto.lifecycle(),
    ///     ClientLifecycleMode::Auto { legacy_version: Some(_), .. }
    /// ));
    /// ```
    pub fn lifecycle(self) -> rmcp::service::ClientLifecycleMode {
        use rmcp::model::ProtocolVersion;
        use rmcp::service::ClientLifecycleMode;
        match self {
            Self::V2025_11_25 => ClientLifecycleMode::Initialize,
            Self::V2026_07_28 => ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
            Self::Auto => ClientLifecycleMode::Auto {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                legacy_version: Some(ProtocolVersion::V_2025_11_25),
            },
        }
    }
}

impl std::str::FromStr for ProtocolChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "auto" => Ok(Self::Auto),
            "2025-11-25" => Ok(Self::V2025_11_25),
            "2026-07-28" => Ok(Self::V2026_07_28),
            other => Err(format!(
                "unknown protocol revision {other:?} (use 2025-11-25, 2026-07-28 or auto)"
            )),
        }
    }
}

/// Size and count limits on what a server may send.
///
/// Defaults: params 256 KiB, 10 form attempts, 8 URL elicitations per -32042 error,
/// 16 input requests per round and a 64 KiB `requestState` (2026-07-28).
///
/// ```
/// use mcp_elicit_client::Limits;
///
/// let limits = Limits::default();
/// assert_eq!(limits.max_params_bytes, 256 * 1024);
/// assert_eq!(limits.max_form_attempts, 10);
/// assert_eq!(limits.max_required_elicitations, 8);
/// assert_eq!(limits.max_input_requests, 16);
/// assert_eq!(limits.max_request_state_bytes, 64 * 1024);
///
/// // `Limits` is `#[non_exhaustive]`: outside this crate, change it with the `with_*`
/// // methods; what is not set keeps its default.
/// let strict = Limits::default()
///     .with_max_params_bytes(16 * 1024)
///     .with_max_form_attempts(3);
/// assert_eq!(strict.max_params_bytes, 16 * 1024);
/// assert_eq!(strict.max_form_attempts, 3);
/// assert_eq!(strict.max_input_requests, 16);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Largest `elicitation/create` params accepted, serialized (default 256 KiB).
    /// Larger requests are refused with -32602 before any parsing. The core parser
    /// enforces finer limits (message 64 KiB, URL 8 KiB, schema property counts...).
    pub max_params_bytes: usize,
    /// How many times one form is shown in all, the first time included, while its
    /// submissions are invalid; after the last invalid one the client answers `cancel`
    /// (default 10; 0 counts as 1).
    pub max_form_attempts: u32,
    /// Most URL elicitations presented for one -32042 error (default 8); an error
    /// listing more is not presented.
    pub max_required_elicitations: usize,
    /// Most input requests in one `InputRequiredResult` (2026-07-28, default 16); a
    /// result asking for more ends the call with an error, nothing is shown.
    pub max_input_requests: usize,
    /// Largest `requestState` echoed back (2026-07-28, default 64 KiB); a larger one
    /// ends the call with an error.
    pub max_request_state_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_params_bytes: 256 * 1024,
            max_form_attempts: 10,
            max_required_elicitations: 8,
            max_input_requests: 16,
            max_request_state_bytes: 64 * 1024,
        }
    }
}

/// How the client behaves.
///
/// Every default, as `Config::default()` sets it:
///
/// ```
/// use std::time::Duration;
/// use mcp_elicit_client::{Config, Limits, ProtocolChoice, RateLimit};
///
/// let config = Config::default();
/// assert_eq!(config.client_info.name, "mcp-elicit"); // version: this crate's
/// assert_eq!(
///     config.rate_limit,
///     RateLimit { burst: 5, refill_every: Duration::from_secs(10) }
/// );
/// assert_eq!(config.limits, Limits::default());
/// assert_eq!(config.prompt_timeout, Some(Duration::from_secs(600)));
/// assert_eq!(config.completion_timeout, Duration::from_secs(120));
/// assert_eq!(config.max_retry_rounds, 3);
/// assert_eq!(config.protocol, ProtocolChoice::Auto);
/// assert_eq!(config.max_input_rounds, 10);
/// assert_eq!(config.poll_interval, Duration::from_secs(5));
/// assert!(config.authorizer.is_none());
///
/// // `Config` is `#[non_exhaustive]`: build it from the default with the `with_*` methods.
/// // A host for trusted scripts: no prompt timeout, a larger burst, 2025-11-25 only.
/// let scripted = Config::default()
///     .with_prompt_timeout(None)
///     .with_rate_limit(RateLimit::parse("20/1")?)
///     .with_protocol(ProtocolChoice::V2025_11_25);
/// assert_eq!(scripted.prompt_timeout, None);
/// assert_eq!(scripted.rate_limit.burst, 20);
/// assert_eq!(scripted.max_retry_rounds, 3); // untouched
/// # Ok::<(), String>(())
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Config {
    /// `clientInfo` sent in `initialize` (2025-11-25) or in every request's `_meta`
    /// (2026-07-28).
    pub client_info: Implementation,
    /// Per-server rate limit on elicitation requests (default: burst 5, 1 per 10 s).
    pub rate_limit: RateLimit,
    /// Size limits.
    pub limits: Limits,
    /// How long a prompt may stay unanswered before it is answered `cancel`
    /// (default 10 minutes; `None` waits forever).
    pub prompt_timeout: Option<Duration>,
    /// How long a call waits for completion notifications after -32042 before the
    /// user is offered retry now / keep waiting / cancel (default 120 s).
    pub completion_timeout: Duration,
    /// How many times a call is retried after -32042 (default 3).
    pub max_retry_rounds: u32,
    /// Which protocol revision to speak (default: 2026-07-28 when the server offers it,
    /// else 2025-11-25).
    pub protocol: ProtocolChoice,
    /// Most `InputRequiredResult` rounds one 2026-07-28 request may take, retries after
    /// "still waiting" included (default 10, as in the other SDKs).
    pub max_input_rounds: u32,
    /// 2026-07-28: how long "keep waiting" waits before retrying a request the server
    /// answered "still waiting" (default 5 s).
    pub poll_interval: Duration,
    /// MCP authorization for HTTP servers (default none: a 401 ends the connection).
    pub authorizer: Option<Arc<Authorizer>>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            client_info: Implementation::new("mcp-elicit", env!("CARGO_PKG_VERSION")),
            rate_limit: RateLimit::default(),
            limits: Limits::default(),
            prompt_timeout: Some(Duration::from_secs(600)),
            completion_timeout: Duration::from_secs(120),
            max_retry_rounds: 3,
            protocol: ProtocolChoice::Auto,
            max_input_rounds: 10,
            poll_interval: Duration::from_secs(5),
            authorizer: None,
        }
    }
}

impl Config {
    /// Signs in to the HTTP server with `authorizer` when it answers 401 (and steps up on
    /// 403 `insufficient_scope`); see [`crate::auth`]. Used by
    /// [`ElicitationClient::connect`](crate::ElicitationClient::connect) for `http(s)`
    /// targets only.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mcp_elicit_client::Config;
    /// use mcp_elicit_client::auth::{AuthConfig, Authorizer, HeadlessRedirect, MemoryTokenStore};
    ///
    /// let authorizer = Arc::new(Authorizer::new(
    ///     "https://mcp.example.com/mcp",
    ///     AuthConfig::new("my-host"),
    ///     Arc::new(MemoryTokenStore::default()),
    ///     Arc::new(HeadlessRedirect::new("http://127.0.0.1:8976/callback")),
    /// )?);
    /// let config = Config::default().with_authorizer(authorizer.clone());
    /// assert!(Arc::ptr_eq(config.authorizer.as_ref().unwrap(), &authorizer));
    /// # Ok::<(), mcp_elicit_client::auth::AuthError>(())
    /// ```
    pub fn with_authorizer(mut self, authorizer: Arc<Authorizer>) -> Self {
        self.authorizer = Some(authorizer);
        self
    }

    /// Sets the per-server rate limit (default: burst 5, one more every 10 s).
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_elicit_client::{Config, RateLimit};
    ///
    /// let config = Config::default().with_rate_limit(RateLimit::parse("2/30")?);
    /// assert_eq!(config.rate_limit.burst, 2);
    /// assert_eq!(config.rate_limit.refill_every, Duration::from_secs(30));
    /// // Trusted, scripted use: no limit in practice.
    /// let trusted = Config::default().with_rate_limit(RateLimit::UNLIMITED);
    /// assert_eq!(trusted.rate_limit.burst, u32::MAX);
    /// # Ok::<(), String>(())
    /// ```
    pub fn with_rate_limit(mut self, rate_limit: RateLimit) -> Self {
        self.rate_limit = rate_limit;
        self
    }
    /// Sets the size and count limits (default `Limits::default()`).
    ///
    /// ```
    /// use mcp_elicit_client::{Config, Limits};
    ///
    /// let config = Config::default().with_limits(Limits::default().with_max_form_attempts(1));
    /// assert_eq!(config.limits.max_form_attempts, 1);
    /// ```
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }
    /// Sets how long a prompt may stay unanswered before the server gets `cancel`
    /// (default 10 minutes); `None` waits forever.
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_elicit_client::Config;
    ///
    /// let kiosk = Config::default().with_prompt_timeout(Some(Duration::from_secs(60)));
    /// assert_eq!(kiosk.prompt_timeout, Some(Duration::from_secs(60)));
    /// assert_eq!(Config::default().with_prompt_timeout(None).prompt_timeout, None);
    /// ```
    pub fn with_prompt_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.prompt_timeout = timeout;
        self
    }
    /// Sets how long a call waits for completion notifications after -32042 before the
    /// user is asked ([`ElicitationUi::completion_stalled`](crate::ElicitationUi::completion_stalled));
    /// default 120 s. Each "keep waiting" waits this long again.
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_elicit_client::Config;
    ///
    /// let config = Config::default().with_completion_timeout(Duration::from_secs(30));
    /// assert_eq!(config.completion_timeout, Duration::from_secs(30));
    /// ```
    pub fn with_completion_timeout(mut self, timeout: Duration) -> Self {
        self.completion_timeout = timeout;
        self
    }
    /// Sets how many times a call is retried after -32042 (default 3). With 0 the first
    /// -32042 ends the call at once with [`CallError::RoundsExhausted`](crate::CallError::RoundsExhausted)
    /// (`rounds: 0`), without presenting anything.
    ///
    /// ```
    /// use mcp_elicit_client::Config;
    ///
    /// assert_eq!(Config::default().with_max_retry_rounds(1).max_retry_rounds, 1);
    /// ```
    pub fn with_max_retry_rounds(mut self, rounds: u32) -> Self {
        self.max_retry_rounds = rounds;
        self
    }
    /// Sets the protocol revision to speak (default [`ProtocolChoice::Auto`]).
    ///
    /// ```
    /// use mcp_elicit_client::{Config, ProtocolChoice};
    ///
    /// let config = Config::default().with_protocol("2025-11-25".parse()?);
    /// assert_eq!(config.protocol, ProtocolChoice::V2025_11_25);
    /// # Ok::<(), String>(())
    /// ```
    pub fn with_protocol(mut self, protocol: ProtocolChoice) -> Self {
        self.protocol = protocol;
        self
    }
    /// Sets the most input rounds per request (2026-07-28, default 10); one more
    /// `InputRequiredResult` ends the call with
    /// [`CallError::InputRoundsExhausted`](crate::CallError::InputRoundsExhausted).
    ///
    /// ```
    /// use mcp_elicit_client::Config;
    ///
    /// assert_eq!(Config::default().with_max_input_rounds(4).max_input_rounds, 4);
    /// ```
    pub fn with_max_input_rounds(mut self, rounds: u32) -> Self {
        self.max_input_rounds = rounds;
        self
    }
    /// Sets the "keep waiting" interval (2026-07-28, default 5 s): how long the client
    /// waits before retrying a request the server answered "still waiting" when
    /// [`ElicitationUi::still_waiting`](crate::ElicitationUi::still_waiting) chose
    /// [`StallChoice::KeepWaiting`](crate::StallChoice::KeepWaiting).
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_elicit_client::Config;
    ///
    /// let config = Config::default().with_poll_interval(Duration::from_millis(500));
    /// assert_eq!(config.poll_interval, Duration::from_millis(500));
    /// ```
    pub fn with_poll_interval(mut self, interval: Duration) -> Self {
        self.poll_interval = interval;
        self
    }
    /// Sets `clientInfo` (default: name `mcp-elicit`, this crate's version).
    ///
    /// ```
    /// use mcp_elicit_client::Config;
    /// use mcp_elicit_client::rmcp::model::Implementation;
    ///
    /// let config = Config::default()
    ///     .with_client_info(Implementation::new("my-host", "2.1.0").with_title("My Host"));
    /// assert_eq!(config.client_info.name, "my-host");
    /// assert_eq!(config.client_info.title.as_deref(), Some("My Host"));
    /// ```
    pub fn with_client_info(mut self, info: Implementation) -> Self {
        self.client_info = info;
        self
    }
}

impl Limits {
    /// Sets the largest `elicitation/create` params accepted, serialized (default 256 KiB);
    /// larger requests are refused with -32602 before parsing.
    ///
    /// ```
    /// use mcp_elicit_client::Limits;
    ///
    /// assert_eq!(Limits::default().with_max_params_bytes(4096).max_params_bytes, 4096);
    /// ```
    pub fn with_max_params_bytes(mut self, bytes: usize) -> Self {
        self.max_params_bytes = bytes;
        self
    }
    /// Sets how many times one form is presented, the first time included (default 10);
    /// after that many invalid submissions the server gets `cancel` and the user a
    /// [`Notice::GaveUp`](crate::Notice::GaveUp). 0 counts as 1.
    ///
    /// ```
    /// use mcp_elicit_client::Limits;
    ///
    /// assert_eq!(Limits::default().with_max_form_attempts(3).max_form_attempts, 3);
    /// ```
    pub fn with_max_form_attempts(mut self, attempts: u32) -> Self {
        self.max_form_attempts = attempts;
        self
    }
    /// Sets the most input requests per round (2026-07-28, default 16).
    ///
    /// ```
    /// use mcp_elicit_client::Limits;
    ///
    /// assert_eq!(Limits::default().with_max_input_requests(4).max_input_requests, 4);
    /// ```
    pub fn with_max_input_requests(mut self, n: usize) -> Self {
        self.max_input_requests = n;
        self
    }
    /// Sets the largest `requestState` echoed back (2026-07-28, default 64 KiB).
    ///
    /// ```
    /// use mcp_elicit_client::Limits;
    ///
    /// let limits = Limits::default().with_max_request_state_bytes(8 * 1024);
    /// assert_eq!(limits.max_request_state_bytes, 8 * 1024);
    /// ```
    pub fn with_max_request_state_bytes(mut self, bytes: usize) -> Self {
        self.max_request_state_bytes = bytes;
        self
    }
    /// Sets the most URL elicitations one -32042 error may list (default 8); an error
    /// listing more ends the call with
    /// [`NotCompleted::TooMany`](crate::NotCompleted::TooMany), nothing presented.
    ///
    /// ```
    /// use mcp_elicit_client::Limits;
    ///
    /// let limits = Limits::default().with_max_required_elicitations(2);
    /// assert_eq!(limits.max_required_elicitations, 2);
    /// ```
    pub fn with_max_required_elicitations(mut self, n: usize) -> Self {
        self.max_required_elicitations = n;
        self
    }
}
