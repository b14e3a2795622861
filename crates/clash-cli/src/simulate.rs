//! `clash simulate`: many bot-against-bot games in parallel, summarised.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, ValueEnum};
use clash_analysis::contests::{
    BotKind, IronContest, TouristsContest, TriforceContest, WickedContest,
};
use clash_analysis::histogram;
use clash_analysis::simulate::{Contest, Summary, simulate};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::output::{self, Outcome, say};
use crate::solve::read_json;

// ---------------------------------------------------------------------------------------------
// clash simulate

/// Many bot-against-bot games in parallel, with summary statistics.
#[derive(Args)]
#[command(after_long_help = SIMULATE_HELP)]
pub struct SimulateArgs {
    /// Which game to simulate.
    #[arg(value_enum)]
    system: SimSystem,
    /// Number of games.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Seed: the same seed gives the same results, whatever the number of threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    /// Draw a histogram of game lengths (.svg or .png).
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
    /// Bot per seat, comma-separated: smart or random (default: smart everywhere).
    #[arg(long, value_delimiter = ',')]
    bots: Vec<String>,
    /// Triforce: number of players (3 to 6, TF-5; default 3).
    #[arg(long, value_parser = clap::value_parser!(u8).range(3..=6))]
    players: Option<u8>,
    /// Triforce: MCTS playouts per decision (default 64).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    playouts: Option<u32>,
    /// Triforce: MCTS horizon, turns played after the current one before a playout is scored by
    /// territory (TF-30; default 6).
    #[arg(long)]
    playout_turns: Option<u32>,
    /// Triforce: turn limit (TF-30's optional parameter) so every game ends (default 150).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    turn_limit: Option<u32>,
    /// N-Dimensional Tourists: bid threshold of the bots, a probability (default 0.2).
    #[arg(long, value_parser = probability)]
    threshold: Option<f64>,
    /// N-Dimensional Tourists: round limit (default 30).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    max_rounds: Option<u16>,
    /// A setup file for the ruleset (wicked-age, nd-tourists, iron-triangle), in the scenario
    /// setup format; default: the built-in duel (see docs/analysis.md).
    #[arg(long)]
    setup: Option<PathBuf>,
}

fn probability(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!("{text:?} is not a probability between 0 and 1")),
    }
}

