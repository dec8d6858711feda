//! `mcp-elicit serve`: the reference server (demo tools, conformance tools) over
//! Streamable HTTP, or over stdio.
//!
//! Two modes:
//!
//! - **local mode** (no `--issuer`): the local OS user is the identity, there is no
//!   authorization, so the server listens on loopback only (or serves stdio);
//! - **authorized mode** (`--issuer URL`): `/mcp` is an OAuth 2.1 resource server (bearer
//!   JWTs of the issuer, the identity is the token's user), the web layer serves sign-in
//!   and the connect pages URL elicitations point to, and secrets go to the store's
//!   encrypted vault (`--vault-key-file`). Outside loopback it must speak HTTPS: itself
//!   (`--tls-cert` and `--tls-key`, rustls), or behind a TLS-terminating proxy named by
//!   `--public-url https://...`.
//!
//! Pending elicitations and the connect demo's "connected" flag live in a store
//! (`--store`): by default a SQLite file under the user's data directory, so a URL
//! elicitation started before a restart (or a crash) can still be completed after it,
//! and a client's retry then succeeds. The completion notification cannot reach a client
//! whose session died with the old process: retrying the request is the recovery path
//! (the specification makes the notification optional for exactly this reason).

mod limits;
pub(crate) mod logging;
mod options;
mod state;
mod store;
mod tls;
mod web;

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use mcp_elicit_server::reference::{Reference, ReferenceOptions, http, serve_stdio};
use mcp_elicit_server::{ElicitationConfig, IdentityPolicy, Principal};
use tokio_util::sync::CancellationToken;

use self::options::{WebFlags, WebOptions, check_listen};
use self::store::{StoreChoice, open_state};

