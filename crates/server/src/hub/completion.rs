//! Completing a URL elicitation from its out-of-band page: [`Completion`], [`Completed`],
//! and the one safe order (verify, record, then notify) of [`Elicitations::complete_with`].

use std::future::Future;

use mcp_elicit_core::lifecycle::Event;

use crate::error::Error;
#[cfg(doc)]
use crate::error::ErrorKind;
use crate::identity::{Principal, SessionKey};
use crate::store::PendingElicitation;

use super::{Elicitations, store_error};

/// What [`Elicitations::complete`] did.
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
/// let done = hub.complete(&alice, "e1").await?;
/// // Sent on connection-1, which this node does not hold (no client in this example):
/// // with several nodes, that session is where a relayed notice is addressed.
/// assert_eq!(done.session, SessionKey::from_stored("connection-1"));
/// assert!(!done.notified);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Completion {
    /// Whether `notifications/elicitation/complete` was sent to the originating client's
    /// connection *by this node*. False when that connection is not held here (another
    /// node holds it: publish a completion notice for [`Completion::session`] so that node
    /// can call [`Elicitations::deliver_completion`]) or has gone away (the completion
    /// still counts: the client's retry of its request is the recovery path).
    pub notified: bool,
    /// The client session the elicitation was sent on.
    pub session: SessionKey,
}

/// What [`Elicitations::complete_with`] did: the [`Completion`] and what the
/// application's bookkeeping returned.
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
/// // The bookkeeping gets the completed record, with what the tool attached when asking.
/// let done = hub
///     .complete_with(&alice, "e1", |record| async move {
///         let provider = record.app_data.as_ref().and_then(|d| d["provider"].as_str()).map(str::to_owned);
///         Ok::<_, std::io::Error>(provider)
///     })
///     .await?;
/// assert_eq!(done.value.as_deref(), Some("calendar"));
/// assert_eq!(done.completion.session.as_str(), "connection-1");
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Completed<T> {
    /// The completion (whether this node notified the client, and the session).
    pub completion: Completion,
    /// What the bookkeeping returned.
    pub value: T,
}

