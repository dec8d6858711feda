//! The params of `elicitation/create`: [`CreateRequest`], [`FormRequest`], [`UrlRequest`].

use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind, Errors};
use crate::message::Mode;
use crate::message::fields::{
    check_elicitation_id, check_message, check_url, child, meta, object, reject_members,
    required_str, type_name,
};
use crate::schema::Schema;

/// A form-mode request: a message and a checked `requestedSchema`.
///
/// ```
/// use mcp_elicit_core::message::FormRequest;
/// use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder};
///
/// let schema = SchemaBuilder::new().property(PropertyBuilder::string("city").required()).build()?;
/// let form = FormRequest::new("Where should we ship?", schema);
/// let params = form.to_value();
/// assert_eq!(params["mode"], "form");
/// assert_eq!(params["requestedSchema"]["required"][0], "city");
/// let back = FormRequest::parse(&params)?;
/// assert_eq!(back.message, "Where should we ship?");
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone)]
pub struct FormRequest {
    /// The human-readable message explaining what is requested and why.
    pub message: String,
    /// The requested schema (restricted subset, already checked).
    pub schema: Schema,
    /// The `_meta` member, kept verbatim.
    pub meta: Option<Map<String, Value>>,
}

/// A URL-mode request: a message, the URL to open and the elicitation's id.
///
/// Building one with a struct literal does no checking; [`UrlRequest::new`],
/// [`CreateRequest::parse`] and [`UrlElicitationRequired::new`](crate::message::UrlElicitationRequired::new)
/// check the fields. Servers should build the URL through
/// [`check_server_url`](crate::url_safety::check_server_url).
///
/// ```
/// use mcp_elicit_core::message::UrlRequest;
/// use serde_json::json;
///
/// let req = UrlRequest::new("Sign in to continue", "https://mcp.example.com/login", "e-7")?;
/// assert_eq!(req.to_value(), json!({"mode": "url", "elicitationId": "e-7",
///     "url": "https://mcp.example.com/login", "message": "Sign in to continue"}));
/// assert_eq!(UrlRequest::parse(&req.to_value())?, req);
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlRequest {
    /// The human-readable message explaining why the interaction is needed.
    pub message: String,
    /// The URL the user should navigate to.
    pub url: String,
    /// The elicitation's id, unique within the server; opaque to the client.
    pub elicitation_id: String,
    /// The `_meta` member, kept verbatim.
    pub meta: Option<Map<String, Value>>,
}

/// The params of an `elicitation/create` request.
///
/// ```
/// use mcp_elicit_core::message::{CreateRequest, Mode};
/// use serde_json::json;
///
/// // No `mode`: a form request (backwards compatibility); `to_value` writes the mode.
/// let params = json!({"message": "Your name?", "requestedSchema": {
///     "type": "object", "properties": {"name": {"type": "string"}}}});
/// let request = CreateRequest::parse(&params)?;
/// assert_eq!((request.mode(), request.message()), (Mode::Form, "Your name?"));
/// assert_eq!(request.elicitation_id(), None);
/// assert_eq!(request.to_value()["mode"], "form");
/// let CreateRequest::Form(form) = request else { panic!("a form") };
/// assert!(form.schema.property("name").is_some());
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone)]
pub enum CreateRequest {
    /// `mode: "form"` (or no mode).
    Form(FormRequest),
    /// `mode: "url"`.
    Url(UrlRequest),
}

impl FormRequest {
    /// A form request without `_meta` (set the public field to add one).
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_core::message::FormRequest;
    /// # use serde_json::json;
    /// let schema = Schema::parse(&json!({"type": "object", "properties": {}}))?;
    /// let mut form = FormRequest::new("Confirm?", schema);
    /// form.meta = json!({"trace": "t1"}).as_object().cloned();
    /// assert_eq!(form.to_value()["_meta"]["trace"], "t1");
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn new(message: impl Into<String>, schema: Schema) -> Self {
        Self {
            message: message.into(),
            schema,
            meta: None,
        }
    }

    /// The params as JSON, with `"mode": "form"`.
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_core::message::FormRequest;
    /// # use serde_json::json;
    /// let schema = Schema::parse(&json!({"type": "object", "properties": {}}))?;
    /// assert_eq!(FormRequest::new("Ok?", schema).to_value(), json!({"mode": "form", "message": "Ok?",
    ///     "requestedSchema": {"type": "object", "properties": {}}}));
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn to_value(&self) -> Value {
        Self::params(&self.message, &self.schema, self.meta.as_ref())
    }

