//! `mcp-elicit call`: a non-interactive MCP client for scripts and CI.
//!
//! ```text
//! mcp-elicit call SERVER TOOL [--args JSON] [--respond accept-defaults|decline|cancel|@ANSWERS.json]
//!                 [--open-urls never|print|browser] [--modes form,url] [--timeout SECS]
//!                 [--protocol 2025-11-25|2026-07-28] [--rate-limit off|BURST/SECONDS]
//!                 [--sign-in [--browser system|none|PROGRAM]] [--token-file FILE]
//!                 [--client-id ID [--client-secret-file F] [--client-credentials [--scope S]]]
//! ```
//!
//! Servers that require sign-in (MCP authorization): see [`auth`]. A kept sign-in is used
//! and refreshed; no browser opens unless `--sign-in`.
//!
//! SERVER is `http(s)://HOST[:PORT]/PATH` (Streamable HTTP) or `stdio:PROGRAM ARGS...`
//! (a child process over stdio; the words are split with POSIX shell quoting rules, no
//! shell runs). The CallToolResult is printed as JSON on stdout. Exit status: 0 when the
//! tool succeeded, 1 when it returned `isError: true`, 2 on a connection, protocol or
//! elicitation failure (including answers that failed validation: those are never sent,
//! the server gets `cancel`, the problems go to stderr).
//!
//! An elicitation request this client refuses as the specification requires (-32602 for
//! a mode it did not declare, or malformed params) is not a failure of the call: a notice
//! goes to stderr, the server gets the error, and the exit status is the tool's outcome.

pub(crate) mod auth;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, ValueEnum};
use mcp_elicit_client::rmcp::model::{CallToolRequestParams, CallToolResult};
use mcp_elicit_client::{
    CallError, Config, ElicitationClient, FormPolicy, ManualOpen, OpenError, ProtocolChoice,
    RateLimit, ScriptedUi, ServerTarget, SystemBrowser, UrlOpener, UrlPolicy,
};
use mcp_elicit_core::message::Capability;
use serde_json::{Map, Value, json};

/// `mcp-elicit call`.
#[derive(Debug, Args)]
pub(crate) struct CallArgs {
    /// The server: `http(s)://HOST[:PORT]/PATH` (Streamable HTTP) or `stdio:PROGRAM ARGS...`
    /// (child process; shell-style quoting, no shell).
    pub(crate) server: String,
    /// The tool to call.
    pub(crate) tool: String,
    /// Tool arguments, a JSON object.
    #[arg(long, value_name = "JSON")]
    pub(crate) args: Option<String>,
    /// How form elicitations are answered: `accept-defaults`, `decline`, `cancel`, or
    /// `@FILE` with a JSON object of field values (missing fields from the defaults; an
    /// array of objects answers successive forms). Invalid answers are never sent.
    #[arg(long, value_name = "POLICY", default_value = "cancel")]
    pub(crate) respond: String,
    /// URL elicitations: `never` declines them; `print` reports the URL analysis on stderr
    /// and consents without opening anything; `browser` consents and opens the system
    /// browser. Blocked URLs are refused either way.
    #[arg(long, value_enum, default_value_t = OpenUrls::Never)]
    pub(crate) open_urls: OpenUrls,
    /// Declared elicitation modes: `form,url` (default), `form`, `url` or `none`.
    #[arg(long, value_name = "MODES", default_value = "form,url")]
    pub(crate) modes: String,
    /// Rate limit for elicitation requests: `off`, or `BURST/SECONDS` (default `5/10`:
    /// five at once, then one more every ten seconds). Only requests arriving while an
    /// earlier one is unanswered count; a wizard answered step by step never hits it.
    #[arg(long, value_name = "off|BURST/SECONDS", default_value = "5/10", value_parser = RateLimit::parse)]
    pub(crate) rate_limit: RateLimit,
    /// Give up after this many seconds (exit 2).
    #[arg(long, value_name = "SECS", default_value_t = 120)]
    pub(crate) timeout: u64,
    /// The protocol revision: `2025-11-25` or `2026-07-28` forces one; by default
    /// 2026-07-28 when the server offers it, else 2025-11-25.
    #[arg(long, value_name = "REVISION", default_value = "auto")]
    pub(crate) protocol: ProtocolChoice,
    #[command(flatten)]
    pub(crate) auth: auth::CallAuthArgs,
}

/// What `--open-urls` allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum OpenUrls {
    /// Decline URL elicitations.
    Never,
    /// Report the analysis on stderr and consent; open nothing.
    Print,
    /// Consent and open the system browser.
    Browser,
}

/// The opener chosen by `--open-urls`.
pub(crate) enum CliOpener {
    Manual(ManualOpen),
    Browser(SystemBrowser),
}

impl UrlOpener for CliOpener {
    fn open(&self, url: &str) -> Result<(), OpenError> {
        match self {
            Self::Manual(o) => o.open(url),
            Self::Browser(o) => o.open(url),
        }
    }
}

