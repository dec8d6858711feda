//! `mcp-elicit schema validate SCHEMA_FILE CONTENT_FILE|-`: does a form response match
//! its schema?

use std::fmt::Write as _;
use std::process::ExitCode;

use mcp_elicit_core::Schema;
use mcp_elicit_core::validate::{Violations, apply_defaults, validate};
use serde_json::{Map, Value, json};

use super::input::{InputError, display_name, is_stdin, read_json};
use super::{EXIT_FAILED, ValidateArgs, error_json, exit_input, print_json};
use crate::cmd::url::{err, out, terminal_safe};

pub(super) fn run(args: &ValidateArgs) -> ExitCode {
    if is_stdin(&args.schema) && is_stdin(&args.content) {
        err("mcp-elicit: only one of SCHEMA_FILE and CONTENT_FILE can be `-` (standard input)\n");
        return exit_input();
    }
    let schema_doc = match read_json(&args.schema) {
        Ok(doc) => doc,
        Err(e) => return input_failure(args, &e),
    };
    let schema = match Schema::parse(&schema_doc.value) {
        Ok(schema) => schema,
        Err(errors) => {
            if args.json {
                let errors: Vec<Value> = errors.as_slice().iter().map(error_json).collect();
                print_json(&json!({"valid": false, "schema_errors": errors}));
            }
            err(&format!(
                "mcp-elicit: {}: not a valid form-mode schema:\n",
                terminal_safe(&schema_doc.name)
            ));
            for e in &errors {
                let at = if e.pointer().is_empty() {
                    "(root)"
                } else {
                    e.pointer()
                };
                err(&format!(
                    "  {}: {} [{}]\n",
                    terminal_safe(at),
                    terminal_safe(e.message()),
                    e.kind()
                ));
            }
            return exit_input();
        }
    };
    let mut content = match read_json(&args.content) {
        Ok(doc) => doc.value,
        Err(e) => return input_failure(args, &e),
    };
    let applied = if args.apply_defaults {
        match content.as_object_mut() {
            Some(map) => Some(apply_defaults(&schema, map)),
            // Not an object: nothing to fill; validation reports it.
            None => Some(Vec::new()),
        }
    } else {
        None
    };
    let result = validate(&schema, &content);
    let content_name = display_name(&args.content);
    if args.json {
        let mut out = Map::new();
        out.insert("valid".into(), Value::Bool(result.is_ok()));
        let violations = match &result {
            Ok(()) => Value::Array(Vec::new()),
            Err(v) => serde_json::to_value(v).unwrap_or(Value::Array(Vec::new())),
        };
        out.insert("violations".into(), violations);
        if let Some(applied) = &applied {
            out.insert("defaults_applied".into(), json!(applied));
            out.insert("content".into(), content.clone());
        }
        print_json(&Value::Object(out));
    } else if applied.is_some() {
        // stdout carries the filled content only, so that it can be piped; the report
        // goes to stderr.
        print_json(&content);
        err(&human(&content_name, &result, applied.as_deref()));
    } else {
        out(&human(&content_name, &result, None));
    }
    if result.is_ok() {
        ExitCode::SUCCESS
    } else {
        EXIT_FAILED
    }
}

/// Reports an unreadable or malformed input (also as JSON with `--json`).
fn input_failure(args: &ValidateArgs, e: &InputError) -> ExitCode {
    err(&format!("mcp-elicit: {e}\n"));
    if args.json {
        print_json(&json!({"valid": false, "input_error": e.to_json()}));
    }
    exit_input()
}

fn human(name: &str, result: &Result<(), Violations>, applied: Option<&[String]>) -> String {
    let mut out = String::new();
    let name = terminal_safe(name);
    if let Some(applied) = applied {
        if applied.is_empty() {
            let _ = writeln!(out, "{name}: no defaults to apply");
        } else {
            let names: Vec<String> = applied
                .iter()
                .map(|n| format!("\"{}\"", terminal_safe(n)))
                .collect();
            let _ = writeln!(out, "{name}: defaults applied to {}", names.join(", "));
        }
    }
    match result {
        Ok(()) => {
            let _ = writeln!(out, "{name}: valid");
        }
        Err(violations) => {
            let n = violations.len();
            let _ = writeln!(
                out,
                "{name}: invalid ({n} {})",
                if n == 1 { "violation" } else { "violations" }
            );
            for v in violations.iter() {
                let _ = writeln!(
                    out,
                    "  {} [{}]",
                    terminal_safe(v.message()),
                    v.code().as_str()
                );
            }
        }
    }
    out
}
