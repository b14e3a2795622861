//! The subcommands Iron Triangle adds to the `clash` command: `clash solve iron-triangle …`,
//! `clash analyse iron-triangle builds` and `clash simulate iron-triangle`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::IronTriangle;
use crate::analysis::duel;
use crate::analysis::position;
use crate::analysis::turn_game::{self, Options, Payoff, TurnSpec};
use clap::{FromArgMatches, Subcommand, ValueEnum};
use clash_analysis::cli::{self, Numbers, Outcome, SolveOptions, seconds, timed};
use clash_analysis::exact::Probability;
use clash_analysis::matrix_game;
use clash_analysis::{say, say_part};
use clash_core::Ruleset;
use serde::Serialize;

/// What clap found wrong after parsing, as a failure of the command.
fn parsed<T: FromArgMatches>(m: &clap::ArgMatches) -> Result<T, cli::Stop> {
    T::from_arg_matches(m).map_err(|e| cli::Stop::Failed(e.to_string()))
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
  character with no available move can only be solved with a price: it must surrender (IT-35).";

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

pub(super) fn solve_command() -> clap::Command {
    let command = clap::Command::new(IronTriangle::ID)
        .about("Iron Triangle's conflict turn.")
        .after_long_help(SOLVE_HELP)
        .subcommand_required(true);
    IronSolve::augment_subcommands(command)
}

pub(super) fn run_solve(m: &clap::ArgMatches) -> Outcome {
    let options: SolveOptions = parsed(m)?;
    let (json, numbers) = (options.json, options.numbers());
    match parsed::<IronSolve>(m)? {
        IronSolve::Turn {
            state,
            payoff,
            surrender,
        } => solve_turn(
            &state,
            Options {
                payoff: payoff.into(),
                surrender,
            },
            json,
            numbers,
        ),
        IronSolve::Conflict { state } => solve_conflict(&state, json),
        IronSolve::Moves {
            state,
            active_stance,
            opponent_stance,
            payoff,
            surrender,
            repeat,
        } => solve_moves(
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
    }
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
    revealed: Option<[crate::conflict::Stance; 2]>,
) -> Result<[crate::conflict::Stance; 2], String> {
    let mut out = revealed.unwrap_or([crate::conflict::Stance::NONE; 2]);
    for (slot, text) in out.iter_mut().zip(given) {
        if let Some(text) = text {
            *slot = parse_stance(&text)?;
        }
    }
    Ok(out)
}

fn parse_stance(text: &str) -> Result<crate::conflict::Stance, String> {
    use crate::conflict::Stance;
    let t = text.trim();
    if t.eq_ignore_ascii_case("none") || t == "0" {
        return Ok(Stance::NONE);
    }
    let (a, n) = t.split_at(1.min(t.len()));
    let action = match a.to_ascii_uppercase().as_str() {
        "D" => crate::Action::Defend,
        "G" => crate::Action::Grapple,
        "A" => crate::Action::Attack,
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

fn stance_text(s: &crate::conflict::Stance) -> String {
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
        return cli::json(&s);
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
    let stances = |m: &[turn_game::Mix<crate::conflict::Stance>]| {
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
        let moves = |v: &[turn_game::Mix<crate::conflict::MoveChoice>]| {
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
    let bar = if json {
        cli::ProgressBar::hidden()
    } else {
        cli::progress(1, "{bar:40} {pos}/{len} states  {elapsed_precise}")
    };
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
        return cli::json(&s);
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
    let stances = |m: &[duel::Weighted<crate::conflict::Stance>]| {
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
        return cli::json(&report);
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
