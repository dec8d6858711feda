//! `mcp-elicit demo`: the reference server started in-process on a free loopback port,
//! and the terminal host connected to it, to try every kind of elicitation at once:
//! the reference tools (form first) and, like `serve` in local mode, the URL-flow tools
//! (`set_api_key`, `connect_provider`, `approve_purchase`) against local pages, offline.

use std::process::ExitCode;

use mcp_elicit_client::ServerTarget;
use mcp_elicit_server::reference::http;
use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
use mcp_elicit_tui::host::{self, HostError, HostOptions};

use super::connect::{finish, start};

/// Arguments of `mcp-elicit demo`.
#[derive(Debug, clap::Args)]
pub(crate) struct DemoArgs {
    /// Also expose the tools the official conformance suite calls.
    #[arg(long)]
    conformance: bool,
    #[command(flatten)]
    host: super::connect::HostFlags,
}

pub(crate) fn run(args: DemoArgs) -> ExitCode {
    let Some(runtime) = start("demo") else {
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
    let app = crate::cmd::serve::local_demo_app(&base, Elicitations::new(config), args.conformance)
        .await
        .map_err(HostError)?;
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(http::serve_with(
        listener,
        app.reference.clone(),
        move |_, ct| crate::cmd::serve::build_router(&app, ct),
        async move {
            let _ = stop_rx.await;
        },
    ));
    let target: ServerTarget = format!("{base}/mcp")
        .parse()
        .map_err(|e| HostError(format!("bad demo address: {e}")))?;
    let result = host::run(&target, args.host.apply(HostOptions::default())).await;
    let _ = stop_tx.send(());
    let _ = server.await;
    result
}
