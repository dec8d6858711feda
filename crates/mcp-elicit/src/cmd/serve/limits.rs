//! The transport and session limits of `mcp-elicit serve` (flags and environment),
//! defaults from [`HttpLimits::default`] and [`SessionLimits::default`]. Each limit, when
//! reached, answers with the status HTTP gives for it (413, 429 with `Retry-After` for
//! the request and session caps, 503 with `Retry-After` for the connection cap) and a
//! JSON-RPC error `-32000` whose `data` names the limit; it never closes another
//! client's connection or a flow in progress.

use std::time::Duration;

use mcp_elicit_server::SessionLayer;
use mcp_elicit_server::reference::http::{HttpLimits, SessionLimits};

/// Transport limits (see docs/deployment.md, "Limits").
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct LimitArgs {
    /// Seconds a client has to send a request's headers (and to start the first request
    /// on a new connection, TLS or not).
    #[arg(long, env = "MCP_ELICIT_HEADER_READ_TIMEOUT", value_name = "SECONDS",
          default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    header_read_timeout: u64,
    /// Seconds a connection with no request in progress stays open.
    #[arg(long, env = "MCP_ELICIT_IDLE_TIMEOUT", value_name = "SECONDS",
          default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..))]
    idle_timeout: u64,
    /// Connections served at once; one more gets 503 and is closed.
    #[arg(long, env = "MCP_ELICIT_MAX_CONNECTIONS", value_name = "N",
          default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_connections: u64,
    /// The largest request body on /mcp, in bytes (over it: 413).
    #[arg(long, env = "MCP_ELICIT_MAX_BODY_BYTES", value_name = "BYTES",
          default_value_t = 1024 * 1024, value_parser = clap::value_parser!(u64).range(1024..=64 * 1024 * 1024))]
    max_body_bytes: u64,
    /// The largest request body of the pages' forms, in bytes (over it: 413).
    #[arg(long, env = "MCP_ELICIT_MAX_PAGE_BODY_BYTES", value_name = "BYTES",
          default_value_t = 64 * 1024, value_parser = clap::value_parser!(u64).range(1024..=16 * 1024 * 1024))]
    max_page_body_bytes: u64,
    /// The deepest nesting of arrays and objects in a JSON-RPC body (over it: 400, -32000).
    #[arg(long, env = "MCP_ELICIT_MAX_JSON_DEPTH", value_name = "N",
          default_value_t = 64, value_parser = clap::value_parser!(u64).range(2..=1024))]
    max_json_depth: u64,
    /// The most elements (values and members) in a JSON-RPC body (over it: 400, -32000).
    #[arg(long, env = "MCP_ELICIT_MAX_JSON_ELEMENTS", value_name = "N",
          default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(16..=10_000_000))]
    max_json_elements: u64,
    /// JSON-RPC requests one session may have in progress (a tool call waiting for a
    /// form counts until it answers); one more gets 429.
    #[arg(long, env = "MCP_ELICIT_MAX_REQUESTS_PER_SESSION", value_name = "N",
          default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_requests_per_session: u64,
    /// JSON-RPC requests one user may have in progress over all their sessions (local
    /// mode: the whole server); one more gets 429.
    #[arg(long, env = "MCP_ELICIT_MAX_REQUESTS_PER_USER", value_name = "N",
          default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_requests_per_user: u64,
    /// Live sessions one user may hold (local mode: the whole server); one more
    /// `initialize` gets 429.
    #[arg(long, env = "MCP_ELICIT_MAX_SESSIONS_PER_USER", value_name = "N",
          default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_sessions_per_user: u64,
    /// Seconds a session that never did anything after `initialize` (no request, no
    /// stream) lives.
    #[arg(long, env = "MCP_ELICIT_UNUSED_SESSION_TIMEOUT", value_name = "SECONDS",
          default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    unused_session_timeout: u64,
    /// Seconds a session with no request in progress and no stream open lives.
    #[arg(long, env = "MCP_ELICIT_SESSION_IDLE_TIMEOUT", value_name = "SECONDS",
          default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..))]
    session_idle_timeout: u64,
    /// Deprecated, no effect (still accepted): a sign-in in progress is sealed into a
    /// cookie of the browser that started it, so the server keeps none to cap.
    #[arg(long, env = "MCP_ELICIT_MAX_PENDING_LOGINS", value_name = "N",
          default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(2..=100_000_000))]
    max_pending_logins: u64,
    /// Deprecated, no effect in authorized mode (still accepted): a sign-in keeps nothing
    /// on the server before the user has authenticated, so nothing is limited per
    /// address. (Local mode keeps its built-in 30 anonymous sign-ins a minute per address.)
    #[arg(long, env = "MCP_ELICIT_MAX_SIGNINS_PER_CLIENT", value_name = "N",
          default_value_t = 30, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    max_signins_per_client: u32,
    /// The session layer of /mcp: `lean` (ours, the default: one shared state per session,
    /// no task or channels of its own; 39 % less memory per idle session and 9 % fewer
    /// instructions per round trip, see BENCHMARKS.md) or `rmcp` (rmcp's
    /// LocalSessionManager: a worker task and channels per session).
    #[arg(long, env = "MCP_ELICIT_SESSION_LAYER", value_name = "LAYER", default_value = "lean",
          value_parser = clap::builder::PossibleValuesParser::new(["rmcp", "lean"]))]
    session_layer: String,
    /// Seconds a session of the lean layer stays idle (no request unanswered, nothing
    /// queued) before its handler is put to sleep: rmcp's service loop and the handler
    /// (about 36 KB allocated) and its answered calls' replay are freed, the session and
    /// its GET stream stay (asleep with a pending URL elicitation, a session measured
    /// 10-12 KB in all: BENCHMARKS.md), and its next message starts a new handler. 0:
    /// never.
    #[arg(
        long,
        env = "MCP_ELICIT_SESSION_HIBERNATE_AFTER",
        value_name = "SECONDS",
        default_value_t = 30
    )]
    session_hibernate_after: u64,
}

