//! `--tls-cert FILE` and `--tls-key FILE`: HTTPS without a reverse proxy.
//!
//! Both files are PEM. The certificate file holds the server's certificate first, then
//! the intermediate certificates of its chain (what Let's Encrypt calls
//! `fullchain.pem`); the key file holds its private key as PKCS#8 (`PRIVATE KEY`),
//! PKCS#1 (`RSA PRIVATE KEY`) or SEC1 (`EC PRIVATE KEY`). They are read when the
//! arguments are parsed ([`CertChain::read`], [`PrivateKey::read`]: plain data), and
//! [`server_config`] checks that the key belongs to the certificate before anything
//! starts. Errors name the file and what is wrong with it, never the key's content.
//!
//! The certificate is served by a resolver built into the [`ServerConfig`] once
//! ([`reload::ReloadingCert`]): on SIGHUP it re-reads both files with the same functions
//! and the same check, and swaps them in for new handshakes ([`ServerTls::reload_on_sighup`]).

mod reload;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::builder::{PathBufValueParser, TypedValueParser};
use rustls::ServerConfig;
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::{self, PemObject};
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::sign::CertifiedKey;

/// The longest PEM file read (a chain of a few certificates is a few KiB).
const MAX_PEM_FILE: u64 = 1024 * 1024;

/// The certificate chain of `--tls-cert`, leaf first.
#[derive(Clone)]
pub(crate) struct CertChain {
    path: PathBuf,
    certs: Vec<CertificateDer<'static>>,
}

impl std::fmt::Debug for CertChain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CertChain")
            .field("path", &self.path)
            .field("certificates", &self.certs.len())
            .finish()
    }
}

/// The private key of `--tls-key` (its `Debug` shows the file name only).
#[derive(Clone)]
pub(crate) struct PrivateKey {
    path: PathBuf,
    key: Arc<PrivateKeyDer<'static>>,
}

impl std::fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PrivateKey")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

/// Reads a PEM file of at most [`MAX_PEM_FILE`] bytes.
fn read_pem_file(path: &Path) -> Result<Vec<u8>, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read: {e}"))?;
    if !meta.is_file() {
        return Err("not a file".to_owned());
    }
    if meta.len() > MAX_PEM_FILE {
        return Err(format!("larger than {MAX_PEM_FILE} bytes, not a PEM file"));
    }
    std::fs::read(path).map_err(|e| format!("cannot read: {e}"))
}

/// What is wrong with a PEM file, without quoting its content.
fn pem_problem(e: &pem::Error) -> String {
    match e {
        pem::Error::MissingSectionEnd { .. } => "a PEM section has no END line".to_owned(),
        pem::Error::IllegalSectionStart { .. } => "a PEM BEGIN line is malformed".to_owned(),
        pem::Error::Base64Decode(_) => "a PEM section is not valid base64".to_owned(),
        pem::Error::Io(e) => format!("cannot read: {e}"),
        _ => "not a valid PEM file".to_owned(),
    }
}

impl CertChain {
    /// The clap value parser of `--tls-cert`: the file is read when arguments are parsed
    /// (clap's error names the flag and the file before [`CertChain::read`]'s message).
    pub(crate) fn parser() -> impl TypedValueParser<Value = CertChain> {
        PathBufValueParser::new().try_map(CertChain::read)
    }

    /// Reads `--tls-cert`: every `CERTIFICATE` section of the PEM file, in order. The
    /// error says what is wrong with the file.
    pub(crate) fn read(path: PathBuf) -> Result<CertChain, String> {
        let bytes = read_pem_file(&path)?;
        let certs = CertificateDer::pem_slice_iter(&bytes)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| pem_problem(&e))?;
        if certs.is_empty() {
            return Err(
                "no certificate in it (expected PEM: -----BEGIN CERTIFICATE-----, the \
                 server's certificate first, then its chain)"
                    .to_owned(),
            );
        }
        Ok(CertChain { path, certs })
    }

    /// How many certificates the chain holds (the server's own included).
    pub(crate) fn len(&self) -> usize {
        self.certs.len()
    }

    /// The file it was read from.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

