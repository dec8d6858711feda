//! [`ElicitationStore`] on SQLite and PostgreSQL.
//!
//! Same semantics as the server's in-memory store: records keyed by id and owned by a
//! (user, session) pair; another user's record is reported as not found; a terminal
//! transition removes the record.
//!
//! `transition` is a compare-and-set: read the record, compute the next state with the
//! core lifecycle, then `UPDATE`/`DELETE ... WHERE id = $1 AND state = <state read>`.
//! The database applies that single statement atomically, so of two callers racing from
//! one process or from several nodes, exactly one sees one affected row; the other
//! re-reads and gets the lifecycle's answer for the new state (or not found, once the
//! record is gone).
//!
//! `insert_within_quota` (the per-user cap on pending elicitations) is exact on both
//! backends: see `insert_record_within` below.

use std::time::SystemTime;

use futures::FutureExt;
use futures::future::BoxFuture;
use mcp_elicit_core::lifecycle::{Event, State};
use mcp_elicit_core::message::Mode;
use mcp_elicit_server::store::Transition;
use mcp_elicit_server::{ElicitationStore, PendingElicitation, Principal, SessionKey, StoreError};

use crate::db::{Store, on_pool};
use crate::error::Error;
use crate::time;

/// The columns of `elicitations` (a macro so queries stay `&'static str` literals).
macro_rules! columns {
    () => {
        "id, principal_issuer, principal_subject, session_key, mode, state, message, url, \
         created_at, expires_at, app_data"
    };
}

/// Binds the columns of record `$r` as `$1` to `$11`, in [`columns!`] order, with the
/// two times and the application data (JSON text) already converted.
macro_rules! bind_record {
    ($query:expr, $r:expr, $created:expr, $expires:expr, $data:expr) => {
        $query
            .bind(&$r.id)
            .bind($r.principal.issuer())
            .bind($r.principal.subject())
            .bind($r.session.as_str())
            .bind($r.mode.as_str())
            .bind($r.state.as_str())
            .bind(&$r.message)
            .bind($r.url.as_deref())
            .bind($created)
            .bind($expires)
            .bind($data)
    };
}

/// A state can change at most twice (pending, accepted, terminal), so a caller that
/// keeps losing the race after this many reads is facing something else.
const MAX_CAS_ATTEMPTS: usize = 8;

/// The columns of one row, in query order (tuples decode on both backends without
/// sqlx's derive macros).
type ElicitationTuple = (
    String,
    String,
    String,
    String,
    String,
    String,
    String,
    Option<String>,
    i64,
    i64,
    Option<String>,
);

/// One row of `elicitations`.
struct ElicitationRow {
    id: String,
    principal_issuer: String,
    principal_subject: String,
    session_key: String,
    mode: String,
    state: String,
    message: String,
    url: Option<String>,
    created_at: i64,
    expires_at: i64,
    app_data: Option<String>,
}

impl From<ElicitationTuple> for ElicitationRow {
    fn from(
        (
            id,
            principal_issuer,
            principal_subject,
            session_key,
            mode,
            state,
            message,
            url,
            created_at,
            expires_at,
            app_data,
        ): ElicitationTuple,
    ) -> Self {
        Self {
            id,
            principal_issuer,
            principal_subject,
            session_key,
            mode,
            state,
            message,
            url,
            created_at,
            expires_at,
            app_data,
        }
    }
}

impl ElicitationRow {
    fn into_record(self) -> Result<PendingElicitation, StoreError> {
        let mode = Mode::parse(&self.mode).ok_or_else(|| {
            StoreError::Backend(format!(
                "corrupt stored data: elicitation {} has mode `{}`",
                self.id, self.mode
            ))
        })?;
        let state = State::parse(&self.state).map_err(|_| {
            StoreError::Backend(format!(
                "corrupt stored data: elicitation {} has state `{}`",
                self.id, self.state
            ))
        })?;
        let app_data = self
            .app_data
            .as_deref()
            .map(serde_json::from_str)
            .transpose()
            .map_err(|e| {
                StoreError::Backend(format!(
                    "corrupt stored data: elicitation {} has application data that is not JSON: {e}",
                    self.id
                ))
            })?;
        Ok(PendingElicitation {
            principal: Principal::authenticated(self.principal_issuer, self.principal_subject),
            session: SessionKey::from_stored(self.session_key),
            mode,
            state,
            message: self.message,
            url: self.url,
            created_at: time::from_db(self.created_at),
            expires_at: time::from_db(self.expires_at),
            app_data,
            id: self.id,
        })
    }
}

