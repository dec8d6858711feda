//! Sign-ins kept between runs: one file per (MCP server, authorization server), in a
//! directory only the user can enter.
//!
//! Where: `$XDG_STATE_HOME/mcp-elicit/auth/`, else `~/.local/state/mcp-elicit/auth/`
//! (directory 0700, files 0600, created with those modes, never widened; a key file
//! others can read is refused). Each entry is keyed by the MCP server's canonical URI
//! (RFC 8707: scheme and host lowercased, default port and fragment dropped, no trailing
//! `/` on an empty path) and the issuer.
//!
//! What is in a file: what `auth list` shows in clear (server, issuer, client id,
//! scopes, expiry, when saved, whether a refresh token is kept) and the secrets (access
//! and refresh token, a registered client's secret) sealed with XChaCha20-Poly1305 under
//! a random key kept in `key` beside them; the additional data binds each sealed value
//! to its server and issuer, so a file copied under another server's name does not
//! decrypt. This machine has no OS keyring, and none is used: the key is a file of the
//! same user, so the encryption protects a token file that leaves the directory alone
//! (a backup, a sync, a file pasted into a bug report), not against anything that can
//! read the user's files (their processes, root, a stolen unencrypted disk).

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use chacha20poly1305::aead::{Aead, Payload};
use chacha20poly1305::{Key, KeyInit, XChaCha20Poly1305, XNonce};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use zeroize::Zeroizing;

/// Domain separation of the additional data (bump on a format change).
const AAD_DOMAIN: &[u8] = b"mcp-elicit-cli-tokens/v1";
/// Files larger than this are not token files (refused unread).
const MAX_FILE: u64 = 1 << 20;

/// Which sign-in: the MCP server (canonical URI) and the authorization server.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct EntryKey {
    pub(crate) resource: String,
    pub(crate) issuer: String,
}

impl EntryKey {
    /// The key for `resource` (canonicalized) at `issuer`.
    pub(crate) fn new(resource: &str, issuer: &str) -> Result<Self, StoreError> {
        Ok(Self {
            resource: canonical_resource(resource)?,
            issuer: issuer.trim_end_matches('/').to_owned(),
        })
    }

    fn file_name(&self) -> String {
        let mut h = Sha256::new();
        h.update(self.resource.as_bytes());
        h.update([0]);
        h.update(self.issuer.as_bytes());
        let d = h.finalize();
        let hex: String = d[..16].iter().map(|b| format!("{b:02x}")).collect();
        format!("{hex}.json")
    }

    fn aad(&self) -> Vec<u8> {
        let mut a = AAD_DOMAIN.to_vec();
        for part in [&self.resource, &self.issuer] {
            a.push(0);
            a.extend_from_slice(part.as_bytes());
        }
        a
    }
}

/// What `auth list` may show: everything but the secrets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct EntryInfo {
    /// The MCP server (canonical URI).
    pub(crate) resource: String,
    /// The authorization server.
    pub(crate) issuer: String,
    /// The OAuth client this program signed in as.
    pub(crate) client_id: String,
    /// The scopes granted.
    #[serde(default)]
    pub(crate) scopes: Vec<String>,
    /// When the access token expires (Unix seconds), when known.
    #[serde(default)]
    pub(crate) expires_at: Option<u64>,
    /// Whether a refresh token is kept.
    #[serde(default)]
    pub(crate) refreshable: bool,
    /// When this entry was written (Unix seconds).
    pub(crate) saved_at: u64,
}

/// One file.
#[derive(Debug, Serialize, Deserialize)]
struct EntryFile {
    version: u32,
    #[serde(flatten)]
    info: EntryInfo,
    nonce: String,
    sealed: String,
}

/// A loaded entry: what `list` shows and the decrypted secret.
pub(crate) type Loaded = (EntryInfo, Zeroizing<Vec<u8>>);

/// Why the store failed. Never carries a token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StoreError(pub(crate) String);

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StoreError {}

fn io_err(what: &str, path: &Path, e: std::io::Error) -> StoreError {
    StoreError(format!("cannot {what} {}: {e}", path.display()))
}

/// The canonical URI of an MCP server (RFC 8707 §2, as the MCP authorization
/// specification uses it): absolute http(s), scheme and host lowercase, no default
/// port, no fragment, no trailing `/` when the path is empty.
pub(crate) fn canonical_resource(s: &str) -> Result<String, StoreError> {
    let mut u = url::Url::parse(s.trim())
        .map_err(|e| StoreError(format!("{s:?} is not an absolute URL: {e}")))?;
    if !matches!(u.scheme(), "http" | "https") || u.host().is_none() {
        return Err(StoreError(format!(
            "{s:?} is not an http(s) URL of an MCP server"
        )));
    }
    u.set_fragment(None);
    let mut out = u.to_string();
    if u.path() == "/" && u.query().is_none() {
        out.pop();
    }
    Ok(out)
}

/// The sign-in file store.
#[derive(Debug, Clone)]
pub(crate) struct TokenFileStore {
    dir: PathBuf,
}

