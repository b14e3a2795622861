//! A game of Morra as it stands ([`State`]): the scores, the round and each player's hand,
//! the last reveal and how the game ended, and applying an event to it.

use clash_core::Seat;
use serde::{Deserialize, Serialize};

use crate::command::{Event, Hand};

/// What the round just revealed showed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reveal {
    pub round: u32,
    pub hands: [Hand; 2],
    pub total: u8,
    /// The player who alone was right and scored, by seat order (0 or 1).
    pub scorer: Option<usize>,
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum Outcome {
    /// The player (by seat order) won.
    Win {
        player: usize,
    },
    Draw,
}

/// A game of Morra in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub names: [String; 2],
    pub target: u32,
    pub round_limit: u32,
    pub round: u32,
    pub scores: [u32; 2],
    /// Each player's hand for this round, once chosen (secret until both are in).
    pub hands: [Option<Hand>; 2],
    pub last: Option<Reveal>,
    pub over: Option<Outcome>,
}

/// The seat of player `i` (0 or 1).
pub fn seat(i: usize) -> Seat {
    Seat::Player(i as u8 + 1)
}

/// The player (0 or 1) sitting in `seat`.
pub fn player(seat: Seat) -> Option<usize> {
    match seat {
        Seat::Player(n @ 1..=2) => Some(usize::from(n) - 1),
        _ => None,
    }
}

/// The name of the player in `seat` ("the GM" for any other seat).
pub fn seat_name(state: &State, seat: Seat) -> String {
    match player(seat) {
        Some(i) => state.names[i].clone(),
        None => "the GM".into(),
    }
}

/// How the game stands to end, if it does now: a player at the target (MO-12), or the round
/// limit played out (MO-13).
pub(crate) fn ending(
    round: u32,
    round_limit: u32,
    target: u32,
    scores: [u32; 2],
) -> Option<Outcome> {
    if scores.iter().all(|s| *s < target) && round <= round_limit {
        return None;
    }
    Some(match scores[0].cmp(&scores[1]) {
        std::cmp::Ordering::Greater => Outcome::Win { player: 0 },
        std::cmp::Ordering::Less => Outcome::Win { player: 1 },
        std::cmp::Ordering::Equal => Outcome::Draw,
    })
}

/// Both hands scored (MO-9 to MO-11).
pub fn reveal(round: u32, hands: [Hand; 2]) -> Reveal {
    let total = hands[0].fingers + hands[1].fingers;
    let right = hands.map(|h| h.call == total);
    let scorer = match right {
        [true, false] => Some(0),
        [false, true] => Some(1),
        _ => None,
    };
    Reveal {
        round,
        hands,
        total,
        scorer,
    }
}

/// Apply one event to the state.
pub(crate) fn apply(state: &mut State, event: &Event) {
    match event {
        Event::Chosen { seat, hand } => {
            if let Some(i) = player(*seat) {
                state.hands[i] = *hand;
            }
        }
        Event::Revealed { reveal } => {
            if let Some(s) = reveal.scorer {
                state.scores[s] += u32::from(reveal.total);
            }
            state.hands = [None, None];
            state.round = reveal.round + 1;
            state.last = Some(reveal.clone());
        }
        Event::GameOver { outcome } => state.over = Some(*outcome),
    }
}
