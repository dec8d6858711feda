//! The database behind a [`Store`]: which backend a URL names, connecting, migrations.

use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions};

use crate::error::Error;
use crate::migrations;

/// How long a SQLite writer waits for another writer (another process included).
const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Which database a [`Store`] uses.
///
/// As [`scheme`] reads it from a URL and [`Store::backend`] reports it:
///
/// ```
/// use mcp_elicit_store::{Backend, Store, scheme};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// // Read from the URL alone: nothing is opened, no PostgreSQL server is needed.
/// assert_eq!(scheme("postgres://mcp@127.0.0.1/elicit")?, Backend::Postgres);
///
/// let store = Store::connect("sqlite::memory:").await?;
/// assert_eq!(store.backend(), Backend::Sqlite);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// SQLite (a file, or `sqlite::memory:`).
    Sqlite,
    /// PostgreSQL.
    Postgres,
}

/// A connection pool of either backend.
///
/// Exposed for operational code and tests (raw queries, a `LISTEN` connection); the
/// store's own tables are an implementation detail that may change between versions.
///
/// A query of your own on the pool, failing with the store's [`Error`]:
///
/// ```
/// use mcp_elicit_store::{Error, Pool, Store};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let store = Store::connect("sqlite::memory:").await?;
/// let Pool::Sqlite(pool) = store.pool() else {
///     unreachable!("a sqlite: URL gives a SQLite pool");
/// };
/// let version: String = mcp_elicit_store::sqlx::query_scalar("SELECT sqlite_version()")
///     .fetch_one(pool)
///     .await
///     .map_err(|e| Error::from_sqlx("reading the SQLite version", &e))?;
/// assert!(version.starts_with('3'));
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Pool {
    /// SQLite.
    Sqlite(SqlitePool),
    /// PostgreSQL.
    Postgres(PgPool),
}

/// Runs `$body` with `$pool` bound to the concrete pool of either backend; the body is
/// type-checked once per backend, so one SQL text (with `$1`-style parameters, which
/// both drivers accept) serves both.
macro_rules! on_pool {
    ($pool_enum:expr, $pool:ident => $body:expr) => {
        match $pool_enum {
            $crate::db::Pool::Sqlite($pool) => $body,
            $crate::db::Pool::Postgres($pool) => $body,
        }
    };
}
pub(crate) use on_pool;

/// Durable state for elicitation: pending elicitations (it implements
/// [`ElicitationStore`](mcp_elicit_server::ElicitationStore)) and, through
/// [`Store::vault`], encrypted secrets, OAuth tokens, OAuth `state` records and browser
/// sessions.
///
/// Cloning is cheap (the pool is shared).
///
/// Pending elicitations on a SQLite file, through the
/// [`ElicitationStore`](mcp_elicit_server::ElicitationStore) trait, surviving a restart
/// (the same calls work on PostgreSQL):
///
/// ```
/// use std::time::{Duration, SystemTime};
///
/// use mcp_elicit_server::mcp_elicit_core::lifecycle::{Event, State};
/// use mcp_elicit_server::{
///     ElicitationStore, Mode, PendingElicitation, Principal, SessionKey, StoreError,
/// };
/// use mcp_elicit_store::Store;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let dir = tempfile::tempdir()?;
/// let url = format!("sqlite://{}?mode=rwc", dir.path().join("state.db").display());
/// let alice = Principal::authenticated("https://auth.example.com", "alice");
/// let now = SystemTime::now();
/// let record = |id: &str| PendingElicitation {
///     id: id.to_owned(),
///     principal: alice.clone(),
///     session: SessionKey::from_stored("connection-1"),
///     mode: Mode::Url,
///     state: State::Pending,
///     message: "Connect your calendar".to_owned(),
///     url: Some(format!("https://mcp.example.com/connect?elicitationId={id}")),
///     created_at: now,
///     expires_at: now + Duration::from_secs(3600),
///     app_data: None,
/// };
///
/// let store = Store::connect(&url).await?;
/// store.insert_within_quota(record("e1"), 1).await?;
/// // One conditional INSERT: a duplicate id, or a user at the quota, is refused.
/// assert_eq!(store.insert(record("e1")).await, Err(StoreError::Duplicate("e1".into())));
/// assert_eq!(
///     store.insert_within_quota(record("e2"), 1).await,
///     Err(StoreError::QuotaExceeded { pending: 1, max: 1 })
/// );
/// store.close().await;
///
/// // After a restart the record is still there, for its user only.
/// let store = Store::connect(&url).await?;
/// let stored = store.get(&alice, "e1").await?.expect("survived the restart");
/// assert_eq!(stored.message, "Connect your calendar");
/// let bob = Principal::authenticated("https://auth.example.com", "bob");
/// assert!(store.get(&bob, "e1").await?.is_none());
///
/// // Consent, then completion: removed at the terminal state, at most once.
/// store.transition(&alice, "e1", Event::Accept).await?;
/// let done = store.transition(&alice, "e1", Event::Complete).await?;
/// assert_eq!((done.state, done.removed), (State::Completed, true));
/// assert!(store.transition(&alice, "e1", Event::Complete).await.is_err());
/// assert_eq!(store.count().await?, 0);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct Store {
    pool: Pool,
}

