//! The CSRF token of the demo completion page: the page that shows the Finish button
//! puts it in its form, and `POST /demo/complete` is refused without it.
//!
//! The token is the server's own sealed value (HMAC-SHA256 with the keys that seal
//! 2026-07-28 `requestState`, [`StateKeys`](crate::StateKeys)), bound to the user the
//! page acts for and to the elicitation id of the page, with an expiry. A cross-site page
//! cannot read the demo page (same-origin policy), so it cannot learn the token, and a
//! token of one elicitation's page does not finish another.

use std::time::{Duration, SystemTime};

use serde_json::json;

use super::DEMO_COMPLETE_PATH;
use crate::identity::Principal;
use crate::reference::Reference;
use crate::state::StateBinding;

/// How long a shown page's token stays good (the elicitation's own expiry applies too).
const LIFETIME: Duration = Duration::from_secs(60 * 60);

/// What is sealed: names the purpose, so no other sealed value of the server passes.
const PURPOSE: &str = "demo-complete";

/// The name of the form field carrying the token.
pub(super) const FIELD: &str = "csrf";

fn binding(user: &Principal, id: &str) -> StateBinding {
    StateBinding::new(
        user,
        "demo/complete",
        DEMO_COMPLETE_PATH,
        &json!({ "elicitationId": id }),
    )
}

/// The token for the page of elicitation `id` shown to `user`.
pub(super) fn issue(reference: &Reference, user: &Principal, id: &str) -> Option<String> {
    let keys = reference.hub().state_keys().ok()?;
    keys.seal_json(&PURPOSE, &binding(user, id), SystemTime::now() + LIFETIME)
        .ok()
}

/// Whether `token` is one [`issue`] gave for `user` and `id`, not expired.
pub(super) fn verify(reference: &Reference, user: &Principal, id: &str, token: &str) -> bool {
    if token.is_empty() {
        return false;
    }
    let Ok(keys) = reference.hub().state_keys() else {
        return false;
    };
    keys.open_json::<String>(token, &binding(user, id), SystemTime::now())
        .is_ok_and(|p| p == PURPOSE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ElicitationConfig;
    use crate::identity::IdentityPolicy;
    use crate::reference::ReferenceOptions;
    use crate::{Elicitations, StateKeys};

    fn reference() -> Reference {
        let alice = Principal::local_user("alice");
        let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(alice)));
        Reference::new(hub, ReferenceOptions::new("http://127.0.0.1:1"))
    }

    #[test]
    fn a_token_finishes_only_its_own_page_for_its_own_user() {
        let r = reference();
        let alice = Principal::local_user("alice");
        let bob = Principal::local_user("bob");
        let token = issue(&r, &alice, "id1").expect("token");
        assert!(verify(&r, &alice, "id1", &token));
        assert!(!verify(&r, &alice, "id2", &token), "another page");
        assert!(!verify(&r, &bob, "id1", &token), "another user");
        assert!(!verify(&r, &alice, "id1", ""), "no token");
        assert!(!verify(&r, &alice, "id1", "forged"), "a made-up token");
        let mut changed = token.clone();
        changed.pop();
        assert!(!verify(&r, &alice, "id1", &changed), "a cut token");
        // Another server (another key) did not issue it.
        assert!(!verify(&reference(), &alice, "id1", &token));
    }

    #[test]
    fn a_sealed_value_of_another_kind_is_not_a_token() {
        let r = reference();
        let alice = Principal::local_user("alice");
        let keys: &StateKeys = r.hub().state_keys().expect("keys");
        let other = keys
            .seal_json(
                &"something-else",
                &binding(&alice, "id1"),
                SystemTime::now() + LIFETIME,
            )
            .expect("seal");
        assert!(!verify(&r, &alice, "id1", &other));
    }
}
