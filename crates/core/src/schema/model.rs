//! The schema model: the restricted `requestedSchema` of form-mode elicitation.
//!
//! A [`Schema`] is always inside the subset: the only ways to make one are
//! [`Schema::parse`](crate::schema::Schema::parse) and the
//! [`SchemaBuilder`](crate::schema::SchemaBuilder), and both check every rule. Fields are
//! private so that invariant holds; read them through the accessors.

use serde_json::{Map, Number, Value};

use super::pattern::Pattern;
use super::received::{Extras, SchemaNotice, UnionSpec};

/// A parsed, checked form-mode `requestedSchema`: a flat object of primitive properties.
///
/// Made by [`Schema::parse`] (or [`from_json_str`](Schema::from_json_str),
/// [`parse_received`](Schema::parse_received), the
/// [`SchemaBuilder`](crate::schema::SchemaBuilder)); read through its accessors; turned
/// back into JSON by [`to_value`](Schema::to_value) (and `serde`).
///
/// ```
/// use mcp_elicit_core::Schema;
/// use serde_json::json;
///
/// let json = json!({
///     "$schema": "https://json-schema.org/draft/2020-12/schema",
///     "type": "object",
///     "title": "Shipping",
///     "properties": {
///         "city": {"type": "string"},
///         "express": {"type": "boolean", "default": false}
///     },
///     "required": ["city"],
///     "x-form-id": 7
/// });
/// let schema = Schema::parse(&json)?;
/// assert_eq!(schema.title(), Some("Shipping"));
/// assert_eq!(schema.description(), None);
/// assert_eq!(schema.dialect(), Some("https://json-schema.org/draft/2020-12/schema"));
/// let names: Vec<&str> = schema.properties().iter().map(|p| p.name()).collect();
/// assert_eq!(names, ["city", "express"]); // document order
/// assert_eq!(schema.required(), ["city"]);
/// assert_eq!(schema.extensions()["x-form-id"], 7);
/// assert_eq!(schema.to_value(), json);
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone)]
pub struct Schema {
    pub(crate) title: Option<String>,
    pub(crate) description: Option<String>,
    /// The `$schema` dialect URI, kept verbatim.
    pub(crate) dialect: Option<String>,
    /// Properties in document order.
    pub(crate) properties: Vec<Property>,
    /// `required` exactly as given (order kept), every name a property.
    pub(crate) required: Vec<String>,
    /// Whether the document had a `required` member at all, so that `"required": []`
    /// survives a round trip.
    pub(crate) required_listed: bool,
    /// Top-level members outside the modelled keywords that the subset tolerates
    /// (`additionalProperties: false`, `x-` vendor extensions, `$comment`), kept for round trips.
    pub(crate) extensions: Map<String, Value>,
    /// Set by a tolerant reading that went beyond the subset: the schema as received and
    /// the notices for the user.
    pub(crate) reading: Option<Box<TolerantReading>>,
    /// The secret-field lint's findings, computed on first use and shared by clones: they
    /// depend only on the schema, which cannot change once built.
    pub(crate) lint: crate::lint::LintMemo,
}

/// What a tolerant reading that went beyond the subset keeps at the top level.
#[derive(Debug, Clone)]
pub(crate) struct TolerantReading {
    /// The schema exactly as received (what [`Schema::to_value`] gives back).
    pub(crate) raw: Value,
    /// What the user should be told, in document order.
    pub(crate) notices: Vec<SchemaNotice>,
}

/// One property of the flat object.
///
/// ```
/// use mcp_elicit_core::Schema;
/// use serde_json::json;
///
/// let schema = Schema::parse(&json!({"type": "object", "properties": {
///     "qty": {"type": "integer", "title": "Quantity", "description": "How many", "default": 1},
///     "note": {"type": "string", "$comment": "free text"}
/// }, "required": ["qty"]}))?;
/// let qty = schema.property("qty").unwrap();
/// assert_eq!((qty.name(), qty.title(), qty.description()), ("qty", Some("Quantity"), Some("How many")));
/// assert!(qty.is_required());
/// assert_eq!(qty.default_value(), Some(json!(1)));
/// let note = schema.property("note").unwrap();
/// assert_eq!(note.label(), "note"); // no title: the name
/// assert_eq!(note.extensions()["$comment"], "free text");
/// assert!(note.extras().is_none()); // strictly parsed
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone)]
pub struct Property {
    pub(crate) name: String,
    pub(crate) title: Option<String>,
    pub(crate) description: Option<String>,
    /// Whether the top-level `required` lists this property.
    pub(crate) required: bool,
    pub(crate) kind: PropertyKind,
    /// Tolerated extra members (`x-` vendor extensions, `$comment`), kept for round trips.
    pub(crate) extensions: Map<String, Value>,
    /// What a tolerant reading keeps beyond the subset (`None` for a strict reading).
    pub(crate) extras: Option<Box<Extras>>,
}

