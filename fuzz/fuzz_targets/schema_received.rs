//! Arbitrary bytes as the JSON text of a received `requestedSchema`, through the
//! client's tolerant reading (`Schema::parse_received`): it must never panic; a schema
//! the strict parser accepts is read identically (no notices, same JSON); a schema read
//! beyond the subset gives back exactly what it received; every default it keeps passes
//! validation; a union field's text-to-value typing never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_elicit_core::Schema;
use mcp_elicit_core::schema::PropertyKind;
use mcp_elicit_core::validate::{defaults, unchecked, validate};
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return;
    };
    let strict = Schema::parse(&value).ok();
    let Ok(schema) = Schema::parse_received(&value) else {
        assert!(strict.is_none(), "strict accepts what the tolerant reading refuses");
        return;
    };
    if let Some(strict) = &strict {
        assert!(schema.notices().is_empty() && !schema.is_beyond_subset());
        assert_eq!(schema.to_value(), strict.to_value());
        assert_eq!(defaults(&schema), defaults(strict));
    }
    if schema.is_beyond_subset() {
        assert_eq!(schema.to_value(), value, "given back as received");
    }
    let content = Value::Object(defaults(&schema));
    if let Err(violations) = validate(&schema, &content) {
        for v in violations.iter() {
            assert!(
                v.property().is_none_or(|p| content.get(p).is_none()),
                "a kept default fails validation: {v}"
            );
        }
    }
    let _ = unchecked(&schema, &content);
    for p in schema.properties() {
        if let PropertyKind::Union(u) = p.kind() {
            for t in ["", "1", "-2.5", "true", "x"] {
                let answer = serde_json::json!({p.name(): u.value_from_text(t)});
                let _ = validate(&schema, &answer);
            }
        }
    }
});