    /// The params [`FormRequest::to_value`] writes for these parts, without building a
    /// request (no copy of the schema): for a server that asks the same checked schema
    /// again and again.
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_core::message::FormRequest;
    /// # use serde_json::json;
    /// let schema = Schema::parse(&json!({"type": "object", "properties": {
    ///     "party": {"type": "integer", "minimum": 1}}}))?;
    /// assert_eq!(
    ///     FormRequest::params("How many?", &schema, None),
    ///     FormRequest::new("How many?", schema.clone()).to_value(),
    /// );
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn params(message: &str, schema: &Schema, meta: Option<&Map<String, Value>>) -> Value {
        let mut map = Map::new();
        map.insert("mode".into(), Value::String(Mode::Form.as_str().into()));
        map.insert("message".into(), Value::String(message.to_owned()));
        map.insert("requestedSchema".into(), schema.to_value());
        if let Some(m) = meta {
            map.insert("_meta".into(), Value::Object(m.clone()));
        }
        Value::Object(map)
    }
}

impl UrlRequest {
    /// A checked URL request without `_meta` (same checks as [`CreateRequest::parse`]):
    /// every problem is reported, with pointers as in the params.
    ///
    /// ```
    /// # use mcp_elicit_core::ErrorKind;
    /// # use mcp_elicit_core::message::UrlRequest;
    /// let err = UrlRequest::new("Sign in", "/login", "").unwrap_err();
    /// let found: Vec<(ErrorKind, &str)> = err.as_slice().iter().map(|e| (e.kind(), e.pointer())).collect();
    /// assert_eq!(found, [(ErrorKind::InvalidMessage, "/elicitationId"), (ErrorKind::InvalidUrl, "/url")]);
    /// ```
    pub fn new(
        message: impl Into<String>,
        url: impl Into<String>,
        elicitation_id: impl Into<String>,
    ) -> Result<Self, Errors> {
        let request = Self {
            message: message.into(),
            url: url.into(),
            elicitation_id: elicitation_id.into(),
            meta: None,
        };
        let mut errors = Vec::new();
        request.check_into("", &mut errors);
        match Errors::from_vec(errors) {
            Some(errors) => Err(errors),
            None => Ok(request),
        }
    }

    /// Parses the params of a URL-mode request; `mode` must be `"url"`.
    ///
    /// ```
    /// # use mcp_elicit_core::message::UrlRequest;
    /// # use serde_json::json;
    /// let form = json!({"message": "hi", "requestedSchema": {"type": "object", "properties": {}}});
    /// assert_eq!(UrlRequest::parse(&form).unwrap_err().first().pointer(), "/mode");
    /// ```
    pub fn parse(value: &Value) -> Result<Self, Errors> {
        match CreateRequest::parse(value)? {
            CreateRequest::Url(url) => Ok(url),
            CreateRequest::Form(_) => Err(Error::new(
                ErrorKind::InvalidMessage,
                "/mode",
                "expected a URL mode elicitation (`\"mode\": \"url\"`)",
            )
            .into()),
        }
    }

    /// Checks the fields, recording problems with pointers under `base`.
    pub(super) fn check_into(&self, base: &str, errors: &mut Vec<Error>) {
        check_message(&self.message, &child(base, "message"), errors);
        check_elicitation_id(&self.elicitation_id, &child(base, "elicitationId"), errors);
        check_url(&self.url, &child(base, "url"), errors);
    }

    /// The params as JSON, with `"mode": "url"`.
    ///
    /// ```
    /// # use mcp_elicit_core::message::UrlRequest;
    /// let req = UrlRequest::new("Pay", "https://pay.example.com/", "p1")?;
    /// assert_eq!(req.to_value()["mode"], "url");
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("mode".into(), Value::String(Mode::Url.as_str().into()));
        map.insert(
            "elicitationId".into(),
            Value::String(self.elicitation_id.clone()),
        );
        map.insert("url".into(), Value::String(self.url.clone()));
        map.insert("message".into(), Value::String(self.message.clone()));
        if let Some(m) = &self.meta {
            map.insert("_meta".into(), Value::Object(m.clone()));
        }
        Value::Object(map)
    }
}

impl CreateRequest {
    /// Parses and checks the `params` of an `elicitation/create` request, reporting every
    /// problem found (pointers relative to `params`). A schema problem keeps its kind,
    /// with its pointer moved under `/requestedSchema`.
    ///
    /// ```
    /// # use mcp_elicit_core::ErrorKind;
    /// # use mcp_elicit_core::message::CreateRequest;
    /// # use serde_json::json;
    /// let params = json!({"message": "hi", "url": "https://example.com/",
    ///     "requestedSchema": {"type": "object", "properties": {"a": {"type": "object"}}}});
    /// let err = CreateRequest::parse(&params).unwrap_err();
    /// let found: Vec<(ErrorKind, &str)> = err.as_slice().iter().map(|e| (e.kind(), e.pointer())).collect();
    /// assert_eq!(found, [
    ///     (ErrorKind::InvalidMessage, "/url"), // a URL-mode member in a form request
    ///     (ErrorKind::NestedObject, "/requestedSchema/properties/a"),
    /// ]);
    /// assert!(CreateRequest::parse(&json!({"mode": "URL", "message": "hi"})).is_err());
    /// ```
    pub fn parse(params: &Value) -> Result<Self, Errors> {
        Self::parse_with(params, Schema::parse)
    }

