//! CPU time and memory of a process from `/proc/<pid>/stat` and `/proc/<pid>/status`.

use std::sync::OnceLock;

/// Clock ticks per second for `/proc/<pid>/stat` times (`getconf CLK_TCK`, else 100).
fn clock_ticks() -> f64 {
    static TICKS: OnceLock<f64> = OnceLock::new();
    *TICKS.get_or_init(|| {
        std::process::Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .ok()
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .and_then(|s| s.trim().parse::<f64>().ok())
            .filter(|t| *t > 0.0)
            .unwrap_or(100.0)
    })
}

/// User + system CPU seconds of `pid` (its threads, plus children it has reaped).
pub(crate) fn cpu_seconds(pid: u32) -> Result<f64, String> {
    let path = format!("/proc/{pid}/stat");
    let stat = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    parse_cpu_ticks(&stat)
        .map(|ticks| ticks as f64 / clock_ticks())
        .ok_or_else(|| format!("{path}: unexpected format"))
}

/// utime + stime + cutime + cstime from the text of `/proc/<pid>/stat`.
fn parse_cpu_ticks(stat: &str) -> Option<u64> {
    // The command name is in parentheses and may contain spaces: fields restart after
    // the last ')'. Field 3 (state) is index 0 there, so utime (14) is index 11.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let mut total = 0u64;
    for index in 11..=14 {
        total += fields.get(index)?.parse::<u64>().ok()?;
    }
    Some(total)
}

/// A `kB` line of `/proc/<pid>/status` (`VmHWM` = peak RSS, `VmRSS` = current RSS).
pub(crate) fn status_kib(pid: u32, key: &str) -> Result<u64, String> {
    let path = format!("/proc/{pid}/status");
    let status = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    parse_status_kib(&status, key).ok_or_else(|| format!("{path}: no {key} line"))
}

fn parse_status_kib(status: &str, key: &str) -> Option<u64> {
    status.lines().find_map(|line| {
        let value = line.strip_prefix(key)?.strip_prefix(':')?;
        value.trim().trim_end_matches("kB").trim().parse().ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_ticks_are_summed_after_a_command_name_with_spaces_and_parens() {
        let stat = "4242 (node (worker) x) S 1 2 3 4 5 6 7 8 9 10 100 20 3 4 20 0 9 0 5 6 7";
        assert_eq!(parse_cpu_ticks(stat), Some(100 + 20 + 3 + 4));
        assert_eq!(parse_cpu_ticks("4242 (cut) S 1 2"), None);
        assert_eq!(parse_cpu_ticks("no parens"), None);
    }

    #[test]
    fn status_lines_are_read_in_kib() {
        let status = "Name:\tnode\nVmHWM:\t   51234 kB\nVmRSS:\t   40000 kB\n";
        assert_eq!(parse_status_kib(status, "VmHWM"), Some(51234));
        assert_eq!(parse_status_kib(status, "VmRSS"), Some(40000));
        assert_eq!(parse_status_kib(status, "VmSwap"), None);
    }

    #[test]
    fn this_process_has_cpu_time_and_a_peak_rss() {
        let pid = std::process::id();
        assert!(cpu_seconds(pid).is_ok());
        assert!(status_kib(pid, "VmHWM").is_ok_and(|kib| kib > 0));
    }
}
