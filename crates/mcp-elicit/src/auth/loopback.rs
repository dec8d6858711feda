//! The loopback redirect URI of a native OAuth client (RFC 8252 §7.3): a one-shot HTTP
//! listener on `127.0.0.1`, port chosen by the OS, that takes the browser's answer to
//! one authorization request.
//!
//! Only a request to the redirect path that carries the expected `state` counts: a wrong
//! or missing `state` is answered 400 and ignored (a page of another site cannot end the
//! sign-in), and the first matching answer, code or error, ends the listener. The code
//! is held as a secret and never logged; the page the browser shows names no value.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Query, RawQuery, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use secrecy::SecretString;
use tokio::net::TcpListener;
use tokio::sync::oneshot;

/// The path of the redirect URI.
pub(crate) const CALLBACK_PATH: &str = "/callback";

/// What the authorization server sent back (RFC 6749 §4.1.2, RFC 9207 `iss`), after the
/// `state` was checked and a `code` seen: the whole query string as received (it holds
/// the code; the client library checks `state` and `iss` again and exchanges the code).
#[derive(Debug)]
pub(crate) struct Callback {
    pub(crate) query: SecretString,
}

/// Why no code arrived.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LoopbackError {
    /// The authorization server answered with an error (`error`, `error_description`).
    Denied {
        error: String,
        description: Option<String>,
    },
    /// An answer with the right `state` but neither `code` nor `error`.
    Malformed,
    /// Nothing arrived in time.
    Timeout(Duration),
    /// The listener failed.
    Io(String),
}

impl std::fmt::Display for LoopbackError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Denied { error, description } => {
                write!(f, "the authorization server refused the sign-in: {error}")?;
                if let Some(d) = description {
                    write!(f, " ({d})")?;
                }
                Ok(())
            }
            Self::Malformed => {
                f.write_str("the browser came back without an authorization code or an error")
            }
            Self::Timeout(d) => write!(
                f,
                "no answer from the browser within {} s (sign-in not finished)",
                d.as_secs()
            ),
            Self::Io(e) => write!(f, "the loopback redirect listener failed: {e}"),
        }
    }
}

impl std::error::Error for LoopbackError {}

type Answer = Result<Callback, LoopbackError>;

/// A bound loopback listener, not yet serving.
#[derive(Debug)]
pub(crate) struct LoopbackRedirect {
    listener: TcpListener,
    port: u16,
}

impl LoopbackRedirect {
    /// Binds `127.0.0.1:0`.
    pub(crate) async fn bind() -> Result<Self, LoopbackError> {
        Self::bind_port(0).await
    }

    /// Binds `127.0.0.1:port` (a step-up reuses the redirect URI of its sign-in).
    pub(crate) async fn bind_port(port: u16) -> Result<Self, LoopbackError> {
        let listener = TcpListener::bind(("127.0.0.1", port))
            .await
            .map_err(|e| LoopbackError::Io(format!("cannot listen on 127.0.0.1: {e}")))?;
        let port = listener
            .local_addr()
            .map_err(|e| LoopbackError::Io(e.to_string()))?
            .port();
        Ok(Self { listener, port })
    }

    /// `http://127.0.0.1:PORT/callback`.
    pub(crate) fn redirect_uri(&self) -> String {
        format!("http://127.0.0.1:{}{CALLBACK_PATH}", self.port)
    }

    /// Serves until the answer for `state` arrives or `timeout` passes.
    pub(crate) async fn wait(self, state: &str, timeout: Duration) -> Answer {
        let (tx, rx) = oneshot::channel::<Answer>();
        let shared = Arc::new(Shared {
            state: state.to_owned(),
            tx: Mutex::new(Some(tx)),
        });
        let app = axum::Router::new()
            .route(CALLBACK_PATH, get(callback))
            .fallback(|| async { page(StatusCode::NOT_FOUND, "Not found.") })
            .with_state(shared);
        let (stop_tx, stop_rx) = oneshot::channel::<()>();
        let server = tokio::spawn(async move {
            axum::serve(self.listener, app)
                .with_graceful_shutdown(async move {
                    let _ = stop_rx.await;
                })
                .await
        });
        let answer = match tokio::time::timeout(timeout, rx).await {
            Ok(Ok(answer)) => answer,
            Ok(Err(_)) => Err(LoopbackError::Io("the listener stopped".into())),
            Err(_) => Err(LoopbackError::Timeout(timeout)),
        };
        // One shot: stop listening; give the answer page a moment to reach the browser
        // (a browser may keep its connection open, so do not wait for it).
        let _ = stop_tx.send(());
        let abort = server.abort_handle();
        if tokio::time::timeout(Duration::from_secs(2), server)
            .await
            .is_err()
        {
            abort.abort();
        }
        answer
    }
}

