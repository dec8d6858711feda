//! The explicit states of one elicitation.
//!
//! A pure state machine: [`State::apply`] takes the current state, the elicitation's
//! [`Mode`] and an [`Event`], and returns the next state or an
//! [`ErrorKind::InvalidTransition`] error. Callers persist [`State::as_str`] and read
//! it back with [`State::parse`].
//!
//! ## Form mode
//!
//! ```text
//! Pending --accept--> Accepted     (terminal: the content arrived with the answer)
//! Pending --decline-> Declined     (terminal)
//! Pending --cancel--> Cancelled    (terminal)
//! Pending --expire--> Expired      (terminal)
//! ```
//!
//! `complete` never applies to a form elicitation (there is no out-of-band part).
//!
//! ## URL mode
//!
//! ```text
//! Pending  --accept---> Accepted   (the user consented to open the URL; NOT terminal)
//! Pending  --complete-> Completed  (finished out of band without an elicitation/create
//!                                   answer, e.g. after a -32042 error)
//! Pending  --decline--> Declined, --cancel--> Cancelled, --expire--> Expired
//! Accepted --complete-> Completed  (the out-of-band interaction finished)
//! Accepted --decline--> Declined   (the user refused on the out-of-band page, e.g. an
//!                                   OAuth access_denied callback)
//! Accepted --cancel---> Cancelled  (the user or the server abandoned it)
//! Accepted --expire---> Expired
//! ```
//!
//! Completed, Declined, Cancelled and Expired are terminal. Everything else (accepting
//! twice, completing twice, completing a declined elicitation, any event on a terminal
//! state) is an error: a client uses that to ignore duplicate or late completion
//! notifications, as the specification requires.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorKind};
use crate::message::{Action, Mode};

/// Where one elicitation stands.
///
/// ```
/// use mcp_elicit_core::lifecycle::{Event, State};
/// use mcp_elicit_core::message::Mode;
///
/// // Form mode: one answer ends it.
/// let s = State::Pending.apply(Mode::Form, Event::Accept)?;
/// assert_eq!(s, State::Accepted);
/// assert!(s.is_terminal(Mode::Form));
/// // URL mode: accepting is consent; the completion notification ends it.
/// let s = State::Pending.apply(Mode::Url, Event::Accept)?;
/// assert!(!s.is_terminal(Mode::Url));
/// assert_eq!(s.apply(Mode::Url, Event::Complete)?, State::Completed);
/// // Persist and restore.
/// assert_eq!(State::parse(s.as_str())?, s);
/// # Ok::<(), mcp_elicit_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum State {
    /// Sent (or announced in a -32042 error), no answer yet.
    Pending,
    /// The user accepted: form content received (terminal), or consent to open the URL
    /// given (URL mode, waiting for completion).
    Accepted,
    /// The user declined.
    Declined,
    /// The user dismissed it, or it was abandoned.
    Cancelled,
    /// The out-of-band interaction finished (URL mode only).
    Completed,
    /// It timed out.
    Expired,
}

/// Something that happens to an elicitation.
///
/// ```
/// use mcp_elicit_core::lifecycle::{Event, State};
/// use mcp_elicit_core::message::{Action, Mode};
///
/// assert_eq!(Event::from(Action::Decline), Event::Decline); // a client's answer
/// let expired = State::Pending.apply(Mode::Url, Event::Expire)?; // a deadline
/// assert_eq!(expired, State::Expired);
/// assert_eq!(serde_json::to_value(Event::Complete).unwrap(), "complete");
/// # Ok::<(), mcp_elicit_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Event {
    /// The client answered `accept`.
    Accept,
    /// The client answered `decline` (or the user refused out of band).
    Decline,
    /// The client answered `cancel`, or the elicitation was abandoned.
    Cancel,
    /// The out-of-band interaction finished (URL mode).
    Complete,
    /// A deadline passed.
    Expire,
}

impl State {
    /// Every state.
    ///
    /// ```
    /// # use mcp_elicit_core::lifecycle::State;
    /// # use mcp_elicit_core::message::Mode;
    /// let terminal: Vec<&str> = State::ALL.iter()
    ///     .filter(|s| s.is_terminal(Mode::Url))
    ///     .map(|s| s.as_str())
    ///     .collect();
    /// assert_eq!(terminal, ["declined", "cancelled", "completed", "expired"]);
    /// ```
    pub const ALL: [State; 6] = [
        State::Pending,
        State::Accepted,
        State::Declined,
        State::Cancelled,
        State::Completed,
        State::Expired,
    ];

