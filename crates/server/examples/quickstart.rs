//! Two tools over Streamable HTTP, on 2025-11-25 and 2026-07-28 from the same code:
//! `book_table` (a typed form: party size 1-12, a date, a seating enum) and
//! `link_calendar` (URL mode: -32042 on 2025-11-25, input rounds on 2026-07-28, until the
//! user presses the button on the page at `/callback`).
//!
//! `cargo run -p mcp-elicit-server --example quickstart [ADDR]` (default 127.0.0.1:8080),
//! then `mcp-elicit call http://127.0.0.1:8080/mcp book_table --respond accept-defaults`.
use mcp_elicit_server::prelude::*;

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

struct App {
    scope: SessionScope,
    calendar: ConfirmPage,
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
            if !self.calendar.confirmed(ask.user()) {
                ask.url_page("calendar", "Link your calendar", self.calendar.url()).await?;
            }
            let yes = self.calendar.confirmed(ask.user());
            Ok(text(if yes { "Your calendar is linked" } else { "Not linked" }))
        };
        self.scope.tool(&ctx, linked).await
    }
}

// `Edge` (inside `HttpServer`) gives each tool its call: no `call_tool` override.
#[tool_handler]
impl ServerHandler for App {}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args().nth(1).unwrap_or_else(|| "127.0.0.1:8080".into());
    // `/mcp` with the defaults (sessions kept alive while a user answers, rounds with
    // their exact JSON), and the page: its user is the local user (loopback only); it
    // completes only for the user the elicitation is bound to, then notifies the client.
    let mut server = HttpServer::bind(addr, Elicitations::local()).await?;
    let calendar = server.confirm_page("/callback", "Link my calendar", "Calendar linked");
    println!("{}", server.mcp_url());
    server.serve(move |scope| App { scope, calendar: calendar.clone() }).await
}
