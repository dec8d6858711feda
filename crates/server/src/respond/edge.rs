//! [`Edge`]: the `ServerHandler` wrapper that decides the revision once per request and
//! puts the 2026-07-28 wire right (`resultType` on every result, no -32042).

use std::borrow::Cow;

#[allow(deprecated)]
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelledNotificationParam, CompleteRequestParams,
    CompleteResult, CustomNotification, CustomRequest, CustomResult, DiscoverResult,
    GetPromptRequestParams, GetPromptResponse, InitializeRequestParams, InitializeResult,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ProgressNotificationParam, ProtocolVersion, ReadResourceRequestParams,
    ReadResourceResponse, ResultType, ServerConfig, SetLevelRequestParams, SubscribeRequestParams,
    Tool, UnsubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};

use crate::revision::Revision;

/// The handler wrapper every handler using [`Ask`](crate::Ask) is served through (over
/// Streamable HTTP, stdio, or anything else rmcp serves): `Edge::new(handler)`.
///
/// Per request it decides the [`Revision`] once (from the request's protocol version)
/// and records it in the request's extensions for [`Revision::of`]. On 2026-07-28:
///
/// - every result carries `resultType` (`"complete"` unless it says otherwise): rmcp
///   3.11 leaves it out of results built by deserializing (its ordinary results model
///   the field as optional and only its constructors set it; an upstream gap);
/// - -32042 is never sent (the revision removed it): a handler returning it is a bug,
///   answered as an internal error, without logging the error's URLs.
///
/// The exact JSON of a round's requests (rmcp's typed `ElicitRequest` drops `pattern`)
/// is put on the wire below rmcp's typed model: by
/// [`exact_rounds_http`](crate::wire::exact_rounds_http) on Streamable HTTP (the
/// reference router installs it) and [`EdgeTransport`](crate::wire::EdgeTransport) on
/// stdio and other transports. 2025-11-25 requests pass through untouched.
///
/// It also puts a clone of the request's parameters (`CallToolRequestParams`,
/// `GetPromptRequestParams`, `ReadResourceRequestParams`) in the request's extensions,
/// so a handler built with rmcp's `#[tool_router]` / `#[tool_handler]` (whose tool
/// functions do not get the request) can still build its [`Ask`](crate::Ask) with
/// [`SessionScope::ask_tool`](crate::SessionScope::ask_tool), or take the parameters
/// with rmcp's `Extension<CallToolRequestParams>` extractor:
///
/// ```
/// use mcp_elicit_server::rmcp::handler::server::tool::Extension;
/// use mcp_elicit_server::rmcp::model::CallToolRequestParams;
///
/// // In a `#[tool]` function of a `#[tool_router]` impl served through `Edge`:
/// fn tool_name(Extension(call): Extension<CallToolRequestParams>) -> String {
///     call.name.to_string()
/// }
/// # let _ = tool_name;
/// ```
#[derive(Debug, Clone)]
pub struct Edge<S> {
    inner: S,
}

impl<S> Edge<S> {
    /// `inner` behind the edge.
    ///
    /// ```
    /// use mcp_elicit_server::Edge;
    /// use mcp_elicit_server::rmcp::model::{ServerCapabilities, ServerConfig};
    /// use mcp_elicit_server::rmcp::ServerHandler;
    ///
    /// struct Tools;
    /// impl ServerHandler for Tools {
    ///     fn get_info(&self) -> ServerConfig {
    ///         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    ///     }
    /// }
    /// // Serve `Edge::new(Tools)` instead of `Tools`: it is a ServerHandler too.
    /// let edge = Edge::new(Tools);
    /// assert!(edge.get_info().capabilities.tools.is_some());
    /// ```
    pub fn new(inner: S) -> Self {
        Self { inner }
    }

    /// The wrapped handler.
    ///
    /// ```
    /// use mcp_elicit_server::{Edge, Elicitations};
    ///
    /// struct Tools {
    ///     hub: Elicitations,
    /// }
    /// let edge = Edge::new(Tools { hub: Elicitations::local() });
    /// assert_eq!(edge.inner().hub.config().max_attempts, 2);
    /// ```
    pub fn inner(&self) -> &S {
        &self.inner
    }
}

