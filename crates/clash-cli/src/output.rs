//! Standard output for every command. A reader that goes away early (`clash … | head`) is not an
//! error: the command stops writing and ends quietly instead of panicking, as `println!` would.

use std::io::{self, Write};
use std::process::ExitCode;

use serde::Serialize;

/// Why a command stopped before its end.
#[derive(Debug)]
pub enum Stop {
    /// Nobody reads standard output any more (a closed pipe): stop quietly.
    Closed,
    /// Something went wrong: the message goes to standard error.
    Failed(String),
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Stop {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Stop::Closed
        } else {
            Stop::Failed(format!("cannot write the output: {e}"))
        }
    }
}

impl From<String> for Stop {
    fn from(message: String) -> Stop {
        Stop::Failed(message)
    }
}

impl From<&str> for Stop {
    fn from(message: &str) -> Stop {
        Stop::Failed(message.to_string())
    }
}

/// What a command's body returns.
pub type Outcome = Result<(), Stop>;

/// Write one line to standard output; a closed pipe stops the command (`?` on [`Stop`]).
macro_rules! say {
    () => {
        $crate::output::line(format_args!(""))?
    };
    ($($arg:tt)*) => {
        $crate::output::line(format_args!($($arg)*))?
    };
}

/// Write part of a line to standard output.
macro_rules! say_part {
    ($($arg:tt)*) => {
        $crate::output::part(format_args!($($arg)*))?
    };
}

pub(crate) use {say, say_part};

pub fn line(args: std::fmt::Arguments) -> Result<(), Stop> {
    let mut out = io::stdout().lock();
    out.write_fmt(args)?;
    out.write_all(b"\n")?;
    Ok(())
}

pub fn part(args: std::fmt::Arguments) -> Result<(), Stop> {
    io::stdout().lock().write_fmt(args)?;
    Ok(())
}

/// Pretty JSON on standard output.
pub fn json<T: Serialize>(value: &T) -> Outcome {
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    line(format_args!("{text}"))
}

/// The exit code of an analysis command: 0 when it finished or its reader left early, 1 with
/// the message on standard error otherwise.
pub fn finish(what: &str, r: Outcome) -> ExitCode {
    match r {
        Ok(()) | Err(Stop::Closed) => ExitCode::SUCCESS,
        Err(Stop::Failed(e)) => {
            eprintln!("clash {what}: {e}");
            ExitCode::FAILURE
        }
    }
}
