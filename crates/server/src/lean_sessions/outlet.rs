//! A way to a lean session's client that does not go through the session's handler:
//! what the hub delivers a URL elicitation's completion on, also while the session is
//! asleep (its handler ended, [`super::LeanSessionConfig::hibernate_after`]).
//!
//! The lean layer puts one in the extensions of every request it hands the handler; the
//! elicitor takes it from the request's context. It holds the session weakly: an ended
//! session is freed whatever the hub still remembers.

use std::sync::{Arc, Weak};

use rmcp::model::{ServerJsonRpcMessage, ServerNotification};

use super::session::Session;

/// A weak handle on a lean session, to send it notifications.
#[derive(Clone)]
pub(crate) struct SessionOutlet(Weak<Session>);

impl std::fmt::Debug for SessionOutlet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.upgrade() {
            Some(s) => f.debug_tuple("SessionOutlet").field(s.id()).finish(),
            None => f.write_str("SessionOutlet(ended)"),
        }
    }
}

impl SessionOutlet {
    pub(super) fn new(session: &Arc<Session>) -> Self {
        SessionOutlet(Arc::downgrade(session))
    }

    /// Sends `notification` on the session's standalone stream (as the handler's
    /// transport would); false when the session has ended.
    pub(crate) fn notify(&self, notification: ServerNotification) -> bool {
        self.0
            .upgrade()
            .is_some_and(|s| s.route(ServerJsonRpcMessage::notification(notification)))
    }

    /// Whether the session has ended.
    pub(crate) fn is_closed(&self) -> bool {
        self.0.upgrade().is_none_or(|s| s.is_closed())
    }
}