/// What a property holds, with every constraint of its kind.
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::schema::PropertyKind;
/// use serde_json::json;
///
/// let schema = Schema::parse(&json!({"type": "object", "properties": {
///     "name": {"type": "string"},
///     "size": {"type": "string", "enum": ["s", "m", "l"]},
///     "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}}
/// }}))?;
/// let kinds: Vec<&PropertyKind> = schema.properties().iter().map(|p| p.kind()).collect();
/// assert!(matches!(kinds[0], PropertyKind::String(_)));
/// assert!(matches!(kinds[1], PropertyKind::SingleSelect(s) if s.options().len() == 3));
/// assert!(matches!(kinds[2], PropertyKind::MultiSelect(_)));
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum PropertyKind {
    /// `type: string` without `enum`/`oneOf`.
    String(StringSpec),
    /// `type: number` or `type: integer`.
    Number(NumberSpec),
    /// `type: boolean`.
    Boolean(BooleanSpec),
    /// `type: string` with `enum` (optionally with legacy `enumNames`) or `oneOf` of
    /// `{const, title}`: choose one.
    SingleSelect(SingleSelectSpec),
    /// `type: array` whose `items` are `{type: string, enum}` or `{anyOf: [{const, title}]}`:
    /// choose several.
    MultiSelect(MultiSelectSpec),
    /// Only from a tolerant reading: no single `type` but an `anyOf`/`oneOf` of
    /// primitives (`Union[int, str]`); one text field accepting what any alternative
    /// accepts.
    Union(UnionSpec),
}

/// Constraints of a free-text string property.
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::schema::{PropertyKind, StringFormat};
/// use serde_json::json;
///
/// let schema = Schema::parse(&json!({"type": "object", "properties": {"code": {
///     "type": "string", "minLength": 2, "maxLength": 8.0, "pattern": "^[A-Z]+$",
///     "default": "AB"
/// }, "mail": {"type": "string", "format": "email"}}}))?;
/// let PropertyKind::String(code) = schema.property("code").unwrap().kind() else { panic!() };
/// assert_eq!((code.min_length(), code.max_length()), (Some(2), Some(8)));
/// assert!(code.pattern().unwrap().is_match("XYZ"));
/// assert_eq!(code.default(), Some("AB"));
/// assert_eq!(code.format(), None);
/// let PropertyKind::String(mail) = schema.property("mail").unwrap().kind() else { panic!() };
/// assert_eq!(mail.format(), Some(StringFormat::Email));
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct StringSpec {
    /// Minimum length in Unicode code points.
    pub(crate) min_length: Option<Count>,
    /// Maximum length in Unicode code points.
    pub(crate) max_length: Option<Count>,
    /// ECMA-262 regular expression, compiled once; unanchored like JSON Schema's.
    pub(crate) pattern: Option<Pattern>,
    pub(crate) format: Option<StringFormat>,
    pub(crate) default: Option<String>,
}

/// A non-negative integer keyword (`minLength`, `maxLength`, `minItems`, `maxItems`),
/// with its JSON spelling kept for round trips: JSON Schema counts `2.0` as the integer
/// 2, and a schema that says `2.0` serializes back to `2.0`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Count {
    /// The value; saturates at `u64::MAX` for larger integral floats such as `1e300`
    /// (no string or array gets that long).
    pub(crate) value: u64,
    /// The number as written.
    pub(crate) json: Number,
}

impl Count {
    /// A count written as a plain integer.
    pub(crate) fn new(value: u64) -> Self {
        Self {
            value,
            json: Number::from(value),
        }
    }

