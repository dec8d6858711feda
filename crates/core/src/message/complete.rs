//! The params of `notifications/elicitation/complete`.

use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind, Errors};
use crate::message::fields::{check_elicitation_id, object, required_str};
use crate::message::request::serde_via_value;

/// `{"elicitationId": id}`: the server tells the client an out-of-band (URL mode)
/// interaction finished.
///
/// Clients MUST ignore notifications for unknown or already completed ids; the
/// [`lifecycle`](crate::lifecycle) makes a second completion an error the client can
/// drop.
///
/// ```
/// use mcp_elicit_core::lifecycle::{Event, State};
/// use mcp_elicit_core::message::{CompleteNotification, Mode};
/// use serde_json::json;
///
/// let n = CompleteNotification::parse(&json!({"elicitationId": "abc", "_meta": {}}))?;
/// assert_eq!(n, CompleteNotification::new("abc"));
/// // A second notification for the same id is an error the client drops.
/// let state = State::Accepted.apply(Mode::Url, Event::Complete).unwrap();
/// assert!(state.apply(Mode::Url, Event::Complete).is_err());
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CompleteNotification {
    /// The id from the original URL-mode request.
    pub elicitation_id: String,
}

impl CompleteNotification {
    /// A notification for `elicitation_id` (not checked; [`parse`](Self::parse) checks).
    ///
    /// ```
    /// # use mcp_elicit_core::message::CompleteNotification;
    /// assert_eq!(CompleteNotification::new("42").elicitation_id, "42");
    /// ```
    pub fn new(elicitation_id: impl Into<String>) -> Self {
        Self {
            elicitation_id: elicitation_id.into(),
        }
    }

    /// Parses the notification's `params` (other members, `_meta` included, are ignored).
    /// The id must be a non-empty string of at most
    /// [`MAX_ELICITATION_ID_BYTES`](crate::message::MAX_ELICITATION_ID_BYTES) bytes without
    /// control characters.
    ///
    /// ```
    /// # use mcp_elicit_core::message::CompleteNotification;
    /// # use serde_json::json;
    /// assert!(CompleteNotification::parse(&json!({"elicitationId": "a1"})).is_ok());
    /// for bad in [json!({}), json!({"elicitationId": ""}), json!({"elicitationId": "a\nb"}), json!([])] {
    ///     assert!(CompleteNotification::parse(&bad).is_err());
    /// }
    /// ```
    pub fn parse(params: &Value) -> Result<Self, Errors> {
        let map = object(
            params,
            "",
            "the `notifications/elicitation/complete` params",
        )?;
        let mut errors = Vec::new();
        let id = required_str(map, "elicitationId", "", &mut errors);
        if let Some(id) = id {
            check_elicitation_id(id, "/elicitationId", &mut errors);
        }
        match (Errors::from_vec(errors), id) {
            (Some(errors), _) => Err(errors),
            (None, Some(id)) => Ok(Self {
                elicitation_id: id.to_owned(),
            }),
            (None, None) => Err(Error::new(
                ErrorKind::InvalidMessage,
                "/elicitationId",
                "`elicitationId` is required",
            )
            .into()),
        }
    }

    /// The params as JSON.
    ///
    /// ```
    /// # use mcp_elicit_core::message::CompleteNotification;
    /// # use serde_json::json;
    /// assert_eq!(CompleteNotification::new("42").to_value(), json!({"elicitationId": "42"}));
    /// ```
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert(
            "elicitationId".into(),
            Value::String(self.elicitation_id.clone()),
        );
        Value::Object(map)
    }
}

serde_via_value!(CompleteNotification);
