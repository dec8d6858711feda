//! Reading one JSON document from a file or from standard input, with errors that name
//! the file and say where it went wrong.

use std::collections::HashSet;
use std::fmt;
use std::io::Read;
use std::path::Path;

use serde::Deserializer as _;
use serde::de::{self, Deserialize, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// Larger inputs are refused: no schema or form response is anywhere near this size.
pub(crate) const MAX_INPUT_BYTES: u64 = 16 * 1024 * 1024;

/// The name used for standard input in messages.
pub(crate) const STDIN_NAME: &str = "<stdin>";

/// Why an input could not be read as JSON. `Display` gives a complete sentence naming
/// the file.
#[derive(Debug)]
pub(crate) struct InputError {
    file: String,
    problem: String,
}

impl InputError {
    /// The file, as named on the command line (or [`STDIN_NAME`]).
    pub(crate) fn file(&self) -> &str {
        &self.file
    }

    /// What went wrong, without the file name.
    pub(crate) fn problem(&self) -> &str {
        &self.problem
    }

    /// `{"file": ..., "message": ...}` for JSON output.
    pub(crate) fn to_json(&self) -> serde_json::Value {
        serde_json::json!({"file": self.file, "message": self.problem})
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.problem)
    }
}

/// A JSON document and where it came from.
#[derive(Debug)]
pub(crate) struct Document {
    /// The path as given, or [`STDIN_NAME`].
    pub(crate) name: String,
    /// The parsed document.
    pub(crate) value: Value,
}

/// The display name of `path` (`-` is standard input).
pub(crate) fn display_name(path: &Path) -> String {
    if is_stdin(path) {
        STDIN_NAME.to_owned()
    } else {
        path.display().to_string()
    }
}

/// Whether `path` is `-`, standard input.
pub(crate) fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Reads and parses `path` (`-` for standard input): UTF-8 (a leading byte order mark is
/// skipped), well-formed JSON, no object with the same key twice, at most
/// [`MAX_INPUT_BYTES`].
pub(crate) fn read_json(path: &Path) -> Result<Document, InputError> {
    let name = display_name(path);
    let fail = |problem: String| InputError {
        file: name.clone(),
        problem,
    };
    let mut bytes = Vec::new();
    let read = if is_stdin(path) {
        std::io::stdin()
            .lock()
            .take(MAX_INPUT_BYTES + 1)
            .read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|f| f.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes))
    };
    if let Err(e) = read {
        return Err(fail(format!("cannot read: {e}")));
    }
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(fail(format!(
            "larger than the limit of {MAX_INPUT_BYTES} bytes"
        )));
    }
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            return Err(fail(format!(
                "not valid UTF-8 text (invalid byte at offset {at})"
            )));
        }
    };
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
    let value: Value =
        serde_json::from_str(text).map_err(|e| fail(format!("malformed JSON: {e}")))?;
    let mut scan = serde_json::Deserializer::from_str(text);
    scan.deserialize_any(DuplicateKeyScan).map_err(|e| {
        fail(format!(
            "ambiguous JSON (parsers disagree on which value wins): {e}"
        ))
    })?;
    Ok(Document { name, value })
}

/// Walks a JSON document and fails on the first object that has a key twice.
struct DuplicateKeyScan;

impl<'de> Deserialize<'de> for DuplicateKeyScan {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(DuplicateKeyScan)?;
        Ok(DuplicateKeyScan)
    }
}

impl<'de> Visitor<'de> for DuplicateKeyScan {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element::<DuplicateKeyScan>()?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            map.next_value::<DuplicateKeyScan>()?;
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format!(
                    "the key {key:?} appears twice in one object"
                )));
            }
        }
        Ok(())
    }
}
