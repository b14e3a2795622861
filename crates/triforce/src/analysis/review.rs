//! The review of a finished Triforce game ([`Reviewed`]): the whole game is one contest, each
//! player a side.
//!
//! * **A player's chance** is its share of the wins in the strong bot's search from the
//!   position ([`MctsBot::value`]): [`CHANCE_PLAYOUTS`] playouts of the Monte-Carlo tree search,
//!   each played to the end or to the bot's horizon and then scored as TF-30 scores a game at
//!   its turn limit. A finished game scores its winners (TF-28 … TF-30).
//! * **A decision** (any command when the seat had more than one) is judged by the same
//!   search from the seat's position ([`DECISION_PLAYOUTS`] playouts): the command it would
//!   play is the one it visits most; when the seat played another, a second search shares
//!   [`DECISION_PLAYOUTS`] playouts between just those two, and the verdict is their mean
//!   rewards for the seat. Triforce hides nothing, so the seat's table is the whole board.
//! * **Luck**: combat dice. Every result of the dice is played through the rules (the generic
//!   enumeration), grouped by the board it leaves (the faces shown are left out), and each
//!   board is valued as above.
//!
//! Searches are seeded by the step, so a review is the same every time it is run.

use clash_analysis::review::{Conflict, GameVerdict, Judged, Reviewed};
use clash_core::review::Side;
use clash_core::{Ruleset, Seat, SeatTable};

use crate::analysis::mcts::{MctsBot, rewards};
use crate::{Command, State, Triforce};

/// Playouts behind each chance of the chart.
pub const CHANCE_PLAYOUTS: u32 = 400;
/// Playouts behind each decision's search (and again behind the comparison of two commands).
pub const DECISION_PLAYOUTS: u32 = 800;

fn seat_index(seat: Seat) -> Option<usize> {
    match seat {
        Seat::Player(n) if n >= 1 => Some(usize::from(n - 1)),
        _ => None,
    }
}

fn sides(state: &State) -> Vec<Side> {
    Triforce::seats(state)
        .into_iter()
        .map(|s| Side {
            name: state.name_of(s),
            seats: vec![s],
        })
        .collect()
}

/// A command in words, as a player would say it.
fn words(state: &State, seat: Seat, command: &Command) -> String {
    let mut s = *state;
    let mut events = Vec::new();
    let mut rng = clash_core::SeededRandomness::new(0);
    match crate::turn::step(&mut s, seat, command, &mut rng, &mut events) {
        Ok(()) => events
            .first()
            .map(|e| crate::view::narrate(state, e))
            .unwrap_or_else(|| format!("{command:?}")),
        Err(_) => String::from("another command"),
    }
}

impl Reviewed for Triforce {
    fn measure() -> Vec<String> {
        vec![
            "A player's chance is their share of the wins when the strong bot's search plays on from the position (each playout played to the end, or scored by who holds the most stacks once six turns are played).".into(),
            format!("Chances come from {CHANCE_PLAYOUTS} playouts; each decision is compared with the bot's own choice over {DECISION_PLAYOUTS} playouts, and again over {DECISION_PLAYOUTS} shared between the two."),
            "Luck is in the combat dice: every result of the dice is weighed.".into(),
        ]
    }

    fn conflict(state: &State) -> Option<Conflict> {
        let sides = sides(state);
        let names: Vec<&str> = sides.iter().map(|s| s.name.as_str()).collect();
        Some(Conflict {
            number: 1,
            title: format!("The game: {}", join(&names)),
            sides,
        })
    }

    fn chances(state: &State, seed: u64) -> Result<Vec<f64>, String> {
        let value = MctsBot::with_playouts(CHANCE_PLAYOUTS).value(state, seed);
        Ok(Triforce::seats(state)
            .into_iter()
            .map(|s| {
                seat_index(s)
                    .and_then(|i| value.get(i).copied())
                    .unwrap_or(0.0)
            })
            .collect())
    }

    fn result(state: &State) -> Option<Vec<f64>> {
        state.outcome()?;
        let r = rewards(state);
        Some(
            Triforce::seats(state)
                .into_iter()
                .map(|s| seat_index(s).and_then(|i| r.get(i).copied()).unwrap_or(0.0))
                .collect(),
        )
    }

    fn decision(
        table: &SeatTable<Triforce>,
        command: &Command,
        _after: &State,
        seed: u64,
    ) -> Judged {
        let state = &table.view.table;
        if table.legal.len() < 2 || state.awaiting() != Some(table.seat) {
            return Judged::NotJudged;
        }
        let Some(side) = Triforce::seats(state).iter().position(|s| *s == table.seat) else {
            return Judged::NotJudged;
        };
        let bot = MctsBot::with_playouts(DECISION_PLAYOUTS);
        let stats = bot.search(state, seed);
        let Some(best) = stats
            .iter()
            .max_by(|a, b| a.visits.cmp(&b.visits).then(a.mean.total_cmp(&b.mean)))
        else {
            return Judged::Unevaluated("the search found no command".into());
        };
        let basis = format!("the strong bot's search, {DECISION_PLAYOUTS} playouts");
        if best.command == *command {
            return Judged::Verdict(GameVerdict {
                side,
                played: best.mean,
                best: best.mean,
                best_choice: words(state, table.seat, &best.command),
                hindsight: None,
                basis,
            });
        }
        let pair = bot.search_among(state, seed ^ 1, &[best.command, *command]);
        let mean = |c: &Command| pair.iter().find(|s| s.command == *c).map(|s| s.mean);
        match (mean(&best.command), mean(command)) {
            (Some(b), Some(p)) => Judged::Verdict(GameVerdict {
                side,
                played: p,
                best: b,
                best_choice: words(state, table.seat, &best.command),
                hindsight: None,
                basis: format!(
                    "{basis}, then {DECISION_PLAYOUTS} shared between its choice and this one"
                ),
            }),
            _ => Judged::Unevaluated("the search could not compare the command played".into()),
        }
    }

    fn luck_key(state: &State) -> String {
        // The faces of the last combat are shown but never read again.
        let mut s = *state;
        s.last_battle = None;
        serde_json::to_string(&s).unwrap_or_default()
    }
}

/// "Ada, Bo and Cy".
fn join(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
