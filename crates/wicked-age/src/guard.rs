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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::WickedAge;
    use clash_core::Ruleset;

    #[test]
    fn wa_25_conceding_asks_first_and_names_both_sides() {
        let setup = serde_json::from_str(include_str!("../presets/brawl.json")).unwrap();
        let state = WickedAge::setup(&setup).unwrap();
        let concede = Command::Concede {
            character: "Ash".into(),
            to: "Bryn".into(),
        };
        let question = confirm(&state, Seat::Player(1), &concede).unwrap();
        assert!(question.contains("Ash gives in to Bryn"), "{question}");
        assert!(!reveals(&Event::RoundStarted { round: 2 }));
        assert!(!reveals(&Event::EndAgreed {
            character: "Ash".into()
        }));
    }
}
