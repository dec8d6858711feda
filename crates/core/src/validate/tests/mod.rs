//! Unit tests of [`validate`](super::validate) and [`apply_defaults`](super::apply_defaults),
//! one group per rule, on schemas built directly from the model.

mod api;
mod content;
mod defaults;
mod numbers;
mod selects;
mod strings;

use serde_json::{Map, Value};

use super::*;
use crate::schema::{
    Count, EnumOption, MultiSelectSpec, MultiSelectStyle, NumberSpec, Pattern, Property,
    PropertyKind, SingleSelectSpec, SingleSelectStyle, StringSpec,
};

pub(super) fn prop(name: &str, required: bool, kind: PropertyKind) -> Property {
    Property {
        name: name.to_owned(),
        title: None,
        description: None,
        required,
        kind,
        extensions: Map::new(),
        extras: None,
    }
}

pub(super) fn schema(properties: Vec<Property>) -> Schema {
    let required = properties
        .iter()
        .filter(|p| p.required)
        .map(|p| p.name.clone())
        .collect();
    Schema {
        title: None,
        description: None,
        dialect: None,
        properties,
        required,
        required_listed: true,
        extensions: Map::new(),
        reading: None,
        lint: Default::default(),
    }
}

/// A pattern through the crate's one constructor (the parser's), so tests see the
/// engine choice and refusals real schemas get.
pub(super) fn pattern(source: &str) -> Pattern {
    Pattern::compile(source).unwrap_or_else(|why| panic!("{source}: {why}"))
}

pub(super) fn string_kind(f: impl FnOnce(&mut StringSpec)) -> PropertyKind {
    let mut spec = <StringSpec as Default>::default();
    f(&mut spec);
    PropertyKind::String(spec)
}

pub(super) fn number_kind(
    integer: bool,
    minimum: Option<Value>,
    maximum: Option<Value>,
) -> PropertyKind {
    let as_number = |v: Value| match v {
        Value::Number(n) => n,
        other => panic!("not a number: {other}"),
    };
    PropertyKind::Number(NumberSpec {
        integer,
        minimum: minimum.map(as_number),
        maximum: maximum.map(as_number),
        default: None,
    })
}

pub(super) fn options(values: &[&str]) -> Vec<EnumOption> {
    values
        .iter()
        .map(|v| EnumOption {
            value: (*v).to_owned(),
            title: None,
        })
        .collect()
}

pub(super) fn single(values: &[&str]) -> PropertyKind {
    PropertyKind::SingleSelect(SingleSelectSpec {
        style: SingleSelectStyle::Untitled,
        options: options(values),
        default: None,
    })
}

pub(super) fn multi(
    values: &[&str],
    min_items: Option<u64>,
    max_items: Option<u64>,
) -> PropertyKind {
    PropertyKind::MultiSelect(MultiSelectSpec {
        style: MultiSelectStyle::Untitled,
        options: options(values),
        min_items: min_items.map(Count::new),
        max_items: max_items.map(Count::new),
        default: None,
    })
}

/// The (property, code) pairs of a failed validation; empty when it passed.
pub(super) fn codes(schema: &Schema, content: &Value) -> Vec<(Option<String>, ViolationCode)> {
    match validate(schema, content) {
        Ok(()) => Vec::new(),
        Err(v) => v
            .iter()
            .map(|v| (v.property().map(str::to_owned), v.code()))
            .collect(),
    }
}

pub(super) fn one(property: &str, code: ViolationCode) -> Vec<(Option<String>, ViolationCode)> {
    vec![(Some(property.to_owned()), code)]
}

pub(super) fn messages(schema: &Schema, content: &Value) -> Vec<String> {
    match validate(schema, content) {
        Ok(()) => Vec::new(),
        Err(v) => v.iter().map(|v| v.message().to_owned()).collect(),
    }
}
