//! The real terminal: raw mode and the alternate screen, restored on exit, on error and
//! on panic; a clear message when there is no terminal; clipboard copy via OSC 52.

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use ratatui::DefaultTerminal;

/// Checks that stdin and stdout are terminals. `command` names the subcommand for the
/// message, which points to the non-interactive alternative.
///
/// ```
/// use mcp_elicit_tui::terminal::require_tty;
///
/// // Under a test harness stdin or stdout is usually not a terminal; either way an error
/// // points to the non-interactive command.
/// if let Err(message) = require_tty("connect") {
///     assert!(message.starts_with("mcp-elicit connect is interactive and needs a terminal"));
///     assert!(message.contains("mcp-elicit call"));
/// }
/// ```
pub fn require_tty(command: &str) -> Result<(), String> {
    let stdin = io::stdin().is_terminal();
    let stdout = io::stdout().is_terminal();
    if stdin && stdout {
        return Ok(());
    }
    let which = match (stdin, stdout) {
        (false, false) => "stdin and stdout are not terminals",
        (false, true) => "stdin is not a terminal",
        _ => "stdout is not a terminal",
    };
    Err(not_a_terminal_message(command, which))
}

/// The message shown when the interactive host cannot run.
///
/// ```
/// use mcp_elicit_tui::terminal::not_a_terminal_message;
///
/// let m = not_a_terminal_message("demo", "stdout is not a terminal");
/// assert!(m.starts_with("mcp-elicit demo is interactive and needs a terminal, but stdout is not a terminal."));
/// assert!(m.contains("use `mcp-elicit call`"));
/// ```
pub fn not_a_terminal_message(command: &str, which: &str) -> String {
    format!(
        "mcp-elicit {command} is interactive and needs a terminal, but {which}. \
         For scripts and pipes use `mcp-elicit call`, which answers elicitations from \
         flags or files without a terminal."
    )
}

/// A terminal in raw mode on the alternate screen. Dropping it restores the terminal;
/// a panic hook (installed by `ratatui::try_init`) restores it on panic too.
pub struct TerminalSession {
    terminal: DefaultTerminal,
}

impl std::fmt::Debug for TerminalSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TerminalSession")
    }
}

/// Whether a [`TerminalSession`] is open in this process: a second one (a sign-in screen
/// asked for while the host already draws, e.g. a step-up in the middle of a call) would
/// draw over the first and restore the terminal under it when it ends.
static IN_USE: AtomicBool = AtomicBool::new(false);

/// Whether a [`TerminalSession`] holds the terminal now (the host or a sign-in screen is
/// on screen), so that a second screen is not started over it.
///
/// ```
/// assert!(!mcp_elicit_tui::terminal::in_use());
/// ```
pub fn in_use() -> bool {
    IN_USE.load(Ordering::SeqCst)
}

impl TerminalSession {
    /// Enters raw mode and the alternate screen.
    ///
    /// Refused with [`io::ErrorKind::ResourceBusy`] while another session of this process
    /// holds the terminal (one screen owns it at a time).
    pub fn start() -> io::Result<Self> {
        if IN_USE.swap(true, Ordering::SeqCst) {
            return Err(io::Error::new(
                io::ErrorKind::ResourceBusy,
                "the terminal is already showing another screen of mcp-elicit",
            ));
        }
        match ratatui::try_init() {
            Ok(terminal) => Ok(Self { terminal }),
            Err(e) => {
                IN_USE.store(false, Ordering::SeqCst);
                Err(e)
            }
        }
    }

    /// The terminal to draw on (it follows resizes on every draw).
    pub fn terminal(&mut self) -> &mut DefaultTerminal {
        &mut self.terminal
    }
}

impl Drop for TerminalSession {
    fn drop(&mut self) {
        ratatui::restore();
        IN_USE.store(false, Ordering::SeqCst);
    }
}

/// Copies `text` to the clipboard through the terminal (OSC 52), which also works over
/// SSH. Terminals that ignore OSC 52 silently do nothing, so the screen says where the
/// URL is in any case.
pub fn copy_to_clipboard(text: &str) -> io::Result<()> {
    let mut out = io::stdout();
    crossterm::execute!(
        out,
        crossterm::clipboard::CopyToClipboard::to_clipboard_from(text)
    )?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_session_is_refused_while_one_holds_the_terminal() {
        // As if the host were on screen (a real session needs a terminal).
        IN_USE.store(true, Ordering::SeqCst);
        let second = TerminalSession::start();
        assert!(in_use());
        IN_USE.store(false, Ordering::SeqCst);
        let e = second.expect_err("a second screen over the host");
        assert_eq!(e.kind(), io::ErrorKind::ResourceBusy);
        assert!(e.to_string().contains("already showing"), "{e}");
    }

    #[test]
    fn message_points_to_call() {
        let m = not_a_terminal_message("connect", "stdin is not a terminal");
        assert!(m.contains("stdin is not a terminal"));
        assert!(m.contains("mcp-elicit call"));
    }

    #[test]
    fn tests_run_without_a_terminal_and_are_told_so() {
        // Under `cargo test` stdin is not a terminal when piped (as in CI); when it is a
        // terminal this check passes instead, so only the error shape is asserted.
        if let Err(m) = require_tty("connect") {
            assert!(m.contains("mcp-elicit call"));
        }
    }
}
