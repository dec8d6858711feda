//! Per-user third-party OAuth tokens: table `vault_oauth_tokens`.
//!
//! The access and the refresh token are sealed separately (each with its own nonce and
//! additional data naming which of the two it is), so one cannot be swapped for the
//! other. Token type, scopes and expiry are stored in clear: they are not secret and a
//! refresh job needs to query them.

use mcp_elicit_server::Principal;
use secrecy::ExposeSecret;

use super::{OAuthTokens, Vault, check_label, user_aad};
use crate::crypto::{Aad, Sealed};
use crate::db::on_pool;
use crate::error::Error;
use crate::time;

fn token_aad(which: &'static str, principal: &Principal, provider: &str) -> Aad {
    user_aad(
        which,
        principal,
        &[provider.as_bytes()],
        format!("{which} token for `{provider}` of {principal}"),
    )
}

const ACCESS: &str = "oauth-access";
const REFRESH: &str = "oauth-refresh";

/// The columns of one row, in query order (tuples decode on both backends without
/// sqlx's derive macros).
type TokenTuple = (
    String,
    String,
    String,
    String,
    Vec<u8>,
    Vec<u8>,
    Option<Vec<u8>>,
    Option<Vec<u8>>,
    String,
    String,
    Option<i64>,
);

struct TokenRow {
    principal_issuer: String,
    principal_subject: String,
    provider: String,
    key_id: String,
    access_nonce: Vec<u8>,
    access_ciphertext: Vec<u8>,
    refresh_nonce: Option<Vec<u8>>,
    refresh_ciphertext: Option<Vec<u8>>,
    token_type: String,
    scopes: String,
    expires_at: Option<i64>,
}

impl From<TokenTuple> for TokenRow {
    fn from(
        (
            principal_issuer,
            principal_subject,
            provider,
            key_id,
            access_nonce,
            access_ciphertext,
            refresh_nonce,
            refresh_ciphertext,
            token_type,
            scopes,
            expires_at,
        ): TokenTuple,
    ) -> Self {
        Self {
            principal_issuer,
            principal_subject,
            provider,
            key_id,
            access_nonce,
            access_ciphertext,
            refresh_nonce,
            refresh_ciphertext,
            token_type,
            scopes,
            expires_at,
        }
    }
}

/// The columns of [`TokenRow`] (a macro so queries stay `&'static str` literals).
macro_rules! token_columns {
    () => {
        "principal_issuer, principal_subject, provider, key_id, access_nonce, \
         access_ciphertext, refresh_nonce, refresh_ciphertext, token_type, scopes, expires_at"
    };
}

impl Vault {
    fn seal_tokens(
        &self,
        principal: &Principal,
        provider: &str,
        tokens: &OAuthTokens,
    ) -> Result<(Sealed, Option<Sealed>), Error> {
        let access = self.keys.seal(
            tokens.access_token.expose_secret().as_bytes(),
            &token_aad(ACCESS, principal, provider),
        )?;
        let refresh = tokens
            .refresh_token
            .as_ref()
            .map(|t| {
                self.keys.seal(
                    t.expose_secret().as_bytes(),
                    &token_aad(REFRESH, principal, provider),
                )
            })
            .transpose()?;
        Ok((access, refresh))
    }

    fn open_tokens(&self, row: TokenRow) -> Result<OAuthTokens, Error> {
        let principal = Principal::authenticated(row.principal_issuer, row.principal_subject);
        let access_token = self.keys.open_text(
            &row.key_id,
            &row.access_nonce,
            &row.access_ciphertext,
            &token_aad(ACCESS, &principal, &row.provider),
        )?;
        let refresh_token = match (row.refresh_nonce, row.refresh_ciphertext) {
            (Some(nonce), Some(ciphertext)) => Some(self.keys.open_text(
                &row.key_id,
                &nonce,
                &ciphertext,
                &token_aad(REFRESH, &principal, &row.provider),
            )?),
            (None, None) => None,
            _ => {
                return Err(Error::Corrupt(format!(
                    "refresh token for `{}` of {principal}: nonce without ciphertext",
                    row.provider
                )));
            }
        };
        Ok(OAuthTokens {
            access_token,
            refresh_token,
            token_type: row.token_type,
            expires_at: row.expires_at.map(time::from_db),
            scopes: row.scopes.split_whitespace().map(str::to_owned).collect(),
        })
    }

