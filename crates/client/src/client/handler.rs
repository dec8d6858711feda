//! The rmcp [`ClientHandler`] of [`ElicitationClient`]: elicitation requests, completion
//! and progress notifications, and the declared capability.

use mcp_elicit_core::message::{Capability, CompleteNotification, METHOD_COMPLETE, METHOD_CREATE};
use rmcp::model::{
    ClientCapabilities, ClientConfig, CustomNotification, CustomRequest, CustomResult,
    ElicitRequestParams, ElicitResult, ElicitationCapability, ErrorData, FormElicitationCapability,
    NumberOrString, ProgressNotificationParam, ProtocolVersion, UrlElicitationCapability,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ClientHandler, RoleClient};
use serde_json::Value;

use super::ElicitationClient;
use crate::opener::UrlOpener;
use crate::registry::CompleteOutcome;
use crate::text::PlainText;
use crate::ui::{ElicitationUi, Notice, ProgressUpdate};

impl<U: ElicitationUi, O: UrlOpener> ElicitationClient<U, O> {
    async fn on_complete(&self, params: Option<Value>, peer: &rmcp::Peer<RoleClient>) {
        let parsed = CompleteNotification::parse(params.as_ref().unwrap_or(&Value::Null));
        let Ok(notification) = parsed else {
            tracing::debug!("ignoring a malformed elicitation completion notification");
            return;
        };
        match self.shared.registry.complete(&notification.elicitation_id) {
            CompleteOutcome::Completed => {
                self.shared
                    .ui
                    .notify(Notice::Completed {
                        server: self.identity(peer),
                        elicitation_id: notification.elicitation_id,
                    })
                    .await;
            }
            outcome => {
                tracing::debug!(?outcome, id = %notification.elicitation_id, "ignoring completion notification")
            }
        }
    }
}

fn elicitation_capability(cap: Capability) -> Option<ElicitationCapability> {
    if !cap.any() {
        return None;
    }
    let mut ec = ElicitationCapability::new();
    if cap.form {
        ec = ec.with_form(FormElicitationCapability::new());
    }
    if cap.url {
        ec.url = Some(UrlElicitationCapability::new());
    }
    Some(ec)
}

impl<U: ElicitationUi, O: UrlOpener> ClientHandler for ElicitationClient<U, O> {
    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        // Prefer the raw params captured at the transport; rmcp's typed params drop `pattern`.
        let raw = match self.shared.raw.take(&context.id) {
            Some(raw) => raw,
            None => serde_json::to_value(&request)
                .map_err(|e| ErrorData::internal_error(e.to_string(), None))?,
        };
        let result = self.handle_create(raw, &context).await?;
        serde_json::from_value(result).map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleClient>,
    ) -> Result<CustomResult, ErrorData> {
        if request.method != METHOD_CREATE {
            return Err(ErrorData::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                request.method,
                None,
            ));
        }
        // rmcp could not type it: it is malformed; the core says how, for the -32602.
        let raw = self
            .shared
            .raw
            .take(&context.id)
            .or(request.params)
            .unwrap_or(Value::Null);
        self.handle_create(raw, &context)
            .await
            .map(CustomResult::new)
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        context: NotificationContext<RoleClient>,
    ) {
        if notification.method == METHOD_COMPLETE {
            self.on_complete(notification.params, &context.peer).await;
        }
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        context: NotificationContext<RoleClient>,
    ) {
        let token = match &params.progress_token.0 {
            NumberOrString::Number(n) => n.to_string(),
            NumberOrString::String(s) => s.to_string(),
        };
        let update = ProgressUpdate {
            server: self.identity(&context.peer),
            token,
            progress: params.progress,
            total: params.total,
            message: params.message.as_deref().map(PlainText::from_untrusted),
        };
        self.shared.ui.progress(update).await;
    }

    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation = elicitation_capability(self.shared.capability);
        ClientConfig::new(capabilities, self.shared.config.client_info.clone())
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }
}