/// Arguments of `mcp-elicit serve`. Every option with a value can also come from the
/// environment as `MCP_ELICIT_<OPTION>` (`MCP_ELICIT_ISSUER`, `MCP_ELICIT_STORE`, ...);
/// a flag on the command line wins.
#[derive(Debug, clap::Args)]
pub(crate) struct ServeArgs {
    /// Serve one client on stdin/stdout instead of Streamable HTTP (the demo pages are
    /// still served on --listen, or on a free loopback port if it is taken).
    #[arg(long)]
    stdio: bool,
    /// Address for Streamable HTTP (`/mcp`) and the pages. Loopback only without
    /// --issuer; elsewhere only with --issuer and HTTPS: --tls-cert/--tls-key, or an
    /// https --public-url (behind a TLS-terminating proxy).
    #[arg(
        long,
        env = "MCP_ELICIT_LISTEN",
        value_name = "ADDR",
        default_value = "127.0.0.1:8391"
    )]
    listen: SocketAddr,
    /// Serve HTTPS with this PEM certificate chain (the server's certificate first, then
    /// its intermediates). Needs --tls-key. Read at start-up; after renewing, SIGHUP
    /// (`kill -HUP PID`) re-reads both files for new connections, no restart.
    #[arg(long, env = "MCP_ELICIT_TLS_CERT", value_name = "FILE", requires = "tls_key",
          value_parser = tls::CertChain::parser())]
    tls_cert: Option<tls::CertChain>,
    /// The PEM private key of --tls-cert (PKCS#8, PKCS#1 RSA or SEC1 EC). Never printed.
    #[arg(long, env = "MCP_ELICIT_TLS_KEY", value_name = "FILE", requires = "tls_cert",
          value_parser = tls::PrivateKey::parser())]
    tls_key: Option<tls::PrivateKey>,
    /// The OAuth 2.1 / OpenID Connect issuer whose bearer tokens `/mcp` accepts and where
    /// browsers sign in. Without it: local mode (the local OS user, loopback only).
    #[arg(long, env = "MCP_ELICIT_ISSUER", value_name = "URL")]
    issuer: Option<String>,
    /// The `aud` bearer tokens must carry (default: the public URL of `/mcp`).
    #[arg(
        long,
        env = "MCP_ELICIT_AUDIENCE",
        value_name = "AUD",
        requires = "issuer"
    )]
    audience: Option<String>,
    /// The URL browsers and clients reach this server at (default: http://, or https://
    /// with --tls-cert, plus the listening address). Must be https outside loopback.
    #[arg(
        long,
        env = "MCP_ELICIT_PUBLIC_URL",
        value_name = "URL",
        requires = "issuer"
    )]
    public_url: Option<String>,
    /// This server's client id at the issuer, for browser sign-in (default `mcp-elicit`).
    #[arg(
        long,
        env = "MCP_ELICIT_CLIENT_ID",
        value_name = "ID",
        requires = "issuer"
    )]
    client_id: Option<String>,
    /// A file holding the client secret for --client-id (or env MCP_ELICIT_CLIENT_SECRET;
    /// neither: a public client).
    #[arg(
        long,
        env = "MCP_ELICIT_CLIENT_SECRET_FILE",
        value_name = "FILE",
        requires = "issuer"
    )]
    client_secret_file: Option<std::path::PathBuf>,
    /// A file holding the 32-byte vault key (64 hex digits or base64) that encrypts
    /// secrets and tokens (or env MCP_ELICIT_VAULT_KEY). Required with --issuer; in local
    /// mode the default is vault.key beside the default store (created if missing), or a
    /// random key for the run with an explicit --store.
    #[arg(long, env = "MCP_ELICIT_VAULT_KEY_FILE", value_name = "FILE")]
    vault_key_file: Option<std::path::PathBuf>,
    /// A file holding the keys that seal 2026-07-28 `requestState` (or env
    /// MCP_ELICIT_STATE_KEY_FILE): one `ID KEY` per line (KEY at least 32 bytes, hex or
    /// base64), the first signs, the others are still accepted (rotation). Every node
    /// behind one load balancer needs the same file. Default: a random key per process.
    #[arg(long, env = "MCP_ELICIT_STATE_KEY_FILE", value_name = "FILE")]
    state_key_file: Option<std::path::PathBuf>,
    /// A JSON file describing third-party OAuth providers (an object or an array:
    /// name, client_id, issuer or authorization_endpoint + token_endpoint, optional
    /// display_name, client_secret_file, scopes, resource).
    #[arg(
        long,
        env = "MCP_ELICIT_PROVIDER_CONFIG",
        value_name = "FILE",
        requires = "issuer"
    )]
    provider_config: Option<std::path::PathBuf>,
    /// OAuth scopes to advertise in the protected resource metadata
    /// (`scopes_supported`) and in 401 challenges (space- or comma-separated).
    #[arg(
        long,
        env = "MCP_ELICIT_SCOPES_SUPPORTED",
        value_name = "SCOPES",
        requires = "issuer"
    )]
    scopes_supported: Option<String>,
    /// Scopes every bearer token must carry (space- or comma-separated); a token without
    /// them gets 403 with `WWW-Authenticate: Bearer error="insufficient_scope",
    /// scope="..."`.
    #[arg(
        long,
        env = "MCP_ELICIT_REQUIRED_SCOPES",
        value_name = "SCOPES",
        requires = "issuer"
    )]
    required_scopes: Option<String>,
    /// Also expose the tools the official conformance suite calls.
    #[arg(long)]
    conformance: bool,
    /// How long a form or a URL consent waits for the user, in seconds.
    #[arg(
        long,
        env = "MCP_ELICIT_TIMEOUT",
        value_name = "SECONDS",
        default_value_t = 600
    )]
    timeout: u64,
    /// How many elicitations one user may have pending at once (at least 1). The cap
    /// exists so that one user cannot pin unbounded server memory with open
    /// elicitations; over it, calls fail with `too_many_pending` until some finish.
    #[arg(long, env = "MCP_ELICIT_MAX_PENDING_PER_USER", value_name = "N", default_value_t = options::DEFAULT_MAX_PENDING_PER_USER,
          value_parser = options::parse_max_pending)]
    max_pending_per_user: usize,
    /// Where pending elicitations and the connect demo's state live: `memory` (lost on
    /// exit), `sqlite://PATH` (created if missing) or `postgres://...`. Default: memory
    /// with --conformance, else $XDG_DATA_HOME/mcp-elicit/state.db
    /// (~/.local/share/mcp-elicit/state.db).
    #[arg(long, env = "MCP_ELICIT_STORE", value_name = "URL")]
    store: Option<String>,
    #[command(flatten)]
    limits: limits::LimitArgs,
    /// Local mode: serve loopback connections of every OS user on this machine, each as
    /// the local user. Without it (on Linux) a connection whose socket belongs to
    /// another uid than the server's gets 403. Dangerous on a shared machine: any
    /// account could then open this user's pages, use their keys and fill their quotas.
    #[arg(long, conflicts_with = "issuer")]
    danger_allow_other_os_users: bool,
}

