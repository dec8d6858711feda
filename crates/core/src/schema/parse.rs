//! Parsing raw JSON into a checked [`Schema`].
//!
//! The parser walks the whole document and reports every problem it finds (up to
//! [`ParseLimits::max_errors`]), each with the JSON pointer of the offending member and
//! an [`ErrorKind`] naming the rule. Property-level rules live in `parse_property.rs`
//! (string, number, boolean) and `parse_select.rs` (single- and multi-select).

use serde_json::{Map, Number, Value};

use crate::error::{Error, ErrorKind, Errors, pointer_token};
use crate::schema::{Count, NoticeKind, Schema, SchemaNotice};

/// Size limits applied while parsing untrusted schemas. Anything over a limit is
/// reported as [`ErrorKind::TooLarge`] and not examined further.
///
/// The struct is `#[non_exhaustive]`: start from [`ParseLimits::default`] and change the
/// fields you need.
///
/// ```
/// use mcp_elicit_core::schema::ParseLimits;
/// use mcp_elicit_core::{ErrorKind, Schema};
/// use serde_json::json;
///
/// let mut limits = ParseLimits::default();
/// assert_eq!(limits.max_properties, 256);
/// limits.max_properties = 1;
/// let two = json!({"type": "object", "properties": {
///     "a": {"type": "string"}, "b": {"type": "string"}}});
/// let err = Schema::parse_with_limits(&two, &limits).unwrap_err();
/// assert_eq!(err.first().kind(), ErrorKind::TooLarge);
/// assert_eq!(err.first().pointer(), "/properties");
/// assert!(Schema::parse(&two).is_ok());
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ParseLimits {
    /// Most properties a schema may have (also bounds the `required` list).
    pub max_properties: usize,
    /// Most options an enum may have (also bounds a multi-select default).
    pub max_enum_options: usize,
    /// Longest string (title, description, default, option, property name) in bytes.
    pub max_string_bytes: usize,
    /// Longest `pattern` source in bytes.
    pub max_pattern_bytes: usize,
    /// Most memory the linear-time automata of all of a schema's `pattern`s may take,
    /// in bytes (building them costs time in proportion, about 25 ms for 4 MB). A
    /// pattern past the budget still compiles, but runs on the bounded backtracking
    /// engine: values too long for it are reported as unchecked.
    pub max_pattern_automata_bytes: usize,
    /// Longest JSON text [`Schema::from_json_str`] accepts, in bytes.
    pub max_document_bytes: usize,
    /// Most errors reported; parsing stops collecting after this many (the last one
    /// says so).
    pub max_errors: usize,
}

impl Default for ParseLimits {
    fn default() -> Self {
        Self {
            max_properties: 256,
            max_enum_options: 1024,
            max_string_bytes: 16 * 1024,
            max_pattern_bytes: 1024,
            max_pattern_automata_bytes: 32 << 20,
            max_document_bytes: 1024 * 1024,
            max_errors: 100,
        }
    }
}

