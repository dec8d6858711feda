//! [`UrlElicitation`]: one URL-mode elicitation, as built before it is checked and sent.

use serde_json::Value;

use crate::error::Error;
#[cfg(doc)]
use crate::hub::Elicitations;
use crate::id::ElicitationId;
#[cfg(doc)]
use crate::store::PendingElicitation;

/// One URL-mode elicitation to send or to list in a `-32042` error.
///
/// Nothing is checked when it is built; the server URL policy applies when it is sent (or
/// listed in a -32042 error):
///
/// ```
/// use mcp_elicit_server::UrlElicitation;
///
/// let e = UrlElicitation::new("Connect your calendar", |id| {
///     format!("https://mcp.example.com/connect?elicitationId={id}")
/// })?;
/// assert_eq!(e.message(), "Connect your calendar");
/// assert_eq!(e.url(), format!("https://mcp.example.com/connect?elicitationId={}", e.id()));
/// assert!(e.app_data().is_none());
/// # Ok::<(), mcp_elicit_server::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct UrlElicitation {
    pub(super) id: ElicitationId,
    pub(super) message: String,
    pub(super) url: String,
    pub(super) app_data: Option<Value>,
}

impl UrlElicitation {
    /// An elicitation with a fresh id whose URL is built from it (so the page behind the
    /// URL can find the elicitation, e.g. `https://mcp.example.com/connect?elicitationId={id}`).
    ///
    /// Every elicitation gets a fresh, unguessable id:
    ///
    /// ```
    /// use mcp_elicit_server::UrlElicitation;
    ///
    /// let page = |id: &mcp_elicit_server::ElicitationId| format!("https://mcp.example.com/pay?elicitationId={id}");
    /// let a = UrlElicitation::new("Confirm the payment", page)?;
    /// let b = UrlElicitation::new("Confirm the payment", page)?;
    /// assert_ne!(a.id(), b.id());
    /// assert_ne!(a.url(), b.url());
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn new(
        message: impl Into<String>,
        url: impl FnOnce(&ElicitationId) -> String,
    ) -> Result<Self, Error> {
        let id = ElicitationId::generate()?;
        let url = url(&id);
        Ok(Self {
            id,
            message: message.into(),
            url,
            app_data: None,
        })
    }

    /// Attaches the application's own data (what the page is for, the provider to
    /// connect, the order to pay...): stored with the pending elicitation in every store
    /// ([`PendingElicitation::app_data`]), so the page and
    /// [`Elicitations::complete_with`]'s bookkeeping read it from the record instead of
    /// from the URL or the browser. Never sent to the client. Keep it small and
    /// non-secret (stores keep it as plain JSON). Default: none.
    ///
    /// ```
    /// use mcp_elicit_server::UrlElicitation;
    ///
    /// let e = UrlElicitation::new("Connect your calendar", |id| {
    ///     format!("https://mcp.example.com/connect?elicitationId={id}")
    /// })?
    /// .with_app_data(serde_json::json!({"provider": "calendar"}));
    /// assert_eq!(e.app_data().and_then(|d| d.get("provider")), Some(&"calendar".into()));
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn with_app_data(mut self, data: Value) -> Self {
        self.app_data = Some(data);
        self
    }

    /// The application's data ([`UrlElicitation::with_app_data`]).
    ///
    /// ```
    /// use mcp_elicit_server::UrlElicitation;
    ///
    /// let plain = UrlElicitation::new("Connect", |id| format!("https://mcp.example.com/c?elicitationId={id}"))?;
    /// assert_eq!(plain.app_data(), None); // none unless attached
    /// let tagged = plain.with_app_data(serde_json::json!({"provider": "github"}));
    /// assert_eq!(tagged.app_data().unwrap()["provider"], "github");
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn app_data(&self) -> Option<&Value> {
        self.app_data.as_ref()
    }

    /// The id.
    ///
    /// The `elicitationId` the client gets, and the key of the pending record:
    ///
    /// ```
    /// use mcp_elicit_server::UrlElicitation;
    ///
    /// let e = UrlElicitation::new("Connect", |id| format!("https://mcp.example.com/c?elicitationId={id}"))?;
    /// assert!(e.url().ends_with(e.id().as_str()));
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn id(&self) -> &ElicitationId {
        &self.id
    }

    /// The message.
    ///
    /// ```
    /// use mcp_elicit_server::UrlElicitation;
    ///
    /// let e = UrlElicitation::new("Link your calendar", |id| format!("https://mcp.example.com/c?elicitationId={id}"))?;
    /// assert_eq!(e.message(), "Link your calendar");
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The URL as given (checked when sent).
    ///
    /// ```
    /// use mcp_elicit_server::UrlElicitation;
    ///
    /// // Not checked here: a plain-http URL on a public host is refused only when sent.
    /// let e = UrlElicitation::new("Connect", |id| format!("http://example.com/c?elicitationId={id}"))?;
    /// assert!(e.url().starts_with("http://example.com/"));
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn url(&self) -> &str {
        &self.url
    }
}