    /// Like [`parse`](Self::parse), reading a form's `requestedSchema` the way a client
    /// shows it ([`Schema::parse_received`]): what can be shown as a flat form is, and
    /// the schema's [`notices`](Schema::notices) say what was done about the rest. The
    /// rest of the params is checked as strictly as by [`parse`](Self::parse).
    ///
    /// ```
    /// # use mcp_elicit_core::message::CreateRequest;
    /// # use serde_json::json;
    /// let params = json!({"message": "Your order", "requestedSchema": {"type": "object",
    ///     "properties": {"qty": {"type": "integer", "exclusiveMinimum": 0}}}});
    /// assert!(CreateRequest::parse(&params).is_err());
    /// let CreateRequest::Form(form) = CreateRequest::parse_received(&params).unwrap() else {
    ///     panic!("a form")
    /// };
    /// assert!(form.schema.is_beyond_subset());
    /// ```
    pub fn parse_received(params: &Value) -> Result<Self, Errors> {
        Self::parse_with(params, Schema::parse_received)
    }

    fn parse_with(
        params: &Value,
        read_schema: fn(&Value) -> Result<Schema, Errors>,
    ) -> Result<Self, Errors> {
        let map = object(params, "", "the `elicitation/create` params")?;
        let mode = match map.get("mode") {
            None => Mode::Form,
            Some(Value::String(s)) => Mode::parse(s).ok_or_else(|| {
                Error::new(
                    ErrorKind::InvalidMessage,
                    "/mode",
                    format!("unknown elicitation mode {s:?}; expected \"form\" or \"url\""),
                )
            })?,
            Some(other) => {
                return Err(Error::new(
                    ErrorKind::InvalidMessage,
                    "/mode",
                    format!("`mode` must be a string, found {}", type_name(other)),
                )
                .into());
            }
        };
        let mut errors = Vec::new();
        let message = required_str(map, "message", "", &mut errors);
        if let Some(message) = message {
            check_message(message, "/message", &mut errors);
        }
        let meta = meta(map, "", &mut errors);
        let request = match mode {
            Mode::Form => {
                reject_members(
                    map,
                    &["url", "elicitationId"],
                    "",
                    "belongs to URL mode and must not appear in a form mode request",
                    &mut errors,
                );
                let schema = match map.get("requestedSchema") {
                    None => {
                        errors.push(Error::new(
                            ErrorKind::InvalidMessage,
                            "/requestedSchema",
                            "`requestedSchema` is required in a form mode request",
                        ));
                        None
                    }
                    Some(value) => match read_schema(value) {
                        Ok(schema) => Some(schema),
                        Err(schema_errors) => {
                            errors.extend(schema_errors.into_iter().map(|e| {
                                Error::new(
                                    e.kind(),
                                    format!("/requestedSchema{}", e.pointer()),
                                    e.message(),
                                )
                            }));
                            None
                        }
                    },
                };
                match (message, schema) {
                    (Some(message), Some(schema)) => Some(CreateRequest::Form(FormRequest {
                        message: message.to_owned(),
                        schema,
                        meta,
                    })),
                    _ => None,
                }
            }
            Mode::Url => {
                reject_members(
                    map,
                    &["requestedSchema"],
                    "",
                    "belongs to form mode and must not appear in a URL mode request",
                    &mut errors,
                );
                let id = required_str(map, "elicitationId", "", &mut errors);
                if let Some(id) = id {
                    check_elicitation_id(id, "/elicitationId", &mut errors);
                }
                let url = required_str(map, "url", "", &mut errors);
                if let Some(url) = url {
                    check_url(url, "/url", &mut errors);
                }
                match (message, id, url) {
                    (Some(message), Some(id), Some(url)) => Some(CreateRequest::Url(UrlRequest {
                        message: message.to_owned(),
                        url: url.to_owned(),
                        elicitation_id: id.to_owned(),
                        meta,
                    })),
                    _ => None,
                }
            }
        };
        match (Errors::from_vec(errors), request) {
            (Some(errors), _) => Err(errors),
            (None, Some(request)) => Ok(request),
            // Unreachable in practice: a missing piece always records an error.
            (None, None) => Err(Error::new(
                ErrorKind::InvalidMessage,
                "",
                "incomplete elicitation request",
            )
            .into()),
        }
    }

