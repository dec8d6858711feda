//! The builder API: fluent construction, checked by the same rules as parsing.

use mcp_elicit_core::schema::{
    MultiSelectStyle, PropertyBuilder, PropertyKind, SchemaBuilder, SingleSelectStyle, StringFormat,
};
use mcp_elicit_core::{ErrorKind, Schema};
use serde_json::json;

#[test]
fn builds_the_contact_example() {
    let schema = SchemaBuilder::new()
        .title("Contact")
        .property(
            PropertyBuilder::string("email")
                .title("Email")
                .format(StringFormat::Email)
                .required(),
        )
        .property(PropertyBuilder::integer("age").minimum(18))
        .build()
        .expect("valid");
    assert_eq!(
        schema.to_value(),
        json!({
            "type": "object",
            "title": "Contact",
            "properties": {
                "email": {"type": "string", "title": "Email", "format": "email"},
                "age": {"type": "integer", "minimum": 18}
            },
            "required": ["email"]
        })
    );
}

#[test]
fn every_constructor_gives_its_kind() {
    let schema = SchemaBuilder::new()
        .dialect("https://json-schema.org/draft/2020-12/schema")
        .description("All kinds")
        .extension("x-ui", json!({"columns": 2}))
        .extension("additionalProperties", false)
        .property(
            PropertyBuilder::string("name")
                .min_length(1)
                .max_length(20)
                .pattern("^[a-z]+$")
                .default("ann"),
        )
        .property(
            PropertyBuilder::number("score")
                .minimum(0.5)
                .maximum(9.5)
                .default(1.5),
        )
        .property(
            PropertyBuilder::boolean("ok")
                .default(true)
                .description("d"),
        )
        .property(PropertyBuilder::single_select("color", ["red", "green"]).default("red"))
        .property(PropertyBuilder::titled_single_select(
            "size",
            [("s", "Small"), ("l", "Large")],
        ))
        .property(PropertyBuilder::legacy_titled_single_select(
            "old",
            [("a", "A"), ("b", "B")],
        ))
        .property(
            PropertyBuilder::multi_select("tags", ["x", "y", "z"])
                .min_items(1)
                .max_items(2)
                .default(vec!["x"]),
        )
        .property(
            PropertyBuilder::titled_multi_select("pets", [("cat", "Cat"), ("dog", "Dog")])
                .extension("x-order", 1)
                .required(),
        )
        .build()
        .expect("valid");
    let kinds: Vec<&str> = schema
        .properties()
        .iter()
        .map(|p| match p.kind() {
            PropertyKind::String(_) => "string",
            PropertyKind::Number(_) => "number",
            PropertyKind::Boolean(_) => "boolean",
            PropertyKind::SingleSelect(s) => match s.style() {
                SingleSelectStyle::Untitled => "single",
                SingleSelectStyle::TitledOneOf => "titled-single",
                SingleSelectStyle::LegacyEnumNames => "legacy-single",
            },
            PropertyKind::MultiSelect(m) => match m.style() {
                MultiSelectStyle::Untitled => "multi",
                MultiSelectStyle::TitledAnyOf => "titled-multi",
            },
            _ => "other",
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "string",
            "number",
            "boolean",
            "single",
            "titled-single",
            "legacy-single",
            "multi",
            "titled-multi"
        ]
    );
    assert_eq!(schema.required(), ["pets"]);
    assert_eq!(schema.extensions().len(), 2);
    // What the builder built survives a trip through JSON.
    let again = Schema::parse(&schema.to_value()).expect("re-parse");
    assert_eq!(again.to_value(), schema.to_value());
}

#[test]
fn build_runs_the_parse_rules() {
    let err = SchemaBuilder::new()
        .property(PropertyBuilder::integer("age").minimum(18).maximum(10))
        .property(PropertyBuilder::number("n").min_length(3))
        .property(PropertyBuilder::single_select("c", ["a", "b"]).default("z"))
        .property(PropertyBuilder::string("p").pattern(r"(a+)+\1"))
        .property(PropertyBuilder::multi_select("m", Vec::<String>::new()))
        .property(PropertyBuilder::number("nan").minimum(f64::NAN))
        .build()
        .expect_err("invalid");
    let got: Vec<(ErrorKind, &str)> = err
        .as_slice()
        .iter()
        .map(|e| (e.kind(), e.pointer()))
        .collect();
    assert_eq!(
        got,
        [
            (ErrorKind::ContradictoryBounds, "/properties/age/minimum"),
            (ErrorKind::UnsupportedKeyword, "/properties/n/minLength"),
            (ErrorKind::InvalidDefault, "/properties/c/default"),
            (ErrorKind::InvalidPattern, "/properties/p/pattern"),
            (ErrorKind::InvalidEnum, "/properties/m/items/enum"),
            (ErrorKind::InvalidValue, "/properties/nan/minimum"),
        ]
    );
}

#[test]
fn duplicate_property_names_are_refused() {
    let err = SchemaBuilder::new()
        .property(PropertyBuilder::string("a"))
        .property(PropertyBuilder::integer("a"))
        .build()
        .expect_err("duplicate");
    assert_eq!(err.first().kind(), ErrorKind::InvalidValue);
    assert_eq!(err.first().pointer(), "/properties/a");
}

#[test]
fn unsupported_extensions_are_refused() {
    let err = SchemaBuilder::new()
        .extension("$defs", json!({}))
        .build()
        .expect_err("unsupported");
    assert_eq!(err.first().kind(), ErrorKind::UnsupportedKeyword);
    assert_eq!(err.first().pointer(), "/$defs");
}
