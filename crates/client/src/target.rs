//! Which server to connect to: [`ServerTarget`].
//!
//! Written forms (used by `mcp-elicit call`):
//! - `http://HOST[:PORT]/PATH` or `https://...`: a Streamable HTTP endpoint;
//! - `stdio:PROGRAM ARGS...`: a child process over stdio. The rest of the string is split
//!   into words with POSIX shell quoting rules (`stdio:python3 -m "my server"`), but no
//!   shell runs: no variables, globs, pipes or redirections.

use std::fmt;
use std::str::FromStr;

/// A server to connect to, parsed from its written form.
///
/// ```
/// use mcp_elicit_client::target::ServerTarget;
///
/// let stdio: ServerTarget = "stdio:python3 -m 'my server' --verbose".parse()?;
/// assert_eq!(
///     stdio,
///     ServerTarget::Stdio {
///         command: vec!["python3".into(), "-m".into(), "my server".into(), "--verbose".into()]
///     }
/// );
/// // No shell runs: `$HOME` stays as written.
/// let plain: ServerTarget = "stdio:server $HOME".parse()?;
/// assert_eq!(plain.to_string(), "stdio:server '$HOME'");
///
/// let http: ServerTarget = "http://127.0.0.1:8080/mcp".parse()?;
/// assert!(matches!(http, ServerTarget::Http { .. }));
///
/// let err = "ftp://example.com/".parse::<ServerTarget>().unwrap_err();
/// assert!(err.to_string().contains("unsupported scheme"));
/// # Ok::<(), mcp_elicit_client::target::TargetError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerTarget {
    /// A child process over stdio.
    Stdio {
        /// Program and arguments.
        command: Vec<String>,
    },
    /// A Streamable HTTP endpoint.
    Http {
        /// The endpoint URL.
        url: url::Url,
    },
}

/// Why a target string was not understood: one sentence, showing the input, saying what
/// would be accepted.
///
/// ```
/// use mcp_elicit_client::ServerTarget;
///
/// let reason = |s: &str| s.parse::<ServerTarget>().unwrap_err().to_string();
/// assert_eq!(reason("stdio:"), "stdio: needs a command, e.g. stdio:python3 server.py");
/// assert_eq!(reason("stdio:python3 'server.py"), "unbalanced quotes in \"stdio:python3 'server.py\"");
/// assert!(reason("server.py").starts_with("\"server.py\" is neither an http(s) URL nor stdio:COMMAND"));
/// assert_eq!(
///     reason("ws://localhost:9000/mcp"),
///     "unsupported scheme \"ws\": use http(s)://... or stdio:COMMAND"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct TargetError(String);

impl FromStr for ServerTarget {
    type Err = TargetError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Some(rest) = s.strip_prefix("stdio:") {
            let words = shlex::split(rest)
                .ok_or_else(|| TargetError(format!("unbalanced quotes in {s:?}")))?;
            if words.is_empty() {
                return Err(TargetError(
                    "stdio: needs a command, e.g. stdio:python3 server.py".into(),
                ));
            }
            return Ok(Self::Stdio { command: words });
        }
        let url = url::Url::parse(s).map_err(|e| {
            TargetError(format!(
                "{s:?} is neither an http(s) URL nor stdio:COMMAND ({e})"
            ))
        })?;
        match url.scheme() {
            "http" | "https" => Ok(Self::Http { url }),
            other => Err(TargetError(format!(
                "unsupported scheme {other:?}: use http(s)://... or stdio:COMMAND"
            ))),
        }
    }
}

impl fmt::Display for ServerTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Stdio { command } => {
                let joined = shlex::try_join(command.iter().map(String::as_str))
                    .unwrap_or_else(|_| command.join(" "));
                write!(f, "stdio:{joined}")
            }
            Self::Http { url } => write!(f, "{url}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_forms() {
        let t: ServerTarget = "stdio:python3 -m 'my server' --x"
            .parse()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            t,
            ServerTarget::Stdio {
                command: vec![
                    "python3".into(),
                    "-m".into(),
                    "my server".into(),
                    "--x".into()
                ]
            }
        );
        let h: ServerTarget = "http://127.0.0.1:8080/mcp"
            .parse()
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(h, ServerTarget::Http { .. }));
        assert!("ftp://x".parse::<ServerTarget>().is_err());
        assert!("stdio:".parse::<ServerTarget>().is_err());
        assert!("stdio:'unbalanced".parse::<ServerTarget>().is_err());
        assert!("server.py".parse::<ServerTarget>().is_err());
    }
}
