//! Overdue completions: the [`StalledCompletion`] a host is shown and its [`StallChoice`].

use std::time::Duration;

use crate::identity::ServerIdentity;

/// Completion notifications are overdue while a call waits to be retried (2025-11-25),
/// or the server answered "still waiting" after a URL step (2026-07-28: there are no
/// completion notifications, so the user is asked at once).
///
/// What [`ScriptedUi`](crate::ScriptedUi) answers, for one:
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use std::time::Duration;
/// use mcp_elicit_client::{
///     ElicitationUi, FormPolicy, ScriptedUi, ServerIdentity, StallChoice, StalledCompletion,
///     TransportIdentity, UrlPolicy,
/// };
/// use mcp_elicit_core::message::Capability;
///
/// let stalled = StalledCompletion {
///     server: ServerIdentity::new(None, TransportIdentity::http("https://mcp.example.com/mcp")),
///     tool: "sync_calendar".into(),
///     pending: vec!["el-1".into()],
///     waited: Duration::from_secs(120),
/// };
/// let ui = ScriptedUi::new(Capability::URL, FormPolicy::Decline, UrlPolicy::Consent).with_sink(|_| {});
/// // 2025-11-25: no notification came in time; the page may be done: retry.
/// assert_eq!(ui.completion_stalled(stalled.clone()).await, StallChoice::RetryNow);
/// // 2026-07-28: the server says it still waits: ask again after the poll interval.
/// assert_eq!(ui.still_waiting(stalled).await, StallChoice::KeepWaiting);
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct StalledCompletion {
    /// Who.
    pub server: ServerIdentity,
    /// The tool whose call waits.
    pub tool: String,
    /// Elicitations not completed yet.
    pub pending: Vec<String>,
    /// How long the call has waited so far.
    pub waited: Duration,
}

/// What to do about a [`StalledCompletion`] (the manual controls the specification asks
/// for when a completion notification never arrives). [`Cancel`](Self::Cancel) ends the
/// call with [`CallError::ElicitationRequired`](crate::CallError::ElicitationRequired)
/// ([`NotCompleted::Cancelled`](crate::NotCompleted::Cancelled)) on 2025-11-25, and with
/// [`CallError::Abandoned`](crate::CallError::Abandoned) on 2026-07-28.
///
/// ```
/// use std::time::Duration;
/// use mcp_elicit_client::{StallChoice, StalledCompletion};
///
/// // A host policy: keep waiting up to ten minutes, then give up.
/// fn choose(stalled: &StalledCompletion) -> StallChoice {
///     if stalled.waited < Duration::from_secs(600) {
///         StallChoice::KeepWaiting
///     } else {
///         StallChoice::Cancel
///     }
/// }
/// # use mcp_elicit_client::{ServerIdentity, TransportIdentity};
/// # let server = ServerIdentity::new(None, TransportIdentity::Other { description: "t".into() });
/// let late = StalledCompletion { server, tool: "t".into(), pending: vec![], waited: Duration::from_secs(900) };
/// assert_eq!(choose(&late), StallChoice::Cancel);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StallChoice {
    /// Retry the original request now (the interaction may have finished without a
    /// notification).
    RetryNow,
    /// Wait one more timeout period.
    KeepWaiting,
    /// Give up on the call.
    Cancel,
}
