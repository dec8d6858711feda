//! `mcp-elicit-bench run`: runs every benchmark, writes `results.json` and `results.md`,
//! and exits non-zero when any server answered wrongly (never because of timing).

use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Duration;

use serde::Serialize;

use crate::args::RunArgs;
use crate::idle::{self, IdlePoint};
use crate::load::{self, Point};
use crate::machine::{self, Machine};
use crate::servers::{self, Revision, ServerSpec};
use crate::validation::{self, Figure};

/// Target: server CPU per call and p99, ours / the bare baseline, at most this.
const TARGET_VS_BARE: f64 = 1.5;
/// Target: bytes per idle session with a pending URL elicitation.
const TARGET_IDLE_BYTES: f64 = 20.0 * 1024.0;

#[derive(Debug, Serialize)]
struct Results {
    mode: &'static str,
    note: Option<String>,
    machine: Machine,
    servers: Vec<(String, String)>,
    load: Vec<Point>,
    idle: Vec<IdlePoint>,
    validation: Vec<Figure>,
    failures: Vec<String>,
}

fn say(line: &str) {
    eprintln!("mcp-elicit-bench: {line}");
}

pub(crate) async fn run_all(args: RunArgs) -> ExitCode {
    if let Err(e) = std::fs::create_dir_all(&args.out) {
        say(&format!("cannot create {}: {e}", args.out.display()));
        return ExitCode::FAILURE;
    }
    let specs = match servers::specs(&args) {
        Ok(s) => s,
        Err(e) => {
            say(&e);
            return ExitCode::from(2);
        }
    };
    let mut results = Results {
        mode: if args.quick { "quick" } else { "full" },
        note: args.note.clone(),
        machine: machine::describe(&args),
        servers: specs
            .iter()
            .map(|s| (s.key.clone(), s.label.clone()))
            .collect(),
        load: Vec::new(),
        idle: Vec::new(),
        validation: Vec::new(),
        failures: Vec::new(),
    };
    let warmup = Duration::from_secs_f64(args.warmup_secs());
    let measure = Duration::from_secs_f64(args.measure_secs());
    for sessions in args.session_counts() {
        for spec in &specs {
            say(&format!(
                "load: {} with {sessions} session(s)...",
                spec.label
            ));
            let point = load::run_point(spec, sessions, warmup, measure, &args.out).await;
            say(&format!(
                "  {:.0} calls/s, p50 {:.2} ms, p99 {:.2} ms, errors {}{}",
                point.calls_per_sec,
                point.p50_ms,
                point.p99_ms,
                point.errors,
                point
                    .first_error
                    .as_deref()
                    .map(|e| format!(" (first: {e})"))
                    .unwrap_or_default()
            ));
            if !point.ok() {
                results.failures.push(format!(
                    "{} at {sessions} sessions: {} errors, {} good calls; first error: {}",
                    spec.label,
                    point.errors,
                    point.calls,
                    point.first_error.as_deref().unwrap_or("none")
                ));
            }
            results.load.push(point);
        }
    }
    if !args.skip_idle {
        run_idle(&args, &specs, &mut results).await;
    }
    if !args.skip_validation {
        run_validation(&args, &mut results).await;
    }
    results.machine.load_average_end = machine::load_average();
    let json = serde_json::to_string_pretty(&results).unwrap_or_default();
    let md = markdown(&results, &specs);
    let json_path = args.out.join("results.json");
    let md_path = args.out.join("results.md");
    for (path, text) in [(&json_path, json), (&md_path, md.clone())] {
        if let Err(e) = std::fs::write(path, text) {
            say(&format!("cannot write {}: {e}", path.display()));
            return ExitCode::FAILURE;
        }
    }
    println!("{md}");
    say(&format!(
        "wrote {} and {}",
        json_path.display(),
        md_path.display()
    ));
    if results.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        for f in &results.failures {
            say(&format!("FAILED: {f}"));
        }
        ExitCode::FAILURE
    }
}

/// The servers of the idle step: ours on each session layer named in `--servers` (its
/// 2025-11-25 entries: sessions exist only there), else ours on rmcp's.
fn idle_specs(args: &RunArgs, specs: &[ServerSpec]) -> Vec<ServerSpec> {
    let ours: Vec<ServerSpec> = specs
        .iter()
        .filter(|s| s.revision == Revision::V2025 && (s.key == "ours" || s.key == "ours-lean"))
        .cloned()
        .collect();
    if ours.is_empty() {
        vec![servers::ours(args, servers::SessionLayer::Rmcp)]
    } else {
        ours
    }
}

async fn run_idle(args: &RunArgs, specs: &[ServerSpec], results: &mut Results) {
    for spec in idle_specs(args, specs) {
        for n in args.idle_counts() {
            idle_point(args, &spec, n, results).await;
        }
    }
}

