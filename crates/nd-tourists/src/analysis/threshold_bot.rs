//! N-Dimensional Tourists bot: bids while the chance that its next card improves its position
//! exceeds a threshold.
//!
//! "Improving" depends on the party's role in an Unbalanced round (ND-17):
//! * a **Contender** not yet breaking the Dominant improves if the next card makes its line
//!   break the Dominant's (the exact chance is [`crate::analysis::draw_odds::break_probability`] over the
//!   Dominant cards it does not beat yet);
//! * the **Dominant**, while some Contender breaks it, improves if the next card is beaten by
//!   none of the breaking Contenders' cards (the engine's [`Knowledge::next_draw`]);
//! * a party already where it wants to be passes, since every card risks a reversal.
//!
//! The chance is taken from the party's own knowledge ([`Knowledge::of_party`]), and the bot is
//! more careful as reversed cards pile up: with `r` reversed cards it needs
//! `threshold + caution · r`, and it never bids a fifth reversed card's risk (4 reversed) unless
//! the chance is at least ½. In a Balance Breaker everyone must draw. When its turn to react to
//! a card comes (D-4), the bot lets the card stand; the GM starts and continues rounds, and
//! nobody concedes.

use crate::probability::Knowledge;
use crate::state::{Phase, RoundKind};
use crate::{Card, Command, NdTourists, State, beats};
use clash_core::{Randomness, Ruleset, Seat};

use clash_analysis::bots::{Bot, pick_random};

/// Threshold bidder.
#[derive(Debug, Clone)]
pub struct ThresholdBot {
    /// Bid when the chance of improving is at least this…
    pub threshold: f64,
    /// …plus this much per reversed card already in the line.
    pub caution: f64,
}

impl Default for ThresholdBot {
    fn default() -> Self {
        ThresholdBot {
            threshold: 0.2,
            caution: 0.05,
        }
    }
}

fn cards(state: &State, party: u8) -> Vec<Card> {
    state
        .party(party)
        .map(|p| {
            p.bid_line
                .iter()
                .filter(|b| !b.narrative)
                .map(|b| b.card)
                .collect()
        })
        .unwrap_or_default()
}

/// Whether `line` breaks `dominant` (every Dominant card beaten by some card of the line).
fn breaks(line: &[Card], dominant: &[Card]) -> bool {
    dominant.iter().all(|d| line.iter().any(|c| beats(*c, *d)))
}

/// The chance that `party`'s next card improves its position, from its own knowledge.
pub fn improvement_chance(state: &State, party: u8) -> f64 {
    let Some(dom) = state.dominant else {
        return 1.0;
    };
    let knowledge = Knowledge::of_party(state, party);
    let dom_cards = cards(state, dom);
    if party == dom {
        let breakers: Vec<Vec<Card>> = state
            .in_play()
            .filter(|p| *p != dom)
            .map(|p| cards(state, p))
            .filter(|l| breaks(l, &dom_cards))
            .collect();
        if breakers.is_empty() {
            return 0.0;
        }
        let unbeaten = |c: Card| breakers.iter().all(|l| !l.iter().any(|x| beats(*x, c)));
        return knowledge.next_draw(unbeaten).map_or(0.0, |f| f.to_f64());
    }
    let mine = cards(state, party);
    if breaks(&mine, &dom_cards) {
        return 0.0;
    }
    let missing: Vec<Card> = dom_cards
        .iter()
        .copied()
        .filter(|d| !mine.iter().any(|c| beats(*c, *d)))
        .collect();
    crate::analysis::draw_odds::break_probability(&knowledge, &missing, 1)
        .map_or(0.0, |p| clash_analysis::matrix_game::Scalar::to_f64(&p))
}

impl ThresholdBot {
    fn wants_to_bid(&self, state: &State, party: u8) -> bool {
        if state.round.kind == RoundKind::BalanceBreaker {
            return true;
        }
        let reversed = state.party(party).map_or(0, |p| p.reversed_count());
        let chance = improvement_chance(state, party);
        let needed = if reversed >= 4 {
            0.5f64.max(self.threshold)
        } else {
            self.threshold + self.caution * f64::from(reversed)
        };
        chance >= needed
    }
}

impl Bot<NdTourists> for ThresholdBot {
    fn choose(&mut self, state: &State, seat: Seat, rng: &mut dyn Randomness) -> Option<Command> {
        let legal = NdTourists::legal_commands(state, seat);
        let find = |f: fn(&Command) -> bool| legal.iter().find(|c| f(c)).cloned();
        match state.phase {
            Phase::Preparing => return find(|c| matches!(c, Command::Start {})),
            Phase::Aftermath => return find(|c| matches!(c, Command::NextRound {})),
            Phase::Ended => return None,
            Phase::Bidding => {}
        }
        // D-14: a rejected bot spends its first face-up Loss card (Temporary first, oldest first).
        if let Some(spend) = find(|c| matches!(c, Command::SpendLoss { .. })) {
            return Some(spend);
        }
        // D-4: reactions are left to people; when its turn to react comes, the bot lets the
        // placement stand.
        if let Some(stand) = find(|c| matches!(c, Command::LetItStand { .. })) {
            return Some(stand);
        }
        let party = state.round.turn?;
        let bids: Vec<Command> = legal
            .iter()
            .filter(|c| matches!(c, Command::Bid { .. }))
            .cloned()
            .collect();
        let pass = find(|c| matches!(c, Command::Pass { .. }));
        match (bids.is_empty(), pass) {
            (false, Some(pass)) => {
                if self.wants_to_bid(state, party) {
                    pick_random(bids, rng)
                } else {
                    Some(pass)
                }
            }
            (false, None) => pick_random(bids, rng),
            (true, Some(pass)) => Some(pass),
            (true, None) => None,
        }
    }
}
