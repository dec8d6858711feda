//! [`Retryable`]: the three requests 2026-07-28 can answer with a round, and what
//! [`Ask`](super::Ask) reads of them.

use rmcp::model::{
    CallToolRequestParams, GetPromptRequestParams, InputResponses, JsonObject,
    ReadResourceRequestParams,
};

/// A request that can be retried with `inputResponses` and `requestState`
/// (`tools/call`, `prompts/get`, `resources/read`: the only three the 2026-07-28
/// revision allows an `InputRequiredResult` on).
///
/// What [`SessionScope::ask`](crate::SessionScope::ask) binds the sealed state to:
///
/// ```
/// use mcp_elicit_server::Retryable;
/// use mcp_elicit_server::rmcp::model::CallToolRequestParams;
///
/// let call = CallToolRequestParams::new("book");
/// assert_eq!((call.method(), call.name()), ("tools/call", "book"));
/// // A first call: no answers, no state to open.
/// assert!(call.input_responses().is_none() && call.request_state().is_none());
/// ```
pub trait Retryable: Sync {
    /// The JSON-RPC method.
    fn method(&self) -> &'static str;
    /// The tool or prompt name, or the resource URI.
    fn name(&self) -> &str;
    /// The arguments (`None` for a resource).
    fn arguments(&self) -> Option<&JsonObject>;
    /// The client's answers to the previous round.
    fn input_responses(&self) -> Option<&InputResponses>;
    /// The echoed `requestState`.
    fn request_state(&self) -> Option<&str>;
}

impl Retryable for CallToolRequestParams {
    fn method(&self) -> &'static str {
        "tools/call"
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn arguments(&self) -> Option<&JsonObject> {
        self.arguments.as_ref()
    }
    fn input_responses(&self) -> Option<&InputResponses> {
        self.input_responses.as_ref()
    }
    fn request_state(&self) -> Option<&str> {
        self.request_state.as_deref()
    }
}

impl Retryable for GetPromptRequestParams {
    fn method(&self) -> &'static str {
        "prompts/get"
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn arguments(&self) -> Option<&JsonObject> {
        self.arguments.as_ref()
    }
    fn input_responses(&self) -> Option<&InputResponses> {
        self.input_responses.as_ref()
    }
    fn request_state(&self) -> Option<&str> {
        self.request_state.as_deref()
    }
}

impl Retryable for ReadResourceRequestParams {
    fn method(&self) -> &'static str {
        "resources/read"
    }
    fn name(&self) -> &str {
        &self.uri
    }
    fn arguments(&self) -> Option<&JsonObject> {
        None
    }
    fn input_responses(&self) -> Option<&InputResponses> {
        self.input_responses.as_ref()
    }
    fn request_state(&self) -> Option<&str> {
        self.request_state.as_deref()
    }
}
