//! Idle sessions with one pending URL elicitation each (our server), and the latency
//! from a URL elicitation's completion to the client's `notifications/elicitation/complete`.
//!
//! Each session calls the reference server's `demo_url` tool: the server sends a URL-mode
//! `elicitation/create`, the responder consents (the opener opens nothing), the tool
//! returns, and the elicitation stays pending on the server until its page is finished.
//! Memory per session = (server RSS after opening N such sessions − RSS before) / N. On
//! the lean layer, whose idle sessions sleep (`--session-hibernate-after`), sessions
//! arrive in waves of 1,000, each asleep before the next: the figure is what sleeping
//! sessions hold; the first wave's, measured before it sleeps, is the awake one.
//! Completion: `POST /demo/complete?elicitationId=ID` (the demo page's form), timed from
//! just before the POST to the moment the client's UI is notified.

use std::path::Path;
use std::time::Duration;

use hdrhistogram::Histogram;
use serde::Serialize;
use serde_json::Map;
use tokio::time::Instant;

use crate::load::open_sessions;
use crate::procstat;
use crate::servers::Revision;
use crate::servers::ServerSpec;
use crate::session::{self, Session};

/// Memory of N idle sessions with a pending URL elicitation.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct IdlePoint {
    /// The server's key (`ours`, `ours-lean`).
    pub(crate) server: String,
    pub(crate) sessions: usize,
    pub(crate) rss_before_kib: u64,
    /// At the end (every session pending; on the lean layer, asleep).
    pub(crate) rss_after_kib: u64,
    /// Awake: all N on rmcp's layer; on the lean layer, the first wave's (see `measure`).
    pub(crate) bytes_per_session: f64,
    /// The same once the sessions slept (lean layer: their handlers ended after
    /// `--session-hibernate-after`); None on rmcp's layer, which has no sleep.
    pub(crate) bytes_per_asleep_session: Option<f64>,
    /// Of which: the session alone (initialized, standalone GET stream open, no call yet;
    /// the first wave's on the lean layer).
    pub(crate) bytes_per_bare_session: f64,
    /// Seconds to open the sessions and get every elicitation pending.
    pub(crate) setup_seconds: f64,
    /// The load generator's own RSS growth per session (client side), bytes.
    pub(crate) client_bytes_per_session: Option<f64>,
    pub(crate) completion: Option<Completion>,
    pub(crate) first_error: Option<String>,
}

/// Completion-notification latency.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Completion {
    pub(crate) samples: u64,
    pub(crate) p50_ms: f64,
    pub(crate) p90_ms: f64,
    pub(crate) p99_ms: f64,
    pub(crate) max_ms: f64,
}

impl IdlePoint {
    pub(crate) fn ok(&self) -> bool {
        self.first_error.is_none()
    }
}

/// Sessions made pending at once.
const PARALLEL_CALLS: usize = 64;

/// Sessions per wave on a layer whose sessions sleep.
const WAVE: usize = 1000;

async fn make_pending(session: &Session) -> Result<String, String> {
    let result = session.call("demo_url", Map::new()).await?;
    let text = session::first_text(&result).unwrap_or_default();
    if result.is_error == Some(true) || !text.starts_with("You agreed to open the page") {
        return Err(format!("demo_url answered {text:?}"));
    }
    session
        .ui()
        .url_ids()
        .pop()
        .ok_or_else(|| "no URL elicitation reached the client".to_owned())
}

fn rss(pid: u32) -> Result<u64, String> {
    procstat::status_kib(pid, "VmRSS")
}

/// Opens `n` sessions with a pending URL elicitation each; then completes `samples` of
/// them one at a time, timing each notification.
pub(crate) async fn run_point(
    spec: &ServerSpec,
    n: usize,
    samples: usize,
    log_dir: &Path,
) -> IdlePoint {
    let mut point = IdlePoint {
        server: spec.key.clone(),
        sessions: n,
        rss_before_kib: 0,
        rss_after_kib: 0,
        bytes_per_session: 0.0,
        bytes_per_asleep_session: None,
        bytes_per_bare_session: 0.0,
        setup_seconds: 0.0,
        client_bytes_per_session: None,
        completion: None,
        first_error: None,
    };
    let log = log_dir.join(format!("idle-{}-{n}.log", spec.key));
    let mut server = match spec.start(&log, n).await {
        Ok(s) => s,
        Err(e) => {
            point.first_error = Some(e);
            return point;
        }
    };
    let sleeps = spec.key.starts_with("ours-lean");
    let result = measure(&mut point, &server, n, samples, sleeps).await;
    if let Err(e) = result {
        point.first_error = Some(e);
    }
    if !server.is_running() {
        point
            .first_error
            .get_or_insert(format!("the server exited; see {}", log.display()));
    }
    server.stop().await;
    point
}

