//! `mcp-elicit-bench drive`: a fixed number of checked calls against a server that is
//! already running (for instruction counts under `valgrind --tool=callgrind`, where a
//! timed window means nothing), then exits; non-zero when any answer is wrong.

use std::sync::Arc;
use std::time::Instant;

use serde_json::{Map, Value};

use crate::args::DriveArgs;
use crate::load::{self, open_sessions};
use crate::servers::Revision;
use crate::session::{self, Session};

/// Runs `args.calls` calls on each of `args.sessions` sessions; prints calls and seconds.
pub(crate) async fn run(args: DriveArgs) -> Result<(), String> {
    let revision = if args.revision == "2026-07-28" {
        Revision::V2026
    } else {
        Revision::V2025
    };
    let http = session::http_client()?;
    let list = open_sessions(&http, &args.url, args.sessions, revision).await?;
    let list: Vec<Arc<Session>> = list.into_iter().map(Arc::new).collect();
    let started = Instant::now();
    let tasks: Vec<_> = list
        .iter()
        .map(|s| {
            let s = s.clone();
            let calls = args.calls;
            tokio::spawn(async move {
                let mut arguments = Map::new();
                arguments.insert(
                    "message".into(),
                    Value::String("Please provide your username and email".into()),
                );
                for _ in 0..calls {
                    let result = s.call("test_elicitation", arguments.clone()).await;
                    load::check(&s, result)?;
                }
                Ok::<(), String>(())
            })
        })
        .collect();
    for task in tasks {
        task.await.map_err(|e| e.to_string())??;
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{} checked calls in {secs:.3} s",
        args.calls * args.sessions
    );
    for s in list {
        if let Ok(s) = Arc::try_unwrap(s) {
            s.close().await;
        }
    }
    Ok(())
}