/// Tuning for [`Store::connect_with`].
///
/// ```
/// use std::time::Duration;
///
/// use mcp_elicit_store::StoreOptions;
///
/// // The defaults: 8 connections, 30 s to wait for a free one.
/// let defaults = StoreOptions::default();
/// assert_eq!(defaults.max_connections, 8);
/// assert_eq!(defaults.acquire_timeout, Duration::from_secs(30));
///
/// // The struct is non-exhaustive: start from the default and change fields.
/// let mut options = StoreOptions::default();
/// options.max_connections = 2;
/// options.acquire_timeout = Duration::from_secs(5);
/// # let _ = options;
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct StoreOptions {
    /// The most connections the pool opens (an in-memory SQLite database always uses one).
    pub max_connections: u32,
    /// How long to wait for a free connection.
    pub acquire_timeout: Duration,
}

impl Default for StoreOptions {
    fn default() -> Self {
        Self {
            max_connections: 8,
            acquire_timeout: Duration::from_secs(30),
        }
    }
}

impl Store {
    /// Connects to the database `url` names and brings its schema up to date.
    ///
    /// - `sqlite://path/to/file.db?mode=rwc` (`rwc` creates the file), `sqlite:file.db`,
    ///   `sqlite::memory:` (lost when the store is dropped);
    /// - `postgres://user@host/db` or `postgresql://...` (plain TCP unless the URL asks
    ///   for `sslmode`; this build has no TLS, so use loopback or a socket).
    ///
    /// SQLite files use write-ahead logging and a 10 s busy timeout, so several
    /// processes can share one file; a file created here is readable by its owner only.
    ///
    /// ```
    /// use mcp_elicit_store::{Error, Store};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let dir = tempfile::tempdir()?;
    /// let path = dir.path().join("state.db");
    /// let store = Store::connect(&format!("sqlite://{}?mode=rwc", path.display())).await?;
    /// // Created, with the schema, and private to its owner.
    /// #[cfg(unix)]
    /// {
    ///     use std::os::unix::fs::PermissionsExt;
    ///     assert_eq!(std::fs::metadata(&path)?.permissions().mode() & 0o777, 0o600);
    /// }
    /// store.close().await;
    ///
    /// // Without `mode=rwc` a missing file is not created: the open fails.
    /// let missing = dir.path().join("missing.db");
    /// assert!(Store::connect(&format!("sqlite://{}", missing.display())).await.is_err());
    /// // Another scheme is refused before anything is opened.
    /// assert!(matches!(
    ///     Store::connect("mysql://u@127.0.0.1/db").await,
    ///     Err(Error::Config(_))
    /// ));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn connect(url: &str) -> Result<Store, Error> {
        Self::connect_with(url, &StoreOptions::default()).await
    }

    /// [`Store::connect`] with explicit pool tuning.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// use mcp_elicit_store::{Store, StoreOptions};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let dir = tempfile::tempdir()?;
    /// let url = format!("sqlite://{}?mode=rwc", dir.path().join("state.db").display());
    /// let mut options = StoreOptions::default();
    /// options.max_connections = 2;
    /// options.acquire_timeout = Duration::from_secs(5);
    /// let store = Store::connect_with(&url, &options).await?;
    /// # let _ = store;
    /// # Ok(())
    /// # }
    /// ```
    pub async fn connect_with(url: &str, options: &StoreOptions) -> Result<Store, Error> {
        let max = options.max_connections.max(1);
        let pool = match scheme(url)? {
            Backend::Sqlite => {
                let mut connect = SqliteConnectOptions::from_str(url)
                    .map_err(|e| Error::Config(format!("bad SQLite URL: {e}")))?
                    .foreign_keys(true)
                    .busy_timeout(SQLITE_BUSY_TIMEOUT);
                let in_memory = is_sqlite_memory(url);
                if !in_memory {
                    connect = connect.journal_mode(SqliteJournalMode::Wal);
                    if wants_create(url) {
                        create_private(connect.get_filename())?;
                    }
                }
                // An in-memory database lives as long as one connection to it: keep
                // exactly one open for the pool's whole life.
                let pool_options = if in_memory {
                    SqlitePoolOptions::new()
                        .max_connections(1)
                        .min_connections(1)
                        .idle_timeout(None)
                        .max_lifetime(None)
                } else {
                    SqlitePoolOptions::new().max_connections(max)
                };
                let pool = pool_options
                    .acquire_timeout(options.acquire_timeout)
                    .connect_with(connect)
                    .await
                    .map_err(|e| Error::db("opening the SQLite database", &e))?;
                migrate_sqlite(&pool).await?;
                Pool::Sqlite(pool)
            }
            Backend::Postgres => {
                let connect = PgConnectOptions::from_str(url)
                    .map_err(|e| Error::Config(format!("bad PostgreSQL URL: {e}")))?;
                let pool = PgPoolOptions::new()
                    .max_connections(max)
                    .acquire_timeout(options.acquire_timeout)
                    .connect_with(connect)
                    .await
                    .map_err(|e| Error::db("connecting to PostgreSQL", &e))?;
                // Migrations take an advisory lock, so nodes starting together are safe.
                migrations::migrator(migrations::POSTGRES)
                    .run(&pool)
                    .await
                    .map_err(|e| Error::Migration(e.to_string()))?;
                Pool::Postgres(pool)
            }
        };
        Ok(Store { pool })
    }

    /// Which backend this store uses.
    ///
    /// ```
    /// use mcp_elicit_store::{Backend, Store};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let store = Store::connect("sqlite::memory:").await?;
    /// // E.g. to pick the completion bus: PostgreSQL's LISTEN/NOTIFY, or one process only.
    /// let multi_node = store.backend() == Backend::Postgres;
    /// assert!(!multi_node);
    /// # Ok(())
    /// # }
    /// ```
    pub fn backend(&self) -> Backend {
        match self.pool {
            Pool::Sqlite(_) => Backend::Sqlite,
            Pool::Postgres(_) => Backend::Postgres,
        }
    }

    /// The connection pool.
    ///
    /// ```
    /// use mcp_elicit_store::{Pool, Store};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let store = Store::connect("sqlite::memory:").await?;
    /// let Pool::Sqlite(pool) = store.pool() else {
    ///     unreachable!("a sqlite: URL gives a SQLite pool");
    /// };
    /// // An in-memory database keeps exactly one connection for the pool's whole life.
    /// assert_eq!(pool.size(), 1);
    /// # Ok(())
    /// # }
    /// ```
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// Closes every connection; later calls fail. Waits for checked-out connections.
    ///
    /// ```
    /// use mcp_elicit_server::{ElicitationStore, StoreError};
    /// use mcp_elicit_store::Store;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let store = Store::connect("sqlite::memory:").await?;
    /// assert_eq!(store.count().await?, 0);
    /// store.close().await;
    /// // A closed pool is not "unavailable" (retrying cannot help): a backend error.
    /// assert!(matches!(store.count().await, Err(StoreError::Backend(_))));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn close(&self) {
        on_pool!(&self.pool, pool => pool.close().await)
    }
}