    /// The params as JSON, always with an explicit `mode`.
    ///
    /// ```
    /// # use mcp_elicit_core::message::{CreateRequest, UrlRequest};
    /// let request = CreateRequest::from(UrlRequest::new("Pay", "https://pay.example.com/", "p1")?);
    /// assert_eq!(request.to_value()["elicitationId"], "p1");
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn to_value(&self) -> Value {
        match self {
            CreateRequest::Form(form) => form.to_value(),
            CreateRequest::Url(url) => url.to_value(),
        }
    }

    /// The request's mode.
    ///
    /// ```
    /// # use mcp_elicit_core::message::{CreateRequest, Mode, UrlRequest};
    /// let request = CreateRequest::from(UrlRequest::new("Pay", "https://pay.example.com/", "p1")?);
    /// assert_eq!(request.mode(), Mode::Url);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn mode(&self) -> Mode {
        match self {
            CreateRequest::Form(_) => Mode::Form,
            CreateRequest::Url(_) => Mode::Url,
        }
    }

    /// The human-readable message.
    ///
    /// ```
    /// # use mcp_elicit_core::message::{CreateRequest, UrlRequest};
    /// let request = CreateRequest::from(UrlRequest::new("Pay", "https://pay.example.com/", "p1")?);
    /// assert_eq!(request.message(), "Pay");
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn message(&self) -> &str {
        match self {
            CreateRequest::Form(form) => &form.message,
            CreateRequest::Url(url) => &url.message,
        }
    }

    /// The `_meta` member, if any, kept verbatim.
    ///
    /// ```
    /// # use mcp_elicit_core::message::CreateRequest;
    /// # use serde_json::json;
    /// let request = CreateRequest::parse(&json!({"mode": "url", "message": "m", "url": "https://x.example/",
    ///     "elicitationId": "1", "_meta": {"progressToken": 5}}))?;
    /// assert_eq!(request.meta().unwrap()["progressToken"], 5);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        match self {
            CreateRequest::Form(form) => form.meta.as_ref(),
            CreateRequest::Url(url) => url.meta.as_ref(),
        }
    }

    /// The elicitation id (URL mode only).
    ///
    /// ```
    /// # use mcp_elicit_core::message::{CreateRequest, UrlRequest};
    /// let request = CreateRequest::from(UrlRequest::new("Pay", "https://pay.example.com/", "p1")?);
    /// assert_eq!(request.elicitation_id(), Some("p1"));
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn elicitation_id(&self) -> Option<&str> {
        match self {
            CreateRequest::Form(_) => None,
            CreateRequest::Url(url) => Some(&url.elicitation_id),
        }
    }
}

impl From<FormRequest> for CreateRequest {
    fn from(form: FormRequest) -> Self {
        CreateRequest::Form(form)
    }
}

impl From<UrlRequest> for CreateRequest {
    fn from(url: UrlRequest) -> Self {
        CreateRequest::Url(url)
    }
}

macro_rules! serde_via_value {
    ($ty:ty) => {
        impl ::serde::Serialize for $ty {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                ::serde::Serialize::serialize(&self.to_value(), serializer)
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $ty {
            fn deserialize<D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> Result<Self, D::Error> {
                let value =
                    <::serde_json::Value as ::serde::Deserialize>::deserialize(deserializer)?;
                <$ty>::parse(&value).map_err(::serde::de::Error::custom)
            }
        }
    };
}
pub(super) use serde_via_value;

serde_via_value!(CreateRequest);
serde_via_value!(UrlRequest);

impl FormRequest {
    /// Parses the params of a form-mode request (`mode` `"form"` or absent).
    ///
    /// ```
    /// # use mcp_elicit_core::message::FormRequest;
    /// # use serde_json::json;
    /// let url = json!({"mode": "url", "message": "m", "url": "https://x.example/", "elicitationId": "1"});
    /// assert_eq!(FormRequest::parse(&url).unwrap_err().first().pointer(), "/mode");
    /// let form = json!({"message": "m", "requestedSchema": {"type": "object", "properties": {}}});
    /// assert!(FormRequest::parse(&form)?.schema.properties().is_empty());
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn parse(value: &Value) -> Result<Self, Errors> {
        match CreateRequest::parse(value)? {
            CreateRequest::Form(form) => Ok(form),
            CreateRequest::Url(_) => Err(Error::new(
                ErrorKind::InvalidMessage,
                "/mode",
                "expected a form mode elicitation, found `\"mode\": \"url\"`",
            )
            .into()),
        }
    }
}

serde_via_value!(FormRequest);
