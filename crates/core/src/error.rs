//! The crate's one error type.
//!
//! An [`Error`] names *what* went wrong ([`ErrorKind`]), *where* (an RFC 6901 JSON
//! pointer into the document that was parsed, `""` for its root) and says it in a
//! sentence fit for a log line or a JSON-RPC error message. Parsers that can find
//! several problems at once return [`Errors`], which keeps all of them.

use std::fmt;

/// What kind of problem an [`Error`] reports.
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
    SecretField,
    /// An event that the elicitation lifecycle does not allow in the current state
    /// (completing twice, accepting a declined elicitation, anything after a terminal
    /// state...).
    InvalidTransition,
}

impl ErrorKind {
    /// A short, stable, machine-readable name (`snake_case`) for this kind.
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Errors(Vec<Error>);

impl Errors {
    /// Wraps a non-empty list. Returns `None` for an empty one.
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
pub fn pointer_token(token: &str) -> std::borrow::Cow<'_, str> {
    if token.contains(['~', '/']) {
        std::borrow::Cow::Owned(token.replace('~', "~0").replace('/', "~1"))
    } else {
        std::borrow::Cow::Borrowed(token)
    }
}