/// Everything the HTTP application is built from, as plain data and shared handles.
#[derive(Debug, Clone)]
pub(crate) struct AppConfig {
    /// The reference server (its registry and demo state).
    pub(crate) reference: Reference,
    /// The local-mode web layer (URL-flow pages for the local user), when the store
    /// can hold its vault.
    pub(crate) web: Option<mcp_elicit_web::Web>,
}

/// The local-mode application: `/mcp` (the web tools first, when there are pages), the
/// URL-flow pages and the reference server's demo page.
pub(crate) fn build_router(config: &AppConfig, ct: CancellationToken) -> Router {
    match &config.web {
        Some(w) => web::router(&config.reference, w, ct),
        None => http::router(config.reference.clone(), ct),
    }
}

impl ServeArgs {
    /// The HTTP limits of local mode: the flags', serving only this OS user unless
    /// `--danger-allow-other-os-users`.
    fn local_limits(&self) -> http::HttpLimits {
        let mut limits = self.limits.limits();
        limits.only_own_os_user = !self.danger_allow_other_os_users;
        limits
    }

    /// What the start-up line says about the other OS users of the machine.
    fn os_users_note(&self) -> &'static str {
        if self.danger_allow_other_os_users {
            "every OS user of this machine served as that user (--danger-allow-other-os-users)"
        } else if cfg!(target_os = "linux") {
            "connections of other OS users refused"
        } else {
            "other OS users cannot be told apart on this platform"
        }
    }

    fn web_flags(&self) -> WebFlags {
        WebFlags {
            issuer: self.issuer.clone(),
            audience: self.audience.clone(),
            public_url: self.public_url.clone(),
            client_id: self.client_id.clone(),
            client_secret_file: self.client_secret_file.clone(),
            vault_key_file: self.vault_key_file.clone(),
            provider_config: self.provider_config.clone(),
            scopes_supported: self.scopes_supported.clone(),
            required_scopes: self.required_scopes.clone(),
        }
    }
}

/// The local-mode pages over a private in-memory vault (a random key for this run; the
/// secrets entered are gone on exit).
async fn local_pages(
    base: &str,
    user: Principal,
    hub: mcp_elicit_server::Elicitations,
) -> Result<mcp_elicit_web::Web, String> {
    let store = mcp_elicit_store::Store::connect("sqlite::memory:")
        .await
        .map_err(|e| format!("cannot open the in-memory vault: {e}"))?;
    let key = mcp_elicit_store::VaultKey::generate()
        .map_err(|e| format!("cannot make a vault key: {e}"))?;
    let public = url::Url::parse(base).map_err(|e| format!("{base}: {e}"))?;
    web::build_local_web(public, user, hub, &store, key).await
}

/// The application `mcp-elicit demo` serves in-process on loopback (`base` is its
/// `http://127.0.0.1:PORT`): the reference server over `hub` plus the local-mode
/// URL-flow pages and tools (`set_api_key`, `approve_purchase`, `connect_provider`) for
/// `hub`'s local user, secrets in a private in-memory vault. Serve it with
/// `http::serve_with(listener, app.reference.clone(), move |_, ct| build_router(&app, ct), shutdown)`.
// `mcp-elicit demo` builds the same with its demo OAuth provider (cmd/demo.rs).
#[cfg(test)]
pub(crate) async fn local_demo_app(
    base: &str,
    hub: mcp_elicit_server::Elicitations,
    conformance: bool,
) -> Result<AppConfig, String> {
    let user = match &hub.config().identity {
        IdentityPolicy::LocalUser(p) => p.clone(),
        _ => return Err("the demo runs for the local user only".to_owned()),
    };
    let reference = Reference::new(
        hub.clone(),
        ReferenceOptions::new(base).with_conformance(conformance),
    );
    let web = local_pages(base, user, hub).await?;
    Ok(AppConfig {
        reference,
        web: Some(web),
    })
}