    /// The count `n` stands for, when it is a non-negative integer in JSON Schema's
    /// sense (`3`, `3.0`, `3e0`, `-0.0`); `None` otherwise.
    pub(crate) fn from_number(n: &Number) -> Option<Self> {
        let value = match n.as_u64() {
            Some(v) => v,
            None => {
                let f = n.as_f64()?;
                if !(f.is_finite() && f.fract() == 0.0 && f >= 0.0) {
                    return None;
                }
                // Integral and non-negative: `as` is exact below 2^64 and saturates above.
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                let v = f as u64;
                v
            }
        };
        Some(Self {
            value,
            json: n.clone(),
        })
    }
}

impl From<u64> for Count {
    fn from(value: u64) -> Self {
        Self::new(value)
    }
}

/// The string formats the subset allows.
///
/// ```
/// use mcp_elicit_core::schema::StringFormat;
///
/// assert_eq!(StringFormat::from_keyword("date-time"), Some(StringFormat::DateTime));
/// assert_eq!(StringFormat::DateTime.as_str(), "date-time");
/// assert_eq!(StringFormat::from_keyword("time"), None); // outside the subset
/// assert_eq!(StringFormat::from_keyword("Email"), None); // exact case
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StringFormat {
    /// RFC 5321/5322 addr-spec.
    Email,
    /// An absolute RFC 3986 URI.
    Uri,
    /// RFC 3339 `full-date`.
    Date,
    /// RFC 3339 `date-time` with an offset.
    DateTime,
}

impl StringFormat {
    /// The keyword value (`"email"`, `"uri"`, `"date"`, `"date-time"`).
    ///
    /// ```
    /// # use mcp_elicit_core::schema::StringFormat;
    /// assert_eq!(StringFormat::Uri.as_str(), "uri");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Email => "email",
            Self::Uri => "uri",
            Self::Date => "date",
            Self::DateTime => "date-time",
        }
    }

    /// Parses a keyword value; `None` for formats outside the subset.
    ///
    /// ```
    /// # use mcp_elicit_core::schema::StringFormat;
    /// assert_eq!(StringFormat::from_keyword("date"), Some(StringFormat::Date));
    /// assert_eq!(StringFormat::from_keyword("hostname"), None);
    /// ```
    pub fn from_keyword(s: &str) -> Option<Self> {
        Some(match s {
            "email" => Self::Email,
            "uri" => Self::Uri,
            "date" => Self::Date,
            "date-time" => Self::DateTime,
            _ => return None,
        })
    }
}

/// Constraints of a number or integer property. Bounds and default keep their JSON
/// representation (`30` stays `30`, `30.0` stays `30.0`).
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::schema::PropertyKind;
/// use serde_json::json;
///
/// let schema = Schema::parse(&json!({"type": "object", "properties": {
///     "ratio": {"type": "number", "minimum": 0.0, "maximum": 1, "default": 0.5},
///     "count": {"type": "integer"}
/// }}))?;
/// let PropertyKind::Number(ratio) = schema.property("ratio").unwrap().kind() else { panic!() };
/// assert!(!ratio.is_integer());
/// assert_eq!(ratio.minimum().unwrap().to_string(), "0.0"); // as written
/// assert_eq!(ratio.maximum().unwrap().as_u64(), Some(1));
/// assert_eq!(ratio.default().unwrap().as_f64(), Some(0.5));
/// let PropertyKind::Number(count) = schema.property("count").unwrap().kind() else { panic!() };
/// assert!(count.is_integer() && count.minimum().is_none());
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct NumberSpec {
    /// `type: integer` rather than `type: number`.
    pub(crate) integer: bool,
    pub(crate) minimum: Option<Number>,
    pub(crate) maximum: Option<Number>,
    pub(crate) default: Option<Number>,
}

/// Constraints of a boolean property.
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::schema::PropertyKind;
/// use serde_json::json;
///
/// let schema = Schema::parse(&json!({"type": "object", "properties": {
///     "agree": {"type": "boolean", "default": true}}}))?;
/// let PropertyKind::Boolean(agree) = schema.property("agree").unwrap().kind() else { panic!() };
/// assert_eq!(agree.default(), Some(true));
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct BooleanSpec {
    pub(crate) default: Option<bool>,
}

