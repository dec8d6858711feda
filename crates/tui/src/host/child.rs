//! Starting a stdio server for the terminal host. Unlike a plain client, the host owns
//! the terminal, so the server's stderr must not be inherited (it would write over the
//! screens): it is captured, and its last lines are printed after the screens close.

use std::collections::VecDeque;
use std::io;
use std::process::Stdio;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// How many stderr lines are kept.
const KEEP: usize = 200;
/// Longest stderr line kept, in bytes (longer ones are cut).
const MAX_LINE: usize = 1000;

/// A started server process.
pub(crate) struct ServerProcess {
    /// Killed when dropped.
    pub(crate) child: Child,
    pub(crate) stdout: ChildStdout,
    pub(crate) stdin: ChildStdin,
    pub(crate) stderr: StderrTail,
}

/// The last lines the server wrote to stderr.
#[derive(Debug, Clone, Default)]
pub(crate) struct StderrTail(Arc<Mutex<VecDeque<String>>>);

impl StderrTail {
    fn push(&self, line: String) {
        let mut q = self.0.lock().unwrap_or_else(|p| p.into_inner());
        q.push_back(line);
        while q.len() > KEEP {
            q.pop_front();
        }
    }

    /// The kept lines, oldest first.
    pub(crate) fn lines(&self) -> Vec<String> {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .cloned()
            .collect()
    }
}

/// Starts `command[0]` with `command[1..]` (no shell), stdin/stdout piped for MCP,
/// stderr captured into a [`StderrTail`].
pub(crate) fn spawn(command: &[String]) -> io::Result<ServerProcess> {
    let Some((program, args)) = command.split_first() else {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "empty command"));
    };
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| io::Error::new(e.kind(), format!("cannot start {program:?}: {e}")))?;
    let (Some(stdin), Some(stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        return Err(io::Error::other("child pipes unavailable"));
    };
    let tail = StderrTail::default();
    let sink = tail.clone();
    tokio::spawn(async move {
        let mut lines = BufReader::new(stderr).split(b'\n');
        while let Ok(Some(mut line)) = lines.next_segment().await {
            line.truncate(MAX_LINE);
            sink.push(String::from_utf8_lossy(&line).into_owned());
        }
    });
    Ok(ServerProcess {
        child,
        stdout,
        stdin,
        stderr: tail,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn stderr_is_captured_not_inherited() {
        let cmd: Vec<String> = ["sh", "-c", "echo to-stderr >&2; echo out"]
            .map(String::from)
            .into();
        let p = spawn(&cmd).expect("sh runs");
        let mut out = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut { p.stdout }, &mut out)
            .await
            .expect("read");
        assert_eq!(out, "out\n");
        for _ in 0..100 {
            if !p.stderr.lines().is_empty() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        assert_eq!(p.stderr.lines(), vec!["to-stderr".to_string()]);
    }

    #[test]
    fn empty_commands_are_refused() {
        assert!(spawn(&[]).is_err());
    }
}
