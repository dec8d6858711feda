//! Where results leave: [`Stop`] and [`respond`] (a handler's outcome to rmcp's
//! response types) and [`Edge`] (the service wrapper that decides the revision once per
//! request and puts the 2026-07-28 wire right).

mod edge;
mod round;

use rmcp::ErrorData;
use rmcp::model::{
    CallToolResponse, CallToolResult, GetPromptResponse, GetPromptResult, InputRequiredResult,
    ReadResourceResponse, ReadResourceResult,
};

use crate::error::Error;

pub use edge::Edge;
pub(crate) use round::EXACT_REQUESTS_META;
pub use round::InputRound;

/// Why a handler stopped before its result: input is still needed (a 2026-07-28
/// round), the user ended it, or it failed. Return it with `?`; [`respond`] or
/// [`respond_tool`] finishes the handler.
///
/// What `?` makes of an [`Error`]: user-driven ends are [`Stop::User`], the rest
/// [`Stop::Fail`] with the JSON-RPC error; `respond` answers both as errors,
/// `respond_tool` answers [`Stop::User`] as a tool result the model can read:
///
/// ```
/// use mcp_elicit_server::rmcp::model::CallToolResponse;
/// use mcp_elicit_server::{Error, ErrorKind, FormOutcome, Stop, respond, respond_tool};
///
/// let declined = || Stop::from(FormOutcome::<u8>::Declined.accepted().unwrap_err());
/// assert!(matches!(declined(), Stop::User(e) if e.kind() == ErrorKind::UserDeclined));
/// assert_eq!(respond::<mcp_elicit_server::rmcp::model::CallToolResult>(Err(declined())).unwrap_err().code.0, -32602);
/// let Ok(CallToolResponse::Complete(told)) = respond_tool(Err(declined())) else {
///     panic!("a tool result");
/// };
/// assert_eq!(told.is_error, Some(true));
///
/// let broken = Stop::from(Error::new(ErrorKind::Store, "disk I/O error"));
/// assert!(matches!(&broken, Stop::Fail(e) if e.code.0 == -32603));
/// assert!(respond_tool(Err(broken)).is_err()); // still a JSON-RPC error
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Stop {
    /// Send this round; the client asks the user and retries.
    Input(InputRound),
    /// What a person did ended the handler ([`Error::is_user_driven`]: declined,
    /// dismissed, an answer still invalid after the re-ask, no answer in time).
    /// [`respond`] answers the JSON-RPC error as before; [`respond_tool`] answers a tool
    /// result saying so ([`Error::tool_result`]), which the model can act on.
    User(Error),
    /// Answer this JSON-RPC error.
    Fail(ErrorData),
}

impl From<Error> for Stop {
    fn from(e: Error) -> Self {
        if e.is_user_driven() {
            Stop::User(e)
        } else {
            Stop::Fail(e.into())
        }
    }
}

impl From<ErrorData> for Stop {
    fn from(e: ErrorData) -> Self {
        Stop::Fail(e)
    }
}

/// A final result type whose request may also answer an `InputRequiredResult`.
///
/// Implemented for the three results 2026-07-28 allows a round on; [`respond`] uses it:
///
/// ```
/// use mcp_elicit_server::rmcp::model::{CallToolResponse, CallToolResult};
/// use mcp_elicit_server::{Complete, text};
///
/// let response: CallToolResponse = text("done").complete();
/// assert!(matches!(response, CallToolResponse::Complete(r) if r.is_error == Some(false)));
/// # let _ = <CallToolResult as Complete>::input_required;
/// ```
pub trait Complete {
    /// rmcp's response type for the request.
    type Response;
    /// The final result as the response.
    fn complete(self) -> Self::Response;
    /// A round as the response.
    fn input_required(round: InputRequiredResult) -> Self::Response;
}

impl Complete for CallToolResult {
    type Response = CallToolResponse;
    fn complete(self) -> CallToolResponse {
        CallToolResponse::Complete(self)
    }
    fn input_required(round: InputRequiredResult) -> CallToolResponse {
        CallToolResponse::InputRequired(round)
    }
}