impl PrivateKey {
    /// The clap value parser of `--tls-key`: the file is read when arguments are parsed
    /// (clap's error names the flag and the file before [`PrivateKey::read`]'s message).
    pub(crate) fn parser() -> impl TypedValueParser<Value = PrivateKey> {
        PathBufValueParser::new().try_map(PrivateKey::read)
    }

    /// Reads `--tls-key`: the first PKCS#8, PKCS#1 or SEC1 private key of the PEM file.
    /// The error says what is wrong with the file, never what is in it.
    pub(crate) fn read(path: PathBuf) -> Result<PrivateKey, String> {
        let bytes = read_pem_file(&path)?;
        match PrivateKeyDer::from_pem_slice(&bytes) {
            Ok(key) => Ok(PrivateKey {
                path,
                key: Arc::new(key),
            }),
            Err(pem::Error::NoItemsFound) => Err("no private key in it (expected PEM: -----BEGIN \
                                                  PRIVATE KEY-----, RSA PRIVATE KEY or EC \
                                                  PRIVATE KEY)"
                .to_owned()),
            Err(e) => Err(pem_problem(&e)),
        }
    }
}

/// The TLS side of `serve`: the rustls configuration the listener takes, and the
/// certificate resolver built into it, which SIGHUP reloads.
#[derive(Debug)]
pub(crate) struct ServerTls {
    config: Arc<ServerConfig>,
    certs: Arc<reload::ReloadingCert>,
}

impl ServerTls {
    /// Reloads `--tls-cert` and `--tls-key` on every SIGHUP from now on (a task on the
    /// current Tokio runtime) and returns the configuration for the listener. Call it
    /// before announcing the server: until the handler is registered, SIGHUP kills the
    /// process.
    pub(crate) fn reload_on_sighup(self) -> std::io::Result<Arc<ServerConfig>> {
        reload::spawn_on_sighup(Arc::clone(&self.certs))?;
        Ok(self.config)
    }
}

/// The rustls configuration for `--tls-cert` and `--tls-key` (both or neither; clap
/// enforces it): the aws-lc-rs provider, TLS 1.2 and 1.3, ALPN `h2` and `http/1.1`.
/// Fails when the key is not usable or does not belong to the first certificate.
pub(crate) fn server_config(
    cert: Option<&CertChain>,
    key: Option<&PrivateKey>,
) -> Result<Option<ServerTls>, String> {
    let (cert, key) = match (cert, key) {
        (None, None) => return Ok(None),
        (Some(cert), Some(key)) => (cert, key),
        _ => return Err("--tls-cert and --tls-key go together".to_owned()),
    };
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let certified = certified_key(cert, key, &provider)?;
    let certs = Arc::new(reload::ReloadingCert::new(
        cert.path.clone(),
        key.path.clone(),
        Arc::clone(&provider),
        certified,
    ));
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_no_client_auth()
        .with_cert_resolver(Arc::clone(&certs) as _);
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(Some(ServerTls {
        config: Arc::new(config),
        certs,
    }))
}

/// The certificate chain and its key as rustls serves them, after the check
/// `ConfigBuilder::with_single_cert` makes: the key is usable and belongs to the first
/// certificate. The error names the file at fault.
fn certified_key(
    cert: &CertChain,
    key: &PrivateKey,
    provider: &CryptoProvider,
) -> Result<CertifiedKey, String> {
    CertifiedKey::from_der(cert.certs.clone(), key.key.clone_key(), provider).map_err(|e| match e {
        rustls::Error::InconsistentKeys(rustls::InconsistentKeys::KeyMismatch) => format!(
            "--tls-key {}: this private key does not belong to the certificate in {} (the \
             server's own certificate must come first in the --tls-cert file)",
            key.path.display(),
            cert.path.display()
        ),
        rustls::Error::InvalidCertificate(e) => format!(
            "--tls-cert {}: the first certificate cannot be used: {e}",
            cert.path.display()
        ),
        rustls::Error::NoCertificatesPresented => {
            format!("--tls-cert {}: no certificate in it", cert.path.display())
        }
        _ => format!(
            "--tls-key {}: not a usable private key (RSA, ECDSA P-256/P-384/P-521 or \
             Ed25519 expected)",
            key.path.display()
        ),
    })
}

