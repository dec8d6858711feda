//! Test databases: a SQLite file in a temporary directory, or a fresh PostgreSQL database
//! created for one test and dropped after it.
//!
//! PostgreSQL: `MCP_ELICIT_TEST_PG` names a database to connect to for creating and
//! dropping test databases (default `postgres://postgres@127.0.0.1:5432/test`; the user
//! needs CREATEDB). Each test gets its own `mcp_elicit_test_<pid>_<random>` database, so
//! parallel tests and parallel runs never collide.
#![allow(dead_code, unreachable_pub)]

use std::str::FromStr;
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use mcp_elicit_server::Clock;
use mcp_elicit_store::sqlx::postgres::PgConnectOptions;
use mcp_elicit_store::sqlx::{ConnectOptions, Connection, Executor};
use mcp_elicit_store::{Backend, Store};

/// Where the PostgreSQL tests connect to create their databases.
pub const PG_ENV: &str = "MCP_ELICIT_TEST_PG";
/// The default when `MCP_ELICIT_TEST_PG` is unset.
pub const PG_DEFAULT: &str = "postgres://postgres@127.0.0.1:5432/test";

/// A database for one test; removed when dropped.
pub struct TestDb {
    /// The URL to give [`Store::connect`].
    pub url: String,
    /// Which backend.
    pub backend: Backend,
    cleanup: Cleanup,
}

enum Cleanup {
    Sqlite(#[allow(dead_code)] tempfile::TempDir),
    Postgres { admin: String, name: String },
}

impl TestDb {
    /// A store on this database (runs migrations on first use).
    pub async fn connect(&self) -> Store {
        Store::connect(&self.url)
            .await
            .unwrap_or_else(|e| panic!("connecting to the test database {}: {e}", self.url))
    }
}

/// A SQLite database file in a fresh temporary directory.
pub async fn sqlite_file() -> TestDb {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("state.db");
    TestDb {
        url: format!("sqlite://{}?mode=rwc", path.display()),
        backend: Backend::Sqlite,
        cleanup: Cleanup::Sqlite(dir),
    }
}

/// The admin URL for PostgreSQL tests.
pub fn pg_admin_url() -> String {
    std::env::var(PG_ENV)
        .ok()
        .filter(|v| !v.trim().is_empty())
        .unwrap_or_else(|| PG_DEFAULT.to_owned())
}

/// A fresh, empty PostgreSQL database; panics with instructions if the server is down.
pub async fn postgres() -> TestDb {
    let admin = pg_admin_url();
    let options = PgConnectOptions::from_str(&admin)
        .unwrap_or_else(|e| panic!("{PG_ENV}={admin} is not a PostgreSQL URL: {e}"));
    let mut conn = match tokio::time::timeout(Duration::from_secs(10), options.connect()).await {
        Ok(Ok(conn)) => conn,
        Ok(Err(e)) => panic!("{}", pg_down(&admin, &e.to_string())),
        Err(_) => panic!("{}", pg_down(&admin, "timed out after 10 s")),
    };
    let mut random = [0u8; 6];
    getrandom::fill(&mut random).expect("OS random numbers");
    let name = format!(
        "mcp_elicit_test_{}_{}",
        std::process::id(),
        random
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    );
    conn.execute(mcp_elicit_store::sqlx::AssertSqlSafe(format!(
        "CREATE DATABASE {name}"
    )))
    .await
    .unwrap_or_else(|e| panic!("CREATE DATABASE {name} at {admin}: {e}"));
    let _ = conn.close().await;
    let mut url = url::Url::parse(&admin).expect("checked above");
    url.set_path(&format!("/{name}"));
    TestDb {
        url: url.to_string(),
        backend: Backend::Postgres,
        cleanup: Cleanup::Postgres { admin, name },
    }
}

fn pg_down(admin: &str, error: &str) -> String {
    format!(
        "PostgreSQL is not reachable at {admin} ({error}).\n\
         The PostgreSQL tests need a running server with trust authentication on loopback.\n\
         Start the local cluster with:\n    \
         pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start\n\
         or set {PG_ENV} to the URL of a database whose user may CREATE DATABASE."
    )
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let Cleanup::Postgres { admin, name } = &self.cleanup else {
            return;
        };
        let (admin, name) = (admin.clone(), name.clone());
        // Drop may run inside the test's runtime: use a thread with its own runtime.
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| e.to_string())?;
            runtime.block_on(async move {
                let options = PgConnectOptions::from_str(&admin).map_err(|e| e.to_string())?;
                let mut conn = options.connect().await.map_err(|e| e.to_string())?;
                conn.execute(mcp_elicit_store::sqlx::AssertSqlSafe(format!(
                    "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
                )))
                .await
                .map_err(|e| e.to_string())?;
                let _ = conn.close().await;
                Ok::<(), String>(())
            })
        })
        .join();
        if let Ok(Err(e)) = dropped {
            eprintln!("warning: could not drop the test database: {e}");
        }
    }
}

