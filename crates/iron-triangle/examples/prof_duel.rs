//! Profiling aid for the conflict benchmark (`benches/conflict.rs`, same duel): plays seeds
//! 0..N (default 1000) through the random driver and prints the turns and steps. Instruction
//! counts are stable on a busy machine where wall-clock times are not:
//!
//! ```sh
//! cargo build --profile bench --example prof_duel -p iron-triangle
//! valgrind --tool=callgrind $CARGO_TARGET_DIR/release/examples/prof_duel 1000
//! ```
//!
//! `prof_duel 1000 check` also prints a fingerprint of every seat, command and event, and one of
//! the games alone (every seat and command), to confirm that a change still plays exactly the
//! same games (1000 duels: 5889 turns, 43179 steps, fingerprint cf12b30dc0c1a560, games
//! 1a46eb8383645106 with rustc 1.95 on x86_64 Linux; `DefaultHasher` may change). The games
//! fingerprint stays put when only the events' shape changes (the loss breakdown's Wax On
//! amount changed the full fingerprint from cdf6ccb933b8ede8, same games).
//!
//! `prof_duel 2000 time 50` plays the N duels 50 times over and prints turns per second for the
//! fastest and the median run. Criterion reports a typical run; on a shared machine whose load
//! comes and goes, the fastest run is the closest to what the code itself costs.

#[path = "../benches/duel/mod.rs"]
mod duel;

use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

use clash_core::SeededRandomness;
use duel::{Buffers, duel_table, play};
use iron_triangle::Table;
use iron_triangle::conflict::driver;

enum Mode {
    Count,
    Check,
    Time { runs: usize },
}

fn main() {
    let arg = |i: usize| std::env::args().nth(i);
    let n: u64 = arg(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let mode = match arg(2).as_deref() {
        Some("check") => Mode::Check,
        Some("time") => Mode::Time {
            runs: arg(3).and_then(|a| a.parse().ok()).unwrap_or(50).max(1),
        },
        _ => Mode::Count,
    };
    let start = duel_table();
    match mode {
        Mode::Count => {
            let (turns, steps) = play_all(&start, n);
            println!("{n} duels, {turns} turns, {steps} steps");
        }
        Mode::Check => {
            let (turns, steps, fingerprint, games) = fingerprint_all(&start, n);
            println!(
                "{n} duels, {turns} turns, {steps} steps, fingerprint {fingerprint:016x}, games {games:016x}"
            );
        }
        Mode::Time { runs } => time_all(&start, n, runs),
    }
}

/// Play seeds `0..n` with `random_play`; the total turns and steps.
fn play_all(start: &Table, n: u64) -> (u64, u64) {
    let mut buffers = Buffers::default();
    (0..n)
        .map(|seed| play(start, seed, &mut buffers))
        .fold((0, 0), |(t, s), (dt, ds)| (t + dt, s + ds))
}

/// Play seeds `0..n` with the logged driver (`random_step_with` picks and carries out exactly as
/// `random_play`), hashing every seat, command and event (the fingerprint), and every seat and
/// command alone (the games: unchanged when only the events' shape changes).
fn fingerprint_all(start: &Table, n: u64) -> (u64, u64, u64, u64) {
    let mut fingerprint = std::collections::hash_map::DefaultHasher::new();
    let mut games = std::collections::hash_map::DefaultHasher::new();
    let mut buffer = driver::Plays::default();
    let (mut turns, mut steps) = (0u64, 0u64);
    for seed in 0..n {
        let mut table = start.clone();
        let mut rng = SeededRandomness::new(seed);
        while let Ok(Some(step)) =
            driver::random_step_with(&mut table, &mut rng, false, &mut buffer)
        {
            steps += 1;
            format!("{:?} {:?} {:?}", step.seat, step.command, step.events).hash(&mut fingerprint);
            format!("{:?} {:?}", step.seat, step.command).hash(&mut games);
        }
        turns += turns_of(&table);
    }
    (turns, steps, fingerprint.finish(), games.finish())
}

/// Play the `n` duels `runs` times; print turns per second of the fastest and the median run.
fn time_all(start: &Table, n: u64, runs: usize) {
    let mut times: Vec<Duration> = Vec::with_capacity(runs);
    let mut turns = 0;
    for _ in 0..runs {
        let began = Instant::now();
        turns = play_all(start, n).0;
        times.push(began.elapsed());
    }
    times.sort();
    let rate = |d: Duration| turns as f64 / d.as_secs_f64();
    let (best, median) = (times[0], times[runs / 2]);
    println!("{n} duels, {turns} turns, {runs} runs");
    println!(
        "fastest run: {:.2} ms, {:.0} turns/s",
        best.as_secs_f64() * 1e3,
        rate(best)
    );
    println!(
        "median run:  {:.2} ms, {:.0} turns/s",
        median.as_secs_f64() * 1e3,
        rate(median)
    );
}

fn turns_of(table: &Table) -> u64 {
    table
        .conflict
        .as_ref()
        .map_or(0, |c| u64::from(c.turns_played))
}
