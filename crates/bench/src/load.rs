//! The load benchmark: N concurrent sessions, each looping
//! `tools/call test_elicitation` → `elicitation/create` → accept → result, against one
//! freshly started server. Every result is checked.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use hdrhistogram::Histogram;
use serde::Serialize;
use serde_json::{Map, Value};
use tokio::time::Instant;

use crate::procstat;
use crate::servers::{Revision, ServerSpec};
use crate::session::{self, Session};

/// Longest a single call may take before it counts as failed.
const CALL_TIMEOUT: Duration = Duration::from_secs(30);
/// Sessions opened at once.
const CONNECT_PARALLELISM: usize = 32;
/// A session stops after this many failed calls.
const MAX_ERRORS_PER_SESSION: u64 = 20;

/// One server at one concurrency.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Point {
    pub(crate) server: String,
    /// The revision spoken (2026-07-28: one call is the first attempt and the retry).
    pub(crate) revision: Revision,
    pub(crate) sessions: usize,
    /// Calls completed (and checked) in the measured window.
    pub(crate) calls: u64,
    pub(crate) errors: u64,
    pub(crate) seconds: f64,
    pub(crate) calls_per_sec: f64,
    pub(crate) p50_ms: f64,
    pub(crate) p90_ms: f64,
    pub(crate) p99_ms: f64,
    pub(crate) max_ms: f64,
    /// Server CPU seconds (user + system) per 1,000 calls, over the measured window.
    pub(crate) cpu_s_per_1k_calls: Option<f64>,
    /// Server CPU use over the window, in cores.
    pub(crate) server_cores: Option<f64>,
    /// The load generator's own CPU seconds per 1,000 calls (it shares the machine).
    pub(crate) client_cpu_s_per_1k_calls: Option<f64>,
    /// Server peak RSS (VmHWM) at the end of the point, KiB.
    pub(crate) peak_rss_kib: Option<u64>,
    /// The first failure seen, if any.
    pub(crate) first_error: Option<String>,
}

impl Point {
    /// Whether every call was answered correctly.
    pub(crate) fn ok(&self) -> bool {
        self.errors == 0 && self.first_error.is_none() && self.calls > 0
    }
}

struct SessionTally {
    histogram: Histogram<u64>,
    calls: u64,
    errors: u64,
    first_error: Option<String>,
}

fn new_histogram() -> Histogram<u64> {
    // Microseconds, 1 µs to 10 min, 3 significant digits. The bounds are valid constants.
    match Histogram::new_with_bounds(1, 600_000_000, 3) {
        Ok(h) => h,
        Err(e) => unreachable!("constant histogram bounds are valid: {e}"),
    }
}

/// Checks one `test_elicitation` result: accepted, with this session's answer.
pub(crate) fn check(
    session: &Session,
    result: Result<mcp_elicit_client::rmcp::model::CallToolResult, String>,
) -> Result<(), String> {
    let result = result?;
    if let Some(problem) = session.ui().problems().first() {
        return Err(format!("client-side problem: {problem}"));
    }
    if result.is_error == Some(true) {
        return Err(format!("tool error: {:?}", session::first_text(&result)));
    }
    let text = session::first_text(&result).ok_or("result has no text content")?;
    check_text(text, &session.ui().answer())
}

/// The text of a `test_elicitation` result must report `accept` with exactly `answer`.
fn check_text(text: &str, answer: &Map<String, Value>) -> Result<(), String> {
    let content = text
        .strip_prefix("User response: action=accept, content=")
        .ok_or_else(|| format!("unexpected result text: {text:?}"))?;
    let content: Value = serde_json::from_str(content)
        .map_err(|e| format!("result content is not JSON ({e}): {text:?}"))?;
    if content.as_object() != Some(answer) {
        return Err(format!("result carries the wrong answer: {text:?}"));
    }
    Ok(())
}

async fn drive(session: Arc<Session>, measure_from: Instant, end: Instant) -> SessionTally {
    let mut tally = SessionTally {
        histogram: new_histogram(),
        calls: 0,
        errors: 0,
        first_error: None,
    };
    let mut arguments = Map::new();
    arguments.insert(
        "message".into(),
        Value::String("Please provide your username and email".into()),
    );
    while Instant::now() < end {
        let started = Instant::now();
        let forms_before = session.ui().forms_shown();
        let result = tokio::time::timeout(
            CALL_TIMEOUT,
            session.call("test_elicitation", arguments.clone()),
        )
        .await
        .unwrap_or_else(|_| {
            // Where it stopped: before its form reached the client, or after the answer.
            let stage = if session.ui().forms_shown() > forms_before {
                "its form was shown and answered; no result came"
            } else {
                "its form never reached the client"
            };
            Err(format!("no answer within {CALL_TIMEOUT:?} ({stage})"))
        });
        let finished = Instant::now();
        match check(&session, result) {
            Ok(()) => {
                if finished >= measure_from && finished <= end {
                    let micros = finished.duration_since(started).as_micros();
                    let _ = tally
                        .histogram
                        .record(u64::try_from(micros).unwrap_or(u64::MAX).max(1));
                    tally.calls += 1;
                }
            }
            Err(e) => {
                tally.errors += 1;
                tally.first_error.get_or_insert(e);
                if tally.errors >= MAX_ERRORS_PER_SESSION {
                    break;
                }
            }
        }
    }
    tally
}

