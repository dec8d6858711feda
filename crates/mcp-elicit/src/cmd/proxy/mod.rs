//! `mcp-elicit proxy`: an MCP server to its clients and an MCP client to one upstream
//! server, forwarding tools, resources, prompts, completions, progress, cancellation and
//! logging, and handling elicitation itself under a policy (issue 18, first slice).
//!
//! ```text
//! mcp-elicit proxy --upstream URL|stdio:COMMAND [--listen 127.0.0.1:PORT | --stdio]
//!                  [--danger-allow-secret-forms] [--tolerant] [--danger-no-url-check]
//!                  [--no-loopback-http] [--danger-no-answer-check] [--rate-limit off|BURST/SECONDS]
//! ```
//!
//! Each downstream session (Streamable HTTP at `/mcp`, or one client on stdio) gets its
//! own upstream connection (a stdio upstream: its own child process), so one user's
//! elicitations never reach another's client. A 2025-11-25 client speaks to an upstream
//! on its revision when the upstream accepts `initialize`; one that speaks only
//! 2026-07-28 (or any upstream with `--upstream-protocol 2026-07-28`) is bridged. A
//! 2026-07-28 client (no session) borrows a pooled upstream connection per request, on
//! 2026-07-28 when the upstream speaks it, else 2025-11-25; what the upstream asks during
//! a request becomes rounds of the proxy's own while the request is held.
//!
//! - [`policy`]: the rules (secret-asking forms, the schema subset, the server URL policy,
//!   answers validated, a per-user rate limit), on by default, logged without content.
//! - [`upstream`]: the client half (the upstream's `elicitation/create` and notifications).
//! - [`downstream`]: the server half (requests forwarded, -32042 and its fallback).
//! - [`rounds`]: the revision bridge (a 2026-07-28 upstream's input rounds for a
//!   2025-11-25 client).
//! - [`modern`], [`held`], [`pool`]: 2026-07-28 clients (requests held while the user
//!   answers, upstream connections lent per request).
//! - [`link`]: what both halves of one session share.

mod downstream;
mod held;
mod link;
mod modern;
mod policy;
mod pool;
mod rounds;
mod upstream;

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use mcp_elicit_client::{ProtocolChoice, RateLimit, ServerTarget};
use mcp_elicit_server::Edge;
use mcp_elicit_server::reference::http::mcp_config;
use rmcp::ServiceExt;
use rmcp::transport::streamable_http_server::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

use self::downstream::Session;
use self::held::HeldCalls;
use self::link::{Link, Proxy};
use self::policy::Policy;
use self::pool::Pool;

/// The user every session is counted under until the proxy authenticates its clients.
const LOCAL_USER: &str = "local";

/// Sessions outlive the longest wait for a user's answer (10 minutes).
const SESSION_KEEP_ALIVE: Duration = Duration::from_secs(601);

/// `mcp-elicit proxy`.
#[derive(Debug, clap::Args)]
pub(crate) struct ProxyArgs {
    /// The upstream server: `http(s)://HOST[:PORT]/PATH` (Streamable HTTP) or
    /// `stdio:PROGRAM ARGS...` (a child process per session; shell-style quoting, no shell).
    #[arg(long, value_name = "URL|stdio:COMMAND")]
    upstream: String,
    /// Address for Streamable HTTP (`/mcp`); loopback only.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8392")]
    listen: SocketAddr,
    /// Serve one client on stdin/stdout instead of Streamable HTTP.
    #[arg(long, conflicts_with = "listen")]
    stdio: bool,
    /// Pass on forms whose fields look like secrets (refused by default: servers must
    /// use URL mode for passwords, API keys and card numbers). Also `--allow-secret-forms`.
    #[arg(long = "danger-allow-secret-forms", alias = "allow-secret-forms")]
    allow_secret_forms: bool,
    /// Pass on schemas outside the specification's subset, as received (refused by
    /// default); answers are validated as the tolerant reader reads them.
    #[arg(long)]
    tolerant: bool,
    /// Do not check URL-mode URLs against the server URL policy. Also `--no-url-check`.
    #[arg(long = "danger-no-url-check", alias = "no-url-check")]
    no_url_check: bool,
    /// Refuse `http://` URLs to loopback hosts too (allowed by default, for local servers).
    #[arg(long)]
    no_loopback_http: bool,
    /// Do not validate form answers before they go upstream. Also `--no-answer-check`.
    #[arg(long = "danger-no-answer-check", alias = "no-answer-check")]
    no_answer_check: bool,
    /// Elicitation requests per user: `off`, or `BURST/SECONDS` (default `5/10`). Only
    /// requests arriving while an earlier one is unanswered count.
    #[arg(long, value_name = "off|BURST/SECONDS", default_value = "5/10", value_parser = RateLimit::parse)]
    rate_limit: RateLimit,
    /// The revision spoken to the upstream: `auto` (the client's revision when the
    /// upstream speaks it, else the other one), `2025-11-25` or `2026-07-28`. Either way
    /// each client gets its own revision: a 2026-07-28 upstream's input rounds become
    /// `elicitation/create` requests for a 2025-11-25 client, and a 2025-11-25 upstream's
    /// requests (and -32042 pages) become rounds for a 2026-07-28 client.
    #[arg(
        long,
        value_name = "auto|2025-11-25|2026-07-28",
        default_value = "auto"
    )]
    upstream_protocol: ProtocolChoice,
}

