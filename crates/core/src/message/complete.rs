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
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CompleteNotification {
    /// The id from the original URL-mode request.
    pub elicitation_id: String,
}

impl CompleteNotification {
    /// A notification for `elicitation_id`.
    pub fn new(elicitation_id: impl Into<String>) -> Self {
        Self {
            elicitation_id: elicitation_id.into(),
        }
    }

    /// Parses the notification's `params` (other members, `_meta` included, are ignored).
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
