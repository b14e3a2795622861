//! Timing harness for `bench/peers/run.sh`, Iron Triangle's part: the move game, the exact
//! two-stage turn and a whole duel, each solved many times and printed with the time per solve
//! as JSON, and the stage games for the peer tools to solve.
//!
//! ```text
//! peers_iron_triangle moves STATE.json STANCE STANCE     print the move game's matrix
//! peers_iron_triangle turn STATE.json REPEAT             time the exact two-stage turn (and its parts)
//! peers_iron_triangle turn-games STATE.json              every move game of the turn, for peers
//! peers_iron_triangle duel STATE.json REPEAT             time a whole duel; every stage game, for peers
//! ```

use std::time::Instant;

use clash_analysis::matrix_game;
use iron_triangle::analysis::turn_game;
use serde_json::{Value, json};

fn time<T>(repeat: u32, mut f: impl FnMut() -> T) -> (T, f64) {
    let mut last = f();
    let start = Instant::now();
    for _ in 0..repeat.max(1) {
        last = std::hint::black_box(f());
    }
    (
        last,
        start.elapsed().as_secs_f64() / f64::from(repeat.max(1)),
    )
}

fn run(args: &[String]) -> Result<Value, String> {
    let repeat = |s: Option<&String>| s.and_then(|s| s.parse::<u32>().ok()).unwrap_or(1000);
    match args.first().map(String::as_str) {
        Some("turn") => {
            let path = args.get(1).ok_or("peers turn STATE.json REPEAT")?;
            let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
            let spec: turn_game::TurnSpec =
                serde_json::from_str(&text).map_err(|e| e.to_string())?;
            let (r, t) = time(repeat(args.get(2)), || {
                turn_game::solve_turn(&spec, turn_game::Payoff::Energy)
            });
            let r = r.map_err(|e| e.to_string())?;
            let (sa, sb) = &r.stance_options;
            let values: Vec<Vec<_>> = (0..sa.len())
                .map(|i| {
                    (0..sb.len())
                        .map(|j| r.stage_values[&(i, j)].clone())
                        .collect()
                })
                .collect();
            let (_, ts) = time(repeat(args.get(2)), || {
                clash_analysis::certified::solve_rational(&values)
            });
            let pos = turn_game::TurnPosition::new(&spec).map_err(|e| e.to_string())?;
            let games = || -> Vec<turn_game::MoveGame> {
                sa.iter()
                    .flat_map(|x| {
                        sb.iter()
                            .map(|y| pos.move_matrix(*x, *y, turn_game::Payoff::Energy).unwrap())
                    })
                    .collect()
            };
            let (gs, tm) = time(repeat(args.get(2)), games);
            let (_, tf) = time(repeat(args.get(2)), || {
                gs.iter()
                    .map(|g| matrix_game::solve_f64(&g.matrix).unwrap().value)
                    .sum::<f64>()
            });
            let (_, tc) = time(repeat(args.get(2)), || {
                gs.iter()
                    .map(|g| {
                        clash_analysis::certified::solve_integer(&g.matrix)
                            .unwrap()
                            .1
                    })
                    .collect::<Vec<_>>()
            });
            Ok(
                json!({"value": r.value.fraction, "value_decimal": r.value.decimal, "games": r.games, "proofs": r.proofs, "seconds": t, "seconds_stance_game": ts, "seconds_matrices": tm, "seconds_f64": tf, "seconds_certified": tc}),
            )
        }
        Some("turn-games") => {
            // Every move game of the two-stage turn, for peers to solve the same pipeline.
            let path = args.get(1).ok_or("peers turn-games STATE.json")?;
            let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
            let spec: turn_game::TurnSpec =
                serde_json::from_str(&text).map_err(|e| e.to_string())?;
            let pos = turn_game::TurnPosition::new(&spec).map_err(|e| e.to_string())?;
            let (a, b) = pos.names();
            let (sa, sb) = (pos.stances(a), pos.stances(b));
            let mut games = Vec::new();
            for x in &sa {
                for y in &sb {
                    games.push(
                        pos.move_matrix(*x, *y, turn_game::Payoff::Energy)
                            .map_err(|e| e.to_string())?
                            .matrix,
                    );
                }
            }
            Ok(json!({"rows": sa.len(), "cols": sb.len(), "games": games}))
        }
        Some("duel") => {
            // A whole duel: Clash's time, and every stage game for peers to solve.
            let path = args.get(1).ok_or("peers duel STATE.json REPEAT")?;
            let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
            let spec: turn_game::TurnSpec =
                serde_json::from_str(&text).map_err(|e| e.to_string())?;
            let (r, t) = time(repeat(args.get(2)), || {
                iron_triangle::analysis::duel::solve_duel(&spec, &mut |_| {})
            });
            let r = r.map_err(|e| e.to_string())?;
            let (_, stages) = iron_triangle::analysis::duel::solve_duel_with_games(&spec)
                .map_err(|e| e.to_string())?;
            Ok(json!({"value": r.value, "states": r.states, "seconds": t, "stages": stages}))
        }
        Some("moves") => {
            let [_, path, sa, sb, ..] = args else {
                return Err("peers moves STATE.json STANCE STANCE".into());
            };
            let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
            let spec: turn_game::TurnSpec =
                serde_json::from_str(&text).map_err(|e| e.to_string())?;
            let g =
                turn_game::move_game(&spec, stance(sa)?, stance(sb)?, turn_game::Payoff::Energy)
                    .map_err(|e| e.to_string())?;
            Ok(json!(g.matrix))
        }
        _ => Err("peers_iron_triangle moves|turn|turn-games|duel …".into()),
    }
}

/// `none`, `D2`, `G1`, `A3`, …
fn stance(text: &str) -> Result<iron_triangle::conflict::Stance, String> {
    use iron_triangle::Action;
    use iron_triangle::conflict::Stance;
    if text.eq_ignore_ascii_case("none") {
        return Ok(Stance::NONE);
    }
    let action = match text.get(..1) {
        Some("D") => Action::Defend,
        Some("G") => Action::Grapple,
        Some("A") => Action::Attack,
        _ => return Err(format!("bad stance {text:?}")),
    };
    let amount = text
        .get(1..)
        .and_then(|n| n.parse().ok())
        .ok_or(format!("bad stance {text:?}"))?;
    Ok(Stance::new(Some(action), amount))
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(v) => {
            // A reader that left early is not an error.
            use std::io::Write;
            let _ = writeln!(std::io::stdout().lock(), "{v}");
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("peers_iron_triangle: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
