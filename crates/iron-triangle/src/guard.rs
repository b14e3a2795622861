//! What the table guards: which events bring secrets into the open or show chance, and which
//! commands ask first.

use clash_core::Seat;

use crate::campaign::{CampaignCommand, CampaignEvent};
use crate::conflict::choice::MoveChoice;
use crate::conflict::{ConflictCommand, ConflictEvent};
use crate::{Command, Event, Table};

/// Stances, moves and face-down specials turned over (IT-2), a special played face up (an NPC's
/// specials are the GM's secret until used), a Scouter's report (D-26), an NPC's sheet shown
/// (IT-24), the picks of a problem shown (IT-15), and Drunken Monkey's random pick (D-30).
pub fn reveals(event: &Event) -> bool {
    match event {
        Event::Conflict(e) => matches!(
            e,
            ConflictEvent::StancesRevealed { .. }
                | ConflictEvent::MovesRevealed { .. }
                | ConflictEvent::SpecialsRevealed { .. }
                | ConflictEvent::SpecialPlayed {
                    face_down: false,
                    ..
                }
                | ConflictEvent::Scouted { .. }
                | ConflictEvent::NpcRevealed { .. }
                | ConflictEvent::MoveSwapped { .. }
        ),
        Event::Campaign(e) => matches!(e, CampaignEvent::ProblemRevealed { .. }),
    }
}

/// Who won a conflict, who surrendered, was killed or spared, how the end and a problem are
/// narrated, and a veto: what someone away from the table wants to hear at once.
pub fn news(event: &Event) -> bool {
    match event {
        Event::Conflict(e) => matches!(
            e,
            ConflictEvent::ConflictEnded { .. }
                | ConflictEvent::ConflictSettled { .. }
                | ConflictEvent::Surrendered { .. }
                | ConflictEvent::KilledOnTheSpot { .. }
                | ConflictEvent::Spared { .. }
                | ConflictEvent::ConflictNarrated { .. }
        ),
        Event::Campaign(e) => matches!(
            e,
            CampaignEvent::OutcomeNarrated { .. } | CampaignEvent::VetoDeclared { .. }
        ),
    }
}

/// Surrendering, killing a surrendered foe, marking a goal and ending the session cannot be
/// taken back once the table has seen them; and a conflict started while a player has no
/// living character goes on without that player (issue 38: it asks rather than leaving them
/// out unseen).
pub fn confirm(table: &Table, _seat: Seat, command: &Command) -> Option<String> {
    match command {
        Command::Conflict(ConflictCommand::StartConflict { .. }) => {
            let without: Vec<String> = table
                .players
                .iter()
                .filter(|s| crate::campaign::pc_of(table, **s).is_none())
                .map(|s| table.seat_name(*s))
                .collect();
            (!without.is_empty()).then(|| {
                let (who, has) = match without.len() {
                    1 => (without[0].clone(), "has"),
                    _ => (crate::names::list(&without), "have"),
                };
                format!(
                    "Start the conflict without {who}, who {has} no character yet? They sit it out."
                )
            })
        }
        Command::Conflict(ConflictCommand::PlayMove {
            character,
            choice: MoveChoice::Surrender,
        }) => Some(format!(
            "Surrender? {character} gives up this conflict turn and leaves the conflict."
        )),
        Command::Conflict(ConflictCommand::KillSurrendered {}) => {
            Some("Kill the surrendered opponent? In a lethal conflict this is final.".into())
        }
        Command::Campaign(CampaignCommand::MarkGoal {
            character,
            achieved,
        }) => Some(if *achieved {
            format!("Mark {character}'s goal as achieved? This counts towards levelling up.")
        } else {
            format!("Mark {character}'s goal as not achieved this session?")
        }),
        Command::Campaign(CampaignCommand::EndSession {}) => {
            Some("End the session? Goals are marked and characters level up next.".into())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{IronTriangle, Name};
    use clash_core::Ruleset;

    #[test]
    fn it_36_surrender_asks_first_and_a_chosen_move_does_not() {
        let setup = serde_json::from_str(include_str!("../presets/duel.json")).unwrap();
        let table = IronTriangle::setup(&setup).unwrap();
        let surrender = Command::Conflict(ConflictCommand::PlayMove {
            character: Name::from("Ada"),
            choice: MoveChoice::Surrender,
        });
        let question = confirm(&table, Seat::Player(1), &surrender).unwrap();
        assert!(question.starts_with("Surrender? Ada"), "{question}");
        let end = Command::Conflict(ConflictCommand::EndChain {});
        assert_eq!(confirm(&table, Seat::Player(1), &end), None);
    }

    #[test]
    fn it_23_a_conflict_started_while_a_player_has_no_character_asks_first() {
        // Issue 38: the duel with a third player seated, who has made no character yet.
        let mut setup: crate::Setup =
            serde_json::from_str(include_str!("../presets/team.json")).unwrap();
        let start = Command::Conflict(ConflictCommand::StartConflict {
            stakes: "The ledger".into(),
            npcs: vec![Name::from("Brute")],
            lethal: false,
            minor: false,
        });
        let table = IronTriangle::setup(&setup).unwrap();
        assert_eq!(confirm(&table, Seat::Gm, &start), None, "everyone has a PC");
        setup.players = vec![Seat::Player(3)];
        let table = IronTriangle::setup(&setup).unwrap();
        let question = confirm(&table, Seat::Gm, &start).unwrap();
        assert_eq!(
            question,
            "Start the conflict without the third player, who has no character yet? They sit it out."
        );
    }

    #[test]
    fn it_1_between_conflicts_the_gm_is_asked_to_move_the_story_on() {
        let setup = serde_json::from_str(include_str!("../presets/team.json")).unwrap();
        let table = IronTriangle::setup(&setup).unwrap();
        assert_eq!(
            crate::status::asked(&table, Seat::Gm).as_deref(),
            Some("move the story on: a conflict, a problem or a rest")
        );
        assert_eq!(crate::status::asked(&table, Seat::Player(1)), None);
    }

    #[test]
    fn it_27_who_won_a_conflict_is_news_and_joining_it_is_not() {
        // Issue 38: a message away from the table says who won.
        let ended = Event::Conflict(ConflictEvent::ConflictEnded {
            outcome: crate::conflict::Outcome {
                winner: Some(crate::conflict::Side::Players),
                reason: "Brute is out".into(),
                dead: Vec::new(),
                narration: None,
            },
        });
        assert!(news(&ended));
        let joined = Event::Conflict(ConflictEvent::JoinedConflict {
            character: Name::from("Ada"),
        });
        assert!(!news(&joined));
    }

    #[test]
    fn it_2_a_stance_taken_face_down_reveals_nothing_and_the_reveal_does() {
        let stance = crate::conflict::Stance {
            action: None,
            amount: 0,
        };
        let stances = Event::Conflict(ConflictEvent::StancesRevealed {
            active: (Name::from("Ada"), stance),
            opponent: (Name::from("Brute"), stance),
        });
        assert!(reveals(&stances));
        let joined = Event::Conflict(ConflictEvent::JoinedConflict {
            character: Name::from("Ada"),
        });
        assert!(!reveals(&joined));
    }
}
