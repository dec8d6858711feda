//! `call`'s authorization options: parsed into plain data ([`CallAuth`]) first, then
//! turned into the client library's [`Authorizer`] for an HTTP server.
//!
//! By default `call` uses the sign-in kept for the server (`connect` or `call --sign-in`
//! made it) and refreshes it; it never opens a browser unless `--sign-in` is given.
//! `--token-file FILE` sends the bearer token in FILE and keeps nothing;
//! `--client-id ID --client-secret-file F --client-credentials` signs in as a machine
//! (OAuth client_credentials grant), no browser, nothing kept.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use mcp_elicit_client::ServerTarget;
use mcp_elicit_client::auth::{AuthConfig, Authorizer, TokenStore};
use mcp_elicit_tui::host::BrowserChoice;
use secrecy::SecretString;
use zeroize::Zeroizing;

use crate::auth::machine::client_credentials_token;
use crate::auth::store::TokenFileStore;
use crate::auth::tokens::{FileTokens, FixedToken};
use crate::auth::ui::CallSignIn;

/// The flags.
#[derive(Debug, Args)]
pub(crate) struct CallAuthArgs {
    /// Sign in in a browser if the server requires it and no kept sign-in works (the
    /// sign-in is kept for later runs). Without it, `call` never opens a browser.
    #[arg(long, conflicts_with_all = ["token_file", "client_credentials"])]
    pub(crate) sign_in: bool,
    /// The browser `--sign-in` starts: `system`, `none` (print the page to open), or a
    /// program run with the URL as its one argument.
    #[arg(long, value_name = "system|none|PROGRAM", default_value = "system")]
    pub(crate) browser: String,
    /// Send the bearer token in FILE (its first line); no sign-in, nothing kept.
    #[arg(long, value_name = "FILE", conflicts_with = "client_id")]
    pub(crate) token_file: Option<PathBuf>,
    /// A pre-registered OAuth client id (for `--sign-in`, or with `--client-credentials`).
    #[arg(long, value_name = "ID")]
    pub(crate) client_id: Option<String>,
    /// The file holding that client's secret (first line).
    #[arg(long, value_name = "FILE", requires = "client_id")]
    pub(crate) client_secret_file: Option<PathBuf>,
    /// Machine to machine: get a token with the client_credentials grant as
    /// `--client-id` with `--client-secret-file`.
    #[arg(long, requires = "client_secret_file")]
    pub(crate) client_credentials: bool,
    /// Scopes to ask for with `--client-credentials` (space or comma separated).
    #[arg(long, value_name = "SCOPES", requires = "client_credentials")]
    pub(crate) scope: Option<String>,
}

/// What the flags ask for, as plain data.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum CallAuth {
    /// Kept sign-ins; a browser sign-in only when `browser` is set.
    Kept {
        browser: Option<BrowserChoice>,
        client: Option<(String, Option<PathBuf>)>,
    },
    /// `--token-file`.
    TokenFile(PathBuf),
    /// `--client-credentials`.
    Machine {
        client_id: String,
        secret_file: PathBuf,
        scopes: Vec<String>,
    },
}

impl CallAuthArgs {
    /// The plain-data reading of the flags.
    pub(crate) fn parse(&self) -> CallAuth {
        CallAuth::from_flags(
            self.token_file.as_ref(),
            self.client_id.as_ref(),
            self.client_secret_file.as_ref(),
            self.client_credentials.then_some(self.scope.as_deref()),
            self.sign_in.then(|| BrowserChoice::parse(&self.browser)),
        )
    }
}

impl CallAuth {
    /// What a set of authorization flags asks for (`call`'s, or the proxy's upstream
    /// ones): a token file first; the client credentials grant when `machine` is given
    /// (its scopes, space or comma separated) with a client id and secret file; else kept
    /// sign-ins, signing in with `browser` if given.
    pub(crate) fn from_flags(
        token_file: Option<&PathBuf>,
        client_id: Option<&String>,
        client_secret_file: Option<&PathBuf>,
        machine: Option<Option<&str>>,
        browser: Option<BrowserChoice>,
    ) -> CallAuth {
        if let Some(f) = token_file {
            return CallAuth::TokenFile(f.clone());
        }
        match (client_id, client_secret_file, machine) {
            (Some(id), Some(f), Some(scope)) => CallAuth::Machine {
                client_id: id.clone(),
                secret_file: f.clone(),
                scopes: scope
                    .unwrap_or_default()
                    .split([' ', ','])
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect(),
            },
            _ => CallAuth::Kept {
                browser,
                client: client_id.map(|id| (id.clone(), client_secret_file.cloned())),
            },
        }
    }
}