    pub(super) async fn put_tokens_now(
        &self,
        principal: &Principal,
        provider: &str,
        tokens: &OAuthTokens,
    ) -> Result<(), Error> {
        check_label("provider", provider)?;
        check_label("token type", &tokens.token_type)?;
        if let Some(bad) = tokens
            .scopes
            .iter()
            .find(|s| s.is_empty() || s.chars().any(|c| c.is_whitespace() || c.is_control()))
        {
            return Err(Error::Config(format!(
                "OAuth scope {bad:?} is empty or contains whitespace"
            )));
        }
        let (access, refresh) = self.seal_tokens(principal, provider, tokens)?;
        let now = time::to_db(self.now(), "now")?;
        let expires = tokens
            .expires_at
            .map(|t| time::to_db(t, "the token expiry"))
            .transpose()?;
        let scopes = tokens.scopes.join(" ");
        let (refresh_nonce, refresh_ciphertext) = match refresh {
            Some(r) => (Some(r.nonce), Some(r.ciphertext)),
            None => (None, None),
        };
        on_pool!(self.store.pool(), pool => sqlx::query(
            "INSERT INTO vault_oauth_tokens (principal_issuer, principal_subject, provider, \
             key_id, access_nonce, access_ciphertext, refresh_nonce, refresh_ciphertext, \
             token_type, scopes, expires_at, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) \
             ON CONFLICT (principal_issuer, principal_subject, provider) DO UPDATE SET \
             key_id = excluded.key_id, access_nonce = excluded.access_nonce, \
             access_ciphertext = excluded.access_ciphertext, \
             refresh_nonce = excluded.refresh_nonce, \
             refresh_ciphertext = excluded.refresh_ciphertext, \
             token_type = excluded.token_type, scopes = excluded.scopes, \
             expires_at = excluded.expires_at, updated_at = excluded.updated_at",
        )
        .bind(principal.issuer())
        .bind(principal.subject())
        .bind(provider)
        .bind(&access.key_id)
        .bind(&access.nonce)
        .bind(&access.ciphertext)
        .bind(&refresh_nonce)
        .bind(&refresh_ciphertext)
        .bind(&tokens.token_type)
        .bind(&scopes)
        .bind(expires)
        .bind(now)
        .execute(pool)
        .await
        .map(|_| ()))
        .map_err(|e| Error::db("storing OAuth tokens", &e))?;
        Ok(())
    }

    pub(super) async fn get_tokens_now(
        &self,
        principal: &Principal,
        provider: &str,
    ) -> Result<Option<OAuthTokens>, Error> {
        let sql = concat!(
            "SELECT ",
            token_columns!(),
            " FROM vault_oauth_tokens \
             WHERE principal_issuer = $1 AND principal_subject = $2 AND provider = $3"
        );
        let row = on_pool!(self.store.pool(), pool => sqlx::query_as::<_, TokenTuple>(sql)
            .bind(principal.issuer())
            .bind(principal.subject())
            .bind(provider)
            .fetch_optional(pool)
            .await
            .map(|row| row.map(TokenRow::from)))
        .map_err(|e| Error::db("reading OAuth tokens", &e))?;
        row.map(|row| self.open_tokens(row)).transpose()
    }

    pub(super) async fn delete_tokens_now(
        &self,
        principal: &Principal,
        provider: &str,
    ) -> Result<bool, Error> {
        self.delete_named(
            "DELETE FROM vault_oauth_tokens \
             WHERE principal_issuer = $1 AND principal_subject = $2 AND provider = $3",
            principal,
            provider,
            "deleting OAuth tokens",
        )
        .await
    }

    /// Re-encrypts the token sets stored under an older key.
    pub(super) async fn reencrypt_tokens(&self) -> Result<u64, Error> {
        let sql = concat!(
            "SELECT ",
            token_columns!(),
            " FROM vault_oauth_tokens WHERE key_id <> $1"
        );
        let rows = on_pool!(self.store.pool(), pool => sqlx::query_as::<_, TokenTuple>(sql)
            .bind(self.keys.current_id())
            .fetch_all(pool)
            .await
            .map(|rows| rows.into_iter().map(TokenRow::from).collect::<Vec<_>>()))
        .map_err(|e| Error::db("listing OAuth tokens to re-encrypt", &e))?;
        let mut rewritten = 0;
        for row in rows {
            let principal = Principal::authenticated(
                row.principal_issuer.clone(),
                row.principal_subject.clone(),
            );
            let provider = row.provider.clone();
            let old_nonce = row.access_nonce.clone();
            let tokens = self.open_tokens(row)?;
            let (access, refresh) = self.seal_tokens(&principal, &provider, &tokens)?;
            let (refresh_nonce, refresh_ciphertext) = match refresh {
                Some(r) => (Some(r.nonce), Some(r.ciphertext)),
                None => (None, None),
            };
            // Only if nobody replaced the tokens meanwhile (same nonce = same value).
            let n = on_pool!(self.store.pool(), pool => sqlx::query(
                "UPDATE vault_oauth_tokens SET key_id = $1, access_nonce = $2, \
                 access_ciphertext = $3, refresh_nonce = $4, refresh_ciphertext = $5 \
                 WHERE principal_issuer = $6 AND principal_subject = $7 AND provider = $8 \
                 AND access_nonce = $9",
            )
            .bind(&access.key_id)
            .bind(&access.nonce)
            .bind(&access.ciphertext)
            .bind(&refresh_nonce)
            .bind(&refresh_ciphertext)
            .bind(principal.issuer())
            .bind(principal.subject())
            .bind(&provider)
            .bind(&old_nonce)
            .execute(pool)
            .await
            .map(|done| done.rows_affected()))
            .map_err(|e| Error::db("re-encrypting OAuth tokens", &e))?;
            rewritten += n;
        }
        Ok(rewritten)
    }
}