async fn idle_point(args: &RunArgs, spec: &ServerSpec, n: usize, results: &mut Results) {
    say(&format!(
        "idle: {}, {n} sessions with a pending URL elicitation...",
        spec.label
    ));
    let point = idle::run_point(spec, n, args.completion_samples(), &args.out).await;
    say(&format!(
        "  {:.0} bytes/session{}{}",
        point.bytes_per_session,
        point
            .bytes_per_asleep_session
            .map(|b| format!(", {b:.0} asleep"))
            .unwrap_or_default(),
        point
            .first_error
            .as_deref()
            .map(|e| format!(" (error: {e})"))
            .unwrap_or_default()
    ));
    if !point.ok() {
        results.failures.push(format!(
            "{}, idle sessions ({n}): {}",
            spec.label,
            point.first_error.as_deref().unwrap_or("failed")
        ));
    }
    results.idle.push(point);
}

async fn run_validation(args: &RunArgs, results: &mut Results) {
    let corpus = args.bench_dir.join("corpus");
    let secs = args.validation_secs();
    say("validation: mcp-elicit-core, AJV, jsonschema...");
    let figures = [
        validation::ours(&corpus, secs),
        validation::external(
            &args.node,
            &args.bench_dir.join("ts/validate.mjs"),
            &corpus,
            secs,
            None,
        )
        .await,
        validation::external(
            &args.python,
            &args.bench_dir.join("py/validate.py"),
            &corpus,
            secs,
            args.python_path.as_ref(),
        )
        .await,
    ];
    for figure in figures {
        match figure {
            Ok(f) => {
                if !f.correct {
                    results.failures.push(format!(
                        "{} misjudged the validation corpus",
                        f.implementation
                    ));
                }
                results.validation.push(f);
            }
            Err(e) => results.failures.push(format!("validation: {e}")),
        }
    }
}

fn ratio(a: f64, b: f64) -> String {
    if b > 0.0 && a > 0.0 {
        format!("{:.1}×", a / b)
    } else {
        "n/a".into()
    }
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "n/a".into(), |v| format!("{v:.digits$}"))
}

fn mib(kib: Option<u64>) -> String {
    kib.map_or_else(|| "n/a".into(), |k| format!("{:.1}", k as f64 / 1024.0))
}

