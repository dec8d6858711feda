//! The [`ElicitationUi`] implementation: each prompt becomes a message to the screen
//! loop, answered through a one-shot channel.
//!
//! The client library may drop a prompt's future (the server cancelled the request, the
//! connection closed); the loop notices the closed channel and removes the screen.

use mcp_elicit_client::{
    ElicitationUi, FormPrompt, FormResponse, Notice, OverviewChoice, ProgressUpdate,
    RequiredOverview, StallChoice, StalledCompletion, UrlDecision, UrlPrompt,
};
use mcp_elicit_core::message::Capability;
use tokio::sync::{mpsc, oneshot};

/// A question or notice for the screen loop.
#[derive(Debug)]
pub(crate) enum UiRequest {
    Form(Box<FormPrompt>, oneshot::Sender<FormResponse>),
    Url(Box<UrlPrompt>, oneshot::Sender<UrlDecision>),
    Stalled(StalledCompletion, oneshot::Sender<StallChoice>),
    Notify(Notice),
    Progress(ProgressUpdate),
    Overview(Box<RequiredOverview>, oneshot::Sender<OverviewChoice>),
}

/// The terminal host's [`ElicitationUi`]: forwards every prompt to the screen loop.
///
/// ```
/// // Built by [`run`](crate::host::run) for its connection; what it is:
/// fn is_a_ui<T: mcp_elicit_client::ElicitationUi + Clone + Send + Sync + 'static>() {}
/// is_a_ui::<mcp_elicit_tui::host::TuiUi>();
/// ```
#[derive(Debug, Clone)]
pub struct TuiUi {
    tx: mpsc::UnboundedSender<UiRequest>,
    modes: Capability,
}

impl TuiUi {
    /// A UI declaring `modes`, and the receiving end for the screen loop.
    pub(crate) fn new(modes: Capability) -> (Self, mpsc::UnboundedReceiver<UiRequest>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (Self { tx, modes }, rx)
    }

    /// Sends `make(responder)` to the loop and waits for the answer; `fallback` when the
    /// loop is gone (the terminal was closed).
    async fn ask<T>(&self, make: impl FnOnce(oneshot::Sender<T>) -> UiRequest, fallback: T) -> T {
        let (tx, rx) = oneshot::channel();
        if self.tx.send(make(tx)).is_err() {
            return fallback;
        }
        rx.await.unwrap_or(fallback)
    }
}

impl ElicitationUi for TuiUi {
    fn modes(&self) -> Capability {
        self.modes
    }

    async fn present_form(&self, prompt: FormPrompt) -> FormResponse {
        self.ask(
            |tx| UiRequest::Form(Box::new(prompt), tx),
            FormResponse::Cancel,
        )
        .await
    }

    async fn present_url(&self, prompt: UrlPrompt) -> UrlDecision {
        self.ask(
            |tx| UiRequest::Url(Box::new(prompt), tx),
            UrlDecision::Cancel,
        )
        .await
    }

    async fn notify(&self, notice: Notice) {
        let _ = self.tx.send(UiRequest::Notify(notice));
    }

    async fn completion_stalled(&self, stalled: StalledCompletion) -> StallChoice {
        self.ask(|tx| UiRequest::Stalled(stalled, tx), StallChoice::Cancel)
            .await
    }

    async fn progress(&self, update: ProgressUpdate) {
        let _ = self.tx.send(UiRequest::Progress(update));
    }

    async fn required_overview(&self, overview: RequiredOverview) -> OverviewChoice {
        self.ask(
            |tx| UiRequest::Overview(Box::new(overview), tx),
            OverviewChoice::Cancel,
        )
        .await
    }
}
