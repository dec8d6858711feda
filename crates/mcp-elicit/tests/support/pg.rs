//! A fresh PostgreSQL database per test, dropped afterwards.
//!
//! `MCP_ELICIT_TEST_PG` (default `postgres://postgres@127.0.0.1:5432/test`) names a database
//! whose user may `CREATE DATABASE`; the new one is named from `prefix` and the process id.
#![allow(dead_code, unreachable_pub)]

use std::str::FromStr;
use std::sync::atomic::{AtomicU32, Ordering};

use mcp_elicit_store::sqlx::postgres::PgConnectOptions;
use mcp_elicit_store::sqlx::{AssertSqlSafe, ConnectOptions, Connection, Executor};

pub const PG_ENV: &str = "MCP_ELICIT_TEST_PG";
pub const PG_DEFAULT: &str = "postgres://postgres@127.0.0.1:5432/test";

/// A fresh PostgreSQL database, dropped (`WITH (FORCE)`) when this is dropped.
pub struct PgDatabase {
    admin: String,
    name: String,
    /// Its URL, for `--store`.
    pub url: String,
}

impl PgDatabase {
    /// Creates `<prefix>_<pid>_<n>` (dropping a leftover of that name first), `n` counting
    /// the databases this process made (tests of one binary run at the same time).
    pub async fn create(prefix: &str) -> PgDatabase {
        let admin = std::env::var(PG_ENV)
            .ok()
            .filter(|v| !v.trim().is_empty())
            .unwrap_or_else(|| PG_DEFAULT.to_owned());
        let mut conn = PgConnectOptions::from_str(&admin)
            .expect("a PostgreSQL URL")
            .connect()
            .await
            .unwrap_or_else(|e| {
                panic!(
                    "PostgreSQL at {admin} ({PG_ENV}): {e}; start it with \
                     `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`"
                )
            });
        static SEQ: AtomicU32 = AtomicU32::new(0);
        let n = SEQ.fetch_add(1, Ordering::Relaxed);
        let name = format!("{prefix}_{}_{n}", std::process::id());
        conn.execute(AssertSqlSafe(format!("DROP DATABASE IF EXISTS {name}")))
            .await
            .expect("drop an old test database");
        conn.execute(AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .await
            .expect("create the test database");
        conn.close().await.expect("close");
        let mut url = url::Url::parse(&admin).expect("admin URL");
        url.set_path(&format!("/{name}"));
        PgDatabase {
            admin,
            name,
            url: url.to_string(),
        }
    }
}

impl Drop for PgDatabase {
    fn drop(&mut self) {
        let (admin, name) = (self.admin.clone(), self.name.clone());
        // Its own runtime: Drop may run inside or outside the test's runtime.
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            rt.block_on(async move {
                if let Ok(mut conn) = PgConnectOptions::from_str(&admin)
                    .expect("url")
                    .connect()
                    .await
                {
                    let _ = conn
                        .execute(AssertSqlSafe(format!(
                            "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
                        )))
                        .await;
                }
            });
        })
        .join();
    }
}
