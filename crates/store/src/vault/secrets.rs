//! Per-user secrets (API keys and the like): table `vault_secrets`.

use mcp_elicit_server::Principal;
use secrecy::{ExposeSecret, SecretString};

use super::{SecretInfo, StoredSecret, Vault, check_label, user_aad};
use crate::crypto::Aad;
use crate::db::on_pool;
use crate::error::Error;
use crate::time;

/// The additional data of the secret `name` of `principal`.
fn secret_aad(principal: &Principal, name: &str) -> Aad {
    user_aad(
        "secret",
        principal,
        &[name.as_bytes()],
        format!("secret `{name}` of {principal}"),
    )
}

/// The columns of one row, in query order (tuples decode on both backends without
/// sqlx's derive macros).
type SecretTuple = (String, Vec<u8>, Vec<u8>, i64, i64);

struct SecretRow {
    key_id: String,
    nonce: Vec<u8>,
    ciphertext: Vec<u8>,
    created_at: i64,
    updated_at: i64,
}

impl From<SecretTuple> for SecretRow {
    fn from((key_id, nonce, ciphertext, created_at, updated_at): SecretTuple) -> Self {
        Self {
            key_id,
            nonce,
            ciphertext,
            created_at,
            updated_at,
        }
    }
}

/// The columns of one row, in query order (tuples decode on both backends without
/// sqlx's derive macros).
type RekeyTuple = (String, String, String, String, Vec<u8>, Vec<u8>);

struct RekeyRow {
    principal_issuer: String,
    principal_subject: String,
    name: String,
    key_id: String,
    nonce: Vec<u8>,
    ciphertext: Vec<u8>,
}

impl From<RekeyTuple> for RekeyRow {
    fn from(
        (principal_issuer, principal_subject, name, key_id, nonce, ciphertext): RekeyTuple,
    ) -> Self {
        Self {
            principal_issuer,
            principal_subject,
            name,
            key_id,
            nonce,
            ciphertext,
        }
    }
}

impl Vault {
    pub(super) async fn put_secret_now(
        &self,
        principal: &Principal,
        name: &str,
        secret: &SecretString,
    ) -> Result<(), Error> {
        check_label("secret name", name)?;
        let sealed = self.keys.seal(
            secret.expose_secret().as_bytes(),
            &secret_aad(principal, name),
        )?;
        let now = time::to_db(self.now(), "now")?;
        on_pool!(self.store.pool(), pool => sqlx::query(
            "INSERT INTO vault_secrets (principal_issuer, principal_subject, name, key_id, \
             nonce, ciphertext, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7) \
             ON CONFLICT (principal_issuer, principal_subject, name) DO UPDATE SET \
             key_id = excluded.key_id, nonce = excluded.nonce, \
             ciphertext = excluded.ciphertext, updated_at = excluded.updated_at",
        )
        .bind(principal.issuer())
        .bind(principal.subject())
        .bind(name)
        .bind(&sealed.key_id)
        .bind(&sealed.nonce)
        .bind(&sealed.ciphertext)
        .bind(now)
        .execute(pool)
        .await
        .map(|_| ()))
        .map_err(|e| Error::db("storing a secret", &e))?;
        Ok(())
    }

    pub(super) async fn get_secret_now(
        &self,
        principal: &Principal,
        name: &str,
    ) -> Result<Option<StoredSecret>, Error> {
        let row = on_pool!(self.store.pool(), pool => sqlx::query_as::<_, SecretTuple>(
            "SELECT key_id, nonce, ciphertext, created_at, updated_at FROM vault_secrets \
             WHERE principal_issuer = $1 AND principal_subject = $2 AND name = $3",
        )
        .bind(principal.issuer())
        .bind(principal.subject())
        .bind(name)
        .fetch_optional(pool)
        .await
        .map(|row| row.map(SecretRow::from)))
        .map_err(|e| Error::db("reading a secret", &e))?;
        let Some(row) = row else {
            return Ok(None);
        };
        let value = self.keys.open_text(
            &row.key_id,
            &row.nonce,
            &row.ciphertext,
            &secret_aad(principal, name),
        )?;
        Ok(Some(StoredSecret {
            value,
            created_at: time::from_db(row.created_at),
            updated_at: time::from_db(row.updated_at),
        }))
    }

    pub(super) async fn list_secrets_now(
        &self,
        principal: &Principal,
    ) -> Result<Vec<SecretInfo>, Error> {
        let rows: Vec<(String, i64, i64)> = on_pool!(self.store.pool(), pool => sqlx::query_as(
            "SELECT name, created_at, updated_at FROM vault_secrets \
             WHERE principal_issuer = $1 AND principal_subject = $2",
        )
        .bind(principal.issuer())
        .bind(principal.subject())
        .fetch_all(pool)
        .await)
        .map_err(|e| Error::db("listing secrets", &e))?;
        let mut list: Vec<SecretInfo> = rows
            .into_iter()
            .map(|(name, created, updated)| SecretInfo {
                name,
                created_at: time::from_db(created),
                updated_at: time::from_db(updated),
            })
            .collect();
        // Sorted here, not in SQL: byte order on both backends, whatever the collation.
        list.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(list)
    }

    pub(super) async fn delete_secret_now(
        &self,
        principal: &Principal,
        name: &str,
    ) -> Result<bool, Error> {
        self.delete_named(
            "DELETE FROM vault_secrets \
             WHERE principal_issuer = $1 AND principal_subject = $2 AND name = $3",
            principal,
            name,
            "deleting a secret",
        )
        .await
    }

    /// Re-encrypts the secrets stored under an older key.
    pub(super) async fn reencrypt_secrets(&self) -> Result<u64, Error> {
        let current = self.keys.current_id().to_owned();
        let rows = on_pool!(self.store.pool(), pool => sqlx::query_as::<_, RekeyTuple>(
            "SELECT principal_issuer, principal_subject, name, key_id, nonce, ciphertext \
             FROM vault_secrets WHERE key_id <> $1",
        )
        .bind(&current)
        .fetch_all(pool)
        .await
        .map(|rows| rows.into_iter().map(RekeyRow::from).collect::<Vec<_>>()))
        .map_err(|e| Error::db("listing secrets to re-encrypt", &e))?;
        let mut rewritten = 0;
        for row in rows {
            let principal = Principal::authenticated(row.principal_issuer, row.principal_subject);
            let aad = secret_aad(&principal, &row.name);
            let plain = self
                .keys
                .open(&row.key_id, &row.nonce, &row.ciphertext, &aad)?;
            let sealed = self.keys.seal(&plain, &aad)?;
            // Only if nobody replaced the value meanwhile (same nonce = same value).
            let n = on_pool!(self.store.pool(), pool => sqlx::query(
                "UPDATE vault_secrets SET key_id = $1, nonce = $2, ciphertext = $3 \
                 WHERE principal_issuer = $4 AND principal_subject = $5 AND name = $6 \
                 AND nonce = $7",
            )
            .bind(&sealed.key_id)
            .bind(&sealed.nonce)
            .bind(&sealed.ciphertext)
            .bind(principal.issuer())
            .bind(principal.subject())
            .bind(&row.name)
            .bind(&row.nonce)
            .execute(pool)
            .await
            .map(|done| done.rows_affected()))
            .map_err(|e| Error::db("re-encrypting a secret", &e))?;
            rewritten += n;
        }
        Ok(rewritten)
    }
}
