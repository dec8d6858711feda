//! What the user answered: [`FormOutcome`] for a form, [`UrlOutcome`] for a URL-mode
//! elicitation.

use mcp_elicit_core::message::Action;

use crate::error::{Error, ErrorKind};
#[cfg(doc)]
use crate::hub::Elicitations;

/// The answer to a form: exactly the specification's three actions (`accept`,
/// `decline`, `cancel`), so a `match` needs no `_` arm.
///
/// ```
/// use mcp_elicit_server::FormOutcome;
///
/// fn say(outcome: FormOutcome<String>) -> String {
///     match outcome {
///         FormOutcome::Accepted(name) => format!("hello {name}"),
///         FormOutcome::Declined => "you said no".into(),
///         FormOutcome::Cancelled => "maybe later".into(),
///     }
/// }
/// assert_eq!(say(FormOutcome::Declined), "you said no");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum FormOutcome<T> {
    /// The user submitted content that satisfies the schema.
    Accepted(T),
    /// The user explicitly declined.
    Declined,
    /// The user dismissed the form without choosing.
    Cancelled,
}

impl<T> FormOutcome<T> {
    /// The wire action of this outcome.
    ///
    /// ```
    /// use mcp_elicit_server::{Action, FormOutcome};
    ///
    /// assert_eq!(FormOutcome::Accepted(4).action(), Action::Accept);
    /// assert_eq!(FormOutcome::<u8>::Declined.action().as_str(), "decline");
    /// assert_eq!(FormOutcome::<u8>::Cancelled.action(), Action::Cancel);
    /// ```
    pub fn action(&self) -> Action {
        match self {
            Self::Accepted(_) => Action::Accept,
            Self::Declined => Action::Decline,
            Self::Cancelled => Action::Cancel,
        }
    }

    /// The accepted content, or the user's decline / cancel as a user-driven error
    /// ([`ErrorKind::UserDeclined`], [`ErrorKind::UserCancelled`]) to return with `?`:
    /// [`respond_tool`](crate::respond_tool) answers it as a tool result telling the
    /// model what the user did.
    ///
    /// ```
    /// use mcp_elicit_server::{ErrorKind, FormOutcome};
    ///
    /// assert_eq!(FormOutcome::Accepted(3).accepted().ok(), Some(3));
    /// let declined = FormOutcome::<u8>::Declined.accepted().unwrap_err();
    /// assert_eq!(declined.kind(), ErrorKind::UserDeclined);
    /// assert!(declined.is_user_driven());
    /// ```
    pub fn accepted(self) -> Result<T, Error> {
        match self {
            Self::Accepted(content) => Ok(content),
            Self::Declined => Err(Error::new(
                ErrorKind::UserDeclined,
                "the user declined to answer",
            )),
            Self::Cancelled => Err(Error::new(
                ErrorKind::UserCancelled,
                "the user dismissed the request without answering",
            )),
        }
    }

    /// The accepted content, or `None` when the user declined or dismissed the form
    /// (like `Result::ok`), for a tool that answers both the same way.
    ///
    /// ```
    /// use mcp_elicit_server::FormOutcome;
    ///
    /// assert_eq!(FormOutcome::Accepted(3).ok(), Some(3));
    /// assert_eq!(FormOutcome::<u8>::Declined.ok(), None);
    /// assert_eq!(FormOutcome::<u8>::Cancelled.ok(), None);
    /// ```
    pub fn ok(self) -> Option<T> {
        match self {
            Self::Accepted(content) => Some(content),
            Self::Declined | Self::Cancelled => None,
        }
    }
}

/// The answer to a URL-mode elicitation.
///
/// ```
/// use mcp_elicit_server::UrlOutcome;
///
/// fn say(outcome: UrlOutcome) -> &'static str {
///     match outcome {
///         // Consent only: the page is not finished yet. Wait for the completion.
///         UrlOutcome::Accepted => "waiting for the page",
///         UrlOutcome::Completed => "connected",
///         UrlOutcome::Declined | UrlOutcome::Cancelled => "not connected",
///         _ => "not connected", // non-exhaustive
///     }
/// }
/// assert_eq!(say(UrlOutcome::Accepted), "waiting for the page");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum UrlOutcome {
    /// The user consented to open the URL. This is consent, not completion: the
    /// elicitation stays pending until [`Elicitations::complete`] (or it expires).
    Accepted,
    /// The user declined to open it.
    Declined,
    /// The user dismissed the request.
    Cancelled,
    /// 2026-07-28 only ([`Ask::url`](crate::Ask::url)): the out-of-band page was
    /// finished by the same user, and this retry is the one that learns of it.
    Completed,
}
