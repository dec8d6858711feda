//! Building a [`Schema`] in code.
//!
//! The builders compose the JSON a schema author would write, and [`SchemaBuilder::build`]
//! runs it through [`Schema::parse`]: a built schema obeys exactly the rules a received
//! one does, and a mistake (a `minLength` on a number, a default outside the options)
//! comes back as the same [`Errors`], with pointers into [`SchemaBuilder::to_value`].
//!
//! ```
//! use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder, StringFormat};
//!
//! let schema = SchemaBuilder::new()
//!     .title("Contact")
//!     .property(PropertyBuilder::string("email").title("Email").format(StringFormat::Email).required())
//!     .property(PropertyBuilder::integer("age").minimum(18))
//!     .property(PropertyBuilder::titled_single_select("size", [("s", "Small"), ("l", "Large")]).default("s"))
//!     .build()
//!     .expect("a valid schema");
//! assert_eq!(schema.required(), ["email"]);
//! ```

use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind, Errors, pointer_token};
use crate::schema::{Schema, StringFormat};

/// Builds a [`Schema`](crate::schema::Schema), checked on `build`.
///
/// ```
/// use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder};
/// use serde_json::json;
///
/// let builder = SchemaBuilder::new()
///     .title("Feedback")
///     .description("Tell us how it went")
///     .property(PropertyBuilder::integer("stars").minimum(1).maximum(5).required());
/// assert_eq!(builder.to_value(), json!({
///     "type": "object", "title": "Feedback", "description": "Tell us how it went",
///     "properties": {"stars": {"type": "integer", "minimum": 1, "maximum": 5}},
///     "required": ["stars"]
/// }));
/// let schema = builder.build()?;
/// assert_eq!(schema.title(), Some("Feedback"));
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Default, Clone)]
pub struct SchemaBuilder {
    title: Option<String>,
    description: Option<String>,
    dialect: Option<String>,
    properties: Vec<PropertyBuilder>,
    extensions: Map<String, Value>,
}

/// Builds one property for a [`SchemaBuilder`].
///
/// Start from the kind ([`string`](Self::string), [`integer`](Self::integer),
/// [`single_select`](Self::single_select)...), then add constraints. Nothing is checked
/// until [`SchemaBuilder::build`]: a constraint that does not fit the kind is reported
/// there.
///
/// ```
/// use mcp_elicit_core::ErrorKind;
/// use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder};
///
/// let wrong = SchemaBuilder::new().property(PropertyBuilder::number("n").min_length(1));
/// let err = wrong.build().unwrap_err();
/// assert_eq!(err.first().kind(), ErrorKind::UnsupportedKeyword);
/// assert_eq!(err.first().pointer(), "/properties/n/minLength");
/// ```
#[derive(Debug, Clone)]
pub struct PropertyBuilder {
    name: String,
    required: bool,
    /// The property's JSON members, in the order written.
    members: Map<String, Value>,
}

