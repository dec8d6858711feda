//! The elicitation [`Mode`] and the client's `elicitation` [`Capability`].

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind};
use crate::message::fields::{child, type_name};

/// The two elicitation modes.
///
/// ```
/// use mcp_elicit_core::message::Mode;
///
/// assert_eq!(Mode::parse("url"), Some(Mode::Url));
/// assert_eq!(Mode::parse("URL"), None); // exact case
/// assert_eq!(Mode::Form.to_string(), "form");
/// assert_eq!(serde_json::to_value(Mode::Url).unwrap(), "url");
/// ```
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
    ///
    /// ```
    /// # use mcp_elicit_core::message::Mode;
    /// let names: Vec<&str> = Mode::ALL.iter().map(|m| m.as_str()).collect();
    /// assert_eq!(names, ["form", "url"]);
    /// ```
    pub const ALL: [Mode; 2] = [Mode::Form, Mode::Url];

    /// The wire name: `"form"` or `"url"`.
    ///
    /// ```
    /// # use mcp_elicit_core::message::Mode;
    /// assert_eq!(Mode::Url.as_str(), "url");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Form => "form",
            Mode::Url => "url",
        }
    }

    /// Reads a wire name; `None` for anything but `"form"` and `"url"` (exact case).
    ///
    /// ```
    /// # use mcp_elicit_core::message::Mode;
    /// assert_eq!(Mode::parse("form"), Some(Mode::Form));
    /// assert_eq!(Mode::parse("Form"), None);
    /// ```
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
///
/// ```
/// use mcp_elicit_core::message::{Capability, Mode};
/// use serde_json::json;
///
/// let read = |v: serde_json::Value| Capability::from_value(Some(&v)).unwrap();
/// assert_eq!(Capability::from_value(None)?, Capability::NONE);
/// assert_eq!(read(json!({})), Capability::FORM);
/// assert_eq!(read(json!({"url": {}})), Capability::URL);
/// assert_eq!(read(json!({"form": {"applyDefaults": true}, "url": {}})), Capability::ALL);
/// assert_eq!(read(json!({"future": {}})), Capability::FORM);
/// assert!(read(json!({"url": {}})).supports(Mode::Url));
/// # Ok::<(), mcp_elicit_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Capability {
    /// Form mode is supported.
    pub form: bool,
    /// URL mode is supported.
    pub url: bool,
}

impl Capability {
    /// No elicitation support (the capability is not declared).
    ///
    /// ```
    /// # use mcp_elicit_core::message::Capability;
    /// assert!(!Capability::NONE.any());
    /// assert_eq!(Capability::NONE.to_value(), None); // omit the member
    /// ```
    pub const NONE: Capability = Capability {
        form: false,
        url: false,
    };
    /// Form mode only (what `{}` means).
    ///
    /// ```
    /// # use mcp_elicit_core::message::{Capability, Mode};
    /// assert!(Capability::FORM.supports(Mode::Form) && !Capability::FORM.supports(Mode::Url));
    /// ```
    pub const FORM: Capability = Capability {
        form: true,
        url: false,
    };
    /// URL mode only.
    ///
    /// ```
    /// # use mcp_elicit_core::message::Capability;
    /// assert_eq!(Capability::URL.to_value(), Some(serde_json::json!({"url": {}})));
    /// ```
    pub const URL: Capability = Capability {
        form: false,
        url: true,
    };
    /// Both modes.
    ///
    /// ```
    /// # use mcp_elicit_core::message::Capability;
    /// assert_eq!(Capability::ALL, Capability { form: true, url: true });
    /// ```
    pub const ALL: Capability = Capability {
        form: true,
        url: true,
    };

    /// Reads the value of `capabilities.elicitation` (`None` when the member is absent).
    ///
    /// Errors ([`ErrorKind::InvalidMessage`], pointers relative to the capability value)
    /// when it is not an object, or when `form` or `url` is not an object.
    ///
    /// ```
    /// # use mcp_elicit_core::message::Capability;
    /// # use serde_json::json;
    /// assert_eq!(Capability::from_value(Some(&json!(null)))?, Capability::NONE);
    /// assert_eq!(Capability::from_value(Some(&json!({"form": {}, "url": null})))?, Capability::FORM);
    /// let err = Capability::from_value(Some(&json!({"form": true}))).unwrap_err();
    /// assert_eq!(err.pointer(), "/form");
    /// assert!(Capability::from_value(Some(&json!("form"))).is_err());
    /// # Ok::<(), mcp_elicit_core::Error>(())
    /// ```
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
    ///
    /// ```
    /// # use mcp_elicit_core::message::Capability;
    /// # use serde_json::json;
    /// assert_eq!(Capability::FORM.to_value(), Some(json!({"form": {}}))); // never the bare `{}`
    /// assert_eq!(Capability::ALL.to_value(), Some(json!({"form": {}, "url": {}})));
    /// assert_eq!(Capability::NONE.to_value(), None);
    /// ```
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
    ///
    /// ```
    /// # use mcp_elicit_core::message::{Capability, Mode};
    /// assert!(Capability::URL.supports(Mode::Url));
    /// assert!(!Capability::URL.supports(Mode::Form));
    /// ```
    pub fn supports(&self, mode: Mode) -> bool {
        match mode {
            Mode::Form => self.form,
            Mode::Url => self.url,
        }
    }

    /// Whether any mode is supported (the capability is declared).
    ///
    /// ```
    /// # use mcp_elicit_core::message::Capability;
    /// assert!(Capability::FORM.any());
    /// assert!(!Capability::default().any());
    /// ```
    pub fn any(&self) -> bool {
        self.form || self.url
    }

    /// Checks that a server may send a request of `mode` to a client with this capability.
    ///
    /// Servers MUST NOT send modes the client did not declare; clients answer such a
    /// request with `-32602` (Invalid params). The error is [`ErrorKind::InvalidMessage`]
    /// at `/mode`.
    ///
    /// ```
    /// # use mcp_elicit_core::ErrorKind;
    /// # use mcp_elicit_core::message::{Capability, Mode};
    /// assert!(Capability::FORM.require(Mode::Form).is_ok());
    /// let err = Capability::FORM.require(Mode::Url).unwrap_err();
    /// assert_eq!((err.kind(), err.pointer()), (ErrorKind::InvalidMessage, "/mode"));
    /// assert_eq!(err.message(), "the client did not declare support for url mode elicitation");
    /// ```
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
