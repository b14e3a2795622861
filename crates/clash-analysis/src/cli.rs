//! What every analysis subcommand of the `clash` command shares, whichever game it belongs to:
//! standard output that stops quietly when its reader leaves ([`say!`](crate::say),
//! [`json`]), progress bars, how numbers are written, the options each family takes
//! ([`OddsOptions`], [`SolveOptions`], [`SimulateOptions`]) and the run of a simulation
//! ([`simulate`]).
//!
//! A game's subcommands ([`clash_core::cli::Subcommand`]) are built on these, so `clash odds`,
//! `clash solve` and `clash simulate` read and print the same way for every game.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
pub use clash_core::cli::{Outcome, Stop};
pub use indicatif::ProgressBar;
use indicatif::{ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use crate::contests::BotKind;
use crate::exact::Probability;
use crate::histogram;
use crate::simulate::{Contest, Summary};

/// Write one line to standard output; a closed pipe stops the command (`?` on [`Stop`]).
#[macro_export]
macro_rules! say {
    () => {
        $crate::cli::line(format_args!(""))?
    };
    ($($arg:tt)*) => {
        $crate::cli::line(format_args!($($arg)*))?
    };
}

/// What clap parsed into the arguments `T`, or what it found wrong as the command's failure.
pub fn parsed<T: clap::FromArgMatches>(m: &clap::ArgMatches) -> Result<T, Stop> {
    T::from_arg_matches(m).map_err(|e| Stop::Failed(e.to_string()))
}

/// Write part of a line to standard output.
#[macro_export]
macro_rules! say_part {
    ($($arg:tt)*) => {
        $crate::cli::part(format_args!($($arg)*))?
    };
}

pub fn line(args: std::fmt::Arguments) -> Result<(), Stop> {
    let mut out = io::stdout().lock();
    out.write_fmt(args)?;
    out.write_all(b"\n")?;
    Ok(())
}

pub fn part(args: std::fmt::Arguments) -> Result<(), Stop> {
    io::stdout().lock().write_fmt(args)?;
    Ok(())
}

/// Pretty JSON on standard output.
pub fn json<T: Serialize>(value: &T) -> Outcome {
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    line(format_args!("{text}"))
}

/// One row of odds: a label, the exact fraction and its decimal.
pub fn row(label: &str, p: &Probability) -> Outcome {
    say!("  {label:<44} {:>28}  {:>10.6}", p.fraction, p.decimal);
    Ok(())
}

/// A progress bar on standard error counting to `total` in `template`'s words, hidden when
/// standard error is not a terminal.
pub fn progress(total: u64, template: &str) -> ProgressBar {
    let bar = if io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}

/// A JSON file read as `T`, with the file named in any error.
pub fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Run `f` `repeat` times (at least once): the last answer and the mean time per run.
pub fn timed<T>(repeat: u32, mut f: impl FnMut() -> Result<T, String>) -> Result<(T, f64), String> {
    let start = Instant::now();
    let mut last = f()?;
    for _ in 1..repeat.max(1) {
        last = f()?;
    }
    Ok((
        last,
        start.elapsed().as_secs_f64() / f64::from(repeat.max(1)),
    ))
}

/// A time in seconds as people read it: µs, ms or s.
pub fn seconds(s: f64) -> String {
    if s < 1e-3 {
        format!("{:.2} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.3} ms", s * 1e3)
    } else {
        format!("{s:.3} s")
    }
}

/// How the text output of `clash solve` writes numbers: decimals by default, exact fractions
/// with `--exact`.
#[derive(Debug, Clone, Copy)]
pub struct Numbers {
    pub exact: bool,
}

impl Numbers {
    /// A game's value: a signed decimal, or the exact fraction (integers without `/1`).
    pub fn value(self, p: &Probability) -> String {
        if self.exact {
            fraction(p)
        } else {
            format!("{:+.6}", p.decimal)
        }
    }

    /// A probability in a mixed strategy.
    pub fn share(self, p: &Probability) -> String {
        if self.exact {
            fraction(p)
        } else {
            format!("{:.4}", p.decimal)
        }
    }

    /// Options with their probabilities, zeros left out: `D-M 0.3353, G-L 0.3234`.
    pub fn mix<'a>(self, items: impl IntoIterator<Item = (String, &'a Probability)>) -> String {
        let shown: Vec<String> = items
            .into_iter()
            .filter(|(_, p)| p.fraction != "0/1")
            .map(|(o, p)| format!("{o} {}", self.share(p)))
            .collect();
        shown.join(", ")
    }
}

fn fraction(p: &Probability) -> String {
    p.fraction
        .strip_suffix("/1")
        .unwrap_or(&p.fraction)
        .to_string()
}

/// The options of `clash odds`, given before or after the game.
#[derive(Args, Debug, Clone)]
pub struct OddsOptions {
    /// Print JSON: every probability as {"fraction": "63/640", "decimal": 0.0984375}.
    #[arg(long, global = true)]
    pub json: bool,
}

/// The options of `clash solve`, given before or after the game.
#[derive(Args, Debug, Clone)]
pub struct SolveOptions {
    /// Print JSON (every exact number as {"fraction": "3/8", "decimal": 0.375}).
    #[arg(long, global = true)]
    pub json: bool,
    /// Print exact fractions instead of decimals.
    #[arg(long, global = true)]
    pub exact: bool,
}

impl SolveOptions {
    pub fn numbers(&self) -> Numbers {
        Numbers { exact: self.exact }
    }
}

/// The options of `clash simulate` that every game takes, given before or after the game.
#[derive(Args, Debug, Clone)]
pub struct SimulateOptions {
    /// Number of games.
    #[arg(long, global = true, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Seed: the same seed gives the same results, whatever the number of threads.
    #[arg(long, global = true, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, global = true, value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Draw a histogram of game lengths (.svg or .png).
    #[arg(long, global = true)]
    pub plot: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long, global = true)]
    pub json: bool,
}

/// One bot kind per seat: the words given (`smart`, `random`), then smart bots.
pub fn bot_kinds(words: &[String], seats: usize) -> Result<Vec<BotKind>, String> {
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

/// `clash simulate GAME`: play `contest` as `options` say, with a progress bar, and print its
/// summary (or JSON); `game` is the game's name for people.
pub fn simulate(contest: &dyn Contest, options: &SimulateOptions, game: &str) -> Outcome {
    let bar = progress(
        options.games,
        "{bar:40} {pos}/{len} games  {elapsed_precise} (eta {eta})",
    );
    let start = Instant::now();
    let summary = crate::simulate::simulate(
        contest,
        options.games,
        options.seed,
        options.threads.map(usize::from),
        &|| bar.inc(1),
    );
    bar.finish_and_clear();
    let elapsed = start.elapsed().as_secs_f64();
    if let Some(path) = &options.plot {
        let title = format!(
            "{game} game lengths ({} games, seed {})",
            summary.games, summary.seed
        );
        histogram::draw(path, &summary.lengths, &title, &summary.length_unit)
            .map_err(|e| e.to_string())?;
    }
    if options.json {
        return json(&summary);
    }
    print_summary(game, options, &summary, elapsed)
}

fn print_summary(game: &str, options: &SimulateOptions, s: &Summary, elapsed: f64) -> Outcome {
    say!(
        "{game}: {} games, seed {}, {:.2} s",
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
    if let Some(p) = &options.plot {
        say!("  histogram written to {}", p.display());
    }
    Ok(())
}
