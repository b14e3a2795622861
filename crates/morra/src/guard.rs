//! What the table guards: a chosen hand is a secret until the reveal shows both, and a player
//! away from the table is told what the game waits on them for.

use clash_core::{Ruleset, Seat};

use crate::Morra;
use crate::command::Event;
use crate::state::{State, player};

/// `seat` has chosen a hand the other player has not seen yet.
pub(crate) fn secret_pending(state: &State, seat: Seat) -> bool {
    player(seat).is_some_and(|i| state.over.is_none() && state.hands[i].is_some())
}

/// The reveal shows the hands.
pub(crate) fn reveals(event: &Event) -> bool {
    matches!(event, Event::Revealed { .. })
}

/// What the game waits on `seat` for.
pub(crate) fn asked(state: &State, seat: Seat) -> Option<String> {
    <Morra as Ruleset>::status(state)
        .waiting_for
        .contains(&seat)
        .then(|| "show your fingers and call the total".into())
}
