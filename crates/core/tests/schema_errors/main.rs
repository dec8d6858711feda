//! One rejected example per rule of the restricted schema subset, asserting the rule
//! (`ErrorKind`) and the place (JSON pointer): the document's shape and keywords in
//! `structure`, defaults, patterns, enums and input limits in `values`.

mod structure;
mod values;

use mcp_elicit_core::schema::ParseLimits;
use mcp_elicit_core::{ErrorKind, Schema};
use serde_json::{Value, json};

/// Asserts that parsing `x` fails with an error of `kind` at `pointer`.
#[track_caller]
fn rejects(x: Value, kind: ErrorKind, pointer: &str) {
    rejects_with(x, &ParseLimits::default(), kind, pointer);
}

#[track_caller]
fn rejects_with(x: Value, limits: &ParseLimits, kind: ErrorKind, pointer: &str) {
    match Schema::parse_with_limits(&x, limits) {
        Ok(_) => panic!("{x} should be rejected with {kind} at {pointer}"),
        Err(errors) => assert!(
            errors
                .as_slice()
                .iter()
                .any(|e| e.kind() == kind && e.pointer() == pointer),
            "expected {kind} at {pointer:?}, got: {errors}"
        ),
    }
}

fn one(name: &str, property: Value) -> Value {
    json!({"type": "object", "properties": {name: property}})
}
