//! Client settings: [`Config`] and [`Limits`].

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::Implementation;

use crate::auth::Authorizer;
use crate::rate_limit::RateLimit;

/// Which protocol revision the client speaks.
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
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Largest `elicitation/create` params accepted, serialized (default 256 KiB).
    /// Larger requests are refused with -32602 before any parsing. The core parser
    /// enforces finer limits (message 64 KiB, URL 8 KiB, schema property counts...).
    pub max_params_bytes: usize,
    /// How many times a form is re-presented after invalid submissions before the
    /// client gives up and answers `cancel` (default 10).
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
    /// 403 `insufficient_scope`); see [`crate::auth`].
    pub fn with_authorizer(mut self, authorizer: Arc<Authorizer>) -> Self {
        self.authorizer = Some(authorizer);
        self
    }

    /// Sets the rate limit.
    pub fn with_rate_limit(mut self, rate_limit: RateLimit) -> Self {
        self.rate_limit = rate_limit;
        self
    }
    /// Sets the limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }
    /// Sets the prompt timeout.
    pub fn with_prompt_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.prompt_timeout = timeout;
        self
    }
    /// Sets the completion timeout.
    pub fn with_completion_timeout(mut self, timeout: Duration) -> Self {
        self.completion_timeout = timeout;
        self
    }
    /// Sets the retry rounds.
    pub fn with_max_retry_rounds(mut self, rounds: u32) -> Self {
        self.max_retry_rounds = rounds;
        self
    }
    /// Sets the protocol revision to speak.
    pub fn with_protocol(mut self, protocol: ProtocolChoice) -> Self {
        self.protocol = protocol;
        self
    }
    /// Sets the most input rounds per request (2026-07-28).
    pub fn with_max_input_rounds(mut self, rounds: u32) -> Self {
        self.max_input_rounds = rounds;
        self
    }
    /// Sets the "keep waiting" interval (2026-07-28).
    pub fn with_poll_interval(mut self, interval: Duration) -> Self {
        self.poll_interval = interval;
        self
    }
    /// Sets `clientInfo`.
    pub fn with_client_info(mut self, info: Implementation) -> Self {
        self.client_info = info;
        self
    }
}

impl Limits {
    /// Sets the params size limit.
    pub fn with_max_params_bytes(mut self, bytes: usize) -> Self {
        self.max_params_bytes = bytes;
        self
    }
    /// Sets the form attempts limit.
    pub fn with_max_form_attempts(mut self, attempts: u32) -> Self {
        self.max_form_attempts = attempts;
        self
    }
    /// Sets the most input requests per round (2026-07-28).
    pub fn with_max_input_requests(mut self, n: usize) -> Self {
        self.max_input_requests = n;
        self
    }
    /// Sets the largest `requestState` echoed back (2026-07-28).
    pub fn with_max_request_state_bytes(mut self, bytes: usize) -> Self {
        self.max_request_state_bytes = bytes;
        self
    }
    /// Sets the -32042 elicitation count limit.
    pub fn with_max_required_elicitations(mut self, n: usize) -> Self {
        self.max_required_elicitations = n;
        self
    }
}
