//! The web layer's settings of `mcp-elicit serve`, read from flags, files and the
//! environment into plain data ([`WebOptions`]) before anything runs, and the rules on
//! where the server may listen ([`check_listen`]).
//!
//! Secrets (the login client's secret, the vault key, providers' secrets) are read from
//! files or the environment, never from flags (flags show up in `ps`), and are never
//! printed: errors name the file or variable, not the content.

use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use mcp_elicit_store::VaultKey;
use mcp_elicit_store::secrecy::SecretString;
use serde::Deserialize;
use url::Url;

/// The environment variable holding the login client's secret.
pub(crate) const CLIENT_SECRET_ENV: &str = "MCP_ELICIT_CLIENT_SECRET";
/// The environment variable holding the vault key.
pub(crate) const VAULT_KEY_ENV: &str = "MCP_ELICIT_VAULT_KEY";
/// The longest secret file read (bytes).
const MAX_SECRET_FILE: u64 = 64 * 1024;
/// The default of `--max-pending-per-user` (the server crate's default).
pub(crate) const DEFAULT_MAX_PENDING_PER_USER: usize = 32;
/// The largest `--max-pending-per-user` accepted: a cap, not a way around it.
const MAX_MAX_PENDING_PER_USER: usize = 1_000_000;

/// Parses `--max-pending-per-user`: a whole number from 1 to 1,000,000 (0 would refuse
/// every elicitation).
pub(crate) fn parse_max_pending(text: &str) -> Result<usize, String> {
    let n: usize = text.trim().parse().map_err(|_| {
        format!("expected a whole number from 1 to {MAX_MAX_PENDING_PER_USER}, got {text:?}")
    })?;
    if n == 0 || n > MAX_MAX_PENDING_PER_USER {
        return Err(format!(
            "must be from 1 to {MAX_MAX_PENDING_PER_USER} (0 would refuse every elicitation), got {n}"
        ));
    }
    Ok(n)
}

/// The flags of the web layer, as given.
#[derive(Debug, Clone, Default)]
pub(crate) struct WebFlags {
    pub(crate) issuer: Option<String>,
    pub(crate) audience: Option<String>,
    pub(crate) public_url: Option<String>,
    pub(crate) client_id: Option<String>,
    pub(crate) client_secret_file: Option<PathBuf>,
    pub(crate) vault_key_file: Option<PathBuf>,
    pub(crate) provider_config: Option<PathBuf>,
    /// `--scopes-supported`, as given.
    pub(crate) scopes_supported: Option<String>,
    /// `--required-scopes`, as given.
    pub(crate) required_scopes: Option<String>,
}

/// One third-party provider, as read from `--provider-config`.
#[derive(Debug, Clone)]
pub(crate) struct ProviderOptions {
    pub(crate) name: String,
    pub(crate) display_name: String,
    /// The issuer to discover, or explicit (authorization, token) endpoints.
    pub(crate) endpoints: Result<String, (Url, Url)>,
    pub(crate) client_id: String,
    pub(crate) client_secret: Option<SecretString>,
    pub(crate) scopes: Vec<String>,
    pub(crate) resource: Option<String>,
}

/// The web layer's settings, read and checked (no network yet).
#[derive(Debug, Clone)]
pub(crate) struct WebOptions {
    pub(crate) issuer: String,
    pub(crate) audience: Option<String>,
    /// `None`: `http://` (`https://` with TLS) plus the bound address.
    pub(crate) public_url: Option<Url>,
    pub(crate) client_id: String,
    pub(crate) client_secret: Option<SecretString>,
    pub(crate) vault_key: VaultKey,
    pub(crate) providers: Vec<ProviderOptions>,
    /// Scopes advertised in the protected resource metadata and 401 challenges.
    pub(crate) scopes_supported: Vec<String>,
    /// Scopes every bearer token must carry (403 `insufficient_scope` otherwise).
    pub(crate) required_scopes: Vec<String>,
}