/// One choice of a select.
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::schema::{EnumOption, PropertyKind};
/// use serde_json::json;
///
/// let schema = Schema::parse(&json!({"type": "object", "properties": {"size": {
///     "type": "string", "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]
/// }}}))?;
/// let PropertyKind::SingleSelect(size) = schema.property("size").unwrap().kind() else { panic!() };
/// assert_eq!(size.options()[0], EnumOption { value: "s".into(), title: Some("Small".into()) });
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnumOption {
    /// The value sent in the response.
    pub value: String,
    /// The label shown to the user, when the schema gives one.
    pub title: Option<String>,
}

/// How a single-select was written, kept so serialization gives back the same shape.
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::schema::{PropertyKind, SingleSelectStyle};
/// use serde_json::json;
///
/// let json = json!({"type": "object", "properties": {"size": {
///     "type": "string", "enum": ["s", "l"], "enumNames": ["Small", "Large"]}}});
/// let schema = Schema::parse(&json)?;
/// let PropertyKind::SingleSelect(size) = schema.property("size").unwrap().kind() else { panic!() };
/// assert_eq!(size.style(), SingleSelectStyle::LegacyEnumNames);
/// assert_eq!(size.options()[1].title.as_deref(), Some("Large"));
/// assert_eq!(schema.to_value(), json); // still `enumNames`, not `oneOf`
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SingleSelectStyle {
    /// `enum: [...]` with no titles.
    Untitled,
    /// `oneOf: [{const, title}, ...]`.
    TitledOneOf,
    /// Legacy `enum: [...]` with a parallel `enumNames: [...]`.
    LegacyEnumNames,
}

/// A choose-one property.
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::schema::{PropertyKind, SingleSelectStyle};
/// use serde_json::json;
///
/// let schema = Schema::parse(&json!({"type": "object", "properties": {
///     "color": {"type": "string", "enum": ["red", "green"], "default": "green"}}}))?;
/// let PropertyKind::SingleSelect(color) = schema.property("color").unwrap().kind() else { panic!() };
/// assert_eq!(color.style(), SingleSelectStyle::Untitled);
/// let values: Vec<&str> = color.options().iter().map(|o| o.value.as_str()).collect();
/// assert_eq!(values, ["red", "green"]);
/// assert_eq!(color.default(), Some("green"));
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone)]
pub struct SingleSelectSpec {
    pub(crate) style: SingleSelectStyle,
    pub(crate) options: Vec<EnumOption>,
    pub(crate) default: Option<String>,
}

/// How a multi-select's `items` were written.
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::schema::{MultiSelectStyle, PropertyKind};
/// use serde_json::json;
///
/// let schema = Schema::parse(&json!({"type": "object", "properties": {"days": {
///     "type": "array", "items": {"anyOf": [{"const": "mon", "title": "Monday"}]}}}}))?;
/// let PropertyKind::MultiSelect(days) = schema.property("days").unwrap().kind() else { panic!() };
/// assert_eq!(days.style(), MultiSelectStyle::TitledAnyOf);
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MultiSelectStyle {
    /// `items: {type: string, enum: [...]}`.
    Untitled,
    /// `items: {anyOf: [{const, title}, ...]}`.
    TitledAnyOf,
}

/// A choose-several property.
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::schema::{MultiSelectStyle, PropertyKind};
/// use serde_json::json;
///
/// let schema = Schema::parse(&json!({"type": "object", "properties": {"toppings": {
///     "type": "array", "items": {"type": "string", "enum": ["ham", "olives", "basil"]},
///     "minItems": 1, "maxItems": 2, "default": ["basil"]
/// }}}))?;
/// let PropertyKind::MultiSelect(t) = schema.property("toppings").unwrap().kind() else { panic!() };
/// assert_eq!(t.style(), MultiSelectStyle::Untitled);
/// assert_eq!(t.options().len(), 3);
/// assert_eq!((t.min_items(), t.max_items()), (Some(1), Some(2)));
/// assert_eq!(t.default(), Some(&["basil".to_owned()][..]));
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone)]
pub struct MultiSelectSpec {
    pub(crate) style: MultiSelectStyle,
    pub(crate) options: Vec<EnumOption>,
    pub(crate) min_items: Option<Count>,
    pub(crate) max_items: Option<Count>,
    pub(crate) default: Option<Vec<String>>,
}

