//! URL analysis and secret-field lint throughput.
//!
//! `cargo bench -p mcp-elicit-core --bench url_lint`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_elicit_core::Schema;
use mcp_elicit_core::lint::{find_urls_in_schema, lint_message, lint_schema};
use mcp_elicit_core::url_safety::{ServerUrlPolicy, analyze, check_server_url};
use serde_json::json;

const URLS: &[&str] = &[
    "https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000",
    "https://accounts.google.com.evil.co.uk/signin?continue=https%3A%2F%2Fmail.google.com",
    "https://xn--pple-43d.com/login",
    "http://0x7f.1:8080/cb#access_token=abc&token_type=bearer",
    " JaVaScRiPt:alert(1)",
];

fn urls(c: &mut Criterion) {
    for (i, url) in URLS.iter().enumerate() {
        c.bench_function(&format!("analyze/{i}"), |b| {
            b.iter(|| analyze(black_box(url)))
        });
    }
    let policy = ServerUrlPolicy::default();
    c.bench_function("check_server_url/ok", |b| {
        b.iter(|| check_server_url(black_box(URLS[0]), &policy))
    });
}

fn lint(c: &mut Criterion) {
    let raw = json!({
        "type": "object",
        "title": "Project settings",
        "description": "Tell us about your project. Docs: https://docs.example.com/setup",
        "properties": {
            "name": {"type": "string", "title": "Project name", "description": "Shown on the dashboard"},
            "email": {"type": "string", "format": "email", "title": "Contact email"},
            "max_tokens": {"type": "integer", "title": "Maximum tokens", "description": "Upper bound for each answer"},
            "region": {"type": "string", "enum": ["eu", "us", "ap"]},
            "apiKey": {"type": "string", "title": "OpenAI API key"},
            "notes": {"type": "string", "description": "Anything else we should know? 请不要填写密码。"},
            "newsletter": {"type": "boolean"},
            "budget": {"type": "number", "minimum": 0},
            "card_number": {"type": "string", "title": "Card number"},
            "website": {"type": "string", "format": "uri", "title": "Website"}
        }
    });
    let schema = match Schema::parse(&raw) {
        Ok(s) => s,
        Err(e) => panic!("benchmark schema must parse: {e}"),
    };
    // The first lint of a schema does the matching; the schema keeps its findings, so
    // every later lint of it (or of a clone) only copies them out.
    c.bench_function("lint_schema/10_fields/first", |b| {
        b.iter_batched(
            || Schema::parse(&raw),
            |parsed| parsed.map(|s| lint_schema(black_box(&s))),
            criterion::BatchSize::SmallInput,
        )
    });
    let _ = lint_schema(&schema);
    c.bench_function("lint_schema/10_fields/again", |b| {
        b.iter(|| lint_schema(black_box(&schema)))
    });
    c.bench_function("find_urls_in_schema/10_fields", |b| {
        b.iter(|| find_urls_in_schema(black_box(&schema)))
    });
    let message =
        "Please confirm the deployment settings below; see https://docs.example.com for details.";
    c.bench_function("lint_message", |b| {
        b.iter(|| lint_message(black_box(message)))
    });
}

/// Hostile 64 KiB messages: repeated scheme prefixes, unbalanced brackets, CJK
/// keywords, long runs without spaces. The lints must stay linear on them.
fn pathological(c: &mut Criterion) {
    const N: usize = 64 * 1024;
    let cases: Vec<(&str, String)> = vec![
        ("mailto_run", "mailto:".repeat(N / 7)),
        ("data_run", "data:".repeat(N / 5)),
        ("close_parens", format!("mailto:a{}", ")".repeat(N))),
        ("cjk_keywords", "密码卡号令牌".repeat(N / 18)),
        ("password_words", "password hint ".repeat(N / 14)),
        ("www_run", "www.".repeat(N / 4)),
        ("scheme_run", "https://".repeat(N / 8)),
        ("no_spaces", "a".repeat(N)),
    ];
    for (name, text) in &cases {
        c.bench_function(&format!("lint_message/64KiB_{name}"), |b| {
            b.iter(|| lint_message(black_box(text)))
        });
    }
    let names = "password_".repeat(1600);
    let raw = json!({"type": "object", "properties": {names: {"type": "string"}}});
    if let Ok(schema) = Schema::parse(&raw) {
        c.bench_function("lint_schema/16KiB_name", |b| {
            b.iter(|| lint_schema(black_box(&schema)))
        });
    }
    let long = format!("https://example.com/?{}", "a=b&".repeat(2000));
    c.bench_function("analyze/8KiB_query", |b| {
        b.iter(|| analyze(black_box(&long)))
    });
}

criterion_group!(benches, urls, lint, pathological);
criterion_main!(benches);
