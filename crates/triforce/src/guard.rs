//! What the table guards: which events show the outcome of chance, and which commands ask first.
//!
//! Triforce has no hidden information; only the dice of a fight (TF-24 to TF-26) are chance.
//! No command needs a second thought: every action is undone by the GM if it was a slip, as
//! long as no die was rolled since.

use crate::turn::Event;

/// A fight's dice are the only outcome nobody could know before.
pub fn reveals(event: &Event) -> bool {
    matches!(event, Event::Battle(_))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clash_core::Seat;

    #[test]
    fn only_fights_reveal() {
        // TF-24: a fight rolls dice; a turn starting rolls nothing.
        assert!(!reveals(&Event::TurnStarted {
            seat: Seat::Player(1),
            turn: 1
        }));
        assert!(!reveals(&Event::TurnEnded {
            seat: Seat::Player(1)
        }));
    }
}