impl Elicitations {
    /// Marks the URL-mode elicitation `id` of `principal` completed and sends
    /// `notifications/elicitation/complete` with exactly `{"elicitationId": id}` to the
    /// client connection that received the elicitation, and to no other:
    /// [`Elicitations::complete_with`] with no bookkeeping.
    ///
    /// At most once: completing an unknown, already-completed, expired or declined id, or
    /// someone else's, is an [`ErrorKind::UnknownElicitation`] error and sends nothing.
    /// `principal` must be the user verified by the out-of-band page (the phishing rule:
    /// the user who completes must be the user who started).
    ///
    /// Use it when the page itself is the whole outcome. When the page obtained
    /// something to record (a token, a key, a "connected" flag), use
    /// [`Elicitations::complete_with`] and record it in its bookkeeping: recording it
    /// *before* this call acts on an id nobody has verified yet (a replayed, stale or
    /// another user's id would change your state although the completion is then
    /// refused), and recording it *after* lets the client retry before it is there.
    ///
    /// [`Completion::notified`] is false when this node does not hold the connection:
    /// with several nodes, the notice then goes to the relay ([`Elicitations::set_relay`]),
    /// and every node hands what the relay carries to
    /// [`Elicitations::deliver_completion`].
    ///
    /// The client that asked is notified at once (hidden: an rmcp client with URL mode over an
    /// in-memory pipe, whose tool call got -32042):
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
    /// # let hub = hub();
    /// # let alice = mcp_elicit_server::Principal::local_user("alice");
    /// # let (client, mut notes) = connect(&hub, json!({"elicitation": {"url": {}}}), |_| None).await?;
    /// # let Err(ServiceError::McpError(e)) = client.call_tool(CallToolRequestParams::new("calendar")).await
    /// # else { panic!("expected -32042") };
    /// # let id = e.data.unwrap()["elicitations"][0]["elicitationId"].as_str().unwrap().to_owned();
    /// // The page, once alice is signed in there and has linked her calendar:
    /// let done = hub.complete(&alice, &id).await?;
    /// assert!(done.notified);
    /// assert_eq!(notes.recv().await, Some(json!({"elicitationId": id})));
    ///
    /// // At most once: a replay is refused and sends nothing.
    /// let again = hub.complete(&alice, &id).await.unwrap_err();
    /// assert_eq!(again.kind(), mcp_elicit_server::ErrorKind::UnknownElicitation);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn complete(&self, principal: &Principal, id: &str) -> Result<Completion, Error> {
        self.complete_with(principal, id, |_| async { Ok::<(), Error>(()) })
            .await
            .map(|done| done.completion)
    }

    /// Completes the URL-mode elicitation `id` of `principal` with the application's
    /// bookkeeping in the one safe order:
    ///
    /// 1. the id and its owner are verified and the completion is recorded in the store,
    ///    at most once, even across nodes ([`Elicitations::record_completion`]); an
    ///    unknown, finished, expired, declined, replayed or another user's id stops here
    ///    with [`ErrorKind::UnknownElicitation`], and `bookkeeping` never runs;
    /// 2. `bookkeeping` runs with the completed record (store what the page obtained;
    ///    [`PendingElicitation::app_data`] holds what you attached when asking);
    /// 3. only then is the client notified ([`Elicitations::notify_completion`]): a
    ///    client retries the moment it hears of the completion, and finds your outcome.
    ///
    /// When `bookkeeping` fails, the elicitation stays completed (it is used up), no
    /// notification is sent, and the error is [`ErrorKind::Bookkeeping`] with yours as
    /// its [`source`](std::error::Error::source): the client's retry of its request (after
    /// its own timeout, or on the next call) finds no outcome and asks again.
    ///
    /// ```no_run
    /// use std::sync::{Arc, Mutex};
    /// use mcp_elicit_server::{Elicitations, Error, Principal};
    ///
    /// async fn page_done(
    ///     hub: &Elicitations,
    ///     user: &Principal,
    ///     id: &str,
    ///     linked: Arc<Mutex<Vec<Principal>>>,
    /// ) -> Result<bool, Error> {
    ///     let done = hub
    ///         .complete_with(user, id, |record| async move {
    ///             // Runs only for a verified id of this very user.
    ///             linked.lock().unwrap().push(record.principal);
    ///             Ok::<_, std::io::Error>(())
    ///         })
    ///         .await?;
    ///     Ok(done.completion.notified)
    /// }
    /// # let _ = page_done;
    /// ```
    pub async fn complete_with<F, Fut, T, E>(
        &self,
        principal: &Principal,
        id: &str,
        bookkeeping: F,
    ) -> Result<Completed<T>, Error>
    where
        F: FnOnce(PendingElicitation) -> Fut,
        Fut: Future<Output = Result<T, E>>,
        E: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let record = self.record_completion(principal, id).await?;
        let session = record.session.clone();
        let value = bookkeeping(record)
            .await
            .map_err(|e| Error::bookkeeping(id, e.into()))?;
        let notified = self.notify_completion(id, &session).await;
        Ok(Completed {
            completion: Completion { notified, session },
            value,
        })
    }

    /// The first half of [`Elicitations::complete`]: marks the URL-mode elicitation `id`
    /// of `principal` completed in the store (at most once, across nodes sharing the
    /// store) and returns the record as it was, without notifying anyone yet. Follow with
    /// [`Elicitations::notify_completion`] once the outcome is recorded
    /// ([`Elicitations::complete_with`] does the three steps in order).
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
    /// #         app_data: None,
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
    /// // ... record what the page obtained for `record.principal` here ...
    /// let notified = hub.notify_completion("e1", &record.session).await;
    /// assert!(!notified); // this example holds no client connection
    /// assert!(hub.record_completion(&alice, "e1").await.is_err()); // at most once
    /// # Ok(())
    /// # }
    /// ```
    pub async fn record_completion(
        &self,
        principal: &Principal,
        id: &str,
    ) -> Result<PendingElicitation, Error> {
        self.refuse_expired(principal, id).await?;
        let rounds = self
            .inner
            .store
            .get(principal, id)
            .await
            .map_err(store_error)?
            .is_some_and(|r| r.session.is_rounds());
        // A 2026-07-28 elicitation stays stored, marked finished (`Accepted`), until the
        // client's retry uses it up: that retry is how the client learns of it.
        let event = if rounds {
            Event::Accept
        } else {
            Event::Complete
        };
        let t = self
            .inner
            .store
            .transition(principal, id, event)
            .await
            .map_err(store_error)?;
        tracing::debug!(elicitation_id = id, session = %t.before.session, "elicitation completed");
        Ok(t.before)
    }

    /// Cancels the URL-mode elicitation `id` of `principal` (the user gave up or refused
    /// on the out-of-band page). No notification is sent (the protocol has none).
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
    /// #         app_data: None,
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
    /// hub.cancel(&alice, "e1").await?;
    /// assert!(hub.get(&alice, "e1").await?.is_none());
    /// assert!(hub.complete(&alice, "e1").await.is_err()); // nothing left to complete
    /// # Ok(())
    /// # }
    /// ```
    pub async fn cancel(&self, principal: &Principal, id: &str) -> Result<(), Error> {
        self.transition(principal, id, Event::Cancel).await
    }
}