impl Schema {
    /// The top-level `title`.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }
    /// The top-level `description`.
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }
    /// The `$schema` dialect URI, verbatim.
    pub fn dialect(&self) -> Option<&str> {
        self.dialect.as_deref()
    }
    /// Properties in document order (not sorted: a form shows them in this order).
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// let schema = Schema::from_json_str(r#"{"type": "object", "properties": {
    ///     "zip": {"type": "string"}, "city": {"type": "string"}}}"#)?;
    /// assert_eq!(schema.properties()[0].name(), "zip");
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn properties(&self) -> &[Property] {
        &self.properties
    }
    /// The property called `name` (exact, case-sensitive).
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// let schema = Schema::from_json_str(r#"{"type": "object", "properties": {
    ///     "City": {"type": "string"}}}"#)?;
    /// assert!(schema.property("City").is_some());
    /// assert!(schema.property("city").is_none());
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn property(&self, name: &str) -> Option<&Property> {
        self.properties.iter().find(|p| p.name == name)
    }
    /// The `required` list, in its original order (which need not be property order).
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// let schema = Schema::from_json_str(r#"{"type": "object", "properties": {
    ///     "a": {"type": "string"}, "b": {"type": "string"}}, "required": ["b", "a"]}"#)?;
    /// assert_eq!(schema.required(), ["b", "a"]);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn required(&self) -> &[String] {
        &self.required
    }
    /// Tolerated extra top-level members kept for round trips: `x-` vendor keys,
    /// `$comment` and `additionalProperties: false`.
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// let schema = Schema::from_json_str(r#"{"type": "object", "properties": {},
    ///     "additionalProperties": false, "x-vendor": {"v": 1}}"#)?;
    /// let keys: Vec<&str> = schema.extensions().keys().map(String::as_str).collect();
    /// assert_eq!(keys, ["additionalProperties", "x-vendor"]);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn extensions(&self) -> &Map<String, Value> {
        &self.extensions
    }
    /// What a tolerant reading ([`Schema::parse_received`]) did that the user should
    /// know, in document order; empty for a schema inside the subset.
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_core::schema::NoticeKind;
    /// # use serde_json::json;
    /// let received = json!({"type": "object", "properties": {"n": {"type": "integer"}},
    ///     "required": ["n", "gone"]});
    /// let schema = Schema::parse_received(&received)?;
    /// assert_eq!(schema.notices().len(), 1);
    /// assert_eq!(schema.notices()[0].kind(), NoticeKind::UnknownRequired);
    /// assert_eq!(schema.required(), ["n"]);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn notices(&self) -> &[SchemaNotice] {
        self.reading.as_ref().map_or(&[], |r| r.notices.as_slice())
    }
    /// Whether this schema was read beyond the subset (by [`Schema::parse_received`]):
    /// then [`to_value`](Self::to_value) gives back the schema exactly as received.
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use serde_json::json;
    /// let inside = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
    /// assert!(!Schema::parse_received(&inside)?.is_beyond_subset());
    /// let beyond = json!({"type": "object", "properties": {
    ///     "n": {"type": "integer", "multipleOf": 5}}});
    /// let schema = Schema::parse_received(&beyond)?;
    /// assert!(schema.is_beyond_subset());
    /// assert_eq!(schema.to_value(), beyond);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn is_beyond_subset(&self) -> bool {
        self.reading.is_some()
    }
}

