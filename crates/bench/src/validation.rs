//! Validation micro-benchmark: the same 10-field schema and the same valid response
//! (`bench/corpus/`) validated by mcp-elicit-core, AJV (Node) and `jsonschema` (Python).
//! Each side parses/compiles the schema once, then validates the parsed response in a
//! loop for a fixed time, collecting every violation (not stopping at the first). Each
//! side must also find the corpus's invalid response invalid.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mcp_elicit_core::Schema;
use mcp_elicit_core::validate::validate;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One implementation's figure.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Figure {
    pub(crate) implementation: String,
    pub(crate) validations_per_sec: f64,
    /// Whether it accepted the valid response and rejected the invalid one.
    pub(crate) correct: bool,
    #[serde(default)]
    pub(crate) note: Option<String>,
}

fn read_json(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// mcp-elicit-core's `validate`, timed in-process.
pub(crate) fn ours(corpus: &Path, seconds: f64) -> Result<Figure, String> {
    let schema = Schema::parse(&read_json(&corpus.join("schema.json"))?)
        .map_err(|e| format!("corpus schema: {e}"))?;
    let valid = read_json(&corpus.join("valid.json"))?;
    let invalid = read_json(&corpus.join("invalid.json"))?;
    let correct = validate(&schema, &valid).is_ok() && validate(&schema, &invalid).is_err();
    let budget = Duration::from_secs_f64(seconds);
    let started = Instant::now();
    let mut count = 0u64;
    loop {
        for _ in 0..256 {
            let outcome = validate(std::hint::black_box(&schema), std::hint::black_box(&valid));
            std::hint::black_box(outcome.is_ok());
        }
        count += 256;
        if started.elapsed() >= budget {
            break;
        }
    }
    Ok(Figure {
        implementation: format!("mcp-elicit-core {}", env!("CARGO_PKG_VERSION")),
        validations_per_sec: count as f64 / started.elapsed().as_secs_f64(),
        correct,
        note: None,
    })
}

/// Runs a validator script that prints one JSON [`Figure`] as its last stdout line.
pub(crate) async fn external(
    program: &Path,
    script: &Path,
    corpus: &Path,
    seconds: f64,
    python_path: Option<&PathBuf>,
) -> Result<Figure, String> {
    let mut command = tokio::process::Command::new(program);
    command
        .arg(script)
        .arg(corpus)
        .arg(seconds.to_string())
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true);
    if let Some(p) = python_path {
        command.env("PYTHONPATH", p);
    }
    let output = tokio::time::timeout(
        Duration::from_secs_f64(seconds * 3.0 + 60.0),
        command.output(),
    )
    .await
    .map_err(|_| format!("{} timed out", script.display()))?
    .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    if !output.status.success() {
        return Err(format!(
            "{} failed ({}): {}",
            script.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(last)
        .map_err(|e| format!("{}: bad output {last:?}: {e}", script.display()))
}
