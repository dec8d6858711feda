//! Validation of a form response `content` against a [`Schema`], and default application.
//!
//! [`validate`] checks every constraint the subset can express and reports every
//! violation at once, in a stable order: schema property order (and, within one
//! property, type, length, pattern, format, bounds, membership, item counts), then
//! unknown properties in content order. The schema is a closed, flat form: a property it
//! does not define is a violation. Numbers follow JSON Schema semantics (`1.0` and `1e2`
//! are integers; comparisons against bounds are exact, never through a lossy `f64`
//! conversion); string lengths count Unicode code points; `pattern` is an unanchored
//! ECMA-262 search; formats follow their RFCs (see [`formats`]). A present `null` is a
//! value of the wrong type, not an absent property. A pattern search that could run for
//! seconds on a long value (a hostile schema meeting a hostile response) and that no
//! linear-time engine can run is not attempted: the value is reported as unchecked, a
//! `pattern` violation.
//!
//! Messages echo untrusted text (unknown member names, offending items) JSON-quoted,
//! cut to 64 characters and with bidirectional controls escaped; a flood of unknown
//! members yields at most [`MAX_REPORTED_UNKNOWN`] violations.
//!
//! [`apply_defaults`] is a separate, explicit step: validation never fills anything in.
//!
//! ```
//! # use mcp_elicit_core::{Schema, validate::validate};
//! # use serde_json::json;
//! let schema = Schema::parse(&json!({
//!     "type": "object",
//!     "properties": {
//!         "email": {"type": "string", "format": "email"},
//!         "age": {"type": "integer", "minimum": 18}
//!     },
//!     "required": ["email"]
//! })).unwrap();
//! assert!(validate(&schema, &json!({"email": "ada@example.com", "age": 36})).is_ok());
//! let err = validate(&schema, &json!({"email": "ada", "age": 17.5})).unwrap_err();
//! assert_eq!(err.to_string(), "\"email\": must be an email address like name@example.com; \
//!     \"age\": must be a whole number (an integer), not 17.5; \"age\": must be at least 18");
//! ```

mod check;
mod defaults;
mod describe;
pub mod formats;
mod received;
mod violation;

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::schema::Schema;

pub use defaults::{apply_defaults, defaults};
pub use received::{UncheckedField, unchecked};
pub use violation::{Violation, ViolationCode, Violations};

pub(crate) use check::accepts as accepts_kind;

/// Most unknown properties reported one by one; the last reported one also says how
/// many more there are (a hostile response with a million extra keys must not make a
/// million violations).
pub const MAX_REPORTED_UNKNOWN: usize = 20;

/// Validates `content` (the `content` member of an accept result) against `schema`,
/// reporting every violation at once. Never panics, whatever `content` holds.
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::validate::{ViolationCode, validate};
/// use serde_json::json;
///
/// let schema = Schema::from_json_str(r#"{"type": "object", "properties": {
///     "name": {"type": "string"}, "age": {"type": "integer"}}, "required": ["name"]}"#)?;
/// let err = validate(&schema, &json!({"age": null, "nick": "al"})).unwrap_err();
/// let codes: Vec<ViolationCode> = err.iter().map(|v| v.code()).collect();
/// assert_eq!(codes, [ViolationCode::Required, ViolationCode::Type, ViolationCode::UnknownProperty]);
/// assert_eq!(err.first().message(), "\"name\": is required");
///
/// let not_object = validate(&schema, &json!(["Ada"])).unwrap_err();
/// assert_eq!(not_object.first().code(), ViolationCode::NotAnObject);
/// assert_eq!(not_object.first().property(), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn validate(schema: &Schema, content: &Value) -> Result<(), Violations> {
    let Some(object) = content.as_object() else {
        let message = format!(
            "the response content must be a JSON object, not {}",
            describe::json_type(content)
        );
        let violation = Violation::new(None, ViolationCode::NotAnObject, message);
        return Err(Violations::one(violation));
    };
    let mut violations = Vec::new();
    let mut known = 0usize;
    // Responses usually list their members in schema order: follow the content's own
    // order with a cursor and only hash when it is out of step.
    let mut in_order = object.iter();
    let mut next = in_order.next();
    for property in &schema.properties {
        let value = match next {
            Some((key, value)) if *key == property.name => {
                next = in_order.next();
                Some(value)
            }
            _ => object.get(&property.name),
        };
        match value {
            Some(value) => {
                known += 1;
                check::property(property, value, &mut violations);
            }
            None if property.required => {
                let message = format!("{}is required", describe::subject(&property.name));
                violations.push(Violation::new(
                    Some(&property.name),
                    ViolationCode::Required,
                    message,
                ));
            }
            None => {}
        }
    }
    // Keys are unique and property names are unique, so every key was matched exactly
    // when the counts agree: only look for unknown keys when they do not.
    let unknown_total = object.len() - known;
    if unknown_total > 0 {
        let unknown = object.keys().filter(|key| schema.property(key).is_none());
        for (i, key) in unknown.take(MAX_REPORTED_UNKNOWN).enumerate() {
            let mut message = format!("{}is not a field of this form", describe::subject(key));
            if i + 1 == MAX_REPORTED_UNKNOWN && unknown_total > MAX_REPORTED_UNKNOWN {
                let more = unknown_total - MAX_REPORTED_UNKNOWN;
                message.push_str(&format!(" (nor are {more} more fields of this response)"));
            }
            violations.push(Violation::new(
                Some(key),
                ViolationCode::UnknownProperty,
                message,
            ));
        }
    }
    match Violations::from_vec(violations) {
        Some(violations) => Err(violations),
        None => Ok(()),
    }
}
