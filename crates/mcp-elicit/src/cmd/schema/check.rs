//! `mcp-elicit schema check FILE|-`: is the schema inside the form-mode subset, and does
//! it ask for secrets?

use std::fmt::Write as _;
use std::process::ExitCode;

use mcp_elicit_core::Schema;
use mcp_elicit_core::error::Errors;
use mcp_elicit_core::lint::{SecretFinding, lint_schema};
use serde_json::{Value, json};

use super::input::read_json;
use super::warnings::{Warning, schema_warnings};
use super::{CheckArgs, EXIT_FAILED, error_json, exit_input, print_json};
use crate::cmd::url::{err, out, terminal_safe};

/// What a check found.
struct Report {
    file: String,
    errors: Option<Errors>,
    secrets: Vec<SecretFinding>,
    warnings: Vec<Warning>,
    properties: usize,
}

impl Report {
    fn ok(&self) -> bool {
        self.errors.is_none() && self.secrets.is_empty()
    }
}

pub(super) fn run(args: &CheckArgs) -> ExitCode {
    let doc = match read_json(&args.file) {
        Ok(doc) => doc,
        Err(e) => {
            err(&format!("mcp-elicit: {e}\n"));
            if args.json {
                print_json(&json!({
                    "ok": false,
                    "file": e.file(),
                    "input_error": e.problem(),
                    "errors": [],
                    "secret_findings": [],
                    "warnings": [],
                }));
            }
            return exit_input();
        }
    };
    let report = match Schema::parse(&doc.value) {
        Ok(schema) => Report {
            file: doc.name,
            errors: None,
            secrets: lint_schema(&schema),
            warnings: schema_warnings(&schema),
            properties: schema.properties().len(),
        },
        Err(errors) => Report {
            file: doc.name,
            errors: Some(errors),
            secrets: Vec::new(),
            warnings: Vec::new(),
            properties: 0,
        },
    };
    if args.json {
        print_json(&to_json(&report));
    } else {
        out(&human(&report));
    }
    if report.ok() {
        ExitCode::SUCCESS
    } else {
        EXIT_FAILED
    }
}

fn to_json(report: &Report) -> Value {
    let errors: Vec<Value> = report
        .errors
        .iter()
        .flat_map(|errors| errors.as_slice().iter().map(error_json))
        .collect();
    json!({
        "ok": report.ok(),
        "file": report.file,
        "errors": errors,
        "secret_findings": serde_json::to_value(&report.secrets).unwrap_or(Value::Array(Vec::new())),
        "warnings": serde_json::to_value(&report.warnings).unwrap_or(Value::Array(Vec::new())),
    })
}

fn human(report: &Report) -> String {
    let mut out = String::new();
    let file = terminal_safe(&report.file);
    if let Some(errors) = &report.errors {
        let n = errors.as_slice().len();
        let _ = writeln!(
            out,
            "{file}: not a valid form-mode schema ({n} {})",
            plural(n, "error", "errors")
        );
        write_errors(&mut out, errors);
        return out;
    }
    if report.secrets.is_empty() {
        let n = report.properties;
        let _ = writeln!(
            out,
            "{file}: ok ({n} {})",
            plural(n, "property", "properties")
        );
    } else {
        let n = report.secrets.len();
        let _ = writeln!(
            out,
            "{file}: asks for secrets ({n} {}); form mode must not request passwords, API keys, tokens or \
             payment credentials: use a URL mode elicitation",
            plural(n, "finding", "findings")
        );
        for finding in &report.secrets {
            let at = if finding.pointer().is_empty() {
                "(root)"
            } else {
                finding.pointer()
            };
            let _ = writeln!(
                out,
                "  {}: {} [{}]",
                terminal_safe(at),
                terminal_safe(finding.message()),
                finding.category()
            );
        }
    }
    for w in &report.warnings {
        let _ = writeln!(
            out,
            "  warning: {}: {} [{}]",
            terminal_safe(&w.pointer),
            w.message,
            w.code
        );
    }
    out
}

/// One line per error: where (the JSON pointer, `(root)` for the top level), what, and
/// its kind; both texts made safe for a terminal. Shared by `check` and `check --as-client`.
pub(super) fn write_errors(out: &mut String, errors: &Errors) {
    for e in errors {
        let at = if e.pointer().is_empty() {
            "(root)"
        } else {
            e.pointer()
        };
        let _ = writeln!(
            out,
            "  {}: {} [{}]",
            terminal_safe(at),
            terminal_safe(e.message()),
            e.kind()
        );
    }
}

pub(super) fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}
