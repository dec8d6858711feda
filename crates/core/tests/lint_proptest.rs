//! The lints never panic, whatever the text, and report spans that exist in it.

use mcp_elicit_core::Schema;
use mcp_elicit_core::lint::{find_urls_in_schema, lint_message, lint_schema};
use proptest::prelude::*;
use serde_json::json;

fn texty() -> impl Strategy<Value = String> {
    prop_oneof![
        "\\PC{0,40}",
        ".{0,30}",
        "[a-zA-Z_\\-]{0,24}",
        "(api|key|pass|word|token|密码|卡号|https://|www\\.|mailto:|data:|[ _\\-.:/()]|[A-Z]){0,12}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn lint_message_never_panics(text in texty()) {
        let m = lint_message(&text);
        for f in &m.secrets {
            prop_assert!(!f.matched().is_empty() && text.contains(f.matched()), "{:?} not in {:?}", f.matched(), text);
        }
        for l in &m.links {
            prop_assert!(!l.url().is_empty() && text.contains(l.url()), "{:?} not in {:?}", l.url(), text);
        }
    }

    #[test]
    fn lint_schema_never_panics(name in texty(), title in texty(), description in texty()) {
        let value = json!({
            "type": "object",
            "title": title.clone(),
            "description": description.clone(),
            "properties": {
                name.clone(): {"type": "string", "title": title.clone(), "description": description.clone()},
                "n": {"type": "number", "title": title, "description": description}
            }
        });
        if let Ok(schema) = Schema::parse(&value) {
            for f in lint_schema(&schema) {
                prop_assert!(!f.matched().is_empty());
                prop_assert!(!f.message().is_empty());
            }
            let _ = find_urls_in_schema(&schema);
        }
    }
}
