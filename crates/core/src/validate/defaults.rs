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
pub fn defaults(schema: &Schema) -> Map<String, Value> {
    schema
        .properties
        .iter()
        .filter_map(|p| p.default_value().map(|d| (p.name.clone(), d)))
        .collect()
}
