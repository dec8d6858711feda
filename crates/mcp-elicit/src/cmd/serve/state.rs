//! The connect demo's state in the store's database: one row per connected user, in a
//! table of the reference server's own (`mcp_elicit_reference_connected`), created on
//! start-up if missing. Same database as the pending elicitations, so both survive a
//! restart together.

use std::time::{SystemTime, UNIX_EPOCH};

use futures::future::{BoxFuture, FutureExt};
use mcp_elicit_server::reference::DemoState;
use mcp_elicit_server::{Principal, StoreError};
use mcp_elicit_store::Pool;
use mcp_elicit_store::sqlx;

const CREATE: &str = "CREATE TABLE IF NOT EXISTS mcp_elicit_reference_connected (\
     principal_issuer TEXT NOT NULL, principal_subject TEXT NOT NULL, connected_at BIGINT NOT NULL, \
     PRIMARY KEY (principal_issuer, principal_subject))";
const INSERT: &str = "INSERT INTO mcp_elicit_reference_connected \
     (principal_issuer, principal_subject, connected_at) VALUES ($1, $2, $3) \
     ON CONFLICT (principal_issuer, principal_subject) DO NOTHING";
const SELECT: &str = "SELECT COUNT(*) FROM mcp_elicit_reference_connected \
     WHERE principal_issuer = $1 AND principal_subject = $2";

/// [`DemoState`] over the store's pool.
#[derive(Debug, Clone)]
pub(crate) struct SqlDemoState {
    pool: Pool,
}

/// A transient failure (database unreachable, disk full) becomes
/// [`StoreError::Unavailable`], which the client sees as a retryable `-32000`.
fn backend(context: &str, e: &sqlx::Error) -> StoreError {
    mcp_elicit_store::Error::from_sqlx(context, e).into()
}

fn unsupported() -> StoreError {
    StoreError::Backend("unsupported database backend".to_owned())
}

impl SqlDemoState {
    /// Creates the table if missing. Several nodes may start at once on a new
    /// PostgreSQL database, where two concurrent `CREATE TABLE IF NOT EXISTS` can both
    /// try to create it (one fails on a catalog unique index): there the statement runs
    /// under a transaction-scoped advisory lock, so the nodes take turns.
    pub(crate) async fn open(pool: Pool) -> Result<Self, StoreError> {
        let done = match &pool {
            Pool::Sqlite(p) => sqlx::query(CREATE).execute(p).await.map(drop),
            Pool::Postgres(p) => {
                async {
                    let mut tx = p.begin().await?;
                    sqlx::query(
                        "SELECT pg_advisory_xact_lock(hashtext('mcp_elicit_reference_connected'))",
                    )
                    .execute(&mut *tx)
                    .await?;
                    sqlx::query(CREATE).execute(&mut *tx).await?;
                    tx.commit().await
                }
                .await
            }
            _ => return Err(unsupported()),
        };
        done.map_err(|e| backend("creating the connect demo's table", &e))?;
        Ok(Self { pool })
    }

    async fn mark(&self, principal: &Principal) -> Result<(), StoreError> {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
            .unwrap_or(0);
        let (issuer, subject) = (principal.issuer(), principal.subject());
        let done = match &self.pool {
            Pool::Sqlite(p) => sqlx::query(INSERT)
                .bind(issuer)
                .bind(subject)
                .bind(now)
                .execute(p)
                .await
                .map(drop),
            Pool::Postgres(p) => sqlx::query(INSERT)
                .bind(issuer)
                .bind(subject)
                .bind(now)
                .execute(p)
                .await
                .map(drop),
            _ => return Err(unsupported()),
        };
        done.map_err(|e| backend("recording a connected user", &e))
    }

    async fn read(&self, principal: &Principal) -> Result<bool, StoreError> {
        let (issuer, subject) = (principal.issuer(), principal.subject());
        let n: Result<i64, sqlx::Error> = match &self.pool {
            Pool::Sqlite(p) => {
                sqlx::query_scalar(SELECT)
                    .bind(issuer)
                    .bind(subject)
                    .fetch_one(p)
                    .await
            }
            Pool::Postgres(p) => {
                sqlx::query_scalar(SELECT)
                    .bind(issuer)
                    .bind(subject)
                    .fetch_one(p)
                    .await
            }
            _ => return Err(unsupported()),
        };
        n.map(|n| n > 0)
            .map_err(|e| backend("reading the connect demo's state", &e))
    }
}

impl DemoState for SqlDemoState {
    fn mark_connected<'a>(
        &'a self,
        principal: &'a Principal,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.mark(principal).boxed()
    }

    fn is_connected<'a>(
        &'a self,
        principal: &'a Principal,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        self.read(principal).boxed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn connected_users_are_kept_per_user_in_the_database() {
        let store = mcp_elicit_store::Store::connect("sqlite::memory:")
            .await
            .expect("store");
        let state = SqlDemoState::open(store.pool().clone())
            .await
            .expect("open");
        // Opening twice (a restart) keeps the table and its rows.
        let alice = Principal::local_user("alice");
        state.mark_connected(&alice).await.expect("mark");
        let again = SqlDemoState::open(store.pool().clone())
            .await
            .expect("reopen");
        assert!(again.is_connected(&alice).await.expect("read"));
        again.mark_connected(&alice).await.expect("idempotent");
        assert!(
            !again
                .is_connected(&Principal::local_user("bob"))
                .await
                .expect("read")
        );
        assert!(
            !again
                .is_connected(&Principal::authenticated("https://idp", "alice"))
                .await
                .expect("read")
        );
    }
}
