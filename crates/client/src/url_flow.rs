//! The URL-mode consent pipeline, shared by `elicitation/create` and -32042.
//!
//! 1. [`url_safety::analyze`]: a blocked URL (or one that is not `http`/`https`) is never
//!    offered; the user is told why and the server gets `decline`.
//! 2. The host asks for explicit consent, showing the server, the message as plain text,
//!    the full URL, the registrable domain and the warnings.
//! 3. Only after consent, the opener hands the normalized URL to the system browser. The
//!    client itself never fetches or prefetches it.

use mcp_elicit_core::message::UrlRequest;
use mcp_elicit_core::url_safety::{self, Verdict};

use crate::client::ElicitationClient;
use crate::identity::ServerIdentity;
use crate::opener::UrlOpener;
use crate::text::PlainText;
use crate::ui::{ElicitationUi, Notice, UrlDecision, UrlOrigin, UrlPrompt};

/// What came of one URL elicitation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlOutcome {
    /// Consent given and the URL handed to the browser (`accept`).
    Opened,
    /// The user said no (`decline`).
    Declined,
    /// Dismissed, or the browser could not be started (`cancel`).
    Cancelled,
    /// Refused without asking: the URL is unsafe (`decline`).
    Blocked,
}

/// The string to hand to the browser: the normalized URL when the analysis has one and
/// its scheme is http(s); `None` means the URL must not be opened.
fn openable(analysis: &url_safety::UrlAnalysis) -> Option<String> {
    let normalized = analysis.url.as_deref()?;
    let parsed = url::Url::parse(normalized).ok()?;
    matches!(parsed.scheme(), "https" | "http").then(|| parsed.to_string())
}

impl<U: ElicitationUi, O: UrlOpener> ElicitationClient<U, O> {
    /// Runs the consent pipeline for one URL elicitation.
    pub(crate) async fn consent_url(
        &self,
        server: &ServerIdentity,
        origin: UrlOrigin,
        request: &UrlRequest,
    ) -> UrlOutcome {
        if self.is_stop_asking() {
            return UrlOutcome::Declined;
        }
        let analysis = url_safety::analyze(&request.url);
        let target = openable(&analysis);
        let Some(target) = target.filter(|_| analysis.verdict != Verdict::Block) else {
            self.shared
                .ui
                .notify(Notice::UrlBlocked {
                    server: server.clone(),
                    url: request.url.clone(),
                    analysis: Box::new(analysis),
                })
                .await;
            return UrlOutcome::Blocked;
        };
        let prompt = UrlPrompt {
            server: server.clone(),
            origin,
            elicitation_id: request.elicitation_id.clone(),
            message: PlainText::from_untrusted(&request.message),
            url: request.url.clone(),
            analysis,
        };
        match self.shared.ui.present_url(prompt).await {
            UrlDecision::Open => match self.shared.opener.open(&target) {
                Ok(()) => UrlOutcome::Opened,
                Err(e) => {
                    self.shared
                        .ui
                        .notify(Notice::OpenFailed {
                            server: server.clone(),
                            url: request.url.clone(),
                            error: e.to_string(),
                        })
                        .await;
                    UrlOutcome::Cancelled
                }
            },
            UrlDecision::Decline => UrlOutcome::Declined,
            UrlDecision::Cancel => UrlOutcome::Cancelled,
            UrlDecision::StopAsking => {
                self.set_stop_asking(true);
                UrlOutcome::Declined
            }
        }
    }
}
