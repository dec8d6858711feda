//! Reloading `--tls-cert` and `--tls-key` on SIGHUP, without a restart.
//!
//! The [`ServerConfig`](rustls::ServerConfig) is built once around a [`ReloadingCert`],
//! the resolver every handshake asks for the certificate. A reload re-reads both files
//! from the paths given at start-up with the functions that read them then
//! ([`CertChain::read`], [`PrivateKey::read`]) and checks them as then
//! ([`certified_key`]); only if all is well does the new certificate replace the old,
//! for new handshakes: established connections keep the one they were made with. If
//! anything is wrong, the old certificate stays, and one line names the file and the
//! problem (never the key's content).

use std::path::PathBuf;
use std::sync::{Arc, PoisonError, RwLock};

use rustls::crypto::CryptoProvider;
use rustls::pki_types::CertificateDer;
use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;

use super::{CertChain, PrivateKey, certified_key};

/// The certificate resolver of the server's rustls configuration: one certificate for
/// every client, replaced by [`ReloadingCert::reload`].
pub(crate) struct ReloadingCert {
    cert_path: PathBuf,
    key_path: PathBuf,
    provider: Arc<CryptoProvider>,
    current: RwLock<Arc<CertifiedKey>>,
}

impl std::fmt::Debug for ReloadingCert {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReloadingCert")
            .field("cert_path", &self.cert_path)
            .field("key_path", &self.key_path)
            .finish_non_exhaustive()
    }
}

/// What a successful reload loaded.
#[derive(Debug)]
pub(crate) struct Reloaded {
    /// How many certificates the chain holds (the server's own included).
    pub(crate) chain: usize,
    /// The server certificate's notAfter (RFC 3339, UTC), when it could be read.
    pub(crate) not_after: Option<String>,
}

impl ReloadingCert {
    /// A resolver serving `initial`, checked by [`certified_key`], read from these files.
    pub(crate) fn new(
        cert_path: PathBuf,
        key_path: PathBuf,
        provider: Arc<CryptoProvider>,
        initial: CertifiedKey,
    ) -> ReloadingCert {
        ReloadingCert {
            cert_path,
            key_path,
            provider,
            current: RwLock::new(Arc::new(initial)),
        }
    }

