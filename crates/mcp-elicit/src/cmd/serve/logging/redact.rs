//! What keeps capability URLs, ids, secrets and tokens out of the log, at every level.
//!
//! Two layers, because either alone has a gap:
//!
//! - [`RedactingFormat`] formats the events of rmcp (which logs whole messages: every
//!   error response at WARN, requests and results at DEBUG, every message at TRACE) with
//!   only the fields known to carry no payload (`message`, `id`, `reason`, ...); every
//!   other field is written as `<redacted>`. Form answers, elicitation requests, `-32042`
//!   data and client capabilities therefore never reach the log, whatever `RUST_LOG`
//!   says. Every other crate's events are formatted as usual.
//! - [`scrub`] rewrites every formatted line before it is written, whatever crate it
//!   comes from: URL queries, the values of parameters named like ids, codes, states or
//!   secrets, UUIDs (elicitation and MCP session ids), JWTs and bearer tokens. Ids become
//!   a short fingerprint (`#1a2b3c4d`, a hash: the same id gives the same fingerprint, so
//!   lines can still be correlated, but the id cannot be recovered from it).

use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::io;
use std::sync::LazyLock;

use regex::{Captures, Regex};
use tracing::field::{Field, Visit};
use tracing::{Event, Subscriber};
use tracing_subscriber::fmt::format::{self, FormatEvent, FormatFields, Writer};
use tracing_subscriber::fmt::time::{FormatTime, SystemTime};
use tracing_subscriber::fmt::{FmtContext, FormattedFields, MakeWriter};
use tracing_subscriber::registry::LookupSpan;

/// Fields of rmcp events that carry no message content, written as they are (and still
/// scrubbed); every other field of an rmcp event is `<redacted>`.
const RMCP_PLAIN_FIELDS: &[&str] = &[
    "message",
    "id",
    "request_id",
    "http_request_id",
    "reason",
    "quit_reason",
    "stream_id",
    "session_id",
    "event_id",
    "host",
    "allowed_origin",
    "name",
];

/// The event format: rmcp's events with their payload fields redacted, the others as
/// `tracing_subscriber`'s default format writes them.
pub(crate) struct RedactingFormat {
    inner: format::Format,
}

impl RedactingFormat {
    pub(crate) fn new() -> RedactingFormat {
        RedactingFormat {
            inner: format::Format::default(),
        }
    }
}

/// Whether `target` is one of rmcp's modules.
fn is_rmcp(target: &str) -> bool {
    target == "rmcp" || target.starts_with("rmcp::")
}

impl<S, N> FormatEvent<S, N> for RedactingFormat
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> std::fmt::Result {
        let meta = event.metadata();
        if !is_rmcp(meta.target()) {
            return self.inner.format_event(ctx, writer, event);
        }
        SystemTime.format_time(&mut writer)?;
        write!(writer, " {:>5} ", meta.level())?;
        if let Some(scope) = ctx.event_scope() {
            for span in scope.from_root() {
                write!(writer, "{}", span.name())?;
                let ext = span.extensions();
                if let Some(fields) = ext.get::<FormattedFields<N>>()
                    && !fields.is_empty()
                {
                    write!(writer, "{{{fields}}}")?;
                }
                writer.write_char(':')?;
            }
            writer.write_char(' ')?;
        }
        write!(writer, "{}: ", meta.target())?;
        let mut visitor = PlainFields { out: String::new() };
        event.record(&mut visitor);
        writeln!(writer, "{}", visitor.out.trim_start())
    }
}

/// Writes the plain fields of an rmcp event and `<redacted>` for the others.
struct PlainFields {
    out: String,
}

impl Visit for PlainFields {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let name = field.name();
        let plain = RMCP_PLAIN_FIELDS.contains(&name);
        let _ = match (name, plain) {
            ("message", _) => write!(self.out, " {value:?}"),
            (_, true) => write!(self.out, " {name}={value:?}"),
            (_, false) => write!(self.out, " {name}=<redacted>"),
        };
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            let _ = write!(self.out, " {value}");
        } else {
            self.record_debug(field, &value);
        }
    }
}

