//! What the table guards: which events show the outcome of chance, and which commands ask first.
//!
//! Triforce has no hidden information; only the dice of a fight (TF-24 to TF-26) are chance.
//! No command needs a second thought: every action is undone by the GM if it was a slip, as
//! long as no die was rolled since. A message away from the table says what the game waits on
//! a player for ([`asked`]).

use clash_core::Seat;

use crate::state::{Phase, State};
use crate::turn::{ACTIONS_PER_TURN, Event};

/// A fight's dice are the only outcome nobody could know before.
pub fn reveals(event: &Event) -> bool {
    matches!(event, Event::Battle(_))
}

/// What the game waits on `seat` for, in words for a message (TF-12, TF-20, TF-22).
pub fn asked(state: &State, seat: Seat) -> Option<String> {
    if state.awaiting() != Some(seat) {
        return None;
    }
    let left = ACTIONS_PER_TURN.saturating_sub(state.actions_taken());
    Some(match state.phase() {
        Phase::Actions if left == ACTIONS_PER_TURN => {
            format!("play your turn ({left} actions: place, move or end it)")
        }
        Phase::Actions if left == 1 => "finish your turn (1 action left)".into(),
        Phase::Actions => format!("finish your turn ({left} actions left)"),
        Phase::ChooseStack => "choose the next contested stack to resolve".into(),
        Phase::Sword { .. } => "say whether you take a sword on the contested stack".into(),
        Phase::Shield { .. } => "say whether you take a shield on the contested stack".into(),
        Phase::Roll { .. } | Phase::TurnOver | Phase::Over => return None,
    })
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
