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
#[derive(Debug, Default, Clone)]
pub struct SchemaBuilder {
    title: Option<String>,
    description: Option<String>,
    dialect: Option<String>,
    properties: Vec<PropertyBuilder>,
    extensions: Map<String, Value>,
}

/// Builds one property for a [`SchemaBuilder`].
#[derive(Debug, Clone)]
pub struct PropertyBuilder {
    name: String,
    required: bool,
    /// The property's JSON members, in the order written.
    members: Map<String, Value>,
}

impl SchemaBuilder {
    /// An empty schema: `{"type": "object", "properties": {}}`.
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

    /// Sets `$schema` (the dialect URI).
    pub fn dialect(mut self, uri: impl Into<String>) -> Self {
        self.dialect = Some(uri.into());
        self
    }

    /// Adds a top-level member outside the modelled keywords: an `x-` vendor key, a
    /// `$comment`, or `additionalProperties: false` (anything else fails `build`).
    pub fn extension(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.extensions.insert(key.into(), value.into());
        self
    }

    /// Appends a property (order is kept).
    pub fn property(mut self, property: PropertyBuilder) -> Self {
        self.properties.push(property);
        self
    }

    /// The JSON this builder describes, unchecked.
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
    pub fn string(name: impl Into<String>) -> Self {
        Self::with_type(name, "string")
    }

    /// A number property (any JSON number).
    pub fn number(name: impl Into<String>) -> Self {
        Self::with_type(name, "number")
    }

    /// An integer property.
    pub fn integer(name: impl Into<String>) -> Self {
        Self::with_type(name, "integer")
    }

    /// A boolean property.
    pub fn boolean(name: impl Into<String>) -> Self {
        Self::with_type(name, "boolean")
    }

    /// A single-select whose options are shown as their values (`enum`).
    pub fn single_select<V: Into<String>>(
        name: impl Into<String>,
        values: impl IntoIterator<Item = V>,
    ) -> Self {
        Self::string(name).member("enum", string_array(values))
    }

    /// A single-select with a label per option (`oneOf` of `{const, title}`).
    pub fn titled_single_select<V: Into<String>, T: Into<String>>(
        name: impl Into<String>,
        options: impl IntoIterator<Item = (V, T)>,
    ) -> Self {
        Self::string(name).member("oneOf", const_titles(options))
    }

    /// A single-select in the legacy form: `enum` with a parallel `enumNames`. Prefer
    /// [`titled_single_select`](Self::titled_single_select); this exists for peers that
    /// only understand the old form.
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

    /// A multi-select whose options are shown as their values (`items.enum`).
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
    pub fn titled_multi_select<V: Into<String>, T: Into<String>>(
        name: impl Into<String>,
        options: impl IntoIterator<Item = (V, T)>,
    ) -> Self {
        let mut items = Map::new();
        items.insert("anyOf".into(), const_titles(options));
        Self::with_type(name, "array").member("items", items)
    }

    /// Lists the property in `required`.
    pub fn required(mut self) -> Self {
        self.required = true;
        self
    }

    /// Sets `title`, the label a client shows.
    pub fn title(self, title: impl Into<String>) -> Self {
        self.member("title", Value::String(title.into()))
    }

    /// Sets `description`.
    pub fn description(self, description: impl Into<String>) -> Self {
        self.member("description", Value::String(description.into()))
    }

    /// Sets `default`: a string, number, boolean, or (for a multi-select) a list of values.
    pub fn default(self, value: impl Into<Value>) -> Self {
        self.member("default", value)
    }

    /// Sets `minLength` (strings), in code points.
    pub fn min_length(self, n: u64) -> Self {
        self.member("minLength", n)
    }

    /// Sets `maxLength` (strings), in code points.
    pub fn max_length(self, n: u64) -> Self {
        self.member("maxLength", n)
    }

    /// Sets `pattern` (strings): an ECMA-262 regular expression, unanchored.
    pub fn pattern(self, pattern: impl Into<String>) -> Self {
        self.member("pattern", Value::String(pattern.into()))
    }

    /// Sets `format` (strings).
    pub fn format(self, format: StringFormat) -> Self {
        self.member("format", Value::String(format.as_str().into()))
    }

    /// Sets `minimum` (numbers and integers), inclusive. Integers and floats are both
    /// accepted (`.minimum(18)`, `.minimum(0.5)`); a NaN or infinity fails `build`.
    pub fn minimum(self, n: impl Into<Value>) -> Self {
        self.member("minimum", n)
    }

    /// Sets `maximum` (numbers and integers), inclusive.
    pub fn maximum(self, n: impl Into<Value>) -> Self {
        self.member("maximum", n)
    }

    /// Sets `minItems` (multi-selects).
    pub fn min_items(self, n: u64) -> Self {
        self.member("minItems", n)
    }

    /// Sets `maxItems` (multi-selects).
    pub fn max_items(self, n: u64) -> Self {
        self.member("maxItems", n)
    }

    /// Adds a member outside the modelled keywords: an `x-` vendor key or a `$comment`
    /// (anything else fails `build` as an unsupported keyword).
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
