//! `mcp-elicit schema check|validate`, run as a real process.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mcp-elicit"))
}

/// Writes `bytes` to a fresh file under the test temp dir.
fn file(name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "cli_schema-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn json_file(name: &str, value: &Value) -> PathBuf {
    file(name, serde_json::to_vec_pretty(value).unwrap())
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

fn run_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally, not by a signal")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Asserts that `o` exited 2 (bad input or usage) saying `needle` on stderr.
fn assert_exit_2(o: &Output, needle: &str) {
    assert_eq!(code(o), 2, "{}", stderr(o));
    assert!(stderr(o).contains(needle), "{}", stderr(o));
}

fn stdout_json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", stdout(o)))
}

fn contact_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "Your full name", "minLength": 1},
            "email": {"type": "string", "format": "email", "description": "Your email address"},
            "age": {"type": "integer", "minimum": 18, "default": 30},
            "color": {"type": "string", "enum": ["Red", "Green"], "default": "Red"}
        },
        "required": ["name", "email"]
    })
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

// ---------------------------------------------------------------- check

#[test]
fn check_accepts_a_valid_schema() {
    let schema = json_file("ok.json", &contact_schema());
    let o = run(&["schema", "check", p(&schema)]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("ok (4 properties)"), "{}", stdout(&o));

    let o = run(&["schema", "check", "--json", p(&schema)]);
    assert_eq!(code(&o), 0);
    let report = stdout_json(&o);
    assert_eq!(report["ok"], true);
    assert_eq!(report["errors"], json!([]));
    assert_eq!(report["secret_findings"], json!([]));
    assert_eq!(report["file"], p(&schema));
}