/// Opens `n` sessions to `url` on `revision`.
pub(crate) async fn open_sessions(
    http: &reqwest::Client,
    url: &str,
    n: usize,
    revision: Revision,
) -> Result<Vec<Session>, String> {
    let results: Vec<Result<Session, String>> = futures::stream::iter(0..n)
        .map(|i| session::connect(http, url, i, revision))
        .buffer_unordered(CONNECT_PARALLELISM)
        .collect()
        .await;
    results.into_iter().collect()
}

/// Runs one point: starts the server, opens the sessions, warms up, measures, stops.
pub(crate) async fn run_point(
    spec: &ServerSpec,
    sessions: usize,
    warmup: Duration,
    measure: Duration,
    log_dir: &Path,
) -> Point {
    let mut point = Point {
        server: spec.key.clone(),
        revision: spec.revision,
        sessions,
        calls: 0,
        errors: 0,
        seconds: measure.as_secs_f64(),
        calls_per_sec: 0.0,
        p50_ms: 0.0,
        p90_ms: 0.0,
        p99_ms: 0.0,
        max_ms: 0.0,
        cpu_s_per_1k_calls: None,
        server_cores: None,
        client_cpu_s_per_1k_calls: None,
        peak_rss_kib: None,
        first_error: None,
    };
    let log = log_dir.join(format!("{}-{sessions}.log", spec.key));
    let mut server = match spec.start(&log, sessions).await {
        Ok(s) => s,
        Err(e) => {
            point.first_error = Some(e);
            return point;
        }
    };
    let http = match session::http_client() {
        Ok(h) => h,
        Err(e) => {
            point.first_error = Some(e);
            server.stop().await;
            return point;
        }
    };
    let opened = open_sessions(&http, &server.mcp_url(), sessions, spec.revision).await;
    let list = match opened {
        Ok(list) => list,
        Err(e) => {
            point.first_error = Some(format!("opening sessions: {e}"));
            server.stop().await;
            return point;
        }
    };
    let list: Vec<Arc<Session>> = list.into_iter().map(Arc::new).collect();
    let measure_from = Instant::now() + warmup;
    let end = measure_from + measure;
    let tasks: Vec<_> = list
        .iter()
        .map(|s| tokio::spawn(drive(s.clone(), measure_from, end)))
        .collect();
    let pid = server.pid;
    tokio::time::sleep_until(measure_from).await;
    let me = std::process::id();
    let cpu_start = procstat::cpu_seconds(pid);
    let own_start = procstat::cpu_seconds(me);
    tokio::time::sleep_until(end).await;
    let cpu_end = procstat::cpu_seconds(pid);
    let own_end = procstat::cpu_seconds(me);
    let mut histogram = new_histogram();
    for task in tasks {
        match task.await {
            Ok(tally) => {
                let _ = histogram.add(&tally.histogram);
                point.calls += tally.calls;
                point.errors += tally.errors;
                if point.first_error.is_none() {
                    point.first_error = tally.first_error;
                }
            }
            Err(e) => {
                point.errors += 1;
                point
                    .first_error
                    .get_or_insert(format!("session task failed: {e}"));
            }
        }
    }
    point.peak_rss_kib = procstat::status_kib(pid, "VmHWM").ok();
    if !server.is_running() {
        point
            .first_error
            .get_or_insert(format!("the server exited; see {}", log.display()));
    }
    let secs = measure.as_secs_f64();
    point.calls_per_sec = point.calls as f64 / secs;
    if let (Ok(a), Ok(b)) = (cpu_start, cpu_end) {
        let cpu = (b - a).max(0.0);
        point.server_cores = Some(cpu / secs);
        if point.calls > 0 {
            point.cpu_s_per_1k_calls = Some(cpu * 1000.0 / point.calls as f64);
        }
    }
    if let (Ok(a), Ok(b), true) = (own_start, own_end, point.calls > 0) {
        point.client_cpu_s_per_1k_calls = Some((b - a).max(0.0) * 1000.0 / point.calls as f64);
    }
    if point.calls > 0 {
        let ms = |q: f64| histogram.value_at_quantile(q) as f64 / 1000.0;
        point.p50_ms = ms(0.50);
        point.p90_ms = ms(0.90);
        point.p99_ms = ms(0.99);
        point.max_ms = histogram.max() as f64 / 1000.0;
    }
    let closing = list
        .into_iter()
        .filter_map(|s| Arc::try_unwrap(s).ok())
        .map(Session::close);
    let _ = tokio::time::timeout(Duration::from_secs(10), futures::future::join_all(closing)).await;
    server.stop().await;
    point
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer() -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("username".into(), Value::from("user3"));
        m.insert("email".into(), Value::from("user3@example.com"));
        m
    }

    #[test]
    fn an_accepted_result_with_this_sessions_answer_passes_in_any_key_order() {
        let text = r#"User response: action=accept, content={"email":"user3@example.com","username":"user3"}"#;
        assert_eq!(check_text(text, &answer()), Ok(()));
        let spaced = r#"User response: action=accept, content={"username": "user3", "email": "user3@example.com"}"#;
        assert_eq!(check_text(spaced, &answer()), Ok(()));
    }

    #[test]
    fn wrong_or_missing_answers_fail() {
        for text in [
            r#"User response: action=accept, content={"username":"user4","email":"user3@example.com"}"#,
            r#"User response: action=accept, content={"username":"user3"}"#,
            r#"User response: action=accept, content={"username":"user3","email":"user3@example.com","x":1}"#,
            "User response: action=decline",
            "User response: action=cancel",
            "User response: action=accept, content=not json",
            "",
        ] {
            assert!(check_text(text, &answer()).is_err(), "{text}");
        }
    }
}
