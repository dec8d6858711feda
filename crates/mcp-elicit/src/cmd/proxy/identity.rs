//! The proxy as an OAuth resource server for its clients (issue 18, item 4), with the
//! same MCP authorization as `mcp-elicit serve --issuer`: with `--issuer`, every request
//! on `/mcp` needs a bearer JWT of that issuer whose audience is the proxy's resource
//! (`--public-url` + `/mcp`, or `--audience`), refused with 401 and a `WWW-Authenticate`
//! naming the protected resource metadata otherwise (served at
//! `/.well-known/oauth-protected-resource/mcp`). The token's user is the session's and
//! the request's user (rate limits, pools, held requests, sessions bound to their user);
//! the token itself is removed before the proxy handles the request, so it never goes
//! upstream. Without `--issuer` every client is the local OS user (loopback only, and
//! only connections of the proxy's own OS user).

use std::net::SocketAddr;
use std::sync::Arc;

use clap::Args;
use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy};
use mcp_elicit_store::{Keyring, Store, VaultKey};
use mcp_elicit_web::{ClientRegistration, Web, WebConfig};
use url::Url;

/// The flags.
#[derive(Debug, Clone, Args)]
pub(crate) struct ClientAuthArgs {
    /// Require bearer tokens of this OpenID issuer from clients (the proxy is then the
    /// resource server `--public-url`/mcp).
    #[arg(long, value_name = "URL")]
    pub(crate) issuer: Option<String>,
    /// The proxy's public base URL (behind a TLS reverse proxy); default
    /// `http://LISTEN`.
    #[arg(long, value_name = "URL")]
    public_url: Option<Url>,
    /// The audience tokens must carry (default: the resource, PUBLIC_URL/mcp).
    #[arg(long, value_name = "AUDIENCE", requires = "issuer")]
    audience: Option<String>,
    /// Scopes advertised in the protected resource metadata (space or comma separated).
    #[arg(long, value_name = "SCOPES", requires = "issuer")]
    scopes_supported: Option<String>,
    /// Scopes every token must carry (403 `insufficient_scope` otherwise).
    #[arg(long, value_name = "SCOPES", requires = "issuer")]
    required_scopes: Option<String>,
}

fn scopes(text: Option<&str>) -> Vec<String> {
    text.unwrap_or_default()
        .split([' ', ','])
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

impl ClientAuthArgs {
    /// The public base URL (with a trailing `/`).
    pub(crate) fn public_url(&self, listening: SocketAddr) -> Result<Url, String> {
        let url = match &self.public_url {
            Some(u) => u.clone(),
            None => Url::parse(&format!("http://{listening}/"))
                .map_err(|e| format!("--listen {listening}: {e}"))?,
        };
        if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
            return Err(format!("--public-url {url}: an http(s) URL with a host"));
        }
        Ok(url)
    }

    /// The web layer's configuration for an issuer.
    fn config(&self, issuer: &str, public_url: &Url) -> WebConfig {
        // The proxy has no sign-in pages: this registration is never used to sign in.
        let mut config = WebConfig::new(
            issuer,
            public_url.clone(),
            ClientRegistration::public("mcp-elicit-proxy"),
        );
        if let Some(audience) = &self.audience {
            config = config.with_audience(audience.clone());
        }
        config.scopes_supported = scopes(self.scopes_supported.as_deref());
        config.required_scopes = scopes(self.required_scopes.as_deref());
        config
    }
}

/// The resource server for `--issuer` (its discovery document and keys fetched now);
/// `None` without one.
pub(crate) async fn resource_server(
    args: &ClientAuthArgs,
    public_url: &Url,
) -> Result<Option<Web>, String> {
    let Some(issuer) = &args.issuer else {
        return Ok(None);
    };
    let config = args.config(issuer, public_url);
    // The web layer keeps browser sessions and secrets for its pages; the proxy serves
    // none, so an in-memory store with a key of this run is all it needs.
    let db = Store::connect("sqlite::memory:")
        .await
        .map_err(|e| format!("cannot set up the resource server: {e}"))?;
    let key =
        VaultKey::generate().map_err(|e| format!("cannot set up the resource server: {e}"))?;
    let store = Arc::new(db.vault(Keyring::new(key)));
    let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::Authenticated));
    Web::new(config, hub, store)
        .await
        .map(Some)
        .map_err(|e| format!("--issuer {issuer}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct T {
        #[command(flatten)]
        a: ClientAuthArgs,
    }

    fn args(a: &[&str]) -> Result<ClientAuthArgs, String> {
        T::try_parse_from(std::iter::once("t").chain(a.iter().copied()))
            .map(|t| t.a)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn the_resource_is_the_public_url_and_its_scopes_are_read() {
        let listening: SocketAddr = "127.0.0.1:8392".parse().expect("addr");
        let a = args(&[]).expect("no flags");
        assert_eq!(
            a.public_url(listening).expect("url").as_str(),
            "http://127.0.0.1:8392/"
        );
        let a = args(&[
            "--issuer",
            "https://auth.example.com",
            "--public-url",
            "https://mcp.example.com",
            "--scopes-supported",
            "mcp, read",
        ])
        .expect("flags");
        let url = a.public_url(listening).expect("url");
        let config = a.config("https://auth.example.com", &url);
        assert_eq!(config.resource(), "https://mcp.example.com/mcp");
        assert_eq!(config.audience, "https://mcp.example.com/mcp");
        assert_eq!(config.scopes_supported, vec!["mcp", "read"]);
        assert!(args(&["--audience", "x"]).is_err(), "needs --issuer");
        let ftp = args(&["--public-url", "ftp://x"]).expect("parsed");
        assert!(ftp.public_url(listening).is_err());
    }
}