impl SchemaBuilder {
    /// An empty schema: `{"type": "object", "properties": {}}`.
    ///
    /// ```
    /// # use mcp_elicit_core::schema::SchemaBuilder;
    /// # use serde_json::json;
    /// let builder = SchemaBuilder::new();
    /// assert_eq!(builder.to_value(), json!({"type": "object", "properties": {}}));
    /// assert!(builder.build()?.properties().is_empty());
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the top-level `title`.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets the top-level `description`.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Sets `$schema` (the dialect URI), kept verbatim.
    ///
    /// ```
    /// # use mcp_elicit_core::schema::SchemaBuilder;
    /// let uri = "https://json-schema.org/draft/2020-12/schema";
    /// let schema = SchemaBuilder::new().dialect(uri).build()?;
    /// assert_eq!(schema.dialect(), Some(uri));
    /// assert_eq!(schema.to_value()["$schema"], uri);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn dialect(mut self, uri: impl Into<String>) -> Self {
        self.dialect = Some(uri.into());
        self
    }

    /// Adds a top-level member outside the modelled keywords: an `x-` vendor key, a
    /// `$comment`, or `additionalProperties: false` (anything else fails `build`).
    ///
    /// ```
    /// # use mcp_elicit_core::ErrorKind;
    /// # use mcp_elicit_core::schema::SchemaBuilder;
    /// let schema = SchemaBuilder::new()
    ///     .extension("additionalProperties", false)
    ///     .extension("x-form-version", 2)
    ///     .build()?;
    /// assert_eq!(schema.extensions()["x-form-version"], 2);
    ///
    /// let err = SchemaBuilder::new().extension("$defs", serde_json::json!({})).build().unwrap_err();
    /// assert_eq!(err.first().kind(), ErrorKind::UnsupportedKeyword);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn extension(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.extensions.insert(key.into(), value.into());
        self
    }

    /// Appends a property (order is kept; required ones are listed in `required` in
    /// the same order).
    ///
    /// ```
    /// # use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder};
    /// let schema = SchemaBuilder::new()
    ///     .property(PropertyBuilder::string("zip").required())
    ///     .property(PropertyBuilder::string("city").required())
    ///     .build()?;
    /// assert_eq!(schema.properties()[0].name(), "zip");
    /// assert_eq!(schema.required(), ["zip", "city"]);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn property(mut self, property: PropertyBuilder) -> Self {
        self.properties.push(property);
        self
    }

    /// The JSON this builder describes, unchecked (so it can show a mistake that
    /// [`build`](Self::build) would refuse).
    ///
    /// ```
    /// # use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder};
    /// # use serde_json::json;
    /// let builder = SchemaBuilder::new().property(PropertyBuilder::boolean("ok").default("yes"));
    /// assert_eq!(builder.to_value()["properties"]["ok"], json!({"type": "boolean", "default": "yes"}));
    /// assert!(builder.build().is_err());
    /// ```
    pub fn to_value(&self) -> Value {
        let mut out = Map::new();
        if let Some(d) = &self.dialect {
            out.insert("$schema".into(), Value::String(d.clone()));
        }
        out.insert("type".into(), Value::String("object".into()));
        if let Some(t) = &self.title {
            out.insert("title".into(), Value::String(t.clone()));
        }
        if let Some(d) = &self.description {
            out.insert("description".into(), Value::String(d.clone()));
        }
        let properties: Map<String, Value> = self
            .properties
            .iter()
            .map(|p| (p.name.clone(), Value::Object(p.members.clone())))
            .collect();
        out.insert("properties".into(), Value::Object(properties));
        let required: Vec<Value> = self
            .properties
            .iter()
            .filter(|p| p.required)
            .map(|p| Value::String(p.name.clone()))
            .collect();
        if !required.is_empty() {
            out.insert("required".into(), Value::Array(required));
        }
        for (k, v) in &self.extensions {
            out.insert(k.clone(), v.clone());
        }
        Value::Object(out)
    }

    /// Checks the schema with the same rules as [`Schema::parse`] (plus: no property
    /// defined twice) and returns it, or every problem found.
    ///
    /// ```
    /// # use mcp_elicit_core::ErrorKind;
    /// # use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder};
    /// let err = SchemaBuilder::new()
    ///     .property(PropertyBuilder::string("name"))
    ///     .property(PropertyBuilder::integer("name"))
    ///     .property(PropertyBuilder::string("code").min_length(5).max_length(2))
    ///     .build()
    ///     .unwrap_err();
    /// let found: Vec<(ErrorKind, &str)> = err.as_slice().iter().map(|e| (e.kind(), e.pointer())).collect();
    /// assert_eq!(found, [
    ///     (ErrorKind::InvalidValue, "/properties/name"),
    ///     (ErrorKind::ContradictoryBounds, "/properties/code/minLength"),
    /// ]);
    /// ```
    pub fn build(&self) -> Result<Schema, Errors> {
        let mut errors = Vec::new();
        for (i, p) in self.properties.iter().enumerate() {
            if self
                .properties
                .get(..i)
                .is_some_and(|before| before.iter().any(|q| q.name == p.name))
            {
                errors.push(Error::new(
                    ErrorKind::InvalidValue,
                    format!("/properties/{}", pointer_token(&p.name)),
                    format!("property \"{}\" is defined twice", p.name),
                ));
            }
        }
        let parsed = Schema::parse(&self.to_value());
        match (parsed, Errors::from_vec(errors)) {
            (parsed, None) => parsed,
            (Ok(_), Some(dups)) => Err(dups),
            (Err(parse), Some(dups)) => {
                let mut all = dups.clone().into_vec();
                all.extend(parse);
                Err(Errors::from_vec(all).unwrap_or(dups))
            }
        }
    }
}

