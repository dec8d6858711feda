//! The schema model: the restricted `requestedSchema` of form-mode elicitation.
//!
//! A [`Schema`] is always inside the subset: the only ways to make one are
//! [`Schema::parse`](crate::schema::Schema::parse) and the
//! [`SchemaBuilder`](crate::schema::SchemaBuilder), and both check every rule. Fields are
//! private so that invariant holds; read them through the accessors.

use serde_json::{Map, Number, Value};

/// A parsed, checked form-mode `requestedSchema`: a flat object of primitive properties.
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
    /// Top-level members outside the modelled keywords that the subset tolerates
    /// (`additionalProperties: false`, `x-` vendor extensions, `$comment`), kept for round trips.
    pub(crate) extensions: Map<String, Value>,
}

/// One property of the flat object.
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
}

/// What a property holds, with every constraint of its kind.
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
}

/// Constraints of a free-text string property.
#[derive(Debug, Clone, Default)]
pub struct StringSpec {
    /// Minimum length in Unicode code points.
    pub(crate) min_length: Option<u64>,
    /// Maximum length in Unicode code points.
    pub(crate) max_length: Option<u64>,
    /// ECMA-262 regular expression, compiled once; unanchored like JSON Schema's.
    pub(crate) pattern: Option<Pattern>,
    pub(crate) format: Option<StringFormat>,
    pub(crate) default: Option<String>,
}

/// A compiled ECMA-262 `pattern`, with its source kept verbatim.
#[derive(Debug, Clone)]
pub struct Pattern {
    pub(crate) source: String,
    pub(crate) regex: regress::Regex,
}

impl Pattern {
    /// The pattern exactly as written in the schema.
    pub fn source(&self) -> &str {
        &self.source
    }
}

/// The string formats the subset allows.
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
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Email => "email",
            Self::Uri => "uri",
            Self::Date => "date",
            Self::DateTime => "date-time",
        }
    }

    /// Parses a keyword value; `None` for formats outside the subset.
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
#[derive(Debug, Clone, Default)]
pub struct NumberSpec {
    /// `type: integer` rather than `type: number`.
    pub(crate) integer: bool,
    pub(crate) minimum: Option<Number>,
    pub(crate) maximum: Option<Number>,
    pub(crate) default: Option<Number>,
}

/// Constraints of a boolean property.
#[derive(Debug, Clone, Default)]
pub struct BooleanSpec {
    pub(crate) default: Option<bool>,
}

/// One choice of a select.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnumOption {
    /// The value sent in the response.
    pub value: String,
    /// The label shown to the user, when the schema gives one.
    pub title: Option<String>,
}

/// How a single-select was written, kept so serialization gives back the same shape.
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
#[derive(Debug, Clone)]
pub struct SingleSelectSpec {
    pub(crate) style: SingleSelectStyle,
    pub(crate) options: Vec<EnumOption>,
    pub(crate) default: Option<String>,
}

/// How a multi-select's `items` were written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MultiSelectStyle {
    /// `items: {type: string, enum: [...]}`.
    Untitled,
    /// `items: {anyOf: [{const, title}, ...]}`.
    TitledAnyOf,
}

/// A choose-several property.
#[derive(Debug, Clone)]
pub struct MultiSelectSpec {
    pub(crate) style: MultiSelectStyle,
    pub(crate) options: Vec<EnumOption>,
    pub(crate) min_items: Option<u64>,
    pub(crate) max_items: Option<u64>,
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
    /// Properties in document order.
    pub fn properties(&self) -> &[Property] {
        &self.properties
    }
    /// The property called `name`.
    pub fn property(&self, name: &str) -> Option<&Property> {
        self.properties.iter().find(|p| p.name == name)
    }
    /// The `required` list, in its original order.
    pub fn required(&self) -> &[String] {
        &self.required
    }
    /// Tolerated extra top-level members kept for round trips.
    pub fn extensions(&self) -> &Map<String, Value> {
        &self.extensions
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
    /// Its `default`, as JSON, when it has one.
    pub fn default_value(&self) -> Option<Value> {
        match &self.kind {
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
    /// Minimum length in code points.
    pub fn min_length(&self) -> Option<u64> {
        self.min_length
    }
    /// Maximum length in code points.
    pub fn max_length(&self) -> Option<u64> {
        self.max_length
    }
    /// The compiled pattern.
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
        self.min_items
    }
    /// Maximum number of selected items.
    pub fn max_items(&self) -> Option<u64> {
        self.max_items
    }
    /// The default selection.
    pub fn default(&self) -> Option<&[String]> {
        self.default.as_deref()
    }
}
