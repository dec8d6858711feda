//! The core checks this crate applies before sending anything: the secret-field lint,
//! the server URL policy, and schema derivation from Rust types.

use mcp_elicit_core::danger::ReviewedNotSecret;
use mcp_elicit_core::lint::{SecretFinding, find_urls_in_schema, lint_schema_with};
use mcp_elicit_core::schema::Schema;
use mcp_elicit_core::url_safety::{ServerUrlPolicy, check_server_url};

use crate::error::{Error, ErrorKind};

/// The secret-field findings for `schema` (empty when it may be sent), minus the
/// properties a reviewer allowed. Links in the form's texts (which servers SHOULD NOT
/// include) are logged, not refused.
pub(crate) fn lint(schema: &Schema, reviewed: &ReviewedNotSecret) -> Vec<SecretFinding> {
    for link in find_urls_in_schema(schema) {
        tracing::warn!(
            pointer = link.pointer(),
            url = link.url(),
            "a form-mode schema contains a link; clients should not render it"
        );
    }
    lint_schema_with(schema, reviewed)
}

/// `input` checked against the server URL policy, normalized.
pub(crate) fn server_url(input: &str, allow_loopback_http: bool) -> Result<String, Error> {
    let policy = ServerUrlPolicy {
        allow_loopback_http,
    };
    check_server_url(input, &policy)
        .map(|url| url.to_string())
        .map_err(|e| {
            Error::new(
                ErrorKind::InvalidUrl,
                format!("refusing to send this URL: {e}"),
            )
        })
}

/// The restricted schema of the Rust type `T`.
pub(crate) fn schema_of<T: schemars::JsonSchema>() -> Result<Schema, Error> {
    Schema::from_type::<T>().map_err(|e| {
        Error::core(
            ErrorKind::InvalidSchema,
            &format!(
                "{} does not map to a form-mode schema",
                std::any::type_name::<T>()
            ),
            e,
        )
    })
}