/// A short, stable fingerprint of a sensitive value (it cannot be turned back).
fn fingerprint(value: &str) -> String {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    value.hash(&mut h);
    format!("#{:08x}", h.finish() as u32)
}

/// UUIDs (rmcp's session ids) and 128 bits or more in hex (elicitation ids).
static UUID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32,})\b",
    )
    .expect("id pattern")
});
static URL_QUERY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)\b(https?://[^\s"'<>?#]*)\?[^\s"'<>#]*"#).expect("URL query pattern")
});
static SENSITIVE_PARAM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)\b(elicitation_?id|session_?id|mcp-session-id|csrf|state|code|code_verifier|nonce|(?:access_|refresh_|id_)?token|client_secret|secret|password|api_?key|authorization|cookie)(="?|"?\s*:\s*")([^&\s"',;)}]+)"#,
    )
    .expect("parameter pattern")
});
static JWT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*").expect("JWT pattern")
});
static BEARER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}").expect("bearer pattern")
});

/// `line` with every capability URL query, id, secret and token replaced.
pub(crate) fn scrub(line: &str) -> String {
    let line = URL_QUERY.replace_all(line, "$1?<query redacted>");
    let line = JWT.replace_all(&line, "<jwt redacted>");
    let line = BEARER.replace_all(&line, "$1 <redacted>");
    let line = SENSITIVE_PARAM.replace_all(&line, |c: &Captures<'_>| {
        format!("{}{}{}", &c[1], &c[2], fingerprint(&c[3]))
    });
    UUID.replace_all(&line, |c: &Captures<'_>| fingerprint(&c[0]))
        .into_owned()
}

/// A [`MakeWriter`] whose writers [`scrub`] what they are given. The fmt layer formats
/// each event into one buffer and writes it at once, so each write is whole lines.
pub(crate) struct Scrubbing<M>(pub(crate) M);

impl<'a, M: MakeWriter<'a>> MakeWriter<'a> for Scrubbing<M> {
    type Writer = ScrubWriter<M::Writer>;

    fn make_writer(&'a self) -> Self::Writer {
        ScrubWriter(self.0.make_writer())
    }
}

/// See [`Scrubbing`].
pub(crate) struct ScrubWriter<W>(W);

impl<W: io::Write> io::Write for ScrubWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        self.0.write_all(scrub(&text).as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capability_urls_ids_and_tokens_are_scrubbed_and_fingerprints_are_stable() {
        let id = "550e8400-e29b-41d4-a716-446655440000";
        let hex = "1a7acfb763eacba9b40ef5f798ea37c4";
        assert!(!scrub(&format!("done elicitation_id=\"{hex}\"")).contains(hex));
        assert!(!scrub(&format!("done {hex}.")).contains(hex));
        let line = format!(
            "WARN x: url=http://127.0.0.1:8391/connect?elicitationId={id} elicitation_id={id} \
             Authorization: Bearer abcdefgh12345678 \"access_token\":\"tok-1234\" state=xyz \
             jwt eyJhbGciOi.eyJzdWIiOi.c2ln /connect?elicitationId=short"
        );
        let out = scrub(&line);
        for leaked in [
            id,
            "abcdefgh12345678",
            "tok-1234",
            "xyz",
            "eyJhbGciOi",
            "short",
        ] {
            assert!(!out.contains(leaked), "{leaked} in {out}");
        }
        assert!(
            out.contains("http://127.0.0.1:8391/connect?<query redacted>"),
            "{out}"
        );
        assert_eq!(scrub(id), scrub(id));
        assert!(scrub(id).starts_with('#'));
        // Ordinary lines are left alone.
        let plain = "INFO mcp_elicit: swept pending elicitations removed=3";
        assert_eq!(scrub(plain), plain);
    }
}
