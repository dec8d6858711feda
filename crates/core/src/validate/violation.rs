//! The result of a failed validation: [`Violation`], [`ViolationCode`], [`Violations`].

use std::fmt;

use serde::ser::{Serialize, SerializeStruct, Serializer};

/// One way a response breaks its schema.
///
/// Serialized as `{"property": "email" | null, "code": "format", "message": "..."}`.
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::validate::{ViolationCode, validate};
/// use serde_json::json;
///
/// let schema = Schema::from_json_str(r#"{"type": "object", "properties": {
///     "email": {"type": "string", "format": "email"}}}"#)?;
/// let err = validate(&schema, &json!({"email": "ada"})).unwrap_err();
/// let v = err.first();
/// assert_eq!((v.property(), v.code()), (Some("email"), ViolationCode::Format));
/// assert_eq!(v.message(), "\"email\": must be an email address like name@example.com");
/// assert_eq!(serde_json::to_value(v)?, json!({
///     "property": "email", "code": "format", "message": v.message()}));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    property: Option<String>,
    code: ViolationCode,
    message: String,
}

/// What rule a [`Violation`] breaks.
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::validate::{ViolationCode as C, validate};
/// use serde_json::json;
///
/// let schema = Schema::from_json_str(r#"{"type": "object", "properties": {
///     "code": {"type": "string", "minLength": 3, "pattern": "^[a-z]+$"},
///     "n": {"type": "number", "maximum": 10},
///     "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "maxItems": 1}
/// }}"#)?;
/// let err = validate(&schema, &json!({"code": "A1", "n": 11, "tags": ["a", "a", "c"]})).unwrap_err();
/// let codes: Vec<C> = err.iter().map(|v| v.code()).collect();
/// assert_eq!(codes, [C::MinLength, C::Pattern, C::Maximum, C::Enum, C::UniqueItems, C::MaxItems]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ViolationCode {
    /// The content is not a JSON object.
    NotAnObject,
    /// A required property is missing.
    Required,
    /// A property the schema does not define.
    UnknownProperty,
    /// The value has the wrong JSON type (including a non-integer for `integer`, and a
    /// non-string item in a multi-select).
    Type,
    /// Shorter than `minLength`.
    MinLength,
    /// Longer than `maxLength`.
    MaxLength,
    /// Does not match `pattern`.
    Pattern,
    /// Does not match `format`.
    Format,
    /// Below `minimum`.
    Minimum,
    /// Above `maximum`.
    Maximum,
    /// Not one of the allowed values (a single-select value, or a multi-select item).
    Enum,
    /// Fewer items than `minItems`.
    MinItems,
    /// More items than `maxItems`.
    MaxItems,
    /// A multi-select with the same item twice.
    UniqueItems,
    /// Not above `exclusiveMinimum` (tolerant reading).
    ExclusiveMinimum,
    /// Not below `exclusiveMaximum` (tolerant reading).
    ExclusiveMaximum,
    /// Not a multiple of `multipleOf` (tolerant reading).
    MultipleOf,
    /// Not the boolean `const` (tolerant reading).
    Const,
}

impl ViolationCode {
    /// A short, stable, machine-readable name (`snake_case`), as serialized; also its
    /// `Display`.
    ///
    /// ```
    /// # use mcp_elicit_core::validate::ViolationCode;
    /// assert_eq!(ViolationCode::UnknownProperty.as_str(), "unknown_property");
    /// assert_eq!(ViolationCode::MinItems.to_string(), "min_items");
    /// assert_eq!(serde_json::to_value(ViolationCode::Type).unwrap(), "type");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NotAnObject => "not_an_object",
            Self::Required => "required",
            Self::UnknownProperty => "unknown_property",
            Self::Type => "type",
            Self::MinLength => "min_length",
            Self::MaxLength => "max_length",
            Self::Pattern => "pattern",
            Self::Format => "format",
            Self::Minimum => "minimum",
            Self::Maximum => "maximum",
            Self::Enum => "enum",
            Self::MinItems => "min_items",
            Self::MaxItems => "max_items",
            Self::UniqueItems => "unique_items",
            Self::ExclusiveMinimum => "exclusive_minimum",
            Self::ExclusiveMaximum => "exclusive_maximum",
            Self::MultipleOf => "multiple_of",
            Self::Const => "const",
        }
    }
}

impl fmt::Display for ViolationCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ViolationCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl Violation {
    /// A violation of `code` about `property` (`None` for the whole content), with its
    /// complete sentence.
    pub(crate) fn new(property: Option<&str>, code: ViolationCode, message: String) -> Self {
        Self {
            property: property.map(str::to_owned),
            code,
            message,
        }
    }

    /// The property concerned (`None` for whole-content problems). For an unknown
    /// property, the name the response used.
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_core::validate::validate;
    /// # use serde_json::json;
    /// # let schema = Schema::from_json_str(r#"{"type": "object", "properties": {
    /// #     "email": {"type": "string", "format": "email"},
    /// #     "age": {"type": "integer", "minimum": 18}}}"#)?;
    /// let err = validate(&schema, &json!({"mail": "x"})).unwrap_err();
    /// assert_eq!(err.first().property(), Some("mail"));
    /// assert_eq!(validate(&schema, &json!(7)).unwrap_err().first().property(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn property(&self) -> Option<&str> {
        self.property.as_deref()
    }

    /// The rule broken.
    pub fn code(&self) -> ViolationCode {
        self.code
    }

    /// A sentence fit for a form UI and a JSON-RPC -32602 message, starting with the
    /// quoted property name: `"email": must be an email address like name@example.com`.
    /// Untrusted text it echoes is JSON-quoted and cut to 64 characters.
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_core::validate::validate;
    /// # use serde_json::json;
    /// # let schema = Schema::from_json_str(r#"{"type": "object", "properties": {
    /// #     "email": {"type": "string", "format": "email"},
    /// #     "age": {"type": "integer", "minimum": 18}}}"#)?;
    /// let long = "x".repeat(100);
    /// let content = serde_json::Value::Object([(long, json!(1))].into_iter().collect());
    /// let err = validate(&schema, &content).unwrap_err();
    /// assert_eq!(err.first().message(), format!("\"{}…\": is not a field of this form", "x".repeat(64)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl Serialize for Violation {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Violation", 3)?;
        s.serialize_field("property", &self.property)?;
        s.serialize_field("code", &self.code)?;
        s.serialize_field("message", &self.message)?;
        s.end()
    }
}