struct Shared {
    state: String,
    tx: Mutex<Option<oneshot::Sender<Answer>>>,
}

/// Equal in time independent of where they differ (the state is a one-time secret).
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

async fn callback(
    State(shared): State<Arc<Shared>>,
    Query(q): Query<HashMap<String, String>>,
    RawQuery(raw): RawQuery,
) -> Response {
    if !q.get("state").is_some_and(|s| same(s, &shared.state)) {
        return page(
            StatusCode::BAD_REQUEST,
            "This is not the sign-in this program is waiting for. Nothing was done.",
        );
    }
    let Some(tx) = shared
        .tx
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take()
    else {
        return page(
            StatusCode::GONE,
            "This sign-in was already answered. You can close this tab.",
        );
    };
    let (answer, status, text) = match (q.get("code"), q.get("error")) {
        (_, Some(error)) => (
            Err(LoopbackError::Denied {
                error: cut(error),
                description: q.get("error_description").map(|d| cut(d)),
            }),
            StatusCode::OK,
            "The sign-in was not completed. You can close this tab and return to the terminal.",
        ),
        (Some(code), None) if !code.is_empty() => (
            Ok(Callback {
                query: SecretString::from(raw.unwrap_or_default()),
            }),
            StatusCode::OK,
            "Signed in. You can close this tab and return to the terminal.",
        ),
        _ => (
            Err(LoopbackError::Malformed),
            StatusCode::BAD_REQUEST,
            "The answer carried no authorization code. Return to the terminal.",
        ),
    };
    let _ = tx.send(answer);
    page(status, text)
}

/// Server-sent text shortened and stripped of control characters (it is shown).
fn cut(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).take(300).collect()
}

fn page(status: StatusCode, text: &'static str) -> Response {
    let html = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>mcp-elicit sign-in</title>\
         </head><body><p>{text}</p></body></html>"
    );
    let mut r = (status, html).into_response();
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'"),
    );
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use secrecy::ExposeSecret;

    async fn get(url: &str) -> (u16, String) {
        let r = reqwest::get(url).await.expect("request");
        (r.status().as_u16(), r.text().await.unwrap_or_default())
    }

    #[tokio::test]
    async fn takes_the_code_for_the_right_state_once() {
        let l = LoopbackRedirect::bind().await.expect("bind");
        let uri = l.redirect_uri();
        assert!(uri.starts_with("http://127.0.0.1:"), "{uri}");
        assert!(uri.ends_with("/callback"));
        let wait = tokio::spawn(l.wait("st-123", Duration::from_secs(20)));
        // A wrong or missing state is refused and does not end the sign-in.
        let (s, body) = get(&format!("{uri}?code=evil&state=st-999")).await;
        assert_eq!(s, 400);
        assert!(!body.contains("evil"));
        assert_eq!(get(&format!("{uri}?code=evil")).await.0, 400);
        assert_eq!(get(&uri.replace("/callback", "/other")).await.0, 404);
        let (s, body) = get(&format!(
            "{uri}?code=the-code&state=st-123&iss=https%3A%2F%2Fa.example"
        ))
        .await;
        assert_eq!(s, 200);
        assert!(body.contains("Signed in"));
        assert!(!body.contains("the-code"));
        let cb = wait.await.expect("join").expect("callback");
        assert_eq!(
            cb.query.expose_secret(),
            "code=the-code&state=st-123&iss=https%3A%2F%2Fa.example"
        );
        // One shot: the listener is gone.
        assert!(reqwest::get(&uri).await.is_err());
    }

    #[tokio::test]
    async fn an_error_answer_ends_the_sign_in_with_the_servers_reason() {
        let l = LoopbackRedirect::bind().await.expect("bind");
        let uri = l.redirect_uri();
        let wait = tokio::spawn(l.wait("s", Duration::from_secs(20)));
        let (s, _) = get(&format!(
            "{uri}?error=access_denied&error_description=user%20said%20no%1b&state=s"
        ))
        .await;
        assert_eq!(s, 200);
        let e = wait.await.expect("join").expect_err("denied");
        assert_eq!(
            e,
            LoopbackError::Denied {
                error: "access_denied".into(),
                description: Some("user said no".into())
            }
        );
        assert!(e.to_string().contains("refused the sign-in: access_denied"));
    }

    #[tokio::test]
    async fn gives_up_after_the_timeout() {
        let l = LoopbackRedirect::bind().await.expect("bind");
        let e = l
            .wait("s", Duration::from_millis(200))
            .await
            .expect_err("timeout");
        assert!(matches!(e, LoopbackError::Timeout(_)), "{e:?}");
    }
}
