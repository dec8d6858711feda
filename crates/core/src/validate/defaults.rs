//! Default application: an explicit step, separate from validation.

use serde_json::{Map, Value};

use crate::schema::Schema;

/// Fills the properties missing from `content` with their schema defaults, in schema
/// order, and returns the names filled.
///
/// Only *absent* properties are filled: a present value is never replaced, not even
/// `null` (an explicit `null` is what the user sent; [`validate`](super::validate)
/// reports it as a type violation rather than this function hiding it). Properties
/// without a default stay absent. Unknown properties are left alone.
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::validate::apply_defaults;
/// use serde_json::{Map, Value, json};
///
/// let schema = Schema::from_json_str(r#"{"type": "object", "properties": {
///     "lang": {"type": "string", "default": "en"},
///     "count": {"type": "integer", "default": 10},
///     "note": {"type": "string"}}}"#)?;
/// let mut content: Map<String, Value> = [("count".to_owned(), Value::Null)].into_iter().collect();
/// let filled = apply_defaults(&schema, &mut content);
/// assert_eq!(filled, ["lang"]); // `count` is present (null), `note` has no default
/// assert_eq!(Value::Object(content), json!({"count": null, "lang": "en"}));
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
pub fn apply_defaults(schema: &Schema, content: &mut Map<String, Value>) -> Vec<String> {
    let mut filled = Vec::new();
    for property in &schema.properties {
        if content.contains_key(&property.name) {
            continue;
        }
        if let Some(default) = property.default_value() {
            content.insert(property.name.clone(), default);
            filled.push(property.name.clone());
        }
    }
    filled
}

/// Every property's default, in schema order: what a client pre-fills a form with
/// (the spec: clients that support defaults SHOULD pre-populate form fields with them).
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::validate::defaults;
/// use serde_json::{Value, json};
///
/// let schema = Schema::from_json_str(r#"{"type": "object", "properties": {
///     "name": {"type": "string"},
///     "plan": {"type": "string", "enum": ["free", "pro"], "default": "free"},
///     "seats": {"type": "integer", "default": 1}}}"#)?;
/// assert_eq!(Value::Object(defaults(&schema)), json!({"plan": "free", "seats": 1}));
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
pub fn defaults(schema: &Schema) -> Map<String, Value> {
    schema
        .properties
        .iter()
        .filter_map(|p| p.default_value().map(|d| (p.name.clone(), d)))
        .collect()
}
