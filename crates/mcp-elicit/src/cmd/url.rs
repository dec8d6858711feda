//! `mcp-elicit url inspect`: the analysis a careful client runs before asking the user
//! to consent to open a URL-mode elicitation's URL.

mod terminal;

use std::fmt::Write as _;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use mcp_elicit_core::url_safety::{UrlAnalysis, Verdict, analyze};

pub(crate) use terminal::{err, out, terminal_safe};

/// `mcp-elicit url ...`
#[derive(Debug, Subcommand)]
pub(crate) enum UrlArgs {
    /// Analyse one URL: verdict (ok, warn, block), normalized URL, host in ASCII and
    /// Unicode, registrable domain, and every warning. Exit status 0 for ok and warn,
    /// 1 for block.
    Inspect(InspectArgs),
}

/// `mcp-elicit url inspect URL [--json]`
#[derive(Debug, Args)]
pub(crate) struct InspectArgs {
    /// The URL, exactly as a server sent it (quote it for the shell).
    #[arg(allow_hyphen_values = true)]
    url: String,
    /// Print the analysis as one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(args: UrlArgs) -> ExitCode {
    match args {
        UrlArgs::Inspect(a) => inspect(&a),
    }
}

fn inspect(args: &InspectArgs) -> ExitCode {
    let analysis = analyze(&args.url);
    if args.json {
        match serde_json::to_string_pretty(&analysis) {
            Ok(text) => out(&format!("{text}\n")),
            Err(e) => {
                err(&format!("mcp-elicit: cannot serialize the analysis: {e}\n"));
                return ExitCode::from(2);
            }
        }
    } else {
        out(&human(&analysis));
    }
    if analysis.verdict == Verdict::Block {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The text report. Every string that comes from the input goes through
/// [`terminal_safe`].
fn human(a: &UrlAnalysis) -> String {
    let mut out = String::new();
    let verdict = match a.verdict {
        Verdict::Ok => "ok (no reason for concern found)",
        Verdict::Warn => "warn (show the warnings below before asking for consent)",
        Verdict::Block => "block (never open this URL)",
    };
    let _ = writeln!(out, "verdict:            {verdict}");
    match &a.url {
        Some(url) => {
            let _ = writeln!(out, "url:                {}", terminal_safe(url));
            if let Some(h) = a.highlight
                && h.end > h.start
                && url.is_ascii()
                && !url.bytes().any(|b| b.is_ascii_control())
            {
                let _ = writeln!(
                    out,
                    "                    {}{}",
                    " ".repeat(h.start),
                    "^".repeat(h.end - h.start)
                );
            }
        }
        None => {
            let _ = writeln!(out, "input:              {}", terminal_safe(&a.input));
            let _ = writeln!(out, "url:                (does not parse)");
        }
    }
    let none = || "(none)".to_owned();
    let show = |v: &Option<String>| {
        v.as_deref()
            .map_or_else(none, |s| terminal_safe(s).into_owned())
    };
    let _ = writeln!(out, "host (ASCII):       {}", show(&a.host_ascii));
    let _ = writeln!(out, "host (Unicode):     {}", show(&a.host_unicode));
    let registrable = match (&a.registrable_domain, &a.registrable_domain_unicode) {
        (Some(ascii), Some(unicode)) if ascii != unicode => {
            format!("{} ({})", terminal_safe(ascii), terminal_safe(unicode))
        }
        (d, _) => show(d),
    };
    let _ = writeln!(out, "registrable domain: {registrable}");
    if a.warnings.is_empty() {
        let _ = writeln!(out, "warnings:           (none)");
    } else {
        let _ = writeln!(out, "warnings:");
        for w in &a.warnings {
            let _ = writeln!(
                out,
                "  [{}] {}: {}",
                w.severity,
                w.code,
                terminal_safe(&w.message)
            );
        }
    }
    out
}
