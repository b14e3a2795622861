//! `clash odds`, `clash solve` and `clash simulate`: the analysis library behind a command line.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};
use clash_analysis::contests::{
    BotKind, IronContest, TouristsContest, TriforceContest, WickedContest,
};
use clash_analysis::duel::{self, ChainPolicy};
use clash_analysis::exact::Probability;
use clash_analysis::matrix_game::{self, Scalar};
use clash_analysis::simulate::{Contest, Summary, simulate};
use clash_analysis::turn_game::{self, Options, Payoff, TurnSpec};
use clash_analysis::{combat_odds, draw_odds, histogram, wicked_odds};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

type Outcome = Result<(), String>;

fn finish(what: &str, r: Outcome) -> ExitCode {
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("clash {what}: {e}");
            ExitCode::FAILURE
        }
    }
}

fn print_json<T: Serialize>(value: &T) -> Outcome {
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    println!("{text}");
    Ok(())
}

fn row(label: &str, p: &Probability) {
    println!("  {label:<44} {:>28}  {:>10.6}", p.fraction, p.decimal);
}

// ---------------------------------------------------------------------------------------------
// clash odds

/// Exact odds, as reduced fractions and decimals.
#[derive(Args)]
#[command(after_long_help = ODDS_HELP)]
pub struct OddsArgs {
    #[command(subcommand)]
    system: OddsSystem,
    /// Print JSON: every probability as {"fraction": "63/640", "decimal": 0.0984375}.
    #[arg(long, global = true)]
    json: bool,
}

const ODDS_HELP: &str = "\
Input syntax
  In A Wicked Age pools: dice joined by '+'. dN = form die (High/Low), bN = bonus die added to P,
    adv = the Advantage d6, owe = an Owe d6.  Examples: d12+d8, d8+d4+adv, d6+d6+b8 (strength d8).
  Triforce participants: plain | sword | shield, one word per participant (2 to 6; at most one
    sword and one shield).
  N-Dimensional Tourists cards: comma-separated names: XIV, Paper Servant, Excuse, Blank Rock 1.
  Iron Triangle is diceless: see `clash solve iron-triangle`.

Examples
  clash odds wicked-age exchange d10+d6 d12+d8            (spec P1)
  clash odds wicked-age exchange d10+d6 d12+d8 --round 3  (P3)
  clash odds wicked-age exchange d10+d6 d12+d8 --opening  (P9)
  clash odds wicked-age conflict d12+d8 d10+d6            (P8, P10)
  clash odds triforce combat sword shield plain
  clash odds nd-tourists break --targets XVI --seen 'XIV, IV' --unseen 1 --draws 2
  clash odds nd-tourists reversed --already 2 --draws 1";

#[derive(Subcommand)]
enum OddsSystem {
    /// In A Wicked Age: one exchange, or a whole two-party conflict.
    #[command(name = "wicked-age", subcommand)]
    WickedAge(WickedQuery),
    /// Triforce: one combat's losers.
    #[command(subcommand)]
    Triforce(TriforceQuery),
    /// N-Dimensional Tourists: breaking a set with the next draws; reversed cards after k draws.
    #[command(name = "nd-tourists", subcommand)]
    NdTourists(TouristsQuery),
}

#[derive(Subcommand)]
enum WickedQuery {
    /// One exchange: the answer's pool against the challenge's pool (WA-23 bands).
    Exchange {
        /// The answer's dice, e.g. d10+d6
        answer: String,
        /// The challenge's dice, e.g. d12+d8
        challenge: String,
        /// Round 1 or 2 (four bands) or 3 (challenger out / answerer out).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=3))]
        round: u8,
        /// The challenge is the challenger's standing initiative roll, given that it beat the
        /// answerer's initiative (spec P9) instead of a fresh roll.
        #[arg(long)]
        opening: bool,
    },
    /// A whole two-party conflict with fixed dice (spec P10), plus first-round initiative (P8).
    Conflict {
        /// X's dice, e.g. d12+d8
        x: String,
        /// Y's dice, e.g. d10+d6
        y: String,
    },
}

#[derive(Subcommand)]
enum TriforceQuery {
    /// Each participant's chance of losing one combat (TF-23 … TF-26).
    Combat {
        /// plain, sword or shield for each participant (2 to 6).
        #[arg(required = true, num_args = 2..=6)]
        participants: Vec<String>,
    },
}

