//! A minimal host with its own [`ElicitationUi`]: prompts on stderr, one line of stdin
//! per answer, the tool's result as JSON on stdout.
//!
//! ```text
//! cargo run -p mcp-elicit-client --example host -- SERVER TOOL [ARGUMENTS_JSON]
//! cargo run -p mcp-elicit-client --example host -- stdio:target/debug/examples/demo_server profile
//! ```
//!
//! `SERVER` is `http(s)://HOST/PATH` (Streamable HTTP) or `stdio:COMMAND ARGS`. A form is
//! answered with a JSON object (the prefilled values are shown; fields left out keep
//! them), `decline` or `cancel`; a URL with `open` (printed for you to open: this host has
//! no browser), `decline` or `cancel`. The library does the rest: mode checks, defaults,
//! validation before sending (invalid answers come back with the errors), URL analysis,
//! -32042 retry on 2025-11-25 and input rounds on 2026-07-28.

use mcp_elicit_client::rmcp::model::CallToolRequestParams;
use mcp_elicit_client::{
    Config, ElicitationClient, ElicitationUi, FormPrompt, FormResponse, Notice, OpenError,
    PlainText, ServerTarget, StallChoice, StalledCompletion, UrlDecision, UrlOpener, UrlPrompt,
};
use mcp_elicit_core::message::Capability;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, BufReader, Lines, Stdin};
use tokio::sync::Mutex;

/// The host's UI: questions on stderr, answers from stdin.
struct LineUi {
    input: Mutex<Lines<BufReader<Stdin>>>,
}

impl LineUi {
    /// Asks `question` and reads one line (empty at end of input).
    async fn ask(&self, question: &str) -> String {
        eprintln!("{question}");
        let line = self.input.lock().await.next_line().await;
        line.ok().flatten().unwrap_or_default().trim().to_owned()
    }
}

/// Server text, safe to print (no terminal control or bidi characters).
fn plain(text: &str) -> PlainText {
    PlainText::from_untrusted(text)
}

impl ElicitationUi for LineUi {
    fn modes(&self) -> Capability {
        Capability::ALL
    }

    async fn present_form(&self, prompt: FormPrompt) -> FormResponse {
        eprintln!("{} asks: {}", prompt.server.name, prompt.message);
        for property in prompt.schema.properties() {
            let about = property.title().or(property.description()).unwrap_or("");
            eprintln!("  {}: {}", plain(property.name()), plain(about));
        }
        for error in &prompt.errors {
            eprintln!("  ! {}", plain(&error.message));
        }
        if !prompt.secret_findings.is_empty() {
            eprintln!("  ! this form seems to ask for a secret: do not type one here");
        }
        let prefilled = Value::Object(prompt.values.clone());
        eprintln!("  prefilled: {}", plain(&prefilled.to_string()));
        match self
            .ask("answer (a JSON object), decline or cancel:")
            .await
            .as_str()
        {
            "decline" => FormResponse::Decline,
            "cancel" | "" => FormResponse::Cancel,
            json => match serde_json::from_str::<Value>(json) {
                Ok(Value::Object(given)) => {
                    let mut values = prompt.values;
                    values.extend(given);
                    FormResponse::Submit(values)
                }
                _ => FormResponse::Cancel,
            },
        }
    }

    async fn present_url(&self, prompt: UrlPrompt) -> UrlDecision {
        eprintln!(
            "{} asks you to open a page: {}",
            prompt.server.name, prompt.message
        );
        eprintln!("  {}", plain(&prompt.url));
        if let Some(site) = &prompt.analysis.registrable_domain_unicode {
            eprintln!("  site: {}", plain(site));
        }
        for warning in &prompt.analysis.warnings {
            eprintln!(
                "  [{}] {}",
                warning.severity.as_str(),
                plain(&warning.message)
            );
        }
        match self.ask("open, decline or cancel:").await.as_str() {
            "open" => UrlDecision::Open,
            "decline" => UrlDecision::Decline,
            _ => UrlDecision::Cancel,
        }
    }

    async fn notify(&self, notice: Notice) {
        match notice {
            Notice::Completed { .. } => eprintln!("the server says the page is finished"),
            Notice::GaveUp { .. } => eprintln!("the answers kept failing validation: cancelled"),
            other => eprintln!("note: {other:?}"),
        }
    }

    async fn completion_stalled(&self, stalled: StalledCompletion) -> StallChoice {
        let waited = stalled.waited.as_secs();
        let question = format!("still waiting after {waited} s: retry, wait or cancel?");
        match self.ask(&question).await.as_str() {
            "retry" => StallChoice::RetryNow,
            "wait" => StallChoice::KeepWaiting,
            _ => StallChoice::Cancel,
        }
    }
}

/// No browser here: the consented URL is printed for the user to open.
struct PrintUrl;

impl UrlOpener for PrintUrl {
    fn open(&self, url: &str) -> Result<(), OpenError> {
        eprintln!("open this in your browser: {}", plain(url));
        Ok(())
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(server), Some(tool)) = (args.next(), args.next()) else {
        return Err("usage: host SERVER TOOL [ARGUMENTS_JSON]".into());
    };
    let mut call = CallToolRequestParams::new(tool);
    if let Some(json) = args.next() {
        call = call.with_arguments(serde_json::from_str(&json)?);
    }
    let target: ServerTarget = server.parse()?;
    let input = Mutex::new(BufReader::new(tokio::io::stdin()).lines());
    let client = ElicitationClient::new(LineUi { input }, PrintUrl, Config::default());
    let connection = client.clone().connect(&target).await?;
    let result = client.call_tool(connection.peer(), call).await?;
    println!("{}", serde_json::to_string(&result)?);
    let _ = connection.cancel().await;
    Ok(())
}
