//! Validation of a form response `content` against a [`Schema`], and default application.

use serde_json::{Map, Value};

use crate::schema::Schema;

/// One way a response breaks its schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    property: Option<String>,
    code: ViolationCode,
    message: String,
}

/// What rule a [`Violation`] breaks.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ViolationCode {
    /// The content is not a JSON object.
    NotAnObject,
    /// A required property is missing.
    Required,
    /// A property the schema does not define.
    UnknownProperty,
    /// The value has the wrong JSON type (including a non-integer for `integer`).
    Type,
    /// Shorter than `minLength`.
    MinLength,
    /// Longer than `maxLength`.
    MaxLength,
    /// Does not match `pattern`.
    Pattern,
    /// Does not match `format`.
    Format,
    /// Below `minimum`.
    Minimum,
    /// Above `maximum`.
    Maximum,
    /// Not one of the allowed values.
    Enum,
    /// Fewer items than `minItems`.
    MinItems,
    /// More items than `maxItems`.
    MaxItems,
    /// A multi-select with the same item twice.
    UniqueItems,
}

impl Violation {
    /// The property concerned (`None` for whole-content problems).
    pub fn property(&self) -> Option<&str> {
        self.property.as_deref()
    }
    /// The rule broken.
    pub fn code(&self) -> ViolationCode {
        self.code
    }
    /// A sentence fit for a form UI and a JSON-RPC -32602 message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// Every violation found, in schema order; never empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violations(Vec<Violation>);

/// Validates `content` (the `content` member of an accept result) against `schema`,
/// reporting every violation at once.
pub fn validate(schema: &Schema, content: &Value) -> Result<(), Violations> {
    let _ = (schema, content);
    todo!("validation")
}

/// Fills properties missing from `content` with their schema defaults. Returns the
/// names filled. A separate, explicit step: [`validate`] never applies defaults.
pub fn apply_defaults(schema: &Schema, content: &mut Map<String, Value>) -> Vec<String> {
    let _ = (schema, content);
    todo!("defaults")
}
