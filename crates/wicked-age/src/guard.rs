//! What the table guards: which events show rolled dice, and which commands ask first.

use clash_core::Seat;

use crate::Command;
use crate::table::{Event, State};

/// Initiative, challenges and answers are rolled (WA-20 to WA-23): their dice are news.
pub fn reveals(event: &Event) -> bool {
    matches!(
        event,
        Event::InitiativeRolled { .. }
            | Event::InitiativeTieRerolled { .. }
            | Event::InitiativeOrdered { .. }
            | Event::Challenged { .. }
            | Event::Answered { .. }
    )
}

/// Conceding gives the conflict away and cannot be taken back (WA-25).
pub fn confirm(_state: &State, _seat: Seat, command: &Command) -> Option<String> {
    match command {
        Command::Concede { character, to } => Some(format!(
            "Concede the conflict? {character} gives in to {to}, who chooses the consequences. This cannot be taken back."
        )),
        _ => None,
    }
}
