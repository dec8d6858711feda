//! Running the sign-in consent screen on the terminal while the loopback redirect waits.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use ratatui::Terminal;
use ratatui::backend::Backend;
use ratatui::crossterm::event::Event;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::{SignInChoice, SignInConsentState, SignInRequest};
use crate::host::BrowserChoice;
use crate::host::browser;
use crate::host::driver::spawn_input;
use crate::terminal::{self, TerminalSession};

/// Why the screen ended without the sign-in finishing.
///
/// ```
/// use mcp_elicit_tui::signin::SignInAbort;
///
/// assert_eq!(SignInAbort::Cancelled.to_string(), "sign-in cancelled");
/// let no_tty = SignInAbort::Terminal("stdin is not a terminal".into());
/// assert_eq!(no_tty.to_string(), "cannot show the sign-in screen: stdin is not a terminal");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignInAbort {
    /// The user cancelled (or the input ended).
    Cancelled,
    /// The terminal could not be used; the text says why.
    Terminal(String),
}

impl std::fmt::Display for SignInAbort {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Cancelled => f.write_str("sign-in cancelled"),
            Self::Terminal(e) => write!(f, "cannot show the sign-in screen: {e}"),
        }
    }
}

impl std::error::Error for SignInAbort {}

/// Shows the sign-in consent screen for `request` on the real terminal (raw mode and
/// the alternate screen for its duration) until `done` finishes (the loopback redirect
/// received the browser's answer: its output is returned) or the user cancels. Open
/// starts `browser` on the sign-in page only after the consent rules of the screen.
///
/// The caller checks for a terminal first ([`terminal::require_tty`]); `done` is polled
/// from the start, so a redirect that arrives early still ends the screen.
pub async fn run<T>(
    request: SignInRequest,
    browser: BrowserChoice,
    done: impl Future<Output = T>,
) -> Result<T, SignInAbort> {
    let mut session = TerminalSession::start().map_err(|e| SignInAbort::Terminal(e.to_string()))?;
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::unbounded_channel();
    let reader = spawn_input(tx, stop.clone());
    let result = run_on(
        session.terminal(),
        SignInConsentState::new(request),
        rx,
        |u: &str| terminal::copy_to_clipboard(u).map_err(|e| e.to_string()),
        browser,
        done,
    )
    .await;
    stop.store(true, Ordering::SeqCst);
    drop(session);
    let _ = reader.join();
    result
}

/// The screen loop over any backend (tests use a test backend and scripted keys).
pub(crate) async fn run_on<B: Backend, T>(
    terminal: &mut Terminal<B>,
    mut state: SignInConsentState,
    mut input: mpsc::UnboundedReceiver<Event>,
    copy: impl Fn(&str) -> Result<(), String>,
    choice: BrowserChoice,
    done: impl Future<Output = T>,
) -> Result<T, SignInAbort> {
    tokio::pin!(done);
    let mut opening: Option<JoinHandle<Result<(), String>>> = None;
    loop {
        terminal
            .draw(|f| {
                let area = f.area();
                state.render(area, f.buffer_mut());
            })
            .map_err(|e| SignInAbort::Terminal(e.to_string()))?;
        tokio::select! {
            value = &mut done => return Ok(value),
            ev = input.recv() => {
                let Some(ev) = ev else { return Err(SignInAbort::Cancelled) };
                let Event::Key(key) = ev else { continue };
                match state.handle_key(key) {
                    Some(SignInChoice::Cancel) => return Err(SignInAbort::Cancelled),
                    Some(SignInChoice::Copy) => {
                        if let Some(url) = state.url().map(str::to_owned) {
                            state.set_copied(copy(&url));
                        }
                    }
                    Some(SignInChoice::Open) if opening.is_none() => {
                        if let Some(url) = state.url().map(str::to_owned) {
                            let choice = choice.clone();
                            opening = Some(tokio::task::spawn_blocking(move || browser::launch(&choice, &url)));
                        }
                    }
                    Some(SignInChoice::Open) | None => {}
                }
            }
            opened = async {
                match opening.as_mut() {
                    Some(t) => t.await,
                    None => std::future::pending().await,
                }
            } => {
                opening = None;
                state.set_opened(opened.unwrap_or_else(|e| Err(format!("the browser launcher stopped: {e}"))));
            }
        }
    }
}
