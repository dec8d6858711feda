//! Risky opt-outs, named so that a reviewer sees them.
//!
//! Everything in this module weakens a safety check. It lives under `danger` so that a
//! `use mcp_elicit_core::danger::...` line stands out in code review and in a grep of
//! the code base: the default behaviour of the crate is the strict one, and every
//! exception has to be spelled out, with a reason, where someone will read it.
//!
//! # Reviewed false positives of the secret-field lint
//!
//! The [secret-field lint](crate::lint) reads property names, titles and descriptions
//! and flags anything that looks like a request for a password, an API key, a token, a
//! payment card... It errs on the side of flagging. When a reviewer has checked that a
//! flagged property does not ask for a secret (a `token_budget` string, a `pin`
//! that means "pin this conversation"), record that decision with
//! [`ReviewedNotSecret`]:
//!
//! ```
//! use mcp_elicit_core::danger::ReviewedNotSecret;
//! use mcp_elicit_core::lint::lint_schema_with;
//! use mcp_elicit_core::Schema;
//! use serde_json::json;
//!
//! let schema = Schema::parse(&json!({
//!     "type": "object",
//!     "properties": {"token": {"type": "string", "title": "Token", "description": "Which word to explain"}}
//! })).unwrap();
//! let reviewed = ReviewedNotSecret::new()
//!     .allow("token", "a word of the user's text (NLP sense), not a credential");
//! assert!(lint_schema_with(&schema, &reviewed).is_empty());
//! ```
//!
//! An allowance covers one property, by exact name, in every part (name, title,
//! description). It never covers the schema's own title or description, nor the
//! message. A reason is required: an allowance whose reason is empty or blank is ignored
//! (the finding stays), so the audit trail ([`ReviewedNotSecret::entries`]) always says
//! why.

/// Property names a reviewer has checked are not secrets, each with the reason.
///
/// ```
/// use mcp_elicit_core::danger::ReviewedNotSecret;
///
/// let reviewed = ReviewedNotSecret::new()
///     .allow("token_budget", "a number of LLM tokens")
///     .allow("pin", "   "); // a blank reason: not recorded
/// assert!(reviewed.is_allowed("token_budget"));
/// assert!(!reviewed.is_allowed("pin"));
/// assert!(!reviewed.is_allowed("Token_Budget")); // exact names only
/// assert_eq!(reviewed.reason("token_budget"), Some("a number of LLM tokens"));
/// assert_eq!(reviewed.entries().collect::<Vec<_>>(), [("token_budget", "a number of LLM tokens")]);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReviewedNotSecret {
    entries: Vec<(String, String)>,
}

impl ReviewedNotSecret {
    /// No allowances.
    ///
    /// ```
    /// # use mcp_elicit_core::danger::ReviewedNotSecret;
    /// let none = ReviewedNotSecret::new();
    /// assert!(none.is_empty());
    /// assert_eq!(none, ReviewedNotSecret::default());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Allows the property called `property` (exact name), for `reason`. A blank reason
    /// is refused: the allowance is not recorded and the lint keeps reporting the
    /// property. Allowing the same property again replaces its reason (and moves it to
    /// the end of [`entries`](Self::entries)).
    ///
    /// ```
    /// # use mcp_elicit_core::danger::ReviewedNotSecret;
    /// let r = ReviewedNotSecret::new()
    ///     .allow("a", "first")
    ///     .allow("b", "other")
    ///     .allow("a", "second");
    /// assert_eq!(r.reason("a"), Some("second"));
    /// assert_eq!(r.entries().collect::<Vec<_>>(), [("b", "other"), ("a", "second")]);
    /// assert!(ReviewedNotSecret::new().allow("pin", "").is_empty());
    /// ```
    #[must_use]
    pub fn allow(mut self, property: impl Into<String>, reason: impl Into<String>) -> Self {
        let (property, reason) = (property.into(), reason.into());
        if !reason.trim().is_empty() {
            self.entries.retain(|(p, _)| *p != property);
            self.entries.push((property, reason));
        }
        self
    }

    /// Whether `property` was allowed.
    ///
    /// ```
    /// # use mcp_elicit_core::danger::ReviewedNotSecret;
    /// let r = ReviewedNotSecret::new().allow("pin", "pin this chat to the top");
    /// assert!(r.is_allowed("pin") && !r.is_allowed("pin_code"));
    /// ```
    pub fn is_allowed(&self, property: &str) -> bool {
        self.entries.iter().any(|(p, _)| p == property)
    }

    /// Why `property` was allowed; `None` when it was not.
    ///
    /// ```
    /// # use mcp_elicit_core::danger::ReviewedNotSecret;
    /// let r = ReviewedNotSecret::new().allow("pin", "pin this chat to the top");
    /// assert_eq!(r.reason("pin"), Some("pin this chat to the top"));
    /// assert_eq!(r.reason("otp"), None);
    /// ```
    pub fn reason(&self, property: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|(p, _)| p == property)
            .map(|(_, r)| r.as_str())
    }

    /// Every allowance as `(property, reason)`, in the order given, for audit logs.
    ///
    /// ```
    /// # use mcp_elicit_core::danger::ReviewedNotSecret;
    /// let r = ReviewedNotSecret::new().allow("pin", "a verb").allow("token", "NLP sense");
    /// let log: Vec<String> = r.entries().map(|(p, why)| format!("{p}: {why}")).collect();
    /// assert_eq!(log, ["pin: a verb", "token: NLP sense"]);
    /// ```
    pub fn entries(&self) -> impl Iterator<Item = (&str, &str)> {
        self.entries.iter().map(|(p, r)| (p.as_str(), r.as_str()))
    }

    /// Whether there are no allowances.
    ///
    /// ```
    /// # use mcp_elicit_core::danger::ReviewedNotSecret;
    /// assert!(ReviewedNotSecret::new().is_empty());
    /// assert!(!ReviewedNotSecret::new().allow("pin", "a verb").is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allowances_need_a_reason() {
        let r = ReviewedNotSecret::new()
            .allow("token_count", "counts LLM tokens")
            .allow("pin", "  ");
        assert!(r.is_allowed("token_count"));
        assert_eq!(r.reason("token_count"), Some("counts LLM tokens"));
        assert!(!r.is_allowed("pin"), "a blank reason is not an allowance");
        assert!(!r.is_allowed("Token_count"), "names are exact");
        assert_eq!(r.entries().count(), 1);
    }

    #[test]
    fn a_later_allowance_replaces_the_reason() {
        let r = ReviewedNotSecret::new()
            .allow("a", "first")
            .allow("a", "second");
        assert_eq!(r.entries().collect::<Vec<_>>(), [("a", "second")]);
    }
}