impl std::fmt::Debug for ProviderFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProviderFile")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// One entry of the `--provider-config` file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProviderFile {
    name: String,
    #[serde(default)]
    display_name: Option<String>,
    #[serde(default)]
    issuer: Option<String>,
    #[serde(default)]
    authorization_endpoint: Option<String>,
    #[serde(default)]
    token_endpoint: Option<String>,
    client_id: String,
    #[serde(default)]
    client_secret_file: Option<PathBuf>,
    #[serde(default)]
    scopes: Vec<String>,
    #[serde(default)]
    resource: Option<String>,
}

/// The file: one provider object or an array of them.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum ProviderFileContent {
    One(ProviderFile),
    Many(Vec<ProviderFile>),
}

/// A space- or comma-separated list of OAuth scopes (RFC 6749 `scope-token`s: printable
/// ASCII without space, `"` or `\`); `None` or blank is none.
fn parse_scopes(flag: &str, text: Option<&str>) -> Result<Vec<String>, String> {
    let mut scopes: Vec<String> = Vec::new();
    for token in text
        .unwrap_or("")
        .split(|c: char| c == ',' || c.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
    {
        if let Some(bad) = token
            .chars()
            .find(|&c| !(c.is_ascii_graphic() && c != '"' && c != '\\'))
        {
            return Err(format!(
                "{flag}: scope {token:?} contains {bad:?} (scopes are printable ASCII without quotes or backslashes)"
            ));
        }
        if !scopes.iter().any(|s| s == token) {
            scopes.push(token.to_owned());
        }
    }
    Ok(scopes)
}

/// `config` with the 2026-07-28 state keys read from `file` (`--state-key-file`); without
/// a file the registry makes a random key per process (said on stderr: several nodes need
/// one shared file).
pub(crate) fn with_state_keys(
    config: mcp_elicit_server::ElicitationConfig,
    file: Option<&Path>,
) -> Result<mcp_elicit_server::ElicitationConfig, String> {
    let Some(path) = file else {
        eprintln!(
            "mcp-elicit serve: 2026-07-28 request state: sealed with a random key for this process \
             (pass --state-key-file to share keys between nodes and restarts)"
        );
        return Ok(config);
    };
    use mcp_elicit_store::secrecy::ExposeSecret;
    let text = read_secret_file("state key", path)?;
    let keys = mcp_elicit_server::StateKeys::parse(text.expose_secret())
        .map_err(|e| format!("{} ({})", e.message(), path.display()))?;
    eprintln!(
        "mcp-elicit serve: 2026-07-28 request state: signing key {:?}, {} key(s) accepted, from {}",
        keys.signing_id(),
        keys.ids().len(),
        path.display()
    );
    Ok(config.with_state_keys(keys))
}

/// Reads a secret file (at most 64 KiB, surrounding whitespace trimmed, not empty).
fn read_secret_file(what: &str, path: &Path) -> Result<SecretString, String> {
    let meta = std::fs::metadata(path)
        .map_err(|e| format!("cannot read the {what} file {}: {e}", path.display()))?;
    if meta.len() > MAX_SECRET_FILE {
        return Err(format!(
            "the {what} file {} is larger than {MAX_SECRET_FILE} bytes",
            path.display()
        ));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the {what} file {}: {e}", path.display()))?;
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(format!("the {what} file {} is empty", path.display()));
    }
    Ok(SecretString::from(trimmed.to_owned()))
}

/// A secret from `file`, else from environment variable `var`.
fn secret_from(
    what: &str,
    file: Option<&Path>,
    var: &str,
    env: &impl Fn(&str) -> Option<OsString>,
) -> Result<Option<SecretString>, String> {
    if let Some(path) = file {
        return read_secret_file(what, path).map(Some);
    }
    match env(var) {
        None => Ok(None),
        Some(v) => {
            let v = v.into_string().map_err(|_| format!("{var} is not UTF-8"))?;
            let v = v.trim();
            if v.is_empty() {
                Ok(None)
            } else {
                Ok(Some(SecretString::from(v.to_owned())))
            }
        }
    }
}

fn parse_url(what: &str, text: &str) -> Result<Url, String> {
    Url::parse(text).map_err(|e| format!("{what} {text:?} is not a URL: {e}"))
}

impl WebOptions {
    /// Reads the flags (and the files and environment they name). `Ok(None)` without
    /// `--issuer`: local mode.
    pub(crate) fn from_flags(
        flags: &WebFlags,
        env: impl Fn(&str) -> Option<OsString>,
    ) -> Result<Option<WebOptions>, String> {
        let Some(issuer) = flags.issuer.as_deref().map(str::trim) else {
            for (set, name) in [
                (flags.audience.is_some(), "--audience"),
                (flags.client_id.is_some(), "--client-id"),
                (flags.client_secret_file.is_some(), "--client-secret-file"),
                (flags.provider_config.is_some(), "--provider-config"),
                (flags.scopes_supported.is_some(), "--scopes-supported"),
                (flags.required_scopes.is_some(), "--required-scopes"),
            ] {
                if set {
                    return Err(format!("{name} needs --issuer"));
                }
            }
            return Ok(None);
        };
        parse_url("--issuer", issuer)?;
        let public_url = flags
            .public_url
            .as_deref()
            .map(|u| parse_url("--public-url", u.trim()))
            .transpose()?;
        let client_id = flags
            .client_id
            .clone()
            .unwrap_or_else(|| "mcp-elicit".to_owned());
        let client_secret = secret_from(
            "client secret",
            flags.client_secret_file.as_deref(),
            CLIENT_SECRET_ENV,
            &env,
        )?;
        let vault_text = secret_from(
            "vault key",
            flags.vault_key_file.as_deref(),
            VAULT_KEY_ENV,
            &env,
        )?
        .ok_or_else(|| {
            format!(
                "--issuer needs a vault key (secrets and tokens are stored encrypted): pass \
                 --vault-key-file FILE or set {VAULT_KEY_ENV} (32 random bytes as 64 hex digits or base64, \
                 e.g. `openssl rand -hex 32`)"
            )
        })?;
        let vault_key = {
            use mcp_elicit_store::secrecy::ExposeSecret;
            VaultKey::parse(vault_text.expose_secret())
                .map_err(|e| format!("the vault key: {e}"))?
        };
        let providers = match &flags.provider_config {
            Some(path) => read_providers(path)?,
            None => Vec::new(),
        };
        let scopes_supported =
            parse_scopes("--scopes-supported", flags.scopes_supported.as_deref())?;
        let required_scopes = parse_scopes("--required-scopes", flags.required_scopes.as_deref())?;
        Ok(Some(WebOptions {
            issuer: issuer.to_owned(),
            audience: flags.audience.clone(),
            public_url,
            client_id,
            client_secret,
            vault_key,
            providers,
            scopes_supported,
            required_scopes,
        }))
    }
}

/// The vault key of local mode: `--vault-key-file` or `MCP_ELICIT_VAULT_KEY` when given,
/// else `key_file` (created owner-only with a random key if missing; the caller passes
/// one beside the default store), else a random key for this run only. Returns the key and where it came from.
pub(crate) fn local_vault_key(
    flags: &WebFlags,
    env: impl Fn(&str) -> Option<OsString>,
    key_file: Option<&Path>,
) -> Result<(VaultKey, String), String> {
    use mcp_elicit_store::secrecy::ExposeSecret;
    if let Some(text) = secret_from(
        "vault key",
        flags.vault_key_file.as_deref(),
        VAULT_KEY_ENV,
        &env,
    )? {
        let key =
            VaultKey::parse(text.expose_secret()).map_err(|e| format!("the vault key: {e}"))?;
        return Ok((key, "as configured".to_owned()));
    }
    let Some(path) = key_file else {
        let key = VaultKey::generate().map_err(|e| format!("cannot make a vault key: {e}"))?;
        return Ok((
            key,
            "random for this run (secrets entered now are unreadable after a restart; pass \
             --vault-key-file to keep them)"
                .to_owned(),
        ));
    };
    if path.exists() {
        let text = read_secret_file("vault key", path)?;
        let key = VaultKey::parse(text.expose_secret())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok((key, format!("from {}", path.display())));
    }
    let key = VaultKey::generate().map_err(|e| format!("cannot make a vault key: {e}"))?;
    write_private(path, key.to_base64().expose_secret())?;
    Ok((key, format!("new, saved in {}", path.display())))
}

/// Creates `path` readable by its owner only (fails if it exists) and writes `text`.
fn write_private(path: &Path, text: &str) -> Result<(), String> {
    use std::io::Write;
    if let Some(dir) = path.parent() {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder
            .create(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options
        .open(path)
        .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.write_all(b"\n"))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Reads `--provider-config`.
fn read_providers(path: &Path) -> Result<Vec<ProviderOptions>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read --provider-config {}: {e}", path.display()))?;
    let content: ProviderFileContent = serde_json::from_str(&text).map_err(|e| {
        format!(
            "--provider-config {}: expected a provider object or an array of them \
             (name, client_id, issuer or authorization_endpoint + token_endpoint, optional \
             display_name, client_secret_file, scopes, resource): {e}",
            path.display()
        )
    })?;
    let entries = match content {
        ProviderFileContent::One(p) => vec![p],
        ProviderFileContent::Many(v) => v,
    };
    // A relative client_secret_file is relative to the provider file's directory.
    let dir = path.parent().unwrap_or(Path::new("."));
    entries
        .into_iter()
        .map(|p| {
            let at = format!(
                "--provider-config {}: provider {:?}",
                path.display(),
                p.name
            );
            let endpoints = match (p.issuer, p.authorization_endpoint, p.token_endpoint) {
                (Some(issuer), None, None) => {
                    parse_url(&format!("{at}: issuer"), &issuer)?;
                    Ok(issuer)
                }
                (None, Some(a), Some(t)) => Err((
                    parse_url(&format!("{at}: authorization_endpoint"), &a)?,
                    parse_url(&format!("{at}: token_endpoint"), &t)?,
                )),
                _ => {
                    return Err(format!(
                        "{at}: give either issuer or both authorization_endpoint and token_endpoint"
                    ));
                }
            };
            let client_secret = p
                .client_secret_file
                .map(|f| read_secret_file(&format!("{at}: client secret"), &dir.join(f)))
                .transpose()?;
            Ok(ProviderOptions {
                display_name: p.display_name.unwrap_or_else(|| p.name.clone()),
                name: p.name,
                endpoints,
                client_id: p.client_id,
                client_secret,
                scopes: p.scopes,
                resource: p.resource,
            })
        })
        .collect()
}

/// Where the server may listen, and how (`tls`: `--tls-cert`/`--tls-key` were given):
///
/// - without an issuer (local mode, the local OS user is the identity), loopback only,
///   over http or https;
/// - with an issuer, anywhere, but outside loopback only over HTTPS: this server's own
///   TLS, or a TLS-terminating reverse proxy users reach at an https `--public-url`;
/// - with TLS the public URL is https (an http `--public-url` is a contradiction);
/// - stdio has no bearer tokens, so it cannot be combined with an issuer, and it is a
///   local pipe, so there is nothing for TLS to encrypt.
pub(crate) fn check_listen(
    listen: SocketAddr,
    stdio: bool,
    web: Option<&WebOptions>,
    tls: bool,
) -> Result<(), String> {
    if stdio && tls {
        return Err(
            "--tls-cert/--tls-key cannot be combined with --stdio: MCP then goes over stdin and \
             stdout, a local pipe, so there is nothing for TLS to encrypt (drop the TLS flags, or \
             serve HTTPS with --listen instead of --stdio)"
                .to_owned(),
        );
    }
    match web {
        None if !listen.ip().is_loopback() => Err(format!(
            "refusing to listen on {listen}: without --issuer this server runs in local mode (the local OS \
             user is the identity, no authorization), so it only listens on loopback addresses (for \
             example 127.0.0.1:8391 or [::1]:8391), with or without TLS. To serve other machines, \
             configure an OAuth authorization server with --issuer URL (see docs/deployment.md)"
        )),
        None => Ok(()),
        Some(_) if stdio => Err(
            "--stdio cannot be combined with --issuer: stdio carries no bearer token, so there is no \
             user to authorize (local mode serves stdio for the local OS user)"
                .to_owned(),
        ),
        Some(web) if tls => match &web.public_url {
            Some(u) if u.scheme() != "https" => Err(format!(
                "--public-url {u} cannot be combined with --tls-cert/--tls-key: this server then \
                 serves HTTPS itself, so it is reached at an https URL (leave --public-url out to \
                 use https:// plus the listening address)"
            )),
            _ => Ok(()),
        },
        Some(web) if !listen.ip().is_loopback() => match &web.public_url {
            Some(u) if u.scheme() == "https" => Ok(()),
            _ => Err(format!(
                "refusing to listen on {listen} without HTTPS: outside loopback, serve HTTPS with \
                 --tls-cert FILE --tls-key FILE, or run behind a TLS-terminating reverse proxy and \
                 pass the https URL users reach it at with --public-url https://... (see \
                 docs/deployment.md)"
            )),
        },
        Some(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_are_split_deduplicated_and_checked() {
        assert_eq!(
            parse_scopes("--x", Some(" mcp,files:read  mcp\tadmin ")),
            Ok(vec![
                "mcp".to_owned(),
                "files:read".to_owned(),
                "admin".to_owned()
            ])
        );
        assert_eq!(parse_scopes("--x", None), Ok(Vec::new()));
        assert_eq!(parse_scopes("--x", Some(" , ")), Ok(Vec::new()));
        for bad in ["a\"b", "é", "a\\b"] {
            let e = parse_scopes("--required-scopes", Some(bad)).expect_err(bad);
            assert!(e.starts_with("--required-scopes: scope"), "{e}");
        }
    }
    use mcp_elicit_store::secrecy::ExposeSecret;

    const KEY: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

    #[test]
    fn the_state_key_file_gives_the_ring_and_its_errors_name_the_line_not_the_key() {
        let dir = tempfile::tempdir().expect("dir");
        let file = dir.path().join("state.keys");
        let key = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
        std::fs::write(
            &file,
            format!("# rotated\nnew {key}\nold {}\n", key.replace('0', "1")),
        )
        .expect("write");
        let base = || {
            mcp_elicit_server::ElicitationConfig::new(
                mcp_elicit_server::IdentityPolicy::Authenticated,
            )
        };
        let config = with_state_keys(base(), Some(&file)).expect("keys");
        let keys = config.state_keys.expect("configured");
        assert_eq!(keys.signing_id(), "new");
        assert_eq!(keys.ids(), ["new", "old"]);
        assert!(
            with_state_keys(base(), None)
                .expect("none")
                .state_keys
                .is_none()
        );
        std::fs::write(&file, format!("new {key}\nshort 0011\n")).expect("write");
        let e = with_state_keys(base(), Some(&file)).expect_err("short key");
        assert!(e.contains("line 2"), "{e}");
        assert!(!e.contains(key), "the key is never echoed: {e}");
    }

    fn no_env(_: &str) -> Option<OsString> {
        None
    }

    fn flags(issuer: &str) -> WebFlags {
        WebFlags {
            issuer: Some(issuer.to_owned()),
            ..WebFlags::default()
        }
    }

    #[test]
    fn max_pending_per_user_takes_1_to_a_million_and_defaults_to_the_server_default() {
        assert_eq!(parse_max_pending("1"), Ok(1));
        assert_eq!(parse_max_pending("512"), Ok(512));
        assert_eq!(parse_max_pending(" 64 "), Ok(64));
        assert_eq!(parse_max_pending("1000000"), Ok(1_000_000));
        for bad in [
            "0",
            "1000001",
            "-1",
            "",
            "ten",
            "1.5",
            "99999999999999999999999",
        ] {
            let e = parse_max_pending(bad).expect_err(bad);
            assert!(e.contains("1 to 1000000"), "{bad}: {e}");
        }
        assert_eq!(
            DEFAULT_MAX_PENDING_PER_USER,
            mcp_elicit_server::ElicitationConfig::new(
                mcp_elicit_server::IdentityPolicy::Authenticated
            )
            .max_pending_per_user
        );
    }

    #[test]
    fn without_an_issuer_it_is_local_mode_and_web_flags_are_refused() {
        assert!(matches!(
            WebOptions::from_flags(&WebFlags::default(), no_env),
            Ok(None)
        ));
        let stray = WebFlags {
            client_secret_file: Some("k".into()),
            ..WebFlags::default()
        };
        let e = WebOptions::from_flags(&stray, no_env).expect_err("refused");
        assert!(e.contains("--client-secret-file needs --issuer"), "{e}");
    }

    #[test]
    fn an_issuer_needs_a_vault_key_from_a_file_or_the_environment_never_echoed() {
        let e = WebOptions::from_flags(&flags("http://127.0.0.1:9"), no_env).expect_err("no key");
        assert!(e.contains(VAULT_KEY_ENV), "{e}");
        let env = |k: &str| (k == VAULT_KEY_ENV).then(|| OsString::from(KEY));
        let o = WebOptions::from_flags(&flags("http://127.0.0.1:9"), env)
            .expect("ok")
            .expect("web");
        assert_eq!(o.client_id, "mcp-elicit");
        assert!(o.client_secret.is_none());
        let bad = |k: &str| (k == VAULT_KEY_ENV).then(|| OsString::from("hunter2-not-a-key"));
        let e = WebOptions::from_flags(&flags("http://127.0.0.1:9"), bad).expect_err("bad key");
        assert!(!e.contains("hunter2"), "{e}");

        let dir = tempfile::tempdir().expect("dir");
        let key = dir.path().join("vault.key");
        std::fs::write(&key, format!("{KEY}\n")).expect("write");
        let secret = dir.path().join("client.secret");
        std::fs::write(&secret, "s3cr3t\n").expect("write");
        let f = WebFlags {
            vault_key_file: Some(key),
            client_secret_file: Some(secret),
            client_id: Some("web".into()),
            ..flags("http://127.0.0.1:9")
        };
        let o = WebOptions::from_flags(&f, no_env)
            .expect("ok")
            .expect("web");
        assert_eq!(
            o.client_secret
                .as_ref()
                .map(|s| s.expose_secret().to_owned()),
            Some("s3cr3t".to_owned())
        );
        let missing = WebFlags {
            vault_key_file: Some(dir.path().join("absent")),
            ..flags("http://127.0.0.1:9")
        };
        let e = WebOptions::from_flags(&missing, no_env).expect_err("missing");
        assert!(e.contains("absent"), "{e}");
        assert!(WebOptions::from_flags(&flags("not a url"), no_env).is_err());
    }

    #[test]
    fn local_mode_keeps_its_vault_key_in_an_owner_only_file() {
        let dir = tempfile::tempdir().expect("dir");
        let file = dir.path().join("sub").join("vault.key");
        let flags = WebFlags::default();
        let (first, how) = local_vault_key(&flags, no_env, Some(&file)).expect("new key");
        assert!(how.starts_with("new"), "{how}");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&file).expect("meta").permissions().mode();
            assert_eq!(mode & 0o077, 0, "{mode:o}");
        }
        let (again, how) = local_vault_key(&flags, no_env, Some(&file)).expect("same key");
        assert!(how.starts_with("from"), "{how}");
        assert_eq!(first.id(), again.id());
        let env = |k: &str| (k == VAULT_KEY_ENV).then(|| OsString::from(KEY));
        let (configured, _) = local_vault_key(&flags, env, Some(&file)).expect("env key");
        assert_ne!(configured.id(), first.id());
        let (random, how) = local_vault_key(&flags, no_env, None).expect("random");
        assert!(how.starts_with("random"), "{how}");
        assert_ne!(random.id(), first.id());
    }

    #[test]
    fn provider_files_take_an_issuer_or_both_endpoints() {
        let dir = tempfile::tempdir().expect("dir");
        std::fs::write(dir.path().join("p.secret"), "ps\n").expect("write");
        let file = dir.path().join("providers.json");
        std::fs::write(
            &file,
            r#"[{"name": "gh", "issuer": "https://idp.example", "client_id": "a",
                 "client_secret_file": "p.secret", "scopes": ["read"]},
                {"name": "x", "display_name": "X Co", "authorization_endpoint": "https://x.example/auth",
                 "token_endpoint": "https://x.example/token", "client_id": "b", "resource": "https://api.x.example/"}]"#,
        )
        .expect("write");
        let p = read_providers(&file).expect("providers");
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].endpoints, Ok("https://idp.example".to_owned()));
        assert_eq!(p[0].display_name, "gh");
        assert!(p[0].client_secret.is_some());
        assert!(p[1].endpoints.is_err());
        assert_eq!(p[1].resource.as_deref(), Some("https://api.x.example/"));
        std::fs::write(
            &file,
            r#"{"name": "y", "client_id": "c", "token_endpoint": "https://y.example/t"}"#,
        )
        .expect("write");
        let e = read_providers(&file).expect_err("half endpoints");
        assert!(e.contains("either issuer"), "{e}");
        std::fs::write(
            &file,
            r#"{"name": "y", "client_id": "c", "clientSecret": "oops"}"#,
        )
        .expect("write");
        assert!(read_providers(&file).is_err());
    }

    #[test]
    fn listening_rules_local_mode_loopback_only_https_outside_loopback_no_stdio_with_issuer() {
        let lo: SocketAddr = "127.0.0.1:0".parse().expect("addr");
        let lo6: SocketAddr = "[::1]:0".parse().expect("addr");
        let any: SocketAddr = "0.0.0.0:0".parse().expect("addr");
        let lan: SocketAddr = "10.0.0.5:8391".parse().expect("addr");
        let env = |k: &str| (k == VAULT_KEY_ENV).then(|| OsString::from(KEY));
        let web = |public_url: Option<&str>| {
            let mut w = WebOptions::from_flags(&flags("https://idp.example"), env)
                .expect("ok")
                .expect("web");
            w.public_url = public_url.map(|u| Url::parse(u).expect("url"));
            w
        };
        let http_proxy = web(Some("http://mcp.example"));
        let https_proxy = web(Some("https://mcp.example"));
        let bound = web(None);
        // (listen, stdio, web, tls) -> Ok, or Err containing the text.
        type Case<'a> = (
            SocketAddr,
            bool,
            Option<&'a WebOptions>,
            bool,
            Result<(), &'a str>,
        );
        let cases: &[Case<'_>] = &[
            // Local mode: loopback only, http or https; stdio without TLS.
            (lo, false, None, false, Ok(())),
            (lo, false, None, true, Ok(())),
            (lo6, false, None, true, Ok(())),
            (lo, true, None, false, Ok(())),
            (lo, true, None, true, Err("nothing for TLS to encrypt")),
            (any, false, None, false, Err("local mode")),
            (any, false, None, true, Err("local mode")),
            (lan, false, None, true, Err("--issuer URL")),
            // Authorized mode on loopback: anything but stdio.
            (lo, false, Some(&bound), false, Ok(())),
            (lo, false, Some(&bound), true, Ok(())),
            (lo, false, Some(&http_proxy), false, Ok(())),
            (
                lo,
                true,
                Some(&bound),
                false,
                Err("--stdio cannot be combined"),
            ),
            (
                lo,
                true,
                Some(&bound),
                true,
                Err("nothing for TLS to encrypt"),
            ),
            // Outside loopback: TLS here, or an https proxy in front.
            (
                any,
                false,
                Some(&bound),
                false,
                Err("--tls-cert FILE --tls-key FILE"),
            ),
            (
                any,
                false,
                Some(&bound),
                false,
                Err("--public-url https://"),
            ),
            (any, false, Some(&http_proxy), false, Err("without HTTPS")),
            (any, false, Some(&https_proxy), false, Ok(())),
            (any, false, Some(&bound), true, Ok(())),
            (lan, false, Some(&bound), true, Ok(())),
            (any, false, Some(&https_proxy), true, Ok(())),
            // TLS and an http public URL contradict each other, wherever it listens.
            (
                any,
                false,
                Some(&http_proxy),
                true,
                Err("cannot be combined with --tls-cert"),
            ),
            (
                lo,
                false,
                Some(&http_proxy),
                true,
                Err("http://mcp.example"),
            ),
        ];
        for (i, (listen, stdio, web, tls, expected)) in cases.iter().enumerate() {
            let got = check_listen(*listen, *stdio, *web, *tls);
            match (expected, &got) {
                (Ok(()), Ok(())) => {}
                (Err(text), Err(e)) => assert!(e.contains(text), "case {i}: {e}"),
                _ => panic!("case {i} ({listen}, stdio {stdio}, tls {tls}): {got:?}"),
            }
        }
    }
}