impl Schema {
    /// Parses and checks a `requestedSchema` with the default [`ParseLimits`].
    ///
    /// Strict: anything outside the subset is an error (see [`ErrorKind`]), and every
    /// problem is reported at once. A client reading a schema it received may prefer the
    /// tolerant [`Schema::parse_received`].
    ///
    /// ```
    /// use mcp_elicit_core::schema::PropertyKind;
    /// use mcp_elicit_core::{ErrorKind, Schema};
    /// use serde_json::json;
    ///
    /// let schema = Schema::parse(&json!({
    ///     "type": "object",
    ///     "properties": {"age": {"type": "integer", "minimum": 0}},
    ///     "required": ["age"]
    /// }))?;
    /// let age = schema.property("age").unwrap();
    /// assert!(age.is_required());
    /// assert!(matches!(age.kind(), PropertyKind::Number(n) if n.is_integer()));
    ///
    /// let errors = Schema::parse(&json!({"type": "object", "properties": {
    ///     "a": {"type": "string", "maxLength": 1, "minLength": 2},
    ///     "b": {"type": "string", "$ref": "#/$defs/b"}
    /// }})).unwrap_err();
    /// let kinds: Vec<ErrorKind> = errors.as_slice().iter().map(|e| e.kind()).collect();
    /// assert_eq!(kinds, [ErrorKind::ContradictoryBounds, ErrorKind::UnsupportedKeyword]);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn parse(value: &Value) -> Result<Schema, Errors> {
        Self::parse_with_limits(value, &ParseLimits::default())
    }

    /// Parses and checks a `requestedSchema`, reporting every problem found (up to
    /// [`ParseLimits::max_errors`]).
    ///
    /// ```
    /// use mcp_elicit_core::schema::ParseLimits;
    /// use mcp_elicit_core::{ErrorKind, Schema};
    /// use serde_json::json;
    ///
    /// let mut limits = ParseLimits::default();
    /// limits.max_string_bytes = 8;
    /// let schema = json!({"type": "object", "title": "A rather long title", "properties": {}});
    /// let err = Schema::parse_with_limits(&schema, &limits).unwrap_err();
    /// assert_eq!(err.first().kind(), ErrorKind::TooLarge);
    /// assert_eq!(err.first().pointer(), "/title");
    /// ```
    pub fn parse_with_limits(value: &Value, limits: &ParseLimits) -> Result<Schema, Errors> {
        let mut cx = Ctx::new(limits);
        let schema = parse_schema(&mut cx, value);
        if let Some(errors) = Errors::from_vec(cx.errors) {
            return Err(errors);
        }
        schema.ok_or_else(|| {
            Errors::from(Error::new(
                ErrorKind::NotAnObjectSchema,
                "",
                "not a requestedSchema",
            ))
        })
    }

    /// Parses JSON text, then the schema, with the default [`ParseLimits`]. Malformed
    /// JSON gives [`ErrorKind::InvalidJson`] with the line and column.
    ///
    /// ```
    /// use mcp_elicit_core::{ErrorKind, Schema};
    ///
    /// let schema = Schema::from_json_str(r#"{"type": "object", "properties": {
    ///     "color": {"type": "string", "enum": ["red", "green"]}}}"#)?;
    /// assert_eq!(schema.properties().len(), 1);
    ///
    /// let err = Schema::from_json_str("{\"type\": \"object\",\n \"properties\": }").unwrap_err();
    /// assert_eq!(err.first().kind(), ErrorKind::InvalidJson);
    /// assert!(err.first().message().starts_with("malformed JSON at line 2, column 16"));
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn from_json_str(text: &str) -> Result<Schema, Errors> {
        Self::from_json_str_with_limits(text, &ParseLimits::default())
    }

    /// Parses JSON text, then the schema, with the given limits. A text longer than
    /// [`ParseLimits::max_document_bytes`] is refused before it is parsed.
    ///
    /// ```
    /// use mcp_elicit_core::schema::ParseLimits;
    /// use mcp_elicit_core::{ErrorKind, Schema};
    ///
    /// let mut limits = ParseLimits::default();
    /// limits.max_document_bytes = 16;
    /// let text = r#"{"type": "object", "properties": {}}"#;
    /// let err = Schema::from_json_str_with_limits(text, &limits).unwrap_err();
    /// assert_eq!(err.first().kind(), ErrorKind::TooLarge);
    /// assert!(Schema::from_json_str(text).is_ok());
    /// ```
    pub fn from_json_str_with_limits(text: &str, limits: &ParseLimits) -> Result<Schema, Errors> {
        if text.len() > limits.max_document_bytes {
            return Err(Error::new(
                ErrorKind::TooLarge,
                "",
                format!(
                    "the schema text is {} bytes, over the limit of {} bytes",
                    text.len(),
                    limits.max_document_bytes
                ),
            )
            .into());
        }
        let value: Value = serde_json::from_str(text).map_err(|e| {
            Error::new(
                ErrorKind::InvalidJson,
                "",
                format!(
                    "malformed JSON at line {}, column {}: {}",
                    e.line(),
                    e.column(),
                    json_error_reason(&e)
                ),
            )
        })?;
        Self::parse_with_limits(&value, limits)
    }
}

