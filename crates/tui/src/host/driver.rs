//! The async driver: connects, then runs the screen loop until the user quits, feeding
//! the [`App`] terminal keys, client requests, call results and clock ticks.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use mcp_elicit_client::rmcp::model::CallToolRequestParams;
use mcp_elicit_client::rmcp::service::{Peer, RoleClient};
use mcp_elicit_client::{
    CallError, Config, ElicitationClient, ManualOpen, ProtocolChoice, ServerTarget,
    TransportIdentity, UrlOpener,
};
use mcp_elicit_core::message::Capability;
use ratatui::Terminal;
use ratatui::backend::Backend;
use ratatui::crossterm::event::{self, Event};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::app::{App, Effect};
use super::bridge::{TuiUi, UiRequest};
use super::browser::{self, BrowserChoice};
use super::{child, convert};
use crate::terminal::{self, TerminalSession};

/// How the host connects and what it declares.
///
/// ```
/// use std::time::Duration;
/// use mcp_elicit_tui::host::{BrowserChoice, HostOptions};
///
/// // The defaults: both modes declared, the system browser, and Retry now offered after
/// // 5 s without a completion notice (the client library's own default is 120 s).
/// let options = HostOptions::default();
/// assert!(options.modes.form && options.modes.url);
/// assert_eq!(options.browser, BrowserChoice::System);
/// assert_eq!(options.config.completion_timeout, Duration::from_secs(5));
/// assert_eq!(options.config.prompt_timeout, Some(Duration::from_secs(600)));
/// ```
#[derive(Debug, Clone)]
pub struct HostOptions {
    /// The elicitation modes to declare (form, URL or both).
    pub modes: Capability,
    /// The client library's configuration (rate limit, timeouts, limits).
    pub config: Config,
    /// Which browser Open starts.
    pub browser: BrowserChoice,
}

/// How long a call waits for a completion notice before the waiting view offers Retry
/// now (the library's default, two minutes, is long for a person at the screen).
pub(crate) const RETRY_OFFERED_AFTER: Duration = Duration::from_secs(5);

impl Default for HostOptions {
    fn default() -> Self {
        Self {
            modes: Capability {
                form: true,
                url: true,
            },
            config: Config::default().with_completion_timeout(RETRY_OFFERED_AFTER),
            browser: BrowserChoice::System,
        }
    }
}

/// Why the host stopped with an error.
///
/// ```
/// use mcp_elicit_tui::host::HostError;
///
/// let e = HostError("cannot connect: connection refused".into());
/// assert_eq!(e.to_string(), "cannot connect: connection refused");
/// let _: &dyn std::error::Error = &e;
/// ```
#[derive(Debug)]
pub struct HostError(pub String);

impl std::fmt::Display for HostError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for HostError {}

fn err(what: &str, e: impl std::fmt::Display) -> HostError {
    HostError(format!("{what}: {e}"))
}

