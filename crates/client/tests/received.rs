//! Forms real servers generate, beyond the subset: the client shows them (tolerant
//! reading) instead of refusing them, tells the user what it did, validates what it can,
//! and sends answers typed as the server's schema wants them.

mod common;

use common::*;
use mcp_elicit_client::{Config, FormResponse, RecordingOpener};
use mcp_elicit_core::schema::NoticeKind;
use serde_json::{Map, Value, json};

fn form(schema: Value) -> Value {
    json!({"mode": "form", "message": "Please fill in", "requestedSchema": schema})
}

fn answer(v: Value) -> FormResponse {
    match v {
        Value::Object(m) => FormResponse::Submit(m),
        _ => FormResponse::Submit(Map::new()),
    }
}

#[tokio::test]
async fn pydantic_forms_are_shown_with_their_notices_and_answered_typed() {
    let ui = TestUi::default();
    let h = duplex(ui.clone(), RecordingOpener::default(), Config::default()).await;
    let schema = json!({
        "type": "object",
        "$defs": {"Color": {"enum": ["red", "green"], "type": "string"}},
        "properties": {
            "positive": {"type": "integer", "exclusiveMinimum": 0},
            "level": {"type": "integer", "enum": [1, 2, 3], "default": 2},
            "word": {"type": "string", "pattern": "(?i)^hello$"},
            "at": {"type": "string", "format": "time"},
            "amount": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
            "age": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": null},
            "color": {"$ref": "#/$defs/Color", "default": "red"},
            "small": {"type": "integer", "maximum": 10, "default": 50}
        },
        "required": ["positive", "amount"]
    });
    // First answer breaks exclusiveMinimum and sends the level as text: re-presented.
    ui.script_forms([
        answer(json!({"positive": 0, "level": "3", "amount": 4})),
        answer(json!({"positive": 1, "level": 3, "amount": "four", "word": "HELLO", "age": null})),
    ]);
    let r = guard(h.elicit(form(schema.clone()))).await;
    assert_eq!(r["ok"]["action"], "accept", "{r}");
    assert_eq!(
        r["ok"]["content"],
        json!({"positive": 1, "level": 3, "amount": "four", "word": "HELLO", "age": null})
    );
    let forms = ui.forms();
    assert_eq!(forms.len(), 2);
    let first = &forms[0];
    assert_eq!(first.raw_schema, schema);
    // Prefilled typed: the level as a number, the color through $defs; not the bad default.
    assert_eq!(first.values.get("level"), Some(&json!(2)));
    assert_eq!(first.values.get("color"), Some(&json!("red")));
    assert!(!first.values.contains_key("small"));
    let mut notices: Vec<(String, NoticeKind)> = first
        .schema_notices()
        .iter()
        .map(|n| (n.property().unwrap_or("").to_owned(), n.kind()))
        .collect();
    notices.sort();
    assert_eq!(
        notices,
        [
            ("amount".to_owned(), NoticeKind::Union),
            ("at".to_owned(), NoticeKind::UncheckedFormat),
            ("small".to_owned(), NoticeKind::DefaultDropped),
            ("word".to_owned(), NoticeKind::UncheckedPattern),
        ]
    );
    let unchecked: Vec<&str> = first.unchecked_fields().iter().map(|(f, _)| *f).collect();
    assert_eq!(unchecked, ["word", "at"]);
    let codes: Vec<&str> = forms[1].errors.iter().map(|e| e.code.as_str()).collect();
    assert_eq!(
        codes,
        ["exclusive_minimum", "enum"],
        "{:?}",
        forms[1].errors
    );
}

#[tokio::test]
async fn a_pattern_no_engine_runs_safely_is_shown_unchecked_and_nothing_hangs() {
    let ui = TestUi::default();
    *ui.0.submit_values.lock().unwrap() = true;
    let h = duplex(ui.clone(), RecordingOpener::default(), Config::default()).await;
    // regress 0.12 never finishes matching this against "ba": the pattern is not run.
    let schema = json!({"type": "object", "properties": {"code": {
        "type": "string", "pattern": "^(?=.)(?:(?:b?)?){2}$", "default": "ba"}}});
    let r = guard(h.elicit(form(schema))).await;
    assert_eq!(r["ok"]["action"], "accept", "{r}");
    assert_eq!(r["ok"]["content"], json!({"code": "ba"}));
    let forms = ui.forms();
    let notice = &forms[0].schema_notices()[0];
    assert_eq!(notice.kind(), NoticeKind::UncheckedPattern);
    assert_eq!(notice.pointer(), "/properties/code/pattern");
}

#[tokio::test]
async fn what_cannot_be_a_flat_form_is_still_refused() {
    let ui = TestUi::default();
    let h = duplex(ui.clone(), RecordingOpener::default(), Config::default()).await;
    for schema in [
        json!({"type": "object", "properties": {"a": {"type": "object", "properties": {}}}}),
        json!({"type": "object", "properties": {"a": {"type": "array", "items": {"type": "object"}}}}),
        json!({"type": "array", "items": {"type": "string"}}),
    ] {
        let r = guard(h.elicit(form(schema.clone()))).await;
        assert_eq!(r["error"]["code"], -32602, "{schema} -> {r}");
    }
    assert!(ui.forms().is_empty());
}