    /// The certificate new handshakes get.
    pub(crate) fn current(&self) -> Arc<CertifiedKey> {
        Arc::clone(&self.current.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// Re-reads and checks both files, then serves them to new handshakes. On error
    /// (naming the flag and the file) the current certificate stays.
    pub(crate) fn reload(&self) -> Result<Reloaded, String> {
        let cert = CertChain::read(self.cert_path.clone())
            .map_err(|e| format!("--tls-cert {}: {e}", self.cert_path.display()))?;
        let key = PrivateKey::read(self.key_path.clone())
            .map_err(|e| format!("--tls-key {}: {e}", self.key_path.display()))?;
        let certified = certified_key(&cert, &key, &self.provider)?;
        let reloaded = Reloaded {
            chain: cert.len(),
            not_after: cert.certs.first().and_then(not_after),
        };
        *self.current.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(certified);
        Ok(reloaded)
    }

    /// The line logged for an outcome of [`ReloadingCert::reload`].
    fn describe(&self, outcome: &Result<Reloaded, String>) -> String {
        match outcome {
            Ok(r) => format!(
                "SIGHUP: TLS certificate chain of {} reloaded from {} and {}{}; new \
                 connections get it, established ones keep theirs",
                r.chain,
                self.cert_path.display(),
                self.key_path.display(),
                r.not_after
                    .as_ref()
                    .map(|t| format!(", valid until {t}"))
                    .unwrap_or_default(),
            ),
            Err(e) => {
                format!("SIGHUP: TLS certificate NOT reloaded, still serving the previous one: {e}")
            }
        }
    }
}

impl ResolvesServerCert for ReloadingCert {
    fn resolve(&self, _client_hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(self.current())
    }
}

/// Registers the SIGHUP handler now (replacing the default action, which ends the
/// process) and spawns the task that reloads `certs` on each SIGHUP, for as long as the
/// runtime runs. Signals arriving during a reload are coalesced into one more reload.
pub(super) fn spawn_on_sighup(certs: Arc<ReloadingCert>) -> std::io::Result<()> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut hangups = signal(SignalKind::hangup())?;
    tokio::spawn(async move {
        while hangups.recv().await.is_some() {
            let reloading = Arc::clone(&certs);
            // File reads: off the async workers.
            match tokio::task::spawn_blocking(move || reloading.reload()).await {
                Ok(outcome @ Ok(_)) => tracing::info!("{}", certs.describe(&outcome)),
                Ok(outcome @ Err(_)) => tracing::error!("{}", certs.describe(&outcome)),
                Err(e) => tracing::error!(
                    "SIGHUP: TLS certificate NOT reloaded, still serving the previous one: {e}"
                ),
            }
        }
    });
    Ok(())
}

/// `, valid until T` for the first certificate of `certs`, or nothing if its notAfter
/// cannot be read.
pub(super) fn valid_until(certs: &[CertificateDer<'_>]) -> String {
    certs
        .first()
        .and_then(not_after)
        .map(|t| format!(", valid until {t}"))
        .unwrap_or_default()
}

/// One DER element: its tag, its content and what follows it (None if malformed).
fn tlv(der: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = der.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let n = usize::from(first & 0x7f);
        if n == 0 || n > 4 {
            return None;
        }
        let (bytes, rest) = rest.split_at_checked(n)?;
        let len = bytes
            .iter()
            .fold(0usize, |len, b| (len << 8) | usize::from(*b));
        (len, rest)
    };
    let (content, rest) = rest.split_at_checked(len)?;
    Some((tag, content, rest))
}

/// The notAfter of an X.509 certificate as `YYYY-MM-DDTHH:MM:SSZ`: a few lines of DER
/// walking (`Certificate` → `tbsCertificate` → `validity`) rather than an X.509 crate,
/// for a log line. None when the certificate is not shaped as expected.
fn not_after(cert: &CertificateDer<'_>) -> Option<String> {
    const SEQUENCE: u8 = 0x30;
    let (SEQUENCE, certificate, _) = tlv(cert)? else {
        return None;
    };
    let (SEQUENCE, tbs, _) = tlv(certificate)? else {
        return None;
    };
    // [0] version (optional), serialNumber, signature, issuer, validity.
    let (tag, _, mut rest) = tlv(tbs)?;
    if tag != 0xa0 {
        rest = tbs;
    }
    for _ in 0..3 {
        rest = tlv(rest)?.2;
    }
    let (SEQUENCE, validity, _) = tlv(rest)? else {
        return None;
    };
    let (_, _, rest) = tlv(validity)?; // notBefore
    let (tag, time, _) = tlv(rest)?;
    let time = std::str::from_utf8(time).ok()?;
    let digits = time.strip_suffix('Z')?;
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let full = match (tag, digits.len()) {
        // UTCTime YYMMDDHHMMSSZ: years 1950 to 2049 (RFC 5280, 4.1.2.5.1).
        (0x17, 12) => {
            let century = if digits < "50" { "20" } else { "19" };
            format!("{century}{digits}")
        }
        // GeneralizedTime YYYYMMDDHHMMSSZ.
        (0x18, 14) => digits.to_owned(),
        _ => return None,
    };
    let f = |r: std::ops::Range<usize>| &full[r];
    Some(format!(
        "{}-{}-{}T{}:{}:{}Z",
        f(0..4),
        f(4..6),
        f(6..8),
        f(8..10),
        f(10..12),
        f(12..14)
    ))
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::path::Path;

    use rustls::pki_types::ServerName;
    use rustls::{ClientConfig, ClientConnection, Connection, RootCertStore, ServerConnection};

    use super::super::tests::{Pki, pki, write};
    use super::*;

    /// Two certificates from two test CAs: a client trusting both tells them apart.
    struct Setup {
        dir: tempfile::TempDir,
        a: Pki,
        b: Pki,
        client: Arc<ClientConfig>,
    }

    impl Setup {
        fn new() -> Setup {
            let a = pki(rcgen::KeyPair::generate().expect("key"));
            let b = pki(rcgen::KeyPair::generate().expect("key"));
            let mut roots = RootCertStore::empty();
            for ca in [&a.ca_pem, &b.ca_pem] {
                let der =
                    rustls::pki_types::CertificateDer::from_pem_slice(ca.as_bytes()).expect("CA");
                roots.add(der).expect("root");
            }
            let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
            let mut client = ClientConfig::builder_with_provider(provider)
                .with_safe_default_protocol_versions()
                .expect("versions")
                .with_root_certificates(roots)
                .with_no_client_auth();
            client.alpn_protocols = vec![b"h2".to_vec()];
            // A resumed session shows the certificate of the session's first handshake.
            client.resumption = rustls::client::Resumption::disabled();
            Setup {
                dir: tempfile::tempdir().expect("dir"),
                a,
                b,
                client: Arc::new(client),
            }
        }

        /// Writes `p`'s chain (leaf then CA) and key to cert.pem and key.pem.
        fn install(&self, p: &Pki) -> (PathBuf, PathBuf) {
            let cert = write(
                self.dir.path(),
                "cert.pem",
                format!("{}{}", p.leaf_pem, p.ca_pem),
            );
            let key = write(self.dir.path(), "key.pem", p.leaf_key.serialize_pem());
            (cert, key)
        }
    }

    use rustls::pki_types::pem::PemObject as _;

    fn leaf(p: &Pki) -> CertificateDer<'static> {
        CertificateDer::from_pem_slice(p.leaf_pem.as_bytes()).expect("leaf")
    }