/// Connects to `target` and runs the interactive host on the real terminal until the
/// user quits. The caller checks for a terminal first ([`terminal::require_tty`]).
///
/// ```
/// use mcp_elicit_client::ServerTarget;
/// use mcp_elicit_tui::host::{HostOptions, run};
///
/// // A server that cannot be started ends the host before any screen is drawn.
/// let target: ServerTarget = "stdio:/nonexistent/mcp-server".parse().expect("a stdio target");
/// let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
/// let e = runtime.block_on(run(&target, HostOptions::default())).unwrap_err();
/// assert!(e.0.starts_with("cannot start the server: "), "{e}");
/// assert!(e.0.contains("/nonexistent/mcp-server"), "{e}");
/// ```
pub async fn run(target: &ServerTarget, options: HostOptions) -> Result<(), HostError> {
    let (ui, ui_rx) = TuiUi::new(options.modes);
    // The screen starts the browser itself before consenting (see `browser`), so a
    // missing browser keeps the consent screen; the client opens nothing more.
    let configured = options.config.protocol;
    let client = ElicitationClient::new(ui, ManualOpen, options.config);
    let browser = options.browser.clone();
    eprintln!("mcp-elicit: connecting to {target} ...");
    let mut stderr = None;
    let mut process = None;
    let connection = match target {
        ServerTarget::Stdio { command } => {
            let mut protocol = configured;
            loop {
                let p = child::spawn(command).map_err(|e| err("cannot start the server", e))?;
                let identity = TransportIdentity::Stdio {
                    command: command.clone(),
                };
                stderr = Some(p.stderr.clone());
                let (stdout, stdin) = (p.stdout, p.stdin);
                process = Some(p.child);
                let attempt = client
                    .clone()
                    .connect_io_with_protocol(stdout, stdin, identity, protocol)
                    .await;
                match attempt {
                    // A server that offers only revisions with `initialize` (2025-11-25
                    // and earlier) is started again and spoken to that way, as
                    // `ElicitationClient::connect` does for its own processes.
                    Err(e) if protocol == ProtocolChoice::Auto && e.offers_only_initialize() => {
                        drop(process.take());
                        protocol = ProtocolChoice::V2025_11_25;
                    }
                    other => break other,
                }
            }
        }
        _ => client.clone().connect(target).await,
    };
    let result = match connection {
        Ok(connection) => {
            let peer = connection.peer().clone();
            let r = run_connected(&client, peer, client.transport_identity(), ui_rx, browser).await;
            let _ = connection.cancel().await;
            r
        }
        Err(e) => Err(err("cannot connect", e)),
    };
    drop(process);
    if let Some(lines) = stderr.map(|s| s.lines()).filter(|l| !l.is_empty()) {
        eprintln!("mcp-elicit: the server's last messages on stderr:");
        for l in lines.iter().rev().take(20).rev() {
            eprintln!("  {}", crate::text::one_line(l));
        }
    }
    result
}

/// Runs the host on the real terminal over an established connection.
async fn run_connected<O: UrlOpener>(
    client: &ElicitationClient<TuiUi, O>,
    peer: Peer<RoleClient>,
    transport: TransportIdentity,
    ui_rx: mpsc::UnboundedReceiver<UiRequest>,
    browser: BrowserChoice,
) -> Result<(), HostError> {
    let tools = peer
        .list_all_tools()
        .await
        .map_err(|e| err("cannot list the server's tools", e))?;
    let info = peer.peer_info();
    let identity = mcp_elicit_client::ServerIdentity::new(info.as_deref(), transport);
    let instructions = info.as_deref().and_then(|i| i.instructions.clone());
    let app = App::new(convert::identity(&identity), instructions, tools);

    let mut session = TerminalSession::start().map_err(|e| err("cannot set up the terminal", e))?;
    let stop = Arc::new(AtomicBool::new(false));
    let (input_tx, input_rx) = mpsc::unbounded_channel();
    let reader = spawn_input(input_tx, stop.clone());
    let result = run_loop(
        session.terminal(),
        app,
        client,
        peer,
        ui_rx,
        input_rx,
        Actions {
            copy: |u: &str| terminal::copy_to_clipboard(u).map_err(|e| e.to_string()),
            browser,
        },
    )
    .await;
    stop.store(true, Ordering::SeqCst);
    drop(session);
    let _ = reader.join();
    result
}

/// Reads terminal events on a thread (crossterm's reader blocks), forwarding them until
/// `stop` is set or the receiver is gone.
pub(crate) fn spawn_input(
    tx: mpsc::UnboundedSender<Event>,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        while !stop.load(Ordering::SeqCst) {
            match event::poll(Duration::from_millis(100)) {
                Ok(true) => match event::read() {
                    Ok(ev) => {
                        if tx.send(ev).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                },
                Ok(false) => {}
                Err(_) => break,
            }
        }
    })
}

/// What the screen loop does outside the screens: copying and starting the browser.
pub(crate) struct Actions<C> {
    /// Copies a URL (OSC 52 on the real terminal).
    pub(crate) copy: C,
    /// The browser Open starts.
    pub(crate) browser: BrowserChoice,
}

