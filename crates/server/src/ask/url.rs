//! URL questions: [`Ask::url`] and [`Ask::url_page`] (-32042 on 2025-11-25, rounds until
//! the page is finished on 2026-07-28), and settling them when a retry answers.

use std::collections::BTreeMap;
use std::future::Future;

use mcp_elicit_core::message::{Action, METHOD_CREATE, Mode, UrlRequest};
use serde_json::{Value, json};

use super::Ask;
use super::replies::parse_reply;
#[cfg(doc)]
use crate::elicitor::Elicitor;
use crate::elicitor::{UrlElicitation, UrlOutcome};
use crate::error::{Error, ErrorKind};
use crate::respond::Stop;
use crate::revision::Revision;

impl Ask {
    /// [`Ask::url`] for a page of your own at `page`: the elicitation (made only when
    /// a new one is needed) is [`UrlElicitation::to_page`]`(message, page)`, its id in
    /// the page's `elicitationId` query parameter ([`PageQuery`](crate::PageQuery)).
    ///
    /// ```no_run
    /// # async fn run(mut ask: mcp_elicit_server::Ask) -> Result<(), mcp_elicit_server::Stop> {
    /// ask.url_page("calendar", "Link your calendar", "https://mcp.example.com/link").await?;
    /// # Ok(()) }
    /// ```
    pub async fn url_page(
        &mut self,
        key: &str,
        message: &str,
        page: &str,
    ) -> Result<UrlOutcome, Stop> {
        self.url(key, || async { UrlElicitation::to_page(message, page) })
            .await
    }

    /// A URL-mode interaction under `key`; `make` builds the elicitation (and registers
    /// whatever the page needs) only when a new one is needed.
    ///
    /// - 2025-11-25: ends the call with -32042 for it ([`Elicitor::url_required`]); the
    ///   client retries once the page is finished, and the handler finds its own
    ///   outcome (check it before calling this).
    /// - 2026-07-28: the first call ends with a round carrying the URL (no
    ///   `elicitationId`) and a state holding the stored elicitation's id; a retry
    ///   before the page is finished ends with the same round again (same URL: a client
    ///   may skip asking the user to consent twice) instead of blocking the request; a
    ///   retry after it returns [`UrlOutcome::Completed`], once (the stored elicitation
    ///   is used up); a decline or cancel returns [`UrlOutcome::Declined`] /
    ///   [`UrlOutcome::Cancelled`] and forgets it.
    ///
    /// Refused when the client did not declare URL mode
    /// ([`ErrorKind::ModeNotSupported`] on 2025-11-25, -32021
    /// [`ErrorKind::MissingCapability`] on 2026-07-28): tell the user instead ([`Elicitor::url_unsupported`]), never fall back
    /// to a form for secrets.
    ///
    /// A calendar link on 2025-11-25, run against an rmcp client over an in-memory pipe
    /// (hidden): -32042, the page completes it, the client is notified and its retry finds the
    /// link:
    ///
    /// ```
    /// # use std::collections::HashSet;
    /// # use std::sync::{Arc, Mutex};
    /// # use mcp_elicit_server::rmcp::model::*;
    /// # use mcp_elicit_server::rmcp::service::RequestContext;
    /// # use mcp_elicit_server::rmcp::{ClientHandler, ErrorData, RoleClient, RoleServer, ServerHandler, ServiceError, ServiceExt};
    /// # use mcp_elicit_server::serde_json::json;
    /// use mcp_elicit_server::{Elicitations, Principal, SessionScope, Stop, UrlElicitation, text};
    ///
    /// /// Who linked their calendar: what the page records, the truth on every retry.
    /// type Linked = Arc<Mutex<HashSet<Principal>>>;
    ///
    /// async fn calendar(
    ///     scope: &SessionScope,
    ///     linked: &Linked,
    ///     request: &CallToolRequestParams,
    ///     ctx: &RequestContext<RoleServer>,
    /// ) -> Result<CallToolResult, Stop> {
    ///     let mut ask = scope.ask(ctx, request).await?;
    ///     // Your own outcome first; ask for the page only while it is not there.
    ///     if linked.lock().unwrap().contains(ask.user()) {
    ///         return Ok(text("calendar linked"));
    ///     }
    ///     ask.url("calendar", || async {
    ///         UrlElicitation::to_page("Link your calendar", "https://mcp.example.com/link")
    ///     })
    ///     .await?;
    ///     Ok(text("open the page, then call again"))
    /// }
    /// # struct Server(SessionScope, Linked);
    /// # impl ServerHandler for Server {
    /// #     fn get_info(&self) -> ServerConfig {
    /// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    /// #     }
    /// #     async fn call_tool(&self, request: CallToolRequestParams, ctx: RequestContext<RoleServer>)
    /// #         -> Result<CallToolResponse, ErrorData> {
    /// #         mcp_elicit_server::respond(calendar(&self.0, &self.1, &request, &ctx).await)
    /// #     }
    /// # }
    /// # /// A client with URL mode that reports completion notifications.
    /// # struct Host(tokio::sync::mpsc::UnboundedSender<serde_json::Value>);
    /// # impl ClientHandler for Host {
    /// #     fn get_info(&self) -> ClientConfig {
    /// #         let caps = serde_json::from_value(json!({"elicitation": {"url": {}}})).unwrap();
    /// #         ClientConfig::new(caps, Implementation::new("host", "0"))
    /// #     }
    /// #     async fn on_custom_notification(&self, note: CustomNotification,
    /// #         _: mcp_elicit_server::rmcp::service::NotificationContext<RoleClient>) {
    /// #         let _ = self.0.send(note.params.unwrap_or_default());
    /// #     }
    /// # }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = Elicitations::local();
    /// # let linked = Linked::default();
    /// # let (client_io, server_io) = tokio::io::duplex(1 << 16);
    /// # let server = mcp_elicit_server::Edge::new(Server(hub.scope()?, linked.clone()));
    /// # tokio::spawn(async move {
    /// #     if let Ok(running) = server.serve(server_io).await {
    /// #         let _ = running.waiting().await;
    /// #     }
    /// # });
    /// # let (notes_tx, mut notes) = tokio::sync::mpsc::unbounded_channel();
    /// # let client = Host(notes_tx).serve(client_io).await?;
    /// // 2025-11-25: the first call ends with -32042 listing the page.
    /// let Err(ServiceError::McpError(e)) = client.call_tool(CallToolRequestParams::new("calendar")).await
    /// else { panic!("expected -32042") };
    /// assert_eq!(e.code.0, -32042);
    /// let page = &e.data.as_ref().unwrap()["elicitations"][0];
    /// let id = page["elicitationId"].as_str().unwrap().to_owned();
    /// assert_eq!(page["url"], format!("https://mcp.example.com/link?elicitationId={id}"));
    ///
    /// // The page, once the user is signed in there (here: the local user), records the
    /// // link in the bookkeeping, after the id was verified for that very user.
    /// let user = Principal::current_local_user();
    /// let done = hub
    ///     .complete_with(&user, &id, |record| {
    ///         let linked = linked.clone();
    ///         async move {
    ///             linked.lock().unwrap().insert(record.principal);
    ///             Ok::<_, std::io::Error>(())
    ///         }
    ///     })
    ///     .await?;
    /// assert!(done.completion.notified);
    /// assert_eq!(notes.recv().await, Some(json!({"elicitationId": id})));
    ///
    /// // The client's retry finds the outcome.
    /// let result = client.call_tool(CallToolRequestParams::new("calendar")).await?;
    /// assert_eq!(result.content[0].as_text().unwrap().text, "calendar linked");
    /// # Ok(())
    /// # }
    /// ```
    pub async fn url<F, Fut>(&mut self, key: &str, make: F) -> Result<UrlOutcome, Stop>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<UrlElicitation, Error>>,
    {
        self.claim(key)?;
        if self.revision == Revision::Requests {
            self.require(Mode::Url)?;
            let elicitation = make().await?;
            return Err(Stop::from(self.elicitor.url_required(&[elicitation]).await));
        }
        if let Some(outcome) = self.url_done.get(key) {
            return Ok(*outcome);
        }
        let id = match self.urls_in.get(key) {
            Some(id) => id.clone(),
            None => {
                self.require(Mode::Url)?;
                let elicitation = make().await?;
                self.elicitor.register_round_url(&elicitation).await?;
                elicitation.id().as_str().to_owned()
            }
        };
        let Some(record) = self
            .elicitor
            .hub()
            .round_pending(self.elicitor.principal(), &id)
            .await?
        else {
            return Err(Error::new(
                ErrorKind::InvalidState,
                format!(
                    "the URL interaction {key:?} of this requestState is no longer pending (finished and \
                     used already, cancelled, or expired): call again without requestState"
                ),
            )
            .into());
        };
        let request = url_request(
            &record.message,
            record.url.as_deref().unwrap_or_default(),
            &id,
        )?;
        let mut urls = BTreeMap::new();
        urls.insert(key.to_owned(), id);
        let ttl = self.elicitor.hub().config().url_ttl;
        Err(Stop::Input(self.round(
            BTreeMap::from([(key.to_owned(), request)]),
            urls,
            ttl,
        )?))
    }

