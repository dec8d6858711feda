//! `mcp-elicit url inspect`, run as a real process.

use std::process::{Command, Output};

use serde_json::Value;

fn inspect(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-elicit"))
        .arg("url")
        .arg("inspect")
        .args(args)
        .output()
        .unwrap()
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

fn json(url: &str) -> (i32, Value) {
    let o = inspect(&["--json", url]);
    let v = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&o.stdout)));
    (code(&o), v)
}

fn codes(v: &Value) -> Vec<String> {
    v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["code"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_plain_https_url_is_ok() {
    let (code, v) = json("https://mcp.example.com/connect?elicitationId=550e8400");
    assert_eq!(code, 0);
    assert_eq!(v["verdict"], "ok");
    assert_eq!(
        v["url"],
        "https://mcp.example.com/connect?elicitationId=550e8400"
    );
    assert_eq!(v["host_ascii"], "mcp.example.com");
    assert_eq!(v["host_unicode"], "mcp.example.com");
    assert_eq!(v["registrable_domain"], "example.com");
    assert_eq!(v["warnings"], serde_json::json!([]));
}

#[test]
fn human_output_shows_verdict_url_hosts_domain_and_warnings() {
    let o = inspect(&["https://аpple.com/login"]);
    assert_eq!(code(&o), 0, "warn exits 0");
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("verdict:            warn"), "{text}");
    assert!(
        text.contains("url:                https://xn--pple-43d.com/login"),
        "{text}"
    );
    assert!(
        text.contains("host (ASCII):       xn--pple-43d.com"),
        "{text}"
    );
    assert!(text.contains("host (Unicode):     аpple.com"), "{text}");
    assert!(
        text.contains("registrable domain: xn--pple-43d.com (аpple.com)"),
        "{text}"
    );
    assert!(text.contains("[warn] punycode:"), "{text}");
    assert!(text.contains("[warn] confusable_host:"), "{text}");
}

#[test]
fn the_registrable_domain_is_highlighted() {
    let o = inspect(&["https://accounts.google.com.evil.com/login"]);
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let url_line = lines.iter().position(|l| l.starts_with("url:")).unwrap();
    let marks = lines[url_line + 1];
    let start = marks.find('^').unwrap();
    let end = marks.rfind('^').unwrap() + 1;
    assert_eq!(&lines[url_line][start..end], "evil.com");
    assert!(text.contains("registrable domain: evil.com"), "{text}");
}

#[test]
fn warnings_keep_exit_0_and_blocks_exit_1() {
    let (code, v) = json("http://example.com/pay");
    assert_eq!((code, v["verdict"].as_str().unwrap()), (0, "warn"));
    assert!(codes(&v).contains(&"insecure_http".to_owned()));

    let (code, v) = json("https://google.com@evil.example/");
    assert_eq!((code, v["verdict"].as_str().unwrap()), (0, "warn"));
    assert!(codes(&v).contains(&"userinfo".to_owned()));
    assert_eq!(v["registrable_domain"], "evil.example");

    for bad in [
        " JaVaScRiPt:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "file:///etc/passwd",
        "not a url",
        "",
    ] {
        let (code, v) = json(bad);
        assert_eq!(code, 1, "{bad:?}");
        assert_eq!(v["verdict"], "block", "{bad:?}");
        for w in v["warnings"].as_array().unwrap() {
            assert!(w["code"].is_string() && w["message"].is_string(), "{w}");
        }
    }
}

#[test]
fn hostile_input_is_escaped_for_the_terminal() {
    let o = inspect(&["https://ex\u{202E}ample.com/\u{1b}[2J"]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        !text.contains('\u{202E}') && !text.contains('\u{1b}'),
        "{text:?}"
    );
}

#[test]
fn a_url_starting_with_a_dash_is_not_an_option() {
    let (code, v) = json("-x");
    assert_eq!(code, 1);
    assert_eq!(v["input"], "-x");
}

#[test]
fn usage_errors_exit_2() {
    let o = inspect(&[]);
    assert_eq!(code(&o), 2);
    assert!(String::from_utf8_lossy(&o.stderr).contains("Usage"));
}

#[cfg(unix)]
#[test]
fn a_non_utf8_argument_is_a_usage_error() {
    use std::os::unix::ffi::OsStrExt;
    let o = Command::new(env!("CARGO_BIN_EXE_mcp-elicit"))
        .args(["url", "inspect"])
        .arg(std::ffi::OsStr::from_bytes(b"https://ex\xffample.com/"))
        .output()
        .unwrap();
    assert_eq!(code(&o), 2);
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("invalid UTF-8"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