/// Records the revision of `ctx` in its extensions; returns it.
fn decide(ctx: &mut RequestContext<RoleServer>) -> Revision {
    let revision = Revision::of_version(ctx.protocol_version().as_ref());
    ctx.extensions.insert(revision);
    revision
}

fn complete_type(result_type: &mut Option<ResultType>) {
    if result_type.is_none() {
        *result_type = Some(ResultType::COMPLETE);
    }
}

fn guard_32042(revision: Revision, e: ErrorData) -> ErrorData {
    if revision == Revision::Rounds
        && e.code.0 == mcp_elicit_core::message::URL_ELICITATION_REQUIRED
    {
        // The data holds capability URLs: never logged.
        tracing::error!(
            "a handler answered -32042 on a 2026-07-28 request; sent as an internal error"
        );
        return ErrorData::internal_error(
            "the tool needs a URL interaction but answered it the 2025-11-25 way (-32042), which this \
             revision does not have",
            None,
        );
    }
    e
}

macro_rules! listed {
    ($name:ident, $params:ty, $result:ty) => {
        async fn $name(
            &self,
            request: $params,
            mut context: RequestContext<RoleServer>,
        ) -> Result<$result, ErrorData> {
            let revision = decide(&mut context);
            // Boxed, as every handler future below: rmcp runs each request in a task
            // whose future holds the largest of these arms by value, and tokio moves
            // that future (spawn, output); a box keeps it a pointer wide whatever the
            // wrapped handler's futures weigh (the reference server's are boxed already:
            // no change measured there, see BENCHMARKS.md).
            let mut result = Box::pin(self.inner.$name(request, context)).await?;
            if revision == Revision::Rounds {
                complete_type(&mut result.result_type);
            }
            Ok(result)
        }
    };
}

macro_rules! answered {
    ($name:ident, $params:ty, $response:ident) => {
        async fn $name(
            &self,
            request: $params,
            mut context: RequestContext<RoleServer>,
        ) -> Result<$response, ErrorData> {
            let revision = decide(&mut context);
            context.extensions.insert(request.clone());
            match Box::pin(self.inner.$name(request, context)).await {
                Ok($response::Complete(mut r)) if revision == Revision::Rounds => {
                    complete_type(&mut r.result_type);
                    Ok($response::Complete(r))
                }
                Ok(other) => Ok(other),
                Err(e) => Err(guard_32042(revision, e)),
            }
        }
    };
}

#[allow(deprecated)]
impl<S: ServerHandler> ServerHandler for Edge<S> {
    fn get_info(&self) -> ServerConfig {
        self.inner.get_info()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        self.inner.supported_protocol_versions()
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        Box::pin(self.inner.initialize(request, context)).await
    }

    async fn discover(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        self.inner.discover(context).await
    }

    async fn ping(&self, context: RequestContext<RoleServer>) -> Result<(), ErrorData> {
        self.inner.ping(context).await
    }

    listed!(complete, CompleteRequestParams, CompleteResult);
    listed!(list_tools, Option<PaginatedRequestParams>, ListToolsResult);
    listed!(
        list_prompts,
        Option<PaginatedRequestParams>,
        ListPromptsResult
    );
    listed!(
        list_resources,
        Option<PaginatedRequestParams>,
        ListResourcesResult
    );
    listed!(
        list_resource_templates,
        Option<PaginatedRequestParams>,
        ListResourceTemplatesResult
    );
    answered!(call_tool, CallToolRequestParams, CallToolResponse);
    answered!(get_prompt, GetPromptRequestParams, GetPromptResponse);
    answered!(
        read_resource,
        ReadResourceRequestParams,
        ReadResourceResponse
    );

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.inner.get_tool(name)
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.subscribe(request, context).await
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.unsubscribe(request, context).await
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.set_level(request, context).await
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        self.inner.on_custom_request(request, context).await
    }

    async fn on_cancelled(
        &self,
        notification: CancelledNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        self.inner.on_cancelled(notification, context).await
    }

    async fn on_progress(
        &self,
        notification: ProgressNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        self.inner.on_progress(notification, context).await
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.inner.on_initialized(context).await
    }

    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        self.inner.on_roots_list_changed(context).await
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        context: NotificationContext<RoleServer>,
    ) {
        self.inner
            .on_custom_notification(notification, context)
            .await
    }
}
