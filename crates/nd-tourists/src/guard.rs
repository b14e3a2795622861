//! What the table guards: which events show drawn or hidden cards, and which commands ask first.

use clash_core::Seat;

use crate::events::{Command, Event};
use crate::state::State;

/// Cards drawn from the deck or into a Reserve are chance; a Reserve card laid as a cover was
/// hidden until then (ND-20).
pub fn reveals(event: &Event) -> bool {
    matches!(
        event,
        Event::ReserveDrawn { .. }
            | Event::DeckReshuffled { .. }
            | Event::CardPlaced { .. }
            | Event::ExcuseDrawn { .. }
            | Event::CardCovered { .. }
    )
}

/// Conceding takes a party or a character out of the Conflict for good (ND-24, ND-31).
pub fn confirm(state: &State, seat: Seat, command: &Command) -> Option<String> {
    let Command::Concede { party, character } = command else {
        return None;
    };
    let who = match (character, party) {
        (Some(c), _) => c.clone(),
        (None, Some(p)) => p.clone(),
        (None, None) => <crate::NdTourists as clash_core::Ruleset>::seat_name(state, seat),
    };
    Some(format!(
        "Concede? {who} leaves the Conflict and cannot come back into it."
    ))
}
