//! The crate's one error type.
//!
//! An [`Error`] names *what* went wrong ([`ErrorKind`]), *where* (an RFC 6901 JSON
//! pointer into the document that was parsed, `""` for its root) and says it in a
//! sentence fit for a log line or a JSON-RPC error message. Parsers that can find
//! several problems at once return [`Errors`], which keeps all of them.

use std::fmt;

/// What kind of problem an [`Error`] reports.
///
/// A case producing each kind (the schema kinds come from [`Schema::parse`] and are
/// reported at the offending member):
///
/// ```
/// use mcp_elicit_core::{ErrorKind, Schema};
/// use serde_json::{Value, json};
///
/// let kind = |p: Value| {
///     let schema = json!({"type": "object", "properties": {"a": p}});
///     Schema::parse(&schema).unwrap_err().first().kind()
/// };
/// use ErrorKind as K;
/// assert_eq!(kind(json!({"type": "string", "minLength": "3"})), K::InvalidValue);
/// assert_eq!(kind(json!({"type": "string", "const": "x"})), K::UnsupportedKeyword);
/// assert_eq!(kind(json!({"type": "null"})), K::UnsupportedType);
/// assert_eq!(kind(json!({"type": "string", "format": "time"})), K::UnsupportedFormat);
/// assert_eq!(kind(json!({"type": "object", "properties": {}})), K::NestedObject);
/// assert_eq!(kind(json!({"type": "array", "items": {"type": "number"}})), K::UnsupportedArray);
/// assert_eq!(kind(json!({"type": "number", "minimum": 5, "maximum": 1})), K::ContradictoryBounds);
/// assert_eq!(kind(json!({"type": "string", "maxLength": 2, "default": "abc"})), K::InvalidDefault);
/// assert_eq!(kind(json!({"type": "string", "pattern": "("})), K::InvalidPattern);
/// assert_eq!(kind(json!({"type": "string", "enum": ["a", "a"]})), K::InvalidEnum);
/// ```
///
/// The others:
///
/// ```
/// use mcp_elicit_core::lifecycle::{Event, State};
/// use mcp_elicit_core::message::{CreateResult, Mode};
/// use mcp_elicit_core::schema::ParseLimits;
/// use mcp_elicit_core::url_safety::{ServerUrlPolicy, check_server_url};
/// use mcp_elicit_core::error::Errors;
/// use mcp_elicit_core::{ErrorKind as K, Schema};
/// use serde_json::json;
///
/// let first = |r: Result<Schema, Errors>| r.unwrap_err().first().kind();
/// assert_eq!(first(Schema::from_json_str("{\"type\":")), K::InvalidJson);
/// assert_eq!(first(Schema::parse(&json!({"type": "string"}))), K::NotAnObjectSchema);
/// let extra = json!({"type": "object", "properties": {}, "required": ["b"]});
/// assert_eq!(first(Schema::parse(&extra)), K::UnknownRequired);
/// let mut limits = ParseLimits::default();
/// limits.max_document_bytes = 10;
/// let text = r#"{"type": "object", "properties": {}}"#;
/// assert_eq!(first(Schema::from_json_str_with_limits(text, &limits)), K::TooLarge);
///
/// let bad_action = CreateResult::parse(&json!({"action": "ok"})).unwrap_err();
/// assert_eq!(bad_action.first().kind(), K::InvalidMessage);
/// let url = check_server_url("ftp://example.com/", &ServerUrlPolicy::default());
/// assert_eq!(url.unwrap_err().kind(), K::InvalidUrl);
/// let twice = State::Completed.apply(Mode::Url, Event::Complete);
/// assert_eq!(twice.unwrap_err().kind(), K::InvalidTransition);
/// ```
///
/// [`Schema::parse`]: crate::Schema::parse
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The input is not well-formed JSON.
    InvalidJson,
    /// A value has the wrong JSON type (for example `"minLength": "3"`), or a required
    /// member is missing.
    InvalidValue,
    /// The top level of a `requestedSchema` is not `{"type": "object", ...}`.
    NotAnObjectSchema,
    /// A keyword outside the restricted subset.
    UnsupportedKeyword,
    /// A `type` outside string, number, integer, boolean and array-of-enum.
    UnsupportedType,
    /// A string `format` other than email, uri, date and date-time.
    UnsupportedFormat,
    /// A property that is itself an object (the subset is flat).
    NestedObject,
    /// An array that is not a multi-select of string enum values (arrays of objects,
    /// free string arrays, arrays of numbers...).
    UnsupportedArray,
    /// A lower bound above its upper bound (minimum > maximum, minLength > maxLength,
    /// minItems > maxItems).
    ContradictoryBounds,
    /// A `default` that violates its own property's constraints.
    InvalidDefault,
    /// `required` names a property that does not exist.
    UnknownRequired,
    /// A `pattern` that is not a valid ECMA-262 regular expression.
    InvalidPattern,
    /// An enumeration with no values, duplicate values, or mismatched `enumNames`.
    InvalidEnum,
    /// An `elicitation/create` request or result that does not follow the protocol
    /// (unknown mode, missing url or elicitationId, unknown action...).
    InvalidMessage,
    /// A URL that cannot be parsed, or that a policy refuses.
    InvalidUrl,
    /// An input over a size limit.
    TooLarge,
    /// A schema field the secret-field lint flags (form mode must not ask for secrets).
    ///
    /// Nothing in this crate returns it: [`lint_schema`](crate::lint::lint_schema)
    /// reports [`SecretFinding`](crate::lint::SecretFinding)s, and a caller that refuses a
    /// schema because of them can use this kind.
    SecretField,
    /// An event that the elicitation lifecycle does not allow in the current state
    /// (completing twice, accepting a declined elicitation, anything after a terminal
    /// state...).
    InvalidTransition,
}