#[derive(Subcommand)]
enum TouristsQuery {
    /// Chance that the next k draws break a set of cards (each beaten by some drawn card).
    Break {
        /// The cards to break, comma-separated (e.g. the Dominant's line).
        #[arg(long)]
        targets: String,
        /// Cards the asker has seen leave the deck, comma-separated.
        #[arg(long, default_value = "")]
        seen: String,
        /// Cards out of the deck that the asker has not seen (other parties' Reserves).
        #[arg(long, default_value_t = 0)]
        unseen: usize,
        /// Number of draws.
        #[arg(long, default_value_t = 1)]
        draws: usize,
        /// The 10 suit blanks are in the deck (D-1).
        #[arg(long)]
        blanks: bool,
    },
    /// Distribution of reversed cards (and the Loss they mean) after k more draws.
    Reversed {
        /// Reversed cards already in the bid line.
        #[arg(long, default_value_t = 0)]
        already: u32,
        /// Number of draws.
        #[arg(long, default_value_t = 1)]
        draws: u32,
    },
}

pub fn odds(args: OddsArgs) -> ExitCode {
    let json = args.json;
    let r = match args.system {
        OddsSystem::WickedAge(q) => wicked(q, json),
        OddsSystem::Triforce(TriforceQuery::Combat { participants }) => {
            triforce_combat(&participants, json)
        }
        OddsSystem::NdTourists(q) => tourists(q, json),
    };
    finish("odds", r)
}

fn wicked(q: WickedQuery, json: bool) -> Outcome {
    let pool = |t: &str| wicked_odds::parse_pool(t).map_err(|e| e.to_string());
    match q {
        WickedQuery::Exchange {
            answer,
            challenge,
            round,
            opening,
        } => {
            let kind = if opening {
                wicked_odds::ChallengeKind::Opening
            } else {
                wicked_odds::ChallengeKind::Fresh
            };
            let r = wicked_odds::exchange(&pool(&answer)?, &pool(&challenge)?, round, kind)
                .map_err(|e| e.to_string())?;
            if json {
                return print_json(&r);
            }
            let how = if opening {
                "standing initiative roll"
            } else {
                "fresh roll"
            };
            println!(
                "Answer {} against challenge {} ({how}), round {}:",
                r.answer, r.challenge, r.round
            );
            for b in &r.bands {
                row(b.text, &b.probability);
            }
            if let Some(p) = &r.answer_at_least_challenge {
                row("answer at least the challenge", p);
            }
            Ok(())
        }
        WickedQuery::Conflict { x, y } => {
            let r = wicked_odds::conflict(&pool(&x)?, &pool(&y)?).map_err(|e| e.to_string())?;
            if json {
                return print_json(&r);
            }
            println!(
                "Whole conflict, X = {} against Y = {} (no negotiation, no strengths):",
                r.x, r.y
            );
            row("X wins", &r.x_wins);
            row("Y wins", &r.y_wins);
            println!("First-round initiative:");
            row("X strictly higher on one roll", &r.initiative_x_higher);
            row("exact tie (rerolled)", &r.initiative_tie);
            row("Y strictly higher on one roll", &r.initiative_y_higher);
            row("X first after rerolling ties", &r.x_first_after_rerolls);
            Ok(())
        }
    }
}

fn triforce_combat(words: &[String], json: bool) -> Outcome {
    let gear = words
        .iter()
        .map(|w| combat_odds::parse_gear(w))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let r = combat_odds::combat(&gear).map_err(|e| e.to_string())?;
    if json {
        return print_json(&r);
    }
    println!("One Triforce combat (d12 each; sword d12+d12 wins ties; shield d20 loses ties):");
    for (i, (g, p)) in r.participants.iter().zip(&r.loses).enumerate() {
        let (name, what) = match g {
            triforce::Gear::None => ("plain", "loses a piece"),
            triforce::Gear::Sword => ("sword", "loses the sword"),
            triforce::Gear::Shield => ("shield", "loses the shield"),
        };
        row(&format!("#{} {name}: {what}", i + 1), p);
    }
    println!("Loser sets (add up to 1):");
    for s in &r.loser_sets {
        let names: Vec<String> = s.losers.iter().map(|i| format!("#{}", i + 1)).collect();
        row(&names.join(" + "), &s.probability);
    }
    Ok(())
}

