//! The issuer's signing keys (JWKS), cached: fetched at start, refreshed when a token
//! names an unknown `kid` (at most once per configured interval, so a flood of forged
//! `kid`s cannot make us hammer the issuer) and when the cache is an hour old.

use std::str::FromStr;
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::{AlgorithmParameters, Jwk, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey};
use tokio::sync::{Mutex, RwLock};

use crate::error::WebError;
use crate::outbound::get_json;

/// How old the cache may get before any lookup refreshes it.
const MAX_AGE: Duration = Duration::from_secs(60 * 60);

/// One usable verification key.
#[derive(Clone)]
struct Key {
    kid: Option<String>,
    alg: Option<Algorithm>,
    key: DecodingKey,
}

/// Why no key was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyLookup {
    /// No key with that `kid` (or no single key fits a token without `kid`).
    Unknown,
    /// A key exists but is for another algorithm.
    WrongAlgorithm,
}

/// A cached JWKS.
pub(crate) struct Jwks {
    uri: String,
    http: reqwest::Client,
    min_refresh: Duration,
    keys: RwLock<(Vec<Key>, Instant)>,
    last_fetch: Mutex<Instant>,
}

impl Jwks {
    /// Fetches the JWKS at `uri`.
    pub(crate) async fn load(
        http: reqwest::Client,
        uri: String,
        min_refresh: Duration,
    ) -> Result<Jwks, WebError> {
        let keys = fetch(&http, &uri).await?;
        let now = Instant::now();
        Ok(Jwks {
            uri,
            http,
            min_refresh,
            keys: RwLock::new((keys, now)),
            last_fetch: Mutex::new(now),
        })
    }

    /// The key for a token signed with `alg` naming `kid`.
    pub(crate) async fn key_for(
        &self,
        kid: Option<&str>,
        alg: Algorithm,
    ) -> Result<DecodingKey, KeyLookup> {
        let stale = {
            let guard = self.keys.read().await;
            match find(&guard.0, kid, alg) {
                Ok(k) if guard.1.elapsed() < MAX_AGE => return Ok(k),
                Err(KeyLookup::WrongAlgorithm) => return Err(KeyLookup::WrongAlgorithm),
                _ => true,
            }
        };
        if stale {
            self.refresh().await;
        }
        let guard = self.keys.read().await;
        find(&guard.0, kid, alg)
    }

    /// Refetches the set unless that happened less than `min_refresh` ago. Failures keep
    /// the old keys (logged).
    async fn refresh(&self) {
        let mut last = self.last_fetch.lock().await;
        if last.elapsed() < self.min_refresh {
            return;
        }
        *last = Instant::now();
        match fetch(&self.http, &self.uri).await {
            Ok(keys) => {
                tracing::debug!(jwks_uri = %self.uri, keys = keys.len(), "JWKS refreshed");
                *self.keys.write().await = (keys, Instant::now());
            }
            Err(e) => tracing::warn!(error = %e, "JWKS refresh failed; keeping the cached keys"),
        }
    }
}

fn find(keys: &[Key], kid: Option<&str>, alg: Algorithm) -> Result<DecodingKey, KeyLookup> {
    let candidates: Vec<&Key> = match kid {
        Some(kid) => keys
            .iter()
            .filter(|k| k.kid.as_deref() == Some(kid))
            .collect(),
        None => keys.iter().collect(),
    };
    let fitting: Vec<&Key> = candidates
        .iter()
        .copied()
        .filter(|k| k.key.family() == alg.family() && k.alg.is_none_or(|a| a == alg))
        .collect();
    match (fitting.as_slice(), candidates.is_empty()) {
        ([one], _) => Ok(one.key.clone()),
        // Several keys without a kid to choose: refuse rather than guess.
        ([], false) if kid.is_some() => Err(KeyLookup::WrongAlgorithm),
        _ => Err(KeyLookup::Unknown),
    }
}