/// Every violation found, in a stable order (schema property order, then unknown
/// properties in content order); never empty.
///
/// `Display` joins the messages with `"; "`, which makes a complete JSON-RPC -32602
/// message; serialized as a JSON array of [`Violation`]s, fit for the error's `data`.
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::validate::validate;
/// use serde_json::json;
///
/// let schema = Schema::from_json_str(r#"{"type": "object", "properties": {
///     "email": {"type": "string", "format": "email"},
///     "age": {"type": "integer", "minimum": 18}}}"#)?;
/// let err = validate(&schema, &json!({"email": 1, "age": 17.5})).unwrap_err();
/// assert_eq!(err.len(), 3);
/// assert!(!err.is_empty());
/// assert_eq!(err.to_string(), "\"email\": must be a string, not a number; \
///     \"age\": must be a whole number (an integer), not 17.5; \"age\": must be at least 18");
/// assert_eq!(err.for_property("age").count(), 2);
/// assert_eq!(serde_json::to_value(&err)?[0]["code"], "type");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violations(Vec<Violation>);

impl Violations {
    /// Wraps a non-empty list; `None` for an empty one.
    pub(crate) fn from_vec(violations: Vec<Violation>) -> Option<Self> {
        if violations.is_empty() {
            None
        } else {
            Some(Self(violations))
        }
    }

    /// A list of exactly one violation.
    pub(crate) fn one(violation: Violation) -> Self {
        Self(vec![violation])
    }

    /// The violations, in order.
    pub fn as_slice(&self) -> &[Violation] {
        &self.0
    }

    /// Iterates over the violations, in order (as does `&Violations` in a `for` loop).
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_core::validate::validate;
    /// # use serde_json::json;
    /// # let schema = Schema::from_json_str(r#"{"type": "object", "properties": {
    /// #     "email": {"type": "string", "format": "email"},
    /// #     "age": {"type": "integer", "minimum": 18}}}"#)?;
    /// let err = validate(&schema, &json!({"age": 1, "x": 0})).unwrap_err();
    /// let props: Vec<Option<&str>> = err.iter().map(|v| v.property()).collect();
    /// assert_eq!(props, [Some("age"), Some("x")]);
    /// for v in &err {
    ///     assert!(v.message().starts_with('"'));
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn iter(&self) -> std::slice::Iter<'_, Violation> {
        self.0.iter()
    }

    /// How many there are (at least one).
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Always `false`: a `Violations` holds at least one violation (an empty result is
    /// `Ok(())` from [`validate`](super::validate)).
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_core::validate::validate;
    /// # use serde_json::json;
    /// let schema = Schema::from_json_str(r#"{"type": "object", "properties": {}}"#)?;
    /// let err = validate(&schema, &json!({"extra": 1})).unwrap_err();
    /// assert!(!err.is_empty());
    /// assert_eq!(err.len(), 1);
    /// assert!(validate(&schema, &json!({})).is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The first violation.
    pub fn first(&self) -> &Violation {
        // Never empty: `from_vec` refuses an empty list.
        &self.0[0]
    }

    /// The violations about `property`, in order: what a form shows next to that field.
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_core::validate::validate;
    /// # use serde_json::json;
    /// # let schema = Schema::from_json_str(r#"{"type": "object", "properties": {
    /// #     "email": {"type": "string", "format": "email"},
    /// #     "age": {"type": "integer", "minimum": 18}}}"#)?;
    /// let err = validate(&schema, &json!({"email": "nope", "age": 16})).unwrap_err();
    /// let by_field: Vec<&str> = err.for_property("email").map(|v| v.message()).collect();
    /// assert_eq!(by_field, ["\"email\": must be an email address like name@example.com"]);
    /// assert_eq!(err.for_property("name").count(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn for_property<'a>(
        &'a self,
        property: &'a str,
    ) -> impl Iterator<Item = &'a Violation> + 'a {
        self.0
            .iter()
            .filter(move |v| v.property() == Some(property))
    }

    /// Consumes the list.
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_core::validate::validate;
    /// # use serde_json::json;
    /// # let schema = Schema::from_json_str(r#"{"type": "object", "properties": {
    /// #     "email": {"type": "string", "format": "email"},
    /// #     "age": {"type": "integer", "minimum": 18}}}"#)?;
    /// let all = validate(&schema, &json!({"age": "x"})).unwrap_err().into_vec();
    /// assert_eq!(all.len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn into_vec(self) -> Vec<Violation> {
        self.0
    }
}

impl fmt::Display for Violations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, v) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            f.write_str(&v.message)?;
        }
        Ok(())
    }
}

impl std::error::Error for Violations {}

impl Serialize for Violations {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl IntoIterator for Violations {
    type Item = Violation;
    type IntoIter = std::vec::IntoIter<Violation>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Violations {
    type Item = &'a Violation;
    type IntoIter = std::slice::Iter<'a, Violation>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}