fn backend(context: &str, e: &sqlx::Error) -> StoreError {
    Error::db(context, e).into()
}

fn records(rows: Vec<ElicitationRow>) -> Result<Vec<PendingElicitation>, StoreError> {
    rows.into_iter().map(ElicitationRow::into_record).collect()
}

fn sorted(mut list: Vec<PendingElicitation>) -> Vec<PendingElicitation> {
    list.sort_by(|a, b| {
        a.created_at
            .cmp(&b.created_at)
            .then_with(|| a.id.cmp(&b.id))
    });
    list
}

/// The application data of `r` as the JSON text stored.
fn app_data_text(r: &PendingElicitation) -> Option<String> {
    r.app_data.as_ref().map(serde_json::Value::to_string)
}

impl Store {
    async fn insert_record(&self, r: PendingElicitation) -> Result<(), StoreError> {
        let created = time::to_db(r.created_at, "created_at")?;
        let expires = time::to_db(r.expires_at, "expires_at")?;
        let data = app_data_text(&r);
        let sql = concat!(
            "INSERT INTO elicitations (",
            columns!(),
            ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (id) DO NOTHING"
        );
        let done =
            on_pool!(self.pool(), pool => bind_record!(sqlx::query(sql), r, created, expires, data.as_deref())
            .execute(pool)
            .await
            .map(|done| done.rows_affected()))
            .map_err(|e| backend("inserting an elicitation", &e))?;
        if done == 0 {
            return Err(StoreError::Duplicate(r.id));
        }
        Ok(())
    }

    /// Inserts `r` unless its user already has `max` records that have not expired by
    /// `r.created_at` (expired ones never count, swept or not): one conditional
    /// `INSERT ... SELECT ... WHERE (SELECT COUNT(*) ... AND expires_at > created) < max`. SQLite runs one writer
    /// at a time, so the count and the insert cannot be separated there; on PostgreSQL
    /// (read committed) two such statements could both count `max - 1`, so they run in a
    /// transaction holding a per-user advisory lock: concurrent inserts for one user, from
    /// any node, take turns, and each counts what the previous one committed.
    async fn insert_record_within(
        &self,
        r: PendingElicitation,
        max: usize,
    ) -> Result<(), StoreError> {
        let created = time::to_db(r.created_at, "created_at")?;
        let expires = time::to_db(r.expires_at, "expires_at")?;
        let data = app_data_text(&r);
        let max_db = i64::try_from(max).unwrap_or(i64::MAX);
        let sql = concat!(
            "INSERT INTO elicitations (",
            columns!(),
            ") SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11 WHERE (SELECT COUNT(*) FROM \
             elicitations WHERE principal_issuer = $2 AND principal_subject = $3 \
             AND expires_at > $9) < $12 \
             ON CONFLICT (id) DO NOTHING"
        );
        macro_rules! insert {
            ($executor:expr) => {
                bind_record!(sqlx::query(sql), r, created, expires, data.as_deref())
                    .bind(max_db)
                    .execute($executor)
                    .await
                    .map(|done| done.rows_affected())
            };
        }
        let inserted = match self.pool() {
            crate::db::Pool::Sqlite(pool) => insert!(pool),
            crate::db::Pool::Postgres(pool) => {
                async {
                    let mut tx = pool.begin().await?;
                    sqlx::query(
                        "SELECT pg_advisory_xact_lock(hashtextextended($1 || chr(10) || $2, 0))",
                    )
                    .bind(r.principal.issuer())
                    .bind(r.principal.subject())
                    .execute(&mut *tx)
                    .await?;
                    let n = insert!(&mut *tx)?;
                    tx.commit().await?;
                    Ok::<u64, sqlx::Error>(n)
                }
                .await
            }
        }
        .map_err(|e| backend("inserting an elicitation within the user's quota", &e))?;
        if inserted == 1 {
            return Ok(());
        }
        // Nothing inserted: the id exists, or the user is at the cap.
        let exists: i64 = on_pool!(self.pool(), pool => sqlx::query_scalar(
            "SELECT COUNT(*) FROM elicitations WHERE id = $1",
        )
        .bind(&r.id)
        .fetch_one(pool)
        .await)
        .map_err(|e| backend("checking an elicitation id", &e))?;
        if exists > 0 {
            return Err(StoreError::Duplicate(r.id));
        }
        let pending = self
            .list_records(&r.principal)
            .await?
            .iter()
            .filter(|p| p.expires_at > r.created_at)
            .count();
        Err(StoreError::QuotaExceeded { pending, max })
    }

