//! Sending a server request to the client and waiting for its answer, the timeout, the
//! call's cancellation or the client's disconnection; the checks made before sending.

use std::time::Duration;

use mcp_elicit_core::message::{CreateResult, METHOD_CREATE, Mode};
use rmcp::ServiceError;
use rmcp::model::{CustomRequest, ProtocolVersion, ServerRequest};
use rmcp::service::PeerRequestOptions;
use serde_json::Value;

use crate::error::{Error, ErrorKind};

use super::Elicitor;

impl Elicitor {
    pub(super) fn check_protocol(&self) -> Result<(), Error> {
        match &self.protocol {
            Some(v) if v.as_str() >= ProtocolVersion::V_2026_07_28.as_str() => Err(Error::new(
                ErrorKind::UnsupportedProtocol,
                format!(
                    "protocol {} does not allow elicitation/create requests from the server",
                    v.as_str()
                ),
            )),
            _ => Ok(()),
        }
    }

    pub(crate) fn require(&self, mode: Mode) -> Result<(), Error> {
        if self.capability.supports(mode) {
            Ok(())
        } else {
            Err(Error::new(
                ErrorKind::ModeNotSupported,
                format!("the client did not declare {mode} mode elicitation; nothing was sent"),
            ))
        }
    }

    /// Sends `elicitation/create` with exactly `params` (as a custom request, so every
    /// schema keyword, `pattern` included, reaches the client) and waits for the answer,
    /// the timeout, the call's cancellation or the client's disconnection.
    pub(super) async fn send(
        &self,
        params: Value,
        timeout: Duration,
    ) -> Result<CreateResult, Error> {
        let result = self.send_request(METHOD_CREATE, params, timeout).await?;
        parse_result(&result)
    }

    /// Sends the 2025-11-25 server request `method` with exactly `params` (sampling,
    /// roots) and returns the client's result as JSON.
    pub(crate) async fn send_raw(
        &self,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> Result<Value, Error> {
        let result = self.send_request(method, params, timeout).await?;
        serde_json::to_value(&result).map_err(|e| {
            Error::new(
                ErrorKind::MalformedReply,
                format!("the client's answer is not JSON: {e}"),
            )
        })
    }

    async fn send_request(
        &self,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> Result<rmcp::model::ClientResult, Error> {
        self.check_protocol()?;
        let request =
            ServerRequest::CustomRequest(CustomRequest::new(method.to_owned(), Some(params)));
        let mut handle = self
            .peer
            .send_request_with_option(request, PeerRequestOptions::no_options())
            .await
            .map_err(service_error)?;
        enum Ended {
            Answer(
                Result<
                    Result<rmcp::model::ClientResult, ServiceError>,
                    tokio::sync::oneshot::error::RecvError,
                >,
            ),
            Cancelled,
            Timeout,
        }
        let ended = tokio::select! {
            answer = &mut handle.rx => Ended::Answer(answer),
            () = self.ct.cancelled() => Ended::Cancelled,
            () = tokio::time::sleep(timeout) => Ended::Timeout,
        };
        match ended {
            Ended::Answer(Ok(Ok(result))) => Ok(result),
            Ended::Answer(Ok(Err(e))) => Err(service_error(e)),
            Ended::Answer(Err(_)) => Err(disconnected()),
            Ended::Cancelled => {
                let _ = handle
                    .cancel(Some("the tool call was cancelled".to_owned()))
                    .await;
                Err(Error::new(
                    ErrorKind::Cancelled,
                    "the tool call was cancelled; the elicitation was abandoned",
                ))
            }
            Ended::Timeout => {
                let _ = handle
                    .cancel(Some("elicitation timed out".to_owned()))
                    .await;
                Err(Error::new(
                    ErrorKind::Timeout,
                    format!(
                        "no answer within {} s; the request was cancelled",
                        timeout.as_secs()
                    ),
                ))
            }
        }
    }
}

fn disconnected() -> Error {
    Error::new(
        ErrorKind::Disconnected,
        "the client disconnected before answering",
    )
}

fn service_error(e: ServiceError) -> Error {
    match e {
        ServiceError::McpError(data) => Error::client(data),
        ServiceError::TransportClosed | ServiceError::TransportSend(_) => disconnected(),
        ServiceError::Timeout { timeout } => Error::new(
            ErrorKind::Timeout,
            format!("no answer within {} s", timeout.as_secs()),
        ),
        ServiceError::Cancelled { reason } => Error::new(
            ErrorKind::Cancelled,
            format!(
                "the request was cancelled: {}",
                reason.unwrap_or_else(|| "no reason given".into())
            ),
        ),
        other => Error::new(
            ErrorKind::MalformedReply,
            format!("unexpected answer: {other}"),
        ),
    }
}

fn parse_result(result: &rmcp::model::ClientResult) -> Result<CreateResult, Error> {
    let value = serde_json::to_value(result).map_err(|e| {
        Error::new(
            ErrorKind::MalformedReply,
            format!("the client's answer is not JSON: {e}"),
        )
    })?;
    CreateResult::parse(&value).map_err(|e| {
        Error::core(
            ErrorKind::MalformedReply,
            "the client's answer is malformed",
            e,
        )
    })
}
