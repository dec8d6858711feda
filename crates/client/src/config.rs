//! Client settings: [`Config`] and [`Limits`].

use std::time::Duration;

use rmcp::model::Implementation;

use crate::rate_limit::RateLimit;

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
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_params_bytes: 256 * 1024,
            max_form_attempts: 10,
            max_required_elicitations: 8,
        }
    }
}

/// How the client behaves.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Config {
    /// `clientInfo` sent in `initialize`.
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
        }
    }
}

impl Config {
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
    /// Sets the -32042 elicitation count limit.
    pub fn with_max_required_elicitations(mut self, n: usize) -> Self {
        self.max_required_elicitations = n;
        self
    }
}
