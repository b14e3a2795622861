//! The subcommands Iron Triangle adds to the `clash` command: `clash solve iron-triangle …`
//! ([`solve`]), `clash analyse iron-triangle builds` ([`analyse`]) and `clash simulate
//! iron-triangle`.

mod analyse;
mod solve;

use std::path::PathBuf;

use crate::IronTriangle;
use crate::analysis::contests::IronContest;
use clap::{Args, FromArgMatches};
use clash_analysis::cli::{self, Outcome, SimulateOptions, bot_kinds, read_json};
use clash_core::cli::{Commands, Subcommand as Offered};
use clash_core::{Listed, Ruleset};

/// Iron Triangle's subcommands.
pub fn commands() -> Commands {
    Commands {
        solve: Some(Offered {
            command: solve::solve_command,
            run: solve::run_solve,
        }),
        analyse: Some(Offered {
            command: analyse::analyse_command,
            run: analyse::run_analyse,
        }),
        simulate: Some(Offered {
            command: simulate_command,
            run: run_simulate,
        }),
        ..Commands::default()
    }
}

/// `clash simulate iron-triangle`: a lesser conflict, equilibrium bots.
#[derive(Args)]
struct SimulateIron {
    /// Bot per seat, comma-separated: smart or random (default: smart everywhere).
    #[arg(long, value_delimiter = ',')]
    bots: Vec<String>,
    /// A setup file, in the scenario setup format; default: the built-in duel (see
    /// docs/analysis.md).
    #[arg(long)]
    setup: Option<PathBuf>,
}

fn simulate_command() -> clap::Command {
    let command = clap::Command::new(IronTriangle::ID).about(
        "a lesser conflict, PC Ada (D3/G2/A5) against NPC Bruiser (D4/G4/A2), both level 0, equilibrium bots",
    );
    SimulateIron::augment_args(command)
}

fn run_simulate(m: &clap::ArgMatches) -> Outcome {
    let parse = |e: clap::Error| cli::Stop::Failed(e.to_string());
    let options = SimulateOptions::from_arg_matches(m).map_err(parse)?;
    let args = SimulateIron::from_arg_matches(m).map_err(parse)?;
    let mut c = IronContest::duel().ok_or("the built-in setup is invalid")?;
    if let Some(path) = &args.setup {
        c.setup = read_json(path)?;
    }
    let k = bot_kinds(&args.bots, 2)?;
    c.bots = [k[0], k[1]];
    cli::simulate(&c, &options, IronTriangle::NAME)
}
