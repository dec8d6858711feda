//! The one error type of this crate.

use mcp_elicit_server::StoreError;

/// What went wrong in the store, the vault, a browser session or the completion bus.
///
/// Messages never contain secret values, ciphertexts or raw session ids: they name the
/// record (user, name, provider, elicitation id) and the operation.
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
    pub(crate) fn db(context: impl Into<String>, error: &sqlx::Error) -> Self {
        Error::Database {
            context: context.into(),
            message: error.to_string(),
        }
    }
}

impl From<Error> for StoreError {
    fn from(error: Error) -> Self {
        StoreError::Backend(error.to_string())
    }
}
