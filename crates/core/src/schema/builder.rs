//! Building a [`Schema`] in code.

/// Builds a [`Schema`](crate::schema::Schema), checked on `build`.
#[derive(Debug, Default)]
pub struct SchemaBuilder {}

/// Builds one property for a [`SchemaBuilder`].
#[derive(Debug)]
pub struct PropertyBuilder {}