impl TokenFileStore {
    /// The store in the default directory (see the module documentation).
    pub(crate) fn default_location() -> Result<Self, StoreError> {
        let base = match std::env::var_os("XDG_STATE_HOME").filter(|v| !v.is_empty()) {
            Some(p) if Path::new(&p).is_absolute() => PathBuf::from(p),
            _ => {
                let home = std::env::var_os("HOME")
                    .filter(|v| !v.is_empty())
                    .ok_or_else(|| {
                        StoreError(
                            "neither XDG_STATE_HOME nor HOME is set: nowhere to keep sign-ins"
                                .into(),
                        )
                    })?;
                PathBuf::from(home).join(".local").join("state")
            }
        };
        Ok(Self::at(base.join("mcp-elicit").join("auth")))
    }

    /// The store in `dir`.
    pub(crate) fn at(dir: PathBuf) -> Self {
        Self { dir }
    }

    /// The directory.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// Creates the directory (0700) when missing.
    fn ensure_dir(&self) -> Result<(), StoreError> {
        if self.dir.is_dir() {
            return check_private(&self.dir, true);
        }
        let mut b = fs::DirBuilder::new();
        b.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
        b.create(&self.dir)
            .map_err(|e| io_err("create", &self.dir, e))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&self.dir, fs::Permissions::from_mode(0o700))
                .map_err(|e| io_err("restrict", &self.dir, e))?;
        }
        Ok(())
    }

    fn key_path(&self) -> PathBuf {
        self.dir.join("key")
    }

    /// The sealing key; created when `create` and missing.
    fn key(&self, create: bool) -> Result<Option<Zeroizing<[u8; 32]>>, StoreError> {
        let path = self.key_path();
        if !path.exists() {
            if !create {
                return Ok(None);
            }
            let mut key = Zeroizing::new([0u8; 32]);
            getrandom::fill(&mut key[..])
                .map_err(|e| StoreError(format!("no randomness for a key: {e}")))?;
            let text = Zeroizing::new(format!("{}\n", STANDARD.encode(&key[..])));
            match write_new(&path, text.as_bytes()) {
                Ok(()) => return Ok(Some(key)),
                // Another process made it first: use theirs.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(io_err("write", &path, e)),
            }
        }
        check_private(&path, false)?;
        let text = Zeroizing::new(read_small(&path)?);
        let mut key = Zeroizing::new([0u8; 32]);
        let raw = Zeroizing::new(
            STANDARD
                .decode(text.trim())
                .map_err(|_| StoreError(format!("{} is not a key file", path.display())))?,
        );
        if raw.len() != 32 {
            return Err(StoreError(format!("{} is not a key file", path.display())));
        }
        key.copy_from_slice(&raw);
        Ok(Some(key))
    }

    /// Saves `secret` (the serialized tokens) with `info` for `key`, replacing any
    /// earlier entry atomically.
    pub(crate) fn save(
        &self,
        key: &EntryKey,
        info: EntryInfo,
        secret: &[u8],
    ) -> Result<(), StoreError> {
        self.ensure_dir()?;
        let k = self.key(true)?.ok_or_else(|| StoreError("no key".into()))?;
        let cipher = XChaCha20Poly1305::new(&Key::from(*k));
        let mut nonce = [0u8; 24];
        getrandom::fill(&mut nonce).map_err(|e| StoreError(format!("no randomness: {e}")))?;
        let aad = key.aad();
        let sealed = cipher
            .encrypt(
                &XNonce::from(nonce),
                Payload {
                    msg: secret,
                    aad: &aad,
                },
            )
            .map_err(|_| StoreError("cannot encrypt the tokens".into()))?;
        let file = EntryFile {
            version: 1,
            info: EntryInfo {
                resource: key.resource.clone(),
                issuer: key.issuer.clone(),
                ..info
            },
            nonce: STANDARD.encode(nonce),
            sealed: STANDARD.encode(sealed),
        };
        let text = serde_json::to_vec_pretty(&file)
            .map_err(|e| StoreError(format!("cannot encode an entry: {e}")))?;
        let path = self.dir.join(key.file_name());
        let mut suffix = [0u8; 6];
        let _ = getrandom::fill(&mut suffix);
        let tmp = self.dir.join(format!(
            ".{}.{}.tmp",
            key.file_name(),
            suffix
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
        ));
        write_new(&tmp, &text).map_err(|e| io_err("write", &tmp, e))?;
        fs::rename(&tmp, &path).map_err(|e| {
            let _ = fs::remove_file(&tmp);
            io_err("replace", &path, e)
        })
    }

    /// The entry for `key`: what `list` shows and the decrypted secret.
    pub(crate) fn load(&self, key: &EntryKey) -> Result<Option<Loaded>, StoreError> {
        let path = self.dir.join(key.file_name());
        if !path.exists() {
            return Ok(None);
        }
        check_private(&self.dir, true)?;
        check_private(&path, false)?;
        let file = read_entry(&path)?;
        if file.info.resource != key.resource || file.info.issuer != key.issuer {
            return Err(StoreError(format!(
                "{} is not the sign-in for {} at {}",
                path.display(),
                key.resource,
                key.issuer
            )));
        }
        let Some(k) = self.key(false)? else {
            return Err(StoreError(format!(
                "{} is missing: the kept sign-ins cannot be read (run `mcp-elicit auth logout`)",
                self.key_path().display()
            )));
        };
        let bad = || {
            StoreError(format!(
                "{} cannot be decrypted (damaged, or made with another key)",
                path.display()
            ))
        };
        let nonce: [u8; 24] = STANDARD
            .decode(&file.nonce)
            .ok()
            .and_then(|n| n.try_into().ok())
            .ok_or_else(bad)?;
        let sealed = STANDARD.decode(&file.sealed).map_err(|_| bad())?;
        let cipher = XChaCha20Poly1305::new(&Key::from(*k));
        let plain = cipher
            .decrypt(
                &XNonce::from(nonce),
                Payload {
                    msg: &sealed,
                    aad: &key.aad(),
                },
            )
            .map_err(|_| bad())?;
        Ok(Some((file.info, Zeroizing::new(plain))))
    }

    /// Removes the entry for `key`. Whether there was one.
    pub(crate) fn remove(&self, key: &EntryKey) -> Result<bool, StoreError> {
        let path = self.dir.join(key.file_name());
        match fs::remove_file(&path) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(io_err("remove", &path, e)),
        }
    }

    /// Every entry (what `list` shows), sorted by server then issuer; files that are
    /// not entries are reported as `Err` lines, not fatal.
    pub(crate) fn list(&self) -> Result<Vec<Result<EntryInfo, StoreError>>, StoreError> {
        let rd = match fs::read_dir(&self.dir) {
            Ok(rd) => rd,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(io_err("read", &self.dir, e)),
        };
        let mut out = Vec::new();
        for entry in rd {
            let entry = entry.map_err(|e| io_err("read", &self.dir, e))?;
            let path = entry.path();
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') || !name.ends_with(".json") {
                continue;
            }
            out.push(read_entry(&path).map(|f| f.info));
        }
        out.sort_by(|a, b| match (a, b) {
            (Ok(a), Ok(b)) => (&a.resource, &a.issuer).cmp(&(&b.resource, &b.issuer)),
            (Ok(_), Err(_)) => std::cmp::Ordering::Less,
            (Err(_), Ok(_)) => std::cmp::Ordering::Greater,
            (Err(a), Err(b)) => a.0.cmp(&b.0),
        });
        Ok(out)
    }

    /// Removes every entry for the MCP server `resource` (any issuer). How many.
    pub(crate) fn remove_server(&self, resource: &str) -> Result<usize, StoreError> {
        let resource = canonical_resource(resource)?;
        let mut n = 0;
        for info in self.list()?.into_iter().flatten() {
            if info.resource == resource {
                let key = EntryKey {
                    resource: info.resource,
                    issuer: info.issuer,
                };
                n += usize::from(self.remove(&key)?);
            }
        }
        Ok(n)
    }
}