impl ProxyArgs {
    fn policy(&self) -> Policy {
        Policy {
            refuse_secret_forms: !self.allow_secret_forms,
            strict_schemas: !self.tolerant,
            check_urls: !self.no_url_check,
            allow_loopback_http: !self.no_loopback_http,
            validate_answers: !self.no_answer_check,
            rate_limit: self.rate_limit,
        }
    }
}

/// Runs the proxy until Ctrl-C (HTTP) or the client leaves (stdio).
pub(crate) fn run(args: ProxyArgs) -> ExitCode {
    super::serve::logging::init();
    let target: ServerTarget = match args.upstream.parse() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("mcp-elicit proxy: --upstream: {e}");
            return ExitCode::from(2);
        }
    };
    if !args.stdio && !args.listen.ip().is_loopback() {
        eprintln!(
            "mcp-elicit proxy: --listen {}: loopback only (the proxy does not authenticate its clients yet)",
            args.listen
        );
        return ExitCode::from(2);
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("mcp-elicit proxy: {e}");
            return ExitCode::from(2);
        }
    };
    let target = Arc::new(target);
    let keys = match mcp_elicit_server::StateKeys::random() {
        Ok(k) => k,
        Err(e) => {
            eprintln!("mcp-elicit proxy: {e}");
            return ExitCode::from(2);
        }
    };
    let proxy = Arc::new(Proxy::new(
        args.policy(),
        args.upstream_protocol,
        Pool::new(Arc::clone(&target)),
        HeldCalls::new(keys),
    ));
    let result = if args.stdio {
        runtime.block_on(serve_stdio(proxy, target))
    } else {
        runtime.block_on(serve_http(args.listen, proxy, target))
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-elicit proxy: {e}");
            ExitCode::from(2)
        }
    }
}

async fn serve_stdio(proxy: Arc<Proxy>, target: Arc<ServerTarget>) -> Result<(), String> {
    let session = Edge::new(Session::new(Arc::new(Link::new(proxy, LOCAL_USER)), target));
    let running = session
        .serve(mcp_elicit_server::wire::edge_rw(
            tokio::io::stdin(),
            tokio::io::stdout(),
        ))
        .await
        .map_err(|e| e.to_string())?;
    running.waiting().await.map_err(|e| e.to_string())?;
    Ok(())
}

async fn serve_http(
    listen: SocketAddr,
    proxy: Arc<Proxy>,
    target: Arc<ServerTarget>,
) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(SESSION_KEEP_ALIVE);
    let ct = tokio_util::sync::CancellationToken::new();
    // Host must be a loopback name and Origin absent or the proxy's own (DNS rebinding,
    // and the transport rule that servers answer 403 to an invalid Origin).
    let config = mcp_config(&format!("http://{addr}"), ct.clone());
    let service = StreamableHttpService::new(
        move || {
            Ok(Edge::new(Session::new(
                Arc::new(Link::new(proxy.clone(), LOCAL_USER)),
                target.clone(),
            )))
        },
        Arc::new(sessions),
        config,
    );
    // 2026-07-28 rounds go out with the exact JSON of their requests (`pattern` and all).
    let app = axum::Router::new()
        .nest_service(mcp_elicit_server::MCP_PATH, service)
        .layer(axum::middleware::from_fn(
            mcp_elicit_server::wire::exact_rounds_http,
        ));
    eprintln!("mcp-elicit proxy: http://{addr}/mcp");
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            let _ = tokio::signal::ctrl_c().await;
            ct.cancel();
        })
        .await
        .map_err(|e| e.to_string())
}