pub(crate) fn parse_modes(s: &str) -> Result<Capability, String> {
    let mut cap = Capability {
        form: false,
        url: false,
    };
    for word in s.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        match word {
            "form" => cap.form = true,
            "url" => cap.url = true,
            "none" => {}
            other => {
                return Err(format!(
                    "unknown mode {other:?} in --modes (use form, url, form,url or none)"
                ));
            }
        }
    }
    Ok(cap)
}

fn parse_respond(s: &str) -> Result<FormPolicy, String> {
    match s {
        "accept-defaults" => Ok(FormPolicy::AcceptDefaults),
        "decline" => Ok(FormPolicy::Decline),
        "cancel" => Ok(FormPolicy::Cancel),
        other => {
            let Some(path) = other.strip_prefix('@') else {
                return Err(format!(
                    "--respond {other:?}: use accept-defaults, decline, cancel or @ANSWERS.json"
                ));
            };
            let path = PathBuf::from(path);
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let value: Value = serde_json::from_str(&text)
                .map_err(|e| format!("{} is not valid JSON: {e}", path.display()))?;
            FormPolicy::answers_from_json(&value).map_err(|e| format!("{}: {e}", path.display()))
        }
    }
}

fn parse_tool_args(s: Option<&str>) -> Result<Option<Map<String, Value>>, String> {
    let Some(s) = s else { return Ok(None) };
    match serde_json::from_str::<Value>(s) {
        Ok(Value::Object(map)) => Ok(Some(map)),
        Ok(_) => Err("--args must be a JSON object".into()),
        Err(e) => Err(format!("--args is not valid JSON: {e}")),
    }
}

pub(crate) fn init_tracing() {
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(log_filter(std::env::var("RUST_LOG").ok().as_deref()))
        .try_init();
}

/// The log filter of `call` and `conformance-client`: `RUST_LOG` when it parses, else
/// warnings, with rmcp's transport worker quiet (its error on quitting repeats what `call`
/// reports itself, wrapped in Rust type names). Whatever `RUST_LOG` says, rmcp's auth
/// engine is held at info: at debug it logs the authorization code and the token
/// response's extra fields (an OpenID `id_token`) in clear, and tokens never reach a log.
fn log_filter(rust_log: Option<&str>) -> tracing_subscriber::EnvFilter {
    let filter = rust_log
        .and_then(|v| tracing_subscriber::EnvFilter::try_new(v).ok())
        .unwrap_or_else(|| tracing_subscriber::EnvFilter::new("warn,rmcp::transport::worker=off"));
    match mcp_elicit_client::auth::QUIET_AUTH_LOGS.parse() {
        Ok(quiet) => filter.add_directive(quiet),
        Err(_) => filter,
    }
}

/// Runs `mcp-elicit call`.
pub(crate) fn run(args: CallArgs) -> ExitCode {
    init_tracing();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("mcp-elicit call: cannot start the async runtime: {e}");
            return ExitCode::from(2);
        }
    };
    match runtime.block_on(call(args)) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("mcp-elicit call: {message}");
            ExitCode::from(2)
        }
    }
}

async fn call(args: CallArgs) -> Result<ExitCode, String> {
    let target: ServerTarget = args.server.parse().map_err(|e| format!("{e}"))?;
    let tool_args = parse_tool_args(args.args.as_deref())?;
    let form = parse_respond(&args.respond)?;
    let modes = parse_modes(&args.modes)?;
    let (url_policy, opener) = match args.open_urls {
        OpenUrls::Never => (UrlPolicy::Never, CliOpener::Manual(ManualOpen)),
        OpenUrls::Print => (UrlPolicy::Consent, CliOpener::Manual(ManualOpen)),
        OpenUrls::Browser => (UrlPolicy::Consent, CliOpener::Browser(SystemBrowser)),
    };
    let timeout = Duration::from_secs(args.timeout.max(1));
    let mut config = Config::default()
        .with_prompt_timeout(None)
        .with_completion_timeout(timeout.min(Duration::from_secs(30)))
        .with_rate_limit(args.rate_limit)
        .with_protocol(args.protocol);
    let authorizer = auth::authorizer(&target, args.auth.parse()).await?;
    if let Some(a) = &authorizer {
        config = config.with_authorizer(a.clone());
    }
    let client = ElicitationClient::new(ScriptedUi::new(modes, form, url_policy), opener, config);

    let work = async {
        let connection = client.clone().connect(&target).await.map_err(|e| {
            match authorizer.as_ref().and_then(|a| a.last_error()) {
                Some(sign_in) => format!("cannot connect to {target}: {}", sign_in_text(&sign_in)),
                None => format!("cannot connect to {target}: {e}"),
            }
        })?;
        let mut params = CallToolRequestParams::new(args.tool.clone());
        if let Some(a) = tool_args {
            params = params.with_arguments(a);
        }
        let outcome = client.call_tool(connection.peer(), params).await;
        let _ = connection.cancel().await;
        Ok::<_, String>(outcome)
    };
    let outcome = tokio::time::timeout(timeout, work)
        .await
        .map_err(|_| format!("timed out after {} s", timeout.as_secs()))??;
    let failures = client.ui().failures();
    match outcome {
        Ok(result) => {
            print_result(&result)?;
            if !failures.is_empty() {
                eprintln!(
                    "mcp-elicit call: {} elicitation failure(s); exiting with 2",
                    failures.len()
                );
                Ok(ExitCode::from(2))
            } else if result.is_error == Some(true) {
                Ok(ExitCode::from(1))
            } else {
                Ok(ExitCode::SUCCESS)
            }
        }
        Err(error) => {
            report_call_error(&error);
            Ok(ExitCode::from(2))
        }
    }
}

