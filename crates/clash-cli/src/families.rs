//! The analysis families of the `clash` command (`odds`, `simulate`, `solve`, `analyse`), whose
//! subcommands come from the games: each catalogue entry may offer one subcommand per family,
//! named after its ruleset ([`clash_core::cli`]). This module knows no game: it adds what the
//! catalogue offers to each family's clap command and hands the matches of the chosen game's
//! subcommand to that game.

use clap::{ArgMatches, Args};
use clash_analysis::cli::{OddsOptions, SimulateOptions};
use clash_core::RulesetEntry;
use clash_core::cli::Family;

use crate::output::Outcome;

/// Options of `clash odds` (the games add their own subcommands).
#[derive(Args)]
#[command(after_long_help = "Each game's queries and input syntax: `clash odds GAME --help`.")]
pub struct OddsArgs {
    #[command(flatten)]
    options: OddsOptions,
}

/// Options of `clash simulate` (the games add their own subcommands and options).
#[derive(Args)]
#[command(after_long_help = SIMULATE_HELP)]
pub struct SimulateArgs {
    #[command(flatten)]
    options: SimulateOptions,
}

const SIMULATE_HELP: &str = "\
Each game's simulated game and its own options: `clash simulate GAME --help`.

Win rates carry 95% Wilson intervals. The progress bar goes to stderr and is hidden when stderr is
not a terminal.";

/// `clash analyse` (the games add their own subcommands).
#[derive(Args)]
pub struct AnalyseArgs {}

/// `cli` with each family's subcommands as the `catalogue` offers them.
pub fn augment(mut cli: clap::Command, catalogue: &[RulesetEntry]) -> clap::Command {
    for family in Family::ALL {
        cli = cli.mut_subcommand(family.name(), |mut command| {
            for entry in catalogue {
                if let Some(offered) = entry.commands.get(family) {
                    command = command.subcommand((offered.command)());
                }
            }
            command.subcommand_required(true)
        });
    }
    cli
}

/// Run the game's subcommand chosen in `family` (whose matches are `matches`), or `None` when
/// the family's own subcommand was chosen.
pub fn run(family: Family, matches: &ArgMatches, catalogue: &[RulesetEntry]) -> Option<Outcome> {
    let (name, game) = matches.subcommand_matches(family.name())?.subcommand()?;
    let offered = catalogue
        .iter()
        .find(|e| e.id == name)
        .and_then(|e| e.commands.get(family))?;
    Some((offered.run)(game))
}