impl ErrorKind {
    /// A short, stable, machine-readable name (`snake_case`) for this kind; also its
    /// `Display`.
    ///
    /// ```
    /// use mcp_elicit_core::ErrorKind;
    ///
    /// assert_eq!(ErrorKind::NotAnObjectSchema.code(), "not_an_object_schema");
    /// assert_eq!(ErrorKind::TooLarge.to_string(), "too_large");
    /// ```
    pub fn code(self) -> &'static str {
        match self {
            Self::InvalidJson => "invalid_json",
            Self::InvalidValue => "invalid_value",
            Self::NotAnObjectSchema => "not_an_object_schema",
            Self::UnsupportedKeyword => "unsupported_keyword",
            Self::UnsupportedType => "unsupported_type",
            Self::UnsupportedFormat => "unsupported_format",
            Self::NestedObject => "nested_object",
            Self::UnsupportedArray => "unsupported_array",
            Self::ContradictoryBounds => "contradictory_bounds",
            Self::InvalidDefault => "invalid_default",
            Self::UnknownRequired => "unknown_required",
            Self::InvalidPattern => "invalid_pattern",
            Self::InvalidEnum => "invalid_enum",
            Self::InvalidMessage => "invalid_message",
            Self::InvalidUrl => "invalid_url",
            Self::TooLarge => "too_large",
            Self::SecretField => "secret_field",
            Self::InvalidTransition => "invalid_transition",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// One problem, with its kind, its place and a sentence.
///
/// `Display` puts the three together: `at <pointer>: <message> (<code>)`.
///
/// ```
/// use mcp_elicit_core::{Error, ErrorKind};
///
/// let e = Error::new(ErrorKind::InvalidValue, "/properties/age/minimum", "must be a number");
/// assert_eq!(e.kind(), ErrorKind::InvalidValue);
/// assert_eq!(e.pointer(), "/properties/age/minimum");
/// assert_eq!(e.message(), "must be a number");
/// assert_eq!(e.to_string(), "at /properties/age/minimum: must be a number (invalid_value)");
///
/// let root = Error::new(ErrorKind::InvalidJson, "", "malformed JSON");
/// assert_eq!(root.to_string(), "at the document root: malformed JSON (invalid_json)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    pointer: String,
    message: String,
}

impl Error {
    /// A new error of `kind` at JSON pointer `pointer` (`""` is the document root).
    pub fn new(kind: ErrorKind, pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            kind,
            pointer: pointer.into(),
            message: message.into(),
        }
    }

