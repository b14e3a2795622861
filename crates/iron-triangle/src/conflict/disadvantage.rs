//! Disadvantage piles (IT-37 … IT-40, D-2).

use super::{Conflict, FighterId};
use crate::moves::Move;

/// A move is disadvantaged when the pile is non-empty (the character lost the last turn it took
/// part in, D-2) and the move shares the action or the element of the pile's last card (IT-38).
pub fn is_disadvantaged(c: &Conflict, id: FighterId, mv: Move) -> bool {
    disadvantaged_by(&c.f(id).pile, mv)
}

pub fn disadvantaged_by(pile: &[Move], mv: Move) -> bool {
    pile.last().is_some_and(|last| mv.shares_with(*last))
}

/// The extra loss of a losing disadvantaged move: +1 per card in the pile (IT-39).
pub fn bonus(pile: &[Move], mv: Move) -> u32 {
    if disadvantaged_by(pile, mv) {
        pile.len() as u32
    } else {
        0
    }
}

/// The pile after a turn the character took part in (IT-40): a disadvantaged loss appends, any
/// other loss starts a new pile with the losing move (the others return), a win or tie clears.
pub fn after_turn(pile: &[Move], mv: Move, lost: bool) -> Vec<Move> {
    match (lost, disadvantaged_by(pile, mv)) {
        (false, _) => Vec::new(),
        (true, true) => {
            let mut next = pile.to_vec();
            next.push(mv);
            next
        }
        (true, false) => vec![mv],
    }
}