fn tourists(q: TouristsQuery, json: bool) -> Outcome {
    match q {
        TouristsQuery::Break {
            targets,
            seen,
            unseen,
            draws,
            blanks,
        } => {
            let targets = draw_odds::parse_cards(&targets).map_err(|e| e.to_string())?;
            let seen_out = draw_odds::parse_cards(&seen)
                .map_err(|e| e.to_string())?
                .into_iter()
                .collect();
            let k = nd_tourists::probability::Knowledge {
                seen_out,
                unseen_out: unseen,
                blanks,
            };
            let r = draw_odds::break_report(&k, &targets, draws).map_err(|e| e.to_string())?;
            if json {
                return print_json(&r);
            }
            let names: Vec<String> = r.targets.iter().map(|c| c.to_string()).collect();
            println!(
                "{} draw(s) from {} cards the asker has not seen ({} seen out, {} out unseen):",
                r.draws, r.candidates, r.seen_out, r.unseen_out
            );
            row(&format!("break {{{}}}", names.join(", ")), &r.breaks);
            for (c, p) in &r.per_target {
                row(&format!("  beat {c}"), p);
            }
            Ok(())
        }
        TouristsQuery::Reversed { already, draws } => {
            let r = draw_odds::reversed_report(already, draws).map_err(|e| e.to_string())?;
            if json {
                return print_json(&r);
            }
            println!("Reversed cards after {draws} more draw(s), from {already} (ND-2, ND-21):");
            for c in &r.counts {
                row(
                    &format!("{} reversed ({:?})", c.reversed, c.severity),
                    &c.probability,
                );
            }
            println!("Loss at the end of the round:");
            for (s, p) in &r.severities {
                row(&format!("{s:?}"), p);
            }
            Ok(())
        }
    }
}

// ---------------------------------------------------------------------------------------------
// clash solve

/// Exact equilibria of zero-sum games.
#[derive(Args)]
#[command(after_long_help = SOLVE_HELP)]
pub struct SolveArgs {
    #[command(subcommand)]
    what: SolveWhat,
    /// Print JSON.
    #[arg(long, global = true)]
    json: bool,
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
  moves D-M, G-L, A-H), \"combos\" and \"pile\" are optional; \"chain\" is the active character's
  live chain against the opponent, oldest first.

Payoffs (--payoff): energy = energy the opponent loses minus energy the active character loses
  (default); win = +1 win, -1 loss, 0 tie (maximises P(win) - P(loss)).

Surrender (--surrender COST): not offered by default, because it ends the character's part in
  the conflict, which a one-turn payoff cannot value (the engine settles it with no winner check
  and no energy change, D-10). With a price, Surrender joins each side's moves (when the engine
  allows it: never for a Samurai, D-11) and the surrenderer scores -COST, its opponent +COST;
  both surrendering score 0. With --payoff win, COST 1 counts a surrender as a lost turn. A
  character with no available move can only be solved with a price: it must surrender (IT-35).

Matrix file, for `clash solve matrix FILE`: a JSON array of rows of integers, payoffs to the row
  player, e.g. [[0, -1, 2], [1, 0, -1], [-1, 1, 0]].";

