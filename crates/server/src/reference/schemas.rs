//! The form schemas the reference server's tools ask with.

use std::sync::OnceLock;

use mcp_elicit_core::schema::Schema;
use serde_json::{Value, json};

use crate::error::{Error, ErrorKind};

fn parse(value: &Value) -> Result<Schema, Error> {
    Schema::parse(value).map_err(|e| Error::core(ErrorKind::InvalidSchema, "built-in schema", e))
}

/// A built-in schema parsed and linted once per process: the conformance tools ask on
/// every call, and the clones share the lint's findings (kept in the schema).
fn once(cell: &'static OnceLock<Schema>, value: fn() -> Value) -> Result<Schema, Error> {
    if let Some(schema) = cell.get() {
        return Ok(schema.clone());
    }
    let schema = parse(&value())?;
    // The findings are kept in the schema: lint before the first clone, so clones share them.
    let _ = mcp_elicit_core::lint::lint_schema(&schema);
    Ok(cell.get_or_init(|| schema).clone())
}

/// Every field kind of the subset, with defaults, `pattern` and `format`.
pub(crate) fn all_fields() -> Result<Schema, Error> {
    parse(&json!({
        "type": "object",
        "properties": {
            "handle": {
                "type": "string",
                "title": "Handle",
                "description": "Lowercase letters, digits and dashes, 3 to 20 characters",
                "minLength": 3,
                "maxLength": 20,
                "pattern": "^[a-z0-9-]+$",
                "default": "octo-cat"
            },
            "email": {
                "type": "string",
                "title": "E-mail",
                "format": "email"
            },
            "birthday": {
                "type": "string",
                "title": "Birthday",
                "format": "date"
            },
            "height": {
                "type": "number",
                "title": "Height (m)",
                "minimum": 0.5,
                "maximum": 2.5,
                "default": 1.75
            },
            "age": {
                "type": "integer",
                "title": "Age",
                "minimum": 0,
                "maximum": 150
            },
            "newsletter": {
                "type": "boolean",
                "title": "Subscribe to the newsletter",
                "default": false
            },
            "size": {
                "type": "string",
                "title": "T-shirt size",
                "enum": ["S", "M", "L", "XL"],
                "default": "M"
            },
            "color": {
                "type": "string",
                "title": "Favourite colour",
                "oneOf": [
                    {"const": "#FF0000", "title": "Red"},
                    {"const": "#00FF00", "title": "Green"},
                    {"const": "#0000FF", "title": "Blue"}
                ],
                "default": "#00FF00"
            },
            "plan": {
                "type": "string",
                "title": "Plan",
                "enum": ["free", "pro", "team"],
                "enumNames": ["Free", "Professional", "Team"]
            },
            "languages": {
                "type": "array",
                "title": "Languages you speak",
                "minItems": 1,
                "maxItems": 3,
                "items": {"type": "string", "enum": ["en", "fr", "de", "zh", "ja"]},
                "default": ["en"]
            },
            "topics": {
                "type": "array",
                "title": "Topics",
                "items": {"anyOf": [
                    {"const": "rust", "title": "Rust"},
                    {"const": "mcp", "title": "Model Context Protocol"},
                    {"const": "security", "title": "Security"}
                ]},
                "default": ["mcp"]
            }
        },
        "required": ["handle", "email", "age"]
    }))
}

/// A form that asks for a password: refused by the secret-field lint before sending.
pub(crate) fn secret() -> Result<Schema, Error> {
    parse(&json!({
        "type": "object",
        "properties": {
            "username": {"type": "string", "title": "Username"},
            "password": {"type": "string", "title": "Password"}
        },
        "required": ["username", "password"]
    }))
}

/// The conformance suite's `test_elicitation` schema.
pub(crate) fn conformance_basic() -> Result<Schema, Error> {
    static CELL: OnceLock<Schema> = OnceLock::new();
    once(&CELL, || {
        json!({
            "type": "object",
            "properties": {
                "username": {"type": "string", "description": "User's response"},
                "email": {"type": "string", "description": "User's email address"}
            },
            "required": ["username", "email"]
        })
    })
}

/// The conformance suite's SEP-1034 defaults schema.
pub(crate) fn conformance_defaults() -> Result<Schema, Error> {
    static CELL: OnceLock<Schema> = OnceLock::new();
    once(&CELL, || {
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "User name", "default": "John Doe"},
                "age": {"type": "integer", "description": "User age", "default": 30},
                "score": {"type": "number", "description": "User score", "default": 95.5},
                "status": {
                    "type": "string",
                    "description": "User status",
                    "enum": ["active", "inactive", "pending"],
                    "default": "active"
                },
                "verified": {"type": "boolean", "description": "Verification status", "default": true}
            }
        })
    })
}

/// The conformance suite's SEP-1330 enums schema.
pub(crate) fn conformance_enums() -> Result<Schema, Error> {
    static CELL: OnceLock<Schema> = OnceLock::new();
    once(&CELL, || {
        json!({
            "type": "object",
            "properties": {
                "untitledSingle": {
                    "type": "string",
                    "description": "Untitled single-select",
                    "enum": ["option1", "option2", "option3"]
                },
                "titledSingle": {
                    "type": "string",
                    "description": "Titled single-select",
                    "oneOf": [
                        {"const": "value1", "title": "First Option"},
                        {"const": "value2", "title": "Second Option"},
                        {"const": "value3", "title": "Third Option"}
                    ]
                },
                "legacyEnum": {
                    "type": "string",
                    "description": "Legacy titled enum",
                    "enum": ["opt1", "opt2", "opt3"],
                    "enumNames": ["Option One", "Option Two", "Option Three"]
                },
                "untitledMulti": {
                    "type": "array",
                    "description": "Untitled multi-select",
                    "items": {"type": "string", "enum": ["option1", "option2", "option3"]}
                },
                "titledMulti": {
                    "type": "array",
                    "description": "Titled multi-select",
                    "items": {"anyOf": [
                        {"const": "value1", "title": "First Choice"},
                        {"const": "value2", "title": "Second Choice"},
                        {"const": "value3", "title": "Third Choice"}
                    ]}
                }
            }
        })
    })
}
