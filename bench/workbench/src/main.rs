//! How long the workbench takes to compare two variants of each game: the rules as written and
//! the game's first suggested variant, 1,000 games each with casual bots (the issue's target:
//! at most 60 s a game on the development machine's two cores).
//!
//! ```text
//! cargo run --release -p clash-workbench-bench -- [--games N] [--threads T] [GAME …]
//! ```
//!
//! Prints one line per game: the games played, the wall time, games per second, and the share
//! of games each variant ended unfinished, so a run also shows the comparison was real.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use clash_analysis::workbench::{Request, study};
use clash_core::variant::{Variant, parse_changes};

struct Args {
    games: u64,
    threads: Option<usize>,
    only: Vec<String>,
}

fn args() -> Result<Args, String> {
    let mut out = Args {
        games: 1000,
        threads: None,
        only: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut number = |what: &str| -> Result<u64, String> {
            it.next()
                .and_then(|v| v.parse().ok())
                .ok_or(format!("{what} needs a number"))
        };
        match a.as_str() {
            "--games" => out.games = number("--games")?.max(1),
            "--threads" => out.threads = Some(number("--threads")?.max(1) as usize),
            game => out.only.push(game.to_string()),
        }
    }
    Ok(out)
}

fn main() -> Result<(), String> {
    let args = args()?;
    println!(
        "{:<30} {:>8} {:>9} {:>10}   unfinished: as written → variant",
        "game (variant)", "games", "seconds", "games/s"
    );
    for entry in clash_catalogue::rulesets() {
        let Some(bench) = entry.workbench else {
            continue;
        };
        if !args.only.is_empty() && !args.only.iter().any(|g| g == entry.id) {
            continue;
        }
        let suggested = bench
            .suggested
            .first()
            .ok_or(format!("{} suggests no variant", entry.id))?;
        let changes = parse_changes(suggested.changes).map_err(|e| e.to_string())?;
        let request = Request {
            table: 0,
            variants: vec![Variant::new(suggested.name, changes)],
            casual: args.games,
            strong: 0,
            mixed: 0,
            seed: 1,
            work: 1,
            threads: args.threads,
            exact: 0,
        };
        let start = Instant::now();
        let s = study(
            entry.name,
            &bench,
            &request,
            &|| {},
            &AtomicBool::new(false),
        )
        .map_err(|e| e.to_string())?;
        let seconds = start.elapsed().as_secs_f64();
        let played: u64 = s
            .variants
            .iter()
            .flat_map(|v| &v.runs)
            .map(|m| m.games)
            .sum();
        let unfinished: Vec<String> = s
            .variants
            .iter()
            .filter_map(|v| v.runs.first())
            .map(|m| format!("{:.1}%", 100.0 * (m.limit.value + m.stall.value)))
            .collect();
        println!(
            "{:<30} {:>8} {:>9.2} {:>10.0}   {}",
            format!("{} ({})", entry.id, suggested.name),
            played,
            seconds,
            played as f64 / seconds,
            unfinished.join(" → ")
        );
    }
    Ok(())
}
