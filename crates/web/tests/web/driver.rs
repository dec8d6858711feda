//! Test tools shared by the web crate's tests and the binary's (included with `#[path]`):
//! where the pinned Node and the test OpenID provider are installed, and a headless
//! Chromium run (Debian's `chromium`, driven by playwright-core through `chromium.mjs`).
//!
//! Without `/usr/bin/chromium` (or `MCP_ELICIT_CHROMIUM`) a run says so and returns
//! `None`, unless `MCP_ELICIT_REQUIRE_CHROMIUM=1`, which makes that a failure (CI sets it).

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use tokio::process::Command;

/// Where `scripts/install-tools` put the peers (`MCP_ELICIT_TOOLS`, default `.tools`).
pub fn tools_dir() -> PathBuf {
    std::env::var_os("MCP_ELICIT_TOOLS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.tools"),
        PathBuf::from,
    )
}

/// The pinned Node 22 if installed, else `node` from the path.
pub fn node() -> PathBuf {
    let pinned = tools_dir().join("node_modules/node/bin/node");
    if pinned.exists() {
        pinned
    } else {
        PathBuf::from("node")
    }
}

pub fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("MCP_ELICIT_CHROMIUM")
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    path.exists().then_some(path)
}

/// Runs the driver on `url` as `user` (extra Chromium flags in `chromium_args`); returns
/// its JSON result (skipping the run when Chromium is absent).
pub async fn drive(
    url: &str,
    user: &str,
    secret: &str,
    shot_name: &str,
    chromium_args: &[String],
) -> Option<serde_json::Value> {
    let Some(chromium) = chromium() else {
        assert!(
            std::env::var_os("MCP_ELICIT_REQUIRE_CHROMIUM").is_none(),
            "MCP_ELICIT_REQUIRE_CHROMIUM is set but chromium is not installed"
        );
        eprintln!("SKIPPED: no /usr/bin/chromium (set MCP_ELICIT_CHROMIUM to another binary)");
        return None;
    };
    let profile = tempfile::tempdir().expect("profile dir");
    let screenshot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(shot_name);
    let log_path = screenshot.with_extension("log");
    let log = std::fs::File::create(&log_path).expect("driver log file");
    let run = Command::new(node())
        .current_dir(tools_dir().join("oidc"))
        .arg("--input-type=module")
        .arg("-e")
        .arg(include_str!("../oidc/chromium.mjs"))
        .env("CONNECT_URL", url)
        .env("USER_NAME", user)
        .env("SECRET", secret)
        .env("SCREENSHOT", &screenshot)
        .env("CHROMIUM", &chromium)
        .env("PROFILE", profile.path())
        .env("CHROMIUM_ARGS", chromium_args.join("\n"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(log)
        .kill_on_drop(true)
        .spawn()
        .expect("start the chromium driver")
        .wait_with_output();
    let driver_log = || std::fs::read_to_string(&log_path).unwrap_or_default();
    let out = match tokio::time::timeout(Duration::from_secs(90), run).await {
        Ok(out) => out.expect("wait for the chromium driver"),
        Err(_) => panic!(
            "the chromium driver did not finish within 90 s:\n{}",
            driver_log()
        ),
    };
    assert!(
        out.status.success(),
        "chromium driver failed:\n{}",
        driver_log()
    );
    assert!(screenshot.exists());
    Some(serde_json::from_slice(&out.stdout).expect("driver JSON result"))
}

/// The posts the browser made to `path` of our server.
pub fn posts_to<'a>(result: &'a serde_json::Value, path: &str) -> Vec<&'a serde_json::Value> {
    result["posts"]
        .as_array()
        .map(|posts| {
            posts
                .iter()
                .filter(|p| p["url"].as_str().is_some_and(|u| u.ends_with(path)))
                .collect()
        })
        .unwrap_or_default()
}
