//! What the reference server remembers besides pending elicitations: which users
//! finished the connect demo ([`DemoState`]), and what each demo elicitation is for
//! ([`DemoPurpose`]).
//!
//! The connected flag stands for what a real server keeps after a URL-mode flow (an
//! OAuth token, an API key in its vault): it must outlive the process, or a client that
//! retries after a restart is asked to connect again. [`MemoryDemoState`] is the
//! in-process version; `mcp-elicit serve --store` keeps it in the same database as the
//! pending elicitations.

use std::collections::HashSet;
use std::sync::{Mutex, MutexGuard};

use futures::future::{BoxFuture, FutureExt, ready};

use crate::identity::Principal;
use crate::store::StoreError;

/// Durable per-user state of the reference server's demos.
pub trait DemoState: Send + Sync + 'static {
    /// Records that `principal` finished the connect demo (idempotent).
    fn mark_connected<'a>(
        &'a self,
        principal: &'a Principal,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// Whether `principal` finished the connect demo.
    fn is_connected<'a>(
        &'a self,
        principal: &'a Principal,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;
}

/// [`DemoState`] in memory; lost on restart.
#[derive(Debug, Default)]
pub struct MemoryDemoState {
    connected: Mutex<HashSet<Principal>>,
}

impl MemoryDemoState {
    /// Nobody connected.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> MutexGuard<'_, HashSet<Principal>> {
        // One insert per update: a poisoned set is still consistent.
        self.connected
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl DemoState for MemoryDemoState {
    fn mark_connected<'a>(
        &'a self,
        principal: &'a Principal,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.lock().insert(principal.clone());
        ready(Ok(())).boxed()
    }

    fn is_connected<'a>(
        &'a self,
        principal: &'a Principal,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        ready(Ok(self.lock().contains(principal))).boxed()
    }
}

/// What a demo URL elicitation is for. It is stored with the pending elicitation as its
/// application data (`{"purpose": "connect"}`,
/// [`PendingElicitation::app_data`](crate::PendingElicitation::app_data)), so it
/// survives restarts with the record, and it is read from the stored record
/// ([`DemoPurpose::of_record`]), never from the request the browser sends to the
/// completion page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DemoPurpose {
    /// `demo_url`: a pretend sign-in page; finishing it changes nothing else.
    SignIn,
    /// `connect_demo`: finishing it connects the user (the tool then succeeds).
    Connect,
}

/// The query parameter carrying the purpose in demo URLs.
pub(crate) const PURPOSE_PARAM: &str = "purpose";

impl DemoPurpose {
    /// The value of the `purpose` query parameter, if the purpose has one.
    pub(crate) fn param(self) -> Option<&'static str> {
        match self {
            Self::SignIn => None,
            Self::Connect => Some("connect"),
        }
    }

    /// The application data recording this purpose.
    pub(crate) fn app_data(self) -> serde_json::Value {
        serde_json::json!({ PURPOSE_PARAM: self.param().unwrap_or("sign_in") })
    }

    /// The purpose of a stored elicitation: from its application data; for a record
    /// stored without any (before application data existed), from its URL. Anything
    /// else is [`DemoPurpose::SignIn`], which grants nothing.
    pub fn of_record(record: &crate::PendingElicitation) -> DemoPurpose {
        match record.app_data.as_ref() {
            Some(data) => {
                let connect =
                    data.get(PURPOSE_PARAM).and_then(|v| v.as_str()) == Self::Connect.param();
                if connect { Self::Connect } else { Self::SignIn }
            }
            None => Self::of_url(record.url.as_deref()),
        }
    }

    /// The purpose recorded in a stored elicitation URL (anything else is
    /// [`DemoPurpose::SignIn`], which grants nothing).
    pub fn of_url(url: Option<&str>) -> DemoPurpose {
        let connect = url.and_then(|u| url::Url::parse(u).ok()).is_some_and(|u| {
            u.query_pairs()
                .any(|(k, v)| k == PURPOSE_PARAM && Some(v.as_ref()) == Self::Connect.param())
        });
        if connect { Self::Connect } else { Self::SignIn }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_purpose_comes_from_the_stored_url_and_defaults_to_nothing_granted() {
        let of = DemoPurpose::of_url;
        assert_eq!(
            of(Some(
                "http://127.0.0.1:1/demo/complete?purpose=connect&elicitationId=x"
            )),
            DemoPurpose::Connect
        );
        assert_eq!(
            of(Some("http://127.0.0.1:1/demo/complete?elicitationId=x")),
            DemoPurpose::SignIn
        );
        assert_eq!(
            of(Some("http://127.0.0.1:1/demo/complete?purpose=connectx")),
            DemoPurpose::SignIn
        );
        assert_eq!(of(Some("not a url")), DemoPurpose::SignIn);
        assert_eq!(of(None), DemoPurpose::SignIn);
    }

    #[test]
    fn the_purpose_comes_from_the_app_data_before_the_url() {
        use std::time::SystemTime;
        let record = |url: &str, data: Option<serde_json::Value>| crate::PendingElicitation {
            id: "x".into(),
            principal: Principal::local_user("a"),
            session: crate::SessionKey::from_stored("s"),
            mode: mcp_elicit_core::message::Mode::Url,
            state: mcp_elicit_core::lifecycle::State::Pending,
            message: "m".into(),
            url: Some(url.into()),
            created_at: SystemTime::UNIX_EPOCH,
            expires_at: SystemTime::UNIX_EPOCH,
            app_data: data,
        };
        let connect_url = "http://127.0.0.1:1/demo/complete?purpose=connect&elicitationId=x";
        let plain_url = "http://127.0.0.1:1/demo/complete?elicitationId=x";
        let of = DemoPurpose::of_record;
        // The stored data decides, whatever the URL says.
        assert_eq!(
            of(&record(plain_url, Some(DemoPurpose::Connect.app_data()))),
            DemoPurpose::Connect
        );
        assert_eq!(
            of(&record(connect_url, Some(DemoPurpose::SignIn.app_data()))),
            DemoPurpose::SignIn
        );
        // Records stored before app data existed: the URL.
        assert_eq!(of(&record(connect_url, None)), DemoPurpose::Connect);
        assert_eq!(of(&record(plain_url, None)), DemoPurpose::SignIn);
    }

    #[tokio::test]
    async fn memory_state_remembers_connected_users_only() {
        let state = MemoryDemoState::new();
        let alice = Principal::local_user("alice");
        assert!(!state.is_connected(&alice).await.expect("read"));
        state.mark_connected(&alice).await.expect("write");
        state.mark_connected(&alice).await.expect("idempotent");
        assert!(state.is_connected(&alice).await.expect("read"));
        assert!(
            !state
                .is_connected(&Principal::authenticated("https://idp", "alice"))
                .await
                .expect("read")
        );
    }
}
