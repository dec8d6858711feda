//! # mcp-elicit-store
//!
//! Durable, user-bound state for MCP elicitation (specification 2025-11-25), on SQLite
//! or PostgreSQL through [sqlx]:
//!
//! - [`Store`]: pending elicitations behind the server's
//!   [`ElicitationStore`](mcp_elicit_server::ElicitationStore) trait, keyed by id and
//!   owned by a (user, session) pair, surviving restarts; transitions are atomic across
//!   tasks and across server processes sharing the database.
//! - [`Vault`] ([`VaultStore`], [`SessionStore`]): the state behind URL mode elicitation,
//!   encrypted with XChaCha20-Poly1305 under a configured [`VaultKey`]: third-party
//!   secrets, third-party OAuth tokens, one-time OAuth `state` records with their PKCE
//!   verifier, and browser sessions of the server's own pages (stored as SHA-256 hashes).
//! - [`FlowStore`] and [`LoginStore`] (also on the [`Vault`]): what each URL mode
//!   elicitation's page is for and the answer given there, and browser sign-ins in
//!   progress, so any node (or the same one after a restart) can serve a flow's pages.
//! - [`CompletionBus`]: carries completion notices to the node holding the client's
//!   connection ([`MemoryBus`] in one process, [`PgCompletionBus`] over PostgreSQL
//!   `LISTEN/NOTIFY`).
//!
//! What the specification asks, and where it is met:
//!
//! | Rule | Here |
//! |---|---|
//! | State MUST NOT be associated with session ids alone | every table is keyed by the user's issuer and subject; lookups by another user find nothing |
//! | State storage MUST be protected against unauthorized access | secrets, tokens, PKCE verifiers and CSRF tokens are encrypted; session ids and OAuth `state` are stored as hashes |
//! | Bind a ciphertext to its owner | the AEAD additional data names purpose, user and record: a row moved to another user fails to decrypt |
//! | The user who completes a flow is the user who started it (Phishing) | [`VaultStore::take_oauth_state`] needs the browser session's user and only matches that user's `state` |
//! | Completion notifications at most once | one conditional `UPDATE`/`DELETE` decides; the bus only carries the result |
//!
//! ```no_run
//! use std::sync::Arc;
//!
//! use mcp_elicit_server::{
//!     ElicitationConfig, ElicitationStore, Elicitations, IdentityPolicy, Principal, SystemClock,
//! };
//! use mcp_elicit_store::{Keyring, Store, VaultKey, VaultStore};
//! use secrecy::SecretString;
//!
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! let store = Store::connect("sqlite://state.db?mode=rwc").await?;
//!
//! // Pending elicitations survive restarts: give the store to the server's registry.
//! let hub = Elicitations::with_store(
//!     ElicitationConfig::new(IdentityPolicy::Authenticated),
//!     Arc::new(store.clone()) as Arc<dyn ElicitationStore>,
//!     Arc::new(SystemClock),
//! );
//!
//! // Secrets collected on the server's own page (URL mode), encrypted per user.
//! let key = VaultKey::parse(&std::env::var("MCP_ELICIT_VAULT_KEY")?)?;
//! let vault = store.vault(Keyring::new(key));
//! let alice = Principal::authenticated("https://auth.example.com", "alice");
//! vault
//!     .put_secret(&alice, "example-api-key", &SecretString::from("sk_live_..."))
//!     .await?;
//! # let _ = hub;
//! # Ok(())
//! # }
//! ```
#![warn(missing_docs)]

mod bus;
mod crypto;
mod db;
mod elicitations;
mod error;
mod flows;
mod logins;
mod migrations;
mod sessions;
mod time;
mod vault;

pub use bus::{
    CompletionBus, CompletionNotice, CompletionStream, DEFAULT_NOTIFY_CHANNEL, MemoryBus,
    PgCompletionBus, deliver_notices,
};
pub use crypto::{KEY_LEN, Keyring, VaultKey};
pub use db::{Backend, Pool, Store, StoreOptions, scheme};
pub use error::Error;
pub use flows::{FlowStore, MAX_PURPOSE_BYTES, UrlFlow};
pub use logins::{LoginState, LoginStore, TakenLogin};
pub use sessions::{BrowserSession, NewBrowserSession, SessionStore};
pub use vault::{OAuthState, OAuthTokens, SecretInfo, StoredSecret, Vault, VaultStore};

/// The crates this one's API exposes, re-exported so users need not match versions.
pub use {secrecy, sqlx};
