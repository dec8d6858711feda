//! One-time OAuth `state` records: table `oauth_states`.
//!
//! The raw `state` goes into the third-party authorization URL and comes back to the
//! callback; only its SHA-256 is stored. Taking it is one
//! `DELETE ... WHERE state_hash = $1 AND <user> RETURNING ...`, so of any number of
//! concurrent callbacks (on any node) exactly one gets the record. The PKCE verifier is
//! sealed with additional data binding it to the state, the elicitation, the user and
//! the provider.

use std::time::{Duration, SystemTime};

use mcp_elicit_server::Principal;
use secrecy::{ExposeSecret, SecretString};

use super::{OAuthState, Vault, check_label, user_aad};
use crate::crypto::{Aad, random_token, token_hash};
use crate::db::on_pool;
use crate::error::Error;
use crate::time;

/// Random bytes in a `state` value (256 bits).
const STATE_BYTES: usize = 32;
/// A `state` longer than this is not one of ours (no lookup is made).
const MAX_STATE_CHARS: usize = 512;

fn pkce_aad(state_hash: &[u8], elicitation_id: &str, principal: &Principal, provider: &str) -> Aad {
    user_aad(
        "oauth-pkce",
        principal,
        &[state_hash, elicitation_id.as_bytes(), provider.as_bytes()],
        format!("PKCE verifier of elicitation {elicitation_id} for {principal}"),
    )
}

/// The columns of one row, in query order (tuples decode on both backends without
/// sqlx's derive macros).
type StateTuple = (String, String, String, Vec<u8>, Vec<u8>, i64, i64);

struct StateRow {
    elicitation_id: String,
    provider: String,
    key_id: String,
    verifier_nonce: Vec<u8>,
    verifier_ciphertext: Vec<u8>,
    created_at: i64,
    expires_at: i64,
}

impl From<StateTuple> for StateRow {
    fn from(
        (
            elicitation_id,
            provider,
            key_id,
            verifier_nonce,
            verifier_ciphertext,
            created_at,
            expires_at,
        ): StateTuple,
    ) -> Self {
        Self {
            elicitation_id,
            provider,
            key_id,
            verifier_nonce,
            verifier_ciphertext,
            created_at,
            expires_at,
        }
    }
}

impl Vault {
    pub(super) async fn create_oauth_state_now(
        &self,
        principal: &Principal,
        elicitation_id: &str,
        provider: &str,
        pkce_verifier: &SecretString,
        ttl: Duration,
    ) -> Result<SecretString, Error> {
        check_label("elicitation id", elicitation_id)?;
        check_label("provider", provider)?;
        let now = self.now();
        let expires = time::expiry(now, ttl, "an OAuth state")?;
        let state = random_token(STATE_BYTES)?;
        let hash = token_hash(state.expose_secret());
        let sealed = self.keys.seal(
            pkce_verifier.expose_secret().as_bytes(),
            &pkce_aad(&hash, elicitation_id, principal, provider),
        )?;
        on_pool!(self.store.pool(), pool => sqlx::query(
            "INSERT INTO oauth_states (state_hash, elicitation_id, principal_issuer, \
             principal_subject, provider, key_id, verifier_nonce, verifier_ciphertext, \
             created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(&hash)
        .bind(elicitation_id)
        .bind(principal.issuer())
        .bind(principal.subject())
        .bind(provider)
        .bind(&sealed.key_id)
        .bind(&sealed.nonce)
        .bind(&sealed.ciphertext)
        .bind(time::to_db(now, "now")?)
        .bind(time::to_db(expires, "the state expiry")?)
        .execute(pool)
        .await
        .map(|_| ()))
        .map_err(|e| Error::db("storing an OAuth state", &e))?;
        Ok(state)
    }

    pub(super) async fn take_oauth_state_now(
        &self,
        principal: &Principal,
        state: &str,
    ) -> Result<OAuthState, Error> {
        const WHAT: &str = "OAuth state";
        if state.is_empty() || state.len() > MAX_STATE_CHARS {
            return Err(Error::NotFound(WHAT.into()));
        }
        let hash = token_hash(state);
        let row = on_pool!(self.store.pool(), pool => sqlx::query_as::<_, StateTuple>(
            "DELETE FROM oauth_states WHERE state_hash = $1 AND principal_issuer = $2 \
             AND principal_subject = $3 RETURNING elicitation_id, provider, key_id, \
             verifier_nonce, verifier_ciphertext, created_at, expires_at",
        )
        .bind(&hash)
        .bind(principal.issuer())
        .bind(principal.subject())
        .fetch_optional(pool)
        .await
        .map(|row| row.map(StateRow::from)))
        .map_err(|e| Error::db("taking an OAuth state", &e))?;
        let Some(row) = row else {
            return Err(Error::NotFound(WHAT.into()));
        };
        let expires_at = time::from_db(row.expires_at);
        if expires_at <= self.now() {
            return Err(Error::Expired(format!(
                "{WHAT} of elicitation {}",
                row.elicitation_id
            )));
        }
        let pkce_verifier = self.keys.open_text(
            &row.key_id,
            &row.verifier_nonce,
            &row.verifier_ciphertext,
            &pkce_aad(&hash, &row.elicitation_id, principal, &row.provider),
        )?;
        Ok(OAuthState {
            elicitation_id: row.elicitation_id,
            principal: principal.clone(),
            provider: row.provider,
            pkce_verifier,
            created_at: time::from_db(row.created_at),
            expires_at,
        })
    }

    pub(super) async fn sweep_oauth_states_now(&self, now: SystemTime) -> Result<u64, Error> {
        let now = time::to_db(now, "the sweep time")?;
        on_pool!(self.store.pool(), pool => sqlx::query(
            "DELETE FROM oauth_states WHERE expires_at <= $1",
        )
        .bind(now)
        .execute(pool)
        .await
        .map(|done| done.rows_affected()))
        .map_err(|e| Error::db("sweeping OAuth states", &e))
    }
}
