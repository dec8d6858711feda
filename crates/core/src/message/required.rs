//! The `data` of a `-32042` (`URLElicitationRequiredError`) JSON-RPC error.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind, Errors};
use crate::message::fields::{child, object, type_name};
use crate::message::request::serde_via_value;
use crate::message::{CreateRequest, MAX_REQUIRED_ELICITATIONS, UrlRequest};

/// The URL-mode elicitations that must complete before a request can be retried.
///
/// Only URL requests can be listed (the specification: every listed elicitation MUST be
/// URL mode and have an `elicitationId`), the list is never empty, holds at most
/// [`MAX_REQUIRED_ELICITATIONS`] entries and no id twice.
///
/// ```
/// use mcp_elicit_core::message::{UrlElicitationRequired, UrlRequest};
/// use serde_json::json;
///
/// // Server side: the -32042 error's `data`.
/// let login = UrlRequest::new("Sign in", "https://mcp.example.com/login", "e1")?;
/// let data = UrlElicitationRequired::single(login.clone()).unwrap().data();
/// assert_eq!(data, json!({"elicitations": [login.to_value()]}));
/// // Client side: read it back.
/// let required = UrlElicitationRequired::parse_data(&data)?;
/// assert_eq!(required.elicitations(), [login]);
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlElicitationRequired {
    elicitations: Vec<UrlRequest>,
}

impl UrlElicitationRequired {
    /// Checks and wraps the list. Each request gets the checks of
    /// [`CreateRequest::parse`]; the error points into [`UrlElicitationRequired::data`]
    /// (`/elicitations/1/url`, ...). Only the first problem is returned.
    ///
    /// ```
    /// # use mcp_elicit_core::message::{UrlElicitationRequired, UrlRequest};
    /// let a = UrlRequest::new("Sign in", "https://example.com/a", "same")?;
    /// let b = UrlRequest::new("Pay", "https://example.com/b", "same")?;
    /// let err = UrlElicitationRequired::new(vec![a, b]).unwrap_err();
    /// assert_eq!(err.pointer(), "/elicitations/1/elicitationId"); // listed twice
    /// assert_eq!(UrlElicitationRequired::new(vec![]).unwrap_err().pointer(), "/elicitations");
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn new(elicitations: Vec<UrlRequest>) -> Result<Self, Error> {
        let mut errors = Vec::new();
        check_list(&elicitations, &mut errors);
        match errors.into_iter().next() {
            Some(e) => Err(e),
            None => Ok(Self { elicitations }),
        }
    }

    /// One required elicitation.
    ///
    /// ```
    /// # use mcp_elicit_core::message::{UrlElicitationRequired, UrlRequest};
    /// let login = UrlRequest::new("Sign in", "https://example.com/login", "e1")?;
    /// let required = UrlElicitationRequired::single(login).unwrap();
    /// assert_eq!(required.elicitations().len(), 1);
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn single(elicitation: UrlRequest) -> Result<Self, Error> {
        Self::new(vec![elicitation])
    }

    /// The required elicitations, in order.
    pub fn elicitations(&self) -> &[UrlRequest] {
        &self.elicitations
    }

    /// Consumes the list.
    ///
    /// ```
    /// # use mcp_elicit_core::message::{UrlElicitationRequired, UrlRequest};
    /// let login = UrlRequest::new("Sign in", "https://example.com/login", "e1")?;
    /// let list = UrlElicitationRequired::single(login).unwrap().into_elicitations();
    /// assert_eq!(list[0].elicitation_id, "e1");
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn into_elicitations(self) -> Vec<UrlRequest> {
        self.elicitations
    }

    /// The error's `data`: `{"elicitations": [{"mode": "url", "elicitationId", "url", "message"}, ...]}`.
    ///
    /// ```
    /// # use mcp_elicit_core::message::{UrlElicitationRequired, UrlRequest};
    /// # use serde_json::json;
    /// let login = UrlRequest::new("Sign in", "https://example.com/login", "e1")?;
    /// let data = UrlElicitationRequired::single(login).unwrap().data();
    /// assert_eq!(data, json!({"elicitations": [{"mode": "url", "elicitationId": "e1",
    ///     "url": "https://example.com/login", "message": "Sign in"}]}));
    /// # Ok::<(), mcp_elicit_core::error::Errors>(())
    /// ```
    pub fn data(&self) -> Value {
        let mut map = Map::new();
        map.insert(
            "elicitations".into(),
            Value::Array(self.elicitations.iter().map(UrlRequest::to_value).collect()),
        );
        Value::Object(map)
    }