const SIMULATE_HELP: &str = "\
Games
  triforce       a whole game, MCTS bots (--players, --playouts, --playout-turns, --turn-limit)
  wicked-age     one conflict, PC Ash against NPC The Ogre, odds bots (or --setup FILE with the
                 first two characters as the participants)
  nd-tourists    the Kaiju Conflict (TV-4's parties), threshold bidders (--threshold, --max-rounds)
  iron-triangle  a lesser conflict, PC Ada (D3/G2/A5) against NPC Bruiser (D4/G4/A2), both
                 level 0, equilibrium bots

Win rates carry 95% Wilson intervals. The progress bar goes to stderr and is hidden when stderr is
not a terminal.";

#[derive(Clone, Copy, ValueEnum)]
enum SimSystem {
    Triforce,
    WickedAge,
    NdTourists,
    IronTriangle,
}

/// One bot kind per seat: the words given, then smart bots.
fn bot_kinds(words: &[String], seats: usize) -> Result<Vec<BotKind>, String> {
    if words.len() > seats {
        return Err(format!(
            "{} bots for {seats} seats: give at most one bot per seat",
            words.len()
        ));
    }
    let mut kinds = words
        .iter()
        .map(|w| w.parse::<BotKind>())
        .collect::<Result<Vec<_>, _>>()?;
    kinds.resize(seats, BotKind::Smart);
    Ok(kinds)
}

/// Options that only one game reads are refused for the others, rather than ignored.
fn check_options(args: &SimulateArgs) -> Result<(), String> {
    let given = |name: &'static str, is: bool| is.then_some(name);
    let triforce = [
        given("--players", args.players.is_some()),
        given("--playouts", args.playouts.is_some()),
        given("--playout-turns", args.playout_turns.is_some()),
        given("--turn-limit", args.turn_limit.is_some()),
    ];
    let tourists = [
        given("--threshold", args.threshold.is_some()),
        given("--max-rounds", args.max_rounds.is_some()),
    ];
    let foreign: Vec<&str> = match args.system {
        SimSystem::Triforce => tourists
            .into_iter()
            .chain([given("--setup", args.setup.is_some())])
            .flatten()
            .collect(),
        SimSystem::NdTourists => triforce
            .into_iter()
            .chain([given("--bots", !args.bots.is_empty())])
            .flatten()
            .collect(),
        SimSystem::WickedAge | SimSystem::IronTriangle => {
            triforce.into_iter().chain(tourists).flatten().collect()
        }
    };
    match foreign.as_slice() {
        [] => Ok(()),
        names => Err(format!(
            "{} do(es) not apply to {} (see clash simulate --help)",
            names.join(", "),
            system_name(args.system)
        )),
    }
}

fn contest(args: &SimulateArgs) -> Result<Box<dyn Contest>, String> {
    check_options(args)?;
    Ok(match args.system {
        SimSystem::Triforce => {
            let players = args.players.unwrap_or(3);
            Box::new(TriforceContest {
                players,
                bots: bot_kinds(&args.bots, usize::from(players))?,
                playouts: args.playouts.unwrap_or(64),
                playout_turns: args.playout_turns.unwrap_or(6),
                turn_limit: args.turn_limit.unwrap_or(150),
            })
        }
        SimSystem::WickedAge => {
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
            Box::new(c)
        }
        SimSystem::NdTourists => {
            let mut c = TouristsContest::kaiju().ok_or("the built-in setup is invalid")?;
            if let Some(path) = &args.setup {
                c.setup = read_json(path)?;
            }
            c.threshold = args.threshold.unwrap_or(0.2);
            c.max_rounds = args.max_rounds.unwrap_or(30);
            Box::new(c)
        }
        SimSystem::IronTriangle => {
            let mut c = IronContest::duel().ok_or("the built-in setup is invalid")?;
            if let Some(path) = &args.setup {
                c.setup = read_json(path)?;
            }
            let k = bot_kinds(&args.bots, 2)?;
            c.bots = [k[0], k[1]];
            Box::new(c)
        }
    })
}

pub fn simulate_cmd(args: SimulateArgs) -> ExitCode {
    output::finish("simulate", run_simulation(&args))
}

fn run_simulation(args: &SimulateArgs) -> Outcome {
    let contest = contest(args)?;
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(args.games), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {elapsed_precise} (eta {eta})")
    {
        bar.set_style(style);
    }
    let start = Instant::now();
    let summary = simulate(
        contest.as_ref(),
        args.games,
        args.seed,
        args.threads.map(usize::from),
        &|| bar.inc(1),
    );
    bar.finish_and_clear();
    let elapsed = start.elapsed().as_secs_f64();
    if let Some(path) = &args.plot {
        let title = format!(
            "{} game lengths ({} games, seed {})",
            system_name(args.system),
            summary.games,
            summary.seed
        );
        histogram::draw(path, &summary.lengths, &title, &summary.length_unit)
            .map_err(|e| e.to_string())?;
    }
    if args.json {
        return output::json(&summary);
    }
    print_summary(args, &summary, elapsed)
}

fn system_name(s: SimSystem) -> &'static str {
    match s {
        SimSystem::Triforce => "Triforce",
        SimSystem::WickedAge => "In A Wicked Age",
        SimSystem::NdTourists => "N-Dimensional Tourists",
        SimSystem::IronTriangle => "Iron Triangle",
    }
}

fn print_summary(args: &SimulateArgs, s: &Summary, elapsed: f64) -> Outcome {
    say!(
        "{}: {} games, seed {}, {:.2} s",
        system_name(args.system),
        s.games,
        s.seed,
        elapsed
    );
    say!("  {:<14} {:>7} {:>8}   95% interval", "", "wins", "rate");
    for r in &s.rates {
        say!(
            "  {:<14} {:>7} {:>7.1}%   [{:.1}%, {:.1}%]",
            r.contestant,
            r.wins,
            100.0 * r.rate,
            100.0 * r.low,
            100.0 * r.high
        );
    }
    say!(
        "  no winner: {}, shared wins: {}, cut off at the limit: {}",
        s.no_winner,
        s.shared,
        s.cut_off
    );
    say!(
        "  length ({}): min {}, p10 {}, median {}, mean {:.1}, p90 {}, max {}",
        s.length_unit,
        s.length_min,
        s.length_p10,
        s.length_median,
        s.length_mean,
        s.length_p90,
        s.length_max
    );
    for (lo, hi, n) in histogram::bins(&s.lengths, 12) {
        let bar = "#".repeat(((n as f64 / s.games.max(1) as f64) * 60.0).round() as usize);
        let range = if lo == hi {
            format!("{lo}")
        } else {
            format!("{lo}-{hi}")
        };
        say!("  {range:>9} {n:>6} {bar}");
    }
    if let Some(p) = &args.plot {
        say!("  histogram written to {}", p.display());
    }
    Ok(())
}