fn markdown(r: &Results, specs: &[ServerSpec]) -> String {
    let mut s = String::new();
    let m = &r.machine;
    let _ = writeln!(s, "## Results ({} mode)\n", r.mode);
    if let Some(note) = &r.note {
        let _ = writeln!(s, "> {note}\n");
    }
    let _ = writeln!(s, "| machine | |\n| --- | --- |");
    let _ = writeln!(s, "| CPUs (`nproc`) | {} × {} |", m.cpus, m.cpu_model);
    let _ = writeln!(s, "| memory | {} |", m.memory);
    let _ = writeln!(s, "| OS | {} (Linux {}) |", m.os, m.kernel);
    let _ = writeln!(
        s,
        "| load average (1/5/15 min) | {} at start, {} at end |",
        m.load_average_start, m.load_average_end
    );
    let _ = writeln!(s, "| Rust | {} |", m.rustc);
    let _ = writeln!(
        s,
        "| Node / TypeScript SDK | {} / @modelcontextprotocol/sdk {} |",
        m.node, m.ts_sdk
    );
    let _ = writeln!(
        s,
        "| Python / Python SDK | {} / mcp {} |",
        m.python, m.py_sdk
    );
    let _ = writeln!(
        s,
        "| validators | {}; jsonschema {} |\n",
        m.ajv, m.jsonschema
    );

    let label = |key: &str| {
        specs
            .iter()
            .find(|s| s.key == key)
            .map_or(key.to_owned(), |s| s.label.clone())
    };
    let _ = writeln!(
        s,
        "### Load: `tools/call` → `elicitation/create` → accept → result\n"
    );
    if r.load.iter().any(|p| p.revision == Revision::V2026) {
        let _ = writeln!(
            s,
            "Rows marked 2026-07-28: one call is a stateless round, the first `tools/call` answered with an `InputRequiredResult` and the retry carrying `inputResponses` (two HTTP exchanges).\n"
        );
    }
    let _ = writeln!(
        s,
        "| sessions | server | calls/s | p50 ms | p90 ms | p99 ms | max ms | server CPU s / 1k calls | server cores | server peak RSS MiB | load generator CPU s / 1k calls | errors |"
    );
    let _ = writeln!(
        s,
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
    for p in &r.load {
        let _ = writeln!(
            s,
            "| {} | {} | {:.0} | {:.2} | {:.2} | {:.2} | {:.2} | {} | {} | {} | {} | {} |",
            p.sessions,
            label(&p.server),
            p.calls_per_sec,
            p.p50_ms,
            p.p90_ms,
            p.p99_ms,
            p.max_ms,
            opt(p.cpu_s_per_1k_calls, 3),
            opt(p.server_cores, 2),
            mib(p.peak_rss_kib),
            opt(p.client_cpu_s_per_1k_calls, 3),
            p.errors
        );
    }
    let find = |server: &str, n: usize| {
        r.load
            .iter()
            .find(|p| p.server == server && p.sessions == n)
    };
    let mut counts: Vec<usize> = r.load.iter().map(|p| p.sessions).collect();
    counts.dedup();
    let peers: Vec<&str> = ["ts", "py"]
        .into_iter()
        .filter(|k| specs.iter().any(|s| s.key == *k))
        .collect();
    let ours_keys: Vec<&str> = specs
        .iter()
        .map(|s| s.key.as_str())
        // The peers speak 2025-11-25 only.
        .filter(|k| *k == "ours" || *k == "ours-lean")
        .collect();
    if !ours_keys.is_empty() && !peers.is_empty() {
        let _ = writeln!(
            s,
            "\n### Ratios, ours / peer (calls/s: higher is better for us; p99, CPU per call, RSS: lower is better for us)\n"
        );
        let _ = writeln!(
            s,
            "| sessions | ours | peer | calls/s | p99 | server CPU / call | server peak RSS |\n| ---: | --- | --- | ---: | ---: | ---: | ---: |"
        );
        for &n in &counts {
            for key in &ours_keys {
                let Some(ours) = find(key, n) else {
                    continue;
                };
                for peer in &peers {
                    let Some(p) = find(peer, n) else { continue };
                    let _ = writeln!(
                        s,
                        "| {n} | {} | {} | {} | {} | {} | {} |",
                        label(key),
                        label(peer),
                        ratio(ours.calls_per_sec, p.calls_per_sec),
                        ratio(ours.p99_ms, p.p99_ms),
                        ratio(
                            ours.cpu_s_per_1k_calls.unwrap_or(0.0),
                            p.cpu_s_per_1k_calls.unwrap_or(0.0)
                        ),
                        ratio(
                            ours.peak_rss_kib.unwrap_or(0) as f64,
                            p.peak_rss_kib.unwrap_or(0) as f64
                        )
                    );
                }
            }
        }
    }
    if !r.idle.is_empty() {
        let _ = writeln!(
            s,
            "\n### Idle sessions, each with one pending URL elicitation (our server)\n"
        );
        let _ = writeln!(
            s,
            "| sessions | server | server RSS before MiB | after MiB | bytes / session (awake) | asleep | of which the bare session | setup s | load generator bytes / session |\n| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
        );
        for p in &r.idle {
            let _ = writeln!(
                s,
                "| {} | {} | {:.1} | {:.1} | {:.0} | {} | {:.0} | {:.1} | {} |",
                p.sessions,
                label(&p.server),
                p.rss_before_kib as f64 / 1024.0,
                p.rss_after_kib as f64 / 1024.0,
                p.bytes_per_session,
                opt(p.bytes_per_asleep_session, 0),
                p.bytes_per_bare_session,
                p.setup_seconds,
                opt(p.client_bytes_per_session, 0)
            );
        }
        let _ = writeln!(
            s,
            "\n### URL elicitation completion → client receives `notifications/elicitation/complete`\n"
        );
        let _ = writeln!(
            s,
            "| idle sessions | server | samples | p50 ms | p90 ms | p99 ms | max ms |\n| ---: | --- | ---: | ---: | ---: | ---: | ---: |"
        );
        for p in &r.idle {
            if let Some(c) = &p.completion {
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {:.2} | {:.2} | {:.2} | {:.2} |",
                    p.sessions,
                    label(&p.server),
                    c.samples,
                    c.p50_ms,
                    c.p90_ms,
                    c.p99_ms,
                    c.max_ms
                );
            }
        }
    }
    if !r.validation.is_empty() {
        let _ = writeln!(
            s,
            "\n### Validation: 10-field schema, valid response, all violations collected\n"
        );
        let ours = r
            .validation
            .iter()
            .find(|f| f.implementation.starts_with("mcp-elicit-core"))
            .map_or(0.0, |f| f.validations_per_sec);
        let _ = writeln!(
            s,
            "| implementation | validations/s | ours / this | correct on corpus | note |\n| --- | ---: | ---: | --- | --- |"
        );
        for f in &r.validation {
            let _ = writeln!(
                s,
                "| {} | {:.0} | {} | {} | {} |",
                f.implementation,
                f.validations_per_sec,
                ratio(ours, f.validations_per_sec),
                if f.correct { "yes" } else { "NO" },
                f.note.as_deref().unwrap_or("")
            );
        }
    }
    targets(&mut s, r, &label);
    if !r.failures.is_empty() {
        let _ = writeln!(s, "\n### Failures\n");
        for f in &r.failures {
            let _ = writeln!(s, "- {f}");
        }
    }
    s
}

