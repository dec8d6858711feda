//! One module per subcommand.

pub(crate) mod schema;
pub(crate) mod url;

use std::process::ExitCode;

use crate::args::Command;

/// Runs one parsed command.
pub(crate) fn run(command: Command) -> ExitCode {
    match command {
        Command::Schema(a) => schema::run(a),
        Command::Url(a) => url::run(a),
    }
}
