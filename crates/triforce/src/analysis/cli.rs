//! The subcommands Triforce adds to the `clash` command: `clash odds triforce combat …` and
//! `clash simulate triforce …`.

use clap::{Args, Subcommand};
use clash_analysis::cli::{self, OddsOptions, Outcome, SimulateOptions, bot_kinds, parsed, row};
use clash_analysis::say;
use clash_core::cli::{Commands, Subcommand as Offered};
use clash_core::{Listed, Ruleset};

use crate::analysis::combat_odds;
use crate::analysis::contests::TriforceContest;
use crate::{Gear, Triforce};

/// Triforce's subcommands.
pub fn commands() -> Commands {
    Commands::odds_and_simulate(
        Offered::new(odds_command, run_odds),
        Offered::new(simulate_command, run_simulate),
    )
}

const ODDS_HELP: &str = "\
Input syntax
  Triforce participants: plain | sword | shield, one word per participant (2 to 6; at most one
    sword and one shield).

Examples
  clash odds triforce combat sword shield plain";

#[derive(Subcommand)]
enum TriforceQuery {
    /// Each participant's chance of losing one combat (TF-23 … TF-26).
    Combat {
        /// plain, sword or shield for each participant (2 to 6).
        #[arg(required = true, num_args = 2..=6)]
        participants: Vec<String>,
    },
}

fn odds_command() -> clap::Command {
    let command = clap::Command::new(Triforce::ID)
        .about("Triforce: one combat's losers.")
        .after_long_help(ODDS_HELP)
        .subcommand_required(true);
    TriforceQuery::augment_subcommands(command)
}

fn run_odds(m: &clap::ArgMatches) -> Outcome {
    let options: OddsOptions = parsed(m)?;
    match parsed::<TriforceQuery>(m)? {
        TriforceQuery::Combat { participants } => combat(&participants, options.json),
    }
}

fn combat(words: &[String], json: bool) -> Outcome {
    let gear = words
        .iter()
        .map(|w| combat_odds::parse_gear(w))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let r = combat_odds::combat(&gear).map_err(|e| e.to_string())?;
    if json {
        return cli::json(&r);
    }
    say!("One Triforce combat (d12 each; sword d12+d12 wins ties; shield d20 loses ties):");
    for (i, (g, p)) in r.participants.iter().zip(&r.loses).enumerate() {
        let (name, what) = match g {
            Gear::None => ("plain", "loses a piece"),
            Gear::Sword => ("sword", "loses the sword"),
            Gear::Shield => ("shield", "loses the shield"),
        };
        row(&format!("#{} {name}: {what}", i + 1), p)?;
    }
    say!("Loser sets (add up to 1):");
    for s in &r.loser_sets {
        let names: Vec<String> = s.losers.iter().map(|i| format!("#{}", i + 1)).collect();
        row(&names.join(" + "), &s.probability)?;
    }
    Ok(())
}

/// `clash simulate triforce`: a whole game, MCTS bots.
#[derive(Args)]
struct SimulateTriforce {
    /// Bot per seat, comma-separated: smart or random (default: smart everywhere).
    #[arg(long, value_delimiter = ',')]
    bots: Vec<String>,
    /// Number of players (3 to 6, TF-5; default 3).
    #[arg(long, value_parser = clap::value_parser!(u8).range(3..=6))]
    players: Option<u8>,
    /// MCTS playouts per decision (default 64).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    playouts: Option<u32>,
    /// MCTS horizon, turns played after the current one before a playout is scored by
    /// territory (TF-30; default 6).
    #[arg(long)]
    playout_turns: Option<u32>,
    /// Turn limit (TF-30's optional parameter) so every game ends (default 150).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    turn_limit: Option<u32>,
}

fn simulate_command() -> clap::Command {
    let command = clap::Command::new(Triforce::ID)
        .about("a whole game, MCTS bots (--players, --playouts, --playout-turns, --turn-limit)");
    SimulateTriforce::augment_args(command)
}

fn run_simulate(m: &clap::ArgMatches) -> Outcome {
    let options: SimulateOptions = parsed(m)?;
    let args: SimulateTriforce = parsed(m)?;
    let players = args.players.unwrap_or(3);
    let contest = TriforceContest {
        players,
        bots: bot_kinds(&args.bots, usize::from(players))?,
        playouts: args.playouts.unwrap_or(64),
        playout_turns: args.playout_turns.unwrap_or(6),
        turn_limit: args.turn_limit.unwrap_or(150),
    };
    cli::simulate(&contest, &options, Triforce::NAME)
}
