//! `mcp-elicit demo`: the reference server started in-process on a free loopback port,
//! and the terminal host connected to it, to try every kind of elicitation at once:
//! the reference tools (form first) and, like `serve` in local mode, the URL-flow tools
//! (`set_api_key`, `connect_provider`, `approve_purchase`) against local pages, offline;
//! `connect_provider` goes through a tiny OAuth 2 provider started on loopback beside it
//! (consent page, code + PKCE, token endpoint: `mcp_elicit_web::demo_provider`).

use std::process::ExitCode;

use mcp_elicit_client::ServerTarget;
use std::sync::Arc;

use mcp_elicit_server::reference::{Reference, ReferenceOptions, http};
use mcp_elicit_web::demo_provider::DemoProvider;

use crate::cmd::serve::AppConfig;
use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
use mcp_elicit_tui::host::{self, HostError, HostOptions};

use super::connect::{finish, start};

/// Arguments of `mcp-elicit demo`.
#[derive(Debug, clap::Args)]
pub(crate) struct DemoArgs {
    /// Also expose the tools the official conformance suite calls.
    #[arg(long)]
    conformance: bool,
    /// Tests only: serve without the terminal host, printing the MCP endpoint's URL on
    /// stdout, until stdin closes (so a test drives the demo's wiring end to end).
    #[arg(long, hide = true)]
    serve_only: bool,
    /// Serve loopback connections of every OS user on this machine, each as the local
    /// user, as `serve --danger-allow-other-os-users` does. Without it (on Linux) a
    /// connection to the demo server whose socket belongs to another uid gets 403.
    #[arg(long)]
    danger_allow_other_os_users: bool,
    #[command(flatten)]
    host: super::connect::HostFlags,
}

pub(crate) fn run(args: DemoArgs) -> ExitCode {
    // `--serve-only` needs no terminal (it runs no host).
    let runtime = if args.serve_only {
        tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .map_err(|e| eprintln!("mcp-elicit demo: cannot start the async runtime: {e}"))
            .ok()
    } else {
        start("demo")
    };
    let Some(runtime) = runtime else {
        return ExitCode::from(2);
    };
    finish("demo", runtime.block_on(demo(args)))
}

async fn demo(args: DemoArgs) -> Result<(), HostError> {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
        .await
        .map_err(|e| HostError(format!("cannot listen on loopback: {e}")))?;
    let addr = listener
        .local_addr()
        .map_err(|e| HostError(format!("cannot read the listening address: {e}")))?;
    let base = format!("http://{addr}");
    let config = ElicitationConfig::new(IdentityPolicy::LocalUser(Principal::current_local_user()));
    // The third-party OAuth provider `connect_provider` connects to, on loopback too, and
    // like the demo itself only for this OS user (its consent page would otherwise let
    // another account of this machine approve grants).
    let only_own_os_user = !args.danger_allow_other_os_users;
    let provider = DemoProvider::start_with(move |listener, app| async move {
        let mut limits = http::HttpLimits::default();
        limits.only_own_os_user = only_own_os_user;
        let _ = http::serve_router(listener, app, limits, std::future::pending()).await;
    })
    .await
    .map_err(|e| HostError(format!("cannot start the demo OAuth provider: {e}")))?;
    let provider_config = provider
        .config()
        .map_err(|e| HostError(format!("demo OAuth provider address: {e}")))?;
    let app = demo_app(
        &base,
        Elicitations::new(config),
        args.conformance,
        vec![provider_config],
    )
    .await
    .map_err(HostError)?;
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    // Like `serve` in local mode: only this OS user's connections (the same check, in
    // the same HTTP layer: `HttpLimits::only_own_os_user`).
    let mut limits = http::HttpLimits::default();
    limits.only_own_os_user = !args.danger_allow_other_os_users;
    let server = tokio::spawn(http::serve_with_limits(
        listener,
        None,
        limits,
        app.reference.clone(),
        move |_, ct| crate::cmd::serve::build_router(&app, ct),
        async move {
            let _ = stop_rx.await;
        },
    ));
    let target: ServerTarget = format!("{base}/mcp")
        .parse()
        .map_err(|e| HostError(format!("bad demo address: {e}")))?;
    let result = if args.serve_only {
        println!("{base}/mcp");
        // Where the demo OAuth provider listens (for tests and scripts; on stderr, so
        // stdout keeps one line).
        eprintln!(
            "mcp-elicit demo: demo OAuth provider at {}",
            provider.base()
        );
        // Until stdin closes (the test drops its end or exits).
        let mut sink = Vec::new();
        let _ = tokio::io::AsyncReadExt::read_to_end(&mut tokio::io::stdin(), &mut sink).await;
        Ok(())
    } else {
        host::run(&target, args.host.apply(HostOptions::default(), &target)).await
    };
    let _ = stop_tx.send(());
    let _ = server.await;
    drop(provider);
    result
}

/// What `serve` runs in local mode (the reference server and the URL-flow pages for the
/// local user, secrets in a private in-memory vault), with `providers` configured for
/// `connect_provider` as `--provider-config` would.
async fn demo_app(
    base: &str,
    hub: Elicitations,
    conformance: bool,
    providers: Vec<mcp_elicit_web::ProviderConfig>,
) -> Result<AppConfig, String> {
    let user = match &hub.config().identity {
        IdentityPolicy::LocalUser(p) => p.clone(),
        _ => return Err("the demo runs for the local user only".to_owned()),
    };
    let reference = Reference::new(
        hub.clone(),
        ReferenceOptions::new(base).with_conformance(conformance),
    );
    let store = mcp_elicit_store::Store::connect("sqlite::memory:")
        .await
        .map_err(|e| format!("cannot open the in-memory vault: {e}"))?;
    let key = mcp_elicit_store::VaultKey::generate()
        .map_err(|e| format!("cannot make a vault key: {e}"))?;
    let vault = store.vault(mcp_elicit_store::Keyring::new(key));
    let public = url::Url::parse(base).map_err(|e| format!("{base}: {e}"))?;
    let web = mcp_elicit_web::Web::local(public, user, providers, hub, Arc::new(vault))
        .await
        .map_err(|e| format!("cannot set up the local pages: {e}"))?;
    Ok(AppConfig {
        reference,
        web: Some(web),
    })
}
