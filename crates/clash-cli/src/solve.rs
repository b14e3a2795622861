//! `clash solve`: exact equilibria of any zero-sum matrix game (`clash solve matrix`), and the
//! games' own solvers, which each game adds as a subcommand (see [`crate::families`]).

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use clash_analysis::cli::{Numbers, SolveOptions, seconds, timed};
use clash_analysis::exact::Probability;
use clash_analysis::matrix_game::{self, Scalar};
use clash_analysis::matrix_input;
use serde::Serialize;

use crate::output::{self, Outcome, say};

/// Exact equilibria of zero-sum games.
#[derive(Args)]
#[command(after_long_help = SOLVE_HELP)]
pub struct SolveArgs {
    #[command(subcommand)]
    what: Option<SolveWhat>,
    #[command(flatten)]
    options: SolveOptions,
}

const SOLVE_HELP: &str = "\
Each game's solvers read their own inputs: see `clash solve GAME --help`.

Matrix file, for `clash solve matrix FILE`: a JSON array of rows of payoffs to the row player,
  e.g. [[0, -1, 2], [1, 0, -1], [-1, 1, 0]]. A payoff is an integer of any size, a decimal (read
  exactly) or a string holding a fraction: [[\"1/3\", -0.25], [12345678901234567890123, 0]].";

#[derive(Subcommand)]
enum SolveWhat {
    /// Any zero-sum matrix game given as a JSON array of rows (integers, decimals, fractions).
    Matrix {
        file: PathBuf,
        /// Solve in floating point (fast) instead of exact rationals.
        #[arg(long)]
        float: bool,
        /// Solve this many times and report the time per solve.
        #[arg(long, default_value_t = 1)]
        repeat: u32,
    },
}

/// `clash solve matrix`; `None` when a game's subcommand was given instead (the caller runs it).
pub fn solve(args: &SolveArgs) -> Option<Outcome> {
    let SolveWhat::Matrix {
        file,
        float,
        repeat,
    } = args.what.as_ref()?;
    let (json, numbers) = (args.options.json, args.options.numbers());
    Some(solve_matrix(file, *float, *repeat, json, numbers))
}

#[derive(Serialize)]
struct MatrixReport {
    value: Probability,
    value_decimal: f64,
    row: Vec<Probability>,
    col: Vec<Probability>,
    exact: bool,
    repeat: u32,
    seconds_per_solve: f64,
}

fn float_probability(x: f64) -> Probability {
    Probability {
        fraction: format!("{x}"),
        decimal: x,
    }
}

fn solve_matrix(file: &Path, float: bool, repeat: u32, json: bool, numbers: Numbers) -> Outcome {
    if float && numbers.exact {
        return Err("--exact prints the exact solver's fractions: leave out --float".into());
    }
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let m = matrix_input::parse_matrix(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    let report = if float {
        let floats: Vec<Vec<f64>> = m
            .iter()
            .map(|r| r.iter().map(Scalar::to_f64).collect())
            .collect();
        let (s, t) = timed(repeat, || {
            matrix_game::solve(&floats).map_err(|e| e.to_string())
        })?;
        MatrixReport {
            value: float_probability(s.value),
            value_decimal: s.value,
            row: s.row.iter().map(|x| float_probability(*x)).collect(),
            col: s.col.iter().map(|x| float_probability(*x)).collect(),
            exact: false,
            repeat,
            seconds_per_solve: t,
        }
    } else {
        // Integer games take the integer certificate; others the rational one.
        let integers = matrix_input::as_integers(&m);
        let (s, t) = timed(repeat, || match &integers {
            Some(a) => matrix_game::solve_exact(a).map_err(|e| e.to_string()),
            None => matrix_game::solve_exact_rational(&m).map_err(|e| e.to_string()),
        })?;
        MatrixReport {
            value: Probability::of(&s.value),
            value_decimal: s.value.to_f64(),
            row: s.row.iter().map(Probability::of).collect(),
            col: s.col.iter().map(Probability::of).collect(),
            exact: true,
            repeat,
            seconds_per_solve: t,
        }
    };
    if json {
        return output::json(&report);
    }
    say!("Value to the row player: {}", numbers.value(&report.value));
    let fmt = |v: &[Probability]| {
        v.iter()
            .map(|p| numbers.share(p))
            .collect::<Vec<_>>()
            .join("  ")
    };
    say!("Rows:    {}", fmt(&report.row));
    say!("Columns: {}", fmt(&report.col));
    say!(
        "{} per solve over {repeat} solve(s)",
        seconds(report.seconds_per_solve)
    );
    Ok(())
}
