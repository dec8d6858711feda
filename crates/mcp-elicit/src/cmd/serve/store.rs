//! Which store `mcp-elicit serve` uses (`--store`, or the default), and opening it.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use mcp_elicit_server::reference::{DemoState, MemoryDemoState};
use mcp_elicit_server::{ElicitationConfig, ElicitationStore, Elicitations, SystemClock};
use mcp_elicit_store::{PgCompletionBus, Store, StoreOptions};

use super::state::SqlDemoState;

/// Where the server keeps its state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum StoreChoice {
    /// In this process only.
    Memory,
    /// A database (`sqlite:` or `postgres:` URL).
    Database {
        /// The URL given to the store.
        url: String,
        /// The SQLite file to create (with its directory) when it is the default one.
        default_file: Option<PathBuf>,
    },
}

impl StoreChoice {
    /// The choice for `--store` (`None` when absent): `memory` (or `sqlite::memory:`
    /// kept as a database) or a database URL; absent, memory for the conformance
    /// server, else the SQLite file under the user's data directory (read from `env`).
    pub(crate) fn from_args(
        store: Option<&str>,
        conformance: bool,
        env: impl Fn(&str) -> Option<OsString>,
    ) -> Result<StoreChoice, String> {
        match store.map(str::trim) {
            Some("memory") => Ok(Self::Memory),
            Some(url) => {
                mcp_elicit_store::scheme(url).map_err(|e| format!("--store: {e}"))?;
                Ok(Self::Database {
                    url: with_create_mode(url),
                    default_file: None,
                })
            }
            None if conformance => Ok(Self::Memory),
            None => {
                let file = default_file(env).ok_or(
                    "no data directory for the default store (neither XDG_DATA_HOME nor HOME is set): \
                     pass --store sqlite://PATH or --store memory",
                )?;
                Ok(Self::Database {
                    url: sqlite_url(&file)?,
                    default_file: Some(file),
                })
            }
        }
    }

    /// What to tell the operator at start-up (no credentials).
    pub(crate) fn describe(&self) -> String {
        match self {
            Self::Memory => {
                "in memory (pending elicitations and the connect demo are lost on exit; \
                             use --store to keep them)"
                    .to_owned()
            }
            Self::Database {
                default_file: Some(file),
                ..
            } => format!(
                "{} (pending elicitations and the connect demo survive restarts; --store memory to \
                 keep nothing)",
                file.display()
            ),
            Self::Database { url, .. } => format!(
                "{} (pending elicitations and the connect demo survive restarts)",
                redact(url)
            ),
        }
    }
}

/// `$XDG_DATA_HOME/mcp-elicit/state.db` (an absolute `XDG_DATA_HOME` only, as the XDG
/// base directory specification says), else `$HOME/.local/share/mcp-elicit/state.db`.
pub(crate) fn default_file(env: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let non_empty = |k: &str| env(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    let data = non_empty("XDG_DATA_HOME")
        .filter(|p| p.is_absolute())
        .or_else(|| non_empty("HOME").map(|h| h.join(".local").join("share")))?;
    Some(data.join("mcp-elicit").join("state.db"))
}

/// A `sqlite://` URL for `file` that creates it if missing (`%`, `?` and `#` escaped:
/// the driver percent-decodes the path).
fn sqlite_url(file: &Path) -> Result<String, String> {
    let path = file.to_str().ok_or_else(|| {
        format!(
            "the data directory {} is not UTF-8: pass --store",
            file.display()
        )
    })?;
    let escaped = path
        .replace('%', "%25")
        .replace('?', "%3F")
        .replace('#', "%23");
    Ok(format!("sqlite://{escaped}?mode=rwc"))
}

/// A SQLite file URL without a `mode` creates the file when missing (`mode=rwc`).
fn with_create_mode(url: &str) -> String {
    let lower = url.to_ascii_lowercase();
    let sqlite_file = lower.starts_with("sqlite:") && !lower.contains(":memory:");
    let has_mode = url.split_once('?').is_some_and(|(_, q)| {
        q.split('&')
            .any(|p| p.to_ascii_lowercase().starts_with("mode="))
    });
    if !sqlite_file || has_mode {
        url.to_owned()
    } else if url.contains('?') {
        format!("{url}&mode=rwc")
    } else {
        format!("{url}?mode=rwc")
    }
}

/// `url` without a password.
fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) if u.password().is_some() => {
            let _ = u.set_password(Some("***"));
            u.to_string()
        }
        Ok(_) => url.to_owned(),
        Err(_) => url.split('@').next_back().unwrap_or_default().to_owned(),
    }
}

/// The opened state: the registry over the chosen store, the demo state beside it.
pub(crate) struct Opened {
    pub(crate) hub: Elicitations,
    pub(crate) demo: Arc<dyn DemoState>,
    /// The database (`None` in memory); the web layer's vault lives in it.
    pub(crate) store: Option<Store>,
    /// On PostgreSQL: the task delivering other nodes' completion notices here.
    bus: Option<tokio::task::JoinHandle<()>>,
}

impl Opened {
    /// How completions reach a client connected to another node, for the operator.
    pub(crate) fn describe_nodes(&self) -> &'static str {
        if self.bus.is_some() {
            "several nodes may share this PostgreSQL database: completion notices travel by              LISTEN/NOTIFY to the node holding the client's connection"
        } else {
            "one node: to run several behind a load balancer, share a PostgreSQL store"
        }
    }

    /// Stops the bus and closes the database connections (a clean exit checkpoints
    /// SQLite's log).
    pub(crate) async fn close(&self) {
        if let Some(bus) = &self.bus {
            bus.abort();
        }
        if let Some(store) = &self.store {
            store.close().await;
        }
    }
}

