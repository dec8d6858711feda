//! Starting the browser from the consent screen.
//!
//! The host starts the browser itself when the user presses Open, before it answers the
//! client library, so that a missing browser keeps the consent screen (with Copy and "I
//! finished in my browser") instead of answering `cancel`: only once the launcher has
//! started (or the user says they opened the URL themselves) does the client get
//! [`UrlDecision::Open`](mcp_elicit_client::UrlDecision::Open), and the client's own
//! opener is then [`ManualOpen`](mcp_elicit_client::ManualOpen). The URL is still only
//! opened after explicit consent, handed to the launcher as its one argument, without a
//! shell.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Which browser the host starts.
///
/// ```
/// use std::path::PathBuf;
/// use mcp_elicit_tui::host::BrowserChoice;
///
/// assert_eq!(BrowserChoice::default(), BrowserChoice::System);
/// assert_eq!(BrowserChoice::parse("none"), BrowserChoice::None);
/// assert_eq!(BrowserChoice::parse("firefox"), BrowserChoice::Program(PathBuf::from("firefox")));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum BrowserChoice {
    /// The platform's launcher (`xdg-open`, `open`, `explorer`); on Linux and BSD only
    /// when there is a graphical session (`DISPLAY`, `WAYLAND_DISPLAY`) or `BROWSER` is
    /// set, so a text browser never takes over the terminal under SSH.
    #[default]
    System,
    /// This program, run with the URL as its only argument.
    Program(PathBuf),
    /// None: Open says so and the user copies the URL.
    None,
}

impl BrowserChoice {
    /// Parses `--browser`: `none`, `system`, or a program.
    ///
    /// ```
    /// use mcp_elicit_tui::host::BrowserChoice;
    ///
    /// assert_eq!(BrowserChoice::parse("system"), BrowserChoice::System);
    /// assert_eq!(BrowserChoice::parse(""), BrowserChoice::System);
    /// assert_eq!(BrowserChoice::parse("none"), BrowserChoice::None);
    /// assert_eq!(
    ///     BrowserChoice::parse("/usr/bin/lynx"),
    ///     BrowserChoice::Program("/usr/bin/lynx".into())
    /// );
    /// ```
    pub fn parse(s: &str) -> Self {
        match s {
            "none" => Self::None,
            "system" | "" => Self::System,
            p => Self::Program(PathBuf::from(p)),
        }
    }

    /// Starts `url` in this browser, with the URL as the program's one argument and no
    /// shell. `Err` says why not, in words. Blocking (it waits up to two seconds for a
    /// launcher that fails at once).
    ///
    /// ```
    /// use mcp_elicit_tui::host::BrowserChoice;
    /// let e = BrowserChoice::None.launch("https://example.com/").unwrap_err();
    /// assert!(e.contains("--browser none"));
    /// ```
    pub fn launch(&self, url: &str) -> Result<(), String> {
        launch(self, url)
    }
}

/// How long a launcher may take to fail before it counts as started.
const FAIL_WINDOW: Duration = Duration::from_secs(2);

/// Starts `url` in the chosen browser. `Err` says why not, in words. Blocking (it waits
/// up to two seconds for a launcher that fails at once): run it off the screen loop.
pub(crate) fn launch(choice: &BrowserChoice, url: &str) -> Result<(), String> {
    if url.starts_with('-') {
        return Err("refusing to pass a URL starting with '-' to the browser launcher".into());
    }
    let program = match choice {
        BrowserChoice::None => return Err("no browser is configured (--browser none)".into()),
        BrowserChoice::Program(p) => p.clone(),
        BrowserChoice::System => {
            let program = mcp_elicit_client::SystemBrowser::program();
            if cfg!(all(unix, not(target_os = "macos")))
                && ["DISPLAY", "WAYLAND_DISPLAY", "BROWSER"]
                    .iter()
                    .all(|v| std::env::var_os(v).is_none_or(|s| s.is_empty()))
            {
                return Err(
                    "there is no graphical session here (DISPLAY and WAYLAND_DISPLAY \
                            are not set), so no browser can be started"
                        .into(),
                );
            }
            PathBuf::from(program)
        }
    };
    let mut child = Command::new(&program)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", program.display()))?;
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => return Ok(()),
            Ok(Some(status)) => {
                return Err(format!("{} failed ({status})", program.display()));
            }
            Ok(None) if start.elapsed() >= FAIL_WINDOW => {
                // Still running: a browser that stays in the foreground. Reap it later.
                std::thread::spawn(move || {
                    let _ = child.wait();
                });
                return Ok(());
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(format!("{}: {e}", program.display())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn none_and_missing_programs_say_why() {
        let e = launch(&BrowserChoice::None, "https://example.com/").unwrap_err();
        assert!(e.contains("no browser is configured"), "{e}");
        let e = launch(
            &BrowserChoice::Program("/nonexistent/browser".into()),
            "https://example.com/",
        )
        .unwrap_err();
        assert!(e.contains("cannot start /nonexistent/browser"), "{e}");
        let e = launch(
            &BrowserChoice::Program("false".into()),
            "https://example.com/",
        )
        .unwrap_err();
        assert!(e.contains("false failed"), "{e}");
        assert!(
            launch(
                &BrowserChoice::Program("true".into()),
                "https://example.com/"
            )
            .is_ok()
        );
        let e = launch(&BrowserChoice::Program("true".into()), "-x").unwrap_err();
        assert!(e.contains("starting with '-'"), "{e}");
        assert_eq!(BrowserChoice::parse("none"), BrowserChoice::None);
        assert_eq!(BrowserChoice::parse("system"), BrowserChoice::System);
    }
}