#[test]
fn check_lists_every_error() {
    let schema = json!({
        "type": "object",
        "properties": {
            "address": {"type": "object", "properties": {"street": {"type": "string"}}},
            "n": {"type": "number", "minimum": 5, "maximum": 1},
            "tags": {"type": "array", "items": {"type": "string"}}
        },
        "required": ["missing"]
    });
    let path = json_file("bad.json", &schema);
    let o = run(&["schema", "check", "--json", p(&path)]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    let report = stdout_json(&o);
    assert_eq!(report["ok"], false);
    let errors = report["errors"].as_array().unwrap();
    let kinds: Vec<&str> = errors.iter().map(|e| e["kind"].as_str().unwrap()).collect();
    for expected in [
        "nested_object",
        "contradictory_bounds",
        "unsupported_array",
        "unknown_required",
    ] {
        assert!(
            kinds.contains(&expected),
            "{expected} missing from {kinds:?}"
        );
    }
    for e in errors {
        assert!(
            e["pointer"].is_string() && e["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{e}"
        );
    }
    assert!(errors.iter().any(|e| {
        e["pointer"]
            .as_str()
            .unwrap()
            .starts_with("/properties/address")
    }));

    let o = run(&["schema", "check", p(&path)]);
    assert_eq!(code(&o), 1);
    let text = stdout(&o);
    assert!(text.contains("not a valid form-mode schema"), "{text}");
    assert!(text.contains("/properties/address"), "{text}");
    assert!(text.contains("[unknown_required]"), "{text}");
}

#[test]
fn check_fails_on_secret_fields() {
    let schema = json!({
        "type": "object",
        "properties": {
            "username": {"type": "string"},
            "password": {"type": "string", "title": "Password"}
        }
    });
    let path = json_file("secret.json", &schema);
    let o = run(&["schema", "check", "--json", p(&path)]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    let report = stdout_json(&o);
    assert_eq!(report["ok"], false);
    assert_eq!(report["errors"], json!([]));
    let findings = report["secret_findings"].as_array().unwrap();
    assert!(!findings.is_empty());
    assert!(
        findings.iter().all(|f| f["property"] == "password"),
        "{findings:?}"
    );
    assert_eq!(findings[0]["category"], "password");

    let o = run(&["schema", "check", p(&path)]);
    assert_eq!(code(&o), 1);
    assert!(stdout(&o).contains("asks for secrets"), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("/properties/password"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn check_reads_stdin() {
    let o = run_stdin(
        &["schema", "check", "-"],
        contact_schema().to_string().as_bytes(),
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).starts_with("<stdin>: ok"), "{}", stdout(&o));
}

#[test]
fn check_warns_about_legacy_enum_names_and_links_without_failing() {
    let schema = json!({
        "type": "object",
        "description": "See https://example.com/help",
        "properties": {
            "size": {"type": "string", "enum": ["s", "m"], "enumNames": ["Small", "Medium"]}
        }
    });
    let path = json_file("warn.json", &schema);
    let o = run(&["schema", "check", "--json", p(&path)]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let report = stdout_json(&o);
    let codes: Vec<&str> = report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"legacy_enum_names"), "{codes:?}");
    assert!(codes.contains(&"url_in_text"), "{codes:?}");
}

/// A form FastMCP generates from a Pydantic model (see crates/core/tests/data).
fn pydantic_schema() -> Value {
    json!({
        "type": "object",
        "title": "Order",
        "properties": {
            "qty": {"type": "integer", "exclusiveMinimum": 0, "title": "Qty"},
            "word": {"type": "string", "pattern": "(?i)^hello$"},
            "at": {"type": "string", "format": "time"},
            "level": {"type": "integer", "enum": [1, 2, 3], "default": 2},
            "small": {"type": "integer", "maximum": 10, "default": 50}
        },
        "required": ["qty"]
    })
}

#[test]
fn check_as_client_shows_how_a_client_reads_it() {
    let schema = json_file("order.json", &pydantic_schema());
    // The strict check refuses it...
    let o = run(&["schema", "check", p(&schema)]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    // ...a client shows it, with its notices.
    let o = run(&["schema", "check", "--as-client", p(&schema)]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("shown as a form (5 fields, 3 notices)"),
        "{text}"
    );
    assert!(
        text.contains("  qty (integer, required); greater than 0"),
        "{text}"
    );
    assert!(text.contains("  level (choose_one, prefilled 2)"), "{text}");
    assert!(text.contains("left to the server: pattern"), "{text}");
    assert!(text.contains("[unchecked_pattern]"), "{text}");
    assert!(
        text.contains("notice: /properties/small/default:"),
        "{text}"
    );

    let o = run(&["schema", "check", "--as-client", "--json", p(&schema)]);
    assert_eq!(code(&o), 0);
    let report = stdout_json(&o);
    assert_eq!(report["ok"], true);
    assert_eq!(report["as_client"], true);
    assert_eq!(report["inside_subset"], false);
    let kinds: Vec<&str> = report["notices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["unchecked_pattern", "unchecked_format", "default_dropped"]
    );
    assert_eq!(report["notices"][0]["property"], "word");
    assert_eq!(report["fields"][3]["default"], 2);
    assert_eq!(report["fields"][2]["left_to_server"], json!(["format"]));
}

#[test]
fn check_as_client_refuses_only_what_cannot_be_a_form() {
    let nested = json_file(
        "nested.json",
        &json!({"type": "object", "properties": {"a": {"type": "object", "properties": {}}}}),
    );
    let o = run(&["schema", "check", "--as-client", p(&nested)]);
    assert_eq!(code(&o), 1);
    assert!(
        stdout(&o).contains("a client cannot show this as a form (1 error)"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("[nested_object]"), "{}", stdout(&o));
    let o = run(&["schema", "check", "--as-client", "--json", p(&nested)]);
    assert_eq!(code(&o), 1);
    assert_eq!(stdout_json(&o)["errors"][0]["kind"], "nested_object");
    // A schema inside the subset reads the same, with no notices.
    let ok = json_file("ok.json", &contact_schema());
    let o = run(&["schema", "check", "--as-client", p(&ok)]);
    assert_eq!(code(&o), 0);
    assert!(
        stdout(&o).contains("(4 fields, 0 notices); inside the subset"),
        "{}",
        stdout(&o)
    );
    let o = run_stdin(&["schema", "check", "--as-client", "--json", "-"], b"{");
    assert_eq!(code(&o), 2);
    assert_eq!(stdout_json(&o)["ok"], false);
}

#[test]
fn check_bad_input_exits_2_naming_the_file() {
    let missing = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("does-not-exist.json");
    let o = run(&["schema", "check", p(&missing)]);
    assert_exit_2(&o, "does-not-exist.json: cannot read");
    assert!(o.stdout.is_empty());

    let malformed = file(
        "malformed.json",
        "{\n  \"type\": \"object\",\n  \"properties\": {,}\n}",
    );
    let o = run(&["schema", "check", p(&malformed)]);
    assert_eq!(code(&o), 2);
    let err = stderr(&o);
    assert!(err.contains("malformed.json: malformed JSON"), "{err}");
    assert!(err.contains("line 3 column 18"), "{err}");

    let latin1 = file("latin1.json", b"{\"title\": \"caf\xe9\"}");
    let o = run(&["schema", "check", p(&latin1)]);
    assert_exit_2(
        &o,
        "latin1.json: not valid UTF-8 text (invalid byte at offset 14)",
    );

    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let o = run(&["schema", "check", p(&dir)]);
    assert_exit_2(&o, "cannot read");
}

#[test]
fn duplicate_keys_are_refused() {
    let dup = file(
        "dup.json",
        r#"{"type": "object", "properties": {"a": {"type": "string"}, "a": {"type": "object"}}}"#,
    );
    let o = run(&["schema", "check", p(&dup)]);
    assert_eq!(code(&o), 2);
    let err = stderr(&o);
    assert!(err.contains("dup.json: ambiguous JSON"), "{err}");
    assert!(err.contains("\"a\" appears twice"), "{err}");
}

#[test]
fn a_byte_order_mark_is_tolerated() {
    let mut bytes = "\u{FEFF}".as_bytes().to_vec();
    bytes.extend(contact_schema().to_string().as_bytes());
    let path = file("bom.json", bytes);
    assert_eq!(code(&run(&["schema", "check", p(&path)])), 0);
}

#[test]
fn deeply_nested_input_does_not_crash() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let path = file("deep.json", deep);
    let o = run(&["schema", "check", p(&path)]);
    assert_exit_2(&o, "malformed JSON");
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["schema"][..],
        &["schema", "check"],
        &["schema", "frobnicate"],
        &["schema", "validate", "x"],
    ] {
        let o = run(args);
        assert_eq!(code(&o), 2, "{args:?}");
        assert!(stderr(&o).contains("Usage"), "{}", stderr(&o));
    }
}

// ---------------------------------------------------------------- validate

#[test]
fn validate_valid_content() {
    let schema = json_file("s.json", &contact_schema());
    let content = json_file(
        "c.json",
        &json!({"name": "Ada", "email": "ada@example.com", "age": 36}),
    );
    let o = run(&["schema", "validate", p(&schema), p(&content)]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("c.json: valid"), "{}", stdout(&o));
    let o = run(&["schema", "validate", "--json", p(&schema), p(&content)]);
    assert_eq!(stdout_json(&o), json!({"valid": true, "violations": []}));
}

#[test]
fn validate_lists_every_violation() {
    let schema = json_file("s.json", &contact_schema());
    let content = json_file(
        "c.json",
        &json!({"email": "not-an-email", "age": 17.5, "extra": true}),
    );
    let o = run(&["schema", "validate", "--json", p(&schema), p(&content)]);
    assert_eq!(code(&o), 1);
    let report = stdout_json(&o);
    assert_eq!(report["valid"], false);
    let violations = report["violations"].as_array().unwrap();
    let pairs: Vec<(Value, &str)> = violations
        .iter()
        .map(|v| (v["property"].clone(), v["code"].as_str().unwrap()))
        .collect();
    for expected in [
        (json!("name"), "required"),
        (json!("email"), "format"),
        (json!("age"), "type"),
        (json!("age"), "minimum"),
        (json!("extra"), "unknown_property"),
    ] {
        assert!(
            pairs
                .iter()
                .any(|(p, c)| *p == expected.0 && *c == expected.1),
            "{expected:?} not in {pairs:?}"
        );
    }

    let o = run(&["schema", "validate", p(&schema), p(&content)]);
    assert_eq!(code(&o), 1);
    let text = stdout(&o);
    assert!(text.contains("invalid (5 violations)"), "{text}");
    assert!(text.contains("[minimum]"), "{text}");
}

#[test]
fn validate_content_that_is_not_an_object() {
    let schema = json_file("s.json", &contact_schema());
    let o = run_stdin(
        &["schema", "validate", "--json", p(&schema), "-"],
        b"[1, 2]",
    );
    assert_eq!(code(&o), 1);
    assert_eq!(stdout_json(&o)["violations"][0]["code"], "not_an_object");
}

#[test]
fn validate_with_a_bad_schema_exits_2() {
    let schema = json_file(
        "bad.json",
        &json!({"type": "object", "properties": {"x": {"type": "null"}}}),
    );
    let content = json_file("c.json", &json!({}));
    let o = run(&["schema", "validate", p(&schema), p(&content)]);
    assert_eq!(code(&o), 2);
    let err = stderr(&o);
    assert!(
        err.contains("bad.json: not a valid form-mode schema"),
        "{err}"
    );
    assert!(err.contains("/properties/x"), "{err}");
    let o = run(&["schema", "validate", "--json", p(&schema), p(&content)]);
    assert_eq!(code(&o), 2);
    let report = stdout_json(&o);
    assert_eq!(report["valid"], false);
    assert_eq!(report["schema_errors"][0]["kind"], "unsupported_type");
}

#[test]
fn validate_bad_content_input_exits_2() {
    let schema = json_file("s.json", &contact_schema());
    let o = run_stdin(&["schema", "validate", p(&schema), "-"], b"{\"name\": ");
    assert_exit_2(&o, "<stdin>: malformed JSON");
    assert!(stderr(&o).contains("line 1 column 9"), "{}", stderr(&o));
    let o = run(&["schema", "validate", "-", "-"]);
    assert_exit_2(&o, "only one of");
    let o = run(&[
        "schema",
        "validate",
        p(&schema),
        "/nonexistent/content.json",
    ]);
    assert_exit_2(&o, "/nonexistent/content.json: cannot read");
}

#[test]
fn apply_defaults_fills_then_validates() {
    let schema = json_file("s.json", &contact_schema());
    let content = json_file(
        "c.json",
        &json!({"name": "Ada", "email": "ada@example.com"}),
    );
    let o = run(&[
        "schema",
        "validate",
        "--apply-defaults",
        p(&schema),
        p(&content),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        stdout_json(&o),
        json!({"name": "Ada", "email": "ada@example.com", "age": 30, "color": "Red"})
    );
    assert!(
        stderr(&o).contains("defaults applied to \"age\", \"color\""),
        "{}",
        stderr(&o)
    );

    let o = run(&[
        "schema",
        "validate",
        "--apply-defaults",
        "--json",
        p(&schema),
        p(&content),
    ]);
    let report = stdout_json(&o);
    assert_eq!(report["valid"], true);
    assert_eq!(report["defaults_applied"], json!(["age", "color"]));
    assert_eq!(report["content"]["age"], 30);

    // Defaults never replace what the user sent, and cannot fix a missing required field.
    let content = json_file("c2.json", &json!({"email": "ada@example.com", "age": 50}));
    let o = run(&[
        "schema",
        "validate",
        "--apply-defaults",
        "--json",
        p(&schema),
        p(&content),
    ]);
    assert_eq!(code(&o), 1);
    let report = stdout_json(&o);
    assert_eq!(report["content"]["age"], 50);
    assert_eq!(report["defaults_applied"], json!(["color"]));
    assert_eq!(report["violations"][0]["code"], "required");
}

#[test]
fn hostile_text_is_escaped_for_the_terminal() {
    let schema = json!({"type": "object", "properties": {"a\u{1b}[2Jb": {"type": "object"}}});
    let path = json_file("esc.json", &schema);
    let o = run(&["schema", "check", p(&path)]);
    assert_eq!(code(&o), 1);
    let text = stdout(&o);
    assert!(!text.contains('\u{1b}'), "{text:?}");
    assert!(text.contains("\\u{001B}"), "{text:?}");
}

#[test]
fn json_mode_reports_input_errors_as_json_too() {
    let malformed = file("m.json", "{");
    let o = run(&["schema", "check", "--json", p(&malformed)]);
    assert_eq!(code(&o), 2);
    let report = stdout_json(&o);
    assert_eq!(report["ok"], false);
    assert_eq!(report["file"], p(&malformed));
    assert!(
        report["input_error"]
            .as_str()
            .unwrap()
            .starts_with("malformed JSON"),
        "{report}"
    );

    let schema = json_file("s.json", &contact_schema());
    let o = run(&["schema", "validate", "--json", p(&schema), p(&malformed)]);
    assert_eq!(code(&o), 2);
    let report = stdout_json(&o);
    assert_eq!(report["valid"], false);
    assert_eq!(report["input_error"]["file"], p(&malformed));
}

#[cfg(unix)]
#[test]
fn non_utf8_file_names_are_read() {
    use std::os::unix::ffi::OsStrExt;
    let dir = file("x.json", "").parent().unwrap().to_path_buf();
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9.json");
    std::fs::write(dir.join(name), contact_schema().to_string()).unwrap();
    let o = bin()
        .args(["schema", "check"])
        .arg(dir.join(name))
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).contains("caf\u{FFFD}.json: ok"),
        "{}",
        stdout(&o)
    );
    let o = bin()
        .args(["schema", "check"])
        .arg(dir.join(std::ffi::OsStr::from_bytes(b"n\xe9ant.json")))
        .output()
        .unwrap();
    assert_exit_2(&o, "n\u{FFFD}ant.json: cannot read");
}

#[test]
fn a_closed_stdout_is_not_a_panic() {
    let mut properties = serde_json::Map::new();
    for i in 0..200 {
        properties.insert(format!("{i:0>400}"), json!({"type": "object"}));
    }
    let path = json_file(
        "big.json",
        &json!({"type": "object", "properties": properties}),
    );
    for args in [
        vec!["schema", "check", "--json", p(&path)],
        vec!["schema", "check", p(&path)],
    ] {
        let mut child = bin()
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take()); // like `| head -0`
        let o = child.wait_with_output().unwrap();
        assert_eq!(code(&o), 1, "{}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    }
}