/// Why the sign-in failed, naming the server; "sign-in needed" when the server asked for
/// one and this run may not start it (the reason says which flag to give).
fn sign_in_text(e: &mcp_elicit_client::auth::AuthError) -> String {
    match &e.kind {
        mcp_elicit_client::auth::AuthErrorKind::Ui(reason) => {
            format!("{} requires sign-in: {reason}", e.server)
        }
        _ => e.to_string(),
    }
}

fn print_result(result: &CallToolResult) -> Result<(), String> {
    let text = serde_json::to_string_pretty(result)
        .map_err(|e| format!("cannot print the result: {e}"))?;
    println!("{text}");
    Ok(())
}

pub(crate) fn report_call_error(error: &CallError) {
    use mcp_elicit_client::rmcp::service::ServiceError;
    let detail = match error {
        CallError::Service(ServiceError::McpError(e)) => {
            json!({"jsonrpcError": {"code": e.code.0, "message": e.message, "data": e.data}})
        }
        CallError::ElicitationRequired { error: e, .. }
        | CallError::InvalidRequiredData { error: e, .. }
        | CallError::RoundsExhausted { error: e, .. } => {
            json!({"jsonrpcError": {"code": e.code.0, "message": e.message, "data": e.data}})
        }
        _ => Value::Null,
    };
    eprintln!("mcp-elicit call: {error}");
    if !detail.is_null() {
        eprintln!("{detail}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `filter` lets through a debug event of rmcp's auth engine and of our own crate.
    fn debug_enabled(filter: tracing_subscriber::EnvFilter) -> (bool, bool) {
        let subscriber = tracing_subscriber::fmt().with_env_filter(filter).finish();
        tracing::subscriber::with_default(subscriber, || {
            (
                tracing::enabled!(target: "rmcp::transport::auth::manager", tracing::Level::DEBUG),
                tracing::enabled!(target: "mcp_elicit_client::auth", tracing::Level::DEBUG),
            )
        })
    }

    #[test]
    fn rmcp_auth_engine_never_logs_at_debug_whatever_rust_log_says() {
        // At debug it prints the authorization code and the id_token in clear.
        for rust_log in [
            "trace",
            "debug",
            "rmcp=trace",
            "rmcp::transport::auth=trace",
        ] {
            let (auth, ours) = debug_enabled(log_filter(Some(rust_log)));
            assert!(
                !auth,
                "RUST_LOG={rust_log} lets rmcp's auth engine log at debug"
            );
            if rust_log == "trace" || rust_log == "debug" {
                assert!(
                    ours,
                    "RUST_LOG={rust_log} should still show our own debug logs"
                );
            }
        }
        assert_eq!(debug_enabled(log_filter(None)), (false, false));
        // A RUST_LOG that does not parse falls back to the default.
        assert_eq!(debug_enabled(log_filter(Some("=[bad"))), (false, false));
    }

    #[test]
    fn modes_parse() {
        assert_eq!(
            parse_modes("form,url"),
            Ok(Capability {
                form: true,
                url: true
            })
        );
        assert_eq!(
            parse_modes("url"),
            Ok(Capability {
                form: false,
                url: true
            })
        );
        assert_eq!(
            parse_modes("none"),
            Ok(Capability {
                form: false,
                url: false
            })
        );
        assert!(parse_modes("form,sms").is_err());
    }

    #[test]
    fn respond_parses() {
        assert_eq!(
            parse_respond("accept-defaults"),
            Ok(FormPolicy::AcceptDefaults)
        );
        assert!(parse_respond("yes").is_err());
        assert!(parse_respond("@/nonexistent/answers.json").is_err());
    }

    #[test]
    fn tool_args_must_be_an_object() {
        assert!(parse_tool_args(Some("[1]")).is_err());
        assert!(parse_tool_args(Some("{")).is_err());
        assert_eq!(
            parse_tool_args(Some(r#"{"a":1}"#))
                .ok()
                .flatten()
                .map(|m| m.len()),
            Some(1)
        );
    }
}
