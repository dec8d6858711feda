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
//! - [`ordered`]: the upstream's progress passed on before its result.

mod credentials;
mod downstream;
mod held;
mod identity;
mod link;
mod modern;
mod ordered;
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
use mcp_elicit_server::reference::http::{HttpLimits, mcp_config, serve_router};
use rmcp::ServiceExt;
use rmcp::transport::streamable_http_server::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

use self::downstream::Session;
use self::held::HeldCalls;
use self::link::{Link, Proxy};
use self::policy::Policy;
use self::pool::Pool;

/// The user of every session when the proxy does not authenticate its clients (no
/// `--issuer`): the OS user it runs as (it listens on loopback only).
fn local_user() -> mcp_elicit_server::Principal {
    mcp_elicit_server::Principal::current_local_user()
}

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
    #[command(flatten)]
    upstream_auth: credentials::UpstreamAuthArgs,
    #[command(flatten)]
    identity: identity::ClientAuthArgs,
    /// Serve connections from other OS users of this machine too (local mode, without
    /// `--issuer`): by default only the proxy's own OS user is served, since every client
    /// on loopback is taken for the local user.
    #[arg(long)]
    danger_allow_other_os_users: bool,
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
            "mcp-elicit proxy: --listen {}: loopback only (put a TLS reverse proxy in front, \
             with --public-url and --issuer)",
            args.listen
        );
        return ExitCode::from(2);
    }
    if args.stdio && args.identity.issuer.is_some() {
        eprintln!("mcp-elicit proxy: --issuer applies to Streamable HTTP, not --stdio");
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
    let authorizer = match runtime.block_on(credentials::upstream_authorizer(
        &target,
        &args.upstream_auth,
    )) {
        Ok(a) => a,
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
        authorizer,
    ));
    let result = if args.stdio {
        runtime.block_on(serve_stdio(proxy, target))
    } else {
        let listen = Listen {
            addr: args.listen,
            identity: args.identity.clone(),
            only_own_os_user: !args.danger_allow_other_os_users,
        };
        runtime.block_on(serve_http(listen, proxy, target))
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
    let session = Edge::new(Session::new(
        Arc::new(Link::new(proxy, local_user())),
        target,
    ));
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

/// Where and how the proxy serves Streamable HTTP.
struct Listen {
    addr: SocketAddr,
    identity: identity::ClientAuthArgs,
    /// Local mode only: serve connections of the proxy's own OS user only.
    only_own_os_user: bool,
}

async fn serve_http(
    listen: Listen,
    proxy: Arc<Proxy>,
    target: Arc<ServerTarget>,
) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(listen.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", listen.addr))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let public_url = listen.identity.public_url(addr)?;
    let web = identity::resource_server(&listen.identity, &public_url).await?;
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(SESSION_KEEP_ALIVE);
    let sessions = Arc::new(sessions);
    let ct = tokio_util::sync::CancellationToken::new();
    // Host must be a loopback name or the public URL's host, and Origin absent or the
    // public URL's own (DNS rebinding, and the transport rule that servers answer 403 to
    // an invalid Origin).
    let config = mcp_config(public_url.as_str(), ct.clone());
    let service = StreamableHttpService::new(
        move || {
            Ok(Edge::new(Session::new(
                Arc::new(Link::new(proxy.clone(), local_user())),
                target.clone(),
            )))
        },
        Arc::clone(&sessions),
        config,
    );
    // Requests in progress per session and per user, sessions per user, idle sessions;
    // the user is the token's (`--issuer`) or the local user.
    let local = web.is_none().then(local_user);
    let guard = mcp_elicit_server::SessionGuard::new(
        mcp_elicit_server::SessionLimits::default(),
        Arc::clone(&sessions),
        local,
        ct.clone(),
    );
    let directory: Arc<dyn mcp_elicit_server::SessionDirectory> = sessions;
    let mcp = axum::Router::new()
        .nest_service(mcp_elicit_server::MCP_PATH, service)
        .layer(axum::middleware::from_fn_with_state(
            guard,
            mcp_elicit_server::enforce_session_limits,
        ))
        // DELETE of an unknown or ended session: 404.
        .layer(axum::middleware::from_fn_with_state(
            directory,
            mcp_elicit_server::unknown_session_404_in,
        ))
        // 2026-07-28 rounds go out with the exact JSON of their requests (`pattern` and all).
        .layer(axum::middleware::from_fn(
            mcp_elicit_server::wire::exact_rounds_http,
        ));
    let app = match &web {
        // Every request needs a bearer token of the issuer for this proxy; the token is
        // removed before the proxy sees the request, so it can never go upstream.
        Some(web) => web.protect(mcp).merge(web.resource_metadata_router()),
        None => mcp,
    };
    let mut limits = HttpLimits::default();
    limits.only_own_os_user = web.is_none() && listen.only_own_os_user;
    eprintln!("mcp-elicit proxy: http://{addr}/mcp");
    if web.is_some() {
        eprintln!("mcp-elicit proxy: clients need a bearer token for {public_url}mcp");
    }
    serve_router(listener, app, limits, async move {
        let _ = tokio::signal::ctrl_c().await;
        ct.cancel();
    })
    .await
    .map_err(|e| e.to_string())
}
