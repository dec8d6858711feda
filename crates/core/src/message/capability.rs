//! The elicitation [`Mode`] and the client's `elicitation` [`Capability`].

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind};
use crate::message::fields::{child, type_name};

/// The two elicitation modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// In-band structured data collection through a `requestedSchema`.
    Form,
    /// Out-of-band interaction at a URL; the data never passes through the client.
    Url,
}

impl Mode {
    /// Both modes.
    pub const ALL: [Mode; 2] = [Mode::Form, Mode::Url];

    /// The wire name: `"form"` or `"url"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Form => "form",
            Mode::Url => "url",
        }
    }

    /// Reads a wire name; `None` for anything but `"form"` and `"url"` (exact case).
    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "form" => Some(Mode::Form),
            "url" => Some(Mode::Url),
            _ => None,
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The modes a client declared in its `capabilities.elicitation`.
///
/// | declared                        | form  | url   |
/// |---------------------------------|-------|-------|
/// | member absent (or `null`)       | false | false |
/// | `{}` (backwards compatibility)  | true  | false |
/// | `{"form": {}}`                  | true  | false |
/// | `{"url": {}}`                   | false | true  |
/// | `{"form": {}, "url": {}}`       | true  | true  |
///
/// An object that names neither mode (only unknown members, such as a future mode) is
/// read like `{}`, as the specification's backwards-compatibility rule and rmcp do.
/// Members inside `form`/`url` (SDK flags such as `applyDefaults`) are ignored, and a
/// `null` mode member counts as absent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Capability {
    /// Form mode is supported.
    pub form: bool,
    /// URL mode is supported.
    pub url: bool,
}

impl Capability {
    /// No elicitation support (the capability is not declared).
    pub const NONE: Capability = Capability {
        form: false,
        url: false,
    };
    /// Form mode only (what `{}` means).
    pub const FORM: Capability = Capability {
        form: true,
        url: false,
    };
    /// URL mode only.
    pub const URL: Capability = Capability {
        form: false,
        url: true,
    };
    /// Both modes.
    pub const ALL: Capability = Capability {
        form: true,
        url: true,
    };

    /// Reads the value of `capabilities.elicitation` (`None` when the member is absent).
    ///
    /// Errors ([`ErrorKind::InvalidMessage`], pointers relative to the capability value)
    /// when it is not an object, or when `form` or `url` is not an object.
    pub fn from_value(value: Option<&Value>) -> Result<Capability, Error> {
        let map = match value {
            None | Some(Value::Null) => return Ok(Capability::NONE),
            Some(Value::Object(map)) => map,
            Some(other) => {
                return Err(Error::new(
                    ErrorKind::InvalidMessage,
                    "",
                    format!(
                        "the elicitation capability must be an object, found {}",
                        type_name(other)
                    ),
                ));
            }
        };
        let mut cap = Capability::NONE;
        for (key, slot) in [("form", &mut cap.form), ("url", &mut cap.url)] {
            match map.get(key) {
                // `null` is read as absent: some serializers write `None` that way.
                None | Some(Value::Null) => {}
                Some(Value::Object(_)) => *slot = true,
                Some(other) => {
                    return Err(Error::new(
                        ErrorKind::InvalidMessage,
                        child("", key),
                        format!("`{key}` must be an object, found {}", type_name(other)),
                    ));
                }
            }
        }
        if cap == Capability::NONE {
            // `{}` (or only unknown members): backwards compatible form-only support.
            cap = Capability::FORM;
        }
        Ok(cap)
    }

    /// The value to declare as `capabilities.elicitation`, explicit about each mode
    /// (`{"form": {}, "url": {}}`); `None` when no mode is supported, in which case the
    /// member must be omitted (declaring it would promise at least one mode).
    pub fn to_value(&self) -> Option<Value> {
        if !self.any() {
            return None;
        }
        let mut map = Map::new();
        if self.form {
            map.insert("form".into(), Value::Object(Map::new()));
        }
        if self.url {
            map.insert("url".into(), Value::Object(Map::new()));
        }
        Some(Value::Object(map))
    }

    /// Whether `mode` is supported.
    pub fn supports(&self, mode: Mode) -> bool {
        match mode {
            Mode::Form => self.form,
            Mode::Url => self.url,
        }
    }

    /// Whether any mode is supported (the capability is declared).
    pub fn any(&self) -> bool {
        self.form || self.url
    }

    /// Checks that a server may send a request of `mode` to a client with this capability.
    ///
    /// Servers MUST NOT send modes the client did not declare; clients answer such a
    /// request with `-32602` (Invalid params). The error is [`ErrorKind::InvalidMessage`]
    /// at `/mode`.
    pub fn require(&self, mode: Mode) -> Result<(), Error> {
        if self.supports(mode) {
            Ok(())
        } else {
            Err(Error::new(
                ErrorKind::InvalidMessage,
                "/mode",
                format!("the client did not declare support for {mode} mode elicitation"),
            ))
        }
    }
}

impl Serialize for Capability {
    /// Serializes as [`Capability::to_value`]; a capability without any mode becomes
    /// `null` (skip the member instead, e.g. with `Option<Capability>`).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_value().unwrap_or(Value::Null).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Capability {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Capability::from_value(Some(&value)).map_err(serde::de::Error::custom)
    }
}
