//! The PostgreSQL [`CompletionBus`]: `NOTIFY` on publish, `LISTEN` per subscriber.

use futures::FutureExt;
use futures::future::BoxFuture;
use futures::stream::StreamExt;
use mcp_elicit_server::SessionKey;
use serde_json::{Value, json};
use sqlx::postgres::{PgListener, PgPool};

use super::{CompletionBus, CompletionNotice, CompletionStream};
use crate::db::{Pool, Store};
use crate::error::Error;

/// The default notification channel.
///
/// ```
/// assert_eq!(mcp_elicit_store::DEFAULT_NOTIFY_CHANNEL, "mcp_elicit_completion");
/// ```
pub const DEFAULT_NOTIFY_CHANNEL: &str = "mcp_elicit_completion";
/// PostgreSQL refuses `NOTIFY` payloads of 8000 bytes or more.
const MAX_PAYLOAD: usize = 7999;

/// Completion notices through PostgreSQL `LISTEN/NOTIFY`, shared by every node connected
/// to the same database. Each subscriber holds one connection of the pool.
///
/// PostgreSQL delivers a notification only to sessions listening when it is committed;
/// while a listener reconnects after a lost connection, notices are missed (the
/// subscriber's stream reports the broken connection as an error item first).
///
/// Built without a running server (the pool connects lazily, on the first publish or
/// subscribe):
///
/// ```
/// use mcp_elicit_store::PgCompletionBus;
/// use mcp_elicit_store::sqlx::postgres::PgPoolOptions;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let pool = PgPoolOptions::new().connect_lazy("postgres://mcp@127.0.0.1/elicit")?;
/// let bus = PgCompletionBus::new(pool).with_channel("staging_completions")?;
/// # let _ = bus;
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct PgCompletionBus {
    pool: PgPool,
    channel: String,
}

impl PgCompletionBus {
    /// A bus on `pool`, using the default channel.
    ///
    /// ```
    /// use mcp_elicit_store::PgCompletionBus;
    /// use mcp_elicit_store::sqlx::postgres::PgPoolOptions;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// // A pool of your own (say, with its own size), not a `Store`'s.
    /// let pool = PgPoolOptions::new()
    ///     .max_connections(4)
    ///     .connect_lazy("postgres://mcp@127.0.0.1/elicit")?;
    /// let bus = PgCompletionBus::new(pool);
    /// assert!(format!("{bus:?}").contains("mcp_elicit_completion"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn new(pool: PgPool) -> Self {
        Self {
            pool,
            channel: DEFAULT_NOTIFY_CHANNEL.to_owned(),
        }
    }

    /// A bus on the pool of a PostgreSQL [`Store`]; [`Error::Config`] for SQLite.
    ///
    /// ```
    /// use mcp_elicit_store::{Error, PgCompletionBus, Store};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// // With `postgres://...` this is the bus every node shares. SQLite has no LISTEN/NOTIFY:
    /// let store = Store::connect("sqlite::memory:").await?;
    /// assert!(matches!(PgCompletionBus::from_store(&store), Err(Error::Config(_))));
    /// # Ok(())
    /// # }
    /// ```
    pub fn from_store(store: &Store) -> Result<Self, Error> {
        match store.pool() {
            Pool::Postgres(pool) => Ok(Self::new(pool.clone())),
            Pool::Sqlite(_) => Err(Error::Config(
                "the PostgreSQL completion bus needs a PostgreSQL store".into(),
            )),
        }
    }

    /// Uses another channel (a lower-case identifier of at most 63 characters), e.g. to
    /// separate deployments sharing one database.
    ///
    /// ```
    /// use mcp_elicit_store::{Error, PgCompletionBus};
    /// use mcp_elicit_store::sqlx::postgres::PgPoolOptions;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let pool = PgPoolOptions::new().connect_lazy("postgres://mcp@127.0.0.1/elicit")?;
    /// let bus = PgCompletionBus::new(pool);
    /// assert!(bus.clone().with_channel("prod_eu_1").is_ok());
    /// // Not an identifier LISTEN takes unquoted: refused.
    /// for bad in ["", "Prod", "1st", "prod-eu", "x".repeat(64).as_str()] {
    ///     assert!(matches!(bus.clone().with_channel(bad), Err(Error::Config(_))), "{bad}");
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub fn with_channel(mut self, channel: &str) -> Result<Self, Error> {
        if !valid_channel(channel) {
            return Err(Error::Config(format!(
                "invalid notification channel {channel:?}: use 1 to 63 of a-z, 0-9 and _"
            )));
        }
        self.channel = channel.to_owned();
        Ok(self)
    }
}