    /// The next state after `event`, or an [`ErrorKind::InvalidTransition`] error naming
    /// the state, the event and the mode.
    ///
    /// ```
    /// # use mcp_elicit_core::ErrorKind;
    /// # use mcp_elicit_core::lifecycle::{Event, State};
    /// # use mcp_elicit_core::message::Mode;
    /// // The user refused on the out-of-band page after consenting.
    /// assert_eq!(State::Accepted.apply(Mode::Url, Event::Decline)?, State::Declined);
    /// // Form mode has no completion; a terminal state takes no event.
    /// let err = State::Pending.apply(Mode::Form, Event::Complete).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::InvalidTransition);
    /// assert_eq!(err.message(), "cannot apply `complete` to a form mode elicitation: \
    ///     form mode elicitations have no out-of-band completion");
    /// let late = State::Declined.apply(Mode::Url, Event::Complete).unwrap_err();
    /// assert!(late.message().ends_with("the elicitation is already declined"));
    /// # Ok::<(), mcp_elicit_core::Error>(())
    /// ```
    pub fn apply(self, mode: Mode, event: Event) -> Result<State, Error> {
        use Event as E;
        use State as S;
        let next = match (mode, self, event) {
            (_, S::Pending, E::Accept) => Some(S::Accepted),
            (_, S::Pending, E::Decline) => Some(S::Declined),
            (_, S::Pending, E::Cancel) => Some(S::Cancelled),
            (_, S::Pending, E::Expire) => Some(S::Expired),
            (Mode::Url, S::Pending, E::Complete) => Some(S::Completed),
            (Mode::Url, S::Accepted, E::Complete) => Some(S::Completed),
            (Mode::Url, S::Accepted, E::Decline) => Some(S::Declined),
            (Mode::Url, S::Accepted, E::Cancel) => Some(S::Cancelled),
            (Mode::Url, S::Accepted, E::Expire) => Some(S::Expired),
            _ => None,
        };
        next.ok_or_else(|| {
            let why = if self.is_terminal(mode) {
                format!("the elicitation is already {self}")
            } else if mode == Mode::Form && event == E::Complete {
                "form mode elicitations have no out-of-band completion".to_owned()
            } else {
                format!("the elicitation is {self}")
            };
            Error::new(
                ErrorKind::InvalidTransition,
                "",
                format!("cannot apply `{event}` to a {mode} mode elicitation: {why}"),
            )
        })
    }

    /// Whether no event can follow this state for an elicitation of `mode`.
    ///
    /// `Accepted` is terminal in form mode and not in URL mode; `Pending` is never
    /// terminal; the others always are.
    ///
    /// ```
    /// # use mcp_elicit_core::lifecycle::State;
    /// # use mcp_elicit_core::message::Mode;
    /// assert!(State::Accepted.is_terminal(Mode::Form));
    /// assert!(!State::Accepted.is_terminal(Mode::Url));
    /// assert!(!State::Pending.is_terminal(Mode::Form));
    /// assert!(State::Expired.is_terminal(Mode::Url));
    /// ```
    pub fn is_terminal(self, mode: Mode) -> bool {
        match self {
            State::Pending => false,
            State::Accepted => mode == Mode::Form,
            State::Declined | State::Cancelled | State::Completed | State::Expired => true,
        }
    }

    /// The storage / wire name (`"pending"`, `"accepted"`, ...); also its `Display` and
    /// its serde form.
    ///
    /// ```
    /// # use mcp_elicit_core::lifecycle::State;
    /// assert_eq!(State::Cancelled.as_str(), "cancelled");
    /// assert_eq!(serde_json::to_value(State::Cancelled).unwrap(), "cancelled");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            State::Pending => "pending",
            State::Accepted => "accepted",
            State::Declined => "declined",
            State::Cancelled => "cancelled",
            State::Completed => "completed",
            State::Expired => "expired",
        }
    }

    /// Reads a name written by [`State::as_str`] (exact case); an
    /// [`ErrorKind::InvalidValue`] error otherwise.
    ///
    /// ```
    /// # use mcp_elicit_core::ErrorKind;
    /// # use mcp_elicit_core::lifecycle::State;
    /// assert_eq!(State::parse("completed")?, State::Completed);
    /// assert_eq!(State::parse("Completed").unwrap_err().kind(), ErrorKind::InvalidValue);
    /// # Ok::<(), mcp_elicit_core::Error>(())
    /// ```
    pub fn parse(s: &str) -> Result<State, Error> {
        State::ALL
            .into_iter()
            .find(|state| state.as_str() == s)
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::InvalidValue,
                    "",
                    format!("unknown elicitation state {s:?}"),
                )
            })
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Event {
    /// Every event.
    ///
    /// ```
    /// # use mcp_elicit_core::lifecycle::{Event, State};
    /// # use mcp_elicit_core::message::Mode;
    /// // Nothing follows a completed elicitation.
    /// assert!(Event::ALL.iter().all(|e| State::Completed.apply(Mode::Url, *e).is_err()));
    /// ```
    pub const ALL: [Event; 5] = [
        Event::Accept,
        Event::Decline,
        Event::Cancel,
        Event::Complete,
        Event::Expire,
    ];

    /// The name (`"accept"`, `"decline"`, `"cancel"`, `"complete"`, `"expire"`); also its
    /// `Display`.
    ///
    /// ```
    /// # use mcp_elicit_core::lifecycle::Event;
    /// assert_eq!(Event::Expire.as_str(), "expire");
    /// assert_eq!(Event::Accept.to_string(), "accept");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Event::Accept => "accept",
            Event::Decline => "decline",
            Event::Cancel => "cancel",
            Event::Complete => "complete",
            Event::Expire => "expire",
        }
    }

    /// Reads a name written by [`Event::as_str`]; an [`ErrorKind::InvalidValue`] error
    /// otherwise.
    ///
    /// ```
    /// # use mcp_elicit_core::lifecycle::Event;
    /// assert_eq!(Event::parse("complete")?, Event::Complete);
    /// assert!(Event::parse("completed").is_err());
    /// # Ok::<(), mcp_elicit_core::Error>(())
    /// ```
    pub fn parse(s: &str) -> Result<Event, Error> {
        Event::ALL
            .into_iter()
            .find(|event| event.as_str() == s)
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::InvalidValue,
                    "",
                    format!("unknown elicitation event {s:?}"),
                )
            })
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<Action> for Event {
    /// The event a client's answer produces.
    fn from(action: Action) -> Self {
        match action {
            Action::Accept => Event::Accept,
            Action::Decline => Event::Decline,
            Action::Cancel => Event::Cancel,
        }
    }
}