    /// The server's configuration from the files, as `serve` builds it.
    fn server_tls(cert: &Path, key: &Path) -> super::super::ServerTls {
        let cert = CertChain::read(cert.to_owned()).expect("chain");
        let key = PrivateKey::read(key.to_owned()).expect("key");
        super::super::server_config(Some(&cert), Some(&key))
            .expect("config")
            .expect("TLS")
    }

    /// Moves whatever `from` has to send into `to`.
    fn transfer(from: &mut Connection, to: &mut Connection) {
        let mut bytes = Vec::new();
        while from.wants_write() {
            from.write_tls(&mut bytes).expect("write_tls");
        }
        let mut rd = &bytes[..];
        while !rd.is_empty() {
            to.read_tls(&mut rd).expect("read_tls");
            to.process_new_packets().expect("process");
        }
    }

    /// A completed in-memory handshake: (client, server).
    fn handshake(
        server: &Arc<rustls::ServerConfig>,
        client: &Arc<ClientConfig>,
    ) -> (Connection, Connection) {
        let name = ServerName::try_from("127.0.0.1").expect("name");
        let mut c = Connection::from(ClientConnection::new(Arc::clone(client), name).expect("c"));
        let mut s = Connection::from(ServerConnection::new(Arc::clone(server)).expect("s"));
        for _ in 0..8 {
            transfer(&mut c, &mut s);
            transfer(&mut s, &mut c);
        }
        assert!(!c.is_handshaking() && !s.is_handshaking());
        (c, s)
    }