/// What `--max-pending-logins` and `--max-signins-per-client` say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SignInLimits {
    pub(crate) max_pending_logins: u64,
    pub(crate) max_signins_per_client: u32,
}

impl LimitArgs {
    /// The limits as the HTTP server takes them.
    pub(crate) fn limits(&self) -> HttpLimits {
        let mut limits = HttpLimits::default();
        limits.header_read_timeout = Duration::from_secs(self.header_read_timeout);
        limits.idle_timeout = Duration::from_secs(self.idle_timeout);
        limits.max_connections = usize::try_from(self.max_connections).unwrap_or(usize::MAX);
        limits.max_body_bytes = usize::try_from(self.max_body_bytes).unwrap_or(usize::MAX);
        limits.max_page_body_bytes =
            usize::try_from(self.max_page_body_bytes).unwrap_or(usize::MAX);
        limits.max_json_depth = usize::try_from(self.max_json_depth).unwrap_or(usize::MAX);
        limits.max_json_elements = usize::try_from(self.max_json_elements).unwrap_or(usize::MAX);
        limits
    }

    /// The sign-in limits of the web layer.
    pub(crate) fn sign_in_limits(&self) -> SignInLimits {
        SignInLimits {
            max_pending_logins: self.max_pending_logins,
            max_signins_per_client: self.max_signins_per_client,
        }
    }

    /// What `--session-hibernate-after` says (None: never).
    pub(crate) fn hibernate_after(&self) -> Option<Duration> {
        (self.session_hibernate_after > 0)
            .then(|| Duration::from_secs(self.session_hibernate_after))
    }

    /// What `--session-layer` says.
    pub(crate) fn session_layer(&self) -> SessionLayer {
        self.session_layer.parse().unwrap_or_default()
    }

    /// The session limits as the reference server takes them.
    pub(crate) fn session_limits(&self) -> SessionLimits {
        let n = |v: u64| usize::try_from(v).unwrap_or(usize::MAX);
        let mut limits = SessionLimits::default();
        limits.max_requests_per_session = n(self.max_requests_per_session);
        limits.max_requests_per_user = n(self.max_requests_per_user);
        limits.max_sessions_per_user = n(self.max_sessions_per_user);
        limits.unused_session_timeout = Duration::from_secs(self.unused_session_timeout);
        limits.session_idle_timeout = Duration::from_secs(self.session_idle_timeout);
        limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use mcp_elicit_server::reference::ReferenceOptions;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        limits: LimitArgs,
    }

    #[test]
    fn the_flag_defaults_are_the_library_defaults_and_flags_override_them() {
        let cli = Cli::try_parse_from(["x"]).expect("defaults");
        assert_eq!(cli.limits.limits(), HttpLimits::default());
        assert_eq!(cli.limits.session_limits(), SessionLimits::default());
        let cli = Cli::try_parse_from(["x", "--max-connections", "7", "--idle-timeout", "3"])
            .expect("flags");
        assert_eq!(cli.limits.limits().max_connections, 7);
        assert_eq!(cli.limits.limits().idle_timeout, Duration::from_secs(3));
        assert!(Cli::try_parse_from(["x", "--max-connections", "0"]).is_err());
        let cli = Cli::try_parse_from(["x", "--max-sessions-per-user", "3"]).expect("flags");
        assert_eq!(cli.limits.session_limits().max_sessions_per_user, 3);
        assert_eq!(
            Cli::try_parse_from(["x"])
                .expect("defaults")
                .limits
                .session_layer(),
            SessionLayer::Lean,
            "serve runs /mcp on the lean session layer unless told otherwise"
        );
        assert_eq!(
            Cli::try_parse_from(["x"])
                .expect("defaults")
                .limits
                .hibernate_after(),
            ReferenceOptions::new("http://127.0.0.1").hibernate_after,
            "sessions sleep after the library's default idle time"
        );
        let cli = Cli::try_parse_from(["x", "--session-hibernate-after", "0"]).expect("flags");
        assert_eq!(cli.limits.hibernate_after(), None, "0: never");
        let cli = Cli::try_parse_from(["x", "--session-hibernate-after", "2"]).expect("flags");
        assert_eq!(cli.limits.hibernate_after(), Some(Duration::from_secs(2)));
        let cli = Cli::try_parse_from(["x", "--session-layer", "rmcp"]).expect("flags");
        assert_eq!(cli.limits.session_layer(), SessionLayer::Rmcp);
        assert!(Cli::try_parse_from(["x", "--session-layer", "other"]).is_err());
        // The sign-in defaults are the web layer's.
        let web = mcp_elicit_web::WebConfig::new(
            "https://idp.example",
            url::Url::parse("https://mcp.example").expect("url"),
            mcp_elicit_web::ClientRegistration::public("x"),
        );
        let defaults = Cli::try_parse_from(["x"]).expect("defaults").limits;
        assert_eq!(
            defaults.sign_in_limits(),
            SignInLimits {
                max_pending_logins: web.max_pending_logins,
                max_signins_per_client: web.max_signins_per_client,
            }
        );
    }
}
