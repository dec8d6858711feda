//! Sealing and opening 2026-07-28 `requestState` (HMAC-SHA256 key ring, bound to the
//! user, method, name and canonical arguments), and the size of a sealed state.
//!
//! `cargo bench -p mcp-elicit-server --bench state`

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::{Duration, SystemTime};

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_elicit_server::{Principal, StateBinding, StateKeys};
use serde_json::{Value, json};

/// What a round's state typically holds: the keys asked, the answers of earlier rounds
/// (one form of five fields here), a URL question in progress.
fn payload(answers: usize) -> Value {
    let answer = json!({"action": "accept", "content": {
        "name": "Ada Lovelace", "email": "ada@example.com", "age": 36,
        "newsletter": true, "languages": ["en", "fr"]}});
    let answers: BTreeMap<String, Value> = (0..answers)
        .map(|i| (format!("step{i}"), answer.clone()))
        .collect();
    json!({"asked": ["next"], "answers": answers,
           "urls": {"connect": "0123456789abcdef0123456789abcdef"}})
}

fn bench(c: &mut Criterion) {
    let keys = StateKeys::parse(
        "new 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n\
         old ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100",
    )
    .expect("keys");
    let user = Principal::authenticated("https://issuer.example.com", "248289761001");
    let args = json!({"item": "A book", "amount": "42.00 EUR", "notes": {"gift": true}});
    let binding = StateBinding::new(&user, "tools/call", "approve_purchase", &args);
    let now = SystemTime::now();
    let expires = now + Duration::from_secs(600);
    for n in [0, 1, 4] {
        let sealed = keys
            .seal_json(&payload(n), &binding, expires)
            .expect("seal");
        eprintln!(
            "sealed state with {n} carried answer(s): {} bytes (payload {} bytes of JSON)",
            sealed.len(),
            payload(n).to_string().len()
        );
    }
    let value = payload(1);
    let sealed = keys.seal_json(&value, &binding, expires).expect("seal");
    c.bench_function("seal (1 carried answer)", |b| {
        b.iter(|| keys.seal_json(black_box(&value), &binding, expires))
    });
    c.bench_function("open (1 carried answer)", |b| {
        b.iter(|| keys.open_json::<Value>(black_box(&sealed), &binding, now))
    });
    c.bench_function("binding (user, tool, canonical arguments)", |b| {
        b.iter(|| StateBinding::new(&user, "tools/call", "approve_purchase", black_box(&args)))
    });
    let mut tampered = sealed.clone().into_bytes();
    let at = tampered.len() / 2;
    tampered[at] = if tampered[at] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(tampered).expect("ascii");
    c.bench_function("refuse a tampered state", |b| {
        b.iter(|| keys.open_json::<Value>(black_box(&tampered), &binding, now))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
