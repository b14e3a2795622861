//! Bot-against-bot simulations: many games in parallel (rayon), deterministic for a seed.
//!
//! Game `i` of a run seeded `s` uses its own generator `SeededRandomness::for_command(s, i)`, so
//! results do not depend on thread scheduling or the number of threads. Each ruleset has a
//! [`Contest`]: how a game is set up, which bot takes which seat, and how it is scored.

use clash_core::{Randomness, Ruleset, Seat, SeededRandomness, execute};
use rayon::prelude::*;
use serde::Serialize;

use crate::bots::Bot;

/// How one simulated game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameResult {
    /// Labels of the winners (seats or sides); empty when nobody won (a cut-off or no victor).
    pub winners: Vec<String>,
    /// Game length in the contest's unit (turns, exchanges, rounds).
    pub length: u32,
    /// Commands sent in all.
    pub commands: u32,
    /// The game hit the contest's limit before ending.
    pub cut_off: bool,
}

/// A kind of game that can be simulated.
pub trait Contest: Sync {
    /// What the contestants are called in the summary (`p1`, `p2`, …).
    fn contestants(&self) -> Vec<String>;
    /// The unit of [`GameResult::length`].
    fn length_unit(&self) -> &'static str;
    /// Play one game with this randomness.
    fn play(&self, rng: &mut SeededRandomness) -> GameResult;
}

/// Drive a game: ask each seat's bot in turn until none has anything to do or `max_commands`
/// commands were sent. Returns the number of commands sent and whether the cap was hit.
pub fn drive<R: Ruleset>(
    state: &mut R::State,
    bots: &mut [(Seat, Box<dyn Bot<R>>)],
    rng: &mut dyn Randomness,
    max_commands: u32,
    mut finished: impl FnMut(&R::State) -> bool,
) -> (u32, bool) {
    let mut sent = 0;
    while sent < max_commands {
        if finished(state) {
            return (sent, false);
        }
        let mut acted = false;
        for (seat, bot) in bots.iter_mut() {
            let Some(command) = bot.choose(state, *seat, rng) else {
                continue;
            };
            if execute::<R>(state, *seat, &command, rng).is_ok() {
                sent += 1;
                acted = true;
                break;
            }
        }
        if !acted {
            return (sent, false);
        }
    }
    (sent, !finished(state))
}

/// A win rate with its 95% Wilson score interval.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rate {
    pub contestant: String,
    pub wins: u64,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

/// The 95% Wilson score interval for `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let (n, p) = (n as f64, k as f64 / n as f64);
    let centre = p + z * z / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let denom = 1.0 + z * z / n;
    (
        ((centre - spread) / denom).max(0.0),
        ((centre + spread) / denom).min(1.0),
    )
}

/// Summary statistics of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub games: u64,
    pub seed: u64,
    pub rates: Vec<Rate>,
    /// Games with no single winner (shared wins count for each winner, and here too).
    pub no_winner: u64,
    pub shared: u64,
    pub cut_off: u64,
    pub length_unit: String,
    pub length_min: u32,
    pub length_max: u32,
    pub length_mean: f64,
    pub length_median: f64,
    pub length_p10: u32,
    pub length_p90: u32,
    /// Every game's length, in game order (for histograms).
    #[serde(skip)]
    pub lengths: Vec<u32>,
}

/// Play `games` games in parallel on `threads` threads (all cores when `None`); `progress` is
/// called once per finished game.
pub fn simulate(
    contest: &dyn Contest,
    games: u64,
    seed: u64,
    threads: Option<usize>,
    progress: &(dyn Fn() + Sync),
) -> Summary {
    let run = || -> Vec<GameResult> {
        (0..games)
            .into_par_iter()
            .map(|i| {
                let mut rng = SeededRandomness::for_command(seed, i);
                let r = contest.play(&mut rng);
                progress();
                r
            })
            .collect()
    };
    let results = match threads.and_then(|t| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t.max(1))
            .build()
            .ok()
    }) {
        Some(pool) => pool.install(run),
        None => run(),
    };
    summarise(contest, &results, seed)
}

fn quantile(sorted: &[u32], q: f64) -> u32 {
    if sorted.is_empty() {
        return 0;
    }
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Statistics of finished games.
pub fn summarise(contest: &dyn Contest, results: &[GameResult], seed: u64) -> Summary {
    let n = results.len() as u64;
    let rates = contest
        .contestants()
        .into_iter()
        .map(|c| {
            let wins = results.iter().filter(|r| r.winners.contains(&c)).count() as u64;
            let (low, high) = wilson(wins, n);
            Rate {
                contestant: c,
                wins,
                rate: if n == 0 { 0.0 } else { wins as f64 / n as f64 },
                low,
                high,
            }
        })
        .collect();
    let lengths: Vec<u32> = results.iter().map(|r| r.length).collect();
    let mut sorted = lengths.clone();
    sorted.sort_unstable();
    let mean = if sorted.is_empty() {
        0.0
    } else {
        sorted.iter().map(|x| f64::from(*x)).sum::<f64>() / sorted.len() as f64
    };
    let median = match sorted.len() {
        0 => 0.0,
        l if l % 2 == 1 => f64::from(sorted[l / 2]),
        l => (f64::from(sorted[l / 2 - 1]) + f64::from(sorted[l / 2])) / 2.0,
    };
    Summary {
        games: n,
        seed,
        rates,
        no_winner: results.iter().filter(|r| r.winners.is_empty()).count() as u64,
        shared: results.iter().filter(|r| r.winners.len() > 1).count() as u64,
        cut_off: results.iter().filter(|r| r.cut_off).count() as u64,
        length_unit: contest.length_unit().to_string(),
        length_min: sorted.first().copied().unwrap_or(0),
        length_max: sorted.last().copied().unwrap_or(0),
        length_mean: mean,
        length_median: median,
        length_p10: quantile(&sorted, 0.1),
        length_p90: quantile(&sorted, 0.9),
        lengths,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_brackets_the_rate() {
        let (lo, hi) = wilson(50, 100);
        assert!(lo < 0.5 && hi > 0.5);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3);
        assert_eq!(wilson(0, 0), (0.0, 1.0));
        let (lo, hi) = wilson(0, 10);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.0 && hi < 0.35);
    }
}
