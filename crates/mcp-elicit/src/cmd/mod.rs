//! One module per subcommand.

pub(crate) mod auth;
pub(crate) mod call;
pub(crate) mod conformance_client;
pub(crate) mod connect;
pub(crate) mod demo;
pub(crate) mod proxy;
pub(crate) mod schema;
pub(crate) mod serve;
pub(crate) mod url;

use std::process::ExitCode;

use crate::args::Command;

/// Runs one parsed command.
pub(crate) fn run(command: Command) -> ExitCode {
    match command {
        Command::Auth(a) => auth::run(a),
        Command::Schema(a) => schema::run(a),
        Command::Url(a) => url::run(a),
        Command::Call(a) => call::run(a),
        Command::ConformanceClient(a) => conformance_client::run(a),
        Command::Serve(a) => serve::run(*a),
        Command::Connect(a) => connect::run(a),
        Command::Demo(a) => demo::run(a),
        Command::Proxy(a) => proxy::run(a),
    }
}
