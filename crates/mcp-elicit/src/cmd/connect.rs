//! `mcp-elicit connect SERVER`: the interactive terminal host. Lists the server's tools,
//! calls them, and presents every elicitation (forms, URL consent, -32042 steps) on
//! screen, keyboard only.

use std::process::ExitCode;
use std::sync::Arc;

use mcp_elicit_client::auth::{AuthConfig, Authorizer, MemoryTokenStore, TokenStore};
use mcp_elicit_client::{ProtocolChoice, ServerTarget};
use mcp_elicit_core::message::Capability;
use mcp_elicit_tui::host::{self, HostOptions};

use crate::auth::store::TokenFileStore;
use crate::auth::tokens::FileTokens;
use crate::auth::ui::PersonSignIn;

/// Arguments of `mcp-elicit connect`.
#[derive(Debug, clap::Args)]
pub(crate) struct ConnectArgs {
    /// The server: `stdio:PROGRAM ARGS...` (started as a child process; words split like
    /// a shell would, but no shell runs) or an `http(s)://` Streamable HTTP endpoint.
    #[arg(value_name = "SERVER")]
    server: String,
    /// Declare form mode only: the server may not send URL-mode requests.
    #[arg(long, conflicts_with = "url_only")]
    form_only: bool,
    /// Declare URL mode only: the server may not send forms.
    #[arg(long)]
    url_only: bool,
    #[command(flatten)]
    pub(crate) host: HostFlags,
}

/// Flags shared by `connect` and `demo`.
#[derive(Debug, clap::Args)]
pub(crate) struct HostFlags {
    /// The protocol revision: `2025-11-25` or `2026-07-28` forces one; by default
    /// 2026-07-28 when the server offers it, else 2025-11-25.
    #[arg(long, value_name = "REVISION", default_value = "auto")]
    pub(crate) protocol: ProtocolChoice,
    /// The browser Open starts: `system` (the platform's launcher, when there is a
    /// graphical session), `none`, or a program run with the URL as its one argument.
    #[arg(long, value_name = "system|none|PROGRAM", default_value = "system")]
    pub(crate) browser: String,
    /// Rate limit for elicitation requests: `off`, or `BURST/SECONDS` (default `5/10`).
    /// Only requests arriving while an earlier one is unanswered count.
    #[arg(long, value_name = "off|BURST/SECONDS", default_value = "5/10", value_parser = mcp_elicit_client::RateLimit::parse)]
    pub(crate) rate_limit: mcp_elicit_client::RateLimit,
    /// A pre-registered OAuth client id to sign in with, for servers that require
    /// sign-in (else the client registers itself where the server allows it).
    #[arg(long, value_name = "ID")]
    pub(crate) client_id: Option<String>,
}

impl HostFlags {
    /// The host options these flags ask for, over `options`, for `target`: an HTTP
    /// server that requires sign-in gets the sign-in consent screen, then the browser
    /// (`--browser`), with the sign-in kept between runs (`mcp-elicit auth`).
    pub(crate) fn apply(&self, mut options: HostOptions, target: &ServerTarget) -> HostOptions {
        options.browser = host::BrowserChoice::parse(&self.browser);
        options.config = options
            .config
            .with_rate_limit(self.rate_limit)
            .with_protocol(self.protocol);
        if let ServerTarget::Http { url } = target {
            let (store, kept): (Arc<dyn TokenStore>, Option<String>) =
                match TokenFileStore::default_location() {
                    Ok(files) => {
                        let t = FileTokens::new(files);
                        let kept = t.describe();
                        (Arc::new(t), Some(kept))
                    }
                    Err(e) => {
                        eprintln!("mcp-elicit: sign-ins are not kept: {e}");
                        (Arc::new(MemoryTokenStore::default()), None)
                    }
                };
            let ui = PersonSignIn::new(options.browser.clone(), kept);
            match Authorizer::new(
                url.as_str(),
                match &self.client_id {
                    Some(id) => AuthConfig::new("mcp-elicit").with_preregistered(id, None),
                    None => AuthConfig::new("mcp-elicit"),
                },
                store,
                Arc::new(ui),
            ) {
                Ok(a) => options.config = options.config.with_authorizer(Arc::new(a)),
                Err(e) => eprintln!("mcp-elicit: no sign-in for {url}: {e}"),
            }
        }
        options
    }
}

impl ConnectArgs {
    fn modes(&self) -> Capability {
        Capability {
            form: !self.url_only,
            url: !self.form_only,
        }
    }
}

pub(crate) fn run(args: ConnectArgs) -> ExitCode {
    let target: ServerTarget = match args.server.parse() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("mcp-elicit connect: {e}");
            return ExitCode::from(2);
        }
    };
    let options = args.host.apply(
        HostOptions {
            modes: args.modes(),
            ..HostOptions::default()
        },
        &target,
    );
    let Some(runtime) = start("connect") else {
        return ExitCode::from(2);
    };
    finish("connect", runtime.block_on(host::run(&target, options)))
}

/// Checks for a terminal (explaining the alternative when there is none) and starts the
/// async runtime. `None` after printing why not.
pub(crate) fn start(command: &str) -> Option<tokio::runtime::Runtime> {
    if let Err(message) = mcp_elicit_tui::terminal::require_tty(command) {
        eprintln!("{message}");
        return None;
    }
    match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => Some(rt),
        Err(e) => {
            eprintln!("mcp-elicit {command}: cannot start the async runtime: {e}");
            None
        }
    }
}

/// The exit status for the host's result, printing the error if any.
pub(crate) fn finish(command: &str, result: Result<(), host::HostError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-elicit {command}: {e}");
            ExitCode::FAILURE
        }
    }
}
