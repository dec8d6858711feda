//! `mcp-elicit schema check --as-client FILE|-`: how a client reads a received schema
//! (the tolerant reading, `Schema::parse_received`): the fields it shows, what it checks
//! and what it leaves to the server, and the notices it gives the user.

use std::fmt::Write as _;
use std::process::ExitCode;

use mcp_elicit_core::Schema;
use mcp_elicit_core::lint::lint_schema;
use mcp_elicit_core::schema::{Property, PropertyKind};
use serde_json::{Value, json};

use super::input::read_json;
use super::warnings::schema_warnings;
use super::{CheckArgs, EXIT_FAILED, error_json, exit_input, print_json};
use crate::cmd::url::{err, out, terminal_safe};

pub(super) fn run(args: &CheckArgs) -> ExitCode {
    let doc = match read_json(&args.file) {
        Ok(doc) => doc,
        Err(e) => {
            err(&format!("mcp-elicit: {e}\n"));
            if args.json {
                print_json(&json!({
                    "ok": false,
                    "as_client": true,
                    "file": e.file(),
                    "input_error": e.problem(),
                    "errors": [],
                    "fields": [],
                    "notices": [],
                    "secret_findings": [],
                    "warnings": [],
                }));
            }
            return exit_input();
        }
    };
    let file = doc.name;
    match Schema::parse_received(&doc.value) {
        Ok(schema) => {
            let strict = Schema::parse(&doc.value).is_ok();
            if args.json {
                print_json(&shown_json(&file, &schema, strict));
            } else {
                out(&shown_text(&file, &schema, strict));
            }
            ExitCode::SUCCESS
        }
        Err(errors) => {
            if args.json {
                let list: Vec<Value> = errors.as_slice().iter().map(error_json).collect();
                print_json(&json!({
                    "ok": false,
                    "as_client": true,
                    "file": file,
                    "errors": list,
                    "fields": [],
                    "notices": [],
                    "secret_findings": [],
                    "warnings": [],
                }));
            } else {
                let mut text = format!(
                    "{}: a client cannot show this as a form ({} {})\n",
                    terminal_safe(&file),
                    errors.as_slice().len(),
                    super::check::plural(errors.as_slice().len(), "error", "errors")
                );
                super::check::write_errors(&mut text, &errors);
                out(&text);
            }
            EXIT_FAILED
        }
    }
}

/// What the field is on screen: `text`, `integer`, `number`, `boolean`, `choose_one`,
/// `choose_several`, `several_types`.
fn shown_as(p: &Property) -> &'static str {
    match p.kind() {
        PropertyKind::String(_) => "text",
        PropertyKind::Number(n) if n.is_integer() => "integer",
        PropertyKind::Number(_) => "number",
        PropertyKind::Boolean(_) => "boolean",
        PropertyKind::SingleSelect(_) => "choose_one",
        PropertyKind::MultiSelect(_) => "choose_several",
        PropertyKind::Union(_) => "several_types",
        _ => "text",
    }
}

fn field_json(p: &Property) -> Value {
    let extras = p.extras();
    json!({
        "name": p.name(),
        "shown_as": shown_as(p),
        "required": p.is_required(),
        "nullable": extras.is_some_and(|x| x.nullable()),
        "default": p.default_value(),
        "hints": extras.map(|x| x.hints().to_vec()).unwrap_or_default(),
        "left_to_server": extras.map(|x| x.unchecked().to_vec()).unwrap_or_default(),
    })
}

fn shown_json(file: &str, schema: &Schema, strict: bool) -> Value {
    let fields: Vec<Value> = schema.properties().iter().map(field_json).collect();
    json!({
        "ok": true,
        "as_client": true,
        "file": file,
        "inside_subset": strict,
        "errors": [],
        "fields": fields,
        "notices": serde_json::to_value(schema.notices()).unwrap_or(Value::Array(Vec::new())),
        "secret_findings": serde_json::to_value(lint_schema(schema)).unwrap_or(Value::Array(Vec::new())),
        "warnings": serde_json::to_value(schema_warnings(schema)).unwrap_or(Value::Array(Vec::new())),
    })
}

fn shown_text(file: &str, schema: &Schema, strict: bool) -> String {
    let mut text = String::new();
    let n = schema.properties().len();
    let notices = schema.notices().len();
    let _ = writeln!(
        text,
        "{}: shown as a form ({n} {}, {notices} {}){}",
        terminal_safe(file),
        if n == 1 { "field" } else { "fields" },
        if notices == 1 { "notice" } else { "notices" },
        if strict { "; inside the subset" } else { "" }
    );
    for p in schema.properties() {
        let mut line = format!("  {} ({}", terminal_safe(p.name()), shown_as(p));
        if p.is_required() {
            line.push_str(", required");
        }
        if p.extras().is_some_and(|x| x.nullable()) {
            line.push_str(", may be empty");
        }
        if let Some(d) = p.default_value() {
            let _ = write!(line, ", prefilled {}", terminal_safe(&d.to_string()));
        }
        line.push(')');
        if let Some(x) = p.extras() {
            for h in x.hints() {
                let _ = write!(line, "; {}", terminal_safe(h));
            }
            if !x.unchecked().is_empty() {
                let _ = write!(
                    line,
                    "; left to the server: {}",
                    terminal_safe(&x.unchecked().join(", "))
                );
            }
        }
        let _ = writeln!(text, "{line}");
    }
    for notice in schema.notices() {
        let at = if notice.pointer().is_empty() {
            "(root)"
        } else {
            notice.pointer()
        };
        let _ = writeln!(
            text,
            "  notice: {}: {} [{}]",
            terminal_safe(at),
            terminal_safe(notice.message()),
            notice.kind()
        );
    }
    for finding in lint_schema(schema) {
        let _ = writeln!(
            text,
            "  warning: {}: {} [{}]",
            terminal_safe(finding.pointer()),
            terminal_safe(finding.message()),
            finding.category()
        );
    }
    for w in schema_warnings(schema) {
        let _ = writeln!(
            text,
            "  warning: {}: {} [{}]",
            terminal_safe(&w.pointer),
            w.message,
            w.code
        );
    }
    text
}