fn valid_channel(channel: &str) -> bool {
    !channel.is_empty()
        && channel.len() <= 63
        && channel.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
        && channel
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

fn encode(notice: &CompletionNotice) -> Result<String, Error> {
    let payload = json!({
        "elicitationId": notice.elicitation_id,
        "session": notice.session.as_str(),
    })
    .to_string();
    if payload.len() > MAX_PAYLOAD {
        return Err(Error::Bus(format!(
            "notice for elicitation {} is {} bytes, over PostgreSQL's NOTIFY limit",
            notice.elicitation_id.chars().take(64).collect::<String>(),
            payload.len()
        )));
    }
    Ok(payload)
}

/// Reads a payload; anyone allowed to `NOTIFY` on the database can send one, so it is
/// untrusted.
fn decode(payload: &str) -> Result<CompletionNotice, Error> {
    let value: Value = serde_json::from_str(payload)
        .map_err(|e| Error::Bus(format!("malformed notice payload: {e}")))?;
    let field = |name: &str| {
        value
            .get(name)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .ok_or_else(|| Error::Bus(format!("notice payload lacks a string `{name}`")))
    };
    Ok(CompletionNotice {
        elicitation_id: field("elicitationId")?,
        session: SessionKey::from_stored(field("session")?),
    })
}

impl CompletionBus for PgCompletionBus {
    fn publish<'a>(&'a self, notice: &'a CompletionNotice) -> BoxFuture<'a, Result<(), Error>> {
        async move {
            let payload = encode(notice)?;
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(&self.channel)
                .bind(payload)
                .execute(&self.pool)
                .await
                .map_err(|e| Error::db("publishing a completion notice", &e))?;
            Ok(())
        }
        .boxed()
    }

    fn subscribe(&self) -> BoxFuture<'_, Result<CompletionStream, Error>> {
        async move {
            let mut listener = PgListener::connect_with(&self.pool)
                .await
                .map_err(|e| Error::db("opening a LISTEN connection", &e))?;
            listener
                .listen(&self.channel)
                .await
                .map_err(|e| Error::db("subscribing to completion notices", &e))?;
            let stream = listener.into_stream().map(|item| match item {
                Ok(notification) => decode(notification.payload()),
                Err(e) => Err(Error::db("receiving completion notices", &e)),
            });
            Ok(stream.boxed())
        }
        .boxed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_round_trip_and_bad_ones_are_errors() {
        let notice = CompletionNotice {
            elicitation_id: "e1".into(),
            session: SessionKey::from_stored("mcp-session:\"quoted\""),
        };
        assert_eq!(decode(&encode(&notice).expect("encode")), Ok(notice));
        for bad in [
            "",
            "{",
            "[]",
            "{\"elicitationId\":1,\"session\":\"s\"}",
            "{\"session\":\"s\"}",
        ] {
            assert!(matches!(decode(bad), Err(Error::Bus(_))), "{bad}");
        }
        let huge = CompletionNotice {
            elicitation_id: "x".repeat(9000),
            session: SessionKey::from_stored("s"),
        };
        assert!(encode(&huge).is_err());
    }

    #[test]
    fn channel_names_are_checked() {
        assert!(valid_channel("ok_1"));
        assert!(!valid_channel("Bad"));
        assert!(!valid_channel("x; DROP TABLE y"));
        assert!(!valid_channel(""));
    }
}
