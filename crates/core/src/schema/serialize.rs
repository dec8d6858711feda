//! Serializing a [`Schema`] back to JSON, keeping every field and the property order,
//! and the serde impls (`Serialize` through [`Schema::to_value`], `Deserialize` through
//! [`Schema::parse`]).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::model::{
    EnumOption, MultiSelectSpec, MultiSelectStyle, NumberSpec, Property, PropertyKind,
    SingleSelectSpec, SingleSelectStyle, StringSpec,
};
use crate::schema::Schema;

impl Schema {
    /// The schema as JSON: `to_value(parse(x)) == x` up to key order inside an object
    /// (property order is kept).
    ///
    /// A schema read beyond the subset by [`Schema::parse_received`] gives back the JSON
    /// exactly as received.
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use serde_json::json;
    /// let json = json!({"type": "object", "properties": {
    ///     "n": {"type": "integer", "maximum": 2.0},
    ///     "tags": {"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}]}}
    /// }, "required": []});
    /// let schema = Schema::parse(&json)?;
    /// assert_eq!(schema.to_value(), json); // `2.0` and `"required": []` kept
    /// assert_eq!(serde_json::to_value(&schema).unwrap(), json);
    /// let back: Schema = serde_json::from_value(json.clone()).unwrap(); // checked as by `parse`
    /// assert_eq!(back.to_value(), json);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn to_value(&self) -> Value {
        if let Some(reading) = &self.reading {
            return reading.raw.clone();
        }
        let mut out = Map::new();
        if let Some(d) = &self.dialect {
            out.insert("$schema".into(), Value::String(d.clone()));
        }
        out.insert("type".into(), Value::String("object".into()));
        insert_opt_str(&mut out, "title", self.title.as_deref());
        insert_opt_str(&mut out, "description", self.description.as_deref());
        let properties: Map<String, Value> = self
            .properties
            .iter()
            .map(|p| (p.name.clone(), property_value(p)))
            .collect();
        out.insert("properties".into(), Value::Object(properties));
        if self.required_listed || !self.required.is_empty() {
            out.insert("required".into(), strings(&self.required));
        }
        for (k, v) in &self.extensions {
            out.insert(k.clone(), v.clone());
        }
        Value::Object(out)
    }
}

fn property_value(p: &Property) -> Value {
    let mut out = Map::new();
    let type_name = match &p.kind {
        PropertyKind::String(_) | PropertyKind::SingleSelect(_) => "string",
        PropertyKind::Number(n) if n.integer => "integer",
        PropertyKind::Number(_) => "number",
        PropertyKind::Boolean(_) => "boolean",
        PropertyKind::MultiSelect(_) => "array",
        // Only a tolerant reading makes one, and it serializes as received.
        PropertyKind::Union(_) => "string",
    };
    out.insert("type".into(), Value::String(type_name.into()));
    insert_opt_str(&mut out, "title", p.title.as_deref());
    insert_opt_str(&mut out, "description", p.description.as_deref());
    match &p.kind {
        PropertyKind::String(s) => string_members(&mut out, s),
        PropertyKind::Number(n) => number_members(&mut out, n),
        PropertyKind::Boolean(_) | PropertyKind::Union(_) => {}
        PropertyKind::SingleSelect(s) => single_members(&mut out, s),
        PropertyKind::MultiSelect(m) => multi_members(&mut out, m),
    }
    if let Some(d) = p.default_value() {
        out.insert("default".into(), d);
    }
    for (k, v) in &p.extensions {
        out.insert(k.clone(), v.clone());
    }
    Value::Object(out)
}

fn string_members(out: &mut Map<String, Value>, s: &StringSpec) {
    if let Some(n) = &s.min_length {
        out.insert("minLength".into(), Value::Number(n.json.clone()));
    }
    if let Some(n) = &s.max_length {
        out.insert("maxLength".into(), Value::Number(n.json.clone()));
    }
    if let Some(p) = &s.pattern {
        out.insert("pattern".into(), Value::String(p.source.clone()));
    }
    if let Some(f) = s.format {
        out.insert("format".into(), Value::String(f.as_str().into()));
    }
}

fn number_members(out: &mut Map<String, Value>, n: &NumberSpec) {
    if let Some(m) = &n.minimum {
        out.insert("minimum".into(), Value::Number(m.clone()));
    }
    if let Some(m) = &n.maximum {
        out.insert("maximum".into(), Value::Number(m.clone()));
    }
}

fn single_members(out: &mut Map<String, Value>, s: &SingleSelectSpec) {
    match s.style {
        SingleSelectStyle::Untitled => {
            out.insert("enum".into(), values(&s.options));
        }
        SingleSelectStyle::LegacyEnumNames => {
            out.insert("enum".into(), values(&s.options));
            out.insert("enumNames".into(), titles(&s.options));
        }
        SingleSelectStyle::TitledOneOf => {
            out.insert("oneOf".into(), const_titles(&s.options));
        }
    }
}

fn multi_members(out: &mut Map<String, Value>, m: &MultiSelectSpec) {
    if let Some(n) = &m.min_items {
        out.insert("minItems".into(), Value::Number(n.json.clone()));
    }
    if let Some(n) = &m.max_items {
        out.insert("maxItems".into(), Value::Number(n.json.clone()));
    }
    let mut items = Map::new();
    match m.style {
        MultiSelectStyle::Untitled => {
            items.insert("type".into(), Value::String("string".into()));
            items.insert("enum".into(), values(&m.options));
        }
        MultiSelectStyle::TitledAnyOf => {
            items.insert("anyOf".into(), const_titles(&m.options));
        }
    }
    out.insert("items".into(), Value::Object(items));
}

fn insert_opt_str(out: &mut Map<String, Value>, key: &str, value: Option<&str>) {
    if let Some(v) = value {
        out.insert(key.into(), Value::String(v.into()));
    }
}

fn strings(list: &[String]) -> Value {
    Value::Array(list.iter().cloned().map(Value::String).collect())
}

fn values(options: &[EnumOption]) -> Value {
    Value::Array(
        options
            .iter()
            .map(|o| Value::String(o.value.clone()))
            .collect(),
    )
}

/// Option labels; an option without one (which titled styles never hold) shows its value.
fn titles(options: &[EnumOption]) -> Value {
    Value::Array(
        options
            .iter()
            .map(|o| Value::String(o.title.clone().unwrap_or_else(|| o.value.clone())))
            .collect(),
    )
}

fn const_titles(options: &[EnumOption]) -> Value {
    Value::Array(
        options
            .iter()
            .map(|o| {
                let mut entry = Map::new();
                entry.insert("const".into(), Value::String(o.value.clone()));
                entry.insert(
                    "title".into(),
                    Value::String(o.title.clone().unwrap_or_else(|| o.value.clone())),
                );
                Value::Object(entry)
            })
            .collect(),
    )
}

impl Serialize for Schema {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_value().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Schema {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Schema::parse(&value).map_err(serde::de::Error::custom)
    }
}

/// Two schemas are equal when they serialize to the same JSON (object member order
/// aside; property order is part of a schema's JSON only through `properties`' member
/// order, which this comparison ignores like any object's).
impl PartialEq for Schema {
    fn eq(&self, other: &Self) -> bool {
        self.to_value() == other.to_value()
    }
}

impl Eq for Schema {}
