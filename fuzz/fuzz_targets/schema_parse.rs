//! Arbitrary bytes through `Schema::from_json_str`: it must never panic, and a schema
//! it accepts must serialize to JSON that parses back to the same schema.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_elicit_core::Schema;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(schema) = Schema::from_json_str(text) {
        let first = schema.to_value();
        let again = Schema::parse(&first).expect("a serialized schema parses again");
        assert_eq!(again.to_value(), first, "round trip changed the schema");
        assert!(again == schema);
    }
});