pub(crate) fn run(args: ServeArgs) -> ExitCode {
    // Logs go to stderr: on --stdio, stdout carries the protocol.
    logging::init();
    let web = match WebOptions::from_flags(&args.web_flags(), |k| std::env::var_os(k)) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("mcp-elicit serve: {e}");
            return ExitCode::from(2);
        }
    };
    // The files were read with the arguments; this checks the key fits the certificate.
    let tls = match tls::server_config(args.tls_cert.as_ref(), args.tls_key.as_ref()) {
        Ok(tls) => tls.is_some(),
        Err(e) => {
            eprintln!("mcp-elicit serve: {e}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = check_listen(args.listen, args.stdio, web.as_ref(), tls) {
        eprintln!("mcp-elicit serve: {e}");
        return ExitCode::from(2);
    }
    let choice = match StoreChoice::from_args(args.store.as_deref(), args.conformance, |k| {
        std::env::var_os(k)
    }) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("mcp-elicit serve: {e}");
            return ExitCode::from(2);
        }
    };
    if web.is_some() && choice == StoreChoice::Memory {
        eprintln!(
            "mcp-elicit serve: --issuer needs a database store for the encrypted vault and browser \
             sessions: pass --store sqlite://PATH or postgres://... instead of memory"
        );
        return ExitCode::from(2);
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("mcp-elicit serve: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = match web {
        Some(web) => runtime.block_on(serve_authorized(args, choice, web)),
        None => runtime.block_on(serve(args, choice)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-elicit serve: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn serve(
    args: ServeArgs,
    choice: StoreChoice,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let listener = match tokio::net::TcpListener::bind(args.listen).await {
        Ok(l) => l,
        Err(e) if args.stdio => {
            tracing::warn!(addr = %args.listen, error = %e, "demo pages: address taken, using a free port");
            tokio::net::TcpListener::bind(SocketAddr::new(args.listen.ip(), 0)).await?
        }
        Err(e) => return Err(format!("cannot listen on {}: {e}", args.listen).into()),
    };
    let addr = listener.local_addr()?;
    let tls = tls::server_config(args.tls_cert.as_ref(), args.tls_key.as_ref())?;
    let base = format!("{}://{addr}", tls::scheme(tls.as_ref()));
    tls::announce(args.tls_cert.as_ref());
    // From here on SIGHUP reloads --tls-cert and --tls-key (before the start-up line).
    let tls = tls.map(tls::ServerTls::reload_on_sighup).transpose()?;
    let user = Principal::current_local_user();
    let config = options::with_state_keys(
        ElicitationConfig::new(IdentityPolicy::LocalUser(user.clone()))
            .with_timeout(Duration::from_secs(args.timeout))
            .with_max_pending_per_user(args.max_pending_per_user),
        args.state_key_file.as_deref(),
    )?;
    let opened = open_state(&choice, config).await?;
    eprintln!("mcp-elicit serve: state: {}", choice.describe());
    eprintln!("mcp-elicit serve: nodes: {}", opened.describe_nodes());
    let reference = Reference::with_state(
        opened.hub.clone(),
        ReferenceOptions::new(&base)
            .with_conformance(args.conformance)
            .with_session_limits(args.limits.session_limits())
            .with_session_layer(args.limits.session_layer())
            .with_hibernate_after(args.limits.hibernate_after()),
        Arc::clone(&opened.demo),
    );
    // The URL-flow pages (set_api_key, connect_provider, approve_purchase) keep secrets
    // in the vault: in the store's database under a key kept in the data directory (or
    // configured), or,
    // with --store memory, in a private in-memory database under a key for this run.
    let local_web = match &opened.store {
        Some(store) => {
            // Beside the default database only: with an explicit --store, pass
            // --vault-key-file (else the key is random for this run).
            let key_file = match &choice {
                StoreChoice::Database {
                    default_file: Some(f),
                    ..
                } => f.parent().map(|d| d.join("vault.key")),
                _ => None,
            };
            let (key, how) = options::local_vault_key(
                &args.web_flags(),
                |k| std::env::var_os(k),
                key_file.as_deref(),
            )?;
            eprintln!("mcp-elicit serve: vault key {how}");
            let public = url::Url::parse(&base)?;
            web::build_local_web(public, user.clone(), opened.hub.clone(), store, key).await?
        }
        None => local_pages(&base, user.clone(), opened.hub.clone()).await?,
    };
    let local_web = Some(local_web);
    let app = AppConfig {
        reference: reference.clone(),
        web: local_web.clone(),
    };
    let result = if args.stdio {
        tracing::info!(%user, demo_pages = %base, "serving MCP on stdio");
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        tracing::info!("demo pages: {}", args.os_users_note());
        let pages = tokio::spawn(http::serve_with_limits(
            listener,
            None,
            args.local_limits(),
            reference.clone(),
            move |_, ct| build_router(&app, ct),
            async move {
                let _ = stop_rx.await;
            },
        ));
        let result = match &local_web {
            Some(w) => web::serve_stdio(&reference, w).await,
            None => serve_stdio(&reference).await,
        };
        let _ = stop_tx.send(());
        let _ = pages.await;
        result
    } else {
        eprintln!(
            "mcp-elicit reference server: {base}/mcp, local mode (no --issuer: acting for the local user \
             {user}, loopback only, {}; Ctrl-C to stop)",
            args.os_users_note()
        );
        http::serve_with_limits(
            listener,
            tls,
            args.local_limits(),
            reference,
            move |_, ct| build_router(&app, ct),
            async {
                let _ = tokio::signal::ctrl_c().await;
            },
        )
        .await
        .map_err(Into::into)
    };
    opened.close().await;
    result
}

/// Authorized mode: bearer-protected `/mcp`, the web layer's pages and tools.
async fn serve_authorized(
    args: ServeArgs,
    choice: StoreChoice,
    options: WebOptions,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", args.listen))?;
    let addr = listener.local_addr()?;
    let tls = tls::server_config(args.tls_cert.as_ref(), args.tls_key.as_ref())?;
    tls::announce(args.tls_cert.as_ref());
    let public_url = match &options.public_url {
        Some(u) => u.clone(),
        None => url::Url::parse(&format!("{}://{addr}", tls::scheme(tls.as_ref())))?,
    };
    // From here on SIGHUP reloads --tls-cert and --tls-key (before the start-up line).
    let tls = tls.map(tls::ServerTls::reload_on_sighup).transpose()?;
    let base = public_url.as_str().trim_end_matches('/').to_owned();
    let config = options::with_state_keys(
        ElicitationConfig::new(IdentityPolicy::Authenticated)
            .with_timeout(Duration::from_secs(args.timeout))
            .with_max_pending_per_user(args.max_pending_per_user),
        args.state_key_file.as_deref(),
    )?;
    let opened = open_state(&choice, config).await?;
    let Some(store) = opened.store.clone() else {
        return Err("the web layer needs a database store".into());
    };
    let web = match web::build_web(
        &options,
        public_url,
        opened.hub.clone(),
        &store,
        args.limits.sign_in_limits(),
    )
    .await
    {
        Ok(w) => w,
        Err(e) => {
            opened.close().await;
            return Err(e.into());
        }
    };
    eprintln!("mcp-elicit serve: state: {}", choice.describe());
    eprintln!("mcp-elicit serve: nodes: {}", opened.describe_nodes());
    let reference = Reference::with_state(
        opened.hub.clone(),
        ReferenceOptions::new(&base)
            .with_conformance(args.conformance)
            .with_session_limits(args.limits.session_limits())
            .with_session_layer(args.limits.session_layer())
            .with_hibernate_after(args.limits.hibernate_after()),
        Arc::clone(&opened.demo),
    );
    eprintln!(
        "mcp-elicit reference server: {base}/mcp (listening on {addr}), authorized by {} (audience {}; \
         Ctrl-C to stop)",
        options.issuer,
        web.config().audience
    );
    let sweep_ct = CancellationToken::new();
    let sweeper = web::spawn_sweeper(web.clone(), Duration::from_secs(60), sweep_ct.clone());
    let result = http::serve_with_limits(
        listener,
        tls,
        args.limits.limits(),
        reference,
        move |reference, ct| web::router(&reference, &web, ct),
        async {
            let _ = tokio::signal::ctrl_c().await;
        },
    )
    .await
    .map_err(Into::into);
    sweep_ct.cancel();
    let _ = sweeper.await;
    opened.close().await;
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_elicit_server::Elicitations;

    #[tokio::test]
    async fn the_demo_app_serves_the_local_pages_for_the_local_user_only() {
        let authenticated =
            Elicitations::new(ElicitationConfig::new(IdentityPolicy::Authenticated));
        assert!(
            local_demo_app("http://127.0.0.1:1", authenticated, false)
                .await
                .is_err()
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(
            Principal::local_user("ada"),
        )));
        let app = local_demo_app(&base, hub, false).await.expect("app");
        assert!(app.web.as_ref().is_some_and(mcp_elicit_web::Web::is_local));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(http::serve_with(
            listener,
            app.reference.clone(),
            move |_, ct| build_router(&app, ct),
            async move {
                let _ = stopped.await;
            },
        ));
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client");
        // The connect page signs the browser in as the local user; the reference
        // server's demo page is still served beside it.
        let connect = client
            .get(format!("{base}/connect?elicitationId=x"))
            .send()
            .await
            .expect("connect");
        assert_eq!(connect.status(), 303);
        let demo = client
            .get(format!("{base}/demo/complete"))
            .send()
            .await
            .expect("demo page");
        assert_eq!(demo.status(), 400);
        let _ = stop.send(());
        let _ = server.await;
    }
}
