//! Answering one `elicitation/create`: checks, rate limit, then the form or URL pipeline.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use mcp_elicit_core::lint;
use mcp_elicit_core::message::{CreateRequest, CreateResult, FormRequest, INVALID_PARAMS, Mode};
use mcp_elicit_core::validate::{apply_defaults, unchecked, validate};
use rmcp::RoleClient;
use rmcp::model::{ErrorCode, ErrorData};
use rmcp::service::RequestContext;
use serde_json::{Value, json};

use crate::client::ElicitationClient;
use crate::identity::ServerIdentity;
use crate::opener::UrlOpener;
use crate::rate_limit::Admission;
use crate::text::PlainText;
use crate::ui::{ElicitationUi, FieldError, FormPrompt, FormResponse, Notice, UrlOrigin};
use crate::url_flow::UrlOutcome;

/// A -32602 with `reason` as message and structured `data`.
fn invalid_params(reason: String, data: Option<Value>) -> ErrorData {
    ErrorData::new(ErrorCode(INVALID_PARAMS), reason, data)
}

/// The -32602 for `elicitation/create` params the core could not parse: every problem in
/// the message and, structured, in `data.errors` (pointer, kind, message).
pub(crate) fn malformed_params(errors: &mcp_elicit_core::error::Errors) -> ErrorData {
    let list: Vec<Value> = errors
        .as_slice()
        .iter()
        .map(|e| json!({"pointer": e.pointer(), "kind": e.kind().code(), "message": e.message()}))
        .collect();
    invalid_params(
        format!("invalid elicitation/create params: {errors}"),
        Some(json!({"errors": list})),
    )
}

/// The size of `value` serialized, counting at most `limit + 1` bytes.
fn serialized_size(value: &Value, limit: usize) -> usize {
    struct Counter {
        n: usize,
        limit: usize,
    }
    impl std::io::Write for Counter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.n = self.n.saturating_add(buf.len());
            if self.n > self.limit {
                Err(std::io::Error::other("over limit"))
            } else {
                Ok(buf.len())
            }
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut c = Counter { n: 0, limit };
    let _ = serde_json::to_writer(&mut c, value);
    c.n
}

pub(crate) fn field_errors(violations: mcp_elicit_core::validate::Violations) -> Vec<FieldError> {
    violations
        .into_vec()
        .into_iter()
        .map(|v| FieldError {
            property: v.property().map(str::to_owned),
            code: v.code(),
            message: v.message().to_owned(),
        })
        .collect()
}

/// Reads the params of a received form or URL request (an `elicitation/create`, or an
/// input request of a 2026-07-28 `InputRequiredResult`): the one place where a client
/// reads a server's `requestedSchema`. Tolerant
/// ([`CreateRequest::parse_received`]): everything that can be shown as a flat form is,
/// and the schema's [`notices`](mcp_elicit_core::Schema::notices) say what was done about
/// the rest (the host shows them, see [`FormPrompt::schema_notices`]); only what cannot be
/// a flat form (nested objects, arrays of objects, a non-object top level) is refused.
pub(crate) fn read_create_params(
    raw: &Value,
) -> Result<CreateRequest, mcp_elicit_core::error::Errors> {
    CreateRequest::parse_received(raw)
}

