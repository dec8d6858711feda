//! What a tolerant reading ([`Schema::parse_received`](crate::Schema::parse_received))
//! keeps beyond the subset: [`SchemaNotice`]s for the user, per-property [`Extras`]
//! (extra constraints that are checked, hints, keywords left to the server) and
//! [`UnionSpec`] for a field that accepts several primitive types.

use serde::ser::{Serialize, SerializeStruct, Serializer};
use serde_json::{Number, Value};

use super::model::{Property, PropertyKind};

/// What a [`SchemaNotice`] is about.
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::schema::NoticeKind as K;
/// use serde_json::json;
///
/// let schema = Schema::parse_received(&json!({"type": "object", "properties": {
///     "a": {"type": "string", "minLength": "3"},
///     "b": {"type": "integer", "minimum": 5, "default": 1},
///     "c": {"title": "No type"},
///     "d": {"anyOf": [{"type": "integer"}, {"type": "boolean"}]},
///     "e": {"type": "string", "format": "time"}
/// }}))?;
/// let kinds: Vec<K> = schema.notices().iter().map(|n| n.kind()).collect();
/// assert_eq!(kinds, [K::MalformedKeyword, K::DefaultDropped, K::InferredType, K::Union, K::UncheckedFormat]);
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NoticeKind {
    /// A keyword this client does not check was ignored; the server still checks it.
    IgnoredKeyword,
    /// A keyword with a malformed value was ignored.
    MalformedKeyword,
    /// A `pattern` that cannot run here as ECMA-262 (Python-only syntax such as `(?i)`
    /// or `(?P<name>...)`, or a shape the ReDoS screens refuse): shown, not checked.
    UncheckedPattern,
    /// A `format` outside email, uri, date and date-time: a plain text field with the
    /// format's name as a hint, not checked.
    UncheckedFormat,
    /// A `default` that breaks its own constraints: not prefilled.
    DefaultDropped,
    /// Bounds no value can meet (minimum above maximum...): shown as they are.
    ContradictoryBounds,
    /// A field with no usable `type`: read from its `enum`, `const` or `anyOf`, or shown
    /// as plain text.
    InferredType,
    /// A field that accepts several types (an `anyOf` of primitives): one text field
    /// that accepts what any alternative accepts.
    Union,
    /// `required` names something that is not a field of the form: ignored.
    UnknownRequired,
}

impl NoticeKind {
    /// A short, stable, machine-readable name (`snake_case`), as serialized; also its
    /// `Display`.
    ///
    /// ```
    /// # use mcp_elicit_core::schema::NoticeKind;
    /// assert_eq!(NoticeKind::DefaultDropped.as_str(), "default_dropped");
    /// assert_eq!(NoticeKind::Union.to_string(), "union");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Self::IgnoredKeyword => "ignored_keyword",
            Self::MalformedKeyword => "malformed_keyword",
            Self::UncheckedPattern => "unchecked_pattern",
            Self::UncheckedFormat => "unchecked_format",
            Self::DefaultDropped => "default_dropped",
            Self::ContradictoryBounds => "contradictory_bounds",
            Self::InferredType => "inferred_type",
            Self::Union => "union",
            Self::UnknownRequired => "unknown_required",
        }
    }
}

impl std::fmt::Display for NoticeKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Something a tolerant reading did with a received schema that the user should know.
///
/// Serialized as `{"pointer": "/properties/word/pattern", "property": "word" | null,
/// "kind": "unchecked_pattern", "message": "..."}`.
///
/// ```
/// # use mcp_elicit_core::Schema;
/// # use mcp_elicit_core::schema::NoticeKind;
/// # use serde_json::json;
/// let schema = Schema::parse_received(&json!({
///     "type": "object",
///     "properties": {"word": {"type": "string", "pattern": "(?i)^hello$"}}
/// })).unwrap();
/// let notice = &schema.notices()[0];
/// assert_eq!(notice.kind(), NoticeKind::UncheckedPattern);
/// assert_eq!(notice.pointer(), "/properties/word/pattern");
/// assert_eq!(notice.property(), Some("word"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaNotice {
    pub(crate) pointer: String,
    pub(crate) property: Option<String>,
    pub(crate) kind: NoticeKind,
    pub(crate) message: String,
}

