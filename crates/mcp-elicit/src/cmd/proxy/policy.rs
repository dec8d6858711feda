//! The rules the proxy applies to elicitation traffic, each one switchable: what an
//! upstream's `elicitation/create` must pass before the user sees it, and what the
//! user's answer must pass before the upstream gets it.
//!
//! Decisions are logged by rule name, mode and field names, never with the message,
//! the URL or the values.

use mcp_elicit_client::RateLimit;
use mcp_elicit_core::Schema;
use mcp_elicit_core::lint;
use mcp_elicit_core::message::{CreateRequest, CreateResult, FormRequest, UrlRequest};
use mcp_elicit_core::url_safety::{ServerUrlPolicy, check_server_url};
use mcp_elicit_core::validate::validate;
use serde_json::Value;

/// Which rules are on (all by default).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Policy {
    /// Refuse forms whose fields look like secrets (passwords, API keys, card numbers).
    pub(crate) refuse_secret_forms: bool,
    /// Refuse schemas outside the specification's subset (off: `--tolerant`, passed on
    /// as received and answers validated as the tolerant reader reads them).
    pub(crate) strict_schemas: bool,
    /// Refuse URLs that break the server URL policy (credentials, personal data,
    /// non-https off loopback).
    pub(crate) check_urls: bool,
    /// Allow `http://` URLs to loopback hosts (development servers).
    pub(crate) allow_loopback_http: bool,
    /// Validate accepted form answers against the schema before they go upstream.
    pub(crate) validate_answers: bool,
    /// Elicitation requests per user.
    pub(crate) rate_limit: RateLimit,
}

/// Why a request or an answer was stopped: one text for the server author (the JSON-RPC
/// error the upstream gets), one for the user (added to the tool call's result).
#[derive(Debug, Clone)]
pub(crate) struct Refusal {
    /// The rule's name, for the log.
    pub(crate) rule: &'static str,
    /// The JSON-RPC error message to the upstream.
    pub(crate) to_server: String,
    /// What the user is told.
    pub(crate) to_user: String,
}

/// A request that passed: what to send downstream, and what the answer is checked against.
#[derive(Debug)]
pub(crate) enum Passed {
    /// A form: its params and the schema as read.
    Form(FormRequest),
    /// A URL request, checked.
    Url(UrlRequest),
}

/// The text the user gets for a secret-asking form (also the gist of the server's error).
pub(crate) const SECRET_TO_USER: &str = "The server asked for a secret (such as a password or an API key) in a form; \
     mcp-elicit proxy did not show it, because secrets must never be typed into MCP forms. \
     Nothing was sent to the server. Ask the server's author to use URL-mode elicitation \
     (a page of their own over HTTPS) for this step.";

impl Policy {
    /// Checks the raw params of an upstream `elicitation/create`.
    pub(crate) fn check_request(&self, raw: &Value) -> Result<Passed, Refusal> {
        let parsed = if self.strict_schemas {
            CreateRequest::parse(raw)
        } else {
            CreateRequest::parse_received(raw)
        };
        let request = parsed.map_err(|errors| {
            let rule = if self.strict_schemas && CreateRequest::parse_received(raw).is_ok() {
                "schema-subset"
            } else {
                "malformed"
            };
            Refusal {
                rule,
                to_server: format!("mcp-elicit proxy refused this elicitation/create: {errors}"),
                to_user: "The server sent a form this proxy does not pass on (it is outside \
                          what MCP forms may contain); nothing was shown or sent."
                    .to_owned(),
            }
        })?;
        match request {
            CreateRequest::Form(form) => {
                if self.refuse_secret_forms {
                    let findings = lint::lint_schema(&form.schema);
                    if !findings.is_empty() {
                        // One finding per reason (name, title, description): each field once.
                        let mut fields: Vec<&str> = Vec::new();
                        for f in &findings {
                            if !fields.contains(&f.property()) {
                                fields.push(f.property());
                            }
                        }
                        return Err(Refusal {
                            rule: "secret-form",
                            to_server: format!(
                                "mcp-elicit proxy refused this form: the field(s) {} look like secrets, \
                                 and servers MUST NOT request sensitive information through form mode; \
                                 use URL-mode elicitation (a page of your own over HTTPS) instead",
                                fields.join(", ")
                            ),
                            to_user: SECRET_TO_USER.to_owned(),
                        });
                    }
                }
                Ok(Passed::Form(form))
            }
            CreateRequest::Url(url) => {
                self.check_url(&url.url)?;
                Ok(Passed::Url(url))
            }
        }
    }

