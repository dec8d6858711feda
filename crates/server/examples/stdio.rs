//! A stdio server (the client starts it as a child process): one tool, `rsvp`, that asks
//! a typed form, on 2025-11-25 and 2026-07-28. The user is the local OS user.
//!
//! `mcp-elicit call stdio:target/debug/examples/stdio rsvp --respond accept-defaults`
use mcp_elicit_server::{
    Edge, ElicitationConfig, Elicitations, FormOutcome, IdentityPolicy, Principal, SessionScope,
    respond,
};
use rmcp::handler::server::tool::Extension;
use rmcp::model::{CallToolRequestParams as Call, CallToolResponse, CallToolResult, ContentBlock};
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt, service::RequestContext as Ctx};
use rmcp::{tool, tool_handler, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Rsvp {
    /// Your name
    name: String,
    /// Are you coming?
    #[serde(default)]
    coming: bool,
    /// How many guests you bring
    #[schemars(range(min = 0, max = 3))]
    guests: Option<u8>,
}

#[derive(Clone)]
struct App {
    scope: SessionScope,
}

#[tool_router]
impl App {
    #[tool(description = "Answers the invitation")]
    async fn rsvp(
        &self,
        ctx: Ctx<RoleServer>,
        Extension(call): Extension<Call>,
    ) -> Result<CallToolResponse, ErrorData> {
        let answer = async {
            let mut ask = self.scope.ask(&ctx, &call).await?;
            ask.form::<Rsvp>("rsvp", "Are you coming to the party?").await
        };
        respond(answer.await.map(|outcome| {
            let text = match outcome {
                FormOutcome::Accepted(Rsvp { name, coming: true, guests }) => {
                    format!("{name} is coming with {} guests", guests.unwrap_or(0))
                }
                FormOutcome::Accepted(Rsvp { name, .. }) => format!("{name} is not coming"),
                _ => "no answer".to_owned(),
            };
            CallToolResult::success(vec![ContentBlock::text(text)])
        }))
    }
}

// `Edge` puts the call in each request's extensions: no `call_tool` override needed.
#[tool_handler]
impl ServerHandler for App {}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let user = Principal::current_local_user();
    let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(user)));
    let app = Edge::new(App { scope: hub.scope()? });
    // `edge_rw`: stdin/stdout as an rmcp transport that sends 2026-07-28 rounds with
    // their exact JSON (`pattern` and every other keyword).
    let (stdin, stdout) = rmcp::transport::stdio();
    let running = app.serve(mcp_elicit_server::wire::edge_rw(stdin, stdout)).await?;
    running.waiting().await?;
    Ok(())
}
