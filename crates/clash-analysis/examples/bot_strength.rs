//! Strong against casual table bots: many simulated tables per ruleset, the strong bot in a seat
//! drawn at random each game, win rates with 95% Wilson intervals (see docs/analysis.md).
//!
//! ```text
//! cargo run --release -p clash-analysis --example bot_strength -- [GAME …] [--games N]
//!     [--seed S] [--work W] [--threads T] [--json]
//! ```
//!
//! GAME is any of `iron-triangle`, `triforce`, `nd-tourists`, `wicked-age` (default: all).
//! `--work` is each strong bot's work budget per command (the clock is not used, so a seed
//! gives the same games on any machine): Triforce playouts, Tourists deals, Iron Triangle
//! move games.

use std::process::ExitCode;
use std::time::Instant;

use clash_analysis::bot_strength::{
    IronDuel, Match, Table, TouristsConflict, TriforceGame, WickedConflict,
};
use clash_analysis::simulate::{Contest, Summary, simulate};
use clash_core::Budget;
use serde_json::json;

struct Args {
    games: Vec<String>,
    count: u64,
    seed: u64,
    work: u32,
    threads: Option<usize>,
    json: bool,
}

fn parse() -> Result<Args, String> {
    let mut args = Args {
        games: Vec::new(),
        count: 200,
        seed: 1,
        work: 200,
        threads: None,
        json: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut number = |name: &str| -> Result<u64, String> {
            it.next()
                .and_then(|v| v.parse().ok())
                .ok_or(format!("{name} needs a number"))
        };
        match a.as_str() {
            "--games" => args.count = number("--games")?,
            "--seed" => args.seed = number("--seed")?,
            "--work" => args.work = number("--work")?.clamp(1, 1_000_000) as u32,
            "--threads" => args.threads = Some(number("--threads")?.max(1) as usize),
            "--json" => args.json = true,
            "iron-triangle" | "triforce" | "nd-tourists" | "wicked-age" => args.games.push(a),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if args.games.is_empty() {
        args.games = ["iron-triangle", "triforce", "nd-tourists", "wicked-age"]
            .map(String::from)
            .to_vec();
    }
    Ok(args)
}

fn contest(game: &str, budget: Budget) -> Option<(Box<dyn Contest>, &'static str)> {
    fn boxed<T: Table + 'static>(table: T, budget: Budget) -> Box<dyn Contest> {
        Box::new(Match { table, budget })
    }
    Some(match game {
        "iron-triangle" => (
            boxed(IronDuel::new()?, budget),
            "Iron Triangle: Ada (D3/G2/A5) against the Bruiser (D4/G4/A2), a lesser conflict",
        ),
        "triforce" => (
            boxed(
                TriforceGame {
                    players: 3,
                    turn_limit: 60,
                },
                budget,
            ),
            "Triforce: three players, turn limit 60, one strong seat against two casual ones",
        ),
        "nd-tourists" => (
            boxed(TouristsConflict::kaiju(100)?, budget),
            "N-Dimensional Tourists: the Kaiju Conflict (Levinulon against TMDF), 100 rounds at most",
        ),
        "wicked-age" => (
            boxed(WickedConflict::brawl()?, budget),
            "In A Wicked Age: the three-way brawl (Ysolde, Oren and the Khan), one conflict",
        ),
        _ => return None,
    })
}

fn report(title: &str, s: &Summary, seconds: f64) {
    println!("{title}");
    println!(
        "  {} games, seed {}, {:.1} s; cut off: {}, no winner: {}",
        s.games, s.seed, seconds, s.cut_off, s.no_winner
    );
    for r in &s.rates {
        println!(
            "  {:<7} {:>6} wins {:>6.1}%   95% interval [{:.1}%, {:.1}%]",
            r.contestant,
            r.wins,
            100.0 * r.rate,
            100.0 * r.low,
            100.0 * r.high
        );
    }
    println!(
        "  length ({}): median {}, mean {:.1}",
        s.length_unit, s.length_median, s.length_mean
    );
}

fn main() -> ExitCode {
    let args = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("bot_strength: {e}");
            return ExitCode::from(2);
        }
    };
    let budget = Budget::work(args.work);
    let mut out = Vec::new();
    for game in &args.games {
        let Some((contest, title)) = contest(game, budget) else {
            eprintln!("bot_strength: cannot set up {game}");
            return ExitCode::FAILURE;
        };
        let start = Instant::now();
        let summary = simulate(
            contest.as_ref(),
            args.count,
            args.seed,
            args.threads,
            &|| {},
        );
        let seconds = start.elapsed().as_secs_f64();
        if args.json {
            out.push(
                json!({ "game": game, "work": args.work, "seconds": seconds, "summary": summary }),
            );
        } else {
            report(title, &summary, seconds);
        }
    }
    if args.json {
        println!("{}", serde_json::Value::Array(out));
    }
    ExitCode::SUCCESS
}
