//! The examples of this crate as programs for tests, however the tests were started.
//!
//! Plain `cargo test` builds the examples, but `cargo test --tests`, `cargo test --test X`,
//! `cargo nextest` and running a test binary by hand do not, and none of them rebuild an
//! example whose source changed since it was last built. So each test binary asks cargo
//! once per example (`cargo build --example NAME`, a no-op when it is up to date) and uses
//! the executable cargo reports.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};

/// The executable of example `name`, built if missing or stale. Panics (failing the
/// test) with cargo's reason when it cannot be built.
pub fn example(name: &str) -> PathBuf {
    static BUILT: OnceLock<Mutex<HashMap<String, PathBuf>>> = OnceLock::new();
    let built = BUILT.get_or_init(Mutex::default);
    let mut built = built.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(path) = built.get(name) {
        return path.clone();
    }
    let path = build(name);
    built.insert(name.to_owned(), path.clone());
    path
}

/// `target/<profile>` of this test binary (`target/<profile>/deps/NAME-HASH`).
fn profile_dir() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    Some(exe.parent()?.parent()?.to_path_buf())
}

fn build(name: &str) -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(&cargo);
    cmd.current_dir(env!("CARGO_MANIFEST_DIR")).args([
        "build",
        "-p",
        env!("CARGO_PKG_NAME"),
        "--example",
        name,
        "--message-format=json-render-diagnostics",
    ]);
    if profile_dir().as_deref().and_then(Path::file_name) == Some("release".as_ref()) {
        cmd.arg("--release");
    }
    let output = match cmd.stderr(Stdio::inherit()).output() {
        Ok(output) => output,
        Err(e) => {
            // No cargo here (a test binary copied elsewhere): use a build next to it.
            let beside = profile_dir().map(|d| {
                d.join("examples")
                    .join(format!("{name}{}", std::env::consts::EXE_SUFFIX))
            });
            match beside {
                Some(path) if path.exists() => return path,
                _ => panic!(
                    "cannot run {cargo:?} to build example {name}, and no build of it is beside the tests: {e}"
                ),
            }
        }
    };
    assert!(
        output.status.success(),
        "cargo build --example {name} failed (see the compiler output above)"
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == name)
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
        .unwrap_or_else(|| panic!("cargo build did not report the executable of example {name}"))
}