impl Complete for GetPromptResult {
    type Response = GetPromptResponse;
    fn complete(self) -> GetPromptResponse {
        GetPromptResponse::Complete(self)
    }
    fn input_required(round: InputRequiredResult) -> GetPromptResponse {
        GetPromptResponse::InputRequired(round)
    }
}

impl Complete for ReadResourceResult {
    type Response = ReadResourceResponse;
    fn complete(self) -> ReadResourceResponse {
        ReadResourceResponse::Complete(self)
    }
    fn input_required(round: InputRequiredResult) -> ReadResourceResponse {
        ReadResourceResponse::InputRequired(round)
    }
}

/// Finishes a handler: its result, the round it stopped at, or its error, as what
/// rmcp's `call_tool` / `get_prompt` / `read_resource` return.
///
/// ```no_run
/// # use mcp_elicit_server::{respond, SessionScope, Stop};
/// # use rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock};
/// # use rmcp::{ErrorData, RoleServer, service::RequestContext};
/// # #[derive(serde::Deserialize, schemars::JsonSchema)] struct Contact { name: String }
/// async fn call_tool(scope: &SessionScope, request: CallToolRequestParams, ctx: RequestContext<RoleServer>)
///     -> Result<CallToolResponse, ErrorData> {
///     respond(add_contact(scope, &request, &ctx).await)
/// }
/// async fn add_contact(scope: &SessionScope, request: &CallToolRequestParams, ctx: &RequestContext<RoleServer>)
///     -> Result<CallToolResult, Stop> {
///     let mut ask = scope.ask(ctx, request).await?;
///     let contact = ask.form::<Contact>("contact", "Who should be added?").await?;
///     # let _ = contact;
///     Ok(CallToolResult::success(vec![ContentBlock::text("added")]))
/// }
/// ```
pub fn respond<T: Complete>(result: Result<T, Stop>) -> Result<T::Response, ErrorData> {
    match result {
        Ok(done) => Ok(done.complete()),
        Err(Stop::Input(round)) => Ok(T::input_required(round.into_result())),
        Err(Stop::User(e)) => Err(e.into()),
        Err(Stop::Fail(e)) => Err(e),
    }
}

/// What a tool answers rmcp with: what [`respond`] (for a tool), [`respond_tool`] and
/// [`SessionScope::tool`](crate::SessionScope::tool) return, and a `#[tool]` function
/// can return as is.
///
/// ```
/// use mcp_elicit_server::{ToolReply, respond, text};
///
/// let reply: ToolReply = respond(Ok(text("done")));
/// assert!(reply.is_ok());
/// ```
pub type ToolReply = Result<CallToolResponse, ErrorData>;

/// A successful tool result of one text block: `CallToolResult::success` with
/// `ContentBlock::text(text)`.
///
/// ```
/// let result = mcp_elicit_server::text("Table for 4");
/// assert_eq!(result.is_error, Some(false));
/// assert_eq!(result.content[0].as_text().map(|t| t.text.as_str()), Some("Table for 4"));
/// ```
pub fn text(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![rmcp::model::ContentBlock::text(text)])
}

