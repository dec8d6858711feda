//! The proxy's own credentials for an authorized upstream (issue 18, item 4): from its
//! configuration, never a client's. A client's token is for the proxy (or for nobody, on
//! loopback) and is never passed on: the proxy's upstream connections are its own HTTP
//! clients and carry only what is configured here.
//!
//! - default: the sign-in kept for the upstream by this OS user (`mcp-elicit connect URL`
//!   or `mcp-elicit call URL TOOL --sign-in` made it), refreshed as needed; the proxy never
//!   opens a browser;
//! - `--upstream-token-file FILE`: the bearer token in FILE, nothing kept;
//! - `--upstream-client-id ID --upstream-client-secret-file FILE --upstream-client-credentials
//!   [--upstream-scope S]`: the OAuth client credentials grant (machine to machine).

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use mcp_elicit_client::ServerTarget;
use mcp_elicit_client::auth::Authorizer;

use crate::cmd::call::auth::{CallAuth, authorizer_with_hint};

/// What the user reads when the upstream needs a sign-in and none is kept.
const HINT: &str = "the upstream needs a sign-in: sign in once as this user with `mcp-elicit \
     connect UPSTREAM` or `mcp-elicit call UPSTREAM TOOL --sign-in` (the sign-in is kept and \
     refreshed), or give the proxy --upstream-token-file FILE or --upstream-client-credentials";

/// The flags.
#[derive(Debug, Clone, Args)]
pub(crate) struct UpstreamAuthArgs {
    /// Send the bearer token in FILE (its first line) to the upstream; nothing kept.
    #[arg(long, value_name = "FILE", conflicts_with = "upstream_client_id")]
    upstream_token_file: Option<PathBuf>,
    /// The proxy's OAuth client id at the upstream's authorization server (a
    /// pre-registered client for the kept sign-in, or with --upstream-client-credentials).
    #[arg(long, value_name = "ID")]
    upstream_client_id: Option<String>,
    /// The file holding that client's secret (first line).
    #[arg(long, value_name = "FILE", requires = "upstream_client_id")]
    upstream_client_secret_file: Option<PathBuf>,
    /// Machine to machine: a token from the client_credentials grant as
    /// --upstream-client-id with --upstream-client-secret-file.
    #[arg(long, requires = "upstream_client_secret_file")]
    upstream_client_credentials: bool,
    /// Scopes to ask for with --upstream-client-credentials (space or comma separated).
    #[arg(long, value_name = "SCOPES", requires = "upstream_client_credentials")]
    upstream_scope: Option<String>,
}

impl UpstreamAuthArgs {
    /// The plain-data reading of the flags (as `call`'s, without a browser).
    pub(crate) fn parse(&self) -> CallAuth {
        CallAuth::from_flags(
            self.upstream_token_file.as_ref(),
            self.upstream_client_id.as_ref(),
            self.upstream_client_secret_file.as_ref(),
            self.upstream_client_credentials
                .then_some(self.upstream_scope.as_deref()),
            None,
        )
    }

    /// Whether any flag was given (a stdio upstream takes none).
    fn given(&self) -> bool {
        self.upstream_token_file.is_some() || self.upstream_client_id.is_some()
    }
}

/// The proxy's authorizer for `target`: `None` for a stdio upstream (which takes no
/// authorization) and for an HTTP upstream that asks for none (a kept sign-in is looked
/// up only when the upstream answers 401).
pub(crate) async fn upstream_authorizer(
    target: &ServerTarget,
    args: &UpstreamAuthArgs,
) -> Result<Option<Arc<Authorizer>>, String> {
    if matches!(target, ServerTarget::Stdio { .. }) {
        if args.given() {
            return Err(
                "the --upstream-token-file and --upstream-client-* flags apply to http(s) \
                 upstreams only"
                    .into(),
            );
        }
        return Ok(None);
    }
    authorizer_with_hint(target, args.parse(), HINT).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct T {
        #[command(flatten)]
        a: UpstreamAuthArgs,
    }

    fn parse(args: &[&str]) -> Result<CallAuth, String> {
        T::try_parse_from(std::iter::once("t").chain(args.iter().copied()))
            .map(|t| t.a.parse())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn flags_to_plain_data() {
        assert_eq!(
            parse(&[]),
            Ok(CallAuth::Kept {
                browser: None,
                client: None
            })
        );
        assert_eq!(
            parse(&["--upstream-token-file", "t"]),
            Ok(CallAuth::TokenFile("t".into()))
        );
        assert_eq!(
            parse(&[
                "--upstream-client-id",
                "proxy",
                "--upstream-client-secret-file",
                "s",
                "--upstream-client-credentials",
                "--upstream-scope",
                "mcp read"
            ]),
            Ok(CallAuth::Machine {
                client_id: "proxy".into(),
                secret_file: "s".into(),
                scopes: vec!["mcp".into(), "read".into()],
            })
        );
        assert!(parse(&["--upstream-client-credentials"]).is_err());
        assert!(parse(&["--upstream-token-file", "t", "--upstream-client-id", "c"]).is_err());
    }

    #[tokio::test]
    async fn a_stdio_upstream_takes_no_credentials() {
        let stdio: ServerTarget = "stdio:true".parse().expect("target");
        let none = T::try_parse_from(["t"]).expect("flags").a;
        assert!(
            upstream_authorizer(&stdio, &none)
                .await
                .expect("ok")
                .is_none()
        );
        let token = T::try_parse_from(["t", "--upstream-token-file", "t"])
            .expect("flags")
            .a;
        let e = upstream_authorizer(&stdio, &token)
            .await
            .expect_err("refused");
        assert!(e.contains("http(s) upstreams only"), "{e}");
    }
}
