//! Opening a consented URL: [`UrlOpener`].
//!
//! The specification: clients MUST open the URL in a way that does not let the client or
//! the LLM inspect the page or the user's input. [`SystemBrowser`] hands the URL to the
//! desktop's browser (`xdg-open` on Linux and BSD, `open` on macOS, `explorer` on
//! Windows) as one argument, without a shell; the client never fetches the URL itself.
//! [`SystemBrowser::with_program`] runs another launcher the same way ([`Launcher`]).
//! Tests and headless hosts substitute their own opener.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

/// Why a URL could not be opened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct OpenError(pub String);

/// Opens a URL the user consented to.
pub trait UrlOpener: Send + Sync + 'static {
    /// Opens `url` (already checked: `http` or `https`, not blocked, consented).
    fn open(&self, url: &str) -> Result<(), OpenError>;
}

/// The system browser: the platform's launcher (`xdg-open`, `open` or `explorer`) run
/// directly, the URL as its one argument.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemBrowser;

impl SystemBrowser {
    /// The platform's browser launcher.
    pub fn program() -> &'static str {
        if cfg!(target_os = "macos") {
            "open"
        } else if cfg!(target_os = "windows") {
            "explorer"
        } else {
            "xdg-open"
        }
    }

    /// The same opener with another launcher program (a path, or a name looked up on
    /// `PATH`): for hosts with their own launcher, and for tests that check what the
    /// launcher receives.
    pub fn with_program(program: impl Into<PathBuf>) -> Launcher {
        Launcher {
            program: program.into(),
        }
    }
}

impl UrlOpener for SystemBrowser {
    fn open(&self, url: &str) -> Result<(), OpenError> {
        Self::with_program(Self::program()).open(url)
    }
}

/// Opens a URL by running one launcher program with the URL as its only argument: no
/// shell, nothing else on the command line, standard streams closed.
/// [`SystemBrowser`] is this with the platform's launcher.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Launcher {
    program: PathBuf,
}

impl Launcher {
    /// The program run.
    pub fn program(&self) -> &Path {
        &self.program
    }

    fn command(&self, url: &str) -> Command {
        let mut cmd = Command::new(&self.program);
        cmd.arg(url)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        cmd
    }
}

impl UrlOpener for Launcher {
    fn open(&self, url: &str) -> Result<(), OpenError> {
        // A URL that could be read as an option never reaches the command line.
        if url.starts_with('-') {
            return Err(OpenError(
                "refusing to pass a URL starting with '-' to the browser launcher".into(),
            ));
        }
        let mut child = self.command(url).spawn().map_err(|e| {
            OpenError(format!(
                "cannot start the browser launcher {}: {e}",
                self.program.display()
            ))
        })?;
        // Reap the launcher in the background so it does not linger as a zombie.
        std::thread::spawn(move || {
            let _ = child.wait();
        });
        Ok(())
    }
}

/// Opens nothing: the host shows the URL and the user opens it themselves (used by
/// `mcp-elicit call --open-urls print`). Consent is still required before this is called.
#[derive(Debug, Clone, Copy, Default)]
pub struct ManualOpen;

impl UrlOpener for ManualOpen {
    fn open(&self, _url: &str) -> Result<(), OpenError> {
        Ok(())
    }
}

/// Records the URLs it was asked to open (for tests and dry runs).
#[derive(Debug, Clone, Default)]
pub struct RecordingOpener {
    opened: Arc<Mutex<Vec<String>>>,
}

impl RecordingOpener {
    /// The URLs opened so far.
    pub fn opened(&self) -> Vec<String> {
        match self.opened.lock() {
            Ok(v) => v.clone(),
            Err(p) => p.into_inner().clone(),
        }
    }
}

impl UrlOpener for RecordingOpener {
    fn open(&self, url: &str) -> Result<(), OpenError> {
        match self.opened.lock() {
            Ok(mut v) => v.push(url.to_owned()),
            Err(p) => p.into_inner().push(url.to_owned()),
        }
        Ok(())
    }
}

impl<T: UrlOpener> UrlOpener for Arc<T> {
    fn open(&self, url: &str) -> Result<(), OpenError> {
        (**self).open(url)
    }
}
