//! Combo chains (IT-41 … IT-47, D-3 … D-8).

use clash_core::{RuleError, Seat};
use serde::{Deserialize, Serialize};

use super::{
    ChainEnd, Conflict, ConflictEvent, FighterId, Side, Step, controller, current_turn, running,
};
use crate::Table;
use crate::moves::Move;

/// The most consecutive wins one character may have in a chain (IT-46).
pub const MAX_RUN: u32 = 3;

/// One face-up card of a chain and whose it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Card {
    pub owner: FighterId,
    #[serde(rename = "move")]
    pub mv: Move,
}

/// A live chain: the winning side's face-up cards against one loser (IT-42).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chain {
    pub side: Side,
    pub against: FighterId,
    pub cards: Vec<Card>,
}

impl Chain {
    pub fn start(side: Side, against: FighterId, card: Card) -> Chain {
        Chain {
            side,
            against,
            cards: vec![card],
        }
    }

    pub fn last(&self) -> Option<Move> {
        self.cards.last().map(|c| c.mv)
    }

    /// How many of the latest cards are `id`'s: its consecutive wins in this chain (IT-46, D-7).
    pub fn run_of(&self, id: FighterId) -> u32 {
        self.cards
            .iter()
            .rev()
            .take_while(|c| c.owner == id)
            .count() as u32
    }

    pub fn moves(&self) -> Vec<Move> {
        self.cards.iter().map(|c| c.mv).collect()
    }
}

/// Whether `mv` played by the active character continues the live chain: they know a combo from
/// the chain's last card, whoever's it is, to `mv` (IT-44, D-4, D-5).
pub fn combos(
    table: &Table,
    c: &Conflict,
    active: FighterId,
    opponent: FighterId,
    mv: Move,
) -> bool {
    let Some(chain) = &c.chain else { return false };
    if chain.against != opponent || chain.side != c.f(active).side {
        return false;
    }
    let Some(last) = chain.last() else {
        return false;
    };
    super::character(table, c, active)
        .followups(last)
        .contains(&mv)
}

/// The combo bonus of a winning combo: +1 per card already in the chain (IT-45, D-4).
pub fn bonus(c: &Conflict) -> u32 {
    c.chain.as_ref().map_or(0, |ch| ch.cards.len() as u32)
}

/// The chain after a win by `winner` with `mv` over `loser` (IT-42, IT-45, D-6).
pub fn after_win(
    c: &Conflict,
    winner: FighterId,
    loser: FighterId,
    mv: Move,
    comboed: bool,
) -> Chain {
    let card = Card { owner: winner, mv };
    match (&c.chain, comboed) {
        (Some(chain), true) => {
            let mut next = chain.clone();
            next.cards.push(card);
            next
        }
        _ => Chain::start(c.f(winner).side, loser, card),
    }
}

/// The active character ends the live chain before choosing a move (IT-43).
pub fn end_chain(table: &Table, seat: Seat, out: &mut Vec<ConflictEvent>) -> Result<(), RuleError> {
    let c = running(table, "IT-43")?;
    let turn = current_turn(c, "IT-43")?;
    if controller(table, c, turn.active) != seat {
        return Err(RuleError::not_your_call(
            "IT-43",
            seat,
            "only the active character may end the chain",
        ));
    }
    let Some(chain) = &c.chain else {
        return Err(RuleError::illegal("IT-43", "there is no live chain"));
    };
    let before_move = matches!(turn.step, Step::PickOpponent | Step::Stances)
        || (turn.step == Step::Moves && turn.moves[0].is_none());
    if !before_move {
        return Err(RuleError::illegal(
            "IT-43",
            "the chain may be ended only before the active character chooses a move",
        ));
    }
    out.push(ConflictEvent::ChainEnded {
        reason: ChainEnd::Voluntary,
        cards: chain.moves(),
    });
    Ok(())
}

pub fn apply(table: &mut Table, event: &ConflictEvent) {
    if let (Some(c), ConflictEvent::ChainEnded { .. }) = (table.conflict.as_mut(), event) {
        c.chain = None;
    }
}