impl Property {
    /// The property's name (its key in `properties`).
    pub fn name(&self) -> &str {
        &self.name
    }
    /// Its `title`.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }
    /// Its `description`.
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }
    /// The label to show: the title, else the name.
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// let schema = Schema::from_json_str(r#"{"type": "object", "properties": {
    ///     "dob": {"type": "string", "title": "Date of birth"}, "city": {"type": "string"}}}"#)?;
    /// assert_eq!(schema.property("dob").unwrap().label(), "Date of birth");
    /// assert_eq!(schema.property("city").unwrap().label(), "city");
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn label(&self) -> &str {
        self.title.as_deref().unwrap_or(&self.name)
    }
    /// Whether `required` lists it.
    pub fn is_required(&self) -> bool {
        self.required
    }
    /// Its kind and constraints.
    pub fn kind(&self) -> &PropertyKind {
        &self.kind
    }
    /// Tolerated extra members kept for round trips.
    pub fn extensions(&self) -> &Map<String, Value> {
        &self.extensions
    }
    /// What a tolerant reading kept beyond the subset (`None` for a strict reading, and for
    /// a property a tolerant reading found inside the subset).
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use serde_json::json;
    /// let schema = Schema::parse_received(&json!({"type": "object", "properties": {
    ///     "n": {"type": "number", "exclusiveMaximum": 10}, "s": {"type": "string"}}}))?;
    /// assert!(schema.property("n").unwrap().extras().is_some());
    /// assert!(schema.property("s").unwrap().extras().is_none());
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn extras(&self) -> Option<&Extras> {
        self.extras.as_deref()
    }
    /// Its `default`, as JSON, when it has one: typed as the property's kind (a number
    /// for a number, an array for a multi-select, the typed value for a select of
    /// numbers read by [`Schema::parse_received`]).
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use serde_json::json;
    /// let schema = Schema::parse_received(&json!({"type": "object", "properties": {
    ///     "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "default": ["b"]},
    ///     "level": {"type": "integer", "enum": [1, 2, 3], "default": 2},
    ///     "name": {"type": "string"}
    /// }}))?;
    /// assert_eq!(schema.property("tags").unwrap().default_value(), Some(json!(["b"])));
    /// assert_eq!(schema.property("level").unwrap().default_value(), Some(json!(2)));
    /// assert_eq!(schema.property("name").unwrap().default_value(), None);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn default_value(&self) -> Option<Value> {
        let typed = self.extras().and_then(Extras::typed_options);
        if let Some(typed) = typed {
            return match &self.kind {
                PropertyKind::SingleSelect(s) => {
                    let d = s.default.as_deref()?;
                    s.options
                        .iter()
                        .position(|o| o.value == d)
                        .and_then(|i| typed.get(i).cloned())
                }
                PropertyKind::MultiSelect(m) => m.default.as_ref().map(|d| {
                    Value::Array(
                        d.iter()
                            .filter_map(|v| {
                                m.options
                                    .iter()
                                    .position(|o| &o.value == v)
                                    .and_then(|i| typed.get(i).cloned())
                            })
                            .collect(),
                    )
                }),
                _ => None,
            };
        }
        match &self.kind {
            PropertyKind::Union(u) => u.default.clone(),
            PropertyKind::String(s) => s.default.clone().map(Value::String),
            PropertyKind::Number(n) => n.default.clone().map(Value::Number),
            PropertyKind::Boolean(b) => b.default.map(Value::Bool),
            PropertyKind::SingleSelect(s) => s.default.clone().map(Value::String),
            PropertyKind::MultiSelect(m) => m
                .default
                .as_ref()
                .map(|d| Value::Array(d.iter().cloned().map(Value::String).collect())),
        }
    }
}

impl StringSpec {
    /// Minimum length in code points (not bytes, not UTF-16 units: `"é"` and `"😀"` are
    /// one each).
    ///
    /// ```
    /// # use mcp_elicit_core::{Schema, validate::validate};
    /// # use mcp_elicit_core::schema::PropertyKind;
    /// # use serde_json::json;
    /// let schema = Schema::from_json_str(r#"{"type": "object", "properties": {
    ///     "pin": {"type": "string", "minLength": 2}}}"#)?;
    /// let PropertyKind::String(s) = schema.property("pin").unwrap().kind() else { panic!() };
    /// assert_eq!(s.min_length(), Some(2));
    /// assert!(validate(&schema, &json!({"pin": "é😀"})).is_ok());
    /// assert!(validate(&schema, &json!({"pin": "😀"})).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn min_length(&self) -> Option<u64> {
        self.min_length.as_ref().map(|c| c.value)
    }
    /// Maximum length in code points.
    pub fn max_length(&self) -> Option<u64> {
        self.max_length.as_ref().map(|c| c.value)
    }
    /// The compiled pattern (unanchored, like JSON Schema's).
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_core::schema::PropertyKind;
    /// let schema = Schema::from_json_str(r#"{"type": "object", "properties": {
    ///     "code": {"type": "string", "pattern": "[0-9]{3}"}}}"#)?;
    /// let PropertyKind::String(s) = schema.property("code").unwrap().kind() else { panic!() };
    /// let p = s.pattern().unwrap();
    /// assert_eq!(p.source(), "[0-9]{3}");
    /// assert!(p.is_match("ab123cd")); // a search, not a whole-string match
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn pattern(&self) -> Option<&Pattern> {
        self.pattern.as_ref()
    }
    /// The format.
    pub fn format(&self) -> Option<StringFormat> {
        self.format
    }
    /// The default.
    pub fn default(&self) -> Option<&str> {
        self.default.as_deref()
    }
}

