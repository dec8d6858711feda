//! The client library's [`TokenStore`] over the sign-in files ([`FileTokens`]), and the
//! fixed bearer token of `call --token-file` ([`FixedToken`]).

use std::time::{SystemTime, UNIX_EPOCH};

use mcp_elicit_client::auth::{StoredCredentials, TokenStore, TokenStoreError};
use secrecy::{ExposeSecret, SecretString};
use serde_json::{Value, json};
use zeroize::Zeroizing;

use super::store::{EntryInfo, EntryKey, TokenFileStore, canonical_resource};

fn err(e: impl std::fmt::Display) -> TokenStoreError {
    TokenStoreError(e.to_string())
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Sign-ins kept in files: one per (MCP server, issuer); `load` takes the newest one for
/// the server. Only complete sign-ins (with a token) are written.
#[derive(Debug, Clone)]
pub(crate) struct FileTokens {
    files: TokenFileStore,
}

impl FileTokens {
    pub(crate) fn new(files: TokenFileStore) -> Self {
        Self { files }
    }

    /// Where they are, in words, for the consent screen.
    pub(crate) fn describe(&self) -> String {
        format!(
            "in {} (readable by you only; `mcp-elicit auth logout` forgets it)",
            self.files.dir().display()
        )
    }
}

impl TokenStore for FileTokens {
    fn load(&self, resource: &str) -> Result<Option<StoredCredentials>, TokenStoreError> {
        let resource = canonical_resource(resource).map_err(err)?;
        let newest = self
            .files
            .list()
            .map_err(err)?
            .into_iter()
            .flatten()
            .filter(|i| i.resource == resource)
            .max_by_key(|i| i.saved_at);
        let Some(info) = newest else { return Ok(None) };
        let key = EntryKey {
            resource: info.resource,
            issuer: info.issuer,
        };
        let Some((_, secret)) = self.files.load(&key).map_err(err)? else {
            return Ok(None);
        };
        let credentials: StoredCredentials = serde_json::from_slice(&secret)
            .map_err(|_| err(format!("the sign-in kept for {resource} is damaged")))?;
        Ok(Some(credentials))
    }

    fn save(&self, resource: &str, credentials: &StoredCredentials) -> Result<(), TokenStoreError> {
        if credentials.token_response.is_none() {
            // Not a sign-in (yet): nothing is kept.
            return Ok(());
        }
        let issuer = credentials.issuer.clone().unwrap_or_default();
        let key = EntryKey::new(resource, &issuer).map_err(err)?;
        let secret = Zeroizing::new(serde_json::to_vec(credentials).map_err(err)?);
        // What `auth list` shows, read from the serialized form (never a token).
        let shape: Value = serde_json::from_slice(&secret).unwrap_or(Value::Null);
        let token = &shape["token_response"];
        let expires_at = token["expires_in"].as_u64().map(|s| {
            credentials
                .token_received_at
                .unwrap_or_else(now)
                .saturating_add(s)
        });
        let info = EntryInfo {
            resource: key.resource.clone(),
            issuer: key.issuer.clone(),
            client_id: credentials.client_id.clone(),
            scopes: credentials.granted_scopes.clone(),
            expires_at,
            refreshable: token["refresh_token"].is_string(),
            saved_at: now(),
        };
        drop(shape);
        self.files.save(&key, info, &secret).map_err(err)
    }

    fn remove(&self, resource: &str) -> Result<(), TokenStoreError> {
        self.files.remove_server(resource).map(|_| ()).map_err(err)
    }
}

/// `--token-file`: one bearer token, read once, offered for every request; nothing is
/// saved and nothing is removed.
pub(crate) struct FixedToken {
    token: SecretString,
}

impl std::fmt::Debug for FixedToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FixedToken([redacted])")
    }
}

impl FixedToken {
    /// `token` itself.
    pub(crate) fn new(token: SecretString) -> Self {
        Self { token }
    }

