//! `Schema::from_type` (crate feature `schemars`): flat structs map into the subset,
//! anything else is refused with the field named.
#![cfg(feature = "schemars")]
#![allow(dead_code)]

use std::collections::{BTreeMap, HashSet};

use mcp_elicit_core::schema::{MultiSelectStyle, PropertyKind, SingleSelectStyle, StringFormat};
use mcp_elicit_core::{ErrorKind, Schema};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

#[derive(JsonSchema, Deserialize, Hash, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Color {
    Red,
    Green,
    Blue,
}

#[derive(JsonSchema, Deserialize, Hash, PartialEq, Eq)]
enum Plan {
    /// Free plan
    Free,
    /// Paid plan
    Pro,
}

/// Contact details
#[derive(JsonSchema, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Contact {
    /// Your name
    #[schemars(length(min = 1, max = 50))]
    full_name: String,
    #[schemars(email)]
    email: Option<String>,
    #[schemars(range(min = 18, max = 130))]
    age: u32,
    score: f64,
    newsletter: bool,
    color: Color,
    second_color: Option<Color>,
    colors: Vec<Color>,
    unique_colors: HashSet<Color>,
    plan: Plan,
    #[schemars(regex(pattern = r"^\d+$"))]
    digits: String,
    #[serde(default = "five")]
    guests: i64,
}

fn five() -> i64 {
    5
}

#[test]
fn flat_struct_maps_into_the_subset() {
    let schema = Schema::from_type::<Contact>().expect("a flat struct");
    assert_eq!(schema.title(), Some("Contact"));
    assert_eq!(schema.description(), Some("Contact details"));
    let names: Vec<&str> = schema.properties().iter().map(|p| p.name()).collect();
    assert_eq!(
        names,
        [
            "fullName",
            "email",
            "age",
            "score",
            "newsletter",
            "color",
            "secondColor",
            "colors",
            "uniqueColors",
            "plan",
            "digits",
            "guests"
        ]
    );
    let required = |n: &str| schema.property(n).map(|p| p.is_required());
    assert_eq!(required("fullName"), Some(true));
    assert_eq!(required("email"), Some(false), "Option<T> is optional");
    assert_eq!(required("secondColor"), Some(false));
    assert_eq!(
        required("guests"),
        Some(false),
        "a serde default makes it optional"
    );

    let kind = |n: &str| schema.property(n).map(|p| p.kind().clone());
    let Some(PropertyKind::String(name)) = kind("fullName") else {
        panic!("string")
    };
    assert_eq!((name.min_length(), name.max_length()), (Some(1), Some(50)));
    assert_eq!(
        schema.property("fullName").and_then(|p| p.description()),
        Some("Your name")
    );
    let Some(PropertyKind::String(email)) = kind("email") else {
        panic!("string")
    };
    assert_eq!(email.format(), Some(StringFormat::Email));
    let Some(PropertyKind::Number(age)) = kind("age") else {
        panic!("number")
    };
    assert!(age.is_integer());
    assert_eq!(
        age.minimum().map(ToString::to_string).as_deref(),
        Some("18")
    );
    let Some(PropertyKind::Number(score)) = kind("score") else {
        panic!("number")
    };
    assert!(!score.is_integer());
    let Some(PropertyKind::SingleSelect(color)) = kind("secondColor") else {
        panic!("select")
    };
    assert_eq!(color.style(), SingleSelectStyle::Untitled);
    let values: Vec<&str> = color.options().iter().map(|o| o.value.as_str()).collect();
    assert_eq!(values, ["red", "green", "blue"], "no null option");
    let Some(PropertyKind::SingleSelect(plan)) = kind("plan") else {
        panic!("select")
    };
    assert_eq!(plan.style(), SingleSelectStyle::TitledOneOf);
    assert_eq!(plan.options()[1].title.as_deref(), Some("Paid plan"));
    for multi in ["colors", "uniqueColors"] {
        let Some(PropertyKind::MultiSelect(m)) = kind(multi) else {
            panic!("multi")
        };
        assert_eq!(m.style(), MultiSelectStyle::Untitled);
        assert_eq!(m.options().len(), 3);
    }
    let Some(PropertyKind::String(digits)) = kind("digits") else {
        panic!("string")
    };
    assert!(digits.pattern().is_some_and(|p| p.is_match("123")));
    assert_eq!(
        schema.property("guests").and_then(|p| p.default_value()),
        Some(json!(5))
    );
    // The derived schema is an ordinary one: it round-trips.
    assert_eq!(
        Schema::parse(&schema.to_value())
            .expect("re-parse")
            .to_value(),
        schema.to_value()
    );
}

#[derive(JsonSchema)]
struct Address {
    street: String,
}

#[derive(JsonSchema)]
struct WithNested {
    name: String,
    address: Address,
}

#[derive(JsonSchema)]
struct WithList {
    people: Vec<Address>,
}

#[derive(JsonSchema)]
struct WithMap {
    labels: BTreeMap<String, String>,
}

#[derive(JsonSchema)]
struct WithStrings {
    tags: Vec<String>,
}

#[test]
fn non_flat_types_are_refused_with_the_field_named() {
    let err = Schema::from_type::<WithNested>().expect_err("nested struct");
    assert_eq!(err.first().kind(), ErrorKind::NestedObject);
    assert_eq!(err.first().pointer(), "/properties/address");

    let err = Schema::from_type::<WithList>().expect_err("list of structs");
    assert_eq!(err.first().kind(), ErrorKind::UnsupportedArray);
    assert_eq!(err.first().pointer(), "/properties/people/items");

    let err = Schema::from_type::<WithMap>().expect_err("map");
    assert_eq!(err.first().kind(), ErrorKind::NestedObject);
    assert_eq!(err.first().pointer(), "/properties/labels");

    let err = Schema::from_type::<WithStrings>().expect_err("free strings");
    assert_eq!(err.first().kind(), ErrorKind::UnsupportedArray);

    let err = Schema::from_type::<String>().expect_err("not an object");
    assert_eq!(err.first().kind(), ErrorKind::NotAnObjectSchema);
}