    /// The leaf certificate the client saw.
    fn seen(client: &Connection) -> CertificateDer<'static> {
        client.peer_certificates().expect("certificates")[0].clone()
    }

    /// Sends `msg` from `from` to `to` over an established connection.
    fn exchange(from: &mut Connection, to: &mut Connection, msg: &[u8]) {
        from.writer().write_all(msg).expect("write");
        transfer(from, to);
        let mut got = vec![0; msg.len()];
        to.reader().read_exact(&mut got).expect("read");
        assert_eq!(got, msg);
    }

    #[test]
    fn a_reload_serves_the_new_certificate_to_new_handshakes_only() {
        let s = Setup::new();
        let (cert, key) = s.install(&s.a);
        let tls = server_tls(&cert, &key);
        let (mut old_c, mut old_s) = handshake(&tls.config, &s.client);
        assert_eq!(seen(&old_c), leaf(&s.a));

        // Renewed: B in the same files, with B's CA left out of the chain.
        write(s.dir.path(), "cert.pem", &s.b.leaf_pem);
        write(s.dir.path(), "key.pem", s.b.leaf_key.serialize_pem());
        let reloaded = tls.certs.reload().expect("reload");
        assert_eq!(reloaded.chain, 1);
        assert!(
            reloaded
                .not_after
                .as_ref()
                .is_some_and(|t| t.ends_with('Z')),
            "{reloaded:?}"
        );
        let (new_c, _) = handshake(&tls.config, &s.client);
        assert_eq!(seen(&new_c), leaf(&s.b));
        assert_eq!(new_c.alpn_protocol(), Some(&b"h2"[..]));
        assert_eq!(tls.config.alpn_protocols, [&b"h2"[..], &b"http/1.1"[..]]);

        // The connection made before keeps working with A.
        exchange(&mut old_c, &mut old_s, b"still here");
        exchange(&mut old_s, &mut old_c, b"and answering");
        assert_eq!(seen(&old_c), leaf(&s.a));

        let line = tls.certs.describe(&Ok(reloaded));
        assert!(
            line.contains("chain of 1")
                && line.contains("cert.pem")
                && line.contains("valid until"),
            "{line}"
        );
    }

    #[test]
    fn a_broken_or_mismatched_reload_keeps_the_old_certificate_and_names_the_file() {
        let s = Setup::new();
        let (cert, key) = s.install(&s.a);
        let tls = server_tls(&cert, &key);
        let served = || seen(&handshake(&tls.config, &s.client).0);
        let a = leaf(&s.a);
        let a_key = s.a.leaf_key.serialize_pem();
        let b_key = s.b.leaf_key.serialize_pem();
        let key_body = |pem: &str| pem.lines().nth(1).expect("a base64 line").to_owned();
        let check = |e: String, file: &Path, problem: &str| {
            let file = file.display().to_string();
            assert!(e.contains(&file) && e.contains(problem), "{e}");
            for body in [key_body(&a_key), key_body(&b_key)] {
                assert!(!e.contains(&body), "key material in {e}");
            }
            let line = tls.certs.describe(&Err(e));
            assert!(
                line.contains("NOT reloaded") && line.contains(&file),
                "{line}"
            );
            assert_eq!(served(), a);
        };

        // Half renewed: B's certificate with A's key, then A's certificate with B's key.
        write(s.dir.path(), "cert.pem", &s.b.leaf_pem);
        check(
            tls.certs.reload().expect_err("mismatch"),
            &key,
            "does not belong",
        );
        s.install(&s.a);
        write(s.dir.path(), "key.pem", &b_key);
        check(
            tls.certs.reload().expect_err("mismatch"),
            &key,
            "does not belong",
        );

        // A garbage key: PEM around bytes that are no key; an unterminated one.
        s.install(&s.a);
        let garbage = "-----BEGIN PRIVATE KEY-----\nc2VjcmV0IGtleSBtYXRlcmlhbA==\n";
        write(
            s.dir.path(),
            "key.pem",
            format!("{garbage}-----END PRIVATE KEY-----\n"),
        );
        let e = tls.certs.reload().expect_err("garbage key");
        assert!(!e.contains("c2VjcmV0"), "{e}");
        check(e, &key, "not a usable private key");
        write(s.dir.path(), "key.pem", garbage);
        let e = tls.certs.reload().expect_err("no END");
        assert!(
            e.starts_with("--tls-key ") && !e.contains("c2VjcmV0"),
            "{e}"
        );
        check(e, &key, "END");

        // A broken certificate file, an empty one, a missing one.
        s.install(&s.a);
        write(
            s.dir.path(),
            "cert.pem",
            "-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n",
        );
        let e = tls.certs.reload().expect_err("bad base64");
        assert!(e.starts_with("--tls-cert "), "{e}");
        check(e, &cert, "base64");
        write(s.dir.path(), "cert.pem", "");
        check(
            tls.certs.reload().expect_err("empty"),
            &cert,
            "no certificate",
        );
        std::fs::remove_file(&cert).expect("rm");
        check(
            tls.certs.reload().expect_err("missing"),
            &cert,
            "cannot read",
        );

        // And a good pair again is taken.
        s.install(&s.b);
        assert_eq!(tls.certs.reload().expect("reload").chain, 2);
        assert_eq!(served(), leaf(&s.b));
    }

    #[test]
    fn not_after_reads_utc_and_generalized_times_and_survives_garbage() {
        let key = rcgen::KeyPair::generate().expect("key");
        for (year, month, day, expected) in [
            (2031, 5, 4, "2031-05-04T00:00:00Z"),
            (2049, 12, 31, "2049-12-31T00:00:00Z"),
            // From 2050 on, GeneralizedTime.
            (2051, 1, 2, "2051-01-02T00:00:00Z"),
        ] {
            let mut params = rcgen::CertificateParams::new(vec!["a.test".into()]).expect("p");
            params.not_after = rcgen::date_time_ymd(year, month, day);
            let cert = params.self_signed(&key).expect("cert");
            assert_eq!(not_after(cert.der()).as_deref(), Some(expected));
            assert_eq!(
                valid_until(std::slice::from_ref(cert.der())),
                format!(", valid until {expected}")
            );
            // Every truncation is refused; no corrupted byte makes it panic.
            let der = cert.der().as_ref();
            for n in 0..der.len() {
                let cut = CertificateDer::from(der[..n].to_vec());
                assert_eq!(not_after(&cut), None, "cut at {n}");
                for bad in [0x00, 0x7f, 0x80, 0x84, 0xff] {
                    let mut corrupt = der.to_vec();
                    corrupt[n] = bad;
                    let _ = not_after(&CertificateDer::from(corrupt));
                }
            }
        }
        assert_eq!(not_after(&CertificateDer::from(b"not DER".to_vec())), None);
        assert_eq!(valid_until(&[]), "");
    }
}
