//! The link lint (SHOULD NOT: clickable URLs in form-mode requests) and `lint_message`.

use mcp_elicit_core::Schema;
use mcp_elicit_core::lint::{Part, SecretCategory, find_urls_in_schema, lint_message, lint_schema};
use serde_json::json;

#[test]
fn urls_in_every_text_of_the_schema_are_found() {
    let s = Schema::parse(&json!({
        "type": "object",
        "title": "See https://evil.example/login",
        "description": "Details at www.example.com/help.",
        "properties": {
            "a": {"type": "string", "title": "Visit [our site](https://example.com/x)", "description": "or mailto:help@example.com"},
            "b": {"type": "string", "oneOf": [{"const": "x", "title": "javascript:alert(1)"}, {"const": "y", "title": "Plain"}]},
            "c": {"type": "array", "items": {"anyOf": [{"const": "z", "title": "https://z.example"}]}},
            "d": {"type": "string", "enum": ["p", "q"], "enumNames": ["https://q.example", "Q"]},
            "e": {"type": "string", "format": "uri", "default": "https://default.example/"}
        }
    }))
    .unwrap();
    let f = find_urls_in_schema(&s);
    let got: Vec<(&str, Part, &str, &str)> = f
        .iter()
        .map(|l| (l.property(), l.part(), l.pointer(), l.url()))
        .collect();
    assert_eq!(
        got,
        [
            (
                "",
                Part::SchemaTitle,
                "/title",
                "https://evil.example/login"
            ),
            (
                "",
                Part::SchemaDescription,
                "/description",
                "www.example.com/help"
            ),
            (
                "a",
                Part::Title,
                "/properties/a/title",
                "https://example.com/x"
            ),
            (
                "a",
                Part::Description,
                "/properties/a/description",
                "mailto:help@example.com"
            ),
            (
                "b",
                Part::OptionTitle,
                "/properties/b/oneOf/0/title",
                "javascript:alert(1)"
            ),
            (
                "c",
                Part::OptionTitle,
                "/properties/c/items/anyOf/0/title",
                "https://z.example"
            ),
            (
                "d",
                Part::OptionTitle,
                "/properties/d/enumNames/0",
                "https://q.example"
            ),
        ]
    );
    assert!(f[0].message().contains("URL-mode"));
    // Links are warnings, kept apart from secrets.
    assert!(lint_schema(&s).is_empty());
    let v = serde_json::to_value(&f[0]).unwrap();
    assert_eq!(v["part"], "schema_title");
    assert_eq!(v["url"], "https://evil.example/login");
}

#[test]
fn plain_text_has_no_links() {
    let s = Schema::parse(&json!({
        "type": "object",
        "properties": {"f": {"type": "string", "title": "File name", "description": "e.g. setup.py or README.md, version 1.2"}}
    }))
    .unwrap();
    assert!(find_urls_in_schema(&s).is_empty());
}

#[test]
fn message_lint_reports_secrets_and_links_separately() {
    let m = lint_message(
        "Please enter your password at https://login.example.com or reply with your 验证码.",
    );
    let cats: Vec<SecretCategory> = m.secrets.iter().map(|f| f.category()).collect();
    assert_eq!(
        cats,
        [SecretCategory::Password, SecretCategory::OneTimeCode]
    );
    assert!(
        m.secrets
            .iter()
            .all(|f| f.part() == Part::Message && f.property().is_empty())
    );
    assert_eq!(m.links.len(), 1);
    assert_eq!(m.links[0].url(), "https://login.example.com");
    assert!(!m.is_empty());
    assert!(lint_message("Please provide your GitHub username").is_empty());
    let v = serde_json::to_value(&m).unwrap();
    assert_eq!(v["links"][0]["part"], "message");
}