impl SchemaNotice {
    /// Where: an RFC 6901 JSON pointer into the received schema.
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use serde_json::json;
    /// let schema = Schema::parse_received(&json!({"type": "object", "properties": {
    ///     "n": {"type": "integer", "minimum": 5, "default": 1}}}))?;
    /// assert_eq!(schema.notices()[0].pointer(), "/properties/n/default");
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn pointer(&self) -> &str {
        &self.pointer
    }
    /// The field concerned (`None` for the form as a whole).
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use serde_json::json;
    /// // No `"type": "object"` at the top: read as an object, said about the whole form.
    /// let schema = Schema::parse_received(&json!({"properties": {"a": {"type": "string"}}}))?;
    /// assert_eq!(schema.notices()[0].property(), None);
    /// assert_eq!(schema.notices()[0].pointer(), "");
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn property(&self) -> Option<&str> {
        self.property.as_deref()
    }
    /// What it is about.
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_core::schema::NoticeKind;
    /// # use serde_json::json;
    /// let schema = Schema::parse_received(&json!({"type": "object", "properties": {
    ///     "n": {"type": "integer", "minimum": 5, "maximum": 1}}}))?;
    /// assert_eq!(schema.notices()[0].kind(), NoticeKind::ContradictoryBounds);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn kind(&self) -> NoticeKind {
        self.kind
    }
    /// A sentence for the user, starting with the quoted field name; also its `Display`.
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use serde_json::json;
    /// let schema = Schema::parse_received(&json!({"type": "object", "properties": {
    ///     "n": {"type": "integer", "minimum": 5, "default": 1}}}))?;
    /// let notice = &schema.notices()[0];
    /// assert_eq!(notice.message(), "\"n\": the default 1 is below the minimum 5; the field is not prefilled");
    /// assert_eq!(notice.to_string(), notice.message());
    /// assert_eq!(serde_json::to_value(notice).unwrap()["kind"], "default_dropped");
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl std::fmt::Display for SchemaNotice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl Serialize for SchemaNotice {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("SchemaNotice", 4)?;
        s.serialize_field("pointer", &self.pointer)?;
        s.serialize_field("property", &self.property)?;
        s.serialize_field("kind", self.kind.as_str())?;
        s.serialize_field("message", &self.message)?;
        s.end()
    }
}

/// What a tolerant reading keeps for one property beyond the subset. Strictly parsed
/// properties have none ([`Property::extras`](crate::schema::Property::extras) is `None`).
///
/// ```
/// # use mcp_elicit_core::Schema;
/// # use serde_json::json;
/// let schema = Schema::parse_received(&json!({
///     "type": "object",
///     "properties": {"n": {"type": "integer", "exclusiveMinimum": 0, "multipleOf": 2,
///                          "examples": [4]}}
/// })).unwrap();
/// let extras = schema.property("n").unwrap().extras().unwrap();
/// assert_eq!(extras.exclusive_minimum().map(ToString::to_string).as_deref(), Some("0"));
/// assert_eq!(extras.multiple_of().map(ToString::to_string).as_deref(), Some("2"));
/// assert!(extras.hints().iter().any(|h| h.contains("4")));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Extras {
    pub(crate) exclusive_minimum: Option<Number>,
    pub(crate) exclusive_maximum: Option<Number>,
    pub(crate) multiple_of: Option<Number>,
    pub(crate) constant: Option<bool>,
    pub(crate) typed_options: Option<Vec<Value>>,
    pub(crate) format_name: Option<String>,
    pub(crate) unchecked_pattern: Option<String>,
    pub(crate) nullable: bool,
    pub(crate) hints: Vec<String>,
    pub(crate) unchecked: Vec<String>,
}