    async fn get_record(
        &self,
        principal: &Principal,
        id: &str,
    ) -> Result<Option<PendingElicitation>, StoreError> {
        let sql = concat!(
            "SELECT ",
            columns!(),
            " FROM elicitations WHERE id = $1 AND principal_issuer = $2 AND principal_subject = $3"
        );
        let row = on_pool!(self.pool(), pool => sqlx::query_as::<_, ElicitationTuple>(sql)
            .bind(id)
            .bind(principal.issuer())
            .bind(principal.subject())
            .fetch_optional(pool)
            .await
            .map(|row| row.map(ElicitationRow::from)))
        .map_err(|e| backend("reading an elicitation", &e))?;
        row.map(ElicitationRow::into_record).transpose()
    }

    async fn transition_record(
        &self,
        principal: &Principal,
        id: &str,
        event: Event,
    ) -> Result<Transition, StoreError> {
        for _ in 0..MAX_CAS_ATTEMPTS {
            let Some(before) = self.get_record(principal, id).await? else {
                return Err(StoreError::NotFound(id.to_owned()));
            };
            let state = before
                .state
                .apply(before.mode, event)
                .map_err(|e| StoreError::InvalidTransition(e.message().to_owned()))?;
            let removed = state.is_terminal(before.mode);
            let changed = if removed {
                on_pool!(self.pool(), pool => sqlx::query(
                    "DELETE FROM elicitations WHERE id = $1 AND principal_issuer = $2 \
                     AND principal_subject = $3 AND state = $4",
                )
                .bind(id)
                .bind(principal.issuer())
                .bind(principal.subject())
                .bind(before.state.as_str())
                .execute(pool)
                .await
                .map(|done| done.rows_affected()))
            } else {
                on_pool!(self.pool(), pool => sqlx::query(
                    "UPDATE elicitations SET state = $5 WHERE id = $1 AND principal_issuer = $2 \
                     AND principal_subject = $3 AND state = $4",
                )
                .bind(id)
                .bind(principal.issuer())
                .bind(principal.subject())
                .bind(before.state.as_str())
                .bind(state.as_str())
                .execute(pool)
                .await
                .map(|done| done.rows_affected()))
            }
            .map_err(|e| backend("changing an elicitation's state", &e))?;
            if changed == 1 {
                return Ok(Transition {
                    before,
                    state,
                    removed,
                });
            }
            // Another caller changed or removed the record in between: read it again.
        }
        Err(StoreError::Backend(format!(
            "elicitation {id} kept changing under concurrent updates"
        )))
    }

    async fn delete_returning(
        &self,
        context: &str,
        sql: &'static str,
        bind: Bind<'_>,
    ) -> Result<Vec<PendingElicitation>, StoreError> {
        let rows = on_pool!(self.pool(), pool => {
            let query = sqlx::query_as::<_, ElicitationTuple>(sql);
            let query = match bind {
                Bind::Text(text) => query.bind(text),
                Bind::Int(n) => query.bind(n),
            };
            query.fetch_all(pool).await.map(|rows| rows.into_iter().map(ElicitationRow::from).collect::<Vec<_>>())
        })
        .map_err(|e| backend(context, &e))?;
        Ok(sorted(records(rows)?))
    }

