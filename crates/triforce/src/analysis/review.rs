//! The review of a finished Triforce game ([`Reviewed`]): the whole game is one contest, each
//! player a side.
//!
//! * **A player's chance** is its share of the wins in the strong bot's search from the
//!   position ([`MctsBot::value`]): [`CHANCE_PLAYOUTS`] playouts of the Monte-Carlo tree search,
//!   each played to the end or to the bot's horizon and then scored as TF-30 scores a game at
//!   its turn limit. A finished game scores its winners (TF-28 … TF-30).
//! * **A decision** (any command when the seat had more than one) is judged against the strong
//!   bot's choice: the command its search from the seat's position visits most
//!   ([`DECISION_PLAYOUTS`] playouts). Both that command and the one played are then valued
//!   the same way, by where they lead: every result of any dice they roll, each position
//!   valued by a search of [`DECISION_PLAYOUTS`] playouts from there (the same seed for both,
//!   so they meet the same luck in their playouts). Comparing the root's own means instead
//!   would not do: a search piles its playouts onto the first command that does well, and the
//!   one it neglects looks worse than it is. Triforce hides nothing, so the seat's table is
//!   the whole board.
//! * **Luck**: combat dice. Every result of the dice is played through the rules (the generic
//!   enumeration), grouped by the board it leaves (the faces shown are left out), and each
//!   board is valued as above.
//!
//! Searches are seeded by the step, so a review is the same every time it is run.

use clash_analysis::review::{Conflict, GameVerdict, Judged, Later, Reviewed, expected};
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
            format!("Chances come from {CHANCE_PLAYOUTS} playouts. A decision is compared with the command the bot's own search ({DECISION_PLAYOUTS} playouts) would have played, each valued by a search of {DECISION_PLAYOUTS} playouts from where it leads."),
            "Luck is in the combat dice: every result of the dice is weighed.".into(),
        ]
    }

    fn conflict(state: &State) -> Option<Conflict> {
        let sides = sides(state);
        let names: Vec<&str> = sides.iter().map(|s| s.name.as_str()).collect();
        Some(Conflict {
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
        _later: &Later<'_, Triforce>,
        seed: u64,
    ) -> Judged {
        let state = &table.view.table;
        if table.legal.len() < 2 || state.awaiting() != Some(table.seat) {
            return Judged::NotJudged;
        }
        let seats = Triforce::seats(state);
        let Some(side) = seats.iter().position(|s| *s == table.seat) else {
            return Judged::NotJudged;
        };
        let stats = MctsBot::with_playouts(DECISION_PLAYOUTS).search(state, seed);
        let Some(best) = stats
            .iter()
            .max_by(|a, b| a.visits.cmp(&b.visits).then(a.mean.total_cmp(&b.mean)))
            .map(|s| s.command)
        else {
            return Judged::Unevaluated("the search found no command".into());
        };
        // Each command's worth: the position it leads to (every result of its dice), valued
        // by a search of its own from there with the same seed, so both are compared on the
        // same luck of the playouts.
        let worth = |c: &Command| {
            expected::<Triforce>(state, table.seat, c, seed, |s| {
                let v = MctsBot::with_playouts(DECISION_PLAYOUTS).value(s, seed ^ 0x77);
                Some(v.to_vec())
            })
            .and_then(|v| v.get(side).copied())
        };
        let played = worth(command);
        let top = if best == *command {
            played
        } else {
            worth(&best)
        };
        match (played, top) {
            (Some(played), Some(top)) => Judged::Verdict(GameVerdict {
                side,
                played,
                best: top,
                best_choice: words(state, table.seat, &best),
                hindsight: None,
                basis: format!(
                    "the strong bot's search ({DECISION_PLAYOUTS} playouts) for its choice, and \
                     a search of as many playouts from where each command leads"
                ),
            }),
            _ => Judged::Unevaluated("the search could not value the command played".into()),
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