impl<U: ElicitationUi, O: UrlOpener> ElicitationClient<U, O> {
    /// Checks a raw `elicitation/create` and answers it: `Ok` with the result JSON, or
    /// the JSON-RPC error (-32602) for an undeclared mode or malformed params.
    pub(crate) async fn handle_create(
        &self,
        raw: Value,
        context: &RequestContext<RoleClient>,
    ) -> Result<Value, ErrorData> {
        let server = self.identity(&context.peer);
        let request_id = match serde_json::to_value(&context.id) {
            Ok(Value::String(s)) => s,
            Ok(other) => other.to_string(),
            Err(_) => String::new(),
        };
        // Every request takes a token, refused ones too (a flood of garbage is a flood);
        // one that arrived alone gets it back once answered (see `rate_limit`).
        // After "stop asking" nothing is shown or announced any more.
        let stop_asking = self.shared.stop_asking.load(Ordering::SeqCst);
        let arrival = (!stop_asking).then(|| self.shared.limiter.arrive());
        let admission = arrival
            .as_ref()
            .map_or(Admission::RefusedSilently, |a| a.admission());
        if admission == Admission::RefusedNotify {
            self.shared
                .ui
                .notify(Notice::RateLimited {
                    server: server.clone(),
                    policy: self.shared.limiter.policy(),
                })
                .await;
        }
        let request = match self.check_request(&raw) {
            Ok(r) => r,
            Err(e) => {
                if admission == Admission::Allowed {
                    self.shared
                        .ui
                        .notify(Notice::Refused {
                            server,
                            reason: e.message.to_string(),
                        })
                        .await;
                }
                tracing::info!(reason = %e.message, "refused elicitation/create");
                return Err(e);
            }
        };
        if stop_asking {
            return Ok(CreateResult::decline().to_value());
        }
        if admission != Admission::Allowed {
            return Ok(CreateResult::cancel().to_value());
        }
        let answer = async {
            let _turn = self.shared.lane.lock().await;
            match request {
                CreateRequest::Form(form) => {
                    let raw_schema = raw.get("requestedSchema").cloned().unwrap_or(Value::Null);
                    self.run_form(server, request_id, form, raw_schema).await
                }
                CreateRequest::Url(url) => {
                    // Known from now on: a completion notification for it is legitimate.
                    let _waiter = self.shared.registry.register(&url.elicitation_id);
                    match self
                        .consent_url(&server, UrlOrigin::Request { request_id }, &url)
                        .await
                    {
                        UrlOutcome::Opened => CreateResult::accept_url(),
                        UrlOutcome::Declined | UrlOutcome::Blocked => CreateResult::decline(),
                        UrlOutcome::Cancelled => CreateResult::cancel(),
                    }
                }
            }
        };
        let answer = async {
            let r = answer.await;
            if let Some(a) = arrival {
                a.answered(r.action == mcp_elicit_core::message::Action::Accept);
            }
            r
        };
        let timed = async {
            match self.shared.config.prompt_timeout {
                Some(limit) => tokio::time::timeout(limit, answer)
                    .await
                    .unwrap_or_else(|_| CreateResult::cancel()),
                None => answer.await,
            }
        };
        let result = tokio::select! {
            r = timed => r,
            () = context.ct.cancelled() => CreateResult::cancel(),
        };
        Ok(result.to_value())
    }

    /// Size, mode and shape checks. Errors are the -32602 to send.
    pub(crate) fn check_request(&self, raw: &Value) -> Result<CreateRequest, ErrorData> {
        let limit = self.shared.config.limits.max_params_bytes;
        let size = serialized_size(raw, limit);
        if size > limit {
            return Err(invalid_params(
                format!(
                    "elicitation/create params are larger than this client accepts ({limit} bytes)"
                ),
                Some(json!({"limit": limit})),
            ));
        }
        // An undeclared mode is named as such even if the rest is malformed too.
        let mode = match raw.get("mode") {
            None => Some(Mode::Form),
            Some(Value::String(s)) => Mode::parse(s),
            Some(_) => None,
        };
        if let Some(mode) = mode
            && !self.shared.capability.supports(mode)
        {
            return Err(invalid_params(
                format!("this client did not declare {mode} mode elicitation"),
                Some(json!({"mode": mode.as_str(), "declared": self.shared.capability.to_value()})),
            ));
        }
        read_create_params(raw).map_err(|errors| malformed_params(&errors))
    }

    pub(crate) async fn run_form(
        &self,
        server: ServerIdentity,
        request_id: String,
        form: FormRequest,
        raw_schema: Value,
    ) -> CreateResult {
        let FormRequest {
            message, schema, ..
        } = form;
        let schema = Arc::new(schema);
        let mut values = serde_json::Map::new();
        let prefilled = apply_defaults(&schema, &mut values);
        let mut errors = Vec::new();
        let secret_findings = lint::lint_schema(&schema);
        let link_findings = lint::find_urls_in_schema(&schema);
        let max = self.shared.config.limits.max_form_attempts.max(1);
        for attempt in 1..=max {
            let prompt = FormPrompt {
                server: server.clone(),
                request_id: request_id.clone(),
                message: PlainText::from_untrusted(&message),
                schema: schema.clone(),
                raw_schema: raw_schema.clone(),
                values: values.clone(),
                prefilled: prefilled.clone(),
                errors: errors.clone(),
                attempt,
                secret_findings: secret_findings.clone(),
                link_findings: link_findings.clone(),
            };
            match self.shared.ui.present_form(prompt).await {
                FormResponse::Submit(content) => {
                    match validate(&schema, &Value::Object(content.clone())) {
                        Ok(()) => {
                            let left = unchecked(&schema, &Value::Object(content.clone()));
                            if !left.is_empty() {
                                tracing::info!(
                                    fields = ?left.iter().map(|u| &u.property).collect::<Vec<_>>(),
                                    "answer sent with some checks left to the server"
                                );
                            }
                            return CreateResult::accept(content);
                        }
                        Err(violations) => {
                            errors = field_errors(violations);
                            values = content;
                        }
                    }
                }
                FormResponse::Decline => return CreateResult::decline(),
                FormResponse::Cancel => return CreateResult::cancel(),
                FormResponse::StopAsking => {
                    self.set_stop_asking(true);
                    return CreateResult::decline();
                }
            }
        }
        self.shared
            .ui
            .notify(Notice::GaveUp { server, errors })
            .await;
        CreateResult::cancel()
    }
}
