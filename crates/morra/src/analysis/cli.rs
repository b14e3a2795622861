//! The subcommands Morra adds to the `clash` command: `clash odds morra hands` and
//! `clash simulate morra`.

use clap::{Args, Subcommand};
use clash_analysis::cli::{self, OddsOptions, Outcome, SimulateOptions, bot_kinds, parsed, row};
use clash_analysis::say;
use clash_core::cli::{Commands, Subcommand as Offered};
use clash_core::{Listed, Ruleset};

use crate::analysis::contests::MorraContest;
use crate::analysis::round::hand_odds;
use crate::{Morra, Setup};

/// Morra's subcommands.
pub fn commands() -> Commands {
    Commands::odds_and_simulate(
        Offered::new(odds_command, run_odds),
        Offered::new(simulate_command, run_simulate),
    )
}

#[derive(Subcommand)]
enum MorraQuery {
    /// Every hand's chance of scoring and of conceding in one round against any hand chosen
    /// with equal chance, its average gain, and the equilibrium mix of hands (MO-9 to MO-11).
    Hands,
}

fn odds_command() -> clap::Command {
    let command = clap::Command::new(Morra::ID)
        .about("Morra: each hand's odds in one round, and the equilibrium mix.")
        .after_long_help("Examples\n  clash odds morra hands\n  clash odds morra hands --json")
        .subcommand_required(true);
    MorraQuery::augment_subcommands(command)
}

fn run_odds(m: &clap::ArgMatches) -> Outcome {
    let options: OddsOptions = parsed(m)?;
    match parsed::<MorraQuery>(m)? {
        MorraQuery::Hands => hands(options.json),
    }
}

fn hands(json: bool) -> Outcome {
    let odds = hand_odds().map_err(|e| e.to_string())?;
    if json {
        return cli::json(&odds);
    }
    say!("One round of Morra, against a hand chosen with equal chance among the nine:");
    for o in &odds {
        let hand = format!("show {}, call {}", o.hand.fingers, o.hand.call);
        row(&format!("{hand}: scores"), &o.scores)?;
        row(&format!("{hand}: concedes"), &o.concedes)?;
        row(&format!("{hand}: average points gained"), &o.edge)?;
    }
    say!("The equilibrium mix (no hand of the other player gains on it on average):");
    for o in odds.iter().filter(|o| o.equilibrium.fraction != "0/1") {
        row(
            &format!("show {}, call {}", o.hand.fingers, o.hand.call),
            &o.equilibrium,
        )?;
    }
    Ok(())
}

/// `clash simulate morra`: whole games between two bots.
#[derive(Args)]
struct SimulateMorra {
    /// Bot per seat, comma-separated: smart (the equilibrium mix) or random (default: smart).
    #[arg(long, value_delimiter = ',')]
    bots: Vec<String>,
    /// Points to win (MO-2; default 11).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=99))]
    target: Option<u32>,
    /// Rounds at most (MO-2; default 30).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=200))]
    round_limit: Option<u32>,
}

fn simulate_command() -> clap::Command {
    let command = clap::Command::new(Morra::ID)
        .about("whole games between two bots (--bots, --target, --round-limit)");
    SimulateMorra::augment_args(command)
}

fn run_simulate(m: &clap::ArgMatches) -> Outcome {
    let options: SimulateOptions = parsed(m)?;
    let args: SimulateMorra = parsed(m)?;
    let kinds = bot_kinds(&args.bots, 2)?;
    let defaults = Setup::default();
    let setup = Setup {
        target: args.target.unwrap_or(defaults.target),
        round_limit: args.round_limit.unwrap_or(defaults.round_limit),
        ..defaults
    };
    crate::build(&setup).map_err(|e| e.to_string())?;
    let contest = MorraContest {
        setup,
        bots: [kinds[0], kinds[1]],
    };
    cli::simulate(&contest, &options, Morra::NAME)
}
