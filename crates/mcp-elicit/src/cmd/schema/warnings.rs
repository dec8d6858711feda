//! Advice about a schema that is inside the subset: things that do not make it invalid
//! but that a reviewer should see.

use mcp_elicit_core::Schema;
use mcp_elicit_core::error::pointer_token;
use mcp_elicit_core::lint::find_urls_in_schema;
use mcp_elicit_core::schema::{PropertyKind, SingleSelectStyle};
use serde::Serialize;

/// One piece of advice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Warning {
    /// Stable machine-readable code.
    pub(crate) code: &'static str,
    /// JSON pointer into the schema.
    pub(crate) pointer: String,
    /// A sentence.
    pub(crate) message: String,
}

/// Every warning for `schema`, in property order.
///
/// - `no_properties`: the form asks for nothing.
/// - `legacy_enum_names`: `enumNames` is the legacy titled enum, which `schema.ts` says
///   will be removed; use `oneOf` of `{const, title}`.
/// - `url_in_text`: a title, description or option label contains a link; servers
///   SHOULD NOT put URLs meant to be clicked in a form request (clients will not render
///   them as links), and links to open belong in URL mode.
pub(crate) fn schema_warnings(schema: &Schema) -> Vec<Warning> {
    let mut out = Vec::new();
    if schema.properties().is_empty() {
        out.push(Warning {
            code: "no_properties",
            pointer: "/properties".to_owned(),
            message: "the schema has no properties: the form asks the user for nothing".to_owned(),
        });
    }
    for property in schema.properties() {
        if let PropertyKind::SingleSelect(select) = property.kind()
            && select.style() == SingleSelectStyle::LegacyEnumNames
        {
            out.push(Warning {
                code: "legacy_enum_names",
                pointer: format!("/properties/{}/enumNames", pointer_token(property.name())),
                message: format!(
                    "property \"{}\" uses the legacy `enumNames`, which the specification will remove; \
                     use `oneOf: [{{\"const\": ..., \"title\": ...}}]` instead",
                    property.name()
                ),
            });
        }
    }
    for link in find_urls_in_schema(schema) {
        out.push(Warning {
            code: "url_in_text",
            pointer: link.pointer().to_owned(),
            message: link.message().to_owned(),
        });
    }
    out
}