#[derive(Subcommand)]
enum SolveWhat {
    /// Iron Triangle's conflict turn.
    #[command(name = "iron-triangle", subcommand)]
    IronTriangle(IronSolve),
    /// Any zero-sum matrix game given as a JSON array of integer rows.
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
    /// A whole duel between two level-0 characters: P(win) - P(loss) for the first (the PC,
    /// active first) against the second (the GM's NPC), by backward induction over conflict
    /// states.
    Conflict {
        /// The two characters, in the turn state format (combos not allowed; at most 3 energy
        /// per type and 6 in all per character).
        #[arg(long)]
        state: PathBuf,
    },
    /// The move game once given stances are revealed: its payoff matrix and equilibrium.
    Moves {
        #[arg(long)]
        state: PathBuf,
        /// The active character's stance: none, or D2, G1, A3, …
        #[arg(long, default_value = "none")]
        active_stance: String,
        /// The opponent's stance.
        #[arg(long, default_value = "none")]
        opponent_stance: String,
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
    let r = match args.what {
        SolveWhat::Matrix {
            file,
            float,
            repeat,
        } => solve_matrix(&file, float, repeat, json),
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
            &active_stance,
            &opponent_stance,
            Options {
                payoff: payoff.into(),
                surrender,
            },
            repeat,
            json,
        ),
    };
    finish("solve", r)
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, String> {
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

fn solve_matrix(file: &Path, float: bool, repeat: u32, json: bool) -> Outcome {
    let m: Vec<Vec<i64>> = read_json(file)?;
    let report = if float {
        let (s, t) = timed(repeat, || {
            matrix_game::solve_f64(&m).map_err(|e| e.to_string())
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
        let (s, t) = timed(repeat, || {
            matrix_game::solve_exact(&m).map_err(|e| e.to_string())
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
        return print_json(&report);
    }
    println!(
        "Value {} ({:.9}); {} per solve over {repeat} solve(s)",
        report.value.fraction,
        report.value_decimal,
        seconds(report.seconds_per_solve)
    );
    let fmt = |v: &[Probability]| {
        v.iter()
            .map(|p| p.fraction.clone())
            .collect::<Vec<_>>()
            .join("  ")
    };
    println!("Rows:    {}", fmt(&report.row));
    println!("Columns: {}", fmt(&report.col));
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

fn solve_turn(path: &Path, opts: Options, json: bool) -> Outcome {
    let spec: TurnSpec = read_json(path)?;
    let start = Instant::now();
    let s = turn_game::solve_turn(&spec, opts).map_err(|e| e.to_string())?;
    let elapsed = start.elapsed().as_secs_f64();
    if json {
        return print_json(&s);
    }
    let surrender = s
        .surrender
        .map_or(String::new(), |c| format!(", Surrender offered at {c}"));
    println!(
        "Iron Triangle turn: {} (active) against {}; payoff {:?}{surrender}",
        s.active, s.opponent, s.payoff
    );
    println!(
        "Value to {}: {} ({:.6})   [{} move games solved exactly in {}]",
        s.active,
        s.value.fraction,
        s.value.decimal,
        s.games,
        seconds(elapsed)
    );
    let mix = |m: &[turn_game::Mix<iron_triangle::conflict::Stance>]| {
        m.iter()
            .map(|x| format!("{} {}", stance_text(&x.option), x.probability.fraction))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!("Stances, {}: {}", s.active, mix(&s.stances_active));
    println!("Stances, {}: {}", s.opponent, mix(&s.stances_opponent));
    for m in &s.moves {
        let moves = |v: &[turn_game::Mix<iron_triangle::conflict::MoveChoice>]| {
            v.iter()
                .map(|x| format!("{} {}", x.option, x.probability.fraction))
                .collect::<Vec<_>>()
                .join(", ")
        };
        println!(
            "  after {} vs {} (worth {}): {} plays {}; {} plays {}",
            stance_text(&m.stance_active),
            stance_text(&m.stance_opponent),
            m.value.fraction,
            s.active,
            moves(&m.active),
            s.opponent,
            moves(&m.opponent)
        );
    }
    Ok(())
}

fn solve_conflict(path: &Path, json: bool) -> Outcome {
    let spec: TurnSpec = read_json(path)?;
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
    let solved = duel::solve_duel(&spec, ChainPolicy::End, &mut |p| {
        bar.set_length(p.discovered as u64);
        bar.set_position(p.solved as u64);
    });
    bar.finish_and_clear();
    let s = solved.map_err(|e| e.to_string())?;
    let elapsed = start.elapsed().as_secs_f64();
    if json {
        return print_json(&s);
    }
    println!(
        "Iron Triangle duel: {} (PC, active first) against {} (NPC), lesser conflict",
        s.first, s.second
    );
    println!(
        "Value to {}: {:+.6} = P(win) - P(loss); P({} wins) = {:.6}",
        s.first, s.value, s.first, s.first_wins
    );
    println!("{} states solved in {}", s.states, seconds(elapsed));
    let mix = |m: &[duel::Weighted<iron_triangle::conflict::Stance>]| {
        m.iter()
            .map(|x| format!("{} {:.4}", stance_text(&x.option), x.probability))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!(
        "First turn, stances, {}: {}",
        s.first,
        mix(&s.stances_first)
    );
    println!(
        "First turn, stances, {}: {}",
        s.second,
        mix(&s.stances_second)
    );
    for m in &s.moves {
        let moves = |v: &[duel::Weighted<iron_triangle::conflict::MoveChoice>]| {
            v.iter()
                .map(|x| format!("{} {:.4}", x.option, x.probability))
                .collect::<Vec<_>>()
                .join(", ")
        };
        println!(
            "  after {} vs {} (worth {:+.4}): {} plays {}; {} plays {}",
            stance_text(&m.stance_first),
            stance_text(&m.stance_second),
            m.value,
            s.first,
            moves(&m.first),
            s.second,
            moves(&m.second)
        );
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

fn solve_moves(path: &Path, sa: &str, sb: &str, opts: Options, repeat: u32, json: bool) -> Outcome {
    let spec: TurnSpec = read_json(path)?;
    let g = turn_game::move_game(&spec, parse_stance(sa)?, parse_stance(sb)?, opts)
        .map_err(|e| e.to_string())?;
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
        return print_json(&report);
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
    print!("{:>label$}", "");
    for c in &report.cols {
        print!("{c:>width$}");
    }
    println!();
    for (r, line) in report.rows.iter().zip(&report.matrix) {
        print!("{r:>label$}");
        for x in line {
            print!("{x:>width$}");
        }
        println!();
    }
    println!(
        "Value {} ({:.6})",
        report.value.fraction, report.value.decimal
    );
    let mix = |names: &[String], ps: &[Probability]| {
        names
            .iter()
            .zip(ps)
            .filter(|(_, p)| p.fraction != "0/1")
            .map(|(n, p)| format!("{n} {}", p.fraction))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!("Active plays:   {}", mix(&report.rows, &report.active));
    println!("Opponent plays: {}", mix(&report.cols, &report.opponent));
    println!(
        "Per solve over {repeat}: exact {}, f64 {}",
        seconds(exact_t),
        seconds(float_t)
    );
    Ok(())
}

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
    #[arg(long, default_value_t = 200)]
    games: u64,
    /// Seed: the same seed gives the same results, whatever the number of threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Draw a histogram of game lengths (.svg with labels, or .png).
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
    /// Bot per seat, comma-separated: smart or random (default: smart everywhere).
    #[arg(long, value_delimiter = ',')]
    bots: Vec<String>,
    /// Triforce: number of players (3 to 6).
    #[arg(long, default_value_t = 3)]
    players: u8,
    /// Triforce: MCTS playouts per decision.
    #[arg(long, default_value_t = 64)]
    playouts: u32,
    /// Triforce: MCTS horizon, turns played after the current one before a playout is scored by
    /// territory (TF-30).
    #[arg(long, default_value_t = 6)]
    playout_turns: u32,
    /// Triforce: turn limit (TF-30's optional parameter) so every game ends.
    #[arg(long, default_value_t = 150)]
    turn_limit: u32,
    /// N-Dimensional Tourists: bid threshold of the bots.
    #[arg(long, default_value_t = 0.2)]
    threshold: f64,
    /// N-Dimensional Tourists: round limit.
    #[arg(long, default_value_t = 30)]
    max_rounds: u16,
    /// A setup file for the ruleset (wicked-age, nd-tourists, iron-triangle), in the scenario
    /// setup format; default: the built-in duel (see docs/analysis.md).
    #[arg(long)]
    setup: Option<PathBuf>,
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

fn bot_kinds(words: &[String], n: usize) -> Result<Vec<BotKind>, String> {
    let mut kinds = words
        .iter()
        .map(|w| w.parse::<BotKind>())
        .collect::<Result<Vec<_>, _>>()?;
    kinds.resize(n.max(kinds.len()), BotKind::Smart);
    Ok(kinds)
}

fn contest(args: &SimulateArgs) -> Result<Box<dyn Contest>, String> {
    Ok(match args.system {
        SimSystem::Triforce => {
            if !(3..=6).contains(&args.players) {
                return Err("Triforce has 3 to 6 players (TF-5)".into());
            }
            Box::new(TriforceContest {
                players: args.players,
                bots: bot_kinds(&args.bots, usize::from(args.players))?,
                playouts: args.playouts.max(1),
                playout_turns: args.playout_turns,
                turn_limit: args.turn_limit.max(1),
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
            c.threshold = args.threshold;
            c.max_rounds = args.max_rounds.max(1);
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
    finish("simulate", run_simulation(&args))
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
        args.threads,
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
        return print_json(&summary);
    }
    print_summary(args, &summary, elapsed);
    Ok(())
}

fn system_name(s: SimSystem) -> &'static str {
    match s {
        SimSystem::Triforce => "Triforce",
        SimSystem::WickedAge => "In A Wicked Age",
        SimSystem::NdTourists => "N-Dimensional Tourists",
        SimSystem::IronTriangle => "Iron Triangle",
    }
}

fn print_summary(args: &SimulateArgs, s: &Summary, elapsed: f64) {
    println!(
        "{}: {} games, seed {}, {:.2} s",
        system_name(args.system),
        s.games,
        s.seed,
        elapsed
    );
    println!("  {:<14} {:>7} {:>8}   95% interval", "", "wins", "rate");
    for r in &s.rates {
        println!(
            "  {:<14} {:>7} {:>7.1}%   [{:.1}%, {:.1}%]",
            r.contestant,
            r.wins,
            100.0 * r.rate,
            100.0 * r.low,
            100.0 * r.high
        );
    }
    println!(
        "  no winner: {}, shared wins: {}, cut off at the limit: {}",
        s.no_winner, s.shared, s.cut_off
    );
    println!(
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
        println!("  {range:>9} {n:>6} {bar}");
    }
    if let Some(p) = &args.plot {
        println!("  histogram written to {}", p.display());
    }
}