/// The scheme of the URLs the server is reached at without a `--public-url`.
pub(crate) fn scheme(tls: Option<&ServerTls>) -> &'static str {
    if tls.is_some() { "https" } else { "http" }
}

/// Tells the operator, on stderr, that the server speaks HTTPS and with what.
pub(crate) fn announce(cert: Option<&CertChain>) {
    if let Some(cert) = cert {
        eprintln!(
            "mcp-elicit serve: TLS on: certificate chain of {} from {}{} (HTTP/2 and \
             HTTP/1.1; SIGHUP reloads the certificate and key files)",
            cert.len(),
            cert.path().display(),
            reload::valid_until(&cert.certs),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A test CA and a server certificate it signed for 127.0.0.1 and localhost.
    pub(super) struct Pki {
        pub(super) ca_pem: String,
        pub(super) leaf_pem: String,
        pub(super) leaf_key: rcgen::KeyPair,
    }

    pub(super) fn pki(leaf_key: rcgen::KeyPair) -> Pki {
        let ca_key = rcgen::KeyPair::generate().expect("CA key");
        let mut ca_params = rcgen::CertificateParams::new(Vec::new()).expect("params");
        ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        let ca = rcgen::CertifiedIssuer::self_signed(ca_params, ca_key).expect("CA");
        let leaf = rcgen::CertificateParams::new(vec!["127.0.0.1".into(), "localhost".into()])
            .expect("params")
            .signed_by(&leaf_key, &ca)
            .expect("leaf");
        Pki {
            ca_pem: ca.pem(),
            leaf_pem: leaf.pem(),
            leaf_key,
        }
    }

    pub(super) fn write(dir: &Path, name: &str, content: impl AsRef<[u8]>) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, content).expect("write");
        path
    }

    /// The inner key of a PKCS#8 `PrivateKeyInfo`: PKCS#1 for RSA, SEC1 for EC.
    fn pkcs8_inner(der: &[u8]) -> Vec<u8> {
        // SEQUENCE { INTEGER version, SEQUENCE algorithm, OCTET STRING privateKey, ... }
        fn header(der: &[u8]) -> (u8, usize, usize) {
            let tag = der[0];
            let first = usize::from(der[1]);
            if first < 0x80 {
                return (tag, 2, first);
            }
            let n = first & 0x7f;
            let len = der[2..2 + n]
                .iter()
                .fold(0usize, |l, b| (l << 8) | usize::from(*b));
            (tag, 2 + n, len)
        }
        let (tag, at, _) = header(der);
        assert_eq!(tag, 0x30);
        let mut rest = &der[at..];
        for expected in [0x02, 0x30] {
            let (tag, at, len) = header(rest);
            assert_eq!(tag, expected);
            rest = &rest[at + len..];
        }
        let (tag, at, len) = header(rest);
        assert_eq!(tag, 0x04);
        rest[at..at + len].to_vec()
    }

    fn pem_block(label: &str, der: &[u8]) -> String {
        use base64::Engine as _;
        let b64 = base64::engine::general_purpose::STANDARD.encode(der);
        let lines: Vec<&str> = b64
            .as_bytes()
            .chunks(64)
            .map(|c| std::str::from_utf8(c).expect("ascii"))
            .collect();
        format!(
            "-----BEGIN {label}-----\n{}\n-----END {label}-----\n",
            lines.join("\n")
        )
    }

    fn load(cert: &Path, key: &Path) -> Result<Arc<ServerConfig>, String> {
        let cert = CertChain::read(cert.to_owned())?;
        let key = PrivateKey::read(key.to_owned())?;
        server_config(Some(&cert), Some(&key)).map(|c| c.expect("a config").config)
    }

    #[test]
    fn a_chain_and_its_key_make_a_config_offering_h2_and_http_1_1() {
        let dir = tempfile::tempdir().expect("dir");
        let p = pki(rcgen::KeyPair::generate().expect("key"));
        let chain = write(
            dir.path(),
            "chain.pem",
            format!("{}{}", p.leaf_pem, p.ca_pem),
        );
        let key = write(dir.path(), "key.pem", p.leaf_key.serialize_pem());
        let read = CertChain::read(chain.clone()).expect("chain");
        assert_eq!(read.len(), 2);
        assert_eq!(read.path(), chain);
        let config = load(&chain, &key).expect("config");
        assert_eq!(config.alpn_protocols, [&b"h2"[..], &b"http/1.1"[..]]);
        assert!(matches!(server_config(None, None), Ok(None)));
        let k = PrivateKey::read(key).expect("key");
        assert!(!format!("{k:?}").contains("BEGIN"), "{k:?}");
    }

    #[test]
    fn pkcs1_rsa_and_sec1_ec_keys_are_accepted() {
        let dir = tempfile::tempdir().expect("dir");
        let rsa = rcgen::KeyPair::generate_for(&rcgen::PKCS_RSA_SHA256).expect("RSA key");
        let rsa_pkcs1 = pem_block("RSA PRIVATE KEY", &pkcs8_inner(&rsa.serialize_der()));
        let p = pki(rsa);
        let cert = write(dir.path(), "rsa.pem", &p.leaf_pem);
        let key = write(dir.path(), "rsa.key", &rsa_pkcs1);
        let read = PrivateKey::read(key.clone()).expect("key");
        assert!(matches!(*read.key, PrivateKeyDer::Pkcs1(_)));
        load(&cert, &key).expect("PKCS#1");

        let ec = rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P384_SHA384).expect("EC key");
        let ec_sec1 = pem_block("EC PRIVATE KEY", &pkcs8_inner(&ec.serialize_der()));
        let p = pki(ec);
        let cert = write(dir.path(), "ec.pem", &p.leaf_pem);
        let key = write(dir.path(), "ec.key", &ec_sec1);
        let read = PrivateKey::read(key.clone()).expect("key");
        assert!(matches!(*read.key, PrivateKeyDer::Sec1(_)));
        load(&cert, &key).expect("SEC1");
    }

    /// `--tls-cert PATH` through clap, as the binary parses it: the error as printed.
    fn cert_flag(path: &Path) -> Result<CertChain, String> {
        flag("--tls-cert", CertChain::parser(), path)
    }

    /// `--tls-key PATH` through clap.
    fn key_flag(path: &Path) -> Result<PrivateKey, String> {
        flag("--tls-key", PrivateKey::parser(), path)
    }

    fn flag<T: Clone + Send + Sync + 'static>(
        name: &'static str,
        parser: impl TypedValueParser<Value = T>,
        path: &Path,
    ) -> Result<T, String> {
        let command = clap::Command::new("serve").arg(
            clap::Arg::new("file")
                .long(&name[2..])
                .value_name("FILE")
                .value_parser(parser),
        );
        let matches = command
            .try_get_matches_from([
                std::ffi::OsStr::new("serve"),
                name.as_ref(),
                path.as_os_str(),
            ])
            .map_err(|e| e.to_string())?;
        Ok(matches.get_one::<T>("file").expect("parsed").clone())
    }

    #[test]
    fn missing_empty_and_garbage_files_are_named_in_the_error() {
        let dir = tempfile::tempdir().expect("dir");
        let missing = dir.path().join("absent.pem");
        let e = cert_flag(&missing).expect_err("missing");
        let named = format!(
            "invalid value '{}' for '--tls-cert <FILE>'",
            missing.display()
        );
        assert!(e.contains(&named) && e.contains("cannot read"), "{e}");
        let e = key_flag(&missing).expect_err("missing");
        let named = format!(
            "invalid value '{}' for '--tls-key <FILE>'",
            missing.display()
        );
        assert!(e.contains(&named) && e.contains("cannot read"), "{e}");
        let e = cert_flag(dir.path()).expect_err("a directory");
        assert!(e.contains("not a file"), "{e}");

        let empty = write(dir.path(), "empty.pem", "");
        let e = cert_flag(&empty).expect_err("empty");
        assert!(
            e.contains("empty.pem") && e.contains("no certificate"),
            "{e}"
        );
        let e = key_flag(&empty).expect_err("empty");
        assert!(
            e.contains("empty.pem") && e.contains("no private key"),
            "{e}"
        );

        let garbage = write(dir.path(), "garbage.pem", b"hello\x00\xff world\n");
        let e = cert_flag(&garbage).expect_err("garbage");
        assert!(
            e.contains("garbage.pem") && e.contains("no certificate"),
            "{e}"
        );
        let broken = write(
            dir.path(),
            "broken.pem",
            "-----BEGIN PRIVATE KEY-----\nc2VjcmV0IGtleSBtYXRlcmlhbA==\n",
        );
        let e = key_flag(&broken).expect_err("no END line");
        assert!(e.contains("broken.pem") && e.contains("END"), "{e}");
        assert!(!e.contains("c2VjcmV0"), "key material in {e}");
        let bad_b64 = write(
            dir.path(),
            "b64.pem",
            "-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n",
        );
        let e = cert_flag(&bad_b64).expect_err("bad base64");
        assert!(e.contains("b64.pem") && e.contains("base64"), "{e}");
        // A certificate section that is not a certificate.
        let fake = write(
            dir.path(),
            "fake.pem",
            pem_block("CERTIFICATE", b"not DER at all"),
        );
        let p = pki(rcgen::KeyPair::generate().expect("key"));
        let key = write(dir.path(), "key.pem", p.leaf_key.serialize_pem());
        let e = load(&fake, &key).expect_err("not a certificate");
        assert!(
            e.starts_with("--tls-cert ") && e.contains("fake.pem"),
            "{e}"
        );
    }

    #[test]
    fn a_certificate_is_not_a_key_and_a_key_is_not_a_certificate() {
        let dir = tempfile::tempdir().expect("dir");
        let p = pki(rcgen::KeyPair::generate().expect("key"));
        let cert = write(dir.path(), "cert.pem", &p.leaf_pem);
        let key = write(dir.path(), "key.pem", p.leaf_key.serialize_pem());
        let e = key_flag(&cert).expect_err("a certificate as the key");
        assert!(
            e.contains("cert.pem") && e.contains("no private key"),
            "{e}"
        );
        let e = cert_flag(&key).expect_err("a key as the certificate");
        assert!(e.contains("key.pem") && e.contains("no certificate"), "{e}");
        let read = cert_flag(&cert).expect("a certificate");
        assert_eq!((read.len(), read.path()), (1, cert.as_path()));
        let e = server_config(Some(&read), None).expect_err("half");
        assert!(e.contains("together"), "{e}");
    }

    #[test]
    fn a_key_of_another_certificate_is_refused_without_showing_it() {
        let dir = tempfile::tempdir().expect("dir");
        let p = pki(rcgen::KeyPair::generate().expect("key"));
        let other = rcgen::KeyPair::generate().expect("other key");
        let other_pem = other.serialize_pem();
        let cert = write(dir.path(), "cert.pem", &p.leaf_pem);
        let key = write(dir.path(), "other.key", &other_pem);
        let e = load(&cert, &key).expect_err("mismatch");
        assert!(
            e.contains("other.key") && e.contains("cert.pem") && e.contains("does not belong"),
            "{e}"
        );
        let body = other_pem.lines().nth(1).expect("a base64 line");
        assert!(!e.contains(body), "key material in {e}");
        // The chain in the wrong order (CA first) is the same mistake.
        let reversed = write(dir.path(), "rev.pem", format!("{}{}", p.ca_pem, p.leaf_pem));
        let key = write(dir.path(), "key.pem", p.leaf_key.serialize_pem());
        let e = load(&reversed, &key).expect_err("CA first");
        assert!(e.contains("must come first"), "{e}");
    }
}