/// [`respond`] for a tool, where what the user did is a result, not a failure: a
/// [`Stop::User`] (the user declined or dismissed through
/// [`FormOutcome::accepted`](crate::FormOutcome::accepted), an answer still invalid after
/// the re-ask, no answer in time) becomes a tool result with `isError: true` saying so
/// ([`Error::tool_result`]), which reaches the model, instead of JSON-RPC -32602 / -32603,
/// which it never sees. On 2026-07-28 a [`Stop::Input`] is still the
/// `InputRequiredResult` round, and every other failure is still a JSON-RPC error.
///
/// ```no_run
/// # use mcp_elicit_server::{respond_tool, SessionScope, Stop};
/// # use rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock};
/// # use rmcp::{ErrorData, RoleServer, service::RequestContext};
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Contact {
///     name: String,
/// }
/// async fn call_tool(scope: &SessionScope, request: CallToolRequestParams, ctx: RequestContext<RoleServer>)
///     -> Result<CallToolResponse, ErrorData> {
///     respond_tool(add_contact(scope, &request, &ctx).await)
/// }
/// async fn add_contact(scope: &SessionScope, request: &CallToolRequestParams, ctx: &RequestContext<RoleServer>)
///     -> Result<CallToolResult, Stop> {
///     let mut ask = scope.ask(ctx, request).await?;
///     // Declined, dismissed, invalid twice or too slow: the model reads why.
///     let contact = ask.form::<Contact>("contact", "Who should be added?").await?.accepted()?;
///     Ok(CallToolResult::success(vec![ContentBlock::text(format!("added {}", contact.name))]))
/// }
/// ```
pub fn respond_tool(result: Result<CallToolResult, Stop>) -> Result<CallToolResponse, ErrorData> {
    match result {
        Err(Stop::User(e)) => match e.tool_result() {
            Some(r) => Ok(CallToolResponse::Complete(r)),
            None => Err(e.into()),
        },
        other => respond(other),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::json;

    use super::*;

    fn text_of(result: &CallToolResult) -> String {
        result
            .content
            .first()
            .and_then(|c| c.as_text())
            .map(|t| t.text.clone())
            .unwrap_or_default()
    }

    #[test]
    fn respond_tool_answers_user_ends_as_results_and_faults_as_errors() {
        use crate::error::ErrorKind;
        let timeout = || Err(Error::new(ErrorKind::Timeout, "no answer within 600 s").into());
        // `respond`: the JSON-RPC error, as before (-32603 for a timeout).
        let plain: Result<CallToolResponse, ErrorData> = respond::<CallToolResult>(timeout());
        assert_eq!(plain.expect_err("error").code.0, -32603);
        // `respond_tool`: a result the model reads.
        match respond_tool(timeout()) {
            Ok(CallToolResponse::Complete(r)) => {
                assert_eq!(r.is_error, Some(true));
                assert!(text_of(&r).contains("did not answer in time"), "{r:?}");
            }
            other => panic!("expected a tool result: {other:?}"),
        }
        // A fault stays a JSON-RPC error.
        let url = respond_tool(Err(Error::new(ErrorKind::InvalidUrl, "http://x").into()));
        assert_eq!(url.expect_err("error").code.0, -32603);
        // A round stays a round.
        let round = InputRound::new(BTreeMap::new(), Some("s".into()));
        assert!(matches!(
            respond_tool(Err(Stop::Input(round))),
            Ok(CallToolResponse::InputRequired(_))
        ));
    }
    use crate::wire::exact_result;
    use rmcp::model::ServerResult;

    #[test]
    fn rounds_leave_with_their_exact_requests() {
        let exact = json!({"method": "elicitation/create", "params": {"mode": "form", "message": "m",
            "requestedSchema": {"type": "object", "properties": {"h": {"type": "string", "pattern": "^a+$"}}}}});
        let round = InputRound::new(
            BTreeMap::from([("q".to_owned(), exact.clone())]),
            Some("s".into()),
        );
        let out = serde_json::to_value(exact_result(ServerResult::InputRequiredResult(
            round.to_result(),
        )))
        .expect("json");
        assert_eq!(out, round.to_value());
        assert_eq!(out["inputRequests"]["q"], exact);
        assert!(out.get("_meta").is_none(), "{out}");
    }

    #[test]
    fn a_round_for_an_exact_writer_carries_no_typed_copy_and_leaves_the_same() {
        let exact = json!({"method": "elicitation/create", "params": {"mode": "form", "message": "m",
            "requestedSchema": {"type": "object", "properties": {"h": {"type": "string", "pattern": "^a+$"}}}}});
        for state in [Some("s".to_owned()), None] {
            let round = InputRound::new(BTreeMap::from([("q".to_owned(), exact.clone())]), state);
            let lean = round.clone().exact_only().into_result();
            assert!(lean.input_requests.is_none(), "no typed copy");
            let out = serde_json::to_value(exact_result(ServerResult::InputRequiredResult(lean)))
                .expect("json");
            assert_eq!(
                out,
                round.to_value(),
                "the same on the wire as with the copy"
            );
        }
    }
}
