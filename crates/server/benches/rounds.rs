//! Turning a 2026-07-28 round into rmcp's typed `InputRequiredResult`
//! (`InputRound::to_result`), which every round a handler stops with goes through, for
//! the conformance tool's two-field form and a ten-field form.
//!
//! `cargo bench -p mcp-elicit-server --bench rounds`

use std::collections::BTreeMap;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_elicit_server::InputRound;
use serde_json::{Value, json};

fn form(properties: Value) -> Value {
    json!({"method": "elicitation/create", "params": {
        "mode": "form", "message": "Please tell us about yourself",
        "requestedSchema": {"type": "object", "properties": properties}}})
}

fn two_fields() -> Value {
    form(json!({
        "name": {"type": "string", "title": "Name", "minLength": 1},
        "age": {"type": "integer", "minimum": 0, "maximum": 150}}))
}

fn ten_fields() -> Value {
    form(json!({
        "name": {"type": "string", "title": "Name", "minLength": 1, "maxLength": 80},
        "handle": {"type": "string", "pattern": "^[a-z]+$"},
        "email": {"type": "string", "format": "email"},
        "site": {"type": "string", "format": "uri"},
        "born": {"type": "string", "format": "date"},
        "age": {"type": "integer", "minimum": 0, "maximum": 150},
        "score": {"type": "number", "minimum": 0, "maximum": 1},
        "newsletter": {"type": "boolean", "default": false},
        "plan": {"type": "string", "oneOf": [
            {"const": "free", "title": "Free"}, {"const": "pro", "title": "Pro"}]},
        "languages": {"type": "array", "items": {"type": "string", "enum": ["en", "fr", "de"]}}}))
}

fn bench(c: &mut Criterion) {
    let state = Some("v1.state.sealed".to_owned());
    for (name, request) in [("2 fields", two_fields()), ("10 fields", ten_fields())] {
        let round = InputRound::new(BTreeMap::from([("q".to_owned(), request)]), state.clone());
        c.bench_function(&format!("to_result, one form of {name}"), |b| {
            b.iter(|| black_box(&round).to_result())
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
