//! What the sign-in tests share: the real OpenID provider, `serve --issuer` in front
//! of it, and a "browser" program that hands the URL it is given to the test.
#![allow(dead_code, unreachable_pub)]

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Stdio;

use serde_json::Value;
use tokio::io::AsyncBufReadExt;

use crate::support::driver::{node, tools_dir};
use crate::support::{Server, VAULT_KEY, WAIT};

/// The test OpenID provider, redirecting back to `web_base`; its issuer.
pub async fn start_provider(web_base: &str) -> (tokio::process::Child, String) {
    let oidc = tools_dir().join("oidc");
    assert!(
        oidc.join("node_modules/oidc-provider").is_dir(),
        "oidc-provider is not installed: run crates/web/tests/oidc/install.sh (looked in {})",
        oidc.display()
    );
    let mut node = tokio::process::Command::new(node())
        .current_dir(&oidc)
        .arg("--input-type=module")
        .arg("-e")
        .arg(include_str!("../../../web/tests/oidc/provider.mjs"))
        .env("WEB_BASE", web_base)
        .env("AUDIENCE", format!("{web_base}/mcp"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("start node with the test OpenID provider");
    let stdout = node.stdout.take().expect("provider stdout");
    let mut lines = tokio::io::BufReader::new(stdout).lines();
    let line = tokio::time::timeout(WAIT, lines.next_line())
        .await
        .expect("the provider did not start within 30 s")
        .expect("reading the provider's stdout")
        .expect("the provider exited before printing its issuer");
    let info: Value = serde_json::from_str(&line).expect("provider info JSON");
    // Keep reading: the provider prints notices later, and a closed pipe kills it (EPIPE).
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (node, info["issuer"].as_str().expect("issuer").to_owned())
}

/// `serve --issuer` on `port`, files in `dir`.
pub fn serve(dir: &Path, port: u16, issuer: &str) -> Server {
    let key_file = dir.join("vault.key");
    std::fs::write(&key_file, format!("{VAULT_KEY}\n")).expect("write key");
    let secret_file = dir.join("login.secret");
    std::fs::write(&secret_file, "mcp-web-secret\n").expect("write secret");
    let args: Vec<String> = [
        "--listen",
        &format!("127.0.0.1:{port}"),
        "--issuer",
        issuer,
        "--client-id",
        "mcp-web",
        "--client-secret-file",
        &secret_file.display().to_string(),
        "--vault-key-file",
        &key_file.display().to_string(),
        "--store",
        &format!("sqlite://{}", dir.join("state.db").display()),
        "--scopes-supported",
        "mcp",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    Server::start(&args, &[], port)
}

/// A "browser" program that writes the URL it is given to `file`.
pub fn url_catcher(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let file = dir.join("opened-url");
    let script = dir.join("browser.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\nprintf '%s' \"$1\" > '{}'\n", file.display()),
    )
    .expect("write script");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    (script, file)
}
