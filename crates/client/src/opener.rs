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

/// Why a URL could not be opened. The client tells the user
/// ([`Notice::OpenFailed`](crate::Notice::OpenFailed), with this text) and answers the
/// server `cancel`.
///
/// ```
/// use mcp_elicit_client::{OpenError, SystemBrowser, UrlOpener};
///
/// let missing = SystemBrowser::with_program("/nonexistent/browser-launcher");
/// let OpenError(reason) = missing.open("https://example.com/").unwrap_err();
/// assert!(reason.starts_with("cannot start the browser launcher /nonexistent/browser-launcher"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct OpenError(pub String);

/// Opens a URL the user consented to.
///
/// The client calls it only after [`UrlDecision::Open`](crate::UrlDecision::Open), with
/// the normalized URL of an `http`/`https` URL that is not blocked. A host with its own
/// way to open URLs (an embedded browser that the client cannot inspect, a message to a
/// phone) implements it; `Arc<T>` of an opener is an opener too.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use mcp_elicit_client::{OpenError, UrlOpener};
///
/// /// Hands URLs to another part of the program; refuses once it is shut down.
/// #[derive(Default)]
/// struct Outbox {
///     urls: Mutex<Option<Vec<String>>>,
/// }
///
/// impl UrlOpener for Outbox {
///     fn open(&self, url: &str) -> Result<(), OpenError> {
///         match self.urls.lock().unwrap().as_mut() {
///             Some(urls) => {
///                 urls.push(url.to_owned());
///                 Ok(())
///             }
///             None => Err(OpenError("the outbox is closed".into())),
///         }
///     }
/// }
///
/// let outbox = Arc::new(Outbox { urls: Mutex::new(Some(Vec::new())) });
/// outbox.open("https://auth.example.com/connect")?; // through the `Arc`
/// let sent = outbox.urls.lock().unwrap().clone();
/// assert_eq!(sent, Some(vec!["https://auth.example.com/connect".to_string()]));
/// *outbox.urls.lock().unwrap() = None;
/// assert_eq!(outbox.open("https://x.example/").unwrap_err().to_string(), "the outbox is closed");
/// # Ok::<(), OpenError>(())
/// ```
pub trait UrlOpener: Send + Sync + 'static {
    /// Opens `url` (already checked: `http` or `https`, not blocked, consented).
    fn open(&self, url: &str) -> Result<(), OpenError>;
}

/// The system browser: the platform's launcher (`xdg-open`, `open` or `explorer`) run
/// directly, the URL as its one argument.
///
/// [`open`](UrlOpener::open) returns once the launcher has started (it is reaped in the
/// background); that the browser then shows the page is not checked.
///
/// ```
/// use mcp_elicit_client::{Config, ElicitationClient, FormPolicy, ScriptedUi, SystemBrowser, UrlPolicy};
/// use mcp_elicit_core::message::Capability;
///
/// // The usual opener of an interactive host.
/// let ui = ScriptedUi::new(Capability::ALL, FormPolicy::Decline, UrlPolicy::Never);
/// let client = ElicitationClient::new(ui, SystemBrowser, Config::default());
/// assert!(client.capability().url);
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemBrowser;

impl SystemBrowser {
    /// The platform's browser launcher: `open` on macOS, `explorer` on Windows,
    /// `xdg-open` elsewhere.
    ///
    /// ```
    /// use mcp_elicit_client::SystemBrowser;
    ///
    /// if cfg!(target_os = "linux") {
    ///     assert_eq!(SystemBrowser::program(), "xdg-open");
    /// }
    /// ```
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
    ///
    /// ```
    /// use mcp_elicit_client::{SystemBrowser, UrlOpener};
    ///
    /// let firefox = SystemBrowser::with_program("firefox");
    /// assert_eq!(firefox.program(), std::path::Path::new("firefox"));
    /// // A "URL" that a launcher could read as an option is never passed on.
    /// let err = firefox.open("--new-instance").unwrap_err();
    /// assert!(err.0.contains("starting with '-'"), "{err}");
    /// ```
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
/// [`SystemBrowser`] is this with the platform's launcher. Made by
/// [`SystemBrowser::with_program`].
///
/// ```
/// use mcp_elicit_client::{SystemBrowser, UrlOpener};
///
/// // The URL is the program's one argument and no shell sees it; a program that cannot
/// // be started is an error the user is told about.
/// let launcher = SystemBrowser::with_program("/nonexistent/launcher");
/// let err = launcher.open("https://example.com/?q=a;b").unwrap_err();
/// assert!(err.0.starts_with("cannot start the browser launcher"));
/// assert_eq!(launcher, SystemBrowser::with_program("/nonexistent/launcher"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Launcher {
    program: PathBuf,
}

impl Launcher {
    /// The program run.
    ///
    /// ```
    /// use mcp_elicit_client::SystemBrowser;
    ///
    /// let launcher = SystemBrowser::with_program("/usr/bin/my-launcher");
    /// assert_eq!(launcher.program().to_str(), Some("/usr/bin/my-launcher"));
    /// ```
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
///
/// It always succeeds, so the server is told `accept` once the user consents.
///
/// ```
/// use mcp_elicit_client::{ManualOpen, UrlOpener};
///
/// assert_eq!(ManualOpen.open("https://auth.example.com/connect"), Ok(()));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct ManualOpen;

impl UrlOpener for ManualOpen {
    fn open(&self, _url: &str) -> Result<(), OpenError> {
        Ok(())
    }
}

/// Records the URLs it was asked to open (for tests and dry runs). Clones share the
/// record: keep one, give the other to the client.
///
/// ```
/// use mcp_elicit_client::{RecordingOpener, UrlOpener};
///
/// let opener = RecordingOpener::default();
/// let given_to_the_client = opener.clone();
/// given_to_the_client.open("https://auth.example.com/connect")?;
/// assert_eq!(opener.opened(), ["https://auth.example.com/connect"]);
/// # Ok::<(), mcp_elicit_client::OpenError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct RecordingOpener {
    opened: Arc<Mutex<Vec<String>>>,
}

impl RecordingOpener {
    /// The URLs opened so far, oldest first.
    ///
    /// ```
    /// use mcp_elicit_client::{RecordingOpener, UrlOpener};
    ///
    /// let opener = RecordingOpener::default();
    /// assert!(opener.opened().is_empty());
    /// opener.open("https://a.example/")?;
    /// opener.open("https://b.example/")?;
    /// assert_eq!(opener.opened(), ["https://a.example/", "https://b.example/"]);
    /// # Ok::<(), mcp_elicit_client::OpenError>(())
    /// ```
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
