//! SSE event ids of the lean session layer, in rmcp's format so a client resuming
//! with `Last-Event-ID` sees the same shape whichever layer serves it: `INDEX` on the
//! standalone GET stream, `INDEX/STREAM` on the stream of one POSTed request.
//!
//! Index 0 is the priming event of a stream (an event with an id and a `retry` but no
//! message, SEP-1699); the first message of a stream has index 1. Resuming after index
//! `n` replays the events with an index above `n`.

use std::fmt;

/// Which stream an event belongs to, and its place in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum EventId {
    /// The standalone stream (`GET /mcp`).
    Common { index: u64 },
    /// The stream of the POSTed request numbered `stream` in its session.
    Request { stream: u64, index: u64 },
}

impl EventId {
    /// Parses a `Last-Event-ID` value; None when it is not one of ours.
    pub(super) fn parse(s: &str) -> Option<EventId> {
        let number = |t: &str| {
            (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse::<u64>().ok())
                .flatten()
        };
        match s.split_once('/') {
            Some((index, stream)) => Some(EventId::Request {
                stream: number(stream)?,
                index: number(index)?,
            }),
            None => Some(EventId::Common { index: number(s)? }),
        }
    }
}

impl fmt::Display for EventId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EventId::Common { index } => write!(f, "{index}"),
            EventId::Request { stream, index } => write!(f, "{index}/{stream}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_foreign_ones_are_refused() {
        for id in [
            EventId::Common { index: 0 },
            EventId::Common { index: 17 },
            EventId::Request {
                stream: 3,
                index: 2,
            },
        ] {
            assert_eq!(EventId::parse(&id.to_string()), Some(id));
        }
        assert_eq!(
            EventId::parse("4/9"),
            Some(EventId::Request {
                stream: 9,
                index: 4
            })
        );
        for bad in ["", "/", "1/", "/2", "a", "1/b", "-1", "1/2/3", "+1", " 1"] {
            assert_eq!(EventId::parse(bad), None, "{bad:?}");
        }
        assert_eq!(EventId::parse("99999999999999999999999"), None);
    }
}
