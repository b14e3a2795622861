//! What a ruleset adds to the `clash` command (feature `cli`).
//!
//! The `clash` command has four families of analysis subcommands, `odds`, `simulate`, `solve`
//! and `analyse`, and no family knows any game. Each game contributes its own subcommand, named
//! after its ruleset ID, to the families it has something for ([`Commands`], set with
//! [`crate::RulesetEntry::with_commands`] on the game's catalogue line). A [`Subcommand`] is a
//! clap command (built with clap's builder API, or derived and turned into one with
//! `augment_subcommands`/`augment_args`) and the function that runs it on what clap parsed.
//!
//! `clash odds GAME QUERY … --json` so reaches the game's `run` with the matches of its `GAME`
//! subcommand. Options the family itself offers (`--json`,
//! `--games` …) are declared by the `clash` command as global options of the family, so clap
//! hands them down into the game's matches as well, where the game reads them with the same
//! argument types (the analysis crate's `cli` module holds those, with the output helpers every
//! subcommand shares).
//!
//! Only these types live in the kernel, and only with the `cli` feature, so that a build of
//! just the rules never compiles clap. The kernel does no I/O: a subcommand prints its own
//! output and answers an [`Outcome`], which the `clash` command turns into an exit code.

/// Why a subcommand stopped before its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// Nobody reads standard output any more (a closed pipe): stop quietly.
    Closed,
    /// Something went wrong: the message goes to standard error.
    Failed(String),
}

impl From<std::io::Error> for Stop {
    fn from(e: std::io::Error) -> Stop {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
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

/// What a subcommand's run returns.
pub type Outcome = Result<(), Stop>;

/// One subcommand a ruleset offers under a family.
#[derive(Clone, Copy)]
pub struct Subcommand {
    /// The subcommand, named after the ruleset's ID, with its arguments and its own
    /// subcommands.
    pub command: fn() -> clap::Command,
    /// Run it on the matches of [`Subcommand::command`] (the family's global options included).
    pub run: fn(&clap::ArgMatches) -> Outcome,
}

impl Subcommand {
    /// The subcommand `command` builds, run by `run`.
    pub const fn new(
        command: fn() -> clap::Command,
        run: fn(&clap::ArgMatches) -> Outcome,
    ) -> Self {
        Subcommand { command, run }
    }
}

/// The families of analysis subcommands of the `clash` command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// `clash odds`: exact odds of dice and draws.
    Odds,
    /// `clash simulate`: bot-against-bot games in parallel.
    Simulate,
    /// `clash solve`: exact equilibria.
    Solve,
    /// `clash analyse`: long analyses written to files.
    Analyse,
}

impl Family {
    pub const ALL: [Family; 4] = [
        Family::Odds,
        Family::Simulate,
        Family::Solve,
        Family::Analyse,
    ];

    /// The family's subcommand name (`"odds"` …).
    pub fn name(self) -> &'static str {
        match self {
            Family::Odds => "odds",
            Family::Simulate => "simulate",
            Family::Solve => "solve",
            Family::Analyse => "analyse",
        }
    }
}

/// Everything a ruleset adds to the `clash` command: at most one subcommand per family.
#[derive(Clone, Copy, Default)]
pub struct Commands {
    pub odds: Option<Subcommand>,
    pub simulate: Option<Subcommand>,
    pub solve: Option<Subcommand>,
    pub analyse: Option<Subcommand>,
}

impl Commands {
    /// The subcommands most games offer: `clash odds <game> …` and `clash simulate <game>`.
    pub fn odds_and_simulate(odds: Subcommand, simulate: Subcommand) -> Self {
        Commands {
            odds: Some(odds),
            simulate: Some(simulate),
            ..Commands::default()
        }
    }

    /// The ruleset's subcommand in `family`, if it has one.
    pub fn get(&self, family: Family) -> Option<Subcommand> {
        match family {
            Family::Odds => self.odds,
            Family::Simulate => self.simulate,
            Family::Solve => self.solve,
            Family::Analyse => self.analyse,
        }
    }
}
