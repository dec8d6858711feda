//! Forms for 2026-07-28 peers, through multi round-trip requests (SEP-2322).
//!
//! On protocol 2026-07-28 a server may not send `elicitation/create` itself: the tool
//! answers with an `InputRequiredResult` carrying the request, the client asks the user
//! and calls the tool again with the answer in `inputResponses` and the server's
//! `requestState` echoed back. [`Elicitor::form_input`] does both halves:
//!
//! - first call: checks the schema (subset, secret-field lint) and the declared mode, and
//!   returns [`Round::InputRequired`] with the request and a `requestState` **sealed**
//!   with a [`RequestStateCodec`] (HMAC, expiry) and bound, as authenticated associated
//!   data, to the user, the tool and the question key;
//! - retry: opens the state (a forged, expired, or other user's or other tool's state is
//!   refused), parses the answer and validates it against the full schema, like
//!   [`Elicitor::form_with_schema`].
//!
//! Known limit: rmcp's typed `ElicitRequest` (the only kind `InputRequiredResult` can
//! carry) drops `pattern`, so a 2026-07-28 client does not see it; the server still
//! validates the answer against the full schema, `pattern` included. The 2026-07-28
//! revision removed URL-mode completion notifications and `-32042`, so only forms are
//! offered here.

use std::collections::BTreeMap;

use mcp_elicit_core::message::{Action, CreateResult, FormRequest, METHOD_CREATE, Mode};
use mcp_elicit_core::schema::Schema;
use mcp_elicit_core::validate::validate;
use rmcp::model::{
    CallToolRequestParams, ElicitRequest, InputRequest, InputRequiredResult, ProtocolVersion,
    RequestStateCodec, SealOptions,
};
use serde_json::{Map, Value, json};

use crate::checks;
use crate::elicitor::{Elicitor, FormOutcome};
use crate::error::{Error, ErrorKind};

/// One step of a multi round-trip form.
#[derive(Debug)]
#[non_exhaustive]
pub enum Round<T> {
    /// The answer arrived (on a retry) and checked out.
    Done(T),
    /// Return this from the tool (`CallToolResponse::InputRequired`): the client asks the
    /// user and calls again.
    InputRequired(InputRequiredResult),
}

/// What the sealed `requestState` holds (the user, tool and key are bound as associated
/// data, so they are authenticated without being stored).
#[derive(serde::Serialize, serde::Deserialize)]
struct RoundState {
    key: String,
}

impl Elicitor {
    /// Whether this request is on a revision where elicitation goes through
    /// `InputRequiredResult` (2026-07-28 and later) rather than `elicitation/create`.
    pub fn uses_input_required(&self) -> bool {
        self.protocol()
            .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
    }

    fn bound_data(&self, call: &CallToolRequestParams, key: &str) -> Vec<u8> {
        let p = self.principal();
        format!(
            "mcp-elicit/mrtr/v1\n{}\n{}\n{}\n{}",
            p.issuer(),
            p.subject(),
            call.name,
            key
        )
        .into_bytes()
    }

    /// Asks for a form on a 2026-07-28 peer: the first call returns
    /// [`Round::InputRequired`] (the request under `key`, and a `requestState` sealed by
    /// `codec` with an expiry and bound to the user, the tool name and `key`); the retry
    /// that carries the answer under `key` returns [`Round::Done`] with the outcome,
    /// validated against the full schema. A forged, expired or transplanted state (other
    /// user, other tool, other key) is refused with [`ErrorKind::MalformedReply`].
    ///
    /// rmcp's typed request drops `pattern` on the way to the client; the server still
    /// validates it. Same checks before sending as [`Elicitor::form_with_schema`].
    pub fn form_input(
        &self,
        codec: &RequestStateCodec,
        call: &CallToolRequestParams,
        key: &str,
        message: &str,
        schema: &Schema,
    ) -> Result<Round<FormOutcome<Map<String, Value>>>, Error> {
        if !self.uses_input_required() {
            return Err(Error::new(
                ErrorKind::UnsupportedProtocol,
                "input-required rounds need protocol 2026-07-28; use form_with_schema on earlier revisions",
            ));
        }
        if !self.supports(Mode::Form) {
            return Err(Error::new(
                ErrorKind::ModeNotSupported,
                "the client did not declare form mode elicitation; nothing was sent",
            ));
        }
        let findings = checks::lint(schema, &self.hub().config().reviewed_not_secret);
        if !findings.is_empty() {
            return Err(Error::secret(findings));
        }
        let bound = self.bound_data(call, key);
        let answer = call.input_responses.as_ref().and_then(|r| r.get(key));
        match (call.request_state.as_deref(), answer) {
            (Some(state), Some(answer)) => {
                let opened: RoundState = codec.open_json_with(state, &bound).map_err(|e| {
                    // One client-facing error for every opening failure; details in the log.
                    tracing::info!(error = %e, "refused an echoed requestState");
                    Error::new(
                        ErrorKind::MalformedReply,
                        "the echoed requestState is not one this server issued for this user, tool and question",
                    )
                })?;
                if opened.key != key {
                    return Err(Error::new(
                        ErrorKind::MalformedReply,
                        "the echoed requestState belongs to another question",
                    ));
                }
                outcome(schema, answer).map(Round::Done)
            }
            _ => {
                let params = FormRequest::new(message, schema.clone()).to_value();
                let request: ElicitRequest =
                    serde_json::from_value(json!({"method": METHOD_CREATE, "params": params}))
                        .map_err(|e| {
                            Error::new(
                                ErrorKind::InvalidSchema,
                                format!("rmcp cannot carry this form: {e}"),
                            )
                        })?;
                let state = codec
                    .seal_json_with(
                        &RoundState {
                            key: key.to_owned(),
                        },
                        &SealOptions::new()
                            .associated_data(&bound)
                            .ttl(self.form_timeout()),
                    )
                    .map_err(|e| {
                        Error::new(
                            ErrorKind::Store,
                            format!("cannot seal the request state: {e}"),
                        )
                    })?;
                let requests =
                    BTreeMap::from([(key.to_owned(), InputRequest::Elicitation(request))]);
                Ok(Round::InputRequired(InputRequiredResult::new(
                    Some(requests),
                    Some(state),
                )))
            }
        }
    }
}

fn outcome(schema: &Schema, answer: &Value) -> Result<FormOutcome<Map<String, Value>>, Error> {
    let reply = CreateResult::parse(answer).map_err(|e| {
        Error::core(
            ErrorKind::MalformedReply,
            "the client's answer is malformed",
            e,
        )
    })?;
    reply.check_for(Mode::Form).map_err(|e| {
        Error::new(
            ErrorKind::MalformedReply,
            format!("the client's answer is malformed: {e}"),
        )
    })?;
    match reply.action {
        Action::Decline => Ok(FormOutcome::Declined),
        Action::Cancel => Ok(FormOutcome::Cancelled),
        Action::Accept => {
            let content = reply.content.unwrap_or_default();
            validate(schema, &Value::Object(content.clone())).map_err(Error::invalid_content)?;
            Ok(FormOutcome::Accepted(content))
        }
    }
}
