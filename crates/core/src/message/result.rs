//! The client's answer to `elicitation/create`: [`Action`] and [`CreateResult`].

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind, Errors};
use crate::message::Mode;
use crate::message::fields::{child, meta, object, type_name};
use crate::message::request::serde_via_value;

/// The user's action.
///
/// ```
/// use mcp_elicit_core::lifecycle::Event;
/// use mcp_elicit_core::message::Action;
///
/// assert_eq!(Action::parse("decline"), Some(Action::Decline));
/// assert_eq!(Action::parse("reject"), None);
/// assert_eq!(Event::from(Action::Cancel), Event::Cancel);
/// assert_eq!(serde_json::to_value(Action::Accept).unwrap(), "accept");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// The user submitted the form, or consented to open the URL.
    Accept,
    /// The user explicitly declined.
    Decline,
    /// The user dismissed the request without an explicit choice.
    Cancel,
}

impl Action {
    /// The three actions.
    ///
    /// ```
    /// # use mcp_elicit_core::message::Action;
    /// assert!(Action::ALL.iter().all(|a| Action::parse(a.as_str()) == Some(*a)));
    /// ```
    pub const ALL: [Action; 3] = [Action::Accept, Action::Decline, Action::Cancel];

    /// The wire name: `"accept"`, `"decline"` or `"cancel"`; also its `Display`.
    ///
    /// ```
    /// # use mcp_elicit_core::message::Action;
    /// assert_eq!(Action::Cancel.as_str(), "cancel");
    /// assert_eq!(Action::Decline.to_string(), "decline");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Accept => "accept",
            Action::Decline => "decline",
            Action::Cancel => "cancel",
        }
    }

    /// Reads a wire name (exact case); `None` for anything else.
    ///
    /// ```
    /// # use mcp_elicit_core::message::Action;
    /// assert_eq!(Action::parse("accept"), Some(Action::Accept));
    /// assert_eq!(Action::parse("Accept"), None);
    /// ```
    pub fn parse(s: &str) -> Option<Action> {
        match s {
            "accept" => Some(Action::Accept),
            "decline" => Some(Action::Decline),
            "cancel" => Some(Action::Cancel),
            _ => None,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The result of `elicitation/create`.
///
/// [`CreateResult::parse`] checks the shape only (an action, and `content` values that
/// are strings, numbers, booleans or string arrays). Whether the content matches the
/// requested schema is [`crate::validate::validate`]'s job, and whether it fits the
/// request's mode is [`CreateResult::check_for`]'s.
///
/// ```
/// use mcp_elicit_core::message::{Action, CreateResult, Mode};
/// use serde_json::json;
///
/// let result = CreateResult::parse(&json!({"action": "accept", "content": {"name": "Ada"}}))?;
/// assert_eq!(result.action, Action::Accept);
/// result.check_for(Mode::Form).unwrap();
/// assert_eq!(result.accepted_content().unwrap()["name"], "Ada");
/// assert_eq!(result.to_value(), json!({"action": "accept", "content": {"name": "Ada"}}));
/// assert_eq!(CreateResult::parse(&json!({"action": "cancel", "content": null}))?, CreateResult::cancel());
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct CreateResult {
    /// What the user did.
    pub action: Action,
    /// The submitted data (form mode, `accept` only).
    pub content: Option<Map<String, Value>>,
    /// The result's `_meta` member, kept verbatim.
    pub meta: Option<Map<String, Value>>,
}

impl CreateResult {
    /// A form-mode acceptance carrying `content`.
    ///
    /// ```
    /// # use mcp_elicit_core::message::CreateResult;
    /// # use serde_json::json;
    /// let content = json!({"agree": true}).as_object().cloned().unwrap();
    /// assert_eq!(CreateResult::accept(content).to_value(),
    ///     json!({"action": "accept", "content": {"agree": true}}));
    /// ```
    pub fn accept(content: Map<String, Value>) -> Self {
        Self {
            action: Action::Accept,
            content: Some(content),
            meta: None,
        }
    }

    /// A URL-mode acceptance (the user consented to open the URL; no content).
    ///
    /// ```
    /// # use mcp_elicit_core::message::{CreateResult, Mode};
    /// # use serde_json::json;
    /// let result = CreateResult::accept_url();
    /// assert_eq!(result.to_value(), json!({"action": "accept"}));
    /// assert!(result.check_for(Mode::Url).is_ok());
    /// assert!(result.check_for(Mode::Form).is_err()); // a form accept needs content
    /// ```
    pub fn accept_url() -> Self {
        Self {
            action: Action::Accept,
            content: None,
            meta: None,
        }
    }

    /// An explicit decline.
    ///
    /// ```
    /// # use mcp_elicit_core::message::CreateResult;
    /// # use serde_json::json;
    /// assert_eq!(CreateResult::decline().to_value(), json!({"action": "decline"}));
    /// ```
    pub fn decline() -> Self {
        Self {
            action: Action::Decline,
            content: None,
            meta: None,
        }
    }

    /// A dismissal.
    ///
    /// ```
    /// # use mcp_elicit_core::message::CreateResult;
    /// # use serde_json::json;
    /// assert_eq!(CreateResult::cancel().to_value(), json!({"action": "cancel"}));
    /// ```
    pub fn cancel() -> Self {
        Self {
            action: Action::Cancel,
            content: None,
            meta: None,
        }
    }

    /// Parses a `result` member (pointers relative to it), reporting every problem.
    /// Content values must be strings, numbers, booleans or arrays of strings.
    ///
    /// ```
    /// # use mcp_elicit_core::message::CreateResult;
    /// # use serde_json::json;
    /// let err = CreateResult::parse(&json!({"action": "accept",
    ///     "content": {"a": null, "b": [1], "c": "ok"}, "_meta": 3})).unwrap_err();
    /// let pointers: Vec<&str> = err.as_slice().iter().map(|e| e.pointer()).collect();
    /// assert_eq!(pointers, ["/content/a", "/content/b/0", "/_meta"]);
    /// assert_eq!(CreateResult::parse(&json!({})).unwrap_err().first().pointer(), "/action");
    /// ```
    pub fn parse(value: &Value) -> Result<Self, Errors> {
        let map = object(value, "", "the `elicitation/create` result")?;
        let mut errors = Vec::new();
        let action = match map.get("action") {
            None => {
                errors.push(Error::new(
                    ErrorKind::InvalidMessage,
                    "/action",
                    "`action` is required",
                ));
                None
            }
            Some(Value::String(s)) => {
                let action = Action::parse(s);
                if action.is_none() {
                    errors.push(Error::new(
                        ErrorKind::InvalidMessage,
                        "/action",
                        format!(
                            "unknown action {s:?}; expected \"accept\", \"decline\" or \"cancel\""
                        ),
                    ));
                }
                action
            }
            Some(other) => {
                errors.push(Error::new(
                    ErrorKind::InvalidMessage,
                    "/action",
                    format!("`action` must be a string, found {}", type_name(other)),
                ));
                None
            }
        };
        let content = match map.get("content") {
            None | Some(Value::Null) => None,
            Some(Value::Object(content)) => {
                for (key, value) in content {
                    check_content_value(value, &child("/content", key), &mut errors);
                }
                Some(content.clone())
            }
            Some(other) => {
                errors.push(Error::new(
                    ErrorKind::InvalidMessage,
                    "/content",
                    format!("`content` must be an object, found {}", type_name(other)),
                ));
                None
            }
        };
        let meta = meta(map, "", &mut errors);
        match (Errors::from_vec(errors), action) {
            (Some(errors), _) => Err(errors),
            (None, Some(action)) => Ok(Self {
                action,
                content,
                meta,
            }),
            (None, None) => {
                Err(Error::new(ErrorKind::InvalidMessage, "/action", "`action` is required").into())
            }
        }
    }

    /// The result as JSON (`content` and `_meta` only when present).
    ///
    /// ```
    /// # use mcp_elicit_core::message::CreateResult;
    /// # use serde_json::json;
    /// let mut result = CreateResult::decline();
    /// result.meta = json!({"reason": "user"}).as_object().cloned();
    /// assert_eq!(result.to_value(), json!({"action": "decline", "_meta": {"reason": "user"}}));
    /// ```
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("action".into(), Value::String(self.action.as_str().into()));
        if let Some(content) = &self.content {
            map.insert("content".into(), Value::Object(content.clone()));
        }
        if let Some(m) = &self.meta {
            map.insert("_meta".into(), Value::Object(m.clone()));
        }
        Value::Object(map)
    }

    /// The submitted content, only when the action is `accept` (content sent along with
    /// a decline or a cancel is ignored).
    ///
    /// ```
    /// # use mcp_elicit_core::message::CreateResult;
    /// # use serde_json::json;
    /// let declined = CreateResult::parse(&json!({"action": "decline", "content": {"a": "x"}}))?;
    /// assert!(declined.content.is_some());
    /// assert_eq!(declined.accepted_content(), None);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn accepted_content(&self) -> Option<&Map<String, Value>> {
        match self.action {
            Action::Accept => self.content.as_ref(),
            Action::Decline | Action::Cancel => None,
        }
    }

    /// Checks that this result fits a request of `mode`:
    ///
    /// - a form `accept` must carry `content` (possibly `{}`);
    /// - a URL `accept` must not carry `content` (URL-mode data never passes through the
    ///   client);
    ///
    /// A `content` on `decline` or `cancel` is tolerated (the specification says it is
    /// "typically omitted") but meaningless: read the data through
    /// [`CreateResult::accepted_content`], which ignores it.
    ///
    /// Errors are [`ErrorKind::InvalidMessage`] at `/content`.
    ///
    /// ```
    /// # use mcp_elicit_core::message::{CreateResult, Mode};
    /// # use serde_json::json;
    /// let with_content = CreateResult::parse(&json!({"action": "accept", "content": {}}))?;
    /// assert!(with_content.check_for(Mode::Form).is_ok()); // `{}` is fine
    /// assert_eq!(with_content.check_for(Mode::Url).unwrap_err().pointer(), "/content");
    /// assert!(CreateResult::cancel().check_for(Mode::Form).is_ok());
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn check_for(&self, mode: Mode) -> Result<(), Error> {
        match (self.action, mode, &self.content) {
            (Action::Accept, Mode::Form, None) => Err(Error::new(
                ErrorKind::InvalidMessage,
                "/content",
                "a form mode `accept` must carry `content`",
            )),
            (Action::Accept, Mode::Url, Some(_)) => Err(Error::new(
                ErrorKind::InvalidMessage,
                "/content",
                "a URL mode `accept` must not carry `content`: the data stays out of band",
            )),
            _ => Ok(()),
        }
    }
}

/// A content value must be a string, a number, a boolean or an array of strings.
fn check_content_value(value: &Value, pointer: &str, errors: &mut Vec<Error>) {
    match value {
        Value::String(_) | Value::Number(_) | Value::Bool(_) => {}
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                if !item.is_string() {
                    errors.push(Error::new(
                        ErrorKind::InvalidMessage,
                        format!("{pointer}/{i}"),
                        format!(
                            "array content items must be strings, found {}",
                            type_name(item)
                        ),
                    ));
                }
            }
        }
        Value::Null | Value::Object(_) => errors.push(Error::new(
            ErrorKind::InvalidMessage,
            pointer,
            format!(
                "content values must be strings, numbers, booleans or arrays of strings, found {}",
                type_name(value)
            ),
        )),
    }
}

serde_via_value!(CreateResult);
