//! The restricted `requestedSchema` of form-mode elicitation: model, parsing,
//! serialization and a builder.

mod builder;
mod model;
mod parse;
mod serialize;

pub use builder::{PropertyBuilder, SchemaBuilder};
pub use model::{
    BooleanSpec, EnumOption, MultiSelectSpec, MultiSelectStyle, NumberSpec, Pattern, Property,
    PropertyKind, Schema, SingleSelectSpec, SingleSelectStyle, StringFormat, StringSpec,
};
pub use parse::ParseLimits;
