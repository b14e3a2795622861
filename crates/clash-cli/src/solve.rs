//! `clash solve`: equilibria of Iron Triangle turns and duels, and of any zero-sum matrix game.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};
use clash_analysis::duel;
use clash_analysis::exact::Probability;
use clash_analysis::matrix_game::{self, Scalar};
use clash_analysis::matrix_input;
use clash_analysis::position;
use clash_analysis::turn_game::{self, Options, Payoff, TurnSpec};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use crate::output::{self, Outcome, say, say_part};

// ---------------------------------------------------------------------------------------------
// clash solve

/// Exact equilibria of zero-sum games.
#[derive(Args)]
#[command(after_long_help = SOLVE_HELP)]
pub struct SolveArgs {
    #[command(subcommand)]
    what: SolveWhat,
    /// Print JSON (every exact number as {"fraction": "3/8", "decimal": 0.375}).
    #[arg(long, global = true)]
    json: bool,
    /// Print exact fractions instead of decimals.
    #[arg(long, global = true)]
    exact: bool,
}

/// How the text output writes numbers: decimals by default, exact fractions with `--exact`.
#[derive(Debug, Clone, Copy)]
struct Numbers {
    exact: bool,
}

impl Numbers {
    /// A game's value: a signed decimal, or the exact fraction (integers without `/1`).
    fn value(self, p: &Probability) -> String {
        if self.exact {
            fraction(p)
        } else {
            format!("{:+.6}", p.decimal)
        }
    }

    /// A probability in a mixed strategy.
    fn share(self, p: &Probability) -> String {
        if self.exact {
            fraction(p)
        } else {
            format!("{:.4}", p.decimal)
        }
    }

