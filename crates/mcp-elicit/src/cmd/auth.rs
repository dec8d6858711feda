//! `mcp-elicit auth list` and `mcp-elicit auth logout SERVER`: the sign-ins kept between
//! runs ([`crate::auth::store`]). Neither ever prints a token.
//!
//! ```text
//! mcp-elicit auth list [--json]
//! mcp-elicit auth logout SERVER [--issuer URL]
//! mcp-elicit auth logout --all
//! ```
//!
//! Exit status: 0 on success; 1 when `logout` found nothing to remove; 2 when the store
//! cannot be read or written.

use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use clap::{Args, Subcommand};
use serde_json::json;

use crate::auth::store::{EntryInfo, EntryKey, TokenFileStore, canonical_resource};

/// `mcp-elicit auth`.
#[derive(Debug, Subcommand)]
pub(crate) enum AuthArgs {
    /// List the kept sign-ins: MCP server, authorization server, client, scopes, expiry
    /// (never a token).
    List(ListArgs),
    /// Forget the sign-in(s) kept for an MCP server (its files are deleted; the tokens
    /// are not revoked at the authorization server).
    Logout(LogoutArgs),
}

/// `auth list`.
#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    /// One JSON object on stdout.
    #[arg(long)]
    json: bool,
}

/// `auth logout`.
#[derive(Debug, Args)]
pub(crate) struct LogoutArgs {
    /// The MCP server's URL, as given to `connect` or `call`.
    #[arg(required_unless_present = "all", conflicts_with = "all")]
    server: Option<String>,
    /// Only the sign-in at this authorization server.
    #[arg(long, value_name = "URL")]
    issuer: Option<String>,
    /// Every kept sign-in.
    #[arg(long)]
    all: bool,
}

pub(crate) fn run(args: AuthArgs) -> ExitCode {
    let store = match TokenFileStore::default_location() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("mcp-elicit auth: {e}");
            return ExitCode::from(2);
        }
    };
    let result = match args {
        AuthArgs::List(a) => list(&store, &a),
        AuthArgs::Logout(a) => logout(&store, &a),
    };
    result.unwrap_or_else(|e| {
        eprintln!("mcp-elicit auth: {e}");
        ExitCode::from(2)
    })
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// "in 4 min", "expired 2 h ago", "unknown".
fn expiry(info: &EntryInfo, now: u64) -> String {
    let Some(at) = info.expires_at else {
        return "unknown".into();
    };
    let span = |s: u64| match s {
        0..120 => format!("{s} s"),
        120..7200 => format!("{} min", s / 60),
        7200..172_800 => format!("{} h", s / 3600),
        _ => format!("{} days", s / 86_400),
    };
    if at > now {
        format!("in {}", span(at - now))
    } else {
        format!("expired {} ago", span(now - at))
    }
}

fn list(store: &TokenFileStore, args: &ListArgs) -> Result<ExitCode, String> {
    let entries = store.list().map_err(|e| e.to_string())?;
    let now = now();
    if args.json {
        let items: Vec<_> = entries
            .iter()
            .map(|r| match r {
                Ok(i) => json!({
                    "server": i.resource, "issuer": i.issuer, "client_id": i.client_id,
                    "scopes": i.scopes, "expires_at": i.expires_at,
                    "refreshable": i.refreshable, "saved_at": i.saved_at,
                }),
                Err(e) => json!({"error": e.to_string()}),
            })
            .collect();
        let out = json!({"directory": store.dir().display().to_string(), "sign_ins": items});
        println!("{out}");
        return Ok(ExitCode::SUCCESS);
    }
    if entries.is_empty() {
        println!("No sign-ins kept (in {}).", store.dir().display());
        return Ok(ExitCode::SUCCESS);
    }
    println!("Sign-ins kept in {}:", store.dir().display());
    for r in &entries {
        match r {
            Ok(i) => {
                println!();
                println!("server:   {}", i.resource);
                println!("issuer:   {}", i.issuer);
                println!("client:   {}", i.client_id);
                let scopes = if i.scopes.is_empty() {
                    "(none named)".to_owned()
                } else {
                    i.scopes.join(" ")
                };
                println!("scopes:   {scopes}");
                println!(
                    "expires:  {}{}",
                    expiry(i, now),
                    if i.refreshable { " (refreshable)" } else { "" }
                );
            }
            Err(e) => {
                println!();
                println!("unreadable: {e}");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn logout(store: &TokenFileStore, args: &LogoutArgs) -> Result<ExitCode, String> {
    let removed = if args.all {
        let mut n = 0;
        for info in store
            .list()
            .map_err(|e| e.to_string())?
            .into_iter()
            .flatten()
        {
            let key = EntryKey {
                resource: info.resource,
                issuer: info.issuer,
            };
            n += usize::from(store.remove(&key).map_err(|e| e.to_string())?);
        }
        n
    } else {
        let server = args.server.as_deref().unwrap_or_default();
        match &args.issuer {
            Some(issuer) => {
                let key = EntryKey::new(server, issuer).map_err(|e| e.to_string())?;
                usize::from(store.remove(&key).map_err(|e| e.to_string())?)
            }
            None => store.remove_server(server).map_err(|e| e.to_string())?,
        }
    };
    let what = if args.all {
        "kept".to_owned()
    } else {
        let server = args.server.as_deref().unwrap_or_default();
        format!(
            "for {}",
            canonical_resource(server).unwrap_or_else(|_| server.to_owned())
        )
    };
    if removed == 0 {
        eprintln!("mcp-elicit auth: no sign-in {what}");
        return Ok(ExitCode::from(1));
    }
    println!(
        "Forgot {removed} sign-in{} {what}.",
        if removed == 1 { "" } else { "s" }
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expiry_in_words() {
        let mut i = EntryInfo {
            resource: String::new(),
            issuer: String::new(),
            client_id: String::new(),
            scopes: Vec::new(),
            expires_at: None,
            refreshable: false,
            saved_at: 0,
        };
        assert_eq!(expiry(&i, 1000), "unknown");
        i.expires_at = Some(1300);
        assert_eq!(expiry(&i, 1000), "in 5 min");
        i.expires_at = Some(10_000 - 7200);
        assert_eq!(expiry(&i, 10_000), "expired 2 h ago");
    }
}
