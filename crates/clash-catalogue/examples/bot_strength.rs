//! How strong the table bots are: many simulated tables per ruleset, one bot in a seat drawn at
//! random each game and another in every other seat, win rates with 95% Wilson intervals (see
//! docs/analysis.md).
//!
//! ```text
//! cargo run --release -p clash-catalogue --example bot_strength -- [GAME …] [--games N]
//!     [--seed S] [--work W] [--threads T] [--bot B] [--against B] [--json]
//! ```
//!
//! GAME is any of `iron-triangle`, `triforce`, `nd-tourists`, `wicked-age` (default: all).
//! `--work` is each strong bot's work budget per command (the clock is not used, so a seed
//! gives the same games on any machine): Triforce playouts, Tourists rounds played out, Iron
//! Triangle move games.
//!
//! `--bot B` takes one seat (default `strong`) and `--against B` every other one (default
//! `casual`); B is `strong`, `casual` or, for Tourists and Wicked Age, `previous`: the policy
//! the analysis crate had before the strong bot improved on it, played from the view (the
//! threshold bidder on a sampled deal; the exact-odds roller alone).

use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use clash_analysis::bot_strength::{Entrant, Match, Table};
use clash_analysis::simulate::{Contest, Summary, simulate};
use clash_analysis::table_bots::Seated;
use clash_core::{Budget, Randomness, Ruleset, SeatBot, SeatTable};
use iron_triangle::analysis::contests::IronDuel;
use nd_tourists::NdTourists;
use nd_tourists::analysis::contests::TouristsConflict;
use nd_tourists::analysis::seat_bots as tourists;
use serde_json::json;
use triforce::analysis::contests::TriforceGame;
use wicked_age::WickedAge;
use wicked_age::analysis::contests::WickedConflict;
use wicked_age::analysis::seat_bots as wicked;

struct Args {
    games: Vec<String>,
    count: u64,
    seed: u64,
    work: u32,
    threads: Option<usize>,
    json: bool,
    bot: String,
    against: String,
}

fn parse() -> Result<Args, String> {
    let mut args = Args {
        games: Vec::new(),
        count: 200,
        seed: 1,
        work: 200,
        threads: None,
        json: false,
        bot: "strong".into(),
        against: "casual".into(),
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
            "--bot" => args.bot = it.next().ok_or("--bot needs a bot")?,
            "--against" => args.against = it.next().ok_or("--against needs a bot")?,
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

/// Answers of the first entrant's bot, and the time they took in all and at most (µs).
static ANSWERS: AtomicU64 = AtomicU64::new(0);
static MICROS: AtomicU64 = AtomicU64::new(0);
static SLOWEST: AtomicU64 = AtomicU64::new(0);

/// The strong bot, timed.
struct Timed<R: Seated>(Box<dyn SeatBot<R>>);

impl<R: Seated> SeatBot<R> for Timed<R> {
    fn choose(
        &self,
        table: &SeatTable<R>,
        budget: Budget,
        rng: &mut dyn Randomness,
    ) -> Option<R::Command> {
        let start = Instant::now();
        let answer = self.0.choose(table, budget, rng);
        if answer.is_some() {
            let us = start.elapsed().as_micros() as u64;
            ANSWERS.fetch_add(1, Ordering::Relaxed);
            MICROS.fetch_add(us, Ordering::Relaxed);
            SLOWEST.fetch_max(us, Ordering::Relaxed);
        }
        answer
    }
}

/// A bot by name: `strong`, `casual`, or `previous` where the ruleset has one.
fn entrant<R: Seated>(name: &str, previous: Option<Entrant<R>>) -> Option<Entrant<R>> {
    match name {
        "strong" => Some(Entrant {
            name: "strong",
            make: || {
                Box::new(Timed(clash_analysis::table_bots::bot::<R>(
                    clash_core::Strength::Strong,
                )))
            },
        }),
        "casual" => Some(Entrant::casual()),
        "previous" => previous,
        _ => None,
    }
}

fn no_previous<R: Ruleset>() -> Option<Entrant<R>> {
    None
}

fn tourists_previous() -> Option<Entrant<NdTourists>> {
    Some(Entrant {
        name: "previous",
        make: || Box::new(tourists::Threshold::default()),
    })
}

fn wicked_previous() -> Option<Entrant<WickedAge>> {
    Some(Entrant {
        name: "previous",
        make: || Box::new(wicked::Odds),
    })
}

fn matched<T: Table + 'static>(
    table: T,
    args: &Args,
    previous: fn() -> Option<Entrant<T::R>>,
) -> Option<Box<dyn Contest>> {
    Some(Box::new(Match {
        table,
        budget: Budget::work(args.work),
        first: entrant(&args.bot, previous())?,
        second: entrant(&args.against, previous())?,
    }))
}

fn contest(game: &str, args: &Args) -> Option<(Box<dyn Contest>, &'static str)> {
    Some(match game {
        "iron-triangle" => (
            matched(IronDuel::new()?, args, no_previous)?,
            "Iron Triangle: Ada (D3/G2/A5) against the Bruiser (D4/G4/A2), a lesser conflict",
        ),
        "triforce" => (
            matched(
                TriforceGame {
                    players: 3,
                    turn_limit: 60,
                },
                args,
                no_previous,
            )?,
            "Triforce: three players from the standard opening, turn limit 60",
        ),
        "nd-tourists" => (
            matched(TouristsConflict::kaiju(100)?, args, tourists_previous)?,
            "N-Dimensional Tourists: the Kaiju Conflict (Levinulon against TMDF), 100 rounds at most",
        ),
        "wicked-age" => (
            matched(WickedConflict::brawl()?, args, wicked_previous)?,
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
            "  {:<9} {:>6} wins {:>6.1}%   95% interval [{:.1}%, {:.1}%]",
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
    let mut out = Vec::new();
    for game in &args.games {
        let Some((contest, title)) = contest(game, &args) else {
            eprintln!(
                "bot_strength: cannot set up {game} with {} against {}",
                args.bot, args.against
            );
            return ExitCode::FAILURE;
        };
        for counter in [&ANSWERS, &MICROS, &SLOWEST] {
            counter.store(0, Ordering::Relaxed);
        }
        let start = Instant::now();
        let summary = simulate(
            contest.as_ref(),
            args.count,
            args.seed,
            args.threads,
            &|| {},
        );
        let seconds = start.elapsed().as_secs_f64();
        let answers = ANSWERS.load(Ordering::Relaxed);
        let mean_ms = MICROS.load(Ordering::Relaxed) as f64 / answers.max(1) as f64 / 1000.0;
        let slowest_ms = SLOWEST.load(Ordering::Relaxed) as f64 / 1000.0;
        if args.json {
            out.push(json!({
                "game": game, "bot": args.bot, "against": args.against, "work": args.work,
                "seconds": seconds, "summary": summary,
                "strong_answers": answers, "strong_mean_ms": mean_ms, "strong_slowest_ms": slowest_ms,
            }));
        } else {
            println!("{} against {}, work {}:", args.bot, args.against, args.work);
            report(title, &summary, seconds);
            if answers > 0 {
                println!(
                    "  strong bot: {answers} answers, {mean_ms:.2} ms on average, slowest {slowest_ms:.1} ms"
                );
            }
        }
    }
    if args.json {
        println!("{}", serde_json::Value::Array(out));
    }
    ExitCode::SUCCESS
}
