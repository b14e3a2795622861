//! One Iron Triangle conflict turn resolved without a table, for solvers that resolve millions.
//!
//! Setting a turn up on a real [`crate::Table`] and sending the moves through
//! `decide`/`apply` costs microseconds; a duel solver resolves hundreds of millions of turns.
//! This module composes the engine's own pure rule functions instead, for turns in which no
//! special can act:
//!
//! * the winner: [`winner::judge`] (IT-48, D-1), with disadvantage from
//!   [`disadvantage::disadvantaged_by`] (IT-38);
//! * the loser's loss (IT-49): the winner's matched stance ([`Stance::matched_amount`], IT-34)
//!   times the winning move's multiplier, plus its base ([`Move::base`], IT-6), plus the combo
//!   bonus (one per card in the chain, IT-45, D-4) and the disadvantage bonus
//!   ([`disadvantage::bonus`], IT-39); the loser's own matched stance is a fixed part on its
//!   type (IT-51);
//! * a tie: each side loses the base of the other's move (IT-50);
//! * what a loss actually removes: [`losses::actual`] (D-35).
//!
//! The composition is the engine's `losses::resolve` without specials; the tests play random
//! turns (random moves, combos, piles, chains, stances and energies) both ways and compare
//! every payoff.

use crate::character::{Combo, Energy, PerAction};
use crate::conflict::{Stance, disadvantage, losses, winner};
use crate::variant::Rules;
use crate::{Action, Move};

/// A loss still to be placed: `fixed` on `fixed_type`, `free` split by the loser (IT-51).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Loss {
    pub fixed_type: Option<Action>,
    pub fixed: u32,
    pub free: u32,
}

impl Loss {
    /// What this loss removes from `current` (D-35: the fixed part floors at its type, the free
    /// part at the total left).
    pub fn actual(&self, current: PerAction<u32>) -> u32 {
        losses::actual(
            Energy::full(current),
            self.fixed_type,
            self.fixed,
            self.free,
        )
    }
}

/// How a turn came out. Slot 0 is the active character, slot 1 its opponent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolved {
    /// `winner` won; the other slot takes `loss`. `comboed`: the active character's winning
    /// move continued its chain (IT-44).
    Win {
        winner: usize,
        loss: Loss,
        comboed: bool,
    },
    /// Each slot takes its loss (IT-50).
    Tie { losses: [Loss; 2] },
}

/// What a turn's resolution depends on besides the stances and moves.
#[derive(Debug, Clone, Copy)]
pub struct Board<'a> {
    /// Both disadvantage piles, oldest first (IT-37).
    pub piles: [&'a [Move]; 2],
    /// The active character's live chain against the opponent, oldest first (IT-42).
    pub chain: &'a [Move],
    /// The active character's combos (IT-41).
    pub combos: &'a [Combo],
    /// The table's numbers (IT-39's and IT-45's bonus per card; [`crate::variant`]).
    pub rules: Rules,
}

impl Board<'_> {
    /// Whether the active character's `mv` continues its live chain: a combo from the chain's
    /// last card to `mv` (IT-44).
    pub fn combos(&self, mv: Move) -> bool {
        let Some(last) = self.chain.last() else {
            return false;
        };
        self.combos
            .iter()
            .any(|c| c.from == *last && c.followups.contains(&mv))
    }

    /// Resolve the moves `moves` played with `stances` (IT-48 … IT-51), no special acting.
    pub fn resolve(&self, stances: [Stance; 2], moves: [Move; 2]) -> Resolved {
        let dis = [0, 1].map(|s| disadvantage::disadvantaged_by(self.piles[s], moves[s]));
        match winner::judge(moves[0], dis[0], moves[1], dis[1]) {
            Some((first_wins, _)) => {
                let (w, l) = if first_wins { (0, 1) } else { (1, 0) };
                let (mw, ml) = (moves[w], moves[l]);
                let comboed = w == 0 && self.combos(mw);
                let combo_bonus = if comboed {
                    self.chain.len() as u32 * self.rules.combo_bonus
                } else {
                    0
                };
                let dis_bonus = if dis[l] {
                    disadvantage::bonus(self.piles[l], ml) * self.rules.disadvantage
                } else {
                    0
                };
                let from_stance = stances[w].matched_amount(mw) * mw.multiplier();
                let own = stances[l].matched_amount(ml);
                let loss = Loss {
                    fixed_type: stances[l].action.filter(|_| own > 0),
                    fixed: own,
                    free: from_stance + mw.base() + combo_bonus + dis_bonus,
                };
                Resolved::Win {
                    winner: w,
                    loss,
                    comboed,
                }
            }
            None => {
                let tie = |other: Move| Loss {
                    fixed_type: None,
                    fixed: 0,
                    free: other.base(),
                };
                Resolved::Tie {
                    losses: [tie(moves[1]), tie(moves[0])],
                }
            }
        }
    }
}
