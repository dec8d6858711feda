//! The one error type of this crate.

use mcp_elicit_server::StoreError;

/// What went wrong in the store, the vault, a browser session or the completion bus.
///
/// Messages never contain secret values, ciphertexts or raw session ids: they name the
/// record (user, name, provider, elicitation id) and the operation.
///
/// The registry of `mcp-elicit-server` sees these as its
/// [`StoreError`](mcp_elicit_server::StoreError): [`Error::Unavailable`] as
/// `StoreError::Unavailable` (JSON-RPC -32000, retryable), every other kind as
/// `StoreError::Backend`:
///
/// ```
/// use mcp_elicit_server::StoreError;
/// use mcp_elicit_store::Error;
///
/// let down = Error::from_sqlx("counting elicitations", &mcp_elicit_store::sqlx::Error::PoolTimedOut);
/// assert!(matches!(StoreError::from(down), StoreError::Unavailable(_)));
///
/// let corrupt = Error::Corrupt("elicitation e1: unknown mode".into());
/// assert_eq!(
///     StoreError::from(corrupt),
///     StoreError::Backend("corrupt stored data: elicitation e1: unknown mode".into())
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The configuration is unusable (database URL, vault key, time to live).
    #[error("configuration error: {0}")]
    Config(String),
    /// The database failed (connection, query, constraint).
    #[error("database error while {context}: {message}")]
    Database {
        /// What the store was doing.
        context: String,
        /// The driver's message.
        message: String,
    },
    /// The database cannot be reached or cannot write just now: connection refused or
    /// lost, no free connection within the pool's acquire timeout, PostgreSQL shutting
    /// down or out of connections, disk full, the SQLite file locked past its busy
    /// timeout or failing I/O. Nothing was changed; the same call can succeed later
    /// ([`Error::is_unavailable`]).
    #[error("store unavailable ({store}) while {context}: {message}")]
    Unavailable {
        /// Which database (`PostgreSQL`, `SQLite`, or `database` when unknown).
        store: String,
        /// What the store was doing.
        context: String,
        /// The driver's message.
        message: String,
    },
    /// Applying the embedded schema migrations failed.
    #[error("schema migration failed: {0}")]
    Migration(String),
    /// A stored row could not be read back (wrong type, malformed value).
    #[error("corrupt stored data: {0}")]
    Corrupt(String),
    /// The row was encrypted under a key that is not in the keyring.
    #[error("{what} was encrypted with vault key {key_id}, which is not configured")]
    UnknownKey {
        /// The record.
        what: String,
        /// The key id recorded with the row.
        key_id: String,
    },
    /// Authenticated decryption failed: wrong key, or the row was altered or moved to
    /// another user or purpose.
    #[error("cannot decrypt {0}: wrong key, or the stored row was altered or moved")]
    Decrypt(String),
    /// Encryption failed.
    #[error("cannot encrypt {0}")]
    Encrypt(String),
    /// The operating system's random number generator failed.
    #[error("the OS random number generator failed: {0}")]
    Random(String),
    /// No such record for this user (or it was already used).
    #[error("{0} not found")]
    NotFound(String),
    /// The record existed but had expired (it has been removed).
    #[error("{0} has expired")]
    Expired(String),
    /// The completion bus failed.
    #[error("completion bus: {0}")]
    Bus(String),
}

impl Error {
    /// The error for a failure of the driver while doing `context`:
    /// [`Error::Unavailable`] when the failure is transient, else
    /// [`Error::Database`]. For code running its own queries on [`Store::pool`](crate::Store::pool).
    ///
    /// ```
    /// use mcp_elicit_store::Error;
    /// use mcp_elicit_store::sqlx;
    ///
    /// // No free connection within the acquire timeout: transient.
    /// let e = Error::from_sqlx("reading a secret", &sqlx::Error::PoolTimedOut);
    /// assert!(matches!(&e, Error::Unavailable { store, context, .. }
    ///     if store == "database" && context == "reading a secret"));
    ///
    /// // A query that found nothing is not transient: retrying gives the same.
    /// let e = Error::from_sqlx("reading a secret", &sqlx::Error::RowNotFound);
    /// assert!(matches!(e, Error::Database { .. }));
    /// ```
    pub fn from_sqlx(context: impl Into<String>, error: &sqlx::Error) -> Self {
        match unavailable(error) {
            Some(store) => Error::Unavailable {
                store: store.to_owned(),
                context: context.into(),
                message: error.to_string(),
            },
            None => Error::Database {
                context: context.into(),
                message: error.to_string(),
            },
        }
    }

    pub(crate) fn db(context: impl Into<String>, error: &sqlx::Error) -> Self {
        Self::from_sqlx(context, error)
    }

    /// Whether this is [`Error::Unavailable`]: retrying later can succeed.
    ///
    /// ```
    /// use mcp_elicit_store::{Error, sqlx};
    ///
    /// assert!(Error::from_sqlx("storing a secret", &sqlx::Error::PoolTimedOut).is_unavailable());
    /// assert!(!Error::NotFound("OAuth state".into()).is_unavailable());
    /// ```
    pub fn is_unavailable(&self) -> bool {
        matches!(self, Error::Unavailable { .. })
    }
}

/// Whether `error` is transient (the database unreachable or unable to write just now),
/// and then which database it names: I/O and TLS failures, pool timeouts, PostgreSQL's
/// connection exceptions (class `08`), insufficient resources (class `53`: disk full, out
/// of memory, too many connections) and shutdown or recovery (`57P01`..`57P03`); SQLite's
/// `BUSY`, `LOCKED`, `IOERR`, `FULL`, `CANTOPEN` and `PROTOCOL`. Constraint violations,
/// syntax errors, decoding errors and a closed pool are not transient.
pub(crate) fn unavailable(error: &sqlx::Error) -> Option<&'static str> {
    match error {
        sqlx::Error::Io(_) | sqlx::Error::Tls(_) | sqlx::Error::PoolTimedOut => Some("database"),
        sqlx::Error::Database(e) => {
            let code = e.code()?;
            if e.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some() {
                // The extended result code; its low byte is the primary code.
                let primary = code.parse::<i32>().ok()? & 0xff;
                // BUSY, LOCKED, IOERR, CANTOPEN, FULL, PROTOCOL.
                matches!(primary, 5 | 6 | 10 | 13 | 14 | 15).then_some("SQLite")
            } else {
                let transient = code.starts_with("08")
                    || code.starts_with("53")
                    || matches!(code.as_ref(), "57P01" | "57P02" | "57P03");
                transient.then_some("PostgreSQL")
            }
        }
        _ => None,
    }
}

impl From<Error> for StoreError {
    fn from(error: Error) -> Self {
        match error {
            Error::Unavailable {
                store,
                context,
                message,
            } => StoreError::Unavailable(format!("{store}, while {context}: {message}")),
            other => StoreError::Backend(other.to_string()),
        }
    }
}
