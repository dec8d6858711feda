//! End to end in a real pseudo-terminal: `mcp-elicit demo` runs inside a private tmux
//! server, keys are sent with `tmux send-keys` and the screen is read back with
//! `tmux capture-pane` (tmux is the terminal emulator).
//!
//! No timing assertions: every step polls the screen for the text a user must see, with
//! a generous hang guard, and keys are only sent once the screen they are meant for is
//! showing. The tests fail where tmux is not installed (`scripts/install-tools` installs it).

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Hang guard per expected screen (never a timing assertion).
const GUARD: Duration = Duration::from_secs(90);

const BIN: &str = env!("CARGO_BIN_EXE_mcp-elicit");

/// tmux is the terminal emulator of these tests: without it they fail (never skip),
/// telling how to get it (`scripts/install-tools` installs it).
fn require_tmux() {
    let ok = Command::new("tmux")
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        ok,
        "tmux is not installed: run scripts/install-tools (or apt-get install tmux)"
    );
}

/// Single-quotes `s` for `sh`.
fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// One tmux server of our own (its socket is named after this process and a counter),
/// running one session with the program; killed on drop.
struct Pty {
    socket: String,
}

impl Pty {
    /// Starts `mcp-elicit ARGS` in a `width`×`height` terminal. A shell wraps it to
    /// report, once it exits, its status and whether the terminal settings came back
    /// exactly as they were (raw mode undone).
    fn start(args: &str, width: u16, height: u16) -> Self {
        static N: AtomicUsize = AtomicUsize::new(0);
        let socket = format!(
            "mcpe-pty-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        );
        let script = format!(
            "before=$(stty -g); {} {args}; code=$?; after=$(stty -g); \
             if [ \"$before\" = \"$after\" ]; then echo TTY-RESTORED; else echo TTY-CHANGED; fi; \
             echo EXIT=$code; sleep 600",
            sh_quote(BIN)
        );
        let pty = Self { socket };
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
            .expect("run tmux")
    }

    /// The screen as text, one string per row.
    fn screen(&self) -> Vec<String> {
        let out = self.tmux(&["capture-pane", "-p", "-t", "t"]);
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_owned)
            .collect()
    }

