//! Logging of `mcp-elicit serve`: to stderr, `warn` for dependencies and `info` for our
//! crates unless `RUST_LOG` says otherwise, colours only on a terminal.
//!
//! At `info`, our crates log start-up, sweeps and undelivered notifications (ids and
//! error texts only): no form content, URL, message or secret. rmcp logs every request
//! (client capabilities included) at `info`, hence `warn` for it by default.
//!
//! Whatever the level, nothing sensitive is written ([`redact`]): rmcp's message
//! payloads are redacted field by field, and every line is scrubbed of URL queries,
//! ids, secrets and tokens before it reaches stderr.

mod redact;

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

/// The filter when `RUST_LOG` is unset or invalid.
pub(crate) const DEFAULT_FILTER: &str = "warn,mcp_elicit=info";

/// The filter for a `RUST_LOG` value.
pub(crate) fn filter(rust_log: Option<&str>) -> EnvFilter {
    rust_log
        .filter(|v| !v.trim().is_empty())
        .and_then(|v| EnvFilter::try_new(v).ok())
        .unwrap_or_else(|| EnvFilter::new(DEFAULT_FILTER))
}

/// Installs the subscriber (once; later calls do nothing).
pub(crate) fn init() {
    let rust_log = std::env::var("RUST_LOG").ok();
    let _ = tracing_subscriber::fmt()
        .with_writer(redact::Scrubbing(std::io::stderr))
        .with_ansi(std::io::stderr().is_terminal())
        .event_format(redact::RedactingFormat::new())
        .with_env_filter(filter(rust_log.as_deref()))
        .try_init();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rmcp_info_is_off_and_ours_is_on_by_default_and_rust_log_wins() {
        let default = filter(None).to_string();
        assert!(default.contains("mcp_elicit=info"), "{default}");
        assert!(default.contains("warn"), "{default}");
        assert_eq!(filter(Some("  ")).to_string(), default);
        assert_eq!(filter(Some("rmcp=debug")).to_string(), "rmcp=debug");
    }
}
