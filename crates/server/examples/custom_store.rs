//! A custom [`ElicitationStore`]: where pending elicitations live is yours to choose.
//!
//! This one keeps the records in a [`MemoryStore`] and appends one audit line per
//! operation to a file (what, which id, the outcome), the shape of a store that mirrors
//! state elsewhere. A store for your own database implements the same nine methods; its
//! `transition` must be atomic (two concurrent completions of one id: one succeeds), and
//! `insert_within_quota` should check and insert in one operation. Served over stdio with
//! one form tool.
//!
//! `mcp-elicit call --protocol 2025-11-25 'stdio:target/debug/examples/custom_store AUDIT_FILE' ask`
//! (on 2026-07-28 a form is carried in the sealed `requestState`, not stored).
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use futures::future::BoxFuture;
use mcp_elicit_core::lifecycle::Event;
use mcp_elicit_server::store::Transition;
use mcp_elicit_server::{
    Edge, ElicitationConfig, ElicitationStore, Elicitations, FormOutcome, IdentityPolicy,
    MemoryStore, PendingElicitation, Principal, SessionKey, SessionScope, StoreError, SystemClock,
    respond,
};
use rmcp::handler::server::tool::Extension;
use rmcp::model::{CallToolRequestParams as Call, CallToolResponse, CallToolResult, ContentBlock};
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt, service::RequestContext as Ctx};
use rmcp::{tool, tool_handler, tool_router};

/// A [`MemoryStore`] that writes an audit line for every operation.
struct AuditedStore {
    inner: MemoryStore,
    audit: Mutex<std::fs::File>,
}

impl AuditedStore {
    fn log<T>(&self, what: &str, id: &str, result: &Result<T, StoreError>) {
        let outcome = match result {
            Ok(_) => "ok".to_owned(),
            Err(e) => format!("refused: {e}"),
        };
        let mut file = self.audit.lock().unwrap_or_else(|p| p.into_inner());
        // Audit trouble must not fail the elicitation: report it and go on.
        if let Err(e) = writeln!(file, "{what} {id} {outcome}") {
            eprintln!("audit log: {e}");
        }
    }
}

impl ElicitationStore for AuditedStore {
    fn insert(&self, record: PendingElicitation) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            let id = record.id.clone();
            let result = self.inner.insert(record).await;
            self.log("insert", &id, &result);
            result
        })
    }

    fn insert_within_quota(
        &self,
        record: PendingElicitation,
        max: usize,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            let id = record.id.clone();
            let result = self.inner.insert_within_quota(record, max).await;
            self.log("insert", &id, &result);
            result
        })
    }

    fn get<'a>(
        &'a self,
        principal: &'a Principal,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<PendingElicitation>, StoreError>> {
        self.inner.get(principal, id)
    }

    fn transition<'a>(
        &'a self,
        principal: &'a Principal,
        id: &'a str,
        event: Event,
    ) -> BoxFuture<'a, Result<Transition, StoreError>> {
        Box::pin(async move {
            let result = self.inner.transition(principal, id, event).await;
            self.log(&format!("transition:{event:?}"), id, &result);
            result
        })
    }

    fn remove<'a>(
        &'a self,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<PendingElicitation>, StoreError>> {
        Box::pin(async move {
            let result = self.inner.remove(id).await;
            self.log("remove", id, &result);
            result
        })
    }

    fn remove_session_forms<'a>(
        &'a self,
        session: &'a SessionKey,
    ) -> BoxFuture<'a, Result<Vec<PendingElicitation>, StoreError>> {
        self.inner.remove_session_forms(session)
    }

    fn sweep_expired(
        &self,
        now: SystemTime,
    ) -> BoxFuture<'_, Result<Vec<PendingElicitation>, StoreError>> {
        self.inner.sweep_expired(now)
    }

    fn list<'a>(
        &'a self,
        principal: &'a Principal,
    ) -> BoxFuture<'a, Result<Vec<PendingElicitation>, StoreError>> {
        self.inner.list(principal)
    }

    fn count(&self) -> BoxFuture<'_, Result<usize, StoreError>> {
        self.inner.count()
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Color {
    /// Your favourite colour
    color: String,
}

#[derive(Clone)]
struct App {
    scope: SessionScope,
}

#[tool_router]
impl App {
    #[tool(description = "Asks your favourite colour")]
    async fn ask(
        &self,
        ctx: Ctx<RoleServer>,
        Extension(call): Extension<Call>,
    ) -> Result<CallToolResponse, ErrorData> {
        let answer = async {
            let mut ask = self.scope.ask(&ctx, &call).await?;
            ask.form::<Color>("color", "What is your favourite colour?").await
        };
        respond(answer.await.map(|outcome| {
            let text = match outcome {
                FormOutcome::Accepted(Color { color }) => format!("you like {color}"),
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
    let path = std::env::args().nth(1).ok_or("usage: custom_store AUDIT_FILE")?;
    let audit = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
    let store = Arc::new(AuditedStore { inner: MemoryStore::new(), audit: Mutex::new(audit) });
    let config = ElicitationConfig::new(IdentityPolicy::LocalUser(Principal::current_local_user()));
    let hub = Elicitations::with_store(config, store, Arc::new(SystemClock));
    let app = Edge::new(App { scope: hub.scope()? });
    let (stdin, stdout) = rmcp::transport::stdio();
    let running = app.serve(mcp_elicit_server::wire::edge_rw(stdin, stdout)).await?;
    running.waiting().await?;
    Ok(())
}