async fn measure(
    point: &mut IdlePoint,
    server: &crate::servers::RunningServer,
    n: usize,
    samples: usize,
    sleeps: bool,
) -> Result<(), String> {
    let http = session::http_client()?;
    let url = server.mcp_url();
    // Warm the server up with a few complete round trips (allocator arenas, lazy statics)
    // so the baseline is not the cold start.
    let warm = open_sessions(&http, &url, 8, Revision::V2025).await?;
    for s in &warm {
        let id = make_pending(s).await?;
        complete(&http, &server.base, s, &id).await?;
    }
    for s in warm {
        s.close().await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    point.rss_before_kib = rss(server.pid)?;
    let client_before = procstat::status_kib(std::process::id(), "VmRSS").ok();
    // On the lean layer sessions arrive in waves, each asleep before the next comes (as
    // sessions arriving over time are): what the sleeping ones freed is reused by the
    // next, so the last figure is what sleeping sessions hold, not the peak of them all
    // awake at once. The first wave gives the awake figures.
    let wave = if sleeps { WAVE.min(n.max(1)) } else { n.max(1) };
    let hibernate: f64 = crate::servers::HIBERNATE_AFTER_SECS.parse().unwrap_or(2.0);
    let mut sessions = Vec::with_capacity(n);
    let mut ids = Vec::with_capacity(n);
    let mut setup = Duration::ZERO;
    for first in (0..n).step_by(wave) {
        let k = wave.min(n - first);
        let started = Instant::now();
        let batch = open_sessions(&http, &url, k, Revision::V2025).await?;
        setup += started.elapsed();
        if first == 0 {
            tokio::time::sleep(Duration::from_millis(500)).await;
            let rss_bare = rss(server.pid)?;
            point.bytes_per_bare_session =
                (rss_bare as f64 - point.rss_before_kib as f64) * 1024.0 / k as f64;
        }
        let started = Instant::now();
        let pending: Vec<Result<String, String>> = {
            use futures::StreamExt;
            futures::stream::iter(batch.iter())
                .map(make_pending)
                .buffered(PARALLEL_CALLS)
                .collect()
                .await
        };
        setup += started.elapsed();
        for id in pending {
            ids.push(id?);
        }
        sessions.extend(batch);
        if first == 0 {
            tokio::time::sleep(Duration::from_secs(1)).await;
            point.rss_after_kib = rss(server.pid)?;
            point.bytes_per_session =
                (point.rss_after_kib as f64 - point.rss_before_kib as f64) * 1024.0 / k as f64;
        }
        if sleeps {
            // Past `--session-hibernate-after` and the sweep after it (half of it later).
            tokio::time::sleep(Duration::from_secs_f64(hibernate * 1.5 + 1.0)).await;
        }
    }
    point.setup_seconds = setup.as_secs_f64();
    if sleeps {
        point.rss_after_kib = rss(server.pid)?;
        point.bytes_per_asleep_session = Some(
            (point.rss_after_kib as f64 - point.rss_before_kib as f64) * 1024.0 / n.max(1) as f64,
        );
    }
    if let (Some(before), Ok(after)) = (
        client_before,
        procstat::status_kib(std::process::id(), "VmRSS"),
    ) {
        point.client_bytes_per_session =
            Some((after as f64 - before as f64) * 1024.0 / n.max(1) as f64);
    }
    // Completion latency, one at a time, with the other sessions still pending (and
    // asleep, on the lean layer).
    let mut histogram = match Histogram::<u64>::new_with_bounds(1, 60_000_000, 3) {
        Ok(h) => h,
        Err(e) => return Err(format!("histogram: {e}")),
    };
    let step = (n / samples.max(1)).max(1);
    for (session, id) in sessions.iter().zip(&ids).step_by(step).take(samples) {
        let micros = complete(&http, &server.base, session, id).await?;
        let _ = histogram.record(micros.max(1));
    }
    if !histogram.is_empty() {
        let ms = |q: f64| histogram.value_at_quantile(q) as f64 / 1000.0;
        point.completion = Some(Completion {
            samples: histogram.len(),
            p50_ms: ms(0.5),
            p90_ms: ms(0.9),
            p99_ms: ms(0.99),
            max_ms: histogram.max() as f64 / 1000.0,
        });
    }
    let closing = sessions.into_iter().map(Session::close);
    let _ = tokio::time::timeout(Duration::from_secs(30), futures::future::join_all(closing)).await;
    Ok(())
}

/// The value of the demo page's hidden `csrf` input, when it has one and it needs no
/// form encoding (the server's tokens are base64url and dots).
fn csrf_token(page: &str) -> Option<&str> {
    let start = page.find(r#"name="csrf" value=""#)? + r#"name="csrf" value=""#.len();
    let token = &page[start..];
    let token = &token[..token.find('"')?];
    token
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        .then_some(token)
}

/// Finishes the demo page of `id` and returns the microseconds until the client heard.
async fn complete(
    http: &reqwest::Client,
    base: &str,
    session: &Session,
    id: &str,
) -> Result<u64, String> {
    // What a user does: load the demo page (its form carries a CSRF token), then press
    // Finish. Only the press is timed.
    let url = format!("{base}/demo/complete?elicitationId={id}");
    let page = http
        .get(&url)
        .send()
        .await
        .map_err(|e| format!("loading the page of {id}: {e}"))?
        .text()
        .await
        .map_err(|e| format!("loading the page of {id}: {e}"))?;
    let form = csrf_token(&page)
        .map(|t| format!("csrf={t}"))
        .unwrap_or_default();
    let heard = session.ui().expect_completion(id);
    let started = Instant::now();
    let response = http
        .post(url)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(form)
        .send()
        .await
        .map_err(|e| format!("completing {id}: {e}"))?;
    if !response.status().is_success() {
        return Err(format!("completing {id}: HTTP {}", response.status()));
    }
    let at = tokio::time::timeout(Duration::from_secs(10), heard)
        .await
        .map_err(|_| format!("no completion notification for {id} within 10 s"))?
        .map_err(|_| format!("completion waiter for {id} dropped"))?;
    Ok(u64::try_from(at.duration_since(started).as_micros()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_csrf_token_is_read_from_the_demo_pages_form() {
        let page = r#"<form method="post"><input type="hidden" name="csrf" value="rs2.YWJj.x-y_z"><button>"#;
        assert_eq!(csrf_token(page), Some("rs2.YWJj.x-y_z"));
        assert_eq!(csrf_token("<p>no form</p>"), None);
        let odd = r#"<input type="hidden" name="csrf" value="a&amp;b">"#;
        assert_eq!(csrf_token(odd), None);
    }
}
