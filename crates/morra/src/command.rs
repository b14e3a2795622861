//! What a player sends (a [`Hand`] as a [`Command`]) and what the rules decide from it
//! ([`Event`]): choosing, revealing and ending (MO-3 to MO-13).

use clash_core::{Randomness, RuleError, Seat};
use serde::{Deserialize, Serialize};

use crate::limits::{CALLS, FINGERS};
use crate::state::{Outcome, Reveal, State, ending, player, reveal};
use crate::view::fingers;

/// One player's hand for a round: the fingers shown and the total called.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "morra/"))]
pub struct Hand {
    pub fingers: u8,
    pub call: u8,
}

impl Hand {
    /// Every hand the rules allow (MO-3 to MO-5), by fingers then call.
    pub fn all() -> Vec<Hand> {
        FINGERS
            .flat_map(|fingers| (1..=3).map(move |more| Hand::new(fingers, fingers + more)))
            .collect()
    }

    pub const fn new(fingers: u8, call: u8) -> Hand {
        Hand { fingers, call }
    }

    /// The hand as the rules allow it, or the rule it breaks.
    pub fn check(self) -> Result<Hand, RuleError> {
        if !FINGERS.contains(&self.fingers) {
            return Err(RuleError::illegal(
                "MO-3",
                format!(
                    "a hand shows one, two or three fingers, not {}",
                    self.fingers
                ),
            ));
        }
        if !CALLS.contains(&self.call) {
            return Err(RuleError::illegal(
                "MO-4",
                format!("a call is a total from 2 to 6, not {}", self.call),
            ));
        }
        let (low, high) = (self.fingers + 1, self.fingers + 3);
        if !(low..=high).contains(&self.call) {
            return Err(RuleError::illegal(
                "MO-5",
                format!(
                    "showing {}, the total can only be {low} to {high}: a call of {} cannot be right",
                    fingers(self.fingers),
                    self.call
                ),
            ));
        }
        Ok(self)
    }
}

/// What a player sends: the hand for this round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "morra/"))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Show `fingers` and call `call` (MO-3 to MO-5).
    Show { fingers: u8, call: u8 },
}

/// What happens at a Morra table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// `seat` chose its hand; `hand` is `None` as anyone else sees it (MO-8).
    Chosen { seat: Seat, hand: Option<Hand> },
    /// Both hands shown and the round scored (MO-9 to MO-11); the next round begins.
    Revealed { reveal: Reveal },
    /// The game ended (MO-12, MO-13).
    GameOver { outcome: Outcome },
}

/// The events `command` from `by` brings about, or the rule it breaks.
pub(crate) fn decide(
    state: &State,
    by: Seat,
    command: &Command,
    _rng: &mut dyn Randomness,
) -> Result<Vec<Event>, RuleError> {
    if state.over.is_some() {
        return Err(RuleError::illegal(
            "MO-12",
            "the game is over: no more hands are played",
        ));
    }
    let Some(i) = player(by) else {
        return Err(RuleError::not_your_call(
            "MO-7",
            by,
            "only the two players choose hands",
        ));
    };
    if state.hands[i].is_some() {
        return Err(RuleError::illegal(
            "MO-6",
            "you have chosen your hand for this round: it is final until both are shown",
        ));
    }
    let Command::Show { fingers, call } = *command;
    let hand = Hand::new(fingers, call).check()?;
    let mut events = vec![Event::Chosen {
        seat: by,
        hand: Some(hand),
    }];
    if let Some(other) = state.hands[1 - i] {
        let mut hands = [hand, hand];
        hands[1 - i] = other;
        let r = reveal(state.round, hands);
        let mut scores = state.scores;
        if let Some(s) = r.scorer {
            scores[s] += u32::from(r.total);
        }
        events.push(Event::Revealed { reveal: r });
        if let Some(outcome) = ending(state.round + 1, state.round_limit, state.target, scores) {
            events.push(Event::GameOver { outcome });
        }
    }
    Ok(events)
}

/// Every hand `by` may show now.
pub(crate) fn legal_commands(state: &State, by: Seat) -> Vec<Command> {
    match player(by) {
        Some(i) if state.over.is_none() && state.hands[i].is_none() => Hand::all()
            .into_iter()
            .map(|h| Command::Show {
                fingers: h.fingers,
                call: h.call,
            })
            .collect(),
        _ => Vec::new(),
    }
}
