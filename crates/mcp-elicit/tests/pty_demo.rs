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

    /// Waits for a URL consent screen showing `text`, going through the -32042 overview
    /// first when there is one (Enter). Returns whether there was.
    fn through_overview(&self, text: &str) -> bool {
        let start = Instant::now();
        loop {
            let joined = self.screen().join("\n");
            if joined.contains("Tool needs browser steps from server") {
                assert!(joined.contains("(error -32042)"), "{joined}");
                self.keys(&["Enter"]);
                self.wait_for(&[
                    "Tool needs a web page from server",
                    "Step 1 of 1",
                    "< Decline (D) >",
                ]);
                return true;
            }
            if joined.contains(text) && joined.contains("< Decline (D) >") {
                return false;
            }
            assert!(
                start.elapsed() < GUARD,
                "still waiting for a consent screen with {text:?}:\n{joined}"
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

    /// From the tool list, runs tool number `index`. A tool without arguments runs on
    /// one Enter; one with arguments goes through its form and the review first.
    fn run_tool(&self, index: usize, name: &str, has_args: bool) {
        self.wait_for(&["Tools from server", "Enter call tool"]);
        self.keys(&["Home"]);
        self.wait_for(&["> demo_form"]);
        for _ in 0..index {
            self.keys(&["Down"]);
        }
        self.wait_for(&[&format!("> {name}")]);
        self.keys(&["Enter"]);
        if !has_args {
            return;
        }
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
fn connect_over_stdio_falls_back_to_initialize_for_a_server_without_2026() {
    // An rmcp server that answers `server/discover` with 2025-11-25 and older only (the
    // client crate's example, built beside this binary by `cargo test --workspace`): the
    // host starts it again and speaks `initialize`, as `call` does, instead of stopping
    // with "no compatible protocol version".
    require_tmux();
    let server = std::path::Path::new(BIN)
        .with_file_name("examples")
        .join("demo_server");
    assert!(
        server.is_file(),
        "{} is missing: build it with `cargo build -p mcp-elicit-client --example demo_server`",
        server.display()
    );
    let pty = Pty::start(&format!("connect stdio:{}", server.display()), 100, 30);
    pty.wait_for(&["Tools from server: mcp-elicit demo", "> profile"]);
    pty.keys(&["q"]);
    pty.wait_for(&["TTY-RESTORED", "EXIT=0"]);
}

#[test]
fn the_demo_on_2025_11_25_shows_the_required_steps_overview() {
    // The demo takes 2026-07-28 by default; `--protocol 2025-11-25` shows the -32042 path.
    require_tmux();
    let pty = Pty::start("demo --protocol 2025-11-25", 100, 30);
    pty.wait_for(&[
        "Tools from server: mcp-elicit reference server",
        "> demo_form",
    ]);
    pty.run_tool(4, "connect_demo", false);
    assert!(
        pty.through_overview("Authorization is required to access your Example Co files."),
        "on 2025-11-25 connect_demo answers -32042 and the host shows its overview"
    );
    pty.keys(&["d"]);
    pty.wait_for(&[
        "Result of tool \"connect_demo\"",
        "The tool did not run.",
        "You declined a browser step",
    ]);
    pty.keys(&["Enter"]);
    pty.wait_for(&["> connect_demo"]);
    pty.keys(&["q"]);
    pty.wait_for(&["TTY-RESTORED", "EXIT=0"]);
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
    pty.run_tool(0, "demo_form", false);
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
    pty.run_tool(3, "demo_url", false);
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

    // -32042 (2025-11-25): the overview of the required steps, then the numbered consent
    // screen; on 2026-07-28 the same step comes as an input-required round.
    pty.run_tool(4, "connect_demo", false);
    let overview =
        pty.through_overview("Authorization is required to access your Example Co files.");
    pty.keys(&["d"]);
    let s = pty.wait_for(&["Result of tool \"connect_demo\""]);
    if overview {
        // The user's own "no" is said as such, not as a failure of the tool.
        pty.wait_for(&["The tool did not run.", "You declined a browser step"]);
    }
    assert!(
        !s.join("\n").contains("Error: the tool reported a failure"),
        "{s:#?}"
    );
    pty.keys(&["Enter"]);

    // The URL-flow tools are served offline against the demo's own pages, after the
    // reference tools: set_api_key asks for the key on this server's connect page.
    pty.run_tool(5, "set_api_key", true);
    pty.through_overview("/connect?elicitationId=");
    let s = pty.wait_for(&[
        "/connect?elicitationId=",
        "Host (marked ^ above): 127.0.0.1",
    ]);
    assert!(
        s.iter()
            .any(|l| l.trim_start().starts_with("http://127.0.0.1:")),
        "the connect page is on the demo's loopback origin: {s:#?}"
    );
    pty.keys(&["d"]);
    pty.wait_for(&["Result of tool \"set_api_key\""]);
    pty.keys(&["Enter"]);

    // Quit: the terminal comes back as it was. The list kept the last tool selected.
    pty.wait_for(&["> set_api_key"]);
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
    pty.run_tool(0, "demo_form", false);
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

/// The URL on a consent screen (it wraps at 80 columns; the caret line is skipped) and
/// its `elicitationId`.
fn elicitation_id_on(screen: &[String]) -> String {
    let joined: String = screen
        .iter()
        .skip_while(|l| !l.contains("open this web page"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.trim())
        .filter(|l| !l.chars().all(|c| c == '^'))
        .collect();
    let at = joined
        .find("elicitationId=")
        .expect("an elicitationId on screen")
        + 14;
    joined[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .collect()
}

/// The demo's origin (`127.0.0.1:PORT`) as shown in the header.
fn demo_port(screen: &[String]) -> u16 {
    let joined = screen.join(" ");
    let at = joined
        .find("http://127.0.0.1:")
        .expect("the demo origin on screen")
        + 17;
    joined[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .expect("a port")
}

/// Finishes the demo page as a browser would: opens
/// `/demo/complete?elicitationId=ID` and posts its form with the page's CSRF token.
fn finish_demo_page(port: u16, id: &str) -> String {
    use std::io::{Read, Write};
    let exchange = |request: String| {
        let mut tcp = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
        tcp.write_all(request.as_bytes()).expect("write");
        let mut out = String::new();
        let _ = tcp.read_to_string(&mut out);
        out
    };
    let page = exchange(format!(
        "GET /demo/complete?elicitationId={id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\
         Connection: close\r\n\r\n"
    ));
    let token = page
        .split_once("name=\"csrf\" value=\"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .map(|(t, _)| t.to_owned())
        .unwrap_or_else(|| panic!("no CSRF token in the demo page: {page}"));
    let body = format!("csrf={token}");
    exchange(format!(
        "POST /demo/complete?elicitationId={id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    ))
}

#[test]
fn copy_path_and_a_missing_browser_at_80x24() {
    require_tmux();
    let pty = Pty::start("demo --browser none", 80, 24);
    let s = pty.wait_for(&[
        "Tools from server: mcp-elicit reference server",
        "> demo_form",
    ]);
    let port = demo_port(&s);
    pty.run_tool(3, "demo_url", false);
    let s = pty.wait_for(&["URL request from server", "< Decline (D) >"]);
    // Every button is on the first screen, whole, at 80 columns.
    for b in [
        "< Open 127.0.0.1 (O) >",
        "< Copy URL (C) >",
        "< Decline (D) >",
        "< Cancel (Esc) >",
    ] {
        assert!(
            s.iter().any(|l| l.contains(b) && l.chars().count() <= 80),
            "{b} not visible at 80x24: {s:#?}"
        );
    }
    // The host is named once.
    assert!(!s.join("\n").contains("Host: 127.0.0.1"), "{s:#?}");
    let id = elicitation_id_on(&s);
    // Open (confirmed: the link has warnings) with no browser: the screen stays.
    pty.keys(&["o"]);
    pty.wait_for(&["press O again to open it anyway"]);
    pty.keys(&["o"]);
    let s = pty.wait_for(&[
        "Could not start a browser: no browser is configured",
        "< I finished in my browser (F) >",
        "< Copy URL (C) >",
    ]);
    assert!(!s.join("\n").contains("Result of tool"), "{s:#?}");
    // Copy: what was done is said, not "copied" (tmux drops OSC 52 by default).
    pty.keys(&["c"]);
    let s = pty.wait_for(&["Asked your terminal to copy the URL (OSC 52)"]);
    assert!(!s.join("\n").contains("Copied"), "{s:#?}");
    // The user finishes the page in another browser, then says so here. (On 2025-11-25
    // the completion notice alone also moves on: see the host's unit tests.)
    let answer = finish_demo_page(port, &id);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let s = pty.screen();
    if !s.join("\n").contains("Result of tool \"demo_url\"") {
        pty.keys(&["f"]);
    }
    let s = pty.wait_for(&["Result of tool \"demo_url\""]);
    let joined = s.join("\n");
    assert!(
        !joined.contains("cancel") && !joined.contains("declined"),
        "finishing in another browser is consent, never cancel: {s:#?}"
    );
    pty.keys(&["Enter"]);
    pty.wait_for(&["> demo_url"]);
    pty.keys(&["q"]);
    pty.wait_for(&["TTY-RESTORED", "EXIT=0"]);
}

/// A server whose `wizard` tool asks seven forms in a row, one after the other's answer.
mod wizard {
    use std::sync::Arc;

    use rmcp::model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
        ErrorData, Implementation, ListToolsResult, PaginatedRequestParams, ServerCapabilities,
        ServerConfig, ServerRequest, Tool,
    };
    use rmcp::service::RequestContext;
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
    use rmcp::{RoleServer, ServerHandler};
    use serde_json::{Value, json};

    pub(super) const STEPS: usize = 7;

    #[derive(Clone, Default)]
    struct Wizard;

    impl ServerHandler for Wizard {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
                .with_server_info(Implementation::new("wizard-server", "1.0.0"))
        }

        async fn list_tools(
            &self,
            _: Option<PaginatedRequestParams>,
            _: RequestContext<RoleServer>,
        ) -> Result<ListToolsResult, ErrorData> {
            let Value::Object(schema) = json!({"type": "object", "properties": {}}) else {
                unreachable!()
            };
            Ok(ListToolsResult::with_all_items(vec![Tool::new(
                "wizard",
                "Seven questions, one at a time.",
                Arc::new(schema),
            )]))
        }

        async fn call_tool(
            &self,
            _: CallToolRequestParams,
            context: RequestContext<RoleServer>,
        ) -> Result<CallToolResponse, ErrorData> {
            let mut actions = Vec::new();
            for step in 1..=STEPS {
                let params = json!({
                    "mode": "form",
                    "message": format!("Wizard step {step} of {STEPS}"),
                    "requestedSchema": {"type": "object", "properties": {
                        "answer": {"type": "string", "title": format!("Answer {step}"), "default": format!("a{step}")}
                    }}
                });
                let req = ServerRequest::CustomRequest(CustomRequest::new(
                    "elicitation/create",
                    Some(params),
                ));
                let action = match context.peer.send_request(req).await {
                    Ok(r) => serde_json::to_value(r).unwrap_or(Value::Null)["action"]
                        .as_str()
                        .unwrap_or("?")
                        .to_owned(),
                    Err(e) => format!("error {e}"),
                };
                actions.push(action);
            }
            Ok(CallToolResult::success(vec![ContentBlock::text(format!(
                "wizard answers: {}",
                actions.join(",")
            ))])
            .into())
        }
    }

    /// Serves the wizard on 127.0.0.1:0; returns its MCP endpoint.
    pub(super) async fn serve() -> String {
        let service = StreamableHttpService::new(
            || Ok(Wizard),
            Arc::new(LocalSessionManager::default()),
            StreamableHttpServerConfig::default(),
        );
        let app = axum::Router::new().nest_service("/mcp", service);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        format!("http://{addr}/mcp")
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seven_step_wizard_answered_step_by_step_is_not_rate_limited() {
    require_tmux();
    let url = wizard::serve().await;
    // The default rate limit (burst 5, then one per 10 s) is in force.
    let pty = tokio::task::spawn_blocking(move || {
        // The wizard sends server-to-client requests: the 2025-11-25 revision.
        let pty = Pty::start(&format!("connect --protocol 2025-11-25 {url}"), 80, 24);
        pty.wait_for(&["Tools from server: wizard-server", "> wizard"]);
        // No arguments: one Enter runs it.
        pty.keys(&["Enter"]);
        for step in 1..=wizard::STEPS {
            let s = pty.wait_for(&[
                &format!("Wizard step {step} of 7"),
                "< Review & submit (Ctrl-S) >",
            ]);
            assert!(s.len() <= 24, "{s:#?}");
            pty.keys(&["C-s"]);
            pty.wait_for(&[
                "This exact JSON will be sent",
                &format!("\"answer\": \"a{step}\""),
                "< Send (Enter) >",
            ]);
            pty.keys(&["Enter"]);
        }
        let s = pty.wait_for(&["Result of tool \"wizard\""]);
        let joined = s.join("\n");
        assert!(
            joined.contains("wizard answers: accept,accept,accept,accept,accept,accept,accept"),
            "every step reached the user and was answered: {s:#?}"
        );
        assert!(
            !joined.contains("Rate limit")
                && !joined.contains("more elicitation requests than allowed"),
            "{s:#?}"
        );
        pty.keys(&["Enter"]);
        pty.wait_for(&["> wizard"]);
        pty.keys(&["q"]);
        pty.wait_for(&["TTY-RESTORED", "EXIT=0"]);
        pty
    })
    .await
    .expect("the terminal side");
    drop(pty);
}
