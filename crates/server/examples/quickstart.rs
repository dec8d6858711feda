//! Two tools over Streamable HTTP, on 2025-11-25 and 2026-07-28 from the same code:
//! `book_table` (a typed form: party size 1-12, a date, a seating enum) and
//! `link_calendar` (URL mode: -32042 on 2025-11-25, input rounds on 2026-07-28, until the
//! callback page below is finished).
//!
//! `cargo run -p mcp-elicit-server --example quickstart [ADDR]` (default 127.0.0.1:8080),
//! then `mcp-elicit call http://127.0.0.1:8080/mcp book_table --respond accept-defaults`.
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use axum::{extract::Query, extract::State, response::Html, routing::get};
use mcp_elicit_server::{Ask, Elicitations, PageQuery, PendingElicitation, Principal};
use mcp_elicit_server::{SessionScope, ToolReply, text};
use rmcp::{RoleServer, ServerHandler, service::RequestContext as Ctx};
use rmcp::{tool, tool_handler, tool_router};

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
enum Seating {
    Indoor,
    Terrace,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Booking {
    /// How many people
    #[schemars(range(min = 1, max = 12))]
    party_size: u8,
    /// Which day
    #[schemars(extend("format" = "date"))]
    date: String,
    seating: Seating,
}

type Linked = Arc<Mutex<HashSet<Principal>>>;
type Page = State<(Elicitations, Linked)>;
struct App {
    scope: SessionScope,
    linked: Linked,
    page: String,
}

#[tool_router]
impl App {
    #[tool(description = "Books a table")]
    async fn book_table(&self, ctx: Ctx<RoleServer>) -> ToolReply {
        let booked = |mut ask: Ask| async move {
            let booked = ask.form::<Booking>("booking", "Book a table").await?.ok();
            Ok(text(booked.map_or("Nothing booked".into(), |b| {
                format!("Table for {} on {}, {:?}", b.party_size, b.date, b.seating)
            })))
        };
        self.scope.tool(&ctx, booked).await
    }

    #[tool(description = "Links your calendar")]
    async fn link_calendar(&self, ctx: Ctx<RoleServer>) -> ToolReply {
        let linked = |mut ask: Ask| async move {
            if !self.linked.lock().unwrap().contains(ask.user()) {
                ask.url_page("calendar", "Link your calendar", &self.page).await?;
            }
            let yes = self.linked.lock().unwrap().contains(ask.user());
            Ok(text(if yes { "Your calendar is linked" } else { "Not linked" }))
        };
        self.scope.tool(&ctx, linked).await
    }
}

// `Edge` (inside `scoped_router`) gives each tool its call: no `call_tool` override.
#[tool_handler]
impl ServerHandler for App {}

// The page behind the URL. Here its user is the local user (loopback only); a real page
// signs the browser in and completes only for the user the elicitation is bound to.
async fn finish(State((hub, linked)): Page, q: Query<PageQuery>) -> Html<&'static str> {
    let user = Principal::current_local_user();
    // Recorded before the client hears of it; an unknown, used or other user's id: nothing.
    let record = |r: PendingElicitation| async move {
        Ok::<_, std::io::Error>(linked.lock().unwrap().insert(r.principal))
    };
    let done = hub.complete_with(&user, &q.id, record).await.is_ok();
    Html(if done { "Calendar linked: go back to your MCP client" } else { "Nothing to link" })
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args().nth(1).unwrap_or_else(|| "127.0.0.1:8080".into());
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let base = format!("http://{}", listener.local_addr()?);
    let (hub, linked, url) = (Elicitations::local(), Linked::default(), format!("{base}/callback"));
    let l = linked.clone();
    let page = get(|| async { Html("<form method=post><button>Link my calendar</button></form>") });
    let pages = axum::Router::new().route("/callback", page.post(finish));
    // `/mcp`: each session's handler behind `Edge`, kept alive, rounds with their exact JSON.
    let handler = move |scope| App { scope, linked: l.clone(), page: url.clone() };
    let app = hub.scoped_router(handler, Default::default()).merge(pages.with_state((hub, linked)));
    println!("{base}/mcp");
    axum::serve(listener, app).await
}