/// On PostgreSQL, joins the other nodes sharing the database: completions this node
/// cannot deliver are published (`NOTIFY`), and notices from any node are delivered to
/// the connections held here (`LISTEN`).
fn join_nodes(store: &Store, hub: &Elicitations) -> Option<tokio::task::JoinHandle<()>> {
    let bus = Arc::new(PgCompletionBus::from_store(store).ok()?);
    hub.set_relay(bus.clone());
    let hub = hub.clone();
    Some(tokio::spawn(async move {
        mcp_elicit_store::deliver_notices(&*bus, &hub).await;
    }))
}

/// Opens `choice` (creating the default directory, owner-only) and builds the registry.
pub(crate) async fn open_state(
    choice: &StoreChoice,
    config: ElicitationConfig,
) -> Result<Opened, String> {
    match choice {
        StoreChoice::Memory => Ok(Opened {
            hub: Elicitations::new(config),
            demo: Arc::new(MemoryDemoState::new()),
            store: None,
            bus: None,
        }),
        StoreChoice::Database { url, default_file } => {
            if let Some(dir) = default_file.as_deref().and_then(Path::parent) {
                create_private_dir(dir)?;
            }
            let store = Store::connect_with(url, &store_options())
                .await
                .map_err(|e| format!("cannot open the store {}: {e}", redact(url)))?;
            let demo = SqlDemoState::open(store.pool().clone())
                .await
                .map_err(|e| format!("cannot prepare the store {}: {e}", redact(url)))?;
            let hub = Elicitations::with_store(
                config,
                Arc::new(store.clone()) as Arc<dyn ElicitationStore>,
                Arc::new(SystemClock),
            );
            let bus = join_nodes(&store, &hub);
            Ok(Opened {
                hub,
                demo: Arc::new(demo),
                store: Some(store),
                bus,
            })
        }
    }
}

/// How long a request waits for a database connection before it fails with the
/// retryable "store unavailable" error (`-32000`, or 503 with `Retry-After` on the
/// pages): while the database is down a request fails after this long instead of
/// hanging, and the pool reconnects by itself once it is back.
pub(crate) const STORE_ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

fn store_options() -> StoreOptions {
    let mut options = StoreOptions::default();
    options.acquire_timeout = STORE_ACQUIRE_TIMEOUT;
    options
}

fn create_private_dir(dir: &Path) -> Result<(), String> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder
        .create(dir)
        .map_err(|e| format!("cannot create {}: {e}", dir.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<OsString> {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| OsString::from(v))
        }
    }

    #[test]
    fn the_default_is_memory_for_conformance_and_the_data_directory_otherwise() {
        let home = env(&[("HOME", "/home/ada")]);
        assert_eq!(
            StoreChoice::from_args(None, true, &home),
            Ok(StoreChoice::Memory)
        );
        assert_eq!(
            StoreChoice::from_args(None, false, &home),
            Ok(StoreChoice::Database {
                url: "sqlite:///home/ada/.local/share/mcp-elicit/state.db?mode=rwc".into(),
                default_file: Some("/home/ada/.local/share/mcp-elicit/state.db".into()),
            })
        );
        let xdg = env(&[("HOME", "/home/ada"), ("XDG_DATA_HOME", "/data/ada")]);
        assert_eq!(
            default_file(&xdg),
            Some(PathBuf::from("/data/ada/mcp-elicit/state.db"))
        );
        // A relative XDG_DATA_HOME is ignored, as the XDG specification says.
        let relative = env(&[("HOME", "/home/ada"), ("XDG_DATA_HOME", "data")]);
        assert_eq!(
            default_file(&relative),
            Some(PathBuf::from("/home/ada/.local/share/mcp-elicit/state.db"))
        );
        assert!(StoreChoice::from_args(None, false, env(&[])).is_err());
        assert_eq!(
            StoreChoice::from_args(Some("memory"), false, env(&[])),
            Ok(StoreChoice::Memory)
        );
    }

    #[test]
    fn store_urls_are_checked_completed_and_shown_without_passwords() {
        assert!(StoreChoice::from_args(Some("mysql://x"), false, env(&[])).is_err());
        assert_eq!(
            with_create_mode("sqlite:///tmp/a.db"),
            "sqlite:///tmp/a.db?mode=rwc"
        );
        assert_eq!(
            with_create_mode("sqlite:///tmp/a.db?cache=shared"),
            "sqlite:///tmp/a.db?cache=shared&mode=rwc"
        );
        assert_eq!(
            with_create_mode("sqlite:///tmp/a.db?mode=ro"),
            "sqlite:///tmp/a.db?mode=ro"
        );
        assert_eq!(with_create_mode("sqlite::memory:"), "sqlite::memory:");
        assert_eq!(with_create_mode("postgres://h/db"), "postgres://h/db");
        let shown = StoreChoice::Database {
            url: "postgres://mcp:hunter2@127.0.0.1/db".into(),
            default_file: None,
        }
        .describe();
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(shown.contains("127.0.0.1/db"), "{shown}");
        assert_eq!(
            sqlite_url(Path::new("/tmp/a?b#c%d/state.db")),
            Ok("sqlite:///tmp/a%3Fb%23c%25d/state.db?mode=rwc".to_owned())
        );
    }
}