/// Brings a SQLite database's schema up to date. Unlike PostgreSQL, SQLite has no
/// advisory lock for sqlx to take, so processes starting together on a new file can race
/// to apply the same migration: the loser's transaction fails ("table already exists")
/// and rolls back, and running again finds the migration applied.
async fn migrate_sqlite(pool: &SqlitePool) -> Result<(), Error> {
    let migrator = migrations::migrator(migrations::SQLITE);
    let mut attempt = 0u32;
    loop {
        match migrator.run(pool).await {
            Ok(()) => return Ok(()),
            Err(e) if attempt >= MIGRATION_RETRIES => return Err(Error::Migration(e.to_string())),
            Err(e) => {
                attempt += 1;
                tracing::debug!(attempt, error = %e, "SQLite migration raced another process; retrying");
                tokio::time::sleep(Duration::from_millis(20 * u64::from(attempt))).await;
            }
        }
    }
}

/// How often a failed SQLite migration is retried.
const MIGRATION_RETRIES: u32 = 5;

/// The backend a URL names.
///
/// Only the scheme is read (case-insensitively); nothing is opened. The error names the
/// scheme it refused and never repeats the rest of the URL, which may hold a password:
///
/// ```
/// use mcp_elicit_store::{Backend, scheme};
///
/// assert_eq!(scheme("sqlite::memory:")?, Backend::Sqlite);
/// assert_eq!(scheme("sqlite://state.db?mode=rwc")?, Backend::Sqlite);
/// assert_eq!(scheme("PostgreSQL://mcp@127.0.0.1/elicit")?, Backend::Postgres);
///
/// let refused = scheme("mysql://admin:hunter2@db.internal/elicit").unwrap_err();
/// assert!(refused.to_string().contains("mysql"));
/// assert!(!refused.to_string().contains("hunter2"));
/// # Ok::<(), mcp_elicit_store::Error>(())
/// ```
pub fn scheme(url: &str) -> Result<Backend, Error> {
    let lower = url.trim_start().to_ascii_lowercase();
    if lower.starts_with("sqlite:") {
        Ok(Backend::Sqlite)
    } else if lower.starts_with("postgres://") || lower.starts_with("postgresql://") {
        Ok(Backend::Postgres)
    } else {
        let shown: String = url
            .split(':')
            .next()
            .unwrap_or_default()
            .chars()
            .take(20)
            .collect();
        Err(Error::Config(format!(
            "unsupported database URL scheme `{shown}`: use sqlite:// or postgres://"
        )))
    }
}