/// serde_json's message without its trailing " at line L column C" (we say it ourselves).
fn json_error_reason(e: &serde_json::Error) -> String {
    let full = e.to_string();
    match full.rfind(" at line ") {
        Some(i) => full.get(..i).unwrap_or(&full).to_owned(),
        None => full,
    }
}

/// The parser's state: the limits, the errors found so far and, for a tolerant reading
/// (`tolerant.rs`), the notices and what it needs to resolve references.
pub(crate) struct Ctx<'l> {
    pub(crate) limits: &'l ParseLimits,
    pub(crate) errors: Vec<Error>,
    /// What is left of [`ParseLimits::max_pattern_automata_bytes`].
    pub(crate) automata_budget: usize,
    /// A tolerant reading: [`soft`](Self::soft) problems become notices.
    pub(crate) tolerant: bool,
    /// Set when a tolerant reading used anything beyond the subset.
    pub(crate) beyond: bool,
    /// The tolerant reading's notices.
    pub(crate) notices: Vec<SchemaNotice>,
    /// `$defs` / `definitions` of the document, for local `$ref`s (tolerant only).
    pub(crate) defs: Map<String, Value>,
    /// How deep a tolerant reading is in references and `anyOf`s.
    pub(crate) depth: usize,
    /// How many property schemas a tolerant reading has examined.
    pub(crate) visits: usize,
}

impl<'l> Ctx<'l> {
    pub(crate) fn new(limits: &'l ParseLimits) -> Self {
        Self {
            limits,
            errors: Vec::new(),
            automata_budget: limits.max_pattern_automata_bytes,
            tolerant: false,
            beyond: false,
            notices: Vec::new(),
            defs: Map::new(),
            depth: 0,
            visits: 0,
        }
    }

    /// Errors and notices so far: a section that adds to either found a problem.
    pub(crate) fn problems(&self) -> usize {
        self.errors.len() + self.notices.len()
    }

    /// A problem a tolerant reading can live with (the offending part is dropped): an
    /// error for the strict parser, a notice for the tolerant one.
    pub(crate) fn soft(&mut self, kind: ErrorKind, pointer: &str, message: impl Into<String>) {
        if !self.tolerant {
            self.error(kind, pointer, message);
            return;
        }
        let notice = match kind {
            ErrorKind::UnsupportedKeyword => NoticeKind::IgnoredKeyword,
            ErrorKind::UnsupportedFormat => NoticeKind::UncheckedFormat,
            ErrorKind::InvalidPattern => NoticeKind::UncheckedPattern,
            ErrorKind::InvalidDefault => NoticeKind::DefaultDropped,
            ErrorKind::ContradictoryBounds => NoticeKind::ContradictoryBounds,
            ErrorKind::UnknownRequired => NoticeKind::UnknownRequired,
            _ => NoticeKind::MalformedKeyword,
        };
        self.notice(notice, pointer, message);
    }

    /// Records an error (until `max_errors`, then one last note).
    pub(crate) fn error(&mut self, kind: ErrorKind, pointer: &str, message: impl Into<String>) {
        let max = self.limits.max_errors.max(1);
        if self.errors.len() + 1 < max {
            self.errors.push(Error::new(kind, pointer, message));
        } else if self.errors.len() + 1 == max {
            self.errors.push(Error::new(
                ErrorKind::TooLarge,
                "",
                format!("too many problems: stopped reporting after {}", max - 1),
            ));
        }
    }

    /// Checks a string against `max_string_bytes`; records `TooLarge` at `pointer`.
    pub(crate) fn check_size(&mut self, s: &str, pointer: &str) -> bool {
        if s.len() > self.limits.max_string_bytes {
            self.error(
                ErrorKind::TooLarge,
                pointer,
                format!(
                    "string of {} bytes, over the limit of {} bytes",
                    s.len(),
                    self.limits.max_string_bytes
                ),
            );
            false
        } else {
            true
        }
    }