fn read_small(path: &Path) -> Result<String, StoreError> {
    let f = File::open(path).map_err(|e| io_err("open", path, e))?;
    let mut s = String::new();
    f.take(MAX_FILE)
        .read_to_string(&mut s)
        .map_err(|e| io_err("read", path, e))?;
    Ok(s)
}

fn read_entry(path: &Path) -> Result<EntryFile, StoreError> {
    let text = Zeroizing::new(read_small(path)?);
    let file: EntryFile = serde_json::from_str(&text)
        .map_err(|e| StoreError(format!("{} is not a sign-in file: {e}", path.display())))?;
    if file.version != 1 {
        return Err(StoreError(format!(
            "{}: unknown format version {}",
            path.display(),
            file.version
        )));
    }
    Ok(file)
}

/// Writes a new file readable by its owner only (fails when it exists).
fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut o = OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
    let mut f = o.open(path)?;
    let r = f.write_all(bytes).and_then(|()| f.sync_all());
    if r.is_err() {
        drop(f);
        let _ = fs::remove_file(path);
    }
    r
}

/// Refuses a file or directory that others may read or write (like ssh does).
fn check_private(path: &Path, dir: bool) -> Result<(), StoreError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta = fs::symlink_metadata(path).map_err(|e| io_err("inspect", path, e))?;
        if meta.file_type().is_symlink() {
            return Err(StoreError(format!(
                "refusing {}: it is a symbolic link",
                path.display()
            )));
        }
        let mode = meta.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            let want = if dir { "700" } else { "600" };
            return Err(StoreError(format!(
                "refusing {}: other users may access it (mode {mode:03o}); run `chmod {want} {}`",
                path.display(),
                path.display()
            )));
        }
    }
    #[cfg(not(unix))]
    let _ = (path, dir);
    Ok(())
}

#[cfg(test)]
mod tests;