impl Extras {
    /// `exclusiveMinimum`: values must be greater (checked).
    ///
    /// ```
    /// # use mcp_elicit_core::{Schema, validate::validate};
    /// # use serde_json::json;
    /// let schema = Schema::parse_received(&json!({"type": "object", "properties": {
    ///     "n": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}}}))?;
    /// let x = schema.property("n").unwrap().extras().unwrap();
    /// assert_eq!(x.exclusive_minimum().and_then(|n| n.as_u64()), Some(0));
    /// assert_eq!(x.exclusive_maximum().and_then(|n| n.as_u64()), Some(1));
    /// assert!(validate(&schema, &json!({"n": 0.5})).is_ok());
    /// assert!(validate(&schema, &json!({"n": 0})).is_err());
    /// assert!(validate(&schema, &json!({"n": 1})).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn exclusive_minimum(&self) -> Option<&Number> {
        self.exclusive_minimum.as_ref()
    }
    /// `exclusiveMaximum`: values must be smaller (checked).
    pub fn exclusive_maximum(&self) -> Option<&Number> {
        self.exclusive_maximum.as_ref()
    }
    /// `multipleOf` (checked: exactly for integers, on the decimal values as written
    /// for fractions, so `0.3` is a multiple of `0.1`).
    ///
    /// ```
    /// # use mcp_elicit_core::{Schema, validate::validate};
    /// # use serde_json::json;
    /// let schema = Schema::parse_received(&json!({"type": "object", "properties": {
    ///     "price": {"type": "number", "multipleOf": 0.1}}}))?;
    /// assert!(validate(&schema, &json!({"price": 0.3})).is_ok()); // 0.3 / 0.1 is exact here
    /// assert!(validate(&schema, &json!({"price": 0.35})).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn multiple_of(&self) -> Option<&Number> {
        self.multiple_of.as_ref()
    }
    /// A boolean `const`: the only value accepted (checked).
    ///
    /// ```
    /// # use mcp_elicit_core::{Schema, validate::validate};
    /// # use serde_json::json;
    /// let schema = Schema::parse_received(&json!({"type": "object", "properties": {
    ///     "agree": {"type": "boolean", "const": true}}}))?;
    /// assert_eq!(schema.property("agree").unwrap().extras().unwrap().constant(), Some(true));
    /// assert!(validate(&schema, &json!({"agree": false})).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn constant(&self) -> Option<bool> {
        self.constant
    }
    /// For a select whose values are not all strings (`Literal[1, 2, 3]`): the JSON value
    /// of each option, in option order (the options' `value`s are their JSON texts).
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_core::schema::PropertyKind;
    /// # use serde_json::json;
    /// let schema = Schema::parse_received(&json!({"type": "object", "properties": {
    ///     "level": {"type": "integer", "enum": [1, 2]}}}))?;
    /// let level = schema.property("level").unwrap();
    /// assert_eq!(level.extras().unwrap().typed_options(), Some(&[json!(1), json!(2)][..]));
    /// let PropertyKind::SingleSelect(s) = level.kind() else { panic!() };
    /// assert_eq!(s.options()[0].value, "1");
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn typed_options(&self) -> Option<&[Value]> {
        self.typed_options.as_deref()
    }
    /// A `format` outside the four, kept as a hint (not checked).
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use serde_json::json;
    /// let schema = Schema::parse_received(&json!({"type": "object", "properties": {
    ///     "at": {"type": "string", "format": "time"}}}))?;
    /// let x = schema.property("at").unwrap().extras().unwrap();
    /// assert_eq!(x.format_name(), Some("time"));
    /// assert_eq!(x.unchecked(), ["format"]);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn format_name(&self) -> Option<&str> {
        self.format_name.as_deref()
    }
    /// A `pattern` that is shown but not checked here (the server still checks it).
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use serde_json::json;
    /// let schema = Schema::parse_received(&json!({"type": "object", "properties": {
    ///     "id": {"type": "string", "pattern": "(?P<n>[0-9]+)"}}}))?; // Python syntax
    /// let x = schema.property("id").unwrap().extras().unwrap();
    /// assert_eq!(x.unchecked_pattern(), Some("(?P<n>[0-9]+)"));
    /// assert_eq!(x.unchecked(), ["pattern"]);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn unchecked_pattern(&self) -> Option<&str> {
        self.unchecked_pattern.as_deref()
    }
    /// Whether `null` is accepted (`Optional[...]`: an `anyOf` with `{"type": "null"}`, or a
    /// type list with `"null"`).
    ///
    /// ```
    /// # use mcp_elicit_core::{Schema, validate::validate};
    /// # use serde_json::json;
    /// let schema = Schema::parse_received(&json!({"type": "object", "properties": {
    ///     "nick": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}))?;
    /// assert!(schema.property("nick").unwrap().extras().unwrap().nullable());
    /// assert!(validate(&schema, &json!({"nick": null})).is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn nullable(&self) -> bool {
        self.nullable
    }
    /// Short hints to show next to the field (examples, deprecated, bounds the subset
    /// has no words for, what is not checked here).
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use serde_json::json;
    /// let schema = Schema::parse_received(&json!({"type": "object", "properties": {
    ///     "at": {"type": "string", "format": "time", "deprecated": true}}}))?;
    /// let hints = schema.property("at").unwrap().extras().unwrap().hints();
    /// assert_eq!(hints, ["deprecated", "a time such as 14:30:00 (not checked here)"]);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn hints(&self) -> &[String] {
        &self.hints
    }
    /// The keywords of this field left to the server (not checked by this client); see
    /// also [`validate::unchecked`](crate::validate::unchecked).
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use serde_json::json;
    /// let schema = Schema::parse_received(&json!({"type": "object", "properties": {
    ///     "w": {"type": "string", "pattern": "(?i)^yes$"}}}))?;
    /// assert_eq!(schema.property("w").unwrap().extras().unwrap().unchecked(), ["pattern"]);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn unchecked(&self) -> &[String] {
        &self.unchecked
    }
}

