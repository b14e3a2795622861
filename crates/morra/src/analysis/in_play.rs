//! Odds in play ([`SeatOdds`]): while a player has a hand to choose, each hand's chance of
//! scoring and of conceding if the other player chose any hand with equal chance, and how often
//! the equilibrium shows it. Nothing of the other player's hand is used (MO-8): the odds are
//! the same whatever it is, and are shown only from the seat's own view.

use clash_core::{Seat, SeatOdds};
use serde::Serialize;

use crate::analysis::round::{HandOdds, hand_odds};
use crate::{Morra, View, player};

/// A seat's odds for its next hand.
#[derive(Debug, Clone, Serialize)]
pub struct Odds {
    pub hands: Vec<HandOdds>,
}

impl SeatOdds for Morra {
    type Odds = Odds;

    fn odds(view: &View, seat: Seat) -> Option<Odds> {
        let me = view.players.get(player(seat)?)?;
        if view.outcome.is_some() || me.chosen {
            return None;
        }
        Some(Odds {
            hands: hand_odds().ok()?,
        })
    }
}
