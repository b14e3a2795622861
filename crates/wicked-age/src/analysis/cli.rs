//! The subcommands In A Wicked Age adds to the `clash` command: `clash odds wicked-age …` and
//! `clash simulate wicked-age …`.

use std::path::PathBuf;

use crate::WickedAge;
use crate::analysis::contests::WickedContest;
use crate::analysis::reports;
use clap::{Args, Subcommand};
use clash_analysis::cli::{
    self, OddsOptions, Outcome, SimulateOptions, bot_kinds, parsed, read_json, row,
};
use clash_analysis::say;
use clash_core::cli::{Commands, Subcommand as Offered};
use clash_core::{Listed, Ruleset};

/// In A Wicked Age's subcommands.
pub fn commands() -> Commands {
    Commands::odds_and_simulate(
        Offered::new(odds_command, run_odds),
        Offered::new(simulate_command, run_simulate),
    )
}

const ODDS_HELP: &str = "\
Input syntax
  In A Wicked Age pools: dice joined by '+'. dN = form die (High/Low; one or two of d12, d10, d8,
    d6, d4), adv = the Advantage d6 (one side at most), owe = an Owe d6, b8 or b10 = a strength
    die, each bonus die at most once.  Examples: d12+d8, d8+d4+adv, d6+d6+b8 (strength d8).

Examples
  clash odds wicked-age exchange d10+d6 d12+d8            (spec P1)
  clash odds wicked-age exchange d10+d6 d12+d8 --round 3  (P3)
  clash odds wicked-age exchange d10+d6 d12+d8 --opening  (P9)
  clash odds wicked-age conflict d12+d8 d10+d6            (P8, P10)";

#[derive(Subcommand)]
enum WickedQuery {
    /// One exchange: the answer's pool against the challenge's pool (WA-23 bands).
    Exchange {
        /// The answer's dice, e.g. d10+d6
        answer: String,
        /// The challenge's dice, e.g. d12+d8
        challenge: String,
        /// Round 1 or 2 (four bands) or 3 (challenger out / answerer out).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=3))]
        round: u8,
        /// The challenge is the challenger's standing initiative roll, given that it beat the
        /// answerer's initiative (spec P9) instead of a fresh roll.
        #[arg(long)]
        opening: bool,
    },
    /// A whole two-party conflict with fixed dice (spec P10), plus first-round initiative (P8).
    Conflict {
        /// X's dice, e.g. d12+d8
        x: String,
        /// Y's dice, e.g. d10+d6
        y: String,
    },
}

fn odds_command() -> clap::Command {
    let command = clap::Command::new(WickedAge::ID)
        .about("In A Wicked Age: one exchange, or a whole two-party conflict.")
        .after_long_help(ODDS_HELP)
        .subcommand_required(true);
    WickedQuery::augment_subcommands(command)
}

fn run_odds(m: &clap::ArgMatches) -> Outcome {
    let options: OddsOptions = parsed(m)?;
    match parsed::<WickedQuery>(m)? {
        WickedQuery::Exchange {
            answer,
            challenge,
            round,
            opening,
        } => exchange(&answer, &challenge, round, opening, options.json),
        WickedQuery::Conflict { x, y } => conflict(&x, &y, options.json),
    }
}

fn pool(text: &str) -> Result<reports::Roll, String> {
    reports::parse_roll(text).map_err(|e| e.to_string())
}

fn exchange(answer: &str, challenge: &str, round: u8, opening: bool, json: bool) -> Outcome {
    let kind = if opening {
        reports::ChallengeKind::Opening
    } else {
        reports::ChallengeKind::Fresh
    };
    let r = reports::exchange(&pool(answer)?, &pool(challenge)?, round, kind)
        .map_err(|e| e.to_string())?;
    if json {
        return cli::json(&r);
    }
    let how = if opening {
        "standing initiative roll"
    } else {
        "fresh roll"
    };
    say!(
        "Answer {} against challenge {} ({how}), round {}:",
        r.answer,
        r.challenge,
        r.round
    );
    for b in &r.bands {
        row(b.text, &b.probability)?;
    }
    if let Some(p) = &r.answer_at_least_challenge {
        row("answer at least the challenge", p)?;
    }
    Ok(())
}

fn conflict(x: &str, y: &str, json: bool) -> Outcome {
    let r = reports::conflict(&pool(x)?, &pool(y)?).map_err(|e| e.to_string())?;
    if json {
        return cli::json(&r);
    }
    say!(
        "Whole conflict, X = {} against Y = {} (no negotiation, no strengths):",
        r.x,
        r.y
    );
    row("X wins", &r.x_wins)?;
    row("Y wins", &r.y_wins)?;
    say!("First-round initiative:");
    row("X strictly higher on one roll", &r.initiative_x_higher)?;
    row("exact tie (rerolled)", &r.initiative_tie)?;
    row("Y strictly higher on one roll", &r.initiative_y_higher)?;
    row("X first after rerolling ties", &r.x_first_after_rerolls)?;
    Ok(())
}

/// `clash simulate wicked-age`: one conflict, odds bots.
#[derive(Args)]
struct SimulateWicked {
    /// Bot per seat, comma-separated: smart or random (default: smart everywhere).
    #[arg(long, value_delimiter = ',')]
    bots: Vec<String>,
    /// A setup file, in the scenario setup format, whose first two characters are the
    /// participants; default: the built-in duel (see docs/analysis.md).
    #[arg(long)]
    setup: Option<PathBuf>,
}

fn simulate_command() -> clap::Command {
    let command = clap::Command::new(WickedAge::ID).about(
        "one conflict, PC Ash against NPC The Ogre, odds bots (or --setup FILE with the first two characters as the participants)",
    );
    SimulateWicked::augment_args(command)
}

fn run_simulate(m: &clap::ArgMatches) -> Outcome {
    let options: SimulateOptions = parsed(m)?;
    let args: SimulateWicked = parsed(m)?;
    let mut c = WickedContest::duel();
    if let Some(path) = &args.setup {
        c.setup = read_json(path)?;
        let names: Vec<String> = c
            .setup
            .characters
            .iter()
            .take(2)
            .map(|ch| ch.name.clone())
            .collect();
        let [a, b] = names.as_slice() else {
            return Err("the setup needs two characters".into());
        };
        c.participants = [a.clone(), b.clone()];
    }
    let k = bot_kinds(&args.bots, 2)?;
    c.bots = [k[0], k[1]];
    cli::simulate(&c, &options, WickedAge::NAME)
}
