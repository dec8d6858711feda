//! How a completion reaches the client: the connection each elicitation was sent on
//! (registered with a [`PendingGuard`]), notified on this node or through the relay.

use mcp_elicit_core::message::{CompleteNotification, METHOD_COMPLETE};
use rmcp::model::{CustomNotification, ServerNotification};
use rmcp::{Peer, RoleServer};

use crate::error::Error;
use crate::identity::SessionKey;
use crate::lean_sessions::SessionOutlet;
use crate::store::PendingElicitation;

use super::{Elicitations, Line, LocalPeer};

impl Elicitations {
    /// Records a pending elicitation and the connection it is sent on. The returned guard
    /// forgets it again unless [`PendingGuard::keep`] is called, even when the tool's
    /// future is dropped half-way (no pending state leaks).
    pub(crate) async fn register(
        &self,
        record: PendingElicitation,
        peer: Peer<RoleServer>,
        outlet: Option<SessionOutlet>,
    ) -> Result<PendingGuard, Error> {
        let id = record.id.clone();
        let session = record.session.clone();
        let mode = record.mode;
        self.insert(record).await?;
        self.peers().insert(
            id.clone(),
            LocalPeer {
                session,
                mode,
                line: match outlet {
                    Some(outlet) => Line::Outlet(outlet),
                    None => Line::Peer(peer),
                },
            },
        );
        Ok(PendingGuard {
            hub: self.clone(),
            id,
            armed: true,
        })
    }

