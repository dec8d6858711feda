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

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    use serde_json::json;

    use super::*;

    /// A log sink for one test.
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn logged(schema: &Schema) -> (Vec<SecretFinding>, String) {
        let sink = Sink::default();
        let writer = sink.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .finish();
        let findings = tracing::subscriber::with_default(subscriber, || {
            lint(schema, &ReviewedNotSecret::new())
        });
        let text = String::from_utf8_lossy(&sink.0.lock().expect("log")).into_owned();
        (findings, text)
    }

    #[test]
    fn a_link_in_a_form_is_logged_with_its_place_and_does_not_block_the_form() {
        let schema = Schema::parse(&json!({
            "type": "object",
            "description": "Terms at https://example.com/terms apply.",
            "properties": {
                "plan": {"type": "string", "title": "Plan",
                         "description": "See http://example.org/plans"}
            }
        }))
        .expect("schema");
        let (findings, log) = logged(&schema);
        assert!(findings.is_empty(), "{findings:?}");
        assert_eq!(log.matches("WARN").count(), 2, "{log}");
        for part in [
            "https://example.com/terms",
            "http://example.org/plans",
            "/properties/plan/description",
            "clients should not render it",
        ] {
            assert!(log.contains(part), "{part} in {log}");
        }
        let plain = Schema::parse(&json!({
            "type": "object",
            "properties": {"plan": {"type": "string", "description": "Pick one."}}
        }))
        .expect("schema");
        assert_eq!(logged(&plain).1, "", "no link, no log line");
    }
}
