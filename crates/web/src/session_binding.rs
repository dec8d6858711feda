//! Binds each Streamable HTTP session (`Mcp-Session-Id`) to the user whose token created
//! it (security best practices, "Session Hijacking": servers SHOULD bind session ids to
//! user-specific information). A request carrying another user's session id is answered
//! 404 (as for an unknown session) and never reaches the MCP service.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use mcp_elicit_server::Principal;

/// The session id header.
pub(crate) const SESSION_HEADER: &str = "mcp-session-id";
/// Bindings above which old ones are pruned.
const PRUNE_ABOVE: usize = 100_000;
/// Bindings older than this are pruned first.
const MAX_AGE: Duration = Duration::from_secs(24 * 60 * 60);

/// Session id → the user who created it.
#[derive(Default)]
pub(crate) struct SessionBindings {
    map: Mutex<HashMap<String, (Principal, Instant)>>,
}

/// What a request's session id says about its user.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Binding {
    /// No binding known (a new session, or one created before a restart).
    Unknown,
    /// The session belongs to this user.
    Same,
    /// The session belongs to another user.
    Other,
}

impl SessionBindings {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (Principal, Instant)>> {
        self.map
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub(crate) fn check(&self, session: &str, principal: &Principal) -> Binding {
        match self.lock().get(session) {
            None => Binding::Unknown,
            Some((p, _)) if p == principal => Binding::Same,
            Some(_) => Binding::Other,
        }
    }

    /// Records that `principal` created `session` (first binding wins).
    pub(crate) fn bind(&self, session: &str, principal: &Principal) {
        let mut map = self.lock();
        if map.len() >= PRUNE_ABOVE {
            map.retain(|_, (_, at)| at.elapsed() < MAX_AGE);
        }
        map.entry(session.to_owned())
            .or_insert_with(|| (principal.clone(), Instant::now()));
    }

    /// Forgets `session` (the client deleted it).
    pub(crate) fn forget(&self, session: &str) {
        self.lock().remove(session);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_user_owns_a_session() {
        let b = SessionBindings::default();
        let alice = Principal::authenticated("https://i", "alice");
        let bob = Principal::authenticated("https://i", "bob");
        assert_eq!(b.check("s1", &alice), Binding::Unknown);
        b.bind("s1", &alice);
        b.bind("s1", &bob);
        assert_eq!(b.check("s1", &alice), Binding::Same);
        assert_eq!(b.check("s1", &bob), Binding::Other);
        // Same subject at another issuer is another user.
        assert_eq!(
            b.check("s1", &Principal::authenticated("https://j", "alice")),
            Binding::Other
        );
        b.forget("s1");
        assert_eq!(b.check("s1", &bob), Binding::Unknown);
    }
}
