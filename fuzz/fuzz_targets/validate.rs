//! Arbitrary (schema JSON, content JSON) pairs: parse the schema; when it parses,
//! validate the content and apply defaults. Neither may ever panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_elicit_core::Schema;
use mcp_elicit_core::validate::{apply_defaults, defaults, validate};
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    // The input is two JSON documents separated by the first NUL byte (schema, then
    // content); a lone document is used as both.
    let (schema_bytes, content_bytes) = match data.iter().position(|b| *b == 0) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, data),
    };
    let Ok(schema_json) = serde_json::from_slice::<Value>(schema_bytes) else {
        return;
    };
    let Ok(schema) = Schema::parse(&schema_json) else {
        return;
    };
    let Ok(content) = serde_json::from_slice::<Value>(content_bytes) else {
        return;
    };
    if let Err(violations) = validate(&schema, &content) {
        assert!(!violations.is_empty());
        let _ = violations.to_string();
        let _ = serde_json::to_string(&violations);
    }
    let _ = defaults(&schema);
    if let Value::Object(mut object) = content {
        let filled = apply_defaults(&schema, &mut object);
        assert!(filled.iter().all(|name| object.contains_key(name)));
        // A second application finds nothing left to fill.
        assert!(apply_defaults(&schema, &mut object).is_empty());
    }
});