/// The running tool call.
struct Running {
    tool: String,
    task: JoinHandle<Result<mcp_elicit_client::rmcp::model::CallToolResult, CallError>>,
}

/// The screen loop over any backend (a real terminal, or a test backend with scripted
/// input). Returns when the user quits or the input ends.
pub(crate) async fn run_loop<B: Backend, O: UrlOpener>(
    terminal: &mut Terminal<B>,
    mut app: App,
    client: &ElicitationClient<TuiUi, O>,
    peer: Peer<RoleClient>,
    mut ui_rx: mpsc::UnboundedReceiver<UiRequest>,
    mut input: mpsc::UnboundedReceiver<Event>,
    actions: Actions<impl Fn(&str) -> Result<(), String>>,
) -> Result<(), HostError> {
    let mut tick = tokio::time::interval(Duration::from_millis(250));
    let mut running: Option<Running> = None;
    let mut opening: Option<JoinHandle<Result<(), String>>> = None;
    loop {
        let now = Instant::now();
        app.stop_asking = client.is_stop_asking();
        terminal
            .draw(|f| {
                let area = f.area();
                if let Some(pos) = app.render(now, area, f.buffer_mut()) {
                    f.set_cursor_position(pos);
                }
            })
            .map_err(|e| err("cannot draw", e))?;
        tokio::select! {
            ev = input.recv() => {
                let Some(ev) = ev else { break };
                let Event::Key(key) = ev else { continue };
                match app.key(key, Instant::now()) {
                    Some(Effect::Quit) => break,
                    Some(Effect::CallTool(tool, args)) => {
                        if let Some(r) = running.take() {
                            r.task.abort();
                        }
                        let client = client.clone();
                        let peer = peer.clone();
                        let params = CallToolRequestParams::new(tool.clone()).with_arguments(args);
                        let task = tokio::spawn(async move { client.call_tool(&peer, params).await });
                        running = Some(Running { tool, task });
                    }
                    Some(Effect::CancelCall) => {
                        if let Some(r) = running.take() {
                            r.task.abort();
                        }
                    }
                    Some(Effect::Copy(url)) => app.copied((actions.copy)(&url)),
                    Some(Effect::Open(url)) if opening.is_none() => {
                        let choice = actions.browser.clone();
                        opening = Some(tokio::task::spawn_blocking(move || browser::launch(&choice, &url)));
                    }
                    Some(Effect::Open(_)) => {}
                    Some(Effect::ToggleStopAsking) => client.set_stop_asking(!client.is_stop_asking()),
                    None => {}
                }
            }
            req = ui_rx.recv() => {
                if let Some(req) = req {
                    app.request(req, Instant::now());
                }
            }
            done = async {
                match running.as_mut() {
                    Some(r) => (&mut r.task).await,
                    None => std::future::pending().await,
                }
            } => {
                if let Some(r) = running.take() {
                    match done {
                        Ok(result) => app.call_finished(&r.tool, result),
                        // The panic hook has already restored the terminal: stop drawing.
                        Err(e) if e.is_panic() => {
                            return Err(HostError(format!(
                                "internal error while calling \"{}\"; please report it",
                                r.tool
                            )));
                        }
                        Err(e) => app.call_finished(&r.tool, Err(CallError::Service(
                            mcp_elicit_client::rmcp::ServiceError::Cancelled { reason: Some(e.to_string()) },
                        ))),
                    }
                }
            }
            opened = async {
                match opening.as_mut() {
                    Some(t) => t.await,
                    None => std::future::pending().await,
                }
            } => {
                opening = None;
                let result = opened.unwrap_or_else(|e| Err(format!("the browser launcher stopped: {e}")));
                app.opened(result, Instant::now());
            }
            _ = tick.tick() => app.tick(Instant::now()),
        }
    }
    if let Some(r) = running.take() {
        r.task.abort();
    }
    Ok(())
}