/// A clock the test moves by hand.
#[derive(Debug)]
pub struct ManualClock(Mutex<SystemTime>);

impl ManualClock {
    /// Starts at `t`.
    pub fn at(t: SystemTime) -> Self {
        Self(Mutex::new(t))
    }

    /// Moves forward by `d`.
    pub fn advance(&self, d: Duration) {
        let mut now = self.0.lock().unwrap_or_else(|p| p.into_inner());
        *now += d;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> SystemTime {
        *self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A parameter of [`exec`] / [`fetch_blob`].
#[derive(Debug, Clone)]
pub enum Param {
    /// TEXT.
    Text(String),
    /// BLOB / BYTEA.
    Bytes(Vec<u8>),
}

/// Runs `$body` once per backend with `$pool` bound to the concrete pool.
macro_rules! on_pool {
    ($store:expr, $pool:ident => $body:expr) => {
        match $store.pool() {
            mcp_elicit_store::Pool::Sqlite($pool) => $body,
            mcp_elicit_store::Pool::Postgres($pool) => $body,
            _ => unreachable!("no other backend"),
        }
    };
}

/// Executes a raw statement (what an attacker with write access to the database does);
/// returns the rows affected.
pub async fn exec(store: &Store, sql: &str, params: &[Param]) -> u64 {
    let sql = mcp_elicit_store::sqlx::AssertSqlSafe(sql.to_owned());
    on_pool!(store, pool => {
        let mut query = mcp_elicit_store::sqlx::query(sql);
        for p in params {
            query = match p {
                Param::Text(t) => query.bind(t.clone()),
                Param::Bytes(b) => query.bind(b.clone()),
            };
        }
        query.execute(pool).await.map(|d| d.rows_affected())
    })
    .unwrap_or_else(|e| panic!("raw statement failed: {e}"))
}

/// The single BLOB column of the single row a raw query returns.
pub async fn fetch_blob(store: &Store, sql: &str, params: &[Param]) -> Vec<u8> {
    let sql = mcp_elicit_store::sqlx::AssertSqlSafe(sql.to_owned());
    on_pool!(store, pool => {
        let mut query = mcp_elicit_store::sqlx::query_scalar::<_, Vec<u8>>(sql);
        for p in params {
            query = match p {
                Param::Text(t) => query.bind(t.clone()),
                Param::Bytes(b) => query.bind(b.clone()),
            };
        }
        query.fetch_one(pool).await
    })
    .unwrap_or_else(|e| panic!("raw query failed: {e}"))
}

/// Every cell of every row of `table`, as bytes: what someone reading the database sees.
pub async fn dump(store: &Store, table: &str) -> Vec<Vec<u8>> {
    use mcp_elicit_store::sqlx::Row;
    let sql = mcp_elicit_store::sqlx::AssertSqlSafe(format!("SELECT * FROM {table}"));
    on_pool!(store, pool => {
        let rows = mcp_elicit_store::sqlx::query(sql)
            .fetch_all(pool)
            .await
            .unwrap_or_else(|e| panic!("dumping {table}: {e}"));
        rows.iter()
            .map(|row| {
                let mut cells = Vec::new();
                for i in 0..row.len() {
                    if let Ok(v) = row.try_get::<Option<Vec<u8>>, _>(i) {
                        cells.extend(v.unwrap_or_default());
                    } else if let Ok(v) = row.try_get::<Option<String>, _>(i) {
                        cells.extend(v.unwrap_or_default().into_bytes());
                    } else if let Ok(v) = row.try_get::<Option<i64>, _>(i) {
                        cells.extend(v.unwrap_or_default().to_string().into_bytes());
                    } else {
                        panic!("{table}: column {i} is neither bytes, text nor integer");
                    }
                    cells.push(0);
                }
                cells
            })
            .collect::<Vec<_>>()
    })
}

/// Whether `haystack` contains `needle`.
pub fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && haystack.windows(needle.len()).any(|w| w == needle)
}