/// A field with no single type: the alternatives of an `anyOf`/`oneOf` of primitives
/// (`Union[int, str]`). Shown as one text field; what the user types is sent typed as
/// the first alternative that accepts it ([`value_from_text`](Self::value_from_text)).
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::schema::PropertyKind;
/// use serde_json::json;
///
/// let schema = Schema::parse_received(&json!({"type": "object", "properties": {
///     "limit": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "boolean"}], "default": 10}
/// }}))?;
/// let PropertyKind::Union(u) = schema.property("limit").unwrap().kind() else { panic!() };
/// assert_eq!(u.alternatives().len(), 2);
/// assert!(matches!(u.alternatives()[1].kind(), PropertyKind::Boolean(_)));
/// assert_eq!(u.default(), Some(&json!(10)));
/// assert!(u.accepts(&json!(false)) && !u.accepts(&json!(0)) && !u.accepts(&json!("10")));
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone)]
pub struct UnionSpec {
    pub(crate) alternatives: Vec<Property>,
    pub(crate) default: Option<Value>,
}

impl UnionSpec {
    /// The alternatives, in document order (never a union or a multi-select), each with
    /// its kind, constraints and extras (their names are the field's).
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_core::schema::PropertyKind;
    /// # use serde_json::json;
    /// let schema = Schema::parse_received(&json!({"type": "object", "properties": {
    ///     "v": {"anyOf": [{"type": "number"}, {"type": "string"}]}}}))?;
    /// let PropertyKind::Union(u) = schema.property("v").unwrap().kind() else { panic!() };
    /// assert!(u.alternatives().iter().all(|a| a.name() == "v"));
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn alternatives(&self) -> &[Property] {
        &self.alternatives
    }
    /// The default, when it is valid for one of the alternatives.
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_core::schema::PropertyKind;
    /// # use serde_json::json;
    /// let schema = Schema::parse_received(&json!({"type": "object", "properties": {
    ///     "v": {"anyOf": [{"type": "integer"}, {"type": "boolean"}], "default": "x"}}}))?;
    /// let PropertyKind::Union(u) = schema.property("v").unwrap().kind() else { panic!() };
    /// assert_eq!(u.default(), None); // "x" fits no alternative: dropped
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn default(&self) -> Option<&Value> {
        self.default.as_ref()
    }

