//! Reading a client's answers (an `inputResponses` entry or a 2025-11-25 reply): the
//! elicitation result checked for its mode, a form validated against its schema, a
//! sampling or roots result checked for its shape.

#[cfg(fuzzing)]
use mcp_elicit_core::message::METHOD_CREATE;
use mcp_elicit_core::message::{Action, CreateResult, Mode};
use mcp_elicit_core::schema::Schema;
use mcp_elicit_core::validate::validate;
#[cfg(fuzzing)]
use serde_json::json;
use serde_json::{Map, Value};

use super::{METHOD_ROOTS, METHOD_SAMPLING};
use crate::elicitor::FormOutcome;
use crate::error::{Error, ErrorKind};

pub(super) fn parse_reply(key: &str, value: &Value, mode: Mode) -> Result<CreateResult, Error> {
    let reply = CreateResult::parse(value).map_err(|e| {
        Error::core(
            ErrorKind::MalformedReply,
            &format!("inputResponses.{key} is not an elicitation result"),
            e,
        )
    })?;
    reply.check_for(mode).map_err(|e| {
        Error::new(
            ErrorKind::MalformedReply,
            format!("inputResponses.{key} is malformed: {e}"),
        )
    })?;
    Ok(reply)
}

/// A form answer: the outcome, or the violations of accepted content.
pub(super) fn form_answer(
    key: &str,
    value: &Value,
    schema: &Schema,
) -> Result<Result<FormOutcome<Map<String, Value>>, mcp_elicit_core::validate::Violations>, Error> {
    let reply = parse_reply(key, value, Mode::Form)?;
    Ok(match reply.action {
        Action::Decline => Ok(FormOutcome::Declined),
        Action::Cancel => Ok(FormOutcome::Cancelled),
        Action::Accept => {
            let content = reply.content.unwrap_or_default();
            match validate(schema, &Value::Object(content.clone())) {
                Ok(()) => Ok(FormOutcome::Accepted(content)),
                Err(v) => Err(v),
            }
        }
    })
}

/// A sampling or roots answer: a JSON object of the right shape.
pub(super) fn check_raw(key: &str, method: &str, value: &Value) -> Result<Value, Error> {
    let bad = |what: &str| {
        Error::new(
            ErrorKind::MalformedReply,
            format!("inputResponses.{key} is not a {method} result: {what}"),
        )
    };
    let Value::Object(map) = value else {
        return Err(bad("not a JSON object"));
    };
    match method {
        METHOD_ROOTS if !map.get("roots").is_some_and(Value::is_array) => {
            Err(bad("no `roots` array"))
        }
        METHOD_SAMPLING if !(map.contains_key("role") && map.contains_key("content")) => {
            Err(bad("no `role` and `content`"))
        }
        _ => Ok(value.clone()),
    }
}

/// One `inputResponses` entry read as a retried request's round reads it: the answer to a
/// form (`schema` given: accepted content is validated against it), to a URL question
/// (`elicitation/create` without a schema) or to a sampling / roots request. `Some` holds
/// what the handler would get (accepted valid content, an accepted URL's `{}`, the raw
/// sampling / roots result); `None` a decline, a cancel or content that fails the schema
/// (asked again). For the fuzz targets.
#[cfg(fuzzing)]
pub fn read_input_response(
    key: &str,
    method: &str,
    value: &Value,
    schema: Option<&Schema>,
) -> Result<Option<Value>, Error> {
    match (method, schema) {
        (METHOD_CREATE, Some(schema)) => Ok(match form_answer(key, value, schema)? {
            Ok(FormOutcome::Accepted(content)) => Some(Value::Object(content)),
            _ => None,
        }),
        (METHOD_CREATE, None) => {
            let reply = parse_reply(key, value, Mode::Url)?;
            Ok((reply.action == Action::Accept).then(|| json!({})))
        }
        _ => check_raw(key, method, value).map(Some),
    }
}