    /// What kind of problem this is.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// Where: an RFC 6901 JSON pointer into the parsed document (`""` for its root).
    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    /// The sentence describing the problem, without the pointer.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            write!(f, "at the document root: {} ({})", self.message, self.kind)
        } else {
            write!(f, "at {}: {} ({})", self.pointer, self.message, self.kind)
        }
    }
}

impl std::error::Error for Error {}

/// Every problem a parser found, in document order; never empty.
///
/// `Display` joins the errors with `"; "`; iterating (by reference or by value) yields
/// each [`Error`].
///
/// ```
/// use mcp_elicit_core::Schema;
/// use serde_json::json;
///
/// let errors = Schema::parse(&json!({"type": "object", "properties": {
///     "a": {"type": "string", "minLength": -1},
///     "b": {"type": "date"}
/// }})).unwrap_err();
/// let pointers: Vec<&str> = errors.as_slice().iter().map(|e| e.pointer()).collect();
/// assert_eq!(pointers, ["/properties/a/minLength", "/properties/b/type"]);
/// assert_eq!(errors.first().pointer(), "/properties/a/minLength");
/// assert_eq!(errors.to_string().matches("; ").count(), 1);
/// assert_eq!(errors.into_vec().len(), 2);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Errors(Vec<Error>);

impl Errors {
    /// Wraps a non-empty list. Returns `None` for an empty one.
    ///
    /// ```
    /// use mcp_elicit_core::error::Errors;
    /// use mcp_elicit_core::{Error, ErrorKind};
    ///
    /// assert!(Errors::from_vec(Vec::new()).is_none());
    /// let one = Errors::from_vec(vec![Error::new(ErrorKind::TooLarge, "", "too big")]).unwrap();
    /// assert_eq!(one.first().kind(), ErrorKind::TooLarge);
    /// ```
    pub fn from_vec(errors: Vec<Error>) -> Option<Self> {
        if errors.is_empty() {
            None
        } else {
            Some(Self(errors))
        }
    }

    /// The problems, in document order.
    pub fn as_slice(&self) -> &[Error] {
        &self.0
    }

    /// The first problem.
    pub fn first(&self) -> &Error {
        &self.0[0]
    }

    /// Consumes the list.
    pub fn into_vec(self) -> Vec<Error> {
        self.0
    }
}

impl From<Error> for Errors {
    fn from(e: Error) -> Self {
        Self(vec![e])
    }
}

impl IntoIterator for Errors {
    type Item = Error;
    type IntoIter = std::vec::IntoIter<Error>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Errors {
    type Item = &'a Error;
    type IntoIter = std::slice::Iter<'a, Error>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl fmt::Display for Errors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Errors {}

/// Escapes one reference token of an RFC 6901 JSON pointer (`~` → `~0`, `/` → `~1`).
///
/// ```
/// use mcp_elicit_core::error::pointer_token;
///
/// assert_eq!(pointer_token("a/b~c"), "a~1b~0c");
/// assert_eq!(pointer_token("plain"), "plain");
/// ```
pub fn pointer_token(token: &str) -> std::borrow::Cow<'_, str> {
    if token.contains(['~', '/']) {
        std::borrow::Cow::Owned(token.replace('~', "~0").replace('/', "~1"))
    } else {
        std::borrow::Cow::Borrowed(token)
    }
}
