//! Messages the server refused before reading them, sent again.
//!
//! A client's one-way messages get no JSON-RPC answer: its replies to server requests (the
//! user's answer to `elicitation/create`, a sampling result, an error) and its
//! notifications (`notifications/initialized`, `notifications/cancelled`, ...), each in a
//! POST of its own. A busy server may refuse such a POST before reading it: `503` (a
//! connection cap: `mcp-elicit serve` answers one connection too many with `503` and
//! `Retry-After: 1` and closes it), `429` with `Retry-After`, or a connection refused or
//! closed before the answer was read (the cap's `503` is written as the connection is
//! accepted, and the close can reach the client before the response does). rmcp's client
//! reports such a refusal to nobody, so the server waited for ever: for an answer the user
//! had given, or, when `notifications/initialized` was refused, before serving the
//! session at all. A refused message was never read, so sending it again cannot deliver
//! it twice; one that did arrive twice (a connection that broke after the server read it)
//! is harmless: a reply to a request no longer pending is ignored, and every client
//! notification may be repeated (initialized, cancelled, progress, roots changed).
//! Requests are not retried here: their callers get the error.
//!
//! At most [`MAX_RETRIES`] more attempts, each after the server's `Retry-After` (seconds,
//! between [`MIN_PAUSE`] and [`MAX_PAUSE`]) or, without one, 250 ms doubled each time, and
//! no more than [`BUDGET`] of waiting in all.

use std::time::Duration;

use http::{HeaderMap, StatusCode};
use rmcp::model::ClientJsonRpcMessage;

/// Attempts after the first.
pub(crate) const MAX_RETRIES: u32 = 4;
/// The shortest pause, whatever `Retry-After` says (`0` included).
pub(crate) const MIN_PAUSE: Duration = Duration::from_millis(100);
/// The longest single pause; a longer `Retry-After` is shortened to this.
pub(crate) const MAX_PAUSE: Duration = Duration::from_secs(10);
/// The most time spent waiting for one reply's retries.
pub(crate) const BUDGET: Duration = Duration::from_secs(30);
/// The first pause when the server gave no `Retry-After`.
const FIRST_BACKOFF: Duration = Duration::from_millis(250);

/// Whether `message` is one-way (a reply to the server or a notification): nobody hears of
/// its refusal unless the transport does.
pub(crate) fn is_one_way(message: &ClientJsonRpcMessage) -> bool {
    !matches!(message, ClientJsonRpcMessage::Request(_))
}

/// `Some` when `status` refuses the request before reading it (`503`, `429`), with the
/// pause `Retry-After` asks for (delta-seconds; an HTTP date or anything else: none).
pub(crate) fn pause_for(status: StatusCode, headers: &HeaderMap) -> Option<Option<Duration>> {
    if status != StatusCode::SERVICE_UNAVAILABLE && status != StatusCode::TOO_MANY_REQUESTS {
        return None;
    }
    let asked = headers
        .get(http::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(Duration::from_secs);
    Some(asked)
}

/// The retries of one reply so far.
#[derive(Debug, Default)]
pub(crate) struct Retries {
    done: u32,
    waited: Duration,
}

impl Retries {
    /// The pause before the next attempt after a refusal (`asked`: the server's
    /// `Retry-After`), or `None` when the reply should be given up.
    pub(crate) fn next(&mut self, asked: Option<Duration>) -> Option<Duration> {
        if self.done >= MAX_RETRIES {
            return None;
        }
        let pause = match asked {
            Some(asked) => asked.clamp(MIN_PAUSE, MAX_PAUSE),
            None => FIRST_BACKOFF.saturating_mul(1 << self.done).min(MAX_PAUSE),
        };
        if self.waited + pause > BUDGET {
            return None;
        }
        self.done += 1;
        self.waited += pause;
        Some(pause)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;
    use rmcp::model::{ClientJsonRpcMessage, ClientResult, ErrorData, NumberOrString, RequestId};

    fn headers(retry_after: Option<&'static str>) -> HeaderMap {
        let mut h = HeaderMap::new();
        if let Some(v) = retry_after {
            h.insert(http::header::RETRY_AFTER, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn only_refusals_before_reading_are_retried() {
        assert_eq!(
            pause_for(StatusCode::SERVICE_UNAVAILABLE, &headers(Some("1"))),
            Some(Some(Duration::from_secs(1)))
        );
        assert_eq!(
            pause_for(StatusCode::TOO_MANY_REQUESTS, &headers(Some(" 7 "))),
            Some(Some(Duration::from_secs(7)))
        );
        // A date, or nonsense: refused, with no pause asked.
        for odd in ["Wed, 21 Oct 2026 07:28:00 GMT", "-1", "soon", "1.5"] {
            assert_eq!(
                pause_for(StatusCode::SERVICE_UNAVAILABLE, &headers(Some(odd))),
                Some(None),
                "{odd}"
            );
        }
        for status in [
            StatusCode::ACCEPTED,
            StatusCode::BAD_REQUEST,
            StatusCode::NOT_FOUND,
            StatusCode::INTERNAL_SERVER_ERROR,
            StatusCode::BAD_GATEWAY,
            StatusCode::PAYLOAD_TOO_LARGE,
        ] {
            assert_eq!(pause_for(status, &headers(Some("1"))), None, "{status}");
        }
    }

    #[test]
    fn retries_follow_retry_after_within_bounds() {
        let mut r = Retries::default();
        assert_eq!(r.next(Some(Duration::ZERO)), Some(MIN_PAUSE));
        assert_eq!(r.next(Some(Duration::from_secs(3600))), Some(MAX_PAUSE));
        assert_eq!(
            r.next(Some(Duration::from_secs(2))),
            Some(Duration::from_secs(2))
        );
        assert_eq!(
            r.next(Some(Duration::from_secs(2))),
            Some(Duration::from_secs(2))
        );
        assert_eq!(
            r.next(Some(Duration::from_secs(1))),
            None,
            "four retries at most"
        );
    }

    #[test]
    fn without_retry_after_the_pause_doubles_and_the_budget_holds() {
        let mut r = Retries::default();
        let pauses: Vec<_> = std::iter::from_fn(|| r.next(None)).collect();
        assert_eq!(
            pauses,
            [250, 500, 1000, 2000].map(Duration::from_millis).to_vec()
        );
        // Long pauses stop at the budget, before the count does.
        let mut r = Retries::default();
        let pauses: Vec<_> = std::iter::from_fn(|| r.next(Some(Duration::from_secs(10)))).collect();
        assert_eq!(pauses.len(), 3);
        assert!(pauses.iter().sum::<Duration>() <= BUDGET);
    }

    #[test]
    fn replies_and_notifications_are_one_way_requests_are_not() {
        let id = RequestId::from(NumberOrString::Number(3));
        let response = ClientJsonRpcMessage::response(ClientResult::empty(()), id.clone());
        let error = ClientJsonRpcMessage::error(ErrorData::invalid_params("no", None), Some(id));
        let notification: ClientJsonRpcMessage = serde_json::from_value(
            serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        )
        .unwrap();
        let request: ClientJsonRpcMessage = serde_json::from_value(
            serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
        )
        .unwrap();
        assert!(is_one_way(&response));
        assert!(is_one_way(&error));
        assert!(is_one_way(&notification));
        assert!(!is_one_way(&request));
    }
}