    /// Decides the URL questions of the state whose answer came with this retry: a
    /// finished page is used up now (so it counts once, even if the handler then finds
    /// its own outcome and never asks again), a decline or cancel forgets it.
    pub(super) async fn settle_urls(&mut self) -> Result<(), Error> {
        let urls: Vec<(String, String)> = self
            .urls_in
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        for (key, id) in urls {
            let Some(response) = self.responses.get(&key) else {
                continue;
            };
            let reply = parse_reply(&key, response, Mode::Url)?;
            let hub = self.elicitor.hub().clone();
            let user = self.elicitor.principal().clone();
            let outcome = match reply.action {
                Action::Accept => match hub.round_finished(&user, &id).await? {
                    true => {
                        hub.round_consume(&user, &id).await?;
                        UrlOutcome::Completed
                    }
                    false => continue,
                },
                Action::Decline => {
                    hub.round_forget(&user, &id).await?;
                    UrlOutcome::Declined
                }
                Action::Cancel => {
                    hub.round_forget(&user, &id).await?;
                    UrlOutcome::Cancelled
                }
            };
            self.urls_in.remove(&key);
            self.url_done.insert(key, outcome);
        }
        Ok(())
    }
}

/// The 2026-07-28 URL request: the checked 2025 one without `elicitationId` (the
/// revision removed it; the state carries the id instead).
fn url_request(message: &str, url: &str, id: &str) -> Result<Value, Error> {
    let request = UrlRequest::new(message, url, id)
        .map_err(|e| Error::core(ErrorKind::InvalidUrl, "the URL elicitation is invalid", e))?;
    let mut params = request.to_value();
    if let Value::Object(map) = &mut params {
        map.remove("elicitationId");
    }
    Ok(json!({"method": METHOD_CREATE, "params": params}))
}