    /// An optional string member (`title`, `description`, `$schema`).
    pub(crate) fn opt_string(
        &mut self,
        obj: &Map<String, Value>,
        key: &str,
        base: &str,
    ) -> Option<String> {
        let value = obj.get(key)?;
        let at = join(base, key);
        match value {
            Value::String(s) => self.check_size(s, &at).then(|| s.clone()),
            other => {
                self.soft(
                    ErrorKind::InvalidValue,
                    &at,
                    format!("`{key}` must be a string, not {}", describe(other)),
                );
                None
            }
        }
    }

    /// An optional non-negative integer member (`minLength`, `maxItems`...). JSON
    /// Schema counts an integral float (`2.0`) as an integer; its spelling is kept.
    pub(crate) fn opt_count(
        &mut self,
        obj: &Map<String, Value>,
        key: &str,
        base: &str,
    ) -> Option<Count> {
        let value = obj.get(key)?;
        match value.as_number().and_then(Count::from_number) {
            Some(count) => Some(count),
            None => {
                self.soft(
                    ErrorKind::InvalidValue,
                    &join(base, key),
                    format!(
                        "`{key}` must be a non-negative integer, not {}",
                        describe(value)
                    ),
                );
                None
            }
        }
    }

    /// An optional number member (`minimum`, `maximum`).
    pub(crate) fn opt_number(
        &mut self,
        obj: &Map<String, Value>,
        key: &str,
        base: &str,
    ) -> Option<Number> {
        let value = obj.get(key)?;
        match value {
            Value::Number(n) if super::number::is_finite(n) => Some(n.clone()),
            other => {
                self.soft(
                    ErrorKind::InvalidValue,
                    &join(base, key),
                    format!("`{key}` must be a finite number, not {}", describe(other)),
                );
                None
            }
        }
    }

    /// Sorts a member outside a kind's keywords: `$comment` and `x-` vendor keys go to
    /// `extensions`, anything else is an unsupported keyword.
    pub(crate) fn extra_member(
        &mut self,
        key: &str,
        value: &Value,
        base: &str,
        what: &str,
        extensions: &mut Map<String, Value>,
    ) {
        let at = join(base, key);
        if key == "$comment" {
            match value {
                Value::String(s) => {
                    if self.check_size(s, &at) {
                        extensions.insert(key.to_owned(), value.clone());
                    }
                }
                other => self.error(
                    ErrorKind::InvalidValue,
                    &at,
                    format!("`$comment` must be a string, not {}", describe(other)),
                ),
            }
        } else if key.starts_with("x-") {
            extensions.insert(key.to_owned(), value.clone());
        } else {
            let hint = match key {
                "$ref" | "$defs" | "definitions" | "allOf" | "not" | "if" | "then" | "else" => {
                    "; the subset is a flat object of primitive properties without references or combinators"
                }
                _ => "",
            };
            self.error(
                ErrorKind::UnsupportedKeyword,
                &at,
                format!("keyword `{key}` is not supported in {what} of the elicitation schema subset{hint}"),
            );
        }
    }
}

/// `base` + `/` + the escaped token.
pub(crate) fn join(base: &str, token: &str) -> String {
    format!("{base}/{}", pointer_token(token))
}

/// A short description of a JSON value's type for messages.
pub(crate) fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

const TOP_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "title",
    "description",
    "$schema",
];