fn read_secret(path: &std::path::Path) -> Result<SecretString, String> {
    let text = Zeroizing::new(
        std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the secret file {}: {e}", path.display()))?,
    );
    let line = text.lines().next().unwrap_or_default().trim();
    if line.is_empty() {
        return Err(format!("the secret file {} is empty", path.display()));
    }
    Ok(SecretString::from(line.to_owned()))
}

/// What `call` tells the user when the server needs a sign-in it has not got.
const CALL_SIGN_IN_HINT: &str = "run again with --sign-in to sign in in a browser (the sign-in \
     is kept for later runs), or give --token-file FILE or --client-credentials";

/// The authorizer for `target` (HTTP servers only: stdio servers take no authorization).
pub(crate) async fn authorizer(
    target: &ServerTarget,
    auth: CallAuth,
) -> Result<Option<Arc<Authorizer>>, String> {
    authorizer_with_hint(target, auth, CALL_SIGN_IN_HINT).await
}

/// [`authorizer`], telling the user `hint` when a kept sign-in is needed and missing.
pub(crate) async fn authorizer_with_hint(
    target: &ServerTarget,
    auth: CallAuth,
    hint: &str,
) -> Result<Option<Arc<Authorizer>>, String> {
    let ServerTarget::Http { url } = target else {
        return match auth {
            CallAuth::Kept {
                browser: None,
                client: None,
            } => Ok(None),
            _ => Err("authorization options apply to http(s) servers only".into()),
        };
    };
    let url = url.to_string();
    let (store, ui, config): (Arc<dyn TokenStore>, CallSignIn, AuthConfig) = match auth {
        CallAuth::TokenFile(path) => (
            Arc::new(FixedToken::read(&path)?),
            CallSignIn::refuse(format!(
                "the server refused the token in {}",
                path.display()
            )),
            AuthConfig::new("mcp-elicit"),
        ),
        CallAuth::Machine {
            client_id,
            secret_file,
            scopes,
        } => {
            let secret = read_secret(&secret_file)?;
            let token = client_credentials_token(&url, &client_id, &secret, scopes).await?;
            (
                Arc::new(FixedToken::new(token)),
                CallSignIn::refuse(format!(
                    "the server refused the client credentials token of {client_id}"
                )),
                AuthConfig::new("mcp-elicit"),
            )
        }
        CallAuth::Kept { browser, client } => {
            let files = TokenFileStore::default_location().map_err(|e| e.to_string())?;
            let ui = match browser {
                Some(b) => CallSignIn::browser(b),
                None => CallSignIn::refuse(hint),
            };
            let mut config = AuthConfig::new("mcp-elicit");
            if let Some((id, secret_file)) = client {
                let secret = match secret_file {
                    Some(f) => {
                        Some(secrecy::ExposeSecret::expose_secret(&read_secret(&f)?).to_owned())
                    }
                    None => None,
                };
                config = config.with_preregistered(id, secret);
            }
            (Arc::new(FileTokens::new(files)), ui, config)
        }
    };
    Authorizer::new(&url, config, store, Arc::new(ui))
        .map(|a| Some(Arc::new(a)))
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct T {
        #[command(flatten)]
        a: CallAuthArgs,
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
            parse(&["--sign-in", "--browser", "none"]),
            Ok(CallAuth::Kept {
                browser: Some(BrowserChoice::None),
                client: None
            })
        );
        assert_eq!(
            parse(&["--token-file", "t"]),
            Ok(CallAuth::TokenFile("t".into()))
        );
        assert_eq!(
            parse(&[
                "--client-id",
                "c",
                "--client-secret-file",
                "s",
                "--client-credentials",
                "--scope",
                "mcp, read"
            ]),
            Ok(CallAuth::Machine {
                client_id: "c".into(),
                secret_file: "s".into(),
                scopes: vec!["mcp".into(), "read".into()]
            })
        );
        // Contradictions are refused before anything runs.
        assert!(parse(&["--sign-in", "--token-file", "t"]).is_err());
        assert!(parse(&["--client-credentials", "--client-id", "c"]).is_err());
        assert!(parse(&["--client-secret-file", "s"]).is_err());
    }

    #[tokio::test]
    async fn stdio_servers_take_no_authorization_options() {
        let target: ServerTarget = "stdio:true".parse().expect("target");
        assert!(
            authorizer(
                &target,
                CallAuth::Kept {
                    browser: None,
                    client: None
                }
            )
            .await
            .expect("none")
            .is_none()
        );
        assert!(
            authorizer(&target, CallAuth::TokenFile("t".into()))
                .await
                .is_err()
        );
    }
}