impl PropertyBuilder {
    fn with_type(name: impl Into<String>, type_name: &str) -> Self {
        let mut members = Map::new();
        members.insert("type".into(), Value::String(type_name.into()));
        Self {
            name: name.into(),
            required: false,
            members,
        }
    }

    fn member(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.members.insert(key.into(), value.into());
        self
    }

    /// A free-text string property.
    ///
    /// ```
    /// # use mcp_elicit_core::schema::{PropertyBuilder, PropertyKind, SchemaBuilder};
    /// let schema = SchemaBuilder::new().property(PropertyBuilder::string("city")).build()?;
    /// assert!(matches!(schema.property("city").unwrap().kind(), PropertyKind::String(_)));
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn string(name: impl Into<String>) -> Self {
        Self::with_type(name, "string")
    }

    /// A number property (any JSON number).
    ///
    /// ```
    /// # use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder};
    /// # use mcp_elicit_core::validate::validate;
    /// # use serde_json::json;
    /// let schema = SchemaBuilder::new().property(PropertyBuilder::number("weight")).build()?;
    /// assert!(validate(&schema, &json!({"weight": 2.5})).is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn number(name: impl Into<String>) -> Self {
        Self::with_type(name, "number")
    }

    /// An integer property (JSON Schema's integers: `3` and `3.0`, not `3.5`).
    ///
    /// ```
    /// # use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder};
    /// # use mcp_elicit_core::validate::validate;
    /// # use serde_json::json;
    /// let schema = SchemaBuilder::new().property(PropertyBuilder::integer("n")).build()?;
    /// assert!(validate(&schema, &json!({"n": 3.0})).is_ok());
    /// assert!(validate(&schema, &json!({"n": 3.5})).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn integer(name: impl Into<String>) -> Self {
        Self::with_type(name, "integer")
    }

    /// A boolean property.
    ///
    /// ```
    /// # use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder};
    /// # use mcp_elicit_core::validate::validate;
    /// # use serde_json::json;
    /// let schema = SchemaBuilder::new().property(PropertyBuilder::boolean("agree")).build()?;
    /// assert!(validate(&schema, &json!({"agree": true})).is_ok());
    /// assert!(validate(&schema, &json!({"agree": "true"})).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn boolean(name: impl Into<String>) -> Self {
        Self::with_type(name, "boolean")
    }

    /// A single-select whose options are shown as their values (`enum`).
    ///
    /// ```
    /// # use mcp_elicit_core::schema::PropertyBuilder;
    /// # use mcp_elicit_core::schema::SchemaBuilder;
    /// # use serde_json::json;
    /// let b = SchemaBuilder::new().property(PropertyBuilder::single_select("size", ["s", "m"]));
    /// assert_eq!(b.to_value()["properties"]["size"], json!({"type": "string", "enum": ["s", "m"]}));
    /// assert!(b.build().is_ok());
    /// ```
    pub fn single_select<V: Into<String>>(
        name: impl Into<String>,
        values: impl IntoIterator<Item = V>,
    ) -> Self {
        Self::string(name).member("enum", string_array(values))
    }

    /// A single-select with a label per option (`oneOf` of `{const, title}`).
    ///
    /// ```
    /// # use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder};
    /// # use serde_json::json;
    /// let p = PropertyBuilder::titled_single_select("size", [("s", "Small")]);
    /// let b = SchemaBuilder::new().property(p);
    /// assert_eq!(b.to_value()["properties"]["size"],
    ///     json!({"type": "string", "oneOf": [{"const": "s", "title": "Small"}]}));
    /// ```
    pub fn titled_single_select<V: Into<String>, T: Into<String>>(
        name: impl Into<String>,
        options: impl IntoIterator<Item = (V, T)>,
    ) -> Self {
        Self::string(name).member("oneOf", const_titles(options))
    }

    /// A single-select in the legacy form: `enum` with a parallel `enumNames`. Prefer
    /// [`titled_single_select`](Self::titled_single_select); this exists for peers that
    /// only understand the old form.
    ///
    /// ```
    /// # use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder, SingleSelectStyle, PropertyKind};
    /// # use serde_json::json;
    /// let p = PropertyBuilder::legacy_titled_single_select("size", [("s", "Small"), ("l", "Large")]);
    /// let schema = SchemaBuilder::new().property(p).build()?;
    /// assert_eq!(schema.to_value()["properties"]["size"]["enumNames"], json!(["Small", "Large"]));
    /// let PropertyKind::SingleSelect(s) = schema.property("size").unwrap().kind() else { panic!() };
    /// assert_eq!(s.style(), SingleSelectStyle::LegacyEnumNames);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn legacy_titled_single_select<V: Into<String>, T: Into<String>>(
        name: impl Into<String>,
        options: impl IntoIterator<Item = (V, T)>,
    ) -> Self {
        let (values, titles): (Vec<Value>, Vec<Value>) = options
            .into_iter()
            .map(|(v, t)| (Value::String(v.into()), Value::String(t.into())))
            .unzip();
        Self::string(name)
            .member("enum", values)
            .member("enumNames", titles)
    }

    /// A multi-select whose options are shown as their values (`items.enum`); the
    /// answer is an array of the chosen values.
    ///
    /// ```
    /// # use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder};
    /// # use mcp_elicit_core::validate::validate;
    /// # use serde_json::json;
    /// let p = PropertyBuilder::multi_select("days", ["mon", "tue", "wed"]).max_items(2);
    /// let schema = SchemaBuilder::new().property(p).build()?;
    /// assert!(validate(&schema, &json!({"days": ["mon", "wed"]})).is_ok());
    /// assert!(validate(&schema, &json!({"days": ["mon", "tue", "wed"]})).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn multi_select<V: Into<String>>(
        name: impl Into<String>,
        values: impl IntoIterator<Item = V>,
    ) -> Self {
        let mut items = Map::new();
        items.insert("type".into(), Value::String("string".into()));
        items.insert("enum".into(), string_array(values));
        Self::with_type(name, "array").member("items", items)
    }

    /// A multi-select with a label per option (`items.anyOf` of `{const, title}`).
    ///
    /// ```
    /// # use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder};
    /// # use serde_json::json;
    /// let p = PropertyBuilder::titled_multi_select("days", [("mon", "Monday")]);
    /// let b = SchemaBuilder::new().property(p);
    /// assert_eq!(b.to_value()["properties"]["days"]["items"],
    ///     json!({"anyOf": [{"const": "mon", "title": "Monday"}]}));
    /// assert!(b.build().is_ok());
    /// ```
    pub fn titled_multi_select<V: Into<String>, T: Into<String>>(
        name: impl Into<String>,
        options: impl IntoIterator<Item = (V, T)>,
    ) -> Self {
        let mut items = Map::new();
        items.insert("anyOf".into(), const_titles(options));
        Self::with_type(name, "array").member("items", items)
    }

    /// Lists the property in `required`.
    ///
    /// ```
    /// # use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder};
    /// let schema = SchemaBuilder::new().property(PropertyBuilder::string("a").required()).build()?;
    /// assert!(schema.property("a").unwrap().is_required());
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn required(mut self) -> Self {
        self.required = true;
        self
    }

    /// Sets `title`, the label a client shows.
    ///
    /// ```
    /// # use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder};
    /// let p = PropertyBuilder::string("dob").title("Date of birth").description("As on your ID");
    /// let schema = SchemaBuilder::new().property(p).build()?;
    /// let dob = schema.property("dob").unwrap();
    /// assert_eq!((dob.label(), dob.description()), ("Date of birth", Some("As on your ID")));
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn title(self, title: impl Into<String>) -> Self {
        self.member("title", Value::String(title.into()))
    }

    /// Sets `description`.
    pub fn description(self, description: impl Into<String>) -> Self {
        self.member("description", Value::String(description.into()))
    }

    /// Sets `default`: a string, number, boolean, or (for a multi-select) a list of values.
    /// `build` checks it against the property's own constraints.
    ///
    /// ```
    /// # use mcp_elicit_core::ErrorKind;
    /// # use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder};
    /// # use serde_json::json;
    /// let ok = PropertyBuilder::multi_select("days", ["mon", "tue"]).default(vec!["tue"]);
    /// let schema = SchemaBuilder::new().property(ok).build()?;
    /// assert_eq!(schema.property("days").unwrap().default_value(), Some(json!(["tue"])));
    ///
    /// let outside = PropertyBuilder::single_select("size", ["s", "m"]).default("xl");
    /// let err = SchemaBuilder::new().property(outside).build().unwrap_err();
    /// assert_eq!(err.first().kind(), ErrorKind::InvalidDefault);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn default(self, value: impl Into<Value>) -> Self {
        self.member("default", value)
    }

    /// Sets `minLength` (strings), in code points.
    ///
    /// ```
    /// # use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder};
    /// # use mcp_elicit_core::validate::validate;
    /// # use serde_json::json;
    /// let p = PropertyBuilder::string("code").min_length(2).max_length(4);
    /// let schema = SchemaBuilder::new().property(p).build()?;
    /// assert!(validate(&schema, &json!({"code": "abc"})).is_ok());
    /// assert!(validate(&schema, &json!({"code": "a"})).is_err());
    /// assert!(validate(&schema, &json!({"code": "abcde"})).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn min_length(self, n: u64) -> Self {
        self.member("minLength", n)
    }

    /// Sets `maxLength` (strings), in code points.
    pub fn max_length(self, n: u64) -> Self {
        self.member("maxLength", n)
    }

    /// Sets `pattern` (strings): an ECMA-262 regular expression, unanchored (write
    /// `^...$` to match the whole value). An invalid pattern fails `build`.
    ///
    /// ```
    /// # use mcp_elicit_core::ErrorKind;
    /// # use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder};
    /// # use mcp_elicit_core::validate::validate;
    /// # use serde_json::json;
    /// let p = PropertyBuilder::string("zip").pattern("^[0-9]{5}$");
    /// let schema = SchemaBuilder::new().property(p).build()?;
    /// assert!(validate(&schema, &json!({"zip": "12345"})).is_ok());
    /// assert!(validate(&schema, &json!({"zip": "x12345"})).is_err());
    ///
    /// let bad = SchemaBuilder::new().property(PropertyBuilder::string("z").pattern("[a-"));
    /// assert_eq!(bad.build().unwrap_err().first().kind(), ErrorKind::InvalidPattern);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn pattern(self, pattern: impl Into<String>) -> Self {
        self.member("pattern", Value::String(pattern.into()))
    }

    /// Sets `format` (strings).
    ///
    /// ```
    /// # use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder, StringFormat};
    /// # use mcp_elicit_core::validate::validate;
    /// # use serde_json::json;
    /// let p = PropertyBuilder::string("day").format(StringFormat::Date);
    /// let schema = SchemaBuilder::new().property(p).build()?;
    /// assert!(validate(&schema, &json!({"day": "2024-02-29"})).is_ok());
    /// assert!(validate(&schema, &json!({"day": "2023-02-29"})).is_err()); // not a leap year
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn format(self, format: StringFormat) -> Self {
        self.member("format", Value::String(format.as_str().into()))
    }

    /// Sets `minimum` (numbers and integers), inclusive. Integers and floats are both
    /// accepted (`.minimum(18)`, `.minimum(0.5)`); a NaN or infinity fails `build`.
    ///
    /// ```
    /// # use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder};
    /// # use mcp_elicit_core::validate::validate;
    /// # use serde_json::json;
    /// let p = PropertyBuilder::number("ratio").minimum(0.5).maximum(1);
    /// let schema = SchemaBuilder::new().property(p).build()?;
    /// assert!(validate(&schema, &json!({"ratio": 1})).is_ok()); // inclusive
    /// assert!(validate(&schema, &json!({"ratio": 0.25})).is_err());
    ///
    /// let nan = SchemaBuilder::new().property(PropertyBuilder::number("x").minimum(f64::NAN));
    /// assert!(nan.build().is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn minimum(self, n: impl Into<Value>) -> Self {
        self.member("minimum", n)
    }

    /// Sets `maximum` (numbers and integers), inclusive.
    pub fn maximum(self, n: impl Into<Value>) -> Self {
        self.member("maximum", n)
    }

    /// Sets `minItems` (multi-selects). More than the number of options fails `build`.
    ///
    /// ```
    /// # use mcp_elicit_core::ErrorKind;
    /// # use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder};
    /// let p = PropertyBuilder::multi_select("pick", ["a", "b"]).min_items(3);
    /// let err = SchemaBuilder::new().property(p).build().unwrap_err();
    /// assert_eq!(err.first().kind(), ErrorKind::ContradictoryBounds);
    /// ```
    pub fn min_items(self, n: u64) -> Self {
        self.member("minItems", n)
    }

    /// Sets `maxItems` (multi-selects).
    pub fn max_items(self, n: u64) -> Self {
        self.member("maxItems", n)
    }

    /// Adds a member outside the modelled keywords: an `x-` vendor key or a `$comment`
    /// (anything else fails `build` as an unsupported keyword).
    ///
    /// ```
    /// # use mcp_elicit_core::ErrorKind;
    /// # use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder};
    /// let p = PropertyBuilder::string("nick").extension("x-widget", "short-text");
    /// let schema = SchemaBuilder::new().property(p).build()?;
    /// assert_eq!(schema.property("nick").unwrap().extensions()["x-widget"], "short-text");
    ///
    /// let p = PropertyBuilder::string("nick").extension("examples", "Ada");
    /// let err = SchemaBuilder::new().property(p).build().unwrap_err();
    /// assert_eq!(err.first().kind(), ErrorKind::UnsupportedKeyword);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn extension(self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        let key = key.into();
        self.member(&key, value)
    }
}

fn string_array<V: Into<String>>(values: impl IntoIterator<Item = V>) -> Value {
    Value::Array(
        values
            .into_iter()
            .map(|v| Value::String(v.into()))
            .collect(),
    )
}

fn const_titles<V: Into<String>, T: Into<String>>(
    options: impl IntoIterator<Item = (V, T)>,
) -> Value {
    Value::Array(
        options
            .into_iter()
            .map(|(v, t)| {
                let mut entry = Map::new();
                entry.insert("const".into(), Value::String(v.into()));
                entry.insert("title".into(), Value::String(t.into()));
                Value::Object(entry)
            })
            .collect(),
    )
}