/// The targets of issue 17: ours against the bare-hyper baseline of the same run.
fn targets(s: &mut String, r: &Results, label: &dyn Fn(&str) -> String) {
    let find = |server: &str, n: usize| {
        r.load
            .iter()
            .find(|p| p.server == server && p.sessions == n)
    };
    let verdict = |ok: bool| if ok { "met" } else { "not met" };
    let _ = writeln!(s, "\n### Ours / the bare baseline, and the targets\n");
    let _ = writeln!(
        s,
        "| sessions | ours | baseline | server CPU / call | p99 | calls/s | peak RSS |\n| ---: | --- | --- | ---: | ---: | ---: | ---: |"
    );
    let pairs = [
        ("ours", "bare"),
        ("ours-lean", "bare"),
        ("ours-2026", "bare-2026"),
        ("ours-lean-2026", "bare-2026"),
    ];
    let mut counts: Vec<usize> = r.load.iter().map(|p| p.sessions).collect();
    counts.sort_unstable();
    counts.dedup();
    for &n in &counts {
        for (ours, bare) in pairs {
            let (Some(o), Some(b)) = (find(ours, n), find(bare, n)) else {
                continue;
            };
            let _ = writeln!(
                s,
                "| {n} | {} | {} | {} | {} | {} | {} |",
                label(ours),
                label(bare),
                ratio(
                    o.cpu_s_per_1k_calls.unwrap_or(0.0),
                    b.cpu_s_per_1k_calls.unwrap_or(0.0)
                ),
                ratio(o.p99_ms, b.p99_ms),
                ratio(o.calls_per_sec, b.calls_per_sec),
                ratio(
                    o.peak_rss_kib.unwrap_or(0) as f64,
                    b.peak_rss_kib.unwrap_or(0) as f64
                )
            );
        }
    }
    let _ = writeln!(s);
    let cpu_ratio =
        |ours: &Point, bare: &Point| match (ours.cpu_s_per_1k_calls, bare.cpu_s_per_1k_calls) {
            (Some(o), Some(b)) if b > 0.0 => Some(o / b),
            _ => None,
        };
    let mut any = false;
    const ROUND: &str = "stateless round (2026-07-28: first attempt + answered retry)";
    for (ours, bare, what) in [
        ("ours", "bare", "round trip (2025-11-25)"),
        ("ours-lean", "bare", "round trip (2025-11-25)"),
        ("ours-2026", "bare-2026", ROUND),
        ("ours-lean-2026", "bare-2026", ROUND),
    ] {
        for n in [16, 64] {
            let (Some(o), Some(b)) = (find(ours, n), find(bare, n)) else {
                continue;
            };
            any = true;
            let x = cpu_ratio(o, b);
            let _ = writeln!(
                s,
                "- {}: server CPU per {what} at {n} sessions ≤ {TARGET_VS_BARE}× the baseline: {} — {}",
                label(ours),
                x.map_or_else(|| "n/a".into(), |x| format!("{x:.2}×")),
                verdict(x.is_some_and(|x| x <= TARGET_VS_BARE) && o.ok() && b.ok())
            );
            if n == 64 && bare == "bare" && b.p99_ms > 0.0 {
                let x = o.p99_ms / b.p99_ms;
                let _ = writeln!(
                    s,
                    "- {}: p99 at 64 sessions ≤ {TARGET_VS_BARE}× the baseline's: {:.2} ms vs {:.2} ms = {x:.2}× — {}",
                    label(ours),
                    o.p99_ms,
                    b.p99_ms,
                    verdict(x <= TARGET_VS_BARE && o.ok() && b.ok())
                );
            }
        }
    }
    if !any {
        let _ = writeln!(
            s,
            "- CPU targets: not measured in this run (they need ours and the baseline at 16 or 64 sessions)"
        );
    }
    for p in &r.idle {
        // An idle session is measured once it has slept, where the layer has sleep.
        let idle = p.bytes_per_asleep_session.unwrap_or(p.bytes_per_session);
        let _ = writeln!(
            s,
            "- {}: ≤ 20 KB RSS per idle session with a pending URL elicitation ({} sessions{}): {:.1} KB — {}",
            label(&p.server),
            p.sessions,
            if p.bytes_per_asleep_session.is_some() {
                ", asleep"
            } else {
                ""
            },
            idle / 1024.0,
            verdict(p.ok() && idle <= TARGET_IDLE_BYTES)
        );
    }
}