    /// Waits until every one of `texts` is on screen; returns that screen.
    fn wait_for(&self, texts: &[&str]) -> Vec<String> {
        let start = Instant::now();
        loop {
            let s = self.screen();
            let joined = s.join("\n");
            if texts.iter().all(|t| joined.contains(t)) {
                return s;
            }
            assert!(
                start.elapsed() < GUARD,
                "still waiting for {texts:?}; the screen is:\n{joined}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Named keys (`Enter`, `Down`, `C-s`, `BSpace`...).
    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "t"];
        args.extend_from_slice(keys);
        let out = self.tmux(&args);
        assert!(out.status.success(), "send-keys {keys:?}: {out:?}");
    }

    /// Literal text.
    fn type_text(&self, text: &str) {
        let out = self.tmux(&["send-keys", "-t", "t", "-l", text]);
        assert!(out.status.success(), "send-keys -l {text:?}: {out:?}");
    }

    fn resize(&self, width: u16, height: u16) {
        let out = self.tmux(&[
            "resize-window",
            "-t",
            "t",
            "-x",
            &width.to_string(),
            "-y",
            &height.to_string(),
        ]);
        assert!(out.status.success(), "resize-window: {out:?}");
    }

    /// From the tool list (first tool selected), runs tool number `index` (no arguments).
    fn run_tool(&self, index: usize, name: &str) {
        self.wait_for(&["> demo_form"]);
        for _ in 0..index {
            self.keys(&["Down"]);
        }
        self.wait_for(&[&format!("> {name}")]);
        self.keys(&["Enter"]);
        self.wait_for(&[&format!("Tool: {name}"), "Review & run (Ctrl-S)"]);
        self.keys(&["C-s"]);
        self.wait_for(&[
            "Review tool arguments from server",
            &format!("Tool \"{name}\" will be called"),
        ]);
        self.keys(&["Enter"]);
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

#[test]
fn demo_form_url_and_required_flows_in_a_real_terminal() {
    require_tmux();
    let pty = Pty::start("demo", 100, 30);
    let s = pty.wait_for(&[
        "Tools from server: mcp-elicit reference server",
        "> demo_form",
        "Enter call tool",
    ]);
    let header = s[..2].join(" ");
    assert!(
        header.contains("via") && header.contains("http://127.0.0.1:"),
        "the transport (loopback origin) is named in the header: {s:#?}"
    );

    // A form: an invalid e-mail is caught on screen, fixed, reviewed, sent.
    pty.run_tool(0, "demo_form");
    pty.wait_for(&[
        "Form request from server: mcp-elicit reference server",
        "Tell us about yourself",
        "E-mail *",
    ]);
    pty.keys(&["C-s"]);
    pty.wait_for(&["Not sent: 2 problems to fix", "\"email\": is required"]);
    // Focus is on the first field in error, the e-mail.
    pty.type_text("octo-at-example");
    pty.wait_for(&["[octo-at-example "]);
    pty.keys(&["C-s"]);
    pty.wait_for(&["must be an email address like name@example.com"]);
    let backspaces = vec!["BSpace"; "octo-at-example".len()];
    pty.keys(&backspaces);
    pty.type_text("octo@example.com");
    pty.wait_for(&["[octo@example.com "]);
    // Tab: birthday, height, age.
    pty.keys(&["Tab", "Tab", "Tab"]);
    pty.type_text("42");
    pty.wait_for(&["[42 "]);
    pty.keys(&["C-s"]);
    pty.wait_for(&[
        "This exact JSON will be sent to mcp-elicit reference server",
        "\"email\": \"octo@example.com\"",
        "\"age\": 42",
    ]);
    pty.keys(&["Enter"]);
    pty.wait_for(&[
        "Result of tool \"demo_form\"",
        "Thanks! The server validated your answer",
        "\"email\": \"octo@example.com\"",
    ]);
    pty.keys(&["Enter"]);

    // A URL request: the full URL, the host marked, the warnings in words; declined.
    pty.run_tool(3, "demo_url");
    let s = pty.wait_for(&[
        "URL request from server: mcp-elicit reference server",
        "Open the demo page",
        "/demo/complete?elicitationId=",
        "Host (marked ^ above): 127.0.0.1",
        "Warning: This link goes to the bare IP address 127.0.0.1",
        "Decline (D)",
    ]);
    assert!(
        s.iter()
            .any(|l| l.trim_start().starts_with("http://127.0.0.1:")),
        "the whole URL is shown: {s:#?}"
    );
    pty.keys(&["d"]);
    pty.wait_for(&[
        "Result of tool \"demo_url\"",
        "You declined to open the page.",
    ]);
    pty.keys(&["Enter"]);

    // -32042: the overview of the required steps, then the numbered consent screen.
    pty.run_tool(4, "connect_demo");
    pty.wait_for(&[
        "Tool needs browser steps from server: mcp-elicit reference server",
        "cannot run until you complete 1 step in your browser (error -32042)",
        "1. Authorization is required to access your Example Co files.",
        "Domain: 127.0.0.1",
    ]);
    pty.keys(&["Enter"]);
    pty.wait_for(&[
        "Tool needs a web page from server",
        "Step 1 of 1: the tool \"connect_demo\" cannot run",
    ]);
    pty.keys(&["d"]);
    pty.wait_for(&["Result of tool \"connect_demo\"", "(Declined)"]);
    pty.keys(&["Enter"]);

    // The URL-flow tools are served offline against the demo's own pages, after the
    // reference tools: set_api_key asks for the key on this server's connect page.
    pty.run_tool(5, "set_api_key");
    pty.wait_for(&[
        "Tool needs browser steps from server: mcp-elicit reference server",
        "(error -32042)",
        "Domain: 127.0.0.1",
    ]);
    pty.keys(&["Enter"]);
    let s = pty.wait_for(&[
        "Tool needs a web page from server",
        "Step 1 of 1: the tool \"set_api_key\" cannot run",
        "/connect?elicitationId=",
        "Host (marked ^ above): 127.0.0.1",
    ]);
    assert!(
        s.iter()
            .any(|l| l.trim_start().starts_with("http://127.0.0.1:")),
        "the connect page is on the demo's loopback origin: {s:#?}"
    );
    pty.keys(&["d"]);
    pty.wait_for(&["Result of tool \"set_api_key\"", "(Declined)"]);
    pty.keys(&["Enter"]);

    // Quit: the terminal comes back as it was.
    pty.wait_for(&["> demo_form"]);
    pty.keys(&["q"]);
    pty.wait_for(&["TTY-RESTORED", "EXIT=0"]);
    let flags = pty.tmux(&[
        "display-message",
        "-p",
        "-t",
        "t",
        "#{alternate_on} #{cursor_flag}",
    ]);
    assert_eq!(
        String::from_utf8_lossy(&flags.stdout).trim(),
        "0 1",
        "left the alternate screen, cursor visible again"
    );
}

#[test]
fn usable_at_80x24_and_redrawn_cleanly_after_resizes() {
    require_tmux();
    let pty = Pty::start("demo", 80, 24);
    let s = pty.wait_for(&[
        "Tools from server: mcp-elicit reference server",
        "> demo_form",
    ]);
    assert!(s.len() <= 24 && s.iter().all(|l| l.chars().count() <= 80));
    assert!(
        s.last().is_some_and(|l| l.contains("Q/Esc quit")),
        "the key help stays on screen at 80x24: {s:#?}"
    );
    pty.run_tool(0, "demo_form");
    pty.wait_for(&["Form request from server", "Ctrl-S review & submit"]);
    for (w, h) in [(120, 40), (60, 18), (80, 24)] {
        pty.resize(w, h);
        let s = pty.wait_for(&["Form request from server", "Ctrl-S"]);
        let first = s.first().cloned().unwrap_or_default();
        assert!(
            first.starts_with("Form request from server"),
            "the header is redrawn at the top after resizing to {w}x{h}: {s:#?}"
        );
        // Every row belongs to the current layout: a stale row from the previous size
        // would repeat the header or the key help.
        let headers = s.iter().filter(|l| l.contains("Form request from")).count();
        assert_eq!(headers, 1, "one header at {w}x{h}: {s:#?}");
        let help = s.iter().filter(|l| l.contains("Tab/↓ next")).count();
        assert_eq!(help, 1, "one key help at {w}x{h}: {s:#?}");
    }
    // Cancel the form and quit.
    pty.keys(&["C-c"]);
    pty.wait_for(&["Result of tool \"demo_form\""]);
    pty.keys(&["Enter"]);
    pty.wait_for(&["> demo_form"]);
    pty.keys(&["q"]);
    pty.wait_for(&["TTY-RESTORED", "EXIT=0"]);
}

#[test]
fn without_a_terminal_the_demo_points_to_call() {
    let out = Command::new(BIN)
        .arg("demo")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("run mcp-elicit");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("needs a terminal"), "{err}");
    assert!(err.contains("mcp-elicit call"), "{err}");
    assert!(Path::new(BIN).exists());
}