    /// The second half of [`Elicitations::complete`]: sends the completion notification
    /// for `id` to the connection this node holds for `session`
    /// ([`Elicitations::deliver_completion`]) or, when this node holds none, hands it to
    /// the relay (if one is set) for the node that does. Returns whether this node sent
    /// it.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use std::time::{Duration, SystemTime};
    /// # use mcp_elicit_server::mcp_elicit_core::lifecycle::State;
    /// # use mcp_elicit_server::{ElicitationConfig, ElicitationStore, Elicitations, IdentityPolicy,
    /// #     MemoryStore, Mode, PendingElicitation, Principal, SessionKey, SystemClock};
    /// # fn url_record(id: &str, user: &Principal, ttl: Duration) -> PendingElicitation {
    /// #     let now = SystemTime::now();
    /// #     PendingElicitation {
    /// #         id: id.to_owned(),
    /// #         principal: user.clone(),
    /// #         session: SessionKey::from_stored("connection-1"),
    /// #         mode: Mode::Url,
    /// #         state: State::Accepted,
    /// #         message: "Connect your calendar".to_owned(),
    /// #         url: Some(format!("https://example.com/connect?elicitationId={id}")),
    /// #         created_at: now,
    /// #         expires_at: now + ttl,
    /// #         app_data: Some(mcp_elicit_server::serde_json::json!({"provider": "calendar"})),
    /// #     }
    /// # }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let alice = Principal::authenticated("https://auth.example.com", "alice");
    /// # let store = Arc::new(MemoryStore::new());
    /// # let hub = Elicitations::with_store(
    /// #     ElicitationConfig::new(IdentityPolicy::Authenticated),
    /// #     store.clone(),
    /// #     Arc::new(SystemClock),
    /// # );
    /// # // What `Ask::url` stores when a tool asks alice to connect her calendar:
    /// # store.insert(url_record("e1", &alice, Duration::from_secs(3600))).await?;
    /// let record = hub.record_completion(&alice, "e1").await?;
    /// // No connection for connection-1 on this node and no relay: nobody is told, and the
    /// // client's retry of its request is how it learns of the completion.
    /// assert!(!hub.notify_completion("e1", &record.session).await);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn notify_completion(&self, id: &str, session: &SessionKey) -> bool {
        if session.is_rounds() {
            // 2026-07-28: no notification exists; the retry finds the outcome.
            return false;
        }
        if self.deliver_completion(id, session).await {
            return true;
        }
        if let Some(relay) = self.inner.relay.get()
            && let Err(e) = relay.relay(id, session).await
        {
            tracing::warn!(elicitation_id = id, error = %e, "completion notice not relayed to the other nodes");
        }
        false
    }

    /// Sends `notifications/elicitation/complete` for `id` to the connection on this node
    /// that received the elicitation, if this node holds one *and* it belongs to
    /// `session`; returns whether it was sent. Reads and changes no stored state: this is
    /// what a node runs for each completion notice arriving from another node (the
    /// completion was decided there, in the shared store).
    ///
    /// At most once per elicitation on this node: the connection is forgotten once
    /// notified, so a repeated notice sends nothing. A notice naming another session (a
    /// forged or stale one) sends nothing and leaves the connection registered.
    ///
    /// Two nodes sharing one store: the client's connection is on node 1, the page on node 2
    /// completes the elicitation, and node 1 delivers the notice it gets from node 2 (hidden:
    /// an rmcp client with URL mode over an in-memory pipe, whose tool call got -32042):
    ///
    /// ```
    /// # use std::sync::atomic::{AtomicUsize, Ordering};
    /// # use std::time::Duration;
    /// # use mcp_elicit_server::rmcp::model::*;
    /// # use mcp_elicit_server::rmcp::service::{NotificationContext, RequestContext, RunningService};
    /// # use mcp_elicit_server::rmcp::{ClientHandler, ErrorData, RoleClient, RoleServer, ServerHandler, ServiceError, ServiceExt};
    /// # use mcp_elicit_server::serde_json::{Value, json};
    /// # /// The server: every tool call runs `tool` (below).
    /// # struct Server(mcp_elicit_server::SessionScope);
    /// # impl ServerHandler for Server {
    /// #     fn get_info(&self) -> ServerConfig {
    /// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    /// #     }
    /// #     async fn call_tool(&self, request: CallToolRequestParams, ctx: RequestContext<RoleServer>)
    /// #         -> Result<CallToolResponse, ErrorData> {
    /// #         tool(&self.0, &request, &ctx).await.map(CallToolResponse::Complete)
    /// #     }
    /// # }
    /// # /// A client declaring `caps`, whose user answers with `answer` (`None`: never answers);
    /// # /// custom notifications go to the receiver `connect` returns.
    /// # struct User {
    /// #     caps: Value,
    /// #     answer: fn(&ElicitRequestParams) -> Option<Result<ElicitResult, ErrorData>>,
    /// #     notes: tokio::sync::mpsc::UnboundedSender<Value>,
    /// # }
    /// # impl ClientHandler for User {
    /// #     fn get_info(&self) -> ClientConfig {
    /// #         let caps = serde_json::from_value(self.caps.clone()).unwrap();
    /// #         ClientConfig::new(caps, Implementation::new("user", "0"))
    /// #     }
    /// #     async fn create_elicitation(&self, request: ElicitRequestParams, _: RequestContext<RoleClient>)
    /// #         -> Result<ElicitResult, ErrorData> {
    /// #         match (self.answer)(&request) {
    /// #             Some(answer) => answer,
    /// #             None => std::future::pending().await,
    /// #         }
    /// #     }
    /// #     async fn on_custom_notification(&self, note: CustomNotification, _: NotificationContext<RoleClient>) {
    /// #         let _ = self.notes.send(note.params.unwrap_or_default());
    /// #     }
    /// # }
    /// # /// A client over an in-memory pipe to a server on `hub` (behind `Edge`).
    /// # async fn connect(
    /// #     hub: &mcp_elicit_server::Elicitations,
    /// #     caps: Value,
    /// #     answer: fn(&ElicitRequestParams) -> Option<Result<ElicitResult, ErrorData>>,
    /// # ) -> Result<(RunningService<RoleClient, User>, tokio::sync::mpsc::UnboundedReceiver<Value>), Box<dyn std::error::Error>> {
    /// #     let (client_io, server_io) = tokio::io::duplex(1 << 16);
    /// #     let server = mcp_elicit_server::Edge::new(Server(hub.scope()?));
    /// #     tokio::spawn(async move {
    /// #         if let Ok(running) = server.serve(server_io).await {
    /// #             let _ = running.waiting().await;
    /// #         }
    /// #     });
    /// #     let (notes, rx) = tokio::sync::mpsc::unbounded_channel();
    /// #     Ok((User { caps, answer, notes }.serve(client_io).await?, rx))
    /// # }
    /// # fn accept(content: Value) -> Option<Result<ElicitResult, ErrorData>> {
    /// #     Some(Ok(ElicitResult::new(ElicitationAction::Accept).with_content(content)))
    /// # }
    /// # fn message(request: &ElicitRequestParams) -> &str {
    /// #     match request {
    /// #         ElicitRequestParams::FormElicitationParams { message, .. }
    /// #         | ElicitRequestParams::UrlElicitationParams { message, .. } => message,
    /// #         _ => "",
    /// #     }
    /// # }
    /// # /// A hub whose local user is alice.
    /// # fn hub() -> mcp_elicit_server::Elicitations {
    /// #     mcp_elicit_server::Elicitations::new(mcp_elicit_server::ElicitationConfig::new(
    /// #         mcp_elicit_server::IdentityPolicy::LocalUser(mcp_elicit_server::Principal::local_user("alice")),
    /// #     ))
    /// # }
    /// # fn first_text(result: &CallToolResult) -> String {
    /// #     result.content[0].as_text().map(|t| t.text.clone()).unwrap_or_default()
    /// # }
    /// async fn tool(
    ///     scope: &mcp_elicit_server::SessionScope,
    ///     _: &CallToolRequestParams,
    ///     ctx: &RequestContext<RoleServer>,
    /// ) -> Result<CallToolResult, ErrorData> {
    ///     let page = mcp_elicit_server::UrlElicitation::new("Connect your calendar", |id| {
    ///         format!("https://mcp.example.com/connect?elicitationId={id}")
    ///     })?;
    ///     Err(scope.elicitor(ctx)?.url_required(&[page]).await.into())
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use std::sync::Arc;
    /// use mcp_elicit_server::{
    ///     ElicitationConfig, Elicitations, IdentityPolicy, MemoryStore, Principal, SessionKey,
    ///     SystemClock,
    /// };
    ///
    /// let alice = Principal::local_user("alice");
    /// let store = Arc::new(MemoryStore::new());
    /// let node = || {
    ///     Elicitations::with_store(
    ///         ElicitationConfig::new(IdentityPolicy::LocalUser(alice.clone())),
    ///         store.clone(),
    ///         Arc::new(SystemClock),
    ///     )
    /// };
    /// let (node1, node2) = (node(), node());
    /// # let (client, mut notes) = connect(&node1, json!({"elicitation": {"url": {}}}), |_| None).await?;
    /// # let Err(ServiceError::McpError(e)) = client.call_tool(CallToolRequestParams::new("calendar")).await
    /// # else { panic!("expected -32042") };
    /// # let id = e.data.unwrap()["elicitations"][0]["elicitationId"].as_str().unwrap().to_owned();
    ///
    /// // Node 2 serves the page: the store decides, once; it holds no connection.
    /// let done = node2.complete(&alice, &id).await?;
    /// assert!(!done.notified);
    ///
    /// // Node 1, given the notice (over the bus): a notice naming another session does nothing...
    /// assert!(!node1.deliver_completion(&id, &SessionKey::from_stored("forged")).await);
    /// // ...the real one reaches the client, once.
    /// assert!(node1.deliver_completion(&id, &done.session).await);
    /// assert_eq!(notes.recv().await, Some(json!({"elicitationId": id})));
    /// assert!(!node1.deliver_completion(&id, &done.session).await);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn deliver_completion(&self, id: &str, session: &SessionKey) -> bool {
        let local = {
            let mut peers = self.peers();
            match peers.get(id) {
                Some(local) if &local.session == session => peers.remove(id),
                _ => None,
            }
        };
        let Some(local) = local else {
            return false;
        };
        if local.is_closed() {
            return false;
        }
        let params = CompleteNotification::new(id).to_value();
        let note = ServerNotification::CustomNotification(CustomNotification::new(
            METHOD_COMPLETE,
            Some(params),
        ));
        let peer = match local.line {
            Line::Outlet(outlet) => return outlet.notify(note),
            Line::Peer(peer) => peer,
        };
        match peer.send_notification(note).await {
            Ok(()) => true,
            Err(e) => {
                tracing::info!(elicitation_id = id, error = %e, "completion notification not delivered");
                false
            }
        }
    }
}

/// Forgets a registered elicitation when dropped, unless kept.
pub(crate) struct PendingGuard {
    hub: Elicitations,
    id: String,
    armed: bool,
}

impl PendingGuard {
    /// Leaves the elicitation pending (an accepted or announced URL elicitation).
    pub(crate) fn keep(mut self) {
        self.armed = false;
    }

    /// Forgets the elicitation now.
    pub(crate) async fn forget(mut self) {
        self.armed = false;
        self.hub.forget(&self.id).await;
    }
}

impl Drop for PendingGuard {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        let hub = self.hub.clone();
        let id = std::mem::take(&mut self.id);
        hub.peers().remove(&id);
        if let Ok(handle) = tokio::runtime::Handle::try_current() {
            handle.spawn(async move { hub.forget(&id).await });
        }
    }
}
