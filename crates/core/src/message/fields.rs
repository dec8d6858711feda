//! Small readers shared by the message parsers: each records its problems in an error
//! list and never panics.

use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind, pointer_token};
use crate::message::{MAX_ELICITATION_ID_BYTES, MAX_MESSAGE_BYTES, MAX_URL_BYTES};

/// `base` + `/` + the escaped `key`.
pub(super) fn child(base: &str, key: &str) -> String {
    format!("{base}/{}", pointer_token(key))
}

/// The JSON type name of a value, for messages.
pub(super) fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `value` as an object, or an error at `pointer` naming `what`.
pub(super) fn object<'a>(
    value: &'a Value,
    pointer: &str,
    what: &str,
) -> Result<&'a Map<String, Value>, Error> {
    value.as_object().ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidMessage,
            pointer,
            format!("{what} must be an object, found {}", type_name(value)),
        )
    })
}

/// The string member `key` of `map`; records an error when it is missing or not a string.
pub(super) fn required_str<'a>(
    map: &'a Map<String, Value>,
    key: &str,
    base: &str,
    errors: &mut Vec<Error>,
) -> Option<&'a str> {
    match map.get(key) {
        Some(Value::String(s)) => Some(s),
        Some(other) => {
            errors.push(Error::new(
                ErrorKind::InvalidMessage,
                child(base, key),
                format!("`{key}` must be a string, found {}", type_name(other)),
            ));
            None
        }
        None => {
            errors.push(Error::new(
                ErrorKind::InvalidMessage,
                child(base, key),
                format!("`{key}` is required"),
            ));
            None
        }
    }
}

/// Checks a `message`: any string up to [`MAX_MESSAGE_BYTES`].
pub(super) fn check_message(message: &str, pointer: &str, errors: &mut Vec<Error>) {
    if message.len() > MAX_MESSAGE_BYTES {
        errors.push(Error::new(
            ErrorKind::TooLarge,
            pointer,
            format!(
                "`message` is {} bytes, more than the limit of {MAX_MESSAGE_BYTES}",
                message.len()
            ),
        ));
    }
}

/// Checks an `elicitationId`: non-empty, at most [`MAX_ELICITATION_ID_BYTES`], no control
/// characters (it ends up in logs, storage keys and URLs).
pub(super) fn check_elicitation_id(id: &str, pointer: &str, errors: &mut Vec<Error>) {
    if id.is_empty() {
        errors.push(Error::new(
            ErrorKind::InvalidMessage,
            pointer,
            "`elicitationId` must not be empty",
        ));
    } else if id.len() > MAX_ELICITATION_ID_BYTES {
        errors.push(Error::new(
            ErrorKind::TooLarge,
            pointer,
            format!(
                "`elicitationId` is {} bytes, more than the limit of {MAX_ELICITATION_ID_BYTES}",
                id.len()
            ),
        ));
    } else if id.chars().any(char::is_control) {
        errors.push(Error::new(
            ErrorKind::InvalidMessage,
            pointer,
            "`elicitationId` must not contain control characters",
        ));
    }
}

/// Checks a `url`: non-empty, at most [`MAX_URL_BYTES`], an absolute URL.
pub(super) fn check_url(url: &str, pointer: &str, errors: &mut Vec<Error>) {
    if url.is_empty() {
        errors.push(Error::new(
            ErrorKind::InvalidMessage,
            pointer,
            "`url` must not be empty",
        ));
    } else if url.len() > MAX_URL_BYTES {
        errors.push(Error::new(
            ErrorKind::TooLarge,
            pointer,
            format!(
                "`url` is {} bytes, more than the limit of {MAX_URL_BYTES}",
                url.len()
            ),
        ));
    } else if let Err(e) = url::Url::parse(url) {
        errors.push(Error::new(
            ErrorKind::InvalidUrl,
            pointer,
            format!("`url` is not a valid absolute URL: {e}"),
        ));
    }
}

/// The optional `_meta` member: kept when it is an object, an error otherwise.
pub(super) fn meta(
    map: &Map<String, Value>,
    base: &str,
    errors: &mut Vec<Error>,
) -> Option<Map<String, Value>> {
    match map.get("_meta") {
        None => None,
        Some(Value::Object(m)) => Some(m.clone()),
        Some(other) => {
            errors.push(Error::new(
                ErrorKind::InvalidMessage,
                child(base, "_meta"),
                format!("`_meta` must be an object, found {}", type_name(other)),
            ));
            None
        }
    }
}

/// Records an error for each member of `forbidden` present in `map`.
pub(super) fn reject_members(
    map: &Map<String, Value>,
    forbidden: &[&str],
    base: &str,
    why: &str,
    errors: &mut Vec<Error>,
) {
    for key in forbidden {
        if map.contains_key(*key) {
            errors.push(Error::new(
                ErrorKind::InvalidMessage,
                child(base, key),
                format!("`{key}` {why}"),
            ));
        }
    }
}