    /// Options with their probabilities, zeros left out: `D-M 0.3353, G-L 0.3234`.
    fn mix<'a>(self, items: impl IntoIterator<Item = (String, &'a Probability)>) -> String {
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

const SOLVE_HELP: &str = "\
Turn state file (JSON), for `clash solve iron-triangle turn|moves --state FILE`:
  {
    \"active\":   {\"name\": \"Ada\", \"energy\": {\"defend\": 3, \"grapple\": 2, \"attack\": 5},
                 \"moves\": [\"D-M\", \"G-L\", \"A-H\"], \"combos\": [{\"from\": \"D-M\", \"followups\": [\"G-J\"]}],
                 \"pile\": []},
    \"opponent\": {\"name\": \"Bruiser\", \"energy\": {\"defend\": 4, \"grapple\": 4, \"attack\": 2}, \"pile\": [\"A-L\"]},
    \"chain\": [\"D-M\"]
  }
  energy = current energy; \"max\" (default: current, at least 1), \"moves\" (default: the starting
  moves D-M, G-L, A-H), \"combos\", \"pile\", \"level\" and \"specials\" (each spent, e.g.
  {\"special\": \"wax_on\", \"action\": \"attack\", \"spent\": true}; unspent specials are refused) are
  optional; \"chain\" is the active character's live chain against the opponent, oldest first,
  each card a move or {\"move\": \"D-M\", \"owner\": \"Ada\"}. Piles and chains must be ones play
  can leave (IT-38, IT-40, IT-42, IT-46).

  A table position works too (what a table or scenario starts from and `clash run --json`
  exports, bare or as a scenario's \"setup\"): the solvers take the turn its conflict is at, the
  active character against the opponent it picked, with their piles, chain and specials; `moves`
  uses the stances the position has revealed unless given.

Payoffs (--payoff): energy = energy the opponent loses minus energy the active character loses
  (default); win = +1 win, -1 loss, 0 tie (maximises P(win) - P(loss)).

Surrender (--surrender COST): not offered by default, because it ends the character's part in
  the conflict, which a one-turn payoff cannot value (the engine settles it with no winner check
  and no energy change, D-10). With a price, Surrender joins each side's moves (when the engine
  allows it: never for a Samurai, D-11) and the surrenderer scores -COST, its opponent +COST;
  both surrendering score 0. With --payoff win, COST 1 counts a surrender as a lost turn. A
  character with no available move can only be solved with a price: it must surrender (IT-35).

Matrix file, for `clash solve matrix FILE`: a JSON array of rows of payoffs to the row player,
  e.g. [[0, -1, 2], [1, 0, -1], [-1, 1, 0]]. A payoff is an integer of any size, a decimal (read
  exactly) or a string holding a fraction: [[\"1/3\", -0.25], [12345678901234567890123, 0]].";

#[derive(Subcommand)]
enum SolveWhat {
    /// Iron Triangle's conflict turn.
    #[command(name = "iron-triangle", subcommand)]
    IronTriangle(IronSolve),
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

#[derive(Subcommand)]
enum IronSolve {
    /// The two-stage turn game (stances revealed, then moves), solved exactly.
    Turn {
        #[arg(long)]
        state: PathBuf,
        #[arg(long, value_enum, default_value_t = PayoffArg::Energy)]
        payoff: PayoffArg,
        /// Offer Surrender (IT-35) at this price to the surrenderer, in payoff units.
        #[arg(long, value_name = "COST", allow_negative_numbers = true)]
        surrender: Option<i64>,
    },
    /// A whole duel: P(win) - P(loss) for the first character (the PC, active first) against
    /// the second (the GM's NPC), by backward induction over conflict states.
    Conflict {
        /// The two characters, in the turn state format (any known moves, combos, piles and the
        /// PC's chain; at most 15 energy of a type).
        #[arg(long)]
        state: PathBuf,
    },
    /// The move game once given stances are revealed: its payoff matrix and equilibrium.
    Moves {
        #[arg(long)]
        state: PathBuf,
        /// The active character's stance: none, or D2, G1, A3, … (default: the stance a table
        /// position has revealed, else none).
        #[arg(long)]
        active_stance: Option<String>,
        /// The opponent's stance (default as for the active character's).
        #[arg(long)]
        opponent_stance: Option<String>,
        #[arg(long, value_enum, default_value_t = PayoffArg::Energy)]
        payoff: PayoffArg,
        /// Offer Surrender (IT-35) at this price to the surrenderer, in payoff units.
        #[arg(long, value_name = "COST", allow_negative_numbers = true)]
        surrender: Option<i64>,
        /// Solve the matrix this many times and report the time per solve (exact and f64).
        #[arg(long, default_value_t = 1)]
        repeat: u32,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum PayoffArg {
    Energy,
    Win,
}

impl From<PayoffArg> for Payoff {
    fn from(p: PayoffArg) -> Payoff {
        match p {
            PayoffArg::Energy => Payoff::Energy,
            PayoffArg::Win => Payoff::Win,
        }
    }
}

pub fn solve(args: SolveArgs) -> ExitCode {
    let json = args.json;
    let numbers = Numbers { exact: args.exact };
    let r = match args.what {
        SolveWhat::Matrix {
            file,
            float,
            repeat,
        } => solve_matrix(&file, float, repeat, json, numbers),
        SolveWhat::IronTriangle(IronSolve::Turn {
            state,
            payoff,
            surrender,
        }) => solve_turn(
            &state,
            Options {
                payoff: payoff.into(),
                surrender,
            },
            json,
            numbers,
        ),
        SolveWhat::IronTriangle(IronSolve::Conflict { state }) => solve_conflict(&state, json),
        SolveWhat::IronTriangle(IronSolve::Moves {
            state,
            active_stance,
            opponent_stance,
            payoff,
            surrender,
            repeat,
        }) => solve_moves(
            &state,
            [active_stance, opponent_stance],
            Options {
                payoff: payoff.into(),
                surrender,
            },
            repeat,
            json,
            numbers,
        ),
    };
    output::finish("solve", r)
}

/// A state file or table position read and checked (one reader for every Iron Triangle solver).
fn read_position(path: &Path) -> Result<TurnSpec, String> {
    read_turn_and_stances(path).map(|p| p.turn)
}

fn read_turn_and_stances(path: &Path) -> Result<position::Position, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    position::read_position(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The stances given on the command line, else those the position has revealed, else none.
fn stances(
    given: [Option<String>; 2],
    revealed: Option<[iron_triangle::conflict::Stance; 2]>,
) -> Result<[iron_triangle::conflict::Stance; 2], String> {
    let mut out = revealed.unwrap_or([iron_triangle::conflict::Stance::NONE; 2]);
    for (slot, text) in out.iter_mut().zip(given) {
        if let Some(text) = text {
            *slot = parse_stance(&text)?;
        }
    }
    Ok(out)
}

pub fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
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

/// Solve `m` `repeat` times; the last solution and the mean time per solve.
fn timed<T>(repeat: u32, mut f: impl FnMut() -> Result<T, String>) -> Result<(T, f64), String> {
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

fn seconds(s: f64) -> String {
    if s < 1e-3 {
        format!("{:.2} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.3} ms", s * 1e3)
    } else {
        format!("{s:.3} s")
    }
}

fn parse_stance(text: &str) -> Result<iron_triangle::conflict::Stance, String> {
    use iron_triangle::conflict::Stance;
    let t = text.trim();
    if t.eq_ignore_ascii_case("none") || t == "0" {
        return Ok(Stance::NONE);
    }
    let (a, n) = t.split_at(1.min(t.len()));
    let action = match a.to_ascii_uppercase().as_str() {
        "D" => iron_triangle::Action::Defend,
        "G" => iron_triangle::Action::Grapple,
        "A" => iron_triangle::Action::Attack,
        _ => {
            return Err(format!(
                "{text:?} is not a stance: write none, D2, G1, A3, …"
            ));
        }
    };
    let amount: u32 = n
        .parse()
        .map_err(|_| format!("{text:?} is not a stance: write none, D2, G1, A3, …"))?;
    Ok(Stance::new(Some(action), amount))
}

fn stance_text(s: &iron_triangle::conflict::Stance) -> String {
    match s.action {
        Some(a) if s.amount > 0 => format!("{}{}", a.letter(), s.amount),
        _ => "none".into(),
    }
}

/// What a turn's value counts, in words.
fn payoff_words(payoff: Payoff, active: &str, opponent: &str) -> String {
    match payoff {
        Payoff::Energy => format!("energy {opponent} loses minus energy {active} loses this turn"),
        Payoff::Win => format!("+1 if {active} wins the turn, -1 if {opponent} wins, 0 for a tie"),
    }
}

fn solve_turn(path: &Path, opts: Options, json: bool, numbers: Numbers) -> Outcome {
    let spec = read_position(path)?;
    let start = Instant::now();
    let s = turn_game::solve_turn(&spec, opts).map_err(|e| e.to_string())?;
    let elapsed = start.elapsed().as_secs_f64();
    if json {
        return output::json(&s);
    }
    say!(
        "Iron Triangle turn: {} (active) against {}",
        s.active,
        s.opponent
    );
    say!("Payoff: {}", payoff_words(s.payoff, &s.active, &s.opponent));
    if let Some(cost) = s.surrender {
        say!("Surrender offered: the surrenderer pays {cost}");
    }
    say!(
        "Value to {}: {}   ({} move games solved exactly in {})",
        s.active,
        numbers.value(&s.value),
        s.games,
        seconds(elapsed)
    );
    let stances = |m: &[turn_game::Mix<iron_triangle::conflict::Stance>]| {
        numbers.mix(m.iter().map(|x| (stance_text(&x.option), &x.probability)))
    };
    let width = s.active.len().max(s.opponent.len()) + 1;
    say!(
        "Stances, {:<width$} {}",
        format!("{}:", s.active),
        stances(&s.stances_active)
    );
    say!(
        "Stances, {:<width$} {}",
        format!("{}:", s.opponent),
        stances(&s.stances_opponent)
    );
    say!(
        "Moves once the stances are revealed ({} against {}):",
        s.active,
        s.opponent
    );
    for m in &s.moves {
        let moves = |v: &[turn_game::Mix<iron_triangle::conflict::MoveChoice>]| {
            numbers.mix(v.iter().map(|x| (x.option.to_string(), &x.probability)))
        };
        say!(
            "  {} vs {} (worth {})",
            stance_text(&m.stance_active),
            stance_text(&m.stance_opponent),
            numbers.value(&m.value)
        );
        say!(
            "    {:<width$} {}",
            format!("{}:", s.active),
            moves(&m.active)
        );
        say!(
            "    {:<width$} {}",
            format!("{}:", s.opponent),
            moves(&m.opponent)
        );
    }
    Ok(())
}

fn solve_conflict(path: &Path, json: bool) -> Outcome {
    let spec = read_position(path)?;
    let bar = if !json && std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(1), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} states  {elapsed_precise}")
    {
        bar.set_style(style);
    }
    let start = Instant::now();
    // The total grows as states are met, so the bar shows solved out of met so far.
    let solved = duel::solve_duel(&spec, &mut |p| {
        bar.set_length(p.discovered as u64);
        bar.set_position(p.solved as u64);
    });
    bar.finish_and_clear();
    let s = solved.map_err(|e| e.to_string())?;
    let elapsed = start.elapsed().as_secs_f64();
    if json {
        return output::json(&s);
    }
    print_duel(&s, elapsed)
}

/// A solved duel in words: what the value means, and the first turn's strategies.
fn print_duel(s: &duel::DuelSolution, elapsed: f64) -> Outcome {
    let (a, b) = (&s.first, &s.second);
    say!(
        "Iron Triangle duel: {a} (the PC, active first) against {b} (the GM's NPC), a lesser conflict"
    );
    say!(
        "Value to {a}: {:+.6} = P({a} wins) - P({b} wins), both playing their best",
        s.value
    );
    say!(
        "P({a} wins) = {:.6}, P({b} wins) = {:.6} (every duel ends with a winner)",
        s.first_wins,
        1.0 - s.first_wins
    );
    say!(
        "{} conflict states solved in {}",
        s.states,
        seconds(elapsed)
    );
    let width = a.len().max(b.len()) + 1;
    let stances = |m: &[duel::Weighted<iron_triangle::conflict::Stance>]| {
        m.iter()
            .map(|x| format!("{} {:.4}", stance_text(&x.option), x.probability))
            .collect::<Vec<_>>()
            .join(", ")
    };
    say!("First turn, stances (chosen in secret, then revealed):");
    say!(
        "  {:<width$} {}",
        format!("{a}:"),
        stances(&s.stances_first)
    );
    say!(
        "  {:<width$} {}",
        format!("{b}:"),
        stances(&s.stances_second)
    );
    say!("First turn, moves once the stances are revealed:");
    let moves = |v: &[duel::Weighted<String>]| {
        v.iter()
            .map(|x| format!("{} {:.4}", x.option, x.probability))
            .collect::<Vec<_>>()
            .join(", ")
    };
    for m in &s.moves {
        say!(
            "  {} vs {} (worth {:+.4} to {a})",
            stance_text(&m.stance_first),
            stance_text(&m.stance_second),
            m.value
        );
        say!("    {:<width$} {}", format!("{a}:"), moves(&m.first));
        say!("    {:<width$} {}", format!("{b}:"), moves(&m.second));
    }
    Ok(())
}

#[derive(Serialize)]
struct MovesReport {
    rows: Vec<String>,
    cols: Vec<String>,
    matrix: Vec<Vec<i64>>,
    value: Probability,
    active: Vec<Probability>,
    opponent: Vec<Probability>,
    repeat: u32,
    seconds_per_exact_solve: f64,
    seconds_per_f64_solve: f64,
}

fn solve_moves(
    path: &Path,
    given: [Option<String>; 2],
    opts: Options,
    repeat: u32,
    json: bool,
    numbers: Numbers,
) -> Outcome {
    let position = read_turn_and_stances(path)?;
    let [sa, sb] = stances(given, position.stances)?;
    let spec = position.turn;
    let g = turn_game::move_game(&spec, sa, sb, opts).map_err(|e| e.to_string())?;
    let (s, exact_t) = timed(repeat, || {
        matrix_game::solve_exact(&g.matrix).map_err(|e| e.to_string())
    })?;
    let (_, float_t) = timed(repeat, || {
        matrix_game::solve_f64(&g.matrix).map_err(|e| e.to_string())
    })?;
    let report = MovesReport {
        rows: g.rows.iter().map(|m| m.to_string()).collect(),
        cols: g.cols.iter().map(|m| m.to_string()).collect(),
        matrix: g.matrix.clone(),
        value: Probability::of(&s.value),
        active: s.row.iter().map(Probability::of).collect(),
        opponent: s.col.iter().map(Probability::of).collect(),
        repeat,
        seconds_per_exact_solve: exact_t,
        seconds_per_f64_solve: float_t,
    };
    if json {
        return output::json(&report);
    }
    // Columns as wide as their longest label ("surrender" is wider than a move).
    let label = report.rows.iter().map(String::len).max().unwrap_or(0) + 1;
    let width = report
        .cols
        .iter()
        .map(|c| c.len() + 1)
        .max()
        .unwrap_or(0)
        .max(5);
    say_part!("{:>label$}", "");
    for c in &report.cols {
        say_part!("{c:>width$}");
    }
    say!();
    for (r, line) in report.rows.iter().zip(&report.matrix) {
        say_part!("{r:>label$}");
        for x in line {
            say_part!("{x:>width$}");
        }
        say!();
    }
    say!(
        "Value to the active character: {}",
        numbers.value(&report.value)
    );
    let mix = |names: &[String], ps: &[Probability]| numbers.mix(names.iter().cloned().zip(ps));
    say!("Active plays:   {}", mix(&report.rows, &report.active));
    say!("Opponent plays: {}", mix(&report.cols, &report.opponent));
    say!(
        "Per solve over {repeat}: exact {}, f64 {}",
        seconds(exact_t),
        seconds(float_t)
    );
    Ok(())
}
