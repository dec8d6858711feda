//! Tries to break how the system opener launches the browser (spec: open the URL
//! without a shell, B6/U9): a fake launcher script records the argv it receives, and
//! URLs full of shell syntax must arrive as exactly one argument, byte-identical, with
//! nothing else run.
#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mcp_elicit_client::opener::SystemBrowser;
use mcp_elicit_client::{OpenError, UrlOpener};

/// Hang guard while waiting for the launcher to write its record (never a timing
/// assertion: the launcher runs in the background).
const GUARD: Duration = Duration::from_secs(60);

/// A private directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        let dir = std::env::temp_dir().join(format!("mcpe-opener-{}-{nanos}", std::process::id()));
        std::fs::create_dir(&dir).expect("create temp dir");
        Self(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Writes the fake launcher: it records its argument count and each argument
/// (NUL-terminated) to `record`, written to a side file then renamed so a reader never
/// sees half a record.
fn fake_launcher(dir: &Path, record: &Path) -> PathBuf {
    let script = dir.join("fake-xdg-open");
    let body = format!(
        "#!/bin/sh\n\
         {{ printf '%s\\n' \"$#\"; for a in \"$@\"; do printf '%s\\0' \"$a\"; done; }} > '{rec}.part'\n\
         mv '{rec}.part' '{rec}'\n",
        rec = record.display()
    );
    std::fs::write(&script, body).expect("write fake launcher");
    let mut perms = std::fs::metadata(&script).expect("stat").permissions();
    perms.set_mode(0o700);
    std::fs::set_permissions(&script, perms).expect("chmod");
    script
}

/// Waits for the launcher's record and returns the arguments it received.
fn recorded_args(record: &Path) -> Vec<Vec<u8>> {
    let start = Instant::now();
    let bytes = loop {
        if let Ok(b) = std::fs::read(record) {
            break b;
        }
        assert!(
            start.elapsed() < GUARD,
            "the fake launcher never wrote {}",
            record.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let newline = bytes
        .iter()
        .position(|&b| b == b'\n')
        .expect("argument count line");
    let count: usize = std::str::from_utf8(&bytes[..newline])
        .expect("utf-8 count")
        .parse()
        .expect("numeric count");
    let args: Vec<Vec<u8>> = bytes[newline + 1..]
        .split(|&b| b == 0)
        .map(<[u8]>::to_vec)
        .collect();
    // The record ends with a NUL, so splitting leaves one empty tail.
    assert_eq!(args.last().map(Vec::len), Some(0), "{bytes:?}");
    let args = args[..args.len() - 1].to_vec();
    assert_eq!(args.len(), count, "argv recorded: {args:?}");
    args
}

/// Opens `url`; a freshly written script can be briefly "text file busy" when another
/// test's thread forks while it is being written, so that one error is retried.
fn open_retrying_busy(opener: &impl UrlOpener, url: &str) {
    let start = Instant::now();
    loop {
        match opener.open(url) {
            Ok(()) => return,
            Err(e) if e.0.contains("busy") && start.elapsed() < GUARD => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => panic!("the fake launcher did not start: {e}"),
        }
    }
}

#[test]
fn a_url_full_of_shell_syntax_reaches_the_launcher_as_one_untouched_argument() {
    let tmp = TempDir::new();
    let dir = &tmp.0;
    let record = dir.join("argv");
    let launcher = SystemBrowser::with_program(fake_launcher(dir, &record));
    let canary = |name: &str| dir.join(name).display().to_string();
    let hostile = [
        format!(
            "https://example.com/a b?x=1;touch {};y=$(touch {})&z=`touch {}`",
            canary("semicolon"),
            canary("dollar"),
            canary("backtick")
        ),
        format!(
            "https://example.com/'q'\"dq\"?a=1&&touch {}||touch {}|touch {}",
            canary("and"),
            canary("or"),
            canary("pipe")
        ),
        format!(
            "http://127.0.0.1:8/x\ntouch {}\n$HOME ${{IFS}}*?~ >{} <{}",
            canary("newline"),
            canary("redirect"),
            canary("input")
        ),
    ];
    for url in &hostile {
        let _ = std::fs::remove_file(&record);
        open_retrying_busy(&launcher, url);
        let args = recorded_args(&record);
        assert_eq!(
            args,
            vec![url.as_bytes().to_vec()],
            "exactly one argument, byte-identical; got {:?}",
            args.iter()
                .map(|a| String::from_utf8_lossy(a))
                .collect::<Vec<_>>()
        );
    }
    // Nothing but the launcher ran: no command hidden in the URLs left its mark, and
    // the directory holds only the launcher and its record.
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read temp dir")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["argv", "fake-xdg-open"]);

    // A URL that would read as an option never reaches the launcher.
    let _ = std::fs::remove_file(&record);
    let refused = launcher.open("--new-window=https://example.com");
    assert!(
        matches!(&refused, Err(OpenError(m)) if m.contains("starting with '-'")),
        "{refused:?}"
    );
    assert!(!record.exists(), "the launcher ran for an option-like URL");
}

#[test]
fn a_missing_launcher_is_an_error_naming_it_not_a_panic() {
    let missing = std::env::temp_dir().join("mcpe-no-such-launcher-x9q");
    let err = SystemBrowser::with_program(&missing)
        .open("https://example.com/")
        .expect_err("no such program");
    assert!(err.0.contains("mcpe-no-such-launcher-x9q"), "{err}");
    assert!(err.0.contains("cannot start the browser launcher"), "{err}");
}

#[test]
fn the_system_browser_uses_the_platform_launcher() {
    let expected = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    assert_eq!(SystemBrowser::program(), expected);
    assert_eq!(
        SystemBrowser::with_program(SystemBrowser::program()).program(),
        Path::new(expected)
    );
}
