//! The subcommands N-Dimensional Tourists adds to the `clash` command: `clash odds nd-tourists
//! …` and `clash simulate nd-tourists …`.

use std::path::PathBuf;

use crate::analysis::contests::TouristsContest;
use crate::analysis::draw_odds;
use crate::probability::Knowledge;
use crate::{Card, NdTourists};
use clap::{Args, Subcommand};
use clash_analysis::cli::{self, OddsOptions, Outcome, SimulateOptions, parsed, read_json, row};
use clash_analysis::say;
use clash_core::cli::{Commands, Subcommand as Offered};
use clash_core::{Listed, Ruleset};

/// N-Dimensional Tourists' subcommands.
pub fn commands() -> Commands {
    Commands::odds_and_simulate(
        Offered::new(odds_command, run_odds),
        Offered::new(simulate_command, run_simulate),
    )
}

const ODDS_HELP: &str = "\
Input syntax
  N-Dimensional Tourists cards: comma-separated names: XIV, Paper Servant, Excuse, Blank Rock 1.

Examples
  clash odds nd-tourists break --targets XVI --seen 'XIV, IV' --unseen 1 --draws 2
  clash odds nd-tourists reversed --already 2 --draws 1";

#[derive(Subcommand)]
enum TouristsQuery {
    /// Chance that the next k draws break a set of cards (each beaten by some drawn card).
    Break {
        /// The cards to break, comma-separated (e.g. the Dominant's line); being face up, they
        /// count as out of the deck (ND-4).
        #[arg(long)]
        targets: String,
        /// Cards the asker has seen leave the deck, comma-separated, each once (ND-1).
        #[arg(long, default_value = "")]
        seen: String,
        /// Cards out of the deck that the asker has not seen (other parties' Reserves).
        #[arg(long, default_value_t = 0)]
        unseen: usize,
        /// Number of draws.
        #[arg(long, default_value_t = 1)]
        draws: usize,
        /// The 10 suit blanks are in the deck (D-1).
        #[arg(long)]
        blanks: bool,
    },
    /// Distribution of reversed cards (and the Loss they mean) after k more draws.
    Reversed {
        /// Reversed cards already in the bid line.
        #[arg(long, default_value_t = 0)]
        already: u32,
        /// Number of draws (at most the cards left in the deck, ND-1).
        #[arg(long, default_value_t = 1)]
        draws: u32,
        /// The 10 suit blanks are in the deck (D-1): 77 cards instead of 67.
        #[arg(long)]
        blanks: bool,
    },
}

fn odds_command() -> clap::Command {
    let command = clap::Command::new(NdTourists::ID)
        .about(
            "N-Dimensional Tourists: breaking a set with the next draws; reversed cards after k draws.",
        )
        .after_long_help(ODDS_HELP)
        .subcommand_required(true);
    TouristsQuery::augment_subcommands(command)
}

fn run_odds(m: &clap::ArgMatches) -> Outcome {
    let options: OddsOptions = parsed(m)?;
    match parsed::<TouristsQuery>(m)? {
        TouristsQuery::Break {
            targets,
            seen,
            unseen,
            draws,
            blanks,
        } => {
            let targets = draw_odds::parse_cards(&targets).map_err(|e| e.to_string())?;
            let seen_out = draw_odds::parse_card_set(&seen).map_err(|e| e.to_string())?;
            let k = Knowledge {
                seen_out,
                unseen_out: unseen,
                blanks,
                left_out: crate::cards::CardSet::EMPTY,
            };
            break_odds(&k, &targets, draws, options.json)
        }
        TouristsQuery::Reversed {
            already,
            draws,
            blanks,
        } => reversed(already, draws, blanks, options.json),
    }
}

fn break_odds(k: &Knowledge, targets: &[Card], draws: usize, json: bool) -> Outcome {
    let r = draw_odds::break_report(k, targets, draws).map_err(|e| e.to_string())?;
    if json {
        return cli::json(&r);
    }
    let names: Vec<String> = r.targets.iter().map(|c| c.to_string()).collect();
    say!(
        "{} draw(s) from {} cards the asker has not seen ({} seen out, {} out unseen):",
        r.draws,
        r.candidates,
        r.seen_out,
        r.unseen_out
    );
    row(&format!("break {{{}}}", names.join(", ")), &r.breaks)?;
    for (c, p) in &r.per_target {
        row(&format!("  beat {c}"), p)?;
    }
    Ok(())
}

fn reversed(already: u32, draws: u32, blanks: bool, json: bool) -> Outcome {
    let r = draw_odds::reversed_report(already, draws, blanks).map_err(|e| e.to_string())?;
    if json {
        return cli::json(&r);
    }
    say!("Reversed cards after {draws} more draw(s), from {already} (ND-2, ND-21):");
    for c in &r.counts {
        row(
            &format!("{} reversed ({})", c.reversed, c.severity.name()),
            &c.probability,
        )?;
    }
    say!("Loss at the end of the round:");
    for (s, p) in &r.severities {
        row(s.name(), p)?;
    }
    Ok(())
}

/// `clash simulate nd-tourists`: the Kaiju Conflict, threshold bidders.
#[derive(Args)]
struct SimulateTourists {
    /// Bid threshold of the bots, a probability (default 0.2).
    #[arg(long, value_parser = probability)]
    threshold: Option<f64>,
    /// Round limit (default 30).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    max_rounds: Option<u16>,
    /// A setup file, in the scenario setup format; default: the built-in Kaiju Conflict (see
    /// docs/analysis.md).
    #[arg(long)]
    setup: Option<PathBuf>,
}

fn probability(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!("{text:?} is not a probability between 0 and 1")),
    }
}

fn simulate_command() -> clap::Command {
    let command = clap::Command::new(NdTourists::ID).about(
        "the Kaiju Conflict (TV-4's parties), threshold bidders (--threshold, --max-rounds)",
    );
    SimulateTourists::augment_args(command)
}

fn run_simulate(m: &clap::ArgMatches) -> Outcome {
    let options: SimulateOptions = parsed(m)?;
    let args: SimulateTourists = parsed(m)?;
    let mut c = TouristsContest::kaiju().ok_or("the built-in setup is invalid")?;
    if let Some(path) = &args.setup {
        c.setup = read_json(path)?;
    }
    c.threshold = args.threshold.unwrap_or(0.2);
    c.max_rounds = args.max_rounds.unwrap_or(30);
    cli::simulate(&c, &options, NdTourists::NAME)
}