    /// The token in `path`: its first line, trimmed; an empty file is an error.
    pub(crate) fn read(path: &std::path::Path) -> Result<Self, String> {
        let text = Zeroizing::new(
            std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read the token file {}: {e}", path.display()))?,
        );
        let token = text.lines().next().unwrap_or_default().trim();
        if token.is_empty() {
            return Err(format!("the token file {} is empty", path.display()));
        }
        if token.chars().any(|c| c.is_control() || c == ' ') {
            return Err(format!(
                "the token file {} does not hold one bearer token on its first line",
                path.display()
            ));
        }
        Ok(Self {
            token: SecretString::from(token.to_owned()),
        })
    }
}

impl TokenStore for FixedToken {
    fn load(&self, _resource: &str) -> Result<Option<StoredCredentials>, TokenStoreError> {
        let value = Zeroizing::new(
            json!({
                "client_id": "",
                "token_response": {"access_token": self.token.expose_secret(), "token_type": "bearer"},
            })
            .to_string(),
        );
        serde_json::from_str(&value)
            .map(Some)
            .map_err(|_| err("cannot use the token file's token"))
    }

    fn save(&self, _: &str, _: &StoredCredentials) -> Result<(), TokenStoreError> {
        Ok(())
    }

    fn remove(&self, _: &str) -> Result<(), TokenStoreError> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn credentials(issuer: &str, access: &str) -> StoredCredentials {
        serde_json::from_value(json!({
            "client_id": "cli",
            "token_response": {"access_token": access, "token_type": "bearer",
                "expires_in": 300, "refresh_token": "rt-SECRET"},
            "granted_scopes": ["mcp"],
            "token_received_at": 1_000,
            "issuer": issuer,
        }))
        .expect("credentials")
    }

    #[test]
    fn keeps_sign_ins_by_server_and_issuer_and_loads_the_newest() {
        let dir = tempfile::tempdir().expect("tempdir");
        let files = TokenFileStore::at(dir.path().join("auth"));
        let store = FileTokens::new(files.clone());
        let server = "https://mcp.example.com/mcp";
        assert!(store.load(server).expect("load").is_none());
        store
            .save(server, &credentials("https://a.example", "at-A-SECRET"))
            .expect("save");
        let listed: Vec<EntryInfo> = files.list().expect("list").into_iter().flatten().collect();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].issuer, "https://a.example");
        assert_eq!(listed[0].expires_at, Some(1_300));
        assert!(listed[0].refreshable);
        assert_eq!(listed[0].scopes, ["mcp"]);
        let got = store
            .load("https://MCP.example.com/mcp")
            .expect("load")
            .expect("kept");
        let text = serde_json::to_string(&got).expect("json");
        assert!(text.contains("at-A-SECRET"));
        assert_eq!(got.issuer.as_deref(), Some("https://a.example"));
        // Not for another server.
        assert!(
            store
                .load("https://other.example/mcp")
                .expect("load")
                .is_none()
        );
        store.remove(server).expect("remove");
        assert!(store.load(server).expect("load").is_none());
    }

    #[test]
    fn an_unfinished_sign_in_is_not_written() {
        let dir = tempfile::tempdir().expect("tempdir");
        let files = TokenFileStore::at(dir.path().join("auth"));
        let store = FileTokens::new(files.clone());
        let registered_only: StoredCredentials =
            serde_json::from_value(json!({"client_id": "dcr-client", "token_response": null}))
                .expect("credentials");
        store
            .save("https://mcp.example.com/mcp", &registered_only)
            .expect("save");
        assert!(!dir.path().join("auth").exists());
    }

    #[test]
    fn the_token_file_gives_one_bearer_token_and_keeps_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("token");
        std::fs::write(&path, "tok-SECRET-123\n").expect("write");
        let fixed = FixedToken::read(&path).expect("read");
        assert!(!format!("{fixed:?}").contains("SECRET"));
        let c = fixed
            .load("https://x.example/mcp")
            .expect("load")
            .expect("token");
        assert!(
            serde_json::to_string(&c)
                .expect("json")
                .contains("tok-SECRET-123")
        );
        std::fs::write(&path, "\n").expect("write");
        assert!(FixedToken::read(&path).unwrap_err().contains("is empty"));
        std::fs::write(&path, "two words\n").expect("write");
        let e = FixedToken::read(&path).unwrap_err();
        assert!(!e.contains("two words"), "{e}");
    }
}