async fn fetch(http: &reqwest::Client, uri: &str) -> Result<Vec<Key>, WebError> {
    #[derive(serde::Deserialize)]
    struct Set {
        keys: Vec<serde_json::Value>,
    }
    let set: Set = get_json(http, uri).await?;
    let mut out = Vec::new();
    for value in set.keys {
        // One odd key (unknown type, encryption key) must not hide the others.
        let Ok(jwk) = serde_json::from_value::<Jwk>(value) else {
            continue;
        };
        if matches!(jwk.common.public_key_use, Some(PublicKeyUse::Encryption)) {
            continue;
        }
        if matches!(
            jwk.algorithm,
            AlgorithmParameters::OctetKey(_) | AlgorithmParameters::Other(_)
        ) {
            continue;
        }
        let alg = match jwk.common.key_algorithm {
            Some(a) => match Algorithm::from_str(&a.to_string()) {
                Ok(a) => Some(a),
                Err(_) => continue,
            },
            None => None,
        };
        let Ok(key) = DecodingKey::from_jwk(&jwk) else {
            continue;
        };
        out.push(Key {
            kid: jwk.common.key_id.clone(),
            alg,
            key,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use axum::Router;
    use axum::routing::get;

    use super::*;

    fn rsa(kid: &str) -> serde_json::Value {
        // Public RSA parameters only need to decode for `DecodingKey::from_jwk`.
        serde_json::json!({"kty": "RSA", "kid": kid, "alg": "RS256", "use": "sig",
            "n": "sXchDaQebHnPiGvyDOAT4saGEUetSyo9MKLOoWFsueri23bOdgWp4Dy1WlUzewbgBHod5pcM9H95GQRV3JDXboIRROSBigeC5yjU1hGzHHyXss8UDprecbAYxknTcQkhslANGRUZmdTOQ5qTRsLAt6BTYuyvVRdhS8exSZEy_c4gs_7svlJJQ4H9_NxsiIoLwAEk7-Q3UXERGYw_75IDrGA84-lA_-Ct4eTlXHBIY2EaV7t7LjJaynVJCpkv4LKjTTAumiGUIuQhrNhZLuF_RJLqHpM2kgWFLU7-VTdL1VbC2tejvcI2BlMkEpk1BzBZI0KQB0GaDWFLN-aEAw3vRw",
            "e": "AQAB"})
    }

    async fn serve(
        keys: Arc<std::sync::Mutex<Vec<serde_json::Value>>>,
        hits: Arc<AtomicUsize>,
    ) -> String {
        let app = Router::new().route(
            "/jwks",
            get(move || {
                let keys = keys.clone();
                let hits = hits.clone();
                async move {
                    hits.fetch_add(1, Ordering::SeqCst);
                    let keys = keys.lock().map(|k| k.clone()).unwrap_or_default();
                    axum::Json(serde_json::json!({ "keys": keys }))
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        format!("http://{addr}/jwks")
    }

    #[tokio::test]
    async fn unknown_kids_refetch_at_most_once_per_interval() {
        let keys = Arc::new(std::sync::Mutex::new(vec![
            rsa("a"),
            serde_json::json!({"kty": "oct", "kid": "h", "k": "c2VjcmV0"}),
            serde_json::json!({"kty": "weird", "kid": "w"}),
        ]));
        let hits = Arc::new(AtomicUsize::new(0));
        let uri = serve(keys.clone(), hits.clone()).await;
        let http = crate::outbound::client().expect("client");
        let slow = Jwks::load(http.clone(), uri.clone(), Duration::from_secs(3600))
            .await
            .expect("load");
        assert!(slow.key_for(Some("a"), Algorithm::RS256).await.is_ok());
        // HMAC keys in a JWKS are never used; odd keys do not hide the good one.
        assert_eq!(
            slow.key_for(Some("h"), Algorithm::HS256).await.err(),
            Some(KeyLookup::Unknown)
        );
        assert_eq!(
            slow.key_for(Some("a"), Algorithm::ES256).await.err(),
            Some(KeyLookup::WrongAlgorithm)
        );
        for i in 0..50 {
            let kid = format!("forged-{i}");
            assert_eq!(
                slow.key_for(Some(&kid), Algorithm::RS256).await.err(),
                Some(KeyLookup::Unknown)
            );
        }
        assert_eq!(
            hits.load(Ordering::SeqCst),
            1,
            "no refetch inside the interval"
        );

        // A rotated-in key is found by refreshing when the interval allows.
        let fast = Jwks::load(http, uri, Duration::ZERO).await.expect("load");
        let before = hits.load(Ordering::SeqCst);
        keys.lock().expect("keys").push(rsa("b"));
        assert!(fast.key_for(Some("b"), Algorithm::RS256).await.is_ok());
        assert_eq!(hits.load(Ordering::SeqCst), before + 1);
        // Without a kid, a single fitting key is not enough when there are two.
        assert_eq!(
            fast.key_for(None, Algorithm::RS256).await.err(),
            Some(KeyLookup::Unknown)
        );
    }
}