    /// The JSON value to send for `text` typed in the field: a number, `true`/`false` or
    /// an option of a typed select when such an alternative accepts it, else the text as a
    /// string when a string alternative accepts it, else the most plausible reading (so
    /// validation says what is wrong).
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_core::schema::PropertyKind;
    /// # use serde_json::json;
    /// let schema = Schema::parse_received(&json!({"type": "object", "properties": {
    ///     "amount": {"anyOf": [{"type": "integer"}, {"type": "string"}]}}})).unwrap();
    /// let PropertyKind::Union(u) = schema.property("amount").unwrap().kind() else { panic!() };
    /// assert_eq!(u.value_from_text("42"), json!(42));
    /// assert_eq!(u.value_from_text("forty-two"), json!("forty-two"));
    /// ```
    pub fn value_from_text(&self, text: &str) -> Value {
        let candidates = text_readings(text);
        for candidate in candidates.iter().filter(|c| !c.is_string()) {
            if self.accepts(candidate) {
                return candidate.clone();
            }
        }
        let as_string = Value::String(text.to_owned());
        if self.accepts(&as_string) {
            return as_string;
        }
        let wants_string = self.alternatives.iter().any(|a| {
            matches!(
                a.kind(),
                PropertyKind::String(_) | PropertyKind::SingleSelect(_)
            )
        });
        if wants_string {
            return as_string;
        }
        candidates
            .into_iter()
            .find(|c| !c.is_string())
            .unwrap_or(as_string)
    }

    /// The text to show for a JSON value (a default or an earlier answer): strings as
    /// they are, `null` as empty, anything else as its JSON text.
    ///
    /// ```
    /// # use mcp_elicit_core::schema::UnionSpec;
    /// # use serde_json::json;
    /// assert_eq!(UnionSpec::text_of(&json!("ten")), "ten");
    /// assert_eq!(UnionSpec::text_of(&json!(10)), "10");
    /// assert_eq!(UnionSpec::text_of(&json!(null)), "");
    /// ```
    pub fn text_of(value: &Value) -> String {
        match value {
            Value::String(s) => s.clone(),
            Value::Null => String::new(),
            other => other.to_string(),
        }
    }

    /// Whether some alternative accepts `value` (with that alternative's constraints).
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_core::schema::PropertyKind;
    /// # use serde_json::json;
    /// let schema = Schema::parse_received(&json!({"type": "object", "properties": {
    ///     "v": {"anyOf": [{"type": "integer", "maximum": 9}, {"type": "string", "maxLength": 2}]}}}))?;
    /// let PropertyKind::Union(u) = schema.property("v").unwrap().kind() else { panic!() };
    /// assert!(u.accepts(&json!(9)) && u.accepts(&json!("ab")));
    /// assert!(!u.accepts(&json!(10)) && !u.accepts(&json!("abc")));
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn accepts(&self, value: &Value) -> bool {
        crate::validate::accepts_kind(&self.alternatives, value)
    }
}

/// The non-string JSON values `text` could stand for (a number, a boolean), then the
/// text itself.
fn text_readings(text: &str) -> Vec<Value> {
    let t = text.trim();
    let mut out = Vec::new();
    if let Ok(n) = serde_json::from_str::<Number>(t) {
        out.push(Value::Number(n));
    }
    match t {
        "true" => out.push(Value::Bool(true)),
        "false" => out.push(Value::Bool(false)),
        _ => {}
    }
    out.push(Value::String(text.to_owned()));
    out
}

/// The display text of a select option's JSON value: strings as they are, anything else
/// as its JSON text (`1`, `true`, `null`).
pub(crate) fn option_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// JSON Schema equality of two primitive values: numbers by mathematical value.
pub(crate) fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            super::number::compare(x, y) == Some(std::cmp::Ordering::Equal)
        }
        _ => a == b,
    }
}
