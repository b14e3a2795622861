//! Odds in play ([`SeatOdds`]): for a party of this seat about to bid, the chance that its next
//! draw beats each card on the other parties' bid lines (ND-3), from what the seat's own view
//! shows: the other parties' Reserves are counted but unseen (ND-20).

use clash_analysis::exact::Probability;
use clash_core::{Seat, SeatOdds};
use serde::Serialize;

use crate::NdTourists;
use crate::cards::{Card, CardSet};
use crate::probability::Knowledge;
use crate::state::Phase;
use crate::variant::Rules;
use crate::view::View;

/// A seat's odds: its bidding party and the cards its next draw may beat.
#[derive(Debug, Clone, Serialize)]
pub struct Odds {
    pub party: String,
    pub beats: Vec<Beat>,
}

/// The chance that the next draw beats one card on another party's bid line.
#[derive(Debug, Clone, Serialize)]
pub struct Beat {
    pub party: String,
    pub card: Card,
    pub chance: Probability,
}

/// What this seat knows of where the cards are: every card on the table and in its own
/// Reserves is out of the deck; the other Reserves are only counted (ND-20).
fn knowledge(view: &View) -> Knowledge {
    let mut seen = CardSet::EMPTY;
    let mut unseen = 0usize;
    let mut see = |c: Card| seen.insert(c);
    view.discard.iter().for_each(|c| see(*c));
    for p in &view.parties {
        p.bid_line.iter().for_each(|b| see(b.card));
        p.temporary.iter().for_each(|t| see(t.card));
        for l in &p.lasting {
            l.cards.iter().for_each(|c| see(c.card));
        }
        for ch in &p.characters {
            match &ch.reserve {
                Some(own) => own.iter().for_each(|r| see(r.card)),
                None => unseen += ch.reserve_count,
            }
        }
    }
    // The table's variant (in the seat's position) says which printed cards are out of the deck;
    // the deck's size tells whether the table plays with the ten suit blanks (D-1).
    let rules = view
        .position
        .as_ref()
        .and_then(|p| Rules::of(p.variant.as_ref()).ok())
        .unwrap_or_default();
    let left_out = rules.left_out();
    let standard = CardSet::full_deck(false).minus(left_out).minus(seen).len();
    let blanks = rules.blanks || standard < view.deck_count + unseen;
    Knowledge {
        seen_out: seen,
        unseen_out: unseen,
        blanks,
        left_out,
    }
}

impl SeatOdds for NdTourists {
    type Odds = Odds;

    /// For each party of this seat whose turn it is to bid, the chance that its next draw beats
    /// each card on the other parties' bid lines (ND-3).
    fn odds(view: &View, seat: Seat) -> Option<Odds> {
        if view.phase != Phase::Bidding || view.round.window.is_some() {
            return None;
        }
        let turn = usize::from(view.round.turn?);
        let mine = view.parties.get(turn)?;
        if mine.seat != seat {
            return None;
        }
        let known = knowledge(view);
        let mut beats = Vec::new();
        let others = view.parties.iter().enumerate().filter(|(i, _)| *i != turn);
        for (_, p) in others {
            for b in &p.bid_line {
                if let Some(f) = known.next_draw_beats(b.card) {
                    beats.push(Beat {
                        party: p.name.clone(),
                        card: b.card,
                        chance: Probability::from(f),
                    });
                }
            }
        }
        Some(Odds {
            party: mine.name.clone(),
            beats,
        })
    }
}
