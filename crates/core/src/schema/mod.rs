//! The restricted `requestedSchema` of form-mode elicitation: model, parsing,
//! serialization, a builder, and (crate feature `schemars`) derivation from a Rust type.
//!
//! [`Schema::parse`] checks every rule of the subset and reports every problem at once
//! (see [`ErrorKind`](crate::ErrorKind) for the rules and [`ParseLimits`] for the size
//! bounds on untrusted input); [`Schema::to_value`] gives the JSON back unchanged;
//! [`SchemaBuilder`] builds a schema in code under the same checks. `pattern`s are
//! ECMA-262 with the `u` flag; see [`Pattern`] for how matches stay fast.

mod builder;
#[cfg(feature = "schemars")]
mod derive;
mod linear;
mod model;
pub(crate) mod number;
mod parse;
mod parse_property;
mod parse_select;
mod pattern;
mod received;
mod redos;
mod serialize;
mod tolerant;
mod tolerant_kinds;

pub use builder::{PropertyBuilder, SchemaBuilder};
pub(crate) use model::Count;
pub use model::{
    BooleanSpec, EnumOption, MultiSelectSpec, MultiSelectStyle, NumberSpec, Property, PropertyKind,
    Schema, SingleSelectSpec, SingleSelectStyle, StringFormat, StringSpec, option_index,
    option_json,
};
pub use parse::ParseLimits;
pub use pattern::Pattern;
pub(crate) use received::json_equal as received_json_equal;
pub use received::{Extras, NoticeKind, SchemaNotice, UnionSpec};
