//! The page behind a URL elicitation: [`PageQuery`] (its `elicitationId` query
//! parameter) and [`UrlElicitation::to_page`] (a URL carrying it).

use serde::Deserialize;

use crate::elicitor::UrlElicitation;
use crate::error::Error;

/// The query parameter [`UrlElicitation::to_page`] carries the elicitation's id in.
pub const ELICITATION_ID_PARAM: &str = "elicitationId";

/// The query of a page opened through [`UrlElicitation::to_page`]
/// (`?elicitationId=...`), for a web framework's query extractor (axum's `Query`).
/// The id is only a lookup key: pass it with the signed-in user to
/// [`Elicitations::complete_with`](crate::Elicitations::complete_with), which refuses
/// an id that is unknown, used, expired or another user's.
///
/// ```
/// use mcp_elicit_server::PageQuery;
///
/// let q: PageQuery = serde_json::from_value(serde_json::json!({"elicitationId": "e1"}))?;
/// assert_eq!(q.id, "e1");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct PageQuery {
    /// The elicitation's id, as the client opened it.
    #[serde(rename = "elicitationId")]
    pub id: String,
}

impl UrlElicitation {
    /// [`UrlElicitation::new`] with the URL `page` plus the fresh id as its
    /// `elicitationId` query parameter (`?` or `&` as `page` needs), which
    /// [`PageQuery`] reads back.
    ///
    /// ```
    /// use mcp_elicit_server::UrlElicitation;
    ///
    /// let e = UrlElicitation::to_page("Link your calendar", "https://mcp.example.com/link")?;
    /// assert_eq!(e.url(), format!("https://mcp.example.com/link?elicitationId={}", e.id()));
    /// let e = UrlElicitation::to_page("Pay", "https://mcp.example.com/pay?order=7")?;
    /// assert_eq!(e.url(), format!("https://mcp.example.com/pay?order=7&elicitationId={}", e.id()));
    /// let e = UrlElicitation::to_page("Sign", "https://mcp.example.com/sign#top")?;
    /// assert_eq!(e.url(), format!("https://mcp.example.com/sign?elicitationId={}#top", e.id()));
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn to_page(message: impl Into<String>, page: &str) -> Result<Self, Error> {
        // The query goes before a fragment; ids are hex digits, so nothing is escaped.
        let (base, fragment) = page.split_at(page.find('#').unwrap_or(page.len()));
        let sep = if base.contains('?') { '&' } else { '?' };
        Self::new(message, |id| {
            format!("{base}{sep}{ELICITATION_ID_PARAM}={id}{fragment}")
        })
    }
}
