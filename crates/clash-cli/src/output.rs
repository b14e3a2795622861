//! Standard output for every command. A reader that goes away early (`clash … | head`) is not an
//! error: the command stops writing and ends quietly instead of panicking, as `println!` would.
//! The writing itself is the analysis crate's ([`clash_analysis::cli`]), which the games'
//! subcommands share.

use std::process::ExitCode;

pub use clash_analysis::cli::{Outcome, Stop, json};
pub(crate) use clash_analysis::say;

/// The exit code of a command: 0 when it finished or its reader left early, 1 with the message
/// on standard error otherwise.
pub fn finish(what: &str, r: Outcome) -> ExitCode {
    match r {
        Ok(()) | Err(Stop::Closed) => ExitCode::SUCCESS,
        Err(Stop::Failed(e)) => {
            eprintln!("clash {what}: {e}");
            ExitCode::FAILURE
        }
    }
}