/// Whether a SQLite URL asks for the file to be created (`mode=rwc`).
fn wants_create(url: &str) -> bool {
    url.split_once('?').is_some_and(|(_, query)| {
        query
            .split('&')
            .any(|pair| pair.eq_ignore_ascii_case("mode=rwc"))
    })
}

/// Creates a missing SQLite file readable by its owner only, before SQLite does (SQLite
/// would use the umask, often world-readable). SQLite gives the `-wal` and `-shm` files
/// the main file's permissions. An existing file is left as the operator made it.
fn create_private(path: &std::path::Path) -> Result<(), Error> {
    let mut open = std::fs::OpenOptions::new();
    open.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut open, 0o600);
    match open.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(Error::Config(format!(
            "cannot create the SQLite database {}: {e}",
            path.display()
        ))),
    }
}

fn is_sqlite_memory(url: &str) -> bool {
    let lower = url.to_ascii_lowercase();
    lower.contains(":memory:") || lower.contains("mode=memory")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scheme_picks_the_backend_and_refuses_others_without_echoing_credentials() {
        assert_eq!(scheme("sqlite::memory:"), Ok(Backend::Sqlite));
        assert_eq!(scheme("sqlite://x.db?mode=rwc"), Ok(Backend::Sqlite));
        assert_eq!(scheme("postgres://u@127.0.0.1/db"), Ok(Backend::Postgres));
        assert_eq!(scheme("PostgreSQL://u@h/db"), Ok(Backend::Postgres));
        let err = scheme("mysql://user:hunter2@h/db").expect_err("refused");
        assert!(!err.to_string().contains("hunter2"), "{err}");
        assert!(err.to_string().contains("mysql"), "{err}");
    }

    #[tokio::test]
    async fn in_memory_sqlite_keeps_its_schema_across_pool_use() {
        let store = Store::connect("sqlite::memory:").await.expect("connect");
        assert_eq!(store.backend(), Backend::Sqlite);
        let Pool::Sqlite(pool) = store.pool() else {
            panic!("sqlite pool expected");
        };
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM elicitations")
            .fetch_one(pool)
            .await
            .expect("table exists");
        assert_eq!(n, 0);
    }
}
