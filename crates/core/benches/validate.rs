//! Validation throughput: a 10-field response against a schema parsed once.
//!
//! `cargo bench -p mcp-elicit-core --bench validate`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mcp_elicit_core::Schema;
use mcp_elicit_core::validate::{apply_defaults, validate};
use serde_json::{Value, json};

fn schema() -> Schema {
    let raw = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 80, "pattern": "^[\\p{L} .'-]+$"},
            "email": {"type": "string", "format": "email", "maxLength": 254},
            "website": {"type": "string", "format": "uri"},
            "birthday": {"type": "string", "format": "date"},
            "meeting": {"type": "string", "format": "date-time"},
            "age": {"type": "integer", "minimum": 0, "maximum": 150},
            "score": {"type": "number", "minimum": 0, "maximum": 100},
            "newsletter": {"type": "boolean", "default": false},
            "plan": {"type": "string", "enum": ["free", "pro", "team", "enterprise"]},
            "topics": {
                "type": "array",
                "items": {"type": "string", "enum": ["rust", "go", "python", "typescript", "java", "c"]},
                "minItems": 1,
                "maxItems": 4
            }
        },
        "required": ["name", "email", "age", "plan"]
    });
    match Schema::parse(&raw) {
        Ok(schema) => schema,
        Err(e) => panic!("benchmark schema must parse: {e}"),
    }
}

fn valid_content() -> Value {
    json!({
        "name": "Ada Lovelace",
        "email": "ada.lovelace@example.com",
        "website": "https://example.com/~ada?tab=notes#top",
        "birthday": "1815-12-10",
        "meeting": "2024-02-29T14:30:00.5+01:00",
        "age": 36,
        "score": 99.5,
        "newsletter": true,
        "plan": "team",
        "topics": ["rust", "python", "c"]
    })
}

fn invalid_content() -> Value {
    json!({
        "name": "",
        "email": "ada@",
        "website": "not a uri",
        "birthday": "2023-02-29",
        "meeting": "2024-02-29 14:30",
        "age": 36.5,
        "score": 101,
        "newsletter": "yes",
        "plan": "gold",
        "topics": ["rust", "rust", "cobol"],
        "extra": 1
    })
}

fn bench(c: &mut Criterion) {
    let schema = schema();
    let valid = valid_content();
    let invalid = invalid_content();
    assert!(validate(&schema, &valid).is_ok());
    assert!(validate(&schema, &invalid).is_err());

    let mut group = c.benchmark_group("validate");
    group.throughput(Throughput::Elements(1));
    group.bench_function("10 fields, valid", |b| {
        b.iter(|| validate(black_box(&schema), black_box(&valid)))
    });
    group.bench_function("10 fields, every field invalid", |b| {
        b.iter(|| validate(black_box(&schema), black_box(&invalid)))
    });
    group.finish();

    patterns(c);

    c.bench_function("apply_defaults on {}", |b| {
        b.iter(|| {
            let mut content = serde_json::Map::new();
            apply_defaults(black_box(&schema), &mut content)
        })
    });
}

/// The two pattern engines: the linear-time automaton (a nested repetition, a textbook
/// ReDoS shape, on a long value) and bounded backtracking (lookaheads); and the cost of
/// compiling both when a schema is parsed.
fn patterns(c: &mut Criterion) {
    let raw = json!({
        "type": "object",
        "properties": {
            "host": {"type": "string", "pattern": "^([a-z0-9-]+\\.)*[a-z]+$"},
            "password": {"type": "string", "pattern": "^(?=.*[A-Z])(?=.*\\d).{8,}$"},
            "redos": {"type": "string", "pattern": "^(a+)+$"}
        }
    });
    let schema = match Schema::parse(&raw) {
        Ok(schema) => schema,
        Err(e) => panic!("pattern schema must parse: {e}"),
    };
    let short = json!({"host": "mail.example.com", "password": "Correct-Horse-9"});
    let long_host = format!("{}example", "sub-domain.".repeat(100));
    let hostile = json!({ "redos": format!("{}!", "a".repeat(1000)) });
    assert!(validate(&schema, &short).is_ok());
    assert!(validate(&schema, &json!({ "host": long_host })).is_ok());
    assert!(validate(&schema, &hostile).is_err());
    let long = json!({ "host": long_host });

    let mut group = c.benchmark_group("patterns");
    group.throughput(Throughput::Elements(1));
    group.bench_function("host (linear) and password (backtracking), short", |b| {
        b.iter(|| validate(black_box(&schema), black_box(&short)))
    });
    group.bench_function("nested repetition on a 1,107-character host", |b| {
        b.iter(|| validate(black_box(&schema), black_box(&long)))
    });
    group.bench_function("^(a+)+$ on 1,000 a's and a !", |b| {
        b.iter(|| validate(black_box(&schema), black_box(&hostile)))
    });
    group.bench_function("parse the schema (compiles 3 patterns)", |b| {
        b.iter(|| Schema::parse(black_box(&raw)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