    /// Checks a URL the upstream wants the user to open.
    pub(crate) fn check_url(&self, url: &str) -> Result<(), Refusal> {
        if !self.check_urls {
            return Ok(());
        }
        let policy = ServerUrlPolicy {
            allow_loopback_http: self.allow_loopback_http,
        };
        check_server_url(url, &policy).map(|_| ()).map_err(|e| Refusal {
            rule: "url-policy",
            to_server: format!("mcp-elicit proxy refused this URL elicitation: {e}"),
            to_user: "The server asked you to open a web page whose address is unsafe (it may carry \
                      credentials or personal data, or not use HTTPS); mcp-elicit proxy did not show it."
                .to_owned(),
        })
    }

    /// Checks the user's answer to a form before it goes upstream.
    pub(crate) fn check_answer(
        &self,
        schema: &Schema,
        result: &CreateResult,
    ) -> Result<(), Refusal> {
        let Some(content) = result.accepted_content() else {
            return Ok(());
        };
        if !self.validate_answers {
            return Ok(());
        }
        validate(schema, &Value::Object(content.clone())).map_err(|violations| {
            let fields: Vec<String> = violations
                .into_vec()
                .into_iter()
                .map(|v| v.property().unwrap_or("(form)").to_owned())
                .collect();
            Refusal {
                rule: "answer-invalid",
                to_server: "the answer was not valid; the proxy sent cancel instead".to_owned(),
                to_user: format!(
                    "Your answer to the server's form was not valid (field(s): {}); mcp-elicit proxy \
                     did not send it, the server got \"cancel\".",
                    fields.join(", ")
                ),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn policy() -> Policy {
        Policy {
            refuse_secret_forms: true,
            strict_schemas: true,
            check_urls: true,
            allow_loopback_http: false,
            validate_answers: true,
            rate_limit: RateLimit::default(),
        }
    }

    fn password_form() -> Value {
        json!({"mode": "form", "message": "Sign in", "requestedSchema": {"type": "object",
            "properties": {"username": {"type": "string"}, "password": {"type": "string"}}}})
    }

    #[test]
    fn a_password_form_is_refused_unless_the_rule_is_off() {
        let e = policy().check_request(&password_form()).unwrap_err();
        assert_eq!(e.rule, "secret-form");
        assert!(e.to_server.contains("password"), "{}", e.to_server);
        assert!(e.to_server.contains("URL-mode"), "{}", e.to_server);
        assert!(e.to_user.contains("URL-mode"), "{}", e.to_user);
        let off = Policy {
            refuse_secret_forms: false,
            ..policy()
        };
        assert!(matches!(
            off.check_request(&password_form()),
            Ok(Passed::Form(_))
        ));
    }

    #[test]
    fn a_schema_beyond_the_subset_is_refused_unless_tolerant() {
        let raw = json!({"message": "Qty", "requestedSchema": {"type": "object",
            "properties": {"qty": {"type": "integer", "exclusiveMinimum": 0}}}});
        assert_eq!(
            policy().check_request(&raw).unwrap_err().rule,
            "schema-subset"
        );
        let tolerant = Policy {
            strict_schemas: false,
            ..policy()
        };
        assert!(matches!(tolerant.check_request(&raw), Ok(Passed::Form(_))));
    }

    #[test]
    fn urls_with_credentials_or_plain_http_are_refused() {
        let url =
            |u: &str| json!({"mode": "url", "message": "Go", "url": u, "elicitationId": "e1"});
        let p = policy();
        assert!(matches!(
            p.check_request(&url("https://example.com/x")),
            Ok(Passed::Url(_))
        ));
        let e = p
            .check_request(&url("https://u:pw@example.com/x"))
            .unwrap_err();
        assert_eq!(e.rule, "url-policy");
        assert!(p.check_request(&url("http://example.com/x")).is_err());
        assert!(p.check_request(&url("http://127.0.0.1:9/x")).is_err());
        let dev = Policy {
            allow_loopback_http: true,
            ..p
        };
        assert!(dev.check_request(&url("http://127.0.0.1:9/x")).is_ok());
    }

    #[test]
    fn an_invalid_answer_is_refused_naming_the_field_not_the_value() {
        let raw = json!({"message": "Age", "requestedSchema": {"type": "object",
            "properties": {"age": {"type": "integer", "minimum": 0}}, "required": ["age"]}});
        let Ok(Passed::Form(form)) = policy().check_request(&raw) else {
            panic!("a form")
        };
        let bad = CreateResult::accept(json!({"age": -4}).as_object().cloned().unwrap_or_default());
        let e = policy().check_answer(&form.schema, &bad).unwrap_err();
        assert!(
            e.to_user.contains("age") && !e.to_user.contains("-4"),
            "{}",
            e.to_user
        );
        let good = CreateResult::accept(json!({"age": 4}).as_object().cloned().unwrap_or_default());
        assert!(policy().check_answer(&form.schema, &good).is_ok());
        assert!(
            policy()
                .check_answer(&form.schema, &CreateResult::decline())
                .is_ok()
        );
    }
}