    /// Same as [`UrlElicitationRequired::data`] (for the serde helper).
    fn to_value(&self) -> Value {
        self.data()
    }

    /// Parses the `data` of a `-32042` error (client side), reporting every problem.
    /// Other members of `data` are ignored.
    ///
    /// ```
    /// # use mcp_elicit_core::message::UrlElicitationRequired;
    /// # use serde_json::json;
    /// let data = json!({"elicitations": [
    ///     {"mode": "form", "message": "x"},
    ///     {"mode": "url", "message": "m", "url": "https://x.example/"}
    /// ]});
    /// let err = UrlElicitationRequired::parse_data(&data).unwrap_err();
    /// let pointers: Vec<&str> = err.as_slice().iter().map(|e| e.pointer()).collect();
    /// assert_eq!(pointers, ["/elicitations/0/mode", "/elicitations/1/elicitationId"]);
    /// ```
    pub fn parse_data(data: &Value) -> Result<Self, Errors> {
        let map = object(data, "", "the URL elicitation required error data")?;
        let items = match map.get("elicitations") {
            Some(Value::Array(items)) => items,
            Some(other) => {
                return Err(Error::new(
                    ErrorKind::InvalidMessage,
                    "/elicitations",
                    format!(
                        "`elicitations` must be an array, found {}",
                        type_name(other)
                    ),
                )
                .into());
            }
            None => {
                return Err(Error::new(
                    ErrorKind::InvalidMessage,
                    "/elicitations",
                    "`elicitations` is required",
                )
                .into());
            }
        };
        if items.len() > MAX_REQUIRED_ELICITATIONS {
            return Err(Error::new(
                ErrorKind::TooLarge,
                "/elicitations",
                format!(
                    "{} elicitations listed, more than the limit of {MAX_REQUIRED_ELICITATIONS}",
                    items.len()
                ),
            )
            .into());
        }
        let mut errors = Vec::new();
        let mut elicitations = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let base = format!("/elicitations/{i}");
            if let Value::Object(m) = item
                && m.get("mode").and_then(Value::as_str) != Some("url")
            {
                errors.push(Error::new(
                    ErrorKind::InvalidMessage,
                    child(&base, "mode"),
                    "every elicitation in a URL elicitation required error must have `\"mode\": \"url\"`",
                ));
                continue;
            }
            match CreateRequest::parse(item) {
                Ok(CreateRequest::Url(url)) => elicitations.push(url),
                Ok(CreateRequest::Form(_)) => errors.push(Error::new(
                    ErrorKind::InvalidMessage,
                    child(&base, "mode"),
                    "every elicitation in a URL elicitation required error must have `\"mode\": \"url\"`",
                )),
                Err(item_errors) => errors.extend(
                    item_errors.into_iter().map(|e| Error::new(e.kind(), format!("{base}{}", e.pointer()), e.message())),
                ),
            }
        }
        if errors.is_empty() {
            check_list(&elicitations, &mut errors);
        }
        match Errors::from_vec(errors) {
            Some(errors) => Err(errors),
            None => Ok(Self { elicitations }),
        }
    }

    /// Same as [`UrlElicitationRequired::parse_data`] (for the serde helper).
    fn parse(value: &Value) -> Result<Self, Errors> {
        Self::parse_data(value)
    }
}

/// Non-empty, bounded, valid entries, unique ids.
fn check_list(elicitations: &[UrlRequest], errors: &mut Vec<Error>) {
    if elicitations.is_empty() {
        errors.push(Error::new(
            ErrorKind::InvalidMessage,
            "/elicitations",
            "a URL elicitation required error must list at least one elicitation",
        ));
        return;
    }
    if elicitations.len() > MAX_REQUIRED_ELICITATIONS {
        errors.push(Error::new(
            ErrorKind::TooLarge,
            "/elicitations",
            format!(
                "{} elicitations listed, more than the limit of {MAX_REQUIRED_ELICITATIONS}",
                elicitations.len()
            ),
        ));
        return;
    }
    let mut seen = HashSet::new();
    for (i, request) in elicitations.iter().enumerate() {
        let base = format!("/elicitations/{i}");
        request.check_into(&base, errors);
        if !seen.insert(request.elicitation_id.as_str()) {
            errors.push(Error::new(
                ErrorKind::InvalidMessage,
                child(&base, "elicitationId"),
                format!(
                    "elicitation id {:?} is listed twice",
                    request.elicitation_id
                ),
            ));
        }
    }
}

serde_via_value!(UrlElicitationRequired);