    async fn list_records(
        &self,
        principal: &Principal,
    ) -> Result<Vec<PendingElicitation>, StoreError> {
        let sql = concat!(
            "SELECT ",
            columns!(),
            " FROM elicitations WHERE principal_issuer = $1 AND principal_subject = $2"
        );
        let rows = on_pool!(self.pool(), pool => sqlx::query_as::<_, ElicitationTuple>(sql)
            .bind(principal.issuer())
            .bind(principal.subject())
            .fetch_all(pool)
            .await
            .map(|rows| rows.into_iter().map(ElicitationRow::from).collect::<Vec<_>>()))
        .map_err(|e| backend("listing a user's elicitations", &e))?;
        // Sorted here, not in SQL: byte order on both backends, whatever the collation.
        Ok(sorted(records(rows)?))
    }

    async fn count_records(&self) -> Result<usize, StoreError> {
        let n: i64 =
            on_pool!(self.pool(), pool => sqlx::query_scalar("SELECT COUNT(*) FROM elicitations")
            .fetch_one(pool)
            .await)
            .map_err(|e| backend("counting elicitations", &e))?;
        usize::try_from(n).map_err(|_| StoreError::Backend(format!("negative count {n}")))
    }
}

/// The one parameter of a `DELETE ... RETURNING`.
#[derive(Clone, Copy)]
enum Bind<'a> {
    Text(&'a str),
    Int(i64),
}

impl ElicitationStore for Store {
    fn insert(&self, record: PendingElicitation) -> BoxFuture<'_, Result<(), StoreError>> {
        self.insert_record(record).boxed()
    }

    fn insert_within_quota(
        &self,
        record: PendingElicitation,
        max: usize,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        self.insert_record_within(record, max).boxed()
    }

    fn get<'a>(
        &'a self,
        principal: &'a Principal,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<PendingElicitation>, StoreError>> {
        self.get_record(principal, id).boxed()
    }

    fn transition<'a>(
        &'a self,
        principal: &'a Principal,
        id: &'a str,
        event: Event,
    ) -> BoxFuture<'a, Result<Transition, StoreError>> {
        self.transition_record(principal, id, event).boxed()
    }

    fn remove<'a>(
        &'a self,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<PendingElicitation>, StoreError>> {
        async move {
            let removed = self
                .delete_returning(
                    "removing an elicitation",
                    concat!(
                        "DELETE FROM elicitations WHERE id = $1 RETURNING ",
                        columns!()
                    ),
                    Bind::Text(id),
                )
                .await?;
            Ok(removed.into_iter().next())
        }
        .boxed()
    }

    fn remove_session_forms<'a>(
        &'a self,
        session: &'a SessionKey,
    ) -> BoxFuture<'a, Result<Vec<PendingElicitation>, StoreError>> {
        self.delete_returning(
            "removing a session's form elicitations",
            concat!(
                "DELETE FROM elicitations WHERE session_key = $1 AND mode = 'form' RETURNING ",
                columns!()
            ),
            Bind::Text(session.as_str()),
        )
        .boxed()
    }

    fn sweep_expired(
        &self,
        now: SystemTime,
    ) -> BoxFuture<'_, Result<Vec<PendingElicitation>, StoreError>> {
        async move {
            let now = time::to_db(now, "the sweep time")?;
            self.delete_returning(
                "sweeping expired elicitations",
                concat!(
                    "DELETE FROM elicitations WHERE expires_at <= $1 RETURNING ",
                    columns!()
                ),
                Bind::Int(now),
            )
            .await
        }
        .boxed()
    }

    fn list<'a>(
        &'a self,
        principal: &'a Principal,
    ) -> BoxFuture<'a, Result<Vec<PendingElicitation>, StoreError>> {
        self.list_records(principal).boxed()
    }

    fn count(&self) -> BoxFuture<'_, Result<usize, StoreError>> {
        self.count_records().boxed()
    }
}
