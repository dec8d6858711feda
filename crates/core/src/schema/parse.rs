//! Parsing raw JSON into a checked [`Schema`].

use serde_json::Value;

use crate::error::Errors;
use crate::schema::Schema;

/// Size limits applied while parsing untrusted schemas.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ParseLimits {
    /// Most properties a schema may have.
    pub max_properties: usize,
    /// Most options an enum may have.
    pub max_enum_options: usize,
    /// Longest string (title, description, default, option) in bytes.
    pub max_string_bytes: usize,
    /// Longest `pattern` source in bytes.
    pub max_pattern_bytes: usize,
}

impl Default for ParseLimits {
    fn default() -> Self {
        Self { max_properties: 256, max_enum_options: 1024, max_string_bytes: 16 * 1024, max_pattern_bytes: 1024 }
    }
}

impl Schema {
    /// Parses and checks a `requestedSchema` with the default [`ParseLimits`].
    pub fn parse(value: &Value) -> Result<Schema, Errors> {
        Self::parse_with_limits(value, &ParseLimits::default())
    }

    /// Parses and checks a `requestedSchema`, reporting every problem found.
    pub fn parse_with_limits(value: &Value, limits: &ParseLimits) -> Result<Schema, Errors> {
        let _ = (value, limits);
        todo!("schema parsing")
    }

    /// Parses JSON text, then the schema.
    pub fn from_json_str(text: &str) -> Result<Schema, Errors> {
        let _ = text;
        todo!("schema parsing from text")
    }
}