impl NumberSpec {
    /// Whether the type is `integer`.
    pub fn is_integer(&self) -> bool {
        self.integer
    }
    /// Inclusive lower bound.
    pub fn minimum(&self) -> Option<&Number> {
        self.minimum.as_ref()
    }
    /// Inclusive upper bound.
    pub fn maximum(&self) -> Option<&Number> {
        self.maximum.as_ref()
    }
    /// The default.
    pub fn default(&self) -> Option<&Number> {
        self.default.as_ref()
    }
}

impl BooleanSpec {
    /// The default.
    pub fn default(&self) -> Option<bool> {
        self.default
    }
}

impl SingleSelectSpec {
    /// How it was written.
    pub fn style(&self) -> SingleSelectStyle {
        self.style
    }
    /// The choices, in order.
    pub fn options(&self) -> &[EnumOption] {
        &self.options
    }
    /// The default value.
    pub fn default(&self) -> Option<&str> {
        self.default.as_deref()
    }
}

impl MultiSelectSpec {
    /// How its items were written.
    pub fn style(&self) -> MultiSelectStyle {
        self.style
    }
    /// The choices, in order.
    pub fn options(&self) -> &[EnumOption] {
        &self.options
    }
    /// Minimum number of selected items.
    pub fn min_items(&self) -> Option<u64> {
        self.min_items.as_ref().map(|c| c.value)
    }
    /// Maximum number of selected items.
    pub fn max_items(&self) -> Option<u64> {
        self.max_items.as_ref().map(|c| c.value)
    }
    /// The default selection.
    pub fn default(&self) -> Option<&[String]> {
        self.default.as_deref()
    }
}

/// The JSON value option `index` of a select sends: its typed value when the tolerant
/// reading kept one ([`Extras::typed_options`]), else its `value` as a string.
///
/// ```
/// # use mcp_elicit_core::Schema;
/// # use mcp_elicit_core::schema::option_json;
/// # use serde_json::json;
/// let schema = Schema::parse_received(&json!({"type": "object", "properties": {
///     "level": {"type": "integer", "enum": [1, 2, 3]}}})).unwrap();
/// let level = schema.property("level").unwrap();
/// assert_eq!(option_json(level, 1), Some(json!(2)));
/// ```
pub fn option_json(property: &Property, index: usize) -> Option<Value> {
    if let Some(typed) = property.extras().and_then(Extras::typed_options) {
        return typed.get(index).cloned();
    }
    let options = match &property.kind {
        PropertyKind::SingleSelect(s) => &s.options,
        PropertyKind::MultiSelect(m) => &m.options,
        _ => return None,
    };
    options.get(index).map(|o| Value::String(o.value.clone()))
}

/// The index of the select option that sends `value` (the inverse of [`option_json`]).
///
/// ```
/// # use mcp_elicit_core::Schema;
/// # use mcp_elicit_core::schema::option_index;
/// # use serde_json::json;
/// let schema = Schema::parse_received(&json!({"type": "object", "properties": {
///     "level": {"type": "integer", "enum": [1, 2, 3]}}})).unwrap();
/// assert_eq!(option_index(schema.property("level").unwrap(), &json!(3)), Some(2));
/// ```
pub fn option_index(property: &Property, value: &Value) -> Option<usize> {
    if let Some(typed) = property.extras().and_then(Extras::typed_options) {
        return typed
            .iter()
            .position(|t| super::received::json_equal(t, value));
    }
    let s = value.as_str()?;
    let options = match &property.kind {
        PropertyKind::SingleSelect(spec) => &spec.options,
        PropertyKind::MultiSelect(spec) => &spec.options,
        _ => return None,
    };
    options.iter().position(|o| o.value == s)
}
