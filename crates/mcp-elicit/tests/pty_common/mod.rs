//! What the pseudo-terminal tests of `connect` share: a private tmux server (its own
//! `-L` socket) running one command, keys with `send-keys`, the screen with
//! `capture-pane`.
#![allow(dead_code, unreachable_pub)]

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::support::WAIT;

/// How long a screen may take to show what a test waits for.
pub const GUARD: Duration = Duration::from_secs(90);

/// `s` quoted for `sh`.
pub fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// One tmux session running a shell command; the tmux server is killed on drop.
pub struct Pty {
    socket: String,
}

impl Pty {
    /// Starts `command` in a `width` x `height` terminal.
    pub fn start(command: &str, width: u16, height: u16) -> Self {
        let pty = Self {
            socket: format!("mcpe-pty-auth-{}", std::process::id()),
        };
        let script = format!("{command}; echo EXIT=$?; sleep 600");
        let out = pty.tmux(&[
            "new-session",
            "-d",
            "-s",
            "t",
            "-x",
            &width.to_string(),
            "-y",
            &height.to_string(),
            &script,
        ]);
        assert!(out.status.success(), "tmux new-session: {out:?}");
        pty
    }

    fn tmux(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("run tmux (scripts/install-tools installs it)")
    }

    /// The screen as text, wrapped lines joined.
    pub fn screen(&self) -> String {
        let out = self.tmux(&["capture-pane", "-p", "-J", "-t", "t"]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Waits until the screen shows every one of `texts`; the screen then.
    pub async fn wait_for(&self, texts: &[&str]) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if texts.iter().all(|t| s.contains(t)) {
                return s;
            }
            assert!(
                start.elapsed() < GUARD,
                "still waiting for {texts:?}; the screen is:\n{s}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Sends tmux key names (`Enter`, `C-s`, `o`).
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "t"];
        args.extend_from_slice(keys);
        assert!(self.tmux(&args).status.success());
    }

    /// Types `text` literally.
    pub fn type_text(&self, text: &str) {
        assert!(
            self.tmux(&["send-keys", "-t", "t", "-l", text])
                .status
                .success()
        );
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

/// The text of `path` once something non-empty is written there (the URL-catching
/// "browser" program's file).
pub async fn wait_file(path: &Path, pty: &Pty) -> String {
    let start = Instant::now();
    loop {
        if let Ok(s) = std::fs::read_to_string(path)
            && !s.is_empty()
        {
            return s;
        }
        assert!(
            start.elapsed() < WAIT,
            "the browser was never started; the screen is:\n{}",
            pty.screen()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