pub(crate) fn parse_schema(cx: &mut Ctx<'_>, value: &Value) -> Option<Schema> {
    let Some(obj) = value.as_object() else {
        cx.error(
            ErrorKind::NotAnObjectSchema,
            "",
            format!(
                "a requestedSchema must be a JSON object, not {}",
                describe(value)
            ),
        );
        return None;
    };
    match obj.get("type") {
        Some(Value::String(t)) if t == "object" => {}
        None if cx.tolerant && obj.get("properties").is_some_and(Value::is_object) => cx.notice(
            NoticeKind::InferredType,
            "",
            "the form has no `\"type\": \"object\"`; read as an object",
        ),
        None => cx.error(
            ErrorKind::NotAnObjectSchema,
            "",
            "missing `\"type\": \"object\"`",
        ),
        Some(other) => cx.error(
            ErrorKind::NotAnObjectSchema,
            "/type",
            format!(
                "the top-level `type` must be \"object\", not {}",
                show(other)
            ),
        ),
    }
    let title = cx.opt_string(obj, "title", "");
    let description = cx.opt_string(obj, "description", "");
    let dialect = cx.opt_string(obj, "$schema", "");

    let mut extensions = Map::new();
    for (key, member) in obj {
        if TOP_KEYWORDS.contains(&key.as_str()) {
            continue;
        }
        if key == "additionalProperties" {
            if cx.tolerant && member != &Value::Bool(false) {
                // Harmless: an answer never carries fields the form does not show.
                cx.beyond = true;
            } else if member == &Value::Bool(false) {
                extensions.insert(key.clone(), member.clone());
            } else {
                cx.error(
                    ErrorKind::UnsupportedKeyword,
                    "/additionalProperties",
                    "only `\"additionalProperties\": false` is supported",
                );
            }
            continue;
        }
        if cx.tolerant {
            super::tolerant::top_member(cx, key, member, &mut extensions);
            continue;
        }
        cx.extra_member(key, member, "", "the top level", &mut extensions);
    }

    let mut properties = Vec::new();
    let mut have_properties = false;
    match obj.get("properties") {
        None => cx.soft(ErrorKind::InvalidValue, "", "missing `properties`"),
        Some(Value::Object(props)) => {
            if props.len() > cx.limits.max_properties {
                cx.error(
                    ErrorKind::TooLarge,
                    "/properties",
                    format!(
                        "{} properties, over the limit of {}",
                        props.len(),
                        cx.limits.max_properties
                    ),
                );
            } else {
                have_properties = true;
                for (name, prop) in props {
                    let at = join("/properties", name);
                    if !cx.check_size(name, &at) {
                        continue;
                    }
                    if let Some(p) = super::parse_property::parse_property(cx, name, prop, &at) {
                        properties.push(p);
                    }
                }
            }
        }
        Some(other) => cx.error(
            ErrorKind::InvalidValue,
            "/properties",
            format!("`properties` must be an object, not {}", describe(other)),
        ),
    }

    let mut required: Vec<String> = Vec::new();
    match obj.get("required") {
        None => {}
        Some(Value::Array(names)) if names.len() > cx.limits.max_properties => cx.error(
            ErrorKind::TooLarge,
            "/required",
            format!(
                "{} required names, over the limit of {}",
                names.len(),
                cx.limits.max_properties
            ),
        ),
        Some(Value::Array(names)) => {
            let defined = obj.get("properties").and_then(Value::as_object);
            for (i, name) in names.iter().enumerate() {
                let at = format!("/required/{i}");
                let Value::String(name) = name else {
                    cx.soft(
                        ErrorKind::InvalidValue,
                        &at,
                        format!("`required` entries must be strings, not {}", describe(name)),
                    );
                    continue;
                };
                if required.contains(name) {
                    cx.soft(
                        ErrorKind::InvalidValue,
                        &at,
                        format!("\"{name}\" is listed twice in `required`"),
                    );
                    continue;
                }
                if have_properties && !defined.is_some_and(|d| d.contains_key(name)) {
                    cx.soft(
                        ErrorKind::UnknownRequired,
                        &at,
                        format!("`required` names \"{name}\", which is not a property"),
                    );
                    if cx.tolerant {
                        continue;
                    }
                }
                required.push(name.clone());
            }
        }
        Some(other) => cx.error(
            ErrorKind::InvalidValue,
            "/required",
            format!(
                "`required` must be an array of property names, not {}",
                describe(other)
            ),
        ),
    }
    for p in &mut properties {
        p.required = required.contains(&p.name);
    }

    let required_listed = obj.contains_key("required");
    Some(Schema {
        title,
        description,
        dialect,
        properties,
        required,
        required_listed,
        extensions,
        reading: None,
        lint: Default::default(),
    })
}

/// A JSON value shown in a message, shortened.
pub(crate) fn show(value: &Value) -> String {
    let mut s = value.to_string();
    if s.len() > 60 {
        let mut end = 57;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
        s.push_str("...");
    }
    s
}
