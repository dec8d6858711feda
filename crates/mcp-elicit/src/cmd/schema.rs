//! `mcp-elicit schema check|validate`.
//!
//! Exit status: 0 success; 1 the schema is outside the subset or asks for secrets
//! (`check`; with `--as-client`: a client cannot show it as a form), or the content
//! violates the schema (`validate`); 2 unreadable input,
//! malformed or ambiguous JSON, non-UTF-8 text, a bad schema given to `validate`, or a
//! usage error.

mod as_client;
mod check;
mod input;
mod validate;
mod warnings;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use mcp_elicit_core::Error;

use crate::cmd::url::{err, out};
use serde_json::{Value, json};

/// Exit status when the check or the validation fails.
const EXIT_FAILED: ExitCode = ExitCode::FAILURE;

/// `mcp-elicit schema ...`
#[derive(Debug, Subcommand)]
pub(crate) enum SchemaArgs {
    /// Check that a `requestedSchema` is inside the form-mode subset and asks for no
    /// secrets. Lists every problem. Exit status 0 ok, 1 invalid or asking for secrets,
    /// 2 unreadable or malformed input.
    Check(CheckArgs),
    /// Validate a form response `content` against a schema. Lists every violation.
    /// Exit status 0 valid, 1 invalid, 2 bad schema, unreadable or malformed input.
    Validate(ValidateArgs),
}

/// `mcp-elicit schema check FILE|- [--json]`
#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// The schema file (the `requestedSchema` object), or `-` for standard input.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Print one JSON object: `{ok, file, errors, secret_findings, warnings}` (with
    /// `--as-client`, also `as_client`, `inside_subset`, `fields` and `notices`).
    #[arg(long)]
    json: bool,
    /// Read the schema as a client reads a received form (tolerantly): list the fields
    /// it shows, what it leaves to the server and the notices it gives the user. Exit
    /// status 0 shown, 1 a client cannot show it as a form, 2 bad input.
    #[arg(long)]
    as_client: bool,
}

/// `mcp-elicit schema validate SCHEMA_FILE CONTENT_FILE|- [--json] [--apply-defaults]`
#[derive(Debug, Args)]
pub(crate) struct ValidateArgs {
    /// The schema file, or `-` for standard input.
    #[arg(value_name = "SCHEMA_FILE")]
    schema: PathBuf,
    /// The content file (the `content` object of an accept result), or `-`.
    #[arg(value_name = "CONTENT_FILE")]
    content: PathBuf,
    /// Print one JSON object: `{valid, violations}` (plus `defaults_applied` and
    /// `content` with `--apply-defaults`, or `schema_errors` for a bad schema).
    #[arg(long)]
    json: bool,
    /// Fill the properties missing from the content with their schema defaults, print
    /// the filled content on standard output (the report goes to standard error), and
    /// validate the filled content.
    #[arg(long)]
    apply_defaults: bool,
}

pub(crate) fn run(args: SchemaArgs) -> ExitCode {
    match args {
        SchemaArgs::Check(a) if a.as_client => as_client::run(&a),
        SchemaArgs::Check(a) => check::run(&a),
        SchemaArgs::Validate(a) => validate::run(&a),
    }
}

/// Exit status for unreadable or malformed input and bad schemas given to `validate`.
fn exit_input() -> ExitCode {
    ExitCode::from(2)
}

/// An error as `{kind, pointer, message}`.
fn error_json(e: &Error) -> Value {
    json!({"kind": e.kind().code(), "pointer": e.pointer(), "message": e.message()})
}

/// Prints a JSON value, pretty, on standard output.
fn print_json(value: &Value) {
    match serde_json::to_string_pretty(value) {
        Ok(text) => out(&format!("{text}\n")),
        Err(e) => err(&format!("mcp-elicit: cannot serialize the output: {e}\n")),
    }
}
