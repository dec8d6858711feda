//! What the figures were taken on: the machine and the versions of everything measured.

use std::path::Path;

use serde::Serialize;

use crate::args::RunArgs;

/// The machine and the software versions.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Machine {
    pub(crate) cpus: usize,
    pub(crate) cpu_model: String,
    pub(crate) memory: String,
    pub(crate) os: String,
    pub(crate) kernel: String,
    pub(crate) load_average_start: String,
    pub(crate) load_average_end: String,
    pub(crate) rustc: String,
    pub(crate) node: String,
    pub(crate) ts_sdk: String,
    pub(crate) ajv: String,
    pub(crate) python: String,
    pub(crate) py_sdk: String,
    pub(crate) jsonschema: String,
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

fn run(program: &Path, args: &[&str]) -> String {
    std::process::Command::new(program)
        .args(args)
        .output()
        .ok()
        .map(|o| {
            let out = String::from_utf8_lossy(&o.stdout).trim().to_owned();
            if out.is_empty() {
                String::from_utf8_lossy(&o.stderr).trim().to_owned()
            } else {
                out
            }
        })
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".into())
}

fn package_version(bench_dir: &Path, package: &str) -> String {
    let path = bench_dir
        .join("node_modules")
        .join(package)
        .join("package.json");
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v.get("version").and_then(|v| v.as_str()).map(str::to_owned))
        .unwrap_or_else(|| "unknown".into())
}

/// The current load average (1, 5, 15 minutes).
pub(crate) fn load_average() -> String {
    read("/proc/loadavg")
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Collects the description (load average at the end is filled in later).
pub(crate) fn describe(args: &RunArgs) -> Machine {
    let cpuinfo = read("/proc/cpuinfo");
    let cpu_model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name").and_then(|r| r.split_once(':')))
        .map(|(_, v)| v.trim().to_owned())
        .unwrap_or_else(|| "unknown".into());
    let memory = read("/proc/meminfo")
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kib| format!("{:.1} GiB", kib as f64 / 1024.0 / 1024.0))
        .unwrap_or_else(|| "unknown".into());
    let os = read("/etc/os-release")
        .lines()
        .find_map(|l| l.strip_prefix("PRETTY_NAME="))
        .map(|v| v.trim_matches('"').to_owned())
        .unwrap_or_else(|| "unknown".into());
    let py_versions = run(
        &args.python,
        &[
            "-c",
            "import importlib.metadata as m; print(m.version('mcp'), m.version('jsonschema'))",
        ],
    );
    let mut py_versions = py_versions.split_whitespace();
    Machine {
        cpus: std::thread::available_parallelism().map_or(0, |n| n.get()),
        cpu_model,
        memory,
        os,
        kernel: read("/proc/sys/kernel/osrelease").trim().to_owned(),
        load_average_start: load_average(),
        load_average_end: String::new(),
        rustc: run(Path::new("rustc"), &["--version"]),
        node: run(&args.node, &["--version"]),
        ts_sdk: package_version(&args.bench_dir, "@modelcontextprotocol/sdk"),
        ajv: format!(
            "ajv {} + ajv-formats {}",
            package_version(&args.bench_dir, "ajv"),
            package_version(&args.bench_dir, "ajv-formats")
        ),
        python: run(&args.python, &["--version"]),
        py_sdk: py_versions.next().unwrap_or("unknown").to_owned(),
        jsonschema: py_versions.next().unwrap_or("unknown").to_owned(),
    }
}
