//! What the table guards: which events show drawn or hidden cards, and which commands ask first.

use clash_core::Seat;

use crate::command::{Command, Event};
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

/// What someone away from the table wants to hear at once: a round's result, a party Wiped
/// Out, conceding or Reframing, and the end of the Conflict (ND-16, ND-22 to ND-25).
pub fn news(event: &Event) -> bool {
    matches!(
        event,
        Event::RoundResolved { .. }
            | Event::WipedOut { .. }
            | Event::Conceded { .. }
            | Event::Reframed { .. }
            | Event::ConflictEnded { .. }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CardSet;
    use crate::setup::Setup;
    use clash_core::Ruleset;

    fn state() -> State {
        let setup: Setup =
            serde_json::from_str(include_str!("../presets/four-sides.json")).unwrap();
        crate::NdTourists::setup(&setup).unwrap()
    }

    #[test]
    fn nd_10_nd_14_a_message_says_what_a_seat_is_asked() {
        let mut s = state();
        assert_eq!(
            crate::moves::asked(&s, Seat::Gm).as_deref(),
            Some("start the Conflict")
        );
        assert_eq!(crate::moves::asked(&s, Seat::Player(1)), None);
        let mut rng = clash_core::SeededRandomness::new(3);
        for e in crate::NdTourists::decide(&s, Seat::Gm, &Command::Start {}, &mut rng).unwrap() {
            crate::NdTourists::apply(&mut s, &e);
        }
        // Four sides, balanced: a Balance Breaker, where every party draws one card.
        let first = crate::NdTourists::status(&s).waiting_for[0];
        assert_eq!(
            crate::moves::asked(&s, first).as_deref(),
            Some("draw your card")
        );
    }

    #[test]
    fn nd_23_who_won_is_news_and_a_placement_is_not() {
        // Issue 38: a message away from the table tells who won, not every card.
        let end = Event::ConflictEnded {
            victor: Some(0),
            reason: crate::state::EndReason::LastPartyStanding,
        };
        assert!(news(&end) && news(&Event::WipedOut { party: 1 }));
        assert!(!news(&Event::Passed { party: 1 }));
    }

    #[test]
    fn nd_24_conceding_asks_first_and_names_who_leaves() {
        let s = state();
        let concede = Command::Concede {
            party: None,
            character: Some("Levinulon".into()),
        };
        let question = confirm(&s, Seat::Player(1), &concede).unwrap();
        assert!(question.contains("Levinulon") && question.contains("cannot come back"));
        assert_eq!(confirm(&s, Seat::Player(1), &Command::Turn {}), None);
    }

    #[test]
    fn nd_14_drawn_cards_reveal_and_passing_does_not() {
        assert!(!reveals(&Event::Passed { party: 0 }));
        assert!(reveals(&Event::DeckReshuffled {
            cards: CardSet::default()
        }));
    }
}
