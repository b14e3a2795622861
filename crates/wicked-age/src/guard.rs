//! What the table guards: which events show rolled dice, and which commands ask first.

use clash_core::Seat;

use crate::Command;
use crate::state::{Event, State};

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

/// What someone away from the table wants to hear at once: who is knocked out or concedes, a
/// proposal to end the conflict and its agreement, how the conflict ends, the consequences
/// chosen and the alternatives offered, accepted or refused, a death, the conflict closed and a
/// chapter's end (WA-24 to WA-29, WA-17).
pub fn news(event: &Event) -> bool {
    matches!(
        event,
        Event::KnockedOut { .. }
            | Event::EndProposed { .. }
            | Event::EndAgreed { .. }
            | Event::ConflictEnded { .. }
            | Event::ConsequenceChosen { .. }
            | Event::AlternativeProposed { .. }
            | Event::AlternativeRefused { .. }
            | Event::AlternativeAccepted { .. }
            | Event::Died { .. }
            | Event::ConflictClosed
            | Event::ChapterEnded { .. }
            | Event::OracleClaimed { .. }
    )
}

/// Conceding gives the conflict away and cannot be taken back (WA-25).
pub fn confirm(state: &State, _seat: Seat, command: &Command) -> Option<String> {
    match command {
        // WA-17.1: the chapter cannot be reopened, and the oldest entry is spent on the Oracle.
        Command::EndChapter {} => Some(match state.owe_list.first() {
            Some(e) => format!(
                "End chapter {}? Chapter {} begins; {} returns in it and the Owe List entry for {} is crossed off. This cannot be taken back.",
                state.chapter,
                state.chapter + 1,
                e.character,
                e.character
            ),
            None => format!(
                "End chapter {}? Chapter {} begins. This cannot be taken back.",
                state.chapter,
                state.chapter + 1
            ),
        }),
        // WA-17.3, WA-18: the entry is crossed off for good.
        Command::CashInOwe { pc, entry } => Some(format!(
            "Cash in the Owe List entry for {entry}? It is crossed off for good, and {pc} adds an Owe d6 to every roll until this conflict ends."
        )),
        Command::Concede { character, to } => Some(format!(
            "Concede the conflict? {character} gives in to {to}, who chooses the consequences. This cannot be taken back."
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wa_25_wa_17_proposals_concessions_and_chapter_ends_are_news() {
        // Issue 38: they reach a player away from the table; a roll is a reveal instead.
        let proposal = Event::EndProposed {
            character: "Ysolde".into(),
            terms: "We part ways".into(),
        };
        assert!(news(&proposal) && news(&Event::ChapterEnded { chapter: 2 }));
        assert!(news(&Event::EndAgreed {
            character: "Oren".into()
        }));
        assert!(!news(&Event::RoundStarted { round: 2 }));
    }
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
        // WA-17: ending the chapter and cashing in an entry cannot be taken back either.
        let end = confirm(&state, Seat::Gm, &Command::EndChapter {}).unwrap();
        assert!(end.starts_with("End chapter 1? Chapter 2 begins"), "{end}");
        let owe = Command::CashInOwe {
            pc: "Ash".into(),
            entry: "Ash".into(),
        };
        let cash = confirm(&state, Seat::Player(1), &owe).unwrap();
        assert!(
            cash.contains("crossed off for good") && cash.contains("Owe d6"),
            "{cash}"
        );
        for q in [question, end, cash] {
            assert!(clash_core::text::raw_tokens(&q).is_empty(), "{q}");
        }
        assert!(!reveals(&Event::RoundStarted { round: 2 }));
        assert!(!reveals(&Event::EndAgreed {
            character: "Ash".into()
        }));
    }
}
