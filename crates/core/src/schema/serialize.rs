//! Serializing a [`Schema`] back to JSON, keeping every field and the property order.

use serde_json::Value;

use crate::schema::Schema;

impl Schema {
    /// The schema as JSON: `serialize(parse(x)) == x` up to key order inside a property.
    pub fn to_value(&self) -> Value {
        todo!("schema serialization")
    }
}
